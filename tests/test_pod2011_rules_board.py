"""Scenario tests for the Paths of Destiny 2011 rulebook: set-up and seating, the round,
building, moving, keys, the bridge (jumping down, coming down, climbing up), traps, the
Guard, stun and rest, life and the start field, the fate crystal, the win and truncation.
One test (or a few) per rule, named after it, in rulebook order; the dice rules also get a
statistical test. Fights and encounters are in ``tests/test_pod2011_rules_fights.py``.
``docs/rules/paths_of_destiny_2011.md`` maps every rule to these tests.

Board reference (see ``pod2011_helpers``): the centre is cell 18 (node 54); ``line(0)`` =
cells 18, 19, 20, 21 runs east to key field 0 (node 63) and its start field (node 111,
seat 0 in a 2-player game); key field 3 is node 45, its start field node 120 (seat 1).
``east()`` lays straight corridors on 19 and 20, so that centre, 19, 20 and key field 0
form one line of corridors, and parks the Guard far away.
"""

from __future__ import annotations

import numpy as np
import pytest
from hex_helpers import cell_at, events, events_of, key_node_of, node
from pod2011_helpers import CENTER, Scenario, neighbor, new_game, options_vector, start_node_of

from labyrinth_env import get_spec
from labyrinth_env.core.contract import new_states
from labyrinth_env.core.grid import ROTATE_HEX
from labyrinth_env.core.rng import seed_state
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011.env import raw_env

B = get_spec("paths_of_destiny_2011_v6").loops
CENTRE = node(CENTER)  # 54
N19, N20 = node(19), node(20)
KEY0, KEY3 = key_node_of(0), key_node_of(3)
START0, START3 = start_node_of(0), start_node_of(3)
FAR = key_node_of(2)  # an unused key field, where the Guard is parked out of the way
STRAIGHT = C.TILE_NAMES.index("Straight Corridor")
DEAD_END = C.TILE_NAMES.index("Dead End")


def no_crystals(sc: Scenario) -> Scenario:
    for p in range(int(sc.s["num_players"])):
        sc.set(p, crystal=0)
    return sc


def east(**options) -> Scenario:
    sc = Scenario(**options)
    sc.lay_line(0)
    sc.guard(FAR)
    return no_crystals(sc)


def place_mask(s: np.void) -> np.ndarray:
    return s["place_ok"].reshape(K.NUM_BOARD, 6).astype(bool)


def kinds(evs) -> list[int]:
    return [e[0] for e in evs]


def trials(sc: Scenario, action: int, n: int, first: int = 1):
    """Step ``action`` on copies of the scenario with ``n`` different generator states."""
    base = sc.states.copy()
    trial = sc.states.copy()
    for i in range(first, first + n):
        trial[:] = base
        trial[0]["rng"][0] = seed_state(np.uint64(i))
        assert K.step(trial[0], action)
        yield trial[0]


# =====================================================================================
# II. Preparing the game
# =====================================================================================
def test_setup_board_printed_fields_keys_and_guard():
    _states, s = new_game(num_players=3, seed=4)
    assert int(s["cell_tile"][CENTER]) == C.CENTRAL_TILE_ID and s["node_mask"][CENTRE] == 0b111111
    for i in range(6):
        cell = int(K.KEY_CELLS[i])
        assert int(s["cell_tile"][cell]) == C.KEY_TILE_ID
        assert (int(s["node_mask"][key_node_of(i)]) >> i) & 1, "the key field opens towards its start field"
        assert int(s["key_node"][i]) == key_node_of(i) and int(s["key_holder"][i]) == -1
        assert s["node_mask"][start_node_of(i)] == 1 << ((i + 3) % 6)
    assert int(s["cell_built"][: K.NUM_BOARD].sum()) == 7, "only the central and key fields"
    assert int(s["guard_node"]) == CENTRE and not s["guard_asleep"]
    assert int(s["tile_pool_len"]) == 30 and int(s["trap_pool_len"]) == 57 and int(s["guard_pos"]) == 0
    assert sorted(s["tile_pool"].tolist()) == list(range(30)) and sorted(s["trap_pool"].tolist()) == list(range(57))
    assert (s["node_trap"] == -1).all()


def test_setup_four_life_one_face_up_crystal_each():
    _, s = new_game(num_players=5, seed=2)
    assert s["life"][:5].tolist() == [4] * 5 and s["crystal"][:5].tolist() == [1] * 5
    assert s["stun"].tolist() == [0] * 6 and int(s["life"][5]) == 0, "the sixth seat is empty"


def test_setup_piles_shuffled_differently_per_seed():
    seen = set()
    for seed in range(8):
        _, s = new_game(num_players=3, seed=seed)
        seen.add((s["tile_pool"].tobytes(), s["trap_pool"].tobytes(), s["guard_deck"].tobytes()))
    assert len(seen) == 8


def test_setup_two_players_choose_start_fields_first_player_chooses_second():
    for seed in range(6):
        states = new_states(K, 1)
        B.init_one(states, np.uint64(seed), options_vector(ask_crystal=False, num_players=2))
        s = states[0]
        first = int(s["first_player"])
        assert int(s["decision"]) == K.D_START and int(s["decider"]) == 1 - first
        mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
        K.legal_mask(s, mask)
        assert np.flatnonzero(mask).tolist() == [K.A_START_FIELD + f for f in range(6)]
        assert K.step(s, K.A_START_FIELD + 2)
        assert int(s["decision"]) == K.D_START and int(s["decider"]) == first
        K.legal_mask(s, mask)
        assert np.flatnonzero(mask).tolist() == [K.A_START_FIELD + f for f in (0, 1, 3, 4, 5)]
        assert K.step(s, K.A_START_FIELD + 3)  # next to the other: the players choose freely
        assert int(s["seat_start"][1 - first]) == 2 and int(s["seat_start"][first]) == 3
        assert int(s["position"][first]) == start_node_of(3)
        assert int(s["decision"]) == K.D_MAIN and int(s["seat"]) == first and int(s["decider"]) == first


def test_setup_three_players_a_vacant_field_between_players():
    _, s = new_game(num_players=3, seed=1)
    assert s["seat_start"][:3].tolist() == [0, 2, 4]


def test_setup_four_players_two_pairs_with_a_gap():
    _, s = new_game(num_players=4, seed=1)
    fields = s["seat_start"][:4].tolist()
    assert fields == [0, 1, 3, 4]
    free = sorted(set(range(6)) - set(fields))
    assert free == [2, 5] and (free[1] - free[0]) == 3, "the two gaps face each other: two pairs"


def test_setup_five_players_draw_who_chooses_first():
    choosers = set()
    for seed in range(40):
        states = new_states(K, 1)
        B.init_one(states, np.uint64(seed), options_vector(ask_crystal=False, num_players=5))
        s = states[0]
        drawn = events_of(s, K.EV_CHOOSER)
        assert len(drawn) == 1
        c = drawn[0][1]
        choosers.add(c)
        order = []
        while int(s["decision"]) == K.D_START:
            order.append(int(s["decider"]))
            mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
            K.legal_mask(s, mask)
            assert K.step(s, int(np.flatnonzero(mask)[-1]))
        assert order == [(c + i) % 5 for i in range(5)]
        assert sorted(s["seat_start"][:5].tolist()) == [1, 2, 3, 4, 5]
    assert choosers == set(range(5))


def test_setup_six_players_every_start_field_taken():
    # l.41 6 fate crystals, l.43 24 life points (6 x 4), l.68 six key fields with their start
    # fields: six players fill every start field, so nobody chooses
    _states, s = new_game(num_players=6, seed=3)
    assert int(s["decision"]) == K.D_MAIN and sorted(s["seat_start"].tolist()) == [0, 1, 2, 3, 4, 5]
    assert [int(x) for x in s["life"]] == [4] * 6 and [int(x) for x in s["crystal"]] == [1] * 6
    sc = Scenario(num_players=6)
    sc.lay_line(0)
    sc.guard(FAR)
    sc.put(0, N20)
    for p in (1, 2, 3, 4, 5):
        sc.put(p, N19)
    assert sc.legal(K.A_ATTACK + 4) is False
    sc.put(0, N19)
    assert all(sc.legal(K.A_ATTACK + off - 1) for off in range(1, 6)), "attack any of the five others"


def test_setup_first_player_highest_2d6_ties_thrown_again():
    ties = 0
    for seed in range(60):
        states = new_states(K, 1)
        B.init_one(states, np.uint64(seed), options_vector(ask_crystal=False, num_players=4))
        s = states[0]
        throws = [(e[1], e[2]) for e in events_of(s, K.EV_FIRST_PLAYER)]
        ties += len(throws) > 4
        contenders, i = [0, 1, 2, 3], 0
        while len(contenders) > 1:  # each round: the contenders throw, the highest stay in
            rnd = throws[i : i + len(contenders)]
            assert [p for p, _ in rnd] == contenders
            i += len(contenders)
            best = max(v for _, v in rnd)
            contenders = [p for p, v in rnd if v == best]
        assert i == len(throws) and int(s["first_player"]) == contenders[0]
        first = contenders[0]
        assert int(s["seat"]) == first and events_of(s, K.EV_START_TURN)[0][1] == first
    assert ties > 0


def test_fate_crystal_may_repeat_the_first_player_throw():
    # l.76 the crystals are dealt (10.) before the throw for the first player (11.); l.360
    # "You can use your fate crystal any time"; l.361 it repeats one dice throw
    offered = 0
    for seed in range(40):
        states = new_states(K, 1)
        B.init_one(states, np.uint64(seed), options_vector(num_players=3))
        s = states[0]
        if int(s["decision"]) != K.D_REROLL:
            assert int(s["decision"]) == K.D_MAIN
            continue
        offered += 1
        p = int(s["decider"])
        rolls = {e[1]: e[2] for e in events_of(s, K.EV_FIRST_PLAYER)}
        assert rolls[p] < max(rolls.values()) or list(rolls.values()).count(rolls[p]) > 1, "only one behind"
        assert int(s["ck_kind"]) == K.CK_FIRST and int(s["first_player"]) == -1
        assert K.step(s, K.A_REROLL)
        evs = events(s)
        assert evs[0] == (K.EV_REROLL, p, K.CK_FIRST, 0, 0, 0) and int(s["crystal"][p]) == 0
        assert events_of(evs, K.EV_FIRST_PLAYER)[0][1] == p, "its throw, repeated"
        while int(s["decision"]) == K.D_REROLL:
            assert K.step(s, K.A_KEEP)
        assert int(s["decision"]) == K.D_MAIN and int(s["first_player"]) >= 0
    assert offered > 10


# =====================================================================================
# IV. Basics of the game: the round
# =====================================================================================
def test_two_actions_per_round_then_the_next_player_clockwise():
    sc = east(num_players=3)
    sc.step(K.A_MOVE + 3)
    assert int(sc.s["actions_left"]) == 1 and int(sc.s["seat"]) == 0
    evs = sc.step(K.A_MOVE + 3)
    assert K.EV_START_TURN in kinds(evs) and int(sc.s["seat"]) == 1 and int(sc.s["actions_left"]) == 2


def test_end_the_round_forfeits_what_is_left():
    sc = east()
    sc.step(K.A_MOVE + 3)
    sc.end()
    assert int(sc.s["seat"]) == 1 and int(sc.s["actions_left"]) == 2


def test_two_action_activities_need_two_actions_left():
    sc = east()
    b, u = sc.bridge(13)
    sc.put(0, b)
    sc.set(0, crystal=0)
    assert sc.legal(K.A_COME_DOWN) and sc.legal(K.A_REGENERATE)
    sc.actions(1)
    assert not sc.legal(K.A_COME_DOWN) and not sc.legal(K.A_REGENERATE)
    assert sc.legal(K.A_JUMP_DOWN), "one action still jumps"
    sc.put(0, u)
    assert not sc.legal(K.A_CLIMB_UP)
    sc.actions(2)
    assert sc.legal(K.A_CLIMB_UP)


def test_only_the_active_player_acts_in_the_main_decision():
    sc = east()
    assert sc.decider == 0
    sc.end()
    assert sc.decider == 1 and int(sc.s["seat"]) == 1


# =====================================================================================
# V. Building
# =====================================================================================
def test_build_draws_top_field_and_places_it_touching_the_board():
    sc = east()
    fork = C.TILE_NAMES.index("Y-Junction")
    sc.next_tile(fork)
    evs = sc.step(K.A_BUILD)
    assert int(sc.s["drawn_tile"]) == fork and sc.decision == K.D_PLACE
    assert int(sc.s["actions_left"]) == 1 and not evs
    ok = place_mask(sc.s)
    built = sc.s["cell_built"]
    for c in range(K.NUM_BOARD):
        touches = any(0 <= neighbor(c, d) < K.NUM_BOARD and built[neighbor(c, d)] for d in range(6))
        assert ok[c].any() == (not built[c] and touches), c
    evs = sc.step(K.A_PLACE + 13 * 6 + 1)
    assert evs[0][:5] == (K.EV_BUILD, 0, fork, 13, 1)
    assert int(sc.s["cell_tile"][13]) == fork and int(sc.s["drawn_tile"]) == -1


def test_build_keeps_a_way_from_every_start_field_to_the_central_field():
    sc = Scenario()
    sc.guard(FAR)
    sc.next_tile(STRAIGHT)
    for d in range(1, 6):  # the ring round the centre, turned away from it, except cell 19
        sc.lay(neighbor(CENTER, d), f"{(d + 1) % 6}{(d + 4) % 6}")
    sc.step(K.A_BUILD)
    ok = place_mask(sc.s)
    centre_side = [r for r in range(6) if (int(ROTATE_HEX[C.TILE_CORRIDOR_MASK[STRAIGHT, 0], r]) >> 3) & 1]
    assert np.flatnonzero(ok[19]).tolist() == centre_side == [0, 3]
    assert ok[20].all()


def _block_key_field_2(sc: Scenario) -> int:
    """Fields beside key field 2 that do not touch it, except on (0,-2): returns that cell."""
    sc.lay(cell_at(-1, -2), "03")  # its edge 1 faces the key field
    sc.lay(cell_at(1, -3), "25")  # its edge 3 faces the key field
    return cell_at(0, -2)


@pytest.mark.parametrize("other_key_reachable", [False, True])
def test_build_keeps_a_way_to_a_key_for_every_player(other_key_reachable):
    # Seat 1 holds keys 1, 2, 4, 5; key 0 lies on seat 0's own key field (not for seat 0),
    # key 3 on key field 2: seat 0's only key. Cutting key field 2 off is then not allowed,
    # unless seat 0 can reach another key (key 0 dropped by someone else).
    sc = Scenario()
    sc.guard(FAR)
    for k in (1, 2, 4, 5):
        sc.give_key(1, k)
    sc.place_key(3, key_node_of(2))
    if other_key_reachable:
        sc.place_key(0, KEY0, touched=1 << 1)
    sc.next_tile(STRAIGHT)
    last = _block_key_field_2(sc)
    sc.step(K.A_BUILD)
    ok = place_mask(sc.s)
    if other_key_reachable:
        assert ok[last].all()
    else:
        assert np.flatnonzero(ok[last]).tolist() == [2, 5], "only rotations that open towards key field 2"


def test_build_may_close_an_unused_key_field_while_keys_remain():
    # 3rd edition: every key space stays connected. 2011: every player keeps a way to a key.
    sc = Scenario()
    sc.guard(FAR)
    last = _block_key_field_2(sc)
    sc.next_tile(DEAD_END)
    sc.step(K.A_BUILD)
    assert place_mask(sc.s)[last].all()


@pytest.mark.parametrize("under_blocked", [False, True])
def test_build_bridges_count_as_ordinary_ways(under_blocked):
    # Key field 0 (seat 0's) goes out only through the bridge on 20 (edges 0-3); the corridor
    # under it (edges 2-5) leads on through cell 13. The bridge joins the two, so while 13
    # is open a dead end may go anywhere on 19; once 13 is closed, 19 is the last way.
    sc = Scenario()
    sc.guard(FAR)
    sc.lay(14, "14")
    sc.lay(27, "03")
    sc.lay(20, ("03", C.BRIDGE), ("25", C.UNDER))
    if under_blocked:
        sc.lay(13, "03")
    sc.next_tile(DEAD_END)
    sc.step(K.A_BUILD)
    ok = place_mask(sc.s)
    if under_blocked:
        assert not ok[19].any() and ok.any()
    else:
        assert ok[19].all()


def test_build_with_no_legal_place_returns_the_field_to_the_bottom():
    sc = Scenario()
    s = sc.s
    sc.guard(FAR)
    for c in range(K.NUM_BOARD):
        if s["cell_built"][c] or c == 19:
            continue
        d = next((d for d in range(6) if neighbor(CENTER, d) == c), None)
        if d is None:
            K.set_tile(s, c, C.CENTRAL_TILE_ID, 0)  # a filler open on all six sides
        else:
            sc.lay(c, f"{(d + 1) % 6}{(d + 2) % 6}{(d + 4) % 6}{(d + 5) % 6}")
    sc.next_tile(DEAD_END)
    n = int(s["tile_pool_len"])
    before = [int(t) for t in s["tile_pool"][:n]]
    evs = sc.step(K.A_BUILD)
    assert evs[0][:3] == (K.EV_BUILD_NOWHERE, 0, DEAD_END)
    assert [int(t) for t in s["tile_pool"][:n]] == [DEAD_END, *before[:-1]]
    assert int(s["actions_left"]) == 1 and sc.decision == K.D_MAIN


def test_build_not_offered_without_a_field_left():
    sc = east()
    assert sc.legal(K.A_BUILD)
    sc.empty_pool()
    assert not sc.legal(K.A_BUILD)


# =====================================================================================
# Making a move
# =====================================================================================
def test_move_along_connected_corridors_costs_one_action():
    sc = east()
    evs = sc.move(3)
    assert evs[0][:5] == (K.EV_MOVE, 0, START0, KEY0, K.M_ENTER)
    sc.move(3)
    assert sc.pos(0) == N20 and int(sc.s["seat"]) == 1
    sc.fresh_turn(0)
    assert not sc.legal(K.A_MOVE + 1), "no corridor that way"
    sc.move(3)
    sc.move(3)
    assert sc.pos(0) == CENTRE, "a player may enter the central field (no key: no win)"
    assert int(sc.s["outcome"]) == K.RUNNING


def test_move_needs_corridors_on_both_fields():
    sc = east()
    sc.lay(13, "25")  # its edge 5 faces 20, whose straight corridor has no edge 2
    sc.put(0, node(13))
    assert (int(sc.s["node_mask"][node(13)]) >> 5) & 1 and not sc.legal(K.A_MOVE + 5)


def test_move_never_into_another_players_start_field():
    sc = Scenario(num_players=3)
    sc.guard(FAR)
    sc.put(0, key_node_of(2))  # seat 1's key field (3 players: fields 0, 2, 4)
    assert K.move_target(sc.s, 0, 2) == -1
    sc.put(0, key_node_of(1))  # an unused field's key field: its start field is no one's
    assert K.move_target(sc.s, 0, 1) == -1
    sc.put(0, KEY0)
    assert K.move_target(sc.s, 0, 0) == START0, "its own start field"


def test_lifting_a_key_is_free_after_the_obstacles():
    # l.120: "only after overcoming all obstacles in the given corridor (in the following
    # order: the Guard, a trap, other players)": a trap and a player stand on the key
    sc = east(num_players=3)
    sc.place_key(3, N20)
    sc.place_trap(N20, "Falling Rocks")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.dice(6, 6, 1, 1, 6, 6)  # the trap crossed; the player there attacks and loses
    evs = sc.move(0)
    assert [e[0] for e in evs if e[0] in (K.EV_TRAP_CHECK, K.EV_FIGHT)] == [K.EV_TRAP_CHECK]
    assert sc.decision == K.D_OCCUPANT and not sc.legal(K.A_LIFT_KEY + 3), "the players come first"
    assert int(sc.s["key_node"][3]) == N20 and int(sc.s["key_holder"][3]) == -1, "nothing lifted on the way in"
    sc.step(K.A_ATTACK_NEWCOMER)
    assert sc.decision == K.D_ENTRANT
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_MAIN and sc.legal(K.A_LIFT_KEY + 3) and int(sc.s["actions_left"]) == 1
    evs = sc.step(K.A_LIFT_KEY + 3)
    assert evs == [(K.EV_LIFT_KEY, 0, 3, 0, 0, 0)]
    assert int(sc.s["key_holder"][3]) == 0 and int(sc.s["actions_left"]) == 1, "free"


def test_no_key_lifted_after_falling_into_the_trap_of_its_corridor():
    # l.112 "unless you face some obstacles (... cross the traps ...)"; l.245 "lower – a
    # player falls into a trap": fallen in, it has not crossed it
    sc = east()
    sc.place_key(3, N20)
    sc.place_trap(N20, "Falling Rocks")
    sc.put(0, N19)
    sc.rolls(2)
    sc.move(0)
    assert sc.pos(0) == N20 and int(sc.s["life"][0]) == 3 and not sc.legal(K.A_LIFT_KEY + 3)
    sc.move(3)
    sc.fresh_turn(0)
    sc.rolls(12)
    sc.move(0)
    assert sc.legal(K.A_LIFT_KEY + 3), "out and in again, the trap crossed this time"


def test_lifting_a_key_still_allowed_after_the_last_action():
    sc = east()
    sc.place_key(3, N20)
    sc.put(0, N19)
    sc.actions(1)
    sc.move(0)
    assert sc.decider == 0 and int(sc.s["seat"]) == 0 and int(sc.s["actions_left"]) == 0
    assert sc.legal_actions() == [K.A_LIFT_KEY + 3, K.A_END_TURN]
    sc.step(K.A_LIFT_KEY + 3)
    assert int(sc.s["seat"]) == 1, "nothing left to do: the round ends"


def test_no_player_lifts_the_key_next_to_its_own_start_field():
    sc = east()
    sc.move(3)
    assert sc.pos(0) == KEY0 and not sc.legal(K.A_LIFT_KEY + 0)


def test_own_key_may_be_lifted_once_another_player_picked_it_up_and_lost_it():
    sc = east()
    sc.place_key(0, KEY0, touched=1 << 1)
    sc.move(3)
    assert sc.legal(K.A_LIFT_KEY + 0)
    sc.place_key(0, KEY0, touched=1 << 0)  # only ever held by seat 0 itself
    assert not sc.legal(K.A_LIFT_KEY + 0)
    sc.place_key(0, N20)  # its own key, lying elsewhere: not next to its start field
    sc.put(0, N20)
    assert sc.legal(K.A_LIFT_KEY + 0)


def test_a_player_may_hold_any_number_of_keys():
    sc = east()
    for k in (1, 2, 4):
        sc.place_key(k, N20)
    sc.put(0, N20)
    for k in (1, 2, 4):
        sc.step(K.A_LIFT_KEY + k)
    assert K.keys_held(sc.s, 0) == 3


# =====================================================================================
# Jumping down, coming down and climbing up a bridge
# =====================================================================================
def bridge_scene(**options) -> tuple[Scenario, int, int]:
    sc = east(**options)
    b, u = sc.bridge(13)
    return sc, b, u


def test_jump_down_costs_one_action_and_one_die():
    sc, b, u = bridge_scene()
    sc.put(0, b)
    sc.dice(5)
    evs = sc.step(K.A_JUMP_DOWN)
    assert evs[0] == (K.EV_JUMP, 0, 5, 1, 0, 0)
    assert sc.pos(0) == u and int(sc.s["actions_left"]) == 1 and int(sc.s["life"][0]) == 4


@pytest.mark.parametrize("die", [1, 2, 3])
def test_jump_down_1_to_3_fails_two_life_and_a_stun_point(die):
    sc, b, u = bridge_scene()
    sc.put(0, b)
    sc.dice(die)
    sc.step(K.A_JUMP_DOWN)
    assert sc.pos(0) == u, "it still lands below"
    assert int(sc.s["life"][0]) == 2 and int(sc.s["stun"][0]) == 1


@pytest.mark.parametrize("die", [4, 5, 6])
def test_jump_down_4_to_6_succeeds(die):
    sc, b, u = bridge_scene()
    sc.put(0, b)
    sc.dice(die)
    sc.step(K.A_JUMP_DOWN)
    assert sc.pos(0) == u and int(sc.s["life"][0]) == 4 and int(sc.s["stun"][0]) == 0


def test_jump_down_only_from_a_bridge_and_climb_up_only_from_under_it():
    sc, b, u = bridge_scene()
    sc.put(0, u)
    assert not sc.legal(K.A_JUMP_DOWN) and not sc.legal(K.A_COME_DOWN) and sc.legal(K.A_CLIMB_UP)
    sc.put(0, b)
    assert sc.legal(K.A_JUMP_DOWN) and sc.legal(K.A_COME_DOWN) and not sc.legal(K.A_CLIMB_UP)
    sc.put(0, N19)
    assert not any(sc.legal(a) for a in (K.A_JUMP_DOWN, K.A_COME_DOWN, K.A_CLIMB_UP))


def test_come_down_and_climb_up_cost_two_actions_and_stay_on_the_field():
    sc, b, u = bridge_scene()
    sc.put(0, b)
    evs = sc.step(K.A_COME_DOWN)
    assert evs[0][:5] == (K.EV_MOVE, 0, b, u, K.M_DOWN) and int(sc.s["seat"]) == 1
    sc.fresh_turn(0)
    evs = sc.step(K.A_CLIMB_UP)
    assert evs[0][:5] == (K.EV_MOVE, 0, u, b, K.M_CLIMB) and int(sc.s["seat"]) == 1
    assert b // K.MC == u // K.MC == 13


def test_jump_down_killed_by_the_fall_drops_the_key_below():
    sc, b, u = bridge_scene()
    sc.put(0, b)
    sc.set(0, life=2)
    sc.give_key(0, 3)
    sc.dice(2)
    sc.step(K.A_JUMP_DOWN)
    assert sc.pos(0) == START0 and int(sc.s["key_node"][3]) == u and int(sc.s["life"][0]) == 4


def test_stat_jump_down_success_rate_one_half():
    sc, b, _u = bridge_scene()
    sc.put(0, b)
    n = 6000
    ok = sum(int(s["life"][0]) == 4 for s in trials(sc, K.A_JUMP_DOWN, n))
    assert abs(ok / n - 0.5) < 4 * np.sqrt(0.25 / n), ok / n


# =====================================================================================
# Setting and crossing traps
# =====================================================================================
def trap_actions(sc: Scenario) -> np.ndarray:
    return sc.mask()[K.A_SET_TRAP : K.A_SET_TRAP + K.NUM_BOARD_NODES]


def test_set_trap_draws_a_face_down_token_for_one_action():
    sc = east()
    sc.put(0, N19)
    top = int(sc.s["trap_pool"][int(sc.s["trap_pool_len"]) - 1])
    evs = sc.step(K.A_SET_TRAP + N20)
    assert evs == [(K.EV_TRAP_SET, 0, N20, 0, 0, 0)]
    assert int(sc.s["node_trap"][N20]) == top and not sc.s["trap_up"][N20]
    assert int(sc.s["trap_pool_len"]) == 56 and int(sc.s["actions_left"]) == 1


def test_set_trap_rules_one_per_corridor_not_where_another_player_stands():
    sc = east()
    sc.put(0, N19)
    sc.put(1, N20)
    m = trap_actions(sc)
    assert not m[N20], "another player stands there"
    assert m[N19], "the setter's own corridor is allowed"
    assert m[KEY0], "a key field is allowed"
    assert not m[CENTRE], "never the central field"
    sc.place_trap(N19, "Net")
    assert not trap_actions(sc)[N19], "one trap per corridor"
    assert trap_actions(sc).sum() == sum(
        1 for n in range(K.NUM_BOARD_NODES) if sc.s["node_mask"][n] and n not in (CENTRE, N19, N20)
    )


def test_set_trap_never_on_start_fields():
    sc = east()
    assert not K.trap_settable(sc.s, START0) and not K.trap_settable(sc.s, START3)
    assert START0 >= K.NUM_BOARD_NODES, "start fields lie beyond the corridors a trap action names"


def test_trap_uncovered_on_entry_and_checked_against_its_number():
    sc = east()
    sc.put(0, N19)
    sc.place_trap(N20, "Falling Rocks")
    sc.rolls(9)
    evs = sc.move(0)
    ty = C.TRAP_NAMES.index("Falling Rocks")
    assert (K.EV_TRAP_REVEALED, 0, N20, ty, 0, 0) in evs
    assert (K.EV_TRAP_CHECK, 0, ty, 9, 7, K.M_ENTER) in evs
    assert sc.s["trap_up"][N20] and int(sc.s["life"][0]) == 4


@pytest.mark.parametrize(("roll", "hurt"), [(6, True), (7, False)])
def test_trap_lower_than_its_number_falls_in(roll, hurt):
    sc = east()
    sc.put(0, N19)
    sc.place_trap(N20, "Falling Rocks")  # 7 (5): lose 1 life
    sc.rolls(roll)
    sc.move(0)
    assert int(sc.s["life"][0]) == (3 if hurt else 4)


def test_trap_bracket_number_after_the_first_failed_attempt():
    sc = east(num_players=3)
    sc.put(0, N19)
    sc.place_trap(N20, "Falling Rocks")  # 7 (5)
    sc.rolls(6)
    sc.move(0)
    assert sc.s["trap_failed"][N20] and int(sc.s["life"][0]) == 3
    sc.fresh_turn(1)
    sc.put(1, N19)
    sc.rolls(5)
    evs = sc.move(0)
    ty = C.TRAP_NAMES.index("Falling Rocks")
    assert (K.EV_TRAP_CHECK, 1, ty, 5, 5, K.M_ENTER) in evs, "the bracketed 5 applies now, to everyone"
    assert int(sc.s["life"][1]) == 4


def test_trap_affects_every_player_including_the_one_who_set_it():
    sc = east()
    sc.put(0, N19)
    sc.next_trap("Falling Rocks")
    sc.step(K.A_SET_TRAP + N20)
    sc.rolls(3)
    sc.move(0)
    assert int(sc.s["life"][0]) == 3


def test_door_trap_on_the_key_field_ignored_on_the_way_out_of_the_start_field():
    # l.224 "A trap can be placed on the key field, however, a player leaving a start field
    # ignores it": a door trap there works on leaving the key field, which is that way out
    sc = east()
    sc.place_trap(KEY0, "Jammed Door")
    sc.rolls(2, 2)
    sc.move(3)
    assert sc.pos(0) == KEY0
    evs = sc.move(3)
    assert sc.pos(0) == N20 and K.EV_TRAP_CHECK not in kinds(evs) and K.EV_HELD not in kinds(evs)
    sc.fresh_turn(0)
    sc.move(0)
    assert sc.pos(0) == KEY0, "back from the labyrinth: not leaving the start field now"
    sc.rolls(2)
    evs = sc.move(3)
    assert sc.pos(0) == KEY0 and K.EV_HELD in kinds(evs), "the door holds it"


def test_trap_on_the_key_field_ignored_when_leaving_the_start_field():
    sc = east()
    sc.place_trap(KEY0, "Falling Rocks")
    sc.rolls(2)
    evs = sc.move(3)
    assert sc.pos(0) == KEY0 and K.EV_TRAP_CHECK not in kinds(evs) and not sc.s["trap_up"][KEY0]
    sc.fresh_turn(0)
    sc.put(0, N20)
    sc.rolls(2)
    evs = sc.move(0)
    assert K.EV_TRAP_CHECK in kinds(evs), "entering it any other way counts"


@pytest.mark.parametrize(
    ("name", "life", "stun", "where", "crystal"),
    [
        ("Poisoned Darts", 3, 0, "here", 1),
        ("Sleeping Gas", 4, 1, "here", 1),
        ("Stone Hammer", 3, 1, "here", 1),
        ("Blinding Flash", 4, 1, "here", 1),
        ("Magic Barrier", 4, 0, "back", 1),
        ("Wall of Fire", 4, 0, "back", 1),
    ],
)
def test_trap_effect_when_entering(name, life, stun, where, crystal):
    sc = east()
    sc.put(0, N19)
    if where == "back":
        sc.put(1, N19)  # turned back into a corridor with a player: an encounter (l.253)
    sc.set(0, crystal=1)
    sc.s["ask_crystal"] = 0
    sc.place_trap(N20, name)
    sc.rolls(2)
    evs = sc.move(0)
    assert int(sc.s["life"][0]) == life and int(sc.s["stun"][0]) == stun and int(sc.s["crystal"][0]) == crystal
    assert sc.pos(0) == {"here": N20, "back": N19}[where]
    if where == "back":
        assert (K.EV_TURNED_BACK, 0, N20, N19, 0, 0) in evs
        assert sc.decision == K.D_OCCUPANT and sc.decider == 1, "the player there may attack"


def _bridge_trap(name: str, on: str) -> tuple[Scenario, int, int]:
    sc, b, u = bridge_scene()
    sc.place_trap(u if on == "under" else b, name)
    return sc, b, u


@pytest.mark.parametrize(
    ("name", "how", "checked", "life", "stun"),
    [
        ("Spiked Pit", "enter", 8, 3, 0),
        ("Spiked Pit", "down", 9, 2, 0),
        ("Spiked Pit", "climb", 0, 4, 0),
        ("Swinging Blade", "climb", 9, 2, 0),
        ("Swinging Blade", "down", 0, 4, 0),
        ("Collapsing Floor", "enter", 6, 4, 1),
        ("Collapsing Floor", "down", 10, 2, 1),
        ("Slippery Ladder", "enter", 0, 4, 0),
        ("Slippery Ladder", "climb", 10, 3, 0),
    ],
)
def test_trap_effect_depends_on_entering_climbing_up_or_coming_down(name, how, checked, life, stun):
    on = "bridge" if how == "climb" else "under"
    sc, b, u = _bridge_trap(name, on)
    if how == "enter":  # the corridor under the bridge, entered from cell 8 (edge 1 of 13)
        sc.lay(8, "14")
        sc.put(0, node(8))
        action = K.A_MOVE + 4
    elif how == "down":
        sc.put(0, b)
        action = K.A_COME_DOWN
    else:
        sc.put(0, u)
        action = K.A_CLIMB_UP
    sc.rolls(2)
    evs = sc.step(action)
    checks = events_of(evs, K.EV_TRAP_CHECK)
    assert [e[4] for e in checks] == ([checked] if checked else [])
    assert int(sc.s["life"][0]) == life and int(sc.s["stun"][0]) == stun
    target = u if on == "under" else b
    assert sc.s["trap_up"][target], "uncovered whichever way it was entered"


def test_turn_back_trap_when_climbing_up_sends_back_under_the_bridge():
    sc, b, u = _bridge_trap("Wall of Fire", "bridge")
    sc.put(0, u)
    sc.put(1, u)
    sc.rolls(2)
    evs = sc.step(K.A_CLIMB_UP)
    assert sc.pos(0) == u and int(sc.s["life"][0]) == 3
    assert (K.EV_TURNED_BACK, 0, b, u, 0, 0) in evs
    # "An encounter takes place each time one player enters a corridor, where there is
    # another player" (l.253): being turned back into one too
    assert sc.decision == K.D_OCCUPANT and sc.decider == 1
    sc.dice(6, 6, 1, 1)
    evs = sc.step(K.A_ATTACK_NEWCOMER)
    assert events_of(evs, K.EV_FIGHT)[0][1:5] == (0, 0b10, 12, 1), "2 dice minus the life the fire took"
    assert sc.decision == K.D_ENTRANT and sc.decider == 0


def test_door_trap_checked_when_trying_to_leave_not_on_entry():
    sc = east()
    sc.put(0, N19)
    sc.place_trap(N20, "Jammed Door")  # 8 (6): held in the corridor
    sc.rolls(2)
    evs = sc.move(0)
    assert sc.pos(0) == N20 and K.EV_TRAP_CHECK not in kinds(evs), "entering a door trap's corridor is free"
    assert sc.s["trap_up"][N20], "but it is uncovered"
    sc.rolls(7)
    evs = sc.move(3)
    ty = C.TRAP_NAMES.index("Jammed Door")
    assert (K.EV_TRAP_CHECK, 0, ty, 7, 8, K.M_LEAVE) in evs and (K.EV_HELD, 0, N20, 0, 0, 0) in evs
    assert sc.pos(0) == N20 and int(sc.s["seat"]) == 1, "held: the action is spent"
    sc.fresh_turn(0)
    sc.rolls(6)
    evs = sc.move(3)
    assert (K.EV_TRAP_CHECK, 0, ty, 6, 6, K.M_LEAVE) in evs and sc.pos(0) == N19, "the bracket: 6 now"


def test_door_trap_set_face_down_in_own_corridor_checked_on_leaving():
    sc = east()
    sc.put(0, N20)
    sc.place_trap(N20, "Portcullis")  # 9 (7): held, lose 1 life
    sc.rolls(3)
    evs = sc.move(3)
    assert K.EV_TRAP_REVEALED in kinds(evs) and sc.pos(0) == N20 and int(sc.s["life"][0]) == 3


def test_door_traps_ignored_when_changing_level():
    sc, b, u = bridge_scene()
    sc.place_trap(b, "Jammed Door")
    sc.put(0, b)
    sc.rolls(2, 2)
    evs = sc.step(K.A_COME_DOWN)
    assert sc.pos(0) == u and K.EV_TRAP_CHECK not in kinds(evs)


@pytest.mark.parametrize("name", ["Jammed Door", "Portcullis", "Shock Lock"])
def test_door_traps_never_work_on_entering_climbing_or_coming_down(name):
    ty = C.TRAP_NAMES.index(name)
    assert C.TRAP_COLOUR[ty] == C.DOOR
    assert (C.TRAP_DIFFICULTY[ty, : C.MODE_LEAVE] == 0).all() and C.TRAP_DIFFICULTY[ty, C.MODE_LEAVE] > 0


# =====================================================================================
# Movement and Guard encounter
# =====================================================================================
def guard_line() -> Scenario:
    """The Guard on 19 (east of the centre), which it entered from the centre in the previous
    round: its next step can only go east, to 20."""
    sc = east(num_players=3)
    sc.s["turn"] = 0
    sc.guard(N19, came_from=CENTRE, from_turn=-1)
    return sc


def test_move_the_guard_draws_the_top_card_once_per_round():
    sc = guard_line()
    card = sc.next_guard_card(C.GUARD_STAY_CARD)
    evs = sc.step(K.A_MOVE_GUARD)
    assert evs[0] == (K.EV_GUARD_CARD, 0, C.GUARD_STAY_CARD, 0, 0, 0)
    assert int(sc.s["guard_deck"][0]) == card and int(sc.s["guard_pos"]) == 1
    assert int(sc.s["guard_node"]) == N19 and int(sc.s["actions_left"]) == 1
    assert not sc.legal(K.A_MOVE_GUARD), "only once per round"


def test_guard_footprints_move_it_that_many_times_the_player_choosing():
    sc = guard_line()
    sc.guard(N19, came_from=CENTRE, from_turn=-10)  # long ago: both ways open
    sc.next_guard_card(C.GUARD_MOVE, 2)
    sc.step(K.A_MOVE_GUARD)
    assert sc.decision == K.D_GUARD_DIR and sc.legal_actions() == [K.A_GUARD_DIR + 0, K.A_GUARD_DIR + 3]
    evs = sc.step(K.A_GUARD_DIR + 0)
    # never straight back within the move: one way left, taken without asking
    assert [(e[2], e[3]) for e in events_of(evs, K.EV_GUARD_MOVE)] == [(N19, N20), (N20, KEY0)]
    assert int(sc.s["guard_node"]) == KEY0 and sc.decision == K.D_MAIN


def test_guard_never_back_into_the_corridor_it_came_from_in_the_previous_round():
    sc = guard_line()
    sc.guard(N19, came_from=CENTRE, from_turn=-1)  # moved there in the previous player's round
    sc.s["turn"] = 0
    sc.next_guard_card(C.GUARD_MOVE, 1)
    evs = sc.step(K.A_MOVE_GUARD)
    assert int(sc.s["guard_node"]) == N20, "only one way left: taken without asking"
    assert (K.EV_GUARD_MOVE, -1, N19, N20, 0, 0) in evs


def test_guard_at_the_end_of_a_corridor_comes_back():
    sc = guard_line()
    sc.guard(KEY0, came_from=N20, from_turn=-1)  # the key field leads nowhere else yet
    sc.next_guard_card(C.GUARD_MOVE, 2)
    evs = sc.step(K.A_MOVE_GUARD)
    moves = [(e[2], e[3]) for e in events_of(evs, K.EV_GUARD_MOVE)]
    assert moves == [(KEY0, N20), (N20, N19)], "the end of a corridor: back where it came from, then on"


def test_guard_sun_burst_back_to_the_central_field():
    sc = guard_line()
    sc.next_guard_card(C.GUARD_SUN)
    sc.step(K.A_MOVE_GUARD)
    assert int(sc.s["guard_node"]) == CENTRE


def test_guard_crescent_moon_falls_asleep_and_can_be_passed():
    sc = guard_line()
    sc.put(0, N20)
    sc.next_guard_card(C.GUARD_MOON)
    evs = sc.step(K.A_MOVE_GUARD)
    assert sc.s["guard_asleep"] and (K.EV_GUARD_SLEEP, -1, 1, 0, 0, 0) in evs
    evs = sc.move(3)
    assert sc.pos(0) == N19 and K.EV_GUARD_MEETING not in kinds(evs), "passed without consequences"


def test_a_guard_card_only_wakes_a_sleeping_guard_and_it_meets_whoever_stands_there():
    sc = guard_line()
    sc.guard(N19, asleep=True)
    sc.put(1, N19)
    sc.next_guard_card(C.GUARD_MOVE, 3)
    sc.rolls(5)
    evs = sc.step(K.A_MOVE_GUARD)
    assert not sc.s["guard_asleep"] and int(sc.s["guard_node"]) == N19, "the card does nothing else"
    assert (K.EV_GUARD_MEETING, 1, 5, 0, 0, 0) in evs and sc.pos(1) == start_node_of(2)


def test_waking_guard_meets_the_players_on_its_field_in_every_corridor():
    # l.337 "When the Guard wakes up and there is a player standing in his field – they
    # meet each other": the field, not only his corridor (here: asleep on a bridge, the
    # player under it)
    sc = guard_line()
    b, u = sc.bridge(13)
    sc.guard(b, asleep=True)
    sc.put(1, u)
    sc.put(2, N20)  # another field: not met
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.rolls(5)
    evs = sc.step(K.A_MOVE_GUARD)
    assert not sc.s["guard_asleep"] and int(sc.s["guard_node"]) == b
    assert [e[1] for e in events_of(evs, K.EV_GUARD_MEETING)] == [1] and sc.pos(1) == start_node_of(2)
    assert sc.pos(2) == N20


def test_guard_entering_a_corridor_meets_the_players_there_12_stays():
    sc = guard_line()
    sc.put(1, N20)
    sc.put(2, N20)
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.rolls(12, 11)
    evs = sc.step(K.A_MOVE_GUARD)
    meets = events_of(evs, K.EV_GUARD_MEETING)
    assert [(e[1], e[2], e[3]) for e in meets] == [(1, 12, 1), (2, 11, 0)]
    assert sc.pos(1) == N20 and sc.pos(2) == start_node_of(4)


def test_guard_meeting_sends_home_with_keys_kept():
    sc = guard_line()
    sc.put(1, N20)
    sc.give_key(1, 5)
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.rolls(7)
    sc.step(K.A_MOVE_GUARD)
    assert sc.pos(1) == start_node_of(2) and int(sc.s["key_holder"][5]) == 1


def test_guard_met_by_a_player_entering_its_corridor():
    sc = guard_line()
    sc.put(0, N20)
    sc.rolls(4)
    evs = sc.move(3)
    assert (K.EV_GUARD_MEETING, 0, 4, 0, 0, 0) in evs and sc.pos(0) == START0


def test_guard_meets_along_its_way_not_only_where_it_stops():
    sc = guard_line()
    sc.put(1, N20)
    sc.next_guard_card(C.GUARD_MOVE, 2)
    sc.rolls(3)
    sc.step(K.A_MOVE_GUARD)
    assert sc.pos(1) == start_node_of(2) and int(sc.s["guard_node"]) == KEY0


def test_guard_ignores_a_player_already_standing_with_it():
    # l.330: the Guard moved by another card "ignores the player standing in the same
    # corridor"; here it walks off to the dead-end key field and back onto that player
    sc = guard_line()
    sc.guard(N20, came_from=N19, from_turn=-1)
    sc.put(1, N20)  # met the Guard earlier and threw 12
    sc.next_guard_card(C.GUARD_MOVE, 2)
    evs = sc.step(K.A_MOVE_GUARD)
    assert [(e[2], e[3]) for e in events_of(evs, K.EV_GUARD_MOVE)] == [(N20, KEY0), (KEY0, N20)]
    assert K.EV_GUARD_MEETING not in kinds(evs) and sc.pos(1) == N20
    sc.fresh_turn(0)
    sc.guard(N19, came_from=CENTRE, from_turn=-1)
    sc.put(1, N19)
    sc.next_guard_card(C.GUARD_STAY_CARD)
    evs = sc.step(K.A_MOVE_GUARD)
    assert K.EV_GUARD_MEETING not in kinds(evs) and sc.pos(1) == N19
    sc.fresh_turn(0)
    sc.guard(CENTRE)
    sc.put(1, CENTRE)
    sc.next_guard_card(C.GUARD_SUN)
    evs = sc.step(K.A_MOVE_GUARD)
    assert K.EV_GUARD_MEETING not in kinds(evs), "already at the centre with it: ignored"


def test_guard_sends_a_stunned_player_home_at_once():
    sc = guard_line()
    sc.put(1, N20)
    sc.set(1, stun=1, life=2)
    sc.next_guard_card(C.GUARD_MOVE, 1)
    evs = sc.step(K.A_MOVE_GUARD)
    assert (K.EV_GUARD_MEETING, 1, 0, 0, 0, 0) in evs and sc.pos(1) == start_node_of(2)
    assert int(sc.s["stun"][1]) == 0 and int(sc.s["life"][1]) == 4, "at home: restored"


def test_stunned_player_coming_into_the_awake_guards_corridor_goes_home_at_once():
    sc = guard_line()
    b, u = sc.bridge(13)
    sc.guard(u)
    sc.put(0, b)
    sc.dice(1)  # a failed jump: stunned, and below waits the Guard
    evs = sc.step(K.A_JUMP_DOWN)
    assert (K.EV_GUARD_MEETING, 0, 0, 0, 0, 0) in evs and sc.pos(0) == START0
    assert int(sc.s["stun"][0]) == 0 and int(sc.s["life"][0]) == 4


def test_guard_ignores_traps_and_never_changes_level():
    sc = guard_line()
    sc.place_trap(N20, "Falling Rocks")
    b, _u = sc.bridge(13)
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.step(K.A_MOVE_GUARD)
    assert int(sc.s["guard_node"]) == N20 and not sc.s["trap_up"][N20]
    sc.lay(12, "03")  # joins the bridge's west end
    sc.guard(b, came_from=-1)
    assert K.guard_options(sc.s) == 1 << 3, "along the bridge only, never down to the corridor under it"


def test_guard_never_enters_a_start_field():
    sc = guard_line()
    sc.guard(KEY0, came_from=N20, from_turn=-10)
    opts = K.guard_options(sc.s)
    assert not (opts >> 0) & 1 and (opts >> 3) & 1


def test_guard_cards_shuffled_again_when_all_used():
    # l.312 "After using all of them, they should be shuffled": a new order, the same cards
    sc = guard_line()
    sc.s["guard_pos"] = K.NUM_GUARD_CARDS
    before = sc.s["guard_deck"].copy()
    orders = set()
    for trial in trials(sc, K.A_MOVE_GUARD, 8):
        assert int(trial["guard_pos"]) == 1
        deck = trial["guard_deck"].copy()
        assert sorted(deck.tolist()) == sorted(before.tolist())
        orders.add(deck.tobytes())
    assert before.tobytes() not in orders and len(orders) == 8, "shuffled: a new order each time"


def test_stat_guard_meeting_stays_one_time_in_36():
    sc = guard_line()
    sc.put(0, N20)
    n = 20000
    stay = sum(int(s["position"][0]) == N19 for s in trials(sc, K.A_MOVE + 3, n))
    p = 1 / 36
    assert abs(stay / n - p) < 4 * np.sqrt(p * (1 - p) / n), stay / n


# =====================================================================================
# Stun points and rest; life points
# =====================================================================================
def test_stunned_player_can_only_rest_one_point_per_action():
    sc = east()
    sc.put(0, N20)
    sc.set(0, stun=2)
    assert sc.legal_actions() == [K.A_REST, K.A_END_TURN]
    evs = sc.step(K.A_REST)
    assert evs == [(K.EV_REST, 0, 1, 0, 0, 0)] and int(sc.s["stun"][0]) == 1
    assert sc.legal_actions() == [K.A_REST, K.A_END_TURN]
    sc.step(K.A_REST)
    assert int(sc.s["stun"][0]) == 0 and int(sc.s["seat"]) == 1, "both actions spent: the round passed on"


def test_stunned_player_may_lift_a_key_for_free():
    # l.108-112: "Without using actions you may: ... Lift a key"; l.349 bars a stunned
    # player only from "any other actions apart from getting rid of the stun point"
    sc = east()
    sc.put(0, N20)
    sc.set(0, stun=2)
    sc.place_key(3, N20)
    assert sc.legal_actions() == [K.A_REST, K.A_LIFT_KEY + 3, K.A_END_TURN]
    sc.step(K.A_REST)
    sc.step(K.A_REST)
    assert int(sc.s["stun"][0]) == 0 and int(sc.s["seat"]) == 0, "rested, the free lift still to do"
    sc.set(0, stun=1)
    sc.actions(0)
    assert sc.legal_actions() == [K.A_LIFT_KEY + 3, K.A_END_TURN], "no action left, still stunned: free"
    evs = sc.step(K.A_LIFT_KEY + 3)
    assert evs[0] == (K.EV_LIFT_KEY, 0, 3, 0, 0, 0) and int(sc.s["key_holder"][3]) == 0


def test_losing_all_life_sends_home_leaving_one_key_keeping_the_others():
    sc = east()
    sc.put(0, N19)
    sc.set(0, life=1)
    sc.give_key(0, 2)
    sc.give_key(0, 4)
    sc.place_trap(N20, "Poisoned Darts")
    sc.rolls(2)
    evs = sc.move(0)
    assert (K.EV_DROP_KEY, 0, 2, N20, 0, 0) in evs
    assert sc.pos(0) == START0 and int(sc.s["key_node"][2]) == N20 and int(sc.s["key_holder"][4]) == 0
    assert int(sc.s["life"][0]) == 4


def test_back_at_the_start_field_life_and_stun_restored_crystal_not():
    sc = east()
    sc.put(0, KEY0)
    sc.set(0, life=2, stun=0, crystal=0)
    evs = sc.move(0)
    assert sc.pos(0) == START0 and (K.EV_RESTORED, 0, 0, 0, 0, 0) in evs
    assert int(sc.s["life"][0]) == 4 and int(sc.s["crystal"][0]) == 0


# =====================================================================================
# Using and regenerating fate crystals
# =====================================================================================
def test_fate_crystal_repeats_a_failed_throw_of_its_owner():
    sc = east()
    sc.set(0, crystal=1)
    sc.put(0, N19)
    sc.place_trap(N20, "Falling Rocks")
    sc.rolls(3, 10)
    sc.move(0)
    assert sc.decision == K.D_REROLL and sc.decider == 0
    evs = sc.step(K.A_REROLL)
    assert (K.EV_REROLL, 0, K.CK_TRAP, 0, 0, 0) in evs and int(sc.s["crystal"][0]) == 0
    assert int(sc.s["life"][0]) == 4


def test_fate_crystal_not_offered_after_a_good_throw_nor_when_face_down():
    sc = east()
    sc.set(0, crystal=1)
    sc.put(0, N19)
    sc.place_trap(N20, "Falling Rocks")
    sc.rolls(9)
    sc.move(0)
    assert sc.decision == K.D_MAIN
    sc2 = east()
    sc2.put(0, N19)
    sc2.place_trap(N20, "Falling Rocks")
    sc2.rolls(3)
    sc2.move(0)
    assert sc2.decision == K.D_MAIN and int(sc2.s["life"][0]) == 3


def test_repeated_throw_is_not_a_new_throw_the_bracket_does_not_apply():
    sc = east()
    sc.set(0, crystal=1)
    sc.put(0, N19)
    sc.place_trap(N20, "Falling Rocks")  # 7, then (5)
    sc.rolls(3, 6)
    sc.move(0)
    evs = sc.step(K.A_REROLL)
    ty = C.TRAP_NAMES.index("Falling Rocks")
    assert (K.EV_TRAP_CHECK, 0, ty, 6, 7, K.M_ENTER) in evs, "still against 7, not the bracketed 5"
    assert int(sc.s["life"][0]) == 3


def test_fate_crystal_repeats_the_jump_die_and_the_guard_throw():
    sc, b, u = bridge_scene()
    sc.set(0, crystal=1)
    sc.put(0, b)
    sc.dice(1, 6)
    sc.step(K.A_JUMP_DOWN)
    assert sc.decision == K.D_REROLL
    sc.step(K.A_REROLL)
    assert int(sc.s["life"][0]) == 4 and sc.pos(0) == u
    sc = guard_line()
    sc.set(0, crystal=1)
    sc.put(0, N20)
    sc.rolls(5, 12)
    sc.move(3)
    sc.step(K.A_REROLL)
    assert sc.pos(0) == N19


def test_regenerate_the_fate_crystal_costs_two_actions_at_most_one():
    sc = east()
    sc.set(0, crystal=1)
    assert not sc.legal(K.A_REGENERATE), "at most one crystal"
    sc.set(0, crystal=0)
    evs = sc.step(K.A_REGENERATE)
    assert (K.EV_CRYSTAL, 0, 1, 0, 0, 0) in evs and int(sc.s["crystal"][0]) == 1 and int(sc.s["seat"]) == 1


def test_ask_crystal_false_never_asks():
    sc = Scenario(ask_crystal=False)
    sc.lay_line(0)
    sc.guard(FAR)
    sc.put(0, N19)
    sc.place_trap(N20, "Falling Rocks")
    sc.rolls(2)
    sc.move(0)
    assert sc.decision == K.D_MAIN and int(sc.s["crystal"][0]) == 1 and int(sc.s["life"][0]) == 3


# =====================================================================================
# III. Objective of the game; truncation
# =====================================================================================
def test_win_reaching_the_central_field_with_a_key():
    sc = east(num_players=3)
    sc.give_key(0, 2)
    sc.put(0, N19)
    evs = sc.move(3)
    assert (K.EV_WIN, 0, 0, 0, 0, 0) in evs and int(sc.s["outcome"]) == K.WON
    assert sc.returns()[:3].tolist() == [1.0, -0.5, -0.5]


def test_no_win_on_the_central_field_without_a_key():
    sc = east()
    sc.put(0, N19)
    sc.move(3)
    assert int(sc.s["outcome"]) == K.RUNNING


def test_win_lifting_a_key_on_the_central_field():
    sc = east()
    sc.put(0, CENTRE)
    sc.guard(FAR)
    sc.place_key(3, CENTRE, touched=2)
    sc.step(K.A_LIFT_KEY + 3)
    assert int(sc.s["outcome"]) == K.WON and int(sc.s["winner"]) == 0


def test_max_turns_truncates():
    env = raw_env(num_players=3, max_turns=4, ask_crystal=False)
    env.reset(seed=0)
    while int(env.record["outcome"]) == K.RUNNING:
        env.step(K.A_END_TURN)
    assert int(env.record["outcome"]) == K.TRUNCATED and int(env.record["turn"]) == 4
    assert {k: v for k, v in env.game_log[-1].items() if k != "text"} == {"type": "truncated"}
