"""The agent interface shared by the evaluation script, tournaments and tests, and the
typed parameters that agent specs (``"mcts:simulations=400"``) are checked against."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from labyrinth_env.seat_view import SeatView


class Agent(ABC):
    """Picks an action from a PettingZoo observation dict (``"observation"`` and
    ``"action_mask"``) and what its seat may see, a ``labyrinth_env.seat_view.SeatView``
    (the observation and mask again, the public log, and a forward model that samples the
    hidden part for the seat): ``act(observation, view)``. Tournaments, evaluations and
    ``labyrinth play`` hand agents a view, never the env. Given an env instead (research
    code, tests), an agent that needs a view takes the env's view of the agent to act
    (``seat_view_of``), so it plays the same either way."""

    name: str = "agent"
    # False for agents that read only the observation and mask: their views then carry no
    # forward model (building one copies and determinizes the record at every decision)
    uses_model: bool = True

    def reset(self, seed: int | None = None) -> None:  # noqa: B027 - stateless agents need nothing
        """Start a new game; agents with randomness reseed here so games replay exactly."""

    @abstractmethod
    def act(self, observation: dict[str, np.ndarray], view: Any = None) -> int:
        """The action to play; it must be legal under ``observation["action_mask"]``.
        ``view``: the seat's ``SeatView`` (or, outside tournaments, the env)."""

    def act_batch(
        self, observations: Sequence[dict[str, np.ndarray]], views: Sequence[Any] | None = None
    ) -> np.ndarray:
        """One action per observation (and per view or env, for agents that need one), as
        int64. The default asks ``act`` game by game; agents with a batched model override it."""
        if views is not None and len(views) != len(observations):
            raise ValueError(f"act_batch got {len(observations)} observations but {len(views)} views (one per game)")
        return np.array(
            [self.act(obs, None if views is None else views[i]) for i, obs in enumerate(observations)], dtype=np.int64
        )


def seat_view_of(view: Any, who: str) -> SeatView:
    """``view`` if it is a ``SeatView``; for an env (research code, tests), the view of its
    agent to act; else a ``ValueError`` naming the agent class ``who``."""
    if isinstance(view, SeatView):
        return view
    if view is None:
        raise ValueError(f"{who}.act needs the env or its seat view: call act(observation, view)")
    raw = getattr(view, "unwrapped", view)
    make_view = getattr(raw, "seat_view", None)
    if make_view is None:
        env_id = getattr(raw, "env_id", None)
        if isinstance(env_id, str):
            import labyrinth_env

            labyrinth_env.get_spec(env_id)  # an unknown env id is named as such
        raise ValueError(f"{who} needs a labyrinth_env env or a SeatView, got {type(raw).__name__}")
    return make_view()


def model_of(view: Any, who: str) -> Any:
    """The forward model of ``view`` (a ``SeatView`` or an env, as ``seat_view_of``)."""
    model = seat_view_of(view, who).model
    if model is None:
        raise ValueError(f"{who} needs a view with a forward model: env.seat_view(agent, model=True)")
    return model


def legal_actions(observation: dict[str, np.ndarray]) -> np.ndarray:
    """The indices allowed by the observation's mask; a clear error when there are none
    (the agent is not the one to act, or the game is over)."""
    mask = np.asarray(observation["action_mask"])
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise ValueError("the action mask allows no action: this agent is not to act (or the game is over)")
    return legal


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True)
class Param:
    """One agent parameter: its type (int, float, bool or str), default, bounds or choices,
    and a line of help. ``parse`` turns spec text into a checked value; ``check`` checks a
    value given in Python."""

    kind: type
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None

    def allowed(self) -> str:
        if self.choices is not None:
            return "one of " + ", ".join(self.choices)
        if self.kind is bool:
            return "true or false"
        what = "an int" if self.kind is int else ("a number" if self.kind is float else "text")
        if self.low is not None and self.high is not None:
            return f"{what} in [{self.low:g}, {self.high:g}]"
        if self.low is not None:
            return f"{what} >= {self.low:g}"
        return what

    def parse(self, where: str, text: str) -> Any:
        raw = text.strip()
        try:
            if self.kind is bool:
                if raw.lower() not in _TRUE + _FALSE:
                    raise ValueError
                value: Any = raw.lower() in _TRUE
            elif self.kind is int:
                value = int(raw)
            elif self.kind is float:
                value = float(raw)
            else:
                value = raw
        except ValueError:
            raise ValueError(f"{where}: bad value {text!r}; expected {self.allowed()}") from None
        return self.check(where, value)

    def check(self, where: str, value: Any) -> Any:
        ok = isinstance(value, self.kind) and not (isinstance(value, bool) and self.kind is not bool)
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if ok and self.kind is float:
            ok = bool(np.isfinite(value))
        if ok and self.choices is not None:
            ok = value in self.choices
        if ok and self.low is not None and self.kind in (int, float):
            ok = value >= self.low
        if ok and self.high is not None and self.kind in (int, float):
            ok = value <= self.high
        if not ok:
            raise ValueError(f"{where}: bad value {value!r}; expected {self.allowed()}")
        return value


def check_params(agent: str, params: dict[str, Param], given: dict[str, Any]) -> dict[str, Any]:
    """``given`` checked against ``params`` and completed with the defaults; an unknown key
    or a bad value raises ``ValueError`` naming the agent, the key and what is allowed."""
    unknown = sorted(set(given) - set(params))
    if unknown:
        allowed = ", ".join(sorted(params)) or "none"
        raise ValueError(f"agent {agent!r}: unknown parameter(s) {', '.join(unknown)}; allowed: {allowed}")
    out = {k: p.default for k, p in params.items()}
    for k, v in given.items():
        out[k] = params[k].check(f"agent {agent!r} parameter {k}", v)
    return out
