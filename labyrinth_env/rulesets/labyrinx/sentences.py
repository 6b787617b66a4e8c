"""Labyrinx events as sentences (``env.event_text``; ``core.sentences``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labyrinth_env.core.sentences import Sentence, player, players, plural

Event = Mapping[str, Any]
Context = Mapping[str, Any]


def _place(cell: str, ctx: Context) -> str:
    # the exit space is one location over several spaces (l.18); the kernel names it by its
    # first space, which a person would read as the space next to where they clicked
    return "the exit space" if cell == ctx.get("exit") else cell


def _move(e: Event, ctx: Context) -> str:
    how = {
        "move": "moves",
        "push": "is pushed",
        "monster": "is moved by the loser's neighbour",
        "trap": "is moved by the loser's neighbour",
        "play": "is moved by a played card",
        "despair": "moves in despair",
        "builder": "is moved by the Builder",
    }.get(e["how"], f"moves ({e['how']})")
    return f"{player(e['seat'])} {how} from {_place(e['from'], ctx)} to {_place(e['to'], ctx)}"


def _challenge(e: Event, ctx: Context) -> str:
    return (
        f"{player(e['seat'])} faces the {e['challenge']}: difficulty {e['difficulty']}, "
        f"{plural(e['icons'], 'matching icon')} on the character"
    )


def _won(e: Event, ctx: Context) -> str:
    text = f"{player(e['seat'])} beats the {e['challenge']}"
    if e["treasure"]:
        text += " and takes a treasure" + (" from the chest" if e["from_chest"] else "")
    return text


def _lost(e: Event, ctx: Context) -> str:
    text = f"{player(e['seat'])} fails the {e['challenge']}"
    if e["treasure_lost"]:
        text += " and loses a treasure"
    if e["mover"] is not None:
        text += f"; {player(e['mover'])} moves the loser"
    return text


SENTENCES: dict[str, Sentence] = {
    "start_turn": lambda e, ctx: f"Turn {e['turn']}: {player(e['seat'])} plays",
    "labyrinth_expands": lambda e, ctx: f"{player(e['seat'])} lays the top card face down at {e['at']}",
    "move": _move,
    "move_lost": lambda e, ctx: (
        f"{player(e['seat'])} cannot pass the door towards {_place(e['door_to'], ctx)} "
        f"and stays at {_place(e['stays'], ctx)}"
    ),
    "flip": lambda e, ctx: f"{player(e['seat'])} turns face up the card at {e['at']}: a {e['card']}",
    "rotate": lambda e, ctx: f"{player(e['seat'])} turns the {e['card']} at {e['at']} to rotation {e['rotation']}",
    "peek": lambda e, ctx: f"{player(e['seat'])} peeks at the face-down card at {e['at']}",
    "play": lambda e, ctx: f"{player(e['seat'])} plays a {e['card']} at {e['at']}",
    "draw": lambda e, ctx: f"{player(e['seat'])} draws {plural(e['cards'], 'card')}",
    "discard": lambda e, ctx: f"{player(e['seat'])} discards a {e['card']}",
    "challenge": _challenge,
    "challenge_won": _won,
    "challenge_lost": _lost,
    "treasure_on_chest": lambda e, ctx: f"{player(e['seat'])} leaves a treasure on the chest at {e['at']}",
    "reshuffle": lambda e, ctx: f"The discard pile ({plural(e['cards'], 'card')}) is shuffled into a new draw pile",
    # l.40: the hand is discarded, a card without a challenge taken from the discard pile, or
    # new cards drawn until one comes ("despairs and draws 0 cards" read as nothing happening)
    "despair": lambda e, ctx: (
        f"{player(e['seat'])} despairs, discarding its hand, and "
        + (
            f"draws {plural(e['cards_drawn'], 'card')} to find one without a challenge"
            if e["cards_drawn"]
            # drawn 0: from the discard pile, or (rarely) no card without one is left anywhere
            else "draws none: a card without a challenge comes from the discard pile, if one lies there"
        )
    ),
    "rest": lambda e, ctx: f"{player(e['seat'])} rests, drawing {plural(e['cards'], 'card')}",
    "end_phase": lambda e, ctx: (
        f"{player(e['seat'])} ends the turn"
        + (f"; {plural(e['flipped_down'], 'card')} turned face down again" if e["flipped_down"] else "")
    ),
    "end_trigger": lambda e, ctx: f"The end of the game is triggered ({e['reason']}) by {player(e['seat'])}",
    "race": lambda e, ctx: f"The race back to the exit begins: {players(e['racers'])} race, every door is open",
    "win": lambda e, ctx: f"{player(e['seat'])} wins ({e['how']})",
    "truncated": lambda e, ctx: f"The game is cut short ({e['why']})",
    "power": lambda e, ctx: f"{player(e['seat'])} uses the special power {e['power']}",
    "cards_out": lambda e, ctx: "Every card is in play",
    "card_from_deck_placed": lambda e, ctx: (
        f"{player(e['seat'])} places the card from the deck, a {e['card']}, at {e['at']}"
    ),
    "replace": lambda e, ctx: f"{player(e['seat'])} replaces the {e['old']} at {e['at']} with a {e['new']}",
    "stop_moving": lambda e, ctx: (
        f"{player(e['seat'])} stops moving the loser after {plural(e['moved'], 'step')} ({e['steps_left']} left)"
    ),
    "chest_left": lambda e, ctx: f"{player(e['seat'])} leaves the chest at {e['at']} alone",
}
