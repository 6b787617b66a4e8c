"""Moving: the Move action (a door trap in the corridor being left is checked first), and
the ways between a bridge and the corridor under it: jumping down (a die), coming down
and climbing up (two actions each)."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import face_down_ahead, occupants
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import d6
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .entering import do_move, explore, place
from .entrapment import door_first
from .life import add_stun, lose_life
from .queries import move_target
from .skills import climbing, throw_modifier
from .tables import (
    A_CLIMB_UP,
    A_COME_DOWN,
    A_JUMP_DOWN,
    A_MOVE,
    CK_JUMP,
    EV_JUMP,
    M_CLIMB,
    M_DOWN,
    M_LEAVE,
    TRAP_DIFF,
    TRAP_TOKENS,
)
from .traps import begin_trap, reveal


# --- Move (action) -----------------------------------------------------------------------------
@njit(cache=True)
def move_mask(s, seat: int, out) -> None:
    """Into the neighbouring corridor, never into another player's start field
    (``queries.move_target``), or into a face-down field (``move_legal``)."""
    for d in range(6):
        out[A_MOVE + d] = 1 if move_legal(s, seat, d) else 0


@njit(cache=True)
def move_legal(s, seat: int, d: int) -> bool:
    """A corridor across edge ``d``, or the Illusionist's face-down field there (l.381: it can
    be entered; it is turned face up)."""
    return move_target(s, seat, d) >= 0 or face_down_ahead(s, s.position[seat], d) >= 0


@njit(cache=True)
def try_move(s, seat: int, d: int) -> None:
    """A move; a door trap in the corridor being left is checked first (revealed if face down),
    except on the key field by the player who came onto it from its start field: "a player
    leaving a start field ignores it" (l.224), on its way out of the key field too."""
    node = s.position[seat]
    door_first(s, node)
    t = s.node_trap[node]
    if t >= 0 and TRAP_DIFF[TRAP_TOKENS[t], M_LEAVE] > 0 and not (s.left_start >> seat) & 1:
        ty = TRAP_TOKENS[t]
        reveal(s, seat, node, ty)
        s.move_dir = d
        begin_trap(s, seat, node, ty, M_LEAVE)
        return
    do_move(s, seat, d)


# --- between a bridge and the corridor under it (actions) --------------------------------
@njit(cache=True)
def bridge_mask(s, seat: int, out) -> None:
    """Jump down (one action) or come down (two) from a bridge; climb up (two) from under it."""
    level = s.node_level[s.position[seat]]
    out[A_JUMP_DOWN] = 1 if level == C.BRIDGE else 0
    out[A_COME_DOWN] = 1 if s.actions_left >= 2 and level == C.BRIDGE else 0
    out[A_CLIMB_UP] = 1 if s.actions_left >= 2 and level == C.UNDER else 0


@njit(cache=True)
def bridge_legal(s, seat: int, a: int) -> bool:
    level = s.node_level[s.position[seat]]
    if a == A_JUMP_DOWN:
        return level == C.BRIDGE
    if a == A_COME_DOWN:
        return s.actions_left >= 2 and level == C.BRIDGE
    return s.actions_left >= 2 and level == C.UNDER


@njit(cache=True)
def begin_jump(s, seat: int) -> None:
    """Jump down: one die (``throws.settle_throw`` offers the repeat and applies the outcome)."""
    s.ck_kind = CK_JUMP
    s.ck_seat = seat
    s.ck_a = d6(s.rng) + throw_modifier(s, seat)
    emit(s, EV_JUMP, seat, s.ck_a, 1 if s.ck_a >= C.JUMP_SUCCESS else 0)


@njit(cache=True)
def finish_jump(s, seat: int, success: bool) -> None:
    node = s.position[seat]
    below = s.node_pair[node]
    # Climbing (l.375): the Assassin has the +1 after a fall too
    bonus = 1 << seat if success or climbing(s, seat) else 0
    place(s, seat, below, M_DOWN)
    if success:
        explore(s, seat, below, node, M_DOWN, False, bonus)
        return
    if not lose_life(s, seat, C.JUMP_FAIL_LIFE):
        add_stun(s, seat, C.JUMP_FAIL_STUN)
        explore(s, seat, below, node, M_DOWN, False, bonus)


@njit(cache=True)
def come_down(s, seat: int) -> None:
    node = s.position[seat]
    place(s, seat, s.node_pair[node], M_DOWN)
    explore(s, seat, s.node_pair[node], node, M_DOWN, False, 0)


@njit(cache=True)
def climb_up(s, seat: int) -> None:
    node = s.position[seat]
    up = s.node_pair[node]
    # the player standing on the bridge gets +1 in a fight that follows
    bonus = occupants(s, up, seat)
    place(s, seat, up, M_CLIMB)
    explore(s, seat, up, node, M_CLIMB, False, bonus)
