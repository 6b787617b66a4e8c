"""Team Edition: the observation, egocentric, of what a seat may know: face-down tiles show
no paths and, unless public memory is on, no treasure; the decks' orders never appear."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import RUNNING
from labyrinth_env.core.grid import ROTATE_SQUARE
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.team_edition import components as C

from .lookahead import lookahead
from .tables import (
    G_COLLECTED,
    G_DECISION,
    G_FLAGS,
    G_LAST_PAGE,
    G_MEMORY,
    G_PAGES,
    G_TREASURES,
    G_VARIANT,
    HOME_CELLS,
    IS_FIXED_CELL,
    NUM_CELLS,
    NUM_SEATS,
    NUM_TREASURES,
    OBS_GLOBAL,
    OBS_SEATS,
    OBS_SIZE,
    OBS_SIZE_LOOKAHEAD,
    OBS_SPARE,
    OPT_LOOKAHEAD,
    P_DOWN,
    P_FIXED,
    P_HOME,
    P_LOOSE_UP,
    P_OPEN,
    P_PIECE,
    P_TREASURE,
    P_UNCLAIMED,
    P_WANTED,
    SEAT_SIZE,
    TILE_SHAPE,
    TILE_TREASURE,
)


@njit(cache=True)
def treasure_visible(s, tile: int) -> bool:
    return not s.tile_down[tile] or s.public_memory != 0


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """Fill ``out`` (float32[OBS_SIZE], or [OBS_SIZE_LOOKAHEAD] with the ``lookahead``
    option) with what ``seat`` may know, egocentric: relative seat 0 is ``seat``, then the
    others in turn order. Face-down tiles show no paths and, unless public memory is on,
    no treasure; the decks' orders never appear. The lookahead block is filled for the
    seat to act only (zeros for the others)."""
    out[:] = 0.0
    n = s.num_players
    rel = np.empty(NUM_SEATS, dtype=np.int64)  # absolute seat -> relative seat
    for p in range(NUM_SEATS):
        rel[p] = (p - seat) % n if p < n else -1
    wanted_by = np.full(NUM_TREASURES, -1, dtype=np.int64)
    for p in range(n):
        for k in range(2):
            if s.slots[p, k] >= 0:
                wanted_by[s.slots[p, k]] = rel[p]
    observe_maze(s, rel, wanted_by, out)
    observe_spare(s, wanted_by, out)
    observe_seats(s, rel, out)
    observe_table(s, out)
    if s.options[OPT_LOOKAHEAD] and seat == s.seat and out.shape[0] >= OBS_SIZE_LOOKAHEAD:
        lookahead(s, out[OBS_SIZE:])


@njit(cache=True)
def observe_maze(s, rel, wanted_by, out) -> None:
    """The planes over the cells: each tile's face and open paths, the treasures it may
    show (wanted by which relative seat, or by nobody), the pieces and home corners."""
    for cell in range(NUM_CELLS):
        tile = s.cell_tile[cell]
        if IS_FIXED_CELL[cell]:
            out[P_FIXED * NUM_CELLS + cell] = 1.0
        elif s.tile_down[tile]:
            out[P_DOWN * NUM_CELLS + cell] = 1.0
        else:
            out[P_LOOSE_UP * NUM_CELLS + cell] = 1.0
        m = s.open[cell]
        for d in range(4):
            if (m >> d) & 1:
                out[(P_OPEN + d) * NUM_CELLS + cell] = 1.0
        tr = TILE_TREASURE[tile]
        if tr >= 0 and not s.collected[tr] and treasure_visible(s, tile):
            out[(P_TREASURE + tr) * NUM_CELLS + cell] = 1.0
            if wanted_by[tr] >= 0:
                out[(P_WANTED + wanted_by[tr]) * NUM_CELLS + cell] = 1.0
            else:
                out[P_UNCLAIMED * NUM_CELLS + cell] = 1.0
    for p in range(s.num_players):
        out[(P_PIECE + rel[p]) * NUM_CELLS + s.piece[p]] = 1.0
        out[(P_HOME + rel[p]) * NUM_CELLS + HOME_CELLS[p]] = 1.0


@njit(cache=True)
def observe_spare(s, wanted_by, out) -> None:
    """The spare, which lies face up beside the maze: its open paths and its treasure."""
    spare_mask = ROTATE_SQUARE[TILE_SHAPE[s.spare], s.tile_rot[s.spare]]
    for d in range(4):
        if (spare_mask >> d) & 1:
            out[OBS_SPARE + d] = 1.0
    tr = TILE_TREASURE[s.spare]
    if tr >= 0 and not s.collected[tr]:
        out[OBS_SPARE + 4 + tr] = 1.0
        if wanted_by[tr] >= 0:
            out[OBS_SPARE + 4 + NUM_TREASURES + wanted_by[tr]] = 1.0


@njit(cache=True)
def observe_seats(s, rel, out) -> None:
    """Per relative seat in play: in play, to act, the treasures on its board, its spell."""
    for p in range(s.num_players):
        base = OBS_SEATS + rel[p] * SEAT_SIZE
        out[base] = 1.0
        if p == s.seat and s.outcome == RUNNING:
            out[base + 1] = 1.0
        for k in range(2):
            if s.slots[p, k] >= 0:
                out[base + 2 + k * NUM_TREASURES + s.slots[p, k]] = 1.0
        out[base + 2 + 2 * NUM_TREASURES + s.spell[p]] = 1.0


@njit(cache=True)
def observe_table(s, out) -> None:
    """The turn and the table: the decision, what the turn has used and collected, the
    variant, the Book's pages left (by kind: the mix is public, its order is not) and the
    last one read, the treasure deck left and the treasures collected."""
    g = OBS_GLOBAL
    if s.outcome == RUNNING:
        out[g + G_DECISION + s.decision] = 1.0
    out[g + G_FLAGS] = s.push_used
    out[g + G_FLAGS + 1] = s.spell_used
    out[g + G_FLAGS + 2] = 1.0 if s.moves_left > 0 else 0.0
    out[g + G_FLAGS + 3] = 1.0 if s.collected_this_turn >= 1 else 0.0
    out[g + G_FLAGS + 4] = 1.0 if s.collected_this_turn >= 2 else 0.0
    out[g + G_VARIANT + s.variant] = 1.0
    out[g + G_MEMORY] = s.public_memory
    left = s.num_pages - s.page_pos
    out[g + G_PAGES] = left / s.num_pages
    for i in range(s.page_pos, s.num_pages):  # the remaining mix is public, its order is not
        out[g + G_PAGES + 1 + s.pages[i, 0]] += 1.0 / s.num_pages
    out[g + G_TREASURES] = (NUM_TREASURES - s.treasure_pos) / NUM_TREASURES
    out[g + G_TREASURES + 1] = s.num_collected / NUM_TREASURES
    for t in range(NUM_TREASURES):
        out[g + G_COLLECTED + t] = s.collected[t]
    last = s.pages[s.page_pos - 1]
    out[g + G_LAST_PAGE + last[0]] = 1.0
    if last[0] == C.PAGE_PUSH:
        out[g + G_LAST_PAGE + 3 + last[1]] = 1.0
