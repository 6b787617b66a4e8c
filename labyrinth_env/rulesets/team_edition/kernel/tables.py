"""Team Edition: the kernel's sizes and tables, the options vector, the flat action space,
the decisions, the events (with the causes the env decodes them by), the state record and
the observation's layout. Every name here is read as ``K.<name>``."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import OPT_RULESET, state_dtype
from labyrinth_env.core.grid import square_neighbors
from labyrinth_env.rulesets.team_edition import components as C

SIZE = C.SIZE
NUM_CELLS = C.NUM_CELLS
NUM_SEATS = C.NUM_SEATS
NUM_TREASURES = C.NUM_TREASURES
NUM_TILES = C.NUM_TILES
NUM_LOOSE = C.NUM_LOOSE
NEIGHBORS = square_neighbors(SIZE, SIZE)
TILE_SHAPE = C.TILE_SHAPE.copy()
TILE_TREASURE = C.TILE_TREASURE.astype(np.int64)
HOME_CELLS = C.HOME_CELLS.copy()
FIXED_CELLS = C.FIXED_CELLS.copy()
LOOSE_CELLS = C.LOOSE_CELLS.copy()
IS_FIXED_CELL = C.IS_FIXED_CELL.copy()
ARROW_LINE = C.ARROW_LINE.copy()
IS_EDGE_CELL = np.array([(NEIGHBORS[c] < 0).any() for c in range(NUM_CELLS)], dtype=np.bool_)
MAX_PAGES = C.MAX_PAGES
# the Daedalus card pools: POOLS[kind, num_players - 1, :POOL_SIZE[kind, num_players - 1]]
MAX_POOL = max(len(C.pool_of(k, n)) for k in range(3) for n in range(1, NUM_SEATS + 1))
POOLS = np.zeros((3, NUM_SEATS, MAX_POOL, 4), dtype=np.int8)
POOL_SIZE = np.zeros((3, NUM_SEATS), dtype=np.int64)
for _kind in range(3):
    for _n in range(1, NUM_SEATS + 1):
        _pool = C.pool_of(_kind, _n)
        POOLS[_kind, _n - 1, : len(_pool)] = _pool
        POOL_SIZE[_kind, _n - 1] = len(_pool)
# (cell, direction) -> the neighbour for Switch: direction 0 east, 1 south.
SWITCH_NEIGHBOR = np.full((NUM_CELLS, 2), -1, dtype=np.int64)
for _c in range(NUM_CELLS):
    for _k, _d in enumerate((1, 2)):
        _n = NEIGHBORS[_c, _d]
        if _n >= 0 and not IS_FIXED_CELL[_c] and not IS_FIXED_CELL[_n]:
            SWITCH_NEIGHBOR[_c, _k] = _n

VARIANT_INTRODUCTORY, VARIANT_STANDARD, VARIANT_EXPERT = 0, 1, 2
VARIANTS = ("introductory", "standard", "expert")

# options vector (int32) handed to init and kept in the state for auto-reset
OPT_VARIANT, OPT_MEMORY = OPT_RULESET, OPT_RULESET + 1  # after num_players, max_turns (core.contract)
OPT_DECK = 4  # 4, 5, 6: push, flip, teleport page counts
OPT_SPELLS = 7  # 7..10: spell per seat, -1 = dealt at random
OPT_LOOKAHEAD = 11  # 1: the observation ends with the lookahead features
NUM_OPTIONS = 16

# --- the flat action space --------------------------------------------------------------
A_PUSH = 0  # arrow * 4 + orientation of the spare           (48)
A_MOVE = A_PUSH + C.NUM_ARROWS * 4  # destination cell         (49)
A_ROTATE = A_MOVE + NUM_CELLS  # cell * 3 + (steps - 1)        (147)
A_SWITCH = A_ROTATE + NUM_CELLS * 3  # cell * 2 + (0 east, 1 south) (98)
A_ORIENT = A_SWITCH + NUM_CELLS * 2  # orientation of the tile just flipped face up (4)
A_END = A_ORIENT + 4  # end the turn                              (1)
A_FLIP = A_END + 1  # flip the face-down tile stopped on face up     (1)
A_LEAVE = A_END + 2  # leave the face-down tile stopped on face down (1)
NUM_ACTIONS = A_LEAVE + 1
# which part of the action space each index belongs to (push, move, rotate, switch,
# orientation, end), for policies that share weights across the actions of one kind
ACTION_KIND = np.zeros(NUM_ACTIONS, dtype=np.int64)
for _kind, (_lo, _hi) in enumerate(
    (
        (A_PUSH, A_MOVE),
        (A_MOVE, A_ROTATE),
        (A_ROTATE, A_SWITCH),
        (A_SWITCH, A_ORIENT),
        (A_ORIENT, A_END),
        (A_END, A_FLIP),
    )
):
    ACTION_KIND[_lo:_hi] = _kind
ACTION_KIND[A_FLIP:] = ACTION_KIND[A_ORIENT]  # the flip decision sits with the orientation

# pending decision
DECISION_MAIN, DECISION_ORIENT, DECISION_FLIP = 0, 1, 2
DECISIONS = ("spell, move or end turn", "orientation of the flipped tile", "flip the face-down tile or leave it")

# events: (type, seat, a, b, c, d)
EV_START_TURN = 1  # seat, turn, pages left after this one
EV_PAGE = 2  # seat, kind, p1, p2, p3
EV_DAEDALUS_PUSH = 3  # -1, arrow, tile pushed out, it was face down
EV_DAEDALUS_FLIP = 4  # -1, tile, cell
EV_SENT_HOME = 5  # piece owner, from cell, home cell, cause (SENT_...)
EV_PUSH = 6  # seat, arrow, orientation, tile pushed out
EV_PIECE_WRAPS = 7  # piece owner, from cell, to cell
EV_ROTATE = 8  # seat, cell, steps
EV_SWITCH = 9  # seat, cell a, cell b
EV_MOVE = 10  # seat, from, to, spell used
EV_FLIP_UP = 11  # seat, cell, tile, orientation
EV_COLLECT = 12  # seat, treasure, board owner, bonus move earned
EV_DRAW = 13  # seat, treasure
EV_END_TURN = 14  # seat, turn
EV_GAME_END = 15  # -1, outcome, treasures collected
EV_LEAVE_DOWN = 16  # seat, cell, tile: stopped on a face-down tile and left it face down
MAX_EVENTS = 32
# why a piece went to a corner (EV_SENT_HOME)
SENT_PUSHED_OUT, SENT_TILE_FLIPPED, SENT_BY_PAGE = 0, 1, 2
SENT_CAUSES = ("pushed out", "tile flipped", "daedalus page")

STATE_DTYPE = state_dtype(
    NUM_OPTIONS,
    MAX_EVENTS,
    [
        ("variant", np.int8),
        ("public_memory", np.int8),
        # the maze
        ("cell_tile", np.int8, (NUM_CELLS,)),
        ("tile_rot", np.int8, (NUM_TILES,)),
        ("tile_down", np.int8, (NUM_TILES,)),
        ("spare", np.int8),
        ("piece", np.int8, (NUM_SEATS,)),
        ("spell", np.int8, (NUM_SEATS,)),
        # treasures
        ("collected", np.int8, (NUM_TREASURES,)),
        ("num_collected", np.int8),
        ("slots", np.int8, (NUM_SEATS, 2)),
        ("treasure_deck", np.int8, (NUM_TREASURES,)),
        ("treasure_pos", np.int8),
        # the Book of Daedalus
        ("pages", np.int8, (MAX_PAGES, 4)),
        ("num_pages", np.int8),
        ("page_pos", np.int8),
        # the turn
        ("push_used", np.int8),
        ("spell_used", np.int8),
        ("moves_left", np.int8),
        ("collected_this_turn", np.int8),
        ("flip_cell", np.int8),
        # derived from the above, kept so mask and step share one search
        ("open", np.uint8, (NUM_CELLS,)),
        ("passage", np.uint8, (NUM_CELLS,)),
        ("reach", np.int8, (NUM_CELLS,)),
        ("queue", np.int16, (NUM_CELLS + 1,)),
        ("queue2", np.int16, (NUM_CELLS + 1,)),
    ],
)

# --- observation layout (float32, all values in [0, 1]) ---------------------------------
P_LOOSE_UP, P_DOWN, P_FIXED, P_OPEN = 0, 1, 2, 3  # P_OPEN..+3: open N, E, S, W
P_PIECE = 7  # +k: piece of relative seat k
P_HOME = 11  # +k: home corner of relative seat k (seats in play)
P_WANTED = 15  # +k: shows a treasure on relative seat k's board
P_UNCLAIMED = 19  # shows an uncollected treasure on nobody's board
P_TREASURE = 20  # +t: shows treasure t
NUM_PLANES = P_TREASURE + NUM_TREASURES
OBS_SPARE = NUM_PLANES * NUM_CELLS  # open N,E,S,W; treasure one-hot; wanted by seat k
SPARE_SIZE = 4 + NUM_TREASURES + NUM_SEATS
OBS_SEATS = OBS_SPARE + SPARE_SIZE
SEAT_SIZE = 1 + 1 + 2 * NUM_TREASURES + len(C.SPELLS)  # in play, to act, slots, spell
OBS_GLOBAL = OBS_SEATS + NUM_SEATS * SEAT_SIZE
# decision (3), push used, spell used, move left, bonus earned, two collected, variant (3),
# public memory, pages left, pages left by kind (3), treasure deck left, collected,
# collected mask (24), last page kind (3), last page arrow (12)
G_DECISION, G_FLAGS, G_VARIANT, G_MEMORY, G_PAGES = 0, 3, 8, 11, 12
G_TREASURES, G_COLLECTED, G_LAST_PAGE = 16, 18, 18 + NUM_TREASURES
GLOBAL_SIZE = G_LAST_PAGE + 3 + C.NUM_ARROWS
OBS_SIZE = OBS_GLOBAL + GLOBAL_SIZE
# option ``lookahead``: per action, what it would bring the seat to act (see ``lookahead``)
LF_SURE, LF_MAYBE, LF_CLOSENESS, LF_REACH, LF_SIMULATED = 0, 1, 2, 3, 4
LOOKAHEAD_FEATURES = 5
OBS_SIZE_LOOKAHEAD = OBS_SIZE + NUM_ACTIONS * LOOKAHEAD_FEATURES
MAX_DIST = 2 * (SIZE - 1)
# what a cell means to the acting seat
NOT_TARGET, SURE_TARGET, MAYBE_TARGET = 0, 1, 2
