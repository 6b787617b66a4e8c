"""Labyrinthos events as sentences (``env.event_text``; ``core.sentences``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from labyrinth_env.core.sentences import Sentence, article, player, players, plural
from labyrinth_env.rulesets.labyrinthos import components as C

Event = Mapping[str, Any]
Context = Mapping[str, Any]


# as the rulebook writes them ("the Minotaur", "Medusa"); the option's values are lower case
MONSTER_TITLES = {"minotaur": "the Minotaur", "medusa": "Medusa", "cerberus": "Cerberus"}


def _monster(ctx: Context) -> str:
    name = ctx.get("monster", "monster")
    return MONSTER_TITLES.get(name, f"the {name}")


def _move(e: Event, ctx: Context) -> str:
    how = "" if e["how"] == "move" else f" ({e['how']})"
    if e["from"] is None:
        return f"{player(e['seat'])} enters the labyrinth at {e['to']}{how}"
    return f"{player(e['seat'])} moves from {e['from']} to {e['to']}{how}"


def _monster_move(e: Event, ctx: Context) -> str:
    who = _monster(ctx)
    if e["from"] is None:
        return f"{who[0].upper()}{who[1:]} enters the labyrinth at {e['to']}"
    return f"{who[0].upper()}{who[1:]} moves from {e['from']} to {e['to']} ({e['how']})"


def _displace(e: Event, ctx: Context) -> str:
    # l.235: the controlling player moves each attacked hero to an adjacent tile with a
    # connecting pathway; with none (the kernel's -1) the hero stays: it was read as
    # "driven off the board"
    if e["to"] is None:
        return f"{player(e['seat'])} has no connected tile to be moved to and stays"
    return f"{player(e['seat'])} is moved to {e['to']} by {player(e['by'])}, who controls {_monster(ctx)}"


def _first_player(e: Event, ctx: Context) -> str:
    # the maze (l.42-44), the keys and the deck (l.45-46) and the deal (l.47) come before the
    # first player and emit no event of their own; the tokens (l.47) have theirs
    starting = C.START_TILES.size
    return (
        f"The Door tile lies in the middle at {ctx.get('door', 'the centre')} with the {starting} starting tiles "
        f"face down around it and the other {C.NUM_TILES - starting - 1} tiles face down around those, a "
        f"{C.SIZE}x{C.SIZE} maze; the key tokens lie face down by colour and the Desperation deck is "
        f"shuffled; each player is dealt {C.HAND_LIMIT} Desperation cards face down; {player(e['seat'])} plays "
        "first and chooses a hero first"
    )


def _hero(e: Event, ctx: Context) -> str:
    text = f"{player(e['seat'])} is {e['hero']}"
    starts = ctx.get("hero_starts")
    last = (ctx.get("first_player", 0) + ctx.get("num_players", 1) - 1) % ctx.get("num_players", 1)
    if starts is None or e["seat"] != last:
        return text
    # the last choice turns the starting tiles up and sets the heroes on them (l.48-49),
    # which the kernel does without an event of its own
    tiles = ", ".join(f"{cell} {tile}" for cell, tile in ctx.get("start_tiles", {}).items())
    where = ", ".join(f"{player(p)} at {cell}" for p, cell in sorted(starts.items()))
    return f"{text}; the starting tiles are turned face up ({tiles}) and each hero stands on its colour's tile: {where}"


def _tokens(e: Event, ctx: Context) -> str:
    # the event is a change (negative: tokens lost), not what the player now holds
    counts = ((e["feet"], "Foot token", "Feet tokens"), (e["hand"], "Hand token", "Hand tokens"))
    gains = " and ".join(plural(n, one, many) for n, one, many in counts if n > 0)
    losses = " and ".join(plural(-n, one, many) for n, one, many in counts if n < 0)
    done = [f"takes {gains}"] * bool(gains) + [f"loses {losses}"] * bool(losses)
    return f"{player(e['seat'])} " + (" and ".join(done) or "takes no action tokens")


SENTENCES: dict[str, Sentence] = {
    # the kernel counts turns from 0; the board's panel (render_text) from 1
    "start_turn": lambda e, ctx: f"Turn {e['turn'] + 1}: {player(e['seat'])} plays",
    "first_player": _first_player,
    "hero": _hero,
    "move": _move,
    "explore": lambda e, ctx: f"{player(e['seat'])} explores {e['cell']}: a {e['tile']} tile",
    "orient": lambda e, ctx: f"{player(e['seat'])} lays the tile at {e['cell']} turned {e['rotation']} clockwise",
    "discover_key": lambda e, ctx: (
        f"{player(e['seat'])} discovers {article(e['colour'])} {e['colour']} key ({e['action']}) and puts it on the "
        + (e["slot"] if str(e["slot"]).endswith("slot") else f"{e['slot']} slot")
    ),
    "card": lambda e, ctx: f"{player(e['seat'])} plays {e['card']}",
    "cancel": lambda e, ctx: f"{player(e['seat'])} cancels {player(e['of'])}'s {e['card']}",
    "rotate_wall": lambda e, ctx: f"{player(e['seat'])} turns the wall between {e['from']} to lie between {e['to']}",
    "rotate_tile": lambda e, ctx: (
        f"{player(e['seat'])} turns the tile at {e['cell']} {e['way']}"
        if e["seat"] >= 0
        else f"The tile at {e['cell']} turns {e['way']}"  # the Minotaur phase's symbol: nobody's action
    ),
    "wall_placed": lambda e, ctx: (
        (f"{player(e['seat'])} places a wall" if e["seat"] >= 0 else "A wall is placed") + f" between {e['edge']}"
    ),
    "wall_removed": lambda e, ctx: (
        f"The wall between {e['edge']} is removed" + (f" by {player(e['seat'])}" if e["seat"] >= 0 else "")
    ),
    "heal": lambda e, ctx: f"{player(e['seat'])} heals the {e['slot']} slot",
    "recover": lambda e, ctx: f"{player(e['seat'])} recovers, healing {plural(e['wounds'], 'wound')}",
    "rearrange": lambda e, ctx: f"{player(e['seat'])} moves the {e['from']} action to the {e['to']} slot",
    "wound": lambda e, ctx: (
        f"{player(e['seat'])} is wounded" + (f" in the {e['slot']} slot" if e["slot"] is not None else "")
    ),
    "refresh": lambda e, ctx: (
        f"{player(e['seat'])} takes {plural(e['feet'], 'Foot token', 'Feet tokens')} and "
        f"{plural(e['hand'], 'Hand token')}"
    ),
    "draw": lambda e, ctx: f"{player(e['seat'])} draws {plural(e['cards'], 'card')}",
    # a discard is not a play: the card goes to the discard pile unused
    "discard": lambda e, ctx: f"{player(e['seat'])} discards {e['card']} (not played)",
    "minotaur_die": lambda e, ctx: f"{player(e['seat'])} rolls the monster die: {e['face']}",
    "blood_die": lambda e, ctx: f"{player(e['seat'])} rolls the blood die: {plural(e['wounds'], 'wound')}",
    "monster_move": _monster_move,
    "attack": lambda e, ctx: f"{_monster(ctx)} attacks at {e['cell']}: {players(e['heroes'])}",
    "displace": _displace,
    "tokens": _tokens,
    "reshuffle": lambda e, ctx: f"The discards ({plural(e['cards'], 'card')}) are shuffled into a new deck",
    "special_action": lambda e, ctx: f"{player(e['seat'])} uses the special action {e['action']}",
    "key_action": lambda e, ctx: f"{player(e['seat'])} uses the key action {e['action']}",
    "hunt": lambda e, ctx: f"{_monster(ctx)} hunts {player(e['target'])}",
    "win": lambda e, ctx: f"{player(e['seat'])} wins",
    "truncated": lambda e, ctx: "The game is cut short (max_turns)",
    "movement_points": lambda e, ctx: f"{_monster(ctx)} gets {plural(e['points'], 'movement point')}",
    "shield_maiden": lambda e, ctx: f"{player(e['seat'])}'s Shield Maiden takes no wound",
    "wild_intuition": lambda e, ctx: (
        f"{player(e['seat'])} uses Wild Intuition" + (" and rolls" if e["rolls"] else " and does not roll")
    ),
    "key_swap": lambda e, ctx: (
        f"{player(e['seat'])} swaps keys with {player(e['with'])}: gives {e['gave']}, gets {e['got']}"
    ),
}
