"""Moving and jumping: a character entering a corridor (which starts its exploration),
the Move activity, and the risky (a Jump Check) and safe (two actions) jumps between a
bridge and the corridor under it."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import roll_2d6
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .life import add_stun, lose_life
from .queries import at_start, event_mod, item_sum, move_target
from .tables import (
    A_MOVE,
    A_RISKY_JUMP,
    A_SAFE_JUMP,
    CK_JUMP,
    EV_JUMP,
    EV_MOVE,
    ITEM_JUMP,
    JUMP_RISKY,
    JUMP_SAFE,
    MAX_DEPTH,
)


# --- entering a corridor -------------------------------------------------------------------
@njit(cache=True)
def push_exploration(s, seat: int, node: int, pickup: bool, ignore_trap: bool = False, came_from: int = -1) -> None:
    d = s.depth
    if d >= MAX_DEPTH:
        return  # cannot happen with 6 seats; guards the arrays
    s.ex_seat[d] = seat
    s.ex_node[d] = node
    s.ex_from[d] = came_from
    s.ex_step[d] = 1
    s.ex_pickup[d] = 1 if pickup else 0
    s.ex_ignore_trap[d] = 1 if ignore_trap else 0
    s.ex_done[d] = 0
    s.ex_phase[d] = 0
    s.ex_tokens[d] = 0
    s.depth = d + 1


@njit(cache=True)
def enter(s, seat: int, node: int, pickup: bool, ignore_trap: bool = False) -> None:
    """Move a character onto ``node`` and explore it."""
    came_from = s.position[seat]
    emit(s, EV_MOVE, seat, came_from, node)
    s.position[seat] = node
    push_exploration(s, seat, node, pickup, ignore_trap, came_from)


# --- Move (activity) -----------------------------------------------------------------------
@njit(cache=True)
def move_mask(s, seat: int, out) -> None:
    """Along a corridor to the same corridor of a neighbouring tile, never into another
    character's starting space (``queries.move_target``)."""
    for d in range(6):
        out[A_MOVE + d] = 1 if move_target(s, seat, d) >= 0 else 0


@njit(cache=True)
def move(s, seat: int, d: int) -> None:
    # leaving the starting space, a trap on the key space is ignored
    enter(s, seat, move_target(s, seat, d), True, at_start(s, seat))


# --- Risky and safe jumps (activities) ---------------------------------------------------
@njit(cache=True)
def jump_legal(s, seat: int, risky: bool) -> bool:
    """On a bridge or under one; a safe jump takes both actions."""
    return (risky or s.actions_left >= 2) and s.node_pair[s.position[seat]] >= 0


@njit(cache=True)
def jump_mask(s, seat: int, out) -> None:
    if s.node_pair[s.position[seat]] >= 0:
        out[A_RISKY_JUMP] = 1
        out[A_SAFE_JUMP] = 1 if s.actions_left >= 2 else 0


@njit(cache=True)
def jump_total(s, seat: int) -> int:
    return roll_2d6(s.rng) + item_sum(s, seat, ITEM_JUMP) + event_mod(s, C.LONG_JUMP_MOD)


@njit(cache=True)
def begin_jump(s, seat: int, risky: bool) -> None:
    """A safe jump lands at once; a risky one rolls its Jump Check (``checks.settle_check``
    offers the reroll and applies the outcome)."""
    if not risky:
        finish_jump(s, seat, True, False)
        return
    s.ck_kind = CK_JUMP
    s.ck_seat = seat
    s.ck_a = jump_total(s, seat)
    emit(s, EV_JUMP, seat, s.ck_a, 1 if s.ck_a >= C.JUMP_DIFFICULTY else 0, JUMP_RISKY)


@njit(cache=True)
def finish_jump(s, seat: int, success: bool, risky: bool) -> None:
    node = s.position[seat]
    pair = s.node_pair[node]
    from_bridge = s.node_level[node] == C.BRIDGE
    if not risky:
        emit(s, EV_JUMP, seat, 0, 1, JUMP_SAFE)
    if success:
        enter(s, seat, pair, True)
        return
    landing = node
    if from_bridge:  # falls to the corridor below, hurt and stunned
        emit(s, EV_MOVE, seat, node, pair)
        s.position[seat] = pair
        landing = pair
    lose_life(s, seat, C.JUMP_FAIL_LIFE)
    add_stun(s, seat, C.JUMP_FAIL_STUN)
    # l.204, l.206: "Finally, if he still has any Life left, he explores the new corridor";
    # a failed jump onto a bridge explores the corridor it fell back into, where it stood
    if not (s.dying >> seat) & 1:
        push_exploration(s, seat, landing, True, False, node)
        if not from_bridge:  # it never left: "characters that have not moved cannot attack each other" (l.390)
            s.ex_done[s.depth - 1] = 0xFF
