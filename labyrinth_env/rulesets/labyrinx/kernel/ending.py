"""The end of the game: a win, the treasure that may bring it, and the end triggers (all
cards in game, the table full) with the race back to the Empty Hall that breaks a tie."""

from __future__ import annotations

from labyrinth_env.core.contract import NO_SEAT, WON
from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import popcount
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinx import components as C

from .tables import EV_END_TRIGGER, EV_RACE, EV_WIN, PH_ACTION, WIN_FIVE, WIN_MOST


@njit(cache=True)
def win(s, p: int, how: int) -> None:
    """``p`` wins (``how``: WIN_*). Not ``core.contract.declare_winner``: the event says how."""
    s.outcome = WON
    s.winner = p
    emit(s, EV_WIN, p, how)


@njit(cache=True)
def gain_treasure(s, p: int, from_chest: int) -> None:
    """``p`` takes a treasure from the chest at ``from_chest``, or (NO_CELL) from the reserve."""
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
    emit(s, EV_RACE, NO_SEAT, tied)
    # nobody wins by standing in the exit space: "The first one to move to the exit space" (l.58)
    s.phase = PH_ACTION
    s.actions_left = 0  # the turn ends; the race begins with the next tied player
