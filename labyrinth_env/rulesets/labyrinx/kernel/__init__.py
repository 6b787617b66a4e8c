"""Labyrinx kernel: the card game as numba functions over one state record
(``STATE_DTYPE``). Kernel contract: ``labyrinth_env.core.contract``.

The table is a square grid of ``table`` x ``table`` spaces (an option) whose sides wrap
around: the rulebook lets a card be played "adjacent to ... the side of the table (if there
is a card on the opposite side of the table in the corresponding position)", so the side of
the table joins the opposite side, for placing and for moving. The Empty Hall sits in the
middle: three cells of its exit space (one location, ``exit0`` stands for it) and, below,
the three pile spaces nobody may enter.

A turn is a sequence of decisions. What is being resolved lives in the state: a card
waiting for its rotation (``pl_*``), a challenge waiting for its payment (``ch_*``), the
movement a failed monster or trap gives the left-hand player (``mv_*``). ``turn.resume``
carries on from there once a decision is made, so every step is a pure function of the
record and the action.

Here are the contract's entry points; ``legal_mask`` and ``step`` hand the pending decision
to its family, which holds that decision's mask and its effect side by side:

| module | what |
|---|---|
| ``tables`` | sizes, tables, actions, the codes and their names, the record, the observation's layout |
| ``board`` | queries every family asks: powers, hand limits, the table's geometry |
| ``cards`` | drawing, discarding, laying a card; discard down to the hand limit (D_DISCARD) |
| ``actions`` | the action decision (D_MAIN) |
| ``placing`` | the labyrinth expands (D_EXPAND), play a card (D_PLAY_CELL), rotate the card (D_ROTATE) |
| ``movement`` | moving characters and doors; push (D_PUSH_TO), the loser's movement (D_MONSTER, D_TRAP) |
| ``challenges`` | the challenges; pay for one (D_PAY), attempt a chest (D_CHEST) |
| ``despair`` | despair; take a card from the discard pile (D_TAKE) |
| ``powers`` | the action powers; the Seer (D_SEER) |
| ``ending`` | a win, treasures, the end triggers and the race |
| ``turn`` | the turn's start and end phase, ``resume`` |
| ``observe`` | the observation |

Every name of ``tables`` is also ``kernel.<name>`` (the env, the heuristic and the tests
read them so).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import (  # noqa: F401 (outcome codes, NO_SEAT and to_act: the kernel's are the contract's)
    LOST,
    NO_SEAT,
    RUNNING,
    TRUNCATED,
    WON,
    clear_mask,
    start_record,
    take_decision,
    tally_unseen,
    to_act,
    winner_returns,
)
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import deal_shuffled, private_dice, reseed, shuffle_unknown
from labyrinth_env.core.rng import randint
from labyrinth_env.rulesets.labyrinx import components as C

from .actions import apply_main, main_mask
from .board import can_enter, find_link, hand_limit, link, loc_of, nb, placeable  # noqa: F401 (the heuristic reads them as K.<name>)
from .cards import apply_discard, discard_mask, draw_to_hand
from .challenges import apply_chest, apply_pay, chest_mask, pay_mask
from .despair import apply_take, take_mask
from .movement import apply_monster, apply_push, apply_trap, monster_mask, push_mask, trap_mask
from .observe import observe  # noqa: F401 (the contract's)
from .placing import (
    apply_expansion,
    apply_play_cell,
    apply_rotation,
    expansion_mask,
    play_cell_mask,
    rotation_mask,
)
from .powers import apply_seer, seer_mask
from .routes import exit_distance, treasure_distance
from .tables import *  # noqa: F403 (sizes, codes, names and layouts: kernel.<name> for the env, heuristic, tests)
from .tables import (
    A_CELL,
    A_ROT,
    D_CHEST,
    D_DISCARD,
    D_EXPAND,
    D_MAIN,
    D_MONSTER,
    D_NONE,
    D_PAY,
    D_PLAY_CELL,
    D_PUSH_TO,
    D_ROTATE,
    D_SEER,
    D_TAKE,
    D_TRAP,
    HOW_MOVE,
    MAXT,
    MV_NONE,
    NO_CELL,
    NO_SIDE,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_CELLS,
    OPT_POWERS,
    OPT_TABLE,
    T_EXIT,
    T_FREE,
    T_OUT,
    T_PILE,
)
from .turn import check_turn_length, count_decision, resume, start_turn


# --- legal actions and steps, by pending decision -------------------------------------------------
@njit(cache=True)
def legal_mask(s, out) -> None:
    if not clear_mask(s, out):
        return
    dec = s.decision
    if dec == D_MAIN:
        main_mask(s, out)
    elif dec == D_EXPAND:
        expansion_mask(s, out)
    elif dec == D_PLAY_CELL:
        play_cell_mask(s, out)
    elif dec == D_PUSH_TO:
        push_mask(s, out)
    elif dec == D_ROTATE:
        rotation_mask(s, out)
    elif dec == D_DISCARD:
        discard_mask(s, out)
    elif dec == D_PAY:
        pay_mask(s, out)
    elif dec == D_MONSTER:
        monster_mask(s, out)
    elif dec == D_TRAP:
        trap_mask(s, out)
    elif dec == D_CHEST:
        chest_mask(s, out)
    elif dec == D_TAKE:
        take_mask(s, out)
    elif dec == D_SEER:
        seer_mask(s, out)


@njit(cache=True, inline="always")
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


@njit(cache=True)
def step(s, action: int) -> bool:
    """Apply one legal action and everything automatic after it. Returns False, changing
    nothing, if the action is not legal now."""
    if not is_legal(s, action):
        return False
    who = s.decider
    count_decision(s)
    dec = take_decision(s, D_NONE)
    if dec == D_MAIN:
        apply_main(s, who, action)
    elif dec == D_EXPAND:
        apply_expansion(s, who, action)
    elif dec == D_PLAY_CELL:
        apply_play_cell(s, who, action)
    elif dec == D_PUSH_TO:
        apply_push(s, who, action)
    elif dec == D_ROTATE:
        apply_rotation(s, who, action)
    elif dec == D_DISCARD:
        apply_discard(s, who, action)
    elif dec == D_PAY:
        apply_pay(s, who, action)
    elif dec == D_MONSTER:
        apply_monster(s, who, action)
    elif dec == D_TRAP:
        apply_trap(s, who, action)
    elif dec == D_CHEST:
        apply_chest(s, who, action)
    elif dec == D_TAKE:
        apply_take(s, who, action)
    else:  # D_SEER
        apply_seer(s, who, action)
    resume(s)
    check_turn_length(s)
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
    s.sel_target = NO_SEAT
    s.pl_kind = HOW_MOVE
    s.pl_cell = NO_CELL
    s.pl_origin = NO_CELL
    s.pl_dir = NO_SIDE
    s.pl_seat = NO_SEAT
    s.ch_seat = NO_SEAT
    s.ch_cell = NO_CELL
    s.ch_icon = C.NO_ICON
    s.ch_diff = 0
    s.ch_need = 0
    s.mv_kind = MV_NONE
    s.mv_seat = NO_SEAT
    s.mv_mover = NO_SEAT
    s.mv_steps = 0
    s.mv_begun = 0
    s.events[:, :] = 0
    s.scratch[:] = 0


@njit(cache=True)
def init(s, seed, options) -> None:
    start_record(s, seed, options)
    opts = s.options
    n = s.num_players
    s.powers = opts[OPT_POWERS]
    init_table(s, opts[OPT_TABLE])
    init_resolution(s)
    deal_shuffled(s.rng, s.deck, NUM_CARDS)
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
    chars = np.empty(C.NUM_CHARACTERS, dtype=np.int64)
    deal_shuffled(s.rng, chars, C.NUM_CHARACTERS)  # characters assigned at random
    for p in range(n):
        s.character[p] = chars[p]
        s.pos[p] = s.exit0
    s.race = 0
    s.race_turns = 0
    s.turn_steps = 0
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


@njit(cache=True)
def remembered(s, seat: int, cell: int) -> bool:
    """``seat`` knows the face-down card on ``cell`` (``NO_SEAT``: some seat does)."""
    if seat != NO_SEAT:
        return s.known[seat, cell] != 0
    for p in range(s.num_players):
        if s.known[p, cell]:
            return True
    return False


@njit(cache=True)
def unknown_cards(s, seat: int) -> np.ndarray:
    """The draw pile, the hands of every player but ``seat`` (none for ``NO_SEAT``) and the
    face-down cards ``seat`` does not remember, in that order: the cards it cannot see."""
    pool = np.empty(NUM_CARDS, dtype=np.int8)
    count = 0
    for i in range(s.deck_len):
        pool[count] = s.deck[i]
        count += 1
    for p in range(s.num_players):
        if seat != NO_SEAT and p != seat:
            for i in range(s.hand_len[p]):
                pool[count] = s.hand[p, i]
                count += 1
    for cell in range(NUM_CELLS):
        if s.cell_card[cell] >= 0 and not s.cell_up[cell] and not remembered(s, seat, cell):
            pool[count] = s.cell_card[cell]
            count += 1
    return pool[:count]


@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample what ``seat`` cannot know: the draw pile's order, the other players' hands and
    the face-down cards it does not remember, all dealt from one pool; and the RNG. The pool
    is sorted before it is shuffled, so the result depends only on what ``seat`` knows."""
    rng = private_dice(seed)
    pool = unknown_cards(s, seat)
    shuffle_unknown(rng, pool)
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
    reseed(s, rng)


@njit(cache=True)
def unseen(s, seat: int, out) -> None:
    """The contract's account of what ``seat`` cannot see: the one set ``determinize``
    resamples (``unknown_cards``). Cards are pieces the kernel names apart; with other hands
    in the set the log10 arrangements are an upper bound (a hand's order counts)."""
    out[:] = 0.0
    tally_unseen(out, unknown_cards(s, seat))


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): a fifth of a win per treasure held; 0 once
    the game is decided (a truncated game keeps its position's value)."""
    if s.outcome == WON:
        return 0.0
    return s.treasure[seat] / C.WIN_TREASURES


# ``progress``: a treasure outweighs any way still to go and the cards in hand, so winning
# one never reads as a loss
PROGRESS_TREASURE = 1.0 / C.WIN_TREASURES
PROGRESS_STEP = 0.01  # per action on the way, up to PROGRESS_STEP_CAP actions
PROGRESS_STEP_CAP = 10
PROGRESS_CARD = 0.01  # per card in hand: each beats one more face of the challenge die


@njit(cache=True)
def progress(s, seat: int) -> float:
    """The self-play learner's progress: what the seat must still do to win. A fifth of a
    win per treasure held (l.26 "the first player to collect five treasures"), 0.01 per card
    in hand up to the hand limit (a challenge needs the die's difficulty in icons and cards,
    l.46-47), minus 0.01 per action of the shortest way it may walk through the labyrinth as
    it lies (at most 10): in the race, to moving into the exit space
    (``routes.exit_distance``, l.58); otherwise, to the nearest card worth entering for a
    treasure (``routes.treasure_distance``: a visible challenge it beats at least half the
    time, a chest's treasure, or an unknown face-down card; 0 while it is entering one). A
    racer's rivals outside the race count by their treasures and cards only.

    Reads only what the seat may know: face-up cards, the face-down cards it remembers
    (others as unknown), the hand sizes, treasures and positions. 0 once the game is
    decided; a truncated game keeps its value."""
    if s.outcome == WON:
        return 0.0
    v = PROGRESS_TREASURE * s.treasure[seat] + PROGRESS_CARD * min(s.hand_len[seat], hand_limit(s, seat))
    if s.race:
        if not s.racer[seat]:
            return v
        way = exit_distance(s, seat)
    else:
        way = treasure_distance(s, seat)
    return v - PROGRESS_STEP * min(way, PROGRESS_STEP_CAP)
