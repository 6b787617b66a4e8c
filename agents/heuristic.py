"""The rule-based heuristic of a ruleset, as an agent over what its seat may see.

The heuristic runs as a numba kernel on a state record, because that is where it must also
run inside batched loops; each ruleset's heuristic promises to read only what the acting
seat may know (see its module). The agent does not rely on that promise: it runs the
heuristic on the record its ``SeatView``'s forward model holds for the seat (the hidden part
resampled: ``model.position()``), never on the game's own record.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import labyrinth_env
from labyrinth_env.agents.base import Agent, legal_actions, model_of
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
    """Greedy rule-based play; needs what its seat sees (``act(obs, view)``, or the env)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # deterministic: kept for a uniform ``make_agent`` signature
        self._env_id: str | None = None
        self._mask: np.ndarray | None = None

    def _bind(self, env_id: str) -> None:
        if self._env_id != env_id:
            kernel = heuristic_spec(env_id).kernel
            self._env_id = env_id
            self._mask = np.zeros(kernel.NUM_ACTIONS, dtype=np.int8)

    def act(self, observation: dict[str, np.ndarray], view: Any = None) -> int:
        model = model_of(view, "HeuristicAgent")
        ruleset = model.ruleset
        self._bind(ruleset.env_id)
        legal_actions(observation)  # fails clearly when this agent is not to act
        # the position as the seat may know it: hidden parts resampled (a private copy)
        states = model.position()
        with first_use(("heuristic", ruleset.env_id), f"the {ruleset.title} heuristic"):
            action = int(ruleset.loops.heuristic_one(states, self._mask))
        if not 0 <= action < self._mask.shape[0] or not observation["action_mask"][action]:
            raise RuntimeError(
                f"heuristic chose action {action}, which the mask does not allow; "
                "the observation does not belong to the view's pending decision"
            )
        return action
