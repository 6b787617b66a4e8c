"""Small questions many decision families ask of the record: where the central space and
the key spaces lie, the Life a character may have, and what the lasting event and the
carried items add to a check."""

from __future__ import annotations

from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .tables import EVENT_LONG, EVENT_LONG_PARAM, ITEM_SPECIAL, KEY_CELLS, LIFE, MC


@njit(cache=True)
def center_node(s) -> int:
    return s.center_cell * MC


@njit(cache=True)
def key_node(key: int) -> int:
    return KEY_CELLS[key] * MC


@njit(cache=True)
def max_life(s) -> int:
    e = s.current_event
    if e >= 0 and EVENT_LONG[e] == C.LONG_MAX_LIFE:
        return min(LIFE, EVENT_LONG_PARAM[e])
    return LIFE


@njit(cache=True)
def event_mod(s, long_kind: int) -> int:
    e = s.current_event
    if e >= 0 and EVENT_LONG[e] == long_kind:
        return EVENT_LONG_PARAM[e]
    return 0


@njit(cache=True)
def item_sum(s, seat: int, table) -> int:
    total = 0
    for j in range(2):
        it = s.items[seat, j]
        if it >= 0:
            total += table[it]
    return total


@njit(cache=True)
def holds_special(s, seat: int, special: int) -> int:
    """The slot holding an item with ``special``, or -1."""
    for j in range(2):
        it = s.items[seat, j]
        if it >= 0 and ITEM_SPECIAL[it] == special:
            return j
    return -1
