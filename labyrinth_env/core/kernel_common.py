"""Kernel pieces that several rulesets' state records share word for word: starting a
record, the turn passing on, the first player's throw, the returns of a game one player
wins, the keys and characters of the Paths of Destiny editions, and resampling what a seat
cannot know.

The functions read fields that every record using them names alike (``options``, ``rng``,
``turn``, ``seat``, ``num_players``, ``max_turns``, ``outcome``, ``decider``, ``winner``;
``key_holder``, ``life``, ``stun``, ``crystal``, ``ask_crystal`` for Paths of Destiny);
what differs between rulesets (event and outcome codes, tables) comes in as arguments, so
each ruleset's own rules stay in its kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from labyrinth_env.core.events import EVENT_WIDTH, clear_events, emit
from labyrinth_env.core.rng import derive_seed, roll_2d6, seed_state, shuffle

RUNNING = 0  # every ruleset's ``outcome`` while the game goes on


@njit(cache=True)
def start_record(s, seed, options) -> None:
    """Keep the options (padded with zeros) and seed the record's dice; no events yet."""
    opts = options.copy()  # ``options`` may be this state's own field
    s.options[:] = 0
    s.options[: opts.shape[0]] = opts
    s.rng[0] = seed_state(np.uint64(seed))
    clear_events(s)


@njit(cache=True)
def deal_shuffled(rng, items, n: int) -> None:
    """``items[:n]`` become the pieces 0..n-1 in random order (a pile shuffled face down)."""
    for i in range(n):
        items[i] = i
    shuffle(rng, items, n)


@njit(cache=True)
def private_dice(seed) -> np.ndarray:
    """A generator of its own for ``determinize``: resampling must not draw on the record's
    dice, whose future is itself unknown to the seat."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed_state(np.uint64(seed))
    return rng


@njit(cache=True)
def reseed(s, rng) -> None:
    """New dice for a determinized record, drawn from ``rng``."""
    s.rng[0] = seed_state(derive_seed(rng))


@njit(cache=True)
def shuffle_unknown(rng, items) -> None:
    """Sort, then shuffle, ``items`` in place: an unknown set resampled so that the result
    depends only on which pieces it holds and ``rng``, never on their true order."""
    items[:] = np.sort(items)
    shuffle(rng, items, items.shape[0])


@njit(cache=True)
def next_turn(s, truncated: int, ev_truncated: int) -> bool:
    """Pass the turn clockwise; False (and the game truncated) once ``max_turns`` turns
    were played (0: never)."""
    s.turn += 1
    if s.max_turns > 0 and s.turn >= s.max_turns:
        s.outcome = truncated
        emit(s, ev_truncated, -1)
        return False
    s.seat = (s.seat + 1) % s.num_players
    return True


@njit(cache=True)
def roll_for_first(s, n: int, ev_first_player: int) -> int:
    """Everyone throws 2 dice; the highest begins, the tied throw again."""
    rolls = np.zeros(n, dtype=np.int64)
    tied = (1 << n) - 1
    while True:
        best = -1
        for p in range(n):
            if (tied >> p) & 1:
                rolls[p] = roll_2d6(s.rng)
                emit(s, ev_first_player, p, rolls[p])
                best = max(best, rolls[p])
        count = 0
        new_tied = 0
        first = 0
        for p in range(n):
            if (tied >> p) & 1 and rolls[p] == best:
                count += 1
                new_tied |= 1 << p
                first = p
        if count == 1:
            return first
        tied = new_tied


@njit(cache=True)
def set_decision(s, decision: int, decider: int) -> None:
    s.decision = decision
    s.decider = decider


@njit(cache=True)
def declare_winner(s, seat: int, won: int, ev_win: int) -> None:
    s.outcome = won
    s.winner = seat
    emit(s, ev_win, seat)


@njit(cache=True)
def to_act(s) -> int:
    """The seat whose decision is pending, -1 once the game is over."""
    return -1 if s.outcome != RUNNING else s.decider


@njit(cache=True)
def winner_returns(s, out, won: int) -> None:
    """Winner +1, every other seat -1/(n-1); zeros while running or on truncation."""
    out[:] = 0.0
    if s.outcome == won:
        n = s.num_players
        for p in range(n):
            out[p] = 1.0 if p == s.winner else -1.0 / (n - 1)


def record_head(num_options: int) -> list:
    """The fields every state record starts with: its dice, its options, the player count."""
    return [("rng", np.uint64, (1,)), ("options", np.int32, (num_options,)), ("num_players", np.int8)]


def event_fields(max_events: int) -> list:
    """The state record's event buffer (see ``core.events``)."""
    return [("events", np.int32, (max_events, EVENT_WIDTH)), ("num_events", np.int32)]


@njit(cache=True)
def keys_held(s, seat: int) -> int:
    n = 0
    for k in range(s.key_holder.shape[0]):
        if s.key_holder[k] == seat:
            n += 1
    return n


@njit(cache=True)
def can_crystal(s, seat: int) -> bool:
    """The seat may be asked whether to throw again: its crystal is face up and the option
    to ask is on."""
    return s.ask_crystal != 0 and s.crystal[seat] != 0


@njit(cache=True)
def observe_character(s, p: int, out, b: int, life: int) -> None:
    """The character features both Paths of Destiny editions show at ``out[b:]``: in play,
    life, stun (capped at 4), crystal, share of the keys held, to act."""
    out[b] = 1.0
    out[b + 1] = s.life[p] / life
    out[b + 2] = min(s.stun[p], 4) / 4.0
    out[b + 3] = s.crystal[p]
    out[b + 4] = keys_held(s, p) / s.key_holder.shape[0]
    out[b + 5] = 1.0 if p == s.seat else 0.0


@njit(cache=True)
def check_total_feature(total: int) -> float:
    """A check's or fight's total as an observation feature: total / 12, clipped to the
    observation's [0, 1]. Modifiers take totals past both ends (3e: items and events add up
    to +4; 2011: a group throws a die per extra member and loses one per lost life), which
    then show as the end they passed."""
    return min(max(total / 12.0, 0.0), 1.0)
