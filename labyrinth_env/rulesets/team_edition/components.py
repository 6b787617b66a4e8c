"""Team Edition components: tiles, treasures, arrows, spells and the Daedalus deck.

Each table says where it comes from: ``RULEBOOK`` when the rulebook text gives it,
``RECONSTRUCTED`` when the rulebook shows it only in pictures (or not at all) and we
chose it. ``docs/rules/team_edition.md`` gives the reasons for every reconstruction.

Geometry: the 7x7 board, cells ``row * 7 + col``; directions N=0, E=1, S=2, W=3 and a
tile's open edges as a bit mask over them (see ``labyrinth_env.core.grid``).
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import mask_from_directions as _m

RULEBOOK = "rulebook"
RECONSTRUCTED = "reconstructed"

SIZE = 7
NUM_CELLS = SIZE * SIZE
NUM_SEATS = 4

# --- treasures (rulebook: the 24 names, in the rulebook's order) ----------------------
TREASURES = (
    "Mushroom", "Elephant", "Sickle", "Fan", "Candle", "Key", "Urn", "Amulet",
    "Magic Hat", "Dragon Tooth", "Cauldron", "Dagger", "Skull", "Lantern", "Magic Broom",
    "Scroll", "Winged Shoes", "Runestone", "Potion", "Magic Wand", "Doll", "Mandrake",
    "Magic Crystal", "Shell",
)  # fmt: skip
NUM_TREASURES = len(TREASURES)
TREASURES_SOURCE = RULEBOOK

# --- pieces, colours and home corners --------------------------------------------------
# Rulebook: 4 pieces, each with a home corner; the example names yellow and red as two
# neighbouring corners. Reconstructed: the other two colours and the clockwise seating.
COLORS = ("yellow", "red", "green", "blue")
HOME_CELLS = np.array([0, 6, 48, 42], dtype=np.int64)  # clockwise from the top-left
COLORS_SOURCE = RECONSTRUCTED

# --- path tiles ------------------------------------------------------------------------
# Tile ids 0..33 are the 34 loose path tiles (33 in the maze + the spare); ids 34..49
# are the 16 spaces printed on the board (4 home corners + 12 treasure junctions),
# which never move, turn or flip. Shapes in their base orientation:
STRAIGHT = _m("NS")
CORNER = _m("NE")
T_JUNCTION = _m("ESW")  # closed to the north

NUM_LOOSE = 34
NUM_FIXED = 16
NUM_TILES = NUM_LOOSE + NUM_FIXED
MAX_MARK = 22

# Loose tile mix (reconstructed; sources disagree between 12/16/6 and 13/15/6):
# 12 straights with marks, 16 corners (6 with treasures, 10 with marks), 6 T-junctions
# with treasures. 12 loose treasures + 12 fixed treasures = 24.
LOOSE_MIX = {"straight": 12, "corner": 16, "t_junction": 6}
LOOSE_MIX_SOURCE = RECONSTRUCTED


def _loose_tiles() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    shape = np.zeros(NUM_TILES, dtype=np.uint8)
    treasure = np.full(NUM_TILES, -1, dtype=np.int8)
    mark = np.full(NUM_TILES, -1, dtype=np.int8)
    t = 0
    next_mark = 0
    for _ in range(12):  # straights, marked
        shape[t], mark[t] = STRAIGHT, next_mark
        t, next_mark = t + 1, next_mark + 1
    for i in range(16):  # corners: the first 6 carry treasures 0..5, the rest marks
        shape[t] = CORNER
        if i < 6:
            treasure[t] = i
        else:
            mark[t] = next_mark
            next_mark += 1
        t += 1
    for i in range(6):  # T-junctions carry treasures 6..11
        shape[t], treasure[t] = T_JUNCTION, 6 + i
        t += 1
    assert t == NUM_LOOSE and next_mark == MAX_MARK
    return shape, treasure, mark


TILE_SHAPE, TILE_TREASURE, TILE_MARK = _loose_tiles()

# Fixed spaces (reconstructed layout after the classic moving-maze board): the printed
# tiles sit on the 16 cells whose row and column are both even. Home corners open
# inwards; the edge junctions are closed towards the board's edge; the four inner
# junctions form a pinwheel. They carry treasures 12..23 in reading order.
FIXED_LAYOUT = {
    (0, 0): "ES", (0, 2): "ESW", (0, 4): "ESW", (0, 6): "SW",
    (2, 0): "NES", (2, 2): "ESW", (2, 4): "NSW", (2, 6): "NSW",
    (4, 0): "NES", (4, 2): "NES", (4, 4): "NEW", (4, 6): "NSW",
    (6, 0): "NE", (6, 2): "NEW", (6, 4): "NEW", (6, 6): "NW",
}  # fmt: skip
FIXED_LAYOUT_SOURCE = RECONSTRUCTED
FIXED_CELLS = np.array([r * SIZE + c for (r, c) in FIXED_LAYOUT], dtype=np.int64)


def _fixed_tiles() -> None:
    next_treasure = 12
    for k, ((r, c), dirs) in enumerate(FIXED_LAYOUT.items()):
        tile = NUM_LOOSE + k
        TILE_SHAPE[tile] = _m(dirs)
        if r * SIZE + c not in HOME_CELLS:
            TILE_TREASURE[tile] = next_treasure
            next_treasure += 1
    assert next_treasure == NUM_TREASURES


_fixed_tiles()
IS_FIXED_CELL = np.zeros(NUM_CELLS, dtype=np.bool_)
IS_FIXED_CELL[FIXED_CELLS] = True
LOOSE_CELLS = np.array([c for c in range(NUM_CELLS) if not IS_FIXED_CELL[c]], dtype=np.int64)
# The tile (by id) that treasure t is printed on.
TREASURE_TILE = np.array([int(np.nonzero(t == TILE_TREASURE)[0][0]) for t in range(NUM_TREASURES)])
MARK_TILE = np.array([int(np.nonzero(k == TILE_MARK)[0][0]) for k in range(MAX_MARK)])


def tile_name(tile: int) -> str:
    """A tile's name as a Daedalus card would show it: its treasure, mark or fixed space."""
    if TILE_TREASURE[tile] >= 0:
        return TREASURES[TILE_TREASURE[tile]]
    if TILE_MARK[tile] >= 0:
        return f"mark {TILE_MARK[tile] + 1}"
    return f"{COLORS[int(np.nonzero(FIXED_CELLS[tile - NUM_LOOSE] == HOME_CELLS)[0][0])]} home"


# --- the 12 push arrows (rulebook: 12 arrows around the edge) --------------------------
# Numbered clockwise from the top-left: top (pushing south) at columns 1, 3, 5; right
# (pushing west) at rows 1, 3, 5; bottom (pushing north) at columns 5, 3, 1; left
# (pushing east) at rows 5, 3, 1. ARROW_LINE[a] lists the 7 cells of the pushed line
# from the insertion edge to the far edge.
NUM_ARROWS = 12


def _arrows() -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    line = np.zeros((NUM_ARROWS, SIZE), dtype=np.int64)
    direction = np.zeros(NUM_ARROWS, dtype=np.int64)
    names = []
    for a in range(NUM_ARROWS):
        side, k = divmod(a, 3)
        if side == 0:
            col = 1 + 2 * k
            cells, d, name = [r * SIZE + col for r in range(SIZE)], 2, f"top col {col}"
        elif side == 1:
            row = 1 + 2 * k
            cells, d, name = [row * SIZE + c for c in range(SIZE - 1, -1, -1)], 3, f"right row {row}"
        elif side == 2:
            col = 5 - 2 * k
            cells, d, name = [r * SIZE + col for r in range(SIZE - 1, -1, -1)], 0, f"bottom col {col}"
        else:
            row = 5 - 2 * k
            cells, d, name = [row * SIZE + c for c in range(SIZE)], 1, f"left row {row}"
        line[a] = cells
        direction[a] = d
        names.append(name)
    opposite = np.array([int(np.nonzero(line[:, 0] == line[a, -1])[0][0]) for a in range(NUM_ARROWS)])
    return line, direction, opposite, names


ARROW_LINE, ARROW_DIRECTION, ARROW_OPPOSITE, ARROW_NAMES = _arrows()

# --- spells ----------------------------------------------------------------------------
# Rulebook: Push and Rotate (introductory); Standard game adds Switch, Traverse,
# Teleport, Escape; each player gets Push plus one of Rotate and the four Standard spells.
SPELLS = ("rotate", "switch", "traverse", "teleport", "escape")
SPELL_ROTATE, SPELL_SWITCH, SPELL_TRAVERSE, SPELL_TELEPORT, SPELL_ESCAPE = range(5)

# --- the Book of Daedalus ---------------------------------------------------------------
# Rulebook: 24 cards of three kinds (push a tile at a shown arrow; flip two named tiles
# face down; teleport two named pieces to a named home corner). Reconstructed: which
# cards exist. Each kind has a pool of cards; a Book of (push, flip, teleport) counts
# takes, per kind, every card of its pool as many whole times as the count allows and
# the rest as a random choice of distinct cards, dealt anew each game (``K.init``), so
# which tiles and pieces a game's pages name varies from game to game. Default 12/6/6.
PAGE_PUSH, PAGE_FLIP, PAGE_TELEPORT = 0, 1, 2
PAGE_KINDS = ("push", "flip", "teleport")
DEFAULT_DECK = {"push": 12, "flip": 6, "teleport": 6}
MAX_PAGES = 60
DAEDALUS_SOURCE = RECONSTRUCTED

PUSH_POOL = [(PAGE_PUSH, a, 0, 0) for a in range(NUM_ARROWS)]  # every arrow once


def _flip_pool() -> list[tuple[int, int, int, int]]:
    # One card per loose treasure tile, each paired with a different marked tile: every
    # Flip card both hides a treasure and blocks a plain path, and every one of the 12
    # treasures that can be hidden is named by some card (6 of them in a default Book).
    marks = [(k * 11) // 6 for k in range(12)]  # 12 distinct marks spread over the 22
    return [(PAGE_FLIP, int(TREASURE_TILE[k]), int(MARK_TILE[marks[k]]), 0) for k in range(12)]


FLIP_POOL = _flip_pool()


def teleport_pool(num_players: int) -> list[tuple[int, int, int, int]]:
    """The Teleport cards a table of ``num_players`` uses: every pair of pieces in play,
    each sent to each corner that belongs to neither (so a card is never a free trip
    home). Alone, the card names the single piece and one absent colour (l.100: "Ignore
    playing pieces that are not in play")."""
    pool = []
    for a in range(NUM_SEATS):
        for b in range(a + 1, NUM_SEATS):
            if num_players >= 2 and b >= num_players:
                continue
            if num_players == 1 and a != 0:
                continue
            for corner in range(NUM_SEATS):
                if corner not in (a, b):
                    pool.append((PAGE_TELEPORT, a, b, corner))
    return pool


TELEPORT_POOLS = {n: teleport_pool(n) for n in range(1, NUM_SEATS + 1)}


def pool_of(kind: int, num_players: int) -> list[tuple[int, int, int, int]]:
    """The cards a Book for ``num_players`` draws its pages of ``kind`` from."""
    if kind == PAGE_PUSH:
        return PUSH_POOL
    if kind == PAGE_FLIP:
        return FLIP_POOL
    return TELEPORT_POOLS[num_players]


def describe_page(page: tuple[int, int, int, int] | np.ndarray) -> str:
    kind, p1, p2, p3 = (int(x) for x in page)
    if kind == PAGE_PUSH:
        return f"push a face-down tile in at {ARROW_NAMES[p1]}"
    if kind == PAGE_FLIP:
        return f"flip {tile_name(p1)} and {tile_name(p2)} face down"
    return f"teleport {COLORS[p1]} and {COLORS[p2]} to the {COLORS[p3]} home corner"
