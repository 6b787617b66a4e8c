"""The one generic PettingZoo AEC env over a ruleset kernel.

A ruleset subclasses ``LabyrinthAECEnv``, names its spec (``ruleset = SPEC``, from which the
env id, kernel, seats, loops and pictures follow) and its options dataclass, and says how
its actions, events and text board read; everything else (agent bookkeeping, rewards,
truncation, the decoded event log, replays, readable action names, bad-input errors) lives
here.

``env()`` of a ruleset returns the same class in *checked* mode, which behaves like
PettingZoo's standard wrapper stack (order enforcing, bounds, terminate-illegal) in one
thin layer instead of three forwarding wrappers. An illegal action there ends the game as
``TerminateIllegalWrapper(illegal_reward=-1)`` does (every agent terminated and truncated,
-1 for the offender and 0 for the others, the first agent selected to take its dead step,
infos untouched), with one difference: the warning names the action, the decision and the
legal actions instead of PettingZoo's generic line. ``illegal_action`` records it (agent,
action), and so do replays. ``step`` after every agent is gone warns and does nothing, as
PettingZoo's order enforcing does; ``observe`` answers for any agent at any time.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from labyrinth_env.core.batch_template import LOOKAHEAD_FEATURES
from labyrinth_env.core.contract import OPT_MAX_TURNS, OPT_PLAYERS, TRUNCATED, new_states
from labyrinth_env.core.rng import next_seed, python_seed, seed_stream
from labyrinth_env.core.sentences import RULEBOOK_CITATION
from labyrinth_env.options import options_dict, parse_options
from labyrinth_env.spec import RulesetSpec

REPLAY_FORMAT = "labyrinth-env-replay"
REPLAY_VERSION = 1


# "dict": {"observation", "action_mask"} (PettingZoo's classic envs); "flat": the
# observation vector alone, the mask in infos (for wrappers that reshape observations).
OBSERVATION_FORMATS = ("dict", "flat")


def replay_digest(log: list[dict[str, Any]], illegal_action: Any = None) -> str:
    """SHA-256 of a decoded game log, with the illegal action that ended the game if one
    did (``(agent, action)`` or a replay's ``{"agent", "action"}``): a replay whose
    ``illegal_action`` is deleted would otherwise load as a game still running."""
    if illegal_action is None:
        content: Any = log  # as every replay without an illegal action has recorded it
    else:
        if isinstance(illegal_action, dict):
            illegal_action = (illegal_action.get("agent"), illegal_action.get("action"))
        content = {"log": log, "illegal_action": list(illegal_action)}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


class LabyrinthAECEnv(AECEnv):
    """PettingZoo AEC env driven by a numba kernel (see DESIGN.md, "Kernel contract")."""

    # --- set by each ruleset -------------------------------------------------------------
    ruleset: ClassVar[RulesetSpec]
    Options: ClassVar[type]
    # --- derived from the spec ---------------------------------------------------------------
    env_id: ClassVar[str]
    kernel: ClassVar[ModuleType]
    max_seats: ClassVar[int]

    metadata: ClassVar[dict[str, Any]] = {
        # rgb_array and to_svg() draw with the spec's picture module
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "labyrinth",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        spec = cls.__dict__.get("ruleset")
        if spec is None:
            return
        cls.env_id = spec.env_id
        cls.kernel = spec.kernel
        cls.max_seats = spec.kernel.NUM_SEATS
        modes = [m for m in cls.metadata["render_modes"] if m != "rgb_array" or spec.picture_module is not None]
        cls.metadata = {**cls.metadata, "name": spec.env_id, "render_modes": modes}

    def options_vector(self) -> np.ndarray:
        """The kernel's options vector for ``self.options``: the contract's head (the player
        count, the turn limit); a ruleset whose kernel has options of its own extends it
        (``vec = super().options_vector()``, then its ``OPT_*`` entries)."""
        vec = np.zeros(self.kernel.NUM_OPTIONS, dtype=np.int32)
        vec[OPT_PLAYERS] = self.options.num_players
        vec[OPT_MAX_TURNS] = getattr(self.options, "max_turns", None) or 0
        return vec

    def decode_event(self, record: np.ndarray) -> dict[str, Any]:
        """One fixed-width event record as a dict with a ``"type"``."""
        raise NotImplementedError

    def event_display(self, record: np.ndarray) -> dict[str, Any]:
        """What a person is shown of one event record beyond its decoded data (each throw of a
        check whose data counts only the failures): fields that ``game_log`` and the sentence
        get beside the data but replays do not digest, so a ruleset can show more of a game
        without changing what its recorded replays and fingerprints hold. Every seat sees
        them, as it sees the data. Nothing by default."""
        return {}

    def action_names(self) -> list[str]:
        """The readable name of every action index."""
        raise NotImplementedError

    # the columns the text board (``render_text``, the ``ansi`` mode) is fitted to: its panel
    # and key wrap there; ``labyrinth play`` sets the terminal's width
    text_width: int = 100

    def render_text(self) -> str:
        """The ANSI/text picture of the current state, fitted to ``text_width`` columns."""
        raise NotImplementedError

    def observation_size(self) -> int:
        """Length of the kernel's observation vector with these options (a ruleset whose
        options add observation features overrides this); the ``lookahead`` block, when
        asked for, follows it (``obs_size``)."""
        return self.kernel.OBS_SIZE

    def generic_lookahead(self) -> bool:
        """True when the observation carries the shared per-action block
        (``core/batch_template.lookahead_one``, written after the kernel's observation); a
        ruleset whose kernel fills a lookahead of its own answers False."""
        return bool(getattr(self.options, "lookahead", False))

    def lookahead_layout(self) -> dict[str, Any] | None:
        """Where the per-action lookahead features sit in the observation (None without the
        ``lookahead`` option): ``base_size`` floats of the kernel's observation, then
        ``features`` floats per action, and each action's ``kinds`` index (the first word
        of its name: actions of one kind share weights in ``agents.policies.LookaheadPolicy``)."""
        if not self.generic_lookahead():
            return None
        words: dict[str, int] = {}
        kinds = [words.setdefault(name.split()[0] if name.split() else "", len(words)) for name in self.action_names()]
        return {"base_size": self.observation_size(), "features": LOOKAHEAD_FEATURES, "kinds": kinds}

    # --- generic part ----------------------------------------------------------------------
    def __init__(self, render_mode: str | None = None, observation_format: str = "dict", **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode={render_mode!r} is not supported by {self.env_id}; "
                f"allowed: {self.metadata['render_modes']} or None"
            )
        if observation_format not in OBSERVATION_FORMATS:
            raise ValueError(
                f"observation_format={observation_format!r} is not one of {list(OBSERVATION_FORMATS)}: "
                "'dict' gives {'observation', 'action_mask'}, 'flat' the vector with the mask in infos"
            )
        self.observation_format = observation_format
        self.options = parse_options(self.Options, options, self.env_id)
        self.render_mode = render_mode
        self.checked = False
        n = self.options.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = list(self.possible_agents)
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        k = self.kernel
        self._lookahead = self.generic_lookahead()
        self.obs_size = self.observation_size() + (k.NUM_ACTIONS * LOOKAHEAD_FEATURES if self._lookahead else 0)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, shape=(self.obs_size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(k.NUM_ACTIONS,), dtype=np.int8),
            }
        )
        act_space = spaces.Discrete(k.NUM_ACTIONS)
        if observation_format == "flat":
            obs_space = obs_space["observation"]
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._options_vec = self.options_vector()
        self._loops = self.batch  # the kernel's entry points, compiled once per ruleset
        self._states = new_states(k, 1)
        self._mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
        self._no_mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
        self._returns = np.zeros(self.max_seats, dtype=np.float64)
        self._names: list[str] | None = None
        self._has_reset = False
        self.seed_used: int | None = None
        self._seed_stream: np.random.Generator | None = None  # bare resets' seeds (see reset)
        self.actions_taken: list[int] = []
        self._decoded_log: list[dict[str, Any]] = []  # the events as data (what replays digest)
        self._display_log: list[dict[str, Any]] = []  # beside each event: event_display
        self._text_log: list[dict[str, Any]] = []  # the same with their sentences (game_log)
        self._frozen_log: list[Any] = []  # the same events as read-only mappings, for seat views
        self._pending_events: list[np.ndarray] = []
        self._window: Any = None  # the matplotlib figure of render_mode="human", once opened

    # pickle and deepcopy ---------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        # The kernel's loops are a module (found again from the class) and a window is a
        # screen's: everything else (options, the state record, the log) is the game.
        state = self.__dict__.copy()
        del state["_loops"]
        state["_window"] = None
        state["_frozen_log"] = []  # read-only mappings do not pickle; made again from the log
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("_frozen_log", [])
        self.__dict__.setdefault("_text_log", [])
        self.__dict__.setdefault("_lookahead", False)
        self.__dict__.setdefault("_display_log", [{} for _ in self._decoded_log])
        self._loops = self.batch

    # spaces -----------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space:
        return self.action_spaces[agent]

    @property
    def batch(self) -> ModuleType:
        """This ruleset's batched loops (random play, vector env steps; see
        ``labyrinth_env.core.batch_template``)."""
        return self.ruleset.loops

    @property
    def record(self) -> np.void:
        """The kernel's state record of the game, hidden information included (a view:
        copy it before changing it). For research and tests; agents in tournaments get a
        ``seat_view`` instead."""
        return self._states[0]

    def state(self) -> np.ndarray:
        """PettingZoo's global state: not offered. These games hide information from every
        seat and have no observation of the whole table (an omniscient vector would be a
        different encoding); the kernel's record is ``record``."""
        raise NotImplementedError(
            f"{self.env_id}: state() (PettingZoo's global state) is not implemented; each seat's observation "
            "is observe(agent), the kernel's full state record is env.unwrapped.record"
        )

    # reset / step -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # Options belong to make(); PettingZoo's api_test passes reset(options=...) and
        # expects it to be accepted, so it is ignored here.
        del options
        # Gymnasium's and PettingZoo's convention: reset(seed=s) plays the game of seed s and
        # restarts the stream that later bare resets draw their games from, so a seeded run
        # of many episodes is the same run every time; unseeded, the stream starts from the OS.
        if seed is not None:
            self.seed_used = python_seed(seed)
            self._seed_stream = seed_stream(self.seed_used)
        else:
            if self._seed_stream is None:
                self._seed_stream = seed_stream(None)
            self.seed_used = next_seed(self._seed_stream)
        self._compile_entry_points()
        self._loops.init_one(self._states, np.uint64(self.seed_used), self._options_vec)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.actions_taken = []
        self.illegal_action: tuple[str, int] | None = None  # (agent, action) that ended the game (checked mode)
        self._decoded_log = []
        self._display_log = []
        self._text_log = []
        self._frozen_log = []
        self._pending_events = []
        self._has_reset = True
        self._skip_agent_selection = None
        self._log_events()
        seat = self._loops.refresh_one(self._states, self._mask, self._returns)
        self.agent_selection = self.possible_agents[seat]
        self._publish_masks()

    def _compile_entry_points(self) -> None:
        """Compile (or load from the cache) every kernel entry point the env calls, on a
        scratch game, with the compile shown while it lasts: one wait at the first reset
        instead of one at each first call."""
        from labyrinth_env.progress import first_use

        with first_use(("aec", self.env_id), f"the {self.ruleset.title} kernels") as first:
            if first is None:
                return
            states = new_states(self.kernel, 1)
            mask = np.zeros_like(self._mask)
            self._loops.init_one(states, np.uint64(0), self._options_vec)
            self._loops.refresh_one(states, mask, self._returns)
            self._loops.observe_one(states, 0, np.zeros(self.obs_size, dtype=np.float32))
            if self._lookahead:
                seat = int(self.kernel.to_act(states[0]))
                self._loops.lookahead_game(states, seat, np.zeros(self.obs_size, dtype=np.float32))
            self._loops.step_one(states, int(np.flatnonzero(mask)[0]), mask, self._returns)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            raise RuntimeError(f"{self.env_id}: reset() must be called before step()")
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
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
        self._publish_masks()
        if self.render_mode == "human":
            self.render()

    def kernel_truncated(self) -> bool:
        return int(self.record["outcome"]) == TRUNCATED

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

    def action_label(self, action: int) -> str:
        """``action``'s name as a person is offered it now (``play``, the browser): its name,
        unless the pending decision gives the same index another meaning."""
        return self.action_to_str(action)

    def pending_decision(self) -> str:
        """The name of the decision the acting seat must make now."""
        return self.kernel.DECISIONS[int(self.record["decision"])]

    def _illegal_message(self, agent: str, index: int) -> str:
        legal = np.flatnonzero(self._mask)
        shown = ", ".join(f"{a} ({self.action_to_str(int(a))})" for a in legal[:8])
        more = f", ... ({len(legal)} legal in all)" if len(legal) > 8 else ""
        return (
            f"{self.env_id}: illegal action {index} ({self.action_to_str(index)}) for {agent}; "
            f"pending decision: {self.pending_decision()}; legal actions: {shown}{more}"
        )

    def _terminate_illegal(self, agent: str, index: int) -> None:
        """PettingZoo's ``TerminateIllegalWrapper(illegal_reward=-1)``, step for step (see
        the module docstring)."""
        warnings.warn(f"[WARNING]: {self._illegal_message(agent, index)}; game terminating", stacklevel=3)
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = -1.0
        self._accumulate_rewards()
        self._deads_step_first()
        self.illegal_action = (agent, index)
        # infos stay as they were (the wrapper's way): with observation_format="flat" the
        # offender keeps the mask it was given

    def _publish_masks(self) -> None:
        """With ``observation_format="flat"``: each agent's legal actions in its infos
        (``infos[agent]["action_mask"]``, as PettingZoo's examples read them), all zeros but
        for the agent to act, at every step including the last."""
        if self.observation_format != "flat":
            return
        for agent in self.agents:
            acting = agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent])
            self.infos[agent]["action_mask"] = (self._mask if acting else self._no_mask).copy()

    # observation ----------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        seen = self._observe_dict(agent)
        return seen["observation"] if self.observation_format == "flat" else seen

    def observation_of(self, states: np.ndarray, seat: int) -> np.ndarray:
        """``seat``'s observation of the record ``states[0]`` with these options (the
        ``lookahead`` block included)."""
        obs = np.empty(self.obs_size, dtype=np.float32)
        self._loops.observe_one(states, seat, obs)
        if self._lookahead:
            self._loops.lookahead_game(states, seat, obs)
        return obs

    def _observe_dict(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation and mask, whatever ``observation_format`` hands out."""
        if not self._has_reset:
            raise RuntimeError(f"{self.env_id}: reset() must be called before observe()")
        if agent not in self.agent_name_mapping:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        seat = self.agent_name_mapping[agent]
        obs = self.observation_of(self._states, seat)
        acting = (
            agent == self.agent_selection
            and agent in self.terminations
            and not (self.terminations[agent] or self.truncations[agent])
        )
        mask = self._mask.copy() if acting else self._no_mask.copy()
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``; once the selected agent has left the game (every agent
        took its dead step) it still answers, with reward 0, the game's end (terminated,
        or truncated after ``max_turns``) and empty infos, where PettingZoo's base class
        raises ``KeyError`` (wrappers such as SuperSuit's call it after every step)."""
        agent = self.agent_selection
        if agent in self._cumulative_rewards:
            return super().last(observe)
        observation = self.observe(agent) if observe else None
        truncated = self.kernel_truncated()
        info = {"action_mask": self._no_mask.copy()} if self.observation_format == "flat" else {}
        return observation, 0.0, not truncated, truncated, info

    # log, names, render -----------------------------------------------------------------------
    def _log_events(self) -> None:
        # Keep the raw records; decoding into dicts happens when game_log is read, which
        # keeps the per-step cost of the env low.
        s = self.record
        n = int(s["num_events"])
        if n > s["events"].shape[0]:
            raise RuntimeError(f"{self.env_id}: event buffer overflow ({n} events in one step)")
        if n:
            self._pending_events.append(s["events"][:n].copy())

    def _event_data(self) -> list[dict[str, Any]]:
        """Every event so far as the decoders give it (no sentences, no ``event_display``):
        what replays digest."""
        if self._pending_events:
            for block in self._pending_events:
                for record in block:
                    self._decoded_log.append(self.decode_event(record))
                    self._display_log.append(self.event_display(record))
            self._pending_events = []
        return self._decoded_log

    @property
    def game_log(self) -> list[dict[str, Any]]:
        """Every event of the game so far, decoded (``{"type": ..., ...}``), with what a
        person is shown beside it (``event_display``) and its ``text``: one sentence for
        people (``event_text``), last. The replay digest (``log_digest``) covers the decoded
        fields only, so rewording a sentence changes no recorded game."""
        data = self._event_data()
        for i in range(len(self._text_log), len(data)):
            event = {**data[i], **self._display_log[i]}
            self._text_log.append({**event, "text": self.event_text(event)})
        return self._text_log

    def public_log(self) -> Any:
        """The decoded events so far as a read-only sequence of read-only mappings: the log
        every seat saw, as seat views hand it to agents (``seat_view.PublicLog``)."""
        from labyrinth_env.seat_view import PublicLog, freeze_event

        log = self.game_log
        self._frozen_log.extend(freeze_event(e) for e in log[len(self._frozen_log) :])
        return PublicLog(self._frozen_log)

    def seat_view(self, agent: str | None = None, model: bool = True) -> Any:
        """What ``agent`` (default: the agent to act) may see now, as a
        ``labyrinth_env.seat_view.SeatView``: its observation and mask, the public log, and
        a forward model over records determinized for its seat (``model=False``: none, for
        agents that use only the observation). This, not the env, is what tournaments and
        evaluations hand their agents."""
        from labyrinth_env.progress import first_use
        from labyrinth_env.seat_view import ForwardModel, SeatView

        agent = self.agent_selection if agent is None else agent
        observation = self._observe_dict(agent)  # checks the agent and that the game was reset
        forward = None
        if model:
            with first_use(("determinize", self.env_id), f"the {self.ruleset.title} determinize"):
                forward = ForwardModel(self.ruleset, self.agent_name_mapping[agent], self._states)
        return SeatView(observation["observation"], observation["action_mask"], self.public_log(), forward)

    def private_lines(self, viewer: int | str) -> list[str]:
        """What seat ``viewer`` (a seat or agent name) knows that the board does not show
        everyone, as lines for a person: its hand by card kind, what it peeked at; then its
        own character, items and tokens with their texts. Nothing of any other seat's hidden
        information (``tests/test_web_play.py``)."""
        seat = self._viewer_seat(viewer)
        if seat is None:
            raise ValueError("private_lines needs a seat (0..n-1) or an agent name")
        # the component texts cite their rulebook lines for the rules docs, not for players
        return [RULEBOOK_CITATION.sub("", line) for line in self.seat_lines(self.record, seat)]

    def seat_lines(self, s: np.void, seat: int) -> list[str]:
        """``private_lines`` of a ruleset (the record ``s``, a checked ``seat``); none by default."""
        return []

    # a ruleset's sentences by event type (``core.sentences``); types it leaves out are
    # worded from their fields
    sentences: ClassVar[dict[str, Any]] = {}

    def sentence_context(self) -> dict[str, Any]:
        """What a ruleset's sentences may read besides the event: the game's public setup
        (the same for every seat). None by default."""
        return {}

    def event_text(self, event: dict[str, Any]) -> str:
        """One decoded event as a sentence for people, with players by absolute number:
        ``{"type": "move", "seat": 1, "from": "r2c4", "to": "r2c5", ...}`` -> ``Player 1
        moves from r2c4 to r2c5.`` (the ruleset's ``sentences``); an event type without one
        reads ``Player 1: rotate tile (cell r2c4).``"""
        from labyrinth_env.core.sentences import say

        text = say(self.sentences, event, self.sentence_context())
        if text is not None:
            # the component texts a sentence quotes cite their rulebook lines for the rules
            # docs, not for players (as in private_lines)
            return RULEBOOK_CITATION.sub("", text)
        words = str(event.get("type", "event")).replace("_", " ")
        seat = event.get("seat")
        details = []
        for key, value in event.items():
            if key in ("type", "seat", "text"):
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            elif isinstance(value, (list, tuple)):
                value = ", ".join(str(v) for v in value)
            details.append(f"{key.replace('_', ' ')} {value}")
        head = f"Player {seat}: {words}" if isinstance(seat, int) and seat >= 0 else words[:1].upper() + words[1:]
        return head + (f" ({'; '.join(details)})" if details else "") + "."

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

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the text board; ``rgb_array``: the picture as an HxWx3 uint8 array;
        ``human``: the picture in a window where a display exists, else the text board
        printed. Hidden information never appears (see ``picture(omniscient=True)``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(f"You are calling render method without specifying any render mode ({self.env_id}).")
            return None
        if not self._has_reset:
            raise RuntimeError(f"{self.env_id}: reset() must be called before render()")
        if self.render_mode == "rgb_array":
            return self.picture().to_array()
        if self.render_mode == "human":
            if not self._show_window():
                print(self.render_text())
            return None
        return self.render_text()

    def picture(self, omniscient: bool = False, viewer: int | str | None = None) -> Any:
        """The current state drawn as a ``labyrinth_env.render.Canvas`` (write it with
        ``to_svg()``, ``to_array()`` or ``to_image()``). ``viewer``: a seat or agent name
        whose own private information may show (None: a spectator); ``omniscient=True``
        shows everything hidden (face-down tiles and traps, other hands, the next cards)."""
        if not isinstance(omniscient, (bool, np.bool_)):
            raise ValueError(f"omniscient must be True or False, got {omniscient!r}")
        if not self._has_reset:
            raise RuntimeError(f"{self.env_id}: reset() must be called before drawing a picture")
        if self.ruleset.picture is None:
            raise NotImplementedError(f"{self.env_id} has no pictures (its spec names no picture module)")
        return self.ruleset.picture.draw(self.record, viewer=self._viewer_seat(viewer), omniscient=bool(omniscient))

    def to_svg(self, omniscient: bool = False, viewer: int | str | None = None) -> str:
        """The current state as an SVG document (see ``picture``)."""
        return self.picture(omniscient, viewer).to_svg()

    def _viewer_seat(self, viewer: int | str | None) -> int | None:
        if viewer is None:
            return None
        if isinstance(viewer, str):
            if viewer not in self.agent_name_mapping:
                raise ValueError(f"unknown viewer {viewer!r}; agents are {self.possible_agents} (or None)")
            return self.agent_name_mapping[viewer]
        if isinstance(viewer, (bool, np.bool_)) or not isinstance(viewer, (int, np.integer)):
            raise ValueError(f"viewer must be a seat number, an agent name or None, got {viewer!r}")
        if not 0 <= int(viewer) < len(self.possible_agents):
            raise ValueError(f"viewer seat {viewer} is not in this game; seats are 0..{len(self.possible_agents) - 1}")
        return int(viewer)

    def _show_window(self) -> bool:
        """Show the picture in a matplotlib window; False when there is no display, no
        interactive backend or no picture module (the caller then prints the text board)."""
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            return False
        if "rgb_array" not in self.metadata["render_modes"]:
            return False
        try:
            import matplotlib.pyplot as plt

            if not plt.get_backend().lower().endswith(("tkagg", "qtagg", "gtk3agg", "gtk4agg", "wxagg", "macosx")):
                return False
            image = self.picture().to_array()
            if self._window is None or not plt.fignum_exists(self._window[0].number):
                fig, ax = plt.subplots(figsize=(image.shape[1] / 100, image.shape[0] / 100), dpi=100)
                ax.set_axis_off()
                fig.subplots_adjust(0, 0, 1, 1)
                self._window = (fig, ax.imshow(image))
                plt.show(block=False)
            else:
                self._window[1].set_data(image)
            plt.pause(1.0 / self.metadata["render_fps"])
            return True
        except Exception as exc:  # a broken GUI toolkit must not stop a game
            warnings.warn(f"{self.env_id}: no picture window ({exc}); printing the text board", stacklevel=3)
            return False

    def close(self) -> None:
        if self._window is not None:
            import matplotlib.pyplot as plt

            plt.close(self._window[0])
            self._window = None

    # replays ----------------------------------------------------------------------------------
    def log_digest(self) -> str:
        """The digest a replay records (``log_sha256``): of the decoded log and, in a game an
        illegal action ended, of that action (``replay_digest``)."""
        return replay_digest(self._event_data(), getattr(self, "illegal_action", None))

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
            **(
                {"illegal_action": {"agent": self.illegal_action[0], "action": self.illegal_action[1]}}
                if self.illegal_action is not None
                else {}
            ),
        }

    def save_replay(self, path: str | Path) -> None:
        """Write the game so far as JSON: env id, options, seed, actions (and a digest of the
        log, so a replay made by other rules is caught when it is loaded; and the illegal
        action that ended it, if one did)."""
        Path(path).write_text(json.dumps(self.replay_dict(), indent=1))
