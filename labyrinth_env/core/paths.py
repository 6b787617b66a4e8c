"""Reachability over connected corridors, and the cheapest ways through a maze that can
be changed, shared by every ruleset.

Each cell has an edge mask (bit ``d`` open towards direction ``d``) and a passage kind:
``BLOCKED`` (cannot be entered), ``WALK`` (entered and walked through when both sides
of an edge are open) or ``ENTER_ONLY`` (a face-down tile: reached when the cell you come
from is open towards it, but the walk stops there).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.jit import njit

BLOCKED, WALK, ENTER_ONLY = 0, 1, 2


@njit(cache=True)
def grid_reach(
    neighbors: np.ndarray,
    open_mask: np.ndarray,
    passage: np.ndarray,
    reach: np.ndarray,
    label: int,
    queue: np.ndarray,
    num_seeds: int,
) -> int:
    """Breadth-first search that labels every cell reachable from the seeds.

    ``queue[:num_seeds]`` holds the seed cells, already labelled by the caller. Cells
    still unlabelled (``reach == 0``) that are found get ``label``; ``WALK`` cells are
    expanded, ``ENTER_ONLY`` ones are not. Returns the queue length at the end, so
    ``queue[:n]`` lists seeds and found cells in visiting order. Labels let a caller
    run layered searches (e.g. "reachable only by using a spell") on one ``reach``.
    """
    num_dirs = neighbors.shape[1]
    half = num_dirs // 2
    head = 0
    tail = num_seeds
    while head < tail:
        cell = queue[head]
        head += 1
        if passage[cell] != WALK:
            continue
        m = open_mask[cell]
        for d in range(num_dirs):
            if not (m >> d) & 1:
                continue
            nxt = neighbors[cell, d]
            if nxt < 0 or reach[nxt] != 0:
                continue
            kind = passage[nxt]
            if kind == WALK:
                if not (open_mask[nxt] >> ((d + half) % num_dirs)) & 1:
                    continue
            elif kind != ENTER_ONLY:
                continue
            reach[nxt] = label
            queue[tail] = nxt
            tail += 1
    return tail


@njit(cache=True)
def reach_from(
    neighbors: np.ndarray,
    open_mask: np.ndarray,
    passage: np.ndarray,
    start: int,
    reach: np.ndarray,
    queue: np.ndarray,
) -> int:
    """Clear ``reach`` and label (1) every cell reachable from ``start``; returns the count."""
    reach[:] = 0
    reach[start] = 1
    queue[0] = start
    return grid_reach(neighbors, open_mask, passage, reach, 1, queue, 1)


UNREACHED = 1 << 30  # ``grid_costs``: no way at all


@njit(cache=True)
def grid_costs(
    neighbors: np.ndarray, open_mask: np.ndarray, passage: np.ndarray, start: int, shut_cost: int, dist: np.ndarray
) -> None:
    """Cheapest costs from ``start`` to every cell of a maze that can be changed (``dist``,
    UNREACHED where no way leads): a step costs 1 where both sides of the edge are open and
    ``1 + shut_cost`` where either is shut (a wall that must be turned or shifted away
    first), so the costs count what must change on the way, not only its length. An
    ``ENTER_ONLY`` cell (a face-down tile) is open on every side: it is turned as it is
    flipped; ``BLOCKED`` cells are never entered. Dijkstra over the cells (a few dozen)."""
    num_cells, num_dirs = neighbors.shape
    half = num_dirs // 2
    dist[:] = UNREACHED
    done = np.zeros(num_cells, dtype=np.uint8)
    dist[start] = 0
    for _ in range(num_cells):
        a, best = -1, UNREACHED
        for c in range(num_cells):
            if not done[c] and dist[c] < best:
                a, best = c, dist[c]
        if a < 0:
            return
        done[a] = 1
        for d in range(num_dirs):
            b = neighbors[a, d]
            if b < 0 or done[b] or passage[b] == BLOCKED:
                continue
            out_open = passage[a] == ENTER_ONLY or (open_mask[a] >> d) & 1
            in_open = passage[b] == ENTER_ONLY or (open_mask[b] >> ((d + half) % num_dirs)) & 1
            step = 1 if out_open and in_open else 1 + shut_cost
            if best + step < dist[b]:
                dist[b] = best + step
