"""Labyrinth: Paths of Destiny, 3rd edition (``paths_of_destiny_3e_v0``)."""

from labyrinth_env.rulesets.paths_of_destiny_3e.env import env, raw_env

__all__ = ["env", "raw_env"]
