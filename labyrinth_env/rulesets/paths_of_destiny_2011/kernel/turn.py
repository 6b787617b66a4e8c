"""The round: two action points spent on actions (the action decision: each action's
legality, mask and effect live with its family, gathered here; lifting and taking keys
are free), the win, the round passing on, and ``advance``, which resolves everything
automatic until a decision is pending."""

from __future__ import annotations

from labyrinth_env.core.contract import RUNNING, declare_winner, next_turn, set_decision
from labyrinth_env.core.hexboard import any_buildable
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import keys_held

from .building import build
from .correction import correct, correction_legal, correction_mask
from .enslavement import walk_slave
from .entering import do_move
from .exploring import explore_step
from .fights import attack, attack_legal, attack_mask, kill
from .guard import guard_step, move_guard, move_guard_legal, next_guard_meeting, walk_guard
from .illusion import turn_face_up
from .keys import lift_key, lift_key_legal, lift_key_mask, take_key_legal, take_key_mask, take_stunned_key
from .life import rest
from .moving import begin_jump, bridge_legal, bridge_mask, climb_up, come_down, move_legal, move_mask, try_move
from .queries import other_seat
from .rite import rite_step
from .seating import start_round
from .skills import any_skill, can_use_skills, drafting, next_shot, rearm, shortcut, skill_legal, skill_mask, use_skill
from .tables import (
    A_ATTACK,
    A_BUILD,
    A_CLIMB_UP,
    A_COME_DOWN,
    A_CORRECTION,
    A_END_TURN,
    A_JUMP_DOWN,
    A_KILL,
    A_LIFT_KEY,
    A_MOVE,
    A_MOVE_GUARD,
    A_REGENERATE,
    A_REST,
    A_SET_TRAP,
    A_SKILL,
    A_TAKE_KEY,
    ARCHITECT,
    ASSASSIN,
    CENTER_NODE,
    CK_NONE,
    D_CHARACTER,
    D_MAIN,
    D_START,
    EV_TRUNCATED,
    EV_WIN,
)
from .throws import regenerate, regenerate_legal, settle_throw
from .timeloop import loop_watch
from .tracking import any_tracking, track, tracked_corridor, tracking_legal, tracking_mask
from .traps import set_trap, set_trap_legal, set_trap_mask


# --- the round passing on, and the win ---------------------------------------------------------
@njit(cache=True)
def end_round(s) -> None:
    rearm(s, s.seat)
    if next_turn(s, EV_TRUNCATED):
        start_round(s)


@njit(cache=True)
def check_win(s) -> bool:
    """On the central field with a key, in one's own round."""
    seat = s.seat
    if s.position[seat] == CENTER_NODE and keys_held(s, seat) > 0:
        declare_winner(s, seat, EV_WIN)
        return True
    return False


# --- the action (decision) ---------------------------------------------------------------------
@njit(cache=True)
def action_legal(s, a: int) -> bool:
    """Whether action ``a`` of the main decision is allowed now: the one place the action
    rules meet (``action_mask`` and ``is_legal`` both ask it)."""
    if a == A_END_TURN:
        return True
    seat = s.seat
    if a >= A_CORRECTION:  # the Architect's Correction
        return can_use_skills(s, seat) and correction_legal(s, seat, a - A_CORRECTION)
    if a >= A_SKILL:  # the character's skills ask their own conditions (l.132, l.351)
        return skill_legal(s, seat, a) or tracking_legal(s, seat, a)
    acts = s.actions_left
    # free, "without using actions" (l.108, l.257): a stunned player too, whom l.349 bars
    # only from "any other actions apart from getting rid of the stun point"
    if a >= A_LIFT_KEY and a < A_SET_TRAP:
        return lift_key_legal(s, seat, a - A_LIFT_KEY)
    if a >= A_TAKE_KEY and a < A_LIFT_KEY:
        return take_key_legal(s, seat, other_seat(s, a - A_TAKE_KEY + 1))
    if s.stun[seat] > 0:  # of the actions, only rest until every stun point is gone
        return a == A_REST and acts >= 1
    if acts <= 0:
        return False
    if a == A_BUILD:
        return any_buildable(s)
    if a < A_JUMP_DOWN:
        return move_legal(s, seat, a - A_MOVE)
    if a <= A_CLIMB_UP:
        return bridge_legal(s, seat, a)
    if a == A_REST:
        return False
    if a < A_KILL:
        return attack_legal(s, seat, other_seat(s, a - A_ATTACK + 1), False)
    if a < A_TAKE_KEY:
        return attack_legal(s, seat, other_seat(s, a - A_KILL + 1), True)
    if a < A_MOVE_GUARD:
        return set_trap_legal(s, a - A_SET_TRAP)
    if a == A_MOVE_GUARD:
        return move_guard_legal(s)
    if a == A_REGENERATE:
        return regenerate_legal(s, seat)
    return False


@njit(cache=True, inline="always")
def action_mask(s, out) -> None:
    """``action_legal`` for every action of the main decision at once (``out`` zeroed), each
    family's mask hoisting its per-action checks out of the loops; a test keeps the two equal."""
    seat = s.seat
    out[A_END_TURN] = 1
    take_key_mask(s, seat, out)
    lift_key_mask(s, seat, out)
    if s.stun[seat] > 0:
        out[A_REST] = 1 if s.actions_left >= 1 else 0
        return
    skill_mask(s, seat, out)
    if s.character[seat] == ARCHITECT and can_use_skills(s, seat):
        correction_mask(s, seat, out)
    tracking_mask(s, seat, out)
    if s.actions_left <= 0:
        return
    attack_mask(s, seat, out)
    out[A_BUILD] = 1 if any_buildable(s) else 0
    move_mask(s, seat, out)
    bridge_mask(s, seat, out)
    set_trap_mask(s, out)
    out[A_MOVE_GUARD] = 1 if move_guard_legal(s) else 0
    out[A_REGENERATE] = 1 if regenerate_legal(s, seat) else 0


@njit(cache=True, inline="always")
def any_action(s) -> bool:
    """Anything to do besides ending the round. Without action points only the free actions
    (taking and lifting keys) can be allowed (see ``action_legal``), so only they are asked:
    the search through every action used to follow each round's last action."""
    lo, hi = (A_TAKE_KEY, A_SET_TRAP) if s.actions_left <= 0 else (0, A_END_TURN)
    for a in range(lo, hi):
        if action_legal(s, a):
            return True
    if s.character[s.seat] < 0 or not can_use_skills(s, s.seat):
        return False
    if any_skill(s, s.seat) or any_tracking(s, s.seat):
        return True
    if s.character[s.seat] == ARCHITECT and s.actions_left > 0:
        for k in range(35):
            if correction_legal(s, s.seat, k):
                return True
    return False


@njit(cache=True, inline="always")
def do_action(s, action: int) -> None:
    """Spend the action's points (2 to come down, climb up and regenerate, none for the
    free ones) and carry it out."""
    seat = s.seat
    if s.char_mode != 0 and not (action >= A_SKILL and action < A_CORRECTION and s.character[seat] == ASSASSIN):
        loop_watch(s, seat, action)  # the Time Loop's state (l.376): his last action
    if action == A_END_TURN:
        s.actions_left = 0
        end_round(s)
        return
    if action >= A_CORRECTION:
        s.actions_left -= 1
        correct(s, seat, action - A_CORRECTION)
        return
    if action >= A_SKILL:
        if tracked_corridor(s, seat, action) >= 0:
            track(s, seat, action)  # no action point
        else:
            use_skill(s, seat, action)
            if s.slave >= 0:  # Enslavement: the round's Guard card is taken for him (l.400)
                move_guard(s)
        return
    if action >= A_TAKE_KEY and action < A_SET_TRAP:  # free
        if action >= A_LIFT_KEY:
            lift_key(s, seat, action - A_LIFT_KEY)
        else:
            take_stunned_key(s, seat, action)
        return
    free = s.char_mode != 0 and A_MOVE <= action < A_JUMP_DOWN and shortcut(s, seat, action - A_MOVE)
    s.actions_left -= 0 if free else (2 if action in (A_COME_DOWN, A_CLIMB_UP, A_REGENERATE) else 1)
    if action == A_BUILD:
        build(s, seat)
    elif action < A_JUMP_DOWN:
        try_move(s, seat, action - A_MOVE)
    elif action == A_JUMP_DOWN:
        begin_jump(s, seat)
    elif action == A_COME_DOWN:
        come_down(s, seat)
    elif action == A_CLIMB_UP:
        climb_up(s, seat)
    elif action == A_REST:
        rest(s, seat)
    elif action < A_KILL:
        attack(s, seat, action)
    elif action < A_TAKE_KEY:
        kill(s, seat, action)
    elif action < A_MOVE_GUARD:
        set_trap(s, seat, action - A_SET_TRAP)
    elif action == A_MOVE_GUARD:
        move_guard(s)
    elif action == A_REGENERATE:
        regenerate(s, seat)


# --- a face-down field entered (the Illusionist's decision) ----------------------------------
@njit(cache=True)
def finish_uncover(s, who: int, action: int) -> None:
    """The field turned face up as the Illusionist decided (l.381); then the piece that
    stepped into it comes in: the player's move, the Guard's step."""
    d = turn_face_up(s, who, action)
    seat = s.rv_seat
    s.rv_seat = 0
    if seat >= 0:
        do_move(s, seat, d)
    else:
        guard_step(s, d)


# --- what resolves by itself -------------------------------------------------------------------
@njit(cache=True, inline="always")
def advance(s) -> None:
    """Resolve everything automatic until a decision is pending or the game is over: a throw
    just made, the start fields still to choose, queued Guard meetings, the Guard's steps,
    the entry into a corridor, the win, the end of the round."""
    while s.outcome == RUNNING and s.decision == D_MAIN:
        if drafting(s):  # the character cards first (set-up step 8, l.74)
            set_decision(s, D_CHARACTER, s.draft_pos)
            return
        if s.ck_kind != CK_NONE:
            settle_throw(s)
            continue
        if s.shot_queue != 0:  # the players the Shot is fired at throw in seat order
            next_shot(s)
            continue
        if s.choose_pos < s.num_players:
            set_decision(s, D_START, s.choose_order[s.choose_pos])
            return
        if s.guard_checks != 0:
            next_guard_meeting(s)
            continue
        if s.slave >= 0:  # the player transformed into the Guard walks (Enslavement)
            if not walk_slave(s):
                return
            continue
        if s.guard_steps > 0:
            if not walk_guard(s):
                return
            continue
        if s.ex_active:
            explore_step(s)
            continue
        if s.rite_node >= 0:  # the Misfortune Rite's throws, and where the Witch sends
            if rite_step(s):
                return
            continue
        if check_win(s):
            return
        if not any_action(s):
            end_round(s)
            continue
        set_decision(s, D_MAIN, s.seat)
        return
