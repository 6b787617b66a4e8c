"""Team Edition: the turn. It starts by reading the next page of the Book of Daedalus and
ends, when nothing is left but ending or the seat ends it, by drawing treasures and handing
the Book on; the Book running out at the end of its final turn loses the game."""

from __future__ import annotations

from labyrinth_env.core.contract import LOST, RUNNING, TRUNCATED
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .daedalus import read_page
from .moving import compute_reach, movement_spell
from .tables import DECISION_MAIN, EV_END_TURN, EV_START_TURN
from .treasures import draw_treasures, finish


@njit(cache=True)
def start_turn(s) -> None:
    s.push_used = 0
    s.spell_used = 0
    s.moves_left = 1
    s.collected_this_turn = 0
    s.decision = DECISION_MAIN
    s.flip_cell = -1
    emit(s, EV_START_TURN, s.seat, s.turn, s.num_pages - s.page_pos - 1)
    read_page(s)


@njit(cache=True)
def end_turn(s) -> None:
    seat = s.seat
    draw_treasures(s, seat)
    emit(s, EV_END_TURN, seat, s.turn)
    if s.page_pos >= s.num_pages:
        finish(s, LOST)  # the Book ran out at the end of its final turn
        return
    s.turn += 1
    if s.max_turns > 0 and s.turn >= s.max_turns:
        finish(s, TRUNCATED)
        return
    s.seat = (seat + 1) % s.num_players
    s.decider = s.seat  # every decision of a turn is the active player's
    start_turn(s)


@njit(cache=True)
def turn_is_over(s) -> bool:
    """Nothing left but ending: push used, no move left, and the other spell used (or a
    movement spell, which cannot be used without moving)."""
    if not s.push_used or s.moves_left > 0:
        return False
    return bool(s.spell_used) or movement_spell(s, s.seat)


@njit(cache=True)
def settle(s) -> None:
    """After an action: end the turn if nothing is left, then prepare the next search."""
    if s.outcome == RUNNING and s.decision == DECISION_MAIN and turn_is_over(s):
        end_turn(s)
    if s.outcome == RUNNING and s.decision == DECISION_MAIN:
        compute_reach(s)
