"""Many games in one kernel call: a Gymnasium ``VectorEnv`` for learners, with opponents
played inside the kernel (``"random"``, ``"heuristic"``), a mix of those by env
(``{"heuristic": 0.75, "random": 0.25}``: that share of the envs meets each, an opponent
pool for curricula), or by one batched Python call (any callable ``policy(observations,
masks) -> actions``, e.g. a frozen network for self-play).

Each of the ``num_envs`` slots is one game seen from its learner seat: an observation is
the learner's (egocentric), ``action_masks()`` its legal actions, and a reward arrives when
the game ends (the learner seat's return; with ``shaping > 0`` also a potential-based
shaping term, opt-in and off by default, from the ruleset's ``shaping_potential``, or with
``potential="progress"`` from its ``progress``, the path-following measure the self-play
learner and the ``lookahead`` option read), after
which the slot holds the next game. ``autoreset_mode`` as Gymnasium 1.x names them:
``"same-step"`` (the default: the step that ends a game returns the next game's first
observation, the finished game's last one in ``infos["final_obs"]``, an object array with
None for the envs whose game did not end, as Gymnasium's, and the last step's infos in
``infos["final_info"]``), ``"next-step"`` (that step returns the last observation;
the next step ignores the env's action and returns the new game's first observation, as
Gymnasium's own vector envs and its observation wrappers expect) or ``"disabled"`` (the
env waits for ``reset(options={"reset_mask": mask})``). In every mode the finished game's
return for the learner seat, without shaping, is in ``infos["final_return"]``. ``reset``
takes one seed, a list of one seed per env (the same seed gives the same game in any slot)
and a ``reset_mask`` for partial resets; as in Gymnasium, a ``reset()`` without a seed
continues from the last seed given (the constructor's ``seed`` is the first reset's), so a
seeded run is the same run every time; ``call``, ``get_attr`` and ``set_attr`` reach the
per-env values (``action_masks``) and the batch's shared attributes.

``copy=False`` (as in Gymnasium's ``SyncVectorEnv``) returns the env's own observation
buffer from ``reset``/``step``: one buffer for the env's whole life, overwritten by the
next ``step``, so keep a copy of anything you hold on to. With ``copy=True`` (the default)
every ``reset``/``step`` returns an array that the env never writes again; the kernel
writes the observations straight into it (no copy of ``num_envs x OBS_SIZE`` floats, 30 MB
for Paths of Destiny at 1024 envs), and an array handed out earlier is reused only once
nothing outside the env refers to it any more (see ``_Buffers``).

Learner seats: an int (that seat in every game), ``"rotate"`` (slot i plays seat
i mod players, so a batch covers every seat), or ``"all"`` for the cooperative Team
Edition, where the learner plays every seat and all seats share one reward. A
competitive game with several learner seats in one slot would mix the seats' opposite
rewards into one stream, so it is refused with an explanation.

Threads: ``parallel=True`` steps the games on numba's threads (``numba.set_num_threads``),
``False`` on the calling thread; the default (``None``) is parallel from
``PARALLEL_MIN_ENVS`` games on when numba has more than one thread. Below that a batch is
too small for threads to pay (measured: ``docs/benchmarks.md``), and a serial env never
compiles the parallel loops, which cost as much compile time again.
"""

from __future__ import annotations

import math
import os
import sys
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numba
import numpy as np
from gymnasium import spaces

import labyrinth_env
from labyrinth_env.core import templates
from labyrinth_env.core.batch_template import ENDED, MAX_EMPTY_GAMES, STALLED
from labyrinth_env.core.contract import new_states
from labyrinth_env.core.rng import next_seed, python_seed, seed_stream
from labyrinth_env.options import options_dict

KERNEL_OPPONENTS = {"random": 0, "heuristic": 1}
PARALLEL_MIN_ENVS = 32
# the shaping's potential: its loop, and the column of a finished game's value in ``infos``
POTENTIALS = {"shaping": ("potentials", 3), "progress": ("progresses", 5)}
# Kernel-side opponent decisions allowed between two learner decisions: far above any game's,
# and a few seconds of heuristic play at most, so that a stalled game can never hold a step
# (in compiled code, out of Ctrl-C's reach): it is truncated, ``infos["stalled"]`` marks
# it and a warning says so. The default is also the most allowed: ``max_opponent_decisions``
# (the constructor's or ``set_attr``'s) may lower it, never switch it off or raise it.
MAX_OPPONENT_DECISIONS = 50_000
EXTERNAL = 2

Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]


def check_max_opponent_decisions(value: Any) -> int:
    """``value`` as a limit of kernel-side opponent decisions in a row, or ``ValueError``
    saying what is allowed (1 to ``MAX_OPPONENT_DECISIONS``: 0 would call every game
    stalled, and a larger limit could hold a step out of Ctrl-C's reach)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"max_opponent_decisions must be an int from 1 to {MAX_OPPONENT_DECISIONS:,}, got {value!r}")
    if not 1 <= value <= MAX_OPPONENT_DECISIONS:
        raise ValueError(
            f"max_opponent_decisions must be an int from 1 to {MAX_OPPONENT_DECISIONS:,} (0 would call every "
            f"game stalled; more could hold a step for minutes), got {value!r}"
        )
    return int(value)


def nonnegative_number(value: Any) -> bool:
    """Whether ``value`` is a finite int or float >= 0 (not a bool)."""
    return (
        not isinstance(value, (bool, np.bool_))
        and isinstance(value, (int, float, np.integer, np.floating))
        and math.isfinite(value)
        and value >= 0
    )


def opponent_mix(weights: dict, num_envs: int, env_id: str) -> np.ndarray:
    """Each env's opponent kind (``KERNEL_OPPONENTS``) for a mix such as ``{"heuristic": 3,
    "random": 1}``: the envs split in proportion to the weights (largest remainders), in
    blocks, so that with ``learner_seats="rotate"`` each kind still meets the learner in
    every seat. ``ValueError`` names what is wrong with a mix and what is allowed."""
    allowed = sorted(KERNEL_OPPONENTS)
    for name, weight in weights.items():
        if name not in KERNEL_OPPONENTS:
            raise ValueError(f"unknown opponent {name!r} in the mix {weights!r}; use {allowed}")
        if not nonnegative_number(weight):
            raise ValueError(f"the mix's weight of {name!r} must be a number >= 0, got {weight!r}")
    total = float(sum(weights.values()))
    if total <= 0:
        raise ValueError(f"the opponent mix {weights!r} needs a weight above 0")
    if weights.get("heuristic", 0) > 0 and labyrinth_env.get_spec(env_id).heuristic_module is None:
        raise ValueError(f"{env_id} has no heuristic (its spec names none): leave it out of the mix")
    names = [n for n in allowed if weights.get(n, 0) > 0]
    exact = np.array([weights[n] / total * num_envs for n in names])
    counts = np.floor(exact).astype(np.int64)
    for i in np.argsort(-(exact - counts), kind="stable")[: num_envs - int(counts.sum())]:
        counts[i] += 1
    return np.repeat([KERNEL_OPPONENTS[n] for n in names], counts).astype(np.int64)


def batched_box(single: spaces.Box, num_envs: int) -> spaces.Box:
    """``gymnasium.vector.utils.batch_space(single, num_envs)`` without its memory: the batched
    Box's bounds are read-only broadcast views of the single Box's, not ``num_envs`` copies
    (at 16,384 Labyrinx games those copies alone were about a gigabyte). The space behaves
    as batch_space's does: same shape, dtype and bounds, ``contains``, ``sample``, equality."""
    shape = (num_envs, *single.shape)
    box = spaces.Box(low=single.low[np.newaxis], high=single.high[np.newaxis], dtype=single.dtype)
    box._shape = shape
    box.low = np.broadcast_to(single.low, shape)
    box.high = np.broadcast_to(single.high, shape)
    box.bounded_below = np.broadcast_to(single.bounded_below, shape)
    box.bounded_above = np.broadcast_to(single.bounded_above, shape)
    return box


class _Buffers:
    """Arrays of one shape handed out as if new at every call, without allocating one: a
    30 MB array per step costs the allocator a memset or page faults, more than the kernel
    spends writing it. An array is reused only when nothing but this pool refers to it (its
    reference count says so), so no caller can ever see one it holds change; when every
    pooled array is still held, a new one is made."""

    def __init__(self, shape: tuple[int, ...], dtype: type, size: int = 2) -> None:
        self.shape, self.dtype, self.size = shape, dtype, size
        self.arrays: list[np.ndarray] = []
        # the count of an array that only a pool list holds, measured by the very call
        # take() makes: interpreters differ in the references they count
        self._free = self._references([np.empty(0)], 0)

    @staticmethod
    def _references(arrays: list[np.ndarray], i: int) -> int:
        return sys.getrefcount(arrays[i])

    def take(self) -> tuple[np.ndarray, int]:
        """A free array (contents undefined) and its pool slot (-1: not pooled)."""
        for i in range(len(self.arrays)):
            if self._references(self.arrays, i) == self._free:
                return self.arrays[i], i
        a = np.empty(self.shape, dtype=self.dtype)
        if len(self.arrays) < self.size:
            self.arrays.append(a)
            return a, len(self.arrays) - 1
        return a, -1


# Fork safety. Numba's omp threading layer is GNU OpenMP here, which aborts a child made by
# fork ("fork() called from a process already using GNU OpenMP") at the child's first
# parallel region if the parent had started its thread pool. A child's envs (those it
# inherited and those it builds) therefore step through the serial loops: forked workers
# (Gymnasium's AsyncVectorEnv, SB3's SubprocVecEnv) are parallel as processes already.
_LIVE_ENVS: weakref.WeakSet[VectorEnv] = weakref.WeakSet()
_FORKED_AFTER_OPENMP = False


def _serial_after_fork() -> None:
    global _FORKED_AFTER_OPENMP
    if not templates.forked_after_openmp():  # decided by templates' handler, registered first
        return
    _FORKED_AFTER_OPENMP = True
    for env in list(_LIVE_ENVS):
        if env.parallel:
            env.parallel = False
            env._bind_loops()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_serial_after_fork)


class VectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``env_id`` stepped together (see the module docstring)."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP, "render_modes": ["ansi", "rgb_array"]}

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        learner_seats: int | str = "rotate",
        opponents: str | dict[str, float] | Policy = "random",
        seed: int | None = None,
        infos: bool = False,
        shaping: float = 0.0,
        potential: str = "shaping",
        copy: bool = True,
        parallel: bool | None = None,
        autoreset_mode: str | gymnasium.vector.AutoresetMode = "same-step",
        max_opponent_decisions: int = MAX_OPPONENT_DECISIONS,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be an int >= 1, got {num_envs!r}")
        limit = check_max_opponent_decisions(max_opponent_decisions)
        raw = labyrinth_env.raw_env(env_id, **options)  # validates the id and the options
        # as Gymnasium's vector envs: render() gives every env's frame; the AEC env draws them
        render_modes = [m for m in raw.metadata["render_modes"] if m in self.metadata["render_modes"]]
        if render_mode is not None and render_mode not in render_modes:
            raise ValueError(
                f"render_mode={render_mode!r} is not supported by a vector env of {env_id}; "
                f"allowed: {render_modes} or None"
            )
        raw.render_mode = render_mode
        self.render_mode = render_mode
        self.env_id = env_id
        self.raw = raw
        self.ruleset = raw.ruleset
        self.kernel = raw.kernel
        self.loops = raw.batch
        k = self.kernel
        n_players = raw.options.num_players
        self.num_envs = num_envs
        self.num_players = n_players
        self.want_infos = bool(infos)
        self.learners = np.zeros((num_envs, k.NUM_SEATS), dtype=np.uint8)
        self.reward_seats = np.zeros(num_envs, dtype=np.int64)
        self._seat_learners(learner_seats)
        self._take_opponents(opponents)
        obs_size = raw.obs_size
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(obs_size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(k.NUM_ACTIONS)
        self.observation_space = batched_box(self.single_observation_space, num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self.options_vector = raw.options_vector()
        self.states = new_states(k, num_envs)
        self.masks = np.zeros((num_envs, k.NUM_ACTIONS), dtype=np.uint8)
        self.obs = np.zeros((num_envs, obs_size), dtype=np.float32)
        self.final_obs = np.zeros((num_envs, obs_size), dtype=np.float32)  # the kernel's, rows of ended games
        self._obs_out = _Buffers(self.obs.shape, np.float32)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self.returns = np.zeros((num_envs, k.NUM_SEATS), dtype=np.float64)
        # per env: terminated, truncated, the learner's return, final shaping potential,
        # stalled games, final progress
        self.infos = np.zeros((num_envs, 6), dtype=np.float64)
        self.max_opponent_decisions = limit
        self._warned_stall = False
        self.rngs = np.zeros((num_envs, 1), dtype=np.uint64)
        self.all_index = np.arange(num_envs, dtype=np.int64)
        if not nonnegative_number(shaping):
            raise ValueError(f"shaping must be a finite number >= 0 (0: off), got {shaping!r}")
        self.shaping = float(shaping)
        self.potential = potential
        if not isinstance(copy, bool):
            raise ValueError(f"copy must be True or False, got {copy!r}")
        self.copy = copy
        if parallel is None:
            parallel = num_envs >= PARALLEL_MIN_ENVS and numba.config.NUMBA_NUM_THREADS > 1
            parallel = parallel and not _FORKED_AFTER_OPENMP
        elif not isinstance(parallel, bool):
            raise ValueError(f"parallel must be True, False or None (by batch size), got {parallel!r}")
        elif parallel and _FORKED_AFTER_OPENMP:
            warnings.warn(
                f"{env_id}: this process was forked from one that ran numba's OpenMP threads, where a "
                "parallel loop would abort it; stepping serially (start workers with 'spawn' or "
                "'forkserver' to keep parallel loops)",
                RuntimeWarning,
                stacklevel=2,
            )
            parallel = False
        self.parallel = parallel
        self._bind_loops()
        _LIVE_ENVS.add(self)
        self._phi = np.zeros(num_envs, dtype=np.float64)
        if seed is not None:
            python_seed(seed)  # checked now, not at the first reset
        self._seed = seed  # the first reset's, when that reset names none
        self._seed_stream: np.random.Generator | None = None  # bare resets' seeds (see _game_seeds)
        self._reset_done = False
        self._compiled = False
        modes = {"same-step": "SameStep", "next-step": "NextStep", "disabled": "Disabled"}
        mode = autoreset_mode.value if isinstance(autoreset_mode, gymnasium.vector.AutoresetMode) else autoreset_mode
        mode = modes.get(mode, mode) if isinstance(mode, str) else mode
        if mode not in modes.values():
            raise ValueError(
                f"autoreset_mode must be one of {list(modes)} or a gymnasium.vector.AutoresetMode, "
                f"got {autoreset_mode!r}"
            )
        self.autoreset_mode = gymnasium.vector.AutoresetMode(mode)
        # disabled: a finished game stays in its slot (drawn by render) until a reset_mask
        # reset; the other modes have the kernel begin the next game in the same call
        self._restart = self.autoreset_mode != gymnasium.vector.AutoresetMode.DISABLED
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode, "render_modes": render_modes}
        # next-step and disabled modes: the envs whose game ended at the last step, and the
        # first observation of the game the kernel has already begun in their slot
        self._ended = np.zeros(num_envs, dtype=bool)
        self._begun_obs = np.zeros((num_envs, obs_size), dtype=np.float32)
        self._final_states = np.zeros_like(self.states)  # next-step mode: ended games, for render()

    @property
    def max_opponent_decisions(self) -> int:
        """Kernel-side opponent decisions allowed in a row before a game counts as stalled."""
        return self._max_opponent_decisions

    @max_opponent_decisions.setter
    def max_opponent_decisions(self, value: int) -> None:
        # one check for the constructor, set_attr and plain assignment
        self._max_opponent_decisions = check_max_opponent_decisions(value)

    def _seat_learners(self, learner_seats: int | str) -> None:
        """``learners[i, seat]``: the seats the learner plays in game ``i`` (every seat in a
        team game); ``reward_seats[i]``: the seat whose reward it is paid."""
        cooperative = self.ruleset.cooperative
        if learner_seats == "all":
            if not cooperative:
                teams = [s.env_id for s in labyrinth_env.specs() if s.cooperative]
                raise ValueError(
                    f"learner_seats='all' needs a cooperative ruleset ({teams}); in {self.env_id} the "
                    "seats' rewards are opposite and one stream would mix them: use an int or 'rotate'"
                )
            self.learners[:, : self.num_players] = 1
        elif learner_seats == "rotate":
            for i in range(self.num_envs):
                self.learners[i, i % self.num_players] = 1
                self.reward_seats[i] = i % self.num_players
        elif isinstance(learner_seats, (int, np.integer)) and not isinstance(learner_seats, bool):
            if not 0 <= learner_seats < self.num_players:
                raise ValueError(f"learner_seats={learner_seats} is not a seat of a {self.num_players}-player game")
            self.learners[:, learner_seats] = 1
            self.reward_seats[:] = learner_seats
        else:
            raise ValueError(f"learner_seats must be a seat index, 'rotate' or 'all', got {learner_seats!r}")
        if cooperative and learner_seats != "all":
            self.learners[:, : self.num_players] = 1  # in a team game the learner plays every seat

    def _take_opponents(self, opponents: str | dict[str, float] | Policy) -> None:
        """The kernel's opponents (``opponent_kind``), a mix of them by env (``mix``: each
        env's kind, played from Python) or the callable ``policy`` the other seats play."""
        if isinstance(opponents, str):
            if opponents not in KERNEL_OPPONENTS:
                raise ValueError(
                    f"unknown opponents {opponents!r}; use one of {sorted(KERNEL_OPPONENTS)} or a callable "
                    "policy(observations, masks) -> actions"
                )
            if opponents == "heuristic" and self.ruleset.heuristic_module is None:
                raise ValueError(
                    f"{self.env_id} has no heuristic (its spec names none): use opponents='random' or a policy"
                )
            self.opponent_kind = KERNEL_OPPONENTS[opponents]
            self.policy: Policy | None = None
        elif isinstance(opponents, dict):
            self.opponent_kind = EXTERNAL
            self.policy = None
            self.mix = opponent_mix(opponents, self.num_envs, self.env_id)
            self._mix_rng: np.random.Generator | None = None  # seeded by every full reset
            return
        elif callable(opponents):
            self.opponent_kind = EXTERNAL
            self.policy = opponents
        else:
            raise ValueError(
                f"opponents must be 'random', 'heuristic', a mix such as {{'heuristic': 0.5, 'random': 0.5}} "
                f"or a callable, got {opponents!r}"
            )
        self.mix = None

    def _mix_actions(self, waiting: np.ndarray) -> np.ndarray:
        """The mixed opponents' actions in the envs ``waiting`` on them."""
        masks = self.masks[waiting].astype(bool)
        # a uniform legal action, drawn from the env's own seeded generator
        actions = np.argmax(masks * self._mix_rng.random(masks.shape), axis=1).astype(np.int64)
        heuristic = self.mix[waiting] == KERNEL_OPPONENTS["heuristic"]
        if heuristic.any():
            rows = waiting[heuristic]
            out = np.zeros(rows.size, dtype=np.int64)
            self._heuristic_actions(self.states[rows], np.zeros_like(self.masks[rows]), out)
            actions[heuristic] = out
        return actions

    def _bind_loops(self) -> None:
        """The kernel's compiled entry points this env steps through (modules and numba
        dispatchers: found again after unpickling rather than pickled)."""
        self.ruleset = self.raw.ruleset
        self.kernel = self.raw.kernel
        self.loops = self.raw.batch
        # opponents that never play the heuristic step through loops that do not compile it
        heuristic = self.opponent_kind == KERNEL_OPPONENTS["heuristic"]
        loops = self.loops if heuristic else self.ruleset.random_loops
        suffix = "" if self.parallel else "_serial"
        self._vector_reset = getattr(loops, "vector_reset" + suffix)
        self._vector_step = getattr(loops, "vector_step" + suffix)
        self._potentials = getattr(loops, POTENTIALS[self.potential][0] + suffix)
        self._potential_loops = (loops, suffix)
        self._heuristic_actions = getattr(self.loops, "heuristic_actions" + suffix, None)
        # the lookahead option's per-action block, written after the kernel's observations
        self._lookahead_batch = getattr(loops, "lookahead_batch" + suffix) if self.raw.generic_lookahead() else None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for name in (
            "ruleset",
            "kernel",
            "loops",
            "_vector_reset",
            "_vector_step",
            "_potentials",
            "_potential_loops",
            "_lookahead_batch",
        ):
            del state[name]
        del state["_heuristic_actions"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        # a batch pickled before the progress potential: the kernel writes a sixth info column
        self.__dict__.setdefault("_potential", "shaping")
        self.__dict__.setdefault("mix", None)  # and before opponent mixes
        if self.infos.shape[1] < 6:
            self.infos = np.hstack([self.infos, np.zeros((self.num_envs, 6 - self.infos.shape[1]))])
        if self.parallel and _FORKED_AFTER_OPENMP:
            self.parallel = False
        self._bind_loops()
        _LIVE_ENVS.add(self)

    @property
    def potential(self) -> str:
        """What the opt-in shaping reads: ``"shaping"`` (the ruleset's ``shaping_potential``)
        or ``"progress"`` (its ``progress``). Settable (``set_attr`` too): the loop is bound
        again and the games' current potentials read anew, so the next step's shaping is
        the new potential's difference."""
        return self._potential

    @potential.setter
    def potential(self, value: str) -> None:
        if not isinstance(value, str) or value not in POTENTIALS:
            raise ValueError(f"potential must be one of {list(POTENTIALS)}, got {value!r}")
        self._potential = value
        if hasattr(self, "_potential_loops"):  # bound already: not the constructor
            loops, suffix = self._potential_loops
            self._potentials = getattr(loops, POTENTIALS[value][0] + suffix)
            if self._reset_done:
                self._potentials(self.states, self.reward_seats, self._phi)

    # --- Gymnasium VectorEnv API ----------------------------------------------------------
    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict]:
        """Start new games. ``seed``: an int (every env's game drawn from it), a list of one
        int or None per env (env i's game from its own seed: the same seed gives the same
        game in any slot), or None. ``options={"reset_mask": bool[num_envs]}`` starts new
        games only where the mask is True (Gymnasium's partial reset); the other envs keep
        their games, observations and masks."""
        rows = self._reset_rows(options)
        if seed is None and not self._reset_done:
            seed = self._seed
        seeds, words = self._game_seeds(seed, rows)
        prev = self.obs
        self._new_obs_buffer()
        if not self._compiled:
            self._compile_entry_points()
        if rows.size == self.num_envs:  # always so at the first reset
            self.rngs[:, 0] = words
            if self.mix is not None:  # its random opponents draw from the games' seeded words
                self._mix_rng = np.random.default_rng(words)
            self.game_seeds = seeds  # the first game of each env: raw_env(...).reset(seed=...) replays it
            self._vector_reset(
                self.states,
                seeds,
                self.options_vector,
                self.learners,
                self.opponent_kind,
                self.masks,
                self.obs,
                self.seats,
                self.rngs,
                self.max_opponent_decisions,
            )
        else:
            self._reset_some(rows, seeds, words, prev)
        self._look_ahead(rows)
        self._check_seats(rows)
        self.infos[:] = 0.0
        self._ended[rows] = False
        self._reset_done = True
        self._play_external()
        if self.shaping:
            self._potentials(self.states, self.reward_seats, self._phi)
        return self._observations(), self._infos(np.zeros(self.num_envs, dtype=bool))

    def _reset_rows(self, options: dict | None) -> np.ndarray:
        if options is None:
            return self.all_index
        if not isinstance(options, dict) or set(options) - {"reset_mask"}:
            raise ValueError(
                f"{self.env_id}: reset options may only hold 'reset_mask' (game options belong to the "
                f"constructor), got {options!r}"
            )
        if "reset_mask" not in options:
            return self.all_index
        mask = np.asarray(options["reset_mask"])
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(
                f"{self.env_id}: reset_mask must be a bool array of shape ({self.num_envs},), "
                f"got dtype {mask.dtype} and shape {mask.shape}"
            )
        if not self._reset_done and not mask.all():
            raise ValueError(f"{self.env_id}: the first reset() must start every env (reset_mask all True or none)")
        return np.flatnonzero(mask)

    def _game_seeds(self, seed: Any, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Game seeds and RNG words for the envs ``rows``: from one int as every earlier
        release drew them (the same rows of a full reset with that seed), or per env from a
        list. As Gymnasium seeds once, a seed restarts the stream that the resets without
        one (and a list's None entries) draw from: after a seeded reset every later game is
        the same in every run; an env never seeded starts that stream from the OS."""
        stream = self._seed_stream if self._seed_stream is not None else seed_stream(None)
        if isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != self.num_envs:
                raise ValueError(f"{self.env_id}: a list of seeds needs one per env ({self.num_envs}), got {len(seed)}")
            chosen = [python_seed(s) if s is not None else None for s in seed]
            drawn = [s if s is not None else next_seed(stream) for s in chosen]
            per_env = [np.random.SeedSequence(drawn[i]).generate_state(2, dtype=np.uint64) for i in rows]
            seeds = np.array([w[0] for w in per_env], dtype=np.uint64)
            words = np.array([w[1] for w in per_env], dtype=np.uint64) | np.uint64(1)
            # seeds given restart the stream from all of this reset's seeds
            seeded = any(s is not None for s in chosen)
            self._seed_stream = np.random.default_rng(drawn) if seeded else stream
            return seeds, words
        if seed is None:
            base = next_seed(stream)
            self._seed_stream = stream
        else:
            base = python_seed(seed)
            self._seed_stream = seed_stream(base)
        words = np.random.SeedSequence(base).generate_state(2 * self.num_envs, dtype=np.uint64)
        return words[: self.num_envs][rows].copy(), words[self.num_envs :][rows] | np.uint64(1)

    def _reset_some(self, rows: np.ndarray, seeds: np.ndarray, words: np.ndarray, prev: np.ndarray) -> None:
        """New games in the envs ``rows`` only, through the same batched reset on their rows."""
        keep = np.ones(self.num_envs, dtype=bool)
        keep[rows] = False
        self.obs[keep] = prev[keep]
        # fresh records, as a full reset gets: a game's init leaves unused array tails alone
        states, masks, obs = np.zeros_like(self.states[rows]), self.masks[rows], self.obs[rows]
        seats, rngs = self.seats[rows], self.rngs[rows]
        rngs[:, 0] = words
        self._vector_reset(
            states,
            seeds,
            self.options_vector,
            self.learners[rows],
            self.opponent_kind,
            masks,
            obs,
            seats,
            rngs,
            self.max_opponent_decisions,
        )
        self.states[rows], self.masks[rows], self.obs[rows] = states, masks, obs
        self.seats[rows], self.rngs[rows] = seats, rngs
        self.game_seeds[rows] = seeds

    def compile_kernels(self) -> None:
        """Compile (or load from the cache) the batched reset and step this env runs, now,
        announced on stderr; otherwise the first ``reset`` does it, inside whatever is
        timing that reset. Plays nothing in this env (a scratch game of its own kind)."""
        if not self._compiled:
            self._compile_entry_points()

    def _compile_entry_points(self) -> None:
        """Compile (or load) the batched reset and step on a scratch batch of one game, with
        the compile shown while it lasts (``labyrinth_env.progress``)."""
        from labyrinth_env.progress import first_use

        # one announcement per set of loops: the heuristic opponents' loops and the parallel
        # ones compile apart from the others (a minute and more each), after a first env of
        # another kind loaded or compiled its own
        heuristic = self.opponent_kind == KERNEL_OPPONENTS["heuristic"]
        kind = f"{'heuristic' if heuristic else 'random'} opponents, {'parallel' if self.parallel else 'serial'} loop"
        what = f"the {self.ruleset.title} vector-env kernels ({kind})"
        with first_use(("vector", self.env_id, heuristic, self.parallel), what) as first:
            if first is not None:
                scratch = VectorEnv(
                    self.env_id,
                    1,
                    seed=0,
                    opponents="heuristic" if heuristic else "random",
                    parallel=self.parallel,
                    **options_dict(self.raw.options),
                )
                scratch._compiled = True
                scratch.reset()
                scratch.step(np.flatnonzero(scratch.masks[0])[:1])
        self._compiled = True

    def step(self, actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        if not self._reset_done:
            raise RuntimeError(f"{self.env_id}: reset() must be called before step()")
        ended = np.flatnonzero(self._ended)
        if ended.size and self.autoreset_mode == gymnasium.vector.AutoresetMode.DISABLED:
            raise ValueError(
                f"{self.env_id}: env {int(ended[0])} ended at the last step; with autoreset_mode='disabled' "
                "start its next game first: reset(options={'reset_mask': mask})"
            )
        # next-step autoreset: an env whose game ended at the last step ignores its action
        # and shows the first observation of the game the kernel has already begun there
        stepping = np.flatnonzero(~self._ended) if ended.size else self.all_index
        acts = self._checked_actions(actions, self.all_index, "actions", ignore=ended)
        self.infos[:] = 0.0
        before = self._snapshot() if self.opponent_kind == EXTERNAL else None
        try:
            self._new_obs_buffer()
            if ended.size:
                self.obs[ended] = self._begun_obs[ended]
            self._step(stepping, acts)
            self._play_external()
        except BaseException:
            if before is not None:  # a policy failed: the batch is as it was before this step
                self._restore(before)
            raise
        self._ended[ended] = False
        done = self.infos[:, 0] + self.infos[:, 1] > 0
        terminated = self.infos[:, 0] > 0
        truncated = self.infos[:, 1] > 0
        outcome = self.infos[:, 2].copy()  # the game's return for the learner seat
        stalled = self.infos[:, 4] > 0
        rewards = outcome.copy()
        if self.shaping:
            # potential-based shaping (opt-in): scale * (phi(next) - phi(now)). A decided
            # game's final potential is 0, so its shaping sums to -phi(start) and the best
            # policies stay the best; a truncated game keeps its final position's potential
            # (truncation is not an end of the game, and SB3 bootstraps past it).
            phi = np.zeros(self.num_envs, dtype=np.float64)
            self._potentials(self.states, self.reward_seats, phi)
            after = np.where(done, self.infos[:, POTENTIALS[self.potential][1]], phi)
            rewards += self.shaping * (after - self._phi)
            self._phi = phi
        info = self._infos(done, outcome)
        if done.any() and self.autoreset_mode != gymnasium.vector.AutoresetMode.SAME_STEP:
            rows = np.flatnonzero(done)
            self._begun_obs[rows] = self.obs[rows]
            self.obs[rows] = self.final_obs[rows]
            self._ended[rows] = True
        if stalled.any():
            info["stalled"], info["_stalled"] = stalled, stalled.copy()
            if not self._warned_stall:
                self._warned_stall = True
                warnings.warn(
                    f"{self.env_id}: in env {int(np.flatnonzero(stalled)[0])} the kernel-side opponents made "
                    f"{self.max_opponent_decisions:,} decisions in a row without a learner seat deciding; that "
                    'game was truncated (infos["stalled"] marks such games)',
                    RuntimeWarning,
                    stacklevel=2,
                )
        return self._observations(), rewards.astype(np.float32), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of every env's pending learner decision (bool[num_envs, N])."""
        return self.masks.astype(bool)

    def heuristic_actions(self) -> np.ndarray:
        """What the ruleset's heuristic would play in every env's pending learner decision
        (for imitation: behaviour cloning, DAgger). Reads the states; changes nothing."""
        if not self._reset_done:
            raise RuntimeError(f"{self.env_id}: reset() must be called before heuristic_actions()")
        if self._heuristic_actions is None:
            raise ValueError(f"{self.env_id} has no heuristic (its spec names none)")
        scratch = np.zeros_like(self.masks)
        out = np.zeros(self.num_envs, dtype=np.int64)
        self._heuristic_actions(self.states, scratch, out)
        return out

    # Gymnasium's per-env access. The games of a batch share one env object, so every
    # attribute but the per-game ones below is the same for all envs.
    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Per env: ``action_masks`` gives each env's mask row, ``game_seeds`` and
        ``seats`` each env's entry; any other name is this env's attribute, called with
        the arguments if it is a method, the same value for every env."""
        if name in ("action_masks", "game_seeds", "seats"):
            return tuple(getattr(self, name)() if name == "action_masks" else getattr(self, name))
        if not hasattr(self, name):
            raise AttributeError(f"{self.env_id}: the vector env has no attribute {name!r}")
        value = getattr(self, name)
        if callable(value):
            value = value(*args, **kwargs)
        return tuple(value for _ in range(self.num_envs))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """Per env, as ``call`` but never calling a method."""
        if name == "action_masks":
            return tuple(self.action_masks())
        if name in ("game_seeds", "seats"):
            return tuple(getattr(self, name))
        if not hasattr(self, name):
            raise AttributeError(f"{self.env_id}: the vector env has no attribute {name!r}")
        return tuple(getattr(self, name) for _ in range(self.num_envs))

    def set_attr(self, name: str, values: Any) -> None:
        """Set an attribute shared by the batch: one value, or one per env, all equal."""
        if isinstance(values, (list, tuple)):
            if len(values) != self.num_envs:
                raise ValueError(f"{self.env_id}: set_attr needs one value or {self.num_envs}, got {len(values)}")
            if any(v is not values[0] and v != values[0] for v in values[1:]):
                raise ValueError(
                    f"{self.env_id}: the envs of a batch share {name!r}; set_attr got different values per env"
                )
            values = values[0]
        if name in ("states", "masks", "obs", "game_seeds", "seats", "autoreset_mode", "num_envs"):
            raise ValueError(f"{self.env_id}: {name!r} is the env's own; it cannot be set")
        setattr(self, name, values)

    def render(self) -> tuple[Any, ...] | None:
        """Every env's frame, as Gymnasium's vector envs give them (a tuple): with
        ``render_mode="rgb_array"`` an HxWx3 picture each, with ``"ansi"`` the text board,
        each game from a spectator's seat (no hidden information). In the same-step mode a
        slot whose game ended holds the next game already; in the next-step mode the
        finished game is drawn (as the step returned its final observation) until the next
        ``step`` begins the new one; with ``autoreset_mode="disabled"`` the finished game is
        drawn until its slot is reset."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                f"{self.env_id}: render() needs a render_mode (allowed: {self.metadata['render_modes']})"
            )
            return None
        if not self._reset_done:
            raise RuntimeError(f"{self.env_id}: reset() must be called before render()")
        return tuple(self.render_env(i) for i in range(self.num_envs))

    def render_env(self, i: int) -> Any:
        """Env ``i``'s frame (see ``render``)."""
        raw = self.raw  # the AEC env draws whatever record it is given
        next_step = self.autoreset_mode == gymnasium.vector.AutoresetMode.NEXT_STEP
        raw._states[0] = self._final_states[i] if next_step and self._ended[i] else self.states[i]
        raw._has_reset = True
        return raw.render()

    def close(self, **kwargs: Any) -> None:
        pass

    # --- internals ------------------------------------------------------------------------
    def _new_obs_buffer(self) -> None:
        """With ``copy=True``, the kernel writes this step's observations (every row) into
        an array no caller holds, which the step then returns."""
        if self.copy:
            self.obs = None  # the array handed out last is free again if the caller let go of it
            self.obs = self._obs_out.take()[0]

    def _observations(self) -> np.ndarray:
        return self.obs

    def _step(self, index: np.ndarray, actions: np.ndarray) -> None:
        """Step the envs ``index`` with ``actions`` (one per env, full length)."""
        # next-step mode with a render mode: render() draws a finished game until the next
        # step, but the kernel has already begun the next one in its slot; the finished
        # game's last state is had by stepping a copy again without the restart (the same
        # inputs, so the same game), only for the games that ended, only when rendering
        keep_final = self.render_mode is not None and self.autoreset_mode == gymnasium.vector.AutoresetMode.NEXT_STEP
        buffers = (self.states, self.masks, self.obs, self.final_obs, self.seats, self.returns, self.rngs, self.infos)
        before = [b.copy() for b in buffers] if keep_final else None
        self._step_buffers(index, actions, *buffers, self._restart)
        self._look_ahead(index)
        self._check_seats(index)
        if before is not None:
            was_done = before[-1][index, 0] + before[-1][index, 1] > 0
            ended = index[(self.infos[index, 0] + self.infos[index, 1] > 0) & ~was_done]
            if ended.size:
                self._step_buffers(ended, actions, *before, False)
                self._final_states[ended] = before[0][ended]

    def _look_ahead(self, index: np.ndarray) -> None:
        """With the ``lookahead`` option: each game ``index``'s per-action block, for the seat
        that decides next (``core/batch_template.lookahead_batch``)."""
        if self._lookahead_batch is not None:
            self._lookahead_batch(self.states, np.asarray(index, dtype=np.int64), self.seats, self.obs)

    def _step_buffers(self, index: np.ndarray, actions: np.ndarray, *buffers: np.ndarray) -> None:
        states, masks, obs, final_obs, seats, returns, rngs, infos, restart = buffers
        self._vector_step(
            states,
            index,
            actions,
            self.learners,
            self.reward_seats,
            self.opponent_kind,
            masks,
            obs,
            final_obs,
            seats,
            returns,
            rngs,
            infos,
            self.max_opponent_decisions,
            restart,
        )

    def _check_seats(self, index: np.ndarray) -> None:
        seats = self.seats[index]
        if (seats == -2).any():
            raise RuntimeError(f"{self.env_id}: an opponent chose an illegal action")
        if (seats == STALLED).any():
            i = int(index[np.flatnonzero(seats == STALLED)[0]])
            raise RuntimeError(
                f"{self.env_id}: in env {i}, {MAX_EMPTY_GAMES:,} games in a row ended or stalled before any "
                "learner seat decided: these options and learner seats give the learner no decision"
            )

    def _checked_actions(
        self, actions: Any, rows: np.ndarray, what: str, ignore: np.ndarray | None = None
    ) -> np.ndarray:
        """``actions`` for the envs ``rows`` as int64[num_envs] (zeros elsewhere), checked
        before anything moves: integers, one per env, in range, legal (the envs ``ignore``,
        whose action is not played, only for the type)."""
        arr = np.asarray(actions)
        if arr.dtype.kind not in "iu":
            raise ValueError(f"{self.env_id}: {what} must be integers, got dtype {arr.dtype}")
        if arr.shape != (rows.size,):
            raise ValueError(f"{self.env_id}: expected {what} of shape ({rows.size},), got shape {arr.shape}")
        if ignore is not None and ignore.size:  # positions in rows (rows is every env here)
            keep = np.ones(rows.size, dtype=bool)
            keep[ignore] = False
            rows, arr = rows[keep], arr[keep]
        n = self.kernel.NUM_ACTIONS
        out_of_range = np.flatnonzero((arr < 0) | (arr >= n))
        if out_of_range.size:
            j = int(out_of_range[0])
            raise ValueError(
                f"{self.env_id}: {what}: action {int(arr[j])} in env {int(rows[j])} is out of range 0..{n - 1}; "
                "no env was stepped"
            )
        acts = np.zeros(self.num_envs, dtype=np.int64)
        acts[rows] = arr
        illegal = np.flatnonzero(self.masks[rows, acts[rows]] == 0)
        if illegal.size:
            i = int(rows[illegal[0]])
            a = int(acts[i])
            raise ValueError(
                f"{self.env_id}: {what}: illegal action {a} ({self.raw.action_to_str(a)}) in env {i}; "
                f"{int(self.masks[i].sum())} actions are legal there (see action_masks()); no env was stepped"
            )
        return acts

    def _snapshot(self) -> tuple:
        obs = self.obs if self.copy else self.obs.copy()  # with copy=True the step writes a fresh buffer
        return (self.states.copy(), self.rngs.copy(), self.masks.copy(), self.seats.copy(), obs)

    def _restore(self, before: tuple) -> None:
        states, rngs, masks, seats, obs = before
        self.states[:] = states
        self.rngs[:] = rngs
        self.masks[:] = masks
        self.seats[:] = seats
        if self.copy:
            self.obs = obs
        else:
            self.obs[:] = obs
        self.infos[:] = 0.0

    def _play_external(self) -> None:
        """Python-side opponents: one batched policy call per round over every env whose
        seat to act is not a learner's, until all envs wait on the learner."""
        if self.policy is None and self.mix is None:
            return
        while True:
            live = self.seats != ENDED  # a finished game left in place decides nothing
            waiting = np.flatnonzero(live & (self.learners[self.all_index, np.maximum(self.seats, 0)] == 0))
            if waiting.size == 0:
                return
            if self.mix is not None:
                chosen = self._mix_actions(waiting)
            else:
                chosen = self.policy(self.obs[waiting], self.masks[waiting].astype(bool))
            self._step(waiting, self._checked_actions(chosen, waiting, "the opponent policy's actions"))

    def _infos(self, done: np.ndarray, outcome: np.ndarray | None = None) -> dict[str, Any]:
        if not self.want_infos and not done.any():
            return {}
        info: dict[str, Any] = {}
        if self.want_infos:
            info["seat"] = self.seats.copy()
            info["action_mask"] = self.action_masks()
        if done.any():
            # the finished games' returns for the learner seat, without shaping
            final_return = np.where(done, outcome, 0.0).astype(np.float32)
            info["final_return"], info["_final_return"] = final_return, done.copy()
            if self.autoreset_mode == gymnasium.vector.AutoresetMode.SAME_STEP:
                # Gymnasium's same-step keys: the last observation, and the last step's infos
                info["final_obs"] = self._final_observations(done)
                info["_final_obs"] = done.copy()
                info["final_info"] = {"final_return": final_return, "_final_return": done.copy()}
                info["_final_info"] = done.copy()
        return info

    def _final_observations(self, done: np.ndarray) -> np.ndarray:
        """The finished games' last observations as Gymnasium's vector envs give them: an
        object array with each ended env's observation (its own copy) and None elsewhere."""
        final = np.full(self.num_envs, None, dtype=object)
        for i in np.flatnonzero(done):
            final[i] = self.final_obs[i].copy()
        return final
