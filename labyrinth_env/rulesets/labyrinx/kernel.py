"""Labyrinx kernel: the card game as numba functions over one state record
(``STATE_DTYPE``). Kernel contract: see DESIGN.md.

The table is a square grid of ``table`` x ``table`` spaces (an option) whose sides wrap
around: the rulebook lets a card be played "adjacent to ... the side of the table (if there
is a card on the opposite side of the table in the corresponding position)", so the side of
the table joins the opposite side, for placing and for moving. The Empty Hall sits in the
middle: three cells of its exit space (one location, ``exit0`` stands for it) and, below,
the three pile spaces nobody may enter.

A turn is a sequence of decisions. What is being resolved lives in the state: a card
waiting for its rotation (``pl_*``), a challenge waiting for its payment (``ch_*``), the
movement a failed monster or trap gives the left-hand player (``mv_*``). ``resume`` carries
on from there once a decision is made, so every step is a pure function of the record and
the action.
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
from labyrinth_env.core.grid import ROTATE_SQUARE, SQUARE_DELTAS
from labyrinth_env.core.rng import d6, derive_seed, randint, seed_state, shuffle
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

# cell types
T_OUT, T_FREE, T_EXIT, T_PILE = 0, 1, 2, 3

# options vector
OPT_PLAYERS, OPT_MAX_TURNS, OPT_TABLE, OPT_POWERS = 0, 1, 2, 3
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
A_STOP = A_SLOT + MAX_HAND  # stop moving the loser of a monster or trap
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
PH_EXPAND, PH_ACTION = 0, 1
# how a character comes into a location, and what a rotation decision is for
HOW_MOVE, HOW_PUSH, HOW_MONSTER, HOW_TRAP, HOW_PLAY, HOW_DESPAIR, HOW_BUILDER = 0, 1, 2, 3, 4, 5, 6
MV_NONE, MV_MONSTER, MV_TRAP = 0, 1, 2
END_CARDS, END_TABLE = 0, 1
WIN_FIVE, WIN_MOST, WIN_RACE = 0, 1, 2

# events: (type, seat, a, b, c, d)
EV_TURN = 1  # seat, turn
EV_EXPAND = 2  # seat, cell (face down: the card is not shown)
EV_MOVE = 3  # seat, from, to, how
EV_LOST_MOVE = 4  # seat, cell it stays on, door cell
EV_FLIP = 5  # seat (who flips), cell, kind
EV_ROTATE = 6  # decider, cell, kind, rotation
EV_PEEK = 7  # seat, cell
EV_PLAY = 8  # seat, cell, kind
EV_DRAW = 9  # seat, cards drawn
EV_DISCARD = 10  # seat, kind
EV_CHALLENGE = 11  # seat, icon, difficulty, icons of the character
EV_REROLL = 12  # seat, icon, new difficulty (Lucky)
EV_SUCCESS = 13  # seat, icon, treasure taken (0/1), from the chest (1) or the reserve (0)
EV_FAIL = 14  # seat, icon, treasure lost (0/1), mover
EV_CHEST_GOLD = 15  # seat, cell (a treasure left on the chest)
EV_RESHUFFLE = 16  # -1, cards
EV_DESPAIR = 17  # seat, cards drawn looking for one without a challenge
EV_REST = 18  # seat, cards drawn
EV_FLIP_DOWN = 19  # seat, cards flipped face down
EV_END_TRIGGER = 20  # seat, reason
EV_RACE = 21  # -1, racers (bit set)
EV_WIN = 22  # seat, how
EV_TRUNCATED = 23
EV_POWER = 24  # seat, power, a, b
EV_CARDS_OUT = 25  # -1 (draw pile and discard pile both empty)
EV_DRAWN_PLACED = 26  # seat (who places), cell, kind: a card from the deck played face up
EV_REPLACE = 27  # seat, cell, old kind, new kind (despair)
EV_STOP = 28  # mover, moved seat, steps left
EV_DECLINE = 29  # seat, cell (a chest's treasure left alone)
MAX_EVENTS = 64

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
        ("runner_used", np.int8),
        ("thief_used", np.int8),
        ("race", np.int8),
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
        ("scratch", np.uint8, (NUM_ACTIONS,)),
    ],
)


# --- small queries --------------------------------------------------------------------------------
@njit(cache=True)
def has_power(s, p: int, power: int) -> bool:
    return s.powers != 0 and CHAR_POWER[s.character[p]] == power


@njit(cache=True)
def hand_limit(s, p: int) -> int:
    return HAND_LIMIT + 1 if has_power(s, p, C.POW_SAGE) else HAND_LIMIT


@njit(cache=True)
def left_of(s, p: int) -> int:
    return (p + 1) % s.num_players


@njit(cache=True)
def nb(s, cell: int, d: int) -> int:
    """The space beyond side ``d`` of ``cell``; the sides of the table wrap around."""
    return int(NEIGHBORS[s.table - MIN_TABLE, cell, d])


@njit(cache=True)
def loc_of(s, cell: int) -> int:
    """The location a cell belongs to (the exit space's three cells are one)."""
    return s.exit0 if s.cell_type[cell] == T_EXIT else cell


@njit(cache=True)
def open_sides(s, cell: int) -> int:
    """Open sides of a location a character can stand on (a face-up card, the exit space)."""
    if s.cell_type[cell] == T_EXIT:
        return 15
    card = s.cell_card[cell]
    if card < 0 or not s.cell_up[cell] or s.cell_rot[cell] < 0:
        return 0
    return CARD_OPEN[card, s.cell_rot[cell]]


@njit(cache=True)
def door_sides(s, cell: int) -> int:
    card = s.cell_card[cell]
    if s.race or card < 0 or not s.cell_up[cell] or s.cell_rot[cell] < 0:
        return 0  # the race opens every door
    return CARD_DOORS[card, s.cell_rot[cell]]


@njit(cache=True)
def card_icon(s, cell: int) -> int:
    card = s.cell_card[cell]
    return -1 if card < 0 else KIND_ICON[CARD_KIND[card]]


@njit(cache=True)
def link(s, loc: int, k: int):
    """Way ``k`` (0..NUM_LINKS-1) out of location ``loc``: (origin cell, side, target cell),
    target -1 when there is no such way (a closed side, the Empty Hall's own spaces)."""
    if s.cell_type[loc] == T_EXIT:
        origin = s.exit0 + k // 4
        d = k % 4
        t = nb(s, origin, d)
        if s.cell_type[t] == T_EXIT or s.cell_type[t] == T_PILE:
            t = -1
        return origin, d, t
    d = k % 4
    if k >= 4 or not (open_sides(s, loc) >> d) & 1:
        return loc, d, -1
    return loc, d, nb(s, loc, d)


@njit(cache=True)
def can_enter(s, t: int, d: int, allow_empty: bool) -> bool:
    """Can a character go through side ``d`` into ``t`` (an empty space only when a card can be
    drawn and played there)?"""
    ty = s.cell_type[t]
    if ty == T_EXIT:
        return True
    if ty != T_FREE:
        return False
    card = s.cell_card[t]
    if card < 0:
        return allow_empty and s.deck_len > 0
    if not s.cell_up[t]:
        return True  # it will be rotated to connect
    return (open_sides(s, t) >> ((d + 2) % 4)) & 1 != 0


@njit(cache=True)
def find_link(s, loc: int, t: int) -> int:
    """origin * 4 + side of the way from ``loc`` into ``t`` (-1 if none)."""
    for k in range(NUM_LINKS):
        origin, d, tt = link(s, loc, k)
        if tt == t:
            return origin * 4 + d
    return -1


@njit(cache=True)
def placeable(s, cell: int) -> bool:
    """An empty space of the table next to a card or the Empty Hall (sides wrap)."""
    if s.cell_type[cell] != T_FREE or s.cell_card[cell] >= 0:
        return False
    for d in range(4):
        t = nb(s, cell, d)
        if s.cell_type[t] != T_FREE or s.cell_card[t] >= 0:
            return True
    return False


@njit(cache=True)
def popcount(m: int) -> int:
    c = 0
    while m:
        c += m & 1
        m >>= 1
    return c


# --- cards ----------------------------------------------------------------------------------------
@njit(cache=True)
def refill(s) -> None:
    """The draw pile ran out: the discard pile is shuffled into a new one, or (none) every card is in game."""
    if s.discard_len > 0:
        n = s.discard_len
        s.deck[:n] = s.discard[:n]
        s.discard[:n] = -1
        shuffle(s.rng, s.deck, n)
        s.deck_len = n
        s.discard_len = 0
        emit(s, EV_RESHUFFLE, -1, n)
    elif not s.cards_out:
        s.cards_out = 1
        emit(s, EV_CARDS_OUT, -1)


@njit(cache=True)
def draw_top(s) -> int:
    if s.deck_len == 0:
        return -1
    s.deck_len -= 1
    card = s.deck[s.deck_len]
    s.deck[s.deck_len] = -1  # nothing of a drawn card stays behind in the pile
    if s.deck_len == 0:
        refill(s)
    return card


@njit(cache=True)
def to_discard(s, card: int) -> None:
    s.discard[s.discard_len] = card
    s.discard_len += 1


@njit(cache=True)
def draw_to_hand(s, p: int, count: int) -> int:
    got = 0
    for _ in range(count):
        card = draw_top(s)
        if card < 0:
            break
        s.hand[p, s.hand_len[p]] = card
        s.hand_len[p] += 1
        got += 1
    return got


@njit(cache=True)
def discard_slot(s, p: int, slot: int) -> None:
    card = s.hand[p, slot]
    n = s.hand_len[p]
    for i in range(slot, n - 1):
        s.hand[p, i] = s.hand[p, i + 1]
    s.hand[p, n - 1] = -1
    s.hand_len[p] = n - 1
    to_discard(s, card)
    emit(s, EV_DISCARD, p, CARD_KIND[card])


@njit(cache=True)
def lay_card(s, cell: int, card: int, face_up: bool) -> None:
    """A card comes onto an empty space (nobody remembers what was there: nothing was)."""
    s.cell_card[cell] = card
    s.cell_up[cell] = 1 if face_up else 0
    s.cell_rot[cell] = -1
    s.cell_beaten[cell] = 0
    s.cell_gold[cell] = 0
    for p in range(NUM_SEATS):
        s.known[p, cell] = 0
    s.num_empty -= 1


@njit(cache=True)
def ask_rotation(s, how: int, cell: int, origin: int, d: int, seat: int, decider: int) -> None:
    s.pl_kind = how
    s.pl_cell = cell
    s.pl_origin = origin
    s.pl_dir = d
    s.pl_seat = seat
    set_decision(s, D_ROTATE, decider)


@njit(cache=True)
def rotation_ok(s, r: int) -> bool:
    card = s.cell_card[s.pl_cell]
    if s.pl_kind == HOW_BUILDER:
        return r != s.pl_origin
    if s.pl_dir < 0:
        return True  # played, replaced or landed on by a trap: any way round
    return (CARD_OPEN[card, r] >> ((s.pl_dir + 2) % 4)) & 1 != 0


@njit(cache=True)
def flip_down_all(s) -> int:
    """End phase: face-up corridors without characters turn face down (not those with a
    defeated challenge, nor chests holding a treasure). Everyone saw them: remembered."""
    occupied = np.zeros(NUM_CELLS, dtype=np.uint8)
    for p in range(s.num_players):
        occupied[s.pos[p]] = 1
    count = 0
    t = s.table
    for r in range(t):
        for c in range(t):
            cell = r * MAXT + c
            if s.cell_card[cell] < 0 or not s.cell_up[cell] or occupied[cell]:
                continue
            if s.cell_beaten[cell] or s.cell_gold[cell]:
                continue
            s.cell_up[cell] = 0
            s.cell_rot[cell] = -1
            for p in range(s.num_players):
                s.known[p, cell] = 1
            count += 1
    return count


# --- the end --------------------------------------------------------------------------------------
@njit(cache=True)
def win(s, p: int, how: int) -> None:
    s.outcome = WON
    s.winner = p
    emit(s, EV_WIN, p, how)


@njit(cache=True)
def gain_treasure(s, p: int, from_chest: int) -> None:
    if from_chest >= 0:
        s.cell_gold[from_chest] = 0
    else:
        s.reserve -= 1
    s.treasure[p] += 1
    if s.treasure[p] >= C.WIN_TREASURES and not s.race:
        win(s, p, WIN_FIVE)


@njit(cache=True)
def end_game(s, reason: int) -> None:
    """An end trigger: the most treasures win; a tie is broken by the race back to the Empty Hall."""
    n = s.num_players
    emit(s, EV_END_TRIGGER, s.seat, reason)
    best = -1
    for p in range(n):
        best = max(best, s.treasure[p])
    tied = 0
    first = -1
    for p in range(n):
        if s.treasure[p] == best:
            tied |= 1 << p
            first = p
    if popcount(tied) == 1:
        win(s, first, WIN_MOST)
        return
    s.race = 1
    for p in range(n):
        s.racer[p] = (tied >> p) & 1
    emit(s, EV_RACE, -1, tied)
    for i in range(1, n + 1):  # a tied character already in the exit space is back first
        p = (s.seat + i) % n
        if s.racer[p] and s.pos[p] == s.exit0:
            win(s, p, WIN_RACE)
            return
    s.phase = PH_ACTION
    s.actions_left = 0  # the turn ends; the race begins with the next tied player


# --- moving characters ----------------------------------------------------------------------------
@njit(cache=True)
def begin_challenge(s, p: int, cell: int) -> None:
    """Roll the difficulty, count the character's icons, pay the difference in cards if it can."""
    icon = card_icon(s, cell)
    icons = CHAR_ICONS[s.character[p], icon]
    diff = d6(s.rng)
    emit(s, EV_CHALLENGE, p, icon, diff, icons)
    if has_power(s, p, C.POW_LUCKY) and icons + s.hand_len[p] < diff:
        diff = d6(s.rng)
        emit(s, EV_REROLL, p, icon, diff)
    s.ch_seat = p
    s.ch_cell = cell
    s.ch_icon = icon
    s.ch_diff = diff
    need = diff - icons
    if need <= 0:
        challenge_won(s)
    elif s.hand_len[p] >= need:
        if s.hand_len[p] == need:  # every card goes: nothing to choose
            while s.hand_len[p] > 0:
                discard_slot(s, p, 0)
            challenge_won(s)
        else:
            s.ch_need = need
            set_decision(s, D_PAY, p)
    else:
        challenge_lost(s)


@njit(cache=True)
def challenge_won(s) -> None:
    p = s.ch_seat
    cell = s.ch_cell
    s.cell_beaten[cell] = 1
    s.ch_need = 0
    if s.cell_gold[cell]:
        emit(s, EV_SUCCESS, p, s.ch_icon, 1, 1)
        gain_treasure(s, p, cell)
    elif s.reserve > 0:
        emit(s, EV_SUCCESS, p, s.ch_icon, 1, 0)
        gain_treasure(s, p, -1)
    else:
        emit(s, EV_SUCCESS, p, s.ch_icon, 0, 0)


@njit(cache=True)
def challenge_lost(s) -> None:
    p = s.ch_seat
    cell = s.ch_cell
    icon = s.ch_icon
    if icon == C.CHEST:
        emit(s, EV_FAIL, p, icon, 0, -1)
        if s.cell_gold[cell] == 0 and s.reserve > 0:
            s.reserve -= 1
            s.cell_gold[cell] = 1
            emit(s, EV_CHEST_GOLD, p, cell)
        return
    lost = 0
    if s.treasure[p] > 0 and not has_power(s, p, C.POW_TOUGH):
        s.treasure[p] -= 1
        s.reserve += 1
        lost = 1
    mover = p if has_power(s, p, C.POW_ACROBAT) else left_of(s, p)
    emit(s, EV_FAIL, p, icon, lost, mover)
    s.mv_kind = MV_MONSTER if icon == C.MONSTER else MV_TRAP
    s.mv_seat = p
    s.mv_mover = mover
    s.mv_steps = s.ch_diff


@njit(cache=True)
def arrive(s, p: int, t: int, how: int) -> None:
    """Character ``p`` comes into ``t``: the race may end, a challenge may start."""
    frm = s.pos[p]
    s.pos[p] = loc_of(s, t)
    emit(s, EV_MOVE, p, frm, s.pos[p], how)
    if s.race:
        if s.racer[p] and s.pos[p] == s.exit0:
            win(s, p, WIN_RACE)
        return  # challenge icons are ignored in the race
    icon = card_icon(s, t)
    if icon < 0 or s.cell_beaten[t] or s.cell_type[t] != T_FREE:
        return
    s.mv_kind = MV_NONE  # a new challenge interrupts any movement
    if icon == C.CHEST and s.cell_gold[t]:
        s.ch_seat = p
        s.ch_cell = t
        s.ch_icon = icon
        set_decision(s, D_CHEST, p)
    else:
        begin_challenge(s, p, t)


@njit(cache=True)
def door_paid(s, p: int, origin: int, d: int, t: int, how: int) -> bool:
    """A door between the two locations costs an extra action (a step for a monster's
    movement); without one the movement is lost."""
    if how == HOW_TRAP or has_power(s, p, C.POW_LOCKSMITH):
        return True
    door = ((door_sides(s, origin) >> d) & 1) | ((door_sides(s, t) >> ((d + 2) % 4)) & 1)
    if not door:
        return True
    if how == HOW_MONSTER:
        if s.mv_steps >= 1:
            s.mv_steps -= 1
            return True
        return False
    if s.actions_left >= 1:
        s.actions_left -= 1
        return True
    return False


@njit(cache=True)
def passage(s, p: int, origin: int, d: int, t: int, how: int) -> None:
    if not door_paid(s, p, origin, d, t, how):
        emit(s, EV_LOST_MOVE, p, s.pos[p], t)
        if how == HOW_MONSTER:
            s.mv_kind = MV_NONE
        return
    if how == HOW_MONSTER and s.mv_steps <= 0:
        s.mv_kind = MV_NONE
    arrive(s, p, t, how)


@njit(cache=True)
def go(s, p: int, origin: int, d: int, t: int, how: int, decider: int) -> None:
    """Character ``p`` goes into ``t`` through side ``d`` of ``origin`` (d = -1: a trap's
    landing, no side). A face-down card is flipped, an empty space gets the top card of the
    draw deck face up; either is then rotated by ``decider`` before ``p`` comes in."""
    if s.cell_type[t] == T_FREE:
        card = s.cell_card[t]
        if card < 0:
            card = draw_top(s)
            lay_card(s, t, card, True)
            emit(s, EV_DRAWN_PLACED, decider, t, CARD_KIND[card])
            ask_rotation(s, how, t, origin, d, p, decider)
            return
        if not s.cell_up[t]:
            s.cell_up[t] = 1
            s.cell_rot[t] = -1
            emit(s, EV_FLIP, decider, t, CARD_KIND[card])
            ask_rotation(s, how, t, origin, d, p, decider)
            return
    passage(s, p, origin, d, t, how)


@njit(cache=True)
def trap_landing(s, p: int, d: int) -> int:
    """Where ``p`` lands moved ``mv_steps`` spaces in a straight line along ``d`` (-1: not allowed)."""
    cell = s.pos[p]
    for _ in range(s.mv_steps):
        cell = nb(s, cell, d)
    ty = s.cell_type[cell]
    if ty == T_PILE or loc_of(s, cell) == s.pos[p]:
        return -1
    if ty == T_FREE and s.cell_card[cell] < 0 and s.deck_len == 0:
        return -1
    return cell


@njit(cache=True)
def monster_options(s) -> bool:
    loc = s.pos[s.mv_seat]
    for k in range(NUM_LINKS):
        _, d, t = link(s, loc, k)
        if t >= 0 and can_enter(s, t, d, True):
            return True
    return False


@njit(cache=True)
def trap_options(s) -> bool:
    for d in range(4):
        if trap_landing(s, s.mv_seat, d) >= 0:
            return True
    return False


# --- the turn -------------------------------------------------------------------------------------
@njit(cache=True)
def start_turn(s) -> None:
    n = s.num_players
    if s.race:
        while not s.racer[s.seat]:
            s.seat = (s.seat + 1) % n
    s.turn += 1
    if s.max_turns > 0 and s.turn > s.max_turns:
        s.outcome = TRUNCATED
        emit(s, EV_TRUNCATED, -1)
        return
    s.actions_left = ACTIONS
    s.regular_done = 0
    s.runner_used = 0
    s.thief_used = 0
    emit(s, EV_TURN, s.seat, s.turn)
    if not s.race and not s.cards_out and s.deck_len > 0 and s.num_empty > 0:
        s.phase = PH_EXPAND
        set_decision(s, D_EXPAND, s.seat)
    else:
        s.phase = PH_ACTION


@njit(cache=True)
def end_turn(s) -> None:
    emit(s, EV_FLIP_DOWN, s.seat, flip_down_all(s))
    s.seat = (s.seat + 1) % s.num_players  # the active player is now the one on the left
    start_turn(s)


@njit(cache=True)
def resume(s) -> None:
    """Carry on until the next decision (or the end)."""
    while s.outcome == RUNNING and s.decision == D_NONE:
        if s.mv_kind == MV_MONSTER:
            if monster_options(s):
                set_decision(s, D_MONSTER, s.mv_mover)
            else:
                s.mv_kind = MV_NONE
            continue
        if s.mv_kind == MV_TRAP:
            if trap_options(s):
                set_decision(s, D_TRAP, s.mv_mover)
            else:
                s.mv_kind = MV_NONE
            continue
        if s.phase == PH_ACTION and s.hand_len[s.seat] > hand_limit(s, s.seat):
            set_decision(s, D_DISCARD, s.seat)
            continue
        if not s.race and (s.cards_out or s.num_empty == 0):
            end_game(s, END_CARDS if s.cards_out else END_TABLE)
            continue
        if s.phase == PH_ACTION and s.actions_left > 0:
            set_decision(s, D_MAIN, s.seat)
            continue
        end_turn(s)


# --- the legal-action mask ------------------------------------------------------------------------
@njit(cache=True)
def push_target_ok(s, p: int) -> bool:
    return s.pos[p] == s.pos[s.seat] and not has_power(s, p, C.POW_STALWART)


@njit(cache=True)
def power_usable(s) -> bool:
    p = s.seat
    if s.powers == 0:
        return False
    power = CHAR_POWER[s.character[p]]
    if power == C.POW_SEER:
        for r in range(s.table):
            for c in range(s.table):
                cell = r * MAXT + c
                if s.cell_card[cell] >= 0 and not s.cell_up[cell]:
                    return True
        return False
    if power == C.POW_SCAVENGER:
        return s.discard_len > 0
    if power == C.POW_BUILDER:
        return s.cell_type[s.pos[p]] == T_FREE
    if power == C.POW_THIEF:  # treasures no longer count in the race
        return not s.race and not s.thief_used and thief_victim(s) >= 0
    return False


@njit(cache=True)
def thief_victim(s) -> int:
    """The richest other character in the thief's location (the first in turn order on a tie)."""
    best = -1
    for i in range(1, s.num_players):
        q = (s.seat + i) % s.num_players
        if s.pos[q] == s.pos[s.seat] and s.treasure[q] > 0 and (best < 0 or s.treasure[q] > s.treasure[best]):
            best = q
    return best


@njit(cache=True)
def main_mask(s, out) -> None:
    p = s.seat
    loc = s.pos[p]
    any_push_way = False
    for k in range(NUM_LINKS):
        _, d, t = link(s, loc, k)
        if t < 0:
            continue
        if can_enter(s, t, d, False):
            out[A_MOVE + t] = 1
        if s.cell_type[t] == T_FREE and s.cell_card[t] >= 0 and not s.cell_up[t]:
            out[A_PEEK + t] = 1
        if can_enter(s, t, d, True):
            any_push_way = True
    if s.num_empty > 0:
        for i in range(s.hand_len[p]):
            out[A_PLAY + i] = 1
    if s.deck_len > 0:
        out[A_DRAW] = 1
    if any_push_way:
        for off in range(1, s.num_players):
            if push_target_ok(s, (p + off) % s.num_players):
                out[A_PUSH + off - 1] = 1
    if power_usable(s):
        out[A_POWER] = 1
    if not s.regular_done:
        if s.cell_type[loc] == T_FREE:
            out[A_DESPAIR] = 1
        for k in range(1, REST_DRAWS + 1):
            if k <= s.deck_len + s.discard_len:
                out[A_REST + k - 1] = 1
    out[A_END] = 1


@njit(cache=True)
def cells_mask(s, out, dec: int) -> None:
    t = s.table
    for r in range(t):
        for c in range(t):
            cell = r * MAXT + c
            if dec == D_SEER:
                if s.cell_card[cell] >= 0 and not s.cell_up[cell]:
                    out[A_CELL + cell] = 1
            elif placeable(s, cell):
                out[A_CELL + cell] = 1


@njit(cache=True)
def way_mask(s, out, loc: int) -> None:
    for k in range(NUM_LINKS):
        _, d, t = link(s, loc, k)
        if t >= 0 and can_enter(s, t, d, True):
            out[A_CELL + t] = 1


@njit(cache=True)
def legal_mask(s, out) -> None:
    out[:] = 0
    if s.outcome != RUNNING:
        return
    dec = s.decision
    if dec == D_MAIN:
        main_mask(s, out)
    elif dec in (D_EXPAND, D_PLAY_CELL, D_SEER):
        cells_mask(s, out, dec)
    elif dec == D_PUSH_TO:
        way_mask(s, out, s.pos[s.seat])
    elif dec == D_MONSTER:
        way_mask(s, out, s.pos[s.mv_seat])
        out[A_STOP] = 1
    elif dec == D_TRAP:
        for d in range(4):
            if trap_landing(s, s.mv_seat, d) >= 0:
                out[A_DIR + d] = 1
        out[A_STOP] = 1
    elif dec == D_ROTATE:
        for r in range(4):
            if rotation_ok(s, r):
                out[A_ROT + r] = 1
    elif dec in (D_DISCARD, D_PAY):
        for i in range(s.hand_len[s.decider]):
            out[A_SLOT + i] = 1
    elif dec == D_CHEST:
        out[A_ATTEMPT] = 1
        out[A_DECLINE] = 1
    elif dec == D_TAKE:
        for i in range(s.discard_len):
            kind = CARD_KIND[s.discard[i]]
            if KIND_ICON[kind] < 0:
                out[A_TAKE + kind] = 1


@njit(cache=True)
def is_legal(s, action: int) -> bool:
    if action < 0 or action >= NUM_ACTIONS or s.outcome != RUNNING:
        return False
    dec = s.decision
    if dec in (D_EXPAND, D_PLAY_CELL) and A_CELL <= action < A_ROT:
        return placeable(s, action - A_CELL)  # the same test as the mask's, for one space only
    legal_mask(s, s.scratch)
    ok = s.scratch[action] != 0
    s.scratch[:] = 0  # scratch only: a refused action leaves the record byte-identical
    return ok


# --- applying actions -----------------------------------------------------------------------------
@njit(cache=True)
def do_despair(s) -> None:
    """Discard the hand; take a card without a challenge from the discard pile (or draw until
    one comes) and put it in place of the card you stand on."""
    p = s.seat
    s.actions_left = 0
    while s.hand_len[p] > 0:
        discard_slot(s, p, s.hand_len[p] - 1)
    for i in range(s.discard_len):
        if KIND_ICON[CARD_KIND[s.discard[i]]] < 0:
            emit(s, EV_DESPAIR, p, 0)
            set_decision(s, D_TAKE, p)
            return
    in_deck = False
    for i in range(s.deck_len):
        in_deck = in_deck or KIND_ICON[CARD_KIND[s.deck[i]]] < 0
    drawn = 0
    card = -1
    while in_deck:
        c = draw_top(s)
        drawn += 1
        if KIND_ICON[CARD_KIND[c]] < 0:
            card = c
            break
        to_discard(s, c)
    emit(s, EV_DESPAIR, p, drawn)
    if card >= 0:
        replace_card(s, s.pos[p], card)


@njit(cache=True)
def replace_card(s, cell: int, card: int) -> None:
    old = s.cell_card[cell]
    to_discard(s, old)
    s.reserve += s.cell_gold[cell]
    s.num_empty += 1  # lay_card counts the space taken again
    lay_card(s, cell, card, True)
    emit(s, EV_REPLACE, s.seat, cell, CARD_KIND[old], CARD_KIND[card])
    ask_rotation(s, HOW_DESPAIR, cell, -1, -1, s.seat, s.seat)


@njit(cache=True)
def take_from_discard(s, kind: int) -> int:
    for i in range(s.discard_len - 1, -1, -1):
        if CARD_KIND[s.discard[i]] == kind:
            card = s.discard[i]
            for j in range(i, s.discard_len - 1):
                s.discard[j] = s.discard[j + 1]
            s.discard_len -= 1
            s.discard[s.discard_len] = -1
            return card
    return -1


@njit(cache=True)
def do_power(s) -> None:
    p = s.seat
    power = CHAR_POWER[s.character[p]]
    s.actions_left -= 1
    if power == C.POW_SEER:
        set_decision(s, D_SEER, p)
    elif power == C.POW_SCAVENGER:
        s.discard_len -= 1
        card = s.discard[s.discard_len]
        s.discard[s.discard_len] = -1
        s.hand[p, s.hand_len[p]] = card
        s.hand_len[p] += 1
        emit(s, EV_POWER, p, power, CARD_KIND[card])
    elif power == C.POW_BUILDER:
        cell = s.pos[p]
        emit(s, EV_POWER, p, power, cell)
        ask_rotation(s, HOW_BUILDER, cell, s.cell_rot[cell], -1, p, p)
    elif power == C.POW_THIEF:
        q = thief_victim(s)
        s.thief_used = 1
        s.treasure[q] -= 1
        emit(s, EV_POWER, p, power, q)
        s.treasure[p] += 1
        if s.treasure[p] >= C.WIN_TREASURES and not s.race:
            win(s, p, WIN_FIVE)


@njit(cache=True)
def do_main(s, action: int) -> None:
    p = s.seat
    if action == A_END:
        s.actions_left = 0
        return
    if action == A_DESPAIR:
        do_despair(s)
        return
    if A_REST <= action < A_END:
        s.actions_left = 0
        emit(s, EV_REST, p, draw_to_hand(s, p, action - A_REST + 1))
        return
    s.regular_done = 1
    if action < A_PEEK:
        t = action - A_MOVE
        if has_power(s, p, C.POW_RUNNER) and not s.runner_used:
            s.runner_used = 1
        else:
            s.actions_left -= 1
        od = find_link(s, s.pos[p], t)
        go(s, p, od // 4, od % 4, t, HOW_MOVE, p)
    elif action < A_PLAY:
        t = action - A_PEEK
        s.actions_left -= 1
        s.known[p, t] = 1
        emit(s, EV_PEEK, p, t)
    elif action < A_DRAW:
        s.actions_left -= 1
        s.sel_slot = action - A_PLAY
        set_decision(s, D_PLAY_CELL, p)
    elif action == A_DRAW:
        s.actions_left -= 1
        emit(s, EV_DRAW, p, draw_to_hand(s, p, 1))
    elif action < A_POWER:
        s.actions_left -= 1
        s.sel_target = (p + action - A_PUSH + 1) % s.num_players
        set_decision(s, D_PUSH_TO, p)
    else:
        do_power(s)


@njit(cache=True)
def do_cell(s, dec: int, who: int, cell: int) -> None:
    if dec == D_EXPAND:
        card = draw_top(s)
        lay_card(s, cell, card, False)
        if has_power(s, who, C.POW_PLANNER):
            s.known[who, cell] = 1
        emit(s, EV_EXPAND, who, cell)
        s.phase = PH_ACTION
    elif dec == D_PLAY_CELL:
        card = s.hand[who, s.sel_slot]
        n = s.hand_len[who]
        for i in range(s.sel_slot, n - 1):
            s.hand[who, i] = s.hand[who, i + 1]
        s.hand[who, n - 1] = -1
        s.hand_len[who] = n - 1
        lay_card(s, cell, card, True)
        emit(s, EV_PLAY, who, cell, CARD_KIND[card])
        ask_rotation(s, HOW_PLAY, cell, -1, -1, who, who)
    elif dec == D_PUSH_TO:
        od = find_link(s, s.pos[who], cell)
        go(s, s.sel_target, od // 4, od % 4, cell, HOW_PUSH, who)
    elif dec == D_MONSTER:
        od = find_link(s, s.pos[s.mv_seat], cell)
        s.mv_steps -= 1
        go(s, s.mv_seat, od // 4, od % 4, cell, HOW_MONSTER, who)
    else:  # D_SEER
        s.known[who, cell] = 1
        emit(s, EV_POWER, who, C.POW_SEER, cell)


@njit(cache=True)
def do_rotate(s, r: int) -> None:
    cell = s.pl_cell
    s.cell_rot[cell] = r
    emit(s, EV_ROTATE, s.decider, cell, CARD_KIND[s.cell_card[cell]], r)
    how = s.pl_kind
    if how <= HOW_TRAP:
        passage(s, s.pl_seat, s.pl_origin, s.pl_dir, cell, how)


@njit(cache=True)
def step(s, action: int) -> bool:
    """Apply one legal action and everything automatic after it. Returns False, changing
    nothing, if the action is not legal now."""
    if not is_legal(s, action):
        return False
    clear_events(s)
    dec = s.decision
    who = s.decider
    s.decision = D_NONE
    if dec == D_MAIN:
        do_main(s, action)
    elif A_CELL <= action < A_ROT:
        do_cell(s, dec, who, action - A_CELL)
    elif dec == D_ROTATE:
        do_rotate(s, action - A_ROT)
    elif dec == D_DISCARD:
        discard_slot(s, who, action - A_SLOT)
    elif dec == D_PAY:
        discard_slot(s, who, action - A_SLOT)
        s.ch_need -= 1
        if s.ch_need == 0:
            challenge_won(s)
        else:
            set_decision(s, D_PAY, who)
    elif action == A_STOP:
        emit(s, EV_STOP, who, s.mv_seat, s.mv_steps)
        s.mv_kind = MV_NONE
    elif dec == D_TRAP:
        s.mv_kind = MV_NONE
        go(s, s.mv_seat, -1, -1, trap_landing(s, s.mv_seat, action - A_DIR), HOW_TRAP, who)
    elif dec == D_CHEST:
        if action == A_ATTEMPT:
            begin_challenge(s, who, s.ch_cell)
        else:
            emit(s, EV_DECLINE, who, s.ch_cell)
    else:  # D_TAKE
        replace_card(s, s.pos[who], take_from_discard(s, action - A_TAKE))
    resume(s)
    return True


# --- the kernel contract --------------------------------------------------------------------------
@njit(cache=True)
def init_table(s, t: int) -> None:
    s.table = t
    s.cell_type[:] = T_OUT
    s.cell_card[:] = -1
    s.cell_rot[:] = -1
    s.cell_up[:] = 0
    s.cell_beaten[:] = 0
    s.cell_gold[:] = 0
    s.known[:, :] = 0
    for r in range(t):
        for c in range(t):
            s.cell_type[r * MAXT + c] = T_FREE
    r0 = t // 2 - 1
    c0 = t // 2 - 1
    s.exit0 = r0 * MAXT + c0
    for i in range(C.HALL_EXIT_WIDTH):
        s.cell_type[r0 * MAXT + c0 + i] = T_EXIT
        s.cell_type[(r0 + 1) * MAXT + c0 + i] = T_PILE
    s.num_empty = t * t - 2 * C.HALL_EXIT_WIDTH


@njit(cache=True)
def init_resolution(s) -> None:
    """Every field of what is being resolved, so a reused record starts byte-identical."""
    s.sel_slot = -1
    s.sel_target = -1
    s.pl_kind = 0
    s.pl_cell = -1
    s.pl_origin = -1
    s.pl_dir = -1
    s.pl_seat = -1
    s.ch_seat = -1
    s.ch_cell = -1
    s.ch_icon = -1
    s.ch_diff = 0
    s.ch_need = 0
    s.mv_kind = MV_NONE
    s.mv_seat = -1
    s.mv_mover = -1
    s.mv_steps = 0
    s.events[:, :] = 0
    s.scratch[:] = 0


@njit(cache=True)
def init(s, seed, options) -> None:
    start_record(s, seed, options)
    opts = s.options
    n = opts[OPT_PLAYERS]
    s.num_players = n
    s.max_turns = opts[OPT_MAX_TURNS]
    s.powers = opts[OPT_POWERS]
    init_table(s, opts[OPT_TABLE])
    init_resolution(s)
    for i in range(NUM_CARDS):
        s.deck[i] = i
    shuffle(s.rng, s.deck, NUM_CARDS)
    s.deck_len = NUM_CARDS
    s.discard[:] = -1
    s.discard_len = 0
    s.hand[:, :] = -1
    s.hand_len[:] = 0
    s.reserve = C.NUM_TREASURES
    s.treasure[:] = 0
    s.racer[:] = 0
    s.pos[:] = -1
    s.character[:] = -1
    chars = np.arange(C.NUM_CHARACTERS)
    shuffle(s.rng, chars, C.NUM_CHARACTERS)  # characters assigned at random
    for p in range(n):
        s.character[p] = chars[p]
        s.pos[p] = s.exit0
    s.race = 0
    s.cards_out = 0
    first = randint(s.rng, n)
    s.first_player = first
    for p in range(n):  # everyone draws up to the hand limit
        draw_to_hand(s, p, hand_limit(s, p))
    s.seat = first
    s.decision = D_NONE
    s.decider = first
    start_turn(s)
    resume(s)


returns = winner_returns


# --- observation ----------------------------------------------------------------------------------
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
G_TURN = G_DECIDER + NUM_SEATS  # actions left, regular done, runner used, thief used, powers on, race
G_PILES = G_TURN + 6  # deck, discard, reserve, cards out
G_DISCARD_KINDS = G_PILES + 4
G_DISCARD_TOP = G_DISCARD_KINDS + NUM_KINDS
G_CHALLENGE = G_DISCARD_TOP + NUM_KINDS  # icon x3, difficulty, cards still to pay, seat x6
G_MOVEMENT = G_CHALLENGE + 3 + 2 + NUM_SEATS  # monster, trap, steps, moved seat x6
G_PLACING = G_MOVEMENT + 3 + NUM_SEATS  # what the rotation is for (7), push target x6, own selected slot
G_HAND = G_PLACING + 7 + NUM_SEATS + MAX_HAND
GLOBAL_FEATURES = G_HAND + MAX_HAND * NUM_KINDS
OBS_SIZE = G_BASE + GLOBAL_FEATURES


@njit(cache=True)
def rel(s, p: int, seat: int) -> int:
    return (p - seat) % s.num_players


@njit(cache=True)
def observe_cells(s, seat: int, out) -> None:
    t = s.table
    for r in range(t):
        for c in range(t):
            cell = r * MAXT + c
            b = cell * CELL_FEATURES
            out[b + F_IN] = 1.0
            ty = s.cell_type[cell]
            if ty == T_EXIT:
                out[b + F_EXIT] = 1.0
                continue
            if ty == T_PILE:
                out[b + F_PILE] = 1.0
                continue
            card = s.cell_card[cell]
            if card < 0:
                out[b + F_EMPTY] = 1.0
                continue
            if s.cell_up[cell]:
                out[b + F_UP] = 1.0
                out[b + F_KIND + CARD_KIND[card]] = 1.0
                rot = s.cell_rot[cell]
                if rot >= 0:
                    for d in range(4):
                        out[b + F_OPEN + d] = (CARD_OPEN[card, rot] >> d) & 1
                        out[b + F_DOOR + d] = (CARD_DOORS[card, rot] >> d) & 1
                out[b + F_BEATEN] = s.cell_beaten[cell]
                out[b + F_GOLD] = s.cell_gold[cell]
            else:
                out[b + F_DOWN] = 1.0
                if s.known[seat, cell]:
                    out[b + F_KNOWN] = 1.0
                    out[b + F_KIND + CARD_KIND[card]] = 1.0
    if s.decision == D_ROTATE and s.pl_cell >= 0:
        out[s.pl_cell * CELL_FEATURES + F_PENDING] = 1.0
    elif (s.decision == D_PAY or s.decision == D_CHEST) and s.ch_cell >= 0:
        out[s.ch_cell * CELL_FEATURES + F_PENDING] = 1.0
    for p in range(s.num_players):
        out[s.pos[p] * CELL_FEATURES + F_CHAR + rel(s, p, seat)] = 1.0


@njit(cache=True)
def observe_seats(s, seat: int, out) -> None:
    for p in range(s.num_players):
        b = OBS_SEATS + rel(s, p, seat) * SEAT_FEATURES
        out[b] = 1.0
        out[b + 1] = s.treasure[p] / C.WIN_TREASURES
        out[b + 2] = s.hand_len[p] / MAX_HAND
        out[b + 3] = hand_limit(s, p) / MAX_HAND
        for i in range(3):
            out[b + 4 + i] = CHAR_ICONS[s.character[p], i] / 3.0
        out[b + 7] = s.racer[p]
        out[b + 8 + s.character[p]] = 1.0


@njit(cache=True)
def observe_global(s, seat: int, out) -> None:
    g = G_BASE
    if s.outcome == RUNNING:
        out[g + G_DECISION + s.decision] = 1.0
        out[g + G_DECIDER + rel(s, s.decider, seat)] = 1.0
    out[g + G_TURN] = s.actions_left / ACTIONS
    out[g + G_TURN + 1] = s.regular_done
    out[g + G_TURN + 2] = s.runner_used
    out[g + G_TURN + 3] = s.thief_used
    out[g + G_TURN + 4] = s.powers
    out[g + G_TURN + 5] = s.race
    out[g + G_PILES] = s.deck_len / NUM_CARDS
    out[g + G_PILES + 1] = s.discard_len / NUM_CARDS
    out[g + G_PILES + 2] = s.reserve / C.NUM_TREASURES
    out[g + G_PILES + 3] = s.cards_out
    for i in range(s.discard_len):  # the discard pile lies face up
        kind = CARD_KIND[s.discard[i]]
        out[g + G_DISCARD_KINDS + kind] += 1.0 / KIND_COUNT[kind]
    if s.discard_len > 0:
        out[g + G_DISCARD_TOP + CARD_KIND[s.discard[s.discard_len - 1]]] = 1.0
    dec = s.decision
    if s.outcome == RUNNING and dec in (D_PAY, D_CHEST):
        out[g + G_CHALLENGE + s.ch_icon] = 1.0
        out[g + G_CHALLENGE + 3] = s.ch_diff / 6.0 if dec == D_PAY else 0.0
        out[g + G_CHALLENGE + 4] = s.ch_need / 6.0 if dec == D_PAY else 0.0
        out[g + G_CHALLENGE + 5 + rel(s, s.ch_seat, seat)] = 1.0
    if s.mv_kind != MV_NONE:
        out[g + G_MOVEMENT + s.mv_kind - 1] = 1.0
        out[g + G_MOVEMENT + 2] = s.mv_steps / 6.0
        out[g + G_MOVEMENT + 3 + rel(s, s.mv_seat, seat)] = 1.0
    if dec == D_ROTATE:
        out[g + G_PLACING + s.pl_kind] = 1.0
    if dec == D_PUSH_TO or (dec == D_ROTATE and s.pl_kind == HOW_PUSH):
        out[g + G_PLACING + 7 + rel(s, s.sel_target, seat)] = 1.0
    if dec == D_PLAY_CELL and seat == s.seat:
        out[g + G_PLACING + 7 + NUM_SEATS + s.sel_slot] = 1.0
    for i in range(s.hand_len[seat]):
        out[g + G_HAND + i * NUM_KINDS + CARD_KIND[s.hand[seat, i]]] = 1.0


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """What ``seat`` may know, egocentric (relative seat 0 is ``seat``): the table (face-down
    cards only as "a card is here", unless this seat remembers it), the characters, treasures,
    hand sizes, the face-up discard pile, its own hand, and what is being resolved. Never the
    draw pile's order, the other hands, unseen cards or the RNG."""
    out[:] = 0.0
    observe_cells(s, seat, out)
    observe_seats(s, seat, out)
    observe_global(s, seat, out)


@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample what ``seat`` cannot know: the draw pile's order, the other players' hands and
    the face-down cards it does not remember, all dealt from one pool; and the RNG. The pool
    is sorted before it is shuffled, so the result depends only on what ``seat`` knows."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed_state(np.uint64(seed))
    pool = np.empty(NUM_CARDS, dtype=np.int8)
    count = 0
    for i in range(s.deck_len):
        pool[count] = s.deck[i]
        count += 1
    for p in range(s.num_players):
        if p != seat:
            for i in range(s.hand_len[p]):
                pool[count] = s.hand[p, i]
                count += 1
    for cell in range(NUM_CELLS):
        if s.cell_card[cell] >= 0 and not s.cell_up[cell] and not s.known[seat, cell]:
            pool[count] = s.cell_card[cell]
            count += 1
    pool[:count] = np.sort(pool[:count])
    shuffle(rng, pool, count)
    count = 0
    for i in range(s.deck_len):
        s.deck[i] = pool[count]
        count += 1
    for p in range(s.num_players):
        if p != seat:
            for i in range(s.hand_len[p]):
                s.hand[p, i] = pool[count]
                count += 1
    for cell in range(NUM_CELLS):
        if s.cell_card[cell] >= 0 and not s.cell_up[cell] and not s.known[seat, cell]:
            s.cell_card[cell] = pool[count]
            count += 1
    s.rng[0] = seed_state(derive_seed(rng))


# --- shared with the batched loops of labyrinth_env.core.batch_template ---------------------------


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): a fifth of a win per treasure held; 0 once
    the game is decided (a truncated game keeps its position's value)."""
    if s.outcome == WON:
        return 0.0
    return s.treasure[seat] / C.WIN_TREASURES
