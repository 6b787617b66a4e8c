"""The Paths of Destiny board, shared by every edition: the radius-3 hexagon of ``grid``
with the frame's six start fields beyond its corners, and the corridor nodes of the tiles
laid on it.

Cells 0..36 are the hexagon (``grid.HEX_CELLS``); cell ``START_CELL + i`` is the start
field of the frame beyond key field ``i``, the corner ``HEX_CORNERS[i]``, outwards in
direction ``i``. A *node* is one corridor, ``node = cell * max_corridors + k``; a tile's
corridors are written into the per-node arrays of a state (``node_mask``: the edges the
corridor touches, ``node_level``, ``node_pair``: the corridor on the other level of a
bridge tile, -1 otherwise). Each edition keeps its own tile tables and passes one tile's
rows in.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import RUNNING
from labyrinth_env.core.corridors import (
    TREE_ROWS,
    critical_empty_cells,
    cut_labels,
    open_tree,
    side_labels,
)
from labyrinth_env.core.grid import HEX_CELLS, HEX_CORNERS, HEX_DELTAS, HEX_NEIGHBORS, ROTATE_HEX
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import keys_held, shuffle_unknown

NUM_BOARD = 37
NUM_STARTS = 6
START_CELL = NUM_BOARD  # start field i is cell START_CELL + i
NUM_CELLS = NUM_BOARD + NUM_STARTS
KEY_CELLS = HEX_CORNERS.copy()  # key field i: the corner in direction i from the centre


def _frame_neighbors() -> np.ndarray:
    nb = np.full((NUM_CELLS, 6), -1, dtype=np.int16)
    nb[:NUM_BOARD] = HEX_NEIGHBORS
    for i in range(NUM_STARTS):
        # the start field lies beyond key field i, outwards in direction i
        nb[KEY_CELLS[i], i] = START_CELL + i
        nb[START_CELL + i, (i + 3) % 6] = KEY_CELLS[i]
    return nb


FRAME_NEIGHBORS = _frame_neighbors()  # int16[43, 6]: the hexagon's neighbours plus the start fields

FRAME_QR = np.zeros((NUM_CELLS, 2), dtype=np.int64)  # axial (q, r) of every cell, start fields included
FRAME_QR[:NUM_BOARD] = HEX_CELLS
for _i in range(NUM_STARTS):
    FRAME_QR[START_CELL + _i] = HEX_CELLS[KEY_CELLS[_i]] + HEX_DELTAS[_i]


@njit(cache=True)
def frame_distance(a: int, b: int) -> int:
    """Steps between two cells (start fields included), as the crow flies."""
    dq = FRAME_QR[a, 0] - FRAME_QR[b, 0]
    dr = FRAME_QR[a, 1] - FRAME_QR[b, 1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@njit(cache=True)
def write_tile(node_mask, node_level, node_pair, cell: int, masks, levels, pairs, rot: int) -> None:
    """Write one tile's corridors (its rows ``masks``, ``levels``, ``pairs`` in the base
    orientation) onto ``cell``, turned ``rot`` steps clockwise."""
    mc = masks.shape[0]
    for k in range(mc):
        node = cell * mc + k
        node_mask[node] = ROTATE_HEX[masks[k], rot]
        node_level[node] = levels[k]
        node_pair[node] = cell * mc + pairs[k] if pairs[k] >= 0 else -1


@njit(cache=True)
def erase_tile(node_mask, node_level, node_pair, cell: int, mc: int) -> None:
    """Clear the corridor nodes of ``cell``."""
    for k in range(mc):
        node = cell * mc + k
        node_mask[node] = 0
        node_level[node] = -1
        node_pair[node] = -1


@njit(cache=True)
def touches_board(cell_built, cell: int) -> bool:
    """Whether the empty hexagon cell ``cell`` shares an edge with a built hexagon cell (the
    central and key fields count; the frame's start fields do not)."""
    if cell_built[cell]:
        return False
    for d in range(6):
        nb = FRAME_NEIGHBORS[cell, d]
        if 0 <= nb < NUM_BOARD and cell_built[nb]:
            return True
    return False


# --- the board fields of a state record -------------------------------------------------------
# Both editions' records hold the board under the same names (``cell_tile``, ``cell_rot``,
# ``cell_built``, ``node_mask``, ``node_level``, ``node_pair``, ``node_trap``, ``trap_up``)
# and the players' ``seat_start`` and ``position``; the functions below work on either.
MAX_CORRIDORS = 3  # a tile holds at most three corridors: over a bridge, under it, beside it
NUM_NODES = NUM_CELLS * MAX_CORRIDORS
NUM_BOARD_NODES = NUM_BOARD * MAX_CORRIDORS
KEY_NODES = KEY_CELLS * MAX_CORRIDORS  # the key field's one corridor (corridor 0 of its cell)


# the board and the search scratch of a state record, in the order both editions keep them
BOARD_FIELDS = [
    ("cell_tile", np.int8, (NUM_CELLS,)),
    ("cell_rot", np.int8, (NUM_CELLS,)),
    ("cell_built", np.uint8, (NUM_CELLS,)),
    ("node_mask", np.uint8, (NUM_NODES,)),
    ("node_level", np.int8, (NUM_NODES,)),
    ("node_pair", np.int16, (NUM_NODES,)),
    ("node_trap", np.int8, (NUM_NODES,)),
    ("trap_up", np.uint8, (NUM_NODES,)),
]
# the face-down tiles (``take_face_down`` .. ``redeal_face_down`` below): per board cell the
# seat that laid one (-1: none) and its tile, which no seat has seen; the one being turned
# face up: its cell (-1: none), the edge it is entered by, who enters it, the rotations
# that give that edge a corridor (bits)
FACE_DOWN_FIELDS = [
    ("fd_owner", np.int8, (NUM_BOARD,)),
    ("fd_tile", np.int8, (NUM_BOARD,)),
    ("rv_cell", np.int8),
    ("rv_edge", np.int8),
    ("rv_seat", np.int8),
    ("rv_rots", np.uint8),
]
SEARCH_FIELDS = [
    ("reach", np.uint8, (NUM_NODES + NUM_CELLS,)),
    ("queue", np.int16, (NUM_NODES + NUM_CELLS + 1,)),
    ("place_ok", np.uint8, (NUM_BOARD * 6,)),
]


@njit(cache=True)
def lay_tile(s, cell: int, tile: int, rot: int, tile_mask, tile_level, tile_pair) -> None:
    """Lay ``tile`` (a row of the edition's tile tables) on ``cell``, turned ``rot`` steps."""
    s.cell_tile[cell] = tile
    s.cell_rot[cell] = rot
    s.cell_built[cell] = 1
    write_tile(s.node_mask, s.node_level, s.node_pair, cell, tile_mask[tile], tile_level[tile], tile_pair[tile], rot)


@njit(cache=True)
def clear_cell(s, cell: int) -> None:
    s.cell_tile[cell] = -1
    s.cell_rot[cell] = 0
    s.cell_built[cell] = 0
    erase_tile(s.node_mask, s.node_level, s.node_pair, cell, MAX_CORRIDORS)


@njit(cache=True)
def lay_frame(s, center_cell: int, tile_mask, tile_level, tile_pair, central_tile: int, key_tile: int) -> None:
    """The board before the first build: every cell empty and untrapped, the central tile
    on ``center_cell``, the key tile on each key field turned by its direction, and the
    frame's start fields, each one ground-level corridor leading to its key field."""
    for cell in range(NUM_CELLS):
        clear_cell(s, cell)
    s.node_trap[:] = -1
    s.trap_up[:] = 0
    lay_tile(s, center_cell, central_tile, 0, tile_mask, tile_level, tile_pair)
    for i in range(NUM_STARTS):
        lay_tile(s, KEY_CELLS[i], key_tile, i, tile_mask, tile_level, tile_pair)
        cell = START_CELL + i
        s.cell_built[cell] = 1
        s.cell_tile[cell] = -1
        s.node_mask[cell * MAX_CORRIDORS] = 1 << ((i + 3) % 6)
        s.node_level[cell * MAX_CORRIDORS] = 0  # the ground level of every edition


@njit(cache=True)
def any_buildable(s) -> bool:
    """A tile is left to draw and some empty cell touches the built board."""
    if s.tile_pool_len <= 0:
        return False
    for cell in range(NUM_BOARD):
        if touches_board(s.cell_built, cell):
            return True
    return False


@njit(cache=True)
def new_tree() -> np.ndarray:
    """Room for the search tree of ``critical_cells`` (see ``corridors.open_tree``)."""
    return np.empty((TREE_ROWS, NUM_NODES + NUM_CELLS), dtype=np.int32)


@njit(cache=True)
def critical_cells(s, centre_node: int, targets, critical, tree) -> bool:
    """Mark in ``critical`` the empty cells whose loss as open space could cut
    ``centre_node`` off from one of ``targets`` (through corridors, bridges and empty
    cells); False when a way is cut already. ``tree`` (``new_tree``) keeps the search, for
    ``label_cut``."""
    open_tree(s.node_mask, s.node_pair, s.cell_built, FRAME_NEIGHBORS, MAX_CORRIDORS, centre_node, tree)
    return critical_empty_cells(tree, targets, NUM_NODES, critical)


@njit(cache=True)
def place_freely(s, critical) -> int:
    """Allow every rotation on each buildable cell that is not critical (a tile there can
    only add ways) and count them; the critical cells are left to the edition's own test."""
    count = 0
    for cell in range(NUM_BOARD):
        if touches_board(s.cell_built, cell) and not critical[cell]:
            for r in range(6):
                s.place_ok[cell * 6 + r] = 1
            count += 6
    return count


@njit(cache=True)
def label_cut(s, cell: int, tree) -> None:
    """``s.reach`` := the components of the board with the empty ``cell`` taken out
    (``corridors.cut_labels``: 1 for the centre's), read off the search ``tree`` that
    ``critical_cells`` left, for ``tile_joins``. The board must not have changed since."""
    cut_labels(tree, NUM_NODES, cell, s.reach)


@njit(cache=True)
def tile_joins(s, cell: int, masks, pairs, rot: int) -> int:
    """The labels of ``label_cut(s, cell, ...)`` that are one component with the centre's
    once the tile with corridor rows ``masks``/``pairs`` lies on ``cell`` turned ``rot``: a
    bit set (bit L for label L; never bit 0). With ``joined`` it answers what
    ``open_reach`` from the centre would after laying the tile, without the search: each
    corridor joins the components at its sides, a bridge's two levels join each other."""
    nm, built, labels = s.node_mask, s.cell_built, s.reach
    joins = 1 << 1
    changed = True
    while changed:
        changed = False
        for k in range(MAX_CORRIDORS):
            if masks[k] == 0:
                continue
            bits = side_labels(nm, built, FRAME_NEIGHBORS, MAX_CORRIDORS, cell, ROTATE_HEX[masks[k], rot], labels)
            if pairs[k] >= 0:
                edges = ROTATE_HEX[masks[pairs[k]], rot]
                bits |= side_labels(nm, built, FRAME_NEIGHBORS, MAX_CORRIDORS, cell, edges, labels)
            if bits & joins and bits | joins != joins:
                joins |= bits
                changed = True
    return joins & ~1


@njit(cache=True)
def joined(s, joins: int, node: int) -> bool:
    """Whether ``node`` (labelled in ``s.reach``) is in a component of the bit set ``joins``;
    with ``joins = REACHED`` it reads a plain ``open_reach`` result."""
    return (joins >> s.reach[node]) & 1 != 0


REACHED = 1 << 1  # the bit set of open_reach's one label


@njit(cache=True)
def only_direction(opts: int) -> int:
    """The one direction in the bit set ``opts`` when it holds exactly one, else -1."""
    if opts == 0 or opts & (opts - 1) != 0:
        return -1
    d = 0
    while not (opts >> d) & 1:
        d += 1
    return d


@njit(cache=True)
def mark_directions(out, base: int, opts: int) -> None:
    """``out[base + d] = 1`` for every direction ``d`` in the bit set ``opts``."""
    for d in range(6):
        if (opts >> d) & 1:
            out[base + d] = 1


@njit(cache=True)
def start_node(s, seat: int) -> int:
    return (START_CELL + s.seat_start[seat]) * MAX_CORRIDORS


@njit(cache=True)
def at_start(s, seat: int) -> bool:
    return s.position[seat] >= START_CELL * MAX_CORRIDORS


@njit(cache=True)
def occupants(s, node: int, exclude: int) -> int:
    """The seats (a bit set) standing in corridor ``node``, ``exclude`` left out."""
    m = 0
    for p in range(s.num_players):
        if p != exclude and s.position[p] == node:
            m |= 1 << p
    return m


@njit(cache=True)
def settable_corridor(s, node: int, center_cell: int) -> bool:
    """The active player may set a trap token in an empty, untrapped corridor of a board
    tile other than the central one."""
    cell = node // MAX_CORRIDORS
    if cell >= NUM_BOARD or cell == center_cell or s.node_mask[node] == 0 or s.node_trap[node] >= 0:
        return False
    return occupants(s, node, s.seat) == 0


@njit(cache=True)
def settable_mask(s, out, base: int, center_cell: int) -> None:
    """``settable_corridor`` for every board corridor at once (``out[base + node]``) while
    the trap pile holds a token, the per-corridor checks hoisted out of the loop: asking
    for each of the 111 corridors costs more than the rest of a step."""
    if s.trap_pool_len <= 0:
        return
    for x in range(NUM_BOARD_NODES):
        if s.node_mask[x] != 0 and s.node_trap[x] < 0:
            out[base + x] = 1
    for k in range(MAX_CORRIDORS):
        out[base + center_cell * MAX_CORRIDORS + k] = 0
    for q in range(s.num_players):
        if q != s.seat and 0 <= s.position[q] < NUM_BOARD_NODES:
            out[base + s.position[q]] = 0


@njit(cache=True)
def key_race_potential(s, seat: int, center_cell: int, allowed: int, truncated: int) -> float:
    """Opt-in reward shaping: 0.5 for holding a key, minus 0.05 per step (as the crow
    flies) to the goal: the nearest key in the bit set ``allowed`` while keyless, the
    central tile once holding one. 0 once the game is won, so the shaping of a decided
    game sums to -potential(start) and does not change which policies are best; a
    truncated game keeps its position's value."""
    if (s.outcome != RUNNING and s.outcome != truncated) or s.position[seat] < 0:
        return 0.0
    cell = s.position[seat] // MAX_CORRIDORS
    if keys_held(s, seat) > 0:
        return 0.5 - 0.05 * frame_distance(cell, center_cell)
    best = 12
    for k in range(s.key_node.shape[0]):
        node = s.key_node[k]
        if node >= 0 and (allowed >> k) & 1:
            best = min(best, frame_distance(cell, node // MAX_CORRIDORS))
    return -0.05 * best


# observation features of a corridor node shared by both editions: exists, level (3),
# edges (6), kind (3: central, key, start field), face-down trap, then the trap tokens
F_EXISTS, F_LEVEL, F_EDGE, F_KIND, F_TRAP_DOWN, F_TRAP_TYPE = 0, 1, 4, 10, 13, 14
CELL_KIND = np.full(NUM_CELLS, -1, dtype=np.int64)  # 1 key field, 2 start field (0, central, varies)
CELL_KIND[KEY_CELLS] = 1
CELL_KIND[START_CELL:] = 2


@njit(cache=True)
def observe_corridors(s, out, node_features: int, center_cell: int, trap_tokens) -> None:
    """Write the shared features of every built corridor node ``node`` at
    ``out[node * node_features:]``; a face-down trap shows only as "a trap is here". One
    call for the whole board: a call per node with the arrays costs more than the work."""
    for node in range(s.node_mask.shape[0]):
        if s.node_mask[node] == 0:
            continue
        base = node * node_features
        out[base + F_EXISTS] = 1.0
        lvl = s.node_level[node]
        if lvl >= 0:
            out[base + F_LEVEL + lvl] = 1.0
        for d in range(6):
            if (s.node_mask[node] >> d) & 1:
                out[base + F_EDGE + d] = 1.0
        cell = node // MAX_CORRIDORS
        kind = 0 if cell == center_cell else CELL_KIND[cell]
        if kind >= 0:
            out[base + F_KIND + kind] = 1.0
        t = s.node_trap[node]
        if t >= 0:
            if s.trap_up[node]:
                out[base + F_TRAP_TYPE + trap_tokens[t]] = 1.0
            else:
                out[base + F_TRAP_DOWN] = 1.0


# --- face-down fields (the Illusionist of both editions) ---------------------------------------
# A record with face-down fields has ``fd_owner`` / ``fd_tile`` per hexagon cell (-1: none) and
# ``rv_cell``, the one being turned face up (-1: none). A face-down field is built and closed
# (``cell_built`` set, no corridor written) until a piece enters it.
@njit(cache=True)
def face_down_ahead(s, node: int, d: int) -> int:
    """The face-down cell a piece on ``node`` enters by leaving it in direction ``d`` (-1: none)."""
    if node < 0 or not (s.node_mask[node] >> d) & 1:
        return -1
    nb = FRAME_NEIGHBORS[node // MAX_CORRIDORS, d]
    if 0 <= nb < NUM_BOARD and s.fd_owner[nb] >= 0:
        return nb
    return -1


@njit(cache=True)
def rotations_onto(masks, edge: int) -> int:
    """The turns (a bit set) of a tile whose corridor ``masks`` (base orientation) give it a
    corridor on ``edge``: the ways it may be turned face up under a piece entering by it."""
    rots = 0
    for r in range(6):
        for k in range(masks.shape[0]):
            if (ROTATE_HEX[masks[k], r] >> edge) & 1:
                rots |= 1 << r
    return rots


@njit(cache=True)
def take_face_down(s, cell: int) -> int:
    """The tile of the face-down ``cell``, which lies face down no longer (the caller lays it)."""
    tile = s.fd_tile[cell]
    s.fd_tile[cell] = -1
    s.fd_owner[cell] = -1
    return tile


@njit(cache=True)
def end_reveal(s) -> int:
    """The field being turned face up is laid: the direction the piece that entered it goes
    on in (``rv_seat``, that piece, stays for the caller, which moves it)."""
    d = (s.rv_edge + 3) % 6
    s.rv_cell = -1
    s.rv_edge = 0
    s.rv_rots = 0
    return d


@njit(cache=True)
def no_face_down(s) -> None:
    """Set-up: no field face down, none being turned face up."""
    s.fd_owner[:] = -1
    s.fd_tile[:] = -1
    s.rv_cell = -1
    s.rv_edge = 0
    s.rv_seat = 0
    s.rv_rots = 0


@njit(cache=True)
def unseen_tiles(s) -> np.ndarray:
    """The tile pile, then the face-down fields but the one being turned face up: the one
    unknown set of tiles (``redeal_face_down``, ``unseen``)."""
    n = s.tile_pool_len
    unknown = np.empty(n + NUM_BOARD, dtype=s.tile_pool.dtype)
    unknown[:n] = s.tile_pool[:n]
    m = n
    for cell in range(NUM_BOARD):
        if s.fd_owner[cell] >= 0 and cell != s.rv_cell:
            unknown[m] = s.fd_tile[cell]
            m += 1
    return unknown[:m]


@njit(cache=True)
def face_down_tokens(tokens, face_up, into, count: int) -> int:
    """Write the face-down ``tokens`` (>= 0 and not ``face_up``) into ``into`` from
    ``count`` on; returns the new count (``unseen``: the tokens and the pile are one set)."""
    for node in range(tokens.shape[0]):
        if tokens[node] >= 0 and not face_up[node]:
            into[count] = tokens[node]
            count += 1
    return count


@njit(cache=True)
def deal_face_down_tokens(tokens, face_up, dealt, count: int) -> int:
    """``face_down_tokens`` the other way: the face-down ``tokens`` take ``dealt`` from
    ``count`` on, in the same order; returns the new count."""
    for node in range(tokens.shape[0]):
        if tokens[node] >= 0 and not face_up[node]:
            tokens[node] = dealt[count]
            count += 1
    return count


@njit(cache=True)
def redeal_face_down(s, rng) -> None:
    """``determinize``: the face-down fields and the tile pile are one unknown set (no seat
    has seen a face-down field; the one being turned face up is public and stays). Nothing
    is drawn from ``rng`` when no field lies face down."""
    n = s.tile_pool_len
    unknown = unseen_tiles(s)
    m = unknown.shape[0]
    if m == n:
        return
    shuffle_unknown(rng, unknown)
    s.tile_pool[:n] = unknown[:n]
    m = n
    for cell in range(NUM_BOARD):
        if s.fd_owner[cell] >= 0 and cell != s.rv_cell:
            s.fd_tile[cell] = unknown[m]
            m += 1
