"""The toy race's two decisions, each with its legality and its effect side by side."""

from __future__ import annotations

from labyrinth_env.core.contract import declare_winner, next_turn, set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import rotate_mask
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint

from .tables import (
    A_MOVE,
    A_PASS,
    A_TURN,
    D_MOVE,
    D_TURN,
    DIE_SIDES,
    EV_MOVE,
    EV_ROLL,
    EV_START_TURN,
    EV_TRUNCATED,
    EV_TURN_TILE,
    EV_WIN,
    GOAL,
    NEIGHBORS,
    NUM_CELLS,
)


# --- turn a tile or pass ---------------------------------------------------------------
@njit(cache=True)
def turn_mask(s, out) -> None:
    """Any tile without a piece on it may turn; passing is always allowed."""
    for c in range(NUM_CELLS):
        out[A_TURN + c] = 1
    for p in range(s.num_players):
        out[A_TURN + s.position[p]] = 0
    out[A_PASS] = 1


@njit(cache=True)
def turn_tile(s, action: int) -> None:
    if action != A_PASS:
        cell = action - A_TURN
        s.tile[cell] = rotate_mask(s.tile[cell], 1, 4)
        emit(s, EV_TURN_TILE, s.seat, cell)
    s.roll = randint(s.rng, DIE_SIDES) + 1
    emit(s, EV_ROLL, s.seat, s.roll)
    measure_distances(s, s.position[s.seat])
    set_decision(s, D_MOVE, s.seat)


# --- move ------------------------------------------------------------------------------
@njit(cache=True)
def measure_distances(s, start: int) -> None:
    """Steps from ``start`` to every cell along open paths (both edges open), -1 if none."""
    s.distance[:] = -1
    s.distance[start] = 0
    s.queue[0] = start
    head, tail = 0, 1
    while head < tail:
        cell = s.queue[head]
        head += 1
        for d in range(4):
            nxt = NEIGHBORS[cell, d]
            if nxt < 0 or s.distance[nxt] >= 0:
                continue
            if (s.tile[cell] >> d) & 1 and (s.tile[nxt] >> ((d + 2) % 4)) & 1:
                s.distance[nxt] = s.distance[cell] + 1
                s.queue[tail] = nxt
                tail += 1


@njit(cache=True)
def move_mask(s, out) -> None:
    """Any cell at most the roll away (staying included)."""
    for c in range(NUM_CELLS):
        if 0 <= s.distance[c] <= s.roll:
            out[A_MOVE + c] = 1


@njit(cache=True)
def move(s, action: int) -> None:
    cell = action - A_MOVE
    emit(s, EV_MOVE, s.seat, s.position[s.seat], cell)
    s.position[s.seat] = cell
    if cell == GOAL:
        declare_winner(s, s.seat, EV_WIN)
        return
    start_turn(s, next_turn(s, EV_TRUNCATED))


@njit(cache=True)
def start_turn(s, going_on: bool) -> None:
    if going_on:
        s.roll = 0
        emit(s, EV_START_TURN, s.seat, s.turn)
        set_decision(s, D_TURN, s.seat)
