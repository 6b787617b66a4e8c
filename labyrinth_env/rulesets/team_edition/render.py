"""Text picture of a Team Edition state (the ``ansi`` render mode).

Each cell is drawn 3 lines by 5 characters: ``#`` walls, gaps where paths open, ``?``
for face-down tiles. The middle shows pieces (Y R G B) or, for a visible uncollected
treasure, its letter (a-x, listed in the side panel).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import ROTATE_SQUARE
from labyrinth_env.rulesets.team_edition import components as C
from labyrinth_env.rulesets.team_edition import kernel as K

_LETTER = "abcdefghijklmnopqrstuvwx"


def _tile_rows(mask: int, middle: str) -> list[str]:
    n, e, s, w = ((mask >> d) & 1 for d in range(4))
    return [
        "#" + ("   " if n else "###") + "#",
        (" " if w else "#") + middle + (" " if e else "#"),
        "#" + ("   " if s else "###") + "#",
    ]


def _treasure_label(t: int) -> str:
    return f"{_LETTER[t]}={C.TREASURES[t]}"


def render_text(s: np.void, omniscient: bool = False) -> str:
    """The board and a side panel; hidden treasures stay hidden unless ``omniscient``."""
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
    spare = int(s["spare"])
    st = int(C.TILE_TREASURE[spare])
    spare_rows = _tile_rows(
        int(ROTATE_SQUARE[C.TILE_SHAPE[spare], s["tile_rot"][spare]]),
        f" {_LETTER[st]} " if st >= 0 and not s["collected"][st] else "   ",
    )
    panel = []
    outcome = int(s["outcome"])
    status = {K.RUNNING: "running", K.WON: "WON", K.LOST: "LOST", K.TRUNCATED: "truncated"}[outcome]
    panel.append(f"turn {int(s['turn']) + 1}  status {status}")
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
        panel.append(f"{C.COLORS[p]:>6}: push+{spell}; wants {', '.join(wants) or '-'}")
    panel.append("spare:")
    panel.extend("  " + row for row in spare_rows)

    lines = [" " + "".join("  v  " if c % 2 else "     " for c in range(C.SIZE))]
    for i, row in enumerate(grid):
        r = i // 3
        side = ">" if (r % 2 and i % 3 == 1) else " "
        back = "<" if (r % 2 and i % 3 == 1) else " "
        extra = panel[i] if i < len(panel) else ""
        lines.append(f"{side}{row}{back}  {extra}")
    lines.append(" " + "".join("  ^  " if c % 2 else "     " for c in range(C.SIZE)))
    for extra in panel[len(grid) :]:
        lines.append(" " * (C.SIZE * 5 + 4) + extra)

    return "\n".join(lines)
