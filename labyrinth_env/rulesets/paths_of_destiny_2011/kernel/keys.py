"""Keys, the free actions: lifting a key lying in one's corridor (never the one next to
one's own start field, unless another player lost it there) and taking the key of a
stunned player standing there."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import keys_held

from .queries import first_key, other_seat, pickable_key
from .tables import A_LIFT_KEY, A_TAKE_KEY, EV_LIFT_KEY, EV_TAKE_KEY, NUM_KEYS


# --- Lift a key (free action) ----------------------------------------------------------------
@njit(cache=True)
def lift_key_legal(s, seat: int, k: int) -> bool:
    return s.key_node[k] == s.position[seat] and pickable_key(s, seat, k)


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
    """``q`` (-1: no such player) stands in the corridor, stunned, holding a key."""
    return q >= 0 and s.position[q] == s.position[seat] and s.stun[q] > 0 and keys_held(s, q) > 0


@njit(cache=True)
def take_key_mask(s, seat: int, out) -> None:
    n = s.num_players
    for off in range(1, n):
        if take_key_legal(s, seat, (seat + off) % n):
            out[A_TAKE_KEY + off - 1] = 1


@njit(cache=True)
def take_key(s, seat: int, victim: int) -> None:
    k = first_key(s, victim)
    s.key_holder[k] = seat
    s.key_touched[k] |= 1 << seat
    emit(s, EV_TAKE_KEY, seat, k, victim)


@njit(cache=True)
def take_stunned_key(s, seat: int, action: int) -> None:
    take_key(s, seat, other_seat(s, action - A_TAKE_KEY + 1))
