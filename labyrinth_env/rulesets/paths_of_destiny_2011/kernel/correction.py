"""The Architect's Correction (l.371): one action turns a board field next to the one he
stands on (nobody on it), or that one "on condition there is no other player apart from
you". The building rule still holds: every player keeps a way to the central field and to
a key (l.152, empty cells counting as fields to come), checked on a copy of the record.
Everything on the field (players, traps, keys, the Guard) turns with its corridor."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .building import key_ways, reach_from_centre, set_tile, ways_open
from .skills import skill_active
from .tables import (
    A_CORRECTION,
    EV_SKILL,
    MC,
    NEIGHBORS,
    NO_TARGET,
    NUM_BOARD,
    NUM_NORMAL_TILES,
    SK_CORRECTION,
    STATE_DTYPE,
)


@njit(cache=True)
def correction_cell(s, seat: int, field: int) -> int:
    own = s.position[seat] // MC
    return own if field == 6 else NEIGHBORS[own, field]


@njit(cache=True)
def field_turnable(s, seat: int, cell: int) -> bool:
    """A board field laid from the pile (not the central or a key field) with no other
    player on it."""
    if cell < 0 or cell >= NUM_BOARD or not s.cell_built[cell] or not 0 <= s.cell_tile[cell] < NUM_NORMAL_TILES:
        return False
    for p in range(s.num_players):
        if p != seat and s.position[p] >= 0 and s.position[p] // MC == cell:
            return False
    return True


@njit(cache=True)
def ways_needed(work) -> int:
    """The seats with a way to a key now (``building.key_ways``), on the copy."""
    reach_from_centre(work)
    return key_ways(work)


@njit(cache=True)
def ways_kept(work, cell: int, turns: int, need: int) -> bool:
    """On the copy ``work``: turned, every player still has its ways (l.152); turned back."""
    tile = work.cell_tile[cell]
    old = work.cell_rot[cell]
    set_tile(work, cell, tile, (old + turns) % 6)
    ok = ways_open(work, need)
    set_tile(work, cell, tile, old)
    return ok


@njit(cache=True)
def correction_legal(s, seat: int, k: int) -> bool:
    if s.actions_left < 1 or not skill_active(s, seat, SK_CORRECTION):
        return False
    cell = correction_cell(s, seat, k // 5)
    if not field_turnable(s, seat, cell):
        return False
    work = np.empty(1, dtype=STATE_DTYPE)
    work[0] = s
    w = work[0]
    return ways_kept(w, cell, k % 5 + 1, ways_needed(w))


@njit(cache=True, inline="always")
def correction_mask(s, seat: int, out) -> None:
    """``correction_legal`` for the 35 actions on one copy of the record."""
    if s.actions_left < 1 or not skill_active(s, seat, SK_CORRECTION):
        return
    any_field = False
    for field in range(7):
        any_field = any_field or field_turnable(s, seat, correction_cell(s, seat, field))
    if not any_field:
        return
    work = np.empty(1, dtype=STATE_DTYPE)
    work[0] = s
    w = work[0]
    need = ways_needed(w)
    for field in range(7):
        cell = correction_cell(s, seat, field)
        if field_turnable(s, seat, cell):
            for t in range(5):
                out[A_CORRECTION + field * 5 + t] = 1 if ways_kept(w, cell, t + 1, need) else 0


@njit(cache=True)
def correct(s, seat: int, k: int) -> None:
    cell = correction_cell(s, seat, k // 5)
    set_tile(s, cell, s.cell_tile[cell], (s.cell_rot[cell] + k % 5 + 1) % 6)
    emit(s, EV_SKILL, seat, SK_CORRECTION, NO_TARGET, cell * MC)
