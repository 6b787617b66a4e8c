"""Fixed-width event records written by ``step`` and decoded by each ruleset's env.

Every state record has ``events`` (``int32[MAX_EVENTS, EVENT_WIDTH]``) and
``num_events``. An event is ``(type, seat, a, b, c, d)``; the ruleset gives the meaning
of the four arguments per type. A full buffer drops further events and sets the
overflow count, which the env reports rather than hiding.
"""

from __future__ import annotations

from labyrinth_env.core.jit import njit

EVENT_WIDTH = 6


@njit(cache=True)
def clear_events(state) -> None:
    state.num_events = 0


@njit(cache=True)
def emit(state, kind: int, seat: int, a: int = 0, b: int = 0, c: int = 0, d: int = 0) -> None:
    """Append one event to the state's buffer (dropped, and counted, when full)."""
    n = state.num_events
    if n >= state.events.shape[0]:
        state.num_events = n + 1
        return
    ev = state.events[n]
    ev[0] = kind
    ev[1] = seat
    ev[2] = a
    ev[3] = b
    ev[4] = c
    ev[5] = d
    state.num_events = n + 1
