"""The toy race's kernel (the kernel contract of ``labyrinth_env.core.contract``), split
into modules as a long kernel would be: ``tables`` (board, actions, record) and ``turn``
(each decision's mask and effect)."""

from __future__ import annotations

import numpy as np

from labyrinth_env.core.contract import (  # noqa: F401 (to_act and K.OPT_*: the contract's)
    OPT_MAX_TURNS,
    OPT_PLAYERS,
    RUNNING,
    clear_mask,
    start_record,
    take_decision,
    to_act,
    winner_returns,
)
from labyrinth_env.core.grid import rotate_mask
from labyrinth_env.core.jit import njit
from labyrinth_env.core.kernel_common import private_dice, reseed
from labyrinth_env.core.rng import randint

from .tables import (  # noqa: F401 (re-exported: the contract's constants)
    A_MOVE,
    A_PASS,
    A_TURN,
    CELL_FEATURES,
    D_MOVE,
    D_TURN,
    DECISIONS,
    DIE_SIDES,
    GOAL,
    MAX_EVENTS,
    NUM_ACTIONS,
    NUM_CELLS,
    NUM_OPTIONS,
    NUM_SEATS,
    OBS_GLOBAL,
    OBS_SIZE,
    SHAPES,
    START_CELLS,
    STATE_DTYPE,
)
from .turn import move, move_mask, start_turn, turn_mask, turn_tile


@njit(cache=True)
def init(s, seed, options) -> None:
    start_record(s, seed, options)
    for c in range(NUM_CELLS):
        s.tile[c] = rotate_mask(SHAPES[randint(s.rng, SHAPES.shape[0])], randint(s.rng, 4), 4)
    for p in range(NUM_SEATS):
        s.position[p] = START_CELLS[p] if p < s.num_players else -1
    s.distance[:] = -1
    s.queue[:] = 0
    start_turn(s, True)


@njit(cache=True)
def legal_mask(s, out) -> None:
    if not clear_mask(s, out):
        return
    if s.decision == D_TURN:
        turn_mask(s, out)
    else:
        move_mask(s, out)


@njit(cache=True)
def step(s, action: int) -> bool:
    if s.outcome != RUNNING or not 0 <= action < NUM_ACTIONS:
        return False
    mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
    legal_mask(s, mask)
    if not mask[action]:
        return False
    if take_decision(s, D_TURN) == D_TURN:
        turn_tile(s, action)
    else:
        move(s, action)
    return True


returns = winner_returns


@njit(cache=True)
def observe(s, seat: int, out) -> None:
    out[:] = 0.0
    n = s.num_players
    for c in range(NUM_CELLS):
        b = c * CELL_FEATURES
        for d in range(4):
            out[b + d] = (s.tile[c] >> d) & 1
        out[b + 4] = 1.0 if c == GOAL else 0.0
    for k in range(n):
        p = (seat + k) % n
        out[s.position[p] * CELL_FEATURES + 5 + k] = 1.0
    g = OBS_GLOBAL
    out[g + s.decision] = 1.0
    if s.roll > 0:
        out[g + 2 + s.roll - 1] = 1.0
    for k in range(n):
        out[g + 2 + DIE_SIDES + k] = 1.0


@njit(cache=True)
def determinize(s, seat: int, seed) -> None:
    """Everything is public but the die's future: new dice."""
    reseed(s, private_dice(seed))


@njit(cache=True)
def unseen(s, seat: int, out) -> None:
    """Nothing is hidden but the die's future, which the contract does not count: no
    component, one arrangement."""
    out[:] = 0.0


@njit(cache=True)
def shaping_potential(s, seat: int) -> float:
    """Closeness to the centre (Manhattan), in [0, 1]."""
    if s.outcome != RUNNING:
        return 0.0
    c = s.position[seat]
    return 1.0 - (abs(c // 5 - 2) + abs(c % 5 - 2)) / 4.0


# the progress the self-play learner reads: here the shaping potential itself
progress = shaping_potential
