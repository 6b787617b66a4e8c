"""Picture of a Paths of Destiny (2011 edition) state: the hex board with its corridors,
bridges and passages under them, players, keys, red and orange (door) traps and the
Guard (awake or asleep), and a side panel (round, decision, piles, the drawn field, each
player's Life, stun, fate crystal and keys). Face-down traps and the Illusionist's
face-down fields are drawn as backs; what they are shows only with ``omniscient=True``.
Nothing else of the game is private to a seat.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.render import INK, MUTED, Canvas, seat_colour
from labyrinth_env.render.hexboard import TRAP_DOOR, TRAP_RED, Token, draw_board
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
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011.env import character_text

TRAP_ABBR = abbreviations(C.TRAP_NAMES)
GUARD_AWAKE = "#3d5a80"
GUARD_ASLEEP = "#a7b6c9"


def draw(s: np.void, viewer: int | None = None, omniscient: bool = False) -> Canvas:
    """The picture of state ``s`` as seen by seat ``viewer`` (None: a spectator)."""
    n = int(s["num_players"])
    if viewer is not None and not 0 <= viewer < n:
        raise ValueError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    c, layout = new_canvas("Labyrinth: Paths of Destiny (2011 edition)")
    owner = {int(s["seat_start"][p]): p for p in range(n) if s["seat_start"][p] >= 0}
    colours = {i: seat_colour(p) for i, p in owner.items()}
    anchors = draw_board(c, layout, s, K.MC, K.CENTER_CELL, K.KEY_CELLS, colours, colours, C.TILE_NAMES)
    face_down_fields(c, layout, s, K.NUM_BOARD, C.TILE_NAMES, omniscient, "field")  # Spreading Illusion
    running = int(s["outcome"]) == K.RUNNING
    seat = int(s["seat"]) if running else -1
    tokens: dict[int, list[Token]] = {}
    for p in range(n):
        node = int(s["position"][p])
        if node >= 0:
            title = f"player {p}: life {int(s['life'][p])}, stun {int(s['stun'][p])}{character_text(s, p)}"
            tokens.setdefault(node, []).append(character_token(p, p == seat, title))
    asleep = bool(s["guard_asleep"])
    guard = Token(
        GUARD_ASLEEP if asleep else GUARD_AWAKE,
        "z" if asleep else "G",
        "the Guard (asleep)" if asleep else "the Guard",
        radius=0.36,
        text=INK if asleep else "#ffffff",
    )
    tokens.setdefault(int(s["guard_node"]), []).append(guard)
    for k in range(K.NUM_KEYS):
        node = int(s["key_node"][k])
        if node >= 0:
            tokens.setdefault(node, []).append(key_token(k, colours.get(k)))
    # a corridor's first trap and its second (Entrapment, l.386; Dark Enlivening, l.416)
    slots = (("node_trap", "trap_up", "trap_failed"), ("node_trap2", "trap2_up", "trap2_failed"))
    for node, (trap, up, fail) in ((x, f) for f in slots for x in np.flatnonzero(s[f[0]] >= 0)):
        kind = int(C.TRAP_TOKENS[int(s[trap][node])])
        face = TRAP_DOOR if C.TRAP_COLOUR[kind] == C.DOOR else TRAP_RED
        failed = " (failed here once: bracketed difficulty)" if s[fail][node] else ""
        tok = trap_token(face, TRAP_ABBR[kind], C.describe_trap(kind), bool(s[up][node]), omniscient, failed)
        tokens.setdefault(int(node), []).append(tok)
    finish_board(c, layout, anchors, tokens, "2011 edition", "hidden traps" if omniscient else None)
    _panel(c, s, viewer, seat)
    return c


def _panel(c: Canvas, s: np.void, viewer: int | None, seat: int) -> None:
    p = status_panel(c, s, seat, "Round", K.DECISIONS)
    guard = "asleep" if s["guard_asleep"] else "awake"
    p.text(f"Guard: {guard} at {place_name(int(s['guard_node']), K.MC)}", GUARD_AWAKE, bold=True)
    p.text(
        f"piles: fields {int(s['tile_pool_len'])} · traps {int(s['trap_pool_len'])}"
        f" · Guard cards {K.NUM_GUARD_CARDS - int(s['guard_pos'])}",
        MUTED,
        size=12,
        max_lines=2,
    )
    drawn_tile(p, c, s, C, "drawn field")
    n = int(s["num_players"])
    where = {
        q: place_name(int(s["position"][q]), K.MC) if s["position"][q] >= 0 else "choosing a start" for q in range(n)
    }
    # the character and its tokens (public, l.131), as the text board writes them
    extra = {q: character_text(s, q).lstrip(", ") for q in range(n) if s["character"][q] >= 0}
    players_section(p, s, seat, viewer, C.LIFE, extra, where)
