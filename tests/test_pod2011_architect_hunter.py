"""The Architect's Foundation and Shortcut, the Head Hunter's Tracking (Paths of Destiny
2011, issue 21, v4): the kernel's rules, named after each skill, and the heuristic's use of
them (a position where the skill helps, one where it does not).

Foundation and Tracking are reconstructed and played as public effects (the rules doc,
"Architect" and "Head Hunter"): the field put back was seen by all and goes back into the
pile unknown to all; the trap tracked is turned face up for all.

Board: ``east()`` lays straight corridors centre - 19 - 20 - key field 0 (N21); N19 and
N20 are one move apart (east, direction 0); the Guard is parked on key field 2.
"""

from __future__ import annotations

import numpy as np
from hex_helpers import events_of, key_node_of, node
from pod2011_helpers import B, Scenario, east, tiles_fitting

from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011.kernel.foundation import A_FOUNDATION
from labyrinth_env.rulesets.paths_of_destiny_2011.kernel.tracking import A_TRACK_DIR, A_TRACK_HERE

N19, N20, N21 = node(19), node(20), key_node_of(0)
FAR = key_node_of(2)
EAST, WEST = 0, 3


def pile(sc: Scenario) -> list[int]:
    return [int(t) for t in sc.s["tile_pool"][: int(sc.s["tile_pool_len"])]]


def act(sc: Scenario) -> int:
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    a = int(B.heuristic_one(sc.states, hmask))
    assert hmask[a], a
    return a


def trap_type_seen(sc: Scenario, seat: int, at: int) -> int:
    """The trap type ``seat``'s observation shows on corridor ``at`` (-1: none shown)."""
    obs = sc.observe(seat)
    f = at * K.NODE_FEATURES + K.F_TRAP_TYPE
    shown = np.flatnonzero(obs[f : f + K.NUM_TRAP_TYPES])
    return int(shown[0]) if shown.size else -1


# =====================================================================================
# Foundation (the Architect): the drawn field put back, the next one built instead
# =====================================================================================
def test_foundation_architect_puts_the_drawn_field_back_and_builds_the_next_once_a_build():
    sc = east("Architect", "Witch")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    first, second = pile(sc)[3], pile(sc)[7]
    sc.next_tile(second)
    sc.next_tile(first)  # the top of the pile, the second under it
    n = len(pile(sc))
    sc.step(K.A_BUILD)
    assert sc.decision == K.D_PLACE and int(sc.s["drawn_tile"]) == first
    assert sc.legal(A_FOUNDATION)
    evs = sc.step(A_FOUNDATION)
    assert sc.decision == K.D_PLACE and int(sc.s["drawn_tile"]) == second, "the next field, to be placed"
    assert (K.EV_FOUNDATION, 0, first, second, 0, 0) in evs
    assert (K.EV_SKILL, 0, K.SK_FOUNDATION, -1, -1, 0) in evs
    assert first in pile(sc), "put back into the pile"
    assert len(pile(sc)) == n - 1, "one field out of the pile (the one being built), the first back in it"
    assert int(sc.s["actions_left"]) == 0, "the Build action and one more"
    sc.s["actions_left"] = 1
    assert not sc.legal(A_FOUNDATION), "once a build"
    a = sc.legal_actions()[0]
    assert K.A_PLACE <= a < K.A_GUARD_DIR
    evs = sc.step(a)
    assert events_of(evs, K.EV_BUILD)[0][2] == second
    sc.s["actions_left"] = 2
    sc.step(K.A_BUILD)
    assert sc.legal(A_FOUNDATION), "a new build: again"
    sc.s["actions_left"] = 0
    assert not sc.legal(A_FOUNDATION), "an action left to pay for it"


def test_foundation_only_the_architect_off_his_start_field_and_not_stunned_l132_l351():
    def building(character: str, at: int | None = None, stun: int = 0) -> Scenario:
        sc = east(character, "Witch")
        sc.put(0, N19 if at is None else at)
        sc.put(1, key_node_of(3))
        sc.set(0, stun=stun)
        return sc

    sc = building("Architect")
    sc.step(K.A_BUILD)
    assert sc.legal(A_FOUNDATION)
    sc = building("Monk")
    sc.step(K.A_BUILD)
    assert sc.decision == K.D_PLACE and not sc.legal(A_FOUNDATION)
    sc = building("Architect", at=sc.start_of(0))
    sc.step(K.A_BUILD)
    assert sc.decision == K.D_PLACE and not sc.legal(A_FOUNDATION), "l.132: not on the start field"
    sc = building("Architect")
    sc.step(K.A_BUILD)
    sc.s["stun"][0] = 1  # stunned while placing (a scenario: l.351 bars every skill)
    assert not sc.legal(A_FOUNDATION)


def test_foundation_the_field_put_back_is_shuffled_into_the_pile_unknown_to_all():
    places = set()
    for seed in range(12):
        sc = east("Architect", "Witch")
        sc.put(0, N19)
        sc.step(K.A_BUILD)
        first = int(sc.s["drawn_tile"])
        sc.s["rng"][0] = np.uint64(1000 + seed)
        sc.step(A_FOUNDATION)
        places.add(pile(sc).index(first))
        obs = [sc.observe(p) for p in range(2)]
        sc.s["tile_pool"][: len(pile(sc))] = np.roll(sc.s["tile_pool"][: len(pile(sc))], 1)
        for p in range(2):
            assert np.array_equal(obs[p], sc.observe(p)), "no seat observes where it went"
    assert len(places) > 4, "not always the bottom or the top: shuffled in by the dice"


# =====================================================================================
# Shortcut (the Architect): from a field he built into another, once a round, free
# =====================================================================================
def test_shortcut_architect_moves_between_fields_he_built_for_free_once_a_round_without_a_key():
    sc = east("Architect", "Witch")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    sc.s["cell_builder"][20] = 0
    sc.move(EAST)
    assert sc.pos(0) == N20 and int(sc.s["actions_left"]) == 1, "from a field he did not build: an action"
    sc.s["cell_builder"][19] = 0
    evs = sc.move(WEST)
    assert sc.pos(0) == N19 and int(sc.s["actions_left"]) == 1, "from his field into his field: no action"
    assert (K.EV_SKILL, 0, K.SK_SHORTCUT, -1, N19, 0) in evs
    sc.move(EAST)
    assert int(sc.s["seat"]) == 1, "once a round: the next such move cost his last action"
    carrier = east("Architect", "Witch")
    carrier.put(0, N19)
    carrier.put(1, key_node_of(3))
    carrier.give_key(0, 2)
    carrier.s["cell_builder"][19] = 0
    carrier.s["cell_builder"][20] = 0
    carrier.move(EAST)
    assert carrier.pos(0) == N20 and int(carrier.s["actions_left"]) == 1, "not while he carries a key"
    other = east("Witch", "Monk")
    other.put(0, N19)
    other.s["cell_builder"][19] = 0
    other.s["cell_builder"][20] = 0
    other.move(EAST)
    assert int(other.s["actions_left"]) == 1, "nobody else"


# =====================================================================================
# Tracking (the Head Hunter): a face-down trap next to him turned face up for all
# =====================================================================================
def hunter(**kw) -> Scenario:
    sc = east("Head Hunter", "Witch", **kw)
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    return sc


def test_tracking_head_hunter_turns_a_face_down_trap_next_to_him_face_up_for_all_once_a_round():
    sc = hunter()
    t = sc.place_trap(N20, "Spiked Pit")
    ty = int(K.TRAP_TOKENS[t])
    legal = [a for a in sc.legal_actions() if a == A_TRACK_HERE or A_TRACK_DIR <= a < A_TRACK_DIR + 6]
    assert legal == [A_TRACK_DIR + EAST], "only towards the face-down trap next to him"
    assert trap_type_seen(sc, 1, N20) == -1 and trap_type_seen(sc, 0, N20) == -1
    evs = sc.step(A_TRACK_DIR + EAST)
    assert int(sc.s["trap_up"][N20]) == 1 and int(sc.s["actions_left"]) == 2, "face up, no action point"
    assert (K.EV_SKILL, 0, K.SK_TRACKING, -1, N20, 0) in evs
    assert (K.EV_TRAP_REVEALED, 0, N20, ty, 0, 0) in evs
    assert trap_type_seen(sc, 0, N20) == ty and trap_type_seen(sc, 1, N20) == ty, "for all to see"
    sc.place_trap(N19, "Falling Rocks")  # a face-down token under him (a scenario)
    assert not sc.legal(A_TRACK_HERE), "once a round"
    sc.end()
    sc.end()  # the Witch's round, then his next one
    assert int(sc.s["seat"]) == 0 and sc.legal(A_TRACK_HERE), "a new round"
    sc.step(A_TRACK_HERE)
    assert int(sc.s["trap_up"][N19]) == 1


def test_tracking_only_face_down_traps_one_move_away_with_an_action_left_l132_l351():
    sc = hunter()
    sc.place_trap(N21, "Spiked Pit")  # two moves east
    assert not sc.legal(A_TRACK_DIR + EAST), "N20 has no trap; N21 is not next to him"
    sc = hunter()
    sc.place_trap(N20, "Spiked Pit", face_up=True)
    assert not sc.legal(A_TRACK_DIR + EAST), "already face up"
    sc = hunter()
    sc.place_trap(N20, "Spiked Pit")
    sc.s["actions_left"] = 0
    assert not sc.legal(A_TRACK_DIR + EAST), "in his round with an action left"
    sc.s["actions_left"] = 2
    sc.set(0, stun=1)
    assert not sc.legal(A_TRACK_DIR + EAST), "l.351"
    sc.set(0, stun=0)
    sc.put(0, sc.start_of(0))
    assert not sc.legal(A_TRACK_DIR + EAST), "l.132"
    other = east("Monk", "Witch")
    other.put(0, N19)
    other.place_trap(N20, "Spiked Pit")
    assert not other.legal(A_TRACK_DIR + EAST) and not other.legal(A_TRACK_HERE)


def test_tracking_turns_up_both_traps_of_a_corridor_with_his_second_trap_l386():
    sc = hunter()
    sc.place_trap(N20, "Spiked Pit")
    second = sc.trap_token_of(sc.C.TRAP_NAMES.index("Falling Rocks"))
    sc.s["node_trap2"][N20] = second
    sc.s["trap2_up"][N20] = 0
    evs = sc.step(A_TRACK_DIR + EAST)
    assert int(sc.s["trap_up"][N20]) == 1 and int(sc.s["trap2_up"][N20]) == 1
    assert len(events_of(evs, K.EV_TRAP_REVEALED)) == 2


# =====================================================================================
# The heuristic
# =====================================================================================
def test_heuristic_foundation_puts_back_a_field_that_does_not_shorten_its_way():
    # holding a key on N19, one move from the centre: no field shortens that
    sc = east("Architect", "Witch")
    sc.put(0, N19)
    sc.give_key(0, 2)
    sc.put(1, key_node_of(3))
    sc.step(K.A_BUILD)
    assert act(sc) == A_FOUNDATION
    # on key field 0 holding a key, cells 19 and 20 empty: a straight field on 19 or 20 helps
    sc = east("Architect", "Witch", line=False)
    sc.put(0, N21)
    sc.give_key(0, 2)
    sc.put(1, key_node_of(3))
    sc.next_tile(tiles_fitting(["03"])[0])
    sc.step(K.A_BUILD)
    a = act(sc)
    assert K.A_PLACE <= a < K.A_GUARD_DIR, "a field that opens its way is built"


def test_heuristic_tracking_turns_up_the_trap_on_its_path_not_one_off_it():
    # holding a key on N20, the centre west through N19
    sc = east("Head Hunter", "Witch")
    sc.put(0, N20)
    sc.give_key(0, 2)
    sc.put(1, key_node_of(3))
    sc.place_trap(N19, "Spiked Pit")
    assert act(sc) == A_TRACK_DIR + WEST
    sc = east("Head Hunter", "Witch")
    sc.put(0, N20)
    sc.give_key(0, 2)
    sc.put(1, key_node_of(3))
    sc.place_trap(N21, "Spiked Pit")  # behind him
    assert act(sc) != A_TRACK_DIR + EAST
