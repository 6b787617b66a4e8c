"""Labyrinthos (``labyrinthos_v0``)."""

from labyrinth_env.rulesets.labyrinthos.env import env, raw_env

__all__ = ["env", "raw_env"]
