"""Labyrinth: The Paths of Destiny, 2011 edition (``paths_of_destiny_2011_v6``): the ruleset's spec.

The env is ``labyrinth_env.make("paths_of_destiny_2011_v6")`` or, PettingZoo style,
``from labyrinth_env import paths_of_destiny_2011_v6``."""

from labyrinth_env.spec import ZERO_SUM, RulesetSpec

SPEC = RulesetSpec(
    env_id="paths_of_destiny_2011_v6",
    title="Paths of Destiny, 2011 edition",
    players=(2, 6),
    utility=ZERO_SUM,
    kernel_module=f"{__name__}.kernel",
    env=f"{__name__}.env:raw_env",
    heuristic_module=f"{__name__}.heuristic",
    picture_module=f"{__name__}.picture",
    summary="d6 jumps, a Guard that sleeps, door and turn-back traps, group fights",
    status="complete base game and its 10 characters, 30 skills (option characters)",
)
