"""Labyrinth: Team Edition ruleset (``team_edition_v0``)."""

from labyrinth_env.rulesets.team_edition.env import env, raw_env

__all__ = ["env", "raw_env"]
