"""The active player's action decision (``D_MAIN``): the board actions (Move, Explore,
Discover Key, Desperate action, Rotate Wall, Rotate Tile, Heal, the special action), the
key actions, Recover, Rearrange and Pass, each paid with action tokens; and the
placement of an explored tile (``D_ORIENT``).

``action_mask`` and ``take_action`` list the actions in the same order; the ones with a
family of their own (keys, key actions, cards) are checked and applied there.
"""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import rotate_mask
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import can_pay, gain_tokens, pay, push, slot_action_ok, slot_usable, special_usable, wounds
from .cards import own_turn_card_ok, play_card
from .heroes import heal_all, put_hero
from .key_actions import key_action, key_action_ok
from .keys import discover_key, discover_ok, rearrange, rearrange_action_mask
from .maze import can_move_wall, fill_moves, fill_rotations, is_passage, move_wall, open_towards, rotate_chosen_tile
from .tables import (
    A_CARD,
    A_CELL,
    A_DISCOVER,
    A_EXPLORE,
    A_HEAL,
    A_KEY_ACT,
    A_ORIENT,
    A_PASS,
    A_REARRANGE,
    A_RECOVER,
    A_ROT_WALL,
    A_ROTATE,
    A_SPECIAL,
    D_HEAL,
    D_ORIENT,
    EDGE_OF,
    EV_EXPLORE,
    EV_ORIENT,
    EV_RECOVER,
    EV_SPECIAL,
    HOW_MOVE,
    HOW_PASSAGE,
    NEIGHBORS,
    NUM_CARD_TYPES,
    NUM_KEY_ACTIONS,
    PH_REFRESH,
    SLOT_COST,
    SPECIAL_COST,
    SPECIAL_PASSIVE,
    T_MONSTER,
    TILE_MASK,
)


# --- legality -----------------------------------------------------------------------------------
@njit(cache=True)
def explore_ok(s, p: int, d: int) -> bool:
    cell = s.position[p]
    nb = NEIGHBORS[cell, d]
    if nb < 0 or s.cell_up[nb] or not open_towards(s, cell, d) or s.wall[EDGE_OF[cell, d]]:
        return False
    return slot_action_ok(s, p, C.S_EXPLORE)


@njit(cache=True)
def rotate_wall_ok(s, p: int, k: int) -> bool:
    cell = s.position[p]
    e = EDGE_OF[cell, k // 4]
    e2 = EDGE_OF[cell, k % 4]
    if e < 0 or e2 < 0:
        return False
    return can_move_wall(s, e, e2)


@njit(cache=True)
def special_ok(s, p: int) -> bool:
    h = s.hero[p]
    if SPECIAL_PASSIVE[h] or not slot_usable(s, p, C.S_SPECIAL):
        return False
    if not can_pay(s, p, SPECIAL_COST[h, 0], SPECIAL_COST[h, 1]):
        return False
    if h == C.H_BEAST_CALLER:
        return s.monster_cell >= 0
    return s.feet_supply > 0


# D_MAIN: the active player (``s.seat``) decides
@njit(cache=True)
def action_mask(s, out) -> None:
    p = s.seat
    if slot_action_ok(s, p, C.S_MOVE):
        # Beast Caller: the Tamer may share the monster's tile (l.121 "unless a ... Special action ... allows it")
        fill_moves(s, s.position[p], not special_usable(s, p, C.H_BEAST_CALLER), out)
    for d in range(4):
        if explore_ok(s, p, d):
            out[A_EXPLORE + d] = 1
    if discover_ok(s, p):
        out[A_DISCOVER] = 1
    if slot_action_ok(s, p, C.S_DESPERATE):
        for t in range(NUM_CARD_TYPES):
            if own_turn_card_ok(s, p, t):
                out[A_CARD + t] = 1
    if slot_action_ok(s, p, C.S_ROTATE_WALL):
        for k in range(16):
            if rotate_wall_ok(s, p, k):
                out[A_ROT_WALL + k] = 1
    if slot_action_ok(s, p, C.S_ROTATE_TILE):
        fill_rotations(s, out)
    if slot_action_ok(s, p, C.S_HEAL) and wounds(s, p) > 0:
        out[A_HEAL] = 1
    if special_ok(s, p):
        out[A_SPECIAL] = 1
    for k in range(NUM_KEY_ACTIONS):
        if key_action_ok(s, p, k):
            out[A_KEY_ACT + k] = 1
    if wounds(s, p) > 0:
        for f in range(C.RECOVER_COST + 1):
            if can_pay(s, p, f, C.RECOVER_COST - f):
                out[A_RECOVER + f] = 1
    rearrange_action_mask(s, p, out)
    out[A_PASS] = 1


# --- the effects ----------------------------------------------------------------------------------
@njit(cache=True)
def move(s, p: int, cell: int) -> None:
    pay(s, p, SLOT_COST[C.S_MOVE, 0], SLOT_COST[C.S_MOVE, 1])
    put_hero(s, p, cell, HOW_PASSAGE if is_passage(s, cell) and is_passage(s, s.position[p]) else HOW_MOVE)


@njit(cache=True)
def explore(s, p: int, d: int) -> None:
    """Flip the face-down tile; the player places it next (``D_ORIENT``)."""
    pay(s, p, SLOT_COST[C.S_EXPLORE, 0], SLOT_COST[C.S_EXPLORE, 1])
    cell = NEIGHBORS[s.position[p], d]
    s.cell_up[cell] = 1
    emit(s, EV_EXPLORE, p, cell, s.cell_tile[cell])
    s.pending_cell = cell
    set_decision(s, D_ORIENT, p)


@njit(cache=True)
def rotate_wall(s, p: int, k: int) -> None:
    pay(s, p, SLOT_COST[C.S_ROTATE_WALL, 0], SLOT_COST[C.S_ROTATE_WALL, 1])
    cell = s.position[p]
    move_wall(s, p, EDGE_OF[cell, k // 4], EDGE_OF[cell, k % 4])


@njit(cache=True)
def special_action(s, p: int) -> None:
    h = s.hero[p]
    pay(s, p, SPECIAL_COST[h, 0], SPECIAL_COST[h, 1])
    emit(s, EV_SPECIAL, p, h)
    if h == C.H_SWIFT_STRIDE:
        gain_tokens(s, p, C.SWIFT_STRIDE_FEET, 0)
    else:
        push(s, T_MONSTER, p, C.MINOTAUR_SYMBOL_POINTS)


@njit(cache=True)
def take_action(s, action: int) -> None:
    p = s.seat
    if action < A_EXPLORE:
        move(s, p, action - A_CELL)
    elif action < A_DISCOVER:
        explore(s, p, action - A_EXPLORE)
    elif action == A_DISCOVER:
        discover_key(s, p)
    elif action < A_ROT_WALL:
        play_card(s, p, action - A_CARD)
    elif action < A_ROTATE:
        rotate_wall(s, p, action - A_ROT_WALL)
    elif action < A_HEAL:
        pay(s, p, SLOT_COST[C.S_ROTATE_TILE, 0], SLOT_COST[C.S_ROTATE_TILE, 1])
        rotate_chosen_tile(s, p, action)
    elif action == A_HEAL:
        pay(s, p, SLOT_COST[C.S_HEAL, 0], SLOT_COST[C.S_HEAL, 1])
        set_decision(s, D_HEAL, p)
    elif action == A_SPECIAL:
        special_action(s, p)
    elif action < A_RECOVER:
        key_action(s, p, action)
    elif action < A_REARRANGE:
        f = action - A_RECOVER
        pay(s, p, f, C.RECOVER_COST - f)
        emit(s, EV_RECOVER, p, heal_all(s, p))
    elif action < A_PASS:
        rearrange(s, p, action)
    else:
        s.phase = PH_REFRESH


# --- D_ORIENT: place the explored tile in any orientation ------------------------------------------------
@njit(cache=True)
def orient_mask(s, who: int, out) -> None:
    for r in range(4):
        out[A_ORIENT + r] = 1


@njit(cache=True)
def orient_tile(s, who: int, action: int) -> None:
    cell = s.pending_cell
    r = action - A_ORIENT
    s.cell_mask[cell] = rotate_mask(TILE_MASK[s.cell_tile[cell]], r, 4)
    emit(s, EV_ORIENT, who, cell, r)
    s.pending_cell = -1
    put_hero(s, who, cell, HOW_MOVE)  # explorers always move onto the new tile
