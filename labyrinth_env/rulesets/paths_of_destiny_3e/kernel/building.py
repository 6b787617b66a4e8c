"""Building: the Build activity (the top tile of the pool, placed where it touches the
board and never cuts the central space off from a key space, or back to the bottom of the
pool) and the placing of the drawn tile, whose icons lay a trap or an item."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexboard, pod
from labyrinth_env.core.corridors import open_reach
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .items import lay_chest_item
from .queries import center_node, key_node
from .tables import (
    A_PLACE,
    D_PLACE,
    EV_BUILD,
    EV_BUILD_NOWHERE,
    KEY_NODES,
    MC,
    NEIGHBORS,
    NUM_BOARD,
    NUM_CELLS,
    NUM_KEYS,
    TILE_ICON,
    TILE_LEVEL,
    TILE_MASK,
    TILE_PAIR,
)
from .traps import lay_trap


# --- laying tiles ----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def lay_frame(s) -> None:
    """The board before the first Build: the central space (moved in the 2-player variant),
    a key space at each corner of the hexagon, the frame's six starting spaces."""
    hexboard.lay_frame(s, s.center_cell, TILE_MASK, TILE_LEVEL, TILE_PAIR, C.CENTRAL_TILE_ID, C.KEY_TILE_ID)


@njit(cache=True)
def set_tile(s, cell: int, tile: int, rot: int) -> None:
    """Lay a space tile on ``cell`` turned ``rot`` steps clockwise (the tests lift it again
    with ``hexboard.clear_cell``)."""
    hexboard.lay_tile(s, cell, tile, rot, TILE_MASK, TILE_LEVEL, TILE_PAIR)


# --- where a tile may go -------------------------------------------------------------------
@njit(cache=True)
def targets_connected(s, skip_cell: int) -> bool:
    """The central space and all six key spaces still connect (through corridors,
    bridges and empty cells that a future tile may fill)."""
    open_reach(s.node_mask, s.node_pair, s.cell_built, NEIGHBORS, MC, center_node(s), skip_cell, s.reach, s.queue)
    for k in range(NUM_KEYS):
        if not s.reach[key_node(k)]:
            return False
    return True


@njit(cache=True)
def buildable_cell(s, cell: int) -> bool:
    return hexboard.touches_board(s.cell_built, cell)


@njit(cache=True)
def compute_placements(s, tile: int) -> int:
    """Fill ``place_ok`` for the drawn tile; returns how many placements are legal.
    Only a cell that is critical (its loss as an open space would cut the central space
    off from a key space) needs each rotation tried; elsewhere a tile can only add ways,
    so every rotation is legal."""
    s.place_ok[:] = 0
    critical = np.empty(NUM_CELLS, dtype=np.bool_)
    tree = hexboard.new_tree()
    hexboard.critical_cells(s, center_node(s), KEY_NODES, critical, tree)
    count = hexboard.place_freely(s, critical)
    for cell in range(NUM_BOARD):
        if critical[cell] and hexboard.touches_board(s.cell_built, cell):
            # what targets_connected would find with the tile laid, from one labelling of
            # the board around the cell instead of a search per rotation
            hexboard.label_cut(s, cell, tree)
            for r in range(6):
                joins = hexboard.tile_joins(s, cell, TILE_MASK[tile], TILE_PAIR[tile], r)
                if keys_joined(s, joins):
                    s.place_ok[cell * 6 + r] = 1
                    count += 1
    return count


@njit(cache=True)
def keys_joined(s, joins: int) -> bool:
    for k in range(NUM_KEYS):
        if not hexboard.joined(s, joins, key_node(k)):
            return False
    return True


# --- Build (activity) ------------------------------------------------------------------------
@njit(cache=True)
def build(s, seat: int) -> None:
    """Draw the top tile: it is placed (a decision) if it fits anywhere, else it goes to
    the bottom of the pool."""
    tile = pod.draw_tile(s)
    pod.place_or_return(s, seat, tile, compute_placements(s, tile) > 0, D_PLACE, EV_BUILD_NOWHERE)


# --- placing the drawn tile (decision: ``pod.placement_mask``) --------------------------------
@njit(cache=True)
def place_tile(s, action: int) -> None:
    """The drawn tile onto a cell, turned (``A_PLACE + cell * 6 + rotation``); its icons
    lay a trap or an item on their corridors."""
    k = action - A_PLACE
    cell, rot = k // 6, k % 6
    seat = s.seat
    tile = s.drawn_tile
    s.drawn_tile = -1
    set_tile(s, cell, tile, rot)
    emit(s, EV_BUILD, seat, tile, cell, rot)
    for k in range(MC):
        node = cell * MC + k
        icon = TILE_ICON[tile, k]
        if icon == C.ICON_TRAP:
            lay_trap(s, seat, node)
        elif icon == C.ICON_CHEST:
            lay_chest_item(s, seat, node)
