"""The one generic PettingZoo AEC env over a ruleset kernel.

A ruleset subclasses ``LabyrinthAECEnv`` and sets its kernel module, options dataclass,
spaces, names and renderer; everything else (agent bookkeeping, rewards, truncation,
the decoded event log, replays, readable action names, bad-input errors) lives here.

``env()`` of a ruleset returns the same class in *checked* mode, which behaves like
PettingZoo's standard wrapper stack (order enforcing, bounds, terminate-illegal) in one
thin layer instead of three forwarding wrappers.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from labyrinth_env.core.rng import python_seed
from labyrinth_env.options import options_dict, parse_options

REPLAY_FORMAT = "labyrinth-env-replay"
REPLAY_VERSION = 1


class LabyrinthAECEnv(AECEnv):
    """PettingZoo AEC env driven by a numba kernel (see DESIGN.md, "Kernel contract")."""

    # --- set by each ruleset -------------------------------------------------------------
    env_id: ClassVar[str]
    kernel: ClassVar[ModuleType]
    Options: ClassVar[type]
    max_seats: ClassVar[int]

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "labyrinth",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def options_vector(self) -> np.ndarray:
        """The kernel's options vector for ``self.options``."""
        raise NotImplementedError

    def decode_event(self, record: np.ndarray) -> dict[str, Any]:
        """One fixed-width event record as a dict with a ``"type"``."""
        raise NotImplementedError

    def action_names(self) -> list[str]:
        """The readable name of every action index."""
        raise NotImplementedError

    def render_text(self) -> str:
        """The ANSI/text picture of the current state."""
        raise NotImplementedError

    # --- generic part ----------------------------------------------------------------------
    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode={render_mode!r} is not supported by {self.env_id}; "
                f"allowed: {self.metadata['render_modes']} or None"
            )
        self.options = parse_options(self.Options, options, self.env_id)
        self.render_mode = render_mode
        self.checked = False
        n = self.options.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = list(self.possible_agents)
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        k = self.kernel
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(k.OBS_SIZE,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(k.NUM_ACTIONS,), dtype=np.int8),
            }
        )
        act_space = spaces.Discrete(k.NUM_ACTIONS)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._options_vec = self.options_vector()
        self._loops = self.batch  # the kernel's entry points, compiled once per ruleset
        self._states = k.new_states(1)
        self._mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
        self._no_mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
        self._returns = np.zeros(self.max_seats, dtype=np.float64)
        self._names: list[str] | None = None
        self._has_reset = False
        self.seed_used: int | None = None
        self.actions_taken: list[int] = []
        self._decoded_log: list[dict[str, Any]] = []
        self._pending_events: list[np.ndarray] = []

    # spaces -----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space:
        return self.action_spaces[agent]

    @property
    def batch(self) -> ModuleType:
        """This ruleset's batched loops (random play, vector env steps; see
        ``labyrinth_env.core.batch_template``)."""
        from labyrinth_env.core.batching import batch_module

        return batch_module(self.kernel.__name__.split(".")[-2])

    @property
    def state(self) -> np.void:
        """The current state record (a view: copy it before changing it)."""
        return self._states[0]

    # reset / step -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # Options belong to make(); PettingZoo's api_test passes reset(options=...) and
        # expects it to be accepted, so it is ignored here.
        del options
        self.seed_used = python_seed(seed)
        self._loops.init_one(self._states, np.uint64(self.seed_used), self._options_vec)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.actions_taken = []
        self._decoded_log = []
        self._pending_events = []
        self._has_reset = True
        self._skip_agent_selection = None
        self._log_events()
        seat = self._loops.refresh_one(self._states, self._mask, self._returns)
        self.agent_selection = self.possible_agents[seat]

    def step(self, action: Any) -> None:
        if not self._has_reset:
            raise RuntimeError(f"{self.env_id}: reset() must be called before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = self._check_action_type(action)
        seat = self._loops.step_one(self._states, index, self._mask, self._returns)
        if seat == -2:
            if self.checked:
                self._terminate_illegal(agent, index)
                return
            raise ValueError(self._illegal_message(agent, index))
        self.actions_taken.append(index)
        self._log_events()
        self._cumulative_rewards[agent] = 0.0
        if seat >= 0:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[seat]
        else:
            self.rewards = {a: float(self._returns[i]) for i, a in enumerate(self.possible_agents)}
            if self.kernel_truncated():
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def kernel_truncated(self) -> bool:
        return int(self.state["outcome"]) == self.kernel.TRUNCATED

    def _check_action_type(self, action: Any) -> int:
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
                action = int(action)
            else:
                raise ValueError(
                    f"{self.env_id}: action must be an int in [0, {self.kernel.NUM_ACTIONS}), got {action!r}"
                )
        index = int(action)
        if not 0 <= index < self.kernel.NUM_ACTIONS:
            raise ValueError(
                f"{self.env_id}: action {index} is out of range; actions are 0..{self.kernel.NUM_ACTIONS - 1}"
            )
        return index

    def pending_decision(self) -> str:
        """The name of the decision the acting seat must make now."""
        return self.kernel.DECISIONS[int(self.state["decision"])]

    def _illegal_message(self, agent: str, index: int) -> str:
        legal = np.flatnonzero(self._mask)
        shown = ", ".join(f"{a} ({self.action_to_str(int(a))})" for a in legal[:8])
        more = f", ... ({len(legal)} legal in all)" if len(legal) > 8 else ""
        return (
            f"{self.env_id}: illegal action {index} ({self.action_to_str(index)}) for {agent}; "
            f"pending decision: {self.pending_decision()}; legal actions: {shown}{more}"
        )

    def _terminate_illegal(self, agent: str, index: int) -> None:
        """PettingZoo's terminate-illegal behaviour: the offender gets -1, the game ends."""
        warnings.warn(f"[WARNING]: {self._illegal_message(agent, index)}; game terminating", stacklevel=3)
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = -1.0
        self.infos[agent] = {"illegal_move": True}
        self._accumulate_rewards()

    # observation ----------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            raise RuntimeError(f"{self.env_id}: reset() must be called before observe()")
        if agent not in self.agent_name_mapping:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        seat = self.agent_name_mapping[agent]
        obs = np.empty(self.kernel.OBS_SIZE, dtype=np.float32)
        self._loops.observe_one(self._states, seat, obs)
        acting = agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent])
        mask = self._mask.copy() if acting else self._no_mask.copy()
        return {"observation": obs, "action_mask": mask}

    # log, names, render -----------------------------------------------------------------------
    def _log_events(self) -> None:
        # Keep the raw records; decoding into dicts happens when game_log is read, which
        # keeps the per-step cost of the env low.
        s = self.state
        n = int(s["num_events"])
        if n > s["events"].shape[0]:
            raise RuntimeError(f"{self.env_id}: event buffer overflow ({n} events in one step)")
        if n:
            self._pending_events.append(s["events"][:n].copy())

    @property
    def game_log(self) -> list[dict[str, Any]]:
        """Every event of the game so far, decoded (``{"type": ..., ...}``)."""
        if self._pending_events:
            for block in self._pending_events:
                self._decoded_log.extend(self.decode_event(record) for record in block)
            self._pending_events = []
        return self._decoded_log

    def action_to_str(self, action: int) -> str:
        if self._names is None:
            self._names = self.action_names()
        if not 0 <= int(action) < len(self._names):
            raise ValueError(f"action {action} is out of range; actions are 0..{len(self._names) - 1}")
        return self._names[int(action)]

    def str_to_action(self, text: str) -> int:
        if self._names is None:
            self._names = self.action_names()
        key = " ".join(str(text).strip().lower().split())
        for i, name in enumerate(self._names):
            if name == key:
                return i
        raise ValueError(
            f"{self.env_id}: no action is named {text!r}; names look like "
            f"{self._names[0]!r}, {self._names[-1]!r} (see action_names())"
        )

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self._mask)]

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn(f"You are calling render method without specifying any render mode ({self.env_id}).")
            return None
        if not self._has_reset:
            raise RuntimeError(f"{self.env_id}: reset() must be called before render()")
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # replays ----------------------------------------------------------------------------------
    def log_digest(self) -> str:
        return hashlib.sha256(json.dumps(self.game_log, sort_keys=True).encode()).hexdigest()

    def replay_dict(self) -> dict[str, Any]:
        if not self._has_reset:
            raise RuntimeError(f"{self.env_id}: nothing to save before reset()")
        return {
            "format": REPLAY_FORMAT,
            "version": REPLAY_VERSION,
            "env_id": self.env_id,
            "options": options_dict(self.options),
            "seed": self.seed_used,
            "actions": list(self.actions_taken),
            "log_sha256": self.log_digest(),
        }

    def save_replay(self, path: str | Path) -> None:
        """Write the game so far as JSON: env id, options, seed, actions (and a digest of the
        log, so a replay made by other rules is caught when it is loaded)."""
        Path(path).write_text(json.dumps(self.replay_dict(), indent=1))
