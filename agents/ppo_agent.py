"""A trained MaskablePPO policy as an agent (``make_agent("ppo:path/to/model.zip")``).

Needs the ``train`` extra. The policy sees exactly the PettingZoo observation vector and
its mask, so it never reads hidden information.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from labyrinth_env.agents.base import Agent, legal_actions


class PPOAgent(Agent):
    name = "ppo"
    uses_model = False  # the observation and mask only

    def __init__(self, path: str | Path, deterministic: bool = True) -> None:
        p = Path(path)
        if not p.is_file():
            raise ValueError(f"no trained model at {str(p)!r} (expected a MaskablePPO .zip)")
        from sb3_contrib import MaskablePPO

        self.model = MaskablePPO.load(str(p), device="cpu")
        self.deterministic = deterministic
        self.path = str(p)

    def act(self, observation: dict[str, np.ndarray], view: Any = None) -> int:
        legal_actions(observation)  # clear error when this agent is not to act
        mask = np.asarray(observation["action_mask"]).astype(bool)
        self._check_size(np.asarray(observation["observation"]).shape[-1])
        action, _ = self.model.predict(observation["observation"], action_masks=mask, deterministic=self.deterministic)
        return int(action)

    def policy(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Batched form, usable as a ``VectorEnv`` opponent (self-play)."""
        self._check_size(observations.shape[-1])
        actions, _ = self.model.predict(observations, action_masks=masks, deterministic=self.deterministic)
        return np.asarray(actions, dtype=np.int64)

    def _check_size(self, size: int) -> None:
        expected = int(self.model.observation_space.shape[0])
        if size != expected:
            hint = " (a model trained with lookahead=True needs an env made with it)" if size < expected else ""
            raise ValueError(
                f"{self.path}: the model takes observations of {expected} floats, the env gives {size}{hint}"
            )
