"""The action decision (D_MAIN): the regular actions (peek, move, play a card, draw, push,
the special power), the full-turn actions (despair, rest) and ending the turn; which are
allowed, and what each does. Where a regular action asks a further decision (where to play
or push, the Seer's card), that decision's family has it."""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .board import can_enter, link
from .cards import draw_to_hand
from .despair import apply_despair, despair_allowed
from .movement import go_to, push_target_ok
from .powers import apply_power, power_usable
from .tables import (
    A_DESPAIR,
    A_DRAW,
    A_END,
    A_MOVE,
    A_PEEK,
    A_PLAY,
    A_POWER,
    A_PUSH,
    A_REST,
    D_PLAY_CELL,
    D_PUSH_TO,
    EV_DRAW,
    EV_PEEK,
    EV_REST,
    HOW_MOVE,
    NUM_LINKS,
    REST_DRAWS,
    T_FREE,
)


@njit(cache=True, inline="always")
def main_mask(s, out) -> None:
    p = s.seat
    loc = s.pos[p]
    any_push_way = False
    for k in range(NUM_LINKS):
        _, d, t = link(s, loc, k)
        if t < 0:
            continue
        if can_enter(s, t, d, False):  # a move never goes into an empty space
            out[A_MOVE + t] = 1
        if s.cell_type[t] == T_FREE and s.cell_card[t] >= 0 and not s.cell_up[t]:
            out[A_PEEK + t] = 1  # through a door too
        if can_enter(s, t, d, True):
            any_push_way = True
    if s.num_empty > 0:
        for i in range(s.hand_len[p]):
            out[A_PLAY + i] = 1
    if s.deck_len > 0:
        out[A_DRAW] = 1
    if any_push_way:
        for off in range(1, s.num_players):
            if push_target_ok(s, (p + off) % s.num_players):
                out[A_PUSH + off - 1] = 1
    if power_usable(s):
        out[A_POWER] = 1
    if despair_allowed(s):
        out[A_DESPAIR] = 1
    if not s.regular_done:  # a full-turn action
        for k in range(1, REST_DRAWS + 1):
            if k <= s.deck_len + s.discard_len:
                out[A_REST + k - 1] = 1
    out[A_END] = 1


@njit(cache=True, inline="always")
def apply_main(s, who: int, action: int) -> None:
    p = s.seat
    if action == A_END:
        s.actions_left = 0
        return
    if action == A_DESPAIR:
        apply_despair(s)
        return
    if A_REST <= action < A_END:
        s.actions_left = 0
        emit(s, EV_REST, p, draw_to_hand(s, p, action - A_REST + 1))
        return
    s.regular_done = 1
    if action < A_PEEK:  # move
        s.actions_left -= 1
        go_to(s, p, action - A_MOVE, HOW_MOVE, p)
    elif action < A_PLAY:  # peek, privately
        t = action - A_PEEK
        s.actions_left -= 1
        s.known[p, t] = 1
        emit(s, EV_PEEK, p, t)
    elif action < A_DRAW:  # play a card: where is the next decision
        s.actions_left -= 1
        s.sel_slot = action - A_PLAY
        set_decision(s, D_PLAY_CELL, p)
    elif action == A_DRAW:
        s.actions_left -= 1
        emit(s, EV_DRAW, p, draw_to_hand(s, p, 1))
    elif action < A_POWER:  # push: where is the next decision
        s.actions_left -= 1
        s.sel_target = (p + action - A_PUSH + 1) % s.num_players
        set_decision(s, D_PUSH_TO, p)
    else:
        apply_power(s)
