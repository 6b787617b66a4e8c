"""Reachability over connected corridors, shared by every ruleset.

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
