"""Entering a corridor: a player placed in it (an event telling how it came in), and the
entry that ``exploring.explore_step`` then resolves step by step (``ex_*``)."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import at_start, face_down_ahead, start_node
from labyrinth_env.core.jit import njit

from .illusion import begin_uncover
from .life import restore
from .queries import move_target, set_position
from .tables import EV_MOVE, M_ENTER, P_START


@njit(cache=True)
def place(s, seat: int, node: int, mode: int) -> None:
    emit(s, EV_MOVE, seat, s.position[seat], node, mode)
    set_position(s, seat, node)


@njit(cache=True)
def explore(s, seat: int, node: int, came_from: int, mode: int, ignore_trap: bool, bonus: int) -> None:
    """Resolve, step by step, what ``seat`` meets in the corridor it came into: the Guard, a
    trap, the players there. Its own start field holds nothing and restores it."""
    if node == start_node(s, seat):
        restore(s, seat)
        return
    s.ex_active = 1
    s.ex_seat = seat
    s.ex_node = node
    s.ex_from = came_from
    s.ex_mode = mode
    s.ex_ignore_trap = 1 if ignore_trap else 0
    s.ex_second = 0
    s.ex_theft = 0
    s.ex_step = 1
    s.ex_phase = P_START
    s.ex_bonus = bonus
    s.ex_target = -1
    s.ex_declared = 0
    s.ex_join = 0
    s.ex_vs = 0


@njit(cache=True)
def do_move(s, seat: int, d: int) -> None:
    """Move into the neighbouring corridor in direction ``d`` and explore it; into a
    face-down field, once the Illusionist has turned it face up (``turn.finish_uncover``)."""
    node = s.position[seat]
    cell = face_down_ahead(s, node, d)
    if cell >= 0:
        begin_uncover(s, seat, cell, d)
        return
    to = move_target(s, seat, d)
    # a trap on the key field is ignored by the player leaving its start field (l.224),
    # coming in and, a door trap, going on out of the key field (``moving.try_move``)
    ignore = at_start(s, seat)
    place(s, seat, to, M_ENTER)
    if ignore:
        s.left_start |= 1 << seat
    explore(s, seat, to, node, M_ENTER, ignore, 0)
