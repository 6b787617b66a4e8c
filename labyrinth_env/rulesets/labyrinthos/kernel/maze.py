"""The maze: its setting up, the pathways between tiles (moves, secret passages), the
walls on the inner edges (and the decision that places a wall token, ``D_WALL``) and
tile rotations.

Heroes and the monster move along the same pathways (``step_to``, ``linked``,
``fill_moves``); turning a tile and every change to the walls go through the functions
here, which emit the event that says so.
"""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import rotate_mask
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import shuffle
from labyrinth_env.rulesets.labyrinthos import components as C

from .tables import (
    A_CELL,
    A_EDGE,
    A_ROTATE,
    COUNTER_CLOCKWISE,
    DOOR_CELL,
    EDGE_CELLS,
    EDGE_OF,
    EV_TILE_ROTATED,
    EV_WALL_PLACED,
    EV_WALL_REMOVED,
    EV_WALL_ROTATED,
    NEIGHBORS,
    NUM_CELLS,
    NUM_EDGES,
    OUTER_CELLS,
    OUTER_TILES,
    START_CELLS,
    START_TILES,
    TILE_MASK,
    TILE_SYMBOL,
)


@njit(cache=True)
def init_maze(s) -> None:
    """RULEBOOK: the Door tile in the centre, the 8 starting tiles shuffled around it, the
    other 40 tiles shuffled into the rest of the 7x7 grid, all face down but the Door."""
    s.cell_up[:] = 0
    s.cell_tile[DOOR_CELL] = C.DOOR_TILE
    s.cell_up[DOOR_CELL] = 1
    start = START_TILES.copy()
    shuffle(s.rng, start, start.shape[0])
    for i in range(START_CELLS.shape[0]):
        s.cell_tile[START_CELLS[i]] = start[i]
    outer = OUTER_TILES.copy()
    shuffle(s.rng, outer, outer.shape[0])
    for i in range(OUTER_CELLS.shape[0]):
        s.cell_tile[OUTER_CELLS[i]] = outer[i]
    for c in range(NUM_CELLS):
        # a face-down tile has no orientation yet: the explorer chooses it
        s.cell_mask[c] = TILE_MASK[s.cell_tile[c]]
    s.wall[:] = 0
    s.wall_supply = C.NUM_WALLS
    s.monster_cell = -1


@njit(cache=True)
def occupied_mask(s, cell: int) -> int:
    m = 0
    for p in range(s.num_players):
        if s.position[p] == cell:
            m |= 1 << p
    return m


# --- walls --------------------------------------------------------------------------------------
@njit(cache=True)
def wall_count(s, cell: int) -> int:
    n = 0
    for d in range(4):
        e = EDGE_OF[cell, d]
        if e >= 0:
            n += s.wall[e]
    return n


@njit(cache=True)
def can_place_wall(s, e: int) -> bool:
    if s.wall[e] or s.wall_supply <= 0:
        return False
    return wall_count(s, EDGE_CELLS[e, 0]) < C.WALL_LIMIT and wall_count(s, EDGE_CELLS[e, 1]) < C.WALL_LIMIT


@njit(cache=True)
def any_wall_place(s) -> bool:
    for e in range(NUM_EDGES):
        if can_place_wall(s, e):
            return True
    return False


@njit(cache=True)
def can_move_wall(s, e: int, e2: int) -> bool:
    """The wall on ``e`` may be turned onto ``e2``, a free side of one of ``e``'s tiles,
    within the wall limit of every tile."""
    if not s.wall[e] or s.wall[e2] or e == e2:
        return False
    a, b = EDGE_CELLS[e, 0], EDGE_CELLS[e, 1]
    a2, b2 = EDGE_CELLS[e2, 0], EDGE_CELLS[e2, 1]
    if a2 not in (a, b) and b2 not in (a, b):
        return False
    for c in (a2, b2):
        n = wall_count(s, c) + 1
        if c in (a, b):
            n -= 1
        if n > C.WALL_LIMIT:
            return False
    return True


@njit(cache=True)
def place_wall(s, who: int, e: int) -> None:
    s.wall[e] = 1
    s.wall_supply -= 1
    emit(s, EV_WALL_PLACED, who, e)


@njit(cache=True)
def remove_wall(s, who: int, e: int) -> None:
    s.wall[e] = 0
    s.wall_supply += 1
    emit(s, EV_WALL_REMOVED, who, e)


@njit(cache=True)
def move_wall(s, who: int, e: int, e2: int) -> None:
    s.wall[e] = 0
    s.wall[e2] = 1
    emit(s, EV_WALL_ROTATED, who, e, e2)


# D_WALL: the wall symbol and Stonemason place a wall token anywhere within the wall limit
@njit(cache=True)
def wall_token_mask(s, who: int, out) -> None:
    for e in range(NUM_EDGES):
        if can_place_wall(s, e):
            out[A_EDGE + e] = 1


@njit(cache=True)
def place_wall_token(s, who: int, action: int) -> None:
    place_wall(s, who, action - A_EDGE)


# --- pathways -----------------------------------------------------------------------------------
@njit(cache=True)
def open_towards(s, cell: int, d: int) -> bool:
    return (s.cell_mask[cell] >> d) & 1 == 1


@njit(cache=True)
def step_to(s, cell: int, d: int) -> int:
    """The explored tile next to ``cell`` in direction ``d`` joined by a pathway and no wall, or -1."""
    nb = NEIGHBORS[cell, d]
    if nb < 0 or not s.cell_up[nb] or not open_towards(s, cell, d):
        return -1
    if not open_towards(s, nb, (d + 2) % 4) or s.wall[EDGE_OF[cell, d]]:
        return -1
    return nb


@njit(cache=True)
def is_passage(s, cell: int) -> bool:
    return s.cell_up[cell] == 1 and TILE_SYMBOL[s.cell_tile[cell]] == C.SYM_PASSAGE


@njit(cache=True)
def linked(s, a: int, b: int) -> bool:
    """One move (or monster point) leads from ``a`` to ``b``: a shared pathway or two secret passages."""
    if a == b:
        return False
    if is_passage(s, a) and is_passage(s, b):
        return True
    for d in range(4):
        if NEIGHBORS[a, d] == b:
            return step_to(s, a, d) == b
    return False


@njit(cache=True)
def hero_may_enter(s, cell: int) -> bool:
    """Never onto the monster's tile, unless it is a Hide tile."""
    return cell != s.monster_cell or TILE_SYMBOL[s.cell_tile[cell]] == C.SYM_HIDE


@njit(cache=True)
def fill_moves(s, cell: int, hero: bool, out) -> None:
    """Mark ``A_CELL + c`` for every tile one move (or monster point) away from ``cell``."""
    for d in range(4):
        nb = step_to(s, cell, d)
        if nb >= 0 and (not hero or hero_may_enter(s, nb)):
            out[A_CELL + nb] = 1
    if is_passage(s, cell):
        for c in range(NUM_CELLS):
            if c != cell and is_passage(s, c) and (not hero or hero_may_enter(s, c)):
                out[A_CELL + c] = 1


# --- tile rotations -----------------------------------------------------------------------------
@njit(cache=True)
def rotate_tile(s, who: int, cell: int, way: int) -> None:
    """Turn the tile 90 degrees; the walls stay where they are (FAQ)."""
    s.cell_mask[cell] = rotate_mask(s.cell_mask[cell], 3 if way == COUNTER_CLOCKWISE else 1, 4)
    emit(s, EV_TILE_ROTATED, who, cell, way)


@njit(cache=True)
def fill_rotations(s, out) -> None:
    """Mark both ways of turning every explored tile (``A_ROTATE + cell * 2 + way``)."""
    for c in range(NUM_CELLS):
        if s.cell_up[c]:
            out[A_ROTATE + 2 * c] = 1
            out[A_ROTATE + 2 * c + 1] = 1


@njit(cache=True)
def rotate_chosen_tile(s, who: int, action: int) -> None:
    """The tile and way of an ``A_ROTATE`` action."""
    k = action - A_ROTATE
    rotate_tile(s, who, k // 2, k % 2)
