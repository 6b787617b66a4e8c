"""Desperation cards: the deck, playing a card (the Desperate action), each card's effect
and the decisions an effect asks for, and Hermes' Mischief, offered to the other players
after every card.

Playing a card leaves two tasks: its effect (``T_EFFECT``) under the chance to cancel it
(``T_ASK_CANCEL``), so the effect resolves only once nobody plays Hermes' Mischief.
The reactions to an attack (Sidestep and the others) are in ``attack``.
"""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import shuffle
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import can_pay, gain_tokens, pay, pop, push, slot_usable
from .heroes import heal_all, put_hero
from .maze import any_wall_place, fill_moves, fill_rotations, hero_move_ok, rotate_chosen_tile
from .tables import (
    A_CELL,
    A_NO,
    A_TARGET,
    A_YES,
    CARD_COPIES,
    CARD_DECK,
    CARD_EFFECT,
    CARD_REACTION,
    D_CANCEL,
    D_FREE_MOVE,
    D_ROTATE_CARD,
    D_TARGET,
    D_WALL,
    DOOR_CELL,
    EV_CANCEL,
    EV_CARD,
    EV_MONSTER_MOVE,
    EV_RECOVER,
    EV_RESHUFFLE,
    EV_TOKENS,
    HERMES,
    HOW_THREAD,
    MAX_DECK,
    MONSTER_HOW_LYRE,
    NUM_CARD_TYPES,
    NUM_CELLS,
    T_ASK_CANCEL,
    T_EFFECT,
    T_MONSTER,
    T_WOUND,
)


# --- the deck -----------------------------------------------------------------------------------
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
def init_cards(s) -> None:
    """RULEBOOK: the base cards and the chosen monster's shuffled into one deck; 4 cards each."""
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


# --- playing a card -----------------------------------------------------------------------------
@njit(cache=True)
def can_react(s, p: int) -> bool:
    """A Desperate action on another player's turn: the action must be free and paid for."""
    return slot_usable(s, p, C.S_DESPERATE) and can_pay(
        s, p, C.SLOT_COST[C.S_DESPERATE, 0], C.SLOT_COST[C.S_DESPERATE, 1]
    )


@njit(cache=True)
def own_turn_card_ok(s, p: int, t: int) -> bool:
    if s.hand[p, t] <= 0 or CARD_REACTION[t] != C.R_NONE:
        return False
    e = CARD_EFFECT[t]
    if e == C.E_MONSTER or e == C.E_LYRE:
        return s.monster_cell >= 0
    return True


@njit(cache=True)
def play_card(s, p: int, t: int) -> None:
    pay(s, p, C.SLOT_COST[C.S_DESPERATE, 0], C.SLOT_COST[C.S_DESPERATE, 1])
    discard_card(s, p, t)
    emit(s, EV_CARD, p, t)
    push(s, T_EFFECT, p, t)
    push(s, T_ASK_CANCEL, p, t, 1)


# --- the effects --------------------------------------------------------------------------------
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
    """The ``T_EFFECT`` task: card ``t`` played by ``p`` resolves (nobody cancelled it)."""
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
        emit(s, EV_MONSTER_MOVE, p, s.monster_cell, DOOR_CELL, MONSTER_HOW_LYRE)
        s.monster_cell = DOOR_CELL


# D_FREE_MOVE: Ariadne's Thread moves the hero as the Move action, without paying
@njit(cache=True)
def free_move_mask(s, who: int, out) -> None:
    fill_moves(s, s.position[who], True, out)


@njit(cache=True)
def ariadnes_thread(s, who: int, action: int) -> None:
    put_hero(s, who, action - A_CELL, HOW_THREAD)


# D_ROTATE_CARD: Earthquake turns any explored tile
@njit(cache=True)
def earthquake_mask(s, who: int, out) -> None:
    fill_rotations(s, out)


@njit(cache=True)
def earthquake(s, who: int, action: int) -> None:
    rotate_chosen_tile(s, who, action)


# D_TARGET: Stone Gaze, another player discards action tokens
@njit(cache=True)
def target_mask(s, who: int, out) -> None:
    for o in range(1, s.num_players):
        out[A_TARGET + o - 1] = 1


@njit(cache=True)
def drain(s, p: int) -> None:
    f = min(C.DRAIN_TOKENS, s.feet[p])
    h = min(C.DRAIN_TOKENS - f, s.hands[p])
    pay(s, p, f, h)
    emit(s, EV_TOKENS, p, -f, -h)


@njit(cache=True)
def stone_gaze(s, who: int, action: int) -> None:
    drain(s, (who + action - A_TARGET + 1) % s.num_players)


# --- Hermes' Mischief -----------------------------------------------------------------------------
@njit(cache=True)
def next_canceller(s, player: int, t: int, offset: int) -> int:
    n = s.num_players
    for o in range(offset, n):
        q = (player + o) % n
        if s.hand[q, HERMES] > 0 and can_react(s, q):
            return o
    return -1


@njit(cache=True)
def ask_cancel(s, i: int, p: int, t: int, offset: int) -> None:
    """The ``T_ASK_CANCEL`` task at ``i``: card ``t`` of player ``p``; the players from
    ``offset`` seats after ``p`` on are still to be asked."""
    o = next_canceller(s, p, t, offset)
    if o < 0:
        pop(s)
    else:
        s.task_b[i] = o + 1
        set_decision(s, D_CANCEL, (p + o) % s.num_players)


# D_CANCEL: play Hermes' Mischief against the card?
@njit(cache=True)
def cancel_mask(s, who: int, out) -> None:
    out[A_YES] = 1
    out[A_NO] = 1


@njit(cache=True)
def hermes_mischief(s, who: int, action: int) -> None:
    if action == A_YES:
        pop(s)  # no more asking: the card is answered
        # Hermes' Mischief is a Desperation card too: the others may cancel it in turn
        play_card(s, who, HERMES)
