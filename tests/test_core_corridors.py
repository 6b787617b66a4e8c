"""Core corridor-board searches: corridor_across, open_reach, and the articulation-point
shortcut (critical_empty_cells) that decides which builds could close a way."""

from __future__ import annotations

import numpy as np
from numba import njit

import labyrinth_env
from labyrinth_env.core.batching import batch_module
from labyrinth_env.core.corridors import corridor_across, critical_empty_cells, open_graph, open_reach
from labyrinth_env.core.grid import square_neighbors
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

B = batch_module("paths_of_destiny_3e")  # the ruleset's batched loops and single-game entry points

B = batch_module("paths_of_destiny_3e")  # the ruleset's entry points and batched loops


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
    adj = np.zeros((8, 7), dtype=np.int16)
    deg = np.zeros(8, dtype=np.int16)
    open_graph(node_mask, node_pair, built, nb, 1, adj, deg)
    critical = np.zeros(4, dtype=np.bool_)
    assert critical_empty_cells(adj, deg, 0, np.array([3]), 4, critical)
    assert list(critical) == [False, True, True, False]


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
    env = labyrinth_env.raw_env("paths_of_destiny_3e_v0", num_players=3)
    opts = env.options_vector()
    states = K.new_states(1)
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.array([12345], dtype=np.uint64)
    brute = np.zeros(K.NUM_BOARD * 6, dtype=np.uint8)
    checked = 0
    closing_seen = 0
    for game in range(12):
        B.init_one(states, game, opts)
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
            K.step(s, B.random_legal_action(s, mask, rng))
    assert checked > 1000
    assert closing_seen > 0  # some positions forbade a rotation or a whole buildable cell
