"""Team Edition kernel: the whole cooperative moving-maze game as numba functions over one
state record (``STATE_DTYPE``). The kernel contract (``labyrinth_env.core.contract``) is
this package's ``init``, ``to_act``, ``legal_mask``, ``step``, ``observe``, ``returns``,
``determinize``, ``unseen``, ``shaping_potential`` and ``progress``; every constant of ``tables`` and
every function of the modules below is read as ``K.<name>``.

A turn starts with a page of the Book of Daedalus, then the seat to act pushes, casts its
spell and moves in any order (``DECISION_MAIN``), stopping on a face-down tile to flip it
(``DECISION_FLIP``) and orient it (``DECISION_ORIENT``), until it ends the turn or nothing
is left. Every decision is the active seat's.

One module per decision family, each with its legality and effects side by side:

| module | what |
|---|---|
| ``actions`` | the pending decision's legal actions (``is_legal``, ``legal_mask``) and ``step`` |
| ``spells`` | Push, Rotate, Switch: the spells that change the maze |
| ``moving`` | the reach (with Traverse, Teleport, Escape), the move, ``DECISION_FLIP`` and ``DECISION_ORIENT`` |
| ``turn`` | the start and end of a turn, ending it when nothing is left |
| ``daedalus`` | the Book of Daedalus: dealt at setup, read each turn, dealt again by ``determinize`` |
| ``treasures`` | collecting, drawing, whose board a treasure may come from; the end of the game |
| ``maze`` | open edges, the spare slid in, pieces riding a pushed line or sent home |
| ``observe``, ``lookahead`` | the observation and the ``lookahead`` option's per-action features |

The square grid, the reach search, tile rotation, RNG and the common record come from
``labyrinth_env.core``.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import (  # noqa: F401 (outcome codes, K.OPT_* and to_act: the contract's)
    LOST,
    OPT_MAX_TURNS,
    OPT_PLAYERS,
    OPT_RULESET,
    RUNNING,
    TRUNCATED,
    WON,
    start_record,
    tally_unseen,
    team_returns,
    to_act,
)
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import copy_into, private_dice, reseed, shuffle_unknown
from labyrinth_env.core.paths import grid_costs
from labyrinth_env.core.rng import randint, shuffle
from labyrinth_env.rulesets.team_edition import components as C

from .actions import is_legal, legal_mask, step  # noqa: F401 (K.<name>)
from .daedalus import deal_pages, pool_index, read_page, resample_unread_pages  # noqa: F401 (K.<name>)
from .lookahead import (  # noqa: F401 (K.<name>)
    closeness,
    flip_features,
    hidden_wanted,
    lookahead,
    manhattan,
    position_features,
    replay_orientation,
    target_distances,
    target_kind,
)
from .maze import cell_of_tile, insert_spare, refresh_board, send_home, shift_pieces  # noqa: F401 (K.<name>)
from .moving import (  # noqa: F401 (K.<name>)
    compute_reach,
    escape_seeds,
    flip_later,
    flip_later_legal,
    flip_or_leave,
    move_legal,
    move_piece,
    movement_spell,
    open_off_edge,
    orient_tile,
    spell_seed,
    teleport_seeds,
    traverse_seeds,
    turn_face_up,
)
from .observe import (  # noqa: F401 (K.<name>)
    observe,
    observe_maze,
    observe_seats,
    observe_spare,
    observe_table,
    treasure_visible,
)
from .spells import push_legal, push_tile, rotate_tile, switch_tiles  # noqa: F401 (K.<name>)
from .tables import *  # noqa: F403 (every constant, read as K.<name>)
from .tables import (
    DECISION_MAIN,
    FIXED_CELLS,
    HOME_CELLS,
    LOOSE_CELLS,
    NUM_LOOSE,
    NUM_SEATS,
    NUM_TILES,
    NUM_TREASURES,
    OPT_DECK,
    OPT_MEMORY,
    OPT_SPELLS,
    OPT_VARIANT,
    VARIANT_INTRODUCTORY,
)
from .treasures import claimable_from, draw_treasures, finish, treasure_deck_empty, try_collect  # noqa: F401 (K.<name>)
from .turn import end_turn, settle, start_turn, turn_is_over  # noqa: F401 (K.<name>)


@njit(cache=True)
def init(s, seed, options) -> None:
    """Set up a new game from a 64-bit seed and the options vector."""
    start_record(s, seed, options)
    opts = s.options
    n = s.num_players
    s.variant = opts[OPT_VARIANT]
    s.public_memory = opts[OPT_MEMORY]
    # the maze: printed spaces, then the 34 loose tiles mixed, turned at random
    for k in range(FIXED_CELLS.shape[0]):
        s.cell_tile[FIXED_CELLS[k]] = NUM_LOOSE + k
    order = np.arange(NUM_LOOSE)
    shuffle(s.rng, order, NUM_LOOSE)
    for k in range(LOOSE_CELLS.shape[0]):
        s.cell_tile[LOOSE_CELLS[k]] = order[k]
    s.spare = order[NUM_LOOSE - 1]
    for t in range(NUM_TILES):
        s.tile_down[t] = 0
        s.tile_rot[t] = randint(s.rng, 4) if t < NUM_LOOSE else 0
    # pieces and spells
    spells = np.arange(len(C.SPELLS))
    shuffle(s.rng, spells, spells.shape[0])
    for p in range(NUM_SEATS):
        s.piece[p] = HOME_CELLS[p] if p < n else -1
        if p >= n:
            s.spell[p] = -1
        elif s.variant == VARIANT_INTRODUCTORY:
            s.spell[p] = C.SPELL_ROTATE
        elif opts[OPT_SPELLS + p] >= 0:
            s.spell[p] = opts[OPT_SPELLS + p]
        else:
            s.spell[p] = spells[p]
    # treasures: shuffle the deck, two cards each
    for t in range(NUM_TREASURES):
        s.collected[t] = 0
        s.treasure_deck[t] = t
    s.num_collected = 0
    shuffle(s.rng, s.treasure_deck, NUM_TREASURES)
    s.treasure_pos = 0
    s.slots[:, :] = -1
    for p in range(n):
        draw_treasures(s, p)
    # the Book of Daedalus: each kind's cards from its pool (``deal_pages``), then shuffled
    num = 0
    for kind in range(3):
        num = deal_pages(s, kind, opts[OPT_DECK + kind], num)
    s.num_pages = num
    order = np.arange(num)
    shuffle(s.rng, order, num)
    shuffled = s.pages[:num].copy()
    for i in range(num):
        copy_into(s.pages[i], shuffled[order[i]], shuffled.shape[1])
    s.page_pos = 0
    # the first turn: seat 0 (start_record)
    refresh_board(s)
    start_turn(s)
    settle(s)


returns = team_returns


@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Resample, in place, what nobody at the table has seen: which cards the unread
    Daedalus pages are and their order, and the order of the treasure deck. Every tile in
    the maze was seen face up and every change to it since was public (l.174: "try to
    remember where treasures are hidden"), so face-down tiles stay where they are, with or
    without the ``public_memory`` option (which only changes the observation). ``s``
    should be a copy. The result depends only on public history and ``seed`` (searches
    that determinize cannot leak the true order)."""
    rng = private_dice(seed)
    resample_unread_pages(s, rng)
    shuffle_unknown(rng, s.treasure_deck[s.treasure_pos :])
    reseed(s, rng)
    refresh_board(s)
    if s.outcome == RUNNING and s.decision == DECISION_MAIN:
        compute_reach(s)


@njit(cache=True)
def unseen(s, seat: int, out) -> None:
    """The contract's account of what ``seat`` cannot see: the sets ``determinize``
    resamples, which nobody at the table has seen (the same for every seat and
    ``NO_SEAT``): the unread Daedalus pages and the treasure deck. The arrangements are
    counted for the treasure deck only: the unread pages are a choice the read ones
    constrain (``resample_unread_pages``), not counted here, so while any is unread
    ``out[1]`` is nan. Face-down tiles are not in it: everyone saw them face up."""
    out[:] = 0.0
    tally_unseen(out, s.treasure_deck[s.treasure_pos :])
    unread = s.num_pages - s.page_pos
    if unread > 0:
        out[0] += unread
        out[1] = np.nan


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Opt-in reward shaping (never the default): the share of treasures collected, a
    potential the whole team shares. 0 once the game is won or lost, so the shaping of a
    decided game sums to -potential(start) = 0 and does not change which policies are
    best; a truncated game keeps its position's value."""
    if s.outcome == WON or s.outcome == LOST:
        return 0.0
    return s.num_collected / NUM_TREASURES


# ``progress``: a treasure outweighs any way still to go, so collecting one never reads as a
# loss; a shut edge on the way weighs a spell (or a turn's wait for the maze to change): with
# the config's prior and the heuristic partner, shut costs 3, 6, 12 won 0.68, 0.75, 0.65
PROGRESS_TREASURE = 0.25
PROGRESS_STEP = 0.005
PROGRESS_STEP_CAP = 40
PROGRESS_SHUT = 6


@njit(cache=True)
def progress(s, seat: int) -> float:
    """The self-play learner's progress: 0.25 for each treasure the team has collected,
    minus 0.005 per unit of the cheapest way from the seat's piece to the nearest treasure
    it may take (``lookahead.target_kind``) through the maze as it lies
    (``core.paths.grid_costs``: a step along an open corridor 1, a step through a shut
    edge, which a spell or Daedalus must open first, 7; at most 40 units, and 40 when no
    target shows). The collected count is the team's, so a partner's collecting is
    progress too.

    Reads only public fields: the tiles' places, turns and faces, the pieces, the treasure
    boards and the collected treasures; a face-down tile's treasure only with public memory
    (everyone saw it), else by elimination from the face-up tiles (``hidden_wanted``). 0
    once the game is won or lost; a truncated game keeps its value."""
    if s.outcome == WON or s.outcome == LOST:
        return 0.0
    dist = np.empty(NUM_CELLS, dtype=np.int64)  # noqa: F405
    grid_costs(NEIGHBORS, s.open, s.passage, s.piece[seat], PROGRESS_SHUT, dist)  # noqa: F405
    hidden = hidden_wanted(s, seat)
    best = PROGRESS_STEP_CAP
    for cell in range(NUM_CELLS):  # noqa: F405
        if dist[cell] < best and target_kind(s, seat, cell, hidden) != NOT_TARGET:  # noqa: F405
            best = dist[cell]
    return PROGRESS_TREASURE * s.num_collected - PROGRESS_STEP * best
