"""Kernel pieces that several rulesets share word for word beyond the contract
(``core.contract``): copying arrays (cheaply to compile), dealing and resampling piles,
the first player's throw, and the keys and characters of the Paths of Destiny editions.

The functions read the common record fields and, for Paths of Destiny, fields both
editions name alike (``key_holder``, ``life``, ``stun``, ``crystal``, ``ask_crystal``);
what differs between rulesets (event codes, tables) comes in as arguments, so each
ruleset's own rules stay in its kernel.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import derive_seed, roll_2d6, seed_state, shuffle


@njit(cache=True)
def copy_into(dst, src, n: int) -> None:
    """``dst[:n] = src[:n]``, written as a loop: numba compiles a slice assignment from an
    array with its shape-mismatch error message, about half a second of first-run compile
    per array type."""
    for i in range(n):
        dst[i] = src[i]


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
