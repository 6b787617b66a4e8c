"""Picture of a Labyrinthos state: the 7x7 maze round the Door tile (explored tiles with
their pathways, dead ends, symbols and key tiles; face-down tiles as backs), the wall
tokens on the edges, the heroes, the monster and a side panel (the turn and decision, the
active hero's action tokens, the supplies, the key tokens still in the pile, every hero
board with its wounds and keys, hands, deck and discard pile, the last dice).

Hidden information: a face-down tile's contents appear only with ``omniscient=True``; the
face-down key tokens in the pile show their action only to a viewer who has looked at them
(``key_seen``) or omnisciently; a hand's cards only to its owner or omnisciently. Key
tokens on hero boards are face up (as in the observation), so everyone sees them.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import SQUARE_DELTAS
from labyrinth_env.render import INK, MUTED, PAPER, Canvas, Panel, mix, regular_polygon, seat_colour
from labyrinth_env.render.panel import turn_shown
from labyrinth_env.rulesets.labyrinthos import components as C
from labyrinth_env.rulesets.labyrinthos import kernel as K
from labyrinth_env.rulesets.team_edition.picture import draw_back

WIDTH, HEIGHT = 1010, 640
CELL = 72
BOARD_X, BOARD_Y = 34, 34
SIDE = K.SIZE * CELL
PANEL_X = BOARD_X + SIDE + 44
BACKGROUND = "#e6ded0"
FRAME = "#4a3f35"
STONE = "#9c8f7d"
DOOR_STONE = "#c9b07a"
PATH = "#efe3c6"
DEAD_END = "#5a4c3e"
WALL = "#2f2a26"
WALL_EDGE = "#c9b98f"
DOOR = "#7a4a24"
WOUND = "#b3261e"
FEET = "#8a5a2b"
HAND = "#2f6f8f"
HIGHLIGHT = "#f2c230"
KEY_COLOURS = ("#b06f35", "#aeb6bf", "#e2b324", "#34303b")  # Bronze, Silver, Gold, Obsidian
KEY_INK = ("#ffffff", INK, INK, "#ffffff")
HERO_BOARD_COLOURS = {"red": "#d1342f", "blue": "#2f6fd1", "green": "#2e9e4a", "yellow": "#e0a500"}
MONSTERS = {  # colour, letter
    C.MINOTAUR: ("#6b2d1a", "M"),
    C.MEDUSA: ("#2f6b3a", "Me"),
    C.CERBERUS: ("#1f1f26", "C"),
}
SLOT_ABBR = ("Mv", "Ex", "DK", "DA", "RW", "RT", "He", "Sp", "Ky")
KEY_ACTION_ABBR = ("Lv", "Bu", "Vi", "Ba", "Wi", "Le", "Or", "Go", "Th", "Ho", "Hw", "La", "Pa", "Bn", "Ks", "Lo")
assert len(KEY_ACTION_ABBR) == C.NUM_KEY_ACTIONS
_DIRS = tuple((float(dcol), float(drow)) for drow, dcol in SQUARE_DELTAS)  # N E S W on screen (x, y)


def _cell_xy(cell: int) -> tuple[float, float]:
    r, col = divmod(int(cell), K.SIZE)
    return BOARD_X + col * CELL, BOARD_Y + r * CELL


def _tile_name(tile: int) -> str:
    if C.TILE_KIND[tile] == C.KIND_DOOR:
        return "the Door tile"
    sym = int(C.TILE_SYMBOL[tile])
    return C.TILE_NAMES[tile] if sym == C.SYM_NONE else f"{C.TILE_SHAPE[tile]}, {C.SYMBOL_NAMES[sym]} symbol"


# --- tiles ------------------------------------------------------------------------------------
def _paths(c: Canvas, x: float, y: float, size: float, mask: int, colour: str) -> None:
    cx, cy = x + size / 2, y + size / 2
    w = size * 0.34
    for d in range(4):
        if (mask >> d) & 1:
            dx, dy = _DIRS[d]
            c.polyline([(cx, cy), (cx + dx * (size / 2 - 1), cy + dy * (size / 2 - 1))], colour, w, round_caps=False)
    c.rect(cx - w / 2, cy - w / 2, w, w, fill=colour)


def _dead_end(c: Canvas, x: float, y: float, size: float, d: int) -> None:
    """A dark cap across the end of the pathway towards ``d``: it leads nowhere."""
    cx, cy = x + size / 2, y + size / 2
    dx, dy = _DIRS[d]
    px, py = -dy, dx
    h = size * 0.17
    ex, ey = cx + dx * (size / 2 - 5), cy + dy * (size / 2 - 5)
    c.polyline([(ex - px * h, ey - py * h), (ex + px * h, ey + py * h)], DEAD_END, 4.0, round_caps=False)


def _symbol(c: Canvas, cx: float, cy: float, size: float, sym: int, faint: bool = False) -> None:
    """A small picture of a tile symbol centred at (cx, cy)."""
    k = size / 72
    ink = mix(INK, "#394272", 0.55) if faint else INK
    if sym == C.SYM_WALL:  # a row of bricks
        for row, offs in ((0, (-12, 0)), (1, (-6, 6))):
            for ox in offs:
                c.rect(cx + (ox - 6) * k, cy + (row * 7 - 7) * k, 12 * k, 7 * k, fill="#a4553a", stroke=ink, width=1)
    elif sym == C.SYM_MINOTAUR:  # a bull's head with horns
        c.polyline([(cx - 6 * k, cy - 3 * k), (cx - 13 * k, cy - 6 * k), (cx - 12 * k, cy - 13 * k)], ink, 2.6 * k)
        c.polyline([(cx + 6 * k, cy - 3 * k), (cx + 13 * k, cy - 6 * k), (cx + 12 * k, cy - 13 * k)], ink, 2.6 * k)
        c.polygon(
            [(cx - 8 * k, cy - 5 * k), (cx + 8 * k, cy - 5 * k), (cx + 4 * k, cy + 10 * k), (cx - 4 * k, cy + 10 * k)],
            fill="#6b2d1a",
            stroke=ink,
            width=1.2,
        )
    elif sym == C.SYM_HIDE:  # a cave mouth
        c.polygon(
            [
                (cx - 13 * k, cy + 8 * k),
                *regular_polygon(cx, cy + 8 * k, 13 * k, 12, 180)[:7],
                (cx + 13 * k, cy + 8 * k),
            ],
            fill="#5b6b3a",
            stroke=ink,
            width=1.2,
        )
        c.polygon(
            [(cx - 6 * k, cy + 8 * k), *regular_polygon(cx, cy + 8 * k, 6 * k, 12, 180)[:7], (cx + 6 * k, cy + 8 * k)],
            fill="#1e1e24",
        )
    elif sym == C.SYM_TRAP:  # spikes
        for i in range(3):
            bx = cx + (i - 1) * 9 * k
            c.polygon(
                [(bx - 4.5 * k, cy + 8 * k), (bx, cy - 9 * k), (bx + 4.5 * k, cy + 8 * k)], fill="#7b7f86", stroke=ink
            )
        c.rect(cx - 15 * k, cy + 7 * k, 30 * k, 3.5 * k, fill=ink)
    elif sym == C.SYM_PASSAGE:  # a stairway down into the dark
        c.rect(cx - 12 * k, cy - 11 * k, 24 * k, 22 * k, fill="#3b3550", stroke=ink, width=1.2, radius=3 * k)
        for i in range(3):
            c.rect(cx - 9 * k + i * 6 * k, cy - 5 * k + i * 5 * k, 18 * k - i * 6 * k, 3.5 * k, fill="#c9b3ff")


def _key_tile(c: Canvas, cx: float, cy: float, size: float, colour: int) -> None:
    k = size / 72
    fill = KEY_COLOURS[colour]
    c.circle(cx, cy, 15 * k, fill=fill, stroke=INK, width=1.5)
    ink = KEY_INK[colour]
    c.circle(cx - 4 * k, cy, 4.5 * k, stroke=ink, width=2.2 * k)
    c.polyline([(cx + 0.5 * k, cy), (cx + 10 * k, cy)], ink, 2.2 * k, round_caps=False)
    c.polyline([(cx + 7 * k, cy), (cx + 7 * k, cy + 4.5 * k)], ink, 2.0 * k, round_caps=False)


def _door(c: Canvas, cx: float, cy: float, size: float) -> None:
    k = size / 72
    arch = regular_polygon(cx, cy - 2 * k, 10 * k, 16, 180)[:9]
    c.polygon([(cx - 10 * k, cy + 13 * k), *arch, (cx + 10 * k, cy + 13 * k)], fill=DOOR, stroke=INK, width=1.5)
    c.polyline([(cx, cy - 11 * k), (cx, cy + 13 * k)], mix(DOOR, INK, 0.5), 1.2)
    c.circle(cx + 4 * k, cy + 3 * k, 1.6 * k, fill=HIGHLIGHT)


def draw_face_up(c: Canvas, x: float, y: float, size: float, tile: int, mask: int) -> None:
    """An explored tile: stone with pathways towards ``mask``, its symbol, key or door."""
    kind = int(C.TILE_KIND[tile])
    base = DOOR_STONE if kind == C.KIND_DOOR else STONE
    edge = HIGHLIGHT if kind == C.KIND_DOOR else mix(base, INK, 0.5)
    c.rect(x + 1, y + 1, size - 2, size - 2, fill=base, stroke=edge, width=3.0 if kind == C.KIND_DOOR else 1.0,
           radius=size * 0.06)  # fmt: skip
    _paths(c, x, y, size, mask, PATH)
    colour = int(C.TILE_COLOUR[tile])
    if kind == C.KIND_START and colour >= 0:  # a hero board colour's starting tile: a coloured corner
        hero_colour = HERO_BOARD_COLOURS[C.HERO_COLOURS[colour]]
        c.polygon(
            [(x + 3, y + 3), (x + 17, y + 3), (x + 3, y + 17)], fill=hero_colour, stroke=mix(hero_colour, INK, 0.5)
        )
    cx, cy = x + size / 2, y + size / 2
    if kind == C.KIND_DOOR:
        _door(c, cx, cy, size)
    elif kind == C.KIND_KEY:
        _key_tile(c, cx, cy, size, colour)
    else:
        _symbol(c, cx, cy, size, int(C.TILE_SYMBOL[tile]))


def _face_down(c: Canvas, x: float, y: float, size: float, tile: int, omniscient: bool) -> None:
    if not omniscient:
        draw_back(c, x, y, size)
        return
    draw_back(c, x, y, size, int(C.TILE_MASK[tile]))  # unrotated: it is oriented when explored
    kind = int(C.TILE_KIND[tile])
    cx, cy = x + size / 2, y + size / 2
    if kind == C.KIND_KEY:
        _key_tile(c, cx, cy, size * 0.8, int(C.TILE_COLOUR[tile]))
    else:
        _symbol(c, cx, cy, size * 0.8, int(C.TILE_SYMBOL[tile]), faint=True)


# --- pieces -----------------------------------------------------------------------------------
def _hero(c: Canvas, cx: float, cy: float, rad: float, p: int, ringed: bool, title: str) -> None:
    colour = seat_colour(p)
    with c.group("hero", title=title):
        if ringed:
            c.circle(cx, cy, rad + 5, fill="#ffffff", stroke=INK, width=2.0)
        c.circle(cx, cy + 2, rad, fill=mix(colour, INK, 0.6))
        c.circle(cx, cy, rad, fill=colour, stroke=mix(colour, INK, 0.5), width=1.5)
        c.text(cx, cy, str(p), rad * 1.1, "#ffffff", anchor="middle", bold=True)


def _monster(c: Canvas, cx: float, cy: float, size: float, monster: int, title: str) -> None:
    colour, letter = MONSTERS[monster]
    r = size * 0.23
    with c.group("monster", title=title):
        c.polygon(regular_polygon(cx, cy + 2, r, 6, 30), fill=mix(colour, INK, 0.6))
        c.polygon(regular_polygon(cx, cy, r, 6, 30), fill=colour, stroke="#f1e4c2", width=2.0)
        if monster == C.MINOTAUR:  # horns
            for s in (-1, 1):
                c.polyline(
                    [
                        (cx + s * r * 0.45, cy - r * 0.7),
                        (cx + s * r * 1.0, cy - r * 1.0),
                        (cx + s * r * 0.9, cy - r * 1.45),
                    ],
                    "#f1e4c2",
                    3.0,
                )
        elif monster == C.MEDUSA:  # snakes
            for s in (-1, 0, 1):
                bx = cx + s * r * 0.55
                c.polyline(
                    [(bx, cy - r * 0.8), (bx - r * 0.25, cy - r * 1.1), (bx + r * 0.1, cy - r * 1.45)], "#7fc46b", 2.5
                )
        else:  # three heads
            for s in (-1, 0, 1):
                c.circle(cx + s * r * 0.7, cy - r * 0.95, r * 0.32, fill=colour, stroke="#f1e4c2", width=1.5)
        c.text(cx, cy + 1, letter, r * 0.9, "#f1e4c2", anchor="middle", bold=True)


def _token(c: Canvas, cx: float, cy: float, r: float, feet: bool) -> None:
    colour = FEET if feet else HAND
    c.circle(cx, cy, r, fill=colour, stroke=mix(colour, INK, 0.5), width=1.0)
    c.text(cx, cy, "F" if feet else "H", r * 1.1, "#ffffff", anchor="middle", bold=True)


def _key_token(c: Canvas, x: float, y: float, w: float, h: float, colour: int, action: int | None) -> None:
    """A key token: its colour and, when its face is known, its key action."""
    c.rect(x, y, w, h, fill=KEY_COLOURS[colour], stroke=INK, width=1.0, radius=3)
    label = "?" if action is None else KEY_ACTION_ABBR[action]
    c.text(x + w / 2, y + h / 2, label, h * 0.5, KEY_INK[colour], anchor="middle", bold=True)


# --- the picture ------------------------------------------------------------------------------
def draw(s: np.void, viewer: int | None = None, omniscient: bool = False) -> Canvas:
    """The picture of state ``s`` as seen by seat ``viewer`` (None: a spectator)."""
    n = int(s["num_players"])
    if viewer is not None and not 0 <= viewer < n:
        raise ValueError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    c = Canvas(WIDTH, HEIGHT, BACKGROUND, title="Labyrinthos")
    running = int(s["outcome"]) == K.RUNNING
    monster = int(s["monster"])
    c.rect(BOARD_X - 14, BOARD_Y - 14, SIDE + 28, SIDE + 28, fill=FRAME, radius=10)
    # Greek-key dashes round the frame
    for i in range(K.SIZE):
        for x, y in ((BOARD_X + (i + 0.5) * CELL, BOARD_Y - 7), (BOARD_X + (i + 0.5) * CELL, BOARD_Y + SIDE + 7)):
            c.polyline([(x - 10, y), (x + 10, y)], mix(FRAME, WALL_EDGE, 0.35), 2.0, round_caps=False)
    for cell in range(K.NUM_CELLS):
        x, y = _cell_xy(cell)
        tile = int(s["cell_tile"][cell])
        up = bool(s["cell_up"][cell])
        r, col = divmod(cell, K.SIZE)
        what = _tile_name(tile) if up or omniscient else "face down"
        with c.group("cell", title=f"r{r}c{col}: {what}" + (" (face down)" if omniscient and not up else "")):
            if up:
                mask = int(s["cell_mask"][cell])
                draw_face_up(c, x, y, CELL, tile, mask)
                for d in range(4):
                    if not (mask >> d) & 1:
                        continue
                    m = int(K.NEIGHBORS[cell, d])
                    if m < 0 or (s["cell_up"][m] and not (int(s["cell_mask"][m]) >> ((d + 2) % 4)) & 1):
                        _dead_end(c, x, y, CELL, d)
            else:
                _face_down(c, x, y, CELL, tile, omniscient)
    if running and int(s["pending_cell"]) >= 0:  # what the pending decision is about
        x, y = _cell_xy(int(s["pending_cell"]))
        c.rect(x + 3, y + 3, CELL - 6, CELL - 6, stroke=HIGHLIGHT, width=3.0, radius=6)
    # wall tokens on the inner edges
    for e in np.flatnonzero(s["wall"][: K.NUM_EDGES]):
        a, b = (int(v) for v in K.EDGE_CELLS[e])
        bx, by = _cell_xy(b)
        if b == a + 1:  # a vertical wall between a and its east neighbour
            pts = [(bx, by + 5), (bx, by + CELL - 5)]
        else:
            pts = [(bx + 5, by), (bx + CELL - 5, by)]
        pending = running and int(s["pending_edge"]) == e
        with c.group("wall", title=f"wall between r{a // K.SIZE}c{a % K.SIZE} and r{b // K.SIZE}c{b % K.SIZE}"):
            c.polyline(pts, HIGHLIGHT if pending else WALL_EDGE, 10.0)
            c.polyline(pts, WALL, 6.0)
    # the heroes and the monster
    acting = int(s["decider"]) if running else -1
    by_cell: dict[int, list[int]] = {}
    for p in range(n):
        if int(s["position"][p]) >= 0:
            by_cell.setdefault(int(s["position"][p]), []).append(p)
    mcell = int(s["monster_cell"])
    spots = ((-0.22, -0.22), (0.22, -0.22), (-0.22, 0.22), (0.22, 0.22))
    for cell, seats in by_cell.items():
        x, y = _cell_xy(cell)
        shared = len(seats) > 1 or cell == mcell
        for i, p in enumerate(seats):
            ox, oy = spots[i] if shared else (0.0, 0.0)
            h = int(s["hero"][p])
            name = C.HERO_NAMES[h] if h >= 0 else "no hero"
            _hero(
                c,
                x + (0.5 + ox) * CELL,
                y + (0.5 + oy) * CELL,
                CELL * (0.13 if shared else 0.17),
                p,
                p == acting,
                f"player {p}: {name}" + (" (to act)" if p == acting else ""),
            )
    if mcell >= 0:
        x, y = _cell_xy(mcell)
        offset = 0.17 if mcell in by_cell else 0.0
        points = f", {int(s['m_points'])} movement points left" if s["m_active"] else ""
        _monster(
            c, x + CELL / 2, y + CELL / 2 + offset * CELL, CELL, monster, f"the {C.MONSTER_NAMES[monster]}{points}"
        )
    _legend(c)
    _panel(c, s, viewer, omniscient)
    return c


def _legend(c: Canvas) -> None:
    y = BOARD_Y + SIDE + 30
    items = [(C.SYM_WALL, "wall"), (C.SYM_MINOTAUR, "Minotaur"), (C.SYM_HIDE, "hide"), (C.SYM_TRAP, "trap"),
             (C.SYM_PASSAGE, "secret passage")]  # fmt: skip
    x = BOARD_X - 8
    c.text(x, y, "symbols:", 11, MUTED)
    x += 54
    for sym, name in items:
        c.circle(x + 13, y, 14, fill=STONE, stroke=mix(STONE, INK, 0.5))
        _symbol(c, x + 13, y, 32, sym)
        c.text(x + 31, y, name, 11, INK)
        x += 31 + len(name) * 6.2 + 12
    y += 30
    x = BOARD_X - 8
    c.polyline([(x + 2, y), (x + 20, y)], WALL_EDGE, 10.0)
    c.polyline([(x + 2, y), (x + 20, y)], WALL, 6.0)
    c.text(x + 28, y, "wall token", 11, INK)
    x += 28 + 62 + 12
    c.polyline([(x + 6, y - 8), (x + 6, y + 8)], DEAD_END, 4.0, round_caps=False)
    c.text(x + 14, y, "dead end", 11, INK)
    x += 14 + 50 + 12
    colour = HERO_BOARD_COLOURS[C.HERO_COLOURS[0]]
    c.polygon([(x, y - 8), (x + 14, y - 8), (x, y + 6)], fill=colour, stroke=mix(colour, INK, 0.5))
    c.text(x + 20, y, "hero board's start tile", 11, INK)
    x += 20 + 130 + 12
    c.circle(x + 9, y, 9, fill="#ffffff", stroke=INK, width=2.0)
    c.circle(x + 9, y, 6, fill=seat_colour(0))
    c.text(x + 24, y, "to act", 11, INK)


def _status(s: np.void) -> str:
    outcome = int(s["outcome"])
    if outcome == K.WON:
        return f"WON by player {int(s['winner'])}"
    if outcome == K.TRUNCATED:
        return "stopped (turn limit)"
    return K.PHASE_NAMES[int(s["phase"])]


def _panel(c: Canvas, s: np.void, viewer: int | None, omniscient: bool) -> None:
    n = int(s["num_players"])
    monster = int(s["monster"])
    running = int(s["outcome"]) == K.RUNNING
    seat = int(s["seat"])
    p = Panel(c, PANEL_X, 24, WIDTH - PANEL_X - 18, HEIGHT - 48, size=13)
    p.heading("Labyrinthos" + (" (omniscient)" if omniscient else ""))
    first = " · first round" if int(s["turn"]) < n else ""
    p.text(f"Turn {turn_shown(s['turn'], s['outcome'])} · {_status(s)}{first}", bold=not running)
    if running:
        decider = int(s["decider"])
        who = f"player {decider}" + (" (you)" if decider == viewer else "")
        p.text(f"{who}: {K.DECISIONS[int(s['decision'])]}", swatch=seat_colour(decider), bold=True)
    # the monster and the dice
    mname = C.MONSTER_NAMES[monster].capitalize()
    where = "not in the maze yet" if int(s["monster_cell"]) < 0 else _where(int(s["monster_cell"]))
    line = f"{mname}: {where}"
    if s["m_active"]:
        line += f" · moving, {int(s['m_points'])} points left"
    if int(s["m_hunt"]) >= 0:
        line += f" · hunting player {int(s['m_hunt'])}"
    p.text(line, MONSTERS[monster][0])
    face, blood = int(s["last_face"]), int(s["last_blood"])
    dice = [f"Minotaur die: {C.MINOTAUR_FACE_NAMES[face]}" if face >= 0 else "Minotaur die: not rolled yet"]
    if blood >= 0:
        dice.append(f"Blood die: {blood} wound{'s' if blood != 1 else ''}")
    p.text(" · ".join(dice), MUTED)
    p.gap(2)

    def tokens(x: float, y: float, w: float, h: float) -> None:
        c.text(x, y + h / 2, f"player {seat}'s tokens", 12, INK)
        tx = x + 110
        feet, hands = int(s["feet"][seat]), int(s["hands"][seat])
        r = 7.5
        step = min(2 * r + 3, (w - 110 - 20) / max(1, feet + hands))
        for i in range(feet + hands):
            _token(c, tx + i * step + r, y + h / 2, r, i < feet)
        c.text(x + w, y + h / 2, f"{feet}F {hands}H", 11, MUTED, anchor="end")

    if running:
        p.figure(22, tokens)
    supply = (
        f"supply: {int(s['feet_supply'])} Feet · {int(s['hand_supply'])} Hand · {int(s['wound_supply'])} wounds · "
        f"{int(s['wall_supply'])} walls"
    )
    p.text(supply, MUTED)

    def pile(x: float, y: float, w: float, h: float) -> None:
        c.text(x, y + h / 2, "key pile", 12, INK)
        kx = x + 60
        for colour in range(C.NUM_KEY_COLOURS):
            for i in range(C.KEY_TOKENS_PER_COLOUR):
                k = colour * C.KEY_TOKENS_PER_COLOUR + i
                if not s["key_pile"][k]:
                    continue
                seen = omniscient or (viewer is not None and bool(s["key_seen"][viewer, k]))
                _key_token(c, kx, y + 2, 19, h - 4, colour, int(C.KEY_TOKEN_ACTION[k]) if seen else None)
                kx += 21
            kx += 6

    p.figure(22, pile)
    p.gap(4)
    p.heading("Heroes")
    for q in range(n):
        _player(c, p, s, q, viewer, omniscient)
    p.gap(2)
    p.text(f"deck {int(s['deck_len'])} cards · discard pile {int(s['discard'].sum())} cards", MUTED)
    p.text("discarded: " + _cards(s["discard"]), MUTED, size=11, indent=16, max_lines=3)


def _cards(counts: np.ndarray) -> str:
    names = [C.CARD_NAMES[t] + (f" x{int(v)}" if v > 1 else "") for t, v in enumerate(counts) if v > 0]
    return ", ".join(names) or "none"


def _where(cell: int) -> str:
    r, col = divmod(cell, K.SIZE)
    return f"r{r}c{col}"


def _player(c: Canvas, p: Panel, s: np.void, q: int, viewer: int | None, omniscient: bool) -> None:
    h = int(s["hero"][q])
    hero = f"{C.HERO_NAMES[h]} ({C.SPECIAL_NAMES[h]})" if h >= 0 else "no hero yet"
    you = " (you)" if q == viewer else ""
    active = " · active" if q == int(s["seat"]) and int(s["outcome"]) == K.RUNNING else ""
    pos = int(s["position"][q])
    at = f" at {_where(pos)}" if pos >= 0 else ""
    p.text(f"player {q}{you}: {hero}{at}{active}", swatch=seat_colour(q), bold=q == viewer or bool(active))

    def board(x: float, y: float, w: float, h: float) -> None:
        bw, bh, gap = 26.0, h - 4, 2.0
        x0 = x + 16
        for i in range(C.NUM_SLOTS):
            bx = x0 + i * (bw + gap)
            key = int(s["slot_key"][q, i])
            wounded = bool(s["slot_wound"][q, i])
            if key >= 0:
                _key_token(c, bx, y + 2, bw, bh, int(C.KEY_TOKEN_COLOUR[key]), int(C.KEY_TOKEN_ACTION[key]))
            else:
                fill = "#f4cfca" if wounded else PAPER if i != C.S_KEY else "#ece4d3"
                c.rect(bx, y + 2, bw, bh, fill=fill, stroke=WOUND if wounded else MUTED, width=1.0, radius=3)
                c.text(bx + bw / 2, y + 2 + bh / 2, SLOT_ABBR[i], bh * 0.48, MUTED, anchor="middle")
            if wounded:  # a wound token on top (over a key token too)
                c.circle(bx + bw - 6, y + 8, 6.0, fill=WOUND, stroke="#ffffff", width=1.2)
                c.polyline([(bx + bw - 9, y + 5), (bx + bw - 3, y + 11)], "#ffffff", 1.5)
                c.polyline([(bx + bw - 3, y + 5), (bx + bw - 9, y + 11)], "#ffffff", 1.5)
        keys = int((s["slot_key"][q] >= 0).sum())
        feet, hands = int(s["feet"][q]), int(s["hands"][q])
        wounds = int(s["slot_wound"][q].sum())
        c.text(x + w, y + h / 2 - 7, f"{keys}/4 keys · {wounds} wounds", 11, INK, anchor="end")
        c.text(x + w, y + h / 2 + 7, f"tokens {feet}F {hands}H", 11, MUTED, anchor="end")

    p.figure(30, board)
    size = int(s["hand"][q].sum())
    if omniscient or q == viewer:
        p.text(f"hand {size}: " + _cards(s["hand"][q]), MUTED, size=11, indent=16, max_lines=2)
    else:
        p.text(f"hand {size} card{'s' if size != 1 else ''} (face down)", MUTED, size=11, indent=16)
    p.gap(2)
