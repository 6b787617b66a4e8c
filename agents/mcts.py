"""Information-set Monte Carlo tree search for every ruleset (``make_agent("mcts:...")``).

The search itself is numba code in ``agents/mcts_template.py`` (read its docstring for
the algorithm), compiled once per ruleset from that one source. This module is the
agent: it takes a record of the position from its ``SeatView``'s forward model (the hidden
part already resampled for its seat: it never holds the game's own record), hands it to
the search with a seed drawn from the agent's own generator, and checks the answer against
the observation's mask. The search resamples the hidden part again with ``determinize``
at every iteration, so the result is the same as from the true position
(``tests/test_mcts.py`` and ``tests/test_seat_view.py`` check it).

Parameters (spec keys, ``mcts:simulations=400,c=1.5``): see ``MCTS_PARAMS``. A parameter
left out takes the ruleset's tuned default (its spec's ``search_defaults``) or else the
generic one.
"""

from __future__ import annotations

import time
from types import ModuleType
from typing import Any

import numpy as np

from labyrinth_env.agents.base import Agent, Param, check_params, legal_actions, model_of
from labyrinth_env.progress import first_use
from labyrinth_env.spec import RulesetSpec

MCTS_PARAMS: dict[str, Param] = {
    "simulations": Param(int, 200, "search iterations per move", low=1, high=1_000_000),
    "c": Param(float, 1.0, "PUCT exploration constant", low=0.0),
    "prior": Param(float, 0.2, "prior mass on the heuristic's action (0: uniform prior)", low=0.0, high=1.0),
    "rollout": Param(str, "heuristic", "rollout policy", choices=("heuristic", "random")),
    "epsilon": Param(float, 0.0, "chance of a random action in a heuristic rollout", low=0.0, high=1.0),
    "rollout_turns": Param(int, 2, "rollout cap in turns (0: evaluate at the new node)", low=0, high=100_000),
    "rollout_steps": Param(int, 200, "rollout cap in steps", low=0, high=1_000_000),
    "scale": Param(float, 3.0, "rollout-cap evaluation: tanh(scale x potential difference); Team Edition: 12", low=0.0),
}


def mcts_module(spec: RulesetSpec) -> ModuleType:
    """The search compiled for one ruleset (``mcts_template.py`` bound to its kernel and
    heuristic: the module ``<ruleset package>.search``)."""
    from labyrinth_env.agents import mcts_template
    from labyrinth_env.core.templates import bind

    return bind(mcts_template, spec)


class MCTSAgent(Agent):
    """ISMCTS over the kernel; needs what its seat sees (``act(obs, view)``, or the env)."""

    name = "mcts"

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        self.given = check_params("mcts", MCTS_PARAMS, params)
        self.given = {k: v for k, v in self.given.items() if k in params}
        self._ruleset: RulesetSpec | None = None
        self._module: ModuleType | None = None
        self.params: dict[str, Any] = {}
        self.last_visits: np.ndarray | None = None
        self.last_values: np.ndarray | None = None
        self.last_seconds = 0.0
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def settings(self, ruleset: RulesetSpec) -> dict[str, Any]:
        """The parameters used in ``ruleset``: spec keys, else the ruleset's tuned defaults
        (``search_defaults``), else the generic defaults."""
        out = {k: p.default for k, p in MCTS_PARAMS.items()}
        out.update(check_params("mcts", MCTS_PARAMS, dict(ruleset.search_defaults)))
        out.update(self.given)
        return out

    def _bind(self, ruleset: RulesetSpec) -> ModuleType:
        kernel = ruleset.kernel
        if ruleset is not self._ruleset or self._module is None:
            module = mcts_module(ruleset)
            self._module, self._ruleset = module, ruleset
            self.params = self.settings(ruleset)
            p = np.zeros(module.NUM_PARAMS, dtype=np.float64)
            p[module.P_SIMULATIONS] = self.params["simulations"]
            p[module.P_C] = self.params["c"]
            p[module.P_PRIOR] = self.params["prior"]
            p[module.P_ROLLOUT] = (
                module.ROLLOUT_HEURISTIC if self.params["rollout"] == "heuristic" else module.ROLLOUT_RANDOM
            )
            p[module.P_EPSILON] = self.params["epsilon"]
            p[module.P_ROLLOUT_TURNS] = self.params["rollout_turns"]
            p[module.P_ROLLOUT_STEPS] = self.params["rollout_steps"]
            p[module.P_SCALE] = self.params["scale"]
            p[module.P_COOPERATIVE] = 1.0 if ruleset.cooperative else 0.0
            self._param_vec = p
            self.last_visits = np.zeros(kernel.NUM_ACTIONS, dtype=np.int64)
            self.last_values = np.zeros(kernel.NUM_ACTIONS, dtype=np.float64)
        return self._module

    def act(self, observation: dict[str, np.ndarray], view: Any = None) -> int:
        model = model_of(view, "MCTSAgent")
        ruleset = model.ruleset
        legal = legal_actions(observation)  # fails clearly when this agent is not to act
        module = self._bind(ruleset)
        seed = int(self.rng.integers(0, 1 << 63))  # drawn every move, so games replay exactly
        if legal.size == 1:
            return int(legal[0])
        seat = model.seat
        states = model.position()  # the hidden part resampled; the search resamples it again
        start = time.perf_counter()
        with first_use(("search", ruleset.env_id), f"the {ruleset.title} search"):
            action = int(
                module.search(states, seat, np.uint64(seed), self._param_vec, self.last_visits, self.last_values)
            )
        self.last_seconds = time.perf_counter() - start
        if not 0 <= action < observation["action_mask"].shape[0] or not observation["action_mask"][action]:
            raise RuntimeError(
                f"MCTS chose action {action}, which the mask does not allow; "
                "the observation does not belong to the view's pending decision"
            )
        return action
