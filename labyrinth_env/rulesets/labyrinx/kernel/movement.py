"""Moving characters: going into a location (a face-down card is flipped, an empty space
gets the top card, either then turned), doors, arriving (the race's end, a challenge); and
the decisions that move a character other than by walking: where to push (D_PUSH_TO), the
loser's movement after a failed monster (D_MONSTER) or trap (D_TRAP), and stopping it."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.grid import opposite
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinx import components as C

from .board import can_enter, card_icon, door_sides, find_link, link, loc_of, nb
from .cards import ask_rotation, draw_top, lay_card
from .challenges import begin_challenge, offer_chest
from .ending import win
from .tables import (
    A_CELL,
    A_DIR,
    A_STOP,
    CARD_KIND,
    EV_DRAWN_PLACED,
    EV_FLIP,
    EV_LOST_MOVE,
    EV_MOVE,
    EV_STOP,
    HOW_MONSTER,
    HOW_MOVE,
    HOW_PUSH,
    HOW_TRAP,
    MV_NONE,
    NO_CELL,
    NO_SIDE,
    NUM_LINKS,
    T_FREE,
    T_PILE,
    WIN_RACE,
)


@njit(cache=True)
def arrive(s, p: int, t: int, how: int) -> None:
    """Character ``p`` comes into ``t``: the race may end, a challenge may start."""
    frm = s.pos[p]
    s.pos[p] = loc_of(s, t)
    emit(s, EV_MOVE, p, frm, s.pos[p], how)
    if s.race:
        # "The first one to move to the exit space" (l.58): a racer's own Move action (l.34),
        # not a push or anything else another player does to it
        if s.racer[p] and s.pos[p] == s.exit0 and how == HOW_MOVE:
            win(s, p, WIN_RACE)
        return  # challenge icons are ignored in the race
    icon = card_icon(s, t)
    if icon < 0 or s.cell_beaten[t] or s.cell_type[t] != T_FREE:
        return
    s.mv_kind = MV_NONE  # a new challenge interrupts any movement
    if icon == C.CHEST and s.cell_gold[t]:
        offer_chest(s, p, t)
    else:
        begin_challenge(s, p, t)


@njit(cache=True)
def door_paid(s, p: int, origin: int, d: int, t: int, how: int) -> bool:
    """A door between the two locations costs an extra action (a step for a monster's
    movement); without one the movement is lost."""
    if how == HOW_TRAP or (s.unlocked and how in (HOW_MOVE, HOW_PUSH)):
        return True  # a trap ignores the movement restrictions; the Locksmith's unlocked turn
    door = ((door_sides(s, origin) >> d) & 1) | ((door_sides(s, t) >> opposite(d, 4)) & 1)
    if not door:
        return True
    if how == HOW_MONSTER:
        if s.mv_steps >= 1:
            s.mv_steps -= 1
            return True
        return False
    if s.actions_left >= 1:
        s.actions_left -= 1
        return True
    return False


@njit(cache=True)
def passage(s, p: int, origin: int, d: int, t: int, how: int) -> None:
    """``p`` goes through side ``d`` of ``origin`` into ``t``, whose card (if any) is face up
    and turned: the door is paid, or the movement is lost."""
    if not door_paid(s, p, origin, d, t, how):
        emit(s, EV_LOST_MOVE, p, s.pos[p], t)
        if how == HOW_MONSTER:
            s.mv_kind = MV_NONE
        return
    if how == HOW_MONSTER and s.mv_steps <= 0:
        s.mv_kind = MV_NONE
    arrive(s, p, t, how)


@njit(cache=True)
def go(s, p: int, origin: int, d: int, t: int, how: int, decider: int) -> None:
    """Character ``p`` goes into ``t`` through side ``d`` of ``origin`` (d = NO_SIDE: a trap's
    landing, no side). A face-down card is flipped, an empty space gets the top card of the
    draw deck face up; either is then rotated by ``decider`` before ``p`` comes in."""
    if s.cell_type[t] == T_FREE:
        card = s.cell_card[t]
        if card < 0:
            card = draw_top(s)
            lay_card(s, t, card, True)
            emit(s, EV_DRAWN_PLACED, decider, t, CARD_KIND[card])
            ask_rotation(s, how, t, origin, d, p, decider)
            return
        if not s.cell_up[t]:
            s.cell_up[t] = 1
            s.cell_rot[t] = -1
            emit(s, EV_FLIP, decider, t, CARD_KIND[card])
            ask_rotation(s, how, t, origin, d, p, decider)
            return
    passage(s, p, origin, d, t, how)


@njit(cache=True, inline="always")
def go_to(s, p: int, t: int, how: int, decider: int) -> None:
    """``p`` goes from its location into the neighbouring ``t`` (by the way that leads there)."""
    od = find_link(s, s.pos[p], t)
    go(s, p, od // 4, od % 4, t, how, decider)


@njit(cache=True, inline="always")
def ways_out_mask(s, out, loc: int) -> None:
    """Every location (or empty space a card can be drawn for) a character in ``loc`` can
    be moved to, as ``A_CELL + cell``."""
    for k in range(NUM_LINKS):
        _, d, t = link(s, loc, k)
        if t >= 0 and can_enter(s, t, d, True):
            out[A_CELL + t] = 1


@njit(cache=True)
def stop_moving(s, who: int) -> None:
    """The mover leaves the loser where it stands: "may move your character a number of
    spaces equal to the difficulty" (l.49) is the whole movement or none of it."""
    emit(s, EV_STOP, who, s.mv_seat, s.mv_steps)
    s.mv_kind = MV_NONE


# --- push: who can be pushed, and the decision where to (D_PUSH_TO) -------------------------------
@njit(cache=True)
def push_target_ok(s, p: int) -> bool:
    return s.pos[p] == s.pos[s.seat]


@njit(cache=True)
def push_mask(s, out) -> None:
    ways_out_mask(s, out, s.pos[s.seat])


@njit(cache=True, inline="always")
def apply_push(s, who: int, action: int) -> None:
    t = action - A_CELL
    od = find_link(s, s.pos[who], t)  # the pusher's location: the pushed character stands there too
    go(s, s.sel_target, od // 4, od % 4, t, HOW_PUSH, who)


# --- the loser of a monster, moved a space at a time (D_MONSTER) ----------------------------------
@njit(cache=True)
def monster_options(s) -> bool:
    """Is there a space to move the loser to (otherwise its movement ends)?"""
    loc = s.pos[s.mv_seat]
    for k in range(NUM_LINKS):
        _, d, t = link(s, loc, k)
        if t >= 0 and can_enter(s, t, d, True):
            return True
    return False


@njit(cache=True)
def monster_mask(s, out) -> None:
    ways_out_mask(s, out, s.pos[s.mv_seat])
    if not s.mv_begun:  # not moving at all is the only way not to move the full difficulty
        out[A_STOP] = 1


@njit(cache=True, inline="always")
def apply_monster(s, who: int, action: int) -> None:
    if action == A_STOP:
        stop_moving(s, who)
        return
    s.mv_begun = 1
    s.mv_steps -= 1
    go_to(s, s.mv_seat, action - A_CELL, HOW_MONSTER, who)


# --- the loser of a trap, moved in a straight line (D_TRAP) ---------------------------------------
@njit(cache=True)
def trap_landing(s, p: int, d: int) -> int:
    """Where ``p`` lands moved ``mv_steps`` spaces in a straight line along ``d`` (-1: not allowed)."""
    cell = s.pos[p]
    for _ in range(s.mv_steps):
        cell = nb(s, cell, d)
    ty = s.cell_type[cell]
    if ty == T_PILE or loc_of(s, cell) == s.pos[p]:
        return -1
    if ty == T_FREE and s.cell_card[cell] < 0 and s.deck_len == 0:
        return -1
    return cell


@njit(cache=True)
def trap_options(s) -> bool:
    """Is there a straight line to move the loser along (otherwise its movement ends)?"""
    for d in range(4):
        if trap_landing(s, s.mv_seat, d) >= 0:
            return True
    return False


@njit(cache=True)
def trap_mask(s, out) -> None:
    for d in range(4):
        if trap_landing(s, s.mv_seat, d) >= 0:
            out[A_DIR + d] = 1
    out[A_STOP] = 1


@njit(cache=True, inline="always")
def apply_trap(s, who: int, action: int) -> None:
    if action == A_STOP:
        stop_moving(s, who)
        return
    s.mv_kind = MV_NONE
    go(s, s.mv_seat, NO_CELL, NO_SIDE, trap_landing(s, s.mv_seat, action - A_DIR), HOW_TRAP, who)
