"""Items and keys: the item pool, the items a character carries (two slots, packed into
slot 0 first), and the pick-up decision (step 5 of exploring: keys, items, exchanges)."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .queries import key_node, sealed_from
from .tables import (
    A_EXCHANGE,
    A_PICK_ITEM,
    A_PICK_KEY,
    A_PICKUP_DONE,
    EV_DROP,
    EV_EXCHANGE,
    EV_ITEM_PLACED,
    EV_PICK_UP,
    EVENT_LONG,
    NUM_ITEMS,
    NUM_KEYS,
    TOKEN_ITEM,
    TOKEN_KEY,
)


# --- the item pool and the carried items ----------------------------------------------
@njit(cache=True)
def lay_chest_item(s, seat: int, node: int) -> None:
    """A chest icon on a tile just built: the top item of the pool, face up, onto it."""
    if s.item_pool_len > 0:
        s.item_pool_len -= 1
        item = s.item_pool[s.item_pool_len]
        s.item_node[item] = node
        emit(s, EV_ITEM_PLACED, seat, item, node)


@njit(cache=True)
def return_item(s, item: int) -> None:
    """An item leaves the game board or a character: back into the pool, shuffled in."""
    s.item_node[item] = -1
    n = s.item_pool_len
    s.item_pool[n] = item
    j = randint(s.rng, n + 1)
    s.item_pool[n], s.item_pool[j] = s.item_pool[j], s.item_pool[n]
    s.item_pool_len = n + 1


@njit(cache=True)
def take_from_slot(s, seat: int, slot: int) -> int:
    """Take the item out of a carried slot, keeping the carried items packed in slot 0 first."""
    item = s.items[seat, slot]
    s.items[seat, slot] = -1
    if slot == 0:
        s.items[seat, 0] = s.items[seat, 1]
        s.items[seat, 1] = -1
    return item


@njit(cache=True)
def drop_item(s, seat: int, slot: int) -> None:
    item = take_from_slot(s, seat, slot)
    s.item_node[item] = s.position[seat]
    emit(s, EV_DROP, seat, TOKEN_ITEM, item, s.position[seat])


# --- picking up ----------------------------------------------------------------------------
@njit(cache=True)
def pickable_key(s, seat: int, k: int, node: int) -> bool:
    if s.key_holder[k] >= 0 or s.key_node[k] != node or sealed_from(s, seat, node):
        return False
    own = key_node(s.seat_start[seat]) == node
    # your own key stays put unless another character dropped it there
    return not (own and (s.key_dropped_by[k] < 0 or s.key_dropped_by[k] == seat))


@njit(cache=True)
def items_allowed(s) -> bool:
    e = s.current_event
    return not (e >= 0 and EVENT_LONG[e] == C.LONG_NO_PICKUP_ITEMS)


@njit(cache=True)
def pickable_bits(s, seat: int, node: int) -> int:
    """What ``seat`` could take on ``node`` now: bit k for key k, bit NUM_KEYS + i for item i
    (an item exchanged this turn is not taken again)."""
    m = 0
    for k in range(NUM_KEYS):
        if pickable_key(s, seat, k, node):
            m |= 1 << k
    if items_allowed(s) and not sealed_from(s, seat, node):
        for i in range(NUM_ITEMS):
            if s.item_node[i] == node and not (s.exchanged >> i) & 1:
                m |= 1 << (NUM_KEYS + i)
    return m


@njit(cache=True)
def anything_to_pick(s, seat: int, node: int) -> bool:
    return pickable_bits(s, seat, node) != 0


# --- Pick Up a Key and/or an Item (free activity) -----------------------------------------
@njit(cache=True)
def pick_up_legal(s, seat: int) -> bool:
    """l.127, l.356: the active player picks up from his corridor "during his turn", not
    only in step 5 of exploring; tokens it already let lie this turn, or lay on a corridor
    a trap or a lost combat put it on (l.358, l.441), are not offered again until the
    turn ends (else the free activity could be asked for forever)."""
    return (pickable_bits(s, seat, s.position[seat]) & ~np.int64(s.declined)) != 0


@njit(cache=True)
def decline_here(s, seat: int) -> None:
    """The tokens on ``seat``'s corridor are not taken this turn (see ``pick_up_legal``)."""
    if seat == s.seat:
        s.declined |= np.uint32(pickable_bits(s, seat, s.position[seat]))


@njit(cache=True)
def pickup_mask(s, who: int, out) -> None:
    """Any key it may take, an item into a free slot or in exchange for a carried one (each
    item once per turn), or done."""
    node = s.position[who]
    out[A_PICKUP_DONE] = 1
    for k in range(NUM_KEYS):
        if pickable_key(s, who, k, node):
            out[A_PICK_KEY + k] = 1
    if items_allowed(s) and not sealed_from(s, who, node):
        for i in range(NUM_ITEMS):
            if s.item_node[i] != node or (s.exchanged >> i) & 1:
                continue
            if s.items[who, 1] < 0:
                out[A_PICK_ITEM + i] = 1
            else:
                for j in range(2):
                    if not (s.exchanged >> s.items[who, j]) & 1:
                        out[A_EXCHANGE + 2 * i + j] = 1


@njit(cache=True)
def pick_up(s, action: int) -> None:
    """One pick-up; the exploration ends when done or when nothing is left to pick."""
    seat = s.decider
    node = s.position[seat]
    if action == A_PICKUP_DONE:
        decline_here(s, seat)
        s.depth -= 1
        return
    if action < A_PICK_ITEM:
        k = action - A_PICK_KEY
        s.key_holder[k] = seat
        s.key_node[k] = -1
        emit(s, EV_PICK_UP, seat, TOKEN_KEY, k)
    elif action < A_EXCHANGE:
        i = action - A_PICK_ITEM
        s.item_node[i] = -1
        slot = 0 if s.items[seat, 0] < 0 else 1
        s.items[seat, slot] = i
        emit(s, EV_PICK_UP, seat, TOKEN_ITEM, i)
    else:
        i = (action - A_EXCHANGE) // 2
        j = (action - A_EXCHANGE) % 2
        old = s.items[seat, j]
        s.items[seat, j] = i
        s.item_node[i] = -1
        s.item_node[old] = node
        s.exchanged |= np.uint16((1 << i) | (1 << old))  # each item once per turn
        emit(s, EV_EXCHANGE, seat, i, old)
    if not anything_to_pick(s, seat, node):
        s.depth -= 1
