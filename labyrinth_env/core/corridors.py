"""Boards of tiles that carry several separate corridors (the Paths of Destiny family).

A *node* is one corridor: ``node = cell * max_corridors + k``. ``node_mask[node]`` is the
set of the cell's edges that the corridor touches (0: no such corridor). Two nodes on
neighbouring cells connect when both touch the shared edge. ``node_pair[node]`` links a
bridge to the corridor under it on the same tile (-1 otherwise): characters change level
there by jumping, so it counts when asking whether a space can still be reached.

Empty cells (no tile yet) act as *wildcards* in ``open_reach``: any tile built there
later may connect anything, so an empty cell connects to every corridor facing it and to
its empty neighbours.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def corridor_across(node_mask: np.ndarray, neighbors: np.ndarray, cell: int, d: int, max_corridors: int) -> int:
    """The corridor on the neighbour of ``cell`` in direction ``d`` that touches the shared
    edge, or -1 (off the board, empty cell, or no corridor there)."""
    nb = neighbors[cell, d]
    if nb < 0:
        return -1
    num_dirs = neighbors.shape[1]
    back = (d + num_dirs // 2) % num_dirs
    for k in range(max_corridors):
        node = nb * max_corridors + k
        if (node_mask[node] >> back) & 1:
            return node
    return -1


@njit(cache=True)
def open_reach(
    node_mask: np.ndarray,
    node_pair: np.ndarray,
    cell_built: np.ndarray,
    neighbors: np.ndarray,
    max_corridors: int,
    start_node: int,
    skip_cell: int,
    reach: np.ndarray,
    queue: np.ndarray,
) -> None:
    """Mark in ``reach`` (length ``num_nodes + num_cells``) every corridor node, and every
    empty cell (index ``num_nodes + cell``), connected to ``start_node`` through corridors,
    bridge jumps and empty cells. ``skip_cell`` (or -1) is treated as if it were solid
    rock: neither a wildcard nor a tile. Used to check that a build never closes the last
    way to a space."""
    num_cells = neighbors.shape[0]
    num_dirs = neighbors.shape[1]
    half = num_dirs // 2
    num_nodes = num_cells * max_corridors
    reach[:] = 0
    reach[start_node] = 1
    queue[0] = start_node
    head, tail = 0, 1
    every_edge = (1 << num_dirs) - 1
    while head < tail:
        item = queue[head]
        head += 1
        if item < num_nodes:
            cell = item // max_corridors
            edges = node_mask[item]
            pair = node_pair[item]
            if pair >= 0 and not reach[pair]:
                reach[pair] = 1
                queue[tail] = pair
                tail += 1
        else:
            cell = item - num_nodes
            edges = every_edge  # a future tile here may open any side
        for d in range(num_dirs):
            if not (edges >> d) & 1:
                continue
            nb = neighbors[cell, d]
            if nb < 0 or nb == skip_cell:
                continue
            if cell_built[nb]:
                back = (d + half) % num_dirs
                for k in range(max_corridors):
                    other = nb * max_corridors + k
                    if (node_mask[other] >> back) & 1 and not reach[other]:
                        reach[other] = 1
                        queue[tail] = other
                        tail += 1
            elif not reach[num_nodes + nb]:
                reach[num_nodes + nb] = 1
                queue[tail] = num_nodes + nb
                tail += 1
