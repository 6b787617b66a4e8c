"""Characters any ruleset with character cards needs, independent of its rules: the
edition's table of cards (``CharacterTable``), the ``characters`` and ``character_draft``
options checked and encoded into the options vector, the deal at setup from the kernel's
RNG, and the draft (seats pick in turn, each pick a decision of the seat whose turn it is
to pick). Both Paths of Destiny editions use it: each env module declares its table
(``CHARACTERS``, also the env class's ``character_table``), which its options, its
kernel's set-up and ``benchmarks/character_balance.py`` read.

The option (``characters``) is ``"random"`` (dealt at setup), ``"none"`` (no characters)
or one name per seat (a list or tuple, seat 0 first). A table holds the edition's names
(in the kernel's order), the names its setup excludes for a player count and, while some
characters are still to be written, the names it cannot deal yet.

The options vector keeps ``mode`` at ``base`` and the character of seat ``p`` (its index
in the table, -1 for none) at ``base + 1 + p``; ``deal`` reads them back in the kernel.
The draft is separate (``draft=True`` with ``"random"``): ``deal`` leaves every seat
without a character and the kernel asks ``draft_seat`` who picks next (or keeps its own
count) and ``draft_mask`` what it may pick.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint

RANDOM, NONE = "random", "none"
MODE_NONE, MODE_RANDOM, MODE_LIST, MODE_DRAFT = 0, 1, 2, 3
MODE_NAMES = ("none", "random", "list", "draft")


@dataclass(frozen=True)
class CharacterTable:
    """An edition's character cards as the options, the deal and the reports need them:
    ``names`` in the kernel's order (the index is the card's number), the names the set-up
    excludes for a player count (``excluded[n]``, with the reason for the error message),
    the names not written yet, and where each card comes from (``sources``, for reports)."""

    names: tuple[str, ...]
    excluded: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    why_excluded: str = "excluded by the set-up"
    not_ready: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    def dealable(self, num_players: int) -> list[str]:
        """The names the deal and the draft may give with ``num_players`` players."""
        return allowed_names(self.names, (*self.excluded.get(num_players, ()), *self.not_ready))

    def check(self, characters: Any, draft: Any, num_players: int) -> str | tuple[str, ...]:
        """Both options checked together (``check_characters``, ``check_draft``); the
        ``characters`` option normalised."""
        chosen = check_characters(
            characters,
            self.names,
            num_players,
            excluded=self.excluded.get(num_players, ()),
            not_ready=self.not_ready,
            why_excluded=self.why_excluded,
        )
        check_draft(draft, chosen)
        return chosen

    def encode(self, out: np.ndarray, base: int, characters: str | tuple[str, ...], draft: bool) -> None:
        encode(out, base, characters, self.names, draft)


def option_shape(value: Any) -> str | tuple[str, ...]:
    """The ``characters`` option's ``Option.check``: a string, or a list of names as a
    tuple (``CharacterTable.check`` then checks the names against the player count)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(value)
    raise ValueError("expected 'random', 'none' or a list of character names, one per seat")


def options_width(num_seats: int) -> int:
    """How many options-vector slots ``encode`` fills (mode, then one per seat)."""
    return 1 + num_seats


def check_characters(
    value: Any,
    names: Sequence[str],
    num_players: int,
    excluded: Iterable[str] = (),
    not_ready: Iterable[str] = (),
    why_excluded: str = "excluded by the set-up",
) -> str | tuple[str, ...]:
    """The ``characters`` option normalised (``"random"``, ``"none"`` or a tuple of names),
    or ``ValueError`` naming the bad value and what is allowed: an unknown name, a name
    twice, a list not one name per seat, a name the set-up excludes."""
    if isinstance(value, str):
        if value in (RANDOM, NONE):
            return value
        raise ValueError(
            f"characters={value!r} is not allowed: expected 'random', 'none' or a list of "
            f"{num_players} names (one per seat) from: {', '.join(names)}"
        )
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"characters={value!r} is not allowed: expected 'random', 'none' or a list of names")
    chosen = tuple(value)
    if len(chosen) != num_players:
        raise ValueError(
            f"characters={list(chosen)!r} is not allowed: {len(chosen)} names for {num_players} players "
            "(one name per seat, seat 0 first)"
        )
    excluded, not_ready = set(excluded), set(not_ready)
    for name in chosen:
        if not isinstance(name, str) or name not in names:
            raise ValueError(f"characters: unknown character {name!r}; allowed: {', '.join(names)}")
        if name in excluded:
            allowed = [x for x in names if x not in excluded]
            raise ValueError(
                f"characters: {name!r} cannot be used with {num_players} players ({why_excluded}); "
                f"allowed: {', '.join(allowed)}"
            )
        if name in not_ready:
            allowed = allowed_names(names, excluded | not_ready)
            raise ValueError(f"characters: {name!r} is not implemented yet; allowed: {', '.join(allowed)}")
        if chosen.count(name) > 1:
            raise ValueError(
                f"characters: {name!r} is chosen twice; every seat needs a different character (one card of each)"
            )
    return chosen


def allowed_names(names: Sequence[str], barred: Iterable[str]) -> list[str]:
    barred = set(barred)
    return [x for x in names if x not in barred]


def check_draft(draft: Any, characters: str | tuple[str, ...]) -> None:
    """A draft deals nothing: it goes with ``characters="random"`` only."""
    if draft and isinstance(characters, tuple):
        raise ValueError(
            "character_draft=True cannot go with a list of characters: the list already chooses them "
            "(the draft needs characters='random')"
        )
    if draft and characters != RANDOM:
        raise ValueError(
            f"character_draft=True is not allowed with characters={characters!r}: the draft chooses "
            "the characters, so it needs characters='random'"
        )


def encode(out: np.ndarray, base: int, characters: str | tuple[str, ...], names: Sequence[str], draft: bool) -> None:
    """Write the checked option into the options vector from ``base`` on."""
    if characters == NONE:
        out[base] = MODE_NONE
    elif characters == RANDOM:
        out[base] = MODE_DRAFT if draft else MODE_RANDOM
    else:
        out[base] = MODE_LIST
    for p in range(len(out) - base - 1):
        out[base + 1 + p] = -1
    if isinstance(characters, tuple):
        for p, name in enumerate(characters):
            out[base + 1 + p] = names.index(name)


@njit(cache=True)
def deal(options, base: int, rng, out, n: int, allowed: int) -> int:
    """Give seats ``0..n-1`` their characters into ``out`` (-1: none yet) as the options
    say: the listed ones, or each drawn at random from the set bits of ``allowed`` with the
    kernel's RNG, without repeats. Returns the mode (``MODE_*``)."""
    mode = options[base]
    for p in range(out.shape[0]):
        out[p] = -1
    if mode == MODE_LIST:
        for p in range(n):
            out[p] = options[base + 1 + p]
    elif mode == MODE_RANDOM:
        left = allowed
        for p in range(n):
            c = random_member(rng, left)
            out[p] = c
            left &= ~(1 << c)
    return mode


@njit(cache=True)
def random_member(rng, bits: int) -> int:
    """A set bit of ``bits``, each equally likely."""
    count = 0
    b = bits
    while b:
        count += b & 1
        b >>= 1
    k = randint(rng, count)
    i = 0
    while True:
        if (bits >> i) & 1:
            if k == 0:
                return i
            k -= 1
        i += 1


@njit(cache=True)
def taken(chars, n: int) -> int:
    """The characters seats ``0..n-1`` hold, as bits."""
    m = 0
    for p in range(n):
        if chars[p] >= 0:
            m |= 1 << chars[p]
    return m


@njit(cache=True)
def draft_seat(chars, n: int, first: int) -> int:
    """The seat to pick next, clockwise from ``first``; -1 once everyone has one."""
    for i in range(n):
        p = (first + i) % n
        if chars[p] < 0:
            return p
    return -1


@njit(cache=True)
def draft_mask(chars, n: int, allowed: int, out, base: int, num_chars: int) -> None:
    """The characters still free (``out[base + c]``)."""
    t = taken(chars, n)
    for c in range(num_chars):
        if (allowed >> c) & 1 and not (t >> c) & 1:
            out[base + c] = 1
