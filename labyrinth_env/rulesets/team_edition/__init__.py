"""Labyrinth: Team Edition (``team_edition_v2``): the ruleset's spec.

The env is ``labyrinth_env.make("team_edition_v2")`` or, PettingZoo style,
``from labyrinth_env import team_edition_v2``."""

from labyrinth_env.spec import COOPERATIVE, RulesetSpec

SPEC = RulesetSpec(
    env_id="team_edition_v2",
    title="Labyrinth: Team Edition",
    players=(1, 4),
    utility=COOPERATIVE,
    kernel_module=f"{__name__}.kernel",
    env=f"{__name__}.env:raw_env",
    heuristic_module=f"{__name__}.heuristic",
    picture_module=f"{__name__}.picture",
    # the rollout cap scores tanh(scale x progress); Team Edition's progress moves by 1/24 a treasure
    search_defaults={"scale": 12.0},
    summary="cooperative moving maze (push/rotate spells), Book of Daedalus",
    status="complete: introductory, standard and expert games",
)
