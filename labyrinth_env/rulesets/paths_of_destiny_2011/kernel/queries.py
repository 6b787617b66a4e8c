"""Small questions many decision families ask of the record: the key field next to a
player's start field, the keys it carries and may lift, seat offsets and bit sets."""

from __future__ import annotations

from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.hexboard import face_down_ahead, start_node
from labyrinth_env.core.jit import njit

from .tables import KEY_NODES, MC, NEIGHBORS, NUM_BOARD_NODES, NUM_KEYS, START_CELL


@njit(cache=True)
def move_target(s, seat: int, d: int) -> int:
    """The corridor ``seat`` reaches by leaving its corridor in direction ``d`` (-1: none);
    nobody enters another player's start field, nor an empty one (the 3rd edition opens
    unused starting spaces, l.177 there, so each edition has its own)."""
    node = s.position[seat]
    if not (s.node_mask[node] >> d) & 1:
        return -1
    other = corridor_across(s.node_mask, NEIGHBORS, node // MC, d, MC)
    if other < 0:
        return -1
    if other >= START_CELL * MC and other != start_node(s, seat):
        return -1
    return other


@njit(cache=True)
def guard_ways(s, node: int, forbidden: int, covered: bool) -> int:
    """Directions a Guard at ``node`` may step in: along corridors (never over a bridge),
    never onto a start field, never back into corridor ``forbidden`` unless that is the only
    way (the end of a corridor, l.322-323); ``covered``: into the Illusionist's face-down
    fields too (the real Guard's, l.381)."""
    m = 0
    back = 0
    for d in range(6):
        if not (s.node_mask[node] >> d) & 1:
            continue
        if face_down_ahead(s, node, d) >= 0:
            if covered:
                m |= 1 << d
            continue
        other = corridor_across(s.node_mask, NEIGHBORS, node // MC, d, MC)
        if other < 0 or other >= NUM_BOARD_NODES:
            continue
        if other == forbidden:
            back |= 1 << d
        else:
            m |= 1 << d
    return m if m != 0 else back


@njit(cache=True)
def set_position(s, seat: int, node: int) -> None:
    """Put ``seat`` into corridor ``node``: whatever it met in the corridor it stood in (a
    fight lost, a trap fallen into, its start field just left, keys taken from stunned
    players there) no longer counts, and nobody counts a key taken from it."""
    s.position[seat] = node
    bit = 1 << seat
    s.fight_lost &= ~bit
    s.trap_fell &= ~bit
    s.left_start &= ~bit
    s.took_key[seat] = 0
    for p in range(s.took_key.shape[0]):
        s.took_key[p] &= ~bit


@njit(cache=True)
def past_players(s, seat: int) -> bool:
    """Past the other players of its corridor (l.120): it lost no fight there since it came
    in, or won one after, or nobody who could fight it still stands there (a stunned player
    is no obstacle: its key may be taken, l.255-259)."""
    if not (s.fight_lost >> seat) & 1:
        return True
    node = s.position[seat]
    for q in range(s.num_players):
        if q != seat and s.position[q] == node and s.stun[q] == 0:
            return False
    return True


@njit(cache=True)
def past_trap(s, seat: int) -> bool:
    """Past the trap of its corridor: it did not fall into it on coming in (l.120, l.259)."""
    return not (s.trap_fell >> seat) & 1


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
    """A key lying in a corridor that ``seat`` may lift (wherever it stands): never the one lying on the key field
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
