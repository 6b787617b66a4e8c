"""Life, stun and death: losing and gaining Life (the Heart of the Abyss, the lasting
event's cap), stun tokens and Rest, the Healing Potion, death (a key or an item dropped,
back to the starting space) with the dying character's choice of item, and the choice
between Life and stun that Poisoned Spears and the like give per failed roll."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import pod
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import start_node
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .items import drop_item, return_item, take_from_slot
from .queries import holds_special, max_life
from .tables import (
    A_DROP_ITEM,
    A_LOSE_LIFE,
    A_TAKE_STUN,
    EV_DEATH,
    EV_DROP,
    EV_HEART,
    EV_LIFE,
    EV_POTION,
    EV_REST,
    EV_STUN,
    EV_TO_START,
    NUM_KEYS,
    TOKEN_KEY,
)


# --- Life and stun -------------------------------------------------------------------------
@njit(cache=True)
def gain_life(s, seat: int, n: int) -> None:
    before = s.life[seat]
    s.life[seat] = min(max_life(s), before + n)
    if s.life[seat] != before:
        emit(s, EV_LIFE, seat, s.life[seat] - before, s.life[seat])


@njit(cache=True)
def lose_life(s, seat: int, n: int) -> None:
    """Lose ``n`` Life; at 0 the Heart of the Abyss counts as one more, else death is queued."""
    if s.dying & (1 << seat):
        return
    life = s.life[seat] - n
    if life <= 0:
        slot = holds_special(s, seat, C.SPECIAL_HEART)
        if slot >= 0:
            return_item(s, take_from_slot(s, seat, slot))
            emit(s, EV_HEART, seat)
            life += 1
    s.life[seat] = max(life, 0)
    emit(s, EV_LIFE, seat, -n, s.life[seat])
    if life <= 0:
        s.dying |= 1 << seat


@njit(cache=True)
def add_stun(s, seat: int, n: int) -> None:
    pod.add_stun(s, seat, n, EV_STUN)


@njit(cache=True)
def to_start(s, seat: int) -> None:
    emit(s, EV_TO_START, seat, s.position[seat])
    s.position[seat] = start_node(s, seat)


# --- Rest and the Healing Potion (activities) ----------------------------------------------
@njit(cache=True)
def rest(s, seat: int) -> None:
    """Discard a stun token (every one with the Smelling Salts)."""
    if holds_special(s, seat, C.SPECIAL_SALTS) >= 0:
        s.stun[seat] = 0
    else:
        s.stun[seat] -= 1
    emit(s, EV_REST, seat, s.stun[seat])


@njit(cache=True)
def potion_legal(s, seat: int) -> bool:
    """Only below the Life a character may have: a sip at full Life does nothing."""
    return holds_special(s, seat, C.SPECIAL_POTION) >= 0 and s.life[seat] < max_life(s)


@njit(cache=True)
def use_potion(s, seat: int) -> None:
    """Drink from the Healing Potion (1 action): Life regained; the potion stays, since
    items are never discarded voluntarily (l.373, l.471)."""
    emit(s, EV_POTION, seat)
    gain_life(s, seat, C.POTION_LIFE)


# --- Life or stun, per failed roll (decision) -----------------------------------------------
@njit(cache=True)
def life_or_stun_mask(out) -> None:
    out[A_LOSE_LIFE] = 1
    out[A_TAKE_STUN] = 1


@njit(cache=True)
def lose_life_or_take_stun(s, who: int, action: int) -> None:
    s.choices_left -= 1
    if action == A_LOSE_LIFE:
        lose_life(s, who, 1)
    else:
        add_stun(s, who, 1)


# --- death ---------------------------------------------------------------------------------
@njit(cache=True)
def finish_death(s, seat: int) -> None:
    """Back on the starting space with all Life; the Crystal of Fate and the stun tokens
    stay as they were (l.249 restores Life only, l.251)."""
    s.dying &= ~np.uint8(1 << seat)
    to_start(s, seat)
    s.life[seat] = max_life(s)
    if s.choices_left > 0 and s.ck_seat == seat:  # the trap's other failed rolls die with it
        s.choices_left = 0


@njit(cache=True)
def begin_death(s, seat: int) -> bool:
    """Drop a key, else an item; True if the dying seat must choose which item."""
    node = s.position[seat]
    emit(s, EV_DEATH, seat, node)
    for k in range(NUM_KEYS):
        if s.key_holder[k] == seat:
            s.key_holder[k] = -1
            s.key_node[k] = node
            s.key_dropped_by[k] = seat
            emit(s, EV_DROP, seat, TOKEN_KEY, k, node)
            finish_death(s, seat)
            return False
    if s.items[seat, 1] >= 0:
        return True
    if s.items[seat, 0] >= 0:
        drop_item(s, seat, 0)
    finish_death(s, seat)
    return False


@njit(cache=True)
def drop_mask(out) -> None:
    """The dying character carries two items: either slot."""
    out[A_DROP_ITEM] = 1
    out[A_DROP_ITEM + 1] = 1


@njit(cache=True)
def drop_and_die(s, who: int, action: int) -> None:
    drop_item(s, who, action - A_DROP_ITEM)
    finish_death(s, who)
