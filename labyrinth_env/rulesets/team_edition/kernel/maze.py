"""Team Edition: the maze itself. Which edges of each cell are open (``refresh_board``,
recomputed after every change), the spare slid in at an arrow and the pieces riding the
pushed line, and a piece sent to its home corner. Daedalus' pages and the Push, Rotate and
Switch spells change the maze through these."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import ROTATE_SQUARE
from labyrinth_env.core.jit import njit
from labyrinth_env.core.paths import ENTER_ONLY, WALK

from .tables import ARROW_LINE, EV_PIECE_WRAPS, EV_SENT_HOME, HOME_CELLS, NUM_CELLS, SENT_PUSHED_OUT, SIZE, TILE_SHAPE


@njit(cache=True)
def refresh_board(s) -> None:
    """Recompute each cell's open edges and passage kind from tiles, turns and faces."""
    for cell in range(NUM_CELLS):
        t = s.cell_tile[cell]
        if s.tile_down[t]:
            s.open[cell] = 0
            s.passage[cell] = ENTER_ONLY
        else:
            s.open[cell] = ROTATE_SQUARE[TILE_SHAPE[t], s.tile_rot[t]]
            s.passage[cell] = WALK


@njit(cache=True)
def send_home(s, owner: int, cause: int) -> None:
    emit(s, EV_SENT_HOME, owner, s.piece[owner], HOME_CELLS[owner], cause)
    s.piece[owner] = HOME_CELLS[owner]


@njit(cache=True)
def insert_spare(s, arrow: int) -> int:
    """Slide the spare in at ``arrow``; the tile pushed out becomes the spare (returned).
    Pieces ride their tiles; the caller decides what happens to pieces pushed out."""
    line = ARROW_LINE[arrow]
    out_tile = s.cell_tile[line[SIZE - 1]]
    for i in range(SIZE - 1, 0, -1):
        s.cell_tile[line[i]] = s.cell_tile[line[i - 1]]
    s.cell_tile[line[0]] = s.spare
    s.spare = out_tile
    return out_tile


@njit(cache=True)
def shift_pieces(s, arrow: int, wrap: bool) -> None:
    """Move the pieces on a pushed line one cell along it. A piece pushed off the end
    either comes in on the new tile (``wrap``, the Push spell) or goes home (Daedalus)."""
    line = ARROW_LINE[arrow]
    for p in range(s.num_players):
        pos = s.piece[p]
        for i in range(SIZE):
            if line[i] == pos:
                if i < SIZE - 1:
                    s.piece[p] = line[i + 1]
                elif wrap:
                    s.piece[p] = line[0]
                    emit(s, EV_PIECE_WRAPS, p, pos, line[0])
                else:
                    send_home(s, p, SENT_PUSHED_OUT)
                break


@njit(cache=True)
def cell_of_tile(s, tile: int) -> int:
    for cell in range(NUM_CELLS):
        if s.cell_tile[cell] == tile:
            return cell
    return -1
