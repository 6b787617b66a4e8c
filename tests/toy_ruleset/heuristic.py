"""The toy race's heuristic: never turn a tile; move to the reachable cell closest to the centre."""

from __future__ import annotations

from labyrinth_env.core.jit import njit

from . import kernel as K


@njit(cache=True)
def heuristic_action(s, mask) -> int:
    K.legal_mask(s, mask)
    if s.decision == K.D_TURN:
        return K.A_PASS
    best, best_distance = -1, 99
    for c in range(K.NUM_CELLS):
        if mask[K.A_MOVE + c]:
            distance = abs(c // 5 - 2) + abs(c % 5 - 2)
            if distance < best_distance:
                best, best_distance = K.A_MOVE + c, distance
    return best
