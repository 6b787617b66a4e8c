"""What a seat may know (layout: ``tables``): the board, the tokens and the characters
egocentrically, pool and deck sizes but never their order, the drawn tile while it is
placed, the check in progress."""

from __future__ import annotations

from labyrinth_env.core import hexboard, kernel_common, pod
from labyrinth_env.core.contract import RUNNING
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

from .queries import at_start
from .tables import (
    ABILITY_TOKENS,
    CK_COMBAT,
    CK_TRAP,
    F_CHAR,
    F_FACE_DOWN,
    F_FD_OWNER,
    F_GOLEM,
    F_ITEM,
    F_KEY,
    F_REVEALING,
    F_TOKEN,
    F_TOKEN_OWNER,
    LIFE,
    MC,
    NODE_FEATURES,
    NUM_ABILITY_TOKENS,
    NUM_BOARD,
    NUM_DECISIONS,
    NUM_EVENTS,
    NUM_GOLEM_CARDS,
    NUM_ITEMS,
    NUM_KEYS,
    NUM_SEATS,
    NUM_TILES,
    OBS_GLOBAL,
    OBS_SEATS,
    S_CHARACTER,
    S_TOKENS,
    SEAT_FEATURES,
    TRAP_TOKENS,
)


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """What ``seat`` may know, egocentric (relative seat 0 is ``seat``): the board, face-down
    traps only as "a trap is here", face-down tiles only as "a face-down tile is here",
    pool and deck sizes but never their order, the drawn tile while it is being placed (or
    the face-down tile being revealed: face up, public)."""
    out[:] = 0.0
    n = s.num_players
    hexboard.observe_corridors(s, out, NODE_FEATURES, s.center_cell, TRAP_TOKENS)
    for i in range(NUM_ITEMS):
        if s.item_node[i] >= 0:
            out[s.item_node[i] * NODE_FEATURES + F_ITEM + i] = 1.0
    for k in range(NUM_KEYS):
        if s.key_node[k] >= 0:
            out[s.key_node[k] * NODE_FEATURES + F_KEY + k] = 1.0
    out[s.golem_node * NODE_FEATURES + F_GOLEM] = 1.0
    for p in range(n):
        rel = (p - seat) % n
        out[s.position[p] * NODE_FEATURES + F_CHAR + rel] = 1.0
        b = OBS_SEATS + rel * SEAT_FEATURES
        kernel_common.observe_character(s, p, out, b, LIFE)
        out[b + 6] = 1.0 if at_start(s, p) else 0.0
        for j in range(2):
            if s.items[p, j] >= 0:
                out[b + 7 + j * NUM_ITEMS + s.items[p, j]] = 1.0
        out[b + 7 + 2 * NUM_ITEMS + s.seat_start[p]] = 1.0
        if s.character[p] >= 0:  # characters and their tokens are public (l.89, l.377)
            out[b + S_CHARACTER + s.character[p]] = 1.0
    for i in range(NUM_ABILITY_TOKENS):
        o = s.tok_owner[i]
        if o < 0:
            continue
        node = s.tok_node[i]
        if node < 0:
            out[OBS_SEATS + ((o - seat) % n) * SEAT_FEATURES + S_TOKENS + ABILITY_TOKENS[i]] += 1.0 / 3.0
        else:
            out[node * NODE_FEATURES + F_TOKEN + ABILITY_TOKENS[i]] = 1.0
            out[node * NODE_FEATURES + F_TOKEN_OWNER + (o - seat) % n] = 1.0
    for cell in range(NUM_BOARD):  # the Illusionist's face-down tiles: there, never which tile
        if s.fd_owner[cell] >= 0:
            b = cell * MC * NODE_FEATURES
            out[b + F_FACE_DOWN] = 1.0
            out[b + F_FD_OWNER + (s.fd_owner[cell] - seat) % n] = 1.0
    g = OBS_GLOBAL
    if s.outcome == RUNNING:
        out[g + s.decision] = 1.0
        out[g + NUM_DECISIONS + (s.decider - seat) % n] = 1.0
    g += NUM_DECISIONS + NUM_SEATS
    out[g] = s.actions_left / C.ACTIONS_PER_TURN
    out[g + 1] = s.golem_used
    out[g + 2] = s.event_used
    g += 3
    if s.drawn_tile >= 0:
        out[g + s.drawn_tile] = 1.0
    elif s.rv_cell >= 0:  # a face-down tile being revealed is face up: public
        out[s.rv_cell * MC * NODE_FEATURES + F_REVEALING] = 1.0
        out[g + s.fd_tile[s.rv_cell]] = 1.0
    g += NUM_TILES
    pod.observe_piles(s, out, g)
    out[g + 2] = s.item_pool_len / NUM_ITEMS
    out[g + 3] = (NUM_GOLEM_CARDS - s.golem_pos) / NUM_GOLEM_CARDS
    out[g + 4] = (NUM_EVENTS - s.event_pos) / NUM_EVENTS
    g += 5
    if s.current_event >= 0:
        out[g + s.current_event] = 1.0
    g += NUM_EVENTS
    out[g + s.ck_kind] = 1.0
    g += 5
    out[g] = kernel_common.check_total_feature(s.ck_a) if s.ck_kind != CK_TRAP else s.ck_a / 3.0
    out[g + 1] = kernel_common.check_total_feature(s.ck_b) if s.ck_kind == CK_COMBAT else 0.0
    out[g + 2] = 1.0 if s.ck_kind == CK_COMBAT and s.fury_used else 0.0
