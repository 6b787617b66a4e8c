"""stable-baselines3 ``VecEnv`` over ``labyrinth_env.vector.VectorEnv``, with
``action_masks()`` so that sb3-contrib's ``MaskablePPO`` trains on it directly.

Needs the ``train`` extra (``pip install -e ".[train]"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecMonitor
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from labyrinth_env.vector import VectorEnv


class SB3VecEnv(VecMonitor):
    """SB3's view of a ``VectorEnv``: done = terminated or truncated, the finished game's
    last observation in ``infos[i]["terminal_observation"]``, ``TimeLimit.truncated`` for
    truncations so that SB3 bootstraps them, and the game's outcome for the learner seat
    (shaping excluded) in ``infos[i]["episode_return"]``. It is SB3's own ``VecMonitor``
    over that view, so SB3 logs ``rollout/ep_rew_mean`` and ``evaluate_policy`` counts
    episodes as it does behind a ``Monitor``; wrapping it in another ``VecMonitor`` (to
    write a monitor file) is harmless. ``seed``: the first reset's (SB3's ``seed()``
    gives the next reset's); later resets continue from it (``docs/ecosystem.md``)."""

    # ``vec`` and ``action_masks()`` are the batch's, reached through the wrapper (SB3 refuses
    # an attribute that two levels of a wrapper stack both define)

    def __init__(self, vec: VectorEnv, seed: int | None = None) -> None:
        super().__init__(_BatchVecEnv(vec, seed))


class _BatchVecEnv(VecEnv):
    """The ``VecEnv`` under ``SB3VecEnv``'s monitor: the vector env's steps in SB3's terms."""

    def __init__(self, vec: VectorEnv, seed: int | None = None) -> None:
        self.vec = vec
        self._next_seed = seed
        self._actions: np.ndarray | None = None
        super().__init__(vec.num_envs, vec.single_observation_space, vec.single_action_space)

    def reset(self) -> np.ndarray:
        obs, _ = self.vec.reset(seed=self._next_seed)
        self._next_seed = None
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)  # checked by the vector env: integers, one per env

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, info = self.vec.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            infos[i]["episode_return"] = float(info["final_return"][i])  # shaping excluded
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        return self.vec.action_masks()

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._next_seed = seed
        return [seed] * self.num_envs

    def close(self) -> None:
        self.vec.close()

    # SB3 reaches per-env attributes and methods through these; MaskablePPO asks for
    # "action_masks" this way.
    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        idx = self._indices(indices)
        if attr_name == "action_masks":
            return [self.action_masks] * len(idx)
        return [getattr(self.vec, attr_name)] * len(idx)

    def get_images(self) -> list[np.ndarray | None]:
        """Every env's picture (``VectorEnv(..., render_mode="rgb_array")``), which SB3's
        ``render()`` tiles into one frame (``VecVideoRecorder`` records those)."""
        if self.vec.render_mode != "rgb_array":
            raise ValueError(
                f"{self.vec.env_id}: get_images() needs the vector env made with render_mode='rgb_array', "
                f"got {self.vec.render_mode!r}"
            )
        return list(self.vec.render())

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.vec, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in idx]
        raise AttributeError(f"SB3VecEnv has no per-env method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))  # no Gymnasium env, so no wrapper

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)
