"""Labyrinx, the card game (``labyrinx_v0``)."""

from labyrinth_env.rulesets.labyrinx.env import env, raw_env

__all__ = ["env", "raw_env"]
