"""A toy ruleset, ``toy_race_v0``: a 5x5 maze of turnable tiles, a die, and a race to the
centre. It lives in the test folder only and joins with ``labyrinth_env.register_ruleset``
(``tests/conftest.py``), then passes the same generic checks as the five rulesets: the
proof that a ruleset is this one folder and nothing else.

A turn: turn one tile a quarter (or pass), roll a die (the kernel does), move to a cell at
most that many steps away along open paths (or stay). The first piece on the centre wins.
"""

from labyrinth_env.spec import ZERO_SUM, RulesetSpec

SPEC = RulesetSpec(
    env_id="toy_race_v0",
    title="Toy maze race",
    players=(2, 4),
    utility=ZERO_SUM,
    kernel_module=f"{__name__}.kernel",
    env=f"{__name__}.env:raw_env",
    heuristic_module=f"{__name__}.heuristic",
    summary="5x5 maze of turnable tiles, a die, the first piece on the centre wins",
    status="a test fixture",
)
