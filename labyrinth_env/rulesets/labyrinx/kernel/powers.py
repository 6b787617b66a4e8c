"""The characters' special powers (option ``character_powers``): "Some characters have a
special power that can be used by spending an action" (l.38), so every power is an action:
when it is allowed and what it does (Seer, Scavenger, Builder, Thief, Locksmith, Forager),
and the Seer's decision, which face-down card to peek at (D_SEER). The Locksmith's
unlocked turn is paid for in ``movement.door_paid``. Characters without a power have none."""

from __future__ import annotations

from labyrinth_env.core.contract import set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.labyrinx import components as C

from .cards import ask_rotation, draw_to_hand
from .ending import win
from .tables import A_CELL, CARD_KIND, CHAR_POWER, D_SEER, EV_POWER, HOW_BUILDER, MAXT, NO_SIDE, T_FREE, WIN_FIVE


@njit(cache=True)
def face_down(s, cell: int) -> bool:
    return s.cell_card[cell] >= 0 and not s.cell_up[cell]


@njit(cache=True)
def thief_victim(s) -> int:
    """The richest other character in the thief's location (the first in turn order on a tie)."""
    best = -1
    for i in range(1, s.num_players):
        q = (s.seat + i) % s.num_players
        if s.pos[q] == s.pos[s.seat] and s.treasure[q] > 0 and (best < 0 or s.treasure[q] > s.treasure[best]):
            best = q
    return best


@njit(cache=True)
def power_usable(s) -> bool:
    p = s.seat
    if s.powers == 0:
        return False
    power = CHAR_POWER[s.character[p]]
    if power == C.POW_NONE:
        return False
    if power == C.POW_SEER:
        for r in range(s.table):
            for c in range(s.table):
                if face_down(s, r * MAXT + c):
                    return True
        return False
    if power == C.POW_SCAVENGER:
        return s.discard_len > 0
    if power == C.POW_BUILDER:
        return s.cell_type[s.pos[p]] == T_FREE
    if power == C.POW_THIEF:  # treasures no longer count in the race
        return not s.race and not s.thief_used and thief_victim(s) >= 0
    if power == C.POW_LOCKSMITH:  # the race opens every door anyway
        return not s.race and not s.unlocked
    if power == C.POW_FORAGER:
        return s.deck_len > 0
    return False


@njit(cache=True)
def apply_power(s) -> None:
    """The active player's action power, for one action."""
    p = s.seat
    power = CHAR_POWER[s.character[p]]
    s.actions_left -= 1
    if power == C.POW_SEER:
        set_decision(s, D_SEER, p)
    elif power == C.POW_SCAVENGER:
        s.discard_len -= 1
        card = s.discard[s.discard_len]
        s.discard[s.discard_len] = -1
        s.hand[p, s.hand_len[p]] = card
        s.hand_len[p] += 1
        emit(s, EV_POWER, p, power, CARD_KIND[card])
    elif power == C.POW_BUILDER:
        cell = s.pos[p]
        emit(s, EV_POWER, p, power, cell)
        ask_rotation(s, HOW_BUILDER, cell, s.cell_rot[cell], NO_SIDE, p, p)
    elif power == C.POW_THIEF:
        q = thief_victim(s)
        s.thief_used = 1
        s.treasure[q] -= 1
        emit(s, EV_POWER, p, power, q)
        s.treasure[p] += 1
        if s.treasure[p] >= C.WIN_TREASURES and not s.race:
            win(s, p, WIN_FIVE)
    elif power == C.POW_LOCKSMITH:
        s.unlocked = 1
        emit(s, EV_POWER, p, power, 0)
    elif power == C.POW_FORAGER:  # too many cards: resume asks to discard down to the limit
        emit(s, EV_POWER, p, power, draw_to_hand(s, p, 2))


# --- Seer: peek at which card (D_SEER) ------------------------------------------------------------
@njit(cache=True)
def seer_mask(s, out) -> None:
    t = s.table
    for r in range(t):
        for c in range(t):
            cell = r * MAXT + c
            if face_down(s, cell):
                out[A_CELL + cell] = 1


@njit(cache=True)
def apply_seer(s, who: int, action: int) -> None:
    cell = action - A_CELL
    s.known[who, cell] = 1
    emit(s, EV_POWER, who, C.POW_SEER, cell)
