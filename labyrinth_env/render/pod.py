"""What the two Paths of Destiny pictures share: the canvas, the board with its tokens,
short labels for named tokens, trap tokens, the legend and title, the panel's status lines,
the drawn tile and the per-player rows of the panel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from labyrinth_env.core.contract import RUNNING, TRUNCATED, WON
from labyrinth_env.render.canvas import Canvas, Point
from labyrinth_env.render.hexboard import (
    BACKGROUND,
    FLOOR,
    GOLD,
    TRAP_BACK,
    UNDER_FLOOR,
    HexLayout,
    Token,
    draw_tile,
    draw_tokens,
)
from labyrinth_env.render.panel import INK, MUTED, Panel, seat_colour, turn_shown

WIDTH, HEIGHT = 990, 620
RADIUS = 36
BOARD_CX, BOARD_CY = 305, 300
PANEL_X = 625
STATUS = {RUNNING: "running", TRUNCATED: "stopped (turn limit)"}  # the outcomes but a win


def abbreviations(names: Sequence[str]) -> tuple[str, ...]:
    """Two-letter labels: the initials of the capitalised words ("Rune of Binding" -> "RB"),
    the first two letters of a one-word name; a clash falls back to the index."""
    out = []
    for i, name in enumerate(names):
        words = [w for w in name.replace("'", "").split() if w[:1].isupper()]
        label = (words[0][0] + words[1][0]) if len(words) > 1 else name[:2]
        out.append(label if label not in out else str(i))
    return tuple(out)


def new_canvas(title: str) -> tuple[Canvas, HexLayout]:
    return Canvas(WIDTH, HEIGHT, BACKGROUND, title=title), HexLayout(BOARD_CX, BOARD_CY, RADIUS)


def character_token(seat: int, active: bool, title: str) -> Token:
    return Token(seat_colour(seat), str(seat), title, radius=0.34, ring=INK if active else None)


def key_token(key: int, owner_colour: str | None) -> Token:
    return Token(GOLD, "K", f"key {key}", radius=0.25, stroke=owner_colour or INK, text=INK)


def legend(c: Canvas, x: float, y: float) -> None:
    """Bottom-left of the board: what the corridor kinds and trap backs look like."""
    rows = [("floor", FLOOR), ("passage under a bridge", UNDER_FLOOR)]
    for i, (label, colour) in enumerate(rows):
        yy = y + i * 18
        c.polyline([(x, yy), (x + 22, yy)], colour, 9, round_caps=False)
        c.text(x + 30, yy, label, 11, "#d9d2c5")
    yy = y + 2 * 18
    c.polyline([(x, yy), (x + 22, yy)], "#5c3718", 11, round_caps=False)
    c.polyline([(x, yy), (x + 22, yy)], "#a0652f", 8, round_caps=False)
    c.text(x + 30, yy, "bridge", 11, "#d9d2c5")
    yy = y + 3 * 18
    c.polygon([(x + 11, yy - 7), (x + 18, yy), (x + 11, yy + 7), (x + 4, yy)], fill=TRAP_BACK, stroke=INK)
    c.text(x + 30, yy, "face-down trap", 11, "#d9d2c5")


def drawn_tile_figure(p: Panel, c: Canvas, label: str, masks: list[int], levels: list[int], name: str) -> None:
    def fig(x: float, y: float, w: float, h: float) -> None:
        c.text(x, y + h / 2, label, 13, INK)
        r = h / 2 - 2
        draw_tile(c, x + 110, y + h / 2, r, masks, levels, title=name)
        c.text(x + 110 + r + 10, y + h / 2, name, 12, MUTED)

    p.figure(58, fig)


def player_rows(
    p: Panel,
    s: np.void,
    seat: int,
    viewer: int | None,
    life_max: int,
    keys_of: dict[int, list[int]],
    extra: dict[int, str],
    where: dict[int, str],
) -> None:
    """Per player: colour, name, place, life pips, stun, crystal, keys, ``extra[p]``."""
    for q in range(int(s["num_players"])):
        you = " (you)" if q == viewer else ""
        act = " · to act" if q == seat else ""
        p.text(f"Player {q}{you}{act} · {where[q]}", swatch=seat_colour(q), bold=q == seat, max_lines=1)
        life = int(s["life"][q])
        p.pips("life", life, life_max, seat_colour(q), indent=16)
        keys = ", ".join(str(k) for k in keys_of.get(q, [])) or "none"
        crystal = "on" if s["crystal"][q] else "off"
        p.text(f"stun {int(s['stun'][q])} · crystal {crystal} · keys {keys}", MUTED, size=12, indent=16, max_lines=1)
        if extra.get(q):
            p.text(extra[q], MUTED, size=12, indent=16, max_lines=2)
        p.gap(3)


def place_name(node: int, mc: int) -> str:
    """``start 2``, ``(1,-2)`` or ``(1,-2)/1`` (the second corridor of that space)."""
    from labyrinth_env.core.hexboard import FRAME_QR, START_CELL

    if node < 0:
        return "off the board"
    cell, k = divmod(int(node), mc)
    if cell >= START_CELL:
        return f"start {cell - START_CELL}"
    q, r = (int(v) for v in FRAME_QR[cell])
    return f"({q},{r})" + ("" if k == 0 else f"/{k}")


def face_down_fields(
    c: Canvas, layout: HexLayout, s: np.void, num_board: int, names: Sequence[str], omniscient: bool, noun: str
) -> None:
    """The Illusionist's face-down fields (``fd_owner`` / ``fd_tile``, both editions): a back in
    the colour of who laid it; which one it is shows only with ``omniscient=True`` (no seat
    has seen it)."""
    for cell in range(num_board):
        owner = int(s["fd_owner"][cell])
        if owner < 0:
            continue
        x, y = layout.centre(cell)
        title = f"a face-down {noun} of player {owner}"
        if omniscient:
            title += ": " + names[int(s["fd_tile"][cell])]
        with c.group(f"face-down {noun}", title=title):
            c.polygon(layout.corners(x, y, 0.92), fill=TRAP_BACK, stroke=seat_colour(owner), width=3.0)
            c.text(x, y + layout.a * 0.2, "?", layout.a * 0.6, "#f0b0a8", anchor="middle", bold=True)


def trap_token(face: str, label: str, description: str, up: bool, omniscient: bool, note: str = "") -> Token:
    """A trap on the board: face up, ``label`` on its ``face`` colour (``note`` added to its
    title); face down, a back with "?", its kind only in the omniscient view (no seat has
    seen it)."""
    if up:
        return Token(face, label, description + note, radius=0.24, shape="diamond")
    if omniscient:
        return Token(TRAP_BACK, label, "face down: " + description, radius=0.24, shape="diamond", text="#f0b0a8")
    return Token(TRAP_BACK, "?", "a face-down trap", radius=0.24, shape="diamond")


def finish_board(
    c: Canvas,
    layout: HexLayout,
    anchors: Sequence[Point],
    tokens: dict[int, list[Token]],
    edition: str,
    omniscient_shows: str | None,
) -> None:
    """The tokens, the legend and the edition's title; an omniscient view says what it shows
    (``omniscient_shows``, None in a seat's or a spectator's view)."""
    draw_tokens(c, layout, anchors, tokens)
    legend(c, 22, HEIGHT - 78)
    c.text(22, 24, f"Paths of Destiny · {edition}", 15, "#f1e9da", bold=True)
    if omniscient_shows:
        c.text(22, 44, f"omniscient view: {omniscient_shows} shown", 11, "#f0b0a8")


def status_panel(c: Canvas, s: np.void, seat: int, turn_word: str, decisions: Sequence[str]) -> Panel:
    """The side panel with its first lines: the turn (``turn_word``: "Round" or "Turn") and
    the outcome, then who acts and decides, or who won."""
    p = Panel(c, PANEL_X, 24, WIDTH - PANEL_X - 20, HEIGHT - 48, size=13)
    outcome = int(s["outcome"])
    status = f"won by player {int(s['winner'])}" if outcome == WON else STATUS[outcome]
    p.heading(f"{turn_word} {turn_shown(s['turn'], s['outcome'])} · {status}")
    if outcome == RUNNING:
        decider = int(s["decider"])
        p.text(f"Player {seat}'s turn · {int(s['actions_left'])} action(s) left", swatch=seat_colour(seat), bold=True)
        who = "" if decider == seat else f" (player {decider})"
        p.text(f"deciding: {decisions[int(s['decision'])]}{who}", MUTED, max_lines=2)
    else:
        winner = int(s["winner"])
        if outcome == WON and winner >= 0:
            p.text(f"Player {winner} holds the centre with a key", swatch=seat_colour(winner), bold=True)
    return p


def drawn_tile(p: Panel, c: Canvas, s: np.void, components: Any, label: str) -> None:
    """The tile (field) just drawn, if any, as a figure in the panel; ``components`` is the
    edition's ``components`` module (its tile tables and names)."""
    t = int(s["drawn_tile"])
    if t < 0:
        return
    mask_row, level_row = components.TILE_CORRIDOR_MASK[t], components.TILE_CORRIDOR_LEVEL[t]
    masks = [int(m) for m, lv in zip(mask_row, level_row) if lv >= 0]
    levels = [int(lv) for lv in level_row if lv >= 0]
    drawn_tile_figure(p, c, label, masks, levels, components.TILE_NAMES[t])


def players_section(
    p: Panel,
    s: np.void,
    seat: int,
    viewer: int | None,
    life_max: int,
    extra: dict[int, str],
    where: dict[int, str],
) -> None:
    """The panel's "Players" heading and ``player_rows``, with the keys each one holds."""
    p.gap(4)
    p.heading("Players")
    keys_of: dict[int, list[int]] = {}
    for k, holder in enumerate(s["key_holder"]):
        if holder >= 0:
            keys_of.setdefault(int(holder), []).append(k)
    player_rows(p, s, seat, viewer, life_max, keys_of, extra, where)
