"""The kernel contract: what every ruleset's kernel gives, and the check that says, in plain
words, what a kernel lacks.

A kernel is a module of ``@njit`` functions over one state record (a numpy structured
dtype); the env layers, the vector env, the agents and the benchmarks reach a ruleset only
through the names below. ``state_dtype`` builds a record with the fields every layer reads
(spliced around the ruleset's own fields, never restated), the outcome codes are one enum
for all rulesets, and ``kernel_problems(kernel, max_players)`` names what a kernel lacks. The
registry's ``check_ruleset(spec)`` runs it, with the checks of the env class, the heuristic
and the picture, when a ruleset is first used (and in the tests), so a missing or misshapen
piece is named before anything compiles; core knows kernels, not env classes.

| kernel name | meaning |
|---|---|
| ``STATE_DTYPE`` | the record: ``state_dtype(NUM_OPTIONS, MAX_EVENTS, fields)`` |
| ``NUM_ACTIONS``, ``NUM_SEATS`` | the size of the flat action space; the seats a record holds |
| ``OBS_SIZE``, ``NUM_OPTIONS`` | the length of the observation and of the options vector |
| ``DECISIONS`` | the name of each pending decision (``decision`` field) |
| ``init(s, seed, options)`` | a new game from a 64-bit seed and the options vector |
| ``to_act(s)`` | the seat whose decision is pending, -1 once the game is over |
| ``legal_mask(s, out)`` | the pending decision's legal actions (never all-false while running) |
| ``step(s, action) -> bool`` | apply one action and resolve up to the next decision; False: illegal, nothing changed |
| ``observe(s, seat, out)`` | that seat's observation: public information and its own, nothing else |
| ``returns(s, out)`` | final rewards per seat (zeros while running or truncated) |
| ``determinize(s, seat, seed)`` | resample everything ``seat`` cannot know (for search) |
| ``shaping_potential(s, seat) -> float`` | an opt-in progress estimate in [0, 1] |
| ``progress(s, seat) -> float`` | how near the seat is to winning, for the self-play learner |
| ``unseen(s, seat, out)`` | what ``seat`` cannot see (``NO_SEAT``: no seat has seen): ``out[0]`` components, |
| | ``out[1]`` log10 of their arrangements (nan: not counted) |
"""

from __future__ import annotations

import enum
import inspect
import math
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np

from labyrinth_env.core.events import EVENT_WIDTH, clear_events, emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import seed_state


class Outcome(enum.IntEnum):
    """The ``outcome`` field of every record."""

    RUNNING = 0
    WON = 1  # one seat won (zero-sum), or the team did (cooperative)
    TRUNCATED = 2  # ``max_turns`` reached (a truncation, not an end of the game)
    LOST = 3  # the team lost (cooperative rulesets)


# plain ints for the kernels (numba freezes them in)
RUNNING, WON, TRUNCATED, LOST = (int(o) for o in Outcome)
OUTCOME_NAMES = {int(o): o.name.lower() for o in Outcome}

NO_SEAT = -1  # ``winner`` while nobody has won (and always in cooperative rulesets)

# every options vector begins with the player count and the turn limit (0: none); a
# ruleset's own options follow from OPT_RULESET on
OPT_PLAYERS, OPT_MAX_TURNS, OPT_RULESET = 0, 1, 2


def state_head(num_options: int) -> list:
    """The fields every record starts with: its dice, its options (kept for auto-reset),
    the player count, the turn limit (0: none), whose turn it is, the turn counter, the
    pending decision and the seat that makes it, the outcome and the winner."""
    return [
        ("rng", np.uint64, (1,)),
        ("options", np.int32, (num_options,)),
        ("num_players", np.int8),
        ("max_turns", np.int32),
        ("seat", np.int8),
        ("turn", np.int32),
        ("decision", np.int8),
        ("decider", np.int8),
        ("outcome", np.int8),
        ("winner", np.int8),
    ]


def state_tail(max_events: int) -> list:
    """The fields every record ends with: what the last ``step`` resolved (``core.events``)."""
    return [("events", np.int32, (max_events, EVENT_WIDTH)), ("num_events", np.int32)]


def state_dtype(num_options: int, max_events: int, fields: Sequence[tuple]) -> np.dtype:
    """A ruleset's record: the common head, the ruleset's own ``fields``, the event buffer."""
    common = {name for name, *_ in state_head(num_options) + state_tail(max_events)}
    restated = sorted(common & {f[0] for f in fields})
    if restated:
        raise ValueError(f"fields {restated} are common to every record (core.contract.state_head): do not restate")
    return np.dtype([*state_head(num_options), *fields, *state_tail(max_events)])


def new_states(kernel: ModuleType, num: int = 1) -> np.ndarray:
    """``num`` zeroed records of ``kernel``, ready for ``init``."""
    return np.zeros(num, dtype=kernel.STATE_DTYPE)


# --- helpers every kernel may use (they read only the common fields) -------------------
@njit(cache=True)
def start_record(s, seed, options) -> None:
    """Keep the options (padded with zeros), take the player count and the turn limit from
    them, seed the record's dice, clear the events and the turn: seat 0 decides, nobody has
    won, the game runs."""
    opts = options.copy()  # ``options`` may be this state's own field
    for i in range(s.options.shape[0]):  # a loop: a slice assignment compiles a shape-error message
        s.options[i] = opts[i] if i < opts.shape[0] else 0
    s.num_players = opts[OPT_PLAYERS]
    s.max_turns = opts[OPT_MAX_TURNS]
    s.rng[0] = seed_state(np.uint64(seed))
    s.seat = 0
    s.turn = 0
    s.decision = 0
    s.decider = 0
    s.outcome = RUNNING
    s.winner = NO_SEAT
    clear_events(s)


@njit(cache=True)
def to_act(s) -> int:
    """The seat whose decision is pending, -1 once the game is over."""
    return -1 if s.outcome != RUNNING else s.decider


@njit(cache=True)
def clear_mask(s, out) -> bool:
    """Zero the mask ``out``; True while the game runs (a decision is pending)."""
    out[:] = 0
    return s.outcome == RUNNING


@njit(cache=True)
def take_decision(s, after: int) -> int:
    """The pending decision is being made: the last step's events are cleared and the record
    holds the decision ``after`` until the kernel sets the next one (``decider`` stays until
    then). Returns the decision being made."""
    clear_events(s)
    decision = s.decision
    s.decision = after
    return decision


@njit(cache=True)
def set_decision(s, decision: int, decider: int) -> None:
    s.decision = decision
    s.decider = decider


@njit(cache=True)
def declare_winner(s, seat: int, ev_win: int) -> None:
    s.outcome = WON
    s.winner = seat
    emit(s, ev_win, seat)


@njit(cache=True)
def next_turn(s, ev_truncated: int) -> bool:
    """Pass the turn clockwise; False (and the game truncated) once ``max_turns`` turns
    were played (0: never)."""
    s.turn += 1
    if s.max_turns > 0 and s.turn >= s.max_turns:
        s.outcome = TRUNCATED
        emit(s, ev_truncated, -1)
        return False
    s.seat = (s.seat + 1) % s.num_players
    return True


@njit(cache=True)
def winner_returns(s, out) -> None:
    """Zero-sum: the winner +1, every other seat -1/(n-1); zeros while running or on
    truncation."""
    out[:] = 0.0
    if s.outcome == WON:
        n = s.num_players
        for p in range(n):
            out[p] = 1.0 if p == s.winner else -1.0 / (n - 1)


@njit(cache=True)
def team_returns(s, out) -> None:
    """Cooperative: every seat +1 when the team won, -1 when it lost, 0 otherwise."""
    out[:] = 0.0
    value = 1.0 if s.outcome == WON else (-1.0 if s.outcome == LOST else 0.0)
    for p in range(s.num_players):
        out[p] = value


@njit(cache=True)
def tally_unseen(out, items) -> None:
    """Add one unknown set to ``unseen``'s ``out``: its size, and the log10 of its distinct
    arrangements (n! over the factorial of each run of equal pieces). Kernels pass the sets
    their ``determinize`` resamples, so the count is the kernel's own accounting of what a
    seat cannot tell apart (pieces the kernel names apart count as different)."""
    n = items.shape[0]
    out[0] += n
    if n < 2:
        return
    ordered = np.sort(items)
    log = math.lgamma(n + 1.0)
    run = 1
    for i in range(1, n):
        if ordered[i] == ordered[i - 1]:
            run += 1
        else:
            log -= math.lgamma(run + 1.0)
            run = 1
    log -= math.lgamma(run + 1.0)
    out[1] += log / math.log(10.0)


# --- the check -----------------------------------------------------------------------------
# name -> (number of arguments, what it does), for the message when one is missing
FUNCTIONS: dict[str, tuple[int, str]] = {
    "init": (3, "init(s, seed, options): set up a new game"),
    "to_act": (1, "to_act(s): the seat to decide, -1 when the game is over"),
    "legal_mask": (2, "legal_mask(s, out): fill the pending decision's legal actions"),
    "step": (2, "step(s, action) -> bool: apply one action (False: illegal, nothing changed)"),
    "observe": (3, "observe(s, seat, out): that seat's observation"),
    "returns": (2, "returns(s, out): final rewards per seat"),
    "determinize": (3, "determinize(s, seat, seed): resample what the seat cannot know"),
    "shaping_potential": (2, "shaping_potential(s, seat) -> float: progress in [0, 1]"),
    "progress": (2, "progress(s, seat) -> float: the progress the self-play learner reads (or shaping_potential)"),
    "unseen": (
        3,
        "unseen(s, seat, out): out[0] the components seat cannot see (NO_SEAT: that no seat has seen), "
        "out[1] log10 of their arrangements (nan: not counted); the sets determinize resamples",
    ),
}
CONSTANTS: dict[str, str] = {
    "NUM_ACTIONS": "the size of the flat action space",
    "NUM_SEATS": "the seats a record holds (at least the largest player count)",
    "OBS_SIZE": "the length of the observation vector",
    "NUM_OPTIONS": "the length of the options vector",
}


class ContractError(TypeError):
    """A ruleset does not meet the kernel contract (the message lists every problem)."""


def is_jitted(obj: Any) -> bool:
    """A numba dispatcher (``@njit``), as the contract's functions must be."""
    return hasattr(obj, "py_func") and hasattr(obj, "signatures")


def arity(fn: Any) -> int:
    """The number of arguments a jitted ``fn`` needs (those without a default)."""
    params = inspect.signature(fn.py_func).parameters.values()
    return sum(p.default is inspect.Parameter.empty for p in params)


def kernel_problems(kernel: ModuleType, max_players: int) -> list[str]:
    """Everything ``kernel`` lacks against the contract, each in one sentence."""
    problems = []
    where = kernel.__name__
    for name, what in CONSTANTS.items():
        value = getattr(kernel, name, None)
        if value is None:
            problems.append(f"{where} has no {name} ({what})")
        elif isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            problems.append(f"{where}.{name} must be a positive int ({what}), got {value!r}")
    seats = getattr(kernel, "NUM_SEATS", None)
    if isinstance(seats, (int, np.integer)) and seats < max_players:
        problems.append(f"{where}.NUM_SEATS is {seats}, fewer than the spec's {max_players} players")
    decisions = getattr(kernel, "DECISIONS", None)
    if not isinstance(decisions, (tuple, list)) or not decisions or not all(isinstance(d, str) for d in decisions):
        problems.append(f"{where}.DECISIONS must be a non-empty tuple naming each pending decision")
    dtype = getattr(kernel, "STATE_DTYPE", None)
    if not isinstance(dtype, np.dtype) or dtype.names is None:
        problems.append(f"{where}.STATE_DTYPE must be a numpy structured dtype (core.contract.state_dtype)")
    else:
        options = int(getattr(kernel, "NUM_OPTIONS", 1) or 1)
        for name, base, *shape in state_head(options) + state_tail(1):
            if name not in dtype.names:
                problems.append(
                    f"{where}.STATE_DTYPE has no field {name!r}, which every record needs "
                    "(build it with core.contract.state_dtype)"
                )
                continue
            field = dtype.fields[name][0]
            if field.base != np.dtype(base) or (name not in ("events", "options") and field.shape != tuple(*shape)):
                problems.append(
                    f"{where}.STATE_DTYPE field {name!r} is {field}, the contract needs {np.dtype(base)}"
                    + (f" of shape {tuple(*shape)}" if shape else "")
                )
    for name, (needed, what) in FUNCTIONS.items():
        fn = getattr(kernel, name, None)
        if fn is None:
            problems.append(f"{where} has no function {name} ({what})")
        elif not is_jitted(fn):
            problems.append(f"{where}.{name} must be a numba @njit function ({what})")
        elif arity(fn) != needed:
            problems.append(f"{where}.{name} takes {arity(fn)} arguments; the contract has {what}")
    for name in ("RUNNING", "WON", "TRUNCATED", "LOST"):
        value = getattr(kernel, name, None)
        if value is not None and value != getattr(Outcome, name):
            code = int(getattr(Outcome, name))
            problems.append(f"{where}.{name} is {value}; outcome codes come from core.contract ({name} = {code})")
    return problems
