"""The turn: two actions spent on activities (the activity decision: each activity's
legality, mask and effect live with its family, gathered here), the win, the turn passing
on, and ``advance``, which resolves everything automatic until a decision is pending."""

from __future__ import annotations

from labyrinth_env.core.contract import RUNNING, declare_winner, next_turn, set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import any_buildable, occupants
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import keys_held
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .abilities import (
    lay_token,
    lay_token_legal,
    rebuild,
    rebuild_mask,
    rebuild_target,
    rebuild_usable,
    shapeshift,
    shapeshift_legal,
    shapeshift_mask,
)
from .building import build
from .checks import activate_crystal, activate_legal, settle_check
from .combat import attack, attack_legal, attack_mask
from .events import event_legal, trigger_event
from .exploring import explore_step
from .facedown import (
    begin_reveal,
    face_down_ahead,
    illusion_legal,
    illusion_mask,
    illusion_usable,
    lay_face_down,
    orient,
)
from .golem import golem_blocks_start, golem_step, move_golem, move_golem_legal, next_golem_check, walk_golem
from .items import pick_up_legal
from .life import begin_death, potion_legal, rest, use_potion
from .moving import begin_jump, jump_legal, jump_mask, move, move_mask, push_exploration
from .queries import at_start, center_node, move_target
from .tables import (
    A_ACTIVATE_CRYSTAL,
    A_ATTACK,
    A_BUILD,
    A_END_TURN,
    A_EVENT,
    A_FACE_DOWN,
    A_LAY_TOKEN,
    A_MOVE,
    A_MOVE_GOLEM,
    A_MOVE_TILE,
    A_PICK_UP,
    A_REBUILD,
    A_REST,
    A_RISKY_JUMP,
    A_SAFE_JUMP,
    A_SET_TRAP,
    A_SHAPESHIFT,
    A_USE_POTION,
    CK_NONE,
    D_DROP_ITEM,
    D_LIFE_OR_STUN,
    D_MAIN,
    EV_START_TURN,
    EV_TRUNCATED,
    EV_WIN,
    NUM_BOARD,
    NUM_CHARACTERS,
)
from .traps import lay_trap, set_trap_legal, set_trap_mask


# --- the turn passing on, and the win ------------------------------------------------------
@njit(cache=True)
def start_turn(s) -> None:
    s.actions_left = C.ACTIONS_PER_TURN
    s.golem_used = 0
    s.event_used = 0
    s.exchanged = 0
    s.declined = 0
    emit(s, EV_START_TURN, s.seat, s.turn)


@njit(cache=True)
def end_turn(s) -> None:
    if next_turn(s, EV_TRUNCATED):
        start_turn(s)


@njit(cache=True)
def check_win(s) -> bool:
    """At least one key and the only character on the central space, in one's own turn."""
    seat = s.seat
    c = center_node(s)
    if s.position[seat] == c and keys_held(s, seat) > 0 and occupants(s, c, seat) == 0:
        declare_winner(s, seat, EV_WIN)
        return True
    return False


# --- the activity (decision) -----------------------------------------------------------------
@njit(cache=True)
def must_act(s) -> bool:
    """Must is must: a stunned player "must keep performing [Rest] until he discards all
    stun tokens" (l.220), and one on his starting space with the Golem on his key space
    "must keep moving the Golem until the Golem leaves" (l.174): while actions remain,
    ending the turn is no way around either."""
    if s.actions_left <= 0:
        return False
    seat = s.seat
    return s.stun[seat] > 0 or (at_start(s, seat) and golem_blocks_start(s))


@njit(cache=True)
def activity_legal(s, a: int) -> bool:
    """Whether activity action ``a`` is allowed now: the one place the activity rules
    meet (``activity_mask`` and ``is_legal`` both ask it)."""
    if a == A_END_TURN:
        return not must_act(s)
    seat = s.seat
    if s.actions_left <= 0:
        return False
    if s.stun[seat] > 0:  # only Rest until every stun token is gone
        return a == A_REST
    if at_start(s, seat):
        if golem_blocks_start(s):
            return a == A_MOVE_GOLEM
        # the first activity: onto the key space
        return A_MOVE <= a < A_RISKY_JUMP and move_target(s, seat, a - A_MOVE) >= 0
    if a < A_MOVE_GOLEM:
        return corridor_activity_legal(s, seat, a)
    return other_activity_legal(s, seat, a)


@njit(cache=True)
def corridor_activity_legal(s, seat: int, a: int) -> bool:
    """``activity_legal`` of the activities on and from the seat's corridor: Build, Move,
    the jumps, Rest (only for the stunned, asked before), Attack, Set a Trap."""
    if a == A_BUILD:
        return any_buildable(s)
    if a < A_RISKY_JUMP:
        return move_target(s, seat, a - A_MOVE) >= 0 or face_down_ahead(s, s.position[seat], a - A_MOVE) >= 0
    if a in (A_RISKY_JUMP, A_SAFE_JUMP):
        return jump_legal(s, seat, a == A_RISKY_JUMP)
    if a == A_REST:
        return False
    if a < A_SET_TRAP:
        return attack_legal(s, seat, a - A_ATTACK + 1)
    return set_trap_legal(s, a - A_SET_TRAP)


@njit(cache=True)
def other_activity_legal(s, seat: int, a: int) -> bool:
    """``activity_legal`` of the rest: the Golem, the event, the crystal, the potion, the
    tokens and the characters' abilities."""
    if a == A_MOVE_GOLEM:
        return move_golem_legal(s)
    if a == A_EVENT:
        return event_legal(s)
    if a == A_ACTIVATE_CRYSTAL:
        return activate_legal(s, seat)
    if a == A_USE_POTION:
        return potion_legal(s, seat)
    if a == A_PICK_UP:
        return pick_up_legal(s, seat)
    if a == A_LAY_TOKEN:
        return lay_token_legal(s, seat)
    if A_REBUILD <= a < A_SHAPESHIFT:
        return rebuild_usable(s, seat) and rebuild_target(s, (a - A_REBUILD) % NUM_BOARD)
    if A_SHAPESHIFT <= a < A_SHAPESHIFT + NUM_CHARACTERS:
        return shapeshift_legal(s, seat, a - A_SHAPESHIFT)
    if A_FACE_DOWN <= a < A_FACE_DOWN + NUM_BOARD:
        return illusion_legal(s, seat, a - A_FACE_DOWN)
    return False


@njit(cache=True, inline="always")
def activity_mask(s, out) -> None:
    """``activity_legal`` for every activity at once (``out`` zeroed), each family's mask
    hoisting its per-action checks out of the loops: asking ``activity_legal`` for each of
    the 111 trap corridors costs more than the rest of a step. A test keeps the two equal."""
    out[A_END_TURN] = 0 if must_act(s) else 1
    seat = s.seat
    if s.actions_left <= 0:
        return
    if s.stun[seat] > 0:
        out[A_REST] = 1
        return
    if at_start(s, seat):
        if golem_blocks_start(s):
            out[A_MOVE_GOLEM] = 1
            return
        move_mask(s, seat, out)
        return
    out[A_BUILD] = 1 if any_buildable(s) else 0
    move_mask(s, seat, out)
    for d in range(6):  # a Move into a face-down tile reveals it (l.465)
        if face_down_ahead(s, s.position[seat], d) >= 0:
            out[A_MOVE + d] = 1
    jump_mask(s, seat, out)
    attack_mask(s, seat, out)
    set_trap_mask(s, out)
    out[A_MOVE_GOLEM] = 1 if move_golem_legal(s) else 0
    out[A_EVENT] = 1 if event_legal(s) else 0
    out[A_ACTIVATE_CRYSTAL] = 1 if activate_legal(s, seat) else 0
    out[A_USE_POTION] = 1 if potion_legal(s, seat) else 0
    out[A_PICK_UP] = 1 if pick_up_legal(s, seat) else 0
    out[A_LAY_TOKEN] = 1 if lay_token_legal(s, seat) else 0
    rebuild_mask(s, seat, out)
    shapeshift_mask(s, seat, out)
    illusion_mask(s, seat, out)


@njit(cache=True, inline="always")
def any_activity(s) -> bool:
    """Anything to do besides ending the turn (usually found within the first actions)."""
    for a in range(A_END_TURN):
        if activity_legal(s, a):
            return True
    if activity_legal(s, A_LAY_TOKEN):
        return True
    if rebuild_usable(s, s.seat):
        for cell in range(NUM_BOARD):
            if activity_legal(s, A_REBUILD + cell):
                return True
    for c in range(NUM_CHARACTERS):
        if activity_legal(s, A_SHAPESHIFT + c):
            return True
    if illusion_usable(s, s.seat):
        for cell in range(NUM_BOARD):
            if activity_legal(s, A_FACE_DOWN + cell):
                return True
    return False


@njit(cache=True, inline="always")
def do_activity(s, action: int) -> None:
    """Spend the activity's actions (2 for a safe jump and for activating the Crystal, none
    for picking up) and carry it out."""
    seat = s.seat
    if action == A_END_TURN:
        s.actions_left = 0
        end_turn(s)
        return
    if action == A_PICK_UP:  # free: the pick-up decision of exploring's step 5, on the spot
        node = s.position[seat]
        push_exploration(s, seat, node, True, False, node)
        s.ex_step[s.depth - 1] = 5
        return
    s.actions_left -= 2 if action in (A_SAFE_JUMP, A_ACTIVATE_CRYSTAL) else 1
    if action == A_BUILD:
        build(s, seat)
    elif action < A_RISKY_JUMP:
        fd = face_down_ahead(s, s.position[seat], action - A_MOVE)
        if fd >= 0:  # the move ends once the tile is oriented (``finish_reveal``)
            begin_reveal(s, seat, fd, action - A_MOVE)
        else:
            move(s, seat, action - A_MOVE)
    elif action in (A_RISKY_JUMP, A_SAFE_JUMP):
        begin_jump(s, seat, action == A_RISKY_JUMP)
    elif action == A_REST:
        rest(s, seat)
    elif action < A_SET_TRAP:
        attack(s, seat, action)
    elif action < A_MOVE_GOLEM:
        lay_trap(s, seat, action - A_SET_TRAP)
    elif action == A_MOVE_GOLEM:
        move_golem(s)
    elif action == A_EVENT:
        trigger_event(s)
    elif action == A_ACTIVATE_CRYSTAL:
        activate_crystal(s, seat)
    elif action == A_USE_POTION:
        use_potion(s, seat)
    elif action == A_LAY_TOKEN:
        lay_token(s, seat)
    elif A_REBUILD <= action < A_SHAPESHIFT:
        rebuild(s, seat, (action - A_REBUILD) % NUM_BOARD, action >= A_MOVE_TILE)
    elif A_SHAPESHIFT <= action < A_SHAPESHIFT + NUM_CHARACTERS:
        shapeshift(s, seat, action - A_SHAPESHIFT)
    elif A_FACE_DOWN <= action < A_FACE_DOWN + NUM_BOARD:
        lay_face_down(s, seat, action - A_FACE_DOWN)


@njit(cache=True, inline="always")
def finish_reveal(s, who: int, action: int) -> None:
    """The revealed tile turned as ``who`` decided; then the marker that entered it lands on
    it: the character explores it (its Move), the Golem takes the step."""
    d = orient(s, who, action)
    seat = s.rv_seat
    s.rv_seat = 0
    if seat >= 0:
        move(s, seat, d)
    else:
        golem_step(s, d)


# --- what resolves by itself -----------------------------------------------------------------
@njit(cache=True, inline="always")
def advance(s) -> None:
    """Resolve everything automatic until a decision is pending or the game is over: a
    check just rolled, deaths, the choices of a trap, queued Golem Checks, the Golem's
    steps, the explorations, the win, the end of the turn."""
    while s.outcome == RUNNING and s.decision == D_MAIN:
        if s.ck_kind != CK_NONE:
            settle_check(s)
            continue
        if s.dying != 0:
            for p in range(s.num_players):
                if (s.dying >> p) & 1:
                    if begin_death(s, p):
                        set_decision(s, D_DROP_ITEM, p)
                        return
                    break
            continue
        if s.choices_left > 0:
            set_decision(s, D_LIFE_OR_STUN, s.ck_seat)
            return
        if s.golem_checks != 0:
            next_golem_check(s)
            continue
        if s.golem_steps > 0:
            if not walk_golem(s):
                return
            continue
        if s.depth > 0:
            explore_step(s)
            continue
        if check_win(s):
            return
        if s.actions_left <= 0 or not any_activity(s):
            end_turn(s)
            if s.outcome != RUNNING:
                return
            continue
        set_decision(s, D_MAIN, s.seat)
        return
