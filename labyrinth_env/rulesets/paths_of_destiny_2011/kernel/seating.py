"""Start fields: fixed by the player count (3 and 4 players), or chosen one player after
another (2 players: the one who begins chooses second; 5: a draw names the first to
choose, the others follow clockwise); the first round starts once all are taken."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import start_node
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint

from .tables import A_START_FIELD, EV_CHOOSER, EV_START_FIELD, FIXED_SEATS, NUM_STARTS
from .turn import start_round


@njit(cache=True)
def seat_players(s, n: int, first: int) -> None:
    """Fixed start fields and the first round, or the order in which the players choose."""
    if n == 2:  # the player who begins chooses second
        s.choose_order[0] = 1 - first
        s.choose_order[1] = first
        s.choose_pos = 0
    elif n == 5:  # a draw names the first to choose; the others follow clockwise
        c = randint(s.rng, n)
        emit(s, EV_CHOOSER, c)
        for i in range(n):
            s.choose_order[i] = (c + i) % n
        s.choose_pos = 0
    else:
        for p in range(n):
            s.seat_start[p] = FIXED_SEATS[n, p]
            s.position[p] = start_node(s, p)
        s.choose_pos = n
        start_round(s)


# --- choose a start field (decision) -----------------------------------------------------------
@njit(cache=True)
def start_field_mask(s, out) -> None:
    """Any start field nobody has taken."""
    for f in range(NUM_STARTS):
        free = True
        for p in range(s.num_players):
            if s.seat_start[p] == f:
                free = False
        out[A_START_FIELD + f] = 1 if free else 0


@njit(cache=True)
def choose_start(s, who: int, action: int) -> None:
    field = action - A_START_FIELD
    s.seat_start[who] = field
    s.position[who] = start_node(s, who)
    emit(s, EV_START_FIELD, who, field)
    s.choose_pos += 1
    if s.choose_pos >= s.num_players:
        start_round(s)
