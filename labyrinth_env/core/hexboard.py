"""The Paths of Destiny board, shared by every edition: the radius-3 hexagon of ``grid``
with the frame's six start fields beyond its corners, and the corridor nodes of the tiles
laid on it.

Cells 0..36 are the hexagon (``grid.HEX_CELLS``); cell ``START_CELL + i`` is the start
field of the frame beyond key field ``i``, the corner ``HEX_CORNERS[i]``, outwards in
direction ``i``. A *node* is one corridor, ``node = cell * max_corridors + k``; a tile's
corridors are written into the per-node arrays of a state (``node_mask``: the edges the
corridor touches, ``node_level``, ``node_pair``: the corridor on the other level of a
bridge tile, -1 otherwise). Each edition keeps its own tile tables and passes one tile's
rows in.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from labyrinth_env.core.grid import HEX_CELLS, HEX_CORNERS, HEX_DELTAS, HEX_NEIGHBORS, ROTATE_HEX

NUM_BOARD = 37
NUM_STARTS = 6
START_CELL = NUM_BOARD  # start field i is cell START_CELL + i
NUM_CELLS = NUM_BOARD + NUM_STARTS
KEY_CELLS = HEX_CORNERS.copy()  # key field i: the corner in direction i from the centre


def _frame_neighbors() -> np.ndarray:
    nb = np.full((NUM_CELLS, 6), -1, dtype=np.int16)
    nb[:NUM_BOARD] = HEX_NEIGHBORS
    for i in range(NUM_STARTS):
        # the start field lies beyond key field i, outwards in direction i
        nb[KEY_CELLS[i], i] = START_CELL + i
        nb[START_CELL + i, (i + 3) % 6] = KEY_CELLS[i]
    return nb


FRAME_NEIGHBORS = _frame_neighbors()  # int16[43, 6]: the hexagon's neighbours plus the start fields

FRAME_QR = np.zeros((NUM_CELLS, 2), dtype=np.int64)  # axial (q, r) of every cell, start fields included
FRAME_QR[:NUM_BOARD] = HEX_CELLS
for _i in range(NUM_STARTS):
    FRAME_QR[START_CELL + _i] = HEX_CELLS[KEY_CELLS[_i]] + HEX_DELTAS[_i]


@njit(cache=True)
def frame_distance(a: int, b: int) -> int:
    """Steps between two cells (start fields included), as the crow flies."""
    dq = FRAME_QR[a, 0] - FRAME_QR[b, 0]
    dr = FRAME_QR[a, 1] - FRAME_QR[b, 1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True)
def write_tile(node_mask, node_level, node_pair, cell: int, masks, levels, pairs, rot: int) -> None:
    """Write one tile's corridors (its rows ``masks``, ``levels``, ``pairs`` in the base
    orientation) onto ``cell``, turned ``rot`` steps clockwise."""
    mc = masks.shape[0]
    for k in range(mc):
        node = cell * mc + k
        node_mask[node] = ROTATE_HEX[masks[k], rot]
        node_level[node] = levels[k]
        node_pair[node] = cell * mc + pairs[k] if pairs[k] >= 0 else -1


@njit(cache=True)
def erase_tile(node_mask, node_level, node_pair, cell: int, mc: int) -> None:
    """Clear the corridor nodes of ``cell``."""
    for k in range(mc):
        node = cell * mc + k
        node_mask[node] = 0
        node_level[node] = -1
        node_pair[node] = -1


@njit(cache=True)
def touches_board(cell_built, cell: int) -> bool:
    """Whether the empty hexagon cell ``cell`` shares an edge with a built hexagon cell (the
    central and key fields count; the frame's start fields do not)."""
    if cell_built[cell]:
        return False
    for d in range(6):
        nb = FRAME_NEIGHBORS[cell, d]
        if 0 <= nb < NUM_BOARD and cell_built[nb]:
            return True
    return False
