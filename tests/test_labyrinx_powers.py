"""The characters' special powers (reconstructed, the ``character_powers`` option): one
scenario per power, and the base game without them."""

from __future__ import annotations

from labyrinx_helpers import EXIT, Scenario, cell

from labyrinth_env.rulesets.labyrinx import kernel as K

NORTH_OF_EXIT = cell(2, 3)


def powered(name: str, other: str = "Merchant", hand0: tuple = (), powers: bool = True) -> Scenario:
    sc = Scenario(2, character_powers=powers)
    sc.character(0, name)
    sc.character(1, other)
    sc.set_hand(0, list(hand0))
    sc.set_hand(1, [])  # a swapped-in character may hold less than the Sage dealt
    sc.main(0)
    return sc


def test_without_the_option_no_power_works():
    sc = powered("Ranger", powers=False)  # the Runner's free move
    x = sc.lay(2, 3, "crossing", 0)
    assert K.A_POWER not in sc.legal()
    sc.step(K.A_MOVE + x)
    assert sc.s["actions_left"] == 2
    sc2 = powered("Paladin", "Scout", powers=False)
    sc2.main(1)
    assert K.A_PUSH + 0 in sc2.legal()  # the Stalwart can be pushed in the base game


def test_sage_has_a_hand_limit_of_five():
    sc = powered("Wizard", hand0=("corner",) * 4)
    sc.step(K.A_DRAW)
    assert sc.decision() == "action" and sc.s["hand_len"][0] == 5
    sc.step(K.A_DRAW)
    assert sc.decision() == "discard down to the hand limit"


def test_locksmith_pays_nothing_for_doors():
    sc = powered("Rogue")
    sc.lay(2, 3, "straight with a door", 0)
    sc.lay(1, 3, "straight", 0)
    sc.place(0, 2, 3)
    sc.main(0, actions=1)
    sc.step(K.A_MOVE + cell(1, 3))
    assert sc.s["pos"][0] == cell(1, 3)


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


def test_lucky_rolls_a_failed_challenge_once_more():
    sc = powered("Gambler")  # 2 chest icons, no cards
    x = sc.lay(2, 3, "dead end with a chest", face_up=False)
    sc.step(K.A_MOVE + x)
    sc.dice(5, 2)
    events = sc.step(K.A_ROT + 2)
    assert (K.EV_REROLL, 0, 2, 2, 0, 0) in events and sc.s["treasure"][0] == 1


def test_tough_loses_no_treasure_to_a_monster():
    sc = powered("Knight", "Rogue")
    sc.give_treasure(0, 1)
    x = sc.lay(2, 3, "straight with a monster", face_up=False)
    sc.step(K.A_MOVE + x)
    sc.dice(6)
    sc.step(K.A_ROT + 0)
    assert sc.s["treasure"][0] == 1 and sc.decision().startswith("move the loser of the monster")


def test_acrobat_moves_itself_after_a_failed_trap():
    sc = powered("Amazon")  # no trap icon
    x = sc.lay(2, 3, "straight with a trap", face_up=False)
    sc.step(K.A_MOVE + x)
    sc.dice(3)
    sc.step(K.A_ROT + 0)
    assert sc.decision().startswith("move the loser of the trap") and sc.s["decider"] == 0


def test_builder_turns_the_card_it_stands_on():
    sc = powered("Engineer")
    x = sc.lay(2, 3, "corner", 1)
    sc.place(0, 2, 3)
    sc.step(K.A_POWER)
    assert sc.legal() == [K.A_ROT + r for r in (0, 2, 3)]  # another rotation
    sc.step(K.A_ROT + 3)
    assert sc.s["cell_rot"][x] == 3 and sc.s["actions_left"] == 2


def test_runner_moves_once_a_turn_for_free():
    sc = powered("Ranger")
    x = sc.lay(2, 3, "crossing", 0)
    sc.step(K.A_MOVE + x)
    assert sc.s["actions_left"] == 3 and K.A_DESPAIR not in sc.legal()  # a regular action was taken
    sc.step(K.A_MOVE + EXIT + 0)
    assert sc.s["actions_left"] == 2


def test_planner_sees_the_card_it_places_in_its_expansion_phase():
    sc = Scenario(2, seed=3, character_powers=True)
    s = sc.s
    p = int(s["seat"])
    sc.character(p, "Alchemist")
    sc.set_hand(0, [])
    sc.set_hand(1, [])
    sc.step(K.A_CELL + cell(2, 3))
    assert s["known"][p, cell(2, 3)] and not s["known"][1 - p, cell(2, 3)]


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
    assert list(s["treasure"][:3]) == [1, 1, 1]
    assert K.A_POWER not in sc.legal()


def test_stalwart_cannot_be_pushed():
    sc = powered("Scout", "Paladin")
    assert not any(K.A_PUSH <= a < K.A_POWER for a in sc.legal())
