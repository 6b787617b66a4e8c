"""Despair, a full-turn action: discard the hand, take a card without a challenge from the
discard pile (D_TAKE: which kind) or draw until one comes, and put it in place of the card
the character stands on."""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .cards import ask_rotation, discard_slot, draw_top, lay_card, to_discard
from .tables import (
    A_TAKE,
    CARD_KIND,
    D_TAKE,
    EV_DESPAIR,
    EV_REPLACE,
    HOW_DESPAIR,
    KIND_ICON,
    NO_CELL,
    NO_SIDE,
    T_FREE,
)


@njit(cache=True)
def despair_allowed(s) -> bool:
    """A full-turn action (no regular action before it) that needs a card under the
    character (not the exit space)."""
    return not s.regular_done and s.cell_type[s.pos[s.seat]] == T_FREE


@njit(cache=True)
def apply_despair(s) -> None:
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
    """The old card goes to the discard pile (a treasure on it back to the reserve); the new
    one lies face up, to be turned as the player likes."""
    old = s.cell_card[cell]
    to_discard(s, old)
    s.reserve += s.cell_gold[cell]
    s.num_empty += 1  # lay_card counts the space taken again
    lay_card(s, cell, card, True)
    emit(s, EV_REPLACE, s.seat, cell, CARD_KIND[old], CARD_KIND[card])
    ask_rotation(s, HOW_DESPAIR, cell, NO_CELL, NO_SIDE, s.seat, s.seat)


@njit(cache=True)
def take_from_discard(s, kind: int) -> int:
    """The card of ``kind`` nearest the top of the discard pile, taken out of it."""
    for i in range(s.discard_len - 1, -1, -1):
        if CARD_KIND[s.discard[i]] == kind:
            card = s.discard[i]
            for j in range(i, s.discard_len - 1):
                s.discard[j] = s.discard[j + 1]
            s.discard_len -= 1
            s.discard[s.discard_len] = -1
            return card
    return -1


# --- despair: take a card without a challenge from the discard pile (D_TAKE) ----------------------
@njit(cache=True)
def take_mask(s, out) -> None:
    for i in range(s.discard_len):
        kind = CARD_KIND[s.discard[i]]
        if KIND_ICON[kind] < 0:
            out[A_TAKE + kind] = 1


@njit(cache=True)
def apply_take(s, who: int, action: int) -> None:
    replace_card(s, s.pos[who], take_from_discard(s, action - A_TAKE))
