"""Traps: the Set a Trap action (a token face down), and the trap's throw when a player
comes into its corridor (red traps: entering, climbing up, coming down) or tries to leave
it (orange door traps), with its effect on a failed throw."""

from __future__ import annotations

from labyrinth_env.core import hexboard
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import start_node
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import roll_2d6
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .entering import do_move
from .entrapment import second_place, second_settable, set_second
from .life import add_stun, lose_life, restore
from .queries import set_position
from .skills import skill_active, throw_modifier, trap_bonus
from .tables import (
    A_SET_TRAP,
    CENTER_CELL,
    CK_TRAP,
    EV_HELD,
    EV_TRAP_CHECK,
    EV_TRAP_REVEALED,
    EV_TRAP_SET,
    EV_TURNED_BACK,
    M_ENTER,
    M_LEAVE,
    NUM_BOARD_NODES,
    P_START,
    SK_ENTRAPMENT,
    TRAP_DIFF,
    TRAP_DIFF2,
    TRAP_LIFE,
    TRAP_MOVE,
    TRAP_STUN,
)


# --- Set a Trap (action) ---------------------------------------------------------------------
@njit(cache=True)
def trap_settable(s, node: int) -> bool:
    return hexboard.settable_corridor(s, node, CENTER_CELL)


@njit(cache=True)
def set_trap_legal(s, node: int) -> bool:
    return s.trap_pool_len > 0 and (trap_settable(s, node) or second_settable(s, node))


@njit(cache=True)
def set_trap_mask(s, out) -> None:
    hexboard.settable_mask(s, out, A_SET_TRAP, CENTER_CELL)
    if s.trap_pool_len > 0 and s.character[s.seat] >= 0 and skill_active(s, s.seat, SK_ENTRAPMENT):
        for node in range(NUM_BOARD_NODES):
            if s.node_mask[node] != 0 and second_place(s, node):
                out[A_SET_TRAP + node] = 1


@njit(cache=True)
def set_trap(s, seat: int, node: int) -> None:
    """The top token of the pile, face down and not yet failed, onto ``node``."""
    s.trap_pool_len -= 1
    if s.node_trap[node] >= 0:  # the Head Hunter's second trap (l.134)
        set_second(s, node, s.trap_pool[s.trap_pool_len])
    else:
        s.node_trap[node] = s.trap_pool[s.trap_pool_len]
        s.trap_up[node] = 0
        s.trap_failed[node] = 0
    emit(s, EV_TRAP_SET, seat, node)


# --- the trap's throw ------------------------------------------------------------------------
@njit(cache=True)
def reveal(s, seat: int, node: int, ty: int) -> None:
    """A face-down token is turned up when it is checked."""
    if not s.trap_up[node]:
        s.trap_up[node] = 1
        emit(s, EV_TRAP_REVEALED, seat, node, ty)


@njit(cache=True)
def trap_difficulty(s, node: int, ty: int, mode: int) -> int:
    # the number in brackets once anyone has failed this token
    return TRAP_DIFF2[ty, mode] if s.trap_failed[node] else TRAP_DIFF[ty, mode]


@njit(cache=True)
def begin_trap(s, seat: int, node: int, ty: int, mode: int) -> None:
    """Throw against the trap (``throws.settle_throw`` offers the repeat and applies the outcome)."""
    s.ck_kind = CK_TRAP
    s.ck_seat = seat
    s.ck_node = node
    s.ck_trap = ty
    s.ck_mode = mode
    s.ck_diff = trap_difficulty(s, node, ty, mode)
    throw_against_trap(s)


@njit(cache=True)
def throw_against_trap(s) -> None:
    """2d6 against the trap of the throw in progress (``ck_*``: the fate crystal repeats the
    same throw, same difficulty)."""
    s.ck_a = roll_2d6(s.rng) + throw_modifier(s, s.ck_seat) + trap_bonus(s, s.ck_seat)
    emit(s, EV_TRAP_CHECK, s.ck_seat, s.ck_trap, s.ck_a, s.ck_diff, s.ck_mode)


@njit(cache=True)
def turn_back(s, seat: int, node: int, back: int) -> None:
    """Back into the corridor it came from. The Guard and the trap there are not met again
    (it had just got past them; the Guard moves only in someone's Move the Guard), but the
    players there are: "An encounter takes place each time one player enters a corridor,
    where there is another player" (l.253). Nothing is lifted there before that."""
    emit(s, EV_TURNED_BACK, seat, node, back)
    set_position(s, seat, back)
    s.ex_second = 0  # a second trap where it was turned back is not crossed
    s.ex_theft = 0
    if back == start_node(s, seat):
        restore(s, seat)
        s.ex_active = 0
        return
    s.ex_node = back
    s.ex_from = -1  # an ordinary entry, but nowhere to be turned or sent back to
    s.ex_mode = M_ENTER
    s.ex_step = 3  # the players (``exploring.explore_step``)
    s.ex_phase = P_START
    s.ex_bonus = 0  # no +1: the jump or the climb did not land
    s.ex_target = -1
    s.ex_declared = 0
    s.ex_join = 0
    s.ex_vs = 0


@njit(cache=True)
def trap_outcome(s, seat: int) -> None:
    node = s.ck_node
    ty = s.ck_trap
    mode = s.ck_mode
    if s.ck_a >= s.ck_diff:
        if mode == M_LEAVE:  # the door opened: the move goes on
            do_move(s, seat, s.move_dir)
        return
    s.trap_failed[node] = 1
    if mode != M_LEAVE:  # fell into it coming in: not past it (no key lifted here, l.120)
        s.trap_fell |= 1 << seat
    if TRAP_LIFE[ty, mode] > 0 and lose_life(s, seat, TRAP_LIFE[ty, mode]):
        return
    if TRAP_STUN[ty, mode] > 0:
        add_stun(s, seat, TRAP_STUN[ty, mode])
    move = TRAP_MOVE[ty, mode]
    if move == C.MOVE_TURN_BACK:
        back = s.ex_from
        if s.rite_node == node:  # the Misfortune Rite: the Witch decides where (l.418)
            s.rite_victim = seat
        elif back >= 0:
            turn_back(s, seat, node, back)
    elif move == C.MOVE_HELD:
        emit(s, EV_HELD, seat, node)
