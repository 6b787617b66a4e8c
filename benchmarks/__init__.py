"""Benchmarks for labyrinth-env (speed goals are checked here, never in tests).

``python benchmarks/throughput.py --help`` measures AEC, raw and kernel throughput and
compile times for every env id, with PettingZoo's connect_four_v3 as the reference row.
"""
