"""The game-card loops (``labyrinth analyze``): games played in the kernel with every
decision's accounting written to arrays, the source every ruleset shares.

Bound per ruleset by ``labyrinth_env.core.templates.bind`` as ``<ruleset package>.analyze``
(``K`` the kernel, ``H`` the heuristic), like ``core.batch_template``. Everything is read
through the kernel contract: the pending decision (``decision``), the mask, the record's
dice (``rng``: a step that drew random numbers moved it) and ``unseen`` (what a seat cannot
see; ``NO_SEAT``: what no seat has seen, whose shrinking is a draw or a reveal).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from labyrinth_env.core.contract import NO_SEAT, RUNNING, WON
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import next_u64, pick_random, seed_state

BOUND_NAME = "analyze"
K: ModuleType | None = None  # the ruleset's kernel, bound by core.templates.bind
H: ModuleType | None = None  # the ruleset's heuristic (core.no_heuristic for a ruleset without one)

RANDOM, HEURISTIC = 0, 1  # the agents the kernel plays itself (``kinds``)

# int columns of a decision row
D_GAME, D_TURN, D_SEAT, D_DECISION, D_LEGAL, D_CHANCE, D_UNSEEN = range(7)
DECISION_COLUMNS = 7
# int columns of a game row
G_WINNER, G_OUTCOME, G_TURNS, G_DECISIONS, G_NUMBERS, G_DRAWS, G_FIRST = range(7)
GAME_COLUMNS = 7

MAX_RNG_DISTANCE = 1 << 20  # random numbers one step may draw before it is counted as -1

_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)


@njit(cache=True)
def numbers_drawn(before: np.uint64, after: np.uint64) -> int:
    """How many random numbers were drawn between two values of a record's dice: the
    xorshift steps (``core.rng.next_u64``) from ``before`` to ``after``; -1 past
    ``MAX_RNG_DISTANCE`` (the dice were seeded anew, not advanced)."""
    x = before
    n = 0
    while x != after:
        if n >= MAX_RNG_DISTANCE:
            return -1
        x ^= x >> _S12
        x ^= x << _S25
        x ^= x >> _S27
        n += 1
    return n


@njit(cache=True)
def legal_count(s, mask) -> int:
    """The pending decision's branching: the legal actions in its mask (``mask`` filled)."""
    K.legal_mask(s, mask)
    legal = 0
    for a in range(mask.shape[0]):
        legal += mask[a] != 0
    return legal


@njit(cache=True)
def branching_one(states) -> int:
    """``legal_count`` of game 0 (the entry point from Python: a position set by hand)."""
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    return legal_count(states[0], mask)


@njit(cache=True)
def play_recorded(states, options, seeds, kinds, agent_seeds, decisions, infoset, games, start_row: int) -> int:
    """Play ``seeds[g]`` with seat ``p`` played by ``kinds[g, p]`` (RANDOM or HEURISTIC, the
    heuristic on a record determinized for its seat like the heuristic agent; their dice
    from ``agent_seeds[g]``), writing one row per decision from
    ``start_row`` on (``decisions`` int columns D_*, ``infoset`` the deciding seat's log10
    arrangements) and one row per game (``games``, columns G_*). A game that would not fit
    is not begun: returns the number of games played (their rows fill ``decisions`` up to
    the sum of their G_DECISIONS)."""
    s = states[0]
    work = states[:1].copy()
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.zeros(1, dtype=np.uint64)
    seen = np.zeros(2)
    public = np.zeros(2)
    row = start_row
    capacity = decisions.shape[0]
    for g in range(seeds.shape[0]):
        K.init(s, seeds[g], options)
        rng[0] = seed_state(np.uint64(agent_seeds[g]))
        first = row
        numbers = 0
        draws = 0
        chance = 0
        first_seat = s.seat
        K.unseen(s, NO_SEAT, public)
        while s.outcome == RUNNING:
            if row >= capacity:
                return g
            seat = K.to_act(s)
            legal = legal_count(s, mask)
            K.unseen(s, seat, seen)
            if s.turn == 0:
                first_seat = s.seat
            r = decisions[row]
            r[D_GAME] = g
            r[D_TURN] = s.turn
            r[D_SEAT] = seat
            r[D_DECISION] = s.decision
            r[D_LEGAL] = legal
            r[D_CHANCE] = chance
            r[D_UNSEEN] = int(seen[0])
            infoset[row] = seen[1]
            row += 1
            if kinds[g, seat] == HEURISTIC:
                # as the heuristic agent plays (a record determinized for its seat), so it
                # never reads what its seat cannot see
                work[0] = s
                K.determinize(work[0], seat, next_u64(rng))
                action = H.heuristic_action(work[0], mask)
            else:
                action = pick_random(mask, rng)
            dice = s.rng[0]
            hidden = public[0]
            K.step(s, action)
            drawn = numbers_drawn(dice, s.rng[0])
            K.unseen(s, NO_SEAT, public)
            revealed = max(0, int(hidden - public[0]))
            numbers += max(drawn, 0)
            draws += revealed
            chance = 1 if drawn != 0 or revealed > 0 else 0
        out = games[g]
        out[G_WINNER] = s.winner if s.outcome == WON else NO_SEAT
        out[G_OUTCOME] = s.outcome
        out[G_TURNS] = s.turn
        out[G_DECISIONS] = row - first
        out[G_NUMBERS] = numbers
        out[G_DRAWS] = draws
        out[G_FIRST] = first_seat
    return seeds.shape[0]


@njit(cache=True)
def random_steps_rate(states, options, seed, num_steps: int) -> int:
    """``num_steps`` random legal steps in the kernel alone (a new game whenever one ends):
    the kernel's own speed in this setting, nothing recorded. Returns the games finished."""
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = seed_state(np.uint64(seed))
    K.init(s, seed, options)
    done = 0
    for _ in range(num_steps):
        if s.outcome != RUNNING:
            done += 1
            K.init(s, seed + done, options)
        K.legal_mask(s, mask)
        K.step(s, pick_random(mask, rng))
    return done


@njit(cache=True)
def unseen_one(states, seat: int, out) -> None:
    """``K.unseen`` of game 0 (the entry point from Python, for agents played outside the
    kernel)."""
    K.unseen(states[0], seat, out)
