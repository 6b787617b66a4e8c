"""The challenges: the difficulty die, the character's icons and the cards paid to make up
the difference, a success (a treasure) and a failure (a treasure lost and the loser's
movement, or a treasure left on a chest); and the two decisions a challenge asks: which
card to pay (D_PAY) and whether to attempt a chest with a treasure on it (D_CHEST)."""

from __future__ import annotations

from labyrinth_env.core.contract import NO_SEAT, set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import d6
from labyrinth_env.rulesets.labyrinx import components as C

from .board import card_icon, left_of
from .cards import discard_slot, hand_slots_mask
from .ending import gain_treasure
from .tables import (
    A_ATTEMPT,
    A_DECLINE,
    A_SLOT,
    CHAR_ICONS,
    D_CHEST,
    D_PAY,
    EV_CHALLENGE,
    EV_CHEST_GOLD,
    EV_DECLINE,
    EV_FAIL,
    EV_SUCCESS,
    MV_MONSTER,
    MV_TRAP,
    NO_CELL,
)


@njit(cache=True)
def begin_challenge(s, p: int, cell: int) -> None:
    """Roll the difficulty, count the character's icons, pay the difference in cards if it can."""
    icon = card_icon(s, cell)
    icons = CHAR_ICONS[s.character[p], icon]
    diff = d6(s.rng)
    emit(s, EV_CHALLENGE, p, icon, diff, icons)
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
        gain_treasure(s, p, NO_CELL)
    else:
        emit(s, EV_SUCCESS, p, s.ch_icon, 0, 0)


@njit(cache=True)
def challenge_lost(s) -> None:
    """A chest gets a treasure from the reserve; a monster or a trap costs a treasure and
    gives the loser's movement (``mv_*``) to the left-hand player."""
    p = s.ch_seat
    cell = s.ch_cell
    icon = s.ch_icon
    if icon == C.CHEST:
        emit(s, EV_FAIL, p, icon, 0, NO_SEAT)
        if s.cell_gold[cell] == 0 and s.reserve > 0:
            s.reserve -= 1
            s.cell_gold[cell] = 1
            emit(s, EV_CHEST_GOLD, p, cell)
        return
    lost = 0
    if s.treasure[p] > 0:
        s.treasure[p] -= 1
        s.reserve += 1
        lost = 1
    mover = left_of(s, p)
    emit(s, EV_FAIL, p, icon, lost, mover)
    s.mv_kind = MV_MONSTER if icon == C.MONSTER else MV_TRAP
    s.mv_seat = p
    s.mv_mover = mover
    s.mv_steps = s.ch_diff
    s.mv_begun = 0


# --- the decision: discard cards to match the difficulty (D_PAY) ----------------------------------
@njit(cache=True)
def pay_mask(s, out) -> None:
    hand_slots_mask(s, out)


@njit(cache=True)
def apply_pay(s, who: int, action: int) -> None:
    discard_slot(s, who, action - A_SLOT)
    s.ch_need -= 1
    if s.ch_need == 0:
        challenge_won(s)
    else:
        set_decision(s, D_PAY, who)


# --- the decision: attempt the chest's treasure? (D_CHEST) ----------------------------------------
@njit(cache=True)
def offer_chest(s, p: int, cell: int) -> None:
    """``p`` came onto a chest with a treasure on it: it may attempt it (the rulebook's "may")."""
    s.ch_seat = p
    s.ch_cell = cell
    s.ch_icon = C.CHEST
    set_decision(s, D_CHEST, p)


@njit(cache=True)
def chest_mask(s, out) -> None:
    out[A_ATTEMPT] = 1
    out[A_DECLINE] = 1


@njit(cache=True)
def apply_chest(s, who: int, action: int) -> None:
    if action == A_ATTEMPT:
        begin_challenge(s, who, s.ch_cell)
    else:
        emit(s, EV_DECLINE, who, s.ch_cell)
