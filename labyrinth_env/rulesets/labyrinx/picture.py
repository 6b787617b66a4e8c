"""Picture of a Labyrinx state: the square table (its sides wrap around) with the Empty Hall
in the middle (the exit space, and the draw deck, treasure reserve and discard pile spaces
nobody may enter), the path cards with their open sides, doors and challenges, the
characters, and a side panel (turn, decision, actions left, the challenge or movement being
resolved, the piles, and per player treasures, hand, character and icons).

Hidden information: a face-down card is a back; its kind shows to the seat that remembers
it (it peeked, or saw it face up before it was flipped down; orientation is chosen when it
is flipped, so the kind is drawn in its printed orientation) when drawn for that ``viewer``,
and every card with ``omniscient=True``. Hands show only to their owner (or omnisciently),
the draw deck's next card only omnisciently. A spectator (``viewer=None``) sees no memory.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.render import INK, MUTED, PAPER, Canvas, Panel, mix, seat_colour, text_width
from labyrinth_env.render.canvas import CHAR_WIDTH
from labyrinth_env.render.panel import turn_shown
from labyrinth_env.rulesets.labyrinx import components as C
from labyrinth_env.rulesets.labyrinx import kernel as K
from labyrinth_env.rulesets.team_edition.picture import draw_back, draw_tile

WIDTH, HEIGHT = 1000, 700
BOARD_X, BOARD_Y, BOARD = 30, 30, 640  # the table is fitted into this square, whatever its size
PANEL_X = BOARD_X + BOARD + 40
BACKGROUND = "#e9e4d8"
TABLE = "#4b3a2c"  # the wooden table under the cards
TABLE_EDGE = "#2f241b"
SPACE = "#5a4736"  # an empty space on the table
SPACE_EDGE = "#79634d"
HALL = "#b9a27a"  # the Empty Hall's stone
HALL_EDGE = "#6d5a3b"
FLOOR = "#f1e4c2"
SLAB = "#8a7b66"  # pile spaces: not enterable
DOOR = "#7a4a1f"
DOOR_EDGE = "#3f2410"
GOLD = "#e8b923"
GOLD_EDGE = "#8a6a00"
MONSTER_FILL = "#7b2d8e"
TRAP_FILL = "#8d99a6"
CHEST_FILL = "#a0652f"
BEATEN = "#2e9e4a"
PENDING = "#ffd23f"
HIDDEN = "#7a3b9e"  # text only the omniscient view shows
_DIRS = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))  # N E S W on screen
_PILE_NAMES = ("draw deck", "treasure reserve", "discard pile")
_OFFSETS = {
    1: [(0.0, 0.0)],
    2: [(-0.2, 0.0), (0.2, 0.0)],
    3: [(-0.2, -0.17), (0.2, -0.17), (0.0, 0.2)],
    4: [(-0.2, -0.2), (0.2, -0.2), (-0.2, 0.2), (0.2, 0.2)],
    5: [(-0.22, -0.22), (0.22, -0.22), (0.0, 0.0), (-0.22, 0.22), (0.22, 0.22)],
    6: [(-0.24, -0.2), (0.0, -0.2), (0.24, -0.2), (-0.24, 0.2), (0.0, 0.2), (0.24, 0.2)],
}


def cell_name(cell: int) -> str:
    r, col = divmod(int(cell), K.MAXT)
    return f"({r},{col})"


# --- small figures ------------------------------------------------------------------------------
def draw_icon(c: Canvas, cx: float, cy: float, r: float, icon: int, faded: bool = False) -> None:
    """A challenge icon (monster, trap or chest) in a disc of radius ``r``."""
    fade = (lambda col: mix(col, "#d9d2c5", 0.55)) if faded else (lambda col: col)
    c.circle(cx, cy, r, fill=fade("#fbf5e6"), stroke=fade(INK), width=max(1.0, r * 0.12))
    if icon == C.MONSTER:  # a horned head
        c.polygon([(cx - r * 0.55, cy - r * 0.2), (cx - r * 0.5, cy - r * 0.85), (cx - r * 0.15, cy - r * 0.45)],
                  fill=fade(MONSTER_FILL))  # fmt: skip
        c.polygon([(cx + r * 0.55, cy - r * 0.2), (cx + r * 0.5, cy - r * 0.85), (cx + r * 0.15, cy - r * 0.45)],
                  fill=fade(MONSTER_FILL))  # fmt: skip
        c.circle(cx, cy + r * 0.08, r * 0.58, fill=fade(MONSTER_FILL))
        for sx in (-1, 1):
            c.circle(cx + sx * r * 0.22, cy - r * 0.02, r * 0.14, fill="#ffffff")
            c.circle(cx + sx * r * 0.22, cy + r * 0.0, r * 0.06, fill=INK)
        c.polyline([(cx - r * 0.25, cy + r * 0.35), (cx + r * 0.25, cy + r * 0.35)], "#ffffff", max(1.0, r * 0.1))
    elif icon == C.TRAP:  # a row of spikes on a plate
        c.rect(cx - r * 0.62, cy + r * 0.2, r * 1.24, r * 0.3, fill=fade("#4a4f57"))
        for k in range(4):
            x0 = cx - r * 0.62 + k * r * 0.31
            c.polygon([(x0, cy + r * 0.2), (x0 + r * 0.155, cy - r * 0.55), (x0 + r * 0.31, cy + r * 0.2)],
                      fill=fade(TRAP_FILL), stroke=fade("#4a4f57"), width=max(1.0, r * 0.06))  # fmt: skip
    else:  # a chest
        c.rect(cx - r * 0.6, cy - r * 0.15, r * 1.2, r * 0.6, fill=fade(CHEST_FILL), stroke=fade(DOOR_EDGE),
               width=max(1.0, r * 0.07))  # fmt: skip
        c.rect(cx - r * 0.6, cy - r * 0.5, r * 1.2, r * 0.35, fill=fade(mix(CHEST_FILL, "#ffffff", 0.2)),
               stroke=fade(DOOR_EDGE), width=max(1.0, r * 0.07), radius=r * 0.12)  # fmt: skip
        c.rect(cx - r * 0.12, cy - r * 0.25, r * 0.24, r * 0.25, fill=fade(GOLD), stroke=fade(GOLD_EDGE), width=1.0)


def _check(c: Canvas, cx: float, cy: float, r: float) -> None:
    """The mark of a defeated challenge."""
    c.circle(cx, cy, r, fill=BEATEN, stroke="#ffffff", width=max(1.0, r * 0.15))
    c.polyline([(cx - r * 0.5, cy), (cx - r * 0.1, cy + r * 0.42), (cx + r * 0.5, cy - r * 0.4)], "#ffffff",
               max(1.5, r * 0.28))  # fmt: skip


def _coin(c: Canvas, cx: float, cy: float, r: float) -> None:
    c.circle(cx, cy, r, fill=GOLD, stroke=GOLD_EDGE, width=max(1.0, r * 0.15))
    c.circle(cx, cy, r * 0.55, stroke=mix(GOLD, GOLD_EDGE, 0.6), width=max(1.0, r * 0.1))


def _doors(c: Canvas, x: float, y: float, size: float, doors: int) -> None:
    """A wooden door across the path at each side in ``doors``."""
    for d in range(4):
        if not (doors >> d) & 1:
            continue
        dx, dy = _DIRS[d]
        cx, cy = x + size / 2 + dx * size * 0.36, y + size / 2 + dy * size * 0.36
        half, thick = size * 0.22, size * 0.07
        w, h = (2 * half, 2 * thick) if dx == 0 else (2 * thick, 2 * half)
        c.rect(cx - w / 2, cy - h / 2, w, h, fill=DOOR, stroke=DOOR_EDGE, width=1.0, radius=1.5)
        c.circle(cx + (half * 0.5 if dx == 0 else 0), cy + (half * 0.5 if dy == 0 else 0), size * 0.02, fill=GOLD)


def draw_card(c: Canvas, x: float, y: float, size: float, card: int, rot: int, beaten: bool = False,
              gold: bool = False) -> None:  # fmt: skip
    """A face-up path card at rotation ``rot`` (-1: still to be turned, shown in its printed
    orientation, washed out)."""
    kind = int(C.CARD_KIND[card])
    mask = int(K.CARD_OPEN[card, max(rot, 0)])
    draw_tile(c, x, y, size, mask)
    _doors(c, x, y, size, int(K.CARD_DOORS[card, max(rot, 0)]))
    icon = int(C.KIND_ICON[kind])
    if icon >= 0:
        draw_icon(c, x + size / 2, y + size / 2, size * 0.21, icon, faded=beaten)
        if beaten:
            _check(c, x + size * 0.76, y + size * 0.24, size * 0.11)
    if gold:
        _coin(c, x + size * 0.24, y + size * 0.24, size * 0.12)
    if rot < 0:
        c.rect(x + 1, y + 1, size - 2, size - 2, fill="#ffffff", opacity=0.4, radius=size * 0.08)


def draw_known_back(c: Canvas, x: float, y: float, size: float, card: int) -> None:
    """A face-down card whose kind the viewer knows: its printed shape shows faintly."""
    kind = int(C.CARD_KIND[card])
    draw_back(c, x, y, size, int(C.KIND_OPEN[kind]))
    icon = int(C.KIND_ICON[kind])
    if icon >= 0:
        draw_icon(c, x + size / 2, y + size / 2, size * 0.17, icon, faded=True)
    if C.KIND_DOORS[kind]:
        _doors(c, x, y, size, int(C.KIND_DOORS[kind]))


def _hatch(c: Canvas, x: float, y: float, size: float, colour: str, step: float) -> None:
    """Diagonal lines across a square: a space nobody may enter."""
    a = step
    while a < 2 * size:
        p0 = (x + a, y) if a <= size else (x + size, y + a - size)
        p1 = (x, y + a) if a <= size else (x + a - size, y + size)
        c.polyline([p0, p1], colour, 1.2, round_caps=False)
        a += step


def _pawn(c: Canvas, cx: float, cy: float, r: float, p: int, ringed: bool, title: str) -> None:
    colour = seat_colour(p)
    with c.group("character", title=title):
        if ringed:
            c.circle(cx, cy, r + 5, fill="#ffffff", stroke=INK, width=2.5)
        c.circle(cx, cy + 2, r, fill=mix(colour, INK, 0.6))
        c.circle(cx, cy, r, fill=colour, stroke=mix(colour, INK, 0.5), width=1.5)
        c.text(cx, cy, str(p), r * 1.1, "#ffffff", anchor="middle", bold=True)


# --- the table ------------------------------------------------------------------------------------
def _layout(s: np.void) -> tuple[float, float, float]:
    """(x, y, cell size) of the table's top-left corner."""
    t = int(s["table"])
    cell = float(BOARD // t)
    off = (BOARD - cell * t) / 2
    return BOARD_X + off, BOARD_Y + off, cell


def _hall(c: Canvas, s: np.void, x0: float, y0: float, cell: float, omniscient: bool) -> None:
    """The Empty Hall: the exit space over three cells, the three pile spaces below."""
    r0, c0 = divmod(int(s["exit0"]), K.MAXT)
    w = C.HALL_EXIT_WIDTH
    x, y = x0 + c0 * cell, y0 + r0 * cell
    with c.group("exit", title="the exit space of the Empty Hall (one location)"):
        c.rect(x + 1, y + 1, w * cell - 2, cell - 2, fill=HALL, stroke=HALL_EDGE, width=1.5, radius=cell * 0.08)
        pw = cell * 0.36
        for i in range(w):  # open on every outer side: north of each cell, west and east ends
            cx = x + (i + 0.5) * cell
            c.rect(cx - pw / 2, y, pw, cell / 2, fill=FLOOR)
        c.rect(x, y + cell / 2 - pw / 2, w * cell, pw, fill=FLOOR)
        c.rect(x + cell * 0.3, y + cell * 0.26, (w - 0.6) * cell, cell * 0.48, fill=FLOOR, stroke=HALL_EDGE,
               width=1.0, radius=cell * 0.1)  # fmt: skip
        for i in (0, w - 1):  # the hall's name at both ends, clear of the characters in the middle
            c.text(x + (i + 0.5) * cell, y + cell * 0.86, "EXIT", cell * 0.17, HALL_EDGE, anchor="middle", bold=True)
    y += cell
    deck, discards, reserve = int(s["deck_len"]), int(s["discard_len"]), int(s["reserve"])
    for i in range(w):
        px = x + i * cell
        name = _PILE_NAMES[i] if i < len(_PILE_NAMES) else "pile"
        with c.group("pile", title=f"{name} space (cannot be entered)"):
            c.rect(px + 1, y + 1, cell - 2, cell - 2, fill=SLAB, stroke=HALL_EDGE, width=1.5, radius=cell * 0.08)
            _hatch(c, px + 1, y + 1, cell - 2, mix(SLAB, INK, 0.25), cell / 7)
            m = cell * 0.18
            if i == 0:
                if deck:
                    for k in (2, 1, 0)[: min(3, deck)]:
                        draw_back(c, px + m + k * 2.5, y + m - k * 2.5, cell - 2 * m)
                    if omniscient:
                        top = int(s["deck"][deck - 1])
                        c.text(px + cell / 2, y + cell - 7, "next: " + C.KIND_NAMES[C.CARD_KIND[top]][:10],
                               cell * 0.12, "#ffffff", anchor="middle")  # fmt: skip
                label = str(deck)
            elif i == 1:
                for k in range(min(3, reserve)):
                    _coin(c, px + cell * (0.38 + 0.12 * k), y + cell * (0.55 - 0.1 * k), cell * 0.17)
                label = str(reserve)
            else:
                if discards:
                    draw_card(c, px + m, y + m, cell - 2 * m, int(s["discard"][discards - 1]), 0)
                label = str(discards)
            c.circle(px + cell * 0.8, y + cell * 0.2, cell * 0.15, fill=PAPER, stroke=INK, width=1.0)
            c.text(px + cell * 0.8, y + cell * 0.2, label, cell * 0.15, INK, anchor="middle", bold=True)


def _table(c: Canvas, s: np.void, viewer: int | None, omniscient: bool) -> tuple[float, float, float]:
    t = int(s["table"])
    x0, y0, cell = _layout(s)
    side = t * cell
    c.rect(x0 - 12, y0 - 12, side + 24, side + 24, fill=TABLE, stroke=TABLE_EDGE, width=2.0, radius=10)
    # the sides wrap around: little notches on opposite edges in the same rows and columns
    for i in range(t):
        m = (i + 0.5) * cell
        for a, b in (((x0 + m, y0 - 9), (x0 + m, y0 - 3)), ((x0 + m, y0 + side + 3), (x0 + m, y0 + side + 9))):
            c.polyline([a, b], SPACE_EDGE, 2.0)
        for a, b in (((x0 - 9, y0 + m), (x0 - 3, y0 + m)), ((x0 + side + 3, y0 + m), (x0 + side + 9, y0 + m))):
            c.polyline([a, b], SPACE_EDGE, 2.0)
    pending = -1
    if int(s["outcome"]) == K.RUNNING:
        dec = int(s["decision"])
        if dec == K.D_ROTATE:
            pending = int(s["pl_cell"])
        elif dec in (K.D_PAY, K.D_CHEST):
            pending = int(s["ch_cell"])
    for r in range(t):
        for col in range(t):
            cell_id = r * K.MAXT + col
            ty = int(s["cell_type"][cell_id])
            if ty in (K.T_EXIT, K.T_PILE):
                continue
            x, y = x0 + col * cell, y0 + r * cell
            card = int(s["cell_card"][cell_id])
            name = cell_name(cell_id)
            if card < 0:
                with c.group("space", title=f"{name}: empty space"):
                    c.rect(x + 2, y + 2, cell - 4, cell - 4, fill=SPACE, stroke=SPACE_EDGE, width=1.0,
                           radius=cell * 0.08)  # fmt: skip
                continue
            kind = C.KIND_NAMES[C.CARD_KIND[card]]
            if s["cell_up"][cell_id]:
                beaten, gold = bool(s["cell_beaten"][cell_id]), bool(s["cell_gold"][cell_id])
                extra = (", defeated" if beaten else "") + (", a treasure on it" if gold else "")
                with c.group("card", title=f"{name}: {kind}{extra}"):
                    draw_card(c, x, y, cell, card, int(s["cell_rot"][cell_id]), beaten, gold)
            elif omniscient or (viewer is not None and s["known"][viewer, cell_id]):
                how = "omniscient" if omniscient else "remembered"
                with c.group("card", title=f"{name}: face down ({how}: {kind})"):
                    draw_known_back(c, x, y, cell, card)
            else:
                with c.group("card", title=f"{name}: face down"):
                    draw_back(c, x, y, cell)
            if cell_id == pending:
                c.rect(x + 2, y + 2, cell - 4, cell - 4, stroke=PENDING, width=3.5, radius=cell * 0.08)
    _hall(c, s, x0, y0, cell, omniscient)
    return x0, y0, cell


def _characters(c: Canvas, s: np.void, x0: float, y0: float, cell: float) -> None:
    n = int(s["num_players"])
    running = int(s["outcome"]) == K.RUNNING
    decider = int(s["decider"]) if running and int(s["decision"]) != K.D_NONE else -1
    exit0 = int(s["exit0"])
    by_cell: dict[int, list[int]] = {}
    for p in range(n):
        by_cell.setdefault(int(s["pos"][p]), []).append(p)
    for cell_id, seats in by_cell.items():
        r, col = divmod(cell_id, K.MAXT)
        width = 1.0
        if cell_id == exit0 or int(s["cell_type"][cell_id]) == K.T_EXIT:
            r, col = divmod(exit0, K.MAXT)
            width = float(C.HALL_EXIT_WIDTH)
        rad = cell * (0.17 if len(seats) == 1 else 0.13 if len(seats) <= 4 else 0.11)
        if width > 1:  # the exit space: in a row along the hall
            spots = [((k + 0.5) * width / len(seats) - width / 2, 0.0) for k in range(len(seats))]
            rad = cell * 0.15
        else:
            spots = _OFFSETS[len(seats)]
            if _has_figure(s, cell_id):  # keep the card's icon in sight: characters along the bottom
                k = len(seats)
                spots = [((i + 0.5) / k * 0.8 - 0.4, 0.33) for i in range(k)] if k > 1 else [(0.26, 0.28)]
                rad = cell * (0.13 if k == 1 else 0.11 if k <= 3 else 0.09)
        for p, (ox, oy) in zip(seats, spots):
            cx = x0 + (col + width / 2 + ox) * cell
            cy = y0 + (r + 0.5 + oy) * cell
            ch = int(s["character"][p])
            title = f"player {p}: {C.CHARACTER_NAMES[ch]}, {int(s['treasure'][p])} treasures"
            _pawn(c, cx, cy, rad, p, p == decider, title)


def _has_figure(s: np.void, cell_id: int) -> bool:
    """A face-up card with a challenge icon or a treasure on it."""
    card = int(s["cell_card"][cell_id])
    if card < 0 or not s["cell_up"][cell_id]:
        return False
    return bool(s["cell_gold"][cell_id]) or int(C.KIND_ICON[C.CARD_KIND[card]]) >= 0


# --- the panel ------------------------------------------------------------------------------------
def _status(s: np.void) -> str:
    outcome = int(s["outcome"])
    if outcome == K.WON:
        return f"won by player {int(s['winner'])}"
    if outcome == K.TRUNCATED:
        return "stopped (turn limit)"
    return "running"


def _panel(c: Canvas, s: np.void, viewer: int | None, omniscient: bool) -> None:
    n = int(s["num_players"])
    p = Panel(c, PANEL_X, 30, WIDTH - PANEL_X - 20, HEIGHT - 60, size=13)
    p.heading("Labyrinx" + (" (omniscient)" if omniscient else ""))
    running = int(s["outcome"]) == K.RUNNING
    race = " · RACE to the exit" if s["race"] else ""
    p.text(f"Turn {turn_shown(int(s['turn']) - 1, s['outcome'])} · {_status(s)}{race}", bold=not running, max_lines=2)
    if running:
        seat, decider, dec = int(s["seat"]), int(s["decider"]), int(s["decision"])
        phase = K.PHASE_NAMES[int(s["phase"])]
        p.text(f"Player {seat}'s turn · {phase}", swatch=seat_colour(seat), max_lines=1)
        if dec != K.D_NONE:
            p.text(f"Player {decider}: {K.DECISIONS[dec]}", bold=True, max_lines=2)
        if int(s["regular_done"]) or int(s["phase"]) == K.PH_ACTION:
            p.pips("actions left", int(s["actions_left"]), K.ACTIONS, seat_colour(seat))
        if dec in (K.D_PAY, K.D_CHEST) and int(s["ch_icon"]) >= 0:
            icon = C.ICON_NAMES[int(s["ch_icon"])]
            who = int(s["ch_seat"])
            if dec == K.D_PAY:
                msg = f"{icon} at {cell_name(int(s['ch_cell']))}: rolled {int(s['ch_diff'])}, "
                msg += f"{int(s['ch_need'])} card(s) to discard (player {who})"
            else:
                msg = f"chest with a treasure at {cell_name(int(s['ch_cell']))} (player {who})"
            p.text(msg, "#8a2a2a", size=12, max_lines=2)
        if int(s["mv_kind"]) != K.MV_NONE:
            what = K.MOVEMENT_NAMES[int(s["mv_kind"])]
            p.text(
                f"{what}: player {int(s['mv_mover'])} moves player {int(s['mv_seat'])}, "
                f"{int(s['mv_steps'])} space(s) left",
                "#8a2a2a",
                size=12,
                max_lines=2,
            )
    p.gap(2)
    deck, discards = int(s["deck_len"]), int(s["discard_len"])
    p.text(f"deck {deck} · discards {discards} · reserve {int(s['reserve'])}", size=12, max_lines=2)
    if discards:
        top = C.KIND_NAMES[C.CARD_KIND[int(s["discard"][discards - 1])]]
        p.text(f"top discard: {top}", MUTED, size=12, max_lines=1)
    if omniscient and deck:
        p.text(f"next card: {C.KIND_NAMES[C.CARD_KIND[int(s['deck'][deck - 1])]]}", HIDDEN, size=12, max_lines=1)
    p.gap(4)
    p.heading("Players")
    seat = int(s["seat"]) if running else -1
    for q in range(n):
        _player(p, c, s, q, viewer, omniscient, q == seat)


def _player(p: Panel, c: Canvas, s: np.void, q: int, viewer: int | None, omniscient: bool, active: bool) -> None:
    """Two rows: colour, character, its icons and treasures; hand size and (to its owner or
    omnisciently) the cards themselves."""
    ch = int(s["character"][q])
    you = " (you)" if q == viewer else ""
    mark = " · racing" if s["race"] and s["racer"][q] else ""
    if int(s["outcome"]) == K.WON and int(s["winner"]) == q:
        mark = " · WON"
    hand = [int(s["hand"][q, k]) for k in range(int(s["hand_len"][q]))]
    shown = omniscient or q == viewer
    limit = K.HAND_LIMIT
    colour = seat_colour(q)

    def head(x: float, y: float, w: float, h: float) -> None:
        mid = y + h / 2
        c.circle(x + 6, mid, 6, fill=colour, stroke=mix(colour, INK, 0.5), width=1.0)
        tx = x + w - 5 * 13
        name = f"P{q} {C.CHARACTER_NAMES[ch]}{you}"
        room = tx - 12 - 17 * C.ICONS_PER_CHARACTER - (x + 17)
        c.text(x + 17, mid, name, min(13.0, room / (len(name) * CHAR_WIDTH)), INK, bold=active)
        for k in range(C.WIN_TREASURES):  # treasures out of the five that win
            got = k < int(s["treasure"][q])
            c.circle(tx + k * 13 + 6, mid, 5.5, fill=GOLD if got else PAPER, stroke=GOLD_EDGE, width=1.0)
        ix = tx - 12
        for icon in (C.CHEST, C.TRAP, C.MONSTER):  # the character's challenge icons, right to left
            for _ in range(int(C.CHAR_ICONS[ch, icon])):
                with c.group("icon", title=f"{C.ICON_NAMES[icon]} icon"):
                    draw_icon(c, ix, mid, 7.5, icon)
                ix -= 17

    def cards(x: float, y: float, w: float, h: float) -> None:
        mid = y + h / 2
        label = f"cards {len(hand)}/{limit}{mark}"
        c.text(x + 17, mid, label, 12, INK if mark else MUTED, bold=bool(mark))
        if not (shown and hand):
            return
        left = max(x + 90, x + 17 + text_width(label, 12) + 8)
        size = min(h - 2, (x + w - left) / len(hand) - 2)
        for k, card in enumerate(hand):
            with c.group("hand", title=f"card {k}: {C.KIND_NAMES[C.CARD_KIND[card]]}"):
                draw_card(c, left + k * (size + 2), y + 1, size, card, 0)

    p.figure(21, head)
    p.figure(28 if shown and hand else 16, cards)
    power = int(C.CHAR_POWER[ch])
    if bool(s["powers"]):
        p.text(
            C.POWER_NAMES[power] if power != C.POW_NONE else "no special power", MUTED, size=11, indent=17, max_lines=1
        )
    p.gap(4)


def draw(s: np.void, viewer: int | None = None, omniscient: bool = False) -> Canvas:
    """The picture of state ``s`` as seen by seat ``viewer`` (None: a spectator)."""
    n = int(s["num_players"])
    if viewer is not None and not 0 <= viewer < n:
        raise ValueError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    c = Canvas(WIDTH, HEIGHT, BACKGROUND, title="Labyrinx")
    x0, y0, cell = _table(c, s, viewer, omniscient)
    _characters(c, s, x0, y0, cell)
    _panel(c, s, viewer, omniscient)
    return c
