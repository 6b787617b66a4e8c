"""Keys, the free actions: lifting a key lying in one's corridor (never the one next to
one's own start field, unless another player lost it there) and taking the key of a
stunned player standing there."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import keys_held

from .queries import first_key, other_seat, past_players, past_trap, pickable_key
from .skills import quick_fingers
from .tables import A_LIFT_KEY, A_TAKE_KEY, EV_LIFT_KEY, EV_TAKE_KEY, NUM_KEYS


# --- Lift a key (free action) ----------------------------------------------------------------
@njit(cache=True)
def lift_key_legal(s, seat: int, k: int) -> bool:
    """A key in its corridor it may lift, once past the obstacles there: "only after
    overcoming all obstacles in the given corridor (in the following order: the Guard, a
    trap, other players)" (l.120; the Guard sends home or is passed). Stunned players too:
    lifting is done "without using actions" (l.108)."""
    if s.key_node[k] != s.position[seat] or not pickable_key(s, seat, k):
        return False
    return past_trap(s, seat) and (past_players(s, seat) or (s.char_mode != 0 and quick_fingers(s, seat)))


@njit(cache=True)
def lift_key_mask(s, seat: int, out) -> None:
    for k in range(NUM_KEYS):
        if lift_key_legal(s, seat, k):
            out[A_LIFT_KEY + k] = 1


@njit(cache=True)
def lift_key(s, seat: int, k: int) -> None:
    s.key_node[k] = -1
    s.key_holder[k] = seat
    s.key_touched[k] |= 1 << seat
    emit(s, EV_LIFT_KEY, seat, k)


# --- Take a stunned player's key (free action) -----------------------------------------------
@njit(cache=True)
def take_key_legal(s, seat: int, q: int) -> bool:
    """``q`` (-1: no such player) stands in the corridor, stunned, holding a key; one key
    ("he may take away his key", l.257) until either comes into another corridor; "after
    passing the Guard and the traps" (l.259)."""
    if q < 0 or s.position[q] != s.position[seat] or s.stun[q] == 0 or keys_held(s, q) == 0:
        return False
    return past_trap(s, seat) and not (s.took_key[seat] >> q) & 1


@njit(cache=True)
def take_key_mask(s, seat: int, out) -> None:
    n = s.num_players
    for off in range(1, n):
        if take_key_legal(s, seat, (seat + off) % n):
            out[A_TAKE_KEY + off - 1] = 1


@njit(cache=True)
def take_key(s, seat: int, victim: int) -> None:
    k = first_key(s, victim)
    s.took_key[seat] |= 1 << victim
    s.key_holder[k] = seat
    s.key_touched[k] |= 1 << seat
    emit(s, EV_TAKE_KEY, seat, k, victim)


@njit(cache=True)
def take_stunned_key(s, seat: int, action: int) -> None:
    take_key(s, seat, other_seat(s, action - A_TAKE_KEY + 1))
