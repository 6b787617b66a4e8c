"""Labyrinthos scenario tests, one per rule of the rulebook: setup, the turn, the actions,
the symbols, keys, wounds and the win (the monster and the cards: test_labyrinthos_monster)."""

from __future__ import annotations

import numpy as np
import pytest
from labyrinthos_helpers import DOOR, E, N, S, Scenario, cell, edge, events_of, options_vector

from labyrinth_env.core.contract import new_states
from labyrinth_env.core.grid import rotate_mask
from labyrinth_env.rulesets.labyrinthos import components as C
from labyrinth_env.rulesets.labyrinthos import kernel as K

UP = cell(2, 3)  # north of the Door tile
RIGHT = cell(3, 4)  # east of the Door tile


def open_scenario(**options) -> Scenario:
    """Seat 0 on the Door tile with plenty of tokens, the four tiles around it crossroads."""
    sc = Scenario(**options)
    for c in (UP, RIGHT, cell(4, 3), cell(3, 2)):
        sc.reveal(c, "NESW")
    sc.put(0, DOOR).tokens(0, 7, 7)
    sc.monster(cell(0, 0))
    sc.reveal(cell(0, 0), "NE")
    return sc


# --- setup -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_setup_door_centre_starting_tiles_up_the_rest_face_down(num_players):
    states = new_states(K, 1)
    from labyrinthos_helpers import B

    B.init_one(states, np.uint64(7), options_vector(num_players=num_players))
    s = states[0]
    assert int(s["decision"]) == K.D_HERO and int(s["decider"]) == int(s["first_player"])
    assert s["cell_up"].sum() == 1 and s["cell_up"][DOOR] == 1 and int(s["cell_tile"][DOOR]) == C.DOOR_TILE
    assert sorted(int(t) for t in s["cell_tile"]) == list(range(49))
    assert sorted(int(s["cell_tile"][c]) for c in K.START_CELLS) == list(C.START_TILES)
    sc = Scenario(seed=7, num_players=num_players, fresh=False, heroes=[3, 0, 2, 1][:num_players])
    s = sc.s
    for c in K.START_CELLS:
        assert s["cell_up"][c] == 1
    for c in K.OUTER_CELLS:
        assert s["cell_up"][c] == 0
    for p in range(num_players):  # each hero on the starting tile of its colour
        assert int(s["cell_tile"][int(s["position"][p])]) == C.HERO_START_TILE[int(s["hero"][p])]
        assert (int(s["feet"][p]), int(s["hands"][p])) == (C.START_FEET, C.START_HANDS)
        assert int(s["hand"][p].sum()) == 4
    assert int(s["deck_len"]) == 60 - 4 * num_players
    assert int(s["wall_supply"]) == 30 and int(s["monster_cell"]) == -1
    assert int(s["decision"]) == K.D_MAIN and int(s["seat"]) == int(s["first_player"])


def test_heroes_are_chosen_in_turn_order_from_the_first_player():
    sc = Scenario(seed=3, num_players=3, fresh=False, heroes=[2, 1, 0])
    first = int(sc.s["first_player"])
    assert [int(h) for h in sc.s["hero"][:3]] == [2, 1, 0]
    sc2 = Scenario(seed=3, num_players=3, fresh=False, heroes=None)
    del sc2
    states = new_states(K, 1)
    from labyrinthos_helpers import B

    B.init_one(states, np.uint64(3), options_vector(num_players=3))
    s = states[0]
    order = []
    while int(s["decision"]) == K.D_HERO:
        order.append(int(s["decider"]))
        mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
        K.legal_mask(s, mask)
        assert mask[K.A_HERO : K.A_HERO + 4].sum() == 4 - len(order) + 1
        K.step(s, int(np.flatnonzero(mask)[0]))
    assert order == [first, (first + 1) % 3, (first + 2) % 3]


def test_first_round_without_minotaur_turn_ends_after_refreshing_the_pool():
    sc = Scenario(num_players=2, fresh=False)
    s = sc.s
    first = int(s["seat"])
    evs = sc.step(K.A_PASS)
    assert sc.decision == K.D_REFRESH
    evs = sc.step(K.A_REFRESH + 5)
    assert (int(s["feet"][first]), int(s["hands"][first])) == (5, 2)
    assert not events_of(evs, K.EV_DRAW) and not events_of(evs, K.EV_ROLL)
    assert int(s["seat"]) == 1 - first and int(s["monster_cell"]) == -1
    sc.step(K.A_PASS)
    evs = sc.step(K.A_REFRESH + 4)
    # after each player has completed a first turn the Minotaur enters on the Door tile
    assert int(s["monster_cell"]) == DOOR
    assert [e for e in events_of(evs, K.EV_MONSTER_MOVE) if e[4] == 4]
    assert int(s["seat"]) == first and sc.decision == K.D_MAIN


# --- the turn ------------------------------------------------------------------------------------------
def test_actions_are_paid_with_tokens_and_can_be_repeated():
    sc = open_scenario()
    s = sc.s
    sc.tokens(0, 2, 0)
    sc.step(K.A_CELL + UP)
    sc.step(K.A_CELL + DOOR)
    assert int(s["feet"][0]) == 0 and int(s["position"][0]) == DOOR
    assert not sc.legal(K.A_CELL + UP), "no Feet token left"
    assert sc.legal(K.A_PASS)
    assert int(s["feet_supply"]) + int(s["feet"][:2].sum()) == C.NUM_FEET_TOKENS


def test_refresh_the_action_pool_chooses_seven_from_the_limited_supply():
    sc = open_scenario()
    s = sc.s
    sc.tokens(0, 1, 1).tokens(1, 25, 0)
    sc.step(K.A_PASS)
    assert sc.decision == K.D_REFRESH
    legal = [a - K.A_REFRESH for a in sc.legal_actions()]
    # 28 Feet: 25 with seat 1, 1 returned by seat 0, so at most 3 Feet can be taken
    assert legal == [0, 1, 2, 3]
    sc.step(K.A_REFRESH + 3)
    assert (int(s["feet"][0]), int(s["hands"][0])) == (3, 4)


def test_refresh_hand_draws_up_to_four_minus_keys():
    sc = open_scenario().clear_hands()
    s = sc.s
    sc.give_card(0, 1).give_card(0, 2)
    sc.give_key(0, 0, C.K_BUILD, C.S_KEY)
    sc.steps(K.A_PASS, K.A_REFRESH + 4)
    assert sc.decision == K.D_DISCARD_OPT
    evs = sc.step(K.A_DONE)
    # the rulebook's example: 2 cards and 1 key: draws 1
    assert events_of(evs, K.EV_DRAW)[0][2] == 1 and int(s["hand"][0].sum()) == 3


def test_refresh_hand_optional_discards_then_discard_down_to_the_limit():
    sc = open_scenario().clear_hands()
    s = sc.s
    for t in (1, 2, 3, 4):
        sc.give_card(0, t)
    sc.give_key(0, 0, C.K_BUILD, C.S_KEY)
    sc.give_key(0, 1, C.K_BUILD, C.S_HEAL)
    sc.steps(K.A_PASS, K.A_REFRESH + 4)
    sc.step(K.A_CARD + 1)  # an optional discard before drawing
    assert sc.decision == K.D_DISCARD_OPT and int(s["discard"][1]) == 1
    sc.step(K.A_DONE)
    assert sc.decision == K.D_DISCARD and not sc.legal(K.A_DONE)  # 3 cards, limit 2
    sc.step(K.A_CARD + 2)
    assert int(s["hand"][0].sum()) == 2 and sc.decision != K.D_DISCARD


def test_after_refreshing_the_minotaur_die_is_rolled_by_the_active_player():
    sc = open_scenario().clear_hands()
    sc.step(K.A_PASS)
    sc.dice(3)  # 3 hooves
    evs = sc.step(K.A_REFRESH + 4)  # no card in hand: nothing to discard, 4 drawn, then the die
    assert events_of(evs, K.EV_DRAW)[0][2] == 4
    assert events_of(evs, K.EV_ROLL) == [(K.EV_ROLL, 0, 3, 0, 0, 0)]
    assert sc.decision == K.D_MONSTER and sc.decider == 0 and int(sc.s["m_points"]) == 3


def test_deck_runs_out_discards_are_shuffled_into_a_new_deck():
    sc = open_scenario().clear_hands()
    s = sc.s
    s["discard"][:] = 0
    n = int(s["deck_len"])
    for t in s["deck"][:n]:
        s["discard"][int(t)] += 1
    s["deck_len"] = 0
    s["deck"][:] = -1
    evs = sc.steps(K.A_PASS, K.A_REFRESH + 4)
    assert events_of(evs, K.EV_RESHUFFLE)[0][2] == n
    assert int(s["hand"][0].sum()) == 4 and int(s["deck_len"]) == n - 4 and s["discard"].sum() == 0


# --- move ------------------------------------------------------------------------------------------------
def test_move_along_connected_pathways_only():
    sc = open_scenario()
    sc.reveal(RIGHT, "NS")  # its pathways do not meet the Door's
    sc.hide_tile(cell(3, 2))  # face down: never by a move
    sc.wall(DOOR, S)
    assert sc.legal(K.A_CELL + UP)
    assert not sc.legal(K.A_CELL + RIGHT)
    assert not sc.legal(K.A_CELL + cell(3, 2))
    assert not sc.legal(K.A_CELL + cell(4, 3)), "never through a wall"
    assert not sc.legal(K.A_CELL + cell(1, 3)), "only adjacent tiles"
    evs = sc.step(K.A_CELL + UP)
    assert int(sc.s["feet"][0]) == 6 and events_of(evs, K.EV_MOVE)[0][2:4] == (DOOR, UP)


def test_move_never_onto_the_minotaur_unless_a_hide_tile():
    sc = open_scenario()
    sc.monster(UP)
    assert not sc.legal(K.A_CELL + UP)
    sc.reveal(UP, "NES", C.SYM_HIDE)
    assert sc.legal(K.A_CELL + UP)


def test_moved_heroes_resolve_symbols_every_time():
    sc = open_scenario()
    sc.reveal(UP, "NS", C.SYM_TRAP)
    sc.step(K.A_CELL + UP)
    assert sc.decision == K.D_WOUND and sc.decider == 0
    sc.step(K.A_SLOT + C.S_HEAL)
    sc.step(K.A_CELL + DOOR)
    sc.step(K.A_CELL + UP)
    assert sc.decision == K.D_WOUND


# --- explore -----------------------------------------------------------------------------------------------
def test_explore_flips_the_tile_in_any_orientation_and_moves_onto_it():
    sc = open_scenario()
    s = sc.s
    tile = sc.reveal(UP, "NE", tile=None, up=False)
    assert sc.legal(K.A_EXPLORE + N) and not sc.legal(K.A_CELL + UP)
    evs = sc.step(K.A_EXPLORE + N)
    assert events_of(evs, K.EV_EXPLORE) == [(K.EV_EXPLORE, 0, UP, tile, 0, 0)]
    assert sc.decision == K.D_ORIENT and s["cell_up"][UP] == 1
    assert sorted(a - K.A_ORIENT for a in sc.legal_actions()) == [0, 1, 2, 3]
    sc.step(K.A_ORIENT + 3)  # "NE" turned 3 quarters: "WN"
    assert int(s["cell_mask"][UP]) == int(rotate_mask(int(C.TILE_MASK[tile]), 3, 4))
    assert int(s["position"][0]) == UP and int(s["feet"][0]) == 7 - int(C.SLOT_COST[C.S_EXPLORE, 0])
    assert sc.decision == K.D_MAIN


def test_explore_needs_a_pathway_towards_the_face_down_tile():
    sc = open_scenario()
    sc.reveal(UP, "NS", up=False)
    sc.reveal(DOOR, "NESW", tile=C.DOOR_TILE)
    sc.s["cell_mask"][DOOR] = 0b1110  # E, S, W open: not towards UP
    assert not sc.legal(K.A_EXPLORE + N)
    sc.s["cell_mask"][DOOR] = 0b1111
    sc.wall(DOOR, N)
    assert not sc.legal(K.A_EXPLORE + N), "a wall blocks the pathway"


def test_explored_symbol_is_resolved_at_once():
    sc = open_scenario()
    sc.reveal(UP, "NS", C.SYM_TRAP, up=False)
    sc.steps(K.A_EXPLORE + N, K.A_ORIENT + 0)
    assert sc.decision == K.D_WOUND


# --- discover key ------------------------------------------------------------------------------------------------
def test_discover_key_choose_a_token_of_that_colour_and_place_it_on_a_slot():
    sc = open_scenario()
    s = sc.s
    key_tile = int(C.KEY_TILE_OF_COLOUR[2])
    sc.reveal(UP, "NES", tile=key_tile)
    sc.put(0, UP)
    sc.give_key(1, 2, C.K_HOMEWARD, C.S_KEY)  # another hero took Gold's Homeward already
    evs = sc.step(K.A_DISCOVER)
    assert int(s["hands"][0]) == 6 and not events_of(evs, K.EV_KEY)
    assert sc.decision == K.D_KEY_PICK
    gold = [C.K_GOLDEN_THREAD, C.K_HORN_OF_MINOS, C.K_LABRYS]
    assert sorted(a - K.A_KEY_PICK for a in sc.legal_actions()) == gold
    sc.step(K.A_KEY_PICK + C.K_LABRYS)
    assert sc.decision == K.D_KEY_SLOT and len(sc.legal_actions()) == 9
    evs = sc.step(K.A_SLOT + C.S_ROTATE_WALL)
    k = C.K_LABRYS  # token k carries key action k
    assert C.KEY_TOKEN_COLOUR[k] == 2
    assert int(s["slot_key"][0, C.S_ROTATE_WALL]) == k and s["key_pile"][k] == 0
    assert events_of(evs, K.EV_KEY) == [(K.EV_KEY, 0, k, C.S_ROTATE_WALL, 0, 0)]
    # the token covers Rotate Wall and gives Labrys instead
    assert not sc.legal(K.A_DISCOVER), "never two keys of one colour"
    sc.wall(UP, N)
    assert not any(sc.legal(K.A_ROT_WALL + k2) for k2 in range(16))
    assert sc.legal(K.A_KEY_ACT + C.K_LABRYS)


def test_key_tokens_are_unique_each_pile_holds_its_own_four_actions():
    """l.274: each key "will grant you a unique action": the four piles offer 16 different ones."""
    seen = []
    for colour in range(C.NUM_KEY_COLOURS):
        sc = open_scenario()
        sc.reveal(UP, "NES", tile=int(C.KEY_TILE_OF_COLOUR[colour]))
        sc.put(0, UP)
        sc.step(K.A_DISCOVER)
        picks = sorted(a - K.A_KEY_PICK for a in sc.legal_actions())
        assert len(picks) == 4 and all(C.KEY_TOKEN_COLOUR[k] == colour for k in picks)
        seen += picks
    assert sorted(seen) == list(range(16))


def test_discover_key_only_on_a_key_tile():
    sc = open_scenario()
    assert not sc.legal(K.A_DISCOVER)


def test_empty_key_slot_is_optional_for_a_harder_game():
    sc = open_scenario(use_empty_key_slot=False)
    sc.reveal(UP, "NES", tile=int(C.KEY_TILE_OF_COLOUR[0]))
    sc.put(0, UP)
    sc.steps(K.A_DISCOVER, K.A_KEY_PICK + 0)
    assert not sc.legal(K.A_SLOT + C.S_KEY) and sc.legal(K.A_SLOT + C.S_HEAL)


def test_key_on_a_wounded_action_the_wound_goes_on_top():
    sc = open_scenario()
    sc.wound(0, C.S_HEAL)
    sc.reveal(UP, "NES", tile=int(C.KEY_TILE_OF_COLOUR[0]))
    sc.put(0, UP)
    sc.steps(K.A_DISCOVER, K.A_KEY_PICK + C.K_BANDAGES)
    assert sc.legal(K.A_SLOT + C.S_HEAL)
    sc.step(K.A_SLOT + C.S_HEAL)
    assert not sc.legal(K.A_KEY_ACT + C.K_BANDAGES), "the wound on the key blocks its action"


# --- desperate action ------------------------------------------------------------------------------------------
def test_desperate_action_plays_a_card_and_discards_it():
    sc = open_scenario().clear_hands()
    s = sc.s
    sc.give_card(0, 1)  # Ambrosia
    sc.wound(0, C.S_HEAL, C.S_SPECIAL)
    evs = sc.step(K.A_CARD + 1)
    assert events_of(evs, K.EV_CARD) == [(K.EV_CARD, 0, 1, 0, 0, 0)]
    assert s["slot_wound"][0].sum() == 0 and int(s["hand"][0, 1]) == 0 and int(s["discard"][1]) == 1
    assert int(s["hands"][0]) == 7 - int(C.SLOT_COST[C.S_DESPERATE, 1])


def test_reaction_cards_cannot_be_played_on_your_own_turn():
    sc = open_scenario().clear_hands()
    sc.give_card(0, 0).give_card(0, 8)  # Hermes' Mischief, Sidestep
    assert not sc.legal(K.A_CARD + 0) and not sc.legal(K.A_CARD + 8)


# --- rotate wall, rotate tile ---------------------------------------------------------------------------------
def test_rotate_wall_to_another_side_of_your_tile_within_the_wall_limit():
    sc = open_scenario()
    s = sc.s
    e = sc.wall(DOOR, N)
    assert sc.legal(K.A_ROT_WALL + N * 4 + E)
    assert not sc.legal(K.A_ROT_WALL + E * 4 + S), "no wall on that side"
    sc.wall(RIGHT, N)
    sc.wall(RIGHT, E)  # the tile east of the Door has two walls already
    assert not sc.legal(K.A_ROT_WALL + N * 4 + E)
    sc.step(K.A_ROT_WALL + N * 4 + S)
    assert s["wall"][e] == 0 and s["wall"][edge(DOOR, S)] == 1 and int(s["hands"][0]) == 6


def test_rotate_tile_any_explored_tile_ninety_degrees_and_walls_stay():
    sc = open_scenario()
    s = sc.s
    far = cell(6, 6)
    sc.reveal(far, "NE")
    e = sc.wall(far, N)
    sc.step(K.A_ROTATE + 2 * far)
    assert int(s["cell_mask"][far]) == 0b0110  # E, S
    assert s["wall"][e] == 1
    sc.step(K.A_ROTATE + 2 * DOOR + 1)  # occupied tiles too
    sc.hide_tile(cell(0, 6))
    assert not sc.legal(K.A_ROTATE + 2 * cell(0, 6)), "only explored tiles"


# --- heal, recover, rearrange -----------------------------------------------------------------------------------
def test_heal_removes_one_wound():
    sc = open_scenario()
    s = sc.s
    assert not sc.legal(K.A_HEAL)
    sc.wound(0, C.S_MOVE, C.S_EXPLORE)
    sc.step(K.A_HEAL)
    assert sorted(a - K.A_SLOT for a in sc.legal_actions()) == [C.S_MOVE, C.S_EXPLORE]
    sc.step(K.A_SLOT + C.S_EXPLORE)
    assert list(s["slot_wound"][0][:2]) == [1, 0] and int(s["hands"][0]) == 7 - int(C.SLOT_COST[C.S_HEAL, 1])


def test_recover_pays_five_tokens_of_any_type_and_removes_all_wounds():
    sc = open_scenario()
    s = sc.s
    sc.tokens(0, 3, 3)
    sc.wound(0, C.S_MOVE, C.S_HEAL, C.S_DESPERATE)
    legal = [a - K.A_RECOVER for a in sc.legal_actions() if K.A_RECOVER <= a < K.A_REARRANGE]
    assert legal == [2, 3]  # 2 or 3 Feet with 3 or 2 Hand
    sc.step(K.A_RECOVER + 2)
    assert s["slot_wound"][0].sum() == 0 and (int(s["feet"][0]), int(s["hands"][0])) == (1, 0)
    assert int(s["wound_supply"]) == C.NUM_WOUND_TOKENS


def test_rearrange_pays_three_and_moves_a_key_the_wound_stays():
    sc = open_scenario()
    s = sc.s
    k = sc.give_key(0, 0, C.K_SECRET_LEVER, C.S_DESPERATE)
    sc.wound(0, C.S_DESPERATE)
    sc.step(K.A_REARRANGE + 0)
    assert int(s["hands"][0]) == 4
    assert sc.legal_actions() == [K.A_SLOT + C.S_DESPERATE]
    sc.step(K.A_SLOT + C.S_DESPERATE)
    assert not sc.legal(K.A_SLOT + C.S_DESPERATE)
    sc.step(K.A_SLOT + C.S_ROTATE_TILE)
    assert int(s["slot_key"][0, C.S_ROTATE_TILE]) == k and int(s["slot_key"][0, C.S_DESPERATE]) == -1
    assert s["slot_wound"][0, C.S_DESPERATE] == 1 and s["slot_wound"][0, C.S_ROTATE_TILE] == 0
    assert sc.legal(K.A_KEY_ACT + C.K_SECRET_LEVER) and not sc.legal(K.A_ROTATE + 2 * DOOR)


def test_recover_and_rearrange_always_available_never_covered():
    sc = open_scenario()
    sc.give_key(0, 0, C.K_BUILD, C.S_KEY)
    sc.wound(0, *range(8))
    assert sc.legal(K.A_RECOVER + 5) and sc.legal(K.A_REARRANGE + 3)


# --- key actions ------------------------------------------------------------------------------------------------
def test_key_action_secret_lever_rotates_up_to_four_tiles():
    sc = open_scenario()
    s = sc.s
    sc.give_key(0, 0, C.K_SECRET_LEVER, C.S_KEY)
    sc.step(K.A_KEY_ACT + C.K_SECRET_LEVER)
    for _ in range(4):
        assert sc.decision == K.D_LEVER and sc.legal(K.A_DONE)
        sc.step(K.A_ROTATE + 2 * UP)
    assert sc.decision == K.D_MAIN and int(s["cell_mask"][UP]) == 0b1111


def test_key_action_build_places_or_removes_up_to_two_walls():
    sc = open_scenario()
    s = sc.s
    sc.give_key(0, 0, C.K_BUILD, C.S_KEY)
    e = sc.wall(cell(5, 5), N)
    sc.step(K.A_KEY_ACT + C.K_BUILD)
    sc.step(K.A_EDGE + e)
    assert s["wall"][e] == 0
    sc.step(K.A_EDGE + edge(cell(1, 1), E))
    assert s["wall"][edge(cell(1, 1), E)] == 1 and sc.decision == K.D_MAIN


def test_key_action_visions_rotates_up_to_four_walls():
    sc = open_scenario()
    s = sc.s
    sc.give_key(0, 0, C.K_VISIONS, C.S_KEY)
    e = sc.wall(cell(5, 5), N)
    sc.step(K.A_KEY_ACT + C.K_VISIONS)
    assert sc.legal_actions() == [K.A_EDGE + e, K.A_DONE]
    sc.step(K.A_EDGE + e)
    assert sc.decision == K.D_VISION_TO and sc.legal(K.A_EDGE + edge(cell(5, 5), E))
    assert not sc.legal(K.A_EDGE + edge(cell(0, 0), E)), "another side of one of its tiles"
    sc.step(K.A_EDGE + edge(cell(5, 5), E))
    assert s["wall"][e] == 0 and s["wall"][edge(cell(5, 5), E)] == 1
    assert sc.decision == K.D_VISION_FROM
    sc.step(K.A_DONE)
    assert sc.decision == K.D_MAIN


def test_key_action_bandages_heals_a_wound():
    sc = open_scenario()
    sc.give_key(0, 0, C.K_BANDAGES, C.S_KEY)
    assert not sc.legal(K.A_KEY_ACT + C.K_BANDAGES)
    sc.wound(0, C.S_MOVE)
    sc.steps(K.A_KEY_ACT + C.K_BANDAGES, K.A_SLOT + C.S_MOVE)
    assert sc.s["slot_wound"][0].sum() == 0


# --- special actions -------------------------------------------------------------------------------------------
def test_special_swift_stride_takes_two_feet():
    sc = open_scenario(heroes=[C.H_SWIFT_STRIDE, 0])
    sc.tokens(0, 0, 2)
    sc.step(K.A_SPECIAL)
    assert (int(sc.s["feet"][0]), int(sc.s["hands"][0])) == (2, 1)


def test_special_action_covered_by_a_wound_cannot_be_used():
    sc = open_scenario(heroes=[C.H_SWIFT_STRIDE, 0])
    sc.wound(0, C.S_SPECIAL)
    assert not sc.legal(K.A_SPECIAL)


def test_passive_specials_are_not_actions():
    sc = open_scenario(heroes=[C.H_SHIELD_MAIDEN, C.H_WILD_INTUITION])
    assert not sc.legal(K.A_SPECIAL)


# --- symbols -------------------------------------------------------------------------------------------------------
def test_wall_symbol_places_a_wall_anywhere_within_the_wall_limit():
    sc = open_scenario()
    s = sc.s
    sc.reveal(UP, "NS", C.SYM_WALL)
    sc.wall(cell(0, 0), E)
    sc.wall(cell(0, 0), S)
    sc.step(K.A_CELL + UP)
    assert sc.decision == K.D_WALL
    assert not sc.legal(K.A_EDGE + edge(cell(1, 0), N)), "r0c0 has two walls already"
    assert sc.legal(K.A_EDGE + edge(cell(6, 5), E)), "between explored and unexplored tiles too"
    sc.step(K.A_EDGE + edge(cell(6, 5), E))
    assert int(s["wall_supply"]) == 27


def test_wall_symbol_with_no_wall_left_does_nothing():
    sc = open_scenario()
    sc.s["wall_supply"] = 0
    sc.reveal(UP, "NS", C.SYM_WALL)
    sc.step(K.A_CELL + UP)
    assert sc.decision == K.D_MAIN


def test_minotaur_symbol_gives_two_movement_points_used_at_once():
    sc = open_scenario()
    sc.reveal(UP, "NS", C.SYM_MINOTAUR)
    evs = sc.step(K.A_CELL + UP)
    assert events_of(evs, K.EV_POINTS) == [(K.EV_POINTS, 0, 2, 0, 0, 0)]
    assert sc.decision == K.D_MONSTER and sc.decider == 0
    sc.step(K.A_ROTATE + 2 * cell(0, 0))
    sc.step(K.A_ROTATE + 2 * cell(0, 0))
    # it could not leave its tile: it goes to the Door tile
    assert sc.decision == K.D_MAIN and int(sc.s["monster_cell"]) == DOOR


def test_minotaur_symbol_in_the_first_round_does_nothing():
    sc = open_scenario()
    sc.fresh_turn(0, first_round=True)
    sc.reveal(UP, "NS", C.SYM_MINOTAUR)
    sc.step(K.A_CELL + UP)
    assert sc.decision == K.D_MAIN


def test_trap_symbol_wounds_on_explore_move_and_attack():
    sc = open_scenario()
    sc.reveal(UP, "NS", C.SYM_TRAP)
    sc.step(K.A_CELL + UP)
    assert sc.decision == K.D_WOUND
    sc.step(K.A_SLOT + C.S_HEAL)
    assert sc.s["slot_wound"][0, C.S_HEAL] == 1


def test_secret_passages_link_every_passage_tile_for_one_move():
    sc = open_scenario()
    s = sc.s
    sc.reveal(DOOR, "NESW", tile=C.DOOR_TILE)
    sc.reveal(UP, "NS", C.SYM_PASSAGE)
    far = cell(6, 0)
    sc.reveal(far, "NE", C.SYM_PASSAGE)
    sc.step(K.A_CELL + UP)
    assert sc.legal(K.A_CELL + far)
    sc.hide_tile(far)
    assert not sc.legal(K.A_CELL + far), "only explored passage tiles"
    sc.reveal(far, "NE", C.SYM_PASSAGE, tile=int(s["cell_tile"][far]))
    sc.step(K.A_CELL + far)
    assert int(s["position"][0]) == far and int(s["feet"][0]) == 5


# --- wounds -----------------------------------------------------------------------------------------------
def test_one_wound_per_action_never_on_an_empty_key_slot():
    sc = open_scenario()
    sc.wound(0, C.S_EXPLORE)
    sc.reveal(UP, "NS", C.SYM_TRAP)
    sc.step(K.A_CELL + UP)
    legal = [a - K.A_SLOT for a in sc.legal_actions()]
    assert C.S_EXPLORE not in legal and C.S_KEY not in legal and C.S_SPECIAL in legal
    sc.give_key(0, 0, C.K_BUILD, C.S_KEY)
    assert sc.legal(K.A_SLOT + C.S_KEY), "on a key token in the empty key slot: yes"


def test_wound_discarded_when_every_action_is_wounded():
    sc = open_scenario().clear_hands()
    s = sc.s
    sc.give_card(0, 4)  # Ariadne's Thread moves even with Move wounded
    sc.wound(0, *[i for i in range(8) if i != C.S_DESPERATE])
    sc.reveal(UP, "NS", C.SYM_TRAP)
    sc.steps(K.A_CARD + 4, K.A_CELL + UP)
    assert sc.legal_actions() == [K.A_SLOT + C.S_DESPERATE]
    sc.step(K.A_SLOT + C.S_DESPERATE)
    before = int(s["wound_supply"])
    # every action wounded: one more wound (here a task pushed by hand) is discarded
    s["task_kind"][0], s["task_seat"][0], s["task_a"][0], s["task_b"][0] = K.T_WOUND, 0, 1, 0
    s["num_tasks"] = 1
    s["decision"] = K.D_NONE
    s["num_events"] = 0
    K.advance(s)
    evs = [tuple(int(x) for x in r) for r in s["events"][: int(s["num_events"])]]
    assert events_of(evs, K.EV_WOUND) == [(K.EV_WOUND, 0, -1, 0, 0, 0)]
    assert int(s["wound_supply"]) == before and sc.decision == K.D_MAIN


def test_wounded_action_cannot_be_used():
    sc = open_scenario()
    sc.wound(0, C.S_MOVE, C.S_ROTATE_TILE)
    assert not sc.legal(K.A_CELL + UP) and not sc.legal(K.A_ROTATE + 2 * UP)


# --- the win ---------------------------------------------------------------------------------------------
def test_win_with_four_keys_moving_onto_the_door_tile():
    sc = open_scenario()
    s = sc.s
    sc.put(0, UP)
    for colour, slot in zip(range(3), (C.S_KEY, C.S_HEAL, C.S_DESPERATE)):
        sc.give_key(0, colour, C.K_BUILD, slot)
    sc.step(K.A_CELL + DOOR)
    assert int(s["outcome"]) == K.RUNNING, "three keys are not enough"
    sc.step(K.A_CELL + UP)
    sc.give_key(0, 3, C.K_BUILD, C.S_SPECIAL)
    evs = sc.step(K.A_CELL + DOOR)
    assert int(s["outcome"]) == K.WON and int(s["winner"]) == 0 and events_of(evs, K.EV_WIN)
    out = np.zeros(K.NUM_SEATS)
    K.returns(s, out)
    assert list(out[:2]) == [1.0, -1.0] and K.to_act(s) == -1


# --- the reconstructed key actions (one per token) ------------------------------------------------------------
def key(sc: Scenario, action: int, slot: int = C.S_KEY) -> int:
    return sc.give_key(0, int(C.KEY_TOKEN_COLOUR[action]), action, slot)


def test_key_action_winged_key_takes_two_feet():
    sc = open_scenario()
    key(sc, C.K_WINGED_KEY)
    sc.step(K.A_KEY_ACT + C.K_WINGED_KEY)
    assert (int(sc.s["feet"][0]), int(sc.s["hands"][0])) == (9, 6)


def test_key_action_bull_leaper_moves_even_onto_the_minotaurs_tile():
    """l.121: never share the Minotaur's tile "unless a ... Key token ... allows it"."""
    sc = open_scenario()
    key(sc, C.K_BULL_LEAPER)
    sc.monster(UP)
    assert not sc.legal(K.A_CELL + UP)
    sc.step(K.A_KEY_ACT + C.K_BULL_LEAPER)
    assert sc.decision == K.D_FREE_MOVE and sc.legal(K.A_CELL + UP)
    evs = sc.step(K.A_CELL + UP)
    assert int(sc.s["position"][0]) == UP and not events_of(evs, K.EV_ATTACK)
    assert events_of(evs, K.EV_MOVE)[0][2:5] == (DOOR, UP, K.HOW_KEY) and int(sc.s["feet"][0]) == 6


def test_key_action_oracle_draws_a_card_below_the_hand_limit():
    sc = open_scenario().clear_hands()
    key(sc, C.K_ORACLE)  # one key: the hand limit is 3
    sc.give_card(0, 1).give_card(0, 2)
    evs = sc.step(K.A_KEY_ACT + C.K_ORACLE)
    assert int(sc.s["hand"][0].sum()) == 3 and events_of(evs, K.EV_DRAW)[0][2] == 1
    assert not sc.legal(K.A_KEY_ACT + C.K_ORACLE)


def test_key_action_gorgons_eye_drains_another_player():
    sc = open_scenario()
    key(sc, C.K_GORGONS_EYE)
    sc.tokens(1, 4, 3)
    sc.steps(K.A_KEY_ACT + C.K_GORGONS_EYE, K.A_TARGET)
    assert (int(sc.s["feet"][1]), int(sc.s["hands"][1])) == (2, 3)


def test_key_action_golden_thread_moves_with_move_wounded():
    sc = open_scenario()
    key(sc, C.K_GOLDEN_THREAD)
    sc.wound(0, C.S_MOVE)
    assert not sc.legal(K.A_CELL + UP)
    sc.steps(K.A_KEY_ACT + C.K_GOLDEN_THREAD, K.A_CELL + UP)
    assert int(sc.s["position"][0]) == UP and (int(sc.s["feet"][0]), int(sc.s["hands"][0])) == (7, 6)


def test_key_action_horn_of_minos_charges_where_its_holder_chooses():
    sc = open_scenario()
    key(sc, C.K_HORN_OF_MINOS)
    sc.reveal(cell(2, 4), "EW")
    sc.monster(UP)
    sc.step(K.A_KEY_ACT + C.K_HORN_OF_MINOS)
    assert sc.decision == K.D_CHARGE and sc.decider == 0
    sc.step(K.A_CHARGE + E)
    assert int(sc.s["monster_cell"]) == cell(2, 4) and sc.decision == K.D_MAIN


def test_key_action_homeward_returns_to_the_heros_starting_tile():
    sc = open_scenario()
    key(sc, C.K_HOMEWARD)
    home = int(np.flatnonzero(sc.s["cell_tile"] == C.HERO_START_TILE[int(sc.s["hero"][0])])[0])
    assert home != DOOR
    sc.step(K.A_KEY_ACT + C.K_HOMEWARD)
    assert int(sc.s["position"][0]) == home and int(sc.s["feet"][0]) == 6


def test_key_action_labrys_gives_two_monster_points():
    sc = open_scenario()
    key(sc, C.K_LABRYS)
    sc.step(K.A_KEY_ACT + C.K_LABRYS)
    assert sc.decision == K.D_MONSTER and sc.decider == 0 and int(sc.s["m_points"]) == 2


def test_key_action_passage_key_reaches_any_secret_passage_tile():
    sc = open_scenario()
    key(sc, C.K_PASSAGE_KEY)
    far = cell(6, 0)
    sc.reveal(far, "NE", C.SYM_PASSAGE)
    sc.step(K.A_KEY_ACT + C.K_PASSAGE_KEY)
    assert sc.decision == K.D_FREE_MOVE and sc.legal(K.A_CELL + far) and not sc.legal(K.A_CELL + UP)
    sc.step(K.A_CELL + far)
    assert int(sc.s["position"][0]) == far


def test_key_action_banishment_places_the_monster_on_the_door():
    sc = open_scenario()
    key(sc, C.K_BANISHMENT)
    evs = sc.step(K.A_KEY_ACT + C.K_BANISHMENT)
    assert int(sc.s["monster_cell"]) == DOOR and not events_of(evs, K.EV_ATTACK)
    assert events_of(evs, K.EV_MONSTER_MOVE)[0][4] == K.MONSTER_HOW_BANISHED
    assert not sc.legal(K.A_KEY_ACT + C.K_BANISHMENT), "already on the Door tile"


def test_key_action_keystone_places_a_wall():
    sc = open_scenario()
    key(sc, C.K_KEYSTONE)
    sc.step(K.A_KEY_ACT + C.K_KEYSTONE)
    assert sc.decision == K.D_WALL
    e = edge(cell(5, 5), N)
    sc.step(K.A_EDGE + e)
    assert sc.s["wall"][e] == 1 and sc.decision == K.D_MAIN


def test_key_action_locksmith_rearranges_without_the_cost():
    sc = open_scenario()
    k = key(sc, C.K_LOCKSMITH)
    sc.steps(K.A_KEY_ACT + C.K_LOCKSMITH, K.A_SLOT + C.S_KEY, K.A_SLOT + C.S_HEAL)
    assert int(sc.s["slot_key"][0, C.S_HEAL]) == k and int(sc.s["slot_key"][0, C.S_KEY]) == -1
    assert (int(sc.s["feet"][0]), int(sc.s["hands"][0])) == (7, 6)


def test_minotaur_symbol_gives_two_points_every_time_l209():
    """l.209 "MINOTAUR - You gain two Minotaur Movement Points and must immediately use
    them": every time, however many a turn (v1 gave none after a turn's sixth). Seat 0
    walks between two Minotaur-symbol tiles eight times; the monster spends its points in
    a corner of its own."""
    sc = open_scenario()
    north = cell(1, 3)
    sc.reveal(UP, "NS", C.SYM_MINOTAUR)
    sc.reveal(north, "S", C.SYM_MINOTAUR)
    sc.monster(cell(6, 6)).reveal(cell(6, 6), "N")
    sc.reveal(cell(5, 6), "S")
    sc.tokens(0, 8, 7)
    points = []
    for k in range(8):
        evs = sc.step(K.A_CELL + (UP if k % 2 == 0 else north))
        while sc.decision == K.D_MONSTER:
            evs += sc.step(sc.legal_actions()[0])
        points += [e[2] for e in events_of(evs, K.EV_POINTS)]
        assert sc.decision == K.D_MAIN and int(sc.s["monster_cell"]) in (cell(5, 6), cell(6, 6))
    assert points == [C.MINOTAUR_SYMBOL_POINTS] * 8


def test_minotaur_attacks_a_hero_once_a_chain_so_every_chain_ends():
    """The endless chain v1 capped: two Minotaur-symbol dead ends face each other in a
    corner, every other side face down. The Bull's Call sends the monster from one onto
    seat 1 on the other (its only way off, l.227); seat 1 is displaced back (its only way,
    l.235) onto a Minotaur symbol and gains two points (l.209), whose only way off leads
    onto seat 1 again. Reconstructed: the monster attacks a hero once a chain and passes it
    after, as it passes a hero on a Hide tile (l.210), so the chain ends there; seat 1's
    two points are still given."""
    bulls_call = C.CARD_NAMES.index("The Bull's Call")
    sc = open_scenario(heroes=[C.H_SHIELD_MAIDEN, C.H_SWIFT_STRIDE])  # the Amazon, the Runner (not the Seer)
    x, y = cell(0, 0), cell(0, 1)
    sc.reveal(x, "E", C.SYM_MINOTAUR)
    sc.reveal(y, "W", C.SYM_MINOTAUR)
    sc.monster(x).put(1, y).clear_hands().give_card(0, bulls_call)
    evs = sc.step(K.A_CARD + bulls_call)
    for _ in range(50):  # the monster's points, wounds and reactions: whatever is legal
        if sc.decision == K.D_MAIN:
            break
        evs += sc.step(sc.legal_actions()[0])
    assert sc.decision == K.D_MAIN and int(sc.s["seat"]) == 0, "the chain ended"
    assert [e[3] for e in events_of(evs, K.EV_ATTACK)] == [0b10], "seat 1 attacked once"
    assert [(e[1], e[2]) for e in events_of(evs, K.EV_POINTS)] == [(0, 2), (1, 2)], "both twos given"
    assert int(sc.s["position"][1]) == x and int(sc.s["monster_cell"]) == x, "passed, sharing its tile"
    assert int(sc.s["attacked"]) == 0, "a new chain attacks anyone again"
