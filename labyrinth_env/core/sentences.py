"""Pieces of the one-sentence texts of events (``env.event_text``, the ``text`` field of
``game_log``): absolute player names and throws against what they needed.

A sentence is made from the decoded event alone, with what the table saw of it
(``env.event_display``: a Trap Check's dice) and the ruleset's printed tables, never from the
record: it cannot say more than the structured event every seat already sees.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

# "(l.346)", ", l.171)" or "(The rulebook gives l.465; ...)" in a component's text: where
# the rulebook says it, for the rules docs; what a person is shown leaves it out
RULEBOOK_CITATION = re.compile(r"\s*\(l\.\d+(?:[-–]\d+)?\)|,\s*l\.\d+(?:[-–]\d+)?(?=\))|\s*\([^()]*\bl\.\d+[^()]*\)")

# (event, context) -> the sentence; the context is what the env knows from the game's public
# setup (where the exit space lies, which corner is whose home), the same for every seat
Sentence = Callable[[Mapping[str, Any], Mapping[str, Any]], str]


def player(seat: Any) -> str:
    """``Player 2``: seats by their absolute number, as the board and the panel name them."""
    return f"Player {seat}"


def listed(words: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` ("" for none)."""
    words = list(words)
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def players(seats: Iterable[Any]) -> str:
    """``Player 0``, ``Player 0 and Player 2``, ``Player 0, Player 1 and Player 3``."""
    return listed(player(s) for s in seats) or "nobody"


def against(total: Any, needed: Any, success: bool, at_least: bool = True) -> str:
    """``8 against 8+: success``; ``at_least=False``: the throw had to stay below ``needed``."""
    goal = f"{needed}+" if at_least else f"below {needed}"
    return f"{total} against {goal}: {'success' if success else 'failure'}"


def article(word: Any) -> str:
    """``a`` or ``an`` before ``word`` (by its first letter: enough for the components' names)."""
    return "an" if str(word)[:1].lower() in "aeiou" else "a"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def sentence(text: str) -> str:
    """``text`` with a capital first letter and one closing full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def say(table: Mapping[str, Sentence], event: Mapping[str, Any], context: Mapping[str, Any]) -> str | None:
    """The sentence of ``event`` from ``table`` (by its ``type``), None when the table has none."""
    fn = table.get(str(event.get("type")))
    return None if fn is None else sentence(fn(event, context))
