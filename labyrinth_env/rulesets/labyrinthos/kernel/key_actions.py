"""The key actions printed on key tokens: Secret Lever (rotate up to 4 tiles), Build
(place or remove up to 2 walls), Visions (rotate up to 4 walls) and Bandages (heal a
wound, ``heroes.D_HEAL``).

A key action is taken in the action decision (``actions``); Secret Lever, Build and
Visions then repeat their own decision until the count runs out or the player is done
(``repeat``).
"""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import can_pay, key_action_slot, pay, wounds
from .maze import can_move_wall, can_place_wall, fill_rotations, move_wall, place_wall, remove_wall, rotate_chosen_tile
from .tables import (
    A_DONE,
    A_EDGE,
    A_KEY_ACT,
    D_BUILD,
    D_HEAL,
    D_LEVER,
    D_VISION_FROM,
    D_VISION_TO,
    EDGE_CELLS,
    EDGE_OF,
    EV_KEY_ACTION,
    KEY_ACTION_COST,
    NUM_EDGES,
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


# --- the key action (in the action decision) ---------------------------------------------------------
@njit(cache=True)
def key_action_ok(s, p: int, k: int) -> bool:
    if key_action_slot(s, p, k) < 0 or not can_pay(s, p, KEY_ACTION_COST[k, 0], KEY_ACTION_COST[k, 1]):
        return False
    if k == C.K_BANDAGES:
        return wounds(s, p) > 0
    if k == C.K_VISIONS:
        return any_vision_from(s)
    return True


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
    else:
        set_decision(s, D_HEAL, p)


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
