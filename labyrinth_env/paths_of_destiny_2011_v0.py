"""``paths_of_destiny_2011_v0``: PettingZoo's ``env()`` / ``raw_env`` pair for Paths of Destiny, 2011 edition."""

from labyrinth_env.rulesets.paths_of_destiny_2011.env import env, raw_env

__all__ = ["env", "raw_env"]
