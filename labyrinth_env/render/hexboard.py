"""Drawing the Paths of Destiny board (both editions): hex tiles with their corridors, the
bridges above and the passages under them, the frame's starting spaces and the tokens
lying in each corridor.

Geometry: pointy-top hexes, axial (q, r) with r growing upwards on screen, so the six
directions 0-5 of ``core.grid`` point E, SE, SW, W, NW, NE (clockwise, as in the ANSI
map). A corridor is drawn from each edge it touches to its hub: the tile's centre for a
corridor crossing the tile, a point pulled towards its edges for a bend or a dead end
(and further when the tile holds several floor corridors, which then stay apart).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from labyrinth_env.core.hexboard import FRAME_QR, NUM_CELLS, START_CELL
from labyrinth_env.render.canvas import Canvas, Point, bezier, mix, regular_polygon
from labyrinth_env.render.panel import INK

GROUND, BRIDGE, UNDER = 0, 1, 2  # corridor levels (as in the rulesets' components)
_QR = [(int(q), int(r)) for q, r in FRAME_QR]
_UNIT = [(math.cos(math.radians(60 * d)), math.sin(math.radians(60 * d))) for d in range(6)]  # edge d, on screen
SQRT3 = math.sqrt(3.0)

BACKGROUND = "#2b2730"
EMPTY = "#3a3540"
EMPTY_EDGE = "#4f4957"
ROCK = "#75695c"
ROCK_EDGE = "#4a4038"
FLOOR = "#eadbb6"
UNDER_FLOOR = "#a99672"
WOOD = "#a0652f"
WOOD_DARK = "#5c3718"
CENTRE_FLOOR = "#f5e39a"
GOLD = "#e8b923"
TRAP_BACK = "#6e2323"
TRAP_RED = "#d13b2f"
TRAP_DOOR = "#ea8a1e"


@dataclass(frozen=True)
class Token:
    """Something lying in a corridor: a disc (or ``shape`` "diamond") with a label."""

    fill: str
    label: str
    title: str
    radius: float = 0.27  # in units of the hex's apothem
    stroke: str | None = None
    shape: str = "disc"
    text: str = "#ffffff"
    ring: str | None = None  # an extra outer ring (the seat to act)


class HexLayout:
    """Pixel positions of the board's cells, edges and corridors."""

    def __init__(self, cx: float, cy: float, radius: float) -> None:
        self.cx, self.cy, self.R = cx, cy, radius
        self.a = radius * SQRT3 / 2  # apothem: centre to edge midpoint

    def centre(self, cell: int) -> Point:
        q, r = _QR[cell]
        return self.cx + self.R * SQRT3 * (q + r / 2), self.cy - 1.5 * self.R * r

    @staticmethod
    def unit(d: int) -> Point:
        return _UNIT[d]

    def corners(self, x: float, y: float, scale: float = 1.0) -> list[Point]:
        return regular_polygon(x, y, self.R * scale, 6, start_deg=30)


def _hubs(masks: Sequence[int], levels: Sequence[int], a: float) -> list[Point]:
    """Offsets of each corridor's hub from the tile centre."""
    floor = sum(1 for mask, lv in zip(masks, levels) if mask and lv != BRIDGE)
    out = []
    for mask, lv in zip(masks, levels):
        dirs = [d for d in range(6) if (mask >> d) & 1]
        if not dirs:
            out.append((0.0, 0.0))
            continue
        mx = sum(HexLayout.unit(d)[0] for d in dirs) / len(dirs)
        my = sum(HexLayout.unit(d)[1] for d in dirs) / len(dirs)
        mag = math.hypot(mx, my)
        if lv == BRIDGE or mag < 0.05:
            out.append((0.0, 0.0))
            continue
        pull = max(0.5 * mag, 0.42 if floor > 1 else 0.0)
        out.append((a * pull * mx / mag, a * pull * my / mag))
    return out


def corridor_anchors(
    x: float, y: float, a: float, masks: Sequence[int], levels: Sequence[int], pairs: Sequence[int]
) -> list[Point]:
    """Where the tokens of each corridor of a tile centred at (x, y) sit. A passage under a
    bridge keeps its tokens beside the bridge, along the passage."""
    hubs = _hubs(masks, levels, a)
    out = []
    for k, (mask, lv) in enumerate(zip(masks, levels)):
        hx, hy = x + hubs[k][0], y + hubs[k][1]
        if lv == UNDER and pairs[k] >= 0 and mask:
            d = next(d for d in range(6) if (mask >> d) & 1)
            ux, uy = HexLayout.unit(d)
            hx, hy = x + ux * a * 0.58, y + uy * a * 0.58
        out.append((hx, hy))
    return out


def draw_tile(
    c: Canvas,
    x: float,
    y: float,
    radius: float,
    masks: Sequence[int],
    levels: Sequence[int],
    rock: str = ROCK,
    floor: str = FLOOR,
    title: str | None = None,
) -> None:
    """One tile centred at (x, y): rock, floor corridors, passages under bridges, bridges."""
    layout = HexLayout(x, y, radius)
    a = layout.a
    with c.group("tile", title=title):
        c.polygon(layout.corners(x, y, 0.97), fill=rock, stroke=ROCK_EDGE, width=1.5)
        hubs = _hubs(masks, levels, a)
        width = a * 0.44
        order = sorted(range(len(masks)), key=lambda k: {GROUND: 0, UNDER: 1, BRIDGE: 2}[levels[k]])
        for k in order:
            mask, lv = masks[k], levels[k]
            if not mask:
                continue
            hub = (x + hubs[k][0], y + hubs[k][1])
            dirs = [d for d in range(6) if (mask >> d) & 1]
            if lv == BRIDGE:
                _bridge(c, layout, x, y, dirs, width)
                continue
            colour = UNDER_FLOOR if lv == UNDER else floor
            for d in dirs:
                ux, uy = HexLayout.unit(d)
                edge = (x + ux * a, y + uy * a)
                pull = (x + ux * a * 0.4, y + uy * a * 0.4)
                c.polyline(bezier(edge, pull, hub, 6), colour, width, round_caps=False)
            c.circle(hub[0], hub[1], width * (0.62 if len(dirs) == 1 else 0.5), fill=colour)
            if lv == UNDER:  # the dark mouths where the passage goes under the bridge
                for d in dirs:
                    ux, uy = HexLayout.unit(d)
                    mx, my = x + ux * a * 0.3, y + uy * a * 0.3
                    px, py = -uy * width / 2, ux * width / 2
                    c.polyline(
                        [(mx + px, my + py), (mx - px, my - py)], mix(UNDER_FLOOR, INK, 0.55), 3.0, round_caps=False
                    )


def _bridge(c: Canvas, layout: HexLayout, x: float, y: float, dirs: list[int], width: float) -> None:
    a = layout.a
    (ux, uy), (vx, vy) = HexLayout.unit(dirs[0]), HexLayout.unit(dirs[-1])
    p0, p1 = (x + ux * a, y + uy * a), (x + vx * a, y + vy * a)
    c.polyline([(p0[0] + 2, p0[1] + 3), (p1[0] + 2, p1[1] + 3)], mix(ROCK, INK, 0.6), width * 1.25, round_caps=False)
    c.polyline([p0, p1], WOOD_DARK, width * 1.25, round_caps=False)
    c.polyline([p0, p1], WOOD, width * 0.9, round_caps=False)
    length = math.hypot(p1[0] - p0[0], p1[1] - p0[1])
    tx, ty = (p1[0] - p0[0]) / length, (p1[1] - p0[1]) / length
    px, py = -ty * width * 0.45, tx * width * 0.45
    steps = int(length // 7)
    for i in range(1, steps):
        mx, my = p0[0] + tx * i * length / steps, p0[1] + ty * i * length / steps
        c.polyline([(mx + px, my + py), (mx - px, my - py)], WOOD_DARK, 1.2, round_caps=False)


def _space_name(cell: int) -> str:
    """``(q,r)``: a board space as the actions and the text map name it."""
    q, r = (int(v) for v in FRAME_QR[cell])
    return f"({q},{r})"


def draw_board(
    c: Canvas,
    layout: HexLayout,
    s: np.void,
    mc: int,
    centre_cell: int,
    key_cells: Sequence[int],
    start_colours: dict[int, str],
    key_colours: dict[int, str],
    tile_names: Sequence[str],
) -> list[Point]:
    """Every cell of the board and the frame; returns the anchor point of every node."""
    anchors: list[Point] = [(0.0, 0.0)] * (NUM_CELLS * mc)
    node_mask, node_level = s["node_mask"].tolist(), s["node_level"].tolist()
    node_pair, built, cell_tile = s["node_pair"].tolist(), s["cell_built"].tolist(), s["cell_tile"].tolist()
    for cell in range(NUM_CELLS):
        x, y = layout.centre(cell)
        nodes = range(cell * mc, cell * mc + mc)
        masks = [node_mask[n] for n in nodes]
        levels = [node_level[n] for n in nodes]
        pairs = [node_pair[n] - cell * mc if node_pair[n] >= 0 else -1 for n in nodes]
        used = [k for k in range(mc) if masks[k]]
        if cell >= START_CELL:
            i = cell - START_CELL
            colour = start_colours.get(i)
            fill = mix(colour, BACKGROUND, 0.25) if colour else EMPTY
            with c.group("start", title=f"starting space {i}"):
                c.polygon(layout.corners(x, y, 0.97), fill=fill, stroke=mix(fill, INK, 0.4), width=1.5)
                d = next((d for d in range(6) if masks[0] >> d & 1), None)
                if d is not None:
                    ux, uy = HexLayout.unit(d)
                    c.polyline(
                        [(x, y), (x + ux * layout.a, y + uy * layout.a)],
                        mix(fill, "#ffffff", 0.35),
                        layout.a * 0.44,
                        round_caps=False,
                    )
                # the label sits on the outer side, away from the corridor where the pieces stand
                ox, oy = HexLayout.unit(i)
                lx, ly = x + ox * layout.a * 0.5, y + oy * layout.a * 0.5
                c.text(lx, ly, "start", layout.a * 0.32, "#ffffff", anchor="middle", bold=True)
        elif not built[cell] or not used:
            # titled by the space's name in the actions: the browser game makes it clickable
            with c.group("space", title=f"{_space_name(cell)}: empty space"):
                c.polygon(layout.corners(x, y, 0.95), fill=EMPTY, stroke=EMPTY_EDGE, width=1.0)
        else:
            tile = cell_tile[cell]
            name = tile_names[tile] if 0 <= tile < len(tile_names) else "tile"
            rock, floor = ROCK, FLOOR
            if cell == centre_cell:
                floor, name = CENTRE_FLOOR, "Central space"
            draw_tile(
                c,
                x,
                y,
                layout.R,
                [masks[k] for k in used],
                [levels[k] for k in used],
                rock,
                floor,
                title=f"{_space_name(cell)}: {name}",
            )
            if cell == centre_cell:
                c.polygon(layout.corners(x, y, 0.84), stroke=GOLD, width=3.0)
            if cell in key_cells:
                i = list(key_cells).index(cell)
                colour = key_colours.get(i, "#cfc6b8")
                c.polygon(layout.corners(x, y, 0.86), stroke=colour, width=3.0)
        pts = corridor_anchors(x, y, layout.a, masks, [lv if lv >= 0 else GROUND for lv in levels], pairs)
        for k in range(mc):
            anchors[cell * mc + k] = pts[k]
    return anchors


def draw_tokens(c: Canvas, layout: HexLayout, anchors: Sequence[Point], tokens: dict[int, list[Token]]) -> None:
    """The tokens of each node round its anchor (one token sits on it)."""
    a = layout.a
    for node, items in tokens.items():
        ax, ay = anchors[node]
        n = len(items)
        spread = 0.0 if n == 1 else a * (0.34 if n <= 3 else 0.44)
        for i, tok in enumerate(items):
            ang = math.radians(-90 + 360 * i / n)
            x, y = ax + spread * math.cos(ang), ay + spread * math.sin(ang)
            r = a * tok.radius * (0.85 if n > 3 else 1.0)
            with c.group("token", title=tok.title):
                if tok.ring:
                    c.circle(x, y, r + 4, fill="#ffffff", stroke=tok.ring, width=1.5)
                stroke = tok.stroke or mix(tok.fill, INK, 0.5)
                if tok.shape == "diamond":
                    c.polygon(
                        [(x, y - r * 1.2), (x + r * 1.2, y), (x, y + r * 1.2), (x - r * 1.2, y)],
                        fill=tok.fill,
                        stroke=stroke,
                        width=1.5,
                    )
                else:
                    c.circle(x + 1, y + 2, r, fill=mix(BACKGROUND, INK, 0.5))
                    c.circle(x, y, r, fill=tok.fill, stroke=stroke, width=1.5)
                if tok.label:
                    c.text(
                        x,
                        y,
                        tok.label,
                        r * (1.05 if len(tok.label) == 1 else 0.85),
                        tok.text,
                        anchor="middle",
                        bold=True,
                    )
