"""Throws and the fate crystal: a throw made by its family (jumping down, meeting the
Guard, a trap, a fight) stays in the record (``ck_*``) until ``settle_throw`` offers the repeat
to the owner of a face-up crystal (in a fight, each player of a side that did not win, in
turn) and applies the outcome; the repeat decision; the Regenerate action."""

from __future__ import annotations

from labyrinth_env.core import pod
from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import can_crystal
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .fights import fight_candidate, fight_outcome, rethrow_side, whirling_blades
from .guard import guard_outcome, throw_against_guard
from .moving import begin_jump, finish_jump
from .seating import first_candidate, first_outcome, rethrow_first
from .skills import (
    disarm_outcome,
    guard_needed,
    shot_outcome,
    theft_outcome,
    throw_against_disarm,
    throw_against_shot,
    throw_against_theft,
    throw_settled,
)
from .tables import (
    A_KEEP,
    A_REROLL,
    CK_DISARM,
    CK_FIGHT,
    CK_FIRST,
    CK_GUARD,
    CK_JUMP,
    CK_NONE,
    CK_SHOT,
    CK_THEFT,
    CK_TRAP,
    D_REROLL,
    EV_CRYSTAL,
    EV_REROLL,
)
from .traps import throw_against_trap, trap_outcome


@njit(cache=True)
def throw_failed(s) -> bool:
    kind = s.ck_kind
    if kind == CK_JUMP:
        return s.ck_a < C.JUMP_SUCCESS
    if kind == CK_GUARD:
        return s.ck_a < guard_needed(s, s.ck_seat)
    if kind == CK_THEFT:
        return s.ck_a < C.THEFT_SUCCESS
    if kind in (CK_TRAP, CK_DISARM):
        return s.ck_a < s.ck_diff
    if kind == CK_SHOT:  # the one shot at is hit
        return s.ck_a < C.SHOT_HIT
    return False


@njit(cache=True)
def offer_repeat(s) -> bool:
    """After a failed throw (or a fight not won) the owner of a face-up crystal decides."""
    if s.ck_kind == CK_FIGHT or s.ck_kind == CK_FIRST:
        p = fight_candidate(s) if s.ck_kind == CK_FIGHT else first_candidate(s)
        if p < 0:
            return False
        s.ck_asked |= 1 << p
        set_decision(s, D_REROLL, p)
        return True
    if throw_failed(s) and can_crystal(s, s.ck_seat):
        set_decision(s, D_REROLL, s.ck_seat)
        return True
    return False


@njit(cache=True)
def resolve_throw(s) -> None:
    """Apply the outcome of the throw in progress."""
    kind = s.ck_kind
    seat = s.ck_seat
    throw_settled(s, kind)  # the blessings and curses on whoever threw are spent
    s.ck_kind = CK_NONE
    if kind == CK_JUMP:
        finish_jump(s, seat, s.ck_a >= C.JUMP_SUCCESS)
    elif kind == CK_GUARD:
        guard_outcome(s, seat)
    elif kind == CK_TRAP:
        trap_outcome(s, seat)
    elif kind == CK_FIGHT:
        fight_outcome(s)
        whirling_blades(s)
    elif kind == CK_FIRST:
        first_outcome(s)
    elif kind == CK_SHOT:
        shot_outcome(s, seat)
    elif kind == CK_DISARM:
        disarm_outcome(s)
    elif kind == CK_THEFT:
        theft_outcome(s)


@njit(cache=True, inline="always")
def settle_throw(s) -> None:
    """The throw just made: offer the repeat, else apply the outcome (``turn.advance`` calls
    it before anything else while a throw is in progress)."""
    if not offer_repeat(s):
        resolve_throw(s)


# --- repeat the throw with the fate crystal (decision) -----------------------------------------
@njit(cache=True)
def repeat_mask(out) -> None:
    pod.keep_or_reroll_mask(out, A_KEEP)


@njit(cache=True, inline="always")
def repeat_throw(s, who: int, action: int) -> None:
    """Keep the throw, or turn the crystal face down and repeat the same throw (same
    difficulty, same bonus) for one's own side. A fight stays in progress: another player of
    a side that did not win may still repeat its throw (``settle_throw`` asks it)."""
    if action == A_REROLL:
        emit(s, EV_REROLL, who, s.ck_kind)
        pod.turn_crystal(s, who, 0, EV_CRYSTAL)
        kind = s.ck_kind
        if kind == CK_JUMP:
            begin_jump(s, who)
        elif kind == CK_GUARD:
            throw_against_guard(s, who)
        elif kind == CK_TRAP:
            throw_against_trap(s)
        elif kind == CK_FIRST:
            rethrow_first(s, who)
        elif kind == CK_SHOT:
            throw_against_shot(s)
        elif kind == CK_DISARM:
            throw_against_disarm(s)
        elif kind == CK_THEFT:
            throw_against_theft(s)
        else:
            rethrow_side(s, who)
    if s.ck_kind != CK_FIGHT and s.ck_kind != CK_FIRST:  # the others there may still repeat
        resolve_throw(s)


# --- Regenerate the fate crystal (action) ------------------------------------------------------
@njit(cache=True)
def regenerate_legal(s, seat: int) -> bool:
    """A face-down crystal, and both actions left."""
    return s.actions_left >= 2 and s.crystal[seat] == 0


@njit(cache=True)
def regenerate(s, seat: int) -> None:
    pod.turn_crystal(s, seat, 1, EV_CRYSTAL)
