"""Exploring: what a player that came into a corridor meets there, in order (the Guard,
awake; a trap that works the way it came in; the players there), carried on one step at a
time from the entry in progress (``ex_*``)."""

from __future__ import annotations

from labyrinth_env.core.jit import njit

from .entrapment import order_traps
from .fights import encounter_step
from .guard import begin_guard
from .skills import swap_slots
from .tables import TRAP_DIFF, TRAP_TOKENS
from .traps import begin_trap, reveal


@njit(cache=True)
def explore_step(s) -> None:
    """Carry the entry on by one step (or until it stops for a decision)."""
    seat = s.ex_seat
    node = s.ex_node
    if s.position[seat] != node:
        s.ex_active = 0  # sent away (the Guard, death, a trap): nothing more here
        return
    step = s.ex_step
    if step == 1:  # the Guard, awake
        s.ex_step = 2
        if s.guard_node == node and not s.guard_asleep:
            begin_guard(s, seat)
    elif step == 2:  # a trap (two: the Head Hunter's, ordered first, l.386)
        two = s.node_trap2[node] >= 0 and not s.ex_ignore_trap and not s.ex_second
        if two and order_traps(s, seat, node, s.ex_mode):
            return  # the player decides which trap first
        s.ex_step = 3
        t = s.node_trap[node]
        if t >= 0 and not s.ex_ignore_trap:
            ty = TRAP_TOKENS[t]
            reveal(s, seat, node, ty)
            if TRAP_DIFF[ty, s.ex_mode] > 0:
                begin_trap(s, seat, node, ty, s.ex_mode)
    elif step == 3 and s.ex_second:  # the second trap, once past (or fallen into) the first
        s.ex_second = 0
        swap_slots(s, node)
        ty = TRAP_TOKENS[s.node_trap[node]]
        if TRAP_DIFF[ty, s.ex_mode] > 0:
            begin_trap(s, seat, node, ty, s.ex_mode)
    elif step == 3:  # the other players
        encounter_step(s)
    else:
        s.ex_active = 0
