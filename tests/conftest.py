"""The toy ruleset of ``tests/toy_ruleset`` joins every test run (and every xdist worker),
so the generic tests parametrised over ``labyrinth_env.list_envs()`` check it like the five
built-in rulesets."""

import labyrinth_env
from tests.toy_ruleset import SPEC as TOY_SPEC

labyrinth_env.register_ruleset(TOY_SPEC)
