"""Team Edition: the treasures. Whose board a seat may take a treasure from (its own, or
any other once its board is empty and the deck has run out; the left-most space only in
the Expert game), collecting it with the bonus move it earns, drawing new cards at the end
of a turn, and the end of the game (won when the last treasure is collected)."""

from __future__ import annotations

from labyrinth_env.core.contract import WON
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .tables import EV_COLLECT, EV_DRAW, EV_GAME_END, NUM_TREASURES, TILE_TREASURE, VARIANT_EXPERT


@njit(cache=True)
def treasure_deck_empty(s) -> bool:
    return s.treasure_pos >= NUM_TREASURES


@njit(cache=True)
def claimable_from(s, seat: int, treasure: int) -> int:
    """Whose board ``seat`` may take ``treasure`` from now (-1 if from none): its own
    board, or, when its board is empty and the treasure deck has run out, any other
    player's board. In the Expert game only the left-most space counts."""
    if treasure < 0 or s.collected[treasure]:
        return -1
    last_slot = 0 if s.variant == VARIANT_EXPERT else 1
    for k in range(last_slot + 1):
        if s.slots[seat, k] == treasure:
            return seat
    if s.slots[seat, 0] >= 0 or not treasure_deck_empty(s):
        return -1
    for other in range(s.num_players):
        if other == seat:
            continue
        for k in range(last_slot + 1):
            if s.slots[other, k] == treasure:
                return other
    return -1


@njit(cache=True)
def finish(s, outcome: int) -> None:
    s.outcome = outcome
    emit(s, EV_GAME_END, -1, outcome, s.num_collected)


@njit(cache=True)
def try_collect(s, seat: int, cell: int) -> None:
    """Stopping on ``cell``: collect its treasure if the rules let ``seat`` take it."""
    treasure = TILE_TREASURE[s.cell_tile[cell]]
    owner = claimable_from(s, seat, treasure)
    if owner < 0:
        return
    if s.slots[owner, 0] == treasure:
        s.slots[owner, 0] = s.slots[owner, 1]  # slide the second card to the first space
    s.slots[owner, 1] = -1
    s.collected[treasure] = 1
    s.num_collected += 1
    s.collected_this_turn += 1
    bonus = s.collected_this_turn == 1
    if bonus:
        s.moves_left += 1
    emit(s, EV_COLLECT, seat, treasure, owner, 1 if bonus else 0)
    if s.num_collected == NUM_TREASURES:
        finish(s, WON)


@njit(cache=True)
def draw_treasures(s, seat: int) -> None:
    """Fill the empty spaces of a board left to right, one card at a time."""
    for k in range(2):
        if s.slots[seat, k] < 0 and not treasure_deck_empty(s):
            t = s.treasure_deck[s.treasure_pos]
            s.treasure_pos += 1
            s.slots[seat, k] = t
            emit(s, EV_DRAW, seat, t)
