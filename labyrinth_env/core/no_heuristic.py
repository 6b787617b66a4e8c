"""The ``H`` bound into the templates for a ruleset that has no heuristic: the first legal
action. It exists so that the shared loops compile; the agents and the vector env refuse
``"heuristic"`` for such a ruleset instead of playing this."""

from __future__ import annotations

from types import ModuleType

from labyrinth_env.core.jit import njit

BOUND_NAME = "no_heuristic"
K: ModuleType | None = None  # the ruleset's kernel, bound by core.templates.bind


@njit(cache=True)
def heuristic_action(s, mask) -> int:
    K.legal_mask(s, mask)
    for a in range(mask.shape[0]):
        if mask[a]:
            return a
    return -1
