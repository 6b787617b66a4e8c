"""Labyrinth: Paths of Destiny, 3rd edition (``paths_of_destiny_3e_v3``): the ruleset's spec.

The env is ``labyrinth_env.make("paths_of_destiny_3e_v3")`` or, PettingZoo style,
``from labyrinth_env import paths_of_destiny_3e_v3``."""

from labyrinth_env.spec import ZERO_SUM, RulesetSpec

SPEC = RulesetSpec(
    env_id="paths_of_destiny_3e_v3",
    title="Paths of Destiny, 3rd edition",
    players=(2, 6),
    utility=ZERO_SUM,
    kernel_module=f"{__name__}.kernel",
    env=f"{__name__}.env:raw_env",
    heuristic_module=f"{__name__}.heuristic",
    picture_module=f"{__name__}.picture",
    summary="hex board built during play, 2d6 checks, traps, the Golem, items, events, characters",
    status="base game, 2-player variant, the 15 characters",
)
