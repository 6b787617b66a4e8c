"""Paths of Destiny 3e events as sentences (``env.event_text``; ``core.sentences``): every
throw against what it needed (``components``' printed difficulties)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labyrinth_env.core.sentences import Sentence, against, listed, player, plural
from labyrinth_env.rulesets.hex_sentences import onto_own_key_space, shared_sentences
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

Event = Mapping[str, Any]
Context = Mapping[str, Any]


def _trap_check(e: Event, ctx: Context) -> str:
    # l.432: two dice per roll, summed against the Trap Difficulty Level; every throw is
    # shown (``env.event_display``), as the player is asked to keep or reroll them all (l.428)
    needed = int(C.TRAP_DIFFICULTY[C.TRAP_NAMES.index(e["trap"])])
    head = f"{player(e['seat'])} makes the {e['trap']} trap check, {plural(e['rolls'], 'throw')} of two dice"
    if "dice" not in e:  # the decoded data alone counts the failures only
        return f"{head}, each needing {needed}+ with modifiers; {e['failed_rolls']} failed"
    mod = e["modifier"]
    each = f", each throw {mod:+d} (items, the current event)" if mod else ""
    throws = [
        f"{d + mod} ({f'{d} on the dice, ' if mod else ''}{'success' if d + mod >= needed else 'failure'})"
        for d in e["dice"]
    ]
    return f"{head} against {needed}+{each}: {listed(throws)}; {e['failed_rolls']} failed"


def _token(e: Event) -> str:
    return f"key {e['id']}" if e["token"] == "key" else f"the {e['id']}"


def _revealed(e: Event, ctx: Context) -> str:
    who = "the Golem" if e["entered_by"] == "golem" else player(e["entered_by"])
    return (
        f"The face-down tile of {player(e['seat'])} at {e['cell']} is turned up as {who} enters: "
        f"{e['tile']}, rotation {e['rotation']}"
    )


SENTENCES: dict[str, Sentence] = {
    **shared_sentences("tile", C),
    "trap_placed": lambda e, ctx: f"{player(e['seat'])} sets a face-down trap at {e['node']}",
    # "reads its abilities aloud to all players" (l.150)
    "item_placed": lambda e, ctx: f"An item is placed at {e['node']}: {C.describe_item(C.ITEM_NAMES.index(e['item']))}",
    # l.193: "cannot pick up the key token from the key space adjacent to his starting space
    # unless this key token was dropped by another character"
    "move": lambda e, ctx: (
        f"{player(e['seat'])} moves from {e['from']} to {e['to']}"
        + onto_own_key_space(e, ctx, "space, where it may pick up a key only if another character dropped it there")
    ),
    # a safe jump throws no dice: its event carries no roll worth saying
    "safe_jump": lambda e, ctx: f"{player(e['seat'])} makes a safe jump",
    "jump_check": lambda e, ctx: (
        f"{player(e['seat'])} makes a Jump Check: {against(e['roll'], C.JUMP_DIFFICULTY, e['success'])}"
    ),
    "trap_check": _trap_check,
    "golem_check": lambda e, ctx: (
        f"{player(e['seat'])} makes a Golem Check: {against(e['roll'], C.GOLEM_DIFFICULTY, e['success'])}"
    ),
    "combat": lambda e, ctx: (
        f"{player(e['attacker'])} attacks {player(e['defender'])}: attack {e['attack']} against defence {e['defence']}"
    ),
    "drop": lambda e, ctx: f"{player(e['seat'])} drops {_token(e)} at {e['node']}",
    "to_start": lambda e, ctx: f"{player(e['seat'])} goes back to the starting space from {e['from']}",
    "pick_up": lambda e, ctx: f"{player(e['seat'])} picks up {_token(e)}",
    "exchange": lambda e, ctx: f"{player(e['seat'])} takes the {e['took']} and leaves the {e['left']}",
    "golem_card": lambda e, ctx: (
        f"{player(e['seat'])} draws a Golem card: " + (f"move {e['steps']}" if e["card"] == "move" else e["card"])
    ),
    "golem_move": lambda e, ctx: f"The Golem moves from {e['from']} to {e['to']}",
    "event": lambda e, ctx: (
        f"{player(e['seat'])} triggers the event {C.describe_event(C.EVENT_NAMES.index(e['event']))}"
    ),
    "pushed_out": lambda e, ctx: f"{player(e['seat'])} is pushed out of {e['from']} to {e['to']}",
    "scepter": lambda e, ctx: f"{player(e['seat'])} uses the Scepter of Control",
    "heart_of_the_abyss": lambda e, ctx: f"{player(e['seat'])} uses the Heart of the Abyss",
    "potion": lambda e, ctx: f"{player(e['seat'])} sips the Healing Potion",
    "trap_removed": lambda e, ctx: f"{player(e['seat'])} removes the {e['trap']} trap at {e['node']}",
    "thrown_back": lambda e, ctx: f"{player(e['seat'])} is thrown back from {e['from']} to {e['to']}",
    "character": lambda e, ctx: f"{player(e['seat'])} is the {e['character']} ({e['how']})",
    "token_laid": lambda e, ctx: f"{player(e['seat'])} lays a {e['token']} token at {e['node']}",
    "token_effect": lambda e, ctx: (
        f"{player(e['owner'])}'s {e['token']} token at {e['node']} acts on {player(e['seat'])}"
    ),
    "token_returned": lambda e, ctx: f"{player(e['seat'])}'s {e['token']} token at {e['node']} goes back",
    "fury": lambda e, ctx: f"{player(e['seat'])} flies into a Fury: total {e['total']}",
    "dismember": lambda e, ctx: f"{player(e['seat'])} dismembers {player(e['loser'])}",
    "rebuild": lambda e, ctx: f"{player(e['seat'])} rebuilds: the {e['tile']} at {e['cell']} is {e['how']}",
    "steal": lambda e, ctx: f"{player(e['seat'])} steals key {e['key']} from {player(e['loser'])}",
    "chaos_portal": lambda e, ctx: f"{player(e['seat'])} goes through a Chaos Portal from {e['from']} to {e['to']}",
    "face_down_tile": lambda e, ctx: f"{player(e['seat'])} lays a tile face down at {e['cell']}",
    "face_down_revealed": _revealed,
    "thiefs_tools": lambda e, ctx: f"{player(e['seat'])}'s Thief's Tools take the {e['trap']} trap check again",
}
