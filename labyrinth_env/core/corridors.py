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


@njit(cache=True)
def open_graph(
    node_mask: np.ndarray,
    node_pair: np.ndarray,
    cell_built: np.ndarray,
    neighbors: np.ndarray,
    max_corridors: int,
    adj: np.ndarray,
    deg: np.ndarray,
) -> None:
    """The graph that ``open_reach`` walks, as adjacency lists: vertices are corridor nodes
    and empty cells (``num_nodes + cell``); ``adj[v, :deg[v]]`` are v's neighbours."""
    num_cells = neighbors.shape[0]
    num_dirs = neighbors.shape[1]
    half = num_dirs // 2
    num_nodes = num_cells * max_corridors
    deg[:] = 0
    for v in range(num_nodes + num_cells):
        if v < num_nodes:
            if node_mask[v] == 0:
                continue
            cell = v // max_corridors
            edges = node_mask[v]
            if node_pair[v] >= 0:
                adj[v, deg[v]] = node_pair[v]
                deg[v] += 1
        else:
            cell = v - num_nodes
            if cell_built[cell]:
                continue
            edges = (1 << num_dirs) - 1
        for d in range(num_dirs):
            if not (edges >> d) & 1:
                continue
            nb = neighbors[cell, d]
            if nb < 0:
                continue
            if cell_built[nb]:
                back = (d + half) % num_dirs
                for k in range(max_corridors):
                    other = nb * max_corridors + k
                    if (node_mask[other] >> back) & 1:
                        adj[v, deg[v]] = other
                        deg[v] += 1
            else:
                adj[v, deg[v]] = num_nodes + nb
                deg[v] += 1


@njit(cache=True)
def critical_empty_cells(
    adj: np.ndarray, deg: np.ndarray, root: int, targets: np.ndarray, num_nodes: int, critical: np.ndarray
) -> bool:
    """Mark ``critical[cell]`` for every empty cell whose loss (built over with no way
    through) would cut some target vertex off from ``root``; returns False if a target is
    already cut off. One depth-first search with low-links (articulation points) instead
    of a search per candidate cell."""
    n = adj.shape[0]
    disc = np.full(n, -1, dtype=np.int32)
    low = np.zeros(n, dtype=np.int32)
    parent = np.full(n, -1, dtype=np.int32)
    edge_i = np.zeros(n, dtype=np.int32)
    stack = np.empty(n, dtype=np.int32)
    critical[:] = False
    time = 0
    top = 0
    stack[0] = root
    disc[root] = 0
    low[root] = 0
    time = 1
    while top >= 0:
        v = stack[top]
        if edge_i[v] < deg[v]:
            w = adj[v, edge_i[v]]
            edge_i[v] += 1
            if disc[w] < 0:
                parent[w] = v
                disc[w] = time
                low[w] = time
                time += 1
                top += 1
                stack[top] = w
            elif w != parent[v] and disc[w] < low[v]:
                low[v] = disc[w]
        else:
            top -= 1
            p = parent[v]
            if p >= 0 and low[v] < low[p]:
                low[p] = low[v]
    for t in targets:
        if disc[t] < 0:
            return False
        # every empty-cell ancestor that the path's child cannot bypass is critical
        child = t
        v = parent[t]
        while v >= 0:
            if v >= num_nodes and low[child] >= disc[v]:
                critical[v - num_nodes] = True
            child = v
            v = parent[v]
    return True
