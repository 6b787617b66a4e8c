"""Labyrinthos: the cheapest way from a hero's tile to where it must go next, over what
every player can see. Shared by the heuristic (which follows it) and ``progress`` (which
counts it).

The *target* is the Door tile once the hero holds four keys (l.307 "The first player to
collect all four Labyrinth Keys and move onto the Door tile wins the game"), else the
nearest explored key tile of a colour it lacks, else the nearest face-down tile (the key
tiles lie among them). The search runs over the 7x7 cells: a move costs 1, a pathway that
must be turned first adds a Rotate Tile per quarter turn (any explored tile may be turned
from anywhere), a wall on the way adds the Rotate Wall that clears it (much more when the
wall limit leaves it no side to turn to), a face-down tile costs an Explore, secret
passages link to each other, the monster's tile is avoided. A face-down tile is read by
its place only: its pathways and symbol are hidden.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import rotate_mask
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import holds_colour, keys_held, slot_usable
from .maze import can_move_wall, is_passage
from .tables import DOOR_CELL, EDGE_OF, NEIGHBORS, NUM_CELLS, NUM_COLOURS, TILE_COLOUR, TILE_KIND, TILE_SYMBOL

INF = 1 << 20
COST_MOVE = 1
COST_EXPLORE = 2
COST_BEYOND = 3  # a step past a face-down tile: its pathways are unknown
COST_WALL = 2  # a Rotate Wall clears it
COST_WALL_STUCK = 12  # no side to turn it to (the wall limit): another way, or Build
COST_MONSTER = 30
# what losing a board action (covered by a key token or wounded) costs a hero on its way,
# in the same units: moving and exploring most, the empty key slot nothing
SLOT_NEED = np.zeros(C.NUM_SLOTS, dtype=np.int64)
SLOT_NEED[C.S_MOVE] = 6
SLOT_NEED[C.S_EXPLORE] = 4
SLOT_NEED[C.S_DISCOVER] = 4
SLOT_NEED[C.S_ROTATE_TILE] = 3
SLOT_NEED[C.S_ROTATE_WALL] = 2
SLOT_NEED[C.S_DESPERATE] = 1
SLOT_NEED[C.S_HEAL] = 1
SLOT_NEED[C.S_SPECIAL] = 1


@njit(cache=True)
def rot_steps(mask: int, d: int) -> int:
    """Quarter turns that open ``mask`` towards ``d`` (INF for a tile without pathways)."""
    for k in (0, 1, 3, 2):
        if (rotate_mask(mask, k, 4) >> d) & 1:
            return 2 if k == 2 else (0 if k == 0 else 1)
    return INF


@njit(cache=True)
def wall_turnable(s, a: int, e: int) -> bool:
    """The wall on ``e`` can be turned to another side of ``a`` (the wall limit allows it)."""
    for g in range(4):
        e2 = EDGE_OF[a, g]
        if e2 >= 0 and can_move_wall(s, e, e2):
            return True
    return False


@njit(cache=True)
def edge_cost(s, a: int, d: int) -> int:
    """The cost of stepping from the explored tile ``a`` towards ``d`` (INF: impossible)."""
    b = NEIGHBORS[a, d]
    if b < 0:
        return INF
    cost = rot_steps(s.cell_mask[a], d)
    e = EDGE_OF[a, d]
    if s.wall[e]:
        cost += COST_WALL if wall_turnable(s, a, e) else COST_WALL_STUCK
    if not s.cell_up[b]:
        return cost + COST_EXPLORE
    cost += COST_MOVE + rot_steps(s.cell_mask[b], (d + 2) % 4)
    if b == s.monster_cell and TILE_SYMBOL[s.cell_tile[b]] != C.SYM_HIDE:
        cost += COST_MONSTER
    return cost


@njit(cache=True)
def plan(s, me: int, dist, prev) -> None:
    """Cheapest costs from the seat's tile to every cell (``prev``: the cell before)."""
    dist[:] = INF
    prev[:] = -1
    done = np.zeros(NUM_CELLS, dtype=np.uint8)
    dist[s.position[me]] = 0
    for _ in range(NUM_CELLS):
        a, best = -1, INF
        for c in range(NUM_CELLS):
            if not done[c] and dist[c] < best:
                a, best = c, dist[c]
        if a < 0:
            break
        done[a] = 1
        if not s.cell_up[a]:  # past a face-down tile: any direction, at a guess
            for d in range(4):
                b = NEIGHBORS[a, d]
                if b >= 0 and best + COST_BEYOND < dist[b]:
                    dist[b] = best + COST_BEYOND
                    prev[b] = a
            continue
        for d in range(4):
            b = NEIGHBORS[a, d]
            if b >= 0:
                c2 = best + edge_cost(s, a, d)
                if c2 < dist[b]:
                    dist[b] = c2
                    prev[b] = a
        if is_passage(s, a):
            for b in range(NUM_CELLS):
                if b != a and is_passage(s, b) and best + COST_MOVE < dist[b]:
                    dist[b] = best + COST_MOVE
                    prev[b] = a


@njit(cache=True)
def target_cell(s, me: int, dist) -> int:
    """The seat's target (see the module's docstring) by the costs ``dist`` of ``plan``; -1: none."""
    if keys_held(s, me) == NUM_COLOURS:
        return DOOR_CELL
    best, best_d = -1, INF
    for c in range(NUM_CELLS):  # explored key tiles of a missing colour
        t = s.cell_tile[c]
        key = s.cell_up[c] and TILE_KIND[t] == C.KIND_KEY
        if key and not holds_colour(s, me, TILE_COLOUR[t]) and dist[c] < best_d:
            best, best_d = c, dist[c]
    if best >= 0:
        return best
    for c in range(NUM_CELLS):  # else the nearest face-down tile
        if not s.cell_up[c] and dist[c] < best_d:
            best, best_d = c, dist[c]
    return best


@njit(cache=True)
def route_cost(s, me: int) -> int:
    """The cost (``plan``) of the seat's way to its target; INF when it has none."""
    dist = np.empty(NUM_CELLS, dtype=np.int64)
    prev = np.empty(NUM_CELLS, dtype=np.int64)
    plan(s, me, dist, prev)
    goal = target_cell(s, me, dist)
    return INF if goal < 0 else dist[goal]


@njit(cache=True)
def unexplored_needed(s, me: int) -> int:
    """How many colours the seat lacks whose key tile is still face down: counted from the
    explored key tiles, never from a face-down tile's identity."""
    missing = 0
    for colour in range(NUM_COLOURS):
        if not holds_colour(s, me, colour):
            missing += 1
    for c in range(NUM_CELLS):
        t = s.cell_tile[c]
        if s.cell_up[c] and TILE_KIND[t] == C.KIND_KEY and not holds_colour(s, me, TILE_COLOUR[t]):
            missing -= 1
    return missing


@njit(cache=True)
def face_down_count(s) -> int:
    n = 0
    for c in range(NUM_CELLS):
        n += s.cell_up[c] == 0
    return n


@njit(cache=True)
def lost_actions(s, me: int) -> int:
    """``SLOT_NEED`` summed over the seat's board actions it cannot use (key-covered or wounded)."""
    need = 0
    for slot in range(C.NUM_SLOTS):
        if not slot_usable(s, me, slot):
            need += SLOT_NEED[slot]
    return need
