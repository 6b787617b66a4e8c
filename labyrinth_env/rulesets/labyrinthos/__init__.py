"""Labyrinthos (``labyrinthos_v2``): the ruleset's spec.

The env is ``labyrinth_env.make("labyrinthos_v2")`` or, PettingZoo style,
``from labyrinth_env import labyrinthos_v2``."""

from labyrinth_env.spec import ZERO_SUM, RulesetSpec

SPEC = RulesetSpec(
    env_id="labyrinthos_v2",
    title="Labyrinthos",
    players=(2, 4),
    utility=ZERO_SUM,
    kernel_module=f"{__name__}.kernel",
    env=f"{__name__}.env:raw_env",
    heuristic_module=f"{__name__}.heuristic",
    picture_module=f"{__name__}.picture",
    summary="7x7 face-down maze, action tokens, wounds, keys; the Minotaur, Medusa or Cerberus",
    status="complete, with reconstructed tiles, heroes, key actions and Desperation cards",
)
