"""The Golem: the Move the Golem activity (a card drawn: steps, idle, back to the central
space), its steps in directions the active player chooses, and the Golem Check of every
character sharing its corridor (which the Scepter of Control may buy off for a Life)."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexboard, pod
from labyrinth_env.core.contract import NO_SEAT, set_decision
from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import roll_2d6, shuffle
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .abilities import golem_bonus
from .facedown import begin_reveal, face_down_ahead
from .life import lose_life, to_start
from .queries import at_start, center_node, event_mod, holds_special, item_sum, key_node
from .tables import (
    A_GOLEM_DIR,
    A_SCEPTER_NO,
    A_SCEPTER_YES,
    CK_GOLEM,
    CK_NONE,
    D_GOLEM_DIR,
    D_SCEPTER,
    EV_GOLEM_CARD,
    EV_GOLEM_CHECK,
    EV_GOLEM_MOVE,
    EV_SCEPTER,
    GOLEM_KIND,
    GOLEM_STEPS,
    GOLEM_TRAIL,
    ITEM_GOLEM,
    MC,
    NEIGHBORS,
    NUM_GOLEM_CARDS,
)


# --- where the Golem may go ----------------------------------------------------------------
@njit(cache=True)
def golem_forbidden(s, node: int) -> bool:
    """l.288: never "back to the corridor, from which the Golem moved during the previous
    player's turn": any corridor of that player's moves, not only the last one; within
    the current move, never straight back to the corridor it just left."""
    if s.golem_from_turn == s.turn and node == s.golem_from:
        return True
    for i in range(s.golem_trail_len):
        if s.golem_trail[i] == node and s.golem_trail_turn[i] == s.turn - 1:
            return True
    return False


@njit(cache=True)
def golem_options(s) -> int:
    """Directions the Golem may step in: along corridors (never a bridge jump), into any
    space, starting spaces too (l.177 binds characters, and the Golem is none, l.491),
    never into a forbidden corridor unless nothing else is open (the dead-end bounce)."""
    node = s.golem_node
    cell = node // MC
    m = 0
    back = 0
    for d in range(6):
        if not (s.node_mask[node] >> d) & 1:
            continue
        if face_down_ahead(s, node, d) >= 0:  # it reveals the face-down tile (l.465)
            m |= 1 << d
            continue
        other = corridor_across(s.node_mask, NEIGHBORS, cell, d, MC)
        if other < 0:  # the tokens on the way do not matter: "The Golem ignores all tokens" (l.287)
            continue
        if golem_forbidden(s, other):
            back |= 1 << d
        else:
            m |= 1 << d
    return m if m != 0 else back


@njit(cache=True)
def remember_left(s, node: int) -> None:
    """The Golem left ``node`` by Move the Golem this turn: keep it, with the previous
    turn's, for the next player (older entries are dropped)."""
    n = 0
    for i in range(s.golem_trail_len):
        if s.golem_trail_turn[i] >= s.turn - 1:
            s.golem_trail[n] = s.golem_trail[i]
            s.golem_trail_turn[n] = s.golem_trail_turn[i]
            n += 1
    if n < GOLEM_TRAIL:
        s.golem_trail[n] = node
        s.golem_trail_turn[n] = s.turn
        n += 1
    s.golem_trail_len = n
    s.golem_from = node
    s.golem_from_turn = s.turn


@njit(cache=True)
def golem_to(s, node: int, moved: bool = True) -> None:
    """The Golem onto ``node`` (``moved``: by Move the Golem, whose corridors the next
    player may not send it back to); everyone there makes a Golem Check."""
    emit(s, EV_GOLEM_MOVE, NO_SEAT, s.golem_node, node)
    if moved:
        remember_left(s, s.golem_node)
    s.golem_node = node
    for p in range(s.num_players):
        if s.position[p] == node:
            s.golem_checks |= np.uint8(1 << p)


@njit(cache=True)
def golem_step(s, d: int) -> None:
    fd = face_down_ahead(s, s.golem_node, d)
    if fd >= 0:  # "revealing it with the Golem" (l.465): the step ends once it is oriented
        begin_reveal(s, -1, fd, d)
        return
    cell = s.golem_node // MC
    other = corridor_across(s.node_mask, NEIGHBORS, cell, d, MC)
    s.golem_steps -= 1
    golem_to(s, other)


@njit(cache=True)
def golem_blocks_start(s) -> bool:
    """On the starting space with the Golem on its key space: the Golem must be moved off."""
    seat = s.seat
    return at_start(s, seat) and s.golem_node == key_node(s.seat_start[seat])


# --- Move the Golem (activity) ---------------------------------------------------------------
@njit(cache=True)
def draw_golem_card(s) -> None:
    if s.golem_pos >= NUM_GOLEM_CARDS:  # the deck is used up: reshuffle the discards
        shuffle(s.rng, s.golem_deck, NUM_GOLEM_CARDS)
        s.golem_pos = 0
    card = s.golem_deck[s.golem_pos]
    s.golem_pos += 1
    kind = GOLEM_KIND[card]
    emit(s, EV_GOLEM_CARD, s.seat, kind, GOLEM_STEPS[card])
    if kind == C.GOLEM_MOVE:
        s.golem_steps = GOLEM_STEPS[card]
    elif kind == C.GOLEM_CENTER and s.golem_node != center_node(s):
        golem_to(s, center_node(s))


@njit(cache=True)
def move_golem_legal(s) -> bool:
    return not s.golem_used


@njit(cache=True)
def move_golem(s) -> None:
    """Once per turn."""
    s.golem_used = 1
    draw_golem_card(s)


# --- the Golem's steps (decision) ------------------------------------------------------------
@njit(cache=True)
def walk_golem(s) -> bool:
    """Take the Golem's next step when it has one way only (or none: the steps are lost);
    False, with the direction decision set, when the active player must choose."""
    d = pod.forced_step(s, golem_options(s), D_GOLEM_DIR)
    if d == pod.NO_WAY:
        s.golem_steps = 0
    elif d != pod.CHOOSE:
        golem_step(s, d)
    return d != pod.CHOOSE


@njit(cache=True)
def golem_dir_mask(s, out) -> None:
    hexboard.mark_directions(out, A_GOLEM_DIR, golem_options(s))


@njit(cache=True)
def steer_golem(s, action: int) -> None:
    golem_step(s, action - A_GOLEM_DIR)


# --- the Golem Check -------------------------------------------------------------------------
@njit(cache=True)
def golem_total(s, seat: int) -> int:
    return roll_2d6(s.rng) + item_sum(s, seat, ITEM_GOLEM) + event_mod(s, C.LONG_GOLEM_MOD) + golem_bonus(s, seat)


@njit(cache=True)
def next_golem_check(s) -> None:
    """The next character queued for a Golem Check, if it still shares the Golem's corridor."""
    for p in range(s.num_players):
        if (s.golem_checks >> p) & 1:
            s.golem_checks &= ~np.uint8(1 << p)
            # on its own starting space a failed check has nowhere to send it (l.296)
            if s.position[p] == s.golem_node and not at_start(s, p):
                begin_golem_check(s, p)
            return


@njit(cache=True)
def begin_golem_check(s, seat: int) -> None:
    # a stunned character uses nothing but Rest (l.210, l.220): not the Scepter either
    if holds_special(s, seat, C.SPECIAL_SCEPTER) >= 0 and s.life[seat] > 0 and s.stun[seat] == 0:
        s.ck_kind = CK_GOLEM
        s.ck_seat = seat
        set_decision(s, D_SCEPTER, seat)
        return
    roll_golem_check(s, seat)


@njit(cache=True)
def roll_golem_check(s, seat: int) -> None:
    """Roll the check (``checks.settle_check`` offers the reroll and applies the outcome)."""
    s.ck_kind = CK_GOLEM
    s.ck_seat = seat
    s.ck_a = golem_total(s, seat)
    emit(s, EV_GOLEM_CHECK, seat, s.ck_a, 1 if s.ck_a >= C.GOLEM_DIFFICULTY else 0)


@njit(cache=True)
def golem_outcome(s, seat: int) -> None:
    if s.ck_a < C.GOLEM_DIFFICULTY:
        to_start(s, seat)


@njit(cache=True)
def scepter_mask(out) -> None:
    out[A_SCEPTER_NO] = 1
    out[A_SCEPTER_YES] = 1


@njit(cache=True)
def use_scepter(s, who: int, action: int) -> None:
    """The Scepter of Control: a Life instead of the Golem Check, or roll after all."""
    if action == A_SCEPTER_YES:
        emit(s, EV_SCEPTER, who)
        s.ck_kind = CK_NONE  # no check: the Life is paid instead
        lose_life(s, who, 1)
    else:
        roll_golem_check(s, who)
