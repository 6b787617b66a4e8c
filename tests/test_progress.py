"""The self-play learner's progress (``K.progress``) counts the way through the maze as it
lies: a target near as the crow flies but walled off is farther than the same target with
the way open. One test per ruleset whose progress reads the maze."""

from __future__ import annotations

import labyrinthos_helpers as LH
import labyrinx_helpers as XH
import numpy as np
import pytest
import team_helpers as TH

import labyrinth_env
from labyrinth_env.rulesets.labyrinthos import components as LC
from labyrinth_env.rulesets.labyrinthos import kernel as LK
from labyrinth_env.rulesets.labyrinx import kernel as XK
from labyrinth_env.rulesets.team_edition import components as TC
from labyrinth_env.rulesets.team_edition import kernel as TK


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


def team_treasure_next_door(shut: bool) -> TH.Scenario:
    """Seat 0's piece on r1c0, the treasure it must collect on r1c1 next to it (every other
    loose tile face down); the treasure's tile opens towards the piece, or with ``shut``
    turned away from it."""
    sc = TH.Scenario(seed=2)
    sc.lay(TH.cell(1, 0), "EW")
    tile = sc.lay(TH.cell(1, 1), "NES" if shut else "NSW")
    sc.give(0, int(TC.TILE_TREASURE[tile]))
    sc.put(0, TH.cell(1, 0))
    return sc.ready()


def test_team_edition_progress_counts_a_shut_edge_not_the_crow_flies():
    """A treasure one tile away whose tile is turned away from the piece reads as farther
    than the same treasure along an open corridor: a spell (or the Book) must open it."""
    open_way, shut = team_treasure_next_door(shut=False), team_treasure_next_door(shut=True)
    assert TK.progress(shut.s, 0) < TK.progress(open_way.s, 0)
    before = TK.progress(open_way.s, 0)
    open_way.move(TH.cell(1, 1))
    assert int(open_way.s["num_collected"]) == 1
    assert TK.progress(open_way.s, 0) > before, "collecting it is progress"


def labyrinx_monster_next_door(rot: int) -> XH.Scenario:
    """Seat 0 (the Knight: two monster icons, one card in hand, so it beats a monster half
    the time) on a corner at (2,3) turned ``rot``, a face-up monster at (2,4) open east-west
    and nothing else on the table."""
    sc = XH.Scenario(2)
    sc.character(0, "Knight")
    sc.set_hand(0, ["straight"])
    sc.lay(2, 3, "corner", rot)
    sc.lay(2, 4, "straight with a monster", 1)
    sc.place(0, 2, 3)
    sc.main(0)
    return sc


def test_labyrinx_progress_counts_the_way_to_a_challenge_not_the_crow_flies():
    """A monster the character beats, next to it: one move while its corner opens towards
    it (turned 0: north and east), out of reach while the corner is turned away (2: south
    and west), though as near as the crow flies."""
    open_way, walled = labyrinx_monster_next_door(0), labyrinx_monster_next_door(2)
    assert XK.treasure_distance(open_way.s, 0) == 1
    assert XK.progress(walled.s, 0) < XK.progress(open_way.s, 0)


@pytest.mark.parametrize("env_id", ["labyrinx_v1", "labyrinthos_v2", "team_edition_v2"])
def test_progress_reads_nothing_the_seat_cannot_know(env_id):
    """Along random games, every seat's progress is the same in the true record and in a
    world determinized for that seat (its hidden cards, tiles, hands, decks and dice
    resampled), so it reads only what the seat may know."""
    K = labyrinth_env.get_spec(env_id).kernel
    env = labyrinth_env.raw_env(env_id, num_players=3)
    options = env.options_vector()
    rng = np.random.default_rng(1)
    states = np.zeros(2, dtype=K.STATE_DTYPE)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    compared = 0
    for game in range(3):
        K.init(states[0], np.uint64(game), options)
        for step in range(400):
            if K.to_act(states[0]) < 0:
                break
            if step % 5 == 0:
                for seat in range(3):
                    states[1] = states[0]
                    K.determinize(states[1], seat, np.uint64(rng.integers(1 << 62)))
                    assert K.progress(states[1], seat) == K.progress(states[0], seat), (env_id, game, step, seat)
                    compared += 1
            K.legal_mask(states[0], mask)
            K.step(states[0], int(rng.choice(np.flatnonzero(mask))))
    assert compared >= 100
