"""Uniformly random legal play: the baseline every other agent should beat."""

from __future__ import annotations

from typing import Any

import numpy as np

from labyrinth_env.agents.base import Agent, legal_actions


class RandomAgent(Agent):
    """Uniform over the legal actions of the observation's mask."""

    name = "random"
    uses_model = False  # the observation and mask only

    def __init__(self, seed: int | None = None) -> None:
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray], view: Any = None) -> int:
        legal = legal_actions(observation)
        return int(legal[self.rng.integers(legal.size)])
