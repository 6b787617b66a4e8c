"""The Architect's Foundation (reconstructed, played as a public effect): "when you build,
you may spend one more action to put the field you drew back into the pile, shuffled in,
and build the next one instead (once a build)".

The plan was "look at the top 2 board fields and build one", which would give his seat a
private memory (the field he saw and did not build) that the observation and
``determinize`` would have to keep for him and hide from the others. Played this way
nothing is private: the field he puts back was shown to all while he held it (the drawn
field is public, l.94 "look at it"), and shuffled in it is one more field of the pile whose
order nobody knows, which ``determinize`` resamples as it does the rest of the pile.

While the drawn field waits to be placed (``D_PLACE``), "use skill 2" (``A_SKILL + 1``)
puts it back and draws the next one: placed as after Build, or, if it fits nowhere, back to
the bottom of the pile as any drawn field (``pod.place_or_return``). It costs an action
point (a second build's; with an action left, l.114): free, it put him at 1.3x-1.7x of the
fair share with 4-6 players in the balance runs, on top of his other skills. Not on his
start field or stunned (l.132, l.351: he builds from anywhere)."""

from __future__ import annotations

from labyrinth_env.core import pod
from labyrinth_env.core.events import emit
from labyrinth_env.core.jit import njit
from labyrinth_env.core.rng import randint

from .building import compute_placements
from .skills import skill_active
from .tables import A_SKILL, ARCHITECT, D_PLACE, EV_BUILD_NOWHERE, EV_FOUNDATION, EV_SKILL, NO_TARGET, SK_FOUNDATION

A_FOUNDATION = A_SKILL + SK_FOUNDATION - 3 * ARCHITECT  # "use skill 2"


@njit(cache=True)
def foundation_legal(s) -> bool:
    """The Architect placing the field he drew, not yet put back in this build, with a next
    field in the pile and an action left to pay for it."""
    seat = s.decider
    return (
        s.character[seat] == ARCHITECT
        and s.foundation_used == 0
        and s.tile_pool_len > 0
        and s.actions_left >= 1
        and s.drawn_tile >= 0
        and skill_active(s, seat, SK_FOUNDATION)
    )


@njit(cache=True)
def foundation_mask(s, out) -> None:
    """The placement decision's extra action (``out`` holds the placements already)."""
    if s.char_mode != 0 and foundation_legal(s):
        out[A_FOUNDATION] = 1


@njit(cache=True)
def lay_foundation(s) -> None:
    """The drawn field goes back into the pile at a place the record's dice choose; the
    next field is drawn (before, so it is never the same one) and placed as after Build."""
    seat = s.decider
    back = s.drawn_tile
    s.drawn_tile = -1
    s.foundation_used = 1
    s.actions_left -= 1  # a second build's action
    tile = pod.draw_tile(s)
    pod.insert_tile(s, back, randint(s.rng, s.tile_pool_len + 1))
    emit(s, EV_SKILL, seat, SK_FOUNDATION, NO_TARGET, -1)
    emit(s, EV_FOUNDATION, seat, back, tile)
    pod.place_or_return(s, seat, tile, compute_placements(s, tile) > 0, D_PLACE, EV_BUILD_NOWHERE)
