"""Events: the Trigger an Event activity (the top card: a one-time effect, then a lasting
one until the next event replaces it; Annihilation, last, stays to the end) and the active
player's choice of the character a one-time effect strikes."""

from __future__ import annotations

from labyrinth_env.core import pod
from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .golem import golem_to
from .life import add_stun, gain_life, lose_life, to_start
from .queries import at_start, center_node, max_life
from .tables import (
    A_EVENT_TARGET,
    D_EVENT_TARGET,
    EV_CRYSTAL,
    EV_EVENT,
    EV_LIFE,
    EVENT_LONG,
    EVENT_ONCE,
    EVENT_ONCE_PARAM,
    NUM_EVENTS,
)


# --- Trigger an Event (activity) -------------------------------------------------------------
@njit(cache=True)
def event_legal(s) -> bool:
    """Once per turn, while cards are left (none after Annihilation)."""
    return not s.event_used and s.event_pos < NUM_EVENTS


@njit(cache=True)
def trigger_event(s) -> None:
    s.event_used = 1
    e = s.event_deck[s.event_pos]
    s.event_pos += 1
    s.current_event = e
    emit(s, EV_EVENT, s.seat, e)
    if EVENT_LONG[e] == C.LONG_MAX_LIFE:
        for p in range(s.num_players):
            if s.life[p] > max_life(s):
                emit(s, EV_LIFE, p, max_life(s) - s.life[p], max_life(s))
                s.life[p] = max_life(s)
    once = EVENT_ONCE[e]
    n = EVENT_ONCE_PARAM[e]
    if (
        once == C.ONCE_CHOOSE_LOSE_LIFE
        or once == C.ONCE_CHOOSE_CRYSTAL_INACTIVE
        or once == C.ONCE_CHOOSE_STUN
        or once == C.ONCE_CHOOSE_TO_START
    ):
        set_decision(s, D_EVENT_TARGET, s.seat)
    elif once == C.ONCE_ALL_LOSE_LIFE:
        for p in range(s.num_players):
            lose_life(s, p, n)
    elif once == C.ONCE_ALL_GAIN_LIFE:
        for p in range(s.num_players):
            gain_life(s, p, n)
    elif once == C.ONCE_GOLEM_TO_CENTER:
        if s.golem_node != center_node(s):
            golem_to(s, center_node(s), False)  # not Move the Golem: no restriction follows
    elif once == C.ONCE_ACTIVE_GAIN_LIFE:
        gain_life(s, s.seat, n)


# --- the event's target (decision) -----------------------------------------------------------
@njit(cache=True)
def event_target_mask(s, out) -> None:
    """Any character, the active player's own included (offset 0)."""
    for off in range(s.num_players):
        out[A_EVENT_TARGET + off] = 1


@njit(cache=True)
def strike_target(s, who: int, action: int) -> None:
    """The one-time effect of the current event strikes the chosen character."""
    target = (who + action - A_EVENT_TARGET) % s.num_players
    e = s.current_event
    once = EVENT_ONCE[e]
    n = EVENT_ONCE_PARAM[e]
    if once == C.ONCE_CHOOSE_LOSE_LIFE:
        lose_life(s, target, n)
    elif once == C.ONCE_CHOOSE_CRYSTAL_INACTIVE:
        pod.turn_crystal(s, target, 0, EV_CRYSTAL)
    elif once == C.ONCE_CHOOSE_STUN:
        add_stun(s, target, n)
    elif not at_start(s, target):
        to_start(s, target)
