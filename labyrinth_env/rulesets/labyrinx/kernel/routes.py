"""Labyrinx: what a character can count on, over what its player may know: the odds of a
challenge it can see, and the ways through the labyrinth. Shared by the heuristic (which
follows them) and ``progress`` (which counts them).

A face-down card is read only when the seat remembers it (never the expansion card,
which nobody sees, l.30); an unknown face-down card or an empty space counts as open.
"""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.grid import opposite
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinx import components as C

from .board import can_enter, door_sides, link, nb
from .tables import (
    CARD_KIND,
    CARD_OPEN,
    CHAR_ICONS,
    D_CHEST,
    D_PAY,
    D_ROTATE,
    HOW_MOVE,
    KIND_ICON,
    MAXT,
    NUM_CELLS,
    NUM_LINKS,
    T_EXIT,
    T_FREE,
)

MIN_ODDS = 3  # out of 6: attempt a challenge that succeeds at least half the time
EXPLORE_STRENGTH = 3  # icons + cards before walking into an unknown card


@njit(cache=True)
def odds(s, p: int, icon: int) -> int:
    """Die faces (of 6) on which character ``p`` beats a challenge of type ``icon``."""
    return min(6, CHAR_ICONS[s.character[p], icon] + s.hand_len[p])


@njit(cache=True)
def visible_kind(s, me: int, cell: int) -> int:
    """The card's kind if ``me`` may know it (face up, or remembered), else -1."""
    card = s.cell_card[cell]
    if card < 0 or s.cell_type[cell] != T_FREE:
        return -1
    if s.cell_up[cell] or s.known[me, cell]:
        return CARD_KIND[card]
    return -1


@njit(cache=True)
def challenge_value(s, me: int, cell: int) -> int:
    """Odds (of 6) of a visible challenge worth fighting at ``cell``; 0 if none."""
    kind = visible_kind(s, me, cell)
    if kind < 0:
        return 0
    icon = KIND_ICON[kind]
    if icon < 0 or (s.cell_up[cell] and s.cell_beaten[cell]):
        return 0
    if icon == C.CHEST and s.cell_gold[cell]:
        return odds(s, me, icon) + 1  # a treasure lying there, and nothing to lose
    return odds(s, me, icon)


RACE_FAR = 1 << 20  # no way to the exit space is known


@njit(cache=True)
def passable(s, me: int, cell: int, e: int, x: int) -> bool:
    """Can a racer that comes into ``cell`` through its side ``e`` go on through side ``x``,
    as far as ``me`` may know: a face-up card by its open sides; a face-down card it
    remembers by the ways its shape can be turned (it is turned on entering); an unknown
    face-down card or an empty space (a card may be played there), optimistically, yes."""
    card = s.cell_card[cell]
    if card < 0 or (s.cell_up[cell] and s.cell_rot[cell] < 0):
        return True
    if s.cell_up[cell]:
        m = CARD_OPEN[card, s.cell_rot[cell]]
        return (m >> e) & 1 != 0 and (m >> x) & 1 != 0
    if not s.known[me, cell]:
        return True
    for r in range(4):
        m = CARD_OPEN[card, r]
        if (m >> e) & 1 and (m >> x) & 1:
            return True
    return False


@njit(cache=True)
def enter_cost(s, cell: int) -> int:
    """Actions to come into ``cell``: a move, and before it a card played on an empty space."""
    return 2 if s.cell_type[cell] == T_FREE and s.cell_card[cell] < 0 else 1


@njit(cache=True)
def race_distance(s, me: int, dist) -> None:
    """``dist[cell * 4 + e]``: actions to the exit space for a racer coming into ``cell``
    through its side ``e`` (doors are open in the race), by Dijkstra from the exit space over
    what ``me`` may know (``passable``)."""
    dist[:] = RACE_FAR
    done = np.zeros(NUM_CELLS * 4, dtype=np.uint8)
    for i in range(C.HALL_EXIT_WIDTH):
        for e in range(4):
            dist[(s.exit0 + i) * 4 + e] = 0
    t = s.table
    while True:
        node = -1
        best = RACE_FAR
        for r in range(t):
            for c in range(t):
                x0 = (r * MAXT + c) * 4
                for e in range(4):
                    if not done[x0 + e] and dist[x0 + e] < best:
                        node, best = x0 + e, dist[x0 + e]
        if node < 0:
            return
        done[node] = 1
        v, ev = node // 4, node % 4
        step = enter_cost(s, v)
        # a racer in u next to v goes through u's side x = opposite(ev) into v
        u = nb(s, v, ev)
        x = (ev + 2) % 4
        if s.cell_type[u] != T_FREE:
            continue  # the exit space's own cells (already 0) and the pile spaces
        for e in range(4):
            if e != x and not done[u * 4 + e] and best + step < dist[u * 4 + e] and passable(s, me, u, e, x):
                dist[u * 4 + e] = best + step


@njit(cache=True)
def way_on(s, dist, cell: int, x: int) -> int:
    """Actions to the exit space going out of ``cell`` through its side ``x``."""
    u = nb(s, cell, x)
    if s.cell_type[u] == T_EXIT:
        return 1
    if s.cell_type[u] != T_FREE:
        return RACE_FAR
    return enter_cost(s, u) + dist[u * 4 + (x + 2) % 4]


@njit(cache=True)
def worth_entering(s, me: int, cell: int) -> bool:
    """A card ``me`` would walk into for a treasure: a visible challenge it beats at least
    half the time or a chest's treasure (``challenge_value``), or, with icons and cards
    enough, a face-down card it does not know (any card may hold a challenge)."""
    if challenge_value(s, me, cell) >= MIN_ODDS:
        return True
    if s.cell_type[cell] != T_FREE or s.cell_card[cell] < 0 or s.cell_up[cell] or s.known[me, cell]:
        return False
    return s.hand_len[me] + CHAR_ICONS[s.character[me]].max() >= EXPLORE_STRENGTH


@njit(cache=True)
def walk_on(s, cell: int) -> bool:
    """A character coming into ``cell`` can walk on from it: the exit space, or a face-up
    card whose challenge (if any) is beaten; a face-down card is turned and a challenge
    attempted first."""
    if s.cell_type[cell] == T_EXIT:
        return True
    if not s.cell_up[cell] or s.cell_rot[cell] < 0:
        return False
    return KIND_ICON[CARD_KIND[s.cell_card[cell]]] < 0 or s.cell_beaten[cell] != 0


@njit(cache=True)
def arriving(s, me: int) -> bool:
    """``me`` is entering a card it walked into: the card is being turned to connect, or its
    challenge is being attempted (so it stands where its way led)."""
    if s.decision == D_ROTATE:
        return s.pl_seat == me and s.pl_kind == HOW_MOVE
    return (s.decision == D_PAY or s.decision == D_CHEST) and s.ch_seat == me


@njit(cache=True)
def treasure_distance(s, me: int) -> int:
    """Actions (a move each, a door one more) from ``me``'s location to the nearest card
    ``worth_entering``, along ways it may walk (``walk_on``); RACE_FAR when none. Dijkstra
    over the locations; 0 while ``arriving``."""
    if arriving(s, me):
        return 0
    dist = np.full(NUM_CELLS, RACE_FAR, dtype=np.int64)
    done = np.zeros(NUM_CELLS, dtype=np.uint8)
    dist[s.pos[me]] = 0
    while True:
        loc, best = -1, RACE_FAR
        for c in range(NUM_CELLS):
            if not done[c] and dist[c] < best:
                loc, best = c, dist[c]
        if loc < 0:
            return RACE_FAR
        done[loc] = 1
        if loc != s.pos[me] and worth_entering(s, me, loc):
            return best
        if loc != s.pos[me] and not walk_on(s, loc):
            continue
        for k in range(NUM_LINKS):
            origin, d, t = link(s, loc, k)
            if t < 0 or not can_enter(s, t, d, False):
                continue
            door = ((door_sides(s, origin) >> d) & 1) | ((door_sides(s, t) >> opposite(d, 4)) & 1)
            u = s.exit0 if s.cell_type[t] == T_EXIT else t
            if best + 1 + door < dist[u]:
                dist[u] = best + 1 + door


@njit(cache=True)
def exit_distance(s, me: int) -> int:
    """Actions from ``me``'s location to moving into the exit space (``race_distance``); from
    the exit space itself, out and back in: 2; while ``arriving`` on a card being turned,
    from that card, by whichever side the turn may open."""
    dist = np.empty(NUM_CELLS * 4, dtype=np.int64)
    best = RACE_FAR
    if s.decision == D_ROTATE and arriving(s, me):
        race_distance(s, me, dist)
        for x in range(4):
            best = min(best, way_on(s, dist, s.pl_cell, x))
        return best
    if s.pos[me] == s.exit0:
        return 2
    race_distance(s, me, dist)
    for k in range(NUM_LINKS):
        origin, d, t = link(s, s.pos[me], k)
        if t >= 0:
            best = min(best, way_on(s, dist, origin, d))
    return best
