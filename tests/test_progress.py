"""The self-play learner's progress (``K.progress``) counts the way through the maze as it
lies: a target near as the crow flies but walled off is farther than the same target with
the way open. One test per ruleset whose progress reads the maze."""

from __future__ import annotations

import labyrinthos_helpers as LH

from labyrinth_env.rulesets.labyrinthos import components as LC
from labyrinth_env.rulesets.labyrinthos import kernel as LK


def labyrinthos_key_above_the_door(walled: bool) -> LH.Scenario:
    """Seat 0 on the Door tile, an explored key tile of a colour it lacks on the next tile
    north, its pathways meeting the Door's; with ``walled``, a wall between the two."""
    sc = LH.Scenario(seed=3)
    up = LH.cell(2, 3)
    sc.reveal(up, "ESW", tile=sc.tile_with("T", kind=LC.KIND_KEY, colour=0))
    sc.put(0, LH.DOOR).put(1, LH.cell(6, 6)).monster(LH.cell(0, 0)).tokens(0, 4, 3)
    if walled:
        sc.wall(LH.DOOR, LH.N)
    return sc


def test_labyrinthos_progress_counts_the_way_around_a_wall_not_the_crow_flies():
    """A wall between the hero and the key tile it needs, one tile away as the crow flies,
    reads as farther (a wall to turn away or a way round), not as one move."""
    open_way = labyrinthos_key_above_the_door(walled=False)
    walled = labyrinthos_key_above_the_door(walled=True)
    assert LK.route_cost(open_way.s, 0) == 1, "one move onto the key tile"
    assert LK.progress(walled.s, 0) < LK.progress(open_way.s, 0)
    # the hero steps onto it: that reads as progress
    before = LK.progress(open_way.s, 0)
    open_way.step(LK.A_CELL + LH.cell(2, 3))
    assert LK.progress(open_way.s, 0) > before


def test_labyrinthos_progress_counts_a_key_token_on_move_as_a_lost_move():
    """A key token covering Move reads lower than one on the empty key slot: both hold the
    key, but only one can still walk."""
    on_move = labyrinthos_key_above_the_door(walled=False)
    on_key_slot = labyrinthos_key_above_the_door(walled=False)
    on_move.give_key(0, 1, 0, LC.S_MOVE)
    on_key_slot.give_key(0, 1, 0, LC.S_KEY)
    assert LK.progress(on_move.s, 0) < LK.progress(on_key_slot.s, 0)
