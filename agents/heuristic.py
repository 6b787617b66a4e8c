"""The rule-based heuristic of a ruleset, as an agent over the env's state.

The heuristic runs as a numba kernel on the full state record, because that is where it
must also run inside batched loops; each ruleset's heuristic promises to read only what
the acting seat may know (see its module).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import labyrinth_env
from labyrinth_env.agents.base import Agent, legal_actions
from labyrinth_env.core.contract import new_states
from labyrinth_env.progress import first_use
from labyrinth_env.spec import RulesetSpec


def heuristic_spec(env_id: str) -> RulesetSpec:
    """The spec of ``env_id``, which must name a heuristic (``ValueError`` otherwise)."""
    spec = labyrinth_env.get_spec(env_id)
    if spec.heuristic_module is None:
        have = [s.env_id for s in labyrinth_env.specs() if s.heuristic_module is not None]
        raise ValueError(f"no heuristic agent for env {env_id!r}; heuristics exist for: {', '.join(have)}")
    return spec


class HeuristicAgent(Agent):
    """Greedy rule-based play; needs the env (``act(obs, env)``) to read its state."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic: kept for a uniform ``make_agent`` signature
        self._env_id: str | None = None
        self._states: np.ndarray | None = None
        self._mask: np.ndarray | None = None

    def _bind(self, env_id: str) -> None:
        if self._env_id != env_id:
            kernel = heuristic_spec(env_id).kernel
            self._env_id = env_id
            self._states = new_states(kernel, 1)
            self._mask = np.zeros(kernel.NUM_ACTIONS, dtype=np.int8)

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
        with first_use(("heuristic", env_id), f"the {raw.ruleset.title} heuristic"):
            action = int(raw.batch.heuristic_one(self._states, self._mask))
        if not 0 <= action < self._mask.shape[0] or not observation["action_mask"][action]:
            raise RuntimeError(
                f"heuristic chose action {action} ({raw.action_to_str(action)}), which the mask does not allow; "
                "the observation does not belong to the env's pending decision"
            )
        return action
