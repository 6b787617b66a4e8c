"""``labyrinthos_v0``: PettingZoo's ``env()`` / ``raw_env`` pair for Labyrinthos."""

from labyrinth_env.rulesets.labyrinthos.env import env, raw_env

__all__ = ["env", "raw_env"]
