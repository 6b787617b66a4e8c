"""Small questions many decision families ask of the record: where the central space and
the key spaces lie, the Life a character may have, what the lasting event and the
carried items add to a check, and the ability tokens lying on a corridor."""

from __future__ import annotations

from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.hexboard import start_node
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .tables import (
    ABILITY_TOKENS,
    CHARACTER_TOKEN,
    EVENT_LONG,
    EVENT_LONG_PARAM,
    ITEM_SPECIAL,
    KEY_CELLS,
    LIFE,
    MC,
    NEIGHBORS,
    NUM_ABILITY_TOKENS,
    START_CELL,
)


@njit(cache=True)
def center_node(s) -> int:
    return s.center_cell * MC


@njit(cache=True)
def key_node(key: int) -> int:
    return KEY_CELLS[key] * MC


@njit(cache=True)
def at_start(s, seat: int) -> bool:
    """On its own starting space (a character may also stand on an unused one, l.177)."""
    return s.position[seat] == start_node(s, seat)


@njit(cache=True)
def start_owner(s, node: int) -> int:
    """The seat whose starting space ``node`` is; -1 for a board corridor or an unused
    starting space."""
    if node < START_CELL * MC:
        return -1
    for p in range(s.num_players):
        if s.seat_start[p] == node // MC - START_CELL:
            return p
    return -1


@njit(cache=True)
def move_target(s, seat: int, d: int) -> int:
    """The corridor ``seat`` reaches by leaving its corridor in direction ``d`` (-1: none).
    l.177 bars only "starting spaces of other characters": one's own and the unused ones
    are open."""
    node = s.position[seat]
    if not (s.node_mask[node] >> d) & 1:
        return -1
    other = corridor_across(s.node_mask, NEIGHBORS, node // MC, d, MC)
    if other < 0:
        return -1
    owner = start_owner(s, other)
    if owner >= 0 and owner != seat:
        return -1
    return other


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


# --- the ability tokens on the board (``abilities`` lays and resolves them) -----------------------
@njit(cache=True)
def token_on(s, node: int, kind: int) -> bool:
    for i in range(NUM_ABILITY_TOKENS):
        if s.tok_node[i] == node and ABILITY_TOKENS[i] == kind:
            return True
    return False


@njit(cache=True)
def benefits(s, t: int) -> bool:
    """Its owner still plays the character the token belongs to: after a change "the new
    character cannot benefit from them" (l.462)."""
    o = s.tok_owner[t]
    c = s.character[o]
    return c >= 0 and CHARACTER_TOKEN[c] == ABILITY_TOKENS[t]


@njit(cache=True)
def sealed_from(s, seat: int, node: int) -> bool:
    """The Warden's Seal on ``node`` keeps ``seat`` from picking up tokens there: every
    character but the Warden who laid it (while he plays the Warden, l.462)."""
    for i in range(NUM_ABILITY_TOKENS):
        seal = s.tok_node[i] == node and ABILITY_TOKENS[i] == C.TOK_SEAL
        if seal and (s.tok_owner[i] != seat or not benefits(s, i)):
            return True
    return False
