"""Labyrinx, the card game (``labyrinx_v1``): the ruleset's spec.

The env is ``labyrinth_env.make("labyrinx_v1")`` or, PettingZoo style,
``from labyrinth_env import labyrinx_v1``."""

from labyrinth_env.spec import ZERO_SUM, RulesetSpec

SPEC = RulesetSpec(
    env_id="labyrinx_v1",
    title="Labyrinx",
    players=(2, 6),
    utility=ZERO_SUM,
    kernel_module=f"{__name__}.kernel",
    env=f"{__name__}.env:raw_env",
    heuristic_module=f"{__name__}.heuristic",
    picture_module=f"{__name__}.picture",
    summary="square path cards placed face down, hands of cards, d6 challenges, five treasures",
    status="complete, with 6 reconstructed character powers (actions) as an option",
)
