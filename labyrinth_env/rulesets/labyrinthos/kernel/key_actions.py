"""The key actions printed on key tokens, one per token (l.274: "each one will grant you a
unique action"): the rulebook's Secret Lever (rotate up to 4 tiles), Build (place or remove
up to 2 walls), Visions (rotate up to 4 walls) and Bandages (heal a wound, ``heroes.D_HEAL``),
and twelve reconstructed ones (``components.KEY_ACTION_TEXT``) that go on with the
decisions of the cards, the monster and the keys (``D_FREE_MOVE``, ``D_TARGET``,
``D_CHARGE``, ``D_WALL``, ``D_REARRANGE``) or resolve at once.

A key action is taken in the action decision (``actions``); Secret Lever, Build and
Visions then repeat their own decision until the count runs out or the player is done
(``repeat``).
"""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import can_pay, gain_tokens, hand_limit, hand_size, key_action_slot, keys_held, pay, push, wounds
from .cards import any_free_move, draw_card, start_free_move
from .heroes import put_hero
from .keys import free_key_slot
from .maze import (
    any_wall_place,
    can_move_wall,
    can_place_wall,
    fill_rotations,
    hero_may_enter,
    move_wall,
    place_wall,
    remove_wall,
    rotate_chosen_tile,
)
from .monster import start_movement
from .tables import (
    A_DONE,
    A_EDGE,
    A_KEY_ACT,
    D_BUILD,
    D_CHARGE,
    D_HEAL,
    D_LEVER,
    D_REARRANGE,
    D_TARGET,
    D_VISION_FROM,
    D_VISION_TO,
    D_WALL,
    DOOR_CELL,
    EDGE_CELLS,
    EDGE_OF,
    EV_DRAW,
    EV_KEY_ACTION,
    EV_MONSTER_MOVE,
    HERO_START_TILE,
    HOW_KEY,
    KEY_ACTION_COST,
    MONSTER_HOW_BANISHED,
    MOVE_AS_MOVE,
    MOVE_LEAP,
    MOVE_PASSAGE,
    NUM_CELLS,
    NUM_EDGES,
    T_MONSTER,
)


@njit(cache=True)
def vision_from_ok(s, e: int) -> bool:
    if not s.wall[e]:
        return False
    for side in range(2):
        c = EDGE_CELLS[e, side]
        for d in range(4):
            e2 = EDGE_OF[c, d]
            if e2 >= 0 and can_move_wall(s, e, e2):
                return True
    return False


@njit(cache=True)
def any_vision_from(s) -> bool:
    for e in range(NUM_EDGES):
        if vision_from_ok(s, e):
            return True
    return False


@njit(cache=True)
def home_cell(s, p: int) -> int:
    """The starting tile of the hero's colour (face up from the start)."""
    for c in range(NUM_CELLS):
        if s.cell_tile[c] == HERO_START_TILE[s.hero[p]]:
            return c
    return -1


# --- the key action (in the action decision) ---------------------------------------------------------
@njit(cache=True)
def key_action_ok(s, p: int, k: int) -> bool:
    """The hero holds the unwounded token, can pay, and the action would do something."""
    if key_action_slot(s, p, k) < 0 or not can_pay(s, p, KEY_ACTION_COST[k, 0], KEY_ACTION_COST[k, 1]):
        return False
    if k == C.K_BANDAGES:
        return wounds(s, p) > 0
    if k == C.K_VISIONS:
        return any_vision_from(s)
    if k == C.K_WINGED_KEY:
        return s.feet_supply > 0
    if k == C.K_BULL_LEAPER:
        return any_free_move(s, p, MOVE_LEAP)
    if k == C.K_ORACLE:
        return hand_size(s, p) < hand_limit(s, p) and (s.deck_len > 0 or s.discard.sum() > 0)
    if k == C.K_GOLDEN_THREAD:
        return any_free_move(s, p, MOVE_AS_MOVE)
    if k == C.K_HORN_OF_MINOS or k == C.K_LABRYS:
        return s.monster_cell >= 0
    if k == C.K_HOMEWARD:
        c = home_cell(s, p)
        return c >= 0 and c != s.position[p] and hero_may_enter(s, c)
    if k == C.K_PASSAGE_KEY:
        return any_free_move(s, p, MOVE_PASSAGE)
    if k == C.K_BANISHMENT:
        return s.monster_cell >= 0 and s.monster_cell != DOOR_CELL
    if k == C.K_KEYSTONE:
        return any_wall_place(s)
    if k == C.K_LOCKSMITH:
        return keys_held(s, p) > 0 and free_key_slot(s, p, -1)
    return True  # secret lever, build, gorgon's eye


@njit(cache=True)
def key_action(s, p: int, action: int) -> None:
    k = action - A_KEY_ACT
    pay(s, p, KEY_ACTION_COST[k, 0], KEY_ACTION_COST[k, 1])
    emit(s, EV_KEY_ACTION, p, k)
    if k == C.K_SECRET_LEVER:
        s.count_left = C.LEVER_ROTATIONS
        set_decision(s, D_LEVER, p)
    elif k == C.K_BUILD:
        s.count_left = C.BUILD_WALLS
        set_decision(s, D_BUILD, p)
    elif k == C.K_VISIONS:
        s.count_left = C.VISIONS_WALLS
        set_decision(s, D_VISION_FROM, p)
    elif k == C.K_BANDAGES:
        set_decision(s, D_HEAL, p)
    elif k == C.K_WINGED_KEY:
        gain_tokens(s, p, C.WINGED_KEY_FEET, 0)
    elif k == C.K_BULL_LEAPER:
        start_free_move(s, p, MOVE_LEAP, HOW_KEY)
    elif k == C.K_ORACLE:
        emit(s, EV_DRAW, p, 1 if draw_card(s, p) else 0)
    elif k == C.K_GORGONS_EYE:
        set_decision(s, D_TARGET, p)
    elif k == C.K_GOLDEN_THREAD:
        start_free_move(s, p, MOVE_AS_MOVE, HOW_KEY)
    elif k == C.K_HORN_OF_MINOS:
        start_movement(s, p)  # the charge is a movement: the Door rule applies
        set_decision(s, D_CHARGE, p)
    elif k == C.K_HOMEWARD:
        put_hero(s, p, home_cell(s, p), HOW_KEY)
    elif k == C.K_LABRYS:
        push(s, T_MONSTER, p, C.KEY_MONSTER_POINTS)
    elif k == C.K_PASSAGE_KEY:
        start_free_move(s, p, MOVE_PASSAGE, HOW_KEY)
    elif k == C.K_BANISHMENT:
        emit(s, EV_MONSTER_MOVE, p, s.monster_cell, DOOR_CELL, MONSTER_HOW_BANISHED)
        s.monster_cell = DOOR_CELL
    elif k == C.K_KEYSTONE:
        s.pending_seat = p
        set_decision(s, D_WALL, p)
    else:  # locksmith
        set_decision(s, D_REARRANGE, p)


@njit(cache=True)
def repeat(s, dec: int, who: int) -> None:
    """Secret lever, Build, Visions: one more, or stop when none is left."""
    s.count_left -= 1
    if s.count_left > 0 and (dec != D_VISION_FROM or any_vision_from(s)):
        set_decision(s, dec, who)


# D_LEVER: Secret Lever, rotate a tile (or stop)
@njit(cache=True)
def lever_mask(s, who: int, out) -> None:
    fill_rotations(s, out)
    out[A_DONE] = 1


@njit(cache=True)
def secret_lever(s, who: int, action: int) -> None:
    if action != A_DONE:
        rotate_chosen_tile(s, who, action)
        repeat(s, D_LEVER, who)


# D_BUILD: place a wall or remove one (or stop)
@njit(cache=True)
def build_mask(s, who: int, out) -> None:
    for e in range(NUM_EDGES):
        if s.wall[e] or can_place_wall(s, e):
            out[A_EDGE + e] = 1
    out[A_DONE] = 1


@njit(cache=True)
def build(s, who: int, action: int) -> None:
    if action != A_DONE:
        e = action - A_EDGE
        if s.wall[e]:
            remove_wall(s, who, e)
        else:
            place_wall(s, who, e)
        repeat(s, D_BUILD, who)


# D_VISION_FROM, D_VISION_TO: Visions, a wall (or stop), then its new side
@njit(cache=True)
def vision_from_mask(s, who: int, out) -> None:
    for e in range(NUM_EDGES):
        if vision_from_ok(s, e):
            out[A_EDGE + e] = 1
    out[A_DONE] = 1


@njit(cache=True)
def vision_from(s, who: int, action: int) -> None:
    if action != A_DONE:
        s.pending_edge = action - A_EDGE
        set_decision(s, D_VISION_TO, who)


@njit(cache=True)
def vision_to_mask(s, who: int, out) -> None:
    for e2 in range(NUM_EDGES):
        if can_move_wall(s, s.pending_edge, e2):
            out[A_EDGE + e2] = 1


@njit(cache=True)
def vision_to(s, who: int, action: int) -> None:
    move_wall(s, who, s.pending_edge, action - A_EDGE)
    s.pending_edge = -1
    repeat(s, D_VISION_FROM, who)
