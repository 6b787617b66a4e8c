"""Labyrinthos kernel: the whole game as numba functions over one state record
(``STATE_DTYPE``). Kernel contract: see DESIGN.md.

A turn is a sequence of decisions. Everything that must be resolved before the turn can
go on (a tile's symbol, wounds to place, an attacked hero to displace, the monster's
movement points, a Desperation card's effect and the chance to cancel it) is a *task* on a
small stack in the state; ``advance`` runs the monster's movement in progress first, then
the top task, then the turn's phase (actions, refreshing the pool and the hand, the
Minotaur die, the next turn), until a decision is pending or the game is over. So every
step is a pure function of the record and the action.

The square grid, tile rotation and RNG come from ``labyrinth_env.core``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from labyrinth_env.core.contract import (  # noqa: F401 (outcome codes and to_act: the kernel's are the contract's)
    LOST,
    RUNNING,
    TRUNCATED,
    WON,
    set_decision,
    start_record,
    state_dtype,
    to_act,
    winner_returns,
)
from labyrinth_env.core.events import clear_events, emit
from labyrinth_env.core.grid import rotate_mask, square_neighbors
from labyrinth_env.core.rng import derive_seed, randint, seed_state, shuffle
from labyrinth_env.rulesets.labyrinthos import components as C

# --- geometry -----------------------------------------------------------------------------
SIZE = C.SIZE
NUM_CELLS = C.NUM_CELLS
NUM_SEATS = C.MAX_PLAYERS
NEIGHBORS = square_neighbors(SIZE, SIZE).astype(np.int64)
DOOR_CELL = (SIZE // 2) * SIZE + SIZE // 2


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
OPT_PLAYERS, OPT_MAX_TURNS, OPT_MONSTER, OPT_KEY_SLOT = 0, 1, 2, 3
NUM_OPTIONS = 4

# --- actions --------------------------------------------------------------------------------
A_CELL = 0  # + cell: move there / the monster moves there / displace there (49)
A_EXPLORE = A_CELL + NUM_CELLS  # + direction (4)
A_DISCOVER = A_EXPLORE + 4
A_CARD = A_DISCOVER + 1  # + card type: play (or discard) it (15)
A_ROT_WALL = A_CARD + NUM_CARD_TYPES  # + from side * 4 + to side (16)
A_ROTATE = A_ROT_WALL + 16  # + cell * 2 + (0 clockwise, 1 counter-clockwise) (98)
A_HEAL = A_ROTATE + 2 * NUM_CELLS
A_SPECIAL = A_HEAL + 1
A_KEY_ACT = A_SPECIAL + 1  # + key action (4)
A_RECOVER = A_KEY_ACT + NUM_KEY_ACTIONS  # + Feet tokens paid (0..5, the rest Hand)
A_REARRANGE = A_RECOVER + C.RECOVER_COST + 1  # + Feet tokens paid (0..3)
A_PASS = A_REARRANGE + C.REARRANGE_COST + 1
A_ORIENT = A_PASS + 1  # + rotation (4)
A_KEY_PICK = A_ORIENT + 4  # + key action of the token chosen (4)
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
    D_NONE,
) = range(27)
NUM_DECISIONS = 27
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
    "move (Ariadne's Thread)",
    "rotate a tile (Earthquake)",
    "none",
)

# turn phases
PH_HERO, PH_MAIN, PH_REFRESH, PH_HAND_OPT, PH_HAND_DRAW, PH_HAND_FORCED, PH_ROLL, PH_END = range(8)

# tasks
T_ARRIVE, T_WOUND, T_DODGE, T_DISPLACE, T_MONSTER, T_ROLL, T_EFFECT, T_ASK_CANCEL = range(8)
MAX_TASKS = 48

# events: (type, seat, a, b, c, d)
EV_FIRST_PLAYER = 1  # seat
EV_HERO = 2  # seat, hero
EV_TURN = 3  # seat, turn
EV_MOVE = 4  # seat, from, to, how (0 move, 1 secret passage, 2 Ariadne's Thread)
EV_EXPLORE = 5  # seat, cell, tile
EV_ORIENT = 6  # seat, cell, rotation
EV_KEY = 7  # seat, key token, slot
EV_CARD = 8  # seat, card type
EV_CANCEL = 9  # seat, cancelled card type, its player
EV_WALL_ROTATED = 10  # seat, from edge, to edge
EV_TILE_ROTATED = 11  # seat (-1: the monster), cell, 0 clockwise / 1 counter-clockwise
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
EV_MONSTER_MOVE = 23  # controller, from, to, how (0 point, 1 passage face, 2 charge, 3 door, 4 enters, 5 lyre)
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
MAX_EVENTS = 96

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


# --- small queries ------------------------------------------------------------------------------
@njit(cache=True)
def first_round(s) -> bool:
    return s.turn < s.num_players


@njit(cache=True)
def keys_held(s, p: int) -> int:
    n = 0
    for i in range(NUM_SLOTS):
        if s.slot_key[p, i] >= 0:
            n += 1
    return n


@njit(cache=True)
def holds_colour(s, p: int, colour: int) -> bool:
    for i in range(NUM_SLOTS):
        k = s.slot_key[p, i]
        if k >= 0 and KEY_TOKEN_COLOUR[k] == colour:
            return True
    return False


@njit(cache=True)
def wounds(s, p: int) -> int:
    n = 0
    for i in range(NUM_SLOTS):
        n += s.slot_wound[p, i]
    return n


@njit(cache=True)
def hand_size(s, p: int) -> int:
    n = 0
    for t in range(NUM_CARD_TYPES):
        n += s.hand[p, t]
    return n


@njit(cache=True)
def hand_limit(s, p: int) -> int:
    return max(0, C.HAND_LIMIT - keys_held(s, p))


@njit(cache=True)
def slot_usable(s, p: int, slot: int) -> bool:
    """The board action printed on ``slot`` can be used: neither wounded nor covered by a key."""
    return s.slot_wound[p, slot] == 0 and s.slot_key[p, slot] < 0


@njit(cache=True)
def special_usable(s, p: int, hero: int) -> bool:
    return s.hero[p] == hero and slot_usable(s, p, C.S_SPECIAL)


@njit(cache=True)
def key_action_slot(s, p: int, action: int) -> int:
    """A slot holding an unwounded key token with that action (-1: none)."""
    for i in range(NUM_SLOTS):
        k = s.slot_key[p, i]
        if k >= 0 and KEY_TOKEN_ACTION[k] == action and s.slot_wound[p, i] == 0:
            return i
    return -1


@njit(cache=True)
def woundable(s, p: int, slot: int) -> bool:
    """Wounds go on actions only: never twice on one, and on the empty key slot only under a key."""
    if s.slot_wound[p, slot]:
        return False
    return slot != C.S_KEY or s.slot_key[p, slot] >= 0


@njit(cache=True)
def any_woundable(s, p: int) -> bool:
    for i in range(NUM_SLOTS):
        if woundable(s, p, i):
            return True
    return False


@njit(cache=True)
def can_pay(s, p: int, feet: int, hands: int) -> bool:
    return s.feet[p] >= feet and s.hands[p] >= hands


@njit(cache=True)
def pay(s, p: int, feet: int, hands: int) -> None:
    s.feet[p] -= feet
    s.hands[p] -= hands
    s.feet_supply += feet
    s.hand_supply += hands


@njit(cache=True)
def gain_tokens(s, p: int, feet: int, hands: int) -> None:
    f = min(feet, s.feet_supply)
    h = min(hands, s.hand_supply)
    s.feet[p] += f
    s.hands[p] += h
    s.feet_supply -= f
    s.hand_supply -= h
    emit(s, EV_TOKENS, p, f, h)


@njit(cache=True)
def occupied_mask(s, cell: int) -> int:
    m = 0
    for p in range(s.num_players):
        if s.position[p] == cell:
            m |= 1 << p
    return m


@njit(cache=True)
def wall_count(s, cell: int) -> int:
    n = 0
    for d in range(4):
        e = EDGE_OF[cell, d]
        if e >= 0:
            n += s.wall[e]
    return n


@njit(cache=True)
def can_place_wall(s, e: int) -> bool:
    if s.wall[e] or s.wall_supply <= 0:
        return False
    return wall_count(s, EDGE_CELLS[e, 0]) < C.WALL_LIMIT and wall_count(s, EDGE_CELLS[e, 1]) < C.WALL_LIMIT


@njit(cache=True)
def any_wall_place(s) -> bool:
    for e in range(NUM_EDGES):
        if can_place_wall(s, e):
            return True
    return False


@njit(cache=True)
def can_move_wall(s, e: int, e2: int) -> bool:
    """The wall on ``e`` may be turned onto ``e2``, a free side of one of ``e``'s tiles,
    within the wall limit of every tile."""
    if not s.wall[e] or s.wall[e2] or e == e2:
        return False
    a, b = EDGE_CELLS[e, 0], EDGE_CELLS[e, 1]
    a2, b2 = EDGE_CELLS[e2, 0], EDGE_CELLS[e2, 1]
    if a2 not in (a, b) and b2 not in (a, b):
        return False
    for c in (a2, b2):
        n = wall_count(s, c) + 1
        if c in (a, b):
            n -= 1
        if n > C.WALL_LIMIT:
            return False
    return True


@njit(cache=True)
def open_towards(s, cell: int, d: int) -> bool:
    return (s.cell_mask[cell] >> d) & 1 == 1


@njit(cache=True)
def step_to(s, cell: int, d: int) -> int:
    """The explored tile next to ``cell`` in direction ``d`` joined by a pathway and no wall, or -1."""
    nb = NEIGHBORS[cell, d]
    if nb < 0 or not s.cell_up[nb] or not open_towards(s, cell, d):
        return -1
    if not open_towards(s, nb, (d + 2) % 4) or s.wall[EDGE_OF[cell, d]]:
        return -1
    return nb


@njit(cache=True)
def is_passage(s, cell: int) -> bool:
    return s.cell_up[cell] == 1 and TILE_SYMBOL[s.cell_tile[cell]] == C.SYM_PASSAGE


@njit(cache=True)
def linked(s, a: int, b: int) -> bool:
    """One move (or monster point) leads from ``a`` to ``b``: a shared pathway or two secret passages."""
    if a == b:
        return False
    if is_passage(s, a) and is_passage(s, b):
        return True
    for d in range(4):
        if NEIGHBORS[a, d] == b:
            return step_to(s, a, d) == b
    return False


@njit(cache=True)
def hero_may_enter(s, cell: int) -> bool:
    """Never onto the monster's tile, unless it is a Hide tile."""
    return cell != s.monster_cell or TILE_SYMBOL[s.cell_tile[cell]] == C.SYM_HIDE


@njit(cache=True)
def hero_move_ok(s, p: int, cell: int) -> bool:
    return linked(s, s.position[p], cell) and hero_may_enter(s, cell)


@njit(cache=True)
def fill_moves(s, cell: int, hero: bool, out) -> None:
    """Mark ``A_CELL + c`` for every tile one move (or monster point) away from ``cell``."""
    for d in range(4):
        nb = step_to(s, cell, d)
        if nb >= 0 and (not hero or hero_may_enter(s, nb)):
            out[A_CELL + nb] = 1
    if is_passage(s, cell):
        for c in range(NUM_CELLS):
            if c != cell and is_passage(s, c) and (not hero or hero_may_enter(s, c)):
                out[A_CELL + c] = 1


# --- the task stack ------------------------------------------------------------------------------
@njit(cache=True)
def push(s, kind: int, seat: int, a: int = 0, b: int = 0) -> None:
    n = s.num_tasks
    if n >= MAX_TASKS:
        s.task_overflow = 1
        return
    s.task_kind[n] = kind
    s.task_seat[n] = seat
    s.task_a[n] = a
    s.task_b[n] = b
    s.num_tasks = n + 1


@njit(cache=True)
def pop(s) -> None:
    s.num_tasks -= 1


# --- the maze -------------------------------------------------------------------------------------
@njit(cache=True)
def rotate_tile(s, who: int, cell: int, ccw: int) -> None:
    """Turn the tile 90 degrees; the walls stay where they are (FAQ)."""
    s.cell_mask[cell] = rotate_mask(s.cell_mask[cell], 3 if ccw else 1, 4)
    emit(s, EV_TILE_ROTATED, who, cell, ccw)


@njit(cache=True)
def place_wall(s, who: int, e: int) -> None:
    s.wall[e] = 1
    s.wall_supply -= 1
    emit(s, EV_WALL_PLACED, who, e)


@njit(cache=True)
def remove_wall(s, who: int, e: int) -> None:
    s.wall[e] = 0
    s.wall_supply += 1
    emit(s, EV_WALL_REMOVED, who, e)


@njit(cache=True)
def move_wall(s, who: int, e: int, e2: int) -> None:
    s.wall[e] = 0
    s.wall[e2] = 1
    emit(s, EV_WALL_ROTATED, who, e, e2)


# --- heroes ---------------------------------------------------------------------------------------
@njit(cache=True)
def put_hero(s, p: int, cell: int, how: int) -> None:
    """The hero is moved onto ``cell``: the tile's symbol (and the Door) are resolved next."""
    emit(s, EV_MOVE, p, s.position[p], cell, how)
    s.position[p] = cell
    push(s, T_ARRIVE, p)


@njit(cache=True)
def place_wound(s, p: int, slot: int) -> None:
    s.slot_wound[p, slot] = 1
    s.wound_supply -= 1
    emit(s, EV_WOUND, p, slot)


@njit(cache=True)
def heal_slot(s, p: int, slot: int) -> None:
    s.slot_wound[p, slot] = 0
    s.wound_supply += 1
    emit(s, EV_HEAL, p, slot)


@njit(cache=True)
def heal_all(s, p: int) -> int:
    n = 0
    for i in range(NUM_SLOTS):
        if s.slot_wound[p, i]:
            s.slot_wound[p, i] = 0
            s.wound_supply += 1
            n += 1
    return n


@njit(cache=True)
def check_win(s, p: int) -> bool:
    """RULEBOOK: all four keys and moving onto the Door tile."""
    if s.position[p] == DOOR_CELL and keys_held(s, p) == NUM_COLOURS:
        s.outcome = WON
        s.winner = p
        emit(s, EV_WIN, p)
        return True
    return False


@njit(cache=True)
def arrive(s, p: int) -> None:
    """The hero was moved onto its tile: resolve the Door, then the tile's symbol."""
    if check_win(s, p):
        return
    sym = TILE_SYMBOL[s.cell_tile[s.position[p]]]
    if sym == C.SYM_TRAP:
        push(s, T_WOUND, p, 1, 0)
    elif sym == C.SYM_WALL:
        if any_wall_place(s):
            s.pending_seat = p
            set_decision(s, D_WALL, p)
    elif sym == C.SYM_MINOTAUR and s.monster_cell >= 0:
        if special_usable(s, p, C.H_WILD_INTUITION):
            set_decision(s, D_INTUITION, p)
        else:
            push(s, T_MONSTER, p, C.MINOTAUR_SYMBOL_POINTS)


# --- the monster -----------------------------------------------------------------------------------
@njit(cache=True)
def end_movement(s) -> None:
    """RULEBOOK: the monster never ends its movement on the tile it started on: if it could
    not leave, it goes to the Door tile."""
    s.m_active = 0
    s.m_points = 0
    s.m_hunt = -1
    if s.monster_cell == s.m_start:
        if s.monster_cell != DOOR_CELL:
            emit(s, EV_MONSTER_MOVE, s.m_ctrl, s.monster_cell, DOOR_CELL, 3)
        s.monster_cell = DOOR_CELL


@njit(cache=True)
def attack(s, ctrl: int) -> None:
    """The monster moved onto heroes not protected by a Hide tile: the Blood die, wounds
    (each attacked hero may answer with a reaction card), then the controller displaces
    each hero; the monster's remaining points are lost."""
    cell = s.monster_cell
    heroes = occupied_mask(s, cell)
    emit(s, EV_ATTACK, ctrl, cell, heroes)
    end_movement(s)
    blood = BLOOD_FACES[randint(s.rng, 6)]
    s.last_blood = blood
    emit(s, EV_BLOOD, ctrl, blood)
    n = s.num_players
    medusa = 1 if s.monster == C.MEDUSA else 0
    for i in range(n - 1, -1, -1):  # pushed in reverse: resolved in turn order from the active player
        p = (s.seat + i) % n
        if (heroes >> p) & 1:
            push(s, T_DISPLACE, p, ctrl)
    if blood > 0:
        for i in range(n - 1, -1, -1):
            p = (s.seat + i) % n
            if (heroes >> p) & 1:
                push(s, T_DODGE, p, blood, medusa)


@njit(cache=True)
def monster_to(s, ctrl: int, cell: int, how: int) -> bool:
    """Move the monster; True if it attacked."""
    emit(s, EV_MONSTER_MOVE, ctrl, s.monster_cell, cell, how)
    s.monster_cell = cell
    if occupied_mask(s, cell) != 0 and TILE_SYMBOL[s.cell_tile[cell]] != C.SYM_HIDE:
        attack(s, ctrl)
        return True
    return False


@njit(cache=True)
def hunt_distances(s) -> np.ndarray:
    """Monster moves from each tile to the hunted hero's tile (-1: unreachable)."""
    dist = np.full(NUM_CELLS, -1, dtype=np.int64)
    queue = np.empty(NUM_CELLS, dtype=np.int64)
    target = s.position[s.m_hunt]
    dist[target] = 0
    queue[0] = target
    head, tail = 0, 1
    while head < tail:
        c = queue[head]
        head += 1
        for nb in range(NUM_CELLS):
            if dist[nb] < 0 and linked(s, nb, c):
                dist[nb] = dist[c] + 1
                queue[tail] = nb
                tail += 1
    return dist


@njit(cache=True)
def line_of_sight_hero(s) -> int:
    """The nearest hero in a straight line from the monster with no wall or dead end between (-1: none)."""
    best, best_d = -1, 99
    for d in range(4):
        c = s.monster_cell
        steps = 0
        while True:
            c = step_to(s, c, d)
            if c < 0:
                break
            steps += 1
            m = occupied_mask(s, c)
            if m != 0 and steps < best_d:
                for i in range(s.num_players):
                    p = (s.seat + i) % s.num_players
                    if (m >> p) & 1:
                        best, best_d = p, steps
                        break
                break
    return best


@njit(cache=True)
def hunt_step_ok(s, dist, cell: int) -> bool:
    """Cerberus hunting: only a move that gets it closer to the hunted hero."""
    here = dist[s.monster_cell]
    return linked(s, s.monster_cell, cell) and dist[cell] >= 0 and (here < 0 or dist[cell] < here)


@njit(cache=True)
def hunting_stuck(s) -> bool:
    dist = hunt_distances(s)
    for c in range(NUM_CELLS):
        if hunt_step_ok(s, dist, c):
            return False
    return True


@njit(cache=True)
def monster_point(s, action: int) -> None:
    """Spend one movement point (the pending decision's action)."""
    ctrl = s.m_ctrl
    s.m_points -= 1
    if action < A_EXPLORE:
        if monster_to(s, ctrl, action - A_CELL, 0):
            return
        if s.monster == C.CERBERUS and s.m_hunt < 0 and s.m_points > 0:
            h = line_of_sight_hero(s)
            if h >= 0:
                s.m_hunt = h
                emit(s, EV_HUNT, -1, h)
    elif action < A_HEAL:
        k = action - A_ROTATE
        rotate_tile(s, -1, k // 2, k % 2)
    else:
        remove_wall(s, -1, action - A_EDGE)


@njit(cache=True)
def monster_continue(s) -> None:
    """The monster's movement in progress: ask for the next point or end it."""
    if s.m_points <= 0 or (s.m_hunt >= 0 and hunting_stuck(s)):
        end_movement(s)
        return
    set_decision(s, D_MONSTER, s.m_ctrl)


@njit(cache=True)
def start_movement(s, ctrl: int) -> None:
    s.m_active = 1
    s.m_ctrl = ctrl
    s.m_start = s.monster_cell
    s.m_hunt = -1


@njit(cache=True)
def charge(s, d: int) -> None:
    """RULEBOOK: a straight line until a dead end or a hero, smashing walls; heroes on Hide
    tiles are charged through. A face-down tile counts as a dead end."""
    ctrl = s.m_ctrl
    c = s.monster_cell
    while True:
        nb = NEIGHBORS[c, d]
        if nb < 0 or not s.cell_up[nb] or not open_towards(s, c, d) or not open_towards(s, nb, (d + 2) % 4):
            break
        e = EDGE_OF[c, d]
        if s.wall[e]:
            remove_wall(s, -1, e)
        c = nb
        if occupied_mask(s, c) != 0 and TILE_SYMBOL[s.cell_tile[c]] != C.SYM_HIDE:
            monster_to(s, ctrl, c, 2)
            return
    if c != s.monster_cell:
        monster_to(s, ctrl, c, 2)
    end_movement(s)


@njit(cache=True)
def any_other_passage(s) -> bool:
    for c in range(NUM_CELLS):
        if c != s.monster_cell and is_passage(s, c):
            return True
    return False


@njit(cache=True)
def roll_monster_die(s, ctrl: int) -> None:
    face = randint(s.rng, 6)
    s.last_face = face
    emit(s, EV_ROLL, ctrl, face)
    start_movement(s, ctrl)
    kind = FACE_KIND[face]
    if kind == C.F_HOOVES:
        s.m_points = FACE_HOOVES[face]
        emit(s, EV_POINTS, ctrl, s.m_points)
    elif kind == C.F_PASSAGE:
        s.m_points = 0
        if any_other_passage(s):
            set_decision(s, D_PASSAGE, ctrl)
        else:
            end_movement(s)
    else:
        s.m_points = 0
        set_decision(s, D_CHARGE, ctrl)


# --- Desperation cards ---------------------------------------------------------------------------
@njit(cache=True)
def draw_card(s, p: int) -> bool:
    if s.deck_len == 0:
        n = 0
        for t in range(NUM_CARD_TYPES):
            for _ in range(s.discard[t]):
                s.deck[n] = t
                n += 1
            s.discard[t] = 0
        if n == 0:
            return False
        shuffle(s.rng, s.deck, n)
        s.deck_len = n
        emit(s, EV_RESHUFFLE, -1, n)
    s.deck_len -= 1
    s.hand[p, s.deck[s.deck_len]] += 1
    return True


@njit(cache=True)
def discard_card(s, p: int, t: int) -> None:
    s.hand[p, t] -= 1
    s.discard[t] += 1


@njit(cache=True)
def can_react(s, p: int) -> bool:
    """A Desperate action on another player's turn: the action must be free and paid for."""
    return slot_usable(s, p, C.S_DESPERATE) and can_pay(
        s, p, C.SLOT_COST[C.S_DESPERATE, 0], C.SLOT_COST[C.S_DESPERATE, 1]
    )


@njit(cache=True)
def play_card(s, p: int, t: int) -> None:
    pay(s, p, C.SLOT_COST[C.S_DESPERATE, 0], C.SLOT_COST[C.S_DESPERATE, 1])
    discard_card(s, p, t)
    emit(s, EV_CARD, p, t)
    push(s, T_EFFECT, p, t)
    push(s, T_ASK_CANCEL, p, t, 1)


@njit(cache=True)
def own_turn_card_ok(s, p: int, t: int) -> bool:
    if s.hand[p, t] <= 0 or CARD_REACTION[t] != C.R_NONE:
        return False
    e = CARD_EFFECT[t]
    if e == C.E_MONSTER or e == C.E_LYRE:
        return s.monster_cell >= 0
    return True


@njit(cache=True)
def dodge_card_ok(s, p: int, t: int, medusa: int) -> bool:
    if s.hand[p, t] <= 0 or CARD_REACTION[t] != C.R_ATTACK:
        return False
    e = CARD_EFFECT[t]
    if e == C.E_MIRROR:
        return medusa == 1
    if CARD_DECK[t] == C.CERBERUS:
        return s.monster == C.CERBERUS
    return True


@njit(cache=True)
def any_dodge(s, p: int, medusa: int) -> bool:
    if not can_react(s, p):
        return False
    for t in range(NUM_CARD_TYPES):
        if dodge_card_ok(s, p, t, medusa):
            return True
    return False


@njit(cache=True)
def topmost_wound_task(s, p: int) -> int:
    for i in range(s.num_tasks - 1, -1, -1):
        if s.task_kind[i] == T_WOUND and s.task_seat[i] == p:
            return i
    return -1


@njit(cache=True)
def any_free_move(s, p: int) -> bool:
    for c in range(NUM_CELLS):
        if hero_move_ok(s, p, c):
            return True
    return False


@njit(cache=True)
def card_effect(s, p: int, t: int) -> None:
    e = CARD_EFFECT[t]
    if e == C.E_CANCEL:
        i = s.num_tasks - 1  # the effect of the card it answered
        if i >= 0 and s.task_kind[i] == T_EFFECT:
            emit(s, EV_CANCEL, p, s.task_a[i], s.task_seat[i])
            pop(s)
    elif e == C.E_HEAL_ALL:
        emit(s, EV_RECOVER, p, heal_all(s, p))
    elif e == C.E_FEET:
        gain_tokens(s, p, C.CARD_GAIN_TOKENS, 0)
    elif e == C.E_HANDS:
        gain_tokens(s, p, 0, C.CARD_GAIN_TOKENS)
    elif e == C.E_FREE_MOVE:
        if any_free_move(s, p):
            set_decision(s, D_FREE_MOVE, p)
    elif e == C.E_ROTATE:
        set_decision(s, D_ROTATE_CARD, p)
    elif e == C.E_MONSTER:
        if s.monster_cell >= 0:
            push(s, T_MONSTER, p, C.CARD_MONSTER_POINTS)
    elif e == C.E_WALL:
        if any_wall_place(s):
            s.pending_seat = p
            set_decision(s, D_WALL, p)
    elif e == C.E_DODGE or e == C.E_MIRROR:
        i = topmost_wound_task(s, p)
        if i >= 0:
            if e == C.E_DODGE:
                s.task_a[i] = 0
            else:
                s.task_b[i] = 0
    elif e == C.E_DRAIN:
        set_decision(s, D_TARGET, p)
    elif e == C.E_LYRE and s.monster_cell >= 0 and s.monster_cell != DOOR_CELL:
        emit(s, EV_MONSTER_MOVE, p, s.monster_cell, DOOR_CELL, 5)
        s.monster_cell = DOOR_CELL


@njit(cache=True)
def drain(s, p: int) -> None:
    f = min(C.DRAIN_TOKENS, s.feet[p])
    h = min(C.DRAIN_TOKENS - f, s.hands[p])
    pay(s, p, f, h)
    emit(s, EV_TOKENS, p, -f, -h)


# --- running tasks -------------------------------------------------------------------------------
@njit(cache=True)
def next_canceller(s, player: int, t: int, offset: int) -> int:
    n = s.num_players
    for o in range(offset, n):
        q = (player + o) % n
        if s.hand[q, HERMES] > 0 and can_react(s, q):
            return o
    return -1


@njit(cache=True)
def run_task(s) -> None:
    i = s.num_tasks - 1
    kind = s.task_kind[i]
    p = s.task_seat[i]
    a = s.task_a[i]
    b = s.task_b[i]
    if kind == T_ARRIVE:
        pop(s)
        arrive(s, p)
    elif kind == T_WOUND:
        if a <= 0:
            pop(s)
        elif not any_woundable(s, p):
            emit(s, EV_WOUND, p, -1)  # every action wounded: the new wound is discarded
            s.task_a[i] = a - 1
        elif b == 1:  # Medusa: from the topmost open action down
            slot = 0
            while not woundable(s, p, slot):
                slot += 1
            place_wound(s, p, slot)
            s.task_a[i] = a - 1
        else:
            set_decision(s, D_WOUND, p)
    elif kind == T_DODGE:
        pop(s)
        push(s, T_WOUND, p, a, b)
        if any_dodge(s, p, b):
            s.pending_seat = b  # the Medusa flag, for the mask
            set_decision(s, D_DODGE, p)
    elif kind == T_DISPLACE:
        pop(s)
        displace(s, p, a)
    elif kind == T_MONSTER:
        pop(s)
        if s.monster_cell >= 0:
            start_movement(s, p)
            s.m_points = a
            emit(s, EV_POINTS, p, a)
    elif kind == T_ROLL:
        pop(s)
        if s.monster_cell >= 0:
            roll_monster_die(s, p)
    elif kind == T_EFFECT:
        pop(s)
        card_effect(s, p, a)
    else:  # T_ASK_CANCEL
        o = next_canceller(s, p, a, b)
        if o < 0:
            pop(s)
        else:
            s.task_b[i] = o + 1
            set_decision(s, D_CANCEL, (p + o) % s.num_players)


@njit(cache=True)
def displace_targets(s, p: int) -> int:
    """Bit set of the tiles the attacked hero may be moved to."""
    m = 0
    cell = s.position[p]
    for d in range(4):
        nb = step_to(s, cell, d)
        if nb >= 0 and nb != s.monster_cell:
            m |= 1 << d
    return m


@njit(cache=True)
def displace(s, p: int, ctrl: int) -> None:
    if special_usable(s, p, C.H_SHIELD_MAIDEN):
        emit(s, EV_SHIELD, p)
        return
    m = displace_targets(s, p)
    if m == 0:
        emit(s, EV_DISPLACE, p, -1, ctrl)
        return
    if m & (m - 1) == 0:  # one way only
        d = 0
        while not (m >> d) & 1:
            d += 1
        emit(s, EV_DISPLACE, p, NEIGHBORS[s.position[p], d], ctrl)
        put_hero(s, p, NEIGHBORS[s.position[p], d], 3)
        return
    s.pending_seat = p
    set_decision(s, D_DISPLACE, ctrl)


# --- the turn ------------------------------------------------------------------------------------
@njit(cache=True)
def start_turn(s) -> None:
    s.phase = PH_MAIN
    emit(s, EV_TURN, s.seat, s.turn)


@njit(cache=True)
def end_turn(s) -> None:
    s.turn += 1
    if s.turn == s.num_players:  # after everyone's first turn the monster enters on the Door tile
        s.monster_cell = DOOR_CELL
        emit(s, EV_MONSTER_MOVE, -1, -1, DOOR_CELL, 4)
    if s.max_turns > 0 and s.turn >= s.max_turns:
        s.outcome = TRUNCATED
        emit(s, EV_TRUNCATED, -1)
        return
    s.seat = (s.seat + 1) % s.num_players
    start_turn(s)


@njit(cache=True)
def run_phase(s) -> None:
    p = s.seat
    ph = s.phase
    if ph == PH_HERO:
        set_decision(s, D_HERO, (s.first_player + s.hero_pos) % s.num_players)
    elif ph == PH_MAIN:
        set_decision(s, D_MAIN, p)
    elif ph == PH_REFRESH:
        set_decision(s, D_REFRESH, p)
    elif ph == PH_HAND_OPT:
        if hand_size(s, p) == 0:
            s.phase = PH_HAND_DRAW
        else:
            set_decision(s, D_DISCARD_OPT, p)
    elif ph == PH_HAND_DRAW:
        drawn = 0
        while hand_size(s, p) < hand_limit(s, p) and draw_card(s, p):
            drawn += 1
        emit(s, EV_DRAW, p, drawn)
        s.phase = PH_HAND_FORCED
    elif ph == PH_HAND_FORCED:
        if hand_size(s, p) > hand_limit(s, p):
            set_decision(s, D_DISCARD, p)
        else:
            s.phase = PH_ROLL
    elif ph == PH_ROLL:
        push(s, T_ROLL, p)
        s.phase = PH_END
    else:
        end_turn(s)


@njit(cache=True)
def advance(s) -> None:
    """Resolve everything automatic until a decision is pending or the game is over."""
    while s.outcome == RUNNING and s.decision == D_NONE:
        if s.m_active:
            monster_continue(s)
        elif s.num_tasks > 0:
            run_task(s)
        else:
            run_phase(s)


# --- legal actions ---------------------------------------------------------------------------------
@njit(cache=True)
def slot_action_ok(s, p: int, slot: int) -> bool:
    return slot_usable(s, p, slot) and can_pay(s, p, SLOT_COST[slot, 0], SLOT_COST[slot, 1])


@njit(cache=True)
def discover_ok(s, p: int) -> bool:
    if not slot_action_ok(s, p, C.S_DISCOVER):
        return False
    colour = TILE_COLOUR[s.cell_tile[s.position[p]]]
    if TILE_KIND[s.cell_tile[s.position[p]]] != C.KIND_KEY or holds_colour(s, p, colour):
        return False
    for k in range(NUM_KEY_TOKENS):
        if s.key_pile[k] and KEY_TOKEN_COLOUR[k] == colour:
            return True
    return False


@njit(cache=True)
def free_key_slot(s, p: int, exclude: int) -> bool:
    for i in range(NUM_SLOTS):
        if i != exclude and key_slot_ok(s, p, i):
            return True
    return False


@njit(cache=True)
def key_slot_ok(s, p: int, slot: int) -> bool:
    """Key tokens go on non-key actions (never on Recover or Rearrange, which are not slots)."""
    if s.slot_key[p, slot] >= 0:
        return False
    return slot != C.S_KEY or s.use_key_slot == 1


@njit(cache=True)
def explore_ok(s, p: int, d: int) -> bool:
    cell = s.position[p]
    nb = NEIGHBORS[cell, d]
    if nb < 0 or s.cell_up[nb] or not open_towards(s, cell, d) or s.wall[EDGE_OF[cell, d]]:
        return False
    return slot_action_ok(s, p, C.S_EXPLORE)


@njit(cache=True)
def rotate_wall_ok(s, p: int, k: int) -> bool:
    cell = s.position[p]
    e = EDGE_OF[cell, k // 4]
    e2 = EDGE_OF[cell, k % 4]
    if e < 0 or e2 < 0:
        return False
    return can_move_wall(s, e, e2)


@njit(cache=True)
def special_ok(s, p: int) -> bool:
    h = s.hero[p]
    if SPECIAL_PASSIVE[h] or not slot_usable(s, p, C.S_SPECIAL):
        return False
    if not can_pay(s, p, SPECIAL_COST[h, 0], SPECIAL_COST[h, 1]):
        return False
    if h == C.H_BEAST_CALLER:
        return s.monster_cell >= 0
    return s.feet_supply > 0


@njit(cache=True)
def key_action_ok(s, p: int, k: int) -> bool:
    if key_action_slot(s, p, k) < 0 or not can_pay(s, p, KEY_ACTION_COST[k, 0], KEY_ACTION_COST[k, 1]):
        return False
    if k == C.K_BANDAGES:
        return wounds(s, p) > 0
    if k == C.K_VISIONS:
        return any_vision_from(s)
    return True


@njit(cache=True)
def any_vision_from(s) -> bool:
    for e in range(NUM_EDGES):
        if vision_from_ok(s, e):
            return True
    return False


@njit(cache=True)
def vision_from_ok(s, e: int) -> bool:
    if not s.wall[e]:
        return False
    for side in range(2):
        c = EDGE_CELLS[e, side]
        for d in range(4):
            e2 = EDGE_OF[c, d]
            if e2 >= 0 and can_move_wall(s, e, e2):
                return True
    return False


@njit(cache=True)
def main_mask(s, out) -> None:
    p = s.seat
    if slot_action_ok(s, p, C.S_MOVE):
        fill_moves(s, s.position[p], True, out)
    for d in range(4):
        if explore_ok(s, p, d):
            out[A_EXPLORE + d] = 1
    if discover_ok(s, p):
        out[A_DISCOVER] = 1
    if slot_action_ok(s, p, C.S_DESPERATE):
        for t in range(NUM_CARD_TYPES):
            if own_turn_card_ok(s, p, t):
                out[A_CARD + t] = 1
    if slot_action_ok(s, p, C.S_ROTATE_WALL):
        for k in range(16):
            if rotate_wall_ok(s, p, k):
                out[A_ROT_WALL + k] = 1
    if slot_action_ok(s, p, C.S_ROTATE_TILE):
        rotate_mask_fill(s, out)
    if slot_action_ok(s, p, C.S_HEAL) and wounds(s, p) > 0:
        out[A_HEAL] = 1
    if special_ok(s, p):
        out[A_SPECIAL] = 1
    for k in range(NUM_KEY_ACTIONS):
        if key_action_ok(s, p, k):
            out[A_KEY_ACT + k] = 1
    if wounds(s, p) > 0:
        for f in range(C.RECOVER_COST + 1):
            if can_pay(s, p, f, C.RECOVER_COST - f):
                out[A_RECOVER + f] = 1
    if keys_held(s, p) > 0 and free_key_slot(s, p, -1):
        for f in range(C.REARRANGE_COST + 1):
            if can_pay(s, p, f, C.REARRANGE_COST - f):
                out[A_REARRANGE + f] = 1
    out[A_PASS] = 1


@njit(cache=True)
def rotate_mask_fill(s, out) -> None:
    for c in range(NUM_CELLS):
        if s.cell_up[c]:
            out[A_ROTATE + 2 * c] = 1
            out[A_ROTATE + 2 * c + 1] = 1


@njit(cache=True)
def monster_mask(s, out) -> None:
    if s.m_hunt >= 0:  # Cerberus hunting: every point goes into getting closer
        dist = hunt_distances(s)
        for c in range(NUM_CELLS):
            if hunt_step_ok(s, dist, c):
                out[A_CELL + c] = 1
        return
    fill_moves(s, s.monster_cell, False, out)
    m = s.monster_cell
    out[A_ROTATE + 2 * m] = 1
    out[A_ROTATE + 2 * m + 1] = 1
    for d in range(4):
        nb = NEIGHBORS[m, d]
        if nb >= 0 and s.cell_up[nb]:
            out[A_ROTATE + 2 * nb] = 1
            out[A_ROTATE + 2 * nb + 1] = 1
        e = EDGE_OF[m, d]
        if e >= 0 and s.wall[e]:
            out[A_EDGE + e] = 1


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
    elif dec == D_HERO:
        for h in range(C.NUM_HEROES):
            taken = False
            for q in range(s.num_players):
                taken |= s.hero[q] == h
            out[A_HERO + h] = 0 if taken else 1
    elif dec == D_ORIENT:
        for r in range(4):
            out[A_ORIENT + r] = 1
    elif dec == D_KEY_PICK:
        colour = TILE_COLOUR[s.cell_tile[s.position[who]]]
        for k in range(NUM_KEY_TOKENS):
            if s.key_pile[k] and KEY_TOKEN_COLOUR[k] == colour:
                out[A_KEY_PICK + KEY_TOKEN_ACTION[k]] = 1
    elif dec == D_KEY_SLOT:
        for i in range(NUM_SLOTS):
            if i != s.pending_slot and key_slot_ok(s, who, i):
                out[A_SLOT + i] = 1
    elif dec == D_REARRANGE:
        for i in range(NUM_SLOTS):
            if s.slot_key[who, i] >= 0:
                out[A_SLOT + i] = 1
    elif dec == D_HEAL:
        for i in range(NUM_SLOTS):
            out[A_SLOT + i] = s.slot_wound[who, i]
    elif dec == D_WOUND:
        for i in range(NUM_SLOTS):
            if woundable(s, who, i):
                out[A_SLOT + i] = 1
    elif dec == D_WALL:
        for e in range(NUM_EDGES):
            if can_place_wall(s, e):
                out[A_EDGE + e] = 1
    else:
        other_mask(s, dec, who, out)


@njit(cache=True)
def other_mask(s, dec: int, who: int, out) -> None:
    if dec == D_MONSTER:
        monster_mask(s, out)
    elif dec == D_PASSAGE:
        for c in range(NUM_CELLS):
            if c != s.monster_cell and is_passage(s, c):
                out[A_CELL + c] = 1
    elif dec == D_CHARGE:
        for d in range(4):
            out[A_CHARGE + d] = 1
    elif dec == D_DISPLACE:
        m = displace_targets(s, s.pending_seat)
        for d in range(4):
            if (m >> d) & 1:
                out[A_CELL + NEIGHBORS[s.position[s.pending_seat], d]] = 1
    elif dec in (D_INTUITION, D_CANCEL):
        out[A_YES] = 1
        out[A_NO] = 1
    elif dec == D_DODGE:
        for t in range(NUM_CARD_TYPES):
            if dodge_card_ok(s, who, t, s.pending_seat):
                out[A_CARD + t] = 1
        out[A_NO] = 1
    elif dec == D_REFRESH:
        feet = s.feet_supply + s.feet[who]
        hands = s.hand_supply + s.hands[who]
        for f in range(C.POOL_SIZE + 1):
            if f <= feet and C.POOL_SIZE - f <= hands:
                out[A_REFRESH + f] = 1
    elif dec in (D_DISCARD_OPT, D_DISCARD):
        for t in range(NUM_CARD_TYPES):
            if s.hand[who, t] > 0:
                out[A_CARD + t] = 1
        if dec == D_DISCARD_OPT:
            out[A_DONE] = 1
    elif dec in (D_LEVER, D_ROTATE_CARD):
        rotate_mask_fill(s, out)
        if dec == D_LEVER:
            out[A_DONE] = 1
    elif dec == D_BUILD:
        for e in range(NUM_EDGES):
            if s.wall[e] or can_place_wall(s, e):
                out[A_EDGE + e] = 1
        out[A_DONE] = 1
    elif dec == D_VISION_FROM:
        for e in range(NUM_EDGES):
            if vision_from_ok(s, e):
                out[A_EDGE + e] = 1
        out[A_DONE] = 1
    elif dec == D_VISION_TO:
        for e2 in range(NUM_EDGES):
            if can_move_wall(s, s.pending_edge, e2):
                out[A_EDGE + e2] = 1
    elif dec == D_TARGET:
        for o in range(1, s.num_players):
            out[A_TARGET + o - 1] = 1
    elif dec == D_FREE_MOVE:
        fill_moves(s, s.position[who], True, out)


@njit(cache=True)
def is_legal(s, action: int) -> bool:
    if s.outcome != RUNNING or action < 0 or action >= NUM_ACTIONS:
        return False
    # a local mask: a rejected action must leave every byte of the state as it was
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    return mask[action] != 0


# --- applying actions ---------------------------------------------------------------------------
@njit(cache=True)
def do_main(s, action: int) -> None:
    p = s.seat
    if action < A_EXPLORE:
        pay(s, p, SLOT_COST[C.S_MOVE, 0], SLOT_COST[C.S_MOVE, 1])
        put_hero(s, p, action - A_CELL, 1 if is_passage(s, action - A_CELL) and is_passage(s, s.position[p]) else 0)
    elif action < A_DISCOVER:
        pay(s, p, SLOT_COST[C.S_EXPLORE, 0], SLOT_COST[C.S_EXPLORE, 1])
        cell = NEIGHBORS[s.position[p], action - A_EXPLORE]
        s.cell_up[cell] = 1
        emit(s, EV_EXPLORE, p, cell, s.cell_tile[cell])
        s.pending_cell = cell
        set_decision(s, D_ORIENT, p)
    elif action == A_DISCOVER:
        pay(s, p, SLOT_COST[C.S_DISCOVER, 0], SLOT_COST[C.S_DISCOVER, 1])
        colour = TILE_COLOUR[s.cell_tile[s.position[p]]]
        for k in range(NUM_KEY_TOKENS):
            if s.key_pile[k] and KEY_TOKEN_COLOUR[k] == colour:
                s.key_seen[p, k] = 1  # the player looks at that colour's face-down tokens
        set_decision(s, D_KEY_PICK, p)
    elif action < A_ROT_WALL:
        play_card(s, p, action - A_CARD)
    elif action < A_ROTATE:
        pay(s, p, SLOT_COST[C.S_ROTATE_WALL, 0], SLOT_COST[C.S_ROTATE_WALL, 1])
        k = action - A_ROT_WALL
        cell = s.position[p]
        move_wall(s, p, EDGE_OF[cell, k // 4], EDGE_OF[cell, k % 4])
    elif action < A_HEAL:
        pay(s, p, SLOT_COST[C.S_ROTATE_TILE, 0], SLOT_COST[C.S_ROTATE_TILE, 1])
        k = action - A_ROTATE
        rotate_tile(s, p, k // 2, k % 2)
    elif action == A_HEAL:
        pay(s, p, SLOT_COST[C.S_HEAL, 0], SLOT_COST[C.S_HEAL, 1])
        set_decision(s, D_HEAL, p)
    elif action == A_SPECIAL:
        h = s.hero[p]
        pay(s, p, SPECIAL_COST[h, 0], SPECIAL_COST[h, 1])
        emit(s, EV_SPECIAL, p, h)
        if h == C.H_SWIFT_STRIDE:
            gain_tokens(s, p, C.SWIFT_STRIDE_FEET, 0)
        else:
            push(s, T_MONSTER, p, C.MINOTAUR_SYMBOL_POINTS)
    elif action < A_RECOVER:
        key_action(s, p, action - A_KEY_ACT)
    elif action < A_REARRANGE:
        f = action - A_RECOVER
        pay(s, p, f, C.RECOVER_COST - f)
        emit(s, EV_RECOVER, p, heal_all(s, p))
    elif action < A_PASS:
        f = action - A_REARRANGE
        pay(s, p, f, C.REARRANGE_COST - f)
        set_decision(s, D_REARRANGE, p)
    else:
        s.phase = PH_REFRESH


@njit(cache=True)
def key_action(s, p: int, k: int) -> None:
    pay(s, p, KEY_ACTION_COST[k, 0], KEY_ACTION_COST[k, 1])
    emit(s, EV_KEY_ACTION, p, k)
    if k == C.K_SECRET_LEVER:
        s.count_left = C.LEVER_ROTATIONS
        set_decision(s, D_LEVER, p)
    elif k == C.K_BUILD:
        s.count_left = C.BUILD_WALLS
        set_decision(s, D_BUILD, p)
    elif k == C.K_VISIONS:
        s.count_left = C.VISIONS_WALLS
        set_decision(s, D_VISION_FROM, p)
    else:
        set_decision(s, D_HEAL, p)


@njit(cache=True)
def take_key(s, p: int, action: int) -> None:
    colour = TILE_COLOUR[s.cell_tile[s.position[p]]]
    for k in range(NUM_KEY_TOKENS):
        if s.key_pile[k] and KEY_TOKEN_COLOUR[k] == colour and KEY_TOKEN_ACTION[k] == action:
            s.key_pile[k] = 0
            s.pending_token = k
    s.pending_slot = -1
    set_decision(s, D_KEY_SLOT, p)


@njit(cache=True)
def place_key(s, p: int, slot: int) -> None:
    if s.pending_slot >= 0:  # rearranging: the wound stays where it is
        k = s.slot_key[p, s.pending_slot]
        s.slot_key[p, s.pending_slot] = -1
        s.slot_key[p, slot] = k
        emit(s, EV_REARRANGE, p, s.pending_slot, slot)
    else:
        s.slot_key[p, slot] = s.pending_token
        emit(s, EV_KEY, p, s.pending_token, slot)
    s.pending_slot = -1
    s.pending_token = -1


@njit(cache=True)
def repeat(s, dec: int, who: int) -> None:
    """Secret lever, Build, Visions: one more, or stop when none is left."""
    s.count_left -= 1
    if s.count_left > 0 and (dec != D_VISION_FROM or any_vision_from(s)):
        set_decision(s, dec, who)


@njit(cache=True)
def do_other(s, dec: int, who: int, action: int) -> None:
    if dec == D_ORIENT:
        cell = s.pending_cell
        r = action - A_ORIENT
        s.cell_mask[cell] = rotate_mask(TILE_MASK[s.cell_tile[cell]], r, 4)
        emit(s, EV_ORIENT, who, cell, r)
        s.pending_cell = -1
        put_hero(s, who, cell, 0)  # explorers always move onto the new tile
    elif dec == D_KEY_PICK:
        take_key(s, who, action - A_KEY_PICK)
    elif dec == D_KEY_SLOT:
        place_key(s, who, action - A_SLOT)
    elif dec == D_REARRANGE:
        s.pending_slot = action - A_SLOT
        set_decision(s, D_KEY_SLOT, who)
    elif dec == D_HEAL:
        heal_slot(s, who, action - A_SLOT)
    elif dec == D_WOUND:
        place_wound(s, who, action - A_SLOT)
        s.task_a[s.num_tasks - 1] -= 1
    elif dec == D_WALL:
        place_wall(s, who, action - A_EDGE)
    elif dec == D_MONSTER:
        monster_point(s, action)
    elif dec == D_PASSAGE:
        monster_to(s, who, action - A_CELL, 1)
        if s.m_active:
            end_movement(s)
    elif dec == D_CHARGE:
        charge(s, action - A_CHARGE)
    elif dec == D_DISPLACE:
        p = s.pending_seat
        emit(s, EV_DISPLACE, p, action - A_CELL, who)
        put_hero(s, p, action - A_CELL, 3)
    elif dec == D_INTUITION:
        emit(s, EV_INTUITION, who, 1 if action == A_YES else 0)
        if action == A_YES:
            push(s, T_ROLL, who)
        else:
            push(s, T_MONSTER, who, C.MINOTAUR_SYMBOL_POINTS)
    else:
        do_more(s, dec, who, action)


@njit(cache=True)
def do_more(s, dec: int, who: int, action: int) -> None:
    if dec == D_CANCEL:
        if action == A_YES:
            # Hermes' Mischief is a Desperation card too: the others may cancel it in turn
            pay(s, who, C.SLOT_COST[C.S_DESPERATE, 0], C.SLOT_COST[C.S_DESPERATE, 1])
            discard_card(s, who, HERMES)
            emit(s, EV_CARD, who, HERMES)
            pop(s)  # no more asking: the card is answered
            push(s, T_EFFECT, who, HERMES)
            push(s, T_ASK_CANCEL, who, HERMES, 1)
    elif dec == D_DODGE:
        if action != A_NO:
            play_card(s, who, action - A_CARD)
    elif dec == D_REFRESH:
        f = action - A_REFRESH
        s.feet_supply += s.feet[who] - f
        s.hand_supply += s.hands[who] - (C.POOL_SIZE - f)
        s.feet[who] = f
        s.hands[who] = C.POOL_SIZE - f
        emit(s, EV_REFRESH, who, f, C.POOL_SIZE - f)
        # RULEBOOK: in the first round the turn ends after refreshing the action pool
        s.phase = PH_END if first_round(s) else PH_HAND_OPT
    elif dec == D_DISCARD_OPT:
        if action == A_DONE:
            s.phase = PH_HAND_DRAW
        else:
            discard_card(s, who, action - A_CARD)
            emit(s, EV_DISCARD, who, action - A_CARD)
    elif dec == D_DISCARD:
        discard_card(s, who, action - A_CARD)
        emit(s, EV_DISCARD, who, action - A_CARD)
    elif dec in (D_LEVER, D_ROTATE_CARD):
        if action != A_DONE:
            k = action - A_ROTATE
            rotate_tile(s, who, k // 2, k % 2)
            if dec == D_LEVER:
                repeat(s, dec, who)
    elif dec == D_BUILD:
        if action != A_DONE:
            e = action - A_EDGE
            if s.wall[e]:
                remove_wall(s, who, e)
            else:
                place_wall(s, who, e)
            repeat(s, dec, who)
    elif dec == D_VISION_FROM:
        if action != A_DONE:
            s.pending_edge = action - A_EDGE
            set_decision(s, D_VISION_TO, who)
    elif dec == D_VISION_TO:
        move_wall(s, who, s.pending_edge, action - A_EDGE)
        s.pending_edge = -1
        repeat(s, D_VISION_FROM, who)
    elif dec == D_TARGET:
        drain(s, (who + action - A_TARGET + 1) % s.num_players)
    elif dec == D_FREE_MOVE:
        put_hero(s, who, action - A_CELL, 2)


@njit(cache=True)
def choose_hero(s, who: int, h: int) -> None:
    s.hero[who] = h
    emit(s, EV_HERO, who, h)
    s.hero_pos += 1
    if s.hero_pos < s.num_players:
        return
    for c in START_CELLS:  # RULEBOOK: flip the starting tiles (as they fall); each hero on its colour's tile
        s.cell_up[c] = 1
        s.cell_mask[c] = rotate_mask(TILE_MASK[s.cell_tile[c]], randint(s.rng, 4), 4)
    for p in range(s.num_players):
        for c in START_CELLS:
            if s.cell_tile[c] == HERO_START_TILE[s.hero[p]]:
                s.position[p] = c
    s.seat = s.first_player
    start_turn(s)


@njit(cache=True)
def step(s, action: int) -> bool:
    """Apply one legal action and everything automatic after it. Returns False, changing
    nothing, if the action is not legal now."""
    if not is_legal(s, action):
        return False
    clear_events(s)
    dec = s.decision
    who = s.decider
    s.decision = D_NONE  # the decision is made; advance() sets the next one
    if dec == D_MAIN:
        do_main(s, action)
    elif dec == D_HERO:
        choose_hero(s, who, action - A_HERO)
    else:
        do_other(s, dec, who, action)
    advance(s)
    return True


# --- the kernel contract -----------------------------------------------------------------------------
@njit(cache=True)
def init_maze(s) -> None:
    """RULEBOOK: the Door tile in the centre, the 8 starting tiles shuffled around it, the
    other 40 tiles shuffled into the rest of the 7x7 grid, all face down but the Door."""
    s.cell_up[:] = 0
    s.cell_tile[DOOR_CELL] = C.DOOR_TILE
    s.cell_up[DOOR_CELL] = 1
    start = START_TILES.copy()
    shuffle(s.rng, start, start.shape[0])
    for i in range(START_CELLS.shape[0]):
        s.cell_tile[START_CELLS[i]] = start[i]
    outer = OUTER_TILES.copy()
    shuffle(s.rng, outer, outer.shape[0])
    for i in range(OUTER_CELLS.shape[0]):
        s.cell_tile[OUTER_CELLS[i]] = outer[i]
    for c in range(NUM_CELLS):
        # a face-down tile has no orientation yet: the explorer chooses it
        s.cell_mask[c] = TILE_MASK[s.cell_tile[c]]
    s.wall[:] = 0
    s.wall_supply = C.NUM_WALLS
    s.monster_cell = -1


@njit(cache=True)
def init_cards(s) -> None:
    n = 0
    for t in range(NUM_CARD_TYPES):
        if CARD_DECK[t] == C.MINOTAUR or CARD_DECK[t] == s.monster:
            for _ in range(CARD_COPIES[t]):
                s.deck[n] = t
                n += 1
    s.num_cards = n
    for i in range(n, MAX_DECK):
        s.deck[i] = -1
    shuffle(s.rng, s.deck, n)
    s.deck_len = n
    s.hand[:, :] = 0
    s.discard[:] = 0
    for p in range(s.num_players):
        for _ in range(C.HAND_LIMIT):
            draw_card(s, p)


@njit(cache=True)
def init(s, seed, options) -> None:
    start_record(s, seed, options)
    opts = s.options
    n = opts[OPT_PLAYERS]
    s.num_players = n
    s.max_turns = opts[OPT_MAX_TURNS]
    s.monster = opts[OPT_MONSTER]
    s.use_key_slot = opts[OPT_KEY_SLOT]
    init_maze(s)
    s.feet_supply = C.NUM_FEET_TOKENS
    s.hand_supply = C.NUM_HAND_TOKENS
    s.wound_supply = C.NUM_WOUND_TOKENS
    s.key_pile[:] = 1
    s.key_seen[:, :] = 0
    s.slot_key[:, :] = -1
    s.slot_wound[:, :] = 0
    for p in range(NUM_SEATS):
        s.hero[p] = -1
        s.position[p] = -1
        s.feet[p] = 0
        s.hands[p] = 0
    for p in range(n):
        gain_tokens(s, p, C.START_FEET, C.START_HANDS)
    init_cards(s)
    s.num_tasks = 0
    s.task_overflow = 0
    s.m_active = 0
    s.m_points = 0
    s.m_ctrl = -1
    s.m_start = -1
    s.m_hunt = -1
    s.last_face = -1
    s.last_blood = -1
    s.pending_cell = -1
    s.pending_token = -1
    s.pending_slot = -1
    s.pending_edge = -1
    s.pending_seat = -1
    s.count_left = 0
    s.first_player = randint(s.rng, n)
    emit(s, EV_FIRST_PLAYER, s.first_player)
    s.seat = s.first_player
    s.hero_pos = 0
    s.phase = PH_HERO
    s.decision = D_NONE
    s.decider = s.first_player
    advance(s)


returns = winner_returns


# --- observation -------------------------------------------------------------------------------------
CF_UP, CF_PATH, CF_SYMBOL, CF_DOOR, CF_KEY, CF_START = 0, 1, 5, 11, 12, 16
CF_WALL = CF_START + C.NUM_HEROES
CF_MONSTER = CF_WALL + 4
CF_HEROES = CF_MONSTER + 1
CELL_FEATURES = CF_HEROES + NUM_SEATS
SF_PRESENT, SF_HERO, SF_TOKENS, SF_WOUND, SF_KEY = 0, 1, 5, 7, 16
SF_KEY_ACTION = SF_KEY + NUM_SLOTS * NUM_COLOURS
SF_COUNTS = SF_KEY_ACTION + NUM_SLOTS * NUM_KEY_ACTIONS  # keys, hand size, active
SEAT_FEATURES = SF_COUNTS + 3
OBS_SEATS = NUM_CELLS * CELL_FEATURES
OBS_GLOBAL = OBS_SEATS + NUM_SEATS * SEAT_FEATURES
G_HAND = 0  # own hand by card type
G_DECISION = G_HAND + NUM_CARD_TYPES
G_DECIDER = G_DECISION + NUM_DECISIONS
G_MONSTER = G_DECIDER + NUM_SEATS  # kind (3), on board, points, hunted seat (4), die face (6), blood
G_SUPPLY = G_MONSTER + 3 + 1 + 1 + NUM_SEATS + 6 + 1  # walls, Feet, Hand, wounds, deck
G_DISCARD = G_SUPPLY + 5
G_KEYS = G_DISCARD + NUM_CARD_TYPES  # per key token: in the pile and seen by me
G_PENDING = G_KEYS + 2 * NUM_KEY_TOKENS  # cell (49), edge (84), seat (4), card (15), count, slot (9)
G_ROUND = G_PENDING + NUM_CELLS + NUM_EDGES + NUM_SEATS + NUM_CARD_TYPES + 1 + NUM_SLOTS
GLOBAL_FEATURES = G_ROUND + 3  # first round, turn, use of the empty key slot
OBS_SIZE = OBS_GLOBAL + GLOBAL_FEATURES


@njit(cache=True)
def observe_cells(s, seat: int, out) -> None:
    n = s.num_players
    for c in range(NUM_CELLS):
        b = c * CELL_FEATURES
        for d in range(4):
            e = EDGE_OF[c, d]
            if e >= 0 and s.wall[e]:
                out[b + CF_WALL + d] = 1.0
        if not s.cell_up[c]:
            continue  # face down: which tile lies there is hidden
        t = s.cell_tile[c]
        out[b + CF_UP] = 1.0
        for d in range(4):
            out[b + CF_PATH + d] = (s.cell_mask[c] >> d) & 1
        out[b + CF_SYMBOL + TILE_SYMBOL[t]] = 1.0
        if TILE_KIND[t] == C.KIND_DOOR:
            out[b + CF_DOOR] = 1.0
        elif TILE_KIND[t] == C.KIND_KEY:
            out[b + CF_KEY + TILE_COLOUR[t]] = 1.0
        elif TILE_COLOUR[t] >= 0:
            out[b + CF_START + TILE_COLOUR[t]] = 1.0
    if s.monster_cell >= 0:
        out[s.monster_cell * CELL_FEATURES + CF_MONSTER] = 1.0
    for p in range(n):
        if s.position[p] >= 0:
            out[s.position[p] * CELL_FEATURES + CF_HEROES + (p - seat) % n] = 1.0


@njit(cache=True)
def observe_seats(s, seat: int, out) -> None:
    n = s.num_players
    for p in range(n):
        b = OBS_SEATS + ((p - seat) % n) * SEAT_FEATURES
        out[b + SF_PRESENT] = 1.0
        if s.hero[p] >= 0:
            out[b + SF_HERO + s.hero[p]] = 1.0
        out[b + SF_TOKENS] = s.feet[p] / C.NUM_FEET_TOKENS  # cards and Swift Stride can raise them above 7
        out[b + SF_TOKENS + 1] = s.hands[p] / C.NUM_HAND_TOKENS
        for i in range(NUM_SLOTS):
            out[b + SF_WOUND + i] = s.slot_wound[p, i]
            k = s.slot_key[p, i]
            if k >= 0:  # key tokens on a hero board are face up
                out[b + SF_KEY + i * NUM_COLOURS + KEY_TOKEN_COLOUR[k]] = 1.0
                out[b + SF_KEY_ACTION + i * NUM_KEY_ACTIONS + KEY_TOKEN_ACTION[k]] = 1.0
        out[b + SF_COUNTS] = keys_held(s, p) / NUM_COLOURS
        out[b + SF_COUNTS + 1] = hand_size(s, p) / C.HAND_LIMIT
        out[b + SF_COUNTS + 2] = 1.0 if p == s.seat else 0.0


@njit(cache=True)
def observe_global(s, seat: int, out) -> None:
    n = s.num_players
    g = OBS_GLOBAL
    for t in range(NUM_CARD_TYPES):
        out[g + G_HAND + t] = s.hand[seat, t] / C.HAND_LIMIT
    if s.outcome == RUNNING:
        out[g + G_DECISION + s.decision] = 1.0
        out[g + G_DECIDER + (s.decider - seat) % n] = 1.0
    m = g + G_MONSTER
    out[m + s.monster] = 1.0
    out[m + 3] = 1.0 if s.monster_cell >= 0 else 0.0
    out[m + 4] = s.m_points / 3.0
    if s.m_hunt >= 0:
        out[m + 5 + (s.m_hunt - seat) % n] = 1.0
    if s.last_face >= 0:
        out[m + 5 + NUM_SEATS + s.last_face] = 1.0
    out[m + 11 + NUM_SEATS] = max(s.last_blood, 0) / 2.0
    out[g + G_SUPPLY] = s.wall_supply / C.NUM_WALLS
    out[g + G_SUPPLY + 1] = s.feet_supply / C.NUM_FEET_TOKENS
    out[g + G_SUPPLY + 2] = s.hand_supply / C.NUM_HAND_TOKENS
    out[g + G_SUPPLY + 3] = s.wound_supply / C.NUM_WOUND_TOKENS
    out[g + G_SUPPLY + 4] = s.deck_len / MAX_DECK
    for t in range(NUM_CARD_TYPES):
        out[g + G_DISCARD + t] = s.discard[t] / 8.0  # the discard pile is face up
    for k in range(NUM_KEY_TOKENS):
        out[g + G_KEYS + k] = s.key_pile[k] * s.key_seen[seat, k]
        out[g + G_KEYS + NUM_KEY_TOKENS + k] = s.key_seen[seat, k]
    q = g + G_PENDING
    if s.pending_cell >= 0:
        out[q + s.pending_cell] = 1.0
    if s.pending_edge >= 0:
        out[q + NUM_CELLS + s.pending_edge] = 1.0
    if s.pending_seat >= 0 and (s.decision == D_DISPLACE):
        out[q + NUM_CELLS + NUM_EDGES + (s.pending_seat - seat) % n] = 1.0
    if s.decision == D_CANCEL and s.num_tasks > 0:
        out[q + NUM_CELLS + NUM_EDGES + NUM_SEATS + s.task_a[s.num_tasks - 1]] = 1.0
    out[q + NUM_CELLS + NUM_EDGES + NUM_SEATS + NUM_CARD_TYPES] = s.count_left / 4.0
    if s.pending_slot >= 0:
        out[q + NUM_CELLS + NUM_EDGES + NUM_SEATS + NUM_CARD_TYPES + 1 + s.pending_slot] = 1.0
    out[g + G_ROUND] = 1.0 if first_round(s) else 0.0
    out[g + G_ROUND + 1] = min(s.turn / 400.0, 1.0)
    out[g + G_ROUND + 2] = s.use_key_slot


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """What ``seat`` may know, egocentric (relative seat 0 is ``seat``): the explored tiles
    (face-down ones only as walls around them), walls, the monster, the hero boards (tokens,
    wounds, face-up key tokens), its own hand (only the sizes of the others'), supplies,
    the face-up discard pile, the key tokens it has looked at, what the pending decision
    is about. Never the tiles under face-down ones, other hands, the deck order or the RNG."""
    out[:] = 0.0
    observe_cells(s, seat, out)
    observe_seats(s, seat, out)
    observe_global(s, seat, out)


@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample what ``seat`` cannot know: the face-down tiles (the starting ones among the
    starting cells, the others among the outer cells), the deck with the other players'
    hands (sizes kept), and the RNG. Each unknown set is sorted before it is shuffled, so
    the result depends only on what ``seat`` knows and ``seed``."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed_state(np.uint64(seed))
    for cells in (START_CELLS, OUTER_CELLS):
        tiles = np.empty(cells.shape[0], dtype=np.int8)
        m = 0
        for c in cells:
            if not s.cell_up[c]:
                tiles[m] = s.cell_tile[c]
                m += 1
        tiles[:m] = np.sort(tiles[:m])
        shuffle(rng, tiles, m)
        m = 0
        for c in cells:
            if not s.cell_up[c]:
                s.cell_tile[c] = tiles[m]
                s.cell_mask[c] = TILE_MASK[tiles[m]]
                m += 1
    pool = np.empty(MAX_DECK, dtype=np.int8)
    m = 0
    for i in range(s.deck_len):
        pool[m] = s.deck[i]
        m += 1
    for p in range(s.num_players):
        if p != seat:
            for t in range(NUM_CARD_TYPES):
                for _ in range(s.hand[p, t]):
                    pool[m] = t
                    m += 1
    pool[:m] = np.sort(pool[:m])
    shuffle(rng, pool, m)
    m = 0
    for p in range(s.num_players):
        if p != seat:
            size = hand_size(s, p)
            s.hand[p, :] = 0
            for _ in range(size):
                s.hand[p, pool[m]] += 1
                m += 1
    for i in range(s.deck_len):
        s.deck[i] = pool[m]
        m += 1
    s.rng[0] = seed_state(derive_seed(rng))


# --- shared with the batched loops of labyrinth_env.core.batch_template -------------------------------


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): 0.2 per key held, minus 0.02 per wound
    and 0.01 per step from the Door tile once all four keys are held. 0 once the game is
    won; a truncated game keeps its position's value."""
    if (s.outcome != RUNNING and s.outcome != TRUNCATED) or s.position[seat] < 0:
        return 0.0
    k = keys_held(s, seat)
    v = 0.2 * k - 0.02 * wounds(s, seat)
    if k == NUM_COLOURS:
        c = s.position[seat]
        v -= 0.01 * (abs(c // SIZE - DOOR_CELL // SIZE) + abs(c % SIZE - DOOR_CELL % SIZE))
    return v
