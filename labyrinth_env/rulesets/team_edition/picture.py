"""Picture of a Team Edition state: the 7x7 moving maze with its 12 push arrows, the pieces,
the treasures, the spare tile and a side panel (turn, spells, treasures wanted, the Book of
Daedalus). Face-down tiles are drawn as backs; their paths and treasures appear only with
``omniscient=True`` (or, for treasures, when the game's ``public_memory`` option is on).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import ROTATE_SQUARE
from labyrinth_env.render import INK, MUTED, Canvas, Panel, mix
from labyrinth_env.render.panel import turn_shown
from labyrinth_env.rulesets.team_edition import components as C
from labyrinth_env.rulesets.team_edition import kernel as K

WIDTH, HEIGHT = 940, 620
CELL = 70
MARGIN = 40  # room for the arrows round the maze
BOARD_X, BOARD_Y = 20 + MARGIN, 20 + MARGIN
PANEL_X = BOARD_X + C.SIZE * CELL + MARGIN + 30

# the printed colours of the four pieces
PIECE_COLOURS = {"yellow": "#f2c230", "red": "#d1342f", "green": "#2e9e4a", "blue": "#2f6fd1"}
SEAT_COLOURS = tuple(PIECE_COLOURS[c] for c in C.COLORS)
BACKGROUND = "#e9e4d8"
FRAME = "#34424a"
HEDGE = "#5f8a4f"
HEDGE_FIXED = "#46703b"
SAND = "#f1e4c2"
BACK = "#394272"
BACK_MARK = "#5a64a0"
GOLD = "#b8860b"
# two-letter labels on the treasure discs (full names in the panel and the SVG tooltips)
TREASURE_ABBR = (
    "Mu", "El", "Si", "Fa", "Ca", "Ke", "Ur", "Am", "MH", "DT", "Cn", "Dg",
    "Sk", "La", "MB", "Sc", "WS", "Ru", "Po", "MW", "Do", "Ma", "MC", "Sh",
)  # fmt: skip
assert len(set(TREASURE_ABBR)) == C.NUM_TREASURES
_DIRS = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))  # N E S W on screen
_STATUS = {
    K.RUNNING: "running",
    K.WON: "WON: every treasure found",
    K.LOST: "LOST: the Book ran out",
    K.TRUNCATED: "stopped (turn limit)",
}


def _paths(c: Canvas, x: float, y: float, size: float, mask: int, colour: str) -> None:
    """The sand-coloured paths of a tile with open edges ``mask`` in the square at (x, y)."""
    cx, cy = x + size / 2, y + size / 2
    w = size * 0.36
    for d in range(4):
        if (mask >> d) & 1:
            dx, dy = _DIRS[d]
            c.polyline([(cx, cy), (cx + dx * size / 2, cy + dy * size / 2)], colour, w, round_caps=False)
    c.rect(cx - w / 2, cy - w / 2, w, w, fill=colour)


def draw_tile(c: Canvas, x: float, y: float, size: float, mask: int, fixed: bool = False) -> None:
    """A face-up tile: hedges with paths towards the open edges of ``mask``."""
    c.rect(
        x + 1,
        y + 1,
        size - 2,
        size - 2,
        fill=HEDGE_FIXED if fixed else HEDGE,
        stroke=mix(HEDGE, INK, 0.5),
        width=1.0,
        radius=size * 0.08,
    )
    _paths(c, x, y, size, mask, SAND)
    if fixed:  # printed spaces carry small rivets in the corners
        for fx, fy in ((0.14, 0.14), (0.86, 0.14), (0.14, 0.86), (0.86, 0.86)):
            c.circle(x + fx * size, y + fy * size, size * 0.035, fill=mix(HEDGE_FIXED, INK, 0.4))


def draw_back(c: Canvas, x: float, y: float, size: float, hidden_mask: int | None = None) -> None:
    """A face-down tile; with ``hidden_mask`` (omniscient) its paths show faintly."""
    c.rect(x + 1, y + 1, size - 2, size - 2, fill=BACK, stroke=mix(BACK, INK, 0.5), width=1.0, radius=size * 0.08)
    if hidden_mask is not None:
        _paths(c, x, y, size, hidden_mask, mix(BACK, SAND, 0.35))
    cx, cy = x + size / 2, y + size / 2
    r = size * 0.3
    c.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], stroke=BACK_MARK, width=2.0)
    if hidden_mask is None:
        c.text(cx, cy, "?", size * 0.3, BACK_MARK, anchor="middle", bold=True)


def _treasure(c: Canvas, cx: float, cy: float, size: float, t: int, ring: str | None, faint: bool = False) -> None:
    r = size * 0.2
    fill = "#fff8e1" if not faint else mix(BACK, "#fff8e1", 0.45)
    with c.group("treasure", title=C.TREASURES[t]):
        c.circle(cx, cy, r, fill=fill, stroke=ring or GOLD, width=3.0 if ring else 1.5)
        c.text(cx, cy, TREASURE_ABBR[t], size * 0.18, INK, anchor="middle", bold=True)


def _wanted_by(s: np.void) -> dict[int, int]:
    """treasure -> the seat whose board shows it."""
    out = {}
    for p in range(int(s["num_players"])):
        for t in s["slots"][p]:
            if t >= 0:
                out[int(t)] = p
    return out


def _arrow(c: Canvas, x: float, y: float, d: int, colour: str) -> None:
    """A triangle at (x, y) pointing in screen direction ``d`` (N E S W)."""
    dx, dy = _DIRS[d]
    px, py = -dy, dx
    tip = (x + dx * 12, y + dy * 12)
    c.polygon(
        [tip, (x - dx * 8 + px * 11, y - dy * 8 + py * 11), (x - dx * 8 - px * 11, y - dy * 8 - py * 11)],
        fill=colour,
        stroke=mix(colour, INK, 0.5),
        width=1.0,
    )


def draw(s: np.void, viewer: int | None = None, omniscient: bool = False) -> Canvas:
    """The picture of state ``s`` as seen by seat ``viewer`` (None: a spectator)."""
    n = int(s["num_players"])
    if viewer is not None and not 0 <= viewer < n:
        raise ValueError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    c = Canvas(WIDTH, HEIGHT, BACKGROUND, title="Labyrinth: Team Edition")
    memory = bool(s["public_memory"]) or omniscient
    wanted = _wanted_by(s)
    running = int(s["outcome"]) == K.RUNNING
    side = C.SIZE * CELL
    c.rect(BOARD_X - 12, BOARD_Y - 12, side + 24, side + 24, fill=FRAME, radius=10)
    for r in range(C.SIZE):
        for col in range(C.SIZE):
            cell = r * C.SIZE + col
            x, y = BOARD_X + col * CELL, BOARD_Y + r * CELL
            tile = int(s["cell_tile"][cell])
            down = bool(s["tile_down"][tile])
            t = int(C.TILE_TREASURE[tile])
            with c.group("cell", title=f"r{r}c{col}: {C.tile_name(tile) if not down or memory else 'face down'}"):
                if down:
                    mask = int(ROTATE_SQUARE[C.TILE_SHAPE[tile], s["tile_rot"][tile]])
                    draw_back(c, x, y, CELL, mask if omniscient else None)
                else:
                    draw_tile(c, x, y, CELL, int(s["open"][cell]), fixed=bool(C.IS_FIXED_CELL[cell]))
                home = np.flatnonzero(cell == C.HOME_CELLS)
                if len(home):
                    colour = SEAT_COLOURS[int(home[0])]
                    c.circle(x + CELL / 2, y + CELL / 2, CELL * 0.26, stroke=colour, width=4.0)
                if t >= 0 and not s["collected"][t] and (not down or memory):
                    owner = wanted.get(t)
                    _treasure(
                        c,
                        x + CELL / 2,
                        y + CELL / 2,
                        CELL,
                        t,
                        SEAT_COLOURS[owner] if owner is not None else None,
                        faint=down,
                    )
                mark = int(C.TILE_MARK[tile])
                if mark >= 0 and (not down or memory):
                    c.text(x + CELL - 6, y + CELL - 9, str(mark + 1), CELL * 0.16, "#e4efd9", anchor="end")
    # pieces
    seat = int(s["seat"])
    by_cell: dict[int, list[int]] = {}
    for p in range(n):
        by_cell.setdefault(int(s["piece"][p]), []).append(p)
    offsets = {
        1: [(0, 0)],
        2: [(-0.17, 0), (0.17, 0)],
        3: [(-0.17, -0.13), (0.17, -0.13), (0, 0.17)],
        4: [(-0.17, -0.17), (0.17, -0.17), (-0.17, 0.17), (0.17, 0.17)],
    }
    for cell, seats in by_cell.items():
        r, col = divmod(cell, C.SIZE)
        for p, (ox, oy) in zip(seats, offsets[len(seats)]):
            cx = BOARD_X + (col + 0.5 + ox) * CELL
            cy = BOARD_Y + (r + 0.5 + oy) * CELL
            rad = CELL * (0.17 if len(seats) == 1 else 0.13)
            with c.group("piece", title=f"{C.COLORS[p]} piece (player {p})"):
                if p == seat and running:
                    c.circle(cx, cy, rad + 4, fill="#ffffff", stroke=INK, width=1.5)
                c.circle(cx, cy + 2, rad, fill=mix(SEAT_COLOURS[p], INK, 0.6))
                c.circle(cx, cy, rad, fill=SEAT_COLOURS[p], stroke=mix(SEAT_COLOURS[p], INK, 0.5), width=1.5)
                c.text(cx, cy, C.COLORS[p][0].upper(), rad * 1.05, "#ffffff", anchor="middle", bold=True)
    # the 12 push arrows
    for a in range(C.NUM_ARROWS):
        first = int(C.ARROW_LINE[a, 0])
        d = int(C.ARROW_DIRECTION[a])
        r, col = divmod(first, C.SIZE)
        cx, cy = BOARD_X + (col + 0.5) * CELL, BOARD_Y + (r + 0.5) * CELL
        dx, dy = _DIRS[d]
        _arrow(c, cx - dx * (CELL / 2 + 26), cy - dy * (CELL / 2 + 26), d, "#d9c48f")
    _panel(c, s, viewer, omniscient, wanted)
    return c


def _panel(c: Canvas, s: np.void, viewer: int | None, omniscient: bool, wanted: dict[int, int]) -> None:
    n = int(s["num_players"])
    p = Panel(c, PANEL_X, 30, WIDTH - PANEL_X - 20, HEIGHT - 60, size=13)
    p.heading("Labyrinth: Team Edition" + (" (omniscient)" if omniscient else ""))
    outcome = int(s["outcome"])
    p.text(
        f"Turn {turn_shown(s['turn'], outcome)} · {K.VARIANTS[int(s['variant'])]} · {_STATUS[outcome]}",
        bold=outcome != K.RUNNING,
    )
    if outcome == K.RUNNING:
        seat = int(s["seat"])
        p.text(f"{C.COLORS[seat]} to act: {K.DECISIONS[int(s['decision'])]}", swatch=SEAT_COLOURS[seat], bold=True)
        used = [name for name, f in (("push", "push_used"), ("spell", "spell_used")) if s[f]]
        p.text(f"moves left {int(s['moves_left'])} · used: {', '.join(used) or 'nothing yet'}", MUTED)
    p.gap(4)
    got = int(s["num_collected"])

    def bar(x: float, y: float, w: float, h: float) -> None:
        c.rect(x, y + 3, w, h - 6, fill="#ffffff", stroke=MUTED, width=1.0, radius=4)
        if got:
            c.rect(x, y + 3, w * got / C.NUM_TREASURES, h - 6, fill=GOLD, radius=4)
        c.text(x + w / 2, y + h / 2, f"treasures {got}/{C.NUM_TREASURES}", 12, INK, anchor="middle", bold=True)

    p.figure(22, bar)
    pages_left = int(s["num_pages"]) - int(s["page_pos"])
    p.gap(4)
    p.heading("Book of Daedalus")
    p.text(f"{pages_left} of {int(s['num_pages'])} pages left")
    if s["page_pos"] > 0:
        p.text("last page: " + C.describe_page(s["pages"][int(s["page_pos"]) - 1]), MUTED, size=12)
    if omniscient and pages_left > 0:
        p.text("next page: " + C.describe_page(s["pages"][int(s["page_pos"])]), "#7a3b9e", size=12)
    p.gap(4)
    p.heading("Players")
    for q in range(n):
        spell = "rotate" if int(s["spell"][q]) < 0 else C.SPELLS[int(s["spell"][q])]
        you = " (you)" if q == viewer else ""
        p.text(f"{C.COLORS[q]}{you}: push + {spell}", swatch=SEAT_COLOURS[q], bold=q == viewer)
        wants = [f"{C.TREASURES[int(t)]} ({TREASURE_ABBR[int(t)]})" for t in s["slots"][q] if t >= 0]
        p.text("wants " + (", ".join(wants) or "nothing"), MUTED, size=12, indent=16)
    p.gap(4)

    def spare(x: float, y: float, w: float, h: float) -> None:
        tile = int(s["spare"])
        size = h - 8
        c.text(x, y + h / 2, "spare tile", 13, INK)
        tx = x + 90
        draw_tile(c, tx, y + 4, size, int(ROTATE_SQUARE[C.TILE_SHAPE[tile], s["tile_rot"][tile]]))
        t = int(C.TILE_TREASURE[tile])
        if t >= 0 and not s["collected"][t]:
            owner = wanted.get(t)
            _treasure(c, tx + size / 2, y + 4 + size / 2, size, t, SEAT_COLOURS[owner] if owner is not None else None)
        c.text(tx + size + 10, y + h / 2, C.tile_name(tile), 12, MUTED)

    p.figure(84, spare)
