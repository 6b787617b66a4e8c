"""Placing and turning cards: the labyrinth expands (D_EXPAND: the top card face down next
to the labyrinth), a card played from the hand (D_PLAY_CELL: where it goes), and the
rotation of a card flipped, drawn onto the table, played or turned (D_ROTATE), after which
the character it was turned for comes in."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import opposite
from labyrinth_env.core.jit import njit

from .board import placeable
from .cards import ask_rotation, draw_top, lay_card
from .movement import passage
from .tables import (
    A_CELL,
    A_ROT,
    CARD_KIND,
    CARD_OPEN,
    EV_EXPAND,
    EV_PLAY,
    EV_ROTATE,
    HOW_BUILDER,
    HOW_PLAY,
    HOW_TRAP,
    MAXT,
    NO_CELL,
    NO_SIDE,
    PH_ACTION,
)


@njit(cache=True)
def placeable_mask(s, out) -> None:
    """Every empty space a card can go to (``board.placeable``), as ``A_CELL + cell``."""
    t = s.table
    for r in range(t):
        for c in range(t):
            cell = r * MAXT + c
            if placeable(s, cell):
                out[A_CELL + cell] = 1


# --- the labyrinth expands (D_EXPAND) -------------------------------------------------------------
@njit(cache=True)
def expansion_mask(s, out) -> None:
    placeable_mask(s, out)


@njit(cache=True)
def apply_expansion(s, who: int, action: int) -> None:
    """The top card, unseen by anyone, face down."""
    cell = action - A_CELL
    card = draw_top(s)
    lay_card(s, cell, card, False)  # "without looking at it first" (l.30): nobody knows it
    emit(s, EV_EXPAND, who, cell)
    s.phase = PH_ACTION


# --- play a card: where (D_PLAY_CELL; the card is ``sel_slot``, chosen by the main action) ---------
@njit(cache=True)
def play_cell_mask(s, out) -> None:
    placeable_mask(s, out)


@njit(cache=True)
def apply_play_cell(s, who: int, action: int) -> None:
    """The card leaves the hand face up, to be turned as its player likes."""
    cell = action - A_CELL
    card = s.hand[who, s.sel_slot]
    n = s.hand_len[who]
    for i in range(s.sel_slot, n - 1):
        s.hand[who, i] = s.hand[who, i + 1]
    s.hand[who, n - 1] = -1
    s.hand_len[who] = n - 1
    lay_card(s, cell, card, True)
    emit(s, EV_PLAY, who, cell, CARD_KIND[card])
    ask_rotation(s, HOW_PLAY, cell, NO_CELL, NO_SIDE, who, who)


# --- rotate the card (D_ROTATE; what for is ``pl_kind``, see ``cards.ask_rotation``) ---------------
@njit(cache=True)
def rotation_ok(s, r: int) -> bool:
    card = s.cell_card[s.pl_cell]
    if s.pl_kind == HOW_BUILDER:
        return r != s.pl_origin  # the Builder turns its card to another rotation
    if s.pl_dir < 0:
        return True  # played, replaced or landed on by a trap: any way round
    return (CARD_OPEN[card, r] >> opposite(s.pl_dir, 4)) & 1 != 0


@njit(cache=True)
def rotation_mask(s, out) -> None:
    for r in range(4):
        if rotation_ok(s, r):
            out[A_ROT + r] = 1


@njit(cache=True)
def apply_rotation(s, who: int, action: int) -> None:
    r = action - A_ROT
    cell = s.pl_cell
    s.cell_rot[cell] = r
    emit(s, EV_ROTATE, who, cell, CARD_KIND[s.cell_card[cell]], r)
    how = s.pl_kind
    if how <= HOW_TRAP:  # HOW_MOVE..HOW_TRAP bring a character in; the others only turn the card
        passage(s, s.pl_seat, s.pl_origin, s.pl_dir, cell, how)
