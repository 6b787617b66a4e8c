"""The turn: ``advance`` resolves everything automatic after a decision, in this order:
the monster's movement in progress (``monster.monster_continue``), else the top task of
the stack (``run_task``), else the turn's phase (``run_phase``: hero choice, actions,
refreshing the action pool, refreshing the hand, the Minotaur die, the next turn), until
a decision is pending or the game is over.

The decisions the phases ask for are here too: choosing a hero board (``D_HERO``),
refreshing the action pool (``D_REFRESH``) and the discards of the hand refresh
(``D_DISCARD_OPT``, ``D_DISCARD``).
"""

from __future__ import annotations

from labyrinth_env.core.contract import RUNNING, next_turn, set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import rotate_mask
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint
from labyrinth_env.rulesets.labyrinthos import components as C

from .attack import displace, offer_dodge
from .board import first_round, hand_limit, hand_size, pop, push
from .cards import ask_cancel, card_effect, discard_card, draw_card
from .heroes import arrive, wound_task
from .monster import gain_points, monster_continue, roll_monster_die
from .tables import (
    A_CARD,
    A_DONE,
    A_HERO,
    A_REFRESH,
    D_DISCARD,
    D_DISCARD_OPT,
    D_HERO,
    D_MAIN,
    D_NONE,
    D_REFRESH,
    DOOR_CELL,
    EV_DISCARD,
    EV_DRAW,
    EV_HERO,
    EV_MONSTER_MOVE,
    EV_REFRESH,
    EV_TRUNCATED,
    EV_TURN,
    HERO_START_TILE,
    MONSTER_HOW_ENTERS,
    NUM_CARD_TYPES,
    PH_END,
    PH_HAND_DRAW,
    PH_HAND_FORCED,
    PH_HAND_OPT,
    PH_HERO,
    PH_MAIN,
    PH_REFRESH,
    PH_ROLL,
    START_CELLS,
    T_ARRIVE,
    T_DISPLACE,
    T_DODGE,
    T_EFFECT,
    T_MONSTER,
    T_ROLL,
    T_WOUND,
    TILE_MASK,
)


@njit(cache=True)
def advance(s) -> None:
    """Resolve everything automatic until a decision is pending or the game is over."""
    while s.outcome == RUNNING and s.decision == D_NONE:
        if s.m_active:
            monster_continue(s)
        elif s.num_tasks > 0:
            run_task(s)
        else:
            s.attacked = 0  # everything resolved: the chain of attacks is over (``monster.attackable``)
            run_phase(s)


@njit(cache=True)
def run_task(s) -> None:
    """Resolve the top task; the wounds and the chance to cancel a card stay on the stack
    until they are done."""
    i = s.num_tasks - 1
    kind = s.task_kind[i]
    p = s.task_seat[i]
    a = s.task_a[i]
    b = s.task_b[i]
    if kind == T_ARRIVE:
        pop(s)
        arrive(s, p)
    elif kind == T_WOUND:
        wound_task(s, i, p, a, b)
    elif kind == T_DODGE:
        pop(s)
        offer_dodge(s, p, a, b)
    elif kind == T_DISPLACE:
        pop(s)
        displace(s, p, a)
    elif kind == T_MONSTER:
        pop(s)
        gain_points(s, p, a)
    elif kind == T_ROLL:
        pop(s)
        if s.monster_cell >= 0:  # not in the first round: the monster is not in the maze yet
            roll_monster_die(s, p)
    elif kind == T_EFFECT:
        pop(s)
        card_effect(s, p, a)
    else:  # T_ASK_CANCEL
        ask_cancel(s, i, p, a, b)


# --- the phases -----------------------------------------------------------------------------------
@njit(cache=True)
def start_turn(s) -> None:
    s.phase = PH_MAIN
    emit(s, EV_TURN, s.seat, s.turn)


@njit(cache=True)
def end_turn(s) -> None:
    if s.turn + 1 == s.num_players:  # after everyone's first turn the monster enters on the Door tile
        s.monster_cell = DOOR_CELL
        emit(s, EV_MONSTER_MOVE, -1, -1, DOOR_CELL, MONSTER_HOW_ENTERS)
    if next_turn(s, EV_TRUNCATED):
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


# --- D_HERO: each player chooses a hero board, clockwise from the first player ---------------------------
@njit(cache=True)
def choose_hero_mask(s, who: int, out) -> None:
    for h in range(C.NUM_HEROES):
        taken = False
        for q in range(s.num_players):
            taken |= s.hero[q] == h
        out[A_HERO + h] = 0 if taken else 1


@njit(cache=True)
def choose_hero(s, who: int, action: int) -> None:
    h = action - A_HERO
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


# --- D_REFRESH: discard the unused action tokens, choose 7 from the supply --------------------------------
@njit(cache=True)
def refresh_mask(s, who: int, out) -> None:
    feet = s.feet_supply + s.feet[who]
    hands = s.hand_supply + s.hands[who]
    for f in range(C.POOL_SIZE + 1):
        if f <= feet and C.POOL_SIZE - f <= hands:
            out[A_REFRESH + f] = 1


@njit(cache=True)
def refresh_pool(s, who: int, action: int) -> None:
    f = action - A_REFRESH
    s.feet_supply += s.feet[who] - f
    s.hand_supply += s.hands[who] - (C.POOL_SIZE - f)
    s.feet[who] = f
    s.hands[who] = C.POOL_SIZE - f
    emit(s, EV_REFRESH, who, f, C.POOL_SIZE - f)
    # RULEBOOK: in the first round the turn ends after refreshing the action pool
    s.phase = PH_END if first_round(s) else PH_HAND_OPT


# --- D_DISCARD_OPT, D_DISCARD: refreshing the hand ---------------------------------------------------------
@njit(cache=True)
def discard_mask(s, who: int, out) -> None:
    """Down to the hand limit: any card in hand."""
    for t in range(NUM_CARD_TYPES):
        if s.hand[who, t] > 0:
            out[A_CARD + t] = 1


@njit(cache=True)
def discard_down(s, who: int, action: int) -> None:
    discard_card(s, who, action - A_CARD)
    emit(s, EV_DISCARD, who, action - A_CARD)


@njit(cache=True)
def discard_before_drawing_mask(s, who: int, out) -> None:
    """Before drawing: any card in hand, or done."""
    discard_mask(s, who, out)
    out[A_DONE] = 1


@njit(cache=True)
def discard_before_drawing(s, who: int, action: int) -> None:
    if action == A_DONE:
        s.phase = PH_HAND_DRAW
    else:
        discard_down(s, who, action)
