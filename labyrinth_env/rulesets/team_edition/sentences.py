"""Team Edition events as sentences (``env.event_text``; ``core.sentences``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labyrinth_env.core.sentences import Sentence, player

Event = Mapping[str, Any]
Context = Mapping[str, Any]

_PAGE = "The Book of Daedalus turns a page: "


def _page(e: Event, ctx: Context) -> str:
    # the decoded page's own field is named "text" (recorded games digest it): a game_log
    # entry's "text" is already this sentence
    return e["text"] if e["text"].startswith(_PAGE) else _PAGE + e["text"]


def _sent(e: Event, ctx: Context) -> str:
    homes = ctx.get("homes", {})
    corner = homes.get(e["to"])
    where = f"{e['to']}" + (f", the {corner} home corner" if corner else "")
    if e["cause"] == "daedalus page":
        if e["from"] == e["to"]:
            # a Teleport page (the same one can come twice) may name the corner a piece
            # already stands on: it stays, and "from r6c6 to r6c6" read as a wrong log
            return f"The Book of Daedalus teleports {player(e['seat'])} to {where}, where its piece already stands"
        # a Teleport page names the corner it sends pieces to: it need not be the piece's own
        own = ctx.get("home_of", {}).get(e["seat"]) == e["to"]
        verb = "is sent home" if own else "is teleported"
        return f"{player(e['seat'])} {verb} by the Book of Daedalus from {e['from']} to {where}"
    why = {"pushed out": "pushed off the board", "tile flipped": "on a tile flipped face down"}.get(
        e["cause"], e["cause"]
    )
    return f"{player(e['seat'])} is sent home ({why}) from {e['from']} to {where}"


SENTENCES: dict[str, Sentence] = {
    # the kernel counts turns from 0; the board's panel (render_text) from 1
    "start_turn": lambda e, ctx: f"Turn {e['turn'] + 1}: {player(e['seat'])} plays ({e['pages_left']} pages left)",
    "daedalus_page": _page,
    "daedalus_push": lambda e, ctx: (
        f"The Book of Daedalus pushes a face-down tile in at {e['arrow']}; the {e['tile_out']} tile comes out"
        + (" (it was face down)" if e["was_face_down"] else "")
    ),
    "daedalus_flip": lambda e, ctx: f"The Book of Daedalus turns the {e['tile']} tile at {e['cell']} face down",
    "sent_home": _sent,
    "push": lambda e, ctx: (
        f"{player(e['seat'])} pushes the spare in at {e['arrow']}, turn {e['orientation']}; "
        f"the {e['tile_out']} tile comes out"
    ),
    "piece_wraps": lambda e, ctx: (
        f"{player(e['seat'])}'s piece is pushed off the board at {e['from']} and comes back in at {e['to']}"
    ),
    "rotate": lambda e, ctx: f"{player(e['seat'])} turns the tile at {e['cell']} {e['steps']}/4 clockwise",
    "switch": lambda e, ctx: f"{player(e['seat'])} switches the tiles at {e['cells'][0]} and {e['cells'][1]}",
    "move": lambda e, ctx: (
        f"{player(e['seat'])} moves from {e['from']} to {e['to']}" + (" using a spell" if e["spell_used"] else "")
    ),
    "flip_up": lambda e, ctx: (
        f"{player(e['seat'])} turns the tile at {e['cell']} face up: {e['tile']}, turn {e['orientation']}"
    ),
    "collect": lambda e, ctx: (
        f"{player(e['seat'])} collects the {e['treasure']} for "
        + ("its own board" if e["from_board_of"] == e["seat"] else f"{player(e['from_board_of'])}'s board")
        + ("; a bonus move" if e["bonus_move"] else "")
    ),
    "draw": lambda e, ctx: f"{player(e['seat'])} draws the treasure card {e['treasure']}",
    "end_turn": lambda e, ctx: f"{player(e['seat'])} ends turn {e['turn'] + 1}",
    "left_face_down": lambda e, ctx: f"{player(e['seat'])} leaves the tile at {e['cell']} face down",
    "game_end": lambda e, ctx: (
        "The game ends: the team has "
        + {"truncated": "run out of turns"}.get(str(e["outcome"]), str(e["outcome"]))
        + f", {e['collected']} of 24 treasures collected"
    ),
}
