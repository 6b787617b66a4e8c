"""The rule-based heuristic of a ruleset, as an agent over the env's state.

The heuristic runs as a numba kernel on the full state record, because that is where it
must also run inside batched loops; each ruleset's heuristic promises to read only what
the acting seat may know (see its module).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np

from agents.base import Agent, legal_actions

# env id -> module with ``heuristic_action(s, mask) -> int`` and its kernel as ``K``; the
# entry point from Python is the ruleset's batch module's ``heuristic_one``
HEURISTICS: dict[str, str] = {
    "team_edition_v0": "labyrinth_env.rulesets.team_edition.heuristic",
    "paths_of_destiny_3e_v0": "labyrinth_env.rulesets.paths_of_destiny_3e.heuristic",
    "paths_of_destiny_2011_v0": "labyrinth_env.rulesets.paths_of_destiny_2011.heuristic",
    "labyrinthos_v0": "labyrinth_env.rulesets.labyrinthos.heuristic",
    "labyrinx_v0": "labyrinth_env.rulesets.labyrinx.heuristic",
}


def heuristic_module(env_id: str) -> ModuleType:
    if env_id not in HEURISTICS:
        raise ValueError(
            f"no heuristic agent for env {env_id!r}; heuristics exist for: {', '.join(sorted(HEURISTICS))}"
        )
    return importlib.import_module(HEURISTICS[env_id])


class HeuristicAgent(Agent):
    """Greedy rule-based play; needs the env (``act(obs, env)``) to read its state."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic: kept for a uniform ``make_agent`` signature
        self._module: ModuleType | None = None
        self._env_id: str | None = None
        self._states: np.ndarray | None = None
        self._mask: np.ndarray | None = None

    def _bind(self, env_id: str) -> ModuleType:
        if self._env_id != env_id or self._module is None:
            module = heuristic_module(env_id)
            self._module, self._env_id = module, env_id
            self._states = np.zeros(1, dtype=module.K.STATE_DTYPE)
            self._mask = np.zeros(module.K.NUM_ACTIONS, dtype=np.int8)
        return self._module

    def act(self, observation: dict[str, np.ndarray], env: Any = None) -> int:
        if env is None:
            raise ValueError("HeuristicAgent.act needs the env: call act(observation, env)")
        raw = env.unwrapped
        env_id = getattr(raw, "env_id", None)
        if env_id is None:
            raise ValueError(f"HeuristicAgent needs a labyrinth_env env, got {type(raw).__name__}")
        self._bind(env_id)
        legal_actions(observation)  # fails clearly when this agent is not to act
        # A private copy, so nothing the kernel does can touch the env's game.
        self._states[0] = raw.state
        action = int(raw.batch.heuristic_one(self._states, self._mask))
        if not 0 <= action < self._mask.shape[0] or not observation["action_mask"][action]:
            raise RuntimeError(
                f"heuristic chose action {action} ({raw.action_to_str(action)}), which the mask does not allow; "
                "the observation does not belong to the env's pending decision"
            )
        return action
