"""Scenario tests for the Paths of Destiny 2011 rulebook: attacks and fights, encounters of
two and of many players (groups), stunned players (the free key, the kill), the central
field, the +1 after a jump down or for the player climbed onto, death in a fight, the fate
crystal in fights, and a statistical test of a fight's odds with lost-life modifiers.

Dice: a fight throws the attackers' dice first, then the defender's; ``Scenario.dice``
fixes the faces. ``east()`` (as in the board tests) lays straight corridors centre - 19 -
20 - key field 0.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hex_helpers import events_of, key_node_of, node
from pod2011_helpers import CENTER, Scenario, start_node_of

from labyrinth_env.core.rng import seed_state
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K

CENTRE = node(CENTER)
N19, N20 = node(19), node(20)
FAR = key_node_of(2)


def east(num_players: int = 2, crystals: bool = False, **options) -> Scenario:
    sc = Scenario(num_players=num_players, **options)
    sc.lay_line(0)
    sc.guard(key_node_of(5))
    if not crystals:
        for p in range(num_players):
            sc.set(p, crystal=0)
    return sc


def fights(evs) -> list[tuple[int, int, int, int]]:
    """(defender, attackers bit set, attackers' result, defender's result) of each fight."""
    return [e[1:5] for e in events_of(evs, K.EV_FIGHT)]


def life(sc: Scenario) -> list[int]:
    return [int(x) for x in sc.s["life"][: int(sc.s["num_players"])]]


# =====================================================================================
# Attack and the fight of two players
# =====================================================================================
def test_attack_costs_one_action_two_dice_minus_lost_life():
    sc = east()
    sc.put(0, N20)
    sc.put(1, N20)
    sc.set(0, life=3)
    sc.set(1, life=2)
    sc.dice(6, 2, 4, 3)
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(1, 0b01, 8 - 1, 7 - 2)]
    assert life(sc) == [3, 1] and int(sc.s["actions_left"]) == 1


def test_attack_the_higher_result_wins_the_defeated_loses_one_life():
    sc = east()
    sc.put(0, N20)
    sc.put(1, N20)
    sc.dice(2, 2, 5, 5)
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(1, 0b01, 4, 10)] and life(sc) == [3, 4], "the attacker lost"


def test_fight_equal_results_leave_it_unresolved():
    sc = east()
    sc.put(0, N20)
    sc.put(1, N20)
    sc.set(1, life=3)
    sc.dice(3, 4, 4, 4)  # 7 - 0 against 8 - 1
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(1, 0b01, 7, 7)] and life(sc) == [4, 3]


def test_attack_only_a_player_in_the_same_corridor():
    sc = east(num_players=3)
    sc.put(0, N20)
    sc.put(1, N19)
    sc.put(2, N20)
    assert not sc.legal(K.A_ATTACK + 0) and sc.legal(K.A_ATTACK + 1)


def test_death_in_a_fight_leaves_one_key_where_the_last_life_was_lost():
    sc = east()
    sc.put(0, N20)
    sc.put(1, N20)
    sc.set(1, life=1)
    sc.give_key(1, 2)
    sc.give_key(1, 4)
    sc.dice(6, 6, 1, 1)
    evs = sc.step(K.A_ATTACK + 0)
    assert (K.EV_DROP_KEY, 1, 2, N20, 0, 0) in evs
    assert sc.pos(1) == start_node_of(3) and life(sc) == [4, 4] and int(sc.s["key_holder"][4]) == 1
    assert sc.legal(K.A_LIFT_KEY + 2), "the winner may lift it (free)"


@pytest.mark.parametrize(("att_life", "def_life"), [(4, 4), (3, 1), (1, 4)])
def test_stat_fight_win_probability_with_lost_life(att_life, def_life):
    sc = east()
    sc.put(0, N20)
    sc.put(1, N20)
    sc.set(0, life=att_life)
    sc.set(1, life=def_life)
    shift = (4 - def_life) - (4 - att_life)  # attacker wins when X + shift > Y
    pairs = list(itertools.product(range(2, 13), repeat=2))
    pmf = np.zeros(13)
    for a, b in itertools.product(range(1, 7), repeat=2):
        pmf[a + b] += 1 / 36
    win = sum(pmf[x] * pmf[y] for x, y in pairs if x + shift > y)
    tie = sum(pmf[x] * pmf[y] for x, y in pairs if x + shift == y)
    n = 12000
    base = sc.states.copy()
    trial = sc.states.copy()
    wins = ties = 0
    for i in range(1, n + 1):
        trial[:] = base
        trial[0]["rng"][0] = seed_state(np.uint64(i))
        assert K.step(trial[0], K.A_ATTACK + 0)
        wins += int(trial[0]["life"][1]) == def_life - 1 or int(trial[0]["position"][1]) != N20
        ties += int(trial[0]["life"][0]) == att_life and int(trial[0]["life"][1]) == def_life
    for got, p in ((wins / n, win), (ties / n, tie)):
        assert abs(got - p) < 4 * np.sqrt(p * (1 - p) / n) + 1e-9, (got, p)


# =====================================================================================
# Two players encounter each other in one corridor
# =====================================================================================
def enter_n20(num_players: int = 2, occupants=(1,), **kw) -> Scenario:
    sc = east(num_players=num_players, **kw)
    for p in occupants:
        sc.put(p, N20)
    sc.put(0, N19)
    return sc


def test_encounter_the_player_there_attacks_first_then_the_newcomer_both_free():
    sc = enter_n20()
    sc.move(0)
    assert sc.decision == K.D_OCCUPANT and sc.decider == 1
    assert sc.legal_actions() == [K.A_DECLINE, K.A_ATTACK_NEWCOMER]
    sc.dice(1, 1, 6, 6)
    evs = sc.step(K.A_ATTACK_NEWCOMER)
    assert fights(evs) == [(0, 0b10, 2, 12)] and life(sc) == [4, 3]
    assert sc.decision == K.D_ENTRANT and sc.decider == 0, "independently, the newcomer may attack"
    assert sc.legal_actions() == [K.A_DECLINE, K.A_TARGET + 0]
    sc.dice(6, 6, 1, 1)
    evs = sc.step(K.A_TARGET + 0)
    assert fights(evs) == [(1, 0b01, 12, 1)] and life(sc) == [4, 2]
    assert sc.decision == K.D_MAIN and int(sc.s["actions_left"]) == 1, "the two attacks cost no action"


def test_encounter_attacks_are_optional():
    sc = enter_n20()
    sc.move(0)
    sc.step(K.A_DECLINE)
    evs = sc.step(K.A_DECLINE)
    assert not fights(evs) and sc.decision == K.D_MAIN and life(sc) == [4, 4]


def test_encounter_each_further_attack_costs_an_action():
    sc = enter_n20()
    sc.move(0)
    sc.step(K.A_DECLINE)
    sc.step(K.A_DECLINE)
    assert sc.legal(K.A_ATTACK + 0)
    sc.dice(3, 3, 3, 3)
    sc.step(K.A_ATTACK + 0)
    assert int(sc.s["seat"]) == 1, "the second action is spent: the round ends"


def test_encounter_only_with_players_in_the_corridor_entered():
    sc = east()
    sc.put(1, N19)
    sc.put(0, N20)
    sc.move(3)
    assert sc.decision == K.D_OCCUPANT
    sc2 = east()
    sc2.put(1, N20)
    sc2.put(0, N19)
    sc2.put(1, CENTRE)
    evs = sc2.move(0)
    assert sc2.decision == K.D_MAIN and not fights(evs)


# =====================================================================================
# Many players encounter each other: declarations and groups
# =====================================================================================
def test_many_players_newcomer_declares_then_the_others_declare_and_groups_form():
    sc = enter_n20(num_players=4, occupants=(1, 2, 3))
    sc.move(0)
    assert sc.decision == K.D_ENTRANT and sc.decider == 0
    assert sc.legal_actions() == [K.A_DECLINE, K.A_TARGET + 0, K.A_TARGET + 1, K.A_TARGET + 2]
    sc.step(K.A_TARGET + 1)  # seat 2
    assert int(sc.s["ex_target"]) == 2
    assert sc.decision == K.D_DECLARE and sc.decider == 1, "clockwise from the newcomer, the target skipped"
    assert sc.legal_actions() == [K.A_DECLINE, K.A_ATTACK_NEWCOMER, K.A_JOIN]
    sc.step(K.A_JOIN)
    assert sc.decision == K.D_DECLARE and sc.decider == 3
    # fight 1: seat 3 against the newcomer; fight 2: the group {0, 1} (3 dice) against seat 2
    sc.dice(2, 2, 5, 5, 6, 6, 6, 1, 1)
    evs = sc.step(K.A_ATTACK_NEWCOMER)
    assert fights(evs) == [(0, 0b1000, 4, 10), (2, 0b0011, 18, 2)]
    assert life(sc) == [4, 4, 3, 3]
    assert sc.decision == K.D_MAIN and int(sc.s["actions_left"]) == 1


def test_many_players_group_of_three_throws_four_dice_each_subtracting_own_lost_life():
    sc = enter_n20(num_players=5, occupants=(1, 2, 3, 4))
    sc.set(0, life=4)
    sc.set(2, life=3)
    sc.set(3, life=2)
    sc.set(1, life=3)
    sc.move(0)
    sc.step(K.A_TARGET + 0)  # seat 1
    sc.step(K.A_JOIN)  # seat 2
    sc.step(K.A_JOIN)  # seat 3
    sc.dice(6, 6, 6, 6, 1, 1)
    evs = sc.step(K.A_DECLINE)  # seat 4
    assert fights(evs) == [(1, 0b01101, 24 - 0 - 1 - 2, 2 - 1)]
    assert life(sc) == [4, 2, 3, 2, 4]


def test_many_players_the_defeated_group_each_lose_one_life():
    sc = enter_n20(num_players=3, occupants=(1, 2))
    sc.move(0)
    sc.step(K.A_TARGET + 0)  # seat 1
    sc.dice(1, 1, 1, 6, 6)
    evs = sc.step(K.A_JOIN)  # seat 2
    assert fights(evs) == [(1, 0b101, 3, 12)] and life(sc) == [3, 4, 3]


def test_many_players_newcomer_declines_the_others_may_attack_it():
    sc = enter_n20(num_players=3, occupants=(1, 2))
    sc.move(0)
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_DECLARE and sc.decider == 1
    assert sc.legal_actions() == [K.A_DECLINE, K.A_ATTACK_NEWCOMER], "no chosen player to join"
    sc.step(K.A_ATTACK_NEWCOMER)
    sc.dice(6, 6, 6, 1, 1)
    evs = sc.step(K.A_ATTACK_NEWCOMER)
    assert fights(evs) == [(0, 0b110, 18, 2)] and life(sc) == [3, 4, 4]


# =====================================================================================
# Stunned players
# =====================================================================================
def test_stunned_player_key_taken_for_free_by_the_player_coming_in():
    sc = enter_n20()
    sc.set(1, stun=1, life=2)
    sc.give_key(1, 2)
    sc.give_key(1, 4)
    sc.move(0)
    assert sc.decision == K.D_ENTRANT, "a stunned player declares no attack"
    sc.step(K.A_DECLINE)
    assert sc.legal(K.A_TAKE_KEY + 0) and sc.legal(K.A_KILL + 0)
    evs = sc.step(K.A_TAKE_KEY + 0)
    assert evs == [(K.EV_TAKE_KEY, 0, 2, 1, 0, 0)] and int(sc.s["actions_left"]) == 1


def test_taking_a_stunned_players_key_takes_one_key():
    # l.257 "he may take away his key (not losing an action for it)": one key, not all
    sc = enter_n20()
    sc.set(1, stun=1, life=2)
    sc.give_key(1, 2)
    sc.give_key(1, 4)
    sc.move(0)
    sc.step(K.A_DECLINE)
    sc.step(K.A_TAKE_KEY + 0)
    assert K.keys_held(sc.s, 0) == 1 and K.keys_held(sc.s, 1) == 1
    assert not sc.legal(K.A_TAKE_KEY + 0), "one key for free; the other only by killing (1 action)"
    assert sc.legal(K.A_KILL + 0)
    sc.move(3)
    sc.fresh_turn(0)
    sc.move(0)
    sc.step(K.A_DECLINE)
    assert sc.legal(K.A_TAKE_KEY + 0), "coming in again: a new meeting"


def test_no_key_lifted_by_the_player_who_lost_the_fight_on_it():
    # l.112 "Lift a key: take it, unless you face some obstacles (first you have to pass the
    # Guard, cross the traps, fight with another player)"; l.120 "only after overcoming all
    # obstacles in the given corridor"
    sc = enter_n20()
    sc.place_key(3, N20)
    sc.move(0)
    sc.dice(6, 6, 1, 1)
    sc.step(K.A_ATTACK_NEWCOMER)
    assert life(sc) == [3, 4]
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_MAIN and not sc.legal(K.A_LIFT_KEY + 3), "beaten by the player on the key"
    sc.dice(6, 6, 1, 1)
    sc.step(K.A_ATTACK + 0)
    assert life(sc) == [3, 3] and sc.legal(K.A_LIFT_KEY + 3), "overcome in a fight that costs an action"


def test_no_lift_after_a_lost_fight_until_the_other_player_is_gone_or_stunned():
    sc = enter_n20()
    sc.place_key(3, N20)
    sc.move(0)
    sc.dice(6, 6, 1, 1)
    sc.step(K.A_ATTACK_NEWCOMER)
    sc.step(K.A_DECLINE)
    assert not sc.legal(K.A_LIFT_KEY + 3)
    sc.set(1, stun=1)
    assert sc.legal(K.A_LIFT_KEY + 3), "a stunned player is no obstacle (its key may be taken)"
    sc.set(1, stun=0)
    sc.put(1, N19)
    assert sc.legal(K.A_LIFT_KEY + 3), "nobody left to overcome"


def test_stunned_player_killed_for_one_action_the_key_taken():
    sc = enter_n20()
    sc.set(1, stun=1, life=3)
    sc.give_key(1, 2)
    sc.give_key(1, 4)
    sc.move(0)
    sc.step(K.A_DECLINE)
    evs = sc.step(K.A_KILL + 0)
    assert (K.EV_KILL, 0, 1, 0, 0, 0) in evs and (K.EV_TAKE_KEY, 0, 2, 1, 0, 0) in evs
    assert sc.pos(1) == start_node_of(3) and life(sc) == [4, 4] and int(sc.s["stun"][1]) == 0
    assert int(sc.s["key_holder"][2]) == 0 and int(sc.s["key_holder"][4]) == 1, "the other key is kept"
    assert int(sc.s["seat"]) == 1, "the kill cost the second action"


def test_kill_and_free_key_only_against_a_stunned_player():
    sc = enter_n20()
    sc.give_key(1, 2)
    sc.put(0, N20)
    assert not sc.legal(K.A_KILL + 0) and not sc.legal(K.A_TAKE_KEY + 0) and sc.legal(K.A_ATTACK + 0)


def test_stunned_newcomer_declares_no_attack_but_may_be_attacked():
    sc = east()
    b, u = sc.bridge(13)
    sc.put(1, u)
    sc.put(0, b)
    sc.dice(2)  # a failed jump: 2 life lost, stunned, below with seat 1
    sc.step(K.A_JUMP_DOWN)
    assert sc.decision == K.D_OCCUPANT and sc.decider == 1
    sc.dice(6, 6, 1, 1)
    sc.step(K.A_ATTACK_NEWCOMER)
    assert sc.decision == K.D_MAIN, "the stunned newcomer is not asked"
    assert life(sc) == [1, 4] and int(sc.s["stun"][0]) == 1


# =====================================================================================
# Meeting on the central field
# =====================================================================================
def test_player_entering_the_central_field_who_loses_goes_back_where_it_came_from():
    sc = east()
    sc.put(1, CENTRE)
    sc.put(0, N19)
    sc.give_key(0, 2)
    sc.move(3)
    assert sc.decision == K.D_OCCUPANT
    sc.dice(6, 6, 1, 1)
    evs = sc.step(K.A_ATTACK_NEWCOMER)
    assert (K.EV_SENT_BACK, 0, CENTRE, N19, 0, 0) in evs
    assert sc.pos(0) == N19 and life(sc) == [3, 4] and int(sc.s["outcome"]) == K.RUNNING


def test_sent_back_from_the_central_field_as_an_ordinary_move():
    sc = east()
    sc.put(1, CENTRE)
    sc.put(0, N19)
    sc.place_trap(N19, "Falling Rocks", face_up=True)
    sc.move(3)
    sc.dice(6, 6, 1, 1, 1, 1)  # the fight, then the trap (2 < 7)
    evs = sc.step(K.A_ATTACK_NEWCOMER)
    assert [e[2] for e in events_of(evs, K.EV_TRAP_CHECK)] == [C.TRAP_NAMES.index("Falling Rocks")]
    assert life(sc) == [2, 4]


def test_entering_the_central_field_with_a_key_and_winning_the_encounter_wins():
    sc = east()
    sc.put(1, CENTRE)
    sc.put(0, N19)
    sc.give_key(0, 2)
    sc.move(3)
    sc.dice(1, 1, 6, 6)
    sc.step(K.A_ATTACK_NEWCOMER)
    assert sc.decision == K.D_ENTRANT
    evs = sc.step(K.A_DECLINE)
    assert (K.EV_WIN, 0, 0, 0, 0, 0) in evs and int(sc.s["winner"]) == 0


def test_entering_the_central_field_losing_its_own_attack_goes_back():
    sc = east()
    sc.put(1, CENTRE)
    sc.put(0, N19)
    sc.give_key(0, 2)
    sc.move(3)
    sc.step(K.A_DECLINE)
    sc.dice(1, 1, 6, 6)
    sc.step(K.A_TARGET + 0)
    assert sc.pos(0) == N19 and int(sc.s["outcome"]) == K.RUNNING


def test_a_later_lost_attack_on_the_central_field_does_not_send_back():
    sc = east()
    sc.put(1, CENTRE)
    sc.put(0, CENTRE)
    sc.dice(1, 1, 6, 6)
    sc.step(K.A_ATTACK + 0)
    assert sc.pos(0) == CENTRE and life(sc) == [3, 4]


# =====================================================================================
# The +1 after a good jump down, and for the player climbed onto
# =====================================================================================
def test_good_jump_down_gives_plus_one_in_the_fight_right_after():
    sc = east()
    b, u = sc.bridge(13)
    sc.put(1, u)
    sc.put(0, b)
    sc.dice(5)
    sc.step(K.A_JUMP_DOWN)
    sc.dice(3, 3, 2, 3)
    evs = sc.step(K.A_ATTACK_NEWCOMER)
    assert fights(evs) == [(0, 0b10, 6, 5 + 1)] and life(sc) == [4, 4], "a draw thanks to the +1"
    sc.step(K.A_DECLINE)
    sc.dice(3, 3, 3, 3)
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(1, 0b01, 6, 6)], "a later attack: no bonus any more"


def test_climbing_up_onto_a_player_gives_that_player_plus_one():
    sc = east()
    b, u = sc.bridge(13)
    sc.put(1, b)
    sc.put(0, u)
    sc.step(K.A_CLIMB_UP)
    sc.dice(3, 3, 3, 4)
    evs = sc.step(K.A_ATTACK_NEWCOMER)
    assert fights(evs) == [(0, 0b10, 6 + 1, 7)] and life(sc) == [4, 4]


def test_coming_down_safely_gives_no_bonus():
    sc = east()
    b, u = sc.bridge(13)
    sc.put(1, u)
    sc.put(0, b)
    sc.step(K.A_COME_DOWN)
    sc.dice(3, 3, 3, 3)
    evs = sc.step(K.A_ATTACK_NEWCOMER)
    assert fights(evs) == [(0, 0b10, 6, 6)]


# =====================================================================================
# The fate crystal in fights
# =====================================================================================
def test_fate_crystal_the_side_that_did_not_win_may_repeat_its_whole_throw():
    sc = east(crystals=True)
    sc.put(0, N20)
    sc.put(1, N20)
    sc.dice(1, 1, 4, 4, 6, 6)
    sc.step(K.A_ATTACK + 0)
    assert sc.decision == K.D_REROLL and sc.decider == 0, "the loser decides"
    evs = sc.step(K.A_REROLL)
    assert fights(evs) == [(1, 0b01, 12, 8)] and int(sc.s["crystal"][0]) == 0
    assert sc.decision == K.D_REROLL and sc.decider == 1, "now the defender did not win"
    sc.step(K.A_KEEP)
    assert life(sc) == [4, 3] and int(sc.s["crystal"][1]) == 1


def test_fate_crystal_winner_not_asked_and_keeping_resolves():
    sc = east(crystals=True)
    sc.put(0, N20)
    sc.put(1, N20)
    sc.dice(6, 6, 1, 1)
    sc.step(K.A_ATTACK + 0)
    assert sc.decision == K.D_REROLL and sc.decider == 1
    sc.step(K.A_KEEP)
    assert sc.decision == K.D_MAIN and life(sc) == [4, 3] and int(sc.s["crystal"][0]) == 1
