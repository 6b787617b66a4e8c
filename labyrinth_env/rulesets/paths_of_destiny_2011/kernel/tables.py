"""Paths of Destiny (2011 edition): the kernel's sizes and tables, the options vector, the
action offsets, the codes of decisions, throws, encounters and events (with the names the
env decodes them by), the state record and the observation's layout."""

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
from labyrinth_env.core.grid import HEX_CENTER
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
    NUM_STARTS,
    START_CELL,
)
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

# --- geometry (the board with its frame, shared with the 3rd edition: core.hexboard) ------
MC = C.MAX_CORRIDORS
NUM_SEATS = C.MAX_PLAYERS
NEIGHBORS = hexboard.FRAME_NEIGHBORS
CENTER_CELL = HEX_CENTER
CENTER_NODE = CENTER_CELL * MC

# --- the components' tables, as the kernel reads them ------------------------------------
TILE_MASK = C.TILE_CORRIDOR_MASK.copy()
TILE_LEVEL = C.TILE_CORRIDOR_LEVEL.copy()
TILE_PAIR = C.TILE_BRIDGE_PAIR.copy()
NUM_NORMAL_TILES = C.NUM_NORMAL_TILES
NUM_TILES = C.NUM_TILES
NUM_TRAPS = C.NUM_TRAPS
NUM_TRAP_TYPES = C.NUM_TRAP_TYPES
NUM_GUARD_CARDS = C.NUM_GUARD_CARDS
NUM_KEYS = C.NUM_KEYS
LIFE = C.LIFE
TRAP_TOKENS = C.TRAP_TOKENS.astype(np.int64)
TRAP_DIFF = C.TRAP_DIFFICULTY.astype(np.int64)
TRAP_DIFF2 = C.TRAP_BRACKET.astype(np.int64)
TRAP_LIFE = C.TRAP_LIFE.astype(np.int64)
TRAP_STUN = C.TRAP_STUN.astype(np.int64)
TRAP_MOVE = C.TRAP_MOVE.astype(np.int64)
GUARD_KIND = C.GUARD_CARD_KIND.astype(np.int64)
GUARD_STEPS = C.GUARD_CARD_STEPS.astype(np.int64)
GUARD_CLASS = C.GUARD_CARD_CLASS.astype(np.int64)
FIXED_SEATS = pod.start_field_table(C.FIXED_SEATS, NUM_SEATS)

# options vector
OPT_CRYSTAL = OPT_RULESET  # after num_players, max_turns (core.contract)
OPT_CHARS = OPT_CRYSTAL + 1  # none / random / list / draft (``core.characters.MODE_*``)
OPT_CHAR_LIST = OPT_CHARS + 1  # + seat: the character of each seat (``MODE_LIST``; -1 otherwise)
NUM_OPTIONS = OPT_CHAR_LIST + NUM_SEATS
NUM_CHARACTERS = C.NUM_CHARACTERS
SKILLS_PER_CHARACTER = C.SKILLS_PER_CHARACTER
(ARCHITECT, ASSASSIN, ILLUSIONIST, HEAD_HUNTER, ARCHER, MONK, MISTRESS, SWORD_MASTER, THIEF, WITCH) = range(10)

# --- actions ---------------------------------------------------------------------------
A_BUILD = 0
A_MOVE = 1  # + direction (6)
A_JUMP_DOWN = 7
A_COME_DOWN = 8
A_CLIMB_UP = 9
A_REST = 10
A_ATTACK = 11  # + (offset - 1): the player `offset` seats after you (4)
A_KILL = A_ATTACK + NUM_SEATS - 1  # + (offset - 1): kill a stunned player, taking its key
A_TAKE_KEY = A_KILL + NUM_SEATS - 1  # + (offset - 1): take the key of a stunned player (free)
A_LIFT_KEY = A_TAKE_KEY + NUM_SEATS - 1  # + key (free)
A_SET_TRAP = A_LIFT_KEY + NUM_KEYS  # + board corridor node (111)
A_MOVE_GUARD = A_SET_TRAP + NUM_BOARD_NODES
A_REGENERATE = A_MOVE_GUARD + 1
A_END_TURN = A_REGENERATE + 1
A_PLACE = A_END_TURN + 1  # + cell * 6 + rotation (222)
A_GUARD_DIR = A_PLACE + NUM_BOARD * 6  # + direction (6)
A_KEEP = A_GUARD_DIR + 6  # keep the throw
A_REROLL = A_KEEP + 1  # throw again with the fate crystal
A_DECLINE = A_REROLL + 1  # no attack
A_ATTACK_NEWCOMER = A_DECLINE + 1  # a player in the corridor attacks the one coming in
A_TARGET = A_ATTACK_NEWCOMER + 1  # + (offset - 1): the newcomer attacks that player (free)
A_JOIN = A_TARGET + NUM_SEATS - 1  # attack the player the newcomer chose, in its group
A_START_FIELD = A_JOIN + 1  # + start field (6)
NUM_BASE_ACTIONS = A_START_FIELD + NUM_STARTS  # v1's actions; the characters' follow (never legal without)
A_CHARACTER = NUM_BASE_ACTIONS  # + character (10): take that character card (the draft)
A_SKILL = A_CHARACTER + NUM_CHARACTERS  # + slot (3): use the character's skill of that slot
A_SKILL_AT = A_SKILL + SKILLS_PER_CHARACTER  # + slot * 5 + (offset - 1): that skill on a player
A_SKILL_DIR = A_SKILL_AT + SKILLS_PER_CHARACTER * (NUM_SEATS - 1)  # + slot * 6 + d: towards the corridor across d
A_PRAY = A_SKILL_DIR + SKILLS_PER_CHARACTER * 6  # + (offset - 1) * 6 + d: the Monk's Prayer moves that player
# + 0 / 1: of a corridor's two traps, the first / second set: crossed first (``D_TRAP_ORDER``),
# or disarmed or set off by the Rite (``D_WHICH_TRAP``)
A_TRAP_ORDER = A_PRAY + (NUM_SEATS - 1) * 6
A_NO_THEFT = A_TRAP_ORDER + 2  # the Thief does not try (the theft decision: else A_SKILL_AT + offset - 1)
A_CORRECTION = A_NO_THEFT + 1  # + field * 5 + turns - 1: the Architect turns a field (0-5 across d, 6 his own)
NUM_ACTIONS = A_CORRECTION + 7 * 5

# --- decisions -----------------------------------------------------------------------------
(D_MAIN, D_START, D_PLACE, D_GUARD_DIR, D_REROLL, D_OCCUPANT, D_ENTRANT, D_DECLARE) = range(8)
D_CHARACTER, D_TRAP_ORDER, D_THEFT, D_RITE = 8, 9, 10, 11
D_FACE_DOWN, D_UNCOVER = 12, 13  # the Illusionist's Spreading Illusion (l.380-381)
D_WHICH_TRAP = 14  # which of a corridor's two traps Disarming Traps or the Misfortune Rite takes (v6)
NUM_DECISIONS = 15
OBS_DECISIONS = 8  # the decisions of v1's observation block; D_CHARACTER is shown in the character block
DECISIONS = (
    "action",
    "choose a start field",
    "place the board field",
    "Guard direction",
    "repeat the throw with the fate crystal?",
    "attack the player coming in?",
    "attack on coming in",
    "declare an attack",
    "choose a character",
    "which trap first",
    "try to steal a key?",
    "where does the Misfortune Rite send the player?",
    "where to build the field face down",
    "turn the covered field face up",
    "which of the two traps (Disarming Traps, Misfortune Rite)",
)

# throws in progress (``ck_kind``)
CK_NONE, CK_JUMP, CK_GUARD, CK_TRAP, CK_FIGHT, CK_FIRST, CK_SHOT, CK_DISARM, CK_THEFT = range(9)
CHECK_NAMES = ("none", "jump", "guard", "trap", "fight", "first player", "shot", "disarming a trap", "theft")
NUM_CHECKS = len(CHECK_NAMES)
OBS_CHECKS = 6  # the throws of v1's observation block; the skills' throws are shown in the character block
# how a character came into a corridor: the trap modes, then "sent back" (an ordinary move)
M_ENTER, M_CLIMB, M_DOWN, M_LEAVE = C.MODE_ENTER, C.MODE_CLIMB, C.MODE_DOWN, C.MODE_LEAVE
ENTRY_NAMES = ("move", "climb up", "jump down", "leave")  # EV_MOVE's "how"
# encounter phases (``ex_phase``)
P_START, P_OCCUPANT, P_ENTRANT, P_CHOOSE, P_DECLARE, P_VS_ENTRANT, P_VS_TARGET, P_DONE = 0, 1, 2, 3, 4, 5, 6, 7

# --- events: (type, seat, a, b, c, d) ------------------------------------------------------
EV_FIRST_PLAYER = 1  # seat, roll
EV_START_TURN = 2  # seat, turn
EV_BUILD = 3  # seat, tile, cell, rotation
EV_BUILD_NOWHERE = 4  # seat, tile (no legal place: back to the bottom of the pile)
EV_TRAP_SET = 5  # seat, node (face down)
EV_MOVE = 6  # seat, from node, to node, how (M_*)
EV_JUMP = 7  # seat, die, success
EV_REST = 8  # seat, stun left
EV_TRAP_REVEALED = 9  # seat, node, trap type
EV_TRAP_CHECK = 10  # seat, trap type, throw, difficulty, mode
EV_GUARD_MEETING = 11  # seat, throw (NO_THROW: stunned), stays
EV_FIGHT = 12  # defender, attackers (bit set), attackers' result, defender's result
EV_LIFE = 13  # seat, change, life after
EV_STUN = 14  # seat, change, stun after
EV_DEATH = 15  # seat, node
EV_DROP_KEY = 16  # seat, key, node
EV_HOME = 17  # seat, from node (back on its start field)
EV_RESTORED = 18  # seat (life and stun restored at the start field)
EV_LIFT_KEY = 19  # seat, key
EV_TAKE_KEY = 20  # seat, key, from seat
EV_KILL = 21  # seat, victim
EV_GUARD_CARD = 22  # seat, kind, steps
EV_GUARD_MOVE = 23  # NO_SEAT, from, to
EV_GUARD_SLEEP = 24  # NO_SEAT, GUARD_WAKES / GUARD_FALLS_ASLEEP
EV_REROLL = 25  # seat, check kind
EV_CRYSTAL = 26  # seat, active after
EV_TURNED_BACK = 27  # seat, from, to
EV_SENT_BACK = 28  # seat, from (the central field), to
EV_WIN = 29  # seat
EV_TRUNCATED = 30
EV_START_FIELD = 31  # seat, start field
EV_CHOOSER = 32  # seat drawn to choose first
EV_DECLARE = 33  # seat, DECLARE_*, target
EV_HELD = 34  # seat, node (a door trap held it)
EV_CHARACTER = 35  # seat, character (dealt, fixed or taken in the draft)
EV_SKILL = 36  # seat, skill id, target seat (NO_SEAT: none), node
EV_TOKENS = 37  # seat, TOKEN_*, change, tokens after (on that seat)
EV_SHOT = 38  # target seat, throw, hit, archer
EV_DISARM = 39  # seat, node, trap type, throw, success (the token shuffled back into the pile)
EV_THEFT = 40  # thief, victim, throw, success
EV_TIME_LOOP = 41  # seat (a player the undone action touched), corridor now, corridor restored, life restored
EV_FACE_DOWN = 42  # seat (the Illusionist), cell (a field built face down, unseen)
EV_UNCOVERED = 43  # seat (the Illusionist), tile, cell, rotation, who entered it (NO_SEAT: the Guard)
EV_ENSLAVED_MOVE = 44  # seat (transformed into the Guard: Enslavement, l.400), from node, to node
EV_ENSLAVED_MEETING = 45  # seat met by the transformed player, the transformed seat, key lost (-1: none, l.401)
EV_ENSLAVED_END = 46  # seat (himself again), node
EV_FOUNDATION = 47  # seat (the Architect), field put back (shuffled into the pile), field drawn instead
MAX_EVENTS = 64
# the codes inside events
NO_THROW = 0  # EV_GUARD_MEETING of a stunned player: home without a throw
GUARD_WAKES, GUARD_FALLS_ASLEEP = 0, 1
GUARD_SLEEP_NAMES = ("guard_wakes", "guard_sleeps")
DECLARE_NONE, DECLARE_TARGET, DECLARE_JOIN, DECLARE_NEWCOMER = 0, 1, 2, 3
DECLARE_NAMES = ("no attack", "attacks", "joins the attack on", "attacks the newcomer")
TOKEN_ADRENALINE, TOKEN_BLESSING, TOKEN_CURSE = 0, 1, 2
TOKEN_NAMES = ("adrenaline", "blessing", "curse")
NO_TARGET = -1
# skill ids (3 * character + slot) the kernel reads
SK_CLIMBING = 3 * ASSASSIN
SK_ADRENALINE = 3 * ARCHER
SK_SHOT = 3 * ARCHER + 1
SK_BLESSING = 3 * MONK + 1
SK_DOMINATION = 3 * MISTRESS + 1
SK_DISARMING = 3 * THIEF + 1
SK_CURSE = 3 * WITCH
SK_DARK_ENLIVENING = 3 * WITCH + 1
SK_PRAYER = 3 * MONK
SK_WHIRLING_BLADES = 3 * SWORD_MASTER
SK_MYSTIFICATION = 3 * ILLUSIONIST + 1
SK_ENTRAPMENT = 3 * HEAD_HUNTER
SK_THEFT = 3 * THIEF
SK_KEEN_EYE = 3 * ARCHER + 2
SK_SILENT_STEP = 3 * ASSASSIN + 1
SK_BOUNTY = 3 * HEAD_HUNTER + 1
SK_GOLEM_WARD = 3 * MISTRESS + 2
SK_MISFORTUNE_RITE = 3 * WITCH + 2
SK_CORRECTION = 3 * ARCHITECT
SK_QUICK_FINGERS = 3 * THIEF + 2
SK_PARRY = 3 * SWORD_MASTER + 1
SK_MEDITATION = 3 * MONK + 2
SK_DISARM = 3 * SWORD_MASTER + 2
SK_TIME_LOOP = 3 * ASSASSIN + 2
SK_SPREADING_ILLUSION = 3 * ILLUSIONIST
SK_MIRROR_IMAGE = 3 * ILLUSIONIST + 2
SK_SHORTCUT = 3 * ARCHITECT + 2
SK_ENSLAVEMENT = 3 * MISTRESS
SK_FOUNDATION = 3 * ARCHITECT + 1
SK_TRACKING = 3 * HEAD_HUNTER + 2

STATE_DTYPE = state_dtype(
    NUM_OPTIONS,
    MAX_EVENTS,
    [
        ("choose_order", np.int8, (NUM_SEATS,)),
        ("choose_pos", np.int8),
        ("first_player", np.int8),
        ("first_roll", np.int8, (NUM_SEATS,)),  # the throws for the first player
        ("first_tied", np.int32),  # the players still throwing for it (0: decided)
        # board
        *hexboard.BOARD_FIELDS,
        ("trap_failed", np.uint8, (NUM_NODES,)),
        # piles and the deck
        *pod.pile_fields(NUM_NORMAL_TILES, NUM_TRAPS),
        ("guard_deck", np.int8, (NUM_GUARD_CARDS,)),
        ("guard_pos", np.int8),
        # the Guard
        ("guard_node", np.int16),
        ("guard_from", np.int16),
        ("guard_from_turn", np.int32),
        ("guard_asleep", np.int8),
        ("guard_steps", np.int8),
        ("guard_ignore", np.int32),
        ("guard_checks", np.int32),
        # keys and players
        *pod.piece_fields(NUM_SEATS),
        ("key_touched", np.int32, (NUM_KEYS,)),
        # what each player has met in the corridor it stands in (bit sets of seats, cleared
        # when it comes into another corridor: ``queries.set_position``)
        ("fight_lost", np.int32),  # lost its last fight there: not past the players yet
        ("trap_fell", np.int32),  # fell into the trap there: not past the trap
        ("left_start", np.int32),  # came onto its key field from its start field
        ("took_key", np.int32, (NUM_SEATS,)),  # per taker: the stunned players it took a key from
        # the round
        *pod.TURN_FIELDS,
        ("guard_used", np.int8),
        # the entry into a corridor being resolved
        ("ex_active", np.int8),
        ("ex_seat", np.int8),
        ("ex_node", np.int16),
        ("ex_from", np.int16),
        ("ex_mode", np.int8),
        ("ex_ignore_trap", np.int8),
        ("ex_step", np.int8),
        ("ex_phase", np.int8),
        ("ex_bonus", np.int32),
        ("ex_target", np.int8),
        ("ex_declared", np.int32),
        ("ex_join", np.int32),
        ("ex_vs", np.int32),
        # the throw being resolved
        *pod.CHECK_FIELDS,
        ("ck_att", np.int32),
        ("ck_def", np.int8),
        ("ck_asked", np.int32),
        ("ck_enc", np.int8),
        ("ck_trap", np.int8),
        ("ck_mode", np.int8),
        ("ck_node", np.int16),
        ("ck_diff", np.int8),
        ("move_dir", np.int8),
        # characters (l.128-134) and their tokens (l.47-51): the tokens on each player; the
        # supply is the rest (``components.*_TOKENS``)
        ("char_mode", np.int8),
        ("character", np.int8, (NUM_SEATS,)),
        ("draft_pos", np.int8),  # the seats that have taken a character card so far
        ("adrenaline", np.int8, (NUM_SEATS,)),
        ("blessing", np.int8, (NUM_SEATS,)),
        ("curse", np.int8, (NUM_SEATS,)),
        ("shot_queue", np.int32),  # the players the Shot still has to throw for
        ("adrenaline_used", np.int8),  # an adrenaline token handed back this round
        ("blade", np.int8),  # the fight in progress is the Sword Master's second attack
        # the Head Hunter's second trap of a corridor (Entrapment, l.134, l.386): only where
        # the corridor has a first one (``node_trap``)
        ("node_trap2", np.int8, (NUM_NODES,)),
        ("trap2_up", np.uint8, (NUM_NODES,)),
        ("trap2_failed", np.uint8, (NUM_NODES,)),
        ("ex_second", np.int8),  # the second trap of the corridor entered is still to cross
        ("ex_theft", np.int8),  # the Thief of this encounter has been asked (Theft, l.410)
        # the Witch's Misfortune Rite (l.417-418): the corridor whose trap she set off, the
        # players there still to throw, the one its turn-back trap caught (she sends him)
        ("rite_node", np.int16),
        ("rite_queue", np.int32),
        ("rite_victim", np.int8),
        # the Sword Master's Disarm: who may not attack, and the round it began in
        ("disarmed", np.int32),
        ("disarm_turn", np.int32, (NUM_SEATS,)),
        # the Mistress of Golems' Enslavement (l.400-401): the player transformed into the Guard
        # while the Guard card taken for him is carried out (-1: none), its steps left, the
        # corridor he came from in them, the players he ignores (met already, or standing
        # with him when the card was taken, l.330)
        ("slave", np.int8),
        ("slave_steps", np.int8),
        ("slave_from", np.int16),
        ("slave_ignore", np.int32),
        # the Assassin's Time Loop (l.376, l.363): the players' state before his last action,
        # kept while he may still undo it (``timeloop``); public things only (l.131)
        ("loop_ready", np.int8),
        ("loop_actions", np.int8),
        ("loop_position", np.int16, (NUM_SEATS,)),
        ("loop_life", np.int8, (NUM_SEATS,)),
        ("loop_stun", np.int8, (NUM_SEATS,)),
        ("loop_crystal", np.int8, (NUM_SEATS,)),
        ("loop_tokens", np.int8, (3, NUM_SEATS)),  # adrenaline, blessing, curse
        ("loop_took_key", np.int32, (NUM_SEATS,)),
        ("loop_disarm_turn", np.int32, (NUM_SEATS,)),
        ("loop_met", np.int32, (5,)),  # fight_lost, trap_fell, left_start, disarmed, guard_ignore
        ("loop_key_node", np.int16, (NUM_KEYS,)),
        ("loop_key_holder", np.int8, (NUM_KEYS,)),
        ("loop_key_touched", np.int32, (NUM_KEYS,)),
        # the Illusionist's face-down fields (Spreading Illusion, l.380-381), hidden from
        # every seat; the one being turned face up is entered by a player or (NO_SEAT) the Guard
        *hexboard.FACE_DOWN_FIELDS,
        # the Illusionist's Mirror Image: the seats whose image took a fight this round
        ("mirror_used", np.int32),
        # the Architect's Shortcut: who built each board field (-1: printed, or not built),
        # and whether his free move of the round is spent
        ("cell_builder", np.int8, (NUM_BOARD,)),
        ("shortcut_used", np.int8),
        # the Architect's Foundation (a field put back for the next one, once a build) and
        # the Head Hunter's Tracking (a face-down trap turned face up, once a round)
        ("foundation_used", np.int8),
        ("tracking_used", np.int8),
        # scratch for searches
        *hexboard.SEARCH_FIELDS,
    ],
)

# --- the observation's layout --------------------------------------------------------------
NODE_FEATURES = 1 + 3 + 6 + 3 + 1 + NUM_TRAP_TYPES + 1 + NUM_KEYS + 1 + 2 + NUM_SEATS
# the node features both editions share (F_EXISTS .. F_TRAP_TYPE) come first (see
# core.hexboard.observe_corridors)
F_TRAP_FAILED = F_TRAP_TYPE + NUM_TRAP_TYPES
F_KEY = F_TRAP_FAILED + 1
F_KEY_MINE = F_KEY + NUM_KEYS
F_GUARD = F_KEY_MINE + 1  # the Guard, then "asleep"
F_CHAR = F_GUARD + 2
OBS_SEATS = NUM_NODES * NODE_FEATURES
SEAT_FEATURES = 8 + NUM_STARTS + 3  # ..., start field one-hot, then S_FIGHT_LOST, S_TRAP_FELL, S_LEFT_START
S_FIGHT_LOST = 8 + NUM_STARTS
S_TRAP_FELL = S_FIGHT_LOST + 1
S_LEFT_START = S_FIGHT_LOST + 2
OBS_GLOBAL = OBS_SEATS + NUM_SEATS * SEAT_FEATURES
G_DECISION = 0
G_DECIDER = G_DECISION + OBS_DECISIONS
G_ROUND = G_DECIDER + NUM_SEATS  # actions left, Guard moved
G_DRAWN = G_ROUND + 2
G_PILES = G_DRAWN + NUM_TILES  # board fields, traps, Guard cards left
G_GUARD_CARDS = G_PILES + 3  # Guard cards left by kind
G_CHECK = G_GUARD_CARDS + C.NUM_GUARD_CLASSES  # kind one-hot, then a, b, difficulty, mode one-hot
G_CK_SEATS = G_CHECK + OBS_CHECKS + 3 + 4  # attackers, defender / thrower by relative seat
G_ENCOUNTER = G_CK_SEATS + 2 * NUM_SEATS  # newcomer, target, joined, against the newcomer, declared
G_STARTS = G_ENCOUNTER + 5 * NUM_SEATS  # start fields taken, first player
GLOBAL_FEATURES = G_STARTS + NUM_STARTS + NUM_SEATS
OBS_BASE_SIZE = OBS_GLOBAL + GLOBAL_FEATURES  # without characters: v1's observation
# with characters, a block after it (public, l.131): per relative seat the character
# (one-hot) and the tokens on it; the draft's free cards; the decision and the throw
OBS_CHARS = OBS_BASE_SIZE
CHAR_SEAT_FEATURES = NUM_CHARACTERS + 3  # character one-hot, adrenaline / 3, blessing / 6, curse / 6
C_DRAFT = NUM_SEATS * CHAR_SEAT_FEATURES  # characters still free (the draft)
# choosing a character, which trap first, a theft?, the rite; which of two traps (v6)
C_DECISION = C_DRAFT + NUM_CHARACTERS
C_WHICH_TRAP = C_DECISION + 4
C_CHECK = C_DECISION + 5  # the shot's throw, disarming's, the theft's
C_SUPPLY = C_CHECK + 3  # the tokens in the supplies
C_EXTRA = C_SUPPLY + 3  # an action beyond the round's two (Adrenaline)
C_TRAPS2 = C_EXTRA + 1  # per board corridor its second trap: face down, type one-hot, failed
TRAP2_FEATURES = 1 + NUM_TRAP_TYPES + 1
C_ILLUSION = C_TRAPS2 + NUM_BOARD_NODES * TRAP2_FEATURES  # building face down?, turning one face up?
C_COVERED = C_ILLUSION + 2  # per board cell: a face-down field lies there (never which)
C_SLAVE = C_COVERED + NUM_BOARD  # per relative seat: transformed into the Guard now (Enslavement)
C_ONCE = C_SLAVE + NUM_SEATS  # Foundation used in this build, Tracking used this round
CHAR_FEATURES = C_ONCE + 2
OBS_SIZE = OBS_BASE_SIZE + CHAR_FEATURES

# every name in capitals (the outcome codes of core.contract too) is the kernel's: the
# package re-exports them, and env.py, picture.py, the heuristic and the tests read K.<name>
__all__ = [name for name, value in list(globals().items()) if name.isupper() and not isinstance(value, ModuleType)]
