"""The heroes the monster attacked: each one's reaction card and wounds (``T_DODGE``,
``D_DODGE``), then each one's displacement by the monster's controller (``T_DISPLACE``,
``D_DISPLACE``). ``monster.attack`` leaves these tasks, in turn order from the active
player.

Every attacked hero that could answer by public facts (``cards.may_react``) is asked,
holding a reaction card or not: the question never tells the table what it holds.
"""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import push, special_usable
from .cards import may_react, play_card
from .heroes import put_hero
from .maze import step_to
from .tables import (
    A_CARD,
    A_CELL,
    A_NO,
    CARD_DECK,
    CARD_EFFECT,
    CARD_REACTION,
    D_DISPLACE,
    D_DODGE,
    EV_DISPLACE,
    EV_SHIELD,
    HOW_DISPLACED,
    NEIGHBORS,
    NUM_CARD_TYPES,
    T_WOUND,
)


# --- D_DODGE: a reaction card against the attack's wounds --------------------------------------------
@njit(cache=True)
def dodge_card_ok(s, p: int, t: int, medusa: int) -> bool:
    return s.hand[p, t] > 0 and dodge_type(t, medusa, s.monster)


@njit(cache=True)
def dodge_type(t: int, medusa: int, monster: int) -> bool:
    """Card ``t`` answers this attack (whoever holds it)."""
    if CARD_REACTION[t] != C.R_ATTACK:
        return False
    if CARD_EFFECT[t] == C.E_MIRROR:
        return medusa == 1
    return CARD_DECK[t] != C.CERBERUS or monster == C.CERBERUS


@njit(cache=True)
def may_dodge(s, p: int, medusa: int) -> bool:
    """The attacked hero could answer, by public facts only (never its hand)."""
    for t in range(NUM_CARD_TYPES):
        if dodge_type(t, medusa, s.monster) and may_react(s, p, t):
            return True
    return False


@njit(cache=True)
def offer_dodge(s, p: int, blood: int, medusa: int) -> None:
    """The ``T_DODGE`` task: the Blood die's wounds wait under the chance to answer them."""
    push(s, T_WOUND, p, blood, medusa)
    if may_dodge(s, p, medusa):
        s.pending_seat = medusa  # the Medusa flag, for the mask
        set_decision(s, D_DODGE, p)


@njit(cache=True)
def dodge_mask(s, who: int, out) -> None:
    for t in range(NUM_CARD_TYPES):
        if dodge_card_ok(s, who, t, s.pending_seat):
            out[A_CARD + t] = 1
    out[A_NO] = 1


@njit(cache=True)
def dodge(s, who: int, action: int) -> None:
    if action != A_NO:
        play_card(s, who, action - A_CARD)


# --- D_DISPLACE: the controller moves each attacked hero ------------------------------------------
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
    """The ``T_DISPLACE`` task: Shield Maiden stays; one way only is taken at once; with
    several the controller chooses."""
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
        put_hero(s, p, NEIGHBORS[s.position[p], d], HOW_DISPLACED)
        return
    s.pending_seat = p
    set_decision(s, D_DISPLACE, ctrl)


@njit(cache=True)
def displace_mask(s, who: int, out) -> None:
    m = displace_targets(s, s.pending_seat)
    for d in range(4):
        if (m >> d) & 1:
            out[A_CELL + NEIGHBORS[s.position[s.pending_seat], d]] = 1


@njit(cache=True)
def displace_to(s, who: int, action: int) -> None:
    p = s.pending_seat
    emit(s, EV_DISPLACE, p, action - A_CELL, who)
    put_hero(s, p, action - A_CELL, HOW_DISPLACED)
