"""Text picture of a Team Edition state (the ``ansi`` render mode).

Each cell is drawn 3 lines by 5 characters: ``#`` walls, gaps where paths open, ``?``
for face-down tiles. The middle shows pieces (Y R G B) or, for a visible uncollected
treasure, its letter (a-x, listed in the side panel). Rows ``r0``-``r6`` and columns
``c0``-``c6`` are labelled as the actions name cells (``move to r2c4``), the push arrows
(``v`` ``<`` ``^`` ``>``) sit where ``push top col 1`` and the others push in, and a key
below the board explains every mark.
"""

from __future__ import annotations

import textwrap

import numpy as np

from labyrinth_env.core.grid import ROTATE_SQUARE
from labyrinth_env.render.panel import turn_shown
from labyrinth_env.rulesets.team_edition import components as C
from labyrinth_env.rulesets.team_edition import kernel as K

_LETTER = "abcdefghijklmnopqrstuvwx"
CELL = 5  # characters a cell is wide (3 lines tall)
LEFT = 4  # the row label and the push arrow before the board's first column
BOARD_WIDTH = LEFT + C.SIZE * CELL + 1 + 2  # the board with its arrows and a gap before the side panel
PANEL_WIDTH = 100 - BOARD_WIDTH  # what the side panel may take of 100 columns


def _tile_rows(mask: int, middle: str) -> list[str]:
    n, e, s, w = ((mask >> d) & 1 for d in range(4))
    return [
        "#" + ("   " if n else "###") + "#",
        (" " if w else "#") + middle + (" " if e else "#"),
        "#" + ("   " if s else "###") + "#",
    ]


def _treasure_label(t: int) -> str:
    return f"{_LETTER[t]}={C.TREASURES[t]}"


def _turns(s: np.void, tile: int) -> list[str]:
    """``tile`` drawn in each of its four orientations (``turn 0``-``turn 3``: its printed
    shape turned that many quarters clockwise), as a push or a flip would lay it."""
    t = int(C.TILE_TREASURE[tile])
    middle = f" {_LETTER[t]} " if t >= 0 and not s["collected"][t] else "   "
    drawn = [_tile_rows(int(ROTATE_SQUARE[C.TILE_SHAPE[tile], o]), middle) for o in range(4)]
    rows = ["".join(f"turn {o}".ljust(8) for o in range(4)).rstrip()]
    rows += ["".join((" " + d[i]).ljust(8) for d in drawn).rstrip() for i in range(3)]
    return rows


def _arrow_columns(side: int) -> set[int]:
    """The columns (top, bottom) or rows (right, left) that have a push arrow on ``side``
    (0 top, 1 right, 2 bottom, 3 left), read off ``C.ARROW_LINE``."""
    out = set()
    for a in range(C.NUM_ARROWS):
        if a // 3 == side:
            first = int(C.ARROW_LINE[a, 0])
            out.add(first % C.SIZE if side in (0, 2) else first // C.SIZE)
    return out


def render_text(s: np.void, omniscient: bool = False, width: int = 100) -> str:
    """The board and a side panel, then the key; hidden treasures stay hidden unless
    ``omniscient``. Narrower than 100 columns (``width``) the panel comes below the board."""
    n = int(s["num_players"])
    grid: list[str] = [""] * (C.SIZE * 3)
    for r in range(C.SIZE):
        for c in range(C.SIZE):
            cell = r * C.SIZE + c
            tile = int(s["cell_tile"][cell])
            pieces = "".join(C.COLORS[p][0].upper() for p in range(n) if s["piece"][p] == cell)
            down = bool(s["tile_down"][tile])
            t = int(C.TILE_TREASURE[tile])
            visible = not down or s["public_memory"] or omniscient
            if pieces:
                middle = pieces[:3].center(3)
            elif t >= 0 and not s["collected"][t] and visible:
                middle = f" {_LETTER[t]} "
            else:
                middle = "   "
            if down:
                rows = ["?????", "?" + middle.replace(" ", "?") + "?", "?????"]
            else:
                rows = _tile_rows(int(s["open"][cell]), middle)
            for i in range(3):
                grid[r * 3 + i] += rows[i]
    panel = []
    outcome = int(s["outcome"])
    status = {K.RUNNING: "running", K.WON: "WON", K.LOST: "LOST", K.TRUNCATED: "truncated"}[outcome]
    panel.append(f"turn {turn_shown(s['turn'], outcome)}  status {status}")
    if outcome == K.RUNNING:
        seat = int(s["seat"])
        used = [name for name, f in (("push", "push_used"), ("spell", "spell_used")) if s[f]]
        panel.append(f"to act: {C.COLORS[seat]} ({K.DECISIONS[int(s['decision'])]})")
        panel.append(f"moves left {int(s['moves_left'])}  used: {', '.join(used) or '-'}")
    panel.append(f"Daedalus pages left {int(s['num_pages']) - int(s['page_pos'])}")
    if s["page_pos"] > 0:
        panel.append("last page: " + C.describe_page(s["pages"][int(s["page_pos"]) - 1]))
    panel.append(f"treasures collected {int(s['num_collected'])}/24, deck {C.NUM_TREASURES - int(s['treasure_pos'])}")
    for p in range(n):
        wants = [_treasure_label(int(t)) for t in s["slots"][p] if t >= 0]
        spell = C.SPELLS[int(s["spell"][p])]
        panel.append(f"{C.COLORS[p]} ({C.COLORS[p][0].upper()}): push+{spell}; wants {', '.join(wants) or '-'}")
    if s["decision"] == K.DECISION_ORIENT and s["flip_cell"] >= 0:
        cell = int(s["flip_cell"])
        panel.append(f"flipped tile at r{cell // C.SIZE}c{cell % C.SIZE}, as 'flip face up turn k' lays it:")
        panel.extend(_turns(s, int(s["cell_tile"][cell])))
    panel.append("spare tile, as 'push ... turn k' lays it in:")
    panel.extend(_turns(s, int(s["spare"])))
    width = max(width, BOARD_WIDTH)
    beside = width >= BOARD_WIDTH + PANEL_WIDTH
    panel_width = PANEL_WIDTH if beside else width
    panel = [piece for line in panel for piece in textwrap.wrap(line, panel_width, subsequent_indent="  ")]

    top, right, bottom, left = (_arrow_columns(side) for side in range(4))
    pad = " " * LEFT
    lines = [pad + "".join(f"c{c}".center(CELL) for c in range(C.SIZE)).rstrip()]
    lines.append(pad + "".join(("v" if c in top else " ").center(CELL) for c in range(C.SIZE)).rstrip())
    for i, row in enumerate(grid):
        r, middle = i // 3, i % 3 == 1
        label = f"r{r}" if middle else ""
        side = ">" if middle and r in left else " "
        back = "<" if middle and r in right else " "
        extra = panel[i] if beside and i < len(panel) else ""
        lines.append(f"{label:>2} {side}{row}{back}  {extra}".rstrip())
    lines.append(pad + "".join(("^" if c in bottom else " ").center(CELL) for c in range(C.SIZE)).rstrip())
    if beside:
        lines += [" " * BOARD_WIDTH + extra for extra in panel[len(grid) :]]
    else:
        lines += ["", *panel]

    pieces = ", ".join(f"{C.COLORS[p][0].upper()} {C.COLORS[p]} (player {p})" for p in range(n))
    homes = ", ".join(
        f"{C.COLORS[p]} r{int(C.HOME_CELLS[p]) // C.SIZE}c{int(C.HOME_CELLS[p]) % C.SIZE}" for p in range(n)
    )
    key = (
        "rows r0-r6 and columns c0-c6 as the actions name cells (move to r2c4); # a wall, a gap an "
        "open path; ????? a face-down tile (its paths and treasure hidden); "
        f"pieces: {pieces}; home corners: {homes}; a-x a treasure (the wanted ones named in the panel); "
        "v\xa0<\xa0^\xa0> the push arrows: 'push top col 1' comes in at the v above c1 and pushes south, the "
        "right, bottom and left ones likewise; "
        "'turn k': the tile's printed shape turned k quarter turns clockwise (drawn in the panel); "
        "north is up"
        + ("" if beside else f"; the panel is below the board (beside it from {BOARD_WIDTH + PANEL_WIDTH} columns)")
    )
    key_lines = textwrap.wrap(key, width, initial_indent="key: ", subsequent_indent="     ", break_on_hyphens=False)
    lines += ["", *(line.replace("\xa0", " ") for line in key_lines)]
    return "\n".join(lines)
