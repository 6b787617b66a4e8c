"""The Guard: the Move the Guard action (a card drawn: steps, back to the central field,
asleep; a sleeping Guard is only woken), its steps in directions the active player
chooses, and the meeting with every player in its corridor (12 on 2d6 to stay; a stunned
player goes home at once)."""

from __future__ import annotations

from labyrinth_env.core import hexboard, pod
from labyrinth_env.core.contract import NO_SEAT
from labyrinth_env.core.corridors import corridor_across
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import face_down_ahead, occupants
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import roll_2d6, shuffle
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .enslavement import slave_card, slave_dir_mask, slave_step
from .illusion import begin_uncover
from .life import go_home
from .queries import guard_ways
from .skills import guard_needed, throw_modifier
from .tables import (
    A_GUARD_DIR,
    CENTER_NODE,
    CK_GUARD,
    D_GUARD_DIR,
    EV_GUARD_CARD,
    EV_GUARD_MEETING,
    EV_GUARD_MOVE,
    EV_GUARD_SLEEP,
    GUARD_FALLS_ASLEEP,
    GUARD_KIND,
    GUARD_STEPS,
    GUARD_WAKES,
    MC,
    NEIGHBORS,
    NO_THROW,
    NUM_GUARD_CARDS,
)


@njit(cache=True)
def on_field(s, node: int) -> int:
    """The seats (a bit set) standing on any corridor of ``node``'s board field."""
    cell = node // MC
    m = 0
    for p in range(s.num_players):
        if s.position[p] >= 0 and s.position[p] // MC == cell:
            m |= 1 << p
    return m


# --- where the Guard may go --------------------------------------------------------------------
@njit(cache=True)
def guard_options(s) -> int:
    """Directions the Guard may step in: along corridors (never over a bridge), never onto a
    start field, never back into the corridor it came from in the previous player's round
    or earlier in this move, unless that is the only way (the end of a corridor); into the
    Illusionist's covered fields too (l.381)."""
    forbidden = s.guard_from if s.guard_from_turn >= s.turn - 1 else -1
    return guard_ways(s, s.guard_node, forbidden, True)


@njit(cache=True)
def guard_to(s, node: int) -> None:
    emit(s, EV_GUARD_MOVE, NO_SEAT, s.guard_node, node)
    s.guard_from = s.guard_node
    s.guard_from_turn = s.turn
    s.guard_node = node
    s.guard_checks |= occupants(s, node, -1) & ~s.guard_ignore


@njit(cache=True)
def guard_step(s, d: int) -> None:
    cell = face_down_ahead(s, s.guard_node, d)
    if cell >= 0:  # "If the Guard enters the covered board field, you have to uncover it" (l.381)
        begin_uncover(s, NO_SEAT, cell, d)
        return
    other = corridor_across(s.node_mask, NEIGHBORS, s.guard_node // MC, d, MC)
    s.guard_steps -= 1
    guard_to(s, other)


# --- Move the Guard (action) -------------------------------------------------------------------
@njit(cache=True)
def move_guard_legal(s) -> bool:
    return not s.guard_used


@njit(cache=True)
def move_guard(s) -> None:
    """Once per round: draw the top Guard card and follow it. A sleeping Guard is only woken
    by it and meets whoever stands on its board field, in any corridor: "When the Guard
    wakes up and there is a player standing in his field – they meet each other" (l.337);
    an awake one ignores the players already standing in its corridor (l.330)."""
    s.guard_used = 1
    if s.guard_pos >= NUM_GUARD_CARDS:  # all used: shuffle them again
        shuffle(s.rng, s.guard_deck, NUM_GUARD_CARDS)
        s.guard_pos = 0
    card = s.guard_deck[s.guard_pos]
    s.guard_pos += 1
    kind = GUARD_KIND[card]
    emit(s, EV_GUARD_CARD, s.seat, kind, GUARD_STEPS[card])
    if s.slave >= 0:  # Enslavement: the card is the transformed player's, not the Guard's (l.400)
        slave_card(s, kind, GUARD_STEPS[card])
        return
    if s.guard_asleep:
        s.guard_asleep = 0
        emit(s, EV_GUARD_SLEEP, NO_SEAT, GUARD_WAKES)
        s.guard_checks |= on_field(s, s.guard_node)
        return
    s.guard_ignore = occupants(s, s.guard_node, -1)
    if kind == C.GUARD_MOVE:
        s.guard_steps = GUARD_STEPS[card]
    elif kind == C.GUARD_SUN:
        if s.guard_node != CENTER_NODE:
            guard_to(s, CENTER_NODE)
    elif kind == C.GUARD_MOON:
        s.guard_asleep = 1
        emit(s, EV_GUARD_SLEEP, NO_SEAT, GUARD_FALLS_ASLEEP)


# --- the Guard's steps (decision) --------------------------------------------------------------
@njit(cache=True)
def walk_guard(s) -> bool:
    """Take the Guard's next step when it has one way only (or none: the steps are lost);
    False, with the direction decision set, when the active player must choose."""
    d = pod.forced_step(s, guard_options(s), D_GUARD_DIR)
    if d == pod.NO_WAY:
        s.guard_steps = 0
    elif d != pod.CHOOSE:
        guard_step(s, d)
    return d != pod.CHOOSE


@njit(cache=True)
def guard_dir_mask(s, out) -> None:
    if s.slave >= 0:  # the transformed player's steps (Enslavement)
        slave_dir_mask(s, out)
        return
    hexboard.mark_directions(out, A_GUARD_DIR, guard_options(s))


@njit(cache=True)
def steer_guard(s, action: int) -> None:
    if s.slave >= 0:
        slave_step(s, action - A_GUARD_DIR)
        return
    guard_step(s, action - A_GUARD_DIR)


# --- meeting the Guard -----------------------------------------------------------------------
@njit(cache=True)
def next_guard_meeting(s) -> None:
    """The next player queued to meet the Guard, if it still stands on the awake Guard's
    field (queued from the corridor the Guard entered, or from the field it woke on; nobody
    moves while meetings are pending, but a meeting may send one home)."""
    for p in range(s.num_players):
        if (s.guard_checks >> p) & 1:
            s.guard_checks &= ~(1 << p)
            if s.position[p] >= 0 and s.position[p] // MC == s.guard_node // MC and not s.guard_asleep:
                begin_guard(s, p)
            return


@njit(cache=True)
def begin_guard(s, seat: int) -> None:
    """A player meets the awake Guard: a stunned one goes home at once, the others throw
    (``throws.settle_throw`` offers the repeat and applies the outcome)."""
    if s.stun[seat] > 0:
        emit(s, EV_GUARD_MEETING, seat, NO_THROW, 0)
        go_home(s, seat)
        return
    throw_against_guard(s, seat)


@njit(cache=True)
def throw_against_guard(s, seat: int) -> None:
    s.ck_kind = CK_GUARD
    s.ck_seat = seat
    s.ck_a = roll_2d6(s.rng) + throw_modifier(s, seat)
    emit(s, EV_GUARD_MEETING, seat, s.ck_a, 1 if s.ck_a >= guard_needed(s, seat) else 0)


@njit(cache=True)
def guard_outcome(s, seat: int) -> None:
    if s.ck_a < guard_needed(s, seat):
        go_home(s, seat)  # keys are kept
