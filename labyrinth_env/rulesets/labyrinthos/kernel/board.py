"""The hero boards and the task stack: what every decision family reads and changes.

A hero board holds the action slots (each can carry a key token and a wound), the
player's Feet and Hand action tokens and, beside it, the hand of Desperation cards. The
task stack holds what must be resolved before the turn goes on (``turn.run_task``).
"""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C

from .tables import EV_TOKENS, KEY_TOKEN_ACTION, KEY_TOKEN_COLOUR, MAX_TASKS, NUM_CARD_TYPES, NUM_SLOTS, SLOT_COST


# --- small queries ------------------------------------------------------------------------------
@njit(cache=True)
def first_round(s) -> bool:
    return s.turn < s.num_players


@njit(cache=True)
def keys_held(s, p: int) -> int:
    n = 0
    for i in range(NUM_SLOTS):
        if s.slot_key[p, i] >= 0:
            n += 1
    return n


@njit(cache=True)
def holds_colour(s, p: int, colour: int) -> bool:
    for i in range(NUM_SLOTS):
        k = s.slot_key[p, i]
        if k >= 0 and KEY_TOKEN_COLOUR[k] == colour:
            return True
    return False


@njit(cache=True)
def wounds(s, p: int) -> int:
    n = 0
    for i in range(NUM_SLOTS):
        n += s.slot_wound[p, i]
    return n


@njit(cache=True)
def hand_size(s, p: int) -> int:
    n = 0
    for t in range(NUM_CARD_TYPES):
        n += s.hand[p, t]
    return n


@njit(cache=True)
def hand_limit(s, p: int) -> int:
    return max(0, C.HAND_LIMIT - keys_held(s, p))


@njit(cache=True)
def slot_usable(s, p: int, slot: int) -> bool:
    """The board action printed on ``slot`` can be used: neither wounded nor covered by a key."""
    return s.slot_wound[p, slot] == 0 and s.slot_key[p, slot] < 0


@njit(cache=True)
def special_usable(s, p: int, hero: int) -> bool:
    return s.hero[p] == hero and slot_usable(s, p, C.S_SPECIAL)


@njit(cache=True)
def key_action_slot(s, p: int, action: int) -> int:
    """A slot holding an unwounded key token with that action (-1: none)."""
    for i in range(NUM_SLOTS):
        k = s.slot_key[p, i]
        if k >= 0 and KEY_TOKEN_ACTION[k] == action and s.slot_wound[p, i] == 0:
            return i
    return -1


@njit(cache=True)
def woundable(s, p: int, slot: int) -> bool:
    """Wounds go on actions only: never twice on one, and on the empty key slot only under a key."""
    if s.slot_wound[p, slot]:
        return False
    return slot != C.S_KEY or s.slot_key[p, slot] >= 0


@njit(cache=True)
def any_woundable(s, p: int) -> bool:
    for i in range(NUM_SLOTS):
        if woundable(s, p, i):
            return True
    return False


# --- action tokens ------------------------------------------------------------------------------
@njit(cache=True)
def can_pay(s, p: int, feet: int, hands: int) -> bool:
    return s.feet[p] >= feet and s.hands[p] >= hands


@njit(cache=True)
def slot_action_ok(s, p: int, slot: int) -> bool:
    """The board action on ``slot`` can be used and paid for."""
    return slot_usable(s, p, slot) and can_pay(s, p, SLOT_COST[slot, 0], SLOT_COST[slot, 1])


@njit(cache=True)
def pay(s, p: int, feet: int, hands: int) -> None:
    s.feet[p] -= feet
    s.hands[p] -= hands
    s.feet_supply += feet
    s.hand_supply += hands


@njit(cache=True)
def gain_tokens(s, p: int, feet: int, hands: int) -> None:
    f = min(feet, s.feet_supply)
    h = min(hands, s.hand_supply)
    s.feet[p] += f
    s.hands[p] += h
    s.feet_supply -= f
    s.hand_supply -= h
    emit(s, EV_TOKENS, p, f, h)


# --- the task stack ------------------------------------------------------------------------------
@njit(cache=True)
def push(s, kind: int, seat: int, a: int = 0, b: int = 0) -> None:
    n = s.num_tasks
    if n >= MAX_TASKS:
        s.task_overflow = 1
        return
    s.task_kind[n] = kind
    s.task_seat[n] = seat
    s.task_a[n] = a
    s.task_b[n] = b
    s.num_tasks = n + 1


@njit(cache=True)
def pop(s) -> None:
    s.num_tasks -= 1
