"""Building: the Build action (the top field of the pile, placed where it touches the board
and every player can still build a way from its start field to the central field and to a
key it may lift, or back to the bottom of the pile) and the placing of the drawn field."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexboard, pod
from labyrinth_env.core.corridors import open_reach
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import start_node
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .queries import pickable_key
from .tables import (
    A_PLACE,
    CENTER_CELL,
    CENTER_NODE,
    D_PLACE,
    EV_BUILD,
    EV_BUILD_NOWHERE,
    MC,
    NEIGHBORS,
    NUM_BOARD,
    NUM_CELLS,
    NUM_KEYS,
    NUM_SEATS,
    TILE_LEVEL,
    TILE_MASK,
    TILE_PAIR,
)


# --- laying tiles ----------------------------------------------------------------------------
@njit(cache=True)
def lay_frame(s) -> None:
    """The board before the first field is built: the central field, the six key fields,
    the frame's start fields."""
    hexboard.lay_frame(s, CENTER_CELL, TILE_MASK, TILE_LEVEL, TILE_PAIR, C.CENTRAL_TILE_ID, C.KEY_TILE_ID)


@njit(cache=True)
def set_tile(s, cell: int, tile: int, rot: int) -> None:
    """Lay board field ``tile`` on ``cell``, turned ``rot`` steps (in the tests, too, where
    ``hexboard.clear_cell`` lifts it again)."""
    hexboard.lay_tile(s, cell, tile, rot, TILE_MASK, TILE_LEVEL, TILE_PAIR)


# --- where a field may go ----------------------------------------------------------------------
@njit(cache=True)
def reach_from_centre(s) -> None:
    open_reach(s.node_mask, s.node_pair, s.cell_built, NEIGHBORS, MC, CENTER_NODE, -1, s.reach, s.queue)


@njit(cache=True)
def key_ways(s, joins: int = hexboard.REACHED) -> int:
    """The seats that (with ``s.reach`` from the centre, or labels of ``hexboard.label_cut``
    and the components ``joins`` joined to the centre) can still build a way to a key they
    may lift (bridges count as ordinary ways; empty cells as fields still to come)."""
    m = 0
    for p in range(s.num_players):
        for k in range(NUM_KEYS):
            node = s.key_node[k]
            if node >= 0 and hexboard.joined(s, joins, node) and pickable_key(s, p, k):
                m |= 1 << p
                break
    return m


@njit(cache=True)
def ways_open(s, need_keys: int) -> bool:
    """Every player can still build a way from its start field to the central field, and to
    a key (for the seats in ``need_keys``, which had one before)."""
    reach_from_centre(s)
    return ways_joined(s, need_keys, hexboard.REACHED)


@njit(cache=True)
def ways_joined(s, need_keys: int, joins: int) -> bool:
    """``ways_open`` read from ``s.reach``: a search from the centre (``joins =
    hexboard.REACHED``) or the labels of ``hexboard.label_cut`` with the components
    ``joins`` that a tile joins to the centre's."""
    for p in range(s.num_players):
        if not hexboard.joined(s, joins, start_node(s, p)):
            return False
    return (key_ways(s, joins) & need_keys) == need_keys


@njit(cache=True)
def critical_for_ways(s, critical, reach, queue):
    """``critical[cell]``: the empty cells whose loss as open space could cut a player's way
    to the central field or to a key it may reach (all of them when a way is cut already);
    ``reach`` (``s.reach``, or a private array when nothing of the record may change) holds
    the search from the centre. Returns the search tree (for ``hexboard.label_cut``)."""
    open_reach(s.node_mask, s.node_pair, s.cell_built, NEIGHBORS, MC, CENTER_NODE, -1, reach, queue)
    targets = np.empty(NUM_SEATS + NUM_KEYS, dtype=np.int64)
    nt = 0
    for p in range(s.num_players):
        targets[nt] = start_node(s, p)
        nt += 1
    for k in range(NUM_KEYS):
        node = s.key_node[k]
        if node >= 0 and reach[node]:
            targets[nt] = node
            nt += 1
    tree = hexboard.new_tree()
    if not hexboard.critical_cells(s, CENTER_NODE, targets[:nt], critical, tree):
        critical[:] = True  # a way already cut: try everything
    return tree


@njit(cache=True)
def compute_placements(s, tile: int) -> int:
    """Fill ``place_ok`` for the drawn field; returns how many placements are legal. Only a
    cell that is an articulation point between the centre and a start field or a reachable
    key (its loss as an open space could cut a way) has each rotation tried."""
    s.place_ok[:] = 0
    critical = np.empty(NUM_CELLS, dtype=np.bool_)
    tree = critical_for_ways(s, critical, s.reach, s.queue)
    need = key_ways(s)
    count = hexboard.place_freely(s, critical)
    for cell in range(NUM_BOARD):
        if critical[cell] and hexboard.touches_board(s.cell_built, cell):
            # what ways_open would find with the tile laid, from one labelling of the board
            # around the cell instead of a search per rotation
            hexboard.label_cut(s, cell, tree)
            for r in range(6):
                if ways_joined(s, need, hexboard.tile_joins(s, cell, TILE_MASK[tile], TILE_PAIR[tile], r)):
                    s.place_ok[cell * 6 + r] = 1
                    count += 1
    return count


# --- Build (action) ----------------------------------------------------------------------------
@njit(cache=True)
def build(s, seat: int) -> None:
    """Draw the top field: it is placed (a decision) if it fits anywhere, else it goes to
    the bottom of the pile."""
    tile = pod.draw_tile(s)
    s.foundation_used = 0  # the Architect's Foundation: once a build
    pod.place_or_return(s, seat, tile, compute_placements(s, tile) > 0, D_PLACE, EV_BUILD_NOWHERE)


# --- placing the drawn field (decision: ``pod.placement_mask``) ------------------------------
@njit(cache=True)
def place_field(s, action: int) -> None:
    """The drawn field onto a cell, turned (``A_PLACE + cell * 6 + rotation``)."""
    k = action - A_PLACE
    cell, rot = k // 6, k % 6
    tile = s.drawn_tile
    s.drawn_tile = -1
    set_tile(s, cell, tile, rot)
    s.cell_builder[cell] = s.seat  # the Architect's Shortcut reads it
    emit(s, EV_BUILD, s.seat, tile, cell, rot)
