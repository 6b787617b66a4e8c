"""Labyrinx kernel tables: sizes, the table's geometry, the options vector, the action
space, every code a record or an event holds (with the names the env decodes them by),
the state record and the observation's layout.

Codes stored in the record or written in events have their names here, next to them, so
the env and the picture decode them from one table.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import OPT_MAX_TURNS, OPT_PLAYERS, OPT_RULESET, state_dtype  # noqa: F401 (K.OPT_*)
from labyrinth_env.core.grid import ROTATE_SQUARE, SQUARE_DELTAS
from labyrinth_env.rulesets.labyrinx import components as C

# --- sizes and tables -----------------------------------------------------------------------------
MAXT = 13  # the largest table (cells are r * MAXT + c)
MIN_TABLE = 5
NUM_CELLS = MAXT * MAXT
NUM_SEATS = C.MAX_PLAYERS
NUM_CARDS = C.NUM_CARDS
NUM_KINDS = C.NUM_KINDS
MAX_HAND = 10  # a hand limit of 5 plus the four cards of a rest, and one spare
NUM_LINKS = 12  # a location's ways out: 4 sides of a card, or 3 exit cells x 4 sides
ALL_SIDES = 15  # the exit space is open on every side
NO_CELL = -1  # no space (nothing pending, a treasure from the reserve rather than a chest)
NO_SIDE = -1  # no side: a trap's landing, a card played or replaced (any rotation will do)
DR = SQUARE_DELTAS[:, 0].copy()
DC = SQUARE_DELTAS[:, 1].copy()
CARD_KIND = C.CARD_KIND.copy()
KIND_ICON = C.KIND_ICON.copy()
KIND_COUNT = C.KIND_COUNT.copy()
CHAR_ICONS = C.CHAR_ICONS.copy()
CHAR_POWER = C.CHAR_POWER.copy()
# open sides and doors of each card in each rotation
CARD_OPEN = np.zeros((NUM_CARDS, 4), dtype=np.int64)
CARD_DOORS = np.zeros((NUM_CARDS, 4), dtype=np.int64)
for _c in range(NUM_CARDS):
    for _r in range(4):
        CARD_OPEN[_c, _r] = ROTATE_SQUARE[C.KIND_OPEN[CARD_KIND[_c]], _r]
        CARD_DOORS[_c, _r] = ROTATE_SQUARE[C.KIND_DOORS[CARD_KIND[_c]], _r]
# the space beyond each side of each cell, per table size (the sides of the table wrap around)
NEIGHBORS = np.full((MAXT - MIN_TABLE + 1, NUM_CELLS, 4), -1, dtype=np.int16)
for _t in range(MIN_TABLE, MAXT + 1):
    for _r in range(_t):
        for _c in range(_t):
            for _d in range(4):
                NEIGHBORS[_t - MIN_TABLE, _r * MAXT + _c, _d] = ((_r + DR[_d]) % _t) * MAXT + (_c + DC[_d]) % _t
HAND_LIMIT = C.HAND_LIMIT
ACTIONS = C.ACTIONS_PER_TURN
REST_DRAWS = C.REST_DRAWS
RACE_TURN_LIMIT = C.RACE_TURN_LIMIT
TURN_DECISION_LIMIT = C.TURN_DECISION_LIMIT

# cell types
T_OUT, T_FREE, T_EXIT, T_PILE = 0, 1, 2, 3

# options vector
OPT_TABLE, OPT_POWERS = OPT_RULESET, OPT_RULESET + 1  # after num_players, max_turns (core.contract)
NUM_OPTIONS = 4

# --- actions --------------------------------------------------------------------------------------
A_MOVE = 0  # + cell
A_PEEK = A_MOVE + NUM_CELLS  # + cell
A_PLAY = A_PEEK + NUM_CELLS  # + hand slot
A_DRAW = A_PLAY + MAX_HAND
A_PUSH = A_DRAW + 1  # + (offset - 1): the character of the player `offset` seats to the left
A_POWER = A_PUSH + NUM_SEATS - 1
A_DESPAIR = A_POWER + 1
A_REST = A_DESPAIR + 1  # + (cards - 1)
A_END = A_REST + REST_DRAWS
A_CELL = A_END + 1  # + cell: where a card goes, where a character is pushed or moved, what the Seer sees
A_ROT = A_CELL + NUM_CELLS  # + rotation
A_SLOT = A_ROT + 4  # + hand slot: the card to discard (to the hand limit, or to pay for a challenge)
A_STOP = A_SLOT + MAX_HAND  # do not move the loser of a monster or trap (only before its movement begins)
A_DIR = A_STOP + 1  # + direction: the trap's straight line
A_ATTEMPT = A_DIR + 4  # attempt the chest with a treasure on it
A_DECLINE = A_ATTEMPT + 1
A_TAKE = A_DECLINE + 1  # + kind: the card without a challenge taken from the discard pile (despair)
NUM_ACTIONS = A_TAKE + NUM_KINDS

# --- decisions ------------------------------------------------------------------------------------
D_NONE, D_MAIN, D_EXPAND, D_PLAY_CELL, D_PUSH_TO, D_ROTATE, D_DISCARD = 0, 1, 2, 3, 4, 5, 6
D_PAY, D_MONSTER, D_TRAP, D_CHEST, D_TAKE, D_SEER = 7, 8, 9, 10, 11, 12
NUM_DECISIONS = 13
DECISIONS = (
    "resolving",
    "action",
    "the labyrinth expands: where the card goes",
    "play a card: where",
    "push: where",
    "rotate the card",
    "discard down to the hand limit",
    "discard cards to match the difficulty",
    "move the loser of the monster (player on the left)",
    "move the loser of the trap in a straight line (player on the left)",
    "attempt the chest's treasure?",
    "despair: take a card without a challenge from the discard pile",
    "Seer: peek at which card",
)

# the phase of the active player's turn
PH_EXPAND, PH_ACTION = 0, 1
PHASE_NAMES = ("the labyrinth expands", "actions")

# how a character comes into a location (EV_MOVE), and what a rotation decision is for (``pl_kind``)
HOW_MOVE, HOW_PUSH, HOW_MONSTER, HOW_TRAP, HOW_PLAY, HOW_DESPAIR, HOW_BUILDER = 0, 1, 2, 3, 4, 5, 6
HOW_NAMES = ("move", "push", "monster", "trap", "play", "despair", "builder")
NUM_HOWS = len(HOW_NAMES)

# the movement a failed monster or trap gives the left-hand player (``mv_kind``)
MV_NONE, MV_MONSTER, MV_TRAP = 0, 1, 2
MOVEMENT_NAMES = ("none", "monster", "trap")

# why the game ends (EV_END_TRIGGER) and how it was won (EV_WIN)
END_CARDS, END_TABLE = 0, 1
END_NAMES = ("all cards in game", "table full")
WIN_FIVE, WIN_MOST, WIN_RACE = 0, 1, 2
WIN_NAMES = ("five treasures", "most treasures", "race back to the Empty Hall")
# why a game is truncated (EV_TRUNCATED): max_turns, or the env's guaranteed end (C.RACE_TURN_LIMIT,
# C.TURN_DECISION_LIMIT), which holds even with max_turns=None
CUT_MAX_TURNS, CUT_RACE, CUT_TURN = 0, 1, 2
CUT_NAMES = ("max_turns", "the race's turn limit", "the turn's decision limit")

# events: (type, seat, a, b, c, d); seat NO_SEAT (-1, ``core.contract``) when nobody acts
EV_TURN = 1  # seat, turn
EV_EXPAND = 2  # seat, cell (face down: the card is not shown)
EV_MOVE = 3  # seat, from, to, how (HOW_*)
EV_LOST_MOVE = 4  # seat, cell it stays on, door cell
EV_FLIP = 5  # seat (who flips), cell, kind
EV_ROTATE = 6  # decider, cell, kind, rotation
EV_PEEK = 7  # seat, cell
EV_PLAY = 8  # seat, cell, kind
EV_DRAW = 9  # seat, cards drawn
EV_DISCARD = 10  # seat, kind
EV_CHALLENGE = 11  # seat, icon, difficulty, icons of the character
# 12: v0's reroll (a passive power no character has since v1)
EV_SUCCESS = 13  # seat, icon, treasure taken (0/1), from the chest (1) or the reserve (0)
EV_FAIL = 14  # seat, icon, treasure lost (0/1), mover (NO_SEAT: a chest moves nobody)
EV_CHEST_GOLD = 15  # seat, cell (a treasure left on the chest)
EV_RESHUFFLE = 16  # NO_SEAT, cards
EV_DESPAIR = 17  # seat, cards drawn looking for one without a challenge
EV_REST = 18  # seat, cards drawn
EV_FLIP_DOWN = 19  # seat, cards flipped face down
EV_END_TRIGGER = 20  # seat, reason (END_*)
EV_RACE = 21  # NO_SEAT, racers (bit set)
EV_WIN = 22  # seat, how (WIN_*)
EV_TRUNCATED = 23  # NO_SEAT, why (CUT_*)
EV_POWER = 24  # seat, power, a, b
EV_CARDS_OUT = 25  # NO_SEAT (draw pile and discard pile both empty)
EV_DRAWN_PLACED = 26  # seat (who places), cell, kind: a card from the deck played face up
EV_REPLACE = 27  # seat, cell, old kind, new kind (despair)
EV_STOP = 28  # mover, moved seat, steps (the loser is not moved at all)
EV_DECLINE = 29  # seat, cell (a chest's treasure left alone)
MAX_EVENTS = 64

# --- the state record -----------------------------------------------------------------------------
STATE_DTYPE = state_dtype(
    NUM_OPTIONS,
    MAX_EVENTS,
    [
        ("table", np.int8),
        ("powers", np.int8),
        ("exit0", np.int16),
        # the table
        ("cell_type", np.uint8, (NUM_CELLS,)),
        ("cell_card", np.int8, (NUM_CELLS,)),
        ("cell_rot", np.int8, (NUM_CELLS,)),
        ("cell_up", np.uint8, (NUM_CELLS,)),
        ("cell_beaten", np.uint8, (NUM_CELLS,)),
        ("cell_gold", np.uint8, (NUM_CELLS,)),
        ("known", np.uint8, (NUM_SEATS, NUM_CELLS)),
        ("num_empty", np.int16),
        # cards and treasures
        ("deck", np.int8, (NUM_CARDS,)),
        ("deck_len", np.int16),
        ("discard", np.int8, (NUM_CARDS,)),
        ("discard_len", np.int16),
        ("hand", np.int8, (NUM_SEATS, MAX_HAND)),
        ("hand_len", np.int8, (NUM_SEATS,)),
        ("reserve", np.int8),
        ("treasure", np.int8, (NUM_SEATS,)),
        # characters
        ("character", np.int8, (NUM_SEATS,)),
        ("pos", np.int16, (NUM_SEATS,)),
        ("racer", np.uint8, (NUM_SEATS,)),
        # the turn
        ("first_player", np.int8),
        ("phase", np.int8),
        ("actions_left", np.int8),
        ("regular_done", np.int8),
        ("unlocked", np.int8),
        ("thief_used", np.int8),
        ("race", np.int8),
        ("race_turns", np.int16),
        ("turn_steps", np.int32),
        ("cards_out", np.int8),
        # what is being resolved
        ("sel_slot", np.int8),
        ("sel_target", np.int8),
        ("pl_kind", np.int8),
        ("pl_cell", np.int16),
        ("pl_origin", np.int16),
        ("pl_dir", np.int8),
        ("pl_seat", np.int8),
        ("ch_seat", np.int8),
        ("ch_cell", np.int16),
        ("ch_icon", np.int8),
        ("ch_diff", np.int8),
        ("ch_need", np.int8),
        ("mv_kind", np.int8),
        ("mv_seat", np.int8),
        ("mv_mover", np.int8),
        ("mv_steps", np.int8),
        ("mv_begun", np.int8),
        ("scratch", np.uint8, (NUM_ACTIONS,)),
    ],
)

# --- the observation's layout ---------------------------------------------------------------------
F_IN, F_EXIT, F_PILE, F_EMPTY, F_DOWN, F_UP = 0, 1, 2, 3, 4, 5
F_KIND = 6  # the card's kind, when the observer may know it (face up, or remembered)
F_OPEN = F_KIND + NUM_KINDS  # open sides of a face-up card once rotated
F_DOOR = F_OPEN + 4
F_BEATEN = F_DOOR + 4
F_GOLD = F_BEATEN + 1
F_KNOWN = F_GOLD + 1  # a face-down card the observer remembers
F_PENDING = F_KNOWN + 1  # the card waiting for its rotation / the challenge being fought
F_CHAR = F_PENDING + 1  # characters by relative seat
CELL_FEATURES = F_CHAR + NUM_SEATS
OBS_CELLS = NUM_CELLS * CELL_FEATURES
SEAT_FEATURES = 8 + C.NUM_CHARACTERS  # in play, treasures, hand, limit, icons x3, racer, character
OBS_SEATS = OBS_CELLS
G_BASE = OBS_SEATS + NUM_SEATS * SEAT_FEATURES
G_DECISION = 0
G_DECIDER = G_DECISION + NUM_DECISIONS
G_TURN = G_DECIDER + NUM_SEATS  # actions left, regular done, doors unlocked, thief used, powers on, race,
# the race's turns so far (of RACE_TURN_LIMIT: the guaranteed end's clock is public)
G_PILES = G_TURN + 7  # deck, discard, reserve, cards out
G_DISCARD_KINDS = G_PILES + 4
G_DISCARD_TOP = G_DISCARD_KINDS + NUM_KINDS
G_CHALLENGE = G_DISCARD_TOP + NUM_KINDS  # icon x3, difficulty, cards still to pay, seat x6
G_MOVEMENT = G_CHALLENGE + C.NUM_ICONS + 2 + NUM_SEATS  # monster, trap, steps, moved seat x6
G_PLACING = G_MOVEMENT + 3 + NUM_SEATS  # what the rotation is for (HOW_*)
G_PUSH_TARGET = G_PLACING + NUM_HOWS  # the character being pushed, by relative seat
G_SELECTED_SLOT = G_PUSH_TARGET + NUM_SEATS  # the observer's own card being played
G_HAND = G_SELECTED_SLOT + MAX_HAND
GLOBAL_FEATURES = G_HAND + MAX_HAND * NUM_KINDS
OBS_SIZE = G_BASE + GLOBAL_FEATURES

assert len(DECISIONS) == NUM_DECISIONS and len(MOVEMENT_NAMES) == MV_TRAP + 1 and NUM_HOWS == HOW_BUILDER + 1
assert len(END_NAMES) == END_TABLE + 1 and len(WIN_NAMES) == WIN_RACE + 1 and len(PHASE_NAMES) == PH_ACTION + 1
