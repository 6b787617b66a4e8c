"""The Witch's Misfortune Rite (l.417-418): one action sets off the trap of a corridor next to
hers on the players standing there, each throwing in turn as if coming in; "Activating a
door trap does not bring any results" (l.417); "If a witch activates a turn-back trap, she
is to decide where the character will go" (l.418): a decision of hers, among the corridors
the player could move to from there, which he then comes into as after a move."""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .entering import explore
from .queries import move_target, set_position
from .tables import (
    A_SKILL_DIR,
    D_RITE,
    EV_TURNED_BACK,
    M_ENTER,
    TRAP_TOKENS,
)
from .traps import begin_trap

A_RITE = A_SKILL_DIR + 2 * 6  # the Witch's third skill towards a direction (and where she sends)


@njit(cache=True)
def clear_rite(s) -> None:
    s.rite_node = -1
    s.rite_queue = 0
    s.rite_victim = -1


@njit(cache=True)
def next_rite(s) -> None:
    """The next player there throws against the trap (``turn.advance``)."""
    q = 0
    while not (s.rite_queue >> q) & 1:
        q += 1
    s.rite_queue &= ~(1 << q)
    node = s.rite_node
    if s.position[q] == node and s.node_trap[node] >= 0:
        begin_trap(s, q, node, TRAP_TOKENS[s.node_trap[node]], M_ENTER)


@njit(cache=True)
def rite_step(s) -> bool:
    """What the rite still has to do (``turn.advance``): the Witch sends a player its
    turn-back trap caught (True: her decision is pending), the next throw, the end."""
    if s.rite_victim >= 0:
        v = s.rite_victim
        for d in range(6):
            if move_target(s, v, d) >= 0:
                set_decision(s, D_RITE, s.seat)
                return True
        s.rite_victim = -1  # nowhere to go: he stays
        return False
    if s.rite_queue != 0:
        next_rite(s)
        return False
    s.rite_node = -1
    return False


@njit(cache=True)
def rite_mask(s, out) -> None:
    for d in range(6):
        out[A_RITE + d] = 1 if move_target(s, s.rite_victim, d) >= 0 else 0


@njit(cache=True)
def rite_send(s, action: int) -> None:
    """The player goes where the Witch chose, and comes into that corridor as after a move."""
    v = s.rite_victim
    s.rite_victim = -1
    node = s.position[v]
    to = move_target(s, v, action - A_RITE)
    emit(s, EV_TURNED_BACK, v, node, to)
    set_position(s, v, to)
    explore(s, v, to, node, M_ENTER, False, 0)
