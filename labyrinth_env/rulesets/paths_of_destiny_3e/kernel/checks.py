"""Checks and the Crystal of Fate: a check rolled by its family (a Jump, Golem or Trap
Check, a combat) stays in the record (``ck_*``) until ``settle_check`` offers its owner (the
loser, in a combat) the reroll and applies the outcome; the reroll decision; the Activate
the Crystal activity."""

from __future__ import annotations

from labyrinth_env.core import pod
from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import can_crystal
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .abilities import fury, fury_seat
from .combat import combat_loser, combat_outcome, roll_combat
from .golem import golem_outcome, roll_golem_check
from .moving import begin_jump, finish_jump
from .tables import A_KEEP, CK_COMBAT, CK_GOLEM, CK_JUMP, CK_NONE, CK_TRAP, D_FURY, D_REROLL, EV_CRYSTAL, EV_REROLL
from .traps import begin_trap_check, trap_outcome


@njit(cache=True)
def check_failed(s) -> bool:
    kind = s.ck_kind
    if kind == CK_JUMP:
        return s.ck_a < C.JUMP_DIFFICULTY
    if kind == CK_GOLEM:
        return s.ck_a < C.GOLEM_DIFFICULTY
    if kind == CK_TRAP:
        return s.ck_a > 0
    return False


@njit(cache=True)
def offer_reroll(s) -> bool:
    """After a failed check (or a lost combat), the owner of an active Crystal decides."""
    if s.ck_kind == CK_COMBAT:
        loser = combat_loser(s)
        if fury_seat(s) >= 0:  # Fury before the Crystal: both after both checks (l.438, l.445)
            set_decision(s, D_FURY, loser)
            return True
        if s.stun[loser] == 0 and can_crystal(s, loser):
            set_decision(s, D_REROLL, loser)
            return True
        return False
    # a stunned character may do nothing but rest, not even use its Crystal (a free activity)
    if check_failed(s) and s.stun[s.ck_seat] == 0 and can_crystal(s, s.ck_seat):
        set_decision(s, D_REROLL, s.ck_seat)
        return True
    return False


@njit(cache=True)
def resolve_check(s) -> None:
    """Apply the outcome of the check in progress."""
    kind = s.ck_kind
    seat = s.ck_seat
    s.ck_kind = CK_NONE
    if kind == CK_JUMP:
        finish_jump(s, seat, s.ck_a >= C.JUMP_DIFFICULTY, True)
    elif kind == CK_GOLEM:
        golem_outcome(s, seat)
    elif kind == CK_TRAP:
        trap_outcome(s, seat)
    elif kind == CK_COMBAT:
        combat_outcome(s)


@njit(cache=True)
def settle_check(s) -> None:
    """The check just rolled: offer the reroll, else apply the outcome (``turn.advance``
    calls it before anything else once a check is in progress)."""
    if not offer_reroll(s):
        resolve_check(s)


# --- the War Sister's Fury (decision) -------------------------------------------------------------
@njit(cache=True)
def use_fury(s, who: int, action: int) -> None:
    """Fury or not; a tie it makes repeats both checks (l.234); the combat then settles on."""
    if fury(s, who, action):
        roll_combat(s, -1)


# --- reroll with the Crystal of Fate (decision) ----------------------------------------------
@njit(cache=True)
def reroll_mask(out) -> None:
    pod.keep_or_reroll_mask(out, A_KEEP)


@njit(cache=True)
def reroll(s, who: int, action: int) -> None:
    """Keep the result, or turn the Crystal inactive and roll the same check again (every
    roll of a trap; one's own side of a combat): the new result stands. After a combat the
    other side may have lost now, and may reroll in turn (``settle_check`` asks it)."""
    if action == A_KEEP:
        resolve_check(s)
        return
    s.crystal[who] = 0
    kind = s.ck_kind
    emit(s, EV_REROLL, who, kind)
    if kind == CK_JUMP:
        begin_jump(s, who, True)
    elif kind == CK_GOLEM:
        roll_golem_check(s, who)
    elif kind == CK_TRAP:
        begin_trap_check(s, who, s.ck_b)
    else:
        roll_combat(s, who)
    if kind != CK_COMBAT:
        resolve_check(s)


# --- Activate the Crystal of Fate (activity) -----------------------------------------------
@njit(cache=True)
def activate_legal(s, seat: int) -> bool:
    """An inactive Crystal, and both actions left."""
    return not s.crystal[seat] and s.actions_left >= 2


@njit(cache=True)
def activate_crystal(s, seat: int) -> None:
    pod.turn_crystal(s, seat, 1, EV_CRYSTAL)
