"""One learner seat against opponents, as a plain Gymnasium ``Env`` (for SB3's
``check_env``, MaskablePPO with one env, or quick experiments).

It is a one-game ``VectorEnv`` underneath, so it plays exactly the same games. An illegal
action raises ``ValueError`` by default; ``illegal_action="penalty"`` ends the episode
with reward ``illegal_penalty`` instead (SB3's ``check_env`` sends random actions).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from labyrinth_env.vector import Policy, VectorEnv


class SingleAgentEnv(gymnasium.Env):
    # the AEC env's modes (rgb_array only where the ruleset draws pictures: set per instance)
    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        env_id: str,
        opponents: str | Policy = "random",
        learner_seat: int | str = 0,
        illegal_action: str = "raise",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if illegal_action not in ("raise", "penalty"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalty', got {illegal_action!r}")
        # disabled autoreset: a finished game stays in the env below, drawn by render until
        # the next reset (each episode starts from a seed of this env's own, see reset)
        self.vec = VectorEnv(
            env_id, 1, learner_seats=learner_seat, opponents=opponents, autoreset_mode="disabled", **options
        )
        modes = self.vec.raw.metadata["render_modes"]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode={render_mode!r} is not supported by {env_id}; allowed: {modes} or None")
        self.metadata = {**self.metadata, "render_modes": list(modes)}
        # the AEC env the vector env holds draws whatever record it is given (see render)
        self.vec.raw.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = self.vec.single_observation_space
        self.action_space = self.vec.single_action_space
        self._needs_reset = True

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**63))
        obs, _ = self.vec.reset(seed=seed)
        self._needs_reset = False
        if self.render_mode == "human":
            self.render()
        return obs[0], {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._needs_reset:
            raise RuntimeError("reset() must be called before step() (and after the episode ended)")
        arr = np.asarray(action)
        if arr.dtype.kind not in "iu" or arr.size != 1:
            raise ValueError(f"the action must be one integer, got {action!r}")
        a = int(arr.reshape(-1)[0])
        if not (0 <= a < self.action_space.n and self.vec.masks[0, a]):
            if self.illegal_action == "raise":
                try:
                    self.vec.step(np.array([a]))  # raises ValueError naming the action
                except ValueError as exc:
                    raise ValueError(
                        f"{exc}; illegal_action='penalty' ends the episode with illegal_penalty instead "
                        "(for checkers that send random actions: Gymnasium's and SB3's check_env)"
                    ) from None
            self._needs_reset = True
            return self.vec.obs[0].copy(), self.illegal_penalty, True, False, {"illegal_action": True}
        obs, rew, term, trunc, _ = self.vec.step(np.array([a]))
        done = bool(term[0] or trunc[0])
        if self.render_mode == "human":
            self.render()
        if done:
            self._needs_reset = True
            # no action is legal in a finished game, but a Gymnasium vector env built from
            # this one reads the final step's mask to choose the action its next step sends
            # (and ignores): the env below keeps its last decision's mask, which leaves it one
            return obs[0], float(rew[0]), bool(term[0]), bool(trunc[0]), {"action_mask": self.action_masks()}
        return obs[0], float(rew[0]), False, False, {"action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        return self.vec.action_masks()[0]

    def render(self) -> str | np.ndarray | None:
        """As the AEC env renders (``ansi`` text board, ``rgb_array`` picture, ``human``
        window or printed board), the current game from a spectator's seat: no hidden
        information. After the step that ends a game it draws that game's last position
        until the next ``reset`` (so a recorded video ends on it)."""
        if self.render_mode is not None and not self.vec._reset_done:
            raise RuntimeError("reset() must be called before render()")
        return self.vec.render_env(0)
