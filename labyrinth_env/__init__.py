"""labyrinth-env: PettingZoo environments for labyrinth board games, on numba kernels.

>>> import labyrinth_env
>>> env = labyrinth_env.make("team_edition_v2", num_players=2)

Importing the package also registers every env with Gymnasium (``gymnasium.make`` /
``make_vec("labyrinth_env/team_edition-v2")``) and PettingZoo (``pettingzoo.make("aec",
"labyrinth_env/team_edition-v2")``); see ``registry.register_envs``. A ruleset of one's own
joins with ``register_ruleset(spec)`` (``labyrinth_env.spec.RulesetSpec``).
"""

from labyrinth_env.registry import (
    get_spec,
    list_envs,
    load_replay,
    make,
    parallel_env,
    raw_env,
    register_envs,
    register_ruleset,
    specs,
)
from labyrinth_env.spec import COOPERATIVE, ZERO_SUM, RulesetSpec

register_envs()


def __getattr__(name: str) -> object:
    """``from labyrinth_env import team_edition_v2``: an env id as a module with PettingZoo's
    ``env()`` / ``raw_env`` / ``parallel_env()`` (the ruleset's env module; ``parallel_env``
    is ``registry.parallel_env`` for that id)."""
    import functools
    import importlib

    try:
        spec = get_spec(name)
    except ValueError:
        raise AttributeError(f"module 'labyrinth_env' has no attribute {name!r}") from None
    module = importlib.import_module(spec.env.partition(":")[0])
    if not hasattr(module, "parallel_env"):
        module.parallel_env = functools.partial(parallel_env, spec.env_id)
    return module


__all__ = [
    "COOPERATIVE",
    "ZERO_SUM",
    "RulesetSpec",
    "get_spec",
    "list_envs",
    "load_replay",
    "make",
    "parallel_env",
    "raw_env",
    "register_ruleset",
    "specs",
]
__version__ = "0.1.0"
