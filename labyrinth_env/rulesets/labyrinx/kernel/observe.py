"""What a seat observes (layout: ``tables``, ``F_*`` per space, seat features, ``G_*``
global): public information and its own, egocentric."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import RUNNING
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinx import components as C

from .board import hand_limit
from .tables import (
    ACTIONS,
    CARD_DOORS,
    CARD_KIND,
    CARD_OPEN,
    CELL_FEATURES,
    CHAR_ICONS,
    D_CHEST,
    D_PAY,
    D_PLAY_CELL,
    D_PUSH_TO,
    D_ROTATE,
    F_BEATEN,
    F_CHAR,
    F_DOOR,
    F_DOWN,
    F_EMPTY,
    F_EXIT,
    F_GOLD,
    F_IN,
    F_KIND,
    F_KNOWN,
    F_OPEN,
    F_PENDING,
    F_PILE,
    F_UP,
    G_BASE,
    G_CHALLENGE,
    G_DECIDER,
    G_DECISION,
    G_DISCARD_KINDS,
    G_DISCARD_TOP,
    G_HAND,
    G_MOVEMENT,
    G_PILES,
    G_PLACING,
    G_PUSH_TARGET,
    G_SELECTED_SLOT,
    G_TURN,
    HOW_PUSH,
    KIND_COUNT,
    MAX_HAND,
    MAXT,
    MV_NONE,
    NUM_CARDS,
    NUM_KINDS,
    OBS_SEATS,
    RACE_TURN_LIMIT,
    SEAT_FEATURES,
    T_EXIT,
    T_PILE,
)


@njit(cache=True)
def rel(s, p: int, seat: int) -> int:
    return (p - seat) % s.num_players


@njit(cache=True)
def observe_cells(s, seat: int, out) -> None:
    t = s.table
    for r in range(t):
        for c in range(t):
            cell = r * MAXT + c
            b = cell * CELL_FEATURES
            out[b + F_IN] = 1.0
            ty = s.cell_type[cell]
            if ty == T_EXIT:
                out[b + F_EXIT] = 1.0
                continue
            if ty == T_PILE:
                out[b + F_PILE] = 1.0
                continue
            card = s.cell_card[cell]
            if card < 0:
                out[b + F_EMPTY] = 1.0
                continue
            if s.cell_up[cell]:
                out[b + F_UP] = 1.0
                out[b + F_KIND + CARD_KIND[card]] = 1.0
                rot = s.cell_rot[cell]
                if rot >= 0:
                    for d in range(4):
                        out[b + F_OPEN + d] = (CARD_OPEN[card, rot] >> d) & 1
                        out[b + F_DOOR + d] = (CARD_DOORS[card, rot] >> d) & 1
                out[b + F_BEATEN] = s.cell_beaten[cell]
                out[b + F_GOLD] = s.cell_gold[cell]
            else:
                out[b + F_DOWN] = 1.0
                if s.known[seat, cell]:
                    out[b + F_KNOWN] = 1.0
                    out[b + F_KIND + CARD_KIND[card]] = 1.0
    if s.decision == D_ROTATE and s.pl_cell >= 0:
        out[s.pl_cell * CELL_FEATURES + F_PENDING] = 1.0
    elif (s.decision == D_PAY or s.decision == D_CHEST) and s.ch_cell >= 0:
        out[s.ch_cell * CELL_FEATURES + F_PENDING] = 1.0
    for p in range(s.num_players):
        out[s.pos[p] * CELL_FEATURES + F_CHAR + rel(s, p, seat)] = 1.0


@njit(cache=True)
def observe_seats(s, seat: int, out) -> None:
    for p in range(s.num_players):
        b = OBS_SEATS + rel(s, p, seat) * SEAT_FEATURES
        out[b] = 1.0
        out[b + 1] = s.treasure[p] / C.WIN_TREASURES
        out[b + 2] = s.hand_len[p] / MAX_HAND
        out[b + 3] = hand_limit(s, p) / MAX_HAND
        for i in range(3):
            out[b + 4 + i] = CHAR_ICONS[s.character[p], i] / 3.0
        out[b + 7] = s.racer[p]
        out[b + 8 + s.character[p]] = 1.0


@njit(cache=True)
def observe_global(s, seat: int, out) -> None:
    g = G_BASE
    if s.outcome == RUNNING:
        out[g + G_DECISION + s.decision] = 1.0
        out[g + G_DECIDER + rel(s, s.decider, seat)] = 1.0
    out[g + G_TURN] = s.actions_left / ACTIONS
    out[g + G_TURN + 1] = s.regular_done
    out[g + G_TURN + 2] = s.unlocked
    out[g + G_TURN + 3] = s.thief_used
    out[g + G_TURN + 4] = s.powers
    out[g + G_TURN + 5] = s.race
    out[g + G_TURN + 6] = min(s.race_turns, RACE_TURN_LIMIT) / RACE_TURN_LIMIT  # the count passes the cap at truncation
    out[g + G_PILES] = s.deck_len / NUM_CARDS
    out[g + G_PILES + 1] = s.discard_len / NUM_CARDS
    out[g + G_PILES + 2] = s.reserve / C.NUM_TREASURES
    out[g + G_PILES + 3] = s.cards_out
    # the discard pile lies face up: its cards of each kind, counted and then divided once,
    # so a whole kind is exactly 1 (a float32 sum of 1/KIND_COUNT reached 1.0000001, issue 32)
    discarded = np.zeros(KIND_COUNT.shape[0], dtype=np.int64)
    for i in range(s.discard_len):
        discarded[CARD_KIND[s.discard[i]]] += 1
    for kind in range(KIND_COUNT.shape[0]):
        out[g + G_DISCARD_KINDS + kind] = discarded[kind] / KIND_COUNT[kind]
    if s.discard_len > 0:
        out[g + G_DISCARD_TOP + CARD_KIND[s.discard[s.discard_len - 1]]] = 1.0
    dec = s.decision
    if s.outcome == RUNNING and dec in (D_PAY, D_CHEST):
        out[g + G_CHALLENGE + s.ch_icon] = 1.0
        out[g + G_CHALLENGE + 3] = s.ch_diff / 6.0 if dec == D_PAY else 0.0
        out[g + G_CHALLENGE + 4] = s.ch_need / 6.0 if dec == D_PAY else 0.0
        out[g + G_CHALLENGE + 5 + rel(s, s.ch_seat, seat)] = 1.0
    if s.mv_kind != MV_NONE:
        out[g + G_MOVEMENT + s.mv_kind - 1] = 1.0
        out[g + G_MOVEMENT + 2] = s.mv_steps / 6.0
        out[g + G_MOVEMENT + 3 + rel(s, s.mv_seat, seat)] = 1.0
    if dec == D_ROTATE:
        out[g + G_PLACING + s.pl_kind] = 1.0
    if dec == D_PUSH_TO or (dec == D_ROTATE and s.pl_kind == HOW_PUSH):
        out[g + G_PUSH_TARGET + rel(s, s.sel_target, seat)] = 1.0
    if dec == D_PLAY_CELL and seat == s.seat:
        out[g + G_SELECTED_SLOT + s.sel_slot] = 1.0
    for i in range(s.hand_len[seat]):
        out[g + G_HAND + i * NUM_KINDS + CARD_KIND[s.hand[seat, i]]] = 1.0


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """What ``seat`` may know, egocentric (relative seat 0 is ``seat``): the table (face-down
    cards only as "a card is here", unless this seat remembers it), the characters, treasures,
    hand sizes, the face-up discard pile, its own hand, and what is being resolved. Never the
    draw pile's order, the other hands, unseen cards or the RNG."""
    out[:] = 0.0
    observe_cells(s, seat, out)
    observe_seats(s, seat, out)
    observe_global(s, seat, out)
