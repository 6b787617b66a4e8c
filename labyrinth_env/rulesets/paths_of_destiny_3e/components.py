"""Paths of Destiny (Third Edition) components: space tiles, trap tokens, items, events,
Golem movement cards, seating and the fixed figures of the checks.

Each table says where it comes from: ``RULEBOOK`` when the rulebook text gives the name or
the figure, ``RECONSTRUCTED`` when the rulebook shows it only in pictures (the tiles, the
Labyrinth Chart, the event and Golem cards, the seating diagram) or not at all and we chose
it. Every reconstructed entry carries a one-line reason (in a comment, a ``*_REASON`` string
or ``RECONSTRUCTION_REASONS``); ``docs/rules/paths_of_destiny_3e.md`` lists them.

Geometry: the radius-3 hex board of ``labyrinth_env.core.grid``; the six directions in
cyclic order 0:(+1,0) 1:(+1,-1) 2:(0,-1) 3:(-1,0) 4:(-1,+1) 5:(0,+1) in axial (q, r), the
opposite of ``d`` is ``(d + 3) % 6``. A corridor's edges are a 6-bit mask over them (bit
``d``: the corridor touches edge ``d``); tiles are listed in a base orientation and the
kernel turns them with ``rotate_mask``. A tile has up to ``MAX_CORRIDORS`` separate
corridors with disjoint edges; GROUND and UNDER corridors lie on the floor (they never
cross each other), a BRIDGE corridor runs above its UNDER corridor.

The readable lists are the source of truth; the numpy tables below them are built once at
import and checked with asserts.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import mask_from_directions
from labyrinth_env.core.hexboard import MAX_CORRIDORS as HEX_MAX_CORRIDORS

RULEBOOK = "rulebook"
RECONSTRUCTED = "reconstructed"

HEX_DIRECTION_DIGITS = ("0", "1", "2", "3", "4", "5")
NUM_DIRECTIONS = 6


def _m(directions: str) -> int:
    """``"03"`` -> the 6-bit edge mask with edges 0 and 3."""
    return mask_from_directions(directions, HEX_DIRECTION_DIGITS)


# --- the fixed figures of the rules -----------------------------------------------------
LIFE = 4  # RULEBOOK: "Each character starts with 4 active Life tokens"
MAX_ITEMS = 2  # RULEBOOK: "Each character can carry up to 2 item tokens"
NUM_KEYS = 6  # RULEBOOK: 6 key tokens, one per key space
ACTIONS_PER_TURN = 2  # RULEBOOK: "During his turn a player has 2 Actions"
JUMP_DIFFICULTY = 8  # RULEBOOK: Jump Check succeeds on 2d6 >= 8
GOLEM_DIFFICULTY = 12  # RULEBOOK: Golem Check succeeds on 2d6 >= 12
JUMP_FAIL_LIFE = 2  # RULEBOOK: a failed jump costs 2 Life ...
JUMP_FAIL_STUN = 1  # RULEBOOK: ... and 1 stun token
NUM_STUN_TOKENS = 12  # RULEBOOK: 12 stun tokens (the rules allow substitutes when they run out)
NUM_CRYSTALS = 8  # RULEBOOK: 8 Crystals of Fate in the box

# --- seating ----------------------------------------------------------------------------
# Starting space i is the frame space beyond key space i: key space i is the corner of the
# hexagon reached from the centre in direction i, the starting space lies one step further
# in direction i. START_SEATS[n] lists the starting spaces of seats 0..n-1, clockwise.
START_SEATS = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4), 6: (0, 1, 2, 3, 4, 5)}
START_SEATS_SOURCE = RECONSTRUCTED
START_SEATS_REASON = (
    "the player-count diagram (page 3) is an image; players sit as evenly spaced around the hexagon as "
    "the count allows (2 opposite, 3 alternating, 4 as two opposite pairs), clockwise; two players use "
    "the page-15 board (l.96, kernel.tables.VARIANT_SEATS) unless two_player_variant=False asks for this one"
)

# --- space tiles ------------------------------------------------------------------------
MAX_CORRIDORS = HEX_MAX_CORRIDORS  # over a bridge, under it, beside it (the board's nodes per cell)
GROUND, BRIDGE, UNDER = 0, 1, 2
LEVEL_NAMES = ("ground", "bridge", "under")
ICON_NONE, ICON_TRAP, ICON_CHEST = 0, 1, 2
ICON_NAMES = ("", "trap", "chest")

# RULEBOOK: 30 normal space tiles, corridors, bridges, corridors under bridges, trap and
# chest icons, and tiles with 1, 2 (above + below) and 3 (above, below, to the side)
# corridors. RECONSTRUCTED: every shape below, since the tiles appear only in pictures.
# Mix: 4 dead ends, 5 straights, 5 bends, 5 forks, 2 four-way junctions, 3 two-corridor
# tiles, 4 bridge tiles, 2 bridge tiles with a side niche = 30; 10 trap and 8 chest icons.
# Entries: (name, [(directions, level, icon), ...], source).
NORMAL_TILES = [
    # dead ends (1 edge): treasure rooms and niches are where chests and traps hide
    ("Dead End", [("0", GROUND, ICON_NONE)], RECONSTRUCTED),
    ("Treasure Alcove", [("0", GROUND, ICON_CHEST)], RECONSTRUCTED),
    ("Trapped Niche", [("0", GROUND, ICON_TRAP)], RECONSTRUCTED),
    ("Forgotten Vault", [("0", GROUND, ICON_CHEST)], RECONSTRUCTED),
    # straights (two opposite edges)
    ("Straight Corridor", [("03", GROUND, ICON_NONE)], RECONSTRUCTED),
    ("Narrow Passage", [("03", GROUND, ICON_NONE)], RECONSTRUCTED),
    ("Long Hall", [("03", GROUND, ICON_TRAP)], RECONSTRUCTED),
    ("Pillared Gallery", [("03", GROUND, ICON_CHEST)], RECONSTRUCTED),
    ("Echoing Passage", [("03", GROUND, ICON_NONE)], RECONSTRUCTED),
    # bends: sharp (neighbouring edges) and wide (one edge between)
    ("Sharp Bend", [("01", GROUND, ICON_NONE)], RECONSTRUCTED),
    ("Blind Corner", [("01", GROUND, ICON_TRAP)], RECONSTRUCTED),
    ("Wide Bend", [("02", GROUND, ICON_NONE)], RECONSTRUCTED),
    ("Winding Path", [("02", GROUND, ICON_CHEST)], RECONSTRUCTED),
    ("Crooked Hall", [("02", GROUND, ICON_TRAP)], RECONSTRUCTED),
    # forks (3 edges): the symmetric Y, both mirror forms (tiles are never flipped) and the fan
    ("Y-Junction", [("024", GROUND, ICON_NONE)], RECONSTRUCTED),
    ("Three Ways", [("024", GROUND, ICON_TRAP)], RECONSTRUCTED),
    ("Left Fork", [("013", GROUND, ICON_CHEST)], RECONSTRUCTED),
    ("Right Fork", [("014", GROUND, ICON_NONE)], RECONSTRUCTED),
    ("Fan Junction", [("012", GROUND, ICON_NONE)], RECONSTRUCTED),
    # four-way junctions (one corridor, 4 edges)
    ("Crossroads", [("0134", GROUND, ICON_TRAP)], RECONSTRUCTED),
    ("Great Hall", [("0123", GROUND, ICON_NONE)], RECONSTRUCTED),
    # two separate ground corridors on one tile (they do not cross)
    ("Twin Bends", [("01", GROUND, ICON_NONE), ("34", GROUND, ICON_TRAP)], RECONSTRUCTED),
    ("Divided Hall", [("03", GROUND, ICON_NONE), ("12", GROUND, ICON_CHEST)], RECONSTRUCTED),
    ("Parted Ways", [("02", GROUND, ICON_NONE), ("35", GROUND, ICON_NONE)], RECONSTRUCTED),
    # bridge tiles: a straight bridge above a straight corridor that crosses it; both
    # crossing angles (under corridor one or two steps round from the bridge)
    ("Stone Bridge", [("03", BRIDGE, ICON_NONE), ("14", UNDER, ICON_NONE)], RECONSTRUCTED),
    ("Rope Bridge", [("03", BRIDGE, ICON_NONE), ("25", UNDER, ICON_TRAP)], RECONSTRUCTED),
    ("Arched Bridge", [("03", BRIDGE, ICON_NONE), ("14", UNDER, ICON_CHEST)], RECONSTRUCTED),
    ("Crumbling Bridge", [("03", BRIDGE, ICON_TRAP), ("25", UNDER, ICON_NONE)], RECONSTRUCTED),
    # bridge + under + a side niche on a free edge (the rulebook's diagram Z: 3 corridors)
    ("Bridge over the Niche", [("03", BRIDGE, ICON_NONE), ("14", UNDER, ICON_NONE), ("2", GROUND, ICON_CHEST)],
     RECONSTRUCTED),
    ("Guarded Bridge", [("03", BRIDGE, ICON_NONE), ("25", UNDER, ICON_NONE), ("1", GROUND, ICON_TRAP)],
     RECONSTRUCTED),
]  # fmt: skip
NORMAL_TILES_REASON = (
    "the 30 normal tiles are shown only in pictures; we chose a mix of every shape the text names "
    "(corridors, bridges, corridors under bridges, 1/2/3-corridor tiles) with 10 trap and 8 chest icons, "
    "so that roughly a third of the built tiles draw a trap and a quarter offer an item"
)

# RULEBOOK: the central space is where the Golem starts and where players win; it is reached
# from every side. RECONSTRUCTED: one corridor open on all six edges.
CENTRAL_TILE = ("Central Space", [("012345", GROUND, ICON_NONE)], RECONSTRUCTED)
CENTRAL_TILE_REASON = "the picture is not given; the centre must be enterable from every side and push-outs go any way"
# Key space in its base orientation: direction 0 is the edge towards the player's starting
# space; the corner cell reached from the centre in direction 0 has its on-board neighbours
# in directions 2, 3, 4, so the corridor opens to 0 and to those three. The kernel turns it
# by i steps for corner i.
KEY_TILE = ("Key Space", [("0234", GROUND, ICON_NONE)], RECONSTRUCTED)
KEY_TILE_REASON = "the picture is not given; one corridor joining the starting space to every inward edge"

NUM_NORMAL_TILES = 30
CENTRAL_TILE_ID = 30
KEY_TILE_ID = 31
NUM_TILES = 32
ALL_TILES = [*NORMAL_TILES, CENTRAL_TILE, KEY_TILE]


def _interleaved(a: int, b: int) -> bool:
    """Whether two disjoint edge sets alternate round the hexagon (paths joining them would cross)."""
    seq = [0 if (a >> d) & 1 else 1 for d in range(NUM_DIRECTIONS) if ((a | b) >> d) & 1]
    changes = sum(seq[i] != seq[i - 1] for i in range(len(seq)))
    return changes > 2


def _is_straight(mask: int) -> bool:
    return any(mask == (1 << d) | (1 << (d + 3)) for d in range(3))


def _tiles() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    corridor_mask = np.zeros((NUM_TILES, MAX_CORRIDORS), dtype=np.uint8)
    level = np.full((NUM_TILES, MAX_CORRIDORS), -1, dtype=np.int8)
    icon = np.zeros((NUM_TILES, MAX_CORRIDORS), dtype=np.int8)
    pair = np.full((NUM_TILES, MAX_CORRIDORS), -1, dtype=np.int8)
    names = []
    for t, (name, corridors, source) in enumerate(ALL_TILES):
        assert source in (RULEBOOK, RECONSTRUCTED), name
        assert 1 <= len(corridors) <= MAX_CORRIDORS, name
        names.append(name)
        used = 0
        for k, (dirs, lev, ic) in enumerate(corridors):
            mask = _m(dirs)
            assert mask and not mask & used, f"{name}: corridors must have disjoint edges"
            assert lev in (GROUND, BRIDGE, UNDER) and ic in (ICON_NONE, ICON_TRAP, ICON_CHEST), name
            used |= mask
            corridor_mask[t, k], level[t, k], icon[t, k] = mask, lev, ic
        levels = [c[1] for c in corridors]
        assert levels.count(BRIDGE) == levels.count(UNDER) <= 1, f"{name}: a bridge needs exactly one under"
        if BRIDGE in levels:
            b, u = levels.index(BRIDGE), levels.index(UNDER)
            assert _is_straight(int(corridor_mask[t, b])), f"{name}: a bridge is a straight"
            assert _is_straight(int(corridor_mask[t, u])), f"{name}: the corridor under a bridge is a straight"
            assert _interleaved(int(corridor_mask[t, b]), int(corridor_mask[t, u])), f"{name}: under crosses bridge"
            pair[t, b], pair[t, u] = u, b
        floor = [int(corridor_mask[t, k]) for k in range(len(corridors)) if levels[k] != BRIDGE]
        for i in range(len(floor)):
            for j in range(i + 1, len(floor)):
                assert not _interleaved(floor[i], floor[j]), f"{name}: floor corridors would cross"
    return corridor_mask, level, icon, pair, tuple(names)


TILE_CORRIDOR_MASK, TILE_CORRIDOR_LEVEL, TILE_CORRIDOR_ICON, TILE_BRIDGE_PAIR, TILE_NAMES = _tiles()
TILE_NUM_CORRIDORS = (TILE_CORRIDOR_LEVEL >= 0).sum(axis=1).astype(np.int8)
TILE_SOURCES = tuple(t[2] for t in ALL_TILES)

assert len(NORMAL_TILES) == NUM_NORMAL_TILES
assert len(ALL_TILES) == NUM_TILES and TILE_NAMES[CENTRAL_TILE_ID] == "Central Space"
assert TILE_NAMES[KEY_TILE_ID] == "Key Space"
assert TILE_CORRIDOR_MASK[CENTRAL_TILE_ID, 0] == 0b111111 and TILE_CORRIDOR_MASK[KEY_TILE_ID, 0] == _m("0234")
assert int((TILE_CORRIDOR_ICON == ICON_TRAP).sum()) == 10 and int((TILE_CORRIDOR_ICON == ICON_CHEST).sum()) == 8

# --- trap tokens ------------------------------------------------------------------------
# Effects of a failed Trap Check (2d6 rolled ``rolls`` times, each roll fails below
# ``difficulty``):
#   TRAP_LOSE_LIFE           per failed roll lose ``param`` Life
#   TRAP_TAKE_STUN           per failed roll take ``param`` stun tokens
#   TRAP_LIFE_OR_STUN        per failed roll the victim chooses: lose 1 Life or take 1 stun
#   TRAP_BACK_TO_START       if any roll fails, back to the starting space
#   TRAP_CRYSTAL_INACTIVE    if any roll fails, the Crystal of Fate turns inactive
#   TRAP_LOSE_LIFE_AND_STUN  per failed roll lose ``param`` Life and take 1 stun
#   TRAP_THROWN_BACK         if any roll fails, the trap moves the character back into the
#                            corridor it came from: it explores it, but picks nothing up (l.358)
(TRAP_LOSE_LIFE, TRAP_TAKE_STUN, TRAP_LIFE_OR_STUN, TRAP_BACK_TO_START, TRAP_CRYSTAL_INACTIVE,
 TRAP_LOSE_LIFE_AND_STUN, TRAP_THROWN_BACK) = range(7)  # fmt: skip
TRAP_EFFECT_NAMES = (
    "lose life", "take stun", "life or stun", "back to start", "crystal inactive", "life and stun", "thrown back",
)  # fmt: skip
NUM_TRAPS = 60  # RULEBOOK: 60 trap tokens

# Entries: (name, count, rolls, difficulty, effect, param, source). Only Poisoned Spears is
# in the text; the Labyrinth Chart that lists the others is not reproduced. Reconstructed
# types keep the same format (1-3 rolls of 2d6 against 5+ .. 10+) and spread the harm over
# Life, stun, position and the Crystal, so that no single kind dominates; the mild ones are
# the most common.
TRAP_TYPES = [
    # RULEBOOK: "Poisoned Spears (3 x 8+) - Choose: lose 1 Life or take 1 stun token for each failed roll."
    ("Poisoned Spears", 6, 3, 8, TRAP_LIFE_OR_STUN, 1, RULEBOOK),
    ("Spiked Pit", 6, 1, 7, TRAP_LOSE_LIFE, 1, RECONSTRUCTED),  # the plain, common trap
    ("Falling Rocks", 6, 2, 6, TRAP_LOSE_LIFE, 1, RECONSTRUCTED),  # two easier rolls
    ("Dart Wall", 5, 3, 6, TRAP_LOSE_LIFE, 1, RECONSTRUCTED),  # many darts, each easy to dodge
    ("Swinging Blade", 4, 1, 8, TRAP_LOSE_LIFE, 2, RECONSTRUCTED),  # rare heavy hit
    ("Crushing Walls", 2, 1, 10, TRAP_LOSE_LIFE, 2, RECONSTRUCTED),  # hardest check, kept scarce
    ("Tripwire", 4, 1, 5, TRAP_TAKE_STUN, 1, RECONSTRUCTED),  # easy check, mild effect
    ("Net", 4, 1, 7, TRAP_TAKE_STUN, 1, RECONSTRUCTED),
    ("Sleeping Gas", 5, 2, 7, TRAP_TAKE_STUN, 1, RECONSTRUCTED),
    ("Stone Hammer", 4, 1, 7, TRAP_LOSE_LIFE_AND_STUN, 1, RECONSTRUCTED),  # wound and daze at once
    ("Portal Rune", 5, 1, 8, TRAP_BACK_TO_START, 0, RECONSTRUCTED),  # like a failed Golem Check
    ("Cursed Glyph", 5, 1, 7, TRAP_CRYSTAL_INACTIVE, 0, RECONSTRUCTED),  # like Plague's one-time effect
    # l.358 presupposes traps that move or place a character: this one moves it
    ("Spring Floor", 4, 1, 7, TRAP_THROWN_BACK, 0, RECONSTRUCTED),
]  # fmt: skip
TRAP_TYPES_REASON = (
    "the Labyrinth Chart is not reproduced; 12 further types in the format of Poisoned Spears, covering "
    "Life, stun, going back to start, being thrown back (l.358's trap that moves a character) and the "
    "Crystal, with 60 tokens in all"
)
NUM_TRAP_TYPES = len(TRAP_TYPES)
TRAP_NAMES = tuple(t[0] for t in TRAP_TYPES)
TRAP_COUNTS = np.array([t[1] for t in TRAP_TYPES], dtype=np.int8)
TRAP_ROLLS = np.array([t[2] for t in TRAP_TYPES], dtype=np.int8)
TRAP_DIFFICULTY = np.array([t[3] for t in TRAP_TYPES], dtype=np.int8)
TRAP_EFFECT = np.array([t[4] for t in TRAP_TYPES], dtype=np.int8)
TRAP_PARAM = np.array([t[5] for t in TRAP_TYPES], dtype=np.int8)
TRAP_SOURCES = tuple(t[6] for t in TRAP_TYPES)
# The type of each of the 60 tokens (unshuffled: the kernel shuffles the trap pool).
TRAP_TOKENS = np.repeat(np.arange(NUM_TRAP_TYPES, dtype=np.int8), TRAP_COUNTS.astype(np.int64)).astype(np.int8)

assert TRAP_NAMES[0] == "Poisoned Spears" and len(set(TRAP_NAMES)) == NUM_TRAP_TYPES
assert int(TRAP_COUNTS.sum()) == NUM_TRAPS and TRAP_TOKENS.shape == (NUM_TRAPS,)
assert ((TRAP_ROLLS >= 1) & (TRAP_ROLLS <= 3)).all()
assert ((TRAP_DIFFICULTY >= 5) & (TRAP_DIFFICULTY <= 10)).all()
assert ((TRAP_EFFECT >= 0) & (TRAP_EFFECT <= TRAP_THROWN_BACK)).all()

# --- items ------------------------------------------------------------------------------
# Bonuses add to the holder's own checks: attack to its Combat Checks when it is the
# attacker (also free attacks it makes), defend when it is attacked, jump to Jump Checks,
# trap to every roll of a Trap Check, golem to Golem Checks. Bonuses of the two carried
# items add up.
SPECIAL_NONE, SPECIAL_SCEPTER, SPECIAL_HEART, SPECIAL_POTION, SPECIAL_SALTS, SPECIAL_TOOLS = range(6)
SPECIAL_NAMES = ("", "scepter", "heart", "potion", "salts", "tools")
POTION_LIFE = 1  # RECONSTRUCTED: a sip of the Healing Potion gives back 1 Life, for 1 action
NUM_ITEMS = 15  # RULEBOOK: 15 item tokens

# Entries: (name, attack, defend, jump, trap, golem, special, source, text).
ITEMS = [
    ("Scepter of Control", 0, 0, 0, 0, 0, SPECIAL_SCEPTER, RULEBOOK,
     "When you encounter the Golem, you can spend a Life to ignore its effects."),
    ("Heart of the Abyss", 0, 0, 0, 0, 0, SPECIAL_HEART, RULEBOOK,
     "After you lose all Life, this item is treated as 1 additional Life."),
    # reconstructed: a way back from low Life that is not dying; never used up, since items
    # are never discarded voluntarily (l.373, l.471)
    ("Healing Potion", 0, 0, 0, 0, 0, SPECIAL_POTION, RECONSTRUCTED,
     "1 action: regain 1 Life (the potion never runs dry)."),
    # reconstructed: a counter to stun-heavy traps and failed jumps
    ("Smelling Salts", 0, 0, 0, 0, 0, SPECIAL_SALTS, RECONSTRUCTED,
     "When you Rest, discard all your stun tokens instead of one."),
    # reconstructed: plain bonuses to each kind of check the rules have, +1 and +2 forms
    ("Flaming Sword", 2, 0, 0, 0, 0, SPECIAL_NONE, RECONSTRUCTED, "+2 to your Combat Checks when you attack."),
    ("Shadow Dagger", 1, 0, 0, 0, 0, SPECIAL_NONE, RECONSTRUCTED, "+1 to your Combat Checks when you attack."),
    ("Tower Shield", 0, 2, 0, 0, 0, SPECIAL_NONE, RECONSTRUCTED, "+2 to your Combat Checks when you are attacked."),
    ("Chainmail Vest", 0, 1, 0, 0, 0, SPECIAL_NONE, RECONSTRUCTED, "+1 to your Combat Checks when you are attacked."),
    ("Dwarven Warhammer", 1, 1, 0, 0, 0, SPECIAL_NONE, RECONSTRUCTED, "+1 to all your Combat Checks."),
    ("Winged Boots", 0, 0, 2, 0, 0, SPECIAL_NONE, RECONSTRUCTED, "+2 to your Jump Checks."),
    ("Climbing Rope", 0, 0, 1, 1, 0, SPECIAL_NONE, RECONSTRUCTED,
     "+1 to your Jump Checks and to every roll of your Trap Checks."),
    ("Amulet of Warding", 0, 0, 0, 2, 0, SPECIAL_NONE, RECONSTRUCTED, "+2 to every roll of your Trap Checks."),
    # reconstructed: an effect that lets a player take a Trap Check again, which l.428
    # presumes; the trap stays ("until the end of the game", l.267)
    ("Thief's Tools", 0, 0, 0, 0, 0, SPECIAL_TOOLS, RECONSTRUCTED,
     "When every roll of your Trap Check fails, you take the Trap Check again at once, all its rolls "
     "(l.428); the new result stands."),
    ("Rune of Binding", 0, 0, 0, 0, 2, SPECIAL_NONE, RECONSTRUCTED, "+2 to your Golem Checks."),
    ("Clay Talisman", 0, 0, 0, 0, 1, SPECIAL_NONE, RECONSTRUCTED, "+1 to your Golem Checks."),
]  # fmt: skip
ITEMS_REASON = (
    "the Labyrinth Chart is not reproduced; beside the two named items: a healing potion that is never "
    "used up (no voluntary discards, l.373/l.471), smelling salts, thief's tools that take a Trap Check "
    "again when every roll fails (l.428 presumes such an effect; the trap stays, l.267) and 10 +1/+2 "
    "bonuses covering every check (attacking, defending, jump, trap, Golem)"
)
ITEM_NAMES = tuple(i[0] for i in ITEMS)
ITEM_ATTACK_BONUS = np.array([i[1] for i in ITEMS], dtype=np.int8)
ITEM_DEFEND_BONUS = np.array([i[2] for i in ITEMS], dtype=np.int8)
ITEM_JUMP_BONUS = np.array([i[3] for i in ITEMS], dtype=np.int8)
ITEM_TRAP_BONUS = np.array([i[4] for i in ITEMS], dtype=np.int8)
ITEM_GOLEM_BONUS = np.array([i[5] for i in ITEMS], dtype=np.int8)
ITEM_SPECIAL = np.array([i[6] for i in ITEMS], dtype=np.int8)
ITEM_SOURCES = tuple(i[7] for i in ITEMS)
ITEM_TEXT = tuple(i[8] for i in ITEMS)

assert len(ITEMS) == NUM_ITEMS and len(set(ITEM_NAMES)) == NUM_ITEMS
assert sorted(ITEM_SPECIAL.tolist())[-5:] == [
    SPECIAL_SCEPTER, SPECIAL_HEART, SPECIAL_POTION, SPECIAL_SALTS, SPECIAL_TOOLS,
]  # fmt: skip
_ANY_BONUS = (ITEM_ATTACK_BONUS | ITEM_DEFEND_BONUS | ITEM_JUMP_BONUS | ITEM_TRAP_BONUS | ITEM_GOLEM_BONUS) != 0
assert ((ITEM_SPECIAL == SPECIAL_NONE) == _ANY_BONUS).all(), "an item is either special or a bonus item, never both"

# --- events -----------------------------------------------------------------------------
# One-time effects, resolved by the active player ("choose a character": the active player
# chooses any character, itself included); the param is the amount where one applies.
(ONCE_NONE, ONCE_CHOOSE_LOSE_LIFE, ONCE_CHOOSE_CRYSTAL_INACTIVE, ONCE_CHOOSE_STUN, ONCE_ALL_LOSE_LIFE,
 ONCE_ALL_GAIN_LIFE, ONCE_GOLEM_TO_CENTER, ONCE_ACTIVE_GAIN_LIFE, ONCE_CHOOSE_TO_START) = range(9)  # fmt: skip
ONCE_NAMES = (
    "none", "choose lose life", "choose crystal inactive", "choose stun", "all lose life", "all gain life",
    "golem to center", "active gains life", "choose to start",
)  # fmt: skip
# Long-lasting effects, on every character until the next event replaces them (Annihilation:
# to the end). MAX_LIFE param: the cap (Life above it drops to it). *_MOD param: a signed
# modifier to those checks. COMBAT_MOD applies to the attacker's Combat Check only (a
# modifier on both sides would cancel out, since ties are rerolled). NO_PICKUP_ITEMS: item
# tokens cannot be picked up or exchanged (keys still can).
LONG_NONE, LONG_MAX_LIFE, LONG_NO_ABILITIES, LONG_COMBAT_MOD, LONG_JUMP_MOD, LONG_TRAP_MOD, LONG_GOLEM_MOD, \
    LONG_NO_PICKUP_ITEMS = range(8)  # fmt: skip
LONG_NAMES = ("none", "max life", "no abilities", "combat mod", "jump mod", "trap mod", "golem mod", "no pickup items")
NUM_EVENTS = 12  # RULEBOOK: 12 event cards per language version
ANNIHILATION = 11  # RULEBOOK: Annihilation is always the last card of the deck

# Entries: (name, once, once_param, long, long_param, source, text).
EVENTS = [
    ("Plague", ONCE_CHOOSE_CRYSTAL_INACTIVE, 0, LONG_MAX_LIFE, 2, RULEBOOK,
     "Choose a character: this character's Crystal of Fate becomes inactive. / "
     "Characters cannot have more than 2 Life (if they have more, it decreases to 2)."),
    ("Terror", ONCE_CHOOSE_LOSE_LIFE, 1, LONG_NO_ABILITIES, 0, RULEBOOK,
     "Choose a character who will lose 1 Life. / No character can use character abilities."),
    # reconstructed: each remaining one-time and long-lasting kind appears at least once
    ("Earthquake", ONCE_CHOOSE_STUN, 1, LONG_JUMP_MOD, -2, RECONSTRUCTED,
     "Choose a character who takes 1 stun token. / Jump Checks get -2 (the bridges sway)."),
    ("Blood Moon", ONCE_NONE, 0, LONG_COMBAT_MOD, 2, RECONSTRUCTED,
     "No effect. / Attacking characters add +2 to their Combat Checks."),
    ("Golem's Slumber", ONCE_GOLEM_TO_CENTER, 0, LONG_GOLEM_MOD, 2, RECONSTRUCTED,
     "Place the Golem on the central space. / Golem Checks get +2."),
    ("Healing Springs", ONCE_ALL_GAIN_LIFE, 1, LONG_NONE, 0, RECONSTRUCTED,
     "Every character regains 1 Life. / No long-lasting effect."),
    ("Darkness", ONCE_NONE, 0, LONG_TRAP_MOD, -2, RECONSTRUCTED,
     "No effect. / Every roll of a Trap Check gets -2."),
    ("Guiding Light", ONCE_ACTIVE_GAIN_LIFE, 1, LONG_TRAP_MOD, 1, RECONSTRUCTED,
     "You regain 1 Life. / Every roll of a Trap Check gets +1."),
    ("Shifting Walls", ONCE_CHOOSE_TO_START, 0, LONG_NONE, 0, RECONSTRUCTED,
     "Choose a character: place it on its starting space. / No long-lasting effect."),
    ("Cursed Treasures", ONCE_CHOOSE_LOSE_LIFE, 1, LONG_NO_PICKUP_ITEMS, 0, RECONSTRUCTED,
     "Choose a character who will lose 1 Life. / Item tokens cannot be picked up or exchanged."),
    ("Respite", ONCE_ACTIVE_GAIN_LIFE, 2, LONG_COMBAT_MOD, -2, RECONSTRUCTED,
     "You regain 2 Life. / Attacking characters get -2 to their Combat Checks."),
    # name RULEBOOK; effects reconstructed: dramatic and lasting to the end of the game
    ("Annihilation", ONCE_ALL_LOSE_LIFE, 1, LONG_GOLEM_MOD, -2, RECONSTRUCTED,
     "Every character loses 1 Life. / Golem Checks get -2 until the end of the game."),
]  # fmt: skip
EVENTS_REASON = (
    "only Plague and Terror are given in full and Annihilation by name; the other 9 use every one-time "
    "and long-lasting kind; Annihilation hurts everyone and makes the Golem nearly unbeatable to the end"
)
EVENT_NAMES = tuple(e[0] for e in EVENTS)
EVENT_ONCE = np.array([e[1] for e in EVENTS], dtype=np.int8)
EVENT_ONCE_PARAM = np.array([e[2] for e in EVENTS], dtype=np.int8)
EVENT_LONG = np.array([e[3] for e in EVENTS], dtype=np.int8)
EVENT_LONG_PARAM = np.array([e[4] for e in EVENTS], dtype=np.int8)
EVENT_SOURCES = tuple(e[5] for e in EVENTS)
EVENT_TEXT = tuple(e[6] for e in EVENTS)

assert len(EVENTS) == NUM_EVENTS and EVENT_NAMES[ANNIHILATION] == "Annihilation"
assert len(set(EVENT_NAMES)) == NUM_EVENTS
assert set(EVENT_ONCE.tolist()) == set(range(9)) and set(EVENT_LONG.tolist()) == set(range(8))

# --- Golem movement cards -----------------------------------------------------------------
# RULEBOOK: 12 cards; symbols: footprints (move 1, 2 or 3 spaces), idle, central space.
# RECONSTRUCTED: the mix (short moves most common; one in three cards does not move it).
GOLEM_MOVE, GOLEM_IDLE, GOLEM_CENTER = 0, 1, 2
GOLEM_KIND_NAMES = ("move", "idle", "center")
NUM_GOLEM_CARDS = 12
GOLEM_CARDS = [
    (GOLEM_MOVE, 1), (GOLEM_MOVE, 1), (GOLEM_MOVE, 1),
    (GOLEM_MOVE, 2), (GOLEM_MOVE, 2), (GOLEM_MOVE, 2),
    (GOLEM_MOVE, 3), (GOLEM_MOVE, 3),
    (GOLEM_IDLE, 0), (GOLEM_IDLE, 0),
    (GOLEM_CENTER, 0), (GOLEM_CENTER, 0),
]  # fmt: skip
GOLEM_CARDS_SOURCE = RECONSTRUCTED
GOLEM_CARDS_REASON = (
    "the cards are pictures; 3 x move 1, 3 x move 2, 2 x move 3, 2 x idle, 2 x central space: "
    "every symbol appears, shorter moves are commoner"
)
GOLEM_CARD_KIND = np.array([c[0] for c in GOLEM_CARDS], dtype=np.int8)
GOLEM_CARD_STEPS = np.array([c[1] for c in GOLEM_CARDS], dtype=np.int8)

assert len(GOLEM_CARDS) == NUM_GOLEM_CARDS
assert all((1 <= n <= 3) if k == GOLEM_MOVE else n == 0 for k, n in GOLEM_CARDS)

# --- characters and their ability tokens ------------------------------------------------------
# RULEBOOK: 15 character cards, 15 ability cards (l.56-58); 21 ability tokens (l.66-74):
# 1 Living Armor, 3 Hellfire, 3 Chaos Portal, 2 Tornado, 3 Seal, 3 Curse, 3 Faith,
# 3 Consecration. Each player takes the tokens of his character (setup step 9, l.89).
TOKEN_TYPES = [
    ("Living Armor", 1), ("Hellfire", 3), ("Chaos Portal", 3), ("Tornado", 2),
    ("Seal", 3), ("Curse", 3), ("Faith", 3), ("Consecration", 3),
]  # fmt: skip
TOK_LIVING_ARMOR, TOK_HELLFIRE, TOK_CHAOS_PORTAL, TOK_TORNADO = range(4)
TOK_SEAL, TOK_CURSE, TOK_FAITH, TOK_CONSECRATION = range(4, 8)
NUM_TOKEN_TYPES = len(TOKEN_TYPES)
TOKEN_TYPE_NAMES = tuple(t[0] for t in TOKEN_TYPES)
NUM_ABILITY_TOKENS = 21  # RULEBOOK: 21 character ability tokens
# token i is of type ABILITY_TOKENS[i] (tokens of one type are interchangeable)
ABILITY_TOKENS = np.repeat(np.arange(NUM_TOKEN_TYPES, dtype=np.int8), [t[1] for t in TOKEN_TYPES]).astype(np.int8)
assert len(ABILITY_TOKENS) == NUM_ABILITY_TOKENS

# Entries: (name, token type or -1, combat bonus, Golem Check bonus, source, ready, text).
# ``ready``: the kernel plays the ability; characters not ready yet are never dealt (the
# ``characters`` option rejects them) until a later issue writes them. All 15 are written.
CHARACTERS = [
    ("Swordmaster", -1, 3, 0, RULEBOOK, True,
     "Master of the Blade: +3 to all his Combat Checks (l.445)."),
    ("War Sister", -1, 0, 0, RULEBOOK, True,
     "Fury: after both Combat Checks are rolled, once per combat, she may lose 1 Life (not her last) "
     "for +2 to her Combat Check. Dismember: a character that loses a combat against her loses all "
     "its Life (l.445)."),
    ("Golem Mistress", -1, 1, 2, RULEBOOK, True,
     "Domination: +1 to her Combat Checks (l.447) and +2 to her Golem Checks, which can so pass 12 "
     "(l.296; the Golem half reconstructed)."),
    ("Warlock", TOK_HELLFIRE, 0, 0, RULEBOOK, True,
     "Hellfire (3 tokens): for 1 action, lay a Hellfire token on your corridor. Another character "
     "entering a corridor with it loses 1 Life and the token returns to you (reconstructed)."),
    ("Paladin", TOK_FAITH, 0, 0, RULEBOOK, True,
     "Faith (3 tokens): for 1 action, lay a Faith token on your corridor. When you enter a corridor "
     "with one of your Faith tokens you regain 1 Life; the token stays (reconstructed)."),
    ("Architect", -1, 0, 0, RULEBOOK, True,
     "Rebuild: for 1 action and your Crystal of Fate (l.346), move or destroy a normal space tile "
     "(never another kind, l.171) with no character, Golem or key token on it (l.152). Destroyed: "
     "to the bottom of the Labyrinth pool. Moved: built again at once by the Build rules, its icons "
     "laying new traps and items (back to the bottom if it fits nowhere). Either way its traps and "
     "items go back to their pools and its ability tokens to their owners (l.152)."),
    ("Illusionist", -1, 0, 0, RULEBOOK, True,
     "Illusion: for 1 action, take the top tile of the Labyrinth pool without looking at it and lay it "
     "face down on an empty space touching the board (l.141), where a closed space cuts no way to the "
     "central space or a key space (l.142-143). A face-down tile shows no corridor: nothing is built "
     "or laid on it. A character that moves into it along a corridor, or the Golem stepping into it, "
     "reveals it; she decides how it is oriented (l.465), with a corridor on the edge it is entered "
     "by; its icons then lay a trap or an item, and the character explores the corridor (the Golem "
     "takes its step). Once she has changed into another character, whoever enters the tile, or the "
     "player moving the Golem, decides (l.465). Her tiles are in the game: Terror does not stop "
     "them (l.317). (The rulebook gives l.465; everything else is reconstructed.)"),
    ("Arch-priestess", TOK_CONSECRATION, 0, 0, RULEBOOK, True,
     "Consecration (3 tokens): for 1 action, lay a Consecration token on your corridor. No combat "
     "takes place on a consecrated corridor (no Attack, no free attack) while the token lies there. "
     "Never in a 2-player game (l.499)."),
    ("Witch", TOK_CURSE, 0, 0, RECONSTRUCTED, True,
     "Curse (3 tokens): for 1 action, lay a Curse token on your corridor. Another character entering "
     "a corridor with it takes 1 stun token and the token returns to you."),
    ("Sorcerer", TOK_CHAOS_PORTAL, 0, 0, RECONSTRUCTED, True,
     "Chaos Portal (3 tokens): for 1 action, lay a Chaos Portal on your corridor. Another character "
     "that moves into a corridor with one is sent to another of your Chaos Portals at random (it "
     "explores it but picks nothing up there); the portals stay."),
    ("Stormcaller", TOK_TORNADO, 0, 0, RECONSTRUCTED, True,
     "Tornado (2 tokens): for 1 action, lay a Tornado token on your corridor. Another character "
     "that moves into a corridor with it is thrown back to the corridor it came from (it picks "
     "nothing up there); the token stays."),
    ("Warden", TOK_SEAL, 0, 0, RECONSTRUCTED, True,
     "Seal (3 tokens): for 1 action, lay a Seal on your corridor. While it lies there, no other "
     "character picks up key or item tokens on that corridor (the Golem ignores it, l.287)."),
    ("Armourer", TOK_LIVING_ARMOR, 0, 0, RECONSTRUCTED, True,
     "Living Armor (1 token): for 1 action, lay it on your corridor. While you stand on its "
     "corridor you get +2 to your Combat Checks (a token already in the game: Terror does not stop it)."),
    ("Thief", -1, 0, 0, RECONSTRUCTED, True,
     "Steal: when he wins a combat, he takes a key token from the loser, if it carries one."),
    ("Shapeshifter", -1, 0, 0, RECONSTRUCTED, True,
     "Change: for 1 action and your Crystal of Fate, become a character no one plays (the change of "
     "l.455-467: Life, Crystal, stun, keys and items stay; your tokens on the board stay but you no "
     "longer benefit from them; you take the new character's tokens not on the board)."),
]  # fmt: skip
CHARACTERS_REASON = (
    "the card texts are not in the rulebook: the eight characters it names keep what it says of them "
    "(l.171, l.445, l.447, l.465, l.499), the seven others and every token's effect are ours, so that "
    "each token type (l.66-74) has an owner"
)
NUM_CHARACTERS = 15  # RULEBOOK: 15 character cards
CHARACTER_NAMES = tuple(c[0] for c in CHARACTERS)
CHARACTER_TOKEN = np.array([c[1] for c in CHARACTERS], dtype=np.int8)
CHARACTER_COMBAT = np.array([c[2] for c in CHARACTERS], dtype=np.int8)
CHARACTER_GOLEM = np.array([c[3] for c in CHARACTERS], dtype=np.int8)
CHARACTER_SOURCES = tuple(c[4] for c in CHARACTERS)
CHARACTER_READY = np.array([c[5] for c in CHARACTERS], dtype=np.int8)
CHARACTER_TEXT = tuple(c[6] for c in CHARACTERS)
SWORDMASTER, WAR_SISTER, GOLEM_MISTRESS, WARLOCK, PALADIN, ARCHITECT, ILLUSIONIST, ARCH_PRIESTESS = range(8)
WITCH, SORCERER, STORMCALLER, WARDEN, ARMOURER, THIEF, SHAPESHIFTER = range(8, 15)
# RULEBOOK l.499: "The following characters cannot be used: the Golem Mistress, the Arch-priestess."
TWO_PLAYER_EXCLUDED = (GOLEM_MISTRESS, ARCH_PRIESTESS)
FURY_LIFE, FURY_BONUS = 1, 2  # RULEBOOK l.445: "losing 1 Life to add +2 to her Combat Check"
LIVING_ARMOR_BONUS = 2  # RECONSTRUCTED: the Armourer on his Living Armor's corridor

assert len(CHARACTERS) == NUM_CHARACTERS and len(set(CHARACTER_NAMES)) == NUM_CHARACTERS
assert set(CHARACTER_TOKEN.tolist()) - {-1} == set(range(NUM_TOKEN_TYPES)), "every token type has an owner"

# Everything reconstructed, for the rules doc.
RECONSTRUCTION_REASONS = {
    "START_SEATS": START_SEATS_REASON,
    "NORMAL_TILES": NORMAL_TILES_REASON,
    "CENTRAL_TILE": CENTRAL_TILE_REASON,
    "KEY_TILE": KEY_TILE_REASON,
    "TRAP_TYPES": TRAP_TYPES_REASON,
    "ITEMS": ITEMS_REASON,
    "EVENTS": EVENTS_REASON,
    "GOLEM_CARDS": GOLEM_CARDS_REASON,
    "CHARACTERS": CHARACTERS_REASON,
    "POTION_LIFE": "the Healing Potion's amount is our choice: 1 Life for 1 action, the potion stays",
    "LONG_COMBAT_MOD": "applies to the attacker only, since a modifier on both sides would cancel out",
}


# --- readable descriptions ----------------------------------------------------------------
def describe_tile(tile_id: int) -> str:
    """``"Rope Bridge: bridge 03 | under 25 (trap)"``: corridors by edges (base orientation)."""
    parts = []
    for k in range(MAX_CORRIDORS):
        lev = int(TILE_CORRIDOR_LEVEL[tile_id, k])
        if lev < 0:
            continue
        mask = int(TILE_CORRIDOR_MASK[tile_id, k])
        dirs = "".join(str(d) for d in range(NUM_DIRECTIONS) if (mask >> d) & 1)
        text = f"{LEVEL_NAMES[lev]} {dirs}"
        icon = int(TILE_CORRIDOR_ICON[tile_id, k])
        if icon != ICON_NONE:
            text += f" ({ICON_NAMES[icon]})"
        parts.append(text)
    return f"{TILE_NAMES[tile_id]}: " + " | ".join(parts)


def describe_trap(trap_type: int) -> str:
    """``"Poisoned Spears (3 x 8+): choose: lose 1 Life or take 1 stun token for each failed roll"``."""
    t = int(trap_type)
    effect, param = int(TRAP_EFFECT[t]), int(TRAP_PARAM[t])
    if effect == TRAP_LOSE_LIFE:
        what = f"lose {param} Life for each failed roll"
    elif effect == TRAP_TAKE_STUN:
        what = f"take {param} stun token{'s' if param > 1 else ''} for each failed roll"
    elif effect == TRAP_LIFE_OR_STUN:
        what = "choose: lose 1 Life or take 1 stun token for each failed roll"
    elif effect == TRAP_BACK_TO_START:
        what = "if any roll fails, go back to your starting space"
    elif effect == TRAP_CRYSTAL_INACTIVE:
        what = "if any roll fails, your Crystal of Fate becomes inactive"
    elif effect == TRAP_THROWN_BACK:
        what = "if any roll fails, you are thrown back into the corridor you came from"
    else:
        what = f"lose {param} Life and take 1 stun token for each failed roll"
    return f"{TRAP_NAMES[t]} ({int(TRAP_ROLLS[t])} x {int(TRAP_DIFFICULTY[t])}+): {what}"


def describe_item(item: int) -> str:
    """``"Flaming Sword: +2 to your Combat Checks when you attack."``"""
    return f"{ITEM_NAMES[int(item)]}: {ITEM_TEXT[int(item)]}"


def describe_event(event: int) -> str:
    """``"Terror: Choose a character who will lose 1 Life. / No character can use character abilities."``"""
    return f"{EVENT_NAMES[int(event)]}: {EVENT_TEXT[int(event)]}"


def describe_golem_card(card: int) -> str:
    """``"move 2"``, ``"idle"`` or ``"central space"``."""
    kind, steps = int(GOLEM_CARD_KIND[int(card)]), int(GOLEM_CARD_STEPS[int(card)])
    if kind == GOLEM_MOVE:
        return f"move {steps}"
    return "idle" if kind == GOLEM_IDLE else "central space"
