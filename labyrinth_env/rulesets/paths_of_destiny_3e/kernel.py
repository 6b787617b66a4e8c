"""Paths of Destiny (3rd edition) kernel: the base game as numba functions over one state
record (``STATE_DTYPE``). Kernel contract: see DESIGN.md.

The turn is a sequence of decisions. Resolving an activity can stop for a decision of
any seat (a reroll with the Crystal of Fate, the victim's choice of Poisoned Spears, a
free attack, the winner's push direction, ...). What is being resolved lives in the state
(the exploration stack, the check in progress, the Golem steps left, queued Golem checks
and deaths), and ``advance`` carries on from there once the decision is made, so every
step is a pure function of the record and the action.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from labyrinth_env.core import hexboard, kernel_common
from labyrinth_env.core.contract import (  # noqa: F401 (outcome codes and to_act: the kernel's are the contract's)
    LOST,
    RUNNING,
    TRUNCATED,
    WON,
    declare_winner,
    next_turn,
    set_decision,
    start_record,
    state_dtype,
    to_act,
    winner_returns,
)
from labyrinth_env.core.corridors import corridor_across, open_reach
from labyrinth_env.core.events import clear_events, emit
from labyrinth_env.core.grid import HEX_CENTER, HEX_DELTAS, HEX_INDEX
from labyrinth_env.core.hexboard import (
    FRAME_NEIGHBORS,
    any_buildable,
    at_start,
    move_target,
    occupants,
    start_node,
)
from labyrinth_env.core.hexboard import KEY_CELLS as _KEY_CELLS
from labyrinth_env.core.hexboard import NUM_BOARD as _NUM_BOARD
from labyrinth_env.core.hexboard import NUM_CELLS as _NUM_CELLS
from labyrinth_env.core.hexboard import START_CELL as _START_CELL
from labyrinth_env.core.kernel_common import can_crystal, deal_shuffled, keys_held, shuffle_unknown
from labyrinth_env.core.rng import randint, roll_2d6, shuffle
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

# --- geometry: 37 board cells, then the 6 starting spaces of the frame -----------------
MC = C.MAX_CORRIDORS
# (the board with its frame, shared with the 2011 edition: labyrinth_env.core.hexboard)
NUM_BOARD = _NUM_BOARD
NUM_SEATS = 6
START_CELL = _START_CELL  # starting space i is cell START_CELL + i
NUM_CELLS = _NUM_CELLS
NUM_NODES = NUM_CELLS * MC
NUM_BOARD_NODES = NUM_BOARD * MC
KEY_CELLS = _KEY_CELLS  # key space i: the corner in direction i from the centre
KEY_NODES = KEY_CELLS * MC  # the key space's one corridor (corridor 0 of its cell)
NEIGHBORS = FRAME_NEIGHBORS  # the hexagon's neighbours, each key space joined to its starting space
# 2-player variant (reconstructed): the central space one step from the middle in
# direction 1, between the two players' key spaces 0 and 2.
VARIANT_CENTER = HEX_INDEX[(int(HEX_DELTAS[1, 0]), int(HEX_DELTAS[1, 1]))]
VARIANT_SEATS = np.array([0, 2], dtype=np.int64)

TILE_MASK = C.TILE_CORRIDOR_MASK.copy()
TILE_LEVEL = C.TILE_CORRIDOR_LEVEL.copy()
TILE_ICON = C.TILE_CORRIDOR_ICON.copy()
TILE_PAIR = C.TILE_BRIDGE_PAIR.copy()
NUM_NORMAL_TILES = 30
NUM_TILES = C.NUM_TILES
NUM_TRAPS = C.NUM_TRAPS
NUM_TRAP_TYPES = C.NUM_TRAP_TYPES
NUM_ITEMS = C.NUM_ITEMS
NUM_EVENTS = C.NUM_EVENTS
NUM_GOLEM_CARDS = C.NUM_GOLEM_CARDS
NUM_KEYS = C.NUM_KEYS
LIFE = C.LIFE
TRAP_TOKENS = C.TRAP_TOKENS.astype(np.int64)
TRAP_ROLLS = C.TRAP_ROLLS.astype(np.int64)
TRAP_DIFFICULTY = C.TRAP_DIFFICULTY.astype(np.int64)
TRAP_EFFECT = C.TRAP_EFFECT.astype(np.int64)
TRAP_PARAM = C.TRAP_PARAM.astype(np.int64)
ITEM_ATTACK = C.ITEM_ATTACK_BONUS.astype(np.int64)
ITEM_DEFEND = C.ITEM_DEFEND_BONUS.astype(np.int64)
ITEM_JUMP = C.ITEM_JUMP_BONUS.astype(np.int64)
ITEM_TRAP = C.ITEM_TRAP_BONUS.astype(np.int64)
ITEM_GOLEM = C.ITEM_GOLEM_BONUS.astype(np.int64)
ITEM_SPECIAL = C.ITEM_SPECIAL.astype(np.int64)
EVENT_ONCE = C.EVENT_ONCE.astype(np.int64)
EVENT_ONCE_PARAM = C.EVENT_ONCE_PARAM.astype(np.int64)
EVENT_LONG = C.EVENT_LONG.astype(np.int64)
EVENT_LONG_PARAM = C.EVENT_LONG_PARAM.astype(np.int64)
GOLEM_KIND = C.GOLEM_CARD_KIND.astype(np.int64)
GOLEM_STEPS = C.GOLEM_CARD_STEPS.astype(np.int64)
SEATINGS = np.full((7, NUM_SEATS), -1, dtype=np.int64)
for _n, _seats in C.START_SEATS.items():
    SEATINGS[_n, : len(_seats)] = _seats

# options vector
OPT_PLAYERS, OPT_VARIANT, OPT_MAX_TURNS, OPT_CRYSTAL = 0, 1, 2, 3
NUM_OPTIONS = 8

# --- actions ------------------------------------------------------------------------------
A_BUILD = 0
A_MOVE = 1  # + direction (6)
A_RISKY_JUMP = 7
A_SAFE_JUMP = 8
A_REST = 9
A_ATTACK = 10  # + (offset - 1): the character `offset` seats after you (5)
A_SET_TRAP = 15  # + board corridor node (111)
A_MOVE_GOLEM = A_SET_TRAP + NUM_BOARD_NODES
A_EVENT = A_MOVE_GOLEM + 1
A_ACTIVATE_CRYSTAL = A_EVENT + 1
A_USE_POTION = A_ACTIVATE_CRYSTAL + 1
A_END_TURN = A_USE_POTION + 1
A_PLACE = A_END_TURN + 1  # + cell * 6 + rotation (222)
A_GOLEM_DIR = A_PLACE + NUM_BOARD * 6  # + direction (6)
A_KEEP = A_GOLEM_DIR + 6  # keep the roll
A_REROLL = A_KEEP + 1  # reroll with the Crystal of Fate
A_SCEPTER_NO = A_REROLL + 1
A_SCEPTER_YES = A_SCEPTER_NO + 1
A_LOSE_LIFE = A_SCEPTER_YES + 1  # Poisoned Spears and the like: per failed roll
A_TAKE_STUN = A_LOSE_LIFE + 1
A_FREE_ATTACK = A_TAKE_STUN + 1  # + (offset - 1) (5)
A_DECLINE = A_FREE_ATTACK + 5  # forgo a free attack
A_COUNTER = A_DECLINE + 1  # an occupant attacks the character that entered
A_PUSH_DIR = A_COUNTER + 1  # + direction (6)
A_PICK_KEY = A_PUSH_DIR + 6  # + key (6)
A_PICK_ITEM = A_PICK_KEY + NUM_KEYS  # + item (15)
A_EXCHANGE = A_PICK_ITEM + NUM_ITEMS  # + item * 2 + carried slot (30)
A_PICKUP_DONE = A_EXCHANGE + NUM_ITEMS * 2
A_EVENT_TARGET = A_PICKUP_DONE + 1  # + offset 0..5 (yourself = 0)
A_DROP_ITEM = A_EVENT_TARGET + NUM_SEATS  # + carried slot (2)
NUM_ACTIONS = A_DROP_ITEM + 2

# --- decisions -------------------------------------------------------------------------------
D_MAIN, D_PLACE, D_GOLEM_DIR, D_REROLL, D_SCEPTER, D_LIFE_OR_STUN = 0, 1, 2, 3, 4, 5
D_FREE_ATTACK, D_COUNTER, D_PUSH_DIR, D_PICKUP, D_EVENT_TARGET, D_DROP_ITEM = 6, 7, 8, 9, 10, 11
NUM_DECISIONS = 12
DECISIONS = (
    "activity",
    "place the drawn tile",
    "Golem direction",
    "reroll with the Crystal of Fate?",
    "use the Scepter of Control?",
    "lose 1 Life or take 1 stun token",
    "free attack or decline",
    "attack the character that entered?",
    "push the loser out of the central space",
    "pick up keys and items",
    "choose a character for the event",
    "item to drop",
)

# checks in progress
CK_NONE, CK_JUMP, CK_GOLEM, CK_TRAP, CK_COMBAT = 0, 1, 2, 3, 4
MAX_DEPTH = 6

# events: (type, seat, a, b, c, d)
EV_FIRST_PLAYER = 1  # seat, roll
EV_START_TURN = 2  # seat, turn
EV_BUILD = 3  # seat, tile, cell, rotation
EV_BUILD_NOWHERE = 4  # seat, tile (no legal place: back to the bottom of the pool)
EV_TRAP_PLACED = 5  # seat, node (face down)
EV_ITEM_PLACED = 6  # seat, item, node
EV_MOVE = 7  # seat, from node, to node
EV_JUMP = 8  # seat, roll, success, risky (1) / safe (0)
EV_REST = 9  # seat, stun left
EV_TRAP_REVEALED = 10  # seat, node, trap type
EV_TRAP_CHECK = 11  # seat, trap type, failed rolls, rolls
EV_GOLEM_CHECK = 12  # seat, roll, success
EV_COMBAT = 13  # attacker, defender, attacker total, defender total
EV_LIFE = 14  # seat, change, life after
EV_STUN = 15  # seat, change, stun after
EV_DEATH = 16  # seat, node
EV_DROP = 17  # seat, kind (0 key, 1 item), id, node
EV_TO_START = 18  # seat, from node
EV_PICK_UP = 19  # seat, kind (0 key, 1 item), id
EV_EXCHANGE = 20  # seat, item taken, item left
EV_GOLEM_CARD = 21  # seat, kind, steps
EV_GOLEM_MOVE = 22  # -1, from, to
EV_EVENT = 23  # seat, event
EV_REROLL = 24  # seat, check kind
EV_CRYSTAL = 25  # seat, active after
EV_PUSHED_OUT = 26  # seat, from, to
EV_WIN = 27  # seat
EV_TRUNCATED = 28
EV_SCEPTER = 29  # seat
EV_HEART = 30  # seat
EV_POTION = 31  # seat
MAX_EVENTS = 64

STATE_DTYPE = state_dtype(
    NUM_OPTIONS,
    MAX_EVENTS,
    [
        ("variant", np.int8),
        ("ask_crystal", np.int8),
        ("center_cell", np.int8),
        ("seat_start", np.int8, (NUM_SEATS,)),
        # board
        *hexboard.BOARD_FIELDS,
        # pools and decks
        ("tile_pool", np.int8, (NUM_NORMAL_TILES,)),
        ("tile_pool_len", np.int8),
        ("drawn_tile", np.int8),
        ("trap_pool", np.int8, (NUM_TRAPS,)),
        ("trap_pool_len", np.int16),
        ("item_pool", np.int8, (NUM_ITEMS,)),
        ("item_pool_len", np.int8),
        ("item_node", np.int16, (NUM_ITEMS,)),
        ("golem_deck", np.int8, (NUM_GOLEM_CARDS,)),
        ("golem_pos", np.int8),
        ("event_deck", np.int8, (NUM_EVENTS,)),
        ("event_pos", np.int8),
        ("current_event", np.int8),
        # tokens and pieces
        ("key_node", np.int16, (NUM_KEYS,)),
        ("key_holder", np.int8, (NUM_KEYS,)),
        ("key_dropped_by", np.int8, (NUM_KEYS,)),
        ("golem_node", np.int16),
        ("golem_from", np.int16),
        ("golem_from_turn", np.int32),
        ("position", np.int16, (NUM_SEATS,)),
        ("life", np.int8, (NUM_SEATS,)),
        ("stun", np.int8, (NUM_SEATS,)),
        ("crystal", np.int8, (NUM_SEATS,)),
        ("character", np.int8, (NUM_SEATS,)),
        ("items", np.int8, (NUM_SEATS, 2)),
        # the turn
        ("actions_left", np.int8),
        ("golem_used", np.int8),
        ("event_used", np.int8),
        ("exchanged", np.uint16),
        # what is being resolved
        ("depth", np.int8),
        ("ex_seat", np.int8, (MAX_DEPTH,)),
        ("ex_node", np.int16, (MAX_DEPTH,)),
        ("ex_step", np.int8, (MAX_DEPTH,)),
        ("ex_pickup", np.int8, (MAX_DEPTH,)),
        ("ex_ignore_trap", np.int8, (MAX_DEPTH,)),
        ("ex_done", np.uint8, (MAX_DEPTH,)),  # seats already fought or passed
        ("ex_phase", np.int8, (MAX_DEPTH,)),
        ("ex_order", np.int8, (MAX_DEPTH, NUM_SEATS)),
        ("ck_kind", np.int8),
        ("ck_seat", np.int8),
        ("ck_opp", np.int8),
        ("ck_a", np.int16),
        ("ck_b", np.int16),
        ("golem_steps", np.int8),
        ("golem_checks", np.uint8),
        ("dying", np.uint8),
        ("choices_left", np.int8),
        ("push_from", np.int16),
        # scratch for searches
        *hexboard.SEARCH_FIELDS,
    ],
)


# --- small queries ----------------------------------------------------------------------------
@njit(cache=True)
def center_node(s) -> int:
    return s.center_cell * MC


@njit(cache=True)
def key_node(key: int) -> int:
    return KEY_CELLS[key] * MC


@njit(cache=True)
def max_life(s) -> int:
    e = s.current_event
    if e >= 0 and EVENT_LONG[e] == C.LONG_MAX_LIFE:
        return min(LIFE, EVENT_LONG_PARAM[e])
    return LIFE


@njit(cache=True)
def event_mod(s, long_kind: int) -> int:
    e = s.current_event
    if e >= 0 and EVENT_LONG[e] == long_kind:
        return EVENT_LONG_PARAM[e]
    return 0


@njit(cache=True)
def item_sum(s, seat: int, table) -> int:
    total = 0
    for j in range(2):
        it = s.items[seat, j]
        if it >= 0:
            total += table[it]
    return total


@njit(cache=True)
def holds_special(s, seat: int, special: int) -> int:
    """The slot holding an item with ``special``, or -1."""
    for j in range(2):
        it = s.items[seat, j]
        if it >= 0 and ITEM_SPECIAL[it] == special:
            return j
    return -1


# --- board building -----------------------------------------------------------------------------
@njit(cache=True)
def set_tile(s, cell: int, tile: int, rot: int) -> None:
    hexboard.lay_tile(s, cell, tile, rot, TILE_MASK, TILE_LEVEL, TILE_PAIR)


clear_cell = hexboard.clear_cell  # lifts a tile again (trying every placement, in the tests)


@njit(cache=True)
def targets_connected(s, skip_cell: int) -> bool:
    """The central space and all six key spaces still connect (through corridors,
    bridges and empty cells that a future tile may fill)."""
    open_reach(s.node_mask, s.node_pair, s.cell_built, NEIGHBORS, MC, center_node(s), skip_cell, s.reach, s.queue)
    for k in range(NUM_KEYS):
        if not s.reach[key_node(k)]:
            return False
    return True


@njit(cache=True)
def buildable_cell(s, cell: int) -> bool:
    return hexboard.touches_board(s.cell_built, cell)


@njit(cache=True)
def compute_placements(s, tile: int) -> int:
    """Fill ``place_ok`` for the drawn tile; returns how many placements are legal.
    Only a cell that is critical (its loss as an open space would cut the central space
    off from a key space) needs each rotation tried; elsewhere a tile can only add ways,
    so every rotation is legal."""
    s.place_ok[:] = 0
    critical = np.empty(NUM_CELLS, dtype=np.bool_)
    tree = hexboard.new_tree()
    hexboard.critical_cells(s, center_node(s), KEY_NODES, critical, tree)
    count = hexboard.place_freely(s, critical)
    for cell in range(NUM_BOARD):
        if critical[cell] and hexboard.touches_board(s.cell_built, cell):
            # what targets_connected would find with the tile laid, from one labelling of
            # the board around the cell instead of a search per rotation
            hexboard.label_cut(s, cell, tree)
            for r in range(6):
                joins = hexboard.tile_joins(s, cell, TILE_MASK[tile], TILE_PAIR[tile], r)
                if keys_joined(s, joins):
                    s.place_ok[cell * 6 + r] = 1
                    count += 1
    return count


@njit(cache=True)
def keys_joined(s, joins: int) -> bool:
    for k in range(NUM_KEYS):
        if not hexboard.joined(s, joins, key_node(k)):
            return False
    return True


@njit(cache=True)
def draw_trap(s) -> int:
    if s.trap_pool_len <= 0:
        return -1
    s.trap_pool_len -= 1
    return s.trap_pool[s.trap_pool_len]


@njit(cache=True)
def return_item(s, item: int) -> None:
    """An item leaves the game board or a character: back into the pool, shuffled in."""
    s.item_node[item] = -1
    n = s.item_pool_len
    s.item_pool[n] = item
    j = randint(s.rng, n + 1)
    s.item_pool[n], s.item_pool[j] = s.item_pool[j], s.item_pool[n]
    s.item_pool_len = n + 1


@njit(cache=True)
def place_tile(s, cell: int, rot: int) -> None:
    seat = s.seat
    tile = s.drawn_tile
    s.drawn_tile = -1
    set_tile(s, cell, tile, rot)
    emit(s, EV_BUILD, seat, tile, cell, rot)
    for k in range(MC):
        node = cell * MC + k
        icon = TILE_ICON[tile, k]
        if icon == C.ICON_TRAP:
            t = draw_trap(s)
            if t >= 0:
                s.node_trap[node] = t
                s.trap_up[node] = 0
                emit(s, EV_TRAP_PLACED, seat, node)
        elif icon == C.ICON_CHEST and s.item_pool_len > 0:
            s.item_pool_len -= 1
            item = s.item_pool[s.item_pool_len]
            s.item_node[item] = node
            emit(s, EV_ITEM_PLACED, seat, item, node)


# --- life, stun, death -----------------------------------------------------------------------------
@njit(cache=True)
def gain_life(s, seat: int, n: int) -> None:
    before = s.life[seat]
    s.life[seat] = min(max_life(s), before + n)
    if s.life[seat] != before:
        emit(s, EV_LIFE, seat, s.life[seat] - before, s.life[seat])


@njit(cache=True)
def lose_life(s, seat: int, n: int) -> None:
    """Lose ``n`` Life; at 0 the Heart of the Abyss counts as one more, else death is queued."""
    if s.dying & (1 << seat):
        return
    life = s.life[seat] - n
    if life <= 0:
        slot = holds_special(s, seat, C.SPECIAL_HEART)
        if slot >= 0:
            item = s.items[seat, slot]
            s.items[seat, slot] = -1
            if slot == 0:  # keep the carried items packed in slot 0 first
                s.items[seat, 0] = s.items[seat, 1]
                s.items[seat, 1] = -1
            return_item(s, item)
            emit(s, EV_HEART, seat)
            life += 1
    s.life[seat] = max(life, 0)
    emit(s, EV_LIFE, seat, -n, s.life[seat])
    if life <= 0:
        s.dying |= 1 << seat


@njit(cache=True)
def add_stun(s, seat: int, n: int) -> None:
    s.stun[seat] += n
    emit(s, EV_STUN, seat, n, s.stun[seat])


@njit(cache=True)
def to_start(s, seat: int) -> None:
    emit(s, EV_TO_START, seat, s.position[seat])
    s.position[seat] = start_node(s, seat)


@njit(cache=True)
def drop_item(s, seat: int, slot: int) -> None:
    item = s.items[seat, slot]
    s.items[seat, slot] = -1
    if slot == 0:
        s.items[seat, 0] = s.items[seat, 1]
        s.items[seat, 1] = -1
    s.item_node[item] = s.position[seat]
    emit(s, EV_DROP, seat, 1, item, s.position[seat])


@njit(cache=True)
def finish_death(s, seat: int) -> None:
    """Back on the starting space with all Life; the Crystal of Fate stays as it was."""
    s.dying &= ~np.uint8(1 << seat)
    to_start(s, seat)
    s.life[seat] = max_life(s)
    s.stun[seat] = 0
    if s.choices_left > 0 and s.ck_seat == seat:  # the trap's other failed rolls die with it
        s.choices_left = 0


@njit(cache=True)
def begin_death(s, seat: int) -> bool:
    """Drop a key, else an item; True if the dying seat must choose which item."""
    node = s.position[seat]
    emit(s, EV_DEATH, seat, node)
    for k in range(NUM_KEYS):
        if s.key_holder[k] == seat:
            s.key_holder[k] = -1
            s.key_node[k] = node
            s.key_dropped_by[k] = seat
            emit(s, EV_DROP, seat, 0, k, node)
            finish_death(s, seat)
            return False
    if s.items[seat, 1] >= 0:
        return True
    if s.items[seat, 0] >= 0:
        drop_item(s, seat, 0)
    finish_death(s, seat)
    return False


# --- exploration -------------------------------------------------------------------------------------
@njit(cache=True)
def push_exploration(s, seat: int, node: int, pickup: bool, ignore_trap: bool = False) -> None:
    d = s.depth
    if d >= MAX_DEPTH:
        return  # cannot happen with 6 seats; guards the arrays
    s.ex_seat[d] = seat
    s.ex_node[d] = node
    s.ex_step[d] = 1
    s.ex_pickup[d] = 1 if pickup else 0
    s.ex_ignore_trap[d] = 1 if ignore_trap else 0
    s.ex_done[d] = 0
    s.ex_phase[d] = 0
    s.depth = d + 1


@njit(cache=True)
def enter(s, seat: int, node: int, pickup: bool, ignore_trap: bool = False) -> None:
    """Move a character onto ``node`` and explore it."""
    emit(s, EV_MOVE, seat, s.position[seat], node)
    s.position[seat] = node
    push_exploration(s, seat, node, pickup, ignore_trap)


@njit(cache=True)
def pickable_key(s, seat: int, k: int, node: int) -> bool:
    if s.key_holder[k] >= 0 or s.key_node[k] != node:
        return False
    own = key_node(s.seat_start[seat]) == node
    # your own key stays put unless another character dropped it there
    return not (own and (s.key_dropped_by[k] < 0 or s.key_dropped_by[k] == seat))


@njit(cache=True)
def items_allowed(s) -> bool:
    e = s.current_event
    return not (e >= 0 and EVENT_LONG[e] == C.LONG_NO_PICKUP_ITEMS)


@njit(cache=True)
def anything_to_pick(s, seat: int, node: int) -> bool:
    for k in range(NUM_KEYS):
        if pickable_key(s, seat, k, node):
            return True
    if items_allowed(s):
        for i in range(NUM_ITEMS):
            if s.item_node[i] == node and not (s.exchanged >> i) & 1:
                return True
    return False


@njit(cache=True)
def can_fight(s, seat: int) -> bool:
    """Stunned characters may do nothing but rest, not even a free attack."""
    return s.stun[seat] == 0 and not (s.dying >> seat) & 1


@njit(cache=True)
def explore_step(s) -> None:
    """Carry the top exploration on by one step (or until it stops for a decision)."""
    f = s.depth - 1
    seat = s.ex_seat[f]
    node = s.ex_node[f]
    if s.position[seat] != node or (s.dying >> seat) & 1:
        s.depth = f  # sent away (Golem, death, push): nothing more here
        return
    step = s.ex_step[f]
    if step == 1:  # character ability tokens: none in the base game
        s.ex_step[f] = 2
    elif step == 2:  # the Golem
        s.ex_step[f] = 3
        if s.golem_node == node:
            s.golem_checks |= np.uint8(1 << seat)
    elif step == 3:  # a trap
        s.ex_step[f] = 4
        t = s.node_trap[node]
        if t >= 0 and not s.ex_ignore_trap[f]:
            if not s.trap_up[node]:
                s.trap_up[node] = 1
                emit(s, EV_TRAP_REVEALED, seat, node, TRAP_TOKENS[t])
            begin_trap_check(s, seat, TRAP_TOKENS[t])
    elif step == 4:  # other characters: free attacks
        others = occupants(s, node, seat) & ~np.int64(s.ex_done[f])
        if s.ex_phase[f] == 0:
            if others != 0 and can_fight(s, seat):
                set_decision(s, D_FREE_ATTACK, seat)
                return
            s.ex_phase[f] = 1
            explore_counter_order(s, f)
        for i in range(NUM_SEATS):
            p = s.ex_order[f, i]
            if p < 0:
                break
            if (s.ex_done[f] >> p) & 1 or s.position[p] != node or not can_fight(s, p):
                continue
            set_decision(s, D_COUNTER, p)
            return
        s.ex_step[f] = 5
    else:  # keys and items
        if s.ex_pickup[f] and seat == s.seat and s.stun[seat] == 0 and anything_to_pick(s, seat, node):
            set_decision(s, D_PICKUP, seat)
            return
        s.depth = f


# --- checks (2d6 and the Crystal of Fate) -------------------------------------------------------------
@njit(cache=True)
def jump_total(s, seat: int) -> int:
    return roll_2d6(s.rng) + item_sum(s, seat, ITEM_JUMP) + event_mod(s, C.LONG_JUMP_MOD)


@njit(cache=True)
def golem_total(s, seat: int) -> int:
    return roll_2d6(s.rng) + item_sum(s, seat, ITEM_GOLEM) + event_mod(s, C.LONG_GOLEM_MOD)


@njit(cache=True)
def trap_failures(s, seat: int, trap_type: int) -> int:
    fails = 0
    bonus = item_sum(s, seat, ITEM_TRAP) + event_mod(s, C.LONG_TRAP_MOD)
    for _ in range(TRAP_ROLLS[trap_type]):
        if roll_2d6(s.rng) + bonus < TRAP_DIFFICULTY[trap_type]:
            fails += 1
    return fails


@njit(cache=True)
def combat_total(s, seat: int, attacking: bool) -> int:
    # the event's combat modifier goes to the attacker only: on both sides it would cancel
    if attacking:
        return roll_2d6(s.rng) + item_sum(s, seat, ITEM_ATTACK) + event_mod(s, C.LONG_COMBAT_MOD)
    return roll_2d6(s.rng) + item_sum(s, seat, ITEM_DEFEND)


@njit(cache=True)
def check_failed(s) -> bool:
    kind = s.ck_kind
    if kind == CK_JUMP:
        return s.ck_a < C.JUMP_DIFFICULTY
    if kind == CK_GOLEM:
        return s.ck_a < C.GOLEM_DIFFICULTY
    if kind == CK_TRAP:
        return s.ck_a > 0
    return False


@njit(cache=True)
def offer_reroll(s) -> bool:
    """After a failed check (or a lost combat), the owner of an active Crystal decides."""
    if s.ck_kind == CK_COMBAT:
        loser = combat_loser(s)
        if s.stun[loser] == 0 and can_crystal(s, loser):
            set_decision(s, D_REROLL, loser)
            return True
        return False
    # a stunned character may do nothing but rest, not even use its Crystal (a free activity)
    if check_failed(s) and s.stun[s.ck_seat] == 0 and can_crystal(s, s.ck_seat):
        set_decision(s, D_REROLL, s.ck_seat)
        return True
    return False


@njit(cache=True)
def begin_jump(s, seat: int, risky: bool) -> None:
    if not risky:
        finish_jump(s, seat, True, False)
        return
    s.ck_kind = CK_JUMP
    s.ck_seat = seat
    s.ck_a = jump_total(s, seat)
    emit(s, EV_JUMP, seat, s.ck_a, 1 if s.ck_a >= C.JUMP_DIFFICULTY else 0, 1)
    if not offer_reroll(s):
        resolve_check(s)


@njit(cache=True)
def finish_jump(s, seat: int, success: bool, risky: bool) -> None:
    node = s.position[seat]
    pair = s.node_pair[node]
    from_bridge = s.node_level[node] == C.BRIDGE
    if not risky:
        emit(s, EV_JUMP, seat, 0, 1, 0)
    if success:
        enter(s, seat, pair, True)
        return
    if from_bridge:  # falls to the corridor below, hurt and stunned
        emit(s, EV_MOVE, seat, node, pair)
        s.position[seat] = pair
    lose_life(s, seat, 2)
    add_stun(s, seat, 1)
    if from_bridge and not (s.dying >> seat) & 1:
        push_exploration(s, seat, pair, True)


@njit(cache=True)
def begin_golem_check(s, seat: int) -> None:
    if holds_special(s, seat, C.SPECIAL_SCEPTER) >= 0 and s.life[seat] > 0:
        s.ck_kind = CK_GOLEM
        s.ck_seat = seat
        set_decision(s, D_SCEPTER, seat)
        return
    roll_golem_check(s, seat)


@njit(cache=True)
def roll_golem_check(s, seat: int) -> None:
    s.ck_kind = CK_GOLEM
    s.ck_seat = seat
    s.ck_a = golem_total(s, seat)
    emit(s, EV_GOLEM_CHECK, seat, s.ck_a, 1 if s.ck_a >= C.GOLEM_DIFFICULTY else 0)
    if not offer_reroll(s):
        resolve_check(s)


@njit(cache=True)
def begin_trap_check(s, seat: int, trap_type: int) -> None:
    s.ck_kind = CK_TRAP
    s.ck_seat = seat
    s.ck_b = trap_type
    s.ck_a = trap_failures(s, seat, trap_type)
    emit(s, EV_TRAP_CHECK, seat, trap_type, s.ck_a, TRAP_ROLLS[trap_type])
    if not offer_reroll(s):
        resolve_check(s)


@njit(cache=True)
def combat_loser(s) -> int:
    return s.ck_opp if s.ck_a > s.ck_b else s.ck_seat


@njit(cache=True)
def roll_combat(s, reroll_seat: int) -> None:
    """Roll (or reroll one side of) a combat; ties repeat both checks."""
    att, dfn = s.ck_seat, s.ck_opp
    if s.stun[dfn] > 0:  # a stunned character loses without rolling
        s.ck_a, s.ck_b = 1, 0
    else:
        if reroll_seat < 0 or reroll_seat == att:
            s.ck_a = combat_total(s, att, True)
        if reroll_seat < 0 or reroll_seat == dfn:
            s.ck_b = combat_total(s, dfn, False)
        while s.ck_a == s.ck_b:
            s.ck_a = combat_total(s, att, True)
            s.ck_b = combat_total(s, dfn, False)
    emit(s, EV_COMBAT, att, dfn, s.ck_a, s.ck_b)


@njit(cache=True)
def begin_combat(s, attacker: int, defender: int) -> None:
    s.ck_kind = CK_COMBAT
    s.ck_seat = attacker
    s.ck_opp = defender
    roll_combat(s, -1)
    if not offer_reroll(s):
        resolve_check(s)


@njit(cache=True)
def push_options(s, node: int) -> int:
    m = 0
    cell = node // MC
    for d in range(6):
        if (s.node_mask[node] >> d) & 1:
            other = corridor_across(s.node_mask, NEIGHBORS, cell, d, MC)
            if other >= 0 and other < NUM_BOARD_NODES:
                m |= 1 << d
    return m


@njit(cache=True)
def resolve_check(s) -> None:
    """Apply the outcome of the check in progress."""
    kind = s.ck_kind
    seat = s.ck_seat
    s.ck_kind = CK_NONE
    if kind == CK_JUMP:
        finish_jump(s, seat, s.ck_a >= C.JUMP_DIFFICULTY, True)
    elif kind == CK_GOLEM:
        if s.ck_a < C.GOLEM_DIFFICULTY:
            to_start(s, seat)
    elif kind == CK_TRAP:
        fails = s.ck_a
        t = s.ck_b
        effect = TRAP_EFFECT[t]
        if fails == 0:
            return
        if effect == C.TRAP_LOSE_LIFE:
            lose_life(s, seat, fails * TRAP_PARAM[t])
        elif effect == C.TRAP_TAKE_STUN:
            add_stun(s, seat, fails * TRAP_PARAM[t])
        elif effect == C.TRAP_LIFE_OR_STUN:
            s.choices_left = fails
            s.ck_seat = seat
        elif effect == C.TRAP_BACK_TO_START:
            to_start(s, seat)
        elif effect == C.TRAP_CRYSTAL_INACTIVE:
            if s.crystal[seat]:
                s.crystal[seat] = 0
                emit(s, EV_CRYSTAL, seat, 0)
        else:
            lose_life(s, seat, fails * TRAP_PARAM[t])
            add_stun(s, seat, fails)
    elif kind == CK_COMBAT:
        loser = combat_loser(s)
        winner = s.ck_opp if loser == s.ck_seat else s.ck_seat
        node = s.position[loser]
        lose_life(s, loser, 1)
        if node == center_node(s) and not (s.dying >> loser) & 1 and push_options(s, node) != 0:
            s.push_from = node
            s.ck_seat = loser
            set_decision(s, D_PUSH_DIR, winner)


# --- the Golem ------------------------------------------------------------------------------------------
@njit(cache=True)
def golem_options(s) -> int:
    """Directions the Golem may step in: along corridors (never a bridge jump), never
    onto a starting space, never back where it came from last (unless that is all)."""
    return hexboard.wander_options(s, s.golem_node, s.golem_from, s.golem_from_turn)


@njit(cache=True)
def golem_to(s, node: int) -> None:
    emit(s, EV_GOLEM_MOVE, -1, s.golem_node, node)
    s.golem_from = s.golem_node
    s.golem_from_turn = s.turn
    s.golem_node = node
    for p in range(s.num_players):
        if s.position[p] == node:
            s.golem_checks |= np.uint8(1 << p)


@njit(cache=True)
def golem_step(s, d: int) -> None:
    cell = s.golem_node // MC
    other = corridor_across(s.node_mask, NEIGHBORS, cell, d, MC)
    s.golem_steps -= 1
    golem_to(s, other)


@njit(cache=True)
def draw_golem_card(s) -> None:
    if s.golem_pos >= NUM_GOLEM_CARDS:  # the deck is used up: reshuffle the discards
        shuffle(s.rng, s.golem_deck, NUM_GOLEM_CARDS)
        s.golem_pos = 0
    card = s.golem_deck[s.golem_pos]
    s.golem_pos += 1
    kind = GOLEM_KIND[card]
    emit(s, EV_GOLEM_CARD, s.seat, kind, GOLEM_STEPS[card])
    if kind == C.GOLEM_MOVE:
        s.golem_steps = GOLEM_STEPS[card]
    elif kind == C.GOLEM_CENTER and s.golem_node != center_node(s):
        golem_to(s, center_node(s))


# --- events ----------------------------------------------------------------------------------------------
@njit(cache=True)
def trigger_event(s) -> None:
    e = s.event_deck[s.event_pos]
    s.event_pos += 1
    s.current_event = e
    emit(s, EV_EVENT, s.seat, e)
    if EVENT_LONG[e] == C.LONG_MAX_LIFE:
        for p in range(s.num_players):
            if s.life[p] > max_life(s):
                emit(s, EV_LIFE, p, max_life(s) - s.life[p], max_life(s))
                s.life[p] = max_life(s)
    once = EVENT_ONCE[e]
    n = EVENT_ONCE_PARAM[e]
    if (
        once == C.ONCE_CHOOSE_LOSE_LIFE
        or once == C.ONCE_CHOOSE_CRYSTAL_INACTIVE
        or once == C.ONCE_CHOOSE_STUN
        or once == C.ONCE_CHOOSE_TO_START
    ):
        set_decision(s, D_EVENT_TARGET, s.seat)
    elif once == C.ONCE_ALL_LOSE_LIFE:
        for p in range(s.num_players):
            lose_life(s, p, n)
    elif once == C.ONCE_ALL_GAIN_LIFE:
        for p in range(s.num_players):
            gain_life(s, p, n)
    elif once == C.ONCE_GOLEM_TO_CENTER:
        if s.golem_node != center_node(s):
            golem_to(s, center_node(s))
            s.golem_from_turn = -10  # not a Move the Golem activity: no restriction follows
    elif once == C.ONCE_ACTIVE_GAIN_LIFE:
        gain_life(s, s.seat, n)


@njit(cache=True)
def event_on_target(s, target: int) -> None:
    e = s.current_event
    once = EVENT_ONCE[e]
    n = EVENT_ONCE_PARAM[e]
    if once == C.ONCE_CHOOSE_LOSE_LIFE:
        lose_life(s, target, n)
    elif once == C.ONCE_CHOOSE_CRYSTAL_INACTIVE:
        if s.crystal[target]:
            s.crystal[target] = 0
            emit(s, EV_CRYSTAL, target, 0)
    elif once == C.ONCE_CHOOSE_STUN:
        add_stun(s, target, n)
    elif not at_start(s, target):
        to_start(s, target)


# --- the turn ------------------------------------------------------------------------------------------------
@njit(cache=True)
def check_win(s) -> bool:
    seat = s.seat
    c = center_node(s)
    if s.position[seat] == c and keys_held(s, seat) > 0 and occupants(s, c, seat) == 0:
        declare_winner(s, seat, EV_WIN)
        return True
    return False


@njit(cache=True)
def start_turn(s) -> None:
    s.actions_left = C.ACTIONS_PER_TURN
    s.golem_used = 0
    s.event_used = 0
    s.exchanged = 0
    emit(s, EV_START_TURN, s.seat, s.turn)


@njit(cache=True)
def end_turn(s) -> None:
    if next_turn(s, EV_TRUNCATED):
        start_turn(s)


@njit(cache=True)
def golem_blocks_start(s) -> bool:
    """On the starting space with the Golem on its key space: the Golem must be moved off."""
    seat = s.seat
    return at_start(s, seat) and s.golem_node == key_node(s.seat_start[seat])


@njit(cache=True)
def any_main_action(s) -> bool:
    """Anything to do besides ending the turn (usually found within the first actions)."""
    for a in range(A_END_TURN):
        if main_legal(s, a):
            return True
    return False


@njit(cache=True)
def advance(s) -> None:
    """Resolve everything automatic until a decision is pending or the game is over."""
    while s.outcome == RUNNING:
        if s.decision != D_MAIN:
            return
        if s.dying != 0:
            for p in range(s.num_players):
                if (s.dying >> p) & 1:
                    if begin_death(s, p):
                        set_decision(s, D_DROP_ITEM, p)
                        return
                    break
            continue
        if s.choices_left > 0:
            set_decision(s, D_LIFE_OR_STUN, s.ck_seat)
            return
        if s.golem_checks != 0:
            for p in range(s.num_players):
                if (s.golem_checks >> p) & 1:
                    s.golem_checks &= ~np.uint8(1 << p)
                    if s.position[p] == s.golem_node:
                        begin_golem_check(s, p)
                    break
            continue
        if s.golem_steps > 0:
            opts = golem_options(s)
            if opts == 0:
                s.golem_steps = 0
            elif opts & (opts - 1) == 0:  # one way only: no choice to make
                d = 0
                while not (opts >> d) & 1:
                    d += 1
                golem_step(s, d)
            else:
                set_decision(s, D_GOLEM_DIR, s.seat)
                return
            continue
        if s.depth > 0:
            explore_step(s)
            continue
        if check_win(s):
            return
        if s.actions_left <= 0 or not any_main_action(s):
            end_turn(s)
            if s.outcome != RUNNING:
                return
            continue
        set_decision(s, D_MAIN, s.seat)
        return


# --- legality ------------------------------------------------------------------------------------------------
@njit(cache=True)
def trap_settable(s, node: int) -> bool:
    return hexboard.settable_corridor(s, node, s.center_cell)


@njit(cache=True)
def main_legal(s, a: int) -> bool:
    """Whether activity action ``a`` is allowed now: the one place the activity rules
    live (``main_mask`` and ``is_legal`` both ask it)."""
    if a == A_END_TURN:
        return True
    seat = s.seat
    acts = s.actions_left
    if acts <= 0:
        return False
    if s.stun[seat] > 0:  # only Rest until every stun token is gone
        return a == A_REST
    if at_start(s, seat):
        if golem_blocks_start(s):
            return a == A_MOVE_GOLEM
        # the first activity: onto the key space
        return A_MOVE <= a < A_RISKY_JUMP and move_target(s, seat, a - A_MOVE) >= 0
    if a == A_BUILD:
        return any_buildable(s)
    if a < A_RISKY_JUMP:
        return move_target(s, seat, a - A_MOVE) >= 0
    if a == A_RISKY_JUMP:
        return s.node_pair[s.position[seat]] >= 0
    if a == A_SAFE_JUMP:
        return acts >= 2 and s.node_pair[s.position[seat]] >= 0
    if a == A_REST:
        return False
    if a < A_SET_TRAP:
        off = a - A_ATTACK + 1
        return off < s.num_players and s.position[(seat + off) % s.num_players] == s.position[seat]
    if a < A_MOVE_GOLEM:
        return s.trap_pool_len > 0 and trap_settable(s, a - A_SET_TRAP)
    if a == A_MOVE_GOLEM:
        return not s.golem_used
    if a == A_EVENT:
        return not s.event_used and s.event_pos < NUM_EVENTS
    if a == A_ACTIVATE_CRYSTAL:
        return not s.crystal[seat] and acts >= 2
    if a == A_USE_POTION:
        return holds_special(s, seat, C.SPECIAL_POTION) >= 0
    return False


@njit(cache=True)
def main_mask(s, out) -> None:
    """``main_legal`` for every activity at once (``out`` zeroed), the per-action checks
    hoisted out of the loops: asking ``main_legal`` for each of the 111 trap corridors costs
    more than the rest of a step. A test keeps the two equal."""
    out[A_END_TURN] = 1
    seat = s.seat
    acts = s.actions_left
    if acts <= 0:
        return
    if s.stun[seat] > 0:
        out[A_REST] = 1
        return
    if at_start(s, seat):
        if golem_blocks_start(s):
            out[A_MOVE_GOLEM] = 1
            return
        for d in range(6):
            out[A_MOVE + d] = 1 if move_target(s, seat, d) >= 0 else 0
        return
    out[A_BUILD] = 1 if any_buildable(s) else 0
    for d in range(6):
        out[A_MOVE + d] = 1 if move_target(s, seat, d) >= 0 else 0
    node = s.position[seat]
    if s.node_pair[node] >= 0:
        out[A_RISKY_JUMP] = 1
        out[A_SAFE_JUMP] = 1 if acts >= 2 else 0
    n = s.num_players
    for off in range(1, n):
        if s.position[(seat + off) % n] == node:
            out[A_ATTACK + off - 1] = 1
    if s.trap_pool_len > 0:
        for x in range(NUM_BOARD_NODES):
            if s.node_mask[x] != 0 and s.node_trap[x] < 0:
                out[A_SET_TRAP + x] = 1
        for k in range(MC):
            out[A_SET_TRAP + center_node(s) + k] = 0
        for q in range(n):
            if q != seat and 0 <= s.position[q] < NUM_BOARD_NODES:
                out[A_SET_TRAP + s.position[q]] = 0
    out[A_MOVE_GOLEM] = 0 if s.golem_used else 1
    out[A_EVENT] = 1 if not s.event_used and s.event_pos < NUM_EVENTS else 0
    out[A_ACTIVATE_CRYSTAL] = 1 if not s.crystal[seat] and acts >= 2 else 0
    out[A_USE_POTION] = 1 if holds_special(s, seat, C.SPECIAL_POTION) >= 0 else 0


@njit(cache=True)
def legal_mask(s, out) -> None:
    """Fill ``out`` with the legal actions of the pending decision."""
    out[:] = 0
    if s.outcome != RUNNING:
        return
    dec = s.decision
    who = s.decider
    if dec == D_MAIN:
        main_mask(s, out)
    elif dec == D_PLACE:
        for i in range(NUM_BOARD * 6):
            out[A_PLACE + i] = s.place_ok[i]
    elif dec == D_GOLEM_DIR:
        hexboard.mark_directions(out, A_GOLEM_DIR, golem_options(s))
    elif dec == D_REROLL:
        out[A_KEEP] = 1
        out[A_REROLL] = 1
    elif dec == D_SCEPTER:
        out[A_SCEPTER_NO] = 1
        out[A_SCEPTER_YES] = 1
    elif dec == D_LIFE_OR_STUN:
        out[A_LOSE_LIFE] = 1
        out[A_TAKE_STUN] = 1
    elif dec == D_FREE_ATTACK:
        f = s.depth - 1
        node = s.ex_node[f]
        n = s.num_players
        out[A_DECLINE] = 1
        for off in range(1, n):
            p = (who + off) % n
            if s.position[p] == node and not (s.ex_done[f] >> p) & 1:
                out[A_FREE_ATTACK + off - 1] = 1
    elif dec == D_COUNTER:
        out[A_DECLINE] = 1
        out[A_COUNTER] = 1
    elif dec == D_PUSH_DIR:
        hexboard.mark_directions(out, A_PUSH_DIR, push_options(s, s.push_from))
    elif dec == D_PICKUP:
        node = s.position[who]
        out[A_PICKUP_DONE] = 1
        for k in range(NUM_KEYS):
            if pickable_key(s, who, k, node):
                out[A_PICK_KEY + k] = 1
        if items_allowed(s):
            for i in range(NUM_ITEMS):
                if s.item_node[i] != node or (s.exchanged >> i) & 1:
                    continue
                if s.items[who, 1] < 0:
                    out[A_PICK_ITEM + i] = 1
                else:
                    for j in range(2):
                        if not (s.exchanged >> s.items[who, j]) & 1:
                            out[A_EXCHANGE + 2 * i + j] = 1
    elif dec == D_EVENT_TARGET:
        for off in range(s.num_players):
            out[A_EVENT_TARGET + off] = 1
    elif dec == D_DROP_ITEM:
        out[A_DROP_ITEM] = 1
        out[A_DROP_ITEM + 1] = 1


@njit(cache=True)
def is_legal(s, action: int) -> bool:
    if s.outcome != RUNNING or action < 0 or action >= NUM_ACTIONS:
        return False
    if s.decision == D_MAIN:
        return action < A_PLACE and main_legal(s, action)
    # a local mask: a rejected action must leave every byte of the state as it was
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    return mask[action] != 0


# --- applying actions ----------------------------------------------------------------------------------------
@njit(cache=True)
def do_main(s, action: int) -> None:
    seat = s.seat
    if action == A_END_TURN:
        s.actions_left = 0
        end_turn(s)
        return
    if action == A_USE_POTION:
        slot = holds_special(s, seat, C.SPECIAL_POTION)
        item = s.items[seat, slot]
        s.items[seat, slot] = -1
        if slot == 0:
            s.items[seat, 0] = s.items[seat, 1]
            s.items[seat, 1] = -1
        return_item(s, item)
        emit(s, EV_POTION, seat)
        gain_life(s, seat, 2)
        return
    if action in (A_SAFE_JUMP, A_ACTIVATE_CRYSTAL):  # the activities that cost 2 actions
        s.actions_left -= 2
    else:
        s.actions_left -= 1
    if action == A_BUILD:
        s.tile_pool_len -= 1
        tile = s.tile_pool[s.tile_pool_len]
        if compute_placements(s, tile) > 0:
            s.drawn_tile = tile
            set_decision(s, D_PLACE, seat)
        else:  # nowhere to put it: to the bottom of the pool
            for i in range(s.tile_pool_len, 0, -1):
                s.tile_pool[i] = s.tile_pool[i - 1]
            s.tile_pool[0] = tile
            s.tile_pool_len += 1
            emit(s, EV_BUILD_NOWHERE, seat, tile)
    elif action < A_RISKY_JUMP:
        node = move_target(s, seat, action - A_MOVE)
        # leaving the starting space, a trap on the key space is ignored
        enter(s, seat, node, True, at_start(s, seat))
    elif action == A_RISKY_JUMP:
        begin_jump(s, seat, True)
    elif action == A_SAFE_JUMP:
        begin_jump(s, seat, False)
    elif action == A_REST:
        if holds_special(s, seat, C.SPECIAL_SALTS) >= 0:
            s.stun[seat] = 0
        else:
            s.stun[seat] -= 1
        emit(s, EV_REST, seat, s.stun[seat])
    elif action < A_SET_TRAP:
        target = (seat + action - A_ATTACK + 1) % s.num_players
        begin_combat(s, seat, target)
    elif action < A_MOVE_GOLEM:
        node = action - A_SET_TRAP
        s.node_trap[node] = draw_trap(s)
        s.trap_up[node] = 0
        emit(s, EV_TRAP_PLACED, seat, node)
    elif action == A_MOVE_GOLEM:
        s.golem_used = 1
        draw_golem_card(s)
    elif action == A_EVENT:
        s.event_used = 1
        trigger_event(s)
    elif action == A_ACTIVATE_CRYSTAL:
        s.crystal[seat] = 1
        emit(s, EV_CRYSTAL, seat, 1)


@njit(cache=True)
def do_pickup(s, action: int) -> None:
    seat = s.decider
    node = s.position[seat]
    if action == A_PICKUP_DONE:
        s.depth -= 1
        return
    if action < A_PICK_ITEM:
        k = action - A_PICK_KEY
        s.key_holder[k] = seat
        s.key_node[k] = -1
        emit(s, EV_PICK_UP, seat, 0, k)
    elif action < A_EXCHANGE:
        i = action - A_PICK_ITEM
        s.item_node[i] = -1
        slot = 0 if s.items[seat, 0] < 0 else 1
        s.items[seat, slot] = i
        emit(s, EV_PICK_UP, seat, 1, i)
    else:
        i = (action - A_EXCHANGE) // 2
        j = (action - A_EXCHANGE) % 2
        old = s.items[seat, j]
        s.items[seat, j] = i
        s.item_node[i] = -1
        s.item_node[old] = node
        s.exchanged |= np.uint16((1 << i) | (1 << old))  # each item once per turn
        emit(s, EV_EXCHANGE, seat, i, old)
    if not anything_to_pick(s, seat, node):
        s.depth -= 1


@njit(cache=True)
def step(s, action: int) -> bool:
    """Apply one legal action and everything automatic after it. Returns False, changing
    nothing, if the action is not legal now."""
    if not is_legal(s, action):
        return False
    clear_events(s)
    dec = s.decision
    who = s.decider
    s.decision = D_MAIN  # the decision is made; advance() sets the next one
    if dec == D_MAIN:
        do_main(s, action)
    elif dec == D_PLACE:
        k = action - A_PLACE
        place_tile(s, k // 6, k % 6)
    elif dec == D_GOLEM_DIR:
        golem_step(s, action - A_GOLEM_DIR)
    elif dec == D_REROLL:
        if action == A_REROLL:
            s.crystal[who] = 0
            emit(s, EV_REROLL, who, s.ck_kind)
            kind = s.ck_kind
            if kind == CK_JUMP:
                s.ck_a = jump_total(s, who)
                emit(s, EV_JUMP, who, s.ck_a, 1 if s.ck_a >= C.JUMP_DIFFICULTY else 0, 1)
            elif kind == CK_GOLEM:
                s.ck_a = golem_total(s, who)
                emit(s, EV_GOLEM_CHECK, who, s.ck_a, 1 if s.ck_a >= C.GOLEM_DIFFICULTY else 0)
            elif kind == CK_TRAP:  # every roll of the trap again
                s.ck_a = trap_failures(s, who, s.ck_b)
                emit(s, EV_TRAP_CHECK, who, s.ck_b, s.ck_a, TRAP_ROLLS[s.ck_b])
            else:
                roll_combat(s, who)
            if kind == CK_COMBAT and offer_reroll(s):
                return finish_step(s)
        resolve_check(s)
    elif dec == D_SCEPTER:
        if action == A_SCEPTER_YES:
            emit(s, EV_SCEPTER, who)
            s.ck_kind = CK_NONE
            lose_life(s, who, 1)
        else:
            roll_golem_check(s, who)
    elif dec == D_LIFE_OR_STUN:
        s.choices_left -= 1
        if action == A_LOSE_LIFE:
            lose_life(s, who, 1)
        else:
            add_stun(s, who, 1)
    elif dec == D_FREE_ATTACK:
        f = s.depth - 1
        if action == A_DECLINE:  # the occupants it did not fight may now attack it
            s.ex_phase[f] = 1
            explore_counter_order(s, f)
        else:
            target = (who + action - A_FREE_ATTACK + 1) % s.num_players
            s.ex_done[f] |= np.uint8(1 << target)
            begin_combat(s, who, target)
    elif dec == D_COUNTER:
        f = s.depth - 1
        s.ex_done[f] |= np.uint8(1 << who)
        if action == A_COUNTER:
            begin_combat(s, who, s.ex_seat[f])
    elif dec == D_PUSH_DIR:
        loser = s.ck_seat
        d = action - A_PUSH_DIR
        target = corridor_across(s.node_mask, NEIGHBORS, s.push_from // MC, d, MC)
        emit(s, EV_PUSHED_OUT, loser, s.push_from, target)
        enter(s, loser, target, False)
    elif dec == D_PICKUP:
        do_pickup(s, action)
    elif dec == D_EVENT_TARGET:
        event_on_target(s, (who + action - A_EVENT_TARGET) % s.num_players)
    elif dec == D_DROP_ITEM:
        drop_item(s, who, action - A_DROP_ITEM)
        finish_death(s, who)
    return finish_step(s)


@njit(cache=True)
def explore_counter_order(s, f: int) -> None:
    """The mover forgoes its free attacks: the occupants it has not fought may attack it,
    in random order."""
    node = s.ex_node[f]
    others = occupants(s, node, s.ex_seat[f]) & ~np.int64(s.ex_done[f])
    n = 0
    for p in range(s.num_players):
        if (others >> p) & 1:
            s.ex_order[f, n] = p
            n += 1
    for p in range(n, NUM_SEATS):
        s.ex_order[f, p] = -1
    shuffle(s.rng, s.ex_order[f], n)


@njit(cache=True)
def finish_step(s) -> bool:
    if s.decision == D_MAIN:
        advance(s)
    return True


# --- the kernel contract ------------------------------------------------------------------------------------
@njit(cache=True)
def init(s, seed, options) -> None:
    start_record(s, seed, options)
    n = s.options[OPT_PLAYERS]
    s.num_players = n
    s.variant = s.options[OPT_VARIANT]
    s.max_turns = s.options[OPT_MAX_TURNS]
    s.ask_crystal = s.options[OPT_CRYSTAL]
    # the board: the central space, six key spaces, the frame's starting spaces
    s.center_cell = VARIANT_CENTER if s.variant else HEX_CENTER
    hexboard.lay_frame(s, s.center_cell, TILE_MASK, TILE_LEVEL, TILE_PAIR, C.CENTRAL_TILE_ID, C.KEY_TILE_ID)
    for i in range(NUM_KEYS):
        s.key_node[i] = key_node(i)
        s.key_holder[i] = -1
        s.key_dropped_by[i] = -1
    # pools and decks
    deal_shuffled(s.rng, s.tile_pool, NUM_NORMAL_TILES)
    s.tile_pool_len = NUM_NORMAL_TILES
    s.drawn_tile = -1
    deal_shuffled(s.rng, s.trap_pool, NUM_TRAPS)
    s.trap_pool_len = NUM_TRAPS
    s.item_node[:] = -1
    deal_shuffled(s.rng, s.item_pool, NUM_ITEMS)
    s.item_pool_len = NUM_ITEMS
    deal_shuffled(s.rng, s.golem_deck, NUM_GOLEM_CARDS)
    s.golem_pos = 0
    deal_shuffled(s.rng, s.event_deck, NUM_EVENTS - 1)
    s.event_deck[NUM_EVENTS - 1] = NUM_EVENTS - 1  # Annihilation stays at the bottom
    s.event_pos = 0
    s.current_event = -1
    s.golem_node = center_node(s)
    s.golem_from = -1
    s.golem_from_turn = -10
    # characters
    for p in range(NUM_SEATS):
        s.items[p, 0] = -1
        s.items[p, 1] = -1
        s.character[p] = -1
        if p < n:
            s.seat_start[p] = VARIANT_SEATS[p] if s.variant else SEATINGS[n, p]
            s.position[p] = start_node(s, p)
            s.life[p] = LIFE
            s.crystal[p] = 1
        else:
            s.seat_start[p] = -1
            s.position[p] = -1
            s.life[p] = 0
            s.crystal[p] = 0
        s.stun[p] = 0
    # resolution state (every field, so a reused record starts byte-identical to a new one)
    s.depth = 0
    s.ex_seat[:] = 0
    s.ex_node[:] = 0
    s.ex_step[:] = 0
    s.ex_pickup[:] = 0
    s.ex_ignore_trap[:] = 0
    s.ex_done[:] = 0
    s.ex_phase[:] = 0
    s.ex_order[:, :] = 0
    s.ck_kind = CK_NONE
    s.ck_seat = 0
    s.ck_opp = 0
    s.ck_a = 0
    s.ck_b = 0
    s.push_from = 0
    s.events[:, :] = 0
    s.reach[:] = 0
    s.queue[:] = 0
    s.place_ok[:] = 0
    s.actions_left = 0
    s.golem_used = 0
    s.event_used = 0
    s.exchanged = 0
    s.golem_steps = 0
    s.golem_checks = 0
    s.dying = 0
    s.choices_left = 0
    first = kernel_common.roll_for_first(s, n, EV_FIRST_PLAYER)
    s.seat = first
    start_turn(s)
    s.decision = D_MAIN
    s.decider = first
    advance(s)


returns = winner_returns


# --- observation ----------------------------------------------------------------------------------------------
NODE_FEATURES = 1 + 3 + 6 + 3 + 1 + NUM_TRAP_TYPES + NUM_ITEMS + NUM_KEYS + 1 + NUM_SEATS
# the node features both editions share come first (see core.hexboard.observe_corridors)
F_EXISTS, F_KIND, F_TRAP_DOWN, F_TRAP_TYPE = (
    hexboard.F_EXISTS,
    hexboard.F_KIND,
    hexboard.F_TRAP_DOWN,
    hexboard.F_TRAP_TYPE,
)
F_ITEM = F_TRAP_TYPE + NUM_TRAP_TYPES
F_KEY = F_ITEM + NUM_ITEMS
F_GOLEM = F_KEY + NUM_KEYS
F_CHAR = F_GOLEM + 1
OBS_SEATS = NUM_NODES * NODE_FEATURES
SEAT_FEATURES = 1 + 1 + 1 + 1 + 1 + 1 + 1 + 2 * NUM_ITEMS + NUM_SEATS
OBS_GLOBAL = OBS_SEATS + NUM_SEATS * SEAT_FEATURES
GLOBAL_FEATURES = NUM_DECISIONS + NUM_SEATS + 3 + NUM_TILES + 5 + NUM_EVENTS + 5 + 2
OBS_SIZE = OBS_GLOBAL + GLOBAL_FEATURES


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """What ``seat`` may know, egocentric (relative seat 0 is ``seat``): the board, face-down
    traps only as "a trap is here", pool and deck sizes but never their order, the drawn
    tile while it is being placed."""
    out[:] = 0.0
    n = s.num_players
    hexboard.observe_corridors(s, out, NODE_FEATURES, s.center_cell, TRAP_TOKENS)
    for i in range(NUM_ITEMS):
        if s.item_node[i] >= 0:
            out[s.item_node[i] * NODE_FEATURES + F_ITEM + i] = 1.0
    for k in range(NUM_KEYS):
        if s.key_node[k] >= 0:
            out[s.key_node[k] * NODE_FEATURES + F_KEY + k] = 1.0
    out[s.golem_node * NODE_FEATURES + F_GOLEM] = 1.0
    for p in range(n):
        rel = (p - seat) % n
        out[s.position[p] * NODE_FEATURES + F_CHAR + rel] = 1.0
        b = OBS_SEATS + rel * SEAT_FEATURES
        kernel_common.observe_character(s, p, out, b, LIFE)
        out[b + 6] = 1.0 if at_start(s, p) else 0.0
        for j in range(2):
            if s.items[p, j] >= 0:
                out[b + 7 + j * NUM_ITEMS + s.items[p, j]] = 1.0
        out[b + 7 + 2 * NUM_ITEMS + s.seat_start[p]] = 1.0
    g = OBS_GLOBAL
    if s.outcome == RUNNING:
        out[g + s.decision] = 1.0
        out[g + NUM_DECISIONS + (s.decider - seat) % n] = 1.0
    g += NUM_DECISIONS + NUM_SEATS
    out[g] = s.actions_left / C.ACTIONS_PER_TURN
    out[g + 1] = s.golem_used
    out[g + 2] = s.event_used
    g += 3
    if s.drawn_tile >= 0:
        out[g + s.drawn_tile] = 1.0
    g += NUM_TILES
    out[g] = s.tile_pool_len / NUM_NORMAL_TILES
    out[g + 1] = s.trap_pool_len / NUM_TRAPS
    out[g + 2] = s.item_pool_len / NUM_ITEMS
    out[g + 3] = (NUM_GOLEM_CARDS - s.golem_pos) / NUM_GOLEM_CARDS
    out[g + 4] = (NUM_EVENTS - s.event_pos) / NUM_EVENTS
    g += 5
    if s.current_event >= 0:
        out[g + s.current_event] = 1.0
    g += NUM_EVENTS
    out[g + s.ck_kind] = 1.0
    g += 5
    out[g] = kernel_common.check_total_feature(s.ck_a) if s.ck_kind != CK_TRAP else s.ck_a / 3.0
    out[g + 1] = kernel_common.check_total_feature(s.ck_b) if s.ck_kind == CK_COMBAT else 0.0


@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample what ``seat`` cannot know: the order of the tile, trap and item pools and of
    the Golem and event decks (Annihilation stays last), and which trap lies under each
    face-down trap token (with the pool). Each unknown set is sorted before it is
    shuffled, so the result depends only on what ``seat`` knows and ``seed`` (searches that
    determinize cannot leak the true order)."""
    rng = kernel_common.private_dice(seed)
    shuffle_unknown(rng, s.tile_pool[: s.tile_pool_len])
    shuffle_unknown(rng, s.item_pool[: s.item_pool_len])
    shuffle_unknown(rng, s.golem_deck[s.golem_pos :])
    shuffle_unknown(rng, s.event_deck[s.event_pos : NUM_EVENTS - 1])
    # hidden traps: the face-down tokens on the board and the pool are one unknown set
    hexboard.reshuffle_hidden_traps(s, rng)
    kernel_common.reseed(s, rng)


# --- shared with the batched loops of labyrinth_env.core.batch_template ---------------------------


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): 0.5 for holding a key, minus 0.05 per
    step (as the crow flies) to the goal: the nearest key lying on another player's key
    space while keyless, the central space once holding one. 0 once the game is won, so
    the shaping of a decided game sums to -potential(start) and does not change which
    policies are best; a truncated game keeps its position's value."""
    allowed = ((1 << NUM_KEYS) - 1) & ~(1 << s.seat_start[seat]) if s.position[seat] >= 0 else 0
    return hexboard.key_race_potential(s, seat, s.center_cell, allowed, TRUNCATED)
