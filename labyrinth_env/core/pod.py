"""Kernel pieces both Paths of Destiny editions share word for word beyond the board
(``core.hexboard``) and the helpers of ``core.kernel_common``: the record fields they
declare alike, the table of start fields by player count, the tile and trap piles, the
players' pieces (keys, Life, stun, the crystal), the check in progress, the steps of the
walking figures (the Golem; the Guard and the player Enslavement turns into it) that take
themselves, and the one-liners of the decisions both have.

The 3rd edition and the 2011 edition were written from one another: what they still do
alike lives here once, and what differs between them (sizes, event and action codes)
comes in as arguments, so each edition's own rules stay in its kernel package.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import RUNNING, set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.hexboard import KEY_NODES, NUM_BOARD, deal_face_down_tokens, face_down_tokens, only_direction
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import deal_shuffled, private_dice, reseed, shuffle_unknown

NUM_KEYS = KEY_NODES.shape[0]  # a key on each key field


def start_field_table(by_count: dict[int, tuple[int, ...]], num_seats: int) -> np.ndarray:
    """``[n, p]``: the start field of seat ``p`` in an ``n``-player game, from the
    components' ``{n: fields of seats 0..n-1}``; -1 where the table fixes none (an empty
    seat, or a player count whose players choose)."""
    table = np.full((num_seats + 1, num_seats), -1, dtype=np.int64)
    for n, fields in by_count.items():
        table[n, : len(fields)] = fields
    return table


# --- the record fields both editions declare alike -------------------------------------
def pile_fields(num_tiles: int, num_traps: int) -> list:
    """The tile pile (top last), the tile drawn and being placed (-1: none) and the trap
    pile (top last)."""
    return [
        ("tile_pool", np.int8, (num_tiles,)),
        ("tile_pool_len", np.int8),
        ("drawn_tile", np.int8),
        ("trap_pool", np.int8, (num_traps,)),
        ("trap_pool_len", np.int16),
    ]


def piece_fields(num_seats: int) -> list:
    """The keys (where each lies, -1 when carried; who carries it, -1 when it lies) and the
    players: start field (-1: not chosen), corridor, Life, stun, crystal face up, and
    whether a crystal's owner is asked at all (the option)."""
    return [
        ("key_node", np.int16, (NUM_KEYS,)),
        ("key_holder", np.int8, (NUM_KEYS,)),
        ("seat_start", np.int8, (num_seats,)),
        ("position", np.int16, (num_seats,)),
        ("life", np.int8, (num_seats,)),
        ("stun", np.int8, (num_seats,)),
        ("crystal", np.int8, (num_seats,)),
        ("ask_crystal", np.int8),
    ]


# the actions left in the turn, and the check (throw) in progress: its kind (0: none),
# the seat that threw, its totals
TURN_FIELDS = [("actions_left", np.int8)]
CHECK_FIELDS = [("ck_kind", np.int8), ("ck_seat", np.int8), ("ck_a", np.int16), ("ck_b", np.int16)]


# --- setting up ----------------------------------------------------------------------------
@njit(cache=True)
def deal_piles(s, num_tiles: int, num_traps: int) -> None:
    """Shuffle the tile pile, then the trap pile (in that order: the dice are shared)."""
    deal_shuffled(s.rng, s.tile_pool, num_tiles)
    s.tile_pool_len = num_tiles
    s.drawn_tile = -1
    deal_shuffled(s.rng, s.trap_pool, num_traps)
    s.trap_pool_len = num_traps


@njit(cache=True)
def lay_keys(s) -> None:
    """A key on each key field, nobody holding one."""
    for k in range(NUM_KEYS):
        s.key_node[k] = KEY_NODES[k]
        s.key_holder[k] = -1


@njit(cache=True)
def ready_players(s, n: int, life: int) -> None:
    """Full Life and a face-up crystal for the ``n`` players, nothing for the empty seats;
    nobody stunned."""
    for p in range(s.life.shape[0]):
        s.life[p] = life if p < n else 0
        s.crystal[p] = 1 if p < n else 0
        s.stun[p] = 0


@njit(cache=True)
def clear_scratch(s, no_check: int) -> None:
    """The check in progress, the event buffer and the search scratch, zeroed, so a reused
    record starts byte-identical to a new one."""
    s.ck_kind = no_check
    s.ck_seat = 0
    s.ck_a = 0
    s.ck_b = 0
    s.events[:, :] = 0
    s.reach[:] = 0
    s.queue[:] = 0
    s.place_ok[:] = 0


# --- resampling (determinize) ----------------------------------------------------------------
@njit(cache=True)
def resample_tiles(s, seed) -> np.ndarray:
    """The first of ``determinize``: private dice from ``seed`` (never the record's), the
    tile pile's order resampled; returns the dice for the edition's own unknowns."""
    rng = private_dice(seed)
    shuffle_unknown(rng, s.tile_pool[: s.tile_pool_len])
    return rng


@njit(cache=True)
def resample_traps_and_dice(s, rng, second, second_up) -> None:
    """The last of ``determinize``: the face-down trap tokens on the board, the ``second``
    ones (2011's Head Hunter; empty slices in 3e) and the trap pile, one unknown set
    (``unseen_traps``), dealt again in the same places; new dice for the record. One set:
    no seat can tell a face-down first token from a second one or from the pile's, so a
    deal by slot would hand the search the true split."""
    traps = unseen_traps(s, second, second_up)
    shuffle_unknown(rng, traps)
    m = deal_face_down_tokens(s.node_trap, s.trap_up, traps, 0)
    m = deal_face_down_tokens(second, second_up, traps, m)
    for i in range(s.trap_pool_len):
        s.trap_pool[i] = traps[m]
        m += 1
    reseed(s, rng)


@njit(cache=True)
def unseen_traps(s, second, second_up) -> np.ndarray:
    """The face-down trap tokens on the board (and the ``second`` ones: 2011's Head Hunter;
    an empty slice in 3e), then the trap pile: the one unknown set of traps (``unseen``;
    ``resample_traps_and_dice`` deals it again)."""
    traps = np.empty(s.node_trap.shape[0] + second.shape[0] + s.trap_pool.shape[0], dtype=np.int64)
    m = face_down_tokens(s.node_trap, s.trap_up, traps, 0)
    m = face_down_tokens(second, second_up, traps, m)
    for i in range(s.trap_pool_len):
        traps[m] = s.trap_pool[i]
        m += 1
    return traps[:m]


# --- building ------------------------------------------------------------------------------
@njit(cache=True)
def draw_tile(s) -> int:
    """Take the top tile of the pile."""
    s.tile_pool_len -= 1
    return s.tile_pool[s.tile_pool_len]


@njit(cache=True)
def place_or_return(s, seat: int, tile: int, fits: bool, d_place: int, ev_nowhere: int) -> None:
    """The drawn ``tile`` is placed by ``seat`` (decision ``d_place``) if it ``fits``
    anywhere; else it goes back, to the bottom of the pile."""
    if fits:
        s.drawn_tile = tile
        set_decision(s, d_place, seat)
        return
    insert_tile(s, tile, 0)
    emit(s, ev_nowhere, seat, tile)


@njit(cache=True)
def insert_tile(s, tile: int, at: int) -> None:
    """Put ``tile`` into the pile ``at`` places from its bottom (0: the bottom; the top is
    drawn first)."""
    for i in range(s.tile_pool_len, at, -1):
        s.tile_pool[i] = s.tile_pool[i - 1]
    s.tile_pool[at] = tile
    s.tile_pool_len += 1


@njit(cache=True)
def placement_mask(s, out, base: int) -> None:
    """``out[base + cell * 6 + rotation]``: the drawn tile's legal placements (``place_ok``)."""
    for i in range(NUM_BOARD * 6):
        out[base + i] = s.place_ok[i]


@njit(cache=True)
def observe_piles(s, out, base: int) -> None:
    """``out[base]``, ``out[base + 1]``: the share of the tile and the trap pile left (their
    sizes are public, never their order)."""
    out[base] = s.tile_pool_len / s.tile_pool.shape[0]
    out[base + 1] = s.trap_pool_len / s.trap_pool.shape[0]


# --- the players' pieces -------------------------------------------------------------------
@njit(cache=True)
def add_stun(s, seat: int, n: int, ev_stun: int) -> None:
    s.stun[seat] += n
    emit(s, ev_stun, seat, n, s.stun[seat])


@njit(cache=True)
def turn_crystal(s, seat: int, face_up: int, ev_crystal: int) -> None:
    """Turn the seat's crystal face up (1) or down (0); an event only if it changed."""
    if s.crystal[seat] != face_up:
        s.crystal[seat] = face_up
        emit(s, ev_crystal, seat, face_up)


# --- the walking figures: the Golem (3e), the Guard and Enslavement's Guard (2011) ------------
NO_WAY, CHOOSE = -1, -2  # ``forced_step``: no way at all; ways to choose from


@njit(cache=True)
def forced_step(s, ways: int, d_dir: int) -> int:
    """The next step of a figure walking its steps, where the rules take it without asking:
    the one direction in the bit set ``ways``; ``NO_WAY`` when it is empty (the caller
    drops the steps left); ``CHOOSE`` when it holds more than one, the active player's
    direction decision ``d_dir`` set."""
    if ways == 0:
        return NO_WAY
    d = only_direction(ways)
    if d < 0:
        set_decision(s, d_dir, s.seat)
        return CHOOSE
    return d


# --- the pending decision ------------------------------------------------------------------
@njit(cache=True)
def in_play(s, action: int, num_actions: int) -> bool:
    """The game runs and ``action`` is one of the action space."""
    return s.outcome == RUNNING and 0 <= action < num_actions


@njit(cache=True)
def keep_or_reroll_mask(out, keep: int) -> None:
    """Keep the throw (``keep``) or throw again with the crystal (``keep + 1``)."""
    out[keep] = 1
    out[keep + 1] = 1
