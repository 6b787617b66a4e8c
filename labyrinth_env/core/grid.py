"""Board geometry shared by every ruleset: square grids, the radius-3 hex board, and
edge-mask rotation of tiles.

A tile's open edges are a bit mask over the board's directions (bit ``d`` set means
the tile is open towards direction ``d``). Directions are numbered in cyclic order, so
turning a tile one step clockwise moves bit ``d`` to bit ``d + 1``. All tables are
module-level numpy constants built once at import; the kernels index them.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.jit import njit

# --- square boards -------------------------------------------------------------------
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
SQUARE_DIRECTIONS = ("N", "E", "S", "W")
SQUARE_DELTAS = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]], dtype=np.int64)  # (drow, dcol)


def square_neighbors(rows: int, cols: int) -> np.ndarray:
    """``int16[rows*cols, 4]``: the cell index in each direction N, E, S, W, or -1 off the board."""
    out = np.full((rows * cols, 4), -1, dtype=np.int16)
    for r in range(rows):
        for c in range(cols):
            for d in range(4):
                rr, cc = r + SQUARE_DELTAS[d, 0], c + SQUARE_DELTAS[d, 1]
                if 0 <= rr < rows and 0 <= cc < cols:
                    out[r * cols + c, d] = rr * cols + cc
    return out


# --- the radius-3 hex board (Paths of Destiny) ----------------------------------------
# Axial coordinates (q, r); the six directions in cyclic order.
HEX_RADIUS = 3
HEX_DELTAS = np.array([[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]], dtype=np.int64)


def _hex_cells(radius: int) -> np.ndarray:
    cells = [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if max(abs(q), abs(r), abs(q + r)) <= radius
    ]
    return np.array(cells, dtype=np.int64)


HEX_CELLS = _hex_cells(HEX_RADIUS)  # int64[37, 2] axial coordinates, row-major by r then q
HEX_INDEX = {(int(q), int(r)): i for i, (q, r) in enumerate(HEX_CELLS)}
HEX_CENTER = HEX_INDEX[(0, 0)]
# The six corners of the outer ring, one per direction from the centre.
HEX_CORNERS = np.array(
    [HEX_INDEX[(HEX_RADIUS * int(dq), HEX_RADIUS * int(dr))] for dq, dr in HEX_DELTAS], dtype=np.int64
)


def hex_neighbors(radius: int = HEX_RADIUS) -> np.ndarray:
    """``int16[n, 6]``: neighbour index in each hex direction, or -1 outside the board."""
    cells = _hex_cells(radius)
    index = {(int(q), int(r)): i for i, (q, r) in enumerate(cells)}
    out = np.full((len(cells), 6), -1, dtype=np.int16)
    for i, (q, r) in enumerate(cells):
        for d in range(6):
            out[i, d] = index.get((int(q + HEX_DELTAS[d, 0]), int(r + HEX_DELTAS[d, 1])), -1)
    return out


def hex_distance(a: int, b: int) -> int:
    """Steps between two cells of the radius-3 board."""
    dq = int(HEX_CELLS[a, 0] - HEX_CELLS[b, 0])
    dr = int(HEX_CELLS[a, 1] - HEX_CELLS[b, 1])
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


HEX_NEIGHBORS = hex_neighbors(HEX_RADIUS)


# --- tile edge masks -----------------------------------------------------------------
def rotation_table(num_directions: int) -> np.ndarray:
    """``uint8[2**D, D]``: ``table[mask, k]`` is ``mask`` turned ``k`` steps clockwise."""
    size = 1 << num_directions
    out = np.zeros((size, num_directions), dtype=np.uint8)
    full = size - 1
    for mask in range(size):
        for k in range(num_directions):
            out[mask, k] = ((mask << k) | (mask >> (num_directions - k))) & full
    return out


ROTATE_SQUARE = rotation_table(4)
ROTATE_HEX = rotation_table(6)


@njit(cache=True)
def rotate_mask(mask: int, steps: int, num_directions: int) -> int:
    """Edge mask ``mask`` turned ``steps`` directions clockwise (any integer ``steps``)."""
    k = steps % num_directions
    full = (1 << num_directions) - 1
    return ((mask << k) | (mask >> (num_directions - k))) & full


@njit(cache=True)
def popcount(mask: int) -> int:
    """How many bits of ``mask`` are set (open edges, seats in a bit set)."""
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count


@njit(cache=True)
def opposite(direction: int, num_directions: int) -> int:
    """The direction facing ``direction`` across a shared edge."""
    return (direction + num_directions // 2) % num_directions


def mask_from_directions(directions: str, names: tuple[str, ...] = SQUARE_DIRECTIONS) -> int:
    """``"NES"`` -> the edge mask with those directions open (for readable component tables)."""
    mask = 0
    for ch in directions:
        mask |= 1 << names.index(ch)
    return mask
