"""Team Edition kernel: the whole cooperative moving-maze game as numba functions over
one state record (``STATE_DTYPE``). The env layers only call these functions.

Kernel contract (see DESIGN.md): ``init``, ``to_act``, ``legal_mask``, ``step``,
``observe``, ``returns``, ``determinize`` and the batched ``*_batch`` loops.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import (  # noqa: F401 (outcome codes, K.OPT_* and to_act: the contract's)
    LOST,
    OPT_MAX_TURNS,
    OPT_PLAYERS,
    OPT_RULESET,
    RUNNING,
    TRUNCATED,
    WON,
    clear_mask,
    start_record,
    state_dtype,
    tally_unseen,
    team_returns,
    to_act,
)
from labyrinth_env.core.events import clear_events, emit
from labyrinth_env.core.grid import ROTATE_SQUARE, square_neighbors
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import copy_into, private_dice, reseed, shuffle_unknown
from labyrinth_env.core.paths import ENTER_ONLY, WALK, grid_reach, reach_from
from labyrinth_env.core.rng import randint, shuffle
from labyrinth_env.rulesets.team_edition import components as C

# --- tables (module-level constants, frozen into the compiled kernels) -----------------
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


# --- board helpers -----------------------------------------------------------------------
@njit(cache=True)
def refresh_board(s) -> None:
    """Recompute each cell's open edges and passage kind from tiles, turns and faces."""
    for cell in range(NUM_CELLS):
        t = s.cell_tile[cell]
        if s.tile_down[t]:
            s.open[cell] = 0
            s.passage[cell] = ENTER_ONLY
        else:
            s.open[cell] = ROTATE_SQUARE[TILE_SHAPE[t], s.tile_rot[t]]
            s.passage[cell] = WALK


@njit(cache=True)
def movement_spell(s, seat: int) -> bool:
    """Traverse, Teleport and Escape act while moving; Rotate and Switch are actions."""
    sp = s.spell[seat]
    return sp == C.SPELL_TRAVERSE or sp == C.SPELL_TELEPORT or sp == C.SPELL_ESCAPE


@njit(cache=True)
def compute_reach(s) -> None:
    """Where the active piece can move: ``reach`` 1 without a spell, 2 only by spending the
    seat's movement spell (Traverse, Teleport or Escape), 0 out of reach."""
    seat = s.seat
    n0 = reach_from(NEIGHBORS, s.open, s.passage, s.piece[seat], s.reach, s.queue)
    if s.spell_used or not movement_spell(s, seat):
        return
    sp = s.spell[seat]
    seeds = 0
    if sp == C.SPELL_TRAVERSE:
        # through one face-down tile reached without the spell, off it to any face-up
        # neighbour whose path runs up to the shared edge
        for i in range(n0):
            q = s.queue[i]
            if s.passage[q] != ENTER_ONLY:
                continue
            for d in range(4):
                nb = NEIGHBORS[q, d]
                if nb < 0 or s.reach[nb] != 0 or s.passage[nb] != WALK:
                    continue
                if (s.open[nb] >> ((d + 2) % 4)) & 1:
                    s.reach[nb] = 2
                    s.queue2[seeds] = nb
                    seeds += 1
    elif sp == C.SPELL_TELEPORT:
        reached_home = False
        for k in range(NUM_SEATS):
            if s.reach[HOME_CELLS[k]] == 1:
                reached_home = True
        if reached_home:
            for k in range(NUM_SEATS):
                h = HOME_CELLS[k]
                if s.reach[h] == 0:
                    s.reach[h] = 2
                    s.queue2[seeds] = h
                    seeds += 1
    else:  # escape: off the edge along an open path, back in anywhere on the edge
        can_leave = False
        for i in range(n0):
            q = s.queue[i]
            if s.passage[q] != WALK or not IS_EDGE_CELL[q]:
                continue
            for d in range(4):
                if NEIGHBORS[q, d] < 0 and (s.open[q] >> d) & 1:
                    can_leave = True
        if can_leave:
            for q in range(NUM_CELLS):
                if not IS_EDGE_CELL[q] or s.reach[q] != 0:
                    continue
                enter = s.passage[q] == ENTER_ONLY
                if not enter:
                    for d in range(4):
                        if NEIGHBORS[q, d] < 0 and (s.open[q] >> d) & 1:
                            enter = True
                if enter:
                    s.reach[q] = 2
                    s.queue2[seeds] = q
                    seeds += 1
    if seeds > 0:
        grid_reach(NEIGHBORS, s.open, s.passage, s.reach, 2, s.queue2, seeds)


@njit(cache=True)
def send_home(s, owner: int, cause: int) -> None:
    emit(s, EV_SENT_HOME, owner, s.piece[owner], HOME_CELLS[owner], cause)
    s.piece[owner] = HOME_CELLS[owner]


@njit(cache=True)
def insert_spare(s, arrow: int) -> int:
    """Slide the spare in at ``arrow``; the tile pushed out becomes the spare (returned).
    Pieces ride their tiles; the caller decides what happens to pieces pushed out."""
    line = ARROW_LINE[arrow]
    out_tile = s.cell_tile[line[SIZE - 1]]
    for i in range(SIZE - 1, 0, -1):
        s.cell_tile[line[i]] = s.cell_tile[line[i - 1]]
    s.cell_tile[line[0]] = s.spare
    s.spare = out_tile
    return out_tile


@njit(cache=True)
def shift_pieces(s, arrow: int, wrap: bool) -> None:
    """Move the pieces on a pushed line one cell along it. A piece pushed off the end
    either comes in on the new tile (``wrap``, the Push spell) or goes home (Daedalus)."""
    line = ARROW_LINE[arrow]
    for p in range(s.num_players):
        pos = s.piece[p]
        for i in range(SIZE):
            if line[i] == pos:
                if i < SIZE - 1:
                    s.piece[p] = line[i + 1]
                elif wrap:
                    s.piece[p] = line[0]
                    emit(s, EV_PIECE_WRAPS, p, pos, line[0])
                else:
                    send_home(s, p, SENT_PUSHED_OUT)
                break


@njit(cache=True)
def cell_of_tile(s, tile: int) -> int:
    for cell in range(NUM_CELLS):
        if s.cell_tile[cell] == tile:
            return cell
    return -1


# --- treasures ------------------------------------------------------------------------------
@njit(cache=True)
def treasure_deck_empty(s) -> bool:
    return s.treasure_pos >= NUM_TREASURES


@njit(cache=True)
def claimable_from(s, seat: int, treasure: int) -> int:
    """Whose board ``seat`` may take ``treasure`` from now (-1 if from none): its own
    board, or, when its board is empty and the treasure deck has run out, any other
    player's board. In the Expert game only the left-most space counts."""
    if treasure < 0 or s.collected[treasure]:
        return -1
    last_slot = 0 if s.variant == VARIANT_EXPERT else 1
    for k in range(last_slot + 1):
        if s.slots[seat, k] == treasure:
            return seat
    if s.slots[seat, 0] >= 0 or not treasure_deck_empty(s):
        return -1
    for other in range(s.num_players):
        if other == seat:
            continue
        for k in range(last_slot + 1):
            if s.slots[other, k] == treasure:
                return other
    return -1


@njit(cache=True)
def finish(s, outcome: int) -> None:
    s.outcome = outcome
    emit(s, EV_GAME_END, -1, outcome, s.num_collected)


@njit(cache=True)
def try_collect(s, seat: int, cell: int) -> None:
    """Stopping on ``cell``: collect its treasure if the rules let ``seat`` take it."""
    treasure = TILE_TREASURE[s.cell_tile[cell]]
    owner = claimable_from(s, seat, treasure)
    if owner < 0:
        return
    if s.slots[owner, 0] == treasure:
        s.slots[owner, 0] = s.slots[owner, 1]  # slide the second card to the first space
    s.slots[owner, 1] = -1
    s.collected[treasure] = 1
    s.num_collected += 1
    s.collected_this_turn += 1
    bonus = s.collected_this_turn == 1
    if bonus:
        s.moves_left += 1
    emit(s, EV_COLLECT, seat, treasure, owner, 1 if bonus else 0)
    if s.num_collected == NUM_TREASURES:
        finish(s, WON)


@njit(cache=True)
def draw_treasures(s, seat: int) -> None:
    """Fill the empty spaces of a board left to right, one card at a time."""
    for k in range(2):
        if s.slots[seat, k] < 0 and not treasure_deck_empty(s):
            t = s.treasure_deck[s.treasure_pos]
            s.treasure_pos += 1
            s.slots[seat, k] = t
            emit(s, EV_DRAW, seat, t)


# --- the Book of Daedalus ------------------------------------------------------------------
@njit(cache=True)
def read_page(s) -> None:
    """Turn the next page and do what it says."""
    page = s.pages[s.page_pos]
    s.page_pos += 1
    kind = page[0]
    emit(s, EV_PAGE, s.seat, kind, page[1], page[2], page[3])
    if kind == C.PAGE_PUSH:
        arrow = page[1]
        s.tile_down[s.spare] = 1
        out_tile = insert_spare(s, arrow)
        was_down = s.tile_down[out_tile]
        s.tile_down[out_tile] = 0  # the new spare always lies face up
        emit(s, EV_DAEDALUS_PUSH, -1, arrow, out_tile, was_down)
        shift_pieces(s, arrow, False)
    elif kind == C.PAGE_FLIP:
        for k in range(1, 3):
            tile = page[k]
            cell = cell_of_tile(s, tile)
            if cell < 0 or s.tile_down[tile]:
                continue  # the spare, or already face down
            s.tile_down[tile] = 1
            emit(s, EV_DAEDALUS_FLIP, -1, tile, cell)
            for p in range(s.num_players):
                if s.piece[p] == cell:
                    send_home(s, p, SENT_TILE_FLIPPED)
    else:
        corner = HOME_CELLS[page[3]]
        for k in range(1, 3):
            p = page[k]
            if p < s.num_players:  # pieces not in play are ignored
                emit(s, EV_SENT_HOME, p, s.piece[p], corner, SENT_BY_PAGE)
                s.piece[p] = corner
    refresh_board(s)


# --- turn flow ---------------------------------------------------------------------------------
@njit(cache=True)
def start_turn(s) -> None:
    s.push_used = 0
    s.spell_used = 0
    s.moves_left = 1
    s.collected_this_turn = 0
    s.decision = DECISION_MAIN
    s.flip_cell = -1
    emit(s, EV_START_TURN, s.seat, s.turn, s.num_pages - s.page_pos - 1)
    read_page(s)


@njit(cache=True)
def end_turn(s) -> None:
    seat = s.seat
    draw_treasures(s, seat)
    emit(s, EV_END_TURN, seat, s.turn)
    if s.page_pos >= s.num_pages:
        finish(s, LOST)  # the Book ran out at the end of its final turn
        return
    s.turn += 1
    if s.max_turns > 0 and s.turn >= s.max_turns:
        finish(s, TRUNCATED)
        return
    s.seat = (seat + 1) % s.num_players
    s.decider = s.seat  # every decision of a turn is the active player's
    start_turn(s)


@njit(cache=True)
def turn_is_over(s) -> bool:
    """Nothing left but ending: push used, no move left, and the other spell used (or a
    movement spell, which cannot be used without moving)."""
    if not s.push_used or s.moves_left > 0:
        return False
    return bool(s.spell_used) or movement_spell(s, s.seat)


@njit(cache=True)
def settle(s) -> None:
    """After an action: end the turn if nothing is left, then prepare the next search."""
    if s.outcome == RUNNING and s.decision == DECISION_MAIN and turn_is_over(s):
        end_turn(s)
    if s.outcome == RUNNING and s.decision == DECISION_MAIN:
        compute_reach(s)


# --- dealing the Book of Daedalus ------------------------------------------------------------------
@njit(cache=True)
def deal_pages(s, kind: int, count: int, at: int) -> int:
    """Write ``count`` cards of ``kind`` at ``s.pages[at:]`` (returns the end): every card
    of the kind's pool as many whole times as ``count`` allows, then a random choice of
    distinct cards for the rest. Which cards a game holds is hidden, like their order."""
    pool = POOLS[kind, s.num_players - 1]
    size = POOL_SIZE[kind, s.num_players - 1]
    for i in range(count - count % size):
        copy_into(s.pages[at], pool[i % size], pool.shape[1])
        at += 1
    pick = np.arange(size)
    shuffle(s.rng, pick, size)
    for i in range(count % size):
        copy_into(s.pages[at], pool[pick[i]], pool.shape[1])
        at += 1
    return at


@njit(cache=True)
def pool_index(s, kind: int, page) -> int:
    pool = POOLS[kind, s.num_players - 1]
    for i in range(POOL_SIZE[kind, s.num_players - 1]):
        if pool[i, 1] == page[1] and pool[i, 2] == page[2] and pool[i, 3] == page[3]:
            return i
    return -1


@njit(cache=True)
def resample_unread_pages(s, rng) -> None:
    """Deal the unread pages again from what everyone knows: the counts by kind (public)
    and the pages already read. Per kind, the cards beyond the whole pools are a choice of
    distinct cards that must include every card read once more than the whole pools hold;
    the rest of that choice is drawn uniformly (exact when a count does not exceed its
    pool, as in the default Book; a close approximation otherwise). The result depends on
    the read pages and ``rng`` only, never on the true unread cards or their order."""
    start = s.page_pos
    at = start
    for kind in range(3):
        size = POOL_SIZE[kind, s.num_players - 1]
        pool = POOLS[kind, s.num_players - 1]
        total = s.options[OPT_DECK + kind]
        whole = total // size
        read = np.zeros(size, dtype=np.int64)
        for i in range(start):
            k = pool_index(s, kind, s.pages[i]) if s.pages[i, 0] == kind else -1
            if k >= 0:  # (a page set by hand in a test position may be from no pool)
                read[k] += 1
        chosen = np.zeros(size, dtype=np.int64)
        free = np.empty(size, dtype=np.int64)
        num_free = 0
        extra = total % size
        for i in range(size):
            if read[i] > whole:
                chosen[i] = 1
                extra -= 1
            else:
                free[num_free] = i
                num_free += 1
        shuffle(rng, free, num_free)
        for j in range(max(extra, 0)):
            chosen[free[j]] = 1
        for i in range(size):
            for _ in range(whole + chosen[i] - read[i]):
                if at < s.num_pages:
                    copy_into(s.pages[at], pool[i], pool.shape[1])
                    at += 1
    order = np.arange(at - start)
    shuffle(rng, order, at - start)
    rest = s.pages[start:at].copy()
    for i in range(at - start):
        copy_into(s.pages[start + i], rest[order[i]], rest.shape[1])


@njit(cache=True)
def turn_face_up(s) -> None:
    """Flip the tile at ``flip_cell`` face up; its orientation is chosen next. Face up at
    once, so the seat sees the tile (observe, determinize) while it chooses, as the
    rulebook's "Flip it face up, and put it in any orientation you choose" implies."""
    s.tile_down[s.cell_tile[s.flip_cell]] = 0
    refresh_board(s)
    s.decision = DECISION_ORIENT


# --- the kernel contract -------------------------------------------------------------------------
@njit(cache=True)
def init(s, seed, options) -> None:
    """Set up a new game from a 64-bit seed and the options vector."""
    start_record(s, seed, options)
    opts = s.options
    n = s.num_players
    s.variant = opts[OPT_VARIANT]
    s.public_memory = opts[OPT_MEMORY]
    # the maze: printed spaces, then the 34 loose tiles mixed, turned at random
    for k in range(FIXED_CELLS.shape[0]):
        s.cell_tile[FIXED_CELLS[k]] = NUM_LOOSE + k
    order = np.arange(NUM_LOOSE)
    shuffle(s.rng, order, NUM_LOOSE)
    for k in range(LOOSE_CELLS.shape[0]):
        s.cell_tile[LOOSE_CELLS[k]] = order[k]
    s.spare = order[NUM_LOOSE - 1]
    for t in range(NUM_TILES):
        s.tile_down[t] = 0
        s.tile_rot[t] = randint(s.rng, 4) if t < NUM_LOOSE else 0
    # pieces and spells
    spells = np.arange(len(C.SPELLS))
    shuffle(s.rng, spells, spells.shape[0])
    for p in range(NUM_SEATS):
        s.piece[p] = HOME_CELLS[p] if p < n else -1
        if p >= n:
            s.spell[p] = -1
        elif s.variant == VARIANT_INTRODUCTORY:
            s.spell[p] = C.SPELL_ROTATE
        elif opts[OPT_SPELLS + p] >= 0:
            s.spell[p] = opts[OPT_SPELLS + p]
        else:
            s.spell[p] = spells[p]
    # treasures: shuffle the deck, two cards each
    for t in range(NUM_TREASURES):
        s.collected[t] = 0
        s.treasure_deck[t] = t
    s.num_collected = 0
    shuffle(s.rng, s.treasure_deck, NUM_TREASURES)
    s.treasure_pos = 0
    s.slots[:, :] = -1
    for p in range(n):
        draw_treasures(s, p)
    # the Book of Daedalus: each kind's cards from its pool (``deal_pages``), then shuffled
    num = 0
    for kind in range(3):
        num = deal_pages(s, kind, opts[OPT_DECK + kind], num)
    s.num_pages = num
    order = np.arange(num)
    shuffle(s.rng, order, num)
    shuffled = s.pages[:num].copy()
    for i in range(num):
        copy_into(s.pages[i], shuffled[order[i]], shuffled.shape[1])
    s.page_pos = 0
    # the first turn: seat 0 (start_record)
    refresh_board(s)
    start_turn(s)
    settle(s)


@njit(cache=True)
def push_legal(s, arrow: int) -> bool:
    """The Push spell may not push a face-down tile out of the maze."""
    return not s.tile_down[s.cell_tile[ARROW_LINE[arrow, SIZE - 1]]]


@njit(cache=True)
def move_legal(s, cell: int) -> bool:
    """A move goes somewhere: l.136 "move along an open path to the tile showing the
    treasure", and standing still is l.130's "choose not to move", so the piece's own
    cell is never a destination."""
    return s.moves_left > 0 and s.reach[cell] > 0 and cell != s.piece[s.seat]


@njit(cache=True)
def flip_later_legal(s) -> bool:
    """l.164 "you can flip the tile face up again" stays the piece's choice while it stands
    on the face-down tile it stopped on, and l.166 "You will be able to move off the tile
    as normal the next time you move" places it before that move: in the main decision,
    with a move left, a piece on a face-down tile may flip it."""
    return s.moves_left > 0 and s.tile_down[s.cell_tile[s.piece[s.seat]]] == 1


@njit(cache=True)
def is_legal(s, action: int) -> bool:
    """Whether ``action`` is legal for the pending decision (cheap, no full mask)."""
    if s.outcome != RUNNING or action < 0 or action >= NUM_ACTIONS:
        return False
    if s.decision == DECISION_ORIENT:
        return A_ORIENT <= action < A_END
    if s.decision == DECISION_FLIP:
        return A_FLIP <= action <= A_LEAVE
    if action < A_MOVE:
        return not s.push_used and push_legal(s, (action - A_PUSH) // 4)
    if action < A_ROTATE:
        return move_legal(s, action - A_MOVE)
    if action < A_SWITCH:
        cell = (action - A_ROTATE) // 3
        return (
            not s.spell_used
            and s.spell[s.seat] == C.SPELL_ROTATE
            and not IS_FIXED_CELL[cell]
            and not s.tile_down[s.cell_tile[cell]]
        )
    if action < A_ORIENT:
        k = action - A_SWITCH
        return not s.spell_used and s.spell[s.seat] == C.SPELL_SWITCH and SWITCH_NEIGHBOR[k // 2, k % 2] >= 0
    if action == A_FLIP:
        return flip_later_legal(s)
    return action == A_END


@njit(cache=True)
def legal_mask(s, out) -> None:
    """Fill ``out`` (bool/uint8[NUM_ACTIONS]) with the legal actions of the pending decision."""
    if not clear_mask(s, out):
        return
    if s.decision == DECISION_ORIENT:
        out[A_ORIENT : A_ORIENT + 4] = 1
        return
    if s.decision == DECISION_FLIP:
        out[A_FLIP] = 1
        out[A_LEAVE] = 1
        return
    out[A_END] = 1
    if flip_later_legal(s):
        out[A_FLIP] = 1
    if not s.push_used:
        for a in range(C.NUM_ARROWS):
            if push_legal(s, a):
                out[A_PUSH + 4 * a : A_PUSH + 4 * a + 4] = 1
    if s.moves_left > 0:
        for cell in range(NUM_CELLS):
            if move_legal(s, cell):
                out[A_MOVE + cell] = 1
    if not s.spell_used:
        sp = s.spell[s.seat]
        if sp == C.SPELL_ROTATE:
            for cell in LOOSE_CELLS:
                if not s.tile_down[s.cell_tile[cell]]:
                    out[A_ROTATE + 3 * cell : A_ROTATE + 3 * cell + 3] = 1
        elif sp == C.SPELL_SWITCH:
            for k in range(NUM_CELLS * 2):
                if SWITCH_NEIGHBOR[k // 2, k % 2] >= 0:
                    out[A_SWITCH + k] = 1


@njit(cache=True)
def step(s, action: int) -> bool:
    """Apply one action and everything automatic after it. Returns False, changing
    nothing, if the action is not legal now."""
    if not is_legal(s, action):
        return False
    clear_events(s)
    seat = s.seat
    if s.decision == DECISION_ORIENT:
        cell = s.flip_cell
        tile = s.cell_tile[cell]
        orientation = action - A_ORIENT
        s.tile_down[tile] = 0
        s.tile_rot[tile] = orientation
        s.decision = DECISION_MAIN
        s.flip_cell = -1
        refresh_board(s)
        emit(s, EV_FLIP_UP, seat, cell, tile, orientation)
        try_collect(s, seat, cell)
    elif s.decision == DECISION_FLIP:
        if action == A_FLIP:
            turn_face_up(s)
        else:  # l.164 "you can flip": the piece stays on the tile, left face down
            emit(s, EV_LEAVE_DOWN, seat, s.flip_cell, s.cell_tile[s.flip_cell])
            s.decision = DECISION_MAIN
            s.flip_cell = -1
    elif action < A_MOVE:
        arrow = (action - A_PUSH) // 4
        orientation = (action - A_PUSH) % 4
        s.tile_rot[s.spare] = orientation
        out_tile = insert_spare(s, arrow)
        s.push_used = 1
        emit(s, EV_PUSH, seat, arrow, orientation, out_tile)
        shift_pieces(s, arrow, True)
        refresh_board(s)
    elif action < A_ROTATE:
        dest = action - A_MOVE
        used_spell = s.reach[dest] == 2
        if used_spell:
            s.spell_used = 1
        emit(s, EV_MOVE, seat, s.piece[seat], dest, 1 if used_spell else 0)
        s.piece[seat] = dest
        s.moves_left -= 1
        if s.passage[dest] == ENTER_ONLY:
            # Stopped on a face-down tile (l.162). Flipping it is the player's choice
            # (l.164 "you can flip the tile face up"), except after re-entering the maze
            # onto it with Escape (l.221 "you must then stop moving and flip the tile face
            # up as normal"): a face-down edge tile reached only with that spell.
            s.flip_cell = dest
            if used_spell and s.spell[seat] == C.SPELL_ESCAPE and IS_EDGE_CELL[dest]:
                turn_face_up(s)
            else:
                s.decision = DECISION_FLIP
        else:
            try_collect(s, seat, dest)
    elif action == A_FLIP:  # the flip left for later (``flip_later_legal``)
        s.flip_cell = s.piece[seat]
        turn_face_up(s)
    elif action < A_SWITCH:
        k = action - A_ROTATE
        cell, steps = k // 3, k % 3 + 1
        tile = s.cell_tile[cell]
        s.tile_rot[tile] = (s.tile_rot[tile] + steps) % 4
        s.spell_used = 1
        emit(s, EV_ROTATE, seat, cell, steps)
        refresh_board(s)
    elif action < A_ORIENT:
        k = action - A_SWITCH
        a, b = k // 2, SWITCH_NEIGHBOR[k // 2, k % 2]
        t = s.cell_tile[a]
        s.cell_tile[a] = s.cell_tile[b]
        s.cell_tile[b] = t
        for p in range(s.num_players):  # pieces move with their tiles
            if s.piece[p] == a:
                s.piece[p] = b
            elif s.piece[p] == b:
                s.piece[p] = a
        s.spell_used = 1
        emit(s, EV_SWITCH, seat, a, b)
        refresh_board(s)
    else:
        end_turn(s)
    settle(s)
    return True


returns = team_returns


@njit(cache=True)
def treasure_visible(s, tile: int) -> bool:
    return not s.tile_down[tile] or s.public_memory != 0


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """Fill ``out`` (float32[OBS_SIZE], or [OBS_SIZE_LOOKAHEAD] with the ``lookahead``
    option) with what ``seat`` may know, egocentric: relative seat 0 is ``seat``, then the
    others in turn order. Face-down tiles show no paths and, unless public memory is on,
    no treasure; the decks' orders never appear. The lookahead block is filled for the
    seat to act only (zeros for the others)."""
    out[:] = 0.0
    n = s.num_players
    rel = np.empty(NUM_SEATS, dtype=np.int64)  # absolute seat -> relative seat
    for p in range(NUM_SEATS):
        rel[p] = (p - seat) % n if p < n else -1
    wanted_by = np.full(NUM_TREASURES, -1, dtype=np.int64)
    for p in range(n):
        for k in range(2):
            if s.slots[p, k] >= 0:
                wanted_by[s.slots[p, k]] = rel[p]
    for cell in range(NUM_CELLS):
        tile = s.cell_tile[cell]
        if IS_FIXED_CELL[cell]:
            out[P_FIXED * NUM_CELLS + cell] = 1.0
        elif s.tile_down[tile]:
            out[P_DOWN * NUM_CELLS + cell] = 1.0
        else:
            out[P_LOOSE_UP * NUM_CELLS + cell] = 1.0
        m = s.open[cell]
        for d in range(4):
            if (m >> d) & 1:
                out[(P_OPEN + d) * NUM_CELLS + cell] = 1.0
        tr = TILE_TREASURE[tile]
        if tr >= 0 and not s.collected[tr] and treasure_visible(s, tile):
            out[(P_TREASURE + tr) * NUM_CELLS + cell] = 1.0
            if wanted_by[tr] >= 0:
                out[(P_WANTED + wanted_by[tr]) * NUM_CELLS + cell] = 1.0
            else:
                out[P_UNCLAIMED * NUM_CELLS + cell] = 1.0
    for p in range(n):
        out[(P_PIECE + rel[p]) * NUM_CELLS + s.piece[p]] = 1.0
        out[(P_HOME + rel[p]) * NUM_CELLS + HOME_CELLS[p]] = 1.0
    # the spare lies face up beside the maze
    spare_mask = ROTATE_SQUARE[TILE_SHAPE[s.spare], s.tile_rot[s.spare]]
    for d in range(4):
        if (spare_mask >> d) & 1:
            out[OBS_SPARE + d] = 1.0
    tr = TILE_TREASURE[s.spare]
    if tr >= 0 and not s.collected[tr]:
        out[OBS_SPARE + 4 + tr] = 1.0
        if wanted_by[tr] >= 0:
            out[OBS_SPARE + 4 + NUM_TREASURES + wanted_by[tr]] = 1.0
    for p in range(n):
        base = OBS_SEATS + rel[p] * SEAT_SIZE
        out[base] = 1.0
        if p == s.seat and s.outcome == RUNNING:
            out[base + 1] = 1.0
        for k in range(2):
            if s.slots[p, k] >= 0:
                out[base + 2 + k * NUM_TREASURES + s.slots[p, k]] = 1.0
        out[base + 2 + 2 * NUM_TREASURES + s.spell[p]] = 1.0
    g = OBS_GLOBAL
    if s.outcome == RUNNING:
        out[g + G_DECISION + s.decision] = 1.0
    out[g + G_FLAGS] = s.push_used
    out[g + G_FLAGS + 1] = s.spell_used
    out[g + G_FLAGS + 2] = 1.0 if s.moves_left > 0 else 0.0
    out[g + G_FLAGS + 3] = 1.0 if s.collected_this_turn >= 1 else 0.0
    out[g + G_FLAGS + 4] = 1.0 if s.collected_this_turn >= 2 else 0.0
    out[g + G_VARIANT + s.variant] = 1.0
    out[g + G_MEMORY] = s.public_memory
    left = s.num_pages - s.page_pos
    out[g + G_PAGES] = left / s.num_pages
    for i in range(s.page_pos, s.num_pages):  # the remaining mix is public, its order is not
        out[g + G_PAGES + 1 + s.pages[i, 0]] += 1.0 / s.num_pages
    out[g + G_TREASURES] = (NUM_TREASURES - s.treasure_pos) / NUM_TREASURES
    out[g + G_TREASURES + 1] = s.num_collected / NUM_TREASURES
    for t in range(NUM_TREASURES):
        out[g + G_COLLECTED + t] = s.collected[t]
    last = s.pages[s.page_pos - 1]
    out[g + G_LAST_PAGE + last[0]] = 1.0
    if last[0] == C.PAGE_PUSH:
        out[g + G_LAST_PAGE + 3 + last[1]] = 1.0
    if s.options[OPT_LOOKAHEAD] and seat == s.seat and out.shape[0] >= OBS_SIZE_LOOKAHEAD:
        lookahead(s, out[OBS_SIZE:])


# --- what a seat knows of its targets, and the lookahead features --------------------------
@njit(cache=True)
def manhattan(a: int, b: int) -> int:
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


@njit(cache=True)
def hidden_wanted(s, seat: int) -> bool:
    """Whether a treasure ``seat`` may collect must lie under a face-down tile, judged from
    the face-up tiles only (always False with public memory, where nothing is hidden)."""
    if s.public_memory:
        return False
    for p in range(s.num_players):
        for k in range(2):
            t = s.slots[p, k]
            if t < 0 or claimable_from(s, seat, t) < 0:
                continue
            seen = TILE_TREASURE[s.spare] == t  # the spare always lies face up
            for cell in range(NUM_CELLS):
                tile = s.cell_tile[cell]
                if not s.tile_down[tile] and TILE_TREASURE[tile] == t:
                    seen = True
                    break
            if not seen:
                return True
    return False


@njit(cache=True)
def target_kind(s, seat: int, cell: int, hidden: bool) -> int:
    """SURE_TARGET: a treasure ``seat`` may collect, visible to everyone; MAYBE_TARGET: a
    face-down tile that may hide one (``hidden`` from ``hidden_wanted``)."""
    tile = s.cell_tile[cell]
    if s.tile_down[tile] and not s.public_memory:
        return MAYBE_TARGET if hidden else NOT_TARGET
    if claimable_from(s, seat, TILE_TREASURE[tile]) >= 0:
        return SURE_TARGET
    return NOT_TARGET


@njit(cache=True)
def target_distances(s, seat: int, hidden: bool, kind, dist) -> None:
    """``kind[cell]`` from ``target_kind`` and ``dist[cell]`` the Manhattan distance to the
    nearest target (MAX_DIST + 1 without one): two chamfer passes over the grid, exact
    for the Manhattan metric, instead of a cells x targets loop per simulated action."""
    for cell in range(NUM_CELLS):
        kind[cell] = target_kind(s, seat, cell, hidden)
        dist[cell] = 0 if kind[cell] != NOT_TARGET else MAX_DIST + 1
    for cell in range(NUM_CELLS):
        r, c = cell // SIZE, cell % SIZE
        if r > 0:
            dist[cell] = min(dist[cell], dist[cell - SIZE] + 1)
        if c > 0:
            dist[cell] = min(dist[cell], dist[cell - 1] + 1)
    for cell in range(NUM_CELLS - 1, -1, -1):
        r, c = cell // SIZE, cell % SIZE
        if r < SIZE - 1:
            dist[cell] = min(dist[cell], dist[cell + SIZE] + 1)
        if c < SIZE - 1:
            dist[cell] = min(dist[cell], dist[cell + 1] + 1)


@njit(cache=True)
def closeness(distance: int) -> float:
    return (MAX_DIST + 1 - distance) / (MAX_DIST + 1)


@njit(cache=True)
def position_features(s, seat: int, hidden: bool, kind, dist, out, at: int) -> None:
    """The lookahead features of position ``s`` (its ``reach`` up to date) at ``out[at:]``."""
    target_distances(s, seat, hidden, kind, dist)
    sure = maybe = reached = 0
    best = MAX_DIST + 1
    for cell in range(NUM_CELLS):
        if s.reach[cell] > 0:
            reached += 1
            sure += kind[cell] == SURE_TARGET
            maybe += kind[cell] == MAYBE_TARGET
            best = min(best, dist[cell])
    out[at + LF_SURE] = min(sure, 2) / 2.0
    out[at + LF_MAYBE] = min(maybe, 2) / 2.0
    out[at + LF_CLOSENESS] = closeness(best)
    out[at + LF_REACH] = reached / NUM_CELLS
    out[at + LF_SIMULATED] = 1.0


@njit(cache=True)
def flip_features(s, cell: int, stand: int, work, kind, dist, out) -> None:
    """The features of ``A_FLIP`` for the face-down tile at ``cell`` under the seat's piece:
    those of action ``stand`` (the position as it stands, already filled), raised to the
    best orientation's, which is replayed only when the tile is public memory."""
    F = LOOKAHEAD_FEATURES
    at = A_FLIP * F
    copy_into(out[at:], out[stand * F :], F)
    if not s.public_memory:
        return
    seat = s.seat
    best = np.zeros(F, dtype=out.dtype)
    for o in range(4):  # as the orientation branch of ``step`` would, minus an end of turn
        work[0] = s
        w = work[0]
        w.tile_down[w.cell_tile[cell]] = 0
        w.tile_rot[w.cell_tile[cell]] = o
        w.decision = DECISION_MAIN
        w.flip_cell = -1
        refresh_board(w)
        try_collect(w, seat, cell)
        compute_reach(w)
        position_features(w, seat, hidden_wanted(w, seat), kind, dist, best, 0)
        for f in range(LF_SIMULATED):  # lexicographic: sure, maybe, closeness, reach
            if best[f] != out[at + f]:
                if best[f] > out[at + f]:
                    copy_into(out[at:], best, F)
                break


@njit(cache=True)
def lookahead(s, out) -> None:
    """Per action of the seat to act, ``LOOKAHEAD_FEATURES`` numbers at
    ``out[action * LOOKAHEAD_FEATURES:]`` (``out`` zeroed): how many of its treasures
    (sure, and face-down tiles that may hide one) would lie within reach, how close the
    reachable area would come to the nearest one, how large it would be, and whether the
    action was simulated. A move is scored by its destination; a Push, Rotate or Switch
    spell, the orientation of a flipped tile, and a flip (``flip_features``), by replaying
    it on a copy. Spells are
    replayed only while a move is left, so no replay ends the turn and turns a hidden
    Daedalus page; a push neither reveals nor hides a tile (the spare lies face up, and a
    face-down tile cannot be pushed out), so everything used is public."""
    if s.outcome != RUNNING:
        return
    seat = s.seat
    work = np.empty(1, dtype=STATE_DTYPE)
    kind = np.empty(NUM_CELLS, dtype=np.int64)
    dist = np.empty(NUM_CELLS, dtype=np.int64)
    F = LOOKAHEAD_FEATURES
    if s.decision == DECISION_ORIENT:
        cell = s.flip_cell
        tile = s.cell_tile[cell]
        for o in range(4):  # as ``step`` would, minus an end of turn
            work[0] = s
            w = work[0]
            w.tile_down[tile] = 0
            w.tile_rot[tile] = o
            w.decision = DECISION_MAIN
            w.flip_cell = -1
            refresh_board(w)
            try_collect(w, seat, cell)
            compute_reach(w)
            position_features(w, seat, hidden_wanted(w, seat), kind, dist, out, (A_ORIENT + o) * F)
        return
    if s.decision == DECISION_FLIP:
        # leaving the tile: the position as it stands; flipping it: see ``flip_features``
        position_features(s, seat, hidden_wanted(s, seat), kind, dist, out, A_LEAVE * F)
        flip_features(s, s.flip_cell, A_LEAVE, work, kind, dist, out)
        return
    hidden = hidden_wanted(s, seat)
    position_features(s, seat, hidden, kind, dist, out, A_END * F)  # as things stand
    if s.moves_left <= 0:
        return
    if flip_later_legal(s):
        flip_features(s, s.piece[seat], A_END, work, kind, dist, out)
    for cell in range(NUM_CELLS):
        if move_legal(s, cell):
            at = (A_MOVE + cell) * F
            out[at + LF_SURE] = 1.0 if kind[cell] == SURE_TARGET else 0.0
            out[at + LF_MAYBE] = 1.0 if kind[cell] == MAYBE_TARGET else 0.0
            out[at + LF_CLOSENESS] = closeness(dist[cell])
            out[at + LF_SIMULATED] = 1.0
    for a in range(NUM_ACTIONS):
        if (a < A_MOVE or A_ROTATE <= a < A_ORIENT) and is_legal(s, a):
            work[0] = s
            step(work[0], a)
            position_features(work[0], seat, hidden, kind, dist, out, a * F)


@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample, in place, what nobody at the table has seen: which cards the unread
    Daedalus pages are and their order, and the order of the treasure deck. Every tile in
    the maze was seen face up and every change to it since was public (l.174: "try to
    remember where treasures are hidden"), so face-down tiles stay where they are, with or
    without the ``public_memory`` option (which only changes the observation). ``s``
    should be a copy. The result depends only on public history and ``seed`` (searches
    that determinize cannot leak the true order)."""
    rng = private_dice(seed)
    resample_unread_pages(s, rng)
    shuffle_unknown(rng, s.treasure_deck[s.treasure_pos :])
    reseed(s, rng)
    refresh_board(s)
    if s.outcome == RUNNING and s.decision == DECISION_MAIN:
        compute_reach(s)


@njit(cache=True)
def unseen(s, seat: int, out) -> None:
    """The contract's account of what ``seat`` cannot see: the sets ``determinize``
    resamples, which nobody at the table has seen (the same for every seat and
    ``NO_SEAT``): the unread Daedalus pages and the treasure deck. The arrangements are
    counted for the treasure deck only: the unread pages are a choice the read ones
    constrain (``resample_unread_pages``), not counted here, so while any is unread
    ``out[1]`` is nan. Face-down tiles are not in it: everyone saw them face up."""
    out[:] = 0.0
    tally_unseen(out, s.treasure_deck[s.treasure_pos :])
    unread = s.num_pages - s.page_pos
    if unread > 0:
        out[0] += unread
        out[1] = np.nan


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): the share of treasures collected, a
    potential the whole team shares. 0 once the game is won or lost, so the shaping of a
    decided game sums to -potential(start) = 0 and does not change which policies are
    best; a truncated game keeps its position's value."""
    if s.outcome == WON or s.outcome == LOST:
        return 0.0
    return s.num_collected / NUM_TREASURES


# the progress the self-play learner reads: here the shaping potential itself
progress = shaping_potential
