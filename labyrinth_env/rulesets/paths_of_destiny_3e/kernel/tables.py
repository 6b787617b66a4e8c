"""Paths of Destiny (3rd edition): the kernel's sizes and tables, the options vector, the
action offsets, the codes of decisions, checks and events (with the names the env decodes
them by), the state record and the observation's layout."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from labyrinth_env.core import hexboard, pod
from labyrinth_env.core.contract import (  # noqa: F401 (the outcome codes, K.OPT_*)
    LOST,
    OPT_MAX_TURNS,
    OPT_PLAYERS,
    OPT_RULESET,
    RUNNING,
    TRUNCATED,
    WON,
    state_dtype,
)
from labyrinth_env.core.grid import HEX_DELTAS, HEX_INDEX
from labyrinth_env.core.hexboard import (  # noqa: F401 (the geometry and node features both editions share, K.<name>)
    F_EXISTS,
    F_KIND,
    F_TRAP_DOWN,
    F_TRAP_TYPE,
    KEY_CELLS,
    KEY_NODES,
    NUM_BOARD,
    NUM_BOARD_NODES,
    NUM_CELLS,
    NUM_NODES,
    START_CELL,
)
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

# --- geometry: 37 board cells, then the 6 starting spaces of the frame ------------------
# (the board with its frame, shared with the 2011 edition: labyrinth_env.core.hexboard;
# starting space i is cell START_CELL + i, key space i the corner KEY_CELLS[i] in direction
# i from the centre, with its one corridor KEY_NODES[i])
MC = C.MAX_CORRIDORS
NUM_SEATS = 6
NEIGHBORS = hexboard.FRAME_NEIGHBORS  # the hexagon's neighbours, each key space joined to its starting space
# 2-player variant (reconstructed): the central space one step from the middle in
# direction 1, between the two players' key spaces 0 and 2.
VARIANT_CENTER = HEX_INDEX[(int(HEX_DELTAS[1, 0]), int(HEX_DELTAS[1, 1]))]
VARIANT_SEATS = np.array([0, 2], dtype=np.int64)

# --- the components' tables, as the kernel reads them ------------------------------------
TILE_MASK = C.TILE_CORRIDOR_MASK.copy()
TILE_LEVEL = C.TILE_CORRIDOR_LEVEL.copy()
TILE_ICON = C.TILE_CORRIDOR_ICON.copy()
TILE_PAIR = C.TILE_BRIDGE_PAIR.copy()
NUM_NORMAL_TILES = C.NUM_NORMAL_TILES
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
SEATINGS = pod.start_field_table(C.START_SEATS, NUM_SEATS)

# characters and their ability tokens
NUM_CHARACTERS = C.NUM_CHARACTERS
NUM_ABILITY_TOKENS = C.NUM_ABILITY_TOKENS
NUM_TOKEN_TYPES = C.NUM_TOKEN_TYPES
ABILITY_TOKENS = C.ABILITY_TOKENS.astype(np.int64)
CHARACTER_TOKEN = C.CHARACTER_TOKEN.astype(np.int64)
CHARACTER_COMBAT = C.CHARACTER_COMBAT.astype(np.int64)
CHARACTER_GOLEM = C.CHARACTER_GOLEM.astype(np.int64)
# the characters the kernel deals (bits): every ready one; two players never get the
# Golem Mistress or the Arch-priestess (l.499)
DEALABLE = sum(1 << c for c in range(NUM_CHARACTERS) if C.CHARACTER_READY[c])
DEALABLE_2P = DEALABLE & ~sum(1 << c for c in C.TWO_PLAYER_EXCLUDED)

# options vector
OPT_VARIANT, OPT_CRYSTAL = OPT_RULESET, OPT_RULESET + 1  # after num_players, max_turns (core.contract)
OPT_CHARACTERS = OPT_RULESET + 2  # core.characters: the mode, then the character of each seat
NUM_OPTIONS = OPT_CHARACTERS + 1 + NUM_SEATS

# --- actions ---------------------------------------------------------------------------
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
A_PICK_UP = A_USE_POTION + 1  # the free Pick Up activity: keys and items on one's own corridor
A_END_TURN = A_PICK_UP + 1
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
A_LAY_TOKEN = A_DROP_ITEM + 2  # activity: lay one of your ability tokens on your corridor
A_REBUILD = A_LAY_TOKEN + 1  # activity (the Architect): + cell (37), the tile removed
A_MOVE_TILE = A_REBUILD + NUM_BOARD  # activity (the Architect): + cell (37), the tile built again elsewhere
A_SHAPESHIFT = A_MOVE_TILE + NUM_BOARD  # activity (the Shapeshifter): + character (15)
A_FURY = A_SHAPESHIFT + NUM_CHARACTERS  # the War Sister: lose 1 Life for +2
A_NO_FURY = A_FURY + 1
A_RESOLVE_TOKEN = A_NO_FURY + 1  # + ability token (21): resolve it next
A_DRAFT = A_RESOLVE_TOKEN + NUM_ABILITY_TOKENS  # + character (15)
A_FACE_DOWN = A_DRAFT + NUM_CHARACTERS  # activity (the Illusionist): + cell (37), the top tile laid face down
A_ORIENT = A_FACE_DOWN + NUM_BOARD  # + rotation (6): the face-down tile being revealed, turned
NUM_ACTIONS = A_ORIENT + 6

# --- decisions -----------------------------------------------------------------------------
D_MAIN, D_PLACE, D_GOLEM_DIR, D_REROLL, D_SCEPTER, D_LIFE_OR_STUN = 0, 1, 2, 3, 4, 5
D_FREE_ATTACK, D_COUNTER, D_PUSH_DIR, D_PICKUP, D_EVENT_TARGET, D_DROP_ITEM = 6, 7, 8, 9, 10, 11
D_FURY, D_TOKEN_ORDER, D_DRAFT, D_ORIENT = 12, 13, 14, 15
NUM_DECISIONS = 16
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
    "use Fury?",
    "ability token to resolve next",
    "choose a character",
    "orient the face-down tile",
)

# checks in progress (``ck_kind``)
CK_NONE, CK_JUMP, CK_GOLEM, CK_TRAP, CK_COMBAT = 0, 1, 2, 3, 4
CHECK_NAMES = ("none", "jump", "golem", "trap", "combat")
MAX_DEPTH = 6  # explorations in progress, one inside the other (a push, a fall)
# Move the Golem at most twice a turn (the second only to clear a key space), 3 steps each:
# this turn's and the previous turn's corridors
GOLEM_TRAIL = 12

# A Trap Check's rolls in its event's last field, for the log (the check keeps only the
# failures): each roll's two dice, ROLL_BITS apiece, then the modifier plus MODIFIER_BIAS.
# Written beside the old fields, so a recorded game's decoded events stay what they were.
ROLL_BITS = 4
MODIFIER_BIAS = 64
MAX_TRAP_ROLLS = int(C.TRAP_ROLLS.max())
assert ROLL_BITS * MAX_TRAP_ROLLS + 7 < 31  # the modifier's 7 bits fit an int32 field
assert 2 * int(abs(C.ITEM_TRAP_BONUS).max()) + int(abs(C.EVENT_LONG_PARAM).max()) < MODIFIER_BIAS

# --- events: (type, seat, a, b, c, d) ------------------------------------------------------
EV_FIRST_PLAYER = 1  # seat, roll
EV_START_TURN = 2  # seat, turn
EV_BUILD = 3  # seat, tile, cell, rotation
EV_BUILD_NOWHERE = 4  # seat, tile (no legal place: back to the bottom of the pool)
EV_TRAP_PLACED = 5  # seat, node (face down)
EV_ITEM_PLACED = 6  # seat, item, node
EV_MOVE = 7  # seat, from node, to node
EV_JUMP = 8  # seat, roll (0: a safe jump, no roll), success, JUMP_*
EV_REST = 9  # seat, stun left
EV_TRAP_REVEALED = 10  # seat, node, trap type
EV_TRAP_CHECK = 11  # seat, trap type, failed rolls, rolls, each roll's dice and the modifier (ROLL_BITS)
EV_GOLEM_CHECK = 12  # seat, roll, success
EV_COMBAT = 13  # attacker, defender, attacker total, defender total
EV_LIFE = 14  # seat, change, life after
EV_STUN = 15  # seat, change, stun after
EV_DEATH = 16  # seat, node
EV_DROP = 17  # seat, TOKEN_*, key or item, node
EV_TO_START = 18  # seat, from node
EV_PICK_UP = 19  # seat, TOKEN_*, key or item
EV_EXCHANGE = 20  # seat, item taken, item left
EV_GOLEM_CARD = 21  # seat, kind (C.GOLEM_*), steps
EV_GOLEM_MOVE = 22  # NO_SEAT, from, to
EV_EVENT = 23  # seat, event
EV_REROLL = 24  # seat, check kind (CK_*)
EV_CRYSTAL = 25  # seat, active after
EV_PUSHED_OUT = 26  # seat, from, to
EV_WIN = 27  # seat
EV_TRUNCATED = 28
EV_SCEPTER = 29  # seat
EV_HEART = 30  # seat
EV_POTION = 31  # seat
EV_TRAP_REMOVED = 32  # seat, node, trap type (its tile left the board: back into the trap pool)
EV_THROWN_BACK = 33  # seat, from node, to node (moved by a trap)
EV_CHARACTER = 34  # seat, character, CHAR_*
EV_TOKEN_LAID = 35  # seat, token type, node
EV_TOKEN_EFFECT = 36  # seat struck, token type, node, owner
EV_TOKEN_RETURNED = 37  # owner, token type, node
EV_FURY = 38  # seat, combat total after
EV_DISMEMBER = 39  # seat (the War Sister), loser
EV_REBUILD = 40  # seat, tile, cell, 0 removed / 1 moved
EV_STEAL = 41  # seat (the Thief), loser, key
EV_PORTAL = 42  # seat, from node, to node
EV_FACE_DOWN = 43  # seat (the Illusionist), cell (the tile is not named: no one has seen it)
EV_REVEALED = 44  # seat deciding, tile, cell, rotation, seat entering (NO_SEAT: the Golem)
EV_TOOLS = 45  # seat, trap type: Thief's Tools take the failed Trap Check again
MAX_EVENTS = 64
# how a seat got its character (EV_CHARACTER's last argument)
CHAR_DEALT, CHAR_LISTED, CHAR_DRAFTED, CHAR_CHANGED = 0, 1, 2, 3
CHAR_HOW_NAMES = ("dealt", "chosen", "drafted", "changed")
# the codes inside events
JUMP_SAFE, JUMP_RISKY = 0, 1  # EV_JUMP's last argument
JUMP_NAMES = ("safe_jump", "jump_check")
TOKEN_KEY, TOKEN_ITEM = 0, 1  # what EV_DROP and EV_PICK_UP move
TOKEN_NAMES = ("key", "item")

STATE_DTYPE = state_dtype(
    NUM_OPTIONS,
    MAX_EVENTS,
    [
        ("variant", np.int8),
        ("center_cell", np.int8),
        # board
        *hexboard.BOARD_FIELDS,
        # pools and decks
        *pod.pile_fields(NUM_NORMAL_TILES, NUM_TRAPS),
        ("item_pool", np.int8, (NUM_ITEMS,)),
        ("item_pool_len", np.int8),
        ("item_node", np.int16, (NUM_ITEMS,)),
        ("golem_deck", np.int8, (NUM_GOLEM_CARDS,)),
        ("golem_pos", np.int8),
        ("event_deck", np.int8, (NUM_EVENTS,)),
        ("event_pos", np.int8),
        ("current_event", np.int8),
        # tokens and pieces
        *pod.piece_fields(NUM_SEATS),
        ("key_dropped_by", np.int8, (NUM_KEYS,)),
        ("character", np.int8, (NUM_SEATS,)),
        # ability tokens: the seat that owns each (-1: in the box) and where it lies (-1: with its owner)
        ("tok_owner", np.int8, (NUM_ABILITY_TOKENS,)),
        ("tok_node", np.int16, (NUM_ABILITY_TOKENS,)),
        ("fury_used", np.int8),  # the War Sister used Fury in the combat being resolved
        # the Illusionist's face-down tiles (hidden: never observed, resampled by
        # ``determinize``); the one being revealed is entered by a character or (-1) the Golem
        *hexboard.FACE_DOWN_FIELDS,
        ("items", np.int8, (NUM_SEATS, 2)),
        ("golem_node", np.int16),
        ("golem_from", np.int16),
        ("golem_from_turn", np.int32),
        # every corridor the Golem left by Move the Golem, with the turn it left it
        ("golem_trail", np.int16, (GOLEM_TRAIL,)),
        ("golem_trail_turn", np.int32, (GOLEM_TRAIL,)),
        ("golem_trail_len", np.int8),
        # the turn
        *pod.TURN_FIELDS,
        ("golem_used", np.int8),
        ("event_used", np.int8),
        ("exchanged", np.uint16),
        # tokens the active player let lie this turn (bit k: key k; bit NUM_KEYS + i: item i)
        ("declined", np.uint32),
        # what is being resolved: the explorations (a stack), the check, the Golem
        ("depth", np.int8),
        ("ex_seat", np.int8, (MAX_DEPTH,)),
        ("ex_node", np.int16, (MAX_DEPTH,)),
        ("ex_from", np.int16, (MAX_DEPTH,)),  # the corridor it came from (a trap may throw it back)
        ("ex_step", np.int8, (MAX_DEPTH,)),
        ("ex_pickup", np.int8, (MAX_DEPTH,)),
        ("ex_ignore_trap", np.int8, (MAX_DEPTH,)),
        ("ex_done", np.uint8, (MAX_DEPTH,)),  # seats already fought or passed
        ("ex_phase", np.int8, (MAX_DEPTH,)),
        ("ex_order", np.int8, (MAX_DEPTH, NUM_SEATS)),
        ("ex_tokens", np.uint32, (MAX_DEPTH,)),  # ability tokens resolved here already (bits)
        *pod.CHECK_FIELDS,
        ("ck_opp", np.int8),
        ("golem_steps", np.int8),
        ("golem_checks", np.uint8),
        ("dying", np.uint8),
        ("choices_left", np.int8),
        ("push_from", np.int16),
        # scratch for searches
        *hexboard.SEARCH_FIELDS,
    ],
)

# --- the observation's layout --------------------------------------------------------------
NODE_FEATURES = (
    1 + 3 + 6 + 3 + 1 + NUM_TRAP_TYPES + NUM_ITEMS + NUM_KEYS + 1 + NUM_SEATS + NUM_TOKEN_TYPES + NUM_SEATS
    + 1 + NUM_SEATS + 1
)  # fmt: skip
# the node features both editions share (F_EXISTS .. F_TRAP_TYPE) come first (see
# core.hexboard.observe_corridors)
F_ITEM = F_TRAP_TYPE + NUM_TRAP_TYPES
F_KEY = F_ITEM + NUM_ITEMS
F_GOLEM = F_KEY + NUM_KEYS
F_CHAR = F_GOLEM + 1
F_TOKEN = F_CHAR + NUM_SEATS  # ability tokens lying here, by type
F_TOKEN_OWNER = F_TOKEN + NUM_TOKEN_TYPES  # ... and their owners, by relative seat
# on corridor 0 of a cell holding a face-down tile: that it is there (never which tile), who
# laid it (relative seat), and that it is being revealed (its tile then in the drawn-tile slot)
F_FACE_DOWN = F_TOKEN_OWNER + NUM_SEATS
F_FD_OWNER = F_FACE_DOWN + 1
F_REVEALING = F_FD_OWNER + NUM_SEATS
OBS_SEATS = NUM_NODES * NODE_FEATURES
SEAT_FEATURES = 1 + 1 + 1 + 1 + 1 + 1 + 1 + 2 * NUM_ITEMS + NUM_SEATS + NUM_CHARACTERS + NUM_TOKEN_TYPES
S_CHARACTER = 7 + 2 * NUM_ITEMS + NUM_SEATS  # within a seat's block: its character, one-hot
S_TOKENS = S_CHARACTER + NUM_CHARACTERS  # its ability tokens in hand, by type (count / 3)
OBS_GLOBAL = OBS_SEATS + NUM_SEATS * SEAT_FEATURES
GLOBAL_FEATURES = NUM_DECISIONS + NUM_SEATS + 3 + NUM_TILES + 5 + NUM_EVENTS + 5 + 2 + 1
OBS_SIZE = OBS_GLOBAL + GLOBAL_FEATURES

# every name in capitals (the outcome codes of core.contract too) is the kernel's: the
# package re-exports them, and env.py, picture.py, the heuristic and the tests read K.<name>
__all__ = [name for name, value in list(globals().items()) if name.isupper() and not isinstance(value, ModuleType)]
