"""Team Edition: moving a piece and the face-down tiles it stops on. Where the piece can
go (``compute_reach``: without a spell, or only by the seat's movement spell, Traverse,
Teleport or Escape), the move itself, and the decisions on a face-down tile stopped on:
flip it face up (``DECISION_FLIP``, or later with ``A_FLIP``) and choose its orientation
(``DECISION_ORIENT``)."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.paths import ENTER_ONLY, WALK, grid_reach, reach_from
from labyrinth_env.rulesets.team_edition import components as C

from .maze import refresh_board
from .tables import (
    A_FLIP,
    A_MOVE,
    A_ORIENT,
    DECISION_FLIP,
    DECISION_MAIN,
    DECISION_ORIENT,
    EV_FLIP_UP,
    EV_LEAVE_DOWN,
    EV_MOVE,
    HOME_CELLS,
    IS_EDGE_CELL,
    NEIGHBORS,
    NUM_CELLS,
    NUM_SEATS,
)
from .treasures import try_collect


@njit(cache=True)
def movement_spell(s, seat: int) -> bool:
    """Traverse, Teleport and Escape act while moving; Rotate and Switch are actions."""
    sp = s.spell[seat]
    return sp == C.SPELL_TRAVERSE or sp == C.SPELL_TELEPORT or sp == C.SPELL_ESCAPE


@njit(cache=True)
def compute_reach(s) -> None:
    """Where the active piece can move: ``reach`` 1 without a spell, 2 only by spending the
    seat's movement spell (Traverse, Teleport or Escape), 0 out of reach. The spell's cells
    seed a second search from them (``queue2``)."""
    seat = s.seat
    n0 = reach_from(NEIGHBORS, s.open, s.passage, s.piece[seat], s.reach, s.queue)
    if s.spell_used or not movement_spell(s, seat):
        return
    sp = s.spell[seat]
    if sp == C.SPELL_TRAVERSE:
        seeds = traverse_seeds(s, n0)
    elif sp == C.SPELL_TELEPORT:
        seeds = teleport_seeds(s)
    else:
        seeds = escape_seeds(s, n0)
    if seeds > 0:
        grid_reach(NEIGHBORS, s.open, s.passage, s.reach, 2, s.queue2, seeds)


@njit(cache=True)
def spell_seed(s, cell: int, seeds: int) -> int:
    """``cell`` reached by the spell, queued to search on from; the new count of seeds."""
    s.reach[cell] = 2
    s.queue2[seeds] = cell
    return seeds + 1


@njit(cache=True)
def traverse_seeds(s, n0: int) -> int:
    """Traverse (l.213): through one face-down tile reached without the spell (the first
    ``n0`` cells of ``queue``), off it to any face-up neighbour whose path runs up to the
    shared edge."""
    seeds = 0
    for i in range(n0):
        q = s.queue[i]
        if s.passage[q] != ENTER_ONLY:
            continue
        for d in range(4):
            nb = NEIGHBORS[q, d]
            if nb < 0 or s.reach[nb] != 0 or s.passage[nb] != WALK:
                continue
            if (s.open[nb] >> ((d + 2) % 4)) & 1:
                seeds = spell_seed(s, nb, seeds)
    return seeds


@njit(cache=True)
def teleport_seeds(s) -> int:
    """Teleport (l.217): from a home corner reached without the spell to every other one."""
    reached_home = False
    for k in range(NUM_SEATS):
        if s.reach[HOME_CELLS[k]] == 1:
            reached_home = True
    seeds = 0
    if reached_home:
        for k in range(NUM_SEATS):
            h = HOME_CELLS[k]
            if s.reach[h] == 0:
                seeds = spell_seed(s, h, seeds)
    return seeds


@njit(cache=True)
def open_off_edge(s, cell: int) -> bool:
    """An open path of the edge cell ``cell`` leads off the edge of the maze."""
    for d in range(4):
        if NEIGHBORS[cell, d] < 0 and (s.open[cell] >> d) & 1:
            return True
    return False


@njit(cache=True)
def escape_seeds(s, n0: int) -> int:
    """Escape (l.221): off the edge along an open path from a cell reached without the
    spell (the first ``n0`` of ``queue``), back in anywhere on the edge: onto a face-down
    tile, or along an open path leading off the edge."""
    can_leave = False
    for i in range(n0):
        q = s.queue[i]
        if s.passage[q] == WALK and IS_EDGE_CELL[q] and open_off_edge(s, q):
            can_leave = True
    seeds = 0
    if can_leave:
        for q in range(NUM_CELLS):
            if not IS_EDGE_CELL[q] or s.reach[q] != 0:
                continue
            if s.passage[q] == ENTER_ONLY or open_off_edge(s, q):
                seeds = spell_seed(s, q, seeds)
    return seeds


@njit(cache=True)
def move_legal(s, cell: int) -> bool:
    """A move goes somewhere: l.136 "move along an open path to the tile showing the
    treasure", and standing still is l.130's "choose not to move", so the piece's own
    cell is never a destination."""
    return s.moves_left > 0 and s.reach[cell] > 0 and cell != s.piece[s.seat]


@njit(cache=True)
def flip_later_legal(s) -> bool:
    """l.164 "you can flip the tile face up again" stays the piece's choice while it stands
    on the face-down tile it stopped on, and l.166 "You will be able to move off the tile
    as normal the next time you move" places it before that move: in the main decision,
    with a move left, a piece on a face-down tile may flip it."""
    return s.moves_left > 0 and s.tile_down[s.cell_tile[s.piece[s.seat]]] == 1


@njit(cache=True)
def turn_face_up(s) -> None:
    """Flip the tile at ``flip_cell`` face up; its orientation is chosen next. Face up at
    once, so the seat sees the tile (observe, determinize) while it chooses, as the
    rulebook's "Flip it face up, and put it in any orientation you choose" implies."""
    s.tile_down[s.cell_tile[s.flip_cell]] = 0
    refresh_board(s)
    s.decision = DECISION_ORIENT


@njit(cache=True)
def move_piece(s, seat: int, action: int) -> None:
    """A move to the cell of ``action`` (``reach`` 2: by the seat's movement spell)."""
    dest = action - A_MOVE
    used_spell = s.reach[dest] == 2
    if used_spell:
        s.spell_used = 1
    emit(s, EV_MOVE, seat, s.piece[seat], dest, 1 if used_spell else 0)
    s.piece[seat] = dest
    s.moves_left -= 1
    if s.passage[dest] == ENTER_ONLY:
        # Stopped on a face-down tile (l.162). Flipping it is the player's choice
        # (l.164 "you can flip the tile face up"), except after re-entering the maze
        # onto it with Escape (l.221 "you must then stop moving and flip the tile face
        # up as normal"): a face-down edge tile reached only with that spell.
        s.flip_cell = dest
        if used_spell and s.spell[seat] == C.SPELL_ESCAPE and IS_EDGE_CELL[dest]:
            turn_face_up(s)
        else:
            s.decision = DECISION_FLIP
    else:
        try_collect(s, seat, dest)


@njit(cache=True)
def flip_later(s, seat: int) -> None:
    """``A_FLIP`` in the main decision: the flip left for later (``flip_later_legal``)."""
    s.flip_cell = s.piece[seat]
    turn_face_up(s)


@njit(cache=True)
def flip_or_leave(s, seat: int, action: int) -> None:
    """``DECISION_FLIP``: flip the face-down tile stopped on, or leave it face down."""
    if action == A_FLIP:
        turn_face_up(s)
    else:  # l.164 "you can flip": the piece stays on the tile, left face down
        emit(s, EV_LEAVE_DOWN, seat, s.flip_cell, s.cell_tile[s.flip_cell])
        s.decision = DECISION_MAIN
        s.flip_cell = -1


@njit(cache=True)
def orient_tile(s, seat: int, action: int) -> None:
    """``DECISION_ORIENT``: the flipped tile lies face up in the chosen orientation (l.164
    "put it in any orientation you choose"), and its treasure may be collected."""
    cell = s.flip_cell
    tile = s.cell_tile[cell]
    orientation = action - A_ORIENT
    s.tile_down[tile] = 0
    s.tile_rot[tile] = orientation
    s.decision = DECISION_MAIN
    s.flip_cell = -1
    refresh_board(s)
    emit(s, EV_FLIP_UP, seat, cell, tile, orientation)
    try_collect(s, seat, cell)
