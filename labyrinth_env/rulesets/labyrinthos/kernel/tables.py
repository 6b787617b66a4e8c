"""Labyrinthos kernel tables: the maze's geometry, the components as the kernel reads them,
the options vector, the flat action space, the decisions, phases and tasks, the event
codes and every code an event carries, the state record and the observation's layout.

Every code that the env, the picture or the heuristic decodes is named here, with its
names tuple next to the constants (``HOW_NAMES``, ``MONSTER_HOW_NAMES``, ``TURN_NAMES``,
``DIRECTION_NAMES``, ``DECISIONS``, ``PHASE_NAMES``), so both sides read one table.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import OPT_MAX_TURNS, OPT_PLAYERS, OPT_RULESET, state_dtype  # noqa: F401 (K.OPT_*)
from labyrinth_env.core.grid import SQUARE_DIRECTIONS, square_neighbors
from labyrinth_env.rulesets.labyrinthos import components as C

# --- geometry -----------------------------------------------------------------------------
SIZE = C.SIZE
NUM_CELLS = C.NUM_CELLS
NUM_SEATS = C.MAX_PLAYERS
NEIGHBORS = square_neighbors(SIZE, SIZE).astype(np.int64)
DOOR_CELL = (SIZE // 2) * SIZE + SIZE // 2
# direction codes are core.grid's (NORTH, EAST, SOUTH, WEST), in actions and on the record
DIRECTION_NAMES = ("north", "east", "south", "west")
assert tuple(name[0].upper() for name in DIRECTION_NAMES) == SQUARE_DIRECTIONS


def _edges() -> tuple[np.ndarray, np.ndarray]:
    edge_of = np.full((NUM_CELLS, 4), -1, dtype=np.int64)
    cells = []
    for a in range(NUM_CELLS):
        for d in (1, 2):  # east and south: each inner edge once
            b = NEIGHBORS[a, d]
            if b >= 0:
                edge_of[a, d] = len(cells)
                edge_of[b, (d + 2) % 4] = len(cells)
                cells.append((a, b))
    return edge_of, np.array(cells, dtype=np.int64)


EDGE_OF, EDGE_CELLS = _edges()  # EDGE_OF[cell, d]: the inner edge on that side (-1: the maze's rim)
NUM_EDGES = EDGE_CELLS.shape[0]  # 84
_ring = [r * SIZE + c for r in range(2, 5) for c in range(2, 5) if r * SIZE + c != DOOR_CELL]
START_CELLS = np.array(_ring, dtype=np.int64)  # the 3x3 grid around the Door tile
OUTER_CELLS = np.array([c for c in range(NUM_CELLS) if c not in _ring and c != DOOR_CELL], dtype=np.int64)

# a tile turned a quarter: the way, in actions (A_ROTATE) and events (EV_TILE_ROTATED)
CLOCKWISE, COUNTER_CLOCKWISE = 0, 1
TURN_NAMES = ("clockwise", "counter-clockwise")

# --- components -----------------------------------------------------------------------------
TILE_MASK = C.TILE_MASK.astype(np.int64)
TILE_SYMBOL = C.TILE_SYMBOL.astype(np.int64)
TILE_KIND = C.TILE_KIND.astype(np.int64)
TILE_COLOUR = C.TILE_COLOUR.astype(np.int64)
START_TILES = C.START_TILES
OUTER_TILES = C.OUTER_TILES
HERO_START_TILE = C.HERO_START_TILE
NUM_TILES = C.NUM_TILES
NUM_SLOTS = C.NUM_SLOTS
SLOT_COST = C.SLOT_COST
SPECIAL_COST = C.SPECIAL_COST
SPECIAL_PASSIVE = C.SPECIAL_PASSIVE.astype(np.int64)
KEY_ACTION_COST = C.KEY_ACTION_COST
KEY_TOKEN_COLOUR = C.KEY_TOKEN_COLOUR.astype(np.int64)
KEY_TOKEN_ACTION = C.KEY_TOKEN_ACTION.astype(np.int64)
NUM_KEY_TOKENS = C.NUM_KEY_TOKENS
NUM_COLOURS = C.NUM_KEY_COLOURS
NUM_KEY_ACTIONS = C.NUM_KEY_ACTIONS
NUM_CARD_TYPES = C.NUM_CARD_TYPES
CARD_EFFECT = C.CARD_EFFECT
CARD_REACTION = C.CARD_REACTION
CARD_COPIES = C.CARD_COPIES
CARD_DECK = C.CARD_DECK
MAX_DECK = C.MAX_DECK
FACE_KIND = C.MINOTAUR_FACE_KIND
FACE_HOOVES = C.MINOTAUR_FACE_HOOVES
BLOOD_FACES = C.BLOOD_FACES
HERMES = 0  # the card that cancels another

# options vector
OPT_MONSTER, OPT_KEY_SLOT = OPT_RULESET, OPT_RULESET + 1  # after num_players, max_turns (core.contract)
NUM_OPTIONS = 4

# --- actions --------------------------------------------------------------------------------
A_CELL = 0  # + cell: move there / the monster moves there / displace there (49)
A_EXPLORE = A_CELL + NUM_CELLS  # + direction (4)
A_DISCOVER = A_EXPLORE + 4
A_CARD = A_DISCOVER + 1  # + card type: play (or discard) it (15)
A_ROT_WALL = A_CARD + NUM_CARD_TYPES  # + from side * 4 + to side (16)
A_ROTATE = A_ROT_WALL + 16  # + cell * 2 + way (CLOCKWISE, COUNTER_CLOCKWISE) (98)
A_HEAL = A_ROTATE + 2 * NUM_CELLS
A_SPECIAL = A_HEAL + 1
A_KEY_ACT = A_SPECIAL + 1  # + key action (16)
A_RECOVER = A_KEY_ACT + NUM_KEY_ACTIONS  # + Feet tokens paid (0..5, the rest Hand)
A_REARRANGE = A_RECOVER + C.RECOVER_COST + 1  # + Feet tokens paid (0..3)
A_PASS = A_REARRANGE + C.REARRANGE_COST + 1
A_ORIENT = A_PASS + 1  # + rotation (4)
A_KEY_PICK = A_ORIENT + 4  # + the key token chosen (its key action) (16)
A_SLOT = A_KEY_PICK + NUM_KEY_ACTIONS  # + action slot (9)
A_EDGE = A_SLOT + NUM_SLOTS  # + inner edge (84)
A_CHARGE = A_EDGE + NUM_EDGES  # + direction (4)
A_REFRESH = A_CHARGE + 4  # + Feet tokens taken (0..7, the rest Hand)
A_HERO = A_REFRESH + C.POOL_SIZE + 1  # + hero (4)
A_TARGET = A_HERO + C.NUM_HEROES  # + seat offset - 1 (3)
A_YES = A_TARGET + NUM_SEATS - 1  # play the reaction / roll the die instead
A_NO = A_YES + 1  # decline
A_DONE = A_NO + 1  # stop (secret lever, build, visions, optional discards)
NUM_ACTIONS = A_DONE + 1

# --- decisions ------------------------------------------------------------------------------
(
    D_HERO,
    D_MAIN,
    D_ORIENT,
    D_KEY_PICK,
    D_KEY_SLOT,
    D_REARRANGE,
    D_HEAL,
    D_WALL,
    D_WOUND,
    D_MONSTER,
    D_PASSAGE,
    D_CHARGE,
    D_DISPLACE,
    D_INTUITION,
    D_CANCEL,
    D_DODGE,
    D_REFRESH,
    D_DISCARD_OPT,
    D_DISCARD,
    D_LEVER,
    D_BUILD,
    D_VISION_FROM,
    D_VISION_TO,
    D_TARGET,
    D_FREE_MOVE,
    D_ROTATE_CARD,
    D_SWAP_PLAYER,
    D_SWAP_KEY,
    D_NONE,
) = range(29)
NUM_DECISIONS = 29
DECISIONS = (
    "choose a hero board",
    "action",
    "place the explored tile",
    "choose a key token",
    "place the key token on a slot",
    "rearrange: choose the key token to move",
    "heal: choose the wound to remove",
    "place a wall token",
    "place a wound token",
    "spend a monster movement point",
    "secret passage: choose the monster's tile",
    "charge: choose the direction",
    "displace the attacked hero",
    "wild intuition: roll the Minotaur die instead?",
    "play Hermes' Mischief?",
    "play a reaction card against the attack?",
    "refresh the action pool",
    "discard Desperation cards before drawing?",
    "discard down to the hand limit",
    "secret lever: rotate a tile",
    "build: place or remove a wall",
    "visions: choose a wall to rotate",
    "visions: choose the wall's new side",
    "choose a player",
    "move (Ariadne's Thread or a key action)",
    "rotate a tile (Earthquake)",
    "trickster's swap: choose a player",
    "trickster's swap: choose your key token",
    "none",
)

# turn phases
PH_HERO, PH_MAIN, PH_REFRESH, PH_HAND_OPT, PH_HAND_DRAW, PH_HAND_FORCED, PH_ROLL, PH_END = range(8)
PHASE_NAMES = (
    "choosing heroes",
    "actions",
    "refreshing the pool",
    "refreshing the hand",
    "refreshing the hand",
    "refreshing the hand",
    "Minotaur die",
    "end of turn",
)
assert len(PHASE_NAMES) == PH_END + 1

# tasks
T_ARRIVE, T_WOUND, T_DODGE, T_DISPLACE, T_MONSTER, T_ROLL, T_EFFECT, T_ASK_CANCEL = range(8)
MAX_TASKS = 48

# --- events: (type, seat, a, b, c, d) ------------------------------------------------------------
# how a hero was moved onto a tile (EV_MOVE)
HOW_MOVE, HOW_PASSAGE, HOW_THREAD, HOW_DISPLACED, HOW_KEY, HOW_HIDING = 0, 1, 2, 3, 4, 5
HOW_NAMES = ("move", "secret passage", "ariadne's thread", "displaced", "key action", "hiding place")
# what a free move (D_FREE_MOVE) may reach: a tile as the Move action goes; the same, even
# the monster's tile; any explored secret passage tile; any explored Hide tile
MOVE_AS_MOVE, MOVE_LEAP, MOVE_PASSAGE, MOVE_HIDE = 0, 1, 2, 3
# how the monster came onto a tile (EV_MONSTER_MOVE): a movement point, the die's secret
# passage face, a charge, the Door rule, its entry after the first round, the Lyre of Orpheus
MONSTER_HOW_POINT, MONSTER_HOW_PASSAGE, MONSTER_HOW_CHARGE = 0, 1, 2
MONSTER_HOW_DOOR, MONSTER_HOW_ENTERS, MONSTER_HOW_LYRE, MONSTER_HOW_BANISHED = 3, 4, 5, 6
MONSTER_HOW_NAMES = ("point", "secret passage", "charge", "door", "enters", "lyre", "banishment")

EV_FIRST_PLAYER = 1  # seat
EV_HERO = 2  # seat, hero
EV_TURN = 3  # seat, turn
EV_MOVE = 4  # seat, from, to, how (HOW_*)
EV_EXPLORE = 5  # seat, cell, tile
EV_ORIENT = 6  # seat, cell, rotation
EV_KEY = 7  # seat, key token, slot
EV_CARD = 8  # seat, card type
EV_CANCEL = 9  # seat, cancelled card type, its player
EV_WALL_ROTATED = 10  # seat, from edge, to edge
EV_TILE_ROTATED = 11  # seat (-1: the monster), cell, way (CLOCKWISE, COUNTER_CLOCKWISE)
EV_WALL_PLACED = 12  # seat, edge
EV_WALL_REMOVED = 13  # seat (-1: the monster), edge
EV_HEAL = 14  # seat, slot
EV_RECOVER = 15  # seat, wounds removed
EV_REARRANGE = 16  # seat, from slot, to slot
EV_WOUND = 17  # seat, slot (-1: discarded, every action wounded)
EV_REFRESH = 18  # seat, Feet, Hand
EV_DRAW = 19  # seat, cards drawn (which ones is private)
EV_DISCARD = 20  # seat, card type
EV_ROLL = 21  # seat, Minotaur die face
EV_BLOOD = 22  # seat (the controller), wounds
EV_MONSTER_MOVE = 23  # controller, from, to, how (MONSTER_HOW_*)
EV_ATTACK = 24  # controller, cell, attacked seats (bit set)
EV_DISPLACE = 25  # hero, to (-1: stays), controller
EV_TOKENS = 26  # seat, Feet gained, Hand gained (negative: lost)
EV_RESHUFFLE = 27  # -1, deck size
EV_SPECIAL = 28  # seat, hero
EV_KEY_ACTION = 29  # seat, key action
EV_HUNT = 30  # -1, hunted seat
EV_WIN = 31  # seat
EV_TRUNCATED = 32
EV_POINTS = 33  # controller, movement points
EV_SHIELD = 34  # seat (not displaced)
EV_INTUITION = 35  # seat, rolls (1) or not (0)
EV_KEY_SWAP = 36  # seat, other seat, the seat's token given, the token received
MAX_EVENTS = 96

# --- the state record ------------------------------------------------------------------------------
STATE_DTYPE = state_dtype(
    NUM_OPTIONS,
    MAX_EVENTS,
    [
        ("monster", np.int8),
        ("use_key_slot", np.int8),
        # the maze
        ("cell_tile", np.int8, (NUM_CELLS,)),
        ("cell_mask", np.uint8, (NUM_CELLS,)),
        ("cell_up", np.uint8, (NUM_CELLS,)),
        ("wall", np.uint8, (NUM_EDGES,)),
        ("wall_supply", np.int8),
        ("monster_cell", np.int8),
        # heroes
        ("hero", np.int8, (NUM_SEATS,)),
        ("position", np.int8, (NUM_SEATS,)),
        ("feet", np.int8, (NUM_SEATS,)),
        ("hands", np.int8, (NUM_SEATS,)),
        ("slot_key", np.int8, (NUM_SEATS, NUM_SLOTS)),
        ("slot_wound", np.uint8, (NUM_SEATS, NUM_SLOTS)),
        ("feet_supply", np.int8),
        ("hand_supply", np.int8),
        ("wound_supply", np.int8),
        ("key_pile", np.uint8, (NUM_KEY_TOKENS,)),
        ("key_seen", np.uint8, (NUM_SEATS, NUM_KEY_TOKENS)),
        # Desperation cards
        ("hand", np.int8, (NUM_SEATS, NUM_CARD_TYPES)),
        ("deck", np.int8, (MAX_DECK,)),
        ("deck_len", np.int16),
        ("discard", np.int8, (NUM_CARD_TYPES,)),
        ("num_cards", np.int16),
        # the turn
        ("first_player", np.int8),
        ("hero_pos", np.int8),
        ("phase", np.int8),
        # what a pending decision is about
        ("pending_cell", np.int8),
        ("pending_token", np.int8),
        ("pending_slot", np.int8),
        ("pending_edge", np.int16),
        ("pending_seat", np.int8),
        ("count_left", np.int8),
        ("attacked", np.int8),  # the heroes the monster attacked in this chain of attacks (bit set)
        ("move_mode", np.int8),
        ("move_how", np.int8),
        # the monster's movement in progress
        ("m_active", np.int8),
        ("m_ctrl", np.int8),
        ("m_points", np.int8),
        ("m_start", np.int8),
        ("m_hunt", np.int8),
        ("last_face", np.int8),
        ("last_blood", np.int8),
        # tasks still to resolve (a stack)
        ("task_kind", np.int8, (MAX_TASKS,)),
        ("task_seat", np.int8, (MAX_TASKS,)),
        ("task_a", np.int8, (MAX_TASKS,)),
        ("task_b", np.int8, (MAX_TASKS,)),
        ("num_tasks", np.int8),
        ("task_overflow", np.int8),
    ],
)

# --- the observation's layout ----------------------------------------------------------------
# per cell
CF_UP, CF_PATH, CF_SYMBOL, CF_DOOR, CF_KEY, CF_START = 0, 1, 5, 11, 12, 16
CF_WALL = CF_START + C.NUM_HEROES
CF_MONSTER = CF_WALL + 4
CF_HEROES = CF_MONSTER + 1
CELL_FEATURES = CF_HEROES + NUM_SEATS
# per seat
SF_PRESENT, SF_HERO, SF_TOKENS, SF_WOUND, SF_KEY = 0, 1, 5, 7, 16
SF_KEY_ACTION = SF_KEY + NUM_SLOTS * NUM_COLOURS
SF_COUNTS = SF_KEY_ACTION + NUM_SLOTS * NUM_KEY_ACTIONS  # keys, hand size, active, attacked this chain
SEAT_FEATURES = SF_COUNTS + 4
OBS_SEATS = NUM_CELLS * CELL_FEATURES
OBS_GLOBAL = OBS_SEATS + NUM_SEATS * SEAT_FEATURES
# the monster's block: kind (3), on board, points, hunted seat (4), die face (6), blood
GM_KIND = 0
GM_ON_BOARD = GM_KIND + len(C.MONSTER_NAMES)
GM_POINTS = GM_ON_BOARD + 1
GM_HUNTED = GM_POINTS + 1
GM_FACE = GM_HUNTED + NUM_SEATS
GM_BLOOD = GM_FACE + 6
MONSTER_FEATURES = GM_BLOOD + 1
# what the pending decision is about: cell (49), edge (84), seat (4), card (15), count, slot (9)
GP_CELL = 0
GP_EDGE = GP_CELL + NUM_CELLS
GP_SEAT = GP_EDGE + NUM_EDGES
GP_CARD = GP_SEAT + NUM_SEATS
GP_COUNT = GP_CARD + NUM_CARD_TYPES
GP_SLOT = GP_COUNT + 1
PENDING_FEATURES = GP_SLOT + NUM_SLOTS
# the global block
G_HAND = 0  # own hand by card type
G_DECISION = G_HAND + NUM_CARD_TYPES
G_DECIDER = G_DECISION + NUM_DECISIONS
G_MONSTER = G_DECIDER + NUM_SEATS
G_SUPPLY = G_MONSTER + MONSTER_FEATURES  # walls, Feet, Hand, wounds, deck
G_DISCARD = G_SUPPLY + 5
G_KEYS = G_DISCARD + NUM_CARD_TYPES  # per key token: in the pile and seen by me
G_PENDING = G_KEYS + 2 * NUM_KEY_TOKENS
G_ROUND = G_PENDING + PENDING_FEATURES
GLOBAL_FEATURES = G_ROUND + 3  # first round, turn, use of the empty key slot
OBS_SIZE = OBS_GLOBAL + GLOBAL_FEATURES
