"""The toy race's board, die, action space and state record."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import state_dtype
from labyrinth_env.core.grid import mask_from_directions, square_neighbors

SIZE = 5
NUM_CELLS = SIZE * SIZE
GOAL = NUM_CELLS // 2
NUM_SEATS = 4
START_CELLS = np.array([0, SIZE - 1, NUM_CELLS - 1, NUM_CELLS - SIZE], dtype=np.int64)
NEIGHBORS = square_neighbors(SIZE, SIZE)
DIE_SIDES = 6
# the tile shapes dealt to the board (straight, corner, tee), turned at random
SHAPES = np.array([mask_from_directions(d) for d in ("NS", "NE", "NES")], dtype=np.uint8)

# actions: turn the tile of a cell a quarter clockwise, pass, move to a cell
A_TURN = 0
A_PASS = A_TURN + NUM_CELLS
A_MOVE = A_PASS + 1
NUM_ACTIONS = A_MOVE + NUM_CELLS

D_TURN, D_MOVE = 0, 1
DECISIONS = ("turn a tile or pass", "move")

NUM_OPTIONS = 2  # num_players and max_turns (core.contract)

EV_START_TURN, EV_TURN_TILE, EV_ROLL, EV_MOVE, EV_WIN, EV_TRUNCATED = 1, 2, 3, 4, 5, 6
MAX_EVENTS = 8

STATE_DTYPE = state_dtype(
    NUM_OPTIONS,
    MAX_EVENTS,
    [
        ("tile", np.uint8, (NUM_CELLS,)),  # open edges of each cell's tile
        ("position", np.int8, (NUM_SEATS,)),
        ("roll", np.int8),
        ("distance", np.int8, (NUM_CELLS,)),  # search scratch: steps from the mover, -1 unreached
        ("queue", np.int8, (NUM_CELLS,)),
    ],
)

# the observation: per cell open N/E/S/W, the goal, the piece of each relative seat; then
# the decision, the roll, and which seats play
CELL_FEATURES = 4 + 1 + NUM_SEATS
OBS_GLOBAL = NUM_CELLS * CELL_FEATURES
OBS_SIZE = OBS_GLOBAL + len(DECISIONS) + DIE_SIDES + NUM_SEATS
