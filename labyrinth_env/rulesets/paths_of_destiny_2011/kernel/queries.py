"""Small questions many decision families ask of the record: the key field next to a
player's start field, the keys it carries and may lift, seat offsets and bit sets."""

from __future__ import annotations

from labyrinth_env.core.jit import njit

from .tables import KEY_NODES, NUM_KEYS


@njit(cache=True)
def own_key_node(s, seat: int) -> int:
    return KEY_NODES[s.seat_start[seat]]


@njit(cache=True)
def first_key(s, seat: int) -> int:
    for k in range(NUM_KEYS):
        if s.key_holder[k] == seat:
            return k
    return -1


@njit(cache=True)
def pickable_key(s, seat: int, k: int) -> bool:
    """A key lying in a corridor that ``seat`` may lift: never the one lying on the key field
    next to its own start field, unless another player picked that key up and lost it."""
    node = s.key_node[k]
    if node < 0:
        return False
    if node == own_key_node(s, seat):
        return (s.key_touched[k] & ~(1 << seat)) != 0
    return True


@njit(cache=True)
def other_seat(s, off: int) -> int:
    """The seat ``off`` places after the active player's (-1: no such player)."""
    return (s.seat + off) % s.num_players if off < s.num_players else -1
