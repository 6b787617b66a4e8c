"""Exploring: what a player that came into a corridor meets there, in order (the Guard,
awake; a trap that works the way it came in; the players there), carried on one step at a
time from the entry in progress (``ex_*``)."""

from __future__ import annotations

from labyrinth_env.core.jit import njit

from .fights import encounter_step
from .guard import begin_guard
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
    elif step == 2:  # a trap
        s.ex_step = 3
        t = s.node_trap[node]
        if t >= 0 and not s.ex_ignore_trap:
            ty = TRAP_TOKENS[t]
            reveal(s, seat, node, ty)
            if TRAP_DIFF[ty, s.ex_mode] > 0:
                begin_trap(s, seat, node, ty, s.ex_mode)
    elif step == 3:  # the other players
        encounter_step(s)
    else:
        s.ex_active = 0
