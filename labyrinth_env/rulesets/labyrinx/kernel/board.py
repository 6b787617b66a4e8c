"""Small queries over the record that every decision family asks: the characters' powers
and hand limits, the seat on the left, and the table's geometry (the space beyond a
side, a location's ways out, whether a character can go through, where a card can go)."""

from __future__ import annotations

from labyrinth_env.core.grid import opposite
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinx import components as C

from .tables import (
    ALL_SIDES,
    CARD_DOORS,
    CARD_KIND,
    CARD_OPEN,
    HAND_LIMIT,
    KIND_ICON,
    MIN_TABLE,
    NEIGHBORS,
    NUM_LINKS,
    T_EXIT,
    T_FREE,
    T_PILE,
)


@njit(cache=True)
def hand_limit(s, p: int) -> int:
    """The hand limit, "typically 4 cards" (l.22): no power changes it (every power is an action, l.38)."""
    return HAND_LIMIT


@njit(cache=True)
def left_of(s, p: int) -> int:
    return (p + 1) % s.num_players


@njit(cache=True)
def nb(s, cell: int, d: int) -> int:
    """The space beyond side ``d`` of ``cell``; the sides of the table wrap around."""
    return int(NEIGHBORS[s.table - MIN_TABLE, cell, d])


@njit(cache=True)
def loc_of(s, cell: int) -> int:
    """The location a cell belongs to (the exit space's three cells are one)."""
    return s.exit0 if s.cell_type[cell] == T_EXIT else cell


@njit(cache=True)
def open_sides(s, cell: int) -> int:
    """Open sides of a location a character can stand on (a face-up card, the exit space)."""
    if s.cell_type[cell] == T_EXIT:
        return ALL_SIDES
    card = s.cell_card[cell]
    if card < 0 or not s.cell_up[cell] or s.cell_rot[cell] < 0:
        return 0
    return CARD_OPEN[card, s.cell_rot[cell]]


@njit(cache=True)
def door_sides(s, cell: int) -> int:
    card = s.cell_card[cell]
    if s.race or card < 0 or not s.cell_up[cell] or s.cell_rot[cell] < 0:
        return 0  # the race opens every door
    return CARD_DOORS[card, s.cell_rot[cell]]


@njit(cache=True)
def card_icon(s, cell: int) -> int:
    card = s.cell_card[cell]
    return C.NO_ICON if card < 0 else KIND_ICON[CARD_KIND[card]]


@njit(cache=True)
def link(s, loc: int, k: int):
    """Way ``k`` (0..NUM_LINKS-1) out of location ``loc``: (origin cell, side, target cell),
    target -1 when there is no such way (a closed side, the Empty Hall's own spaces)."""
    if s.cell_type[loc] == T_EXIT:
        origin = s.exit0 + k // 4
        d = k % 4
        t = nb(s, origin, d)
        if s.cell_type[t] == T_EXIT or s.cell_type[t] == T_PILE:
            t = -1
        return origin, d, t
    d = k % 4
    if k >= 4 or not (open_sides(s, loc) >> d) & 1:
        return loc, d, -1
    return loc, d, nb(s, loc, d)


@njit(cache=True)
def can_enter(s, t: int, d: int, allow_empty: bool) -> bool:
    """Can a character go through side ``d`` into ``t`` (an empty space only when a card can be
    drawn and played there)?"""
    ty = s.cell_type[t]
    if ty == T_EXIT:
        return True
    if ty != T_FREE:
        return False
    card = s.cell_card[t]
    if card < 0:
        return allow_empty and s.deck_len > 0
    if not s.cell_up[t]:
        return True  # it will be rotated to connect
    return (open_sides(s, t) >> opposite(d, 4)) & 1 != 0


@njit(cache=True)
def find_link(s, loc: int, t: int) -> int:
    """origin * 4 + side of the way from ``loc`` into ``t`` (-1 if none)."""
    for k in range(NUM_LINKS):
        origin, d, tt = link(s, loc, k)
        if tt == t:
            return origin * 4 + d
    return -1


@njit(cache=True)
def placeable(s, cell: int) -> bool:
    """An empty space of the table next to a card or the Empty Hall (sides wrap)."""
    if s.cell_type[cell] != T_FREE or s.cell_card[cell] >= 0:
        return False
    for d in range(4):
        t = nb(s, cell, d)
        if s.cell_type[t] != T_FREE or s.cell_card[t] >= 0:
            return True
    return False
