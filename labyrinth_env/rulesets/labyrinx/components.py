"""Labyrinx components: the 100 path cards, the 12 characters, the Empty Hall and the fixed
figures of the rules.

Each table says where it comes from: ``RULEBOOK`` when the rulebook text gives it,
``RECONSTRUCTED`` when the rulebook only shows it on printed cards (the path cards' mix, the
characters' icons and special powers, the Empty Hall's layout). Every reconstruction has a
reason here and in ``docs/rules/labyrinx.md``.

Geometry: square cards, sides N, E, S, W (``labyrinth_env.core.grid`` directions 0-3); an
open-side mask has bit ``d`` set when side ``d`` is open, a door mask marks the open sides
that carry a door. Masks below are for the card's printed orientation (rotation 0);
turning a card ``k`` steps clockwise is ``core.grid.rotate_mask(mask, k, 4)``.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import mask_from_directions

RULEBOOK = "rulebook"
RECONSTRUCTED = "reconstructed"

# --- the fixed figures of the rules ---------------------------------------------------------------
NUM_CARDS = 100  # RULEBOOK: 100 path cards
NUM_CHARACTERS = 12  # RULEBOOK: 12 character cards
NUM_TREASURES = 25  # RULEBOOK: 25 treasure tokens
MAX_PLAYERS = 6  # RULEBOOK: 6 reference cards, 2-6 players (issue 7)
HAND_LIMIT = 4  # RULEBOOK: "draws up to their hand limit (typically 4 cards)"
ACTIONS_PER_TURN = 3  # RULEBOOK: "up to three regular actions"
REST_DRAWS = 4  # RULEBOOK: rest: "buy up to four cards"
WIN_TREASURES = 5  # RULEBOOK: "the first player to collect five treasures"
ICONS_PER_CHARACTER = 3  # RULEBOOK: "3 challenge icons in the top right side"

# --- the guaranteed end (NOT in the rulebook: the env's, so that no game runs for ever) ----------
# Outside the race every turn lays a card on an empty space (the labyrinth expands) and no card
# ever leaves the table for good, so the table fills up within its number of spaces; the race
# has no such bound ("The tied players play their turns as normal", l.58, until one moves to
# the exit, which may never happen), and within a turn a chain of failed challenges can move
# a loser between the same undefeated monsters for ever. Both are cut short, even with
# max_turns=None, as a truncation (rewards 0, like max_turns).
RACE_TURN_LIMIT = 120  # turns of the race (all racers together) before the game is truncated
TURN_DECISION_LIMIT = 1000  # decisions in one turn before the game is truncated

# --- challenges -----------------------------------------------------------------------------------
NO_ICON, MONSTER, TRAP, CHEST = -1, 0, 1, 2  # RULEBOOK: three types of challenges
ICON_NAMES = ("monster", "trap", "chest")
NUM_ICONS = 3

# --- the path cards -------------------------------------------------------------------------------
# RECONSTRUCTED: the rulebook says only that cards have open sides, doors and challenge icons
# (and shows them in pictures). Our mix, by kind: (name, open sides, door sides, icon, count).
# Shapes are the five a square path card can have; the more open sides, the more ways on.
# 36 cards carry a challenge, 12 of each type (the characters' icons are balanced the same
# way); chests sit in dead ends and corners (treasure rooms), monsters and traps in corridors;
# 17 plain cards have one door. Every challenge card has no door.
CARD_KINDS_SOURCE = RECONSTRUCTED
CARD_KINDS_REASON = (
    "the card faces are pictures only; the rulebook fixes 100 cards with open sides, doors and at most "
    "one of three challenge icons. We chose five shapes (dead end 12, straight 20, corner 24, T 28, cross "
    "16), 36 challenge cards (12 monsters, 12 traps, 12 chests, so a d6 challenge meets a balanced "
    "character about as often of each type), chests in dead ends and corners, and 17 plain cards with one door"
)
_M = mask_from_directions
CARD_KINDS = [
    ("dead end", _M("N"), 0, NO_ICON, 3),
    ("dead end with a door", _M("N"), _M("N"), NO_ICON, 1),
    ("dead end with a chest", _M("N"), 0, CHEST, 8),
    ("straight", _M("NS"), 0, NO_ICON, 8),
    ("straight with a door", _M("NS"), _M("N"), NO_ICON, 4),
    ("straight with a monster", _M("NS"), 0, MONSTER, 4),
    ("straight with a trap", _M("NS"), 0, TRAP, 4),
    ("corner", _M("NE"), 0, NO_ICON, 10),
    ("corner with a door", _M("NE"), _M("E"), NO_ICON, 2),
    ("corner with a monster", _M("NE"), 0, MONSTER, 4),
    ("corner with a trap", _M("NE"), 0, TRAP, 4),
    ("corner with a chest", _M("NE"), 0, CHEST, 4),
    ("T-junction", _M("NEW"), 0, NO_ICON, 14),
    ("T-junction with a door", _M("NEW"), _M("N"), NO_ICON, 6),
    ("T-junction with a monster", _M("NEW"), 0, MONSTER, 4),
    ("T-junction with a trap", _M("NEW"), 0, TRAP, 4),
    ("crossing", _M("NESW"), 0, NO_ICON, 12),
    ("crossing with a door", _M("NESW"), _M("N"), NO_ICON, 4),
]
NUM_KINDS = len(CARD_KINDS)
KIND_NAMES = tuple(k[0] for k in CARD_KINDS)
KIND_OPEN = np.array([k[1] for k in CARD_KINDS], dtype=np.int64)
KIND_DOORS = np.array([k[2] for k in CARD_KINDS], dtype=np.int64)
KIND_ICON = np.array([k[3] for k in CARD_KINDS], dtype=np.int64)
KIND_COUNT = np.array([k[4] for k in CARD_KINDS], dtype=np.int64)
# card id -> kind (ids 0..99, kinds in table order)
CARD_KIND = np.repeat(np.arange(NUM_KINDS, dtype=np.int64), KIND_COUNT)

# --- the characters -------------------------------------------------------------------------------
# Special powers (RECONSTRUCTED): "Some characters have a special power that can be used by
# spending an action. The character's card will explain its effects" (l.38). So only some
# characters have one, and every one is used by spending an action (an action power, like
# peek or draw); the cards are not reproduced, the six powers are ours. A character without
# one has no power action and nothing passive either.
POW_NONE = -1
POW_SEER = 0  # action: peek at any face-down card on the table
POW_SCAVENGER = 1  # action: take the top card of the discard pile into the hand
POW_BUILDER = 2  # action: turn the face-up card it stands on to another rotation
POW_THIEF = 3  # action, once a turn, not in the race: take a treasure from a richest other character in its location
POW_LOCKSMITH = 4  # action: doors cost no extra action for the rest of the turn (moves and pushes)
POW_FORAGER = 5  # action: draw two cards (then discard down to the hand limit)
NUM_POWERS = 6
POWER_NAMES = (
    "Seer: action, peek at any face-down card",
    "Scavenger: action, take the top card of the discard pile",
    "Builder: action, turn the card it stands on",
    "Thief: action once a turn, steal a treasure in its location",
    "Locksmith: action, doors cost nothing extra for the rest of the turn",
    "Forager: action, draw two cards",
)

# (name, monster icons, trap icons, chest icons, power). RECONSTRUCTED: the six ways to hold
# two icons of one type and one of another, each on two characters, so every type appears
# 12 times (as on the cards); one character of each mix has a power, the other none.
CHARACTERS_SOURCE = RECONSTRUCTED
CHARACTERS_REASON = (
    "the character cards are pictures; the rulebook fixes 12 characters with 3 challenge icons each and says "
    "'Some characters have a special power that can be used by spending an action' (l.38). Icons: each of the "
    "six two-plus-one mixes twice, 12 icons of each type in all; powers: six action powers of our own, one "
    "character of each mix has one and the other none; off unless the character_powers option is on"
)
CHARACTERS = [
    ("Knight", 2, 1, 0, POW_FORAGER),
    ("Barbarian", 2, 0, 1, POW_THIEF),
    ("Ranger", 1, 2, 0, POW_NONE),
    ("Engineer", 0, 2, 1, POW_BUILDER),
    ("Merchant", 1, 0, 2, POW_SCAVENGER),
    ("Rogue", 0, 1, 2, POW_LOCKSMITH),
    ("Paladin", 2, 1, 0, POW_NONE),
    ("Amazon", 2, 0, 1, POW_NONE),
    ("Scout", 1, 2, 0, POW_SEER),
    ("Alchemist", 0, 2, 1, POW_NONE),
    ("Wizard", 1, 0, 2, POW_NONE),
    ("Gambler", 0, 1, 2, POW_NONE),
]
CHARACTER_NAMES = tuple(c[0] for c in CHARACTERS)
CHAR_ICONS = np.array([[c[1], c[2], c[3]] for c in CHARACTERS], dtype=np.int64)
CHAR_POWER = np.array([c[4] for c in CHARACTERS], dtype=np.int64)

# --- the Empty Hall -------------------------------------------------------------------------------
# RECONSTRUCTED layout: the rulebook names four spaces (the exit space, "a single big space";
# the draw deck, treasure reserve and discard pile spaces, which characters may not enter).
# We lay it out as three card-sized cells in a row for the exit space (one location, open on
# every outer side) and, below it, the three piles' spaces (not enterable).
HALL_SOURCE = RECONSTRUCTED
HALL_REASON = (
    "the Empty Hall is a picture; its exit space is 'a single big space' and three pile spaces cannot be "
    "entered. We use a 3x2 block: the exit space spans the top three cells (one location, open on all outer "
    "sides), the draw deck, treasure reserve and discard pile spaces the bottom three"
)
HALL_EXIT_WIDTH = 3

assert CARD_KIND.shape[0] == NUM_CARDS
assert (KIND_DOORS & ~KIND_OPEN).sum() == 0  # doors only on open sides
assert int((KIND_COUNT * (KIND_ICON >= 0)).sum()) == 36
assert len(CHARACTERS) == NUM_CHARACTERS and (CHAR_ICONS.sum(axis=1) == ICONS_PER_CHARACTER).all()
assert (CHAR_ICONS.sum(axis=0) == 12).all()
assert sorted(p for p in CHAR_POWER.tolist() if p != POW_NONE) == list(range(NUM_POWERS))
assert 0 < NUM_POWERS < NUM_CHARACTERS  # "Some characters have a special power"
