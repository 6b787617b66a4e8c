"""``labyrinx_v0``: PettingZoo's ``env()`` / ``raw_env`` pair for Labyrinx."""

from labyrinth_env.rulesets.labyrinx.env import env, raw_env

__all__ = ["env", "raw_env"]
