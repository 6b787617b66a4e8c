"""The Illusionist's face-down tiles (l.465): laying one (an activity), entering one (a
character's Move or a Golem step into it reveals it), and the orientation decided on its
reveal (a decision of the Illusionist, or, once she has changed into another character,
of the character entering it or of the active player moving the Golem, l.465).

A face-down tile is hidden from every seat, the Illusionist's too (she lays it unseen, as
a trap is set, l.257): ``fd_tile`` is never observed and ``determinize`` deals it again
with the tile pool. It shows no corridor, so until it is revealed it counts as built and
closed (``cell_built`` set, no corridor written): no tile is built onto it, it never
carries a token, and laying it may not close the last way to the central space or to a
key space (l.142-143)."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core import hexboard, pod
from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .abilities import is_character
from .building import set_tile
from .items import lay_chest_item
from .queries import center_node
from .tables import (
    A_FACE_DOWN,
    A_ORIENT,
    D_ORIENT,
    EV_FACE_DOWN,
    EV_REVEALED,
    KEY_NODES,
    MC,
    NUM_BOARD,
    NUM_CELLS,
    TILE_ICON,
)
from .traps import lay_trap


# --- Illusion (the Illusionist; activity) -------------------------------------------------------
@njit(cache=True)
def illusion_usable(s, seat: int) -> bool:
    """The Illusionist (not under Terror, l.317) with a tile left in the Labyrinth pool."""
    return is_character(s, seat, C.ILLUSIONIST) and s.tile_pool_len > 0


@njit(cache=True)
def open_cells(s, critical) -> None:
    """``critical[cell]``: laying a closed tile there would cut a way (l.142-143)."""
    tree = hexboard.new_tree()
    hexboard.critical_cells(s, center_node(s), KEY_NODES, critical, tree)


@njit(cache=True)
def illusion_cell(s, cell: int, critical) -> bool:
    """An empty cell of the hexagon touching the board (l.141) whose closing cuts no way."""
    return 0 <= cell < NUM_BOARD and hexboard.touches_board(s.cell_built, cell) and not critical[cell]


@njit(cache=True)
def illusion_legal(s, seat: int, cell: int) -> bool:
    if not illusion_usable(s, seat) or not hexboard.touches_board(s.cell_built, cell):
        return False
    critical = np.zeros(NUM_CELLS, dtype=np.bool_)
    open_cells(s, critical)
    return illusion_cell(s, cell, critical)


@njit(cache=True)
def illusion_mask(s, seat: int, out) -> None:
    if not illusion_usable(s, seat):
        return
    critical = np.zeros(NUM_CELLS, dtype=np.bool_)
    open_cells(s, critical)
    for cell in range(NUM_BOARD):
        if illusion_cell(s, cell, critical):
            out[A_FACE_DOWN + cell] = 1


@njit(cache=True)
def lay_face_down(s, seat: int, cell: int) -> None:
    """The top tile of the pool, unseen, face down onto ``cell``."""
    s.fd_tile[cell] = pod.draw_tile(s)
    s.fd_owner[cell] = seat
    s.cell_built[cell] = 1  # closed until revealed: no corridor written
    emit(s, EV_FACE_DOWN, seat, cell)


# --- entering a face-down tile ----------------------------------------------------------------
face_down_ahead = hexboard.face_down_ahead  # the face-down cell a step enters (shared with 2011)


@njit(cache=True)
def orient_decider(s, cell: int, seat: int) -> int:
    """The Illusionist who laid it decides (her tile is in the game: Terror does not stop it,
    l.317); once she has changed into another character, "any character entering a
    face-down space tile or revealing it with the Golem decides" (l.465)."""
    owner = s.fd_owner[cell]
    if s.character[owner] == C.ILLUSIONIST:
        return owner
    return seat if seat >= 0 else s.seat


@njit(cache=True)
def opens_onto(s, cell: int, tile: int, rot: int, edge: int) -> bool:
    """Whether ``tile`` turned ``rot`` has a corridor on ``edge`` (laid and lifted again)."""
    set_tile(s, cell, tile, rot)
    found = False
    for k in range(MC):
        if (s.node_mask[cell * MC + k] >> edge) & 1:
            found = True
    hexboard.clear_cell(s, cell)
    s.cell_built[cell] = 1
    return found


@njit(cache=True)
def begin_reveal(s, seat: int, cell: int, d: int) -> None:
    """``seat`` (-1: the Golem) enters face-down ``cell`` going in direction ``d``: the tile is
    turned face up (public from now on) and its orientation is decided, among those with a
    corridor on the edge it is entered by (so the marker lands on a corridor)."""
    edge = (d + 3) % 6
    tile = s.fd_tile[cell]
    rots = 0
    for r in range(6):
        if opens_onto(s, cell, tile, r, edge):
            rots |= 1 << r
    s.rv_cell = cell
    s.rv_edge = edge
    s.rv_seat = seat
    s.rv_rots = rots
    set_decision(s, D_ORIENT, orient_decider(s, cell, seat))


@njit(cache=True)
def orient_mask(s, out) -> None:
    hexboard.mark_directions(out, A_ORIENT, s.rv_rots)


@njit(cache=True)
def orient(s, who: int, action: int) -> int:
    """Lay the revealed tile turned as decided; its icons lay a trap or an item as a built
    tile's do (l.147-150, drawn by the active player). Returns the direction the marker
    entering it moves in."""
    cell = s.rv_cell
    rot = action - A_ORIENT
    tile = hexboard.take_face_down(s, cell)
    set_tile(s, cell, tile, rot)
    emit(s, EV_REVEALED, who, tile, cell, rot, s.rv_seat)
    for k in range(MC):
        node = cell * MC + k
        icon = TILE_ICON[tile, k]
        if icon == C.ICON_TRAP:
            lay_trap(s, s.seat, node)
        elif icon == C.ICON_CHEST:
            lay_chest_item(s, s.seat, node)
    return hexboard.end_reveal(s)  # ``rv_seat`` stays for the caller (``turn.finish_reveal``)


reset_face_down = hexboard.no_face_down  # set-up (shared with 2011)


resample_face_down = hexboard.redeal_face_down  # ``determinize`` (shared with 2011)
