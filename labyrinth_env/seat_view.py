"""What one seat may see: the object tournaments and evaluations hand their agents.

The env keeps the whole game for research (``env.unwrapped.record`` is the full record, with
deck orders, other hands and the dice; ``to_svg(omniscient=True)`` draws it all). An agent
playing in a tournament, an evaluation or against a person gets a ``SeatView`` instead
(``env.unwrapped.seat_view(agent)``), with exactly four members:

- ``observation``: the seat's observation vector (as ``observe`` gives it), read-only;
- ``action_mask``: its legal actions (all zero when the seat is not to act), read-only;
- ``log``: the public event log of the game so far (the decoded events every seat saw),
  as read-only mappings;
- ``model``: a ``ForwardModel`` of the rules for this seat (None in the views of agents
  that read only the observation, ``Agent.uses_model = False``): records of the current
  position in which everything the seat cannot know is resampled (``sample(seed)``, the
  kernel's ``determinize``), and the kernel's entry points over such records (``step``,
  ``legal_mask``, ``to_act``, ``returns``, ``observe``).

Nothing in a view refers to the env, its record or its dice: the model is built from a
record already determinized for the seat (with a fixed seed), so a view is a function of
what the seat knows, and two games that differ only in hidden information give equal
views (``tests/test_seat_view.py``). Python cannot sandbox code that runs in the same
process (an agent could still walk the interpreter's frames or the garbage collector to
the env); the rule is that agents use what they are handed, and what they are handed
holds nothing hidden.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np

from labyrinth_env.core.rng import python_seed
from labyrinth_env.spec import RulesetSpec

MODEL_SEED = 0  # the base sample's seed: fixed, so a view depends only on what the seat knows


def freeze_event(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """A decoded event as a read-only mapping (lists inside become tuples), so an agent
    cannot change the log other seats and the results file see."""
    return MappingProxyType({k: _frozen(v) for k, v in event.items()})


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return freeze_event(value)
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


class ForwardModel:
    """The rules of one game for one seat, over records the seat may hold.

    ``sample(seed)`` gives the current position with everything ``seat`` cannot know (face-
    down tiles and traps, deck orders, other hands, the dice to come) resampled from
    ``seed``; the other methods are the kernel's entry points on such records (a ``(1,)``
    array of the ruleset's record dtype), so a search or a heuristic can play on from a
    sample. It holds one sample of the position, never the position itself.
    """

    __slots__ = ("_base", "_ruleset", "_seat")

    def __init__(self, ruleset: RulesetSpec, seat: int, states: np.ndarray) -> None:
        """``states``: the true position (a ``(1,)`` record array); only a copy
        determinized for ``seat`` is kept."""
        self._ruleset = ruleset
        self._seat = int(seat)
        base = _copy(states[:1])
        ruleset.kernel.determinize(base[0], self._seat, np.uint64(MODEL_SEED))
        self._base = np.frombuffer(base.tobytes(), dtype=base.dtype)  # over bytes: cannot be made writable

    # read-only, so an agent cannot turn its model into another seat's
    @property
    def ruleset(self) -> RulesetSpec:
        return self._ruleset

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def env_id(self) -> str:
        return self.ruleset.env_id

    def sample(self, seed: int = MODEL_SEED) -> np.ndarray:
        """A new ``(1,)`` record array: the current position with what this seat cannot
        know drawn anew from ``seed``, the same for every position the seat cannot tell
        apart (the same seed gives the same sample)."""
        states = _copy(self._base)
        self.ruleset.kernel.determinize(states[0], self.seat, np.uint64(python_seed(seed)))
        return states

    def position(self) -> np.ndarray:
        """A new ``(1,)`` record array: the model's own sample of the position (drawn once,
        with a fixed seed), for agents that need one record and no fresh draw."""
        return _copy(self._base)

    def to_act(self, states: np.ndarray) -> int:
        """The seat to decide in ``states[0]`` (-1 once the game is over)."""
        return int(self.ruleset.kernel.to_act(states[0]))

    def legal_mask(self, states: np.ndarray) -> np.ndarray:
        """The legal actions of ``states[0]``'s pending decision (int8)."""
        mask = np.zeros(self.ruleset.kernel.NUM_ACTIONS, dtype=np.int8)
        self.ruleset.loops.refresh_one(states, mask, np.zeros(self.ruleset.kernel.NUM_SEATS))
        return mask

    def returns(self, states: np.ndarray) -> np.ndarray:
        """Each seat's return in ``states[0]`` (zeros while the game runs)."""
        out = np.zeros(self.ruleset.kernel.NUM_SEATS, dtype=np.float64)
        self.ruleset.loops.refresh_one(states, np.zeros(self.ruleset.kernel.NUM_ACTIONS, np.int8), out)
        return out

    def step(self, states: np.ndarray, action: int) -> int:
        """Play ``action`` in ``states[0]`` (in place): the next seat to act, -1 when the
        game is over; ``ValueError`` (and ``states`` unchanged) if it is illegal there."""
        k = self.ruleset.kernel
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{self.env_id}: action must be an int in [0, {k.NUM_ACTIONS}), got {action!r}")
        if not 0 <= int(action) < k.NUM_ACTIONS:
            raise ValueError(f"{self.env_id}: action {int(action)} is out of range 0..{k.NUM_ACTIONS - 1}")
        seat = self.ruleset.loops.step_one(states, int(action), np.zeros(k.NUM_ACTIONS, np.int8), np.zeros(k.NUM_SEATS))
        if seat == -2:
            raise ValueError(f"{self.env_id}: action {int(action)} is illegal in this position")
        return int(seat)

    def observe(self, states: np.ndarray, seat: int | None = None) -> np.ndarray:
        """``seat``'s observation of ``states[0]`` (default: this model's seat)."""
        out = np.zeros(self.ruleset.kernel.OBS_SIZE, dtype=np.float32)
        self.ruleset.loops.observe_one(states, self.seat if seat is None else int(seat), out)
        return out

    def __repr__(self) -> str:
        return f"ForwardModel({self.env_id}, seat {self.seat})"


class SeatView:
    """What one seat may see at one moment of a game (see the module docstring): its
    ``observation``, its ``action_mask``, the public ``log`` and a ``model`` of the rules
    that samples the hidden part for it. Built by ``env.unwrapped.seat_view(agent)``."""

    __slots__ = ("_action_mask", "_log", "_model", "_observation")

    def __init__(
        self,
        observation: np.ndarray,
        action_mask: np.ndarray,
        log: Sequence[Mapping[str, Any]],
        model: ForwardModel | None,
    ) -> None:
        self._observation = _read_only(observation)
        self._action_mask = _read_only(action_mask)
        self._log = log
        self._model = model

    # Members are read-only and the arrays are the view's own copies: what an agent does to
    # its view changes nothing in the game, its results or its replay.
    @property
    def observation(self) -> np.ndarray:
        return self._observation

    @property
    def action_mask(self) -> np.ndarray:
        return self._action_mask

    @property
    def log(self) -> Sequence[Mapping[str, Any]]:
        return self._log

    @property
    def model(self) -> ForwardModel | None:
        return self._model

    def as_observation(self) -> dict[str, np.ndarray]:
        """The PettingZoo observation dict (``observation``, ``action_mask``), new read-only
        copies each call."""
        return {"observation": _read_only(self._observation), "action_mask": _read_only(self._action_mask)}

    @property
    def seat(self) -> int | None:
        return None if self.model is None else self.model.seat

    def __repr__(self) -> str:
        where = "no model" if self.model is None else f"{self.model.env_id}, seat {self.model.seat}"
        return f"SeatView({where}, {int(np.count_nonzero(self.action_mask))} legal actions, {len(self.log)} events)"


def _copy(states: np.ndarray) -> np.ndarray:
    """A writable copy of a record array (byte-wise: numpy copies structured records of
    many fields field by field, ten times slower)."""
    return np.frombuffer(bytearray(states.tobytes()), dtype=states.dtype)


class PublicLog(Sequence):
    """A game's public log so far: a tuple of read-only mappings (``freeze_event``). It
    holds no reference to the env's own list of decoded events (an agent that reached that
    list could rewrite the game's results and replay); the env freezes each event once and
    a view copies only the references, so a view stays cheap however long the game."""

    __slots__ = ("_events",)

    def __init__(self, events: Sequence[Mapping[str, Any]]) -> None:
        self._events = tuple(events)

    def __len__(self) -> int:
        return len(self._events)

    def __getitem__(self, i: Any) -> Any:
        try:
            return self._events[i]
        except IndexError:
            raise IndexError("log index out of range") from None

    def __repr__(self) -> str:
        return f"PublicLog({len(self._events)} events)"


def _read_only(array: np.ndarray) -> np.ndarray:
    out = np.array(array, copy=True)
    out.setflags(write=False)
    return out
