"""Labyrinth: The Paths of Destiny, 2011 edition (``paths_of_destiny_2011_v0``)."""

from labyrinth_env.rulesets.paths_of_destiny_2011.env import env, raw_env

__all__ = ["env", "raw_env"]
