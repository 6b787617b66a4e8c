"""Core corridor-board searches: corridor_across, open_reach, the articulation-point
shortcut (critical_empty_cells) that decides which builds could close a way, and the
components without a cell (cut_labels) that answer each rotation of a build there."""

from __future__ import annotations

import numpy as np
from numba import njit

import labyrinth_env
from labyrinth_env import get_spec
from labyrinth_env.core import hexboard
from labyrinth_env.core.contract import new_states
from labyrinth_env.core.corridors import (
    TREE_ROWS,
    corridor_across,
    critical_empty_cells,
    cut_labels,
    open_reach,
    open_tree,
)
from labyrinth_env.core.grid import square_neighbors
from labyrinth_env.core.rng import pick_random
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K11

B = get_spec("paths_of_destiny_3e_v3").loops  # the ruleset's entry points and batched loops
B11 = get_spec("paths_of_destiny_2011_v6").loops


def _line_board(masks: list[int], built: list[bool]):
    """A 1xN square strip with one corridor per cell (max_corridors = 1)."""
    nb = square_neighbors(1, len(masks))
    node_mask = np.array(masks, dtype=np.uint8)
    node_pair = np.full(len(masks), -1, dtype=np.int16)
    cell_built = np.array(built, dtype=np.uint8)
    return nb, node_mask, node_pair, cell_built


def test_corridor_across_needs_the_facing_edge():
    e, w = 2, 8
    nb, node_mask, _, _ = _line_board([e, w, 0], [True, True, True])
    assert corridor_across(node_mask, nb, 0, 1, 1) == 1  # east of cell 0 is cell 1, open west
    assert corridor_across(node_mask, nb, 1, 1, 1) == -1  # cell 2 has no corridor
    assert corridor_across(node_mask, nb, 0, 3, 1) == -1  # off the board


def test_open_reach_uses_empty_cells_as_wildcards_and_skip_cell():
    e, w = 2, 8
    # cell 0 open east, cell 1 empty, cell 2 open west: connected through the empty cell
    nb, node_mask, node_pair, built = _line_board([e, 0, w], [True, False, True])
    reach = np.zeros(3 + 3, dtype=np.uint8)
    queue = np.zeros(8, dtype=np.int16)
    open_reach(node_mask, node_pair, built, nb, 1, 0, -1, reach, queue)
    assert reach[2] == 1 and reach[3 + 1] == 1
    open_reach(node_mask, node_pair, built, nb, 1, 0, 1, reach, queue)  # cell 1 treated as rock
    assert reach[2] == 0


def test_critical_empty_cells_on_a_strip():
    e, w = 2, 8
    # root cell 0 - empty 1 - empty 2 - target cell 3: both empty cells are critical
    nb, node_mask, node_pair, built = _line_board([e, 0, 0, w], [True, False, False, True])
    tree = np.zeros((TREE_ROWS, 8), dtype=np.int32)
    open_tree(node_mask, node_pair, built, nb, 1, 0, tree)
    critical = np.zeros(4, dtype=np.bool_)
    assert critical_empty_cells(tree, np.array([3]), 4, critical)
    assert list(critical) == [False, True, True, False]
    # without cell 1 the strip falls apart: the root's side, then cell 2 with the target
    labels = np.zeros(8, dtype=np.uint8)
    cut_labels(tree, 4, 1, labels)
    assert labels[0] == 1 and labels[4 + 2] == labels[3] == 2 and labels[4 + 1] == 0


@njit(cache=True)
def _cut_labels_match_searches(s, tree, labels, reach, queue) -> int:
    """For every empty board cell: two vertices share a label of ``cut_labels`` exactly when
    a search with that cell as rock joins them (label 1: the centre's). Returns the number
    of cells compared, -1 at the first difference."""
    n = reach.shape[0]
    centre = s.center_cell * hexboard.MAX_CORRIDORS
    hexboard.open_tree(s.node_mask, s.node_pair, s.cell_built, hexboard.FRAME_NEIGHBORS, hexboard.MAX_CORRIDORS,
                       centre, tree)  # fmt: skip
    compared = 0
    for cell in range(hexboard.NUM_BOARD):
        if s.cell_built[cell]:
            continue
        cut_labels(tree, hexboard.NUM_NODES, cell, labels)
        for v in range(n):
            if labels[v] == 0:
                continue
            start = centre if labels[v] == 1 else v
            open_reach(s.node_mask, s.node_pair, s.cell_built, hexboard.FRAME_NEIGHBORS, hexboard.MAX_CORRIDORS,
                       start, cell, reach, queue)  # fmt: skip
            for u in range(n):
                if u != hexboard.NUM_NODES + cell and labels[u] != 0 and (reach[u] != 0) != (labels[u] == labels[v]):
                    return -1
        compared += 1
    return compared


def _random_legal_action(kernel, s, mask, rng) -> int:
    """The action ``loops.random_legal_action`` takes, through the kernel's ``legal_mask`` and
    ``pick_random``, which the precompile cached: called from Python, the jitted one (an
    inlined helper) compiled a library of its own per ruleset (2011 0.9 s CPU, 3e 0.5 s)."""
    kernel.legal_mask(s, mask)
    return pick_random(mask, rng)


def test_cut_labels_are_the_components_without_the_cell():
    env = labyrinth_env.raw_env("paths_of_destiny_3e_v3", num_players=4)
    states = new_states(K, 1)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.array([777], dtype=np.uint64)
    n = K.NUM_NODES + K.NUM_CELLS
    tree = np.zeros((TREE_ROWS, n), dtype=np.int32)
    labels = np.zeros(n, dtype=np.uint8)
    reach = np.zeros(n, dtype=np.uint8)
    queue = np.zeros(n + 1, dtype=np.int16)
    compared = 0
    for game in range(4):
        B.init_one(states, np.uint64(game), env.options_vector())
        for step in range(400):
            if states[0]["outcome"] != K.RUNNING:
                break
            if step % 10 == 0:
                got = _cut_labels_match_searches(states[0], tree, labels, reach, queue)
                assert got >= 0, (game, step)
                compared += got
            K.step(states[0], _random_legal_action(K, states[0], mask, rng))
    assert compared > 1000


@njit(cache=True)
def _brute_force_placements(s, tile, out) -> None:
    out[:] = 0
    for cell in range(K.NUM_BOARD):
        if not K.buildable_cell(s, cell):
            continue
        for r in range(6):
            K.set_tile(s, cell, tile, r)
            if K.targets_connected(s, -1):
                out[cell * 6 + r] = 1
            K.clear_cell(s, cell)


def test_articulation_shortcut_equals_trying_every_placement():
    """On thousands of positions from random games, the placements allowed with the
    critical-cell shortcut are exactly those found by trying every cell and rotation."""
    env = labyrinth_env.raw_env("paths_of_destiny_3e_v3", num_players=3)
    opts = env.options_vector()
    states = new_states(K, 1)
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.array([12345], dtype=np.uint64)
    brute = np.zeros(K.NUM_BOARD * 6, dtype=np.uint8)
    checked = 0
    closing_seen = 0
    for game in range(12):
        B.init_one(states, np.uint64(game), opts)
        for _ in range(300):
            if s["outcome"] != K.RUNNING:
                break
            if s["tile_pool_len"] > 0:
                for tile in (0, 9, 14, 21, 24, 28):  # dead end, bend, fork, 2-corridor, bridges
                    work = states.copy()
                    K.compute_placements(work[0], tile)
                    _brute_force_placements(work[0], tile, brute)
                    assert np.array_equal(work[0]["place_ok"], brute), (game, tile)
                    closing_seen += any(
                        K.buildable_cell(work[0], c) and brute[c * 6 : c * 6 + 6].sum() < 6 for c in range(K.NUM_BOARD)
                    )
                    checked += 1
            K.step(s, _random_legal_action(K, s, mask, rng))
    assert checked > 1000
    assert closing_seen > 0  # some positions forbade a rotation or a whole buildable cell


@njit(cache=True)
def _brute_force_placements_2011(s, tile, out) -> None:
    out[:] = 0
    K11.reach_from_centre(s)
    need = K11.key_ways(s)
    for cell in range(K11.NUM_BOARD):
        if not hexboard.touches_board(s.cell_built, cell):
            continue
        for r in range(6):
            K11.set_tile(s, cell, tile, r)
            if K11.ways_open(s, need):
                out[cell * 6 + r] = 1
            K11.clear_cell(s, cell)


def test_2011_placements_equal_trying_every_placement():
    """The 2011 edition's rule (every start field and, for the seats that had one, a key
    keep a way to the centre) through the shortcut equals a search per cell and rotation."""
    env = labyrinth_env.raw_env("paths_of_destiny_2011_v6", num_players=4)
    opts = env.options_vector()
    states = new_states(K11, 1)
    s = states[0]
    mask = np.zeros(K11.NUM_ACTIONS, dtype=np.uint8)
    rng = np.array([54321], dtype=np.uint64)
    brute = np.zeros(K11.NUM_BOARD * 6, dtype=np.uint8)
    checked = closing_seen = 0
    for game in range(12):
        B11.init_one(states, np.uint64(game), opts)
        for _ in range(300):
            if s["outcome"] != K11.RUNNING:
                break
            if s["tile_pool_len"] > 0:
                for tile in range(0, K11.TILE_MASK.shape[0], 3):
                    work = states.copy()
                    K11.compute_placements(work[0], tile)
                    _brute_force_placements_2011(work[0], tile, brute)
                    assert np.array_equal(work[0]["place_ok"], brute), (game, tile)
                    closing_seen += brute.sum() < 6 * sum(
                        hexboard.touches_board(work[0]["cell_built"], c) for c in range(K11.NUM_BOARD)
                    )
                    checked += 1
            K11.step(s, _random_legal_action(K11, s, mask, rng))
    assert checked > 1000
    assert closing_seen > 0
