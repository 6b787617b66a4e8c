"""What a seat may know (layout: ``tables``): the board, the keys, the Guard and the
players egocentrically, pile sizes and the Guard cards not yet used (by kind), the drawn
field while it is placed, the throw and the encounter being resolved."""

from __future__ import annotations

from labyrinth_env.core import hexboard, kernel_common, pod
from labyrinth_env.core.characters import taken
from labyrinth_env.core.contract import RUNNING
from labyrinth_env.core.hexboard import at_start
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

from .queries import pickable_key
from .seating import best_first
from .skills import tokens_out
from .tables import (
    C_CHECK,
    C_COVERED,
    C_DECISION,
    C_DRAFT,
    C_EXTRA,
    C_ILLUSION,
    C_ONCE,
    C_SLAVE,
    C_SUPPLY,
    C_TRAPS2,
    C_WHICH_TRAP,
    CENTER_CELL,
    CHAR_SEAT_FEATURES,
    CK_FIGHT,
    CK_FIRST,
    CK_NONE,
    CK_SHOT,
    CK_TRAP,
    D_CHARACTER,
    D_FACE_DOWN,
    D_PLACE,
    D_RITE,
    D_UNCOVER,
    D_WHICH_TRAP,
    F_CHAR,
    F_GUARD,
    F_KEY,
    F_KEY_MINE,
    F_TRAP_FAILED,
    G_CHECK,
    G_CK_SEATS,
    G_DECIDER,
    G_DECISION,
    G_DRAWN,
    G_ENCOUNTER,
    G_GUARD_CARDS,
    G_PILES,
    G_ROUND,
    G_STARTS,
    GUARD_CLASS,
    LIFE,
    NODE_FEATURES,
    NUM_BOARD,
    NUM_BOARD_NODES,
    NUM_CHARACTERS,
    NUM_GUARD_CARDS,
    NUM_KEYS,
    NUM_NODES,
    NUM_SEATS,
    NUM_STARTS,
    OBS_CHARS,
    OBS_CHECKS,
    OBS_DECISIONS,
    OBS_GLOBAL,
    OBS_SEATS,
    S_FIGHT_LOST,
    S_LEFT_START,
    S_TRAP_FELL,
    SEAT_FEATURES,
    TRAP2_FEATURES,
    TRAP_TOKENS,
)


@njit(cache=True)
def rel_bits(out, base: int, mask: int, seat: int, n: int) -> None:
    for p in range(n):
        if (mask >> p) & 1:
            out[base + (p - seat) % n] = 1.0


@njit(cache=True)
def observe_nodes(s, seat: int, out) -> None:
    hexboard.observe_corridors(s, out, NODE_FEATURES, CENTER_CELL, TRAP_TOKENS)
    for node in range(NUM_NODES):
        if s.node_mask[node] != 0 and s.node_trap[node] >= 0 and s.trap_up[node]:
            out[node * NODE_FEATURES + F_TRAP_FAILED] = s.trap_failed[node]
    for k in range(NUM_KEYS):
        node = s.key_node[k]
        if node >= 0:
            out[node * NODE_FEATURES + F_KEY + k] = 1.0
            if pickable_key(s, seat, k):
                out[node * NODE_FEATURES + F_KEY_MINE] = 1.0
    out[s.guard_node * NODE_FEATURES + F_GUARD] = 1.0
    out[s.guard_node * NODE_FEATURES + F_GUARD + 1] = s.guard_asleep


@njit(cache=True)
def observe_seats(s, seat: int, out) -> None:
    n = s.num_players
    for p in range(n):
        rel = (p - seat) % n
        b = OBS_SEATS + rel * SEAT_FEATURES
        kernel_common.observe_character(s, p, out, b, LIFE)
        if s.position[p] >= 0:
            out[s.position[p] * NODE_FEATURES + F_CHAR + rel] = 1.0
            out[b + 6] = 1.0 if at_start(s, p) else 0.0
            out[b + 8 + s.seat_start[p]] = 1.0
        out[b + 7] = 1.0 if s.ex_active and (s.ex_bonus >> p) & 1 else 0.0
        # what it met in its corridor (public: everyone saw the fight, the trap, the move)
        out[b + S_FIGHT_LOST] = (s.fight_lost >> p) & 1
        out[b + S_TRAP_FELL] = (s.trap_fell >> p) & 1
        out[b + S_LEFT_START] = (s.left_start >> p) & 1


@njit(cache=True)
def observe_global(s, seat: int, out) -> None:
    n = s.num_players
    g = OBS_GLOBAL
    if s.outcome == RUNNING:
        if s.decision < OBS_DECISIONS:  # choosing a character: in the character block
            out[g + G_DECISION + s.decision] = 1.0
        out[g + G_DECIDER + (s.decider - seat) % n] = 1.0
    out[g + G_ROUND] = min(s.actions_left, C.ACTIONS_PER_TURN) / C.ACTIONS_PER_TURN  # more: character block
    out[g + G_ROUND + 1] = s.guard_used
    if s.drawn_tile >= 0:
        out[g + G_DRAWN + s.drawn_tile] = 1.0
    pod.observe_piles(s, out, g + G_PILES)
    out[g + G_PILES + 2] = (NUM_GUARD_CARDS - s.guard_pos) / NUM_GUARD_CARDS
    for i in range(s.guard_pos, NUM_GUARD_CARDS):  # the used cards were shown: the rest is known
        out[g + G_GUARD_CARDS + GUARD_CLASS[s.guard_deck[i]]] += 1.0 / 3.0
    kind = s.ck_kind
    if kind < OBS_CHECKS:  # a skill's throw is in the character block
        out[g + G_CHECK + kind] = 1.0
    if kind != CK_NONE and kind < OBS_CHECKS:
        c = g + G_CHECK + OBS_CHECKS
        out[c] = kernel_common.check_total_feature(s.ck_a)
        if kind == CK_FIRST:  # the throws are public: one's own, and the best still throwing
            out[c] = kernel_common.check_total_feature(s.first_roll[seat])
            out[c + 1] = kernel_common.check_total_feature(best_first(s))
            rel_bits(out, g + G_CK_SEATS, s.first_tied, seat, n)
        elif kind == CK_FIGHT:
            out[c + 1] = kernel_common.check_total_feature(s.ck_b)
            rel_bits(out, g + G_CK_SEATS, s.ck_att, seat, n)
            rel_bits(out, g + G_CK_SEATS + NUM_SEATS, 1 << s.ck_def, seat, n)
        else:
            rel_bits(out, g + G_CK_SEATS + NUM_SEATS, 1 << s.ck_seat, seat, n)
        if kind == CK_TRAP:
            out[c + 2] = s.ck_diff / 12.0
            out[c + 3 + s.ck_mode] = 1.0
    if s.ex_active:
        e = g + G_ENCOUNTER
        rel_bits(out, e, 1 << s.ex_seat, seat, n)
        if s.ex_target >= 0:
            rel_bits(out, e + NUM_SEATS, 1 << s.ex_target, seat, n)
        rel_bits(out, e + 2 * NUM_SEATS, s.ex_join, seat, n)
        rel_bits(out, e + 3 * NUM_SEATS, s.ex_vs, seat, n)
        rel_bits(out, e + 4 * NUM_SEATS, s.ex_declared, seat, n)
    for p in range(n):
        if s.seat_start[p] >= 0:
            out[g + G_STARTS + s.seat_start[p]] = 1.0
    if s.first_player >= 0:
        out[g + G_STARTS + NUM_STARTS + (s.first_player - seat) % n] = 1.0


@njit(cache=True)
def observe_characters(s, seat: int, out) -> None:
    """The character block (only with characters; public, l.131): per relative seat its card
    and the tokens on it, the cards still free in the draft, the draft's decision, a skill's
    throw (the thrower is in the throw block's seats), the tokens left in the supplies."""
    n = s.num_players
    b = OBS_CHARS
    for p in range(n):
        r = b + ((p - seat) % n) * CHAR_SEAT_FEATURES
        if s.character[p] >= 0:
            out[r + s.character[p]] = 1.0
        out[r + NUM_CHARACTERS] = s.adrenaline[p] / C.ADRENALINE_TOKENS
        out[r + NUM_CHARACTERS + 1] = s.blessing[p] / C.BLESSING_TOKENS
        out[r + NUM_CHARACTERS + 2] = s.curse[p] / C.CURSE_TOKENS
    held = taken(s.character, n)
    for c in range(NUM_CHARACTERS):
        out[b + C_DRAFT + c] = 0.0 if (held >> c) & 1 else 1.0
    if s.outcome == RUNNING and OBS_DECISIONS <= s.decision <= D_RITE:
        out[b + C_DECISION + s.decision - D_CHARACTER] = 1.0
    elif s.outcome == RUNNING and s.decision == D_WHICH_TRAP:
        out[b + C_WHICH_TRAP] = 1.0
    observe_illusion(s, out)
    if s.ck_kind >= CK_SHOT:
        out[b + C_CHECK + s.ck_kind - CK_SHOT] = 1.0
        out[OBS_GLOBAL + G_CK_SEATS + NUM_SEATS + (s.ck_seat - seat) % n] = 1.0
        out[OBS_GLOBAL + G_CHECK + OBS_CHECKS] = kernel_common.check_total_feature(s.ck_a)
    out[b + C_SUPPLY] = 1.0 - tokens_out(s.adrenaline, n) / C.ADRENALINE_TOKENS
    out[b + C_SUPPLY + 1] = 1.0 - tokens_out(s.blessing, n) / C.BLESSING_TOKENS
    out[b + C_SUPPLY + 2] = 1.0 - tokens_out(s.curse, n) / C.CURSE_TOKENS
    out[b + C_EXTRA] = 1.0 if s.actions_left > C.ACTIONS_PER_TURN else 0.0
    if s.slave >= 0:  # who is transformed into the Guard now (Enslavement: public, l.131)
        out[b + C_SLAVE + (s.slave - seat) % n] = 1.0
    if s.decision == D_PLACE:
        out[b + C_ONCE] = s.foundation_used
    out[b + C_ONCE + 1] = s.tracking_used
    for node in range(NUM_BOARD_NODES):  # the Head Hunter's second traps: face down, or which
        t = s.node_trap2[node]
        if t >= 0:
            f = b + C_TRAPS2 + node * TRAP2_FEATURES
            if s.trap2_up[node]:
                out[f + 1 + TRAP_TOKENS[t]] = 1.0
                out[f + 1 + C.NUM_TRAP_TYPES] = s.trap2_failed[node]
            else:
                out[f] = 1.0


@njit(cache=True)
def observe_illusion(s, out) -> None:
    """The Illusionist's face-down fields: where they lie, never which field (nobody has seen
    one); the decisions of building one and turning one face up; the field being turned face
    up is public from then on, shown where the drawn field is."""
    b = OBS_CHARS
    if s.outcome == RUNNING and (s.decision == D_FACE_DOWN or s.decision == D_UNCOVER):
        out[b + C_ILLUSION + s.decision - D_FACE_DOWN] = 1.0
    for cell in range(NUM_BOARD):
        if s.fd_owner[cell] >= 0:
            out[b + C_COVERED + cell] = 1.0
    if s.rv_cell >= 0:
        out[OBS_GLOBAL + G_DRAWN + s.fd_tile[s.rv_cell]] = 1.0


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    """What ``seat`` may know, egocentric (relative seat 0 is ``seat``): the board, face-down
    traps only as "a trap is here", pile sizes and the Guard cards not yet used (the used
    ones were shown) but never an order, the drawn field while it is placed, the throw and
    the encounter being resolved."""
    out[:] = 0.0
    observe_nodes(s, seat, out)
    observe_seats(s, seat, out)
    observe_global(s, seat, out)
    if s.char_mode != 0:
        observe_characters(s, seat, out)
