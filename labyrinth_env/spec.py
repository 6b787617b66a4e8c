"""What makes a ruleset a ruleset, declared once in its package (as OpenSpiel's ``GameType``).

Every layer that serves all rulesets (registry, AEC env, vector env, single-agent env,
agents, tournament, command line, benchmarks) reads a ruleset's ``RulesetSpec`` and
nothing else. A spec names its modules by import path, so declaring it imports nothing
heavy; each module is imported the first time it is asked for.

A ruleset package declares ``SPEC`` in its ``__init__.py``::

    SPEC = RulesetSpec(
        env_id="my_maze_v0",
        title="My maze",
        players=(2, 4),
        utility=ZERO_SUM,
        kernel="my_package.kernel",      # the kernel contract (labyrinth_env.core.contract)
        env="my_package.env:raw_env",    # a LabyrinthAECEnv subclass with its Options
        heuristic="my_package.heuristic",  # optional: heuristic_action(s, mask)
        picture="my_package.picture",    # optional: draw(state, viewer, omniscient)
    )

The built-in rulesets are found under ``labyrinth_env.rulesets``; another package is added
with ``labyrinth_env.register_ruleset(SPEC)``, after which ``make``, Gymnasium and
PettingZoo registration, ``VectorEnv``, the agents, tournaments and benchmarks serve it.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field, fields
from functools import cached_property
from types import ModuleType
from typing import Any

import numpy as np

ZERO_SUM = "zero_sum"  # one seat wins, the others share the loss (returns sum to 0)
COOPERATIVE = "cooperative"  # every seat gets the team's return (identical utility)
UTILITIES = (ZERO_SUM, COOPERATIVE)

_ENV_ID = re.compile(r"^[a-z][a-z0-9_]*_v[0-9]+$")


def _load(path: str) -> Any:
    """``package.module`` -> the module; ``package.module:name`` -> that attribute."""
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


@dataclass(frozen=True, eq=False)
class RulesetSpec:
    """One ruleset (see the module docstring). Paths are ``package.module`` for modules
    and ``package.module:name`` for the env class."""

    env_id: str  # ``<name>_v<version>``, bumped whenever rules, observations or actions change
    title: str  # the game's name for people
    players: tuple[int, int]  # smallest and largest ``num_players``
    utility: str  # ZERO_SUM or COOPERATIVE
    kernel_module: str  # the kernel contract's functions and constants
    env: str  # ``module:class`` of the AEC env (a ``LabyrinthAECEnv`` subclass)
    heuristic_module: str | None = None  # ``heuristic_action(s, mask) -> int`` (njit)
    picture_module: str | None = None  # ``draw(state, viewer=None, omniscient=False) -> Canvas``
    search_defaults: dict[str, Any] = field(default_factory=dict)  # MCTS parameters tuned for this game
    summary: str = ""  # one line: what kind of game it is
    status: str = ""  # one line: what of the rulebook is in

    def __post_init__(self) -> None:
        if not isinstance(self.env_id, str) or not _ENV_ID.match(self.env_id):
            raise ValueError(f"env_id {self.env_id!r} must look like 'name_v0' (lower case, a version at the end)")
        lo, hi = self.players if isinstance(self.players, (tuple, list)) and len(self.players) == 2 else (None, None)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (lo, hi)) or not 1 <= lo <= hi:
            raise ValueError(f"{self.env_id}: players must be (smallest, largest) with 1 <= smallest <= largest")
        object.__setattr__(self, "players", (lo, hi))
        if self.utility not in UTILITIES:
            raise ValueError(f"{self.env_id}: utility must be one of {UTILITIES}, got {self.utility!r}")
        for name in ("kernel_module", "env"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise ValueError(f"{self.env_id}: {name} must be an import path")
        if ":" not in self.env:
            raise ValueError(f"{self.env_id}: env must be 'module:class', got {self.env!r}")
        if not isinstance(self.search_defaults, dict):
            raise ValueError(f"{self.env_id}: search_defaults must be a dict")

    # --- names -----------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The env id without its version (``team_edition``)."""
        return self.env_id.rsplit("_v", 1)[0]

    @property
    def version(self) -> int:
        return int(self.env_id.rsplit("_v", 1)[1])

    @property
    def package(self) -> str:
        """The package the kernel lives in (where bound templates are named)."""
        return self.kernel_module.rsplit(".", 1)[0]

    @property
    def cooperative(self) -> bool:
        return self.utility == COOPERATIVE

    # --- the modules, imported when first asked for ------------------------------------
    @cached_property
    def kernel(self) -> ModuleType:
        return _load(self.kernel_module)

    @cached_property
    def heuristic(self) -> ModuleType | None:
        return _load(self.heuristic_module) if self.heuristic_module else None

    @cached_property
    def picture(self) -> ModuleType | None:
        return _load(self.picture_module) if self.picture_module else None

    @cached_property
    def env_class(self) -> type:
        return _load(self.env)

    @property
    def options_class(self) -> type:
        return self.env_class.Options

    @cached_property
    def loops(self) -> ModuleType:
        """The batched loops and single-game entry points bound to this kernel
        (``labyrinth_env/core/batch_template.py``)."""
        from labyrinth_env.core import batch_template
        from labyrinth_env.core.templates import bind

        return bind(batch_template, self)

    @cached_property
    def random_loops(self) -> ModuleType:
        """The same loops with the first legal action as ``H``: for callers whose opponents
        never play the heuristic, which then never compiles."""
        from labyrinth_env.core import batch_template
        from labyrinth_env.core.templates import bind

        return bind(batch_template, self, "random_loops")

    def new_states(self, num: int = 1) -> np.ndarray:
        """``num`` zeroed records, ready for the kernel's ``init``."""
        return np.zeros(num, dtype=self.kernel.STATE_DTYPE)

    def declaration(self) -> tuple:
        """The declared fields (two specs with equal declarations are the same ruleset)."""
        return tuple(getattr(self, f.name) for f in fields(self))

    def __reduce__(self) -> tuple:
        # by its declaration only: the modules it has imported are not sent along (a
        # worker process imports them itself)
        return (RulesetSpec, self.declaration())

    def __repr__(self) -> str:
        return f"RulesetSpec({self.env_id!r}, players={self.players}, utility={self.utility!r})"
