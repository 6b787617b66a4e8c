"""Labyrinx rules, one scenario per rule of the rulebook (named after it), and the
statistics of the challenge die.

Table (9x9 unless said): the exit space is (3,3)-(3,5), the pile spaces (4,3)-(4,5); (2,3)
is the space north of the exit's first cell. Rotations turn a card clockwise: a straight
(N-S) at rotation 1 runs E-W, a dead end (open N) at rotation 2 opens S.
"""

from __future__ import annotations

import numpy as np
import pytest
from labyrinx_helpers import EXIT, B, Scenario, cell, kind_id

from labyrinth_env.core.rng import seed_state
from labyrinth_env.rulesets.labyrinx import components as C
from labyrinth_env.rulesets.labyrinx import kernel as K

NORTH_OF_EXIT = cell(2, 3)


def ready(n: int = 2, hand0: tuple = (), **opts) -> Scenario:
    """Seat 0's action phase with 3 actions, Knight (2 monster, 1 trap icons) for seat 0,
    Rogue (1 trap, 2 chest) for seat 1, seat 0's hand as given."""
    sc = Scenario(n, **opts)
    sc.character(0, "Knight")
    sc.character(1, "Rogue")
    sc.set_hand(0, list(hand0))
    sc.main(0)
    return sc


def move(x: int) -> int:
    return K.A_MOVE + x


# --- setup ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 4, 6])
def test_setup_hands_deck_treasures_and_exit_space(n):
    sc = Scenario(n, seed=n)
    s = sc.s
    assert list(s["hand_len"][:n]) == [C.HAND_LIMIT] * n and s["deck_len"] == C.NUM_CARDS - 4 * n
    assert s["reserve"] == C.NUM_TREASURES and s["treasure"].sum() == 0
    assert all(int(s["pos"][p]) == EXIT for p in range(n))
    assert len(set(s["character"][:n].tolist())) == n  # each player has a character of its own
    assert sc.decision() == "the labyrinth expands: where the card goes" and s["decider"] == s["first_player"]
    firsts = {int(Scenario(n, seed=k).s["first_player"]) for k in range(30)}
    assert firsts == set(range(n))  # the starting player is drawn


def test_setup_every_character_draws_up_to_the_hand_limit_of_four():
    # l.22 "typically 4 cards": no power changes the hand limit (every power is an action, l.38)
    for seed in range(40):
        sc = Scenario(3, seed=seed, character_powers=True)
        assert list(sc.s["hand_len"][:3]) == [C.HAND_LIMIT] * 3


# --- the labyrinth expands ------------------------------------------------------------------------
def test_labyrinth_expands_face_down_next_to_any_location():
    sc = Scenario(2, seed=1)
    s = sc.s
    cells = {a - K.A_CELL for a in sc.legal()}
    around_hall = {cell(2, c) for c in (3, 4, 5)} | {cell(5, c) for c in (3, 4, 5)}
    around_hall |= {cell(3, 2), cell(4, 2), cell(3, 6), cell(4, 6)}
    assert cells == around_hall
    top = int(s["deck"][s["deck_len"] - 1])
    p = int(s["seat"])
    events = sc.step(K.A_CELL + cell(5, 4))
    assert s["cell_card"][cell(5, 4)] == top and not s["cell_up"][cell(5, 4)]
    assert not s["known"][:, cell(5, 4)].any()  # placed without looking
    assert (K.EV_EXPAND, p, cell(5, 4), 0, 0, 0) in events
    assert sc.decision() == "action"


def test_table_sides_wrap_for_placing_and_moving():
    sc = ready()
    s = sc.s
    x = sc.lay(0, 4, "crossing", 0)
    sc.place(0, 0, 4)
    s["decision"] = K.D_PLAY_CELL
    s["sel_slot"] = 0
    cells = {a - K.A_CELL for a in sc.legal()}
    assert cell(8, 4) in cells and cell(0, 8) not in cells  # the opposite side of the table, in line
    sc.main(0)
    sc.lay(8, 4, "straight", face_up=False)
    assert sc.mask()[move(cell(8, 4))]  # through the side of the table
    assert x == cell(0, 4)


# --- regular actions ------------------------------------------------------------------------------
def test_move_flips_a_face_down_card_and_rotates_it_to_connect():
    sc = ready()
    s = sc.s
    x = sc.lay(2, 3, "straight", face_up=False)
    sc.step(move(x))
    assert sc.decision() == "rotate the card" and s["cell_up"][x]
    rots = [a - K.A_ROT for a in sc.legal()]
    assert rots == [0, 2]  # only N-S connects to the exit below
    sc.step(K.A_ROT + 2)
    assert s["pos"][0] == x and s["cell_rot"][x] == 2 and s["actions_left"] == 2


def test_move_only_into_adjacent_connected_locations_never_empty_spaces():
    sc = ready()
    s = sc.s
    sc.lay(2, 3, "corner", 0)  # open N and E: closed towards the exit
    sc.lay(2, 4, "straight", 0)
    sc.lay(3, 2, "straight", face_up=False)
    moves = {a - K.A_MOVE for a in sc.legal() if a < K.A_PEEK}
    assert moves == {cell(2, 4), cell(3, 2)}  # no empty space, no pile space, not through a closed side
    sc.place(0, 2, 4)
    moves = {a - K.A_MOVE for a in sc.legal() if a < K.A_PEEK}
    assert moves == {cell(3, 4)}  # N of (2,4) is empty; S is the exit space (named by the cell next to it)
    sc.step(move(cell(3, 4)))
    assert s["pos"][0] == EXIT  # the exit space is one location
    sc.place(0, 2, 4)
    assert s["pos"][0] == cell(2, 4)


def test_door_costs_an_extra_action():
    sc = ready()
    s = sc.s
    sc.lay(2, 3, "straight with a door", 0)  # door on its N side
    sc.lay(1, 3, "straight", 0)
    sc.place(0, 2, 3)
    sc.step(move(cell(1, 3)))
    assert s["pos"][0] == cell(1, 3) and s["actions_left"] == 1


def test_door_without_an_action_to_pay_loses_the_move():
    sc = ready()
    s = sc.s
    sc.lay(2, 3, "straight with a door", 0)
    sc.lay(1, 3, "straight", 0)
    sc.place(0, 2, 3)
    sc.main(0, actions=1)
    events = sc.step(move(cell(1, 3)))
    assert s["pos"][0] == cell(2, 3)
    assert sc.events_of(events, K.EV_LOST_MOVE) == [(K.EV_LOST_MOVE, 0, cell(2, 3), cell(1, 3), 0, 0)]
    assert s["seat"] == 1  # the action is spent: the turn is over


def test_peek_is_private_costs_an_action_and_works_through_a_door():
    sc = ready()
    s = sc.s
    sc.lay(2, 3, "straight with a door", 0)
    x = sc.lay(1, 3, "corner with a trap", face_up=False)
    sc.place(0, 2, 3)
    sc.step(K.A_PEEK + x)
    assert s["known"][0, x] and not s["known"][1, x] and not s["cell_up"][x]
    assert s["actions_left"] == 2


def test_play_a_card_next_to_the_labyrinth_any_rotation():
    sc = ready(hand0=("corner", "straight"))
    s = sc.s
    sc.step(K.A_PLAY + 0)
    assert s["actions_left"] == 2 and sc.decision() == "play a card: where"
    sc.step(K.A_CELL + cell(2, 4))
    assert sc.legal() == [K.A_ROT + r for r in range(4)]
    sc.step(K.A_ROT + 3)
    x = cell(2, 4)
    assert K.CARD_KIND[s["cell_card"][x]] == kind_id("corner") and s["cell_up"][x] and s["cell_rot"][x] == 3
    assert sc.hand_kinds(0) == ["straight"]
    sc.step(K.A_END)  # end phase: nobody stands on it, it turns face down, remembered by all
    assert not s["cell_up"][x] and s["known"][0, x] and s["known"][1, x]


def test_draw_a_card_and_discard_down_to_the_hand_limit():
    sc = ready(hand0=("corner", "straight", "crossing", "dead end"))
    s = sc.s
    sc.put_on_top("T-junction")
    sc.step(K.A_DRAW)
    assert sc.decision() == "discard down to the hand limit" and s["hand_len"][0] == 5
    sc.step(K.A_SLOT + 3)  # the dead end goes
    assert sc.hand_kinds(0) == ["corner", "straight", "crossing", "T-junction"] and s["actions_left"] == 2
    assert K.CARD_KIND[s["discard"][s["discard_len"] - 1]] == kind_id("dead end")


def test_draw_pile_empty_shuffles_the_discard_pile_into_a_new_one():
    sc = ready(table_size=13)
    s = sc.s
    sc.fill(keep=6, avoid=[cell(2, 3)])
    for _ in range(5):  # five cards to the discard pile
        s["deck_len"] -= 1
        s["discard"][s["discard_len"]] = s["deck"][s["deck_len"]]
        s["deck"][s["deck_len"]] = -1
        s["discard_len"] += 1
    sc.set_hand(0, [])
    events = sc.step(K.A_DRAW)
    assert s["deck_len"] == 5 and s["discard_len"] == 0 and s["hand_len"][0] == 1
    assert (K.EV_RESHUFFLE, -1, 5, 0, 0, 0) in events and s["outcome"] == K.RUNNING


def test_push_into_an_empty_space_plays_the_top_card_face_up():
    sc = ready()
    s = sc.s
    sc.put_on_top("crossing")
    sc.step(K.A_PUSH + 0)  # player +1
    assert sc.decision() == "push: where"
    sc.step(K.A_CELL + NORTH_OF_EXIT)
    x = NORTH_OF_EXIT
    assert K.CARD_KIND[s["cell_card"][x]] == kind_id("crossing") and s["cell_up"][x]
    sc.step(K.A_ROT + 1)
    assert s["pos"][1] == x and s["pos"][0] == EXIT and s["actions_left"] == 2


def test_push_into_a_challenge_makes_the_pushed_character_attempt_it():
    sc = ready()
    s = sc.s
    sc.set_hand(1, ["corner", "straight", "crossing"])
    x = sc.lay(2, 3, "straight with a monster", face_up=False)
    sc.step(K.A_PUSH + 0)
    sc.step(K.A_CELL + x)
    sc.dice(4)  # Rogue: 1 monster icon... no: 0 monster icons; 4 cards needed of 3
    events = sc.step(K.A_ROT + 0)
    assert sc.events_of(events, K.EV_CHALLENGE) == [(K.EV_CHALLENGE, 1, C.MONSTER, 4, 0, 0)]
    assert sc.events_of(events, K.EV_FAIL)
    assert sc.decision() == "move the loser of the monster (player on the left)" and s["decider"] == 0


def test_push_needs_another_character_in_the_same_location():
    sc = ready()
    sc.place(1, 2, 3)
    sc.lay(2, 3, "crossing", 0)
    assert not any(K.A_PUSH <= a < K.A_POWER for a in sc.legal())


# --- full-turn actions ----------------------------------------------------------------------------
def test_despair_takes_a_card_without_challenge_from_the_discard_pile_in_place_of_yours():
    sc = ready(hand0=("straight with a trap", "corner"))
    s = sc.s
    x = sc.lay(2, 3, "dead end", 2)
    sc.place(0, 2, 3)
    sc.step(K.A_DESPAIR)
    assert s["hand_len"][0] == 0 and sc.decision() == "despair: take a card without a challenge from the discard pile"
    assert sc.legal() == [K.A_TAKE + kind_id("corner")]  # the trap card may not be taken
    sc.step(K.A_TAKE + kind_id("corner"))
    sc.step(K.A_ROT + 1)
    assert K.CARD_KIND[s["cell_card"][x]] == kind_id("corner") and s["pos"][0] == x
    assert [C.KIND_NAMES[K.CARD_KIND[c]] for c in s["discard"][: s["discard_len"]]] == [
        "straight with a trap",
        "dead end",
    ]
    assert s["seat"] == 1  # a full-turn action: the turn is over


def test_despair_draws_until_a_card_without_challenge_and_discards_the_others():
    sc = ready()
    s = sc.s
    x = sc.lay(2, 3, "dead end", 2)
    sc.place(0, 2, 3)
    sc.put_on_top("crossing")
    sc.put_on_top("straight with a trap")
    sc.put_on_top("corner with a monster")
    events = sc.step(K.A_DESPAIR)
    assert (K.EV_DESPAIR, 0, 3, 0, 0, 0) in events
    sc.step(K.A_ROT + 0)
    assert K.CARD_KIND[s["cell_card"][x]] == kind_id("crossing")
    kinds = [C.KIND_NAMES[K.CARD_KIND[c]] for c in s["discard"][: s["discard_len"]]]
    assert kinds == ["corner with a monster", "straight with a trap", "dead end"]


def test_full_turn_actions_only_instead_of_regular_actions():
    sc = ready(hand0=("corner",))
    x = sc.lay(2, 3, "crossing", 0)
    sc.place(0, 2, 3)
    legal = sc.legal()
    assert K.A_DESPAIR in legal and K.A_REST in legal
    sc.step(K.A_PEEK + sc.lay(1, 3, "corner", face_up=False))
    legal = sc.legal()
    assert K.A_DESPAIR not in legal and not any(K.A_REST <= a < K.A_END for a in legal)
    assert x == cell(2, 3)


def test_rest_draws_up_to_four_cards_then_discards_to_the_limit():
    sc = ready(hand0=("corner", "straight"))
    s = sc.s
    events = sc.step(K.A_REST + 3)
    assert (K.EV_REST, 0, 4, 0, 0, 0) in events and s["hand_len"][0] == 6
    assert sc.decision() == "discard down to the hand limit"
    sc.step(K.A_SLOT + 0)
    sc.step(K.A_SLOT + 0)
    assert s["hand_len"][0] == 4 and s["seat"] == 1


# --- end phase ------------------------------------------------------------------------------------
def test_end_phase_flips_empty_corridors_but_not_defeated_challenges_or_chests_with_treasure():
    sc = ready(3)  # three players: the one on the left (seat 1) is not also the one on the right
    s = sc.s
    occupied = sc.lay(2, 3, "crossing", 0)
    plain = sc.lay(2, 4, "corner", 1)
    beaten = sc.lay(2, 5, "straight with a monster", 0)
    chest = sc.lay(1, 3, "dead end with a chest", 2)
    s["cell_beaten"][beaten] = 1
    s["cell_gold"][chest] = 1
    s["reserve"] -= 1
    sc.place(0, 2, 3)
    events = sc.step(K.A_END)
    assert (K.EV_FLIP_DOWN, 0, 1, 0, 0, 0) in events
    assert s["cell_up"][occupied] and not s["cell_up"][plain] and s["cell_up"][beaten] and s["cell_up"][chest]
    assert s["cell_rot"][plain] == -1 and s["known"][0, plain] and s["known"][1, plain]
    assert s["seat"] == 1 and sc.decision() == "the labyrinth expands: where the card goes"  # the one on the left


# --- challenges -----------------------------------------------------------------------------------
def enter_monster(sc: Scenario, *faces: int) -> list:
    x = sc.lay(2, 3, "straight with a monster", face_up=False)
    sc.step(move(x))
    sc.dice(*faces)
    return sc.step(K.A_ROT + 0)


def test_challenge_icons_match_the_difficulty_no_cards_needed():
    sc = ready(hand0=("corner",))
    s = sc.s
    events = enter_monster(sc, 2)  # the Knight has 2 monster icons
    assert (K.EV_CHALLENGE, 0, C.MONSTER, 2, 2, 0) in events and (K.EV_SUCCESS, 0, C.MONSTER, 1, 0, 0) in events
    assert s["treasure"][0] == 1 and s["reserve"] == 24 and s["hand_len"][0] == 1
    assert s["cell_beaten"][NORTH_OF_EXIT]
    sc.step(K.A_MOVE + EXIT)  # leaving and coming back: a defeated challenge is not fought again
    events = sc.step(K.A_MOVE + NORTH_OF_EXIT)
    assert not sc.events_of(events, K.EV_CHALLENGE) and s["pos"][0] == NORTH_OF_EXIT
    assert s["treasure"][0] == 1 and s["seat"] == 1  # three actions spent: the turn passed


def test_challenge_discard_cards_to_make_up_the_difference():
    sc = ready(hand0=("corner", "straight", "crossing", "dead end"))
    s = sc.s
    enter_monster(sc, 5)  # 2 icons: 3 cards to discard, chosen by the player
    assert sc.decision() == "discard cards to match the difficulty" and s["decider"] == 0
    sc.step(K.A_SLOT + 3)
    sc.step(K.A_SLOT + 0)
    assert s["treasure"][0] == 0
    sc.step(K.A_SLOT + 1)
    assert sc.hand_kinds(0) == ["straight"] and s["treasure"][0] == 1 and sc.decision() == "action"


def test_challenge_with_exactly_the_cards_needed_discards_them_all():
    sc = ready(hand0=("corner", "straight"))
    s = sc.s
    enter_monster(sc, 4)
    assert s["hand_len"][0] == 0 and s["treasure"][0] == 1 and sc.decision() == "action"


def test_monster_failure_loses_a_treasure_and_the_left_player_moves_the_loser():
    sc = ready(3, hand0=("corner",))  # seat 1 is on seat 0's left, seat 2 on its right
    s = sc.s
    sc.give_treasure(0, 1)
    events = enter_monster(sc, 6)  # 2 icons + 1 card < 6
    assert (K.EV_FAIL, 0, C.MONSTER, 1, 1, 0) in events
    assert s["treasure"][0] == 0 and s["reserve"] == 25 and s["hand_len"][0] == 1  # cards are not paid in vain
    assert sc.decision() == "move the loser of the monster (player on the left)" and s["decider"] == 1
    assert s["mv_steps"] == 6
    # onto an open side of the labyrinth: the top card is played there, turned by the mover
    sc.put_on_top("crossing")
    sc.step(K.A_CELL + cell(1, 3))
    assert s["decider"] == 1 and sc.decision() == "rotate the card"
    sc.step(K.A_ROT + 0)
    assert s["pos"][0] == cell(1, 3) and s["mv_steps"] == 5
    # a new challenge interrupts the movement
    y = sc.lay(0, 3, "corner with a trap", face_up=False)
    sc.step(K.A_CELL + y)
    sc.dice(1)
    events = sc.step(K.A_ROT + 1)  # the corner opens E and S: connects to (1,3) below
    assert (K.EV_CHALLENGE, 0, C.TRAP, 1, 1, 0) in events and s["treasure"][0] == 1
    assert s["mv_kind"] == K.MV_NONE and sc.decision() == "action" and s["decider"] == 0
    assert s["actions_left"] == 2


def test_monster_movement_may_be_declined_before_it_begins():
    sc = ready()
    s = sc.s
    enter_monster(sc, 3)
    assert K.A_STOP in sc.legal()  # "may move": the whole movement, or none of it
    events = sc.step(K.A_STOP)
    assert (K.EV_STOP, 1, 0, 3, 0, 0) in events and s["pos"][0] == NORTH_OF_EXIT and sc.decision() == "action"


def test_monster_failure_moves_the_loser_the_full_difficulty_or_not_at_all():
    # l.49: "may move your character a number of spaces equal to the difficulty": once the
    # movement begins, the mover cannot stop it short (only a new challenge, or no way on)
    sc = ready()
    s = sc.s
    for r in (1, 0):  # a corridor north of (2,3), then round the table's side to (8,3), (7,3)
        sc.lay(r, 3, "crossing", 0)
    sc.lay(8, 3, "straight", 0)
    sc.lay(7, 3, "straight", 0)
    sc.lay(6, 3, "dead end", 2)  # open south only: towards (7,3)
    enter_monster(sc, 5)  # the Knight: 2 monster icons, no cards
    assert s["mv_steps"] == 5 and K.A_STOP in sc.legal()
    path = [cell(1, 3), cell(0, 3), cell(8, 3), cell(7, 3), cell(6, 3)]
    for i, x in enumerate(path):
        assert sc.decision() == "move the loser of the monster (player on the left)"
        assert K.A_STOP not in sc.legal() or i == 0, i
        sc.step(K.A_CELL + x)
        assert s["pos"][0] == x
    assert s["mv_kind"] == K.MV_NONE and s["mv_steps"] == 0 and sc.decision() == "action" and s["decider"] == 0


def test_trap_failure_moves_the_loser_in_a_straight_line_without_flipping_what_it_passes():
    sc = ready(3)  # seat 1 is on seat 0's left, seat 2 on its right
    s = sc.s
    sc.give_treasure(0, 2)
    passed = sc.lay(1, 3, "crossing", face_up=False)
    landing = sc.lay(0, 3, "corner", face_up=False)
    x = sc.lay(2, 3, "straight with a trap", face_up=False)
    sc.step(move(x))
    sc.dice(2)  # the Knight has 1 trap icon and no cards
    sc.step(K.A_ROT + 0)
    assert s["treasure"][0] == 1 and sc.decision().startswith("move the loser of the trap") and s["decider"] == 1
    dirs = [a - K.A_DIR for a in sc.legal() if K.A_DIR <= a < K.A_DIR + 4]
    assert dirs == [0, 1, 3]  # not south: two spaces down is a pile space of the Empty Hall
    sc.step(K.A_DIR + 0)
    assert sc.legal() == [K.A_ROT + r for r in range(4)]  # ignoring the movement restrictions
    sc.step(K.A_ROT + 2)
    assert s["pos"][0] == landing and s["cell_up"][landing] and not s["cell_up"][passed]
    assert sc.decision() == "action" and s["decider"] == 0


def test_chest_failure_leaves_a_treasure_on_it_that_anyone_coming_in_may_attempt():
    sc = ready()
    s = sc.s
    x = sc.lay(2, 3, "dead end with a chest", face_up=False)
    sc.step(move(x))
    sc.dice(3)  # the Knight has no chest icon and no cards
    events = sc.step(K.A_ROT + 2)
    assert (K.EV_CHEST_GOLD, 0, x, 0, 0, 0) in events and s["cell_gold"][x] == 1 and s["reserve"] == 24
    assert sc.decision() == "action"  # no movement after a chest
    sc.step(K.A_MOVE + EXIT)
    sc.step(K.A_END)
    assert s["cell_up"][x]  # a chest with its treasure stays face up
    sc.main(1)
    sc.step(move(x))
    assert sc.decision() == "attempt the chest's treasure?" and s["decider"] == 1
    sc.dice(2)  # the Rogue has 2 chest icons
    sc.step(K.A_ATTEMPT)
    assert s["treasure"][1] == 1 and s["cell_gold"][x] == 0 and s["reserve"] == 24 and s["cell_beaten"][x]


def test_five_treasures_win_at_once():
    sc = ready()
    s = sc.s
    sc.give_treasure(0, 4)
    events = enter_monster(sc, 1)
    assert (K.EV_WIN, 0, K.WIN_FIVE, 0, 0, 0) in events and s["outcome"] == K.WON and s["winner"] == 0
    rewards = np.zeros(K.NUM_SEATS)
    K.returns(s, rewards)
    assert rewards[0] == 1.0 and rewards[1] == -1.0


# --- the end --------------------------------------------------------------------------------------
def test_all_cards_in_game_ends_the_game_most_treasures_win():
    sc = ready(table_size=13, hand0=("corner",))
    sc.fill(keep=1)
    sc.give_treasure(1, 2)
    sc.give_treasure(0, 1)
    events = sc.step(K.A_DRAW)
    assert (K.EV_CARDS_OUT, -1, 0, 0, 0, 0) in events
    assert (K.EV_END_TRIGGER, 0, K.END_CARDS, 0, 0, 0) in events and (K.EV_WIN, 1, K.WIN_MOST, 0, 0, 0) in events


def test_table_full_ends_the_game():
    sc = ready(table_size=5, hand0=("corner",))
    s = sc.s
    free = [cell(r, c) for r in range(5) for c in range(5) if s["cell_type"][cell(r, c)] == K.T_FREE]
    assert len(free) == 19
    sc.fill(keep=0, avoid=[cell(0, 0)])
    assert s["num_empty"] == 1
    sc.give_treasure(0, 1)
    sc.step(K.A_PLAY + 0)
    sc.step(K.A_CELL + cell(0, 0))
    events = sc.step(K.A_ROT + 0)
    assert (K.EV_END_TRIGGER, 0, K.END_TABLE, 0, 0, 0) in events and s["winner"] == 0


def race_scenario() -> Scenario:
    """Three players; seats 0 and 1 tie with one treasure when the table fills up."""
    sc = Scenario(3, table_size=5)
    sc.character(0, "Knight")
    sc.set_hand(0, ["corner"])
    sc.main(0)
    sc.give_treasure(0, 1)
    sc.give_treasure(1, 1)
    return sc


def test_tie_is_broken_by_a_race_with_open_doors_no_challenges_and_no_expansion():
    sc = race_scenario()
    s = sc.s
    sc.lay(0, 1, "straight with a door", 2)  # door on S, towards the exit space (1,1)
    sc.lay(0, 2, "crossing", 0)
    sc.place(1, 0, 1)
    sc.place(2, 0, 2)
    sc.place(0, 0, 2)
    sc.fill(keep=0, avoid=[cell(0, 0), cell(4, 1)])
    sc.lay(4, 1, "straight with a monster", face_up=False)  # north of (0,1) across the table side
    sc.step(K.A_PLAY + 0)
    sc.step(K.A_CELL + cell(0, 0))
    events = sc.step(K.A_ROT + 0)
    assert (K.EV_RACE, -1, 0b011, 0, 0, 0) in events and s["race"] == 1 and s["outcome"] == K.RUNNING
    assert s["seat"] == 1 and sc.decision() == "action"  # the next tied player, no expansion phase
    sc.step(K.A_MOVE + cell(4, 1))
    sc.step(K.A_ROT + 0)
    assert s["pos"][1] == cell(4, 1) and s["treasure"][1] == 1  # the monster is ignored
    sc.step(K.A_END)
    assert s["seat"] == 0 and s["turn"] > 0  # player 2 is not tied: skipped
    sc.step(K.A_END)
    assert not s["cell_up"][cell(0, 1)]  # flipped back in an end phase, as always
    s["cell_up"][cell(0, 1)] = 1
    s["cell_rot"][cell(0, 1)] = 2
    sc.main(1, actions=1)
    sc.place(1, 0, 1)
    events = sc.step(K.A_MOVE + cell(1, 1))  # through the door with one action: doors are open
    assert (K.EV_WIN, 1, K.WIN_RACE, 0, 0, 0) in events and s["winner"] == 1


def test_race_is_won_by_moving_to_the_exit_not_by_standing_there():
    # l.58: "The first one to move to the exit space on the Empty Hall is the winner"
    sc = race_scenario()
    s = sc.s
    sc.place(0, 0, 2)
    sc.lay(0, 2, "crossing", 0)  # north of the exit space's middle cell (1,2)
    sc.fill(keep=0, avoid=[cell(0, 0)])
    sc.step(K.A_PLAY + 0)
    sc.step(K.A_CELL + cell(0, 0))
    events = sc.step(K.A_ROT + 0)
    assert sc.events_of(events, K.EV_RACE) and not sc.events_of(events, K.EV_WIN)
    assert s["outcome"] == K.RUNNING and s["seat"] == 1 and int(s["pos"][1]) == s["exit0"]  # standing there
    sc.step(K.A_MOVE + cell(0, 2))  # out of the exit space
    assert s["outcome"] == K.RUNNING
    events = sc.step(K.A_MOVE + cell(1, 2))  # and back in: now it has moved to the exit space
    assert (K.EV_WIN, 1, K.WIN_RACE, 0, 0, 0) in events and s["winner"] == 1


def test_race_a_pushed_racer_does_not_win_by_being_pushed_into_the_exit():
    sc = race_scenario()
    s = sc.s
    sc.lay(0, 2, "crossing", 0)
    sc.place(0, 0, 2)
    sc.fill(keep=0, avoid=[cell(0, 0)])
    sc.step(K.A_PLAY + 0)
    sc.step(K.A_CELL + cell(0, 0))
    sc.step(K.A_ROT + 0)  # the table is full: seats 0 and 1 race
    s["pos"][1] = cell(0, 2)
    sc.main(0)
    sc.step(K.A_PUSH + 0)  # seat 0 pushes seat 1 (one to its left) south into the exit space
    events = sc.step(K.A_CELL + cell(1, 2))
    assert int(s["pos"][1]) == s["exit0"] and not sc.events_of(events, K.EV_WIN) and s["outcome"] == K.RUNNING


# --- "the player on the left" with three or more players (left and right differ) ----------------
@pytest.mark.parametrize("n", [3, 4, 6])
@pytest.mark.parametrize("icon", ["straight with a monster", "straight with a trap"])
def test_the_player_on_the_left_moves_the_loser_with_three_or_more_players(n, icon):
    # l.49, l.50: "the player on your left may move your character"; l.43 "The active player
    # is now the one on the left": the left of seat p is p + 1, the next in turn order
    for p in range(n):
        sc = Scenario(n)
        sc.character(p, "Gambler")  # no monster icon, one trap icon
        sc.set_hand(p, [])
        sc.main(p)
        x = sc.lay(2, 3, icon, face_up=False)
        sc.step(move(x))
        sc.dice(6)
        events = sc.step(K.A_ROT + 0)
        left = (p + 1) % n
        assert (K.EV_FAIL, p, int(C.KIND_ICON[kind_id(icon)]), 0, left, 0) in events
        assert sc.s["decider"] == left and sc.decision().startswith("move the loser"), (n, p)


@pytest.mark.parametrize("n", [3, 4, 6])
def test_end_phase_the_player_on_the_left_is_active_next_with_three_or_more_players(n):
    for p in range(n):
        sc = Scenario(n)
        sc.main(p)
        sc.step(K.A_END)
        assert sc.s["seat"] == (p + 1) % n and sc.s["decider"] == (p + 1) % n, (n, p)


# --- the guaranteed end (not in the rulebook) -----------------------------------------------------
def start_race() -> Scenario:
    """``race_scenario`` with the table filled: seats 0 and 1 race, seat 1 to act."""
    sc = race_scenario()
    sc.place(0, 0, 2)
    sc.lay(0, 2, "crossing", 0)
    sc.fill(keep=0, avoid=[cell(0, 0)])
    sc.step(K.A_PLAY + 0)
    sc.step(K.A_CELL + cell(0, 0))
    sc.step(K.A_ROT + 0)
    assert sc.s["race"] and sc.s["outcome"] == K.RUNNING and sc.s["seat"] == 1
    return sc


def test_a_stalled_race_is_truncated_even_without_max_turns():
    sc = start_race()
    s = sc.s
    assert s["max_turns"] == 0  # max_turns=None
    ends = 0
    events = []
    while s["outcome"] == K.RUNNING and ends < 5 * C.RACE_TURN_LIMIT:  # racers that never move
        events = sc.step(K.A_END)
        ends += 1
    assert s["outcome"] == K.TRUNCATED and ends == C.RACE_TURN_LIMIT
    assert (K.EV_TRUNCATED, -1, K.CUT_RACE, 0, 0, 0) in events
    rewards = np.ones(K.NUM_SEATS)
    K.returns(s, rewards)
    assert not rewards.any()


def test_a_turn_of_endless_failed_challenges_is_truncated_even_without_max_turns():
    # two undefeated monsters side by side: a loser without monster icons or cards, moved by
    # the player on its left from one into the other, fails again and again in one turn
    sc = Scenario(3)
    s = sc.s
    sc.character(0, "Engineer")  # no monster icon
    sc.set_hand(0, [])
    sc.main(0)
    a = sc.lay(2, 3, "straight with a monster", 0)
    b = sc.lay(1, 3, "straight with a monster", 0)
    events = sc.step(move(a))
    steps = 1
    while s["outcome"] == K.RUNNING and steps < 5 * C.TURN_DECISION_LIMIT:
        assert s["decider"] == 1 and s["turn"] == 1
        events = sc.step(K.A_CELL + (b if s["pos"][0] == a else a))
        steps += 1
    assert s["outcome"] == K.TRUNCATED and steps == C.TURN_DECISION_LIMIT
    assert (K.EV_TRUNCATED, -1, K.CUT_TURN, 0, 0, 0) in events


# --- statistics of the challenge ------------------------------------------------------------------
@pytest.mark.parametrize(("character", "hand", "expected"), [("Knight", 1, 3 / 6), ("Rogue", 2, 2 / 6)])
def test_challenge_success_rate_for_a_known_hand_and_icon_count(character, hand, expected):
    sc = ready(hand0=("corner",) * hand)
    sc.character(0, character)
    x = sc.lay(2, 3, "straight with a monster", face_up=False)
    sc.step(move(x))
    base = sc.states.copy()
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(K.NUM_SEATS)
    trials = 6000
    wins = 0
    faces = np.zeros(7, dtype=np.int64)
    for k in range(trials):
        st = base.copy()
        st[0]["rng"][0] = seed_state(np.uint64(k + 1000))
        assert B.step_one(st, K.A_ROT + 0, mask, rewards) != -2
        while st[0]["decision"] == K.D_PAY:  # which cards to pay with does not matter here
            assert B.step_one(st, K.A_SLOT + 0, mask, rewards) != -2
        wins += int(st[0]["treasure"][0])
        faces[int(st[0]["ch_diff"])] += 1
    sigma = np.sqrt(expected * (1 - expected) / trials)
    assert abs(wins / trials - expected) < 4 * sigma
    assert faces[0] == 0 and all(abs(f / trials - 1 / 6) < 4 * np.sqrt(5 / 36 / trials) for f in faces[1:])
