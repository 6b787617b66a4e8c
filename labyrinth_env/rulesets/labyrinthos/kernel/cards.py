"""Desperation cards: the deck, playing a card (the Desperate action), each card's effect
and the decisions an effect asks for, and Hermes' Mischief, offered to the other players
after every card.

Playing a card leaves two tasks: its effect (``T_EFFECT``) under the chance to cancel it
(``T_ASK_CANCEL``), so the effect resolves only once nobody plays Hermes' Mischief.
The reactions to an attack (Sidestep and the others) are in ``attack``.

Who is asked to react never depends on a hidden hand (``may_react``): every seat that
could play a reaction by what the whole table sees (its Desperate action usable and paid
for, a card in hand, a copy of the card not in the face-up discard pile) is asked, holding
it or not; a seat without it can only answer no.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import shuffle
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import can_pay, gain_tokens, hand_size, pay, pop, push, slot_usable
from .heroes import heal_all, put_hero
from .maze import any_wall_place, fill_moves, fill_rotations, hero_may_enter, is_passage, rotate_chosen_tile
from .tables import (
    A_CELL,
    A_NO,
    A_SLOT,
    A_TARGET,
    A_YES,
    CARD_COPIES,
    CARD_DECK,
    CARD_EFFECT,
    CARD_REACTION,
    D_CANCEL,
    D_FREE_MOVE,
    D_ROTATE_CARD,
    D_SWAP_KEY,
    D_SWAP_PLAYER,
    D_TARGET,
    D_WALL,
    DOOR_CELL,
    EV_CANCEL,
    EV_CARD,
    EV_KEY_SWAP,
    EV_MONSTER_MOVE,
    EV_RECOVER,
    EV_RESHUFFLE,
    EV_TOKENS,
    HERMES,
    HOW_HIDING,
    HOW_THREAD,
    KEY_TOKEN_COLOUR,
    MAX_DECK,
    MONSTER_HOW_LYRE,
    MOVE_AS_MOVE,
    MOVE_HIDE,
    MOVE_LEAP,
    MOVE_PASSAGE,
    NUM_ACTIONS,
    NUM_CARD_TYPES,
    NUM_CELLS,
    NUM_SLOTS,
    T_ASK_CANCEL,
    T_EFFECT,
    T_MONSTER,
    T_WOUND,
    TILE_SYMBOL,
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
def unseen_copies(s, t: int) -> int:
    """Copies of card ``t`` in this game that are not in the face-up discard pile: in the
    deck or in someone's hand, as far as the table knows."""
    if CARD_DECK[t] != C.MINOTAUR and CARD_DECK[t] != s.monster:
        return 0
    return CARD_COPIES[t] - s.discard[t]


@njit(cache=True)
def may_react(s, p: int, t: int) -> bool:
    """Player ``p`` may hold card ``t`` and could play it now, by public facts only (never
    its hand): such a player is asked, whatever it holds (l.253: cards surprise)."""
    return can_react(s, p) and hand_size(s, p) > 0 and unseen_copies(s, t) > 0


@njit(cache=True)
def own_turn_card_ok(s, p: int, t: int) -> bool:
    if s.hand[p, t] <= 0 or CARD_REACTION[t] != C.R_NONE:
        return False
    e = CARD_EFFECT[t]
    if e == C.E_MONSTER or e == C.E_LYRE:
        return s.monster_cell >= 0
    if e == C.E_HIDE:
        return any_free_move(s, p, MOVE_HIDE)
    if e == C.E_SWAP:
        return swap_partners(s, p) != 0
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
def fill_free_moves(s, p: int, mode: int, out) -> None:
    """The tiles a free move (``MOVE_*``) takes hero ``p`` to."""
    here = s.position[p]
    if mode == MOVE_PASSAGE:
        for c in range(NUM_CELLS):
            if c != here and is_passage(s, c) and hero_may_enter(s, c):
                out[A_CELL + c] = 1
    elif mode == MOVE_HIDE:  # a tile symbol: never a key tile (l.295), which has none
        for c in range(NUM_CELLS):
            if c != here and s.cell_up[c] and TILE_SYMBOL[s.cell_tile[c]] == C.SYM_HIDE:
                out[A_CELL + c] = 1
    else:  # MOVE_LEAP: "unless a ... Key token ... allows it" (l.121): even the monster's tile
        fill_moves(s, here, mode == MOVE_AS_MOVE, out)


@njit(cache=True)
def any_free_move(s, p: int, mode: int) -> bool:
    out = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    fill_free_moves(s, p, mode, out)
    return out.sum() > 0


@njit(cache=True)
def start_free_move(s, p: int, mode: int, how: int) -> None:
    """Ariadne's Thread and the key actions that move the hero: ``D_FREE_MOVE``."""
    if any_free_move(s, p, mode):
        s.move_mode = mode
        s.move_how = how
        set_decision(s, D_FREE_MOVE, p)


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
    elif e == C.E_FREE_MOVE:  # "unless a ... Desperation card allows it" (l.121): even the monster's tile
        start_free_move(s, p, MOVE_LEAP, HOW_THREAD)
    elif e == C.E_HIDE:
        start_free_move(s, p, MOVE_HIDE, HOW_HIDING)
    elif e == C.E_SWAP:
        if swap_partners(s, p) != 0:
            set_decision(s, D_SWAP_PLAYER, p)
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


# D_FREE_MOVE: Ariadne's Thread (and a key action) moves the hero without the Move action
@njit(cache=True)
def free_move_mask(s, who: int, out) -> None:
    fill_free_moves(s, who, s.move_mode, out)


@njit(cache=True)
def ariadnes_thread(s, who: int, action: int) -> None:
    how = s.move_how
    s.move_mode = MOVE_AS_MOVE
    s.move_how = HOW_THREAD
    put_hero(s, who, action - A_CELL, how)


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


# --- Trickster's Swap: exchange two key tokens of one colour ----------------------------------------
@njit(cache=True)
def colour_slot(s, p: int, colour: int) -> int:
    """The slot of hero ``p``'s key token of ``colour`` (-1: none)."""
    for i in range(NUM_SLOTS):
        k = s.slot_key[p, i]
        if k >= 0 and KEY_TOKEN_COLOUR[k] == colour:
            return i
    return -1


@njit(cache=True)
def swap_partners(s, p: int) -> int:
    """Bit set of the other heroes holding a key of a colour ``p`` holds too."""
    m = 0
    for q in range(s.num_players):
        if q == p:
            continue
        for i in range(NUM_SLOTS):
            k = s.slot_key[p, i]
            if k >= 0 and colour_slot(s, q, KEY_TOKEN_COLOUR[k]) >= 0:
                m |= 1 << q
    return m


# D_SWAP_PLAYER: the other player (seat offset), D_SWAP_KEY: the player's own key token (its slot)
@njit(cache=True)
def swap_player_mask(s, who: int, out) -> None:
    m = swap_partners(s, who)
    for o in range(1, s.num_players):
        if (m >> ((who + o) % s.num_players)) & 1:
            out[A_TARGET + o - 1] = 1


@njit(cache=True)
def swap_player(s, who: int, action: int) -> None:
    s.pending_seat = (who + action - A_TARGET + 1) % s.num_players
    set_decision(s, D_SWAP_KEY, who)


@njit(cache=True)
def swap_key_mask(s, who: int, out) -> None:
    for i in range(NUM_SLOTS):
        k = s.slot_key[who, i]
        if k >= 0 and colour_slot(s, s.pending_seat, KEY_TOKEN_COLOUR[k]) >= 0:
            out[A_SLOT + i] = 1


@njit(cache=True)
def swap_key(s, who: int, action: int) -> None:
    """The two tokens change boards, each onto the slot the other was on; wounds stay (FAQ)."""
    q = s.pending_seat
    i = action - A_SLOT
    k = s.slot_key[who, i]
    j = colour_slot(s, q, KEY_TOKEN_COLOUR[k])
    k2 = s.slot_key[q, j]
    s.slot_key[who, i] = k2
    s.slot_key[q, j] = k
    emit(s, EV_KEY_SWAP, who, q, k, k2)
    s.pending_seat = -1


# --- Hermes' Mischief -----------------------------------------------------------------------------
@njit(cache=True)
def next_canceller(s, player: int, t: int, offset: int) -> int:
    """The next seat offset to ask about Hermes' Mischief: public facts only, never hands."""
    n = s.num_players
    for o in range(offset, n):
        if may_react(s, (player + o) % n, HERMES):
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


# D_CANCEL: play Hermes' Mischief against the card? (no, only, without one in hand)
@njit(cache=True)
def cancel_mask(s, who: int, out) -> None:
    if s.hand[who, HERMES] > 0:
        out[A_YES] = 1
    out[A_NO] = 1


@njit(cache=True)
def hermes_mischief(s, who: int, action: int) -> None:
    if action == A_YES:
        pop(s)  # no more asking: the card is answered
        # Hermes' Mischief is a Desperation card too: the others may cancel it in turn
        play_card(s, who, HERMES)
