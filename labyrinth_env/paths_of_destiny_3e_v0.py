"""``paths_of_destiny_3e_v0``: PettingZoo's ``env()`` / ``raw_env`` pair for Paths of Destiny, 3rd edition."""

from labyrinth_env.rulesets.paths_of_destiny_3e.env import env, raw_env

__all__ = ["env", "raw_env"]
