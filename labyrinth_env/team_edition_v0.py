"""``team_edition_v0``: PettingZoo's ``env()`` / ``raw_env`` pair for the Team Edition."""

from labyrinth_env.rulesets.team_edition.env import env, raw_env

__all__ = ["env", "raw_env"]
