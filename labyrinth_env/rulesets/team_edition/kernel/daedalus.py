"""Team Edition: the Book of Daedalus. Dealing its pages at setup (each kind's pool whole
as many times as the count allows, then distinct cards at random), reading the next page at
the start of a turn (push a face-down tile in, flip two tiles face down, send two pieces to
a corner), and dealing the unread pages again from what everyone knows (``determinize``)."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import copy_into
from labyrinth_env.core.rng import shuffle
from labyrinth_env.rulesets.team_edition import components as C

from .maze import cell_of_tile, insert_spare, refresh_board, send_home, shift_pieces
from .tables import (
    EV_DAEDALUS_FLIP,
    EV_DAEDALUS_PUSH,
    EV_PAGE,
    EV_SENT_HOME,
    HOME_CELLS,
    OPT_DECK,
    POOL_SIZE,
    POOLS,
    SENT_BY_PAGE,
    SENT_TILE_FLIPPED,
)


@njit(cache=True)
def read_page(s) -> None:
    """Turn the next page and do what it says."""
    page = s.pages[s.page_pos]
    s.page_pos += 1
    kind = page[0]
    emit(s, EV_PAGE, s.seat, kind, page[1], page[2], page[3])
    if kind == C.PAGE_PUSH:
        arrow = page[1]
        s.tile_down[s.spare] = 1
        out_tile = insert_spare(s, arrow)
        was_down = s.tile_down[out_tile]
        s.tile_down[out_tile] = 0  # the new spare always lies face up
        emit(s, EV_DAEDALUS_PUSH, -1, arrow, out_tile, was_down)
        shift_pieces(s, arrow, False)
    elif kind == C.PAGE_FLIP:
        for k in range(1, 3):
            tile = page[k]
            cell = cell_of_tile(s, tile)
            if cell < 0 or s.tile_down[tile]:
                continue  # the spare, or already face down
            s.tile_down[tile] = 1
            emit(s, EV_DAEDALUS_FLIP, -1, tile, cell)
            for p in range(s.num_players):
                if s.piece[p] == cell:
                    send_home(s, p, SENT_TILE_FLIPPED)
    else:
        corner = HOME_CELLS[page[3]]
        for k in range(1, 3):
            p = page[k]
            if p < s.num_players:  # pieces not in play are ignored
                emit(s, EV_SENT_HOME, p, s.piece[p], corner, SENT_BY_PAGE)
                s.piece[p] = corner
    refresh_board(s)


@njit(cache=True)
def deal_pages(s, kind: int, count: int, at: int) -> int:
    """Write ``count`` cards of ``kind`` at ``s.pages[at:]`` (returns the end): every card
    of the kind's pool as many whole times as ``count`` allows, then a random choice of
    distinct cards for the rest. Which cards a game holds is hidden, like their order."""
    pool = POOLS[kind, s.num_players - 1]
    size = POOL_SIZE[kind, s.num_players - 1]
    for i in range(count - count % size):
        copy_into(s.pages[at], pool[i % size], pool.shape[1])
        at += 1
    pick = np.arange(size)
    shuffle(s.rng, pick, size)
    for i in range(count % size):
        copy_into(s.pages[at], pool[pick[i]], pool.shape[1])
        at += 1
    return at


@njit(cache=True)
def pool_index(s, kind: int, page) -> int:
    pool = POOLS[kind, s.num_players - 1]
    for i in range(POOL_SIZE[kind, s.num_players - 1]):
        if pool[i, 1] == page[1] and pool[i, 2] == page[2] and pool[i, 3] == page[3]:
            return i
    return -1


@njit(cache=True)
def resample_unread_pages(s, rng) -> None:
    """Deal the unread pages again from what everyone knows: the counts by kind (public)
    and the pages already read. Per kind, the cards beyond the whole pools are a choice of
    distinct cards that must include every card read once more than the whole pools hold;
    the rest of that choice is drawn uniformly (exact when a count does not exceed its
    pool, as in the default Book; a close approximation otherwise). The result depends on
    the read pages and ``rng`` only, never on the true unread cards or their order."""
    start = s.page_pos
    at = start
    for kind in range(3):
        size = POOL_SIZE[kind, s.num_players - 1]
        pool = POOLS[kind, s.num_players - 1]
        total = s.options[OPT_DECK + kind]
        whole = total // size
        read = np.zeros(size, dtype=np.int64)
        for i in range(start):
            k = pool_index(s, kind, s.pages[i]) if s.pages[i, 0] == kind else -1
            if k >= 0:  # (a page set by hand in a test position may be from no pool)
                read[k] += 1
        chosen = np.zeros(size, dtype=np.int64)
        free = np.empty(size, dtype=np.int64)
        num_free = 0
        extra = total % size
        for i in range(size):
            if read[i] > whole:
                chosen[i] = 1
                extra -= 1
            else:
                free[num_free] = i
                num_free += 1
        shuffle(rng, free, num_free)
        for j in range(max(extra, 0)):
            chosen[free[j]] = 1
        for i in range(size):
            for _ in range(whole + chosen[i] - read[i]):
                if at < s.num_pages:
                    copy_into(s.pages[at], pool[i], pool.shape[1])
                    at += 1
    order = np.arange(at - start)
    shuffle(rng, order, at - start)
    rest = s.pages[start:at].copy()
    for i in range(at - start):
        copy_into(s.pages[start + i], rest[order[i]], rest.shape[1])
