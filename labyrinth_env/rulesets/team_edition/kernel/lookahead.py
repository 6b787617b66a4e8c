"""Team Edition: what a seat knows of its targets, and the ``lookahead`` option's features:
per action of the seat to act, what it would bring (treasures within reach, how close,
how large the reachable area), scored by replaying the action on a copy of the record."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import RUNNING
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import copy_into

from .actions import is_legal, step
from .maze import refresh_board
from .moving import compute_reach, flip_later_legal, move_legal
from .tables import (
    A_END,
    A_FLIP,
    A_LEAVE,
    A_MOVE,
    A_ORIENT,
    A_ROTATE,
    DECISION_FLIP,
    DECISION_MAIN,
    DECISION_ORIENT,
    LF_CLOSENESS,
    LF_MAYBE,
    LF_REACH,
    LF_SIMULATED,
    LF_SURE,
    LOOKAHEAD_FEATURES,
    MAX_DIST,
    MAYBE_TARGET,
    NOT_TARGET,
    NUM_ACTIONS,
    NUM_CELLS,
    SIZE,
    STATE_DTYPE,
    SURE_TARGET,
    TILE_TREASURE,
)
from .treasures import claimable_from, try_collect


@njit(cache=True)
def manhattan(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


@njit(cache=True)
def hidden_wanted(s, seat: int) -> bool:
    """Whether a treasure ``seat`` may collect must lie under a face-down tile, judged from
    the face-up tiles only (always False with public memory, where nothing is hidden)."""
    if s.public_memory:
        return False
    for p in range(s.num_players):
        for k in range(2):
            t = s.slots[p, k]
            if t < 0 or claimable_from(s, seat, t) < 0:
                continue
            seen = TILE_TREASURE[s.spare] == t  # the spare always lies face up
            for cell in range(NUM_CELLS):
                tile = s.cell_tile[cell]
                if not s.tile_down[tile] and TILE_TREASURE[tile] == t:
                    seen = True
                    break
            if not seen:
                return True
    return False


@njit(cache=True)
def target_kind(s, seat: int, cell: int, hidden: bool) -> int:
    """SURE_TARGET: a treasure ``seat`` may collect, visible to everyone; MAYBE_TARGET: a
    face-down tile that may hide one (``hidden`` from ``hidden_wanted``)."""
    tile = s.cell_tile[cell]
    if s.tile_down[tile] and not s.public_memory:
        return MAYBE_TARGET if hidden else NOT_TARGET
    if claimable_from(s, seat, TILE_TREASURE[tile]) >= 0:
        return SURE_TARGET
    return NOT_TARGET


@njit(cache=True)
def target_distances(s, seat: int, hidden: bool, kind, dist) -> None:
    """``kind[cell]`` from ``target_kind`` and ``dist[cell]`` the Manhattan distance to the
    nearest target (MAX_DIST + 1 without one): two chamfer passes over the grid, exact
    for the Manhattan metric, instead of a cells x targets loop per simulated action."""
    for cell in range(NUM_CELLS):
        kind[cell] = target_kind(s, seat, cell, hidden)
        dist[cell] = 0 if kind[cell] != NOT_TARGET else MAX_DIST + 1
    for cell in range(NUM_CELLS):
        r, c = cell // SIZE, cell % SIZE
        if r > 0:
            dist[cell] = min(dist[cell], dist[cell - SIZE] + 1)
        if c > 0:
            dist[cell] = min(dist[cell], dist[cell - 1] + 1)
    for cell in range(NUM_CELLS - 1, -1, -1):
        r, c = cell // SIZE, cell % SIZE
        if r < SIZE - 1:
            dist[cell] = min(dist[cell], dist[cell + SIZE] + 1)
        if c < SIZE - 1:
            dist[cell] = min(dist[cell], dist[cell + 1] + 1)


@njit(cache=True)
def closeness(distance: int) -> float:
    return (MAX_DIST + 1 - distance) / (MAX_DIST + 1)


@njit(cache=True)
def position_features(s, seat: int, hidden: bool, kind, dist, out, at: int) -> None:
    """The lookahead features of position ``s`` (its ``reach`` up to date) at ``out[at:]``."""
    target_distances(s, seat, hidden, kind, dist)
    sure = maybe = reached = 0
    best = MAX_DIST + 1
    for cell in range(NUM_CELLS):
        if s.reach[cell] > 0:
            reached += 1
            sure += kind[cell] == SURE_TARGET
            maybe += kind[cell] == MAYBE_TARGET
            best = min(best, dist[cell])
    out[at + LF_SURE] = min(sure, 2) / 2.0
    out[at + LF_MAYBE] = min(maybe, 2) / 2.0
    out[at + LF_CLOSENESS] = closeness(best)
    out[at + LF_REACH] = reached / NUM_CELLS
    out[at + LF_SIMULATED] = 1.0


@njit(cache=True)
def replay_orientation(w, seat: int, cell: int, orientation: int) -> None:
    """On the copy ``w``: the face-down tile at ``cell`` turned face up in ``orientation``,
    as ``orient_tile`` would but without its event, and the reach that follows."""
    tile = w.cell_tile[cell]
    w.tile_down[tile] = 0
    w.tile_rot[tile] = orientation
    w.decision = DECISION_MAIN
    w.flip_cell = -1
    refresh_board(w)
    try_collect(w, seat, cell)
    compute_reach(w)


@njit(cache=True)
def flip_features(s, cell: int, stand: int, work, kind, dist, out) -> None:
    """The features of ``A_FLIP`` for the face-down tile at ``cell`` under the seat's piece:
    those of action ``stand`` (the position as it stands, already filled), raised to the
    best orientation's, which is replayed only when the tile is public memory."""
    F = LOOKAHEAD_FEATURES
    at = A_FLIP * F
    copy_into(out[at:], out[stand * F :], F)
    if not s.public_memory:
        return
    seat = s.seat
    best = np.zeros(F, dtype=out.dtype)
    for o in range(4):  # as the orientation branch of ``step`` would, minus an end of turn
        work[0] = s
        w = work[0]
        replay_orientation(w, seat, cell, o)
        position_features(w, seat, hidden_wanted(w, seat), kind, dist, best, 0)
        for f in range(LF_SIMULATED):  # lexicographic: sure, maybe, closeness, reach
            if best[f] != out[at + f]:
                if best[f] > out[at + f]:
                    copy_into(out[at:], best, F)
                break


@njit(cache=True)
def lookahead(s, out) -> None:
    """Per action of the seat to act, ``LOOKAHEAD_FEATURES`` numbers at
    ``out[action * LOOKAHEAD_FEATURES:]`` (``out`` zeroed): how many of its treasures
    (sure, and face-down tiles that may hide one) would lie within reach, how close the
    reachable area would come to the nearest one, how large it would be, and whether the
    action was simulated. A move is scored by its destination; a Push, Rotate or Switch
    spell, the orientation of a flipped tile, and a flip (``flip_features``), by replaying
    it on a copy. Spells are
    replayed only while a move is left, so no replay ends the turn and turns a hidden
    Daedalus page; a push neither reveals nor hides a tile (the spare lies face up, and a
    face-down tile cannot be pushed out), so everything used is public."""
    if s.outcome != RUNNING:
        return
    seat = s.seat
    work = np.empty(1, dtype=STATE_DTYPE)
    kind = np.empty(NUM_CELLS, dtype=np.int64)
    dist = np.empty(NUM_CELLS, dtype=np.int64)
    F = LOOKAHEAD_FEATURES
    if s.decision == DECISION_ORIENT:
        cell = s.flip_cell
        for o in range(4):  # as ``step`` would, minus an end of turn
            work[0] = s
            w = work[0]
            replay_orientation(w, seat, cell, o)
            position_features(w, seat, hidden_wanted(w, seat), kind, dist, out, (A_ORIENT + o) * F)
        return
    if s.decision == DECISION_FLIP:
        # leaving the tile: the position as it stands; flipping it: see ``flip_features``
        position_features(s, seat, hidden_wanted(s, seat), kind, dist, out, A_LEAVE * F)
        flip_features(s, s.flip_cell, A_LEAVE, work, kind, dist, out)
        return
    hidden = hidden_wanted(s, seat)
    position_features(s, seat, hidden, kind, dist, out, A_END * F)  # as things stand
    if s.moves_left <= 0:
        return
    if flip_later_legal(s):
        flip_features(s, s.piece[seat], A_END, work, kind, dist, out)
    for cell in range(NUM_CELLS):
        if move_legal(s, cell):
            at = (A_MOVE + cell) * F
            out[at + LF_SURE] = 1.0 if kind[cell] == SURE_TARGET else 0.0
            out[at + LF_MAYBE] = 1.0 if kind[cell] == MAYBE_TARGET else 0.0
            out[at + LF_CLOSENESS] = closeness(dist[cell])
            out[at + LF_SIMULATED] = 1.0
    for a in range(NUM_ACTIONS):
        if (a < A_MOVE or A_ROTATE <= a < A_ORIENT) and is_legal(s, a):
            work[0] = s
            step(work[0], a)
            position_features(work[0], seat, hidden, kind, dist, out, a * F)
