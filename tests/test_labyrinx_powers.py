"""The characters' special powers (reconstructed, the ``character_powers`` option): "Some
characters have a special power that can be used by spending an action" (l.38). Six of the
twelve characters have one, each an action; one scenario per power, the characters without
one, and the base game without them."""

from __future__ import annotations

import numpy as np
import pytest
from labyrinx_helpers import EXIT, B, Scenario, cell, options

from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.labyrinx import components as C
from labyrinth_env.rulesets.labyrinx import kernel as K

NORTH_OF_EXIT = cell(2, 3)
WITH_POWER = [C.CHARACTER_NAMES[ch] for ch in range(C.NUM_CHARACTERS) if C.CHAR_POWER[ch] != C.POW_NONE]
WITHOUT_POWER = [C.CHARACTER_NAMES[ch] for ch in range(C.NUM_CHARACTERS) if C.CHAR_POWER[ch] == C.POW_NONE]


def powered(name: str, other: str = "Paladin", hand0: tuple = (), powers: bool = True, n: int = 2) -> Scenario:
    sc = Scenario(n, character_powers=powers)
    sc.character(1, other if other != name else "Wizard")
    sc.character(0, name)
    sc.set_hand(0, list(hand0))
    sc.set_hand(1, [])
    sc.main(0)
    return sc


def make_power_usable(sc: Scenario, name: str) -> None:
    """Whatever the named character's power needs to be usable in seat 0's position."""
    s = sc.s
    sc.lay(7, 7, "corner with a trap", face_up=False)  # the Seer's card
    s["discard"][0] = sc.take_card("crossing")  # the Scavenger's card
    s["discard_len"] = 1
    sc.lay(2, 3, "corner", 1)  # the Builder's card, under seat 0
    sc.place(0, 2, 3)
    sc.place(1, 2, 3)  # the Thief's victim
    sc.give_treasure(1, 1)


def test_without_the_option_no_power_works():
    for name in WITH_POWER:
        sc = powered(name, powers=False)
        make_power_usable(sc, name)
        assert K.A_POWER not in sc.legal(), name


def test_only_some_characters_have_a_special_power_and_each_costs_an_action():
    # l.38: "Some characters have a special power that can be used by spending an action"
    assert 0 < len(WITH_POWER) < C.NUM_CHARACTERS
    for name in WITH_POWER:
        sc = powered(name)
        make_power_usable(sc, name)
        assert K.A_POWER in sc.legal(), name
        sc.step(K.A_POWER)
        while sc.decision() != "action":  # the Seer's card, the Builder's rotation
            sc.step(sc.legal()[0])
        assert sc.s["actions_left"] == 2, name
    for name in WITHOUT_POWER:
        sc = powered(name)
        make_power_usable(sc, name)
        assert K.A_POWER not in sc.legal(), name


@pytest.mark.parametrize("name", WITHOUT_POWER + WITH_POWER)
def test_no_passive_powers_every_character_plays_by_the_base_rules(name):
    # v0's passive powers are gone: the hand limit is 4, a move through a door costs its extra
    # action, a failed monster costs a treasure and the player on the left moves the loser,
    # the challenge die is rolled once, and every character can be pushed
    sc = powered(name, "Knight", hand0=("corner",) * 4, n=3)
    s = sc.s
    sc.step(K.A_DRAW)
    assert sc.decision() == "discard down to the hand limit"
    sc.step(K.A_SLOT + 0)
    sc.lay(2, 3, "straight with a door", 0)
    sc.lay(1, 3, "straight with a monster", face_up=False)
    sc.place(0, 2, 3)
    sc.main(0, actions=2)
    sc.give_treasure(0, 1)
    sc.set_hand(0, [])
    sc.dice(6)
    sc.step(K.A_MOVE + cell(1, 3))
    events = sc.step(K.A_ROT + 0)
    assert s["actions_left"] == 0 and len(sc.events_of(events, K.EV_CHALLENGE)) == 1
    assert (K.EV_FAIL, 0, C.MONSTER, 1, 1, 0) in events and s["treasure"][0] == 0
    assert sc.decision() == "move the loser of the monster (player on the left)" and s["decider"] == 1
    sc2 = powered("Knight", name)
    sc2.character(1, name)
    assert K.A_PUSH + 0 in sc2.legal()  # seat 0 may push seat 1, whoever it is


def test_nobody_sees_the_expansion_card_not_even_its_placer():
    # l.30: "Place the top card of the draw deck, without looking at it first"
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(K.NUM_SEATS)
    rng = np.random.default_rng(5)
    expansions = 0
    for seed in range(30):
        states = new_states(K, 1)
        B.init_one(states, np.uint64(seed), options(6, character_powers=True))
        s = states[0]
        while B.refresh_one(states, mask, rewards) >= 0:
            dec = int(s["decision"])
            B.step_one(states, int(rng.choice(np.flatnonzero(mask))), mask, rewards)
            if dec == K.D_EXPAND and s["outcome"] == K.RUNNING:
                x = next(int(e[2]) for e in s["events"][: s["num_events"]] if e[0] == K.EV_EXPAND)
                assert not s["known"][:, x].any(), seed
                expansions += 1
    assert expansions > 500


def test_seer_peeks_at_any_face_down_card():
    sc = powered("Scout")
    far = sc.lay(7, 7, "corner with a trap", face_up=False)
    sc.step(K.A_POWER)
    assert sc.decision() == "Seer: peek at which card" and sc.legal() == [K.A_CELL + far]
    sc.step(K.A_CELL + far)
    assert sc.s["known"][0, far] and not sc.s["known"][1, far] and sc.s["actions_left"] == 2


def test_scavenger_takes_the_top_card_of_the_discard_pile():
    sc = powered("Merchant", "Knight", hand0=("corner",))
    s = sc.s
    assert K.A_POWER not in sc.legal()  # the discard pile is empty
    card = sc.take_card("crossing")
    s["discard"][0] = card
    s["discard_len"] = 1
    sc.step(K.A_POWER)
    assert sc.hand_kinds(0) == ["corner", "crossing"] and s["discard_len"] == 0 and s["actions_left"] == 2


def test_builder_turns_the_card_it_stands_on():
    sc = powered("Engineer")
    x = sc.lay(2, 3, "corner", 1)
    sc.place(0, 2, 3)
    sc.step(K.A_POWER)
    assert sc.legal() == [K.A_ROT + r for r in (0, 2, 3)]  # another rotation
    sc.step(K.A_ROT + 3)
    assert sc.s["cell_rot"][x] == 3 and sc.s["actions_left"] == 2


def test_thief_steals_a_treasure_from_the_richest_character_there_once_a_turn():
    sc = Scenario(3, character_powers=True)
    sc.character(0, "Barbarian")
    for p in range(3):
        sc.set_hand(p, [])
    sc.main(0)
    sc.give_treasure(1, 1)
    sc.give_treasure(2, 2)
    sc.step(K.A_POWER)
    s = sc.s
    assert list(s["treasure"][:3]) == [1, 1, 1] and s["actions_left"] == 2
    assert K.A_POWER not in sc.legal()


def test_locksmith_unlocks_the_doors_for_the_rest_of_the_turn():
    sc = powered("Rogue")
    s = sc.s
    sc.lay(2, 3, "straight with a door", 0)  # door on its north side
    sc.lay(1, 3, "straight with a door", 0)
    sc.lay(0, 3, "straight", 0)
    sc.place(0, 2, 3)
    sc.step(K.A_POWER)
    assert s["actions_left"] == 2 and K.A_POWER not in sc.legal()
    sc.step(K.A_MOVE + cell(1, 3))
    sc.step(K.A_MOVE + cell(0, 3))
    assert s["pos"][0] == cell(0, 3) and s["seat"] == 1  # two doors, no extra action
    assert s["unlocked"] == 0  # the next turn is locked again
    sc2 = powered("Rogue")
    sc2.lay(2, 3, "straight with a door", 0)
    sc2.lay(1, 3, "straight", 0)
    sc2.place(0, 2, 3)
    sc2.step(K.A_MOVE + cell(1, 3))  # without the power the door costs its extra action
    assert sc2.s["actions_left"] == 1


def test_forager_draws_two_cards():
    sc = powered("Knight", hand0=("corner",) * 3)
    s = sc.s
    sc.step(K.A_POWER)
    assert s["hand_len"][0] == 5 and s["actions_left"] == 2
    assert sc.decision() == "discard down to the hand limit"  # the limit stays 4
    sc.step(K.A_SLOT + 0)
    assert s["hand_len"][0] == 4 and sc.decision() == "action"
    assert int(s["pos"][0]) == EXIT
