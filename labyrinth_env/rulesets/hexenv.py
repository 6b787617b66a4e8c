"""Python-side pieces both Paths of Destiny envs share: corridor and direction names, the
text map of the hex board with its panel and key, and the action names of the board.

Each edition's env keeps its own options, events and panel lines; these functions only
know the board of ``labyrinth_env.core.hexboard`` and the state fields both records name
alike.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from types import ModuleType

import numpy as np

from labyrinth_env.core.grid import HEX_CELLS, HEX_DELTAS, ROTATE_HEX
from labyrinth_env.core.hexboard import (
    FRAME_QR,
    KEY_CELLS,
    MAX_CORRIDORS,
    NUM_BOARD,
    NUM_BOARD_NODES,
    NUM_CELLS,
    START_CELL,
)
from labyrinth_env.render.panel import turn_shown

# why both editions' ``max_turns`` refuses None (issue 32): nothing in either rulebook bounds
# a game's length, and random games were seen running on for ever
NEED_NOT_END = (
    "a Paths of Destiny game need not end (of 4 random 3rd-edition games 2, and of 2 random 2011 "
    "games 2, had not ended after 3,000,000 decisions), so every game needs a turn limit"
)


# --- directions --------------------------------------------------------------------------------
def _compass(dq: int, dr: int) -> str:
    """The compass name of an axial step on the text map (and on the pictures): q grows to
    the east, r to the north-east, so one step moves ``2 dq + dr`` half-cells east and ``dr``
    rows north."""
    east, north = 2 * dq + dr, dr
    words = ("north" if north > 0 else "south" if north < 0 else "", "east" if east > 0 else "west" if east < 0 else "")
    return "-".join(w for w in words if w)


# direction d (``core.grid.HEX_DELTAS[d]``) by name: in action names, the legend, the panel
HEX_DIRECTION_NAMES = tuple(_compass(int(dq), int(dr)) for dq, dr in HEX_DELTAS)
HEX_DIRECTION_SHORT = tuple("".join(w[0].upper() for w in name.split("-")) for name in HEX_DIRECTION_NAMES)
assert HEX_DIRECTION_NAMES == ("east", "south-east", "south-west", "west", "north-west", "north-east")


def direction_names(prefix: str) -> list[str]:
    """``<prefix> east``, ``<prefix> south-east``... for the six directions 0-5."""
    return [f"{prefix} {name}" for name in HEX_DIRECTION_NAMES]


def edges_name(mask: int) -> str:
    """A corridor's open edges as compass letters, ``E-SW-NW``."""
    return "-".join(HEX_DIRECTION_SHORT[d] for d in range(6) if (int(mask) >> d) & 1)


# --- names ----------------------------------------------------------------------------------------
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


NBSP = "\xa0"  # a space the panel's wrapping keeps (a field's name stays with what lies there)


# --- the text map ---------------------------------------------------------------------------------
PITCH = 8  # columns from a field to its east neighbour; a row lies half of it east of the row below
GLYPH_WIDTH = PITCH - 1


def board_glyphs(s: np.void, center_cell: int, overlay: Callable[[range], str]) -> dict[int, str]:
    """What each field (start fields included) shows on the map: the field (``.`` empty,
    ``C`` central, ``K`` key field, ``#`` another tile, ``S`` start field), what
    ``overlay(nodes)`` adds for the edition (its wandering figure, items), ``^`` a face-down
    trap, ``!`` a face-up one, ``k<n>`` key n lying there, then the players standing there
    (their seat digits). At most ``GLYPH_WIDTH`` characters: several players that do not
    fit show as ``*``, marks that do not fit end in ``+`` (the panel lists them all)."""
    n = int(s["num_players"])
    keys = s["key_node"]
    glyph = {}
    for cell in range(NUM_CELLS):
        if cell >= START_CELL:
            field = "S"
        elif not s["cell_built"][cell]:
            field = "."
        elif cell == center_cell:
            field = "C"
        elif cell in KEY_CELLS:
            field = "K"
        else:
            field = "#"
        nodes = range(cell * MAX_CORRIDORS, cell * MAX_CORRIDORS + MAX_CORRIDORS)
        ups = [bool(up[x]) for trap, up in trap_slots(s) for x in nodes if trap[x] >= 0]
        marks = overlay(nodes)
        marks += "^" if not all(ups) else ""
        marks += "!" if any(ups) else ""
        marks += "".join(f"k{k}" for k in range(len(keys)) if keys[k] in nodes)
        players = "".join(str(p) for p in range(n) if s["position"][p] in nodes)
        if len(field + marks) + len(players) + 1 > GLYPH_WIDTH and len(players) > 1:
            players = "*"
        room = GLYPH_WIDTH - len(field) - (len(players) + 1 if players else 0)
        if len(marks) > room:
            marks = marks[: room - 1] + "+"
        glyph[cell] = field + marks + (" " + players if players else "")
    return glyph


def _column(cell: int) -> int:
    q, r = FRAME_QR[cell]
    return PITCH * int(q) + PITCH // 2 * int(r) + 4 * PITCH + PITCH // 2


def _put(row: list[str], centre: int, text: str) -> None:
    start = centre - (len(text) - 1) // 2
    row[start : start + len(text)] = list(text)


def hex_map(glyph: dict[int, str]) -> list[str]:
    """The hexagon and its six start fields as text: two lines a row of fields, what lies on
    each field and under it its name as the action names write it, ``(q,r)`` (``start i``
    for a start field). Rows run from r = 4 (start fields 4 and 5) at the top to r = -4 at
    the bottom, q grows to the east: the directions 0-5 point E, SE, SW, W, NW, NE
    (``HEX_DIRECTION_NAMES``), clockwise, as the rulebooks' turn order runs."""
    width = _column(START_CELL) + PITCH // 2  # start field 0, the easternmost
    lines = []
    for r in range(4, -5, -1):
        top, names = [" "] * width, [" "] * width
        for cell in range(NUM_CELLS):
            if int(FRAME_QR[cell, 1]) == r:
                _put(top, _column(cell), glyph[cell])
                _put(names, _column(cell), node_name(cell * MAX_CORRIDORS))
        lines += ["".join(top).rstrip(), "".join(names).rstrip()]
    return lines


def _compass_rose() -> list[str]:
    """The six directions' letters where they point on the map (a step east is a whole
    field to the right, a step north-east half a field right and a row up)."""
    rows = [[" "] * 12 for _ in range(3)]
    rows[1][5] = "+"
    for d, (dq, dr) in enumerate(HEX_DELTAS):
        label = HEX_DIRECTION_SHORT[d]
        col = 5 + 2 * (2 * int(dq) + int(dr))
        rows[1 - int(dr)][col : col + len(label)] = list(label)
    return ["".join(r) for r in rows]


def legend(field: str, marks: list[str], width: int = 100) -> list[str]:
    """The map's key (``field``: what the edition calls a field; ``marks``: the edition's own
    marks, each ``"<mark> <what it is>"``) wrapped at ``width`` columns, and the six
    directions drawn as they point on the map, by the names the actions use."""
    named = [f"{a} {b}" for a, b in zip(HEX_DIRECTION_SHORT, HEX_DIRECTION_NAMES)]
    rose = _compass_rose()
    entries = [
        f"(q,r) under a {field} is its name in the actions;",
        f"S a start {field} (start 0-5);",
        ". empty",
        f"C central {field}",
        f"K key {field}",
        "# tile",
        "^ face-down trap",
        "! face-up trap",
        "k<n> key n lying there",
        *marks,
        "digits: players (* several)",
        "+ more;",
        "corridors: each by the sides it joins (SE-W); /1 and /2 a tile's second and third corridor "
        "((q,r)/1 in the actions); bridge: a corridor with a bridge, under: the corridor under it",
    ]
    # a mark stays on one line with its words
    text = "  ".join(e if e.startswith("corridors:") else e.replace(" ", NBSP) for e in entries)
    lines = textwrap.wrap(text, max(width, 40), initial_indent="key: ", subsequent_indent="     ")
    return [
        *(line.replace(NBSP, " ") for line in lines),
        f"     directions {rose[0]}  " + ", ".join(named[:3]),
        f"                {rose[1]}  " + ", ".join(named[3:]),
        f"                {rose[2]}".rstrip(),
    ]


def tile_rotations(tile: int, C: ModuleType, width: int = 100) -> list[str]:
    """How the corridors of ``tile`` (a row of the edition's tile tables ``C``) run in each
    of its six rotations, for ``build ... rotation k``: two rotations a line, one where two
    would not fit in ``width`` columns."""
    parts = []
    for rot in range(6):
        corridors = [
            edges_name(ROTATE_HEX[int(m), rot]) + ("" if lv == C.GROUND else f" {C.LEVEL_NAMES[lv]}")
            for m, lv in zip(C.TILE_CORRIDOR_MASK[tile], C.TILE_CORRIDOR_LEVEL[tile])
            if m
        ]
        parts.append(f"rotation {rot}: " + ", ".join(corridors))
    pairs = [f"  {a:<44}{b}" for a, b in zip(parts[::2], parts[1::2])]
    return pairs if max(len(p) for p in pairs) <= width else [f"  {p}" for p in parts]


def corridor_lines(s: np.void, C: ModuleType) -> list[str]:
    """Every built space's corridors, since the map shows only that a tile is there (issue
    37: single corridors, key spaces and the centre never showed): the space's name, then
    each corridor's edges (``SE-W``), its level off the ground (``C.LEVEL_NAMES``), the
    next corridors as ``/k`` (their names in the actions, ``(q,r)/k``)."""
    parts = []
    for cell in range(NUM_BOARD):
        ways = []
        for x in range(cell * MAX_CORRIDORS, (cell + 1) * MAX_CORRIDORS):
            if not s["node_mask"][x]:
                continue
            lv = int(s["node_level"][x])
            level = "" if lv == C.GROUND else f" {C.LEVEL_NAMES[lv]}"
            k = x - cell * MAX_CORRIDORS
            ways.append((f"/{k} " if k else "") + edges_name(int(s["node_mask"][x])) + level)
        if ways:
            parts.append((node_name(cell * MAX_CORRIDORS) + " " + " ".join(ways)).replace(" ", NBSP))
    return ["corridors: " + ", ".join(parts)] if parts else []


def own_key_spaces(s: np.void) -> dict[int, str]:
    """Each seated player's own key space (next to its start), by name: public from the
    seating, and the one space whose key its player may not simply take."""
    starts = [(p, int(start)) for p, start in enumerate(s["seat_start"]) if start >= 0]
    return {p: node_name(int(KEY_CELLS[start]) * MAX_CORRIDORS) for p, start in starts}


def key_line(s: np.void) -> list[str]:
    """Where each key lies, or who carries it."""
    parts = []
    for k in range(len(s["key_node"])):
        holder, node = int(s["key_holder"][k]), int(s["key_node"][k])
        where = f"player{NBSP}{holder}" if holder >= 0 else node_name(node) if node >= 0 else "-"
        parts.append(f"{k}{NBSP}{where}")
    return ["keys: " + ", ".join(parts)]


def trap_slots(s: np.void) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each corridor's trap tokens and whether they are face up: the first slot, and the
    2011 edition's second (a corridor with two traps, l.386, l.416)."""
    slots = [(s["node_trap"], s["trap_up"])]
    if "node_trap2" in s.dtype.names:
        slots.append((s["node_trap2"], s["trap2_up"]))
    return slots


def face_up_traps(s: np.void, C: ModuleType) -> list[str]:
    """The face-up traps by name (face-down ones show only as ``^`` on the map); a corridor
    with two is named twice."""
    parts = [
        f"{node_name(x)} {C.TRAP_NAMES[int(C.TRAP_TOKENS[int(trap[x])])]}".replace(" ", NBSP)
        for x in range(NUM_BOARD_NODES)
        for trap, up in trap_slots(s)
        if trap[x] >= 0 and up[x]
    ]
    return ["face-up traps: " + ", ".join(parts)] if parts else []


def panel_head(s: np.void, decisions, running: int, won: int, truncated: int) -> list[str]:
    """The panel's first lines: turn and outcome, the active player, the pending decision."""
    status = {running: "running", won: f"won by player {int(s['winner'])}", truncated: "truncated"}
    head = f"turn {turn_shown(s['turn'], s['outcome'])}, {status[int(s['outcome'])]}"
    if int(s["outcome"]) != running:
        return [head + "; the game is over"]
    return [
        f"{head}; active player {int(s['seat'])}, actions left {int(s['actions_left'])}",
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


def render(glyph: dict[int, str], panel: list[str], field: str, marks: list[str], width: int = 100) -> str:
    """The whole text board: the map, the panel below it (lines wrapped at ``width``
    columns, never at a ``NBSP``), then the key."""
    wrapped = [
        part.replace(NBSP, " ")
        for line in panel
        for part in textwrap.wrap(line, max(width, 40), subsequent_indent="  ", break_on_hyphens=False)
    ]
    return "\n".join([*hex_map(glyph), "", *wrapped, "", *legend(field, marks, width)])


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
