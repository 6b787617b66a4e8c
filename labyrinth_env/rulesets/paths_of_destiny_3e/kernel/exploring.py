"""Exploring: what a character that came into a corridor meets there, in the rulebook's
order (1 ability tokens, 2 the Golem, 3 a trap, 4 the other characters, 5 keys and items),
carried on one step at a time from the top of the exploration stack (``ex_*``: a push or a
fall explores inside the exploration that caused it)."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import occupants
from labyrinth_env.core.jit import njit

from .abilities import consecrated, resolve_tokens
from .combat import can_fight, explore_counter_order
from .items import anything_to_pick, decline_here
from .tables import D_COUNTER, D_FREE_ATTACK, D_PICKUP, EV_TRAP_REVEALED, NUM_SEATS, TRAP_TOKENS
from .traps import begin_trap_check


@njit(cache=True, inline="always")
def explore_step(s) -> None:
    """Carry the top exploration on by one step (or until it stops for a decision)."""
    f = s.depth - 1
    seat = s.ex_seat[f]
    node = s.ex_node[f]
    if s.position[seat] != node or (s.dying >> seat) & 1:
        s.depth = f  # sent away (Golem, death, push): nothing more here
        return
    step = s.ex_step[f]
    if step == 1:  # character ability tokens, in the active player's order (l.187)
        if resolve_tokens(s, f):
            s.ex_step[f] = 2
    elif step == 2:  # the Golem
        s.ex_step[f] = 3
        if s.golem_node == node:
            s.golem_checks |= np.uint8(1 << seat)
    elif step == 3:  # a trap
        s.ex_step[f] = 4
        t = s.node_trap[node]
        if t >= 0 and not s.ex_ignore_trap[f]:
            if not s.trap_up[node]:
                s.trap_up[node] = 1
                emit(s, EV_TRAP_REVEALED, seat, node, TRAP_TOKENS[t])
            begin_trap_check(s, seat, TRAP_TOKENS[t])
    elif step == 4:  # other characters: free attacks (none on a consecrated corridor)
        if consecrated(s, node):
            s.ex_step[f] = 5
            return
        others = occupants(s, node, seat) & ~np.int64(s.ex_done[f])
        if s.ex_phase[f] == 0:
            if others != 0 and can_fight(s, seat):
                set_decision(s, D_FREE_ATTACK, seat)
                return
            s.ex_phase[f] = 1
            explore_counter_order(s, f)
        for i in range(NUM_SEATS):
            p = s.ex_order[f, i]
            if p < 0:
                break
            if (s.ex_done[f] >> p) & 1 or s.position[p] != node or not can_fight(s, p):
                continue
            set_decision(s, D_COUNTER, p)
            return
        s.ex_step[f] = 5
    else:  # keys and items
        if not s.ex_pickup[f]:  # put here by a trap or a lost combat (l.358, l.441)
            decline_here(s, seat)
        elif seat == s.seat and s.stun[seat] == 0 and anything_to_pick(s, seat, node):
            set_decision(s, D_PICKUP, seat)
            return
        s.depth = f
