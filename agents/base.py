"""The agent interface shared by the evaluation script, tournaments and tests."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np


class Agent(ABC):
    """Picks an action from a PettingZoo observation dict (``"observation"`` and
    ``"action_mask"``). Agents that need the full state (search, heuristics) take the env
    as well; such an agent must still use only what the acting seat may know."""

    name: str = "agent"

    def reset(self, seed: int | None = None) -> None:  # noqa: B027 - stateless agents need nothing
        """Start a new game; agents with randomness reseed here so games replay exactly."""

    @abstractmethod
    def act(self, observation: dict[str, np.ndarray], env: Any = None) -> int:
        """The action to play; it must be legal under ``observation["action_mask"]``."""


def legal_actions(observation: dict[str, np.ndarray]) -> np.ndarray:
    """The indices allowed by the observation's mask; a clear error when there are none
    (the agent is not the one to act, or the game is over)."""
    mask = np.asarray(observation["action_mask"])
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise ValueError("the action mask allows no action: this agent is not to act (or the game is over)")
    return legal
