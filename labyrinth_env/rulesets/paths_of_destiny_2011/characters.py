"""Character cards of Paths of Destiny 2011: the ``characters`` and ``character_draft`` options,
dealing the cards at set-up from the kernel's generator, and the draft's mask.

The first part knows no rule of the edition (a list of names, a player count, a generator):
it is what both editions' character machinery shares, kept apart so that it can move to
``labyrinth_env.core`` as one module. The last part (``EDITION_*``, ``check_options``) binds
it to the 2011 cards (``components.CHARACTERS``).

Modes (the kernel's options vector, ``OPT_CHARS``): ``CHARS_NONE`` (no characters: setup step
8 skipped, as the rulebook advises for a first game, l.74), ``CHARS_DEALT`` (one card each,
drawn at random), ``CHARS_FIXED`` (the names given, seat by seat), ``CHARS_DRAFT`` (the seats
take a card in turn, a decision each: "draw or choose", l.74).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint

CHARS_NONE, CHARS_DEALT, CHARS_FIXED, CHARS_DRAFT = 0, 1, 2, 3


# --- options (rules-independent) ------------------------------------------------------------
def parse_characters(value: Any, draft: Any, num_players: int, names: Sequence[str]) -> tuple[int, tuple[int, ...]]:
    """``(mode, characters by seat)`` for the ``characters`` option (``"none"``, ``"random"`` or
    one name per seat, all different: there is one card of each) and ``character_draft``
    (True: the seats take the cards in turn; only with ``characters="random"``, the cards
    being then chosen instead of drawn). Raises ``ValueError`` naming the option and what is
    allowed."""
    if not isinstance(draft, (bool, np.bool_)):
        raise ValueError(f"character_draft must be True or False, got {draft!r}")
    allowed = f'"none", "random" or a list of {num_players} different names of {list(names)}'
    if isinstance(value, str):
        if value not in ("none", "random"):
            raise ValueError(f"characters={value!r} is not allowed: use {allowed}")
        if draft and value != "random":
            raise ValueError(
                'character_draft=True needs characters="random" (the seats then choose their cards in turn '
                "instead of drawing them)"
            )
        if value == "none":
            return CHARS_NONE, ()
        return (CHARS_DRAFT if draft else CHARS_DEALT), ()
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"characters must be {allowed}, got {value!r}")
    if draft:
        raise ValueError("character_draft=True cannot go with a list of characters: the list already chooses them")
    if len(value) != num_players:
        raise ValueError(f"characters lists {len(value)} names for {num_players} players: give one per seat")
    out = []
    for name in value:
        if not isinstance(name, str) or name not in names:
            raise ValueError(f"characters: unknown character {name!r}; the characters are {list(names)}")
        if names.index(name) in out:
            raise ValueError(f"characters: {name!r} is given twice; there is one card of each character")
        out.append(names.index(name))
    return CHARS_FIXED, tuple(out)


def encode(vec: np.ndarray, opt_mode: int, opt_list: int, mode: int, chosen: Sequence[int]) -> None:
    """Write the mode and the fixed characters into the kernel's options vector."""
    vec[opt_mode] = mode
    vec[opt_list : opt_list + len(chosen)] = chosen


# --- the kernel's part (rules-independent) ---------------------------------------------------
@njit(cache=True)
def deal_characters(rng, out, n: int, num_characters: int) -> None:
    """``out[:n]`` get ``n`` different cards of ``num_characters``, drawn from the record's
    generator (a partial shuffle: one draw per seat)."""
    cards = np.arange(num_characters)
    for i in range(n):
        j = i + randint(rng, num_characters - i)
        cards[i], cards[j] = cards[j], cards[i]
        out[i] = cards[i]


@njit(cache=True)
def taken_cards(chars, n: int) -> int:
    """The cards the first ``n`` seats hold, as a bit set."""
    taken = 0
    for p in range(n):
        if chars[p] >= 0:
            taken |= 1 << chars[p]
    return taken


@njit(cache=True)
def draft_mask(chars, n: int, out, base: int, num_characters: int) -> None:
    """The cards nobody has taken yet, at ``out[base + card]``."""
    taken = taken_cards(chars, n)
    for c in range(num_characters):
        out[base + c] = 0 if (taken >> c) & 1 else 1


# --- the 2011 cards -------------------------------------------------------------------------
def check_options(characters: Any, draft: Any, num_players: int) -> tuple[int, tuple[int, ...]]:
    from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

    return parse_characters(characters, draft, num_players, C.CHARACTERS)
