"""A rule-based Labyrinx player as numba functions over the state.

``heuristic_action(s, mask)`` picks the action of ``s.decider`` for whatever decision is
pending. It never changes ``s`` and can run inside batched kernel loops.

The plan. A challenge is worth attempting when the character's icons plus the cards in hand
reach the die often enough (``min(6, icons + hand) / 6``). In its action phase the player:

1. in the race back to the Empty Hall (``race_action``): a racer standing in the exit space
   steps out to move back in (only moving there wins, l.58); the others follow the shortest
   way to the exit space over what they may count on (face-up cards as they lie, face-down
   cards and empty spaces as open), playing a card of the hand on an empty space where that
   is the better way (drawing one first if the hand is empty), despairing to turn the card
   it stands on when nothing else helps;
2. with the powers on, steals with the Thief's power whenever it can;
3. moves into a visible challenge (face up, or face down and remembered) it beats at least
   half the time, or onto a chest's treasure;
4. peeks at an adjacent face-down card it does not know while it has two actions left;
5. walks into a face-down card that is known to be plain, or unknown when its hand is
   strong enough (icons plus cards at least 3);
6. draws two with the Forager's power, or one, while below its hand limit; when it cannot
   move at all, rests (or despairs with a full hand) at the start of its turn; otherwise
   ends the turn.

The expanding card goes next to its own character on an open side; a card it flips or
places is turned to open as many ways into the unknown as possible (in the race: towards
the exit space; a card it turns for a rival, as few); it discards the cards with the fewest
open sides; after a rival's failed monster it begins the movement only to walk the rival
straight into a monster or trap it can see (face up, or remembered face down) that the
rival probably fails (costing it a treasure), and
otherwise declines the whole movement (and a trap's); it takes the most open card when
despairing.

Hidden information is never read: a face-down card's identity only when this seat
remembers it (never the expansion card, which nobody sees, l.30), the other hands only by
their size, the pile order and the RNG never.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinx import components as C
from labyrinth_env.rulesets.labyrinx import kernel as K
from labyrinth_env.rulesets.labyrinx.kernel.routes import (
    EXPLORE_STRENGTH,
    MIN_ODDS,
    RACE_FAR,
    challenge_value,
    odds,
    race_distance,
    visible_kind,
    way_on,
)

STATE_DTYPE = K.STATE_DTYPE


@njit(cache=True)
def race_empty_target(s, dist) -> int:
    """The empty space next to the racer's location (on an open side) with the shortest way
    on to the exit space, where a card of its hand would open the way; -1 if none."""
    me = s.seat
    best, best_v = -1, RACE_FAR
    for k in range(K.NUM_LINKS):
        _, d, t = K.link(s, s.pos[me], k)
        if t >= 0 and s.cell_type[t] == K.T_FREE and s.cell_card[t] < 0:
            v = 2 + dist[t * 4 + (d + 2) % 4]
            if v < best_v:
                best, best_v = t, v
    return best


@njit(cache=True)
def most_open_slot(s, me: int) -> int:
    best, best_v = -1, -1
    for i in range(s.hand_len[me]):
        m = K.CARD_OPEN[s.hand[me, i], 0]
        v = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
        if v > best_v:
            best, best_v = i, v
    return best


@njit(cache=True)
def race_action(s, mask) -> int:
    """The race: "The first one to move to the exit space" (l.58) wins, so a racer standing
    in it steps out to move back in; the others follow the shortest way to the exit space
    they may count on (``race_distance``), playing a card of the hand where an empty space
    is the better way (drawing one if the hand is empty), or despairing to turn the card
    they stand on when nothing else helps."""
    me = s.seat
    dist = np.empty(K.NUM_CELLS * 4, dtype=np.int64)
    race_distance(s, me, dist)
    best, best_v = -1, RACE_FAR
    for k in range(K.NUM_LINKS):
        origin, d, t = K.link(s, s.pos[me], k)
        if t < 0 or not mask[K.A_MOVE + t]:
            continue
        if s.pos[me] == s.exit0:  # out, to come back in: a face-up card first (no surprise)
            v = 1 if s.cell_up[t] else 2
        else:
            v = way_on(s, dist, origin, d)
        if v < best_v:
            best, best_v = K.A_MOVE + t, v
    empty = race_empty_target(s, dist)
    if empty >= 0:
        od = K.find_link(s, s.pos[me], empty)
        via_empty = way_on(s, dist, od // 4, od % 4)
        if best < 0 or (s.pos[me] != s.exit0 and via_empty < best_v):
            if s.hand_len[me] > 0 and mask[K.A_PLAY]:
                return K.A_PLAY + most_open_slot(s, me)
            if mask[K.A_DRAW]:
                return K.A_DRAW
    if best >= 0:
        return best
    if mask[K.A_DESPAIR]:
        return K.A_DESPAIR
    if mask[K.A_DRAW] and s.hand_len[me] < K.hand_limit(s, me):
        return K.A_DRAW
    return K.A_END


@njit(cache=True)
def race_rotation_value(s, dist, cell: int, sides: int, back: int) -> int:
    """How good ``sides`` are for the deciding racer's card at ``cell``: open towards ``back``
    (the racer's location, to come in; -1: no need), then the shortest way on to the exit
    (``dist``: ``race_distance``)."""
    on = RACE_FAR
    connected = back < 0
    for x in range(4):
        if (sides >> x) & 1:
            if back >= 0 and K.loc_of(s, K.nb(s, cell, x)) == back:
                connected = True
            on = min(on, way_on(s, dist, cell, x))
    return (RACE_FAR if connected else 0) - on


@njit(cache=True)
def main_action(s, mask) -> int:
    me = s.seat
    if s.race:
        return race_action(s, mask)
    strength = s.hand_len[me] + K.CHAR_ICONS[s.character[me]].max()
    best, best_v = -1, MIN_ODDS - 1
    explore = -1
    peek = -1
    moves = 0
    for t in range(K.NUM_CELLS):
        if mask[K.A_MOVE + t]:
            moves += 1
            v = challenge_value(s, me, t)
            if v > best_v:
                best, best_v = K.A_MOVE + t, v
            if s.cell_type[t] == K.T_FREE and not s.cell_up[t]:
                kind = visible_kind(s, me, t)
                if (kind >= 0 and K.KIND_ICON[kind] < 0) or (kind < 0 and strength >= EXPLORE_STRENGTH and explore < 0):
                    explore = K.A_MOVE + t
        if mask[K.A_PEEK + t] and not s.known[me, t]:
            peek = K.A_PEEK + t
    power = K.CHAR_POWER[s.character[me]]
    if mask[K.A_POWER] and power == C.POW_THIEF:  # a treasure from a rival: two in the tally
        return K.A_POWER
    if best >= 0:
        return best
    if peek >= 0 and s.actions_left >= 2:
        return peek
    if explore >= 0:
        return explore
    if mask[K.A_POWER] and power == C.POW_FORAGER and s.hand_len[me] + 2 <= K.hand_limit(s, me):
        return K.A_POWER  # two cards for one action
    if mask[K.A_DRAW] and s.hand_len[me] < K.hand_limit(s, me):
        return K.A_DRAW
    if moves == 0 and not s.regular_done:
        if mask[K.A_REST + K.REST_DRAWS - 1] and s.hand_len[me] < K.hand_limit(s, me):
            return K.A_REST + K.REST_DRAWS - 1
        if mask[K.A_DESPAIR]:
            return K.A_DESPAIR
    return K.A_END


@njit(cache=True)
def unknown_ways(s, cell: int, sides: int) -> int:
    """Sides of ``sides`` that face a face-down card or an empty space."""
    n = 0
    for d in range(4):
        if (sides >> d) & 1:
            t = K.nb(s, cell, d)
            if s.cell_type[t] == K.T_FREE and (s.cell_card[t] < 0 or not s.cell_up[t]):
                n += 1
    return n


@njit(cache=True)
def rotate_action(s, mask) -> int:
    cell = s.pl_cell
    card = s.cell_card[cell]
    friendly = s.pl_seat == s.decider or s.pl_kind == K.HOW_PLAY or s.pl_kind == K.HOW_DESPAIR
    if s.race and friendly:
        back = s.pos[s.decider] if s.pl_kind == K.HOW_PLAY else -1  # a card played to walk onto
        dist = np.empty(K.NUM_CELLS * 4, dtype=np.int64)
        race_distance(s, s.decider, dist)
        best, best_v = -1, -(1 << 30)
        for r in range(4):
            if mask[K.A_ROT + r]:
                v = race_rotation_value(s, dist, cell, K.CARD_OPEN[card, r], back)
                if v > best_v:
                    best, best_v = K.A_ROT + r, v
        return best
    best, best_v = -1, -1
    for r in range(4):
        if not mask[K.A_ROT + r]:
            continue
        v = unknown_ways(s, cell, K.CARD_OPEN[card, r])
        if not friendly:
            v = 4 - v
        if v > best_v:
            best, best_v = K.A_ROT + r, v
    return best


@njit(cache=True)
def expand_action(s, mask) -> int:
    me = s.decider
    loc = s.pos[me]
    for k in range(K.NUM_LINKS):
        _, _d, t = K.link(s, loc, k)
        if t >= 0 and mask[K.A_CELL + t]:
            return K.A_CELL + t
    return -1


@njit(cache=True)
def discard_action(s, mask) -> int:
    me = s.decider
    best, best_v = -1, 99
    for i in range(s.hand_len[me]):
        kind = K.CARD_KIND[s.hand[me, i]]
        v = K.CARD_OPEN[s.hand[me, i], 0]
        v = (v & 1) + ((v >> 1) & 1) + ((v >> 2) & 1) + ((v >> 3) & 1)
        if K.KIND_ICON[kind] >= 0:
            v -= 1  # a challenge card is worth less for the despair and play actions
        if mask[K.A_SLOT + i] and v < best_v:
            best, best_v = K.A_SLOT + i, v
    return best


@njit(cache=True)
def take_action(s, mask) -> int:
    best, best_v = -1, -1
    for kind in range(K.NUM_KINDS):
        if mask[K.A_TAKE + kind]:
            m = C.KIND_OPEN[kind]
            v = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
            if v > best_v:
                best, best_v = K.A_TAKE + kind, v
    return best


@njit(cache=True)
def monster_action(s, mask) -> int:
    """Moving a rival who failed a monster: the whole difficulty or not at all (l.49). Worth
    it only to walk it straight into a monster or trap the mover can see (face up and
    undefeated, or face down and remembered) that the rival probably fails (two faces of six
    or fewer), which costs it a treasure and interrupts the movement; otherwise the movement
    is declined."""
    loser = s.mv_seat
    me = s.decider
    if s.mv_begun or loser == me or s.treasure[loser] == 0:
        return K.A_STOP
    for t in range(K.NUM_CELLS):
        if not mask[K.A_CELL + t]:
            continue
        kind = visible_kind(s, me, t)
        if kind < 0 or (s.cell_up[t] and s.cell_beaten[t]):
            continue
        icon = K.KIND_ICON[kind]
        if (icon == C.MONSTER or icon == C.TRAP) and odds(s, loser, icon) <= 2:
            return K.A_CELL + t
    return K.A_STOP


@njit(cache=True)
def heuristic_action(s, mask) -> int:
    """The heuristic's action for the pending decision of ``s`` (made by ``s.decider``), or
    -1 once the game is over. ``mask`` is overwritten with the legal mask; ``s`` is not
    changed."""
    if s.outcome != K.RUNNING:
        return -1
    K.legal_mask(s, mask)
    dec = s.decision
    a = -1
    if dec == K.D_MAIN:
        a = main_action(s, mask)
    elif dec == K.D_EXPAND:
        a = expand_action(s, mask)
    elif dec == K.D_ROTATE:
        a = rotate_action(s, mask)
    elif dec == K.D_DISCARD or dec == K.D_PAY:
        a = discard_action(s, mask)
    elif dec == K.D_MONSTER:
        a = monster_action(s, mask)
    elif dec == K.D_TRAP:
        a = K.A_STOP
    elif dec == K.D_CHEST:
        a = K.A_ATTEMPT if odds(s, s.decider, C.CHEST) >= MIN_ODDS else K.A_DECLINE
    elif dec == K.D_TAKE:
        a = take_action(s, mask)
    elif dec == K.D_PLAY_CELL and s.race:
        dist = np.empty(K.NUM_CELLS * 4, dtype=np.int64)
        race_distance(s, s.decider, dist)
        t = race_empty_target(s, dist)
        a = K.A_CELL + t if t >= 0 else -1
    if a < 0 or not mask[a]:  # the rest (where to play or push, the Seer) and a safety net
        for b in range(K.NUM_ACTIONS):
            if mask[b]:
                return b
    return a
