"""The turn: its start (the labyrinth expands, or the race's next tied player), the end
phase (corridors flip face down), and ``resume``, which carries a step on through
everything automatic until the next decision: the loser's movement, discarding to the
hand limit, the end triggers, the next action, the next turn."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import NO_SEAT, RUNNING, TRUNCATED, set_decision
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit

from .board import hand_limit
from .ending import end_game
from .movement import monster_options, trap_options
from .tables import (
    ACTIONS,
    CUT_MAX_TURNS,
    CUT_RACE,
    CUT_TURN,
    D_DISCARD,
    D_EXPAND,
    D_MAIN,
    D_MONSTER,
    D_NONE,
    D_TRAP,
    END_CARDS,
    END_TABLE,
    EV_FLIP_DOWN,
    EV_TRUNCATED,
    EV_TURN,
    MAXT,
    MV_MONSTER,
    MV_NONE,
    MV_TRAP,
    NUM_CELLS,
    PH_ACTION,
    PH_EXPAND,
    RACE_TURN_LIMIT,
    TURN_DECISION_LIMIT,
)


@njit(cache=True)
def truncate(s, why: int) -> None:
    """The game stops undecided (PettingZoo truncation, rewards 0); ``why``: CUT_*."""
    s.outcome = TRUNCATED
    emit(s, EV_TRUNCATED, NO_SEAT, why)


@njit(cache=True)
def count_decision(s) -> None:
    """One more decision in this turn (``K.step``, before the action)."""
    s.turn_steps += 1


@njit(cache=True)
def check_turn_length(s) -> None:
    """The guaranteed end within a turn (``K.step``, after ``resume``): a turn that has asked
    TURN_DECISION_LIMIT decisions (only a chain of failed challenges can) truncates the game."""
    if s.outcome == RUNNING and s.turn_steps >= TURN_DECISION_LIMIT:
        truncate(s, CUT_TURN)


@njit(cache=True)
def start_turn(s) -> None:
    n = s.num_players
    if s.race:
        while not s.racer[s.seat]:
            s.seat = (s.seat + 1) % n
    s.turn += 1
    s.turn_steps = 0
    if s.max_turns > 0 and s.turn > s.max_turns:
        truncate(s, CUT_MAX_TURNS)
        return
    if s.race:
        s.race_turns += 1
        if s.race_turns > RACE_TURN_LIMIT:  # the guaranteed end, even with max_turns=None
            truncate(s, CUT_RACE)
            return
    s.actions_left = ACTIONS
    s.regular_done = 0
    s.unlocked = 0
    s.thief_used = 0
    emit(s, EV_TURN, s.seat, s.turn)
    if not s.race and not s.cards_out and s.deck_len > 0 and s.num_empty > 0:
        s.phase = PH_EXPAND
        set_decision(s, D_EXPAND, s.seat)
    else:
        s.phase = PH_ACTION


@njit(cache=True)
def flip_down_all(s) -> int:
    """End phase: face-up corridors without characters turn face down (not those with a
    defeated challenge, nor chests holding a treasure). Everyone saw them: remembered."""
    occupied = np.zeros(NUM_CELLS, dtype=np.uint8)
    for p in range(s.num_players):
        occupied[s.pos[p]] = 1
    count = 0
    t = s.table
    for r in range(t):
        for c in range(t):
            cell = r * MAXT + c
            if s.cell_card[cell] < 0 or not s.cell_up[cell] or occupied[cell]:
                continue
            if s.cell_beaten[cell] or s.cell_gold[cell]:
                continue
            s.cell_up[cell] = 0
            s.cell_rot[cell] = -1
            for p in range(s.num_players):
                s.known[p, cell] = 1
            count += 1
    return count


@njit(cache=True)
def end_turn(s) -> None:
    emit(s, EV_FLIP_DOWN, s.seat, flip_down_all(s))
    s.seat = (s.seat + 1) % s.num_players  # the active player is now the one on the left
    start_turn(s)


@njit(cache=True, inline="always")
def resume(s) -> None:
    """Carry on until the next decision (or the end)."""
    while s.outcome == RUNNING and s.decision == D_NONE:
        if s.mv_kind == MV_MONSTER:
            if monster_options(s):
                set_decision(s, D_MONSTER, s.mv_mover)
            else:
                s.mv_kind = MV_NONE
            continue
        if s.mv_kind == MV_TRAP:
            if trap_options(s):
                set_decision(s, D_TRAP, s.mv_mover)
            else:
                s.mv_kind = MV_NONE
            continue
        if s.phase == PH_ACTION and s.hand_len[s.seat] > hand_limit(s, s.seat):
            set_decision(s, D_DISCARD, s.seat)
            continue
        if not s.race and (s.cards_out or s.num_empty == 0):
            end_game(s, END_CARDS if s.cards_out else END_TABLE)
            continue
        if s.phase == PH_ACTION and s.actions_left > 0:
            set_decision(s, D_MAIN, s.seat)
            continue
        end_turn(s)
