"""A rule-based Labyrinx player as numba functions over the state.

``heuristic_action(s, mask)`` picks the action of ``s.decider`` for whatever decision is
pending. It never changes ``s`` and can run inside batched kernel loops.

The plan. A challenge is worth attempting when the character's icons plus the cards in hand
reach the die often enough (``min(6, icons + hand) / 6``). In its action phase the player:

1. in the race back to the Empty Hall, steps to the neighbour nearest the exit space
   (face-down cards count as passable);
2. moves into a visible challenge (face up, or face down and remembered) it beats at least
   half the time, or onto a chest's treasure;
3. peeks at an adjacent face-down card it does not know while it has two actions left;
4. walks into a face-down card that is known to be plain, or unknown when its hand is
   strong enough (icons plus cards at least 3);
5. draws while below its hand limit; when it cannot move at all, rests (or despairs with a
   full hand) at the start of its turn; otherwise ends the turn.

The expanding card goes next to its own character on an open side; a card it flips or
places is turned to open as many ways into the unknown as possible (a card it turns for a
rival, as few); it discards the cards with the fewest open sides; it never moves a rival
after a failed monster or trap (stop), and takes the most open card when despairing.

Hidden information is never read: a face-down card's identity only when this seat
remembers it, the other hands only by their size, the pile order and the RNG never.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinx import components as C
from labyrinth_env.rulesets.labyrinx import kernel as K

STATE_DTYPE = K.STATE_DTYPE
MIN_ODDS = 3  # out of 6: attempt a challenge that succeeds at least half the time
EXPLORE_STRENGTH = 3  # icons + cards before walking into an unknown card


@njit(cache=True)
def odds(s, p: int, icon: int) -> int:
    """Die faces (of 6) on which character ``p`` beats a challenge of type ``icon``."""
    return min(6, K.CHAR_ICONS[s.character[p], icon] + s.hand_len[p])


@njit(cache=True)
def visible_kind(s, me: int, cell: int) -> int:
    """The card's kind if ``me`` may know it (face up, or remembered), else -1."""
    card = s.cell_card[cell]
    if card < 0 or s.cell_type[cell] != K.T_FREE:
        return -1
    if s.cell_up[cell] or s.known[me, cell]:
        return K.CARD_KIND[card]
    return -1


@njit(cache=True)
def challenge_value(s, me: int, cell: int) -> int:
    """Odds (of 6) of a visible challenge worth fighting at ``cell``; 0 if none."""
    kind = visible_kind(s, me, cell)
    if kind < 0:
        return 0
    icon = K.KIND_ICON[kind]
    if icon < 0 or (s.cell_up[cell] and s.cell_beaten[cell]):
        return 0
    if icon == C.CHEST and s.cell_gold[cell]:
        return odds(s, me, icon) + 1  # a treasure lying there, and nothing to lose
    return odds(s, me, icon)


@njit(cache=True)
def exit_distance(s, dist) -> None:
    """Steps from every space to the exit space over face-up connections and face-down cards."""
    dist[:] = 1 << 20
    queue = np.empty(K.NUM_CELLS, dtype=np.int64)
    head = 0
    tail = 0
    for i in range(C.HALL_EXIT_WIDTH):
        dist[s.exit0 + i] = 0
    dist[s.exit0] = 0
    queue[tail] = s.exit0
    tail += 1
    while head < tail:
        loc = queue[head]
        head += 1
        if s.cell_type[loc] == K.T_FREE and not s.cell_up[loc]:
            continue  # a face-down card: reached, but its sides are unknown
        for k in range(K.NUM_LINKS):
            _, d, t = K.link(s, loc, k)
            if t < 0 or dist[t] <= dist[loc] + 1 or not K.can_enter(s, t, d, False):
                continue
            dist[t] = dist[loc] + 1
            queue[tail] = t
            tail += 1


@njit(cache=True)
def race_action(s, mask) -> int:
    me = s.seat
    dist = np.empty(K.NUM_CELLS, dtype=np.int64)
    # distances from the exit outward are symmetric for face-up links; face-down cards end a path
    exit_distance(s, dist)
    here = dist[s.pos[me]]
    best = -1
    best_d = here
    for t in range(K.NUM_CELLS):
        if mask[K.A_MOVE + t] and dist[t] < best_d:
            best, best_d = K.A_MOVE + t, dist[t]
    if best >= 0:
        return best
    for t in range(K.NUM_CELLS):
        if mask[K.A_MOVE + t] and s.cell_type[t] == K.T_FREE and not s.cell_up[t]:
            return K.A_MOVE + t  # explore: a face-down card may open a way
    return K.A_END


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
    if best >= 0:
        return best
    if peek >= 0 and s.actions_left >= 2:
        return peek
    if explore >= 0:
        return explore
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
    elif dec == K.D_MONSTER or dec == K.D_TRAP:
        a = K.A_STOP
    elif dec == K.D_CHEST:
        a = K.A_ATTEMPT if odds(s, s.decider, C.CHEST) >= MIN_ODDS else K.A_DECLINE
    elif dec == K.D_TAKE:
        a = take_action(s, mask)
    if a < 0 or not mask[a]:  # the rest (where to play or push, the Seer) and a safety net
        for b in range(K.NUM_ACTIONS):
            if mask[b]:
                return b
    return a
