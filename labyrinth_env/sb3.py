"""stable-baselines3 ``VecEnv`` over ``labyrinth_env.vector.VectorEnv``, with
``action_masks()`` so that sb3-contrib's ``MaskablePPO`` trains on it directly.

Needs the ``train`` extra (``pip install -e ".[train]"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from labyrinth_env.vector import VectorEnv


class SB3VecEnv(VecEnv):
    """SB3's view of a ``VectorEnv``: done = terminated or truncated, the finished game's
    last observation in ``infos[i]["terminal_observation"]``, and ``TimeLimit.truncated``
    for truncations so that SB3 bootstraps them."""

    def __init__(self, vec: VectorEnv, seed: int | None = None) -> None:
        self.vec = vec
        self._next_seed = seed
        self._actions: np.ndarray | None = None
        # Monitor-style episode statistics, so SB3 logs rollout/ep_rew_mean and ep_len_mean
        self._episode_return = np.zeros(vec.num_envs, dtype=np.float64)
        self._episode_length = np.zeros(vec.num_envs, dtype=np.int64)
        super().__init__(vec.num_envs, vec.single_observation_space, vec.single_action_space)

    def reset(self) -> np.ndarray:
        obs, _ = self.vec.reset(seed=self._next_seed)
        self._next_seed = None
        self._episode_return[:] = 0.0
        self._episode_length[:] = 0
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)  # checked by the vector env: integers, one per env

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, info = self.vec.step(self._actions)
        dones = terminated | truncated
        self._episode_return += rewards
        self._episode_length += 1
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            # the game's outcome for the learner seat (shaping excluded) and SB3's episode record
            infos[i]["episode_return"] = float(info["final_return"][i])
            infos[i]["episode"] = {"r": float(self._episode_return[i]), "l": int(self._episode_length[i]), "t": 0.0}
            self._episode_return[i] = 0.0
            self._episode_length[i] = 0
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
        if attr_name == "render_mode":
            return [None] * len(idx)
        return [getattr(self.vec, attr_name)] * len(idx)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.vec, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in idx]
        raise AttributeError(f"SB3VecEnv has no per-env method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        # step_wait reports each episode as Monitor does (infos[i]["episode"]), so SB3's
        # evaluate_policy may count episodes from it, as it does behind make_vec_env's Monitor
        from stable_baselines3.common.monitor import Monitor

        return [wrapper_class is Monitor] * len(self._indices(indices))

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)
