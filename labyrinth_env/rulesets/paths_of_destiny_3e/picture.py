"""Picture of a Paths of Destiny (3rd edition) state: the hex board with its corridors,
bridges and passages under them, characters, keys, items, traps, ability tokens (small
diamonds in their owner's colour) and the Golem, and a side panel (turn, decision, the
current event, pools, the drawn tile, each player's character, ability tokens in hand,
Life, stun, Crystal of Fate, keys and items). Face-down traps and the Illusionist's face-down
tiles are drawn as backs; their kind shows only with ``omniscient=True``. Nothing else of the
game is private to a seat.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.sentences import RULEBOOK_CITATION
from labyrinth_env.render import INK, MUTED, Canvas, seat_colour
from labyrinth_env.render.hexboard import TRAP_RED, Token, draw_board
from labyrinth_env.render.pod import (
    abbreviations,
    character_token,
    drawn_tile,
    face_down_fields,
    finish_board,
    key_token,
    new_canvas,
    place_name,
    players_section,
    status_panel,
    trap_token,
)
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

ITEM_ABBR = abbreviations(C.ITEM_NAMES)
TRAP_ABBR = abbreviations(C.TRAP_NAMES)
TOKEN_ABBR = abbreviations(C.TOKEN_TYPE_NAMES)
ITEM_COLOUR = "#2a9d8f"
GOLEM = "#9aa5ae"


def draw(s: np.void, viewer: int | None = None, omniscient: bool = False) -> Canvas:
    """The picture of state ``s`` as seen by seat ``viewer`` (None: a spectator)."""
    n = int(s["num_players"])
    if viewer is not None and not 0 <= viewer < n:
        raise ValueError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    c, layout = new_canvas("Labyrinth: Paths of Destiny (3rd edition)")
    owner = {int(s["seat_start"][p]): p for p in range(n)}
    colours = {i: seat_colour(p) for i, p in owner.items()}
    anchors = draw_board(c, layout, s, K.MC, int(s["center_cell"]), K.KEY_CELLS, colours, colours, C.TILE_NAMES)
    face_down_fields(c, layout, s, K.NUM_BOARD, C.TILE_NAMES, omniscient, "tile")
    running = int(s["outcome"]) == K.RUNNING
    seat = int(s["seat"]) if running else -1
    tokens: dict[int, list[Token]] = {}
    for p in range(n):
        node = int(s["position"][p])
        if node >= 0:
            ch = int(s["character"][p])
            who = f" ({C.CHARACTER_NAMES[ch]})" if ch >= 0 else ""
            title = f"player {p}{who}: life {int(s['life'][p])}, stun {int(s['stun'][p])}"
            tokens.setdefault(node, []).append(character_token(p, p == seat, title))
    tokens.setdefault(int(s["golem_node"]), []).append(Token(GOLEM, "G", "the Golem", radius=0.36, text=INK))
    for k in range(K.NUM_KEYS):
        node = int(s["key_node"][k])
        if node >= 0:
            tokens.setdefault(node, []).append(key_token(k, colours.get(k)))
    for i in range(K.NUM_ITEMS):
        node = int(s["item_node"][i])
        if node >= 0:
            text = RULEBOOK_CITATION.sub("", C.describe_item(i))  # a tooltip for players, not the rules docs
            tokens.setdefault(node, []).append(Token(ITEM_COLOUR, ITEM_ABBR[i], text, radius=0.25))
    for i in range(K.NUM_ABILITY_TOKENS):  # ability tokens: a square in the owner's colour
        node = int(s["tok_node"][i])
        if node >= 0:
            kind = int(C.ABILITY_TOKENS[i])
            owner = int(s["tok_owner"][i])
            title = f"{C.TOKEN_TYPE_NAMES[kind]} of player {owner}"
            tok = Token(seat_colour(owner), TOKEN_ABBR[kind], title, radius=0.22, shape="diamond", stroke=INK)
            tokens.setdefault(node, []).append(tok)
    for node in np.flatnonzero(s["node_trap"] >= 0):
        kind = int(C.TRAP_TOKENS[int(s["node_trap"][node])])
        tok = trap_token(TRAP_RED, TRAP_ABBR[kind], C.describe_trap(kind), bool(s["trap_up"][node]), omniscient)
        tokens.setdefault(int(node), []).append(tok)
    finish_board(c, layout, anchors, tokens, "3rd edition", "hidden traps and tiles" if omniscient else None)
    _panel(c, s, viewer, seat)
    return c


def _panel(c: Canvas, s: np.void, viewer: int | None, seat: int) -> None:
    p = status_panel(c, s, seat, "Turn", K.DECISIONS)
    e = int(s["current_event"])
    if e >= 0:
        p.text(f"Event: {C.EVENT_NAMES[e]}", "#7a3b9e", bold=True)
        p.text(C.EVENT_TEXT[e], MUTED, size=12, max_lines=3)
    else:
        p.text("Event: none yet", MUTED)
    p.text(
        f"pools: tiles {int(s['tile_pool_len'])} · traps {int(s['trap_pool_len'])} · items {int(s['item_pool_len'])}"
        f" · Golem cards {K.NUM_GOLEM_CARDS - int(s['golem_pos'])} · events {K.NUM_EVENTS - int(s['event_pos'])}",
        MUTED,
        size=12,
        max_lines=2,
    )
    drawn_tile(p, c, s, C, "drawn tile")
    n = int(s["num_players"])
    extra = {q: ", ".join(C.ITEM_NAMES[int(i)] for i in s["items"][q] if i >= 0) for q in range(n)}
    extra = {q: f"items: {v}" for q, v in extra.items() if v}
    for q in range(n):  # the character and the ability tokens in hand (public)
        ch = int(s["character"][q])
        if ch < 0:
            continue
        hand = sum(1 for i in range(K.NUM_ABILITY_TOKENS) if s["tok_owner"][i] == q and s["tok_node"][i] < 0)
        kind = int(C.CHARACTER_TOKEN[ch])
        tokens_text = f" · {hand} {C.TOKEN_TYPE_NAMES[kind]}" if kind >= 0 else ""
        extra[q] = f"{C.CHARACTER_NAMES[ch]}{tokens_text}" + (f" · {extra[q]}" if q in extra else "")
    where = {q: place_name(int(s["position"][q]), K.MC) for q in range(n)}
    players_section(p, s, seat, viewer, C.LIFE, extra, where)
