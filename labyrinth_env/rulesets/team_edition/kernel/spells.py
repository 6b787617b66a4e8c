"""Team Edition: the spells that change the maze, once each per turn, before or after the
move: Push (the spare in at an arrow, never pushing a face-down tile out), Rotate (one tile
turned in its space) and Switch (two adjacent tiles change places). The movement spells are
``moving``'s."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .maze import insert_spare, refresh_board, shift_pieces
from .tables import A_PUSH, A_ROTATE, A_SWITCH, ARROW_LINE, EV_PUSH, EV_ROTATE, EV_SWITCH, SIZE, SWITCH_NEIGHBOR


@njit(cache=True)
def push_legal(s, arrow: int) -> bool:
    """The Push spell may not push a face-down tile out of the maze."""
    return not s.tile_down[s.cell_tile[ARROW_LINE[arrow, SIZE - 1]]]


@njit(cache=True)
def push_tile(s, seat: int, action: int) -> None:
    """The Push spell (l.114): the spare, turned as chosen, in at the arrow; a piece pushed
    out comes in on the new tile."""
    arrow = (action - A_PUSH) // 4
    orientation = (action - A_PUSH) % 4
    s.tile_rot[s.spare] = orientation
    out_tile = insert_spare(s, arrow)
    s.push_used = 1
    emit(s, EV_PUSH, seat, arrow, orientation, out_tile)
    shift_pieces(s, arrow, True)
    refresh_board(s)


@njit(cache=True)
def rotate_tile(s, seat: int, action: int) -> None:
    """The Rotate spell (l.124): one tile turned in its space, a piece on it stays on it."""
    k = action - A_ROTATE
    cell, steps = k // 3, k % 3 + 1
    tile = s.cell_tile[cell]
    s.tile_rot[tile] = (s.tile_rot[tile] + steps) % 4
    s.spell_used = 1
    emit(s, EV_ROTATE, seat, cell, steps)
    refresh_board(s)


@njit(cache=True)
def switch_tiles(s, seat: int, action: int) -> None:
    """The Switch spell (l.209): two adjacent tiles change places, pieces with them."""
    k = action - A_SWITCH
    a, b = k // 2, SWITCH_NEIGHBOR[k // 2, k % 2]
    t = s.cell_tile[a]
    s.cell_tile[a] = s.cell_tile[b]
    s.cell_tile[b] = t
    for p in range(s.num_players):  # pieces move with their tiles
        if s.piece[p] == a:
            s.piece[p] = b
        elif s.piece[p] == b:
            s.piece[p] = a
    s.spell_used = 1
    emit(s, EV_SWITCH, seat, a, b)
    refresh_board(s)
