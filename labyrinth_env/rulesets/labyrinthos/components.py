"""Labyrinthos components: the maze tiles, the hero boards, the key tokens, the Desperation
cards and the two dice.

Each table says where it comes from: ``RULEBOOK`` when the rulebook text gives it,
``RECONSTRUCTED`` when the rulebook shows it only in pictures or on a printed component
that the text does not quote (tile pathways and symbols, dice faces, action costs, the
heroes other than the two named special actions, the key tokens' mix, the card list) and
we chose it. Every reconstructed table carries a reason (``RECONSTRUCTION_REASONS``);
``docs/rules/labyrinthos.md`` lists them.

Geometry: the maze is a 7x7 grid of cells ``row * 7 + col``; a tile's pathways are a
4-bit mask over N, E, S, W (``labyrinth_env.core.grid``: bit ``d`` open towards ``d``,
turning clockwise moves bit ``d`` to ``d + 1``).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import mask_from_directions

RULEBOOK = "rulebook"
RECONSTRUCTED = "reconstructed"

# --- the fixed figures of the rules -----------------------------------------------------
SIZE = 7  # RULEBOOK: "a new 7x7 grid"
NUM_CELLS = SIZE * SIZE
MIN_PLAYERS, MAX_PLAYERS = 2, 4  # RULEBOOK: 4 hero boards (the issue: 2-4 players)
NUM_FEET_TOKENS = 28  # RULEBOOK: 28 Feet action tokens
NUM_HAND_TOKENS = 28  # RULEBOOK: 28 Hand action tokens
NUM_WOUND_TOKENS = 40  # RULEBOOK: 40 wound tokens
NUM_WALLS = 30  # RULEBOOK: 30 wall tokens
WALL_LIMIT = 2  # RULEBOOK: "No more than two Wall tokens can ever be adjacent to the same Maze tile"
START_FEET, START_HANDS = 4, 3  # RULEBOOK: "3 Hand tokens, 4 Feet tokens"
POOL_SIZE = 7  # RULEBOOK: "choosing 7 new Action tokens from the supply"
HAND_LIMIT = 4  # RULEBOOK: "4, minus 1 card for every Key token"
RECOVER_COST = 5  # RULEBOOK: "Pay 5 Action tokens of any type"
REARRANGE_COST = 3  # RULEBOOK: "Pay 3 Action tokens of any type"
MINOTAUR_SYMBOL_POINTS = 2  # RULEBOOK: "You gain two Minotaur Movement Points"
NUM_KEY_COLOURS = 4  # RULEBOOK: 4 key tiles, "4 different types of keys"
KEY_TOKENS_PER_COLOUR = 4  # RULEBOOK: 16 key tokens in 4 colours
NUM_KEY_TOKENS = NUM_KEY_COLOURS * KEY_TOKENS_PER_COLOUR
KEY_COLOUR_NAMES = ("Bronze", "Silver", "Gold", "Obsidian")  # Bronze: RULEBOOK; the others RECONSTRUCTED

# --- symbols ------------------------------------------------------------------------------
SYM_NONE, SYM_WALL, SYM_MINOTAUR, SYM_HIDE, SYM_TRAP, SYM_PASSAGE = 0, 1, 2, 3, 4, 5
SYMBOL_NAMES = ("none", "wall", "minotaur", "hide", "trap", "secret passage")  # RULEBOOK: the five symbols
NUM_SYMBOLS = 6

# --- tiles --------------------------------------------------------------------------------
# Kinds: the Door tile, the 8 starting (centre) maze tiles, the 36 maze tiles, the 4 key tiles.
KIND_DOOR, KIND_START, KIND_MAZE, KIND_KEY = 0, 1, 2, 3
_SHAPES = {
    "dead end": "N",
    "straight": "NS",
    "corner": "NE",
    "T": "NES",
    "cross": "NESW",
}


def _tiles() -> list[tuple[str, int, str, int, int]]:
    """(name, kind, shape, symbol, colour) per tile; colour: the hero colour of a starting
    tile or the key colour of a key tile, else -1."""
    out: list[tuple[str, int, str, int, int]] = [("Door", KIND_DOOR, "cross", SYM_NONE, -1)]
    # 8 starting tiles: the four heroes' colour tiles (where the heroes start) and four more
    for colour, shape in enumerate(("T", "cross", "T", "cross")):
        out.append((f"{HERO_COLOURS[colour]} start", KIND_START, shape, SYM_NONE, colour))
    for shape, sym in (("corner", SYM_HIDE), ("straight", SYM_PASSAGE), ("T", SYM_NONE), ("corner", SYM_WALL)):
        out.append((f"start {shape} {SYMBOL_NAMES[sym]}", KIND_START, shape, sym, -1))
    # 36 maze tiles: 24 with a symbol, 12 plain
    maze = [
        *[("T", SYM_WALL), ("corner", SYM_WALL), ("straight", SYM_WALL), ("cross", SYM_WALL), ("T", SYM_WALL)],
        *[("T", SYM_MINOTAUR), ("cross", SYM_MINOTAUR), ("corner", SYM_MINOTAUR), ("straight", SYM_MINOTAUR)],
        ("T", SYM_MINOTAUR),
        *[("dead end", SYM_HIDE), ("corner", SYM_HIDE), ("T", SYM_HIDE), ("dead end", SYM_HIDE), ("T", SYM_HIDE)],
        *[("T", SYM_TRAP), ("straight", SYM_TRAP), ("cross", SYM_TRAP), ("corner", SYM_TRAP), ("T", SYM_TRAP)],
        *[("corner", SYM_PASSAGE), ("T", SYM_PASSAGE), ("dead end", SYM_PASSAGE), ("cross", SYM_PASSAGE)],
        *[("cross", SYM_NONE), ("cross", SYM_NONE), ("T", SYM_NONE), ("T", SYM_NONE), ("T", SYM_NONE)],
        *[("corner", SYM_NONE), ("corner", SYM_NONE), ("corner", SYM_NONE), ("straight", SYM_NONE)],
        *[("straight", SYM_NONE), ("straight", SYM_NONE), ("cross", SYM_NONE)],
    ]
    for shape, sym in maze:
        out.append((f"{shape} {SYMBOL_NAMES[sym]}", KIND_MAZE, shape, sym, -1))
    for colour in range(NUM_KEY_COLOURS):
        out.append((f"{KEY_COLOUR_NAMES[colour]} key", KIND_KEY, "T", SYM_NONE, colour))
    return out


HERO_COLOURS = ("red", "blue", "green", "yellow")  # RECONSTRUCTED: the board colours are pictures
_TILE_ROWS = _tiles()
NUM_TILES = len(_TILE_ROWS)  # 49: RULEBOOK (1 Door + 8 centre + 36 maze + 4 key tiles)
TILE_NAMES = tuple(r[0] for r in _TILE_ROWS)
TILE_KIND = np.array([r[1] for r in _TILE_ROWS], dtype=np.int8)
TILE_SHAPE = tuple(r[2] for r in _TILE_ROWS)
TILE_MASK = np.array([mask_from_directions(_SHAPES[r[2]]) for r in _TILE_ROWS], dtype=np.uint8)
TILE_SYMBOL = np.array([r[3] for r in _TILE_ROWS], dtype=np.int8)
TILE_COLOUR = np.array([r[4] for r in _TILE_ROWS], dtype=np.int8)
DOOR_TILE = 0
START_TILES = np.flatnonzero(TILE_KIND == KIND_START).astype(np.int64)
OUTER_TILES = np.flatnonzero((TILE_KIND == KIND_MAZE) | (TILE_KIND == KIND_KEY)).astype(np.int64)
HERO_START_TILE = np.array([1, 2, 3, 4], dtype=np.int64)  # the starting tile of each hero's colour
KEY_TILE_OF_COLOUR = np.flatnonzero(TILE_KIND == KIND_KEY).astype(np.int64)
TILES_SOURCE = RECONSTRUCTED

# --- hero boards: the action slots ------------------------------------------------------
# RULEBOOK: the actions on a hero board, in the order the rulebook lists them (top to bottom:
# Medusa wounds "starting on the topmost open action ... in descending order").
S_MOVE, S_EXPLORE, S_DISCOVER, S_DESPERATE, S_ROTATE_WALL, S_ROTATE_TILE, S_HEAL, S_SPECIAL, S_KEY = range(9)
NUM_SLOTS = 9
SLOT_NAMES = (
    "move",
    "explore",
    "discover key",
    "desperate action",
    "rotate wall",
    "rotate tile",
    "heal",
    "special action",
    "empty key slot",
)
# Costs (Feet, Hand) of the board actions. RULEBOOK: discover key costs a Hand token;
# RECONSTRUCTED: the others (printed on the boards).
SLOT_COST = np.array(
    [[1, 0], [2, 0], [0, 1], [0, 1], [0, 1], [0, 1], [0, 2], [0, 0], [0, 0]],
    dtype=np.int64,
)
COSTS_SOURCE = RECONSTRUCTED

# --- heroes -------------------------------------------------------------------------------
# Special actions. RULEBOOK: Shield Maiden and Wild Intuition (both passive). RECONSTRUCTED:
# Swift Stride and Beast Caller (the other two boards are pictures). Beast Caller also lets the
# Tamer move onto the monster's tile (l.121: "unless a ... Special action ... allows it").
H_SHIELD_MAIDEN, H_WILD_INTUITION, H_SWIFT_STRIDE, H_BEAST_CALLER = 0, 1, 2, 3
NUM_HEROES = 4
HERO_NAMES = ("the Amazon", "the Seer", "the Runner", "the Tamer")  # RECONSTRUCTED
SPECIAL_NAMES = ("shield maiden", "wild intuition", "swift stride", "beast caller")
SPECIAL_PASSIVE = np.array([1, 1, 0, 0], dtype=np.int8)
SPECIAL_COST = np.array([[0, 0], [0, 0], [0, 1], [0, 2]], dtype=np.int64)  # RECONSTRUCTED (Feet, Hand)
SWIFT_STRIDE_FEET = 2  # RECONSTRUCTED: Swift Stride gains 2 Feet tokens from the supply
HEROES_SOURCE = RECONSTRUCTED

# --- key tokens ------------------------------------------------------------------------------
# RULEBOOK: 16 key tokens, 4 colours, "each one will grant you a unique action" (l.274); the
# four key actions the text names are "the four examples here ... as shown in the rulebook's
# illustration" (l.289). RECONSTRUCTED: the four examples are the Bronze tokens (the colour
# the text names); the other twelve actions (the tokens' faces are pictures) are built from
# the rulebook's own actions and effects. Token k carries key action k, of colour k // 4.
(
    K_SECRET_LEVER,
    K_BUILD,
    K_VISIONS,
    K_BANDAGES,
    K_WINGED_KEY,
    K_BULL_LEAPER,
    K_ORACLE,
    K_GORGONS_EYE,
    K_GOLDEN_THREAD,
    K_HORN_OF_MINOS,
    K_HOMEWARD,
    K_LABRYS,
    K_PASSAGE_KEY,
    K_BANISHMENT,
    K_KEYSTONE,
    K_LOCKSMITH,
) = range(16)
NUM_KEY_ACTIONS = 16
KEY_ACTION_NAMES = (
    "secret lever",
    "build",
    "visions",
    "bandages",
    "winged key",
    "bull leaper",
    "oracle",
    "gorgon's eye",
    "golden thread",
    "horn of minos",
    "homeward",
    "labrys",
    "passage key",
    "banishment",
    "keystone",
    "locksmith",
)
KEY_ACTION_TEXT = (
    "Rotate up to 4 tiles of your choice 90 degrees.",  # RULEBOOK
    "Place or remove up to 2 Wall tokens.",  # RULEBOOK
    "Rotate up to 4 Wall tokens.",  # RULEBOOK
    "Heal a Wound.",  # RULEBOOK
    "Take 2 Feet tokens from the supply.",
    "Move to an adjacent Explored tile along a pathway, even onto the Minotaur's tile (no Attack).",
    "Draw a Desperation card, if your hand is below its limit.",
    "Choose another player: they discard 2 of their Action tokens (Feet first).",
    "Move to an adjacent Explored tile as the Move action, even if Move is covered or wounded.",
    "The monster Charges in the direction you choose (you control it).",
    "Move to the starting tile of your Hero's colour.",
    "Gain 2 monster Movement Points and use them now.",
    "Move to any Explored tile with a Secret Passage symbol.",
    "Place the monster on the Door tile (a placement: no Attack).",
    "Place a Wall token anywhere in the Labyrinth (as the Wall symbol).",
    "Move one of your Key tokens to a new slot (as Rearrange, without its cost).",
)
KEY_ACTION_COST = np.array(  # RECONSTRUCTED (Feet, Hand)
    [
        [0, 2],
        [0, 1],
        [0, 1],
        [1, 0],
        [0, 1],
        [1, 0],
        [0, 1],
        [0, 2],
        [0, 1],
        [0, 2],
        [1, 0],
        [0, 1],
        [1, 0],
        [0, 2],
        [0, 1],
        [0, 1],
    ],
    dtype=np.int64,
)
LEVER_ROTATIONS = 4  # RULEBOOK: "Rotate up to 4 tiles"
BUILD_WALLS = 2  # RULEBOOK: "Place or remove up to 2 Wall tokens"
VISIONS_WALLS = 4  # RULEBOOK: "Rotate up to 4 Wall tokens"
WINGED_KEY_FEET = 2  # RECONSTRUCTED
KEY_MONSTER_POINTS = 2  # RECONSTRUCTED: Labrys
KEY_TOKEN_COLOUR = np.repeat(np.arange(NUM_KEY_COLOURS), KEY_TOKENS_PER_COLOUR).astype(np.int8)
KEY_TOKEN_ACTION = np.arange(NUM_KEY_TOKENS).astype(np.int8)  # every token its own action
KEY_TOKENS_SOURCE = RECONSTRUCTED

# --- the dice ---------------------------------------------------------------------------------
# RULEBOOK: the Minotaur die shows hooves (movement points), a secret passage and a charge.
# RECONSTRUCTED: how many faces of each and how many hooves.
F_HOOVES, F_PASSAGE, F_CHARGE = 0, 1, 2
MINOTAUR_FACE_KIND = np.array([F_HOOVES, F_HOOVES, F_HOOVES, F_HOOVES, F_PASSAGE, F_CHARGE], dtype=np.int64)
MINOTAUR_FACE_HOOVES = np.array([1, 2, 2, 3, 0, 0], dtype=np.int64)
MINOTAUR_FACE_NAMES = ("1 hoof", "2 hooves", "2 hooves", "3 hooves", "secret passage", "charge")
BLOOD_FACES = np.array([0, 1, 1, 1, 2, 2], dtype=np.int64)  # RECONSTRUCTED: wounds per face
DICE_SOURCE = RECONSTRUCTED

# --- monsters -------------------------------------------------------------------------------
MINOTAUR, MEDUSA, CERBERUS = 0, 1, 2  # RULEBOOK: the Minotaur and the two Monstrous Myths
MONSTER_NAMES = ("minotaur", "medusa", "cerberus")

# --- Desperation cards ------------------------------------------------------------------------
# Effects. RULEBOOK: Hermes' Mischief (cancel a card) and "heal all their Wounds";
# RECONSTRUCTED: the rest of the list (the cards are pictures).
E_CANCEL, E_HEAL_ALL, E_FEET, E_HANDS, E_FREE_MOVE, E_ROTATE, E_MONSTER, E_WALL = range(8)
E_DODGE, E_MIRROR, E_DRAIN, E_LYRE = 8, 9, 10, 11
E_HIDE, E_SWAP = 12, 13
# reaction windows: 0 own turn only, 1 another player plays a card, 2 the monster attacks you
R_NONE, R_CARD, R_ATTACK = 0, 1, 2
_CARDS = (
    # name, effect, reaction, copies, deck (0 base, 1 Medusa, 2 Cerberus)
    ("Hermes' Mischief", E_CANCEL, R_CARD, 6, MINOTAUR),  # RULEBOOK
    ("Ambrosia", E_HEAL_ALL, R_NONE, 6, MINOTAUR),
    ("Winged Sandals", E_FEET, R_NONE, 6, MINOTAUR),
    ("Daedalus' Tools", E_HANDS, R_NONE, 6, MINOTAUR),
    ("Ariadne's Thread", E_FREE_MOVE, R_NONE, 6, MINOTAUR),
    ("Earthquake", E_ROTATE, R_NONE, 6, MINOTAUR),
    ("The Bull's Call", E_MONSTER, R_NONE, 6, MINOTAUR),
    ("Stonemason", E_WALL, R_NONE, 4, MINOTAUR),
    ("Sidestep", E_DODGE, R_ATTACK, 6, MINOTAUR),
    ("Mirror Shield", E_MIRROR, R_ATTACK, 5, MEDUSA),
    ("Stone Gaze", E_DRAIN, R_NONE, 5, MEDUSA),
    ("Serpent Hair", E_MONSTER, R_NONE, 5, MEDUSA),
    ("Honey Cake", E_DODGE, R_ATTACK, 5, CERBERUS),
    ("Lyre of Orpheus", E_LYRE, R_NONE, 5, CERBERUS),
    ("Three Heads", E_MONSTER, R_NONE, 5, CERBERUS),
    ("Hiding Place", E_HIDE, R_NONE, 4, MINOTAUR),  # targets a tile symbol (l.295)
    ("Trickster's Swap", E_SWAP, R_NONE, 4, MINOTAUR),  # "swapping player's key tokens around" (l.261)
)
NUM_CARD_TYPES = len(_CARDS)
CARD_NAMES = tuple(c[0] for c in _CARDS)
CARD_EFFECT = np.array([c[1] for c in _CARDS], dtype=np.int64)
CARD_REACTION = np.array([c[2] for c in _CARDS], dtype=np.int64)
CARD_COPIES = np.array([c[3] for c in _CARDS], dtype=np.int64)
CARD_DECK = np.array([c[4] for c in _CARDS], dtype=np.int64)
NUM_BASE_CARDS = 60  # RULEBOOK: 60 Desperation cards
NUM_MONSTER_CARDS = 15  # RULEBOOK: 15 Medusa and 15 Cerberus cards
MAX_DECK = NUM_BASE_CARDS + NUM_MONSTER_CARDS
CARD_GAIN_TOKENS = 2  # RECONSTRUCTED: Winged Sandals / Daedalus' Tools gain 2 tokens
CARD_MONSTER_POINTS = 2  # RECONSTRUCTED: the monster cards give 2 movement points
DRAIN_TOKENS = 2  # RECONSTRUCTED: Stone Gaze makes the target discard 2 action tokens
CARDS_SOURCE = RECONSTRUCTED
CARD_TEXT = (
    "Reaction: play when another player plays a Desperation card. Cancel the effects of that card.",
    "Remove all Wound tokens from your Hero board.",
    "Take 2 Feet tokens from the supply.",
    "Take 2 Hand tokens from the supply.",
    "Move to an adjacent Explored tile along a pathway, without paying and even if Move is covered, "
    "even onto the Minotaur's tile (no Attack).",
    "Rotate any Explored tile 90 degrees.",
    "Gain 2 monster Movement Points and use them now.",
    "Place a Wall token anywhere in the Labyrinth (as the Wall symbol).",
    "Reaction: play when the monster attacks you. You take no Wounds from the Blood die.",
    "Reaction: play when Medusa attacks you. Place those Wounds where you choose.",
    "Choose another player: they discard 2 of their Action tokens (Feet first).",
    "Gain 2 monster Movement Points and use them now.",
    "Reaction: play when Cerberus attacks you. You take no Wounds from the Blood die.",
    "Move Cerberus to the Door tile (this is not a move: no Attack).",
    "Gain 2 monster Movement Points and use them now.",
    "Move to any Explored tile with a Hide symbol (as the Move action would move you onto it).",
    "Choose another player and a colour you both hold: exchange those two Key tokens "
    "(each goes on the slot the other was on; Wounds stay where they are).",
)

RECONSTRUCTION_REASONS = {
    "tiles": (
        "pathways and symbols are pictures: the Door tile is a crossroads; the 8 starting tiles are the "
        "four hero-colour tiles (2 T, 2 crossroads, no symbol) and four more; the 36 maze tiles carry "
        "5 wall, 5 Minotaur, 5 hide, 5 trap and 4 secret passage symbols and 12 none, over 7 crossroads, "
        "12 T, 8 corners, 6 straights and 3 dead ends; the 4 key tiles are T-shaped"
    ),
    "costs": (
        "the costs are printed on the hero boards; only Discover Key (a Hand token), Recover (5) and "
        "Rearrange (3) are in the text"
    ),
    "heroes": "two special actions are named (Shield Maiden, Wild Intuition); Swift Stride and Beast Caller are ours",
    "key tokens": (
        "16 unique key actions (l.274): the four named ones are the Bronze tokens, the other twelve are "
        "built from the rulebook's actions and effects (moves, tokens, cards, walls, the monster)"
    ),
    "dice": "Minotaur die faces 1, 2, 2, 3 hooves, secret passage, charge; Blood die 0, 1, 1, 1, 2, 2 wounds",
    "cards": (
        "only Hermes' Mischief is quoted; 11 base card kinds (60 cards: with a card that targets a tile "
        "symbol, l.295, and the key-swap card of l.261) and 3 per monster deck (15 each)"
    ),
}
