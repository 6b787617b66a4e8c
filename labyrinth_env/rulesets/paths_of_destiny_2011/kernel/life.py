"""Life, stun and death: losing Life (all of it: one key stays behind, or goes to the
player who killed a stunned one; home to the start field, where Life and stun are
restored), stun points, and the Rest action."""

from __future__ import annotations

from labyrinth_env.core import pod
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import start_node
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .queries import first_key, set_position
from .tables import (
    ARCHER,
    EV_DEATH,
    EV_DROP_KEY,
    EV_HOME,
    EV_LIFE,
    EV_REST,
    EV_RESTORED,
    EV_STUN,
    EV_TAKE_KEY,
    EV_TOKENS,
    LIFE,
    TOKEN_ADRENALINE,
)


@njit(cache=True)
def restore(s, seat: int) -> None:
    """Back on the start field: all life back, stun points put aside (the crystal stays)."""
    if s.life[seat] != LIFE or s.stun[seat] != 0:
        s.life[seat] = LIFE
        s.stun[seat] = 0
        emit(s, EV_RESTORED, seat)


@njit(cache=True)
def go_home(s, seat: int) -> None:
    emit(s, EV_HOME, seat, s.position[seat])
    set_position(s, seat, start_node(s, seat))
    restore(s, seat)


@njit(cache=True)
def die(s, seat: int, taker: int) -> None:
    """All life lost: one key stays where the last life was lost (or goes to ``taker``, who
    killed a stunned player), any others are kept; back to the start field."""
    node = s.position[seat]
    emit(s, EV_DEATH, seat, node)
    k = first_key(s, seat)
    if k >= 0:
        if taker >= 0:
            s.key_holder[k] = taker
            s.key_touched[k] |= 1 << taker
            emit(s, EV_TAKE_KEY, taker, k, seat)
        else:
            drop_key(s, seat, k, node)
    go_home(s, seat)


@njit(cache=True)
def drop_key(s, seat: int, k: int, node: int) -> None:
    """``seat``'s key ``k`` stays lying in the corridor ``node`` (a death, l.125; a meeting
    with a player transformed into the Guard, l.401)."""
    s.key_holder[k] = -1
    s.key_node[k] = node
    emit(s, EV_DROP_KEY, seat, k, node)


@njit(cache=True)
def gain_adrenaline(s, seat: int, lost: int) -> None:
    """The Female Archer's Adrenaline: a token per life point lost, at most 3 (l.390); they
    are kept when she goes back to her start field (l.390)."""
    if s.character[seat] != ARCHER or lost <= 0:
        return
    add = min(lost, C.ADRENALINE_TOKENS - s.adrenaline[seat])
    if add > 0:
        s.adrenaline[seat] += add
        emit(s, EV_TOKENS, seat, TOKEN_ADRENALINE, add, s.adrenaline[seat])


@njit(cache=True)
def lose_life(s, seat: int, n: int) -> bool:
    """Lose ``n`` life; returns True if that was the last (the player is then at home)."""
    life = max(s.life[seat] - n, 0)
    gain_adrenaline(s, seat, s.life[seat] - life)
    emit(s, EV_LIFE, seat, life - s.life[seat], life)
    s.life[seat] = life
    if life == 0:
        die(s, seat, -1)
        return True
    return False


@njit(cache=True)
def add_stun(s, seat: int, n: int) -> None:
    pod.add_stun(s, seat, n, EV_STUN)


# --- Rest (action) ---------------------------------------------------------------------------
@njit(cache=True)
def rest(s, seat: int) -> None:
    """Put aside one stun point."""
    s.stun[seat] -= 1
    emit(s, EV_REST, seat, s.stun[seat])
