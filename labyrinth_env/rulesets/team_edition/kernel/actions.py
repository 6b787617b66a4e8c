"""Team Edition: the pending decision's legal actions and their effects, each dispatched
to its family (``spells``, ``moving``, ``turn``)."""

from __future__ import annotations

from labyrinth_env.core.contract import RUNNING, clear_mask
from labyrinth_env.core.events import clear_events
from labyrinth_env.core.jit import njit
from labyrinth_env.rulesets.team_edition import components as C

from .moving import flip_later, flip_later_legal, flip_or_leave, move_legal, move_piece, orient_tile
from .spells import push_legal, push_tile, rotate_tile, switch_tiles
from .tables import (
    A_END,
    A_FLIP,
    A_LEAVE,
    A_MOVE,
    A_ORIENT,
    A_PUSH,
    A_ROTATE,
    A_SWITCH,
    DECISION_FLIP,
    DECISION_ORIENT,
    IS_FIXED_CELL,
    LOOSE_CELLS,
    NUM_ACTIONS,
    NUM_CELLS,
    SWITCH_NEIGHBOR,
)
from .turn import end_turn, settle


@njit(cache=True)
def is_legal(s, action: int) -> bool:
    """Whether ``action`` is legal for the pending decision (cheap, no full mask)."""
    if s.outcome != RUNNING or action < 0 or action >= NUM_ACTIONS:
        return False
    if s.decision == DECISION_ORIENT:
        return A_ORIENT <= action < A_END
    if s.decision == DECISION_FLIP:
        return A_FLIP <= action <= A_LEAVE
    if action < A_MOVE:
        return not s.push_used and push_legal(s, (action - A_PUSH) // 4)
    if action < A_ROTATE:
        return move_legal(s, action - A_MOVE)
    if action < A_SWITCH:
        cell = (action - A_ROTATE) // 3
        return (
            not s.spell_used
            and s.spell[s.seat] == C.SPELL_ROTATE
            and not IS_FIXED_CELL[cell]
            and not s.tile_down[s.cell_tile[cell]]
        )
    if action < A_ORIENT:
        k = action - A_SWITCH
        return not s.spell_used and s.spell[s.seat] == C.SPELL_SWITCH and SWITCH_NEIGHBOR[k // 2, k % 2] >= 0
    if action == A_FLIP:
        return flip_later_legal(s)
    return action == A_END


@njit(cache=True)
def legal_mask(s, out) -> None:
    """Fill ``out`` (bool/uint8[NUM_ACTIONS]) with the legal actions of the pending decision."""
    if not clear_mask(s, out):
        return
    if s.decision == DECISION_ORIENT:
        out[A_ORIENT : A_ORIENT + 4] = 1
        return
    if s.decision == DECISION_FLIP:
        out[A_FLIP] = 1
        out[A_LEAVE] = 1
        return
    out[A_END] = 1
    if flip_later_legal(s):
        out[A_FLIP] = 1
    if not s.push_used:
        for a in range(C.NUM_ARROWS):
            if push_legal(s, a):
                out[A_PUSH + 4 * a : A_PUSH + 4 * a + 4] = 1
    if s.moves_left > 0:
        for cell in range(NUM_CELLS):
            if move_legal(s, cell):
                out[A_MOVE + cell] = 1
    if not s.spell_used:
        sp = s.spell[s.seat]
        if sp == C.SPELL_ROTATE:
            for cell in LOOSE_CELLS:
                if not s.tile_down[s.cell_tile[cell]]:
                    out[A_ROTATE + 3 * cell : A_ROTATE + 3 * cell + 3] = 1
        elif sp == C.SPELL_SWITCH:
            for k in range(NUM_CELLS * 2):
                if SWITCH_NEIGHBOR[k // 2, k % 2] >= 0:
                    out[A_SWITCH + k] = 1


@njit(cache=True)
def step(s, action: int) -> bool:
    """Apply one action and everything automatic after it. Returns False, changing
    nothing, if the action is not legal now."""
    if not is_legal(s, action):
        return False
    clear_events(s)
    seat = s.seat
    if s.decision == DECISION_ORIENT:
        orient_tile(s, seat, action)
    elif s.decision == DECISION_FLIP:
        flip_or_leave(s, seat, action)
    elif action < A_MOVE:
        push_tile(s, seat, action)
    elif action < A_ROTATE:
        move_piece(s, seat, action)
    elif action == A_FLIP:
        flip_later(s, seat)
    elif action < A_SWITCH:
        rotate_tile(s, seat, action)
    elif action < A_ORIENT:
        switch_tiles(s, seat, action)
    else:
        end_turn(s)
    settle(s)
    return True
