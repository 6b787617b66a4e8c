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

from labyrinth_env.core.jit import njit


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
def flood(
    node_mask: np.ndarray,
    node_pair: np.ndarray,
    cell_built: np.ndarray,
    neighbors: np.ndarray,
    max_corridors: int,
    start: int,
    skip_cell: int,
    label: int,
    marks: np.ndarray,
    queue: np.ndarray,
) -> None:
    """Set ``marks`` to ``label`` on every vertex still unmarked (0) that connects to
    ``start`` (a corridor node, or ``num_nodes + cell`` for an empty cell) through
    corridors, bridge jumps and empty cells, ``skip_cell`` (or -1) being solid rock."""
    num_cells = neighbors.shape[0]
    num_dirs = neighbors.shape[1]
    half = num_dirs // 2
    num_nodes = num_cells * max_corridors
    marks[start] = label
    queue[0] = start
    head, tail = 0, 1
    every_edge = (1 << num_dirs) - 1
    while head < tail:
        item = queue[head]
        head += 1
        if item < num_nodes:
            cell = item // max_corridors
            edges = node_mask[item]
            pair = node_pair[item]
            if pair >= 0 and marks[pair] == 0:
                marks[pair] = label
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
                    if (node_mask[other] >> back) & 1 and marks[other] == 0:
                        marks[other] = label
                        queue[tail] = other
                        tail += 1
            elif marks[num_nodes + nb] == 0:
                marks[num_nodes + nb] = label
                queue[tail] = num_nodes + nb
                tail += 1


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
    reach[:] = 0
    flood(node_mask, node_pair, cell_built, neighbors, max_corridors, start_node, skip_cell, 1, reach, queue)


@njit(cache=True)
def side_labels(
    node_mask: np.ndarray,
    cell_built: np.ndarray,
    neighbors: np.ndarray,
    max_corridors: int,
    cell: int,
    edges: int,
    labels,
) -> int:
    """The labels (``cut_labels``, a bit set: bit L for label L) that a corridor touching
    the sides ``edges`` of ``cell`` would connect to."""
    num_dirs = neighbors.shape[1]
    half = num_dirs // 2
    num_nodes = neighbors.shape[0] * max_corridors
    bits = 0
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
                    bits |= 1 << labels[other]
        else:
            bits |= 1 << labels[num_nodes + nb]
    return bits


# rows of the search tree of ``open_tree`` (an int32[TREE_ROWS, num_vertices] array); rows
# ADJ.. hold each visited vertex's neighbours, DEG how many
DISC, LOW, PARENT, LAST, ORDER, AT, STACK, DEG, ADJ = 0, 1, 2, 3, 4, 5, 6, 7, 8
MAX_DEGREE = 7  # a bridge's other level, and one corridor or empty cell per side of a hexagon
TREE_ROWS = ADJ + MAX_DEGREE


@njit(cache=True)
def open_tree(
    node_mask: np.ndarray,
    node_pair: np.ndarray,
    cell_built: np.ndarray,
    neighbors: np.ndarray,
    max_corridors: int,
    root: int,
    tree: np.ndarray,
) -> None:
    """A depth-first search of the graph ``open_reach`` walks (corridor nodes and empty cells,
    ``num_nodes + cell``) from ``root``, with low-links: ``tree[DISC, v]`` is v's visiting
    time (-1: not reached), ``tree[LOW, v]`` the earliest time reached from v's subtree by
    one back edge, ``tree[PARENT, v]`` its parent, ``tree[LAST, v]`` the last time in its
    subtree (so the subtree is ``tree[ORDER, DISC[v]:LAST[v] + 1]``). A vertex's neighbours
    are listed when it is visited, one pass over the sides as in ``flood``: walking a
    neighbour iterator, or listing the whole board first, costs several times more."""
    num_cells = neighbors.shape[0]
    num_dirs = neighbors.shape[1]
    half = num_dirs // 2
    num_nodes = num_cells * max_corridors
    disc, low, parent, last = tree[DISC], tree[LOW], tree[PARENT], tree[LAST]
    order, at, stack, deg = tree[ORDER], tree[AT], tree[STACK], tree[DEG]
    disc[:] = -1
    parent[root] = -1
    stack[0] = root
    top = 0
    time = 0
    while top >= 0:
        v = stack[top]
        if disc[v] < 0:  # on top for the first time: visit it
            disc[v] = time
            low[v] = time
            order[time] = v
            time += 1
            n = 0
            if v < num_nodes:
                cell = v // max_corridors
                edges = node_mask[v]
                if edges != 0 and node_pair[v] >= 0:
                    tree[ADJ, v] = node_pair[v]
                    n = 1
            else:
                cell = v - num_nodes
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
                            tree[ADJ + n, v] = other
                            n += 1
                else:
                    tree[ADJ + n, v] = num_nodes + nb
                    n += 1
            deg[v] = n
            at[v] = 0
        if at[v] < deg[v]:
            w = tree[ADJ + at[v], v]
            at[v] += 1
            if disc[w] < 0:
                parent[w] = v
                top += 1
                stack[top] = w
            elif w != parent[v] and disc[w] < low[v]:
                low[v] = disc[w]
        else:
            last[v] = time - 1
            top -= 1
            p = parent[v]
            if p >= 0 and low[v] < low[p]:
                low[p] = low[v]


@njit(cache=True)
def critical_empty_cells(tree: np.ndarray, targets: np.ndarray, num_nodes: int, critical: np.ndarray) -> bool:
    """Mark ``critical[cell]`` for every empty cell whose loss (built over with no way
    through) would cut some target vertex off from the root of ``tree`` (``open_tree``);
    returns False if a target is already cut off. One depth-first search with low-links
    (articulation points) instead of a search per candidate cell."""
    disc, low, parent = tree[DISC], tree[LOW], tree[PARENT]
    critical[:] = False
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


@njit(cache=True)
def cut_labels(tree: np.ndarray, num_nodes: int, cell: int, labels: np.ndarray) -> None:
    """Label the graph of ``open_reach`` with the empty ``cell`` taken out, read off the
    search ``tree`` of that graph: 1 for the root's component, 2, 3, ... for the other
    components that touch a side of ``cell``, 0 for the rest. Below an empty cell, a
    child's subtree that no back edge leaves is a component of its own once the cell is
    gone; everything else the search reached still hangs on the root. A tile laid on
    ``cell`` joins only components it touches, so ``side_labels`` then answers each
    rotation without another search."""
    disc, low, parent, last, order, deg = tree[DISC], tree[LOW], tree[PARENT], tree[LAST], tree[ORDER], tree[DEG]
    labels[:] = 0
    root = order[0]
    for j in range(last[root] + 1):
        labels[order[j]] = 1
    vc = num_nodes + cell
    if disc[vc] < 0:
        return  # out of reach: its sides touch nothing the root reaches
    labels[vc] = 0
    label = 2
    for j in range(deg[vc]):
        w = tree[ADJ + j, vc]
        if parent[w] == vc and low[w] >= disc[vc]:
            for i in range(disc[w], last[w] + 1):
                labels[order[i]] = label
            label += 1
