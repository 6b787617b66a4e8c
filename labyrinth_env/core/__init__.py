"""Kernels and tables shared by every ruleset: RNG and dice, board geometry, tile
rotation, reachability, and the fixed-width event buffer."""
