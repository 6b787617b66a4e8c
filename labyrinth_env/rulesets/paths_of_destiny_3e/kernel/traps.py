"""Traps: the trap pool, the Set a Trap activity and the trap icon of a new tile (both lay
a token face down), and the Trap Check of a character exploring a trapped corridor
(every roll of the trap, then its effect per failed roll)."""

from __future__ import annotations

from labyrinth_env.core import hexboard, pod
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint, roll_2d6
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .life import add_stun, lose_life, to_start
from .moving import push_exploration
from .queries import event_mod, holds_special, item_sum
from .tables import (
    A_SET_TRAP,
    CK_TRAP,
    EV_CRYSTAL,
    EV_THROWN_BACK,
    EV_TOOLS,
    EV_TRAP_CHECK,
    EV_TRAP_PLACED,
    EV_TRAP_REMOVED,
    ITEM_TRAP,
    MAX_TRAP_ROLLS,
    MODIFIER_BIAS,
    ROLL_BITS,
    TRAP_DIFFICULTY,
    TRAP_EFFECT,
    TRAP_PARAM,
    TRAP_ROLLS,
    TRAP_TOKENS,
)


# --- laying traps --------------------------------------------------------------------------
@njit(cache=True)
def draw_trap(s) -> int:
    if s.trap_pool_len <= 0:
        return -1
    s.trap_pool_len -= 1
    return s.trap_pool[s.trap_pool_len]


@njit(cache=True)
def lay_trap(s, seat: int, node: int) -> None:
    """The top trap of the pool (if any is left), face down, onto ``node``."""
    t = draw_trap(s)
    if t >= 0:
        s.node_trap[node] = t
        s.trap_up[node] = 0
        emit(s, EV_TRAP_PLACED, seat, node)


@njit(cache=True)
def return_trap(s, seat: int, node: int) -> None:
    """A trap token leaves the board with its tile (l.152): shuffled back into the trap pool
    (l.487). Nothing else takes a trap away: it "stays on a given corridor until the end of
    the game" (l.267)."""
    t = s.node_trap[node]
    s.node_trap[node] = -1
    s.trap_up[node] = 0
    n = s.trap_pool_len
    s.trap_pool[n] = t
    j = randint(s.rng, n + 1)
    s.trap_pool[n], s.trap_pool[j] = s.trap_pool[j], s.trap_pool[n]
    s.trap_pool_len = n + 1
    emit(s, EV_TRAP_REMOVED, seat, node, TRAP_TOKENS[t])


# --- Set a Trap (activity) -------------------------------------------------------------------
@njit(cache=True)
def trap_settable(s, node: int) -> bool:
    return hexboard.settable_corridor(s, node, s.center_cell)


@njit(cache=True)
def set_trap_legal(s, node: int) -> bool:
    return s.trap_pool_len > 0 and trap_settable(s, node)


@njit(cache=True)
def set_trap_mask(s, out) -> None:
    hexboard.settable_mask(s, out, A_SET_TRAP, s.center_cell)


# --- the Trap Check --------------------------------------------------------------------------
@njit(cache=True)
def trap_rolls(s, seat: int, trap_type: int) -> tuple[int, int]:
    """Every roll of the trap, two dice summed against its difficulty (l.432): the failed
    rolls, and the rolls packed for the log (``ROLL_BITS``): the dice are thrown in the open."""
    fails = 0
    bonus = item_sum(s, seat, ITEM_TRAP) + event_mod(s, C.LONG_TRAP_MOD)
    packed = 0
    for i in range(TRAP_ROLLS[trap_type]):
        dice = roll_2d6(s.rng)
        packed |= dice << (ROLL_BITS * i)
        if dice + bonus < TRAP_DIFFICULTY[trap_type]:
            fails += 1
    return fails, packed | ((bonus + MODIFIER_BIAS) << (ROLL_BITS * MAX_TRAP_ROLLS))


@njit(cache=True)
def roll_trap_check(s, seat: int, trap_type: int) -> None:
    fails, packed = trap_rolls(s, seat, trap_type)
    s.ck_a = fails
    emit(s, EV_TRAP_CHECK, seat, trap_type, fails, TRAP_ROLLS[trap_type], packed)


@njit(cache=True)
def begin_trap_check(s, seat: int, trap_type: int) -> None:
    """Roll every roll of the trap (``checks.settle_check`` offers the reroll and applies the
    outcome); Thief's Tools take it again when every roll failed (``C.ITEMS``)."""
    s.ck_kind = CK_TRAP
    s.ck_seat = seat
    s.ck_b = trap_type
    roll_trap_check(s, seat, trap_type)
    if s.ck_a == TRAP_ROLLS[trap_type] and holds_special(s, seat, C.SPECIAL_TOOLS) >= 0:
        emit(s, EV_TOOLS, seat, trap_type)
        roll_trap_check(s, seat, trap_type)  # every roll again (l.428)


@njit(cache=True)
def trap_outcome(s, seat: int) -> None:
    """The trap's effect, once per failed roll (``ck_a`` of them, trap type ``ck_b``)."""
    fails = s.ck_a
    t = s.ck_b
    effect = TRAP_EFFECT[t]
    if fails == 0:
        return
    if effect == C.TRAP_LOSE_LIFE:
        lose_life(s, seat, fails * TRAP_PARAM[t])
    elif effect == C.TRAP_TAKE_STUN:
        add_stun(s, seat, fails * TRAP_PARAM[t])
    elif effect == C.TRAP_LIFE_OR_STUN:
        s.choices_left = fails  # ``turn.advance`` asks once per failed roll
        s.ck_seat = seat
    elif effect == C.TRAP_BACK_TO_START:
        to_start(s, seat)
    elif effect == C.TRAP_CRYSTAL_INACTIVE:
        pod.turn_crystal(s, seat, 0, EV_CRYSTAL)
    elif effect == C.TRAP_THROWN_BACK:
        throw_back(s, seat)
    else:
        lose_life(s, seat, fails * TRAP_PARAM[t])
        add_stun(s, seat, fails)


@njit(cache=True)
def throw_back(s, seat: int) -> None:
    """The trap moves the character back into the corridor it came from: it explores that
    corridor in place of this one (the stack does not grow), but picks nothing up (l.358)."""
    f = s.depth - 1
    if f < 0 or s.ex_seat[f] != seat:
        return
    node = s.position[seat]
    back = s.ex_from[f]
    if back < 0 or back == node:
        return  # it came from nowhere else (a failed jump onto a bridge stays put)
    s.depth = f
    emit(s, EV_THROWN_BACK, seat, node, back)
    s.position[seat] = back
    push_exploration(s, seat, back, False, False, node)
