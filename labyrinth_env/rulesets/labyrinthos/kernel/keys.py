"""Key tokens on the hero boards: Discover Key (look at a colour's face-down tokens, take
one, place it over an action slot) and Rearrange (move a key token to another slot).

Both start in the action decision (``actions``) and go on with decisions of their own:
``D_KEY_PICK``, then ``D_KEY_SLOT``; ``D_REARRANGE``, then ``D_KEY_SLOT``.
"""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import can_pay, holds_colour, keys_held, pay, slot_action_ok
from .tables import (
    A_KEY_PICK,
    A_REARRANGE,
    A_SLOT,
    D_KEY_PICK,
    D_KEY_SLOT,
    D_REARRANGE,
    EV_KEY,
    EV_REARRANGE,
    KEY_TOKEN_ACTION,
    KEY_TOKEN_COLOUR,
    NUM_KEY_TOKENS,
    NUM_SLOTS,
    SLOT_COST,
    TILE_COLOUR,
    TILE_KIND,
)


@njit(cache=True)
def key_slot_ok(s, p: int, slot: int) -> bool:
    """Key tokens go on non-key actions (never on Recover or Rearrange, which are not slots)."""
    if s.slot_key[p, slot] >= 0:
        return False
    return slot != C.S_KEY or s.use_key_slot == 1


@njit(cache=True)
def free_key_slot(s, p: int, exclude: int) -> bool:
    for i in range(NUM_SLOTS):
        if i != exclude and key_slot_ok(s, p, i):
            return True
    return False


# --- Discover Key (an action) ---------------------------------------------------------------------
@njit(cache=True)
def discover_ok(s, p: int) -> bool:
    """On a key tile whose colour the hero lacks, with a token of that colour left."""
    if not slot_action_ok(s, p, C.S_DISCOVER):
        return False
    colour = TILE_COLOUR[s.cell_tile[s.position[p]]]
    if TILE_KIND[s.cell_tile[s.position[p]]] != C.KIND_KEY or holds_colour(s, p, colour):
        return False
    for k in range(NUM_KEY_TOKENS):
        if s.key_pile[k] and KEY_TOKEN_COLOUR[k] == colour:
            return True
    return False


@njit(cache=True)
def discover_key(s, p: int) -> None:
    pay(s, p, SLOT_COST[C.S_DISCOVER, 0], SLOT_COST[C.S_DISCOVER, 1])
    colour = TILE_COLOUR[s.cell_tile[s.position[p]]]
    for k in range(NUM_KEY_TOKENS):
        if s.key_pile[k] and KEY_TOKEN_COLOUR[k] == colour:
            s.key_seen[p, k] = 1  # the player looks at that colour's face-down tokens
    set_decision(s, D_KEY_PICK, p)


# D_KEY_PICK: the token of the tile's colour, by its key action
@njit(cache=True)
def key_pick_mask(s, who: int, out) -> None:
    colour = TILE_COLOUR[s.cell_tile[s.position[who]]]
    for k in range(NUM_KEY_TOKENS):
        if s.key_pile[k] and KEY_TOKEN_COLOUR[k] == colour:
            out[A_KEY_PICK + KEY_TOKEN_ACTION[k]] = 1


@njit(cache=True)
def take_key(s, who: int, action: int) -> None:
    key_action = action - A_KEY_PICK
    colour = TILE_COLOUR[s.cell_tile[s.position[who]]]
    for k in range(NUM_KEY_TOKENS):
        if s.key_pile[k] and KEY_TOKEN_COLOUR[k] == colour and KEY_TOKEN_ACTION[k] == key_action:
            s.key_pile[k] = 0
            s.pending_token = k
    s.pending_slot = -1
    set_decision(s, D_KEY_SLOT, who)


# D_KEY_SLOT: the slot the new (or rearranged) key token covers
@njit(cache=True)
def key_slot_mask(s, who: int, out) -> None:
    for i in range(NUM_SLOTS):
        if i != s.pending_slot and key_slot_ok(s, who, i):
            out[A_SLOT + i] = 1


@njit(cache=True)
def place_key(s, who: int, action: int) -> None:
    slot = action - A_SLOT
    if s.pending_slot >= 0:  # rearranging: the wound stays where it is
        k = s.slot_key[who, s.pending_slot]
        s.slot_key[who, s.pending_slot] = -1
        s.slot_key[who, slot] = k
        emit(s, EV_REARRANGE, who, s.pending_slot, slot)
    else:
        s.slot_key[who, slot] = s.pending_token
        emit(s, EV_KEY, who, s.pending_token, slot)
    s.pending_slot = -1
    s.pending_token = -1


# --- Rearrange (an action, never covered) ---------------------------------------------------------
@njit(cache=True)
def rearrange_action_mask(s, p: int, out) -> None:
    """``A_REARRANGE + f``: pay f Feet and the rest of the cost in Hand tokens."""
    if keys_held(s, p) > 0 and free_key_slot(s, p, -1):
        for f in range(C.REARRANGE_COST + 1):
            if can_pay(s, p, f, C.REARRANGE_COST - f):
                out[A_REARRANGE + f] = 1


@njit(cache=True)
def rearrange(s, p: int, action: int) -> None:
    f = action - A_REARRANGE
    pay(s, p, f, C.REARRANGE_COST - f)
    set_decision(s, D_REARRANGE, p)


# D_REARRANGE: the key token to move
@njit(cache=True)
def rearrange_mask(s, who: int, out) -> None:
    for i in range(NUM_SLOTS):
        if s.slot_key[who, i] >= 0:
            out[A_SLOT + i] = 1


@njit(cache=True)
def lift_key(s, who: int, action: int) -> None:
    s.pending_slot = action - A_SLOT
    set_decision(s, D_KEY_SLOT, who)
