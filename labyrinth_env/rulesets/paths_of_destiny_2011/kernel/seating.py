"""Who begins and where everyone starts: the throw for the first player (2 dice each, the
highest begins, the tied throw again, l.80; the fate crystal may repeat a throw of it, "You
can use your fate crystal any time", l.360, and the crystals are dealt before it, l.76);
start fields fixed by the player count (3 and 4 players; 6 take every field), or chosen one
player after another (2 players: the one who begins chooses second; 5: a draw names the
first to choose, the others follow clockwise); the first round starts once all are taken."""

from __future__ import annotations

from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import start_node
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import can_crystal
from labyrinth_env.core.rng import randint, roll_2d6
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .skills import meditation
from .tables import (
    A_START_FIELD,
    CK_FIRST,
    EV_CHOOSER,
    EV_FIRST_PLAYER,
    EV_START_FIELD,
    EV_START_TURN,
    FIXED_SEATS,
    NUM_STARTS,
)


@njit(cache=True)
def start_round(s) -> None:
    s.actions_left = C.ACTIONS_PER_TURN
    s.guard_used = 0
    s.adrenaline_used = 0
    emit(s, EV_START_TURN, s.seat, s.turn)
    if s.char_mode != 0:
        s.loop_ready = 0  # the Time Loop undoes an action of the round it is in
        s.mirror_used = 0  # Mirror Image: the first fight of each round
        s.shortcut_used = 0  # Shortcut: once a round
        s.tracking_used = 0  # Tracking: once a round
        meditation(s, s.seat)


# --- the throw for the first player (a throw in progress: ``CK_FIRST``) -------------------------
@njit(cache=True)
def throw_for_first(s) -> None:
    """Every player still tied throws 2 dice; the throw stays in progress so that
    ``throws.settle_throw`` may offer the crystal's repeat, then ``first_outcome``."""
    for p in range(s.num_players):
        if (s.first_tied >> p) & 1:
            s.first_roll[p] = roll_2d6(s.rng)
            emit(s, EV_FIRST_PLAYER, p, s.first_roll[p])
    s.ck_kind = CK_FIRST
    s.ck_asked = 0


@njit(cache=True)
def best_first(s) -> int:
    best = 0
    for p in range(s.num_players):
        if (s.first_tied >> p) & 1 and s.first_roll[p] > best:
            best = s.first_roll[p]
    return best


@njit(cache=True)
def first_candidate(s) -> int:
    """The next player still throwing, not leading alone, not asked yet, with a face-up
    crystal (it may repeat its throw), or -1."""
    best = best_first(s)
    count = 0
    for p in range(s.num_players):
        if (s.first_tied >> p) & 1 and s.first_roll[p] == best:
            count += 1
    for p in range(s.num_players):
        behind = s.first_roll[p] < best or count > 1
        if (s.first_tied >> p) & 1 and behind and not (s.ck_asked >> p) & 1 and can_crystal(s, p):
            return p
    return -1


@njit(cache=True)
def rethrow_first(s, who: int) -> None:
    s.first_roll[who] = roll_2d6(s.rng)
    emit(s, EV_FIRST_PLAYER, who, s.first_roll[who])


@njit(cache=True)
def first_outcome(s) -> None:
    """The highest throw begins (then the seats); the tied throw again, a new throw."""
    best = best_first(s)
    tied = 0
    first = 0
    for p in range(s.num_players):
        if (s.first_tied >> p) & 1 and s.first_roll[p] == best:
            tied |= 1 << p
            first = p
    s.first_tied = tied
    if tied != 1 << first:
        throw_for_first(s)
        return
    s.first_tied = 0
    s.first_player = first
    s.seat = first
    seat_players(s, s.num_players, first)


# --- start fields --------------------------------------------------------------------------------
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
