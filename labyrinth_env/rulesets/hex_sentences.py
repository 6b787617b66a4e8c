"""Sentences of the events both Paths of Destiny editions record alike
(``hexenv.shared_events``; ``core.sentences``)."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from labyrinth_env.core.sentences import Sentence, player, plural


def onto_own_key_space(e: Mapping[str, Any], ctx: Mapping[str, Any], why: str) -> str:
    """``, its own key space: <why>`` when the mover arrives at the key space next to its own
    start (``ctx["own_key_space"]``, the env's ``hexenv.own_key_spaces``), else nothing: a
    person saw no key offered there and no reason (issue 37)."""
    if ctx.get("own_key_space", {}).get(e["seat"]) != e["to"]:
        return ""
    return f", its own key {why}"


def shared_sentences(piece: str, C: ModuleType) -> dict[str, Sentence]:
    """``piece``: what a tile is called in the edition (``tile``, ``field``); ``C``: its
    components, whose ``describe_trap`` says a revealed trap's text (read aloud at the table)."""
    return {
        "first_player_roll": lambda e, ctx: f"{player(e['seat'])} throws {e['roll']} for the first player",
        # the kernel counts turns from 0; the board's panel (hexenv.panel_head) from 1
        "start_turn": lambda e, ctx: f"Turn {e['turn'] + 1}: {player(e['seat'])} plays",
        "build": lambda e, ctx: (
            f"{player(e['seat'])} builds the {piece} {e[piece]} at {e['at']}, rotation {e['rotation']}"
        ),
        "build_nowhere": lambda e, ctx: f"{player(e['seat'])} draws the {piece} {e[piece]}, which fits nowhere",
        "rest": lambda e, ctx: (
            f"{player(e['seat'])} rests" + (f" ({plural(e['stun_left'], 'stun token')} left)" if e["stun_left"] else "")
        ),
        "trap_revealed": lambda e, ctx: (
            f"The trap at {e['node']} is revealed: {C.describe_trap(C.TRAP_NAMES.index(e['trap']))}"
        ),
        "life": lambda e, ctx: (
            f"{player(e['seat'])} {'gains' if e['change'] > 0 else 'loses'} "
            f"{plural(abs(e['change']), 'Life', 'Life')} ({e['life']} left)"
        ),
        "stun": lambda e, ctx: (
            f"{player(e['seat'])} {'takes' if e['change'] > 0 else 'sheds'} "
            f"{plural(abs(e['change']), 'stun token')} ({e['stun']} now)"
        ),
        "death": lambda e, ctx: f"{player(e['seat'])} dies at {e['node']}",
        "reroll": lambda e, ctx: f"{player(e['seat'])} throws the {e['check']} check again with the Crystal of Fate",
        "crystal": lambda e, ctx: (
            f"{player(e['seat'])}'s Crystal of Fate is now " + ("active" if e["active"] else "inactive")
        ),
        "win": lambda e, ctx: f"{player(e['seat'])} wins",
        "truncated": lambda e, ctx: "The game is cut short (max_turns)",
    }
