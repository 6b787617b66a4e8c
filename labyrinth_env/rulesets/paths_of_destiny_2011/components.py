"""Paths of Destiny (2011 edition) components: board fields, the Table of Traps, the Guard
movement cards, seating and the fixed figures of the rules.

Each table says where it comes from: ``RULEBOOK`` when the rulebook text gives it,
``RECONSTRUCTED`` when the rulebook shows it only in pictures or in a separate printed
component (the board fields, the Table of Traps, the Guard cards) and we chose it. Every
reconstructed entry carries a reason (``RECONSTRUCTION_REASONS``);
``docs/rules/paths_of_destiny_2011.md`` lists them.

The board fields are the 3rd edition's reconstructed shapes (both editions build the same
family of hexagonal fields with 1, 2 or 3 corridors and wooden bridges): the tables are
taken from ``paths_of_destiny_3e.components``, not copied, and the 3rd edition's trap and
chest icons are dropped (the 2011 rulebook has no icons: traps are only set by players).
Geometry as there: six directions in cyclic order, 6-bit corridor edge masks, up to
``MAX_CORRIDORS`` corridors per field; GROUND and UNDER corridors lie on the floor, a
BRIDGE corridor runs above its UNDER corridor.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.rulesets.paths_of_destiny_3e import components as _C3

RULEBOOK = "rulebook"
RECONSTRUCTED = "reconstructed"
NUM_DIRECTIONS = 6

# --- the fixed figures of the rules -----------------------------------------------------
LIFE = 4  # RULEBOOK: "Each player receives 4 life points"
NUM_KEYS = 6  # RULEBOOK: 6 key tokens, one per key field
ACTIONS_PER_TURN = 2  # RULEBOOK: "Each player has 2 actions at his disposal during one round"
JUMP_SUCCESS = 4  # RULEBOOK: one die, "4, 5, 6 - the jump was successful"
JUMP_FAIL_LIFE = 2  # RULEBOOK: "1, 2, 3 - ... you lose 2 life points ...
JUMP_FAIL_STUN = 1  # RULEBOOK: ... and receive 1 stun point"
JUMP_BONUS = 1  # RULEBOOK: +1 to the throw in a fight right after a good jump (and to the one climbed onto)
GUARD_STAY = 12  # RULEBOOK: "The result equal to 12 means that the player stays"
NUM_STUN_TOKENS = 12  # RULEBOOK: 12 stun tokens (not a limit here: see the rules doc)
NUM_CRYSTALS = 6  # RULEBOOK: 6 fate crystal tokens, at most one per player
NUM_TRAPS = 57  # RULEBOOK: 57 trap tokens (the 3 empty spare traps are not played)
NUM_GUARD_CARDS = 12  # RULEBOOK: 12 Guard movement cards
MAX_PLAYERS = 6  # RULEBOOK: 6 fate crystals (1 each, l.358), 24 life = 6 x 4, 6 start fields

# --- seating ----------------------------------------------------------------------------
# Start field i is the frame field beyond key field i. RULEBOOK: with 2 players each chooses
# (the first player chooses second); with 3 "a player - a vacant field - a player"; with 4
# "2 players next to each other keeping a distance between the two pairs"; with 5 a draw
# decides who chooses first; with 6 every start field is taken, so nobody chooses.
# FIXED_SEATS[n] lists the start fields of seats 0..n-1 (in turn
# order) where the rulebook fixes the pattern; RECONSTRUCTED: which seat takes which field of
# the pattern (the note does not say who chooses with 3 or 4 players).
CHOOSE_SEATS = (2, 5)  # player counts whose players choose their start fields
FIXED_SEATS = {3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)}
FIXED_SEATS_SOURCE = RECONSTRUCTED
FIXED_SEATS_REASON = (
    "the rulebook fixes the pattern for 3 players (a vacant field between players) and 4 (two pairs with "
    "a gap) but not who sits where; seats take the pattern in turn order, so with 4 the first two in turn "
    "order form one pair; with 6 (the note stops at 5) every start field is taken, in turn order"
)
CHOOSE_ORDER_REASON = (
    "with 5 players the draw only names the first to choose; the others follow in turn order (clockwise)"
)

# --- board fields -----------------------------------------------------------------------
MAX_CORRIDORS = _C3.MAX_CORRIDORS
GROUND, BRIDGE, UNDER = _C3.GROUND, _C3.BRIDGE, _C3.UNDER
LEVEL_NAMES = _C3.LEVEL_NAMES
NUM_NORMAL_TILES = 30  # RULEBOOK: 30 hexagonal board fields
CENTRAL_TILE_ID = _C3.CENTRAL_TILE_ID
KEY_TILE_ID = _C3.KEY_TILE_ID
NUM_TILES = _C3.NUM_TILES
TILE_NAMES = _C3.TILE_NAMES
TILE_CORRIDOR_MASK = _C3.TILE_CORRIDOR_MASK
TILE_CORRIDOR_LEVEL = _C3.TILE_CORRIDOR_LEVEL
TILE_BRIDGE_PAIR = _C3.TILE_BRIDGE_PAIR
TILE_NUM_CORRIDORS = _C3.TILE_NUM_CORRIDORS
TILES_SOURCE = RECONSTRUCTED
TILES_REASON = (
    "the board fields are pictures in both editions; the 2011 edition uses the same 30 reconstructed "
    "shapes as the 3rd edition (dead ends, straights, bends, forks, junctions, two-corridor fields, bridges "
    "over corridors, bridges with a side niche), the central field open on all six edges and the key field "
    "joining its start field to the three inward edges; the 3rd edition's trap and chest icons do not exist "
    "in 2011 and are ignored"
)

assert NUM_NORMAL_TILES == _C3.NUM_NORMAL_TILES and NUM_TILES == NUM_NORMAL_TILES + 2

# --- the Table of Traps -------------------------------------------------------------------
# A trap is checked in one of four ways (MODE_*): entering the corridor from another field,
# climbing up onto a bridge, jumping or coming down from one, and trying to leave the
# corridor (door traps). Red traps work on the first three, orange door traps only on the
# last. For each way a trap has a difficulty (2d6 >= it: nothing happens; 0: the trap does
# not work that way), a difficulty after the first failed attempt on this token (the number
# in brackets), and what a failed check does: lose Life, take stun points, and a movement
# (MOVE_*): turned back to the corridor it came from, or held in the corridor (a door that
# does not open: the move fails). Only harms the rulebook names for traps: Life (l.247),
# stun points (l.344), turn-back traps (l.386, l.418) and door traps (l.230, l.417). No trap
# sends a player home (the text does that only for the Guard and death) and none touches
# the fate crystal ("There is no way in which the fate crystal can be taken away", l.359).
MODE_ENTER, MODE_CLIMB, MODE_DOWN, MODE_LEAVE = 0, 1, 2, 3
MODE_NAMES = ("enter", "climb up", "jump or come down", "leave")
NUM_MODES = 4
MOVE_NONE, MOVE_TURN_BACK, MOVE_HELD = 0, 1, 2
MOVE_NAMES = ("", "turned back", "held in the corridor")
RED, DOOR = 0, 1
COLOUR_NAMES = ("red", "orange door")


def _w(diff: int, bracket: int | None = None, life: int = 0, stun: int = 0, move: int = MOVE_NONE):
    """One way a trap works: (difficulty, difficulty after the first failure, life, stun, move)."""
    return (diff, diff if bracket is None else bracket, life, stun, move)


_NO = (0, 0, 0, 0, MOVE_NONE)  # the trap does not work this way


def _all(*args, **kw):
    w = _w(*args, **kw)
    return (w, w, w, _NO)


def _door(*args, **kw):
    return (_NO, _NO, _NO, _w(*args, **kw))


# Entries: (name, count, colour, (enter, climb up, down, leave)). RECONSTRUCTED, every one:
# the Table of Traps is a separate printed component that the rulebook text does not
# reproduce. The text fixes the format (a difficulty, a bracketed difficulty after the
# first failure, red traps on entry, orange door traps on leaving, turn-back traps, effects
# that depend on entering, climbing up or jumping down) and the harms it knows (life, stun,
# turning back, a door that holds); the numbers are ours.
TRAP_TYPES = [
    # plain harm, the same however you come in; brackets: a known trap is easier to cross
    ("Falling Rocks", 6, RED, _all(7, 5, life=1)),
    ("Poisoned Darts", 5, RED, _all(8, life=1)),  # no bracket: darts keep flying
    ("Sleeping Gas", 4, RED, _all(8, 6, stun=1)),
    ("Stone Hammer", 4, RED, _all(8, 6, life=1, stun=1)),
    ("Blinding Flash", 3, RED, _all(7, stun=1)),  # no bracket: a flash blinds the wary too
    # the way in matters
    ("Spiked Pit", 6, RED, (_w(8, 6, life=1), _NO, _w(9, 7, life=2), _NO)),  # worse to land in, nothing to climb past
    ("Swinging Blade", 4, RED, (_w(9, 7, life=2), _w(9, 7, life=2), _NO, _NO)),  # it swings along the floor and bridge
    ("Net", 5, RED, (_w(7, 5, stun=1), _w(8, 6, stun=1), _w(6, 4, stun=1), _NO)),
    ("Collapsing Floor", 2, RED, (_w(6, 4, stun=1), _NO, _w(10, 8, life=2, stun=1), _NO)),
    # turn-back traps: a failed check sends the character back where it came from
    ("Magic Barrier", 3, RED, _all(9, 8, move=MOVE_TURN_BACK)),
    ("Wall of Fire", 5, RED,
     (_w(8, 6, move=MOVE_TURN_BACK), _w(9, 7, life=1, move=MOVE_TURN_BACK), _w(7, 5, move=MOVE_TURN_BACK), _NO)),
    ("Slippery Ladder", 2, RED, (_NO, _w(10, 8, life=1, move=MOVE_TURN_BACK), _w(6, 4, stun=1), _NO)),
    # orange door traps: checked when trying to leave the corridor by a move
    ("Jammed Door", 4, DOOR, _door(8, 6, move=MOVE_HELD)),
    ("Portcullis", 2, DOOR, _door(9, 7, life=1, move=MOVE_HELD)),
    ("Shock Lock", 2, DOOR, _door(7, 5, stun=1, move=MOVE_HELD)),
]  # fmt: skip
TRAP_TYPES_REASON = (
    "the Table of Traps is a separate printed component not in the rulebook text; 15 types, 57 tokens: 49 red "
    "(plain harm, harm that depends on entering, climbing up or coming down, three turn-back traps) and 8 orange "
    "door traps that hold the character in the corridor; only the harms the rulebook names for traps (life, "
    "stun points, turning back, a door that holds); difficulties 6-10, bracketed (after a first failure) "
    "1-2 lower except darts and the flash"
)
NUM_TRAP_TYPES = len(TRAP_TYPES)
TRAP_NAMES = tuple(t[0] for t in TRAP_TYPES)
TRAP_COUNTS = np.array([t[1] for t in TRAP_TYPES], dtype=np.int8)
TRAP_COLOUR = np.array([t[2] for t in TRAP_TYPES], dtype=np.int8)
_WAYS = np.array([t[3] for t in TRAP_TYPES], dtype=np.int8)  # [type, mode, field]
TRAP_DIFFICULTY = _WAYS[:, :, 0].copy()
TRAP_BRACKET = _WAYS[:, :, 1].copy()
TRAP_LIFE = _WAYS[:, :, 2].copy()
TRAP_STUN = _WAYS[:, :, 3].copy()
TRAP_MOVE = _WAYS[:, :, 4].copy()
TRAP_SOURCES = (RECONSTRUCTED,) * NUM_TRAP_TYPES
# The type of each of the 57 tokens (unshuffled: the kernel shuffles the trap pile).
TRAP_TOKENS = np.repeat(np.arange(NUM_TRAP_TYPES, dtype=np.int8), TRAP_COUNTS.astype(np.int64)).astype(np.int8)

assert int(TRAP_COUNTS.sum()) == NUM_TRAPS and TRAP_TOKENS.shape == (NUM_TRAPS,)
assert len(set(TRAP_NAMES)) == NUM_TRAP_TYPES
for _t in range(NUM_TRAP_TYPES):
    _red = TRAP_COLOUR[_t] == RED
    assert (TRAP_DIFFICULTY[_t, MODE_LEAVE] == 0) == _red, TRAP_NAMES[_t]  # door traps only on leaving
    assert _red == (TRAP_DIFFICULTY[_t, :MODE_LEAVE] > 0).any(), TRAP_NAMES[_t]
    for _m in range(NUM_MODES):
        _d, _b = int(TRAP_DIFFICULTY[_t, _m]), int(TRAP_BRACKET[_t, _m])
        if _d == 0:
            assert _b == 0 and TRAP_LIFE[_t, _m] == TRAP_STUN[_t, _m] == TRAP_MOVE[_t, _m] == 0
        else:
            assert 6 <= _d <= 10 and 2 <= _b <= _d, TRAP_NAMES[_t]
            _harm = TRAP_LIFE[_t, _m] + TRAP_STUN[_t, _m] + TRAP_MOVE[_t, _m]
            assert _harm > 0, TRAP_NAMES[_t]
        assert (TRAP_MOVE[_t, _m] == MOVE_HELD) == (_m == MODE_LEAVE and _d > 0), TRAP_NAMES[_t]

# --- Guard movement cards -----------------------------------------------------------------
# RULEBOOK: 12 cards; symbols: one, two, three footprints (move 1, 2, 3), sun-burst (back to
# the central field), crescent moon (falls asleep), crossed-out X (stays). RECONSTRUCTED: the
# mix of the 12.
GUARD_MOVE, GUARD_SUN, GUARD_MOON, GUARD_STAY_CARD = 0, 1, 2, 3
GUARD_KIND_NAMES = ("footprints", "sun-burst", "crescent moon", "crossed-out X")
GUARD_CARDS = [
    (GUARD_MOVE, 1), (GUARD_MOVE, 1), (GUARD_MOVE, 1),
    (GUARD_MOVE, 2), (GUARD_MOVE, 2),
    (GUARD_MOVE, 3), (GUARD_MOVE, 3),
    (GUARD_SUN, 0), (GUARD_SUN, 0),
    (GUARD_MOON, 0), (GUARD_MOON, 0),
    (GUARD_STAY_CARD, 0),
]  # fmt: skip
GUARD_CARDS_SOURCE = RECONSTRUCTED
GUARD_CARDS_REASON = (
    "the cards are pictures; 3 x one footprint, 2 x two, 2 x three, 2 x sun-burst, 2 x crescent moon, "
    "1 x crossed-out X: every symbol appears, shorter moves are commoner"
)
GUARD_CARD_KIND = np.array([c[0] for c in GUARD_CARDS], dtype=np.int8)
GUARD_CARD_STEPS = np.array([c[1] for c in GUARD_CARDS], dtype=np.int8)
# the card kinds as the observation counts them: footprints 1, 2, 3, sun, moon, X
GUARD_CARD_CLASS = np.array([s - 1 if k == GUARD_MOVE else k + 2 for k, s in GUARD_CARDS], dtype=np.int8)
NUM_GUARD_CLASSES = 6

assert len(GUARD_CARDS) == NUM_GUARD_CARDS
assert all((1 <= n <= 3) if k == GUARD_MOVE else n == 0 for k, n in GUARD_CARDS)
assert set(GUARD_CARD_CLASS.tolist()) == set(range(NUM_GUARD_CLASSES))

# Everything reconstructed, for the rules doc.
RECONSTRUCTION_REASONS = {
    "FIXED_SEATS": FIXED_SEATS_REASON,
    "CHOOSE_ORDER": CHOOSE_ORDER_REASON,
    "TILES": TILES_REASON,
    "TRAP_TYPES": TRAP_TYPES_REASON,
    "GUARD_CARDS": GUARD_CARDS_REASON,
}


# --- characters and their skills (l.55, l.57, l.128-134, l.367-418) ---------------------
# RULEBOOK: 10 character cards (l.55) and 10 character skill cards (l.57); "after using the
# third skill" (l.376) gives each character three skills. Section VI (l.367-418) names 17 of
# the 30; the cards' texts are not in the rulebook. Each skill below is (name, source, lines,
# card text): the text of a RULEBOOK skill is what its comment says, completed where the
# comment presumes a card text (each completion said in the rules doc); a RECONSTRUCTED skill
# is ours, with its reason in SKILL_REASONS. All 30 are played (the rules doc,
# "Characters", maps each to its code and tests).
CHARACTERS = (
    "Architect",
    "Assassin",
    "Illusionist",
    "Head Hunter",
    "Female Archer",
    "Monk",
    "Mistress of Golems",
    "Sword Master",
    "Thief",
    "Witch",
)
NUM_CHARACTERS = len(CHARACTERS)  # RULEBOOK: 10 character cards (l.55)
SKILLS_PER_CHARACTER = 3  # RULEBOOK: "after using the third skill" (l.376)
(ARCHITECT, ASSASSIN, ILLUSIONIST, HEAD_HUNTER, ARCHER, MONK, MISTRESS, SWORD_MASTER, THIEF, WITCH) = range(10)

# token supplies (RULEBOOK, l.47-51)
ADRENALINE_TOKENS = 3  # "3 adrenaline tokens (for the Female Archer)"; "at most 3" (l.390)
BLESSING_TOKENS = 6  # "6 blessing tokens (for the Monk)"
CURSE_TOKENS = 6  # "6 curse tokens (for the Witch)"
SHOT_HIT = 7  # RECONSTRUCTED: a target of the Shot below 7 on 2 dice is hit (see SKILL_REASONS)
THEFT_SUCCESS = 8  # RECONSTRUCTED: the Thief's Theft takes a key on 8 or more on 2 dice
GOLEM_WARD_STAY = 10  # RECONSTRUCTED: the Mistress of Golems stays on 10 or more when meeting the Guard

SKILLS = {
    ARCHITECT: (
        (
            "Correction",
            RULEBOOK,
            "l.371",
            "1 action: rotate a board field next to yours with nobody on it, or the "
            "one you stand on if no other player is there (l.371)",
        ),
        (
            "Foundation",
            RECONSTRUCTED,
            "-",
            "when you build, you may spend one more action to put the field you drew back into the pile, "
            "shuffled in, and build the next one instead (once a build)",
        ),
        (
            "Shortcut",
            RECONSTRUCTED,
            "-",
            "once per round, while you carry no key, a move from a field you built into another field you "
            "built costs no action",
        ),
    ),
    ASSASSIN: (
        (
            "Climbing",
            RULEBOOK,
            "l.375",
            "after you jump down from a bridge, whether you land or fall, you have +1 "
            "to your throw in a fight right after it (l.375, l.198)",
        ),
        ("Silent Step", RECONSTRUCTED, "-", "a player already in a corridor you come into may not attack you first"),
        (
            "Time Loop",
            RULEBOOK,
            "l.376",
            "turn your fate crystal face down: your last action is undone, and the "
            "players it touched come back to their state before it (l.376, l.363)",
        ),
    ),
    ILLUSIONIST: (
        (
            "Spreading Illusion",
            RULEBOOK,
            "l.380-381",
            "you may build a board field face down; nobody may place "
            "traps on it (l.380); if the Guard enters it, you uncover it (l.381)",
        ),
        (
            "Mystification",
            RULEBOOK,
            "l.382",
            "1 action: swap the traps of your corridor and of a corridor next to it, even with the Guard there (l.382)",
        ),
        ("Mirror Image", RECONSTRUCTED, "-", "the first fight thrown against you in a round is thrown again"),
    ),
    HEAD_HUNTER: (
        (
            "Entrapment",
            RULEBOOK,
            "l.134, l.386",
            "you may set a second trap in a corridor that has one (l.134); "
            "a player crossing it uncovers both, passes the turn-back trap first, the others in the order he likes, "
            "a door trap when he leaves (l.386)",
        ),
        ("Bounty", RECONSTRUCTED, "-", "when you win a fight against a player holding a key, you take that key"),
        (
            "Tracking",
            RECONSTRUCTED,
            "-",
            "once per round, without an action: turn face up the face-down traps of your corridor or of a "
            "corridor next to it",
        ),
    ),
    ARCHER: (
        (
            "Adrenaline",
            RULEBOOK,
            "l.390",
            "each time you lose a life point you take an adrenaline token (at most "
            "3, l.390), kept when you go back to your start field (l.390); in your round, hand one back for one "
            "more action",
        ),
        (
            "Shot",
            RULEBOOK,
            "l.391-392",
            "1 action: shoot at every other player in the corridors next to yours, or at one of them when "
            "two or more are there (l.391); each throws 2 dice for himself (l.391) and below 7 receives 1 stun "
            "point (l.345); not while stunned (l.392)",
        ),
        ("Keen Eye", RECONSTRUCTED, "-", "+1 to your throws against traps"),
    ),
    MONK: (
        (
            "Prayer",
            RULEBOOK,
            "l.396",
            "1 action: move another player in your corridor one move; he bears the "
            "standard consequences of the corridor he comes into (l.396)",
        ),
        (
            "Blessing",
            RECONSTRUCTED,
            "l.49",
            "1 action: put one of your blessing tokens on yourself or a player in "
            "your corridor: +1 to each of his dice throws until he has thrown once",
        ),
        (
            "Meditation",
            RECONSTRUCTED,
            "-",
            "at the start of your round, standing alone in your corridor, put one of your blessing tokens on "
            "yourself (free)",
        ),
    ),
    MISTRESS: (
        (
            "Enslavement",
            RULEBOOK,
            "l.400-401",
            "1 action, the round's Guard card (l.296, l.314): take it for a player in your corridor, who is the "
            "Guard while you carry it out: footprints, you move him as the Guard; the moon, 1 stun point; the "
            "sun-burst, to the central field (l.400); he ignores the Guard (l.400); each player he comes upon "
            "loses a key (l.401); then he is himself again",
        ),
        (
            "Domination",
            RULEBOOK,
            "l.402",
            "+1 to your throw in every fight, also on the central field while you hold a key (l.402)",
        ),
        (
            "Golem Ward",
            RECONSTRUCTED,
            "-",
            "meeting the Guard, you stay in your corridor on a throw of 10 or more (instead of 12, l.329)",
        ),
    ),
    SWORD_MASTER: (
        (
            "Whirling Blades",
            RULEBOOK,
            "l.406",
            "when you attack, you attack twice, also in an encounter; both attacks are free (l.406)",
        ),
        (
            "Parry",
            RECONSTRUCTED,
            "-",
            "when a fight is thrown against you alone, you throw one die more and drop the lowest",
        ),
        ("Disarm", RECONSTRUCTED, "-", "a player who loses a fight to you loses his next attack"),
    ),
    THIEF: (
        (
            "Theft",
            RULEBOOK,
            "l.410",
            "in an encounter, before attacks are declared (l.410), throw 2 dice: 8 or more "
            "takes one key of a player there",
        ),
        (
            "Disarming Traps",
            RULEBOOK,
            "l.411",
            "1 action: throw 2 dice against the trap of your corridor; at its "
            "difficulty or more the trap is taken off the board; the Guard there does not prevent it (l.411)",
        ),
        (
            "Quick Fingers",
            RECONSTRUCTED,
            "-",
            "lifting a key on a key field never needs the fight with the players there",
        ),
    ),
    WITCH: (
        (
            "Curse",
            RULEBOOK,
            "l.362, l.415",
            "1 action: put one of your curse tokens on a player in your corridor "
            "or one next to it: -1 per curse token on his next dice throw (they accumulate, l.415), repeated with the "
            "fate crystal too (l.362); then the tokens come back to you",
        ),
        (
            "Dark Enlivening",
            RULEBOOK,
            "l.416",
            "1 action: move a trap of your corridor into a corridor next to it "
            "with no trap or one (it lies there as the second), never into one with two traps (l.416)",
        ),
        (
            "Misfortune Rite",
            RULEBOOK,
            "l.417-418",
            "1 action: the trap of a corridor next to yours goes off on the "
            "players there; a door trap does nothing (l.417); you decide where a turn-back trap sends them (l.418)",
        ),
    ),
}
SKILL_NAMES = tuple(sk[0] for c in range(NUM_CHARACTERS) for sk in SKILLS[c])  # skill id = 3 * character + slot
NUM_SKILLS = len(SKILL_NAMES)
SKILL_SOURCES = tuple(sk[1] for c in range(NUM_CHARACTERS) for sk in SKILLS[c])
# the skills the kernel plays so far (skill ids); the others are documented, not yet played
SKILL_REASONS = {
    "card texts": (
        "the skill cards (l.57) are a separate printed component; section VI comments on 17 skills by name and "
        "l.376 implies three per character; the 13 unnamed ones are ours, each small and in the character's "
        "theme, so that every character has three"
    ),
    "Blessing": (
        "the Monk has 6 blessing tokens (l.49) and no named skill uses them; the Witch's curse tokens give -1 "
        "each to a throw (l.415) and the curse lasts through a repeated throw (l.362), so a blessing is read as "
        "its mirror: +1 per token on the next throw"
    ),
    "Curse": (
        "l.415 says curses accumulate and l.362 that a throw repeated with the fate crystal is 'not a new throw' "
        "so the curse 'still affects' it: a curse that affects the next throw and is then spent is the reading "
        "under which l.362 says something; range (your corridor or one next to it) is ours"
    ),
    "Shot": (
        "l.391 gives a range, one throw per target and a permission ('you can shoot both of them'), so she "
        "shoots every player in range or one of them; the range (the corridors next to yours), the number (7 on "
        "2 dice, about even odds) and the effect (1 stun point, one of the 'skills' that give stun points of "
        "l.345) are ours"
    ),
    "Adrenaline": (
        "l.390 says the tokens are kept at the start field and at most 3; how they are gained (a life point "
        "lost) and spent (one more action in the round) are ours"
    ),
    "Domination": "l.402 names a fight bonus; its size (+1, as the bridge's bonus l.198) is ours",
    "Disarming Traps": (
        "l.411 names the skill and says the Guard does not prevent it; the throw against the trap's own number "
        "and the token going back into the trap pile (the 57 tokens stay in the game) are ours"
    ),
    "Prayer": (
        "l.396 gives the effect; who may be moved (a player in the Monk's corridor) and how far (one move) are ours"
    ),
    "Whirling Blades": (
        "l.406 as written; 'you attack' read as attacking alone (a group's fight is the group's attack, l.281)"
    ),
    "Dark Enlivening": (
        "l.416 bars a corridor with two traps, so one with a trap may take hers as its second (l.134: her skill "
        "prevails over l.218's one trap a corridor); the range (the corridor next to hers) and that nobody "
        "stands there (as for setting one, l.220) are ours"
    ),
    "Mystification": (
        "l.382 names swapping 'the traps in the given corridor' despite the Guard; swapping her corridor's trap "
        "with the next corridor's (either may be empty) is our reading"
    ),
    "Entrapment": (
        "l.134 and l.386 as written; what lies under the skill's card (the Head Hunter may set the second trap, "
        "l.134) and that nobody may stand there (l.220 still holds) are ours; a corridor with two door traps "
        "checks one of them on leaving (l.386 names one door trap)"
    ),
    "Theft": (
        "l.410 places the try before the attacks are declared; the throw (8 or more on 2 dice, as often as a "
        "Poisoned Darts passes) and one key taken are ours; a Thief in an encounter with a key carrier is asked"
    ),
    "Keen Eye": "the Female Archer's third skill, ours: a small edge in her theme (a sharp eye) on the traps",
    "Silent Step": "the Assassin's third skill, ours: in his theme (unseen), the first attack of l.263 is lost",
    "Bounty": "the Head Hunter's third skill, ours: in his theme (a hunter's bounty), a key for a fight won",
    "Enslavement": (
        "l.400-401 as written: the Mistress makes him fall asleep 'using the Guard card' (l.400), so she takes "
        "the card, the round's one (l.314), for 1 action (l.296); nothing gives the transformation a longer "
        "life than that card, and the moon's sleep becomes a stun point, a player's state, so he is himself "
        "again once it is carried out: he keeps his rounds (a transformation until her next round would take "
        "every round of a rival she stands with in a 2-player game); the target (a player in her corridor), "
        "the key lost being dropped where he is met (as a death leaves one, l.125) and his keeping out of "
        "covered fields are ours"
    ),
    "Golem Ward": (
        "the Mistress's third skill, ours: she commands golems, the Guard among them, so its meeting spares her "
        "more often (10 or more instead of 12, l.329)"
    ),
    "Misfortune Rite": (
        "l.417-418 as written; the range (a corridor next to hers), that it needs someone there, the throw as "
        "if coming in, and that the one sent comes into the chosen corridor as after a move are ours"
    ),
    "Correction": (
        "l.371 lets him turn his own field when alone there, so the card turns fields next to his (nobody on "
        "them); one action, as building; the building rule's ways (l.152) must stay open; the central and key "
        "fields are printed, never turned"
    ),
    "Quick Fingers": "the Thief's third skill, ours: in his theme, a key lifted from under the others' noses",
    "Parry": "the Sword Master's third skill, ours: a defence to go with his attack (l.406)",
    "Meditation": (
        "the Monk's third skill, ours: his blessing tokens (l.49) used on himself, never while stunned (l.351: a "
        "skill that worked through rest would break it)"
    ),
    "Disarm": (
        "the Sword Master's third skill, ours: his blades (l.406) knock the weapon away; 'his next attack' read "
        "as: none until the end of his next round (free encounter attacks included, the kill of a stunned "
        "player not: that is no fight)"
    ),
    "Spreading Illusion": (
        "l.380-381 as written; building face down costs one action as building (l.148); the field is laid "
        "unseen by all, the Illusionist too (as a trap, l.210), as in the 3rd edition; its back shows no "
        "corridor, so no trap can be placed on it (l.380) and it may not close the last way of any player "
        "(l.152); anyone whose corridor opens onto it may step in (the Guard, l.381, and a player by his own "
        "move), and she turns it face up, turned so that the piece lands in a corridor"
    ),
    "Mirror Image": (
        "the Illusionist's third skill, ours: in her theme, the attacker strikes her image first; 'a fight "
        "thrown against you' read as: she is the defender; the first throw is void and the fight thrown again "
        "(both sides, each time her first of the round, whoever wins the first); a repeat with the fate "
        "crystal is no new fight (l.362)"
    ),
    "Shortcut": (
        "the Architect's third skill, ours: he knows the fields he built; the move stays an action (it needs "
        "an action left, l.114) whose point is given back; from a field built by him with the Build action "
        "into another one (who built each field is public: everyone saw it built), not while he carries a "
        "key; v3's 'into a field you built', with or without a key, put the Architect at 2.02x-2.05x of the "
        "fair share with 4-6 players (issue 21's balance run), its free moves worth most on the way to the "
        "central field"
    ),
    "Foundation": (
        "the Architect's second skill, ours: a builder's choice of fields; the plan 'look at the top 2 board "
        "fields and build one' gives his seat a private memory (the field seen, not built); played as a public "
        "effect instead: the field he put back was seen by all as it was drawn (l.94 'look at it'), and "
        "shuffled into the pile it is unknown again to everyone alike; once a build, for one more action (a "
        "second build's: free, it put the Architect at 1.3x-1.7x of the fair share with 4-6 players)"
    ),
    "Tracking": (
        "the Head Hunter's third skill, ours: a hunter reads the ground; the plan 'look at a face-down trap in "
        "your corridor or next to it' gives his seat a private memory of a token; played as a public effect "
        "instead: the token is turned face up for all, as entering uncovers it (l.234); both tokens of a "
        "corridor with his second trap (l.386); no action point, once a round, in his round with an action left"
    ),
    "Time Loop": (
        "l.376 says that after it 'other players (if you were e.g. attacking them) also come back to the "
        "previous state', and l.363 that some skills require the fate crystal: the Time Loop is the one (a "
        "second chance, as the crystal's repeat, for a whole action); 'your last action' is read as the move, "
        "jump, come-down, climb, attack or kill just made, with all it set off (building, traps and the Guard "
        "draw hidden things that cannot go back unseen); 'the players it touched' as every player whose own "
        "state it changed; the board (traps uncovered) and the dice stay; no action point, the undone "
        "action's points come back"
    ),
    "Climbing": (
        "l.375: falling down (a failed jump) or jumping gives the +1 of l.198; without the skill only a good "
        "jump gives it"
    ),
}


# --- readable descriptions ----------------------------------------------------------------
def describe_trap_way(trap_type: int, mode: int) -> str:
    """``"8 (6): lose 1 life"``, or ``"-"`` when the trap does not work that way."""
    t, m = int(trap_type), int(mode)
    d = int(TRAP_DIFFICULTY[t, m])
    if d == 0:
        return "-"
    b = int(TRAP_BRACKET[t, m])
    parts = []
    if TRAP_LIFE[t, m]:
        parts.append(f"lose {int(TRAP_LIFE[t, m])} life")
    if TRAP_STUN[t, m]:
        parts.append(f"{int(TRAP_STUN[t, m])} stun point")
    if TRAP_MOVE[t, m]:
        parts.append(MOVE_NAMES[int(TRAP_MOVE[t, m])])
    number = f"{d}" if b == d else f"{d} ({b})"
    return f"{number}: {', '.join(parts)}"


def describe_trap(trap_type: int) -> str:
    """``"Spiked Pit (red): enter 8 (6): lose 1 life | jump or come down 9 (7): lose 2 life"``."""
    t = int(trap_type)
    ways = [f"{MODE_NAMES[m]} {describe_trap_way(t, m)}" for m in range(NUM_MODES) if TRAP_DIFFICULTY[t, m] > 0]
    return f"{TRAP_NAMES[t]} ({COLOUR_NAMES[int(TRAP_COLOUR[t])]}): " + " | ".join(ways)


def describe_guard_card(card: int) -> str:
    """``"2 footprints"``, ``"sun-burst"``, ``"crescent moon"`` or ``"crossed-out X"``."""
    kind, steps = int(GUARD_CARD_KIND[int(card)]), int(GUARD_CARD_STEPS[int(card)])
    if kind == GUARD_MOVE:
        return f"{steps} footprint{'s' if steps > 1 else ''}"
    return GUARD_KIND_NAMES[kind]
