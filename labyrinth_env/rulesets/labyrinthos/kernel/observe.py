"""The observation: what one seat may know, egocentric (relative seat 0 is the observer),
laid out as ``tables`` says (``CF_*`` per cell, ``SF_*`` per seat, ``G_*`` global)."""

from __future__ import annotations

from labyrinth_env.core.contract import RUNNING
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinthos import components as C

from .board import first_round, hand_size, keys_held
from .tables import (
    CELL_FEATURES,
    CF_DOOR,
    CF_HEROES,
    CF_KEY,
    CF_MONSTER,
    CF_PATH,
    CF_START,
    CF_SYMBOL,
    CF_UP,
    CF_WALL,
    D_CANCEL,
    D_DISPLACE,
    D_SWAP_KEY,
    EDGE_OF,
    G_DECIDER,
    G_DECISION,
    G_DISCARD,
    G_HAND,
    G_KEYS,
    G_MONSTER,
    G_PENDING,
    G_ROUND,
    G_SUPPLY,
    GM_BLOOD,
    GM_FACE,
    GM_HUNTED,
    GM_KIND,
    GM_ON_BOARD,
    GM_POINTS,
    GP_CARD,
    GP_CELL,
    GP_COUNT,
    GP_EDGE,
    GP_SEAT,
    GP_SLOT,
    KEY_TOKEN_ACTION,
    KEY_TOKEN_COLOUR,
    MAX_DECK,
    NUM_CARD_TYPES,
    NUM_CELLS,
    NUM_COLOURS,
    NUM_KEY_ACTIONS,
    NUM_KEY_TOKENS,
    NUM_SLOTS,
    OBS_GLOBAL,
    OBS_SEATS,
    SEAT_FEATURES,
    SF_COUNTS,
    SF_HERO,
    SF_KEY,
    SF_KEY_ACTION,
    SF_PRESENT,
    SF_TOKENS,
    SF_WOUND,
    TILE_COLOUR,
    TILE_KIND,
    TILE_SYMBOL,
)


@njit(cache=True)
def observe_cells(s, seat: int, out) -> None:
    n = s.num_players
    for c in range(NUM_CELLS):
        b = c * CELL_FEATURES
        for d in range(4):
            e = EDGE_OF[c, d]
            if e >= 0 and s.wall[e]:
                out[b + CF_WALL + d] = 1.0
        if not s.cell_up[c]:
            continue  # face down: which tile lies there is hidden
        t = s.cell_tile[c]
        out[b + CF_UP] = 1.0
        for d in range(4):
            out[b + CF_PATH + d] = (s.cell_mask[c] >> d) & 1
        out[b + CF_SYMBOL + TILE_SYMBOL[t]] = 1.0
        if TILE_KIND[t] == C.KIND_DOOR:
            out[b + CF_DOOR] = 1.0
        elif TILE_KIND[t] == C.KIND_KEY:
            out[b + CF_KEY + TILE_COLOUR[t]] = 1.0
        elif TILE_COLOUR[t] >= 0:
            out[b + CF_START + TILE_COLOUR[t]] = 1.0
    if s.monster_cell >= 0:
        out[s.monster_cell * CELL_FEATURES + CF_MONSTER] = 1.0
    for p in range(n):
        if s.position[p] >= 0:
            out[s.position[p] * CELL_FEATURES + CF_HEROES + (p - seat) % n] = 1.0


@njit(cache=True)
def observe_seats(s, seat: int, out) -> None:
    n = s.num_players
    for p in range(n):
        b = OBS_SEATS + ((p - seat) % n) * SEAT_FEATURES
        out[b + SF_PRESENT] = 1.0
        if s.hero[p] >= 0:
            out[b + SF_HERO + s.hero[p]] = 1.0
        out[b + SF_TOKENS] = s.feet[p] / C.NUM_FEET_TOKENS  # cards and Swift Stride can raise them above 7
        out[b + SF_TOKENS + 1] = s.hands[p] / C.NUM_HAND_TOKENS
        for i in range(NUM_SLOTS):
            out[b + SF_WOUND + i] = s.slot_wound[p, i]
            k = s.slot_key[p, i]
            if k >= 0:  # key tokens on a hero board are face up
                out[b + SF_KEY + i * NUM_COLOURS + KEY_TOKEN_COLOUR[k]] = 1.0
                out[b + SF_KEY_ACTION + i * NUM_KEY_ACTIONS + KEY_TOKEN_ACTION[k]] = 1.0
        out[b + SF_COUNTS] = keys_held(s, p) / NUM_COLOURS
        out[b + SF_COUNTS + 1] = hand_size(s, p) / C.HAND_LIMIT
        out[b + SF_COUNTS + 2] = 1.0 if p == s.seat else 0.0
        out[b + SF_COUNTS + 3] = (s.attacked >> p) & 1


@njit(cache=True)
def observe_global(s, seat: int, out) -> None:
    n = s.num_players
    g = OBS_GLOBAL
    for t in range(NUM_CARD_TYPES):
        out[g + G_HAND + t] = s.hand[seat, t] / C.HAND_LIMIT
    if s.outcome == RUNNING:
        out[g + G_DECISION + s.decision] = 1.0
        out[g + G_DECIDER + (s.decider - seat) % n] = 1.0
    m = g + G_MONSTER
    out[m + GM_KIND + s.monster] = 1.0
    out[m + GM_ON_BOARD] = 1.0 if s.monster_cell >= 0 else 0.0
    out[m + GM_POINTS] = s.m_points / 3.0
    if s.m_hunt >= 0:
        out[m + GM_HUNTED + (s.m_hunt - seat) % n] = 1.0
    if s.last_face >= 0:
        out[m + GM_FACE + s.last_face] = 1.0
    out[m + GM_BLOOD] = max(s.last_blood, 0) / 2.0
    out[g + G_SUPPLY] = s.wall_supply / C.NUM_WALLS
    out[g + G_SUPPLY + 1] = s.feet_supply / C.NUM_FEET_TOKENS
    out[g + G_SUPPLY + 2] = s.hand_supply / C.NUM_HAND_TOKENS
    out[g + G_SUPPLY + 3] = s.wound_supply / C.NUM_WOUND_TOKENS
    out[g + G_SUPPLY + 4] = s.deck_len / MAX_DECK
    for t in range(NUM_CARD_TYPES):
        out[g + G_DISCARD + t] = s.discard[t] / 8.0  # the discard pile is face up
    for k in range(NUM_KEY_TOKENS):
        out[g + G_KEYS + k] = s.key_pile[k] * s.key_seen[seat, k]
        out[g + G_KEYS + NUM_KEY_TOKENS + k] = s.key_seen[seat, k]
    q = g + G_PENDING
    if s.pending_cell >= 0:
        out[q + GP_CELL + s.pending_cell] = 1.0
    if s.pending_edge >= 0:
        out[q + GP_EDGE + s.pending_edge] = 1.0
    if s.pending_seat >= 0 and (s.decision == D_DISPLACE or s.decision == D_SWAP_KEY):
        out[q + GP_SEAT + (s.pending_seat - seat) % n] = 1.0
    if s.decision == D_CANCEL and s.num_tasks > 0:
        out[q + GP_CARD + s.task_a[s.num_tasks - 1]] = 1.0
    out[q + GP_COUNT] = s.count_left / 4.0
    if s.pending_slot >= 0:
        out[q + GP_SLOT + s.pending_slot] = 1.0
    out[g + G_ROUND] = 1.0 if first_round(s) else 0.0
    out[g + G_ROUND + 1] = min(s.turn / 400.0, 1.0)
    out[g + G_ROUND + 2] = s.use_key_slot


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """What ``seat`` may know, egocentric (relative seat 0 is ``seat``): the explored tiles
    (face-down ones only as walls around them), walls, the monster, the hero boards (tokens,
    wounds, face-up key tokens), its own hand (only the sizes of the others'), supplies,
    the face-up discard pile, the key tokens it has looked at, what the pending decision
    is about. Never the tiles under face-down ones, other hands, the deck order or the RNG."""
    out[:] = 0.0
    observe_cells(s, seat, out)
    observe_seats(s, seat, out)
    observe_global(s, seat, out)
