"""The Illusionist's Spreading Illusion (l.380-381): "you may build a board field face down;
nobody may place traps on it (l.380); if the Guard enters it, you uncover it (l.381)".

- Building face down (one action, "use skill 1"): the top field of the pile, unseen by
  everyone, the Illusionist too (as a trap is set without looking, l.210), onto an empty
  cell touching the board that she chooses (a decision, ``D_FACE_DOWN``). Its back shows
  no corridor, so until it is turned face up it counts as built and closed: nothing is
  built onto it, no trap is placed on it (l.380: it has no corridor to hold one), and it may
  not close the last way of any player to the central field or to a key (l.152: only on a
  cell whose loss as open space cuts no way, ``hexboard.critical_cells``).
- Entering it: a piece whose corridor opens onto it may step in (the field is there, only
  its face is hidden): the Guard (l.381) or a player by his own move. The Illusionist turns
  it face up (l.381 "you have to uncover it"; a decision, ``D_UNCOVER``, hers even on her
  start field or stunned: it is her card's duty, not a use of it), turned one of the ways
  that give the edge it is entered by a corridor, so the piece lands in a corridor; then the
  piece comes in as after any move or step (the Guard's step counts).
- Hidden information: which field lies face down is known to no seat: ``fd_tile`` is never
  observed (the observation shows only that a cell is covered), the text board and the
  picture show a back, and ``determinize`` deals the face-down fields and the pile again
  from one unknown set (``hexboard.redeal_face_down``). Being asked depends only on public
  things: the Illusionist decides where (her card is public, l.131) and turns it face up
  when anyone enters (public); the legal moves into it depend only on the corridors."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexboard, pod
from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .building import critical_for_ways, set_tile
from .tables import (
    A_PLACE,
    A_SKILL_DIR,
    D_FACE_DOWN,
    D_UNCOVER,
    EV_FACE_DOWN,
    EV_SKILL,
    EV_UNCOVERED,
    NO_TARGET,
    NUM_BOARD,
    NUM_CELLS,
    SK_SPREADING_ILLUSION,
    TILE_MASK,
)


# --- building face down (the skill's action, then where: a decision) ----------------------------
@njit(cache=True)
def face_down_cells(s, ok, reach, queue) -> int:
    """``ok[cell * 6] = 1`` for the cells a closed field may go to (an empty cell touching
    the board whose closing cuts no way, l.152); returns how many. The searches use
    ``reach`` and ``queue``: private arrays when nothing of the record may change."""
    ok[:] = 0
    critical = np.empty(NUM_CELLS, dtype=np.bool_)
    critical_for_ways(s, critical, reach, queue)
    count = 0
    for cell in range(NUM_BOARD):
        if not critical[cell] and hexboard.touches_board(s.cell_built, cell):
            ok[cell * 6] = 1
            count += 1
    return count


@njit(cache=True)
def illusion_possible(s) -> bool:
    """A field left in the pile and a cell it may go to face down (asked by the masks: the
    record is left byte for byte as it was)."""
    if s.tile_pool_len <= 0:
        return False
    ok = np.zeros(s.place_ok.shape[0], dtype=np.uint8)
    reach = np.zeros(s.reach.shape[0], dtype=np.uint8)
    queue = np.zeros(s.queue.shape[0], dtype=np.int16)
    return face_down_cells(s, ok, reach, queue) > 0


@njit(cache=True)
def begin_face_down(s, seat: int) -> None:
    emit(s, EV_SKILL, seat, SK_SPREADING_ILLUSION, NO_TARGET, -1)
    face_down_cells(s, s.place_ok, s.reach, s.queue)
    set_decision(s, D_FACE_DOWN, seat)


@njit(cache=True)
def lay_face_down(s, seat: int, action: int) -> None:
    """The top field of the pile, unseen, face down onto the cell chosen (``A_PLACE + cell * 6``)."""
    cell = (action - A_PLACE) // 6
    s.fd_tile[cell] = pod.draw_tile(s)
    s.fd_owner[cell] = seat
    s.cell_builder[cell] = seat
    s.cell_built[cell] = 1  # closed until turned face up: no corridor written
    s.place_ok[:] = 0
    emit(s, EV_FACE_DOWN, seat, cell)


# --- entering a face-down field: the Illusionist turns it face up (decision) -------------------
@njit(cache=True)
def begin_uncover(s, seat: int, cell: int, d: int) -> None:
    """``seat`` (NO_SEAT: the Guard) steps into face-down ``cell`` in direction ``d``; the
    Illusionist who built it turns it face up (l.381)."""
    edge = (d + 3) % 6
    s.rv_cell = cell
    s.rv_edge = edge
    s.rv_seat = seat
    s.rv_rots = hexboard.rotations_onto(TILE_MASK[s.fd_tile[cell]], edge)
    set_decision(s, D_UNCOVER, s.fd_owner[cell])


@njit(cache=True)
def uncover_mask(s, out) -> None:
    """``A_SKILL_DIR + r``: the field turned ``r`` sixths (those giving the edge a corridor)."""
    hexboard.mark_directions(out, A_SKILL_DIR, s.rv_rots)


@njit(cache=True)
def turn_face_up(s, who: int, action: int) -> int:
    """Lay the field face up as turned; returns the direction the piece entering it goes on
    in (``rv_seat`` stays for the caller, ``turn.finish_uncover``)."""
    cell = s.rv_cell
    rot = action - A_SKILL_DIR
    tile = hexboard.take_face_down(s, cell)
    set_tile(s, cell, tile, rot)
    emit(s, EV_UNCOVERED, who, tile, cell, rot, s.rv_seat)
    return hexboard.end_reveal(s)


clear_illusion = hexboard.no_face_down  # set-up (shared with the 3rd edition)
