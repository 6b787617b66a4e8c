"""The Head Hunter's Entrapment (l.134, l.386): a second trap in a corridor that has one,
which the rulebook's "In one corridor there may be only one trap" (l.218) forbids everyone
else ("The character's skills prevail over the rules", l.134).

A corridor's second token lies in ``node_trap2`` (with ``trap2_up``, ``trap2_failed``),
never without a first in ``node_trap``. Crossing it (l.386): both are uncovered, a turn-back
trap is passed first, else the player decides which first (a decision); a door trap works
when leaving, like the first. To check the second, the two change slots and the first
slot's check runs again (``exploring``), so every trap rule is written once."""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .skills import board_corridor, skill_active, swap_slots
from .tables import (
    A_TRAP_ORDER,
    D_TRAP_ORDER,
    EV_TRAP_REVEALED,
    M_LEAVE,
    SK_ENTRAPMENT,
    TRAP_DIFF,
    TRAP_MOVE,
    TRAP_TOKENS,
)


@njit(cache=True)
def clear_second_traps(s) -> None:
    s.node_trap2[:] = -1
    s.trap2_up[:] = 0
    s.trap2_failed[:] = 0
    s.ex_second = 0


@njit(cache=True)
def second_settable(s, node: int) -> bool:
    """The Head Hunter may set a second trap where there is one and no second (l.134), on a
    board corridor nobody stands in (l.220 still holds)."""
    return second_place(s, node) and skill_active(s, s.seat, SK_ENTRAPMENT)


@njit(cache=True)
def second_place(s, node: int) -> bool:
    """``second_settable`` but for who asks (the mask asks that once)."""
    if s.node_trap[node] < 0 or s.node_trap2[node] >= 0 or not board_corridor(node):
        return False
    for p in range(s.num_players):
        if p != s.seat and s.position[p] == node:
            return False
    return True


@njit(cache=True)
def set_second(s, node: int, token: int) -> None:
    s.node_trap2[node] = token
    s.trap2_up[node] = 0
    s.trap2_failed[node] = 0


@njit(cache=True)
def turns_back(ty: int, mode: int) -> bool:
    return TRAP_DIFF[ty, mode] > 0 and TRAP_MOVE[ty, mode] == C.MOVE_TURN_BACK


@njit(cache=True)
def order_traps(s, seat: int, node: int, mode: int) -> bool:
    """Coming into a corridor with two traps: both are uncovered (l.386); a turn-back trap
    first; if both work this way and neither turns back, the player chooses (returns True:
    a decision is pending)."""
    t1 = TRAP_TOKENS[s.node_trap[node]]
    t2 = TRAP_TOKENS[s.node_trap2[node]]
    if not s.trap_up[node]:
        s.trap_up[node] = 1
        emit(s, EV_TRAP_REVEALED, seat, node, t1)
    if not s.trap2_up[node]:
        s.trap2_up[node] = 1
        emit(s, EV_TRAP_REVEALED, seat, node, t2)
    s.ex_second = 1
    if turns_back(t2, mode) and not turns_back(t1, mode):
        swap_slots(s, node)
        return False
    if turns_back(t1, mode) or TRAP_DIFF[t1, mode] == 0 or TRAP_DIFF[t2, mode] == 0:
        return False
    set_decision(s, D_TRAP_ORDER, seat)
    return True


@njit(cache=True)
def trap_order_mask(out) -> None:
    out[A_TRAP_ORDER] = 1
    out[A_TRAP_ORDER + 1] = 1


@njit(cache=True)
def choose_trap_order(s, action: int) -> None:
    if action == A_TRAP_ORDER + 1:
        swap_slots(s, s.ex_node)


@njit(cache=True)
def door_first(s, node: int) -> None:
    """Leaving: a door trap in the second slot is the one that holds the door (l.386)."""
    if s.node_trap2[node] < 0:
        return
    first_door = TRAP_DIFF[TRAP_TOKENS[s.node_trap[node]], M_LEAVE] > 0
    if not first_door and TRAP_DIFF[TRAP_TOKENS[s.node_trap2[node]], M_LEAVE] > 0:
        swap_slots(s, node)
