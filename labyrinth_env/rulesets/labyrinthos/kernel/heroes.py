"""A hero moved onto a tile, and a hero's wounds.

Whatever moves a hero (a move, a secret passage, exploring, Ariadne's Thread, being
displaced) goes through ``put_hero``, which leaves a ``T_ARRIVE`` task: ``arrive`` then
resolves the Door (the win) and the tile's symbol, Wild Intuition included. Wounds (a
trap, the Blood die) are ``T_WOUND`` tasks placed one at a time (``wound_task``); Heal and
Bandages remove one (``D_HEAL``).
"""

from __future__ import annotations

from labyrinth_env.core.contract import declare_winner, set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import any_woundable, keys_held, pop, push, special_usable, woundable
from .maze import any_wall_place
from .tables import (
    A_NO,
    A_SLOT,
    A_YES,
    D_INTUITION,
    D_WALL,
    D_WOUND,
    DOOR_CELL,
    EV_HEAL,
    EV_INTUITION,
    EV_MOVE,
    EV_WIN,
    EV_WOUND,
    NUM_COLOURS,
    NUM_SLOTS,
    T_ARRIVE,
    T_MONSTER,
    T_ROLL,
    T_WOUND,
    TILE_SYMBOL,
)


# --- arriving on a tile --------------------------------------------------------------------------
@njit(cache=True)
def put_hero(s, p: int, cell: int, how: int) -> None:
    """The hero is moved onto ``cell`` (``how``: a ``HOW_*`` code): the tile's symbol (and
    the Door) are resolved next."""
    emit(s, EV_MOVE, p, s.position[p], cell, how)
    s.position[p] = cell
    push(s, T_ARRIVE, p)


@njit(cache=True)
def check_win(s, p: int) -> bool:
    """RULEBOOK: all four keys and moving onto the Door tile."""
    if s.position[p] == DOOR_CELL and keys_held(s, p) == NUM_COLOURS:
        declare_winner(s, p, EV_WIN)
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


# D_INTUITION: Wild Intuition, on a Minotaur symbol: roll the Minotaur die instead of two points
@njit(cache=True)
def intuition_mask(s, who: int, out) -> None:
    out[A_YES] = 1
    out[A_NO] = 1


@njit(cache=True)
def wild_intuition(s, who: int, action: int) -> None:
    emit(s, EV_INTUITION, who, 1 if action == A_YES else 0)
    if action == A_YES:
        push(s, T_ROLL, who)
    else:
        push(s, T_MONSTER, who, C.MINOTAUR_SYMBOL_POINTS)


# --- wounds ------------------------------------------------------------------------------------------
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
def wound_task(s, i: int, p: int, a: int, b: int) -> None:
    """The ``T_WOUND`` task at ``i``: ``a`` wounds still to place on hero ``p``, one at a
    time; ``b`` = 1 for Medusa's attack."""
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


# D_WOUND: the wounded player chooses the action the wound covers
@njit(cache=True)
def wound_mask(s, who: int, out) -> None:
    for i in range(NUM_SLOTS):
        if woundable(s, who, i):
            out[A_SLOT + i] = 1


@njit(cache=True)
def place_chosen_wound(s, who: int, action: int) -> None:
    place_wound(s, who, action - A_SLOT)
    s.task_a[s.num_tasks - 1] -= 1


# D_HEAL: Heal and Bandages remove the wound of the player's choice
@njit(cache=True)
def heal_mask(s, who: int, out) -> None:
    for i in range(NUM_SLOTS):
        out[A_SLOT + i] = s.slot_wound[who, i]


@njit(cache=True)
def heal_chosen_wound(s, who: int, action: int) -> None:
    heal_slot(s, who, action - A_SLOT)
