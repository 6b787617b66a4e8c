"""Seeded random numbers held inside a game state.

The generator is xorshift64* seeded through splitmix64. Its whole state is one
``uint64`` that lives in the game record, so ``step(state, action)`` stays a pure
function of the record: copying a state copies its future dice.

All arithmetic stays in ``np.uint64``; mixing it with signed integers makes numba
promote to float and silently breaks the sequence.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STAR = np.uint64(0x2545F4914F6CDD1D)
_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@njit(cache=True)
def splitmix64(x: np.uint64) -> np.uint64:
    """One splitmix64 output for input ``x``: turns any seed into a well-mixed word."""
    z = x + _GOLDEN
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def seed_state(seed: np.uint64) -> np.uint64:
    """The generator state for a 64-bit seed (never zero, which xorshift cannot leave)."""
    s = splitmix64(np.uint64(seed))
    if s == np.uint64(0):
        s = _GOLDEN
    return s


@njit(cache=True)
def next_u64(rng: np.ndarray) -> np.uint64:
    """Advance ``rng[0]`` (a one-element uint64 array or record field view) and return 64 bits."""
    x = rng[0]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    rng[0] = x
    return x * _STAR


@njit(cache=True)
def randint(rng: np.ndarray, n: int) -> int:
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**31``.

    Uses the high 32 bits times ``n`` (Lemire's multiply-shift); the bias is below
    ``n / 2**32``, far under anything a game can notice.
    """
    hi = next_u64(rng) >> _S32
    return int((hi * np.uint64(n)) >> _S32)


@njit(cache=True)
def d6(rng: np.ndarray) -> int:
    """One six-sided die, 1..6."""
    return randint(rng, 6) + 1


@njit(cache=True)
def roll(rng: np.ndarray, count: int, sides: int) -> int:
    """The sum of ``count`` dice with ``sides`` faces (NdM)."""
    total = 0
    for _ in range(count):
        total += randint(rng, sides) + 1
    return total


@njit(cache=True)
def roll_2d6(rng: np.ndarray) -> int:
    """Two six-sided dice summed, 2..12."""
    return roll(rng, 2, 6)


@njit(cache=True)
def shuffle(rng: np.ndarray, items: np.ndarray, n: int) -> None:
    """Fisher-Yates shuffle of the first ``n`` entries of ``items`` in place."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


@njit(cache=True)
def pick_random(mask: np.ndarray, rng: np.ndarray) -> int:
    """A uniformly random index among the nonzero entries of ``mask`` (-1 if none)."""
    count = 0
    for a in range(mask.shape[0]):
        count += mask[a] != 0
    if count == 0:
        return -1
    pick = randint(rng, count)
    for a in range(mask.shape[0]):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit(cache=True)
def derive_seed(rng: np.ndarray) -> np.uint64:
    """A fresh 64-bit seed drawn from ``rng`` (for auto-reset of batched games)."""
    return next_u64(rng)


def python_seed(seed: int | None) -> int:
    """A user seed as a plain int in [0, 2**64) (None: a fresh one from the OS). Seeds
    outside that range are refused rather than reduced modulo 2**64, which would make two
    different seeds play the same game."""
    if seed is None:
        return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0])
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, (bool, np.bool_)):
        raise ValueError(f"seed must be an int in [0, 2**64) or None, got {seed!r}")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be an int in [0, 2**64) or None, got {seed}")
    return int(seed)


def seed_stream(seed: int | None) -> np.random.Generator:
    """The generator a bare ``reset()`` draws the next game's seed from, as Gymnasium and
    PettingZoo seed once: ``reset(seed=s)`` starts it from ``s`` (so the episodes after a
    seeded one are the same in every run), an env never seeded starts it from the OS."""
    return np.random.default_rng(None if seed is None else python_seed(seed))


def next_seed(stream: np.random.Generator) -> int:
    """The next game's seed from a ``seed_stream``, an int in [0, 2**64)."""
    return int(stream.integers(0, 2**64, dtype=np.uint64))
