"""Python-side pieces both Paths of Destiny envs share: corridor names, the text map of
the hex board with its side panel, and the action names of the board.

Each edition's env keeps its own options, events and panel lines; these functions only
know the board of ``labyrinth_env.core.hexboard`` and the state fields both records name
alike.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np

from labyrinth_env.core.grid import HEX_CELLS
from labyrinth_env.core.hexboard import KEY_CELLS, MAX_CORRIDORS, NUM_BOARD, NUM_BOARD_NODES, START_CELL


def node_name(node: int) -> str:
    """``(q,r)`` of a corridor's cell (``/k`` for its k-th corridor), or ``start i``."""
    cell, k = divmod(int(node), MAX_CORRIDORS)
    if cell >= START_CELL:
        return f"start {cell - START_CELL}"
    q, r = HEX_CELLS[cell]
    return f"({q},{r})" + ("" if k == 0 else f"/{k}")


def trap_action_names() -> list[str]:
    return [f"set a trap on {node_name(n)}" for n in range(NUM_BOARD_NODES)]


def place_action_names(what: str) -> list[str]:
    """``build <what> at (q,r) rotation k`` for every cell and rotation."""
    names = []
    for cell in range(NUM_BOARD):
        q, r = HEX_CELLS[cell]
        names += [f"build {what} at ({q},{r}) rotation {rot}" for rot in range(6)]
    return names


def board_glyphs(s: np.void, center_cell: int, home_key_nodes, overlay: Callable[[range, str], str]) -> dict[int, str]:
    """One glyph per hexagon cell: ``.`` empty, ``C`` the central tile, ``K`` a key tile,
    ``#`` another tile, ``^`` a trap, ``k`` a key away from its key field, then what
    ``overlay(nodes, glyph)`` adds for the edition, then a digit for a player (``*``
    several)."""
    n = int(s["num_players"])
    glyph = {}
    for cell in range(NUM_BOARD):
        if not s["cell_built"][cell]:
            g = "."
        elif cell == center_cell:
            g = "C"
        elif cell in KEY_CELLS:
            g = "K"
        else:
            g = "#"
        nodes = range(cell * MAX_CORRIDORS, cell * MAX_CORRIDORS + MAX_CORRIDORS)
        if any(s["node_trap"][x] >= 0 for x in nodes):
            g = "^"
        keys = s["key_node"]
        if any(keys[k] in nodes and keys[k] != home_key_nodes[k] for k in range(len(keys))):
            g = "k"
        g = overlay(nodes, g)
        here = [str(p) for p in range(n) if s["position"][p] in nodes]
        if here:
            g = here[0] if len(here) == 1 else "*"
        glyph[cell] = g
    return glyph


def hex_map(glyph: dict[int, str]) -> list[str]:
    """The hexagon as text rows. Rows run from r = 3 at the top: the direction numbers (and
    so the seats, which sit in increasing direction order) then run clockwise, as the
    rulebooks' turn order does."""
    lines = []
    for r in range(3, -4, -1):
        row = " " * abs(r)
        for q in range(-3, 4):
            if max(abs(q), abs(r), abs(q + r)) <= 3:
                cell = int(np.nonzero((HEX_CELLS[:, 0] == q) & (HEX_CELLS[:, 1] == r))[0][0])
                row += glyph[cell] + " "
        lines.append(row)
    return lines


def panel_head(s: np.void, decisions, running: int, won: int, truncated: int) -> list[str]:
    """The panel's first lines: turn and outcome, the active player, the pending decision."""
    status = {running: "running", won: f"won by player {int(s['winner'])}", truncated: "truncated"}
    return [
        f"turn {int(s['turn']) + 1}, {status[int(s['outcome'])]}",
        f"active player {int(s['seat'])}, actions left {int(s['actions_left'])}",
        f"decision: {decisions[int(s['decision'])]} (player {int(s['decider'])})",
    ]


def player_line(s: np.void, p: int) -> str:
    """Where player ``p`` stands, its life, stun, crystal and keys."""
    keys = [str(k) for k in range(len(s["key_holder"])) if s["key_holder"][k] == p]
    where = node_name(int(s["position"][p])) if s["position"][p] >= 0 else "-"
    return (
        f"player {p} at {where}: life {int(s['life'][p])}, stun {int(s['stun'][p])}, "
        f"crystal {'on' if s['crystal'][p] else 'off'}, keys [{','.join(keys)}]"
    )


def beside(lines: list[str], panel: list[str]) -> str:
    """The map with the panel to its right."""
    width = max(len(x) for x in lines)
    out = []
    for i in range(max(len(lines), len(panel))):
        left = lines[i] if i < len(lines) else ""
        right = panel[i] if i < len(panel) else ""
        out.append(f"{left:<{width}}   {right}")
    return "\n".join(out)


def shared_events(K: ModuleType, C: ModuleType, piece: str, seat: int, a: int, b: int, c: int) -> dict:
    """The decoders of the events both editions record alike (``piece``: what a tile is
    called), by the edition's event codes and names (``K.CHECK_NAMES``: the throw kinds)."""
    return {
        K.EV_FIRST_PLAYER: lambda: {"type": "first_player_roll", "seat": seat, "roll": a},
        K.EV_START_TURN: lambda: {"type": "start_turn", "seat": seat, "turn": a},
        K.EV_BUILD: lambda: {
            "type": "build",
            "seat": seat,
            piece: C.TILE_NAMES[a],
            "at": node_name(b * MAX_CORRIDORS),
            "rotation": c,
        },
        K.EV_BUILD_NOWHERE: lambda: {"type": "build_nowhere", "seat": seat, piece: C.TILE_NAMES[a]},
        K.EV_REST: lambda: {"type": "rest", "seat": seat, "stun_left": a},
        K.EV_TRAP_REVEALED: lambda: {
            "type": "trap_revealed",
            "seat": seat,
            "node": node_name(a),
            "trap": C.TRAP_NAMES[b],
        },
        K.EV_LIFE: lambda: {"type": "life", "seat": seat, "change": a, "life": b},
        K.EV_STUN: lambda: {"type": "stun", "seat": seat, "change": a, "stun": b},
        K.EV_DEATH: lambda: {"type": "death", "seat": seat, "node": node_name(a)},
        K.EV_REROLL: lambda: {"type": "reroll", "seat": seat, "check": K.CHECK_NAMES[a]},
        K.EV_CRYSTAL: lambda: {"type": "crystal", "seat": seat, "active": bool(a)},
        K.EV_WIN: lambda: {"type": "win", "seat": seat},
        K.EV_TRUNCATED: lambda: {"type": "truncated"},
    }
