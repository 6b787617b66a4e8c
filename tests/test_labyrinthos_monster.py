"""Labyrinthos scenario tests for the monster (the Minotaur die, charges, attacks, the Door
rule, Medusa and Cerberus), the heroes' special actions, the Desperation cards and their
reactions, and statistical tests of the two dice."""

from __future__ import annotations

import numpy as np
from labyrinthos_helpers import DOOR, E, N, Scenario, W, blood_face, cell, edge, events_of, face_of

from labyrinth_env.rulesets.labyrinthos import components as C
from labyrinth_env.rulesets.labyrinthos import kernel as K

UP = cell(2, 3)
UP2 = cell(1, 3)
RIGHT = cell(3, 4)
RIGHT2 = cell(3, 5)
RIGHT3 = cell(3, 6)
HOOVES1, HOOVES3 = face_of(C.F_HOOVES, 1), face_of(C.F_HOOVES, 3)
HOOVES2 = face_of(C.F_HOOVES, 2)
PASSAGE, CHARGE = face_of(C.F_PASSAGE), face_of(C.F_CHARGE)
HERMES, AMBROSIA, SANDALS, TOOLS, THREAD, QUAKE, BULL, MASON, SIDESTEP = range(9)
MIRROR, GAZE, SERPENT, HONEY, LYRE, THREE = range(9, 15)
HIDING, SWAP = 15, 16


def maze(**options) -> Scenario:
    """Seat 0 to act on the Door tile with the monster; crossroads around; empty hands."""
    sc = Scenario(**options).clear_hands()
    for c in (UP, UP2, RIGHT, RIGHT2, RIGHT3, cell(4, 3), cell(3, 2)):
        sc.reveal(c, "NESW")
    sc.put(0, DOOR).put(1, cell(0, 0)).tokens(0, 7, 7).tokens(1, 4, 3)
    sc.reveal(cell(0, 0), "NE")
    for c in range(49):  # no secret passage but those a test reveals
        if sc.s["cell_up"][c] and C.TILE_SYMBOL[int(sc.s["cell_tile"][c])] == C.SYM_PASSAGE:
            sc.hide_tile(c)
    return sc.monster(DOOR)


def roll(sc: Scenario, *faces: int | None) -> list:
    """Seat 0 passes, takes 4 Feet and 3 Hand, draws and rolls the Minotaur die (then ``faces[1:]``)."""
    sc.step(K.A_PASS)
    sc.dice(*faces)
    return sc.step(K.A_REFRESH + 4)


# --- the Minotaur die ---------------------------------------------------------------------------------
def test_hoof_points_move_rotate_a_tile_or_remove_an_adjacent_wall():
    sc = maze()
    s = sc.s
    e = sc.wall(DOOR, E)
    roll(sc, HOOVES2)
    assert sc.decision == K.D_MONSTER and int(s["m_points"]) == 2
    legal = set(sc.legal_actions())
    assert {K.A_CELL + UP, K.A_CELL + cell(4, 3), K.A_CELL + cell(3, 2)} <= legal
    assert K.A_CELL + RIGHT not in legal, "never through a wall"
    assert {K.A_ROTATE + 2 * DOOR, K.A_ROTATE + 2 * UP + 1, K.A_EDGE + e} <= legal
    assert K.A_ROTATE + 2 * cell(6, 6) not in legal, "only its tile or an adjacent one"
    sc.step(K.A_EDGE + e)
    assert s["wall"][e] == 0 and int(s["m_points"]) == 1
    sc.step(K.A_CELL + RIGHT)
    assert int(s["monster_cell"]) == RIGHT and int(s["seat"]) == 1


def test_monster_moves_never_onto_face_down_tiles():
    sc = maze()
    sc.hide_tile(UP)
    roll(sc, HOOVES1)
    assert not sc.legal(K.A_CELL + UP)


def test_secret_passage_face_moves_the_monster_to_a_passage_tile():
    sc = maze()
    s = sc.s
    far = cell(6, 0)
    sc.reveal(far, "NE", C.SYM_PASSAGE)
    roll(sc, PASSAGE)
    assert sc.decision == K.D_PASSAGE and sc.legal_actions() == [K.A_CELL + far]
    sc.step(K.A_CELL + far)
    assert int(s["monster_cell"]) == far


def test_secret_passage_face_without_passage_tiles_goes_to_the_door():
    sc = maze()
    sc.monster(UP)
    evs = roll(sc, PASSAGE)
    assert int(sc.s["monster_cell"]) == DOOR
    assert events_of(evs, K.EV_MONSTER_MOVE)[-1][2:5] == (UP, DOOR, 3)


def test_monster_uses_secret_passages_for_a_point():
    sc = maze()
    sc.reveal(DOOR, "NESW", C.SYM_PASSAGE, tile=sc.tile_with("cross", C.SYM_PASSAGE))
    far = cell(6, 0)
    sc.reveal(far, "NE", C.SYM_PASSAGE)
    roll(sc, HOOVES1)
    assert sc.legal(K.A_CELL + far)
    sc.step(K.A_CELL + far)
    assert int(sc.s["monster_cell"]) == far and int(sc.s["seat"]) == 1


def test_charge_runs_straight_smashing_walls_until_it_hits_a_hero():
    sc = maze()
    s = sc.s
    e = sc.wall(RIGHT, E)
    sc.put(1, RIGHT3)
    roll(sc, CHARGE, blood_face(1))
    assert sc.decision == K.D_CHARGE and len(sc.legal_actions()) == 4
    evs = sc.step(K.A_CHARGE + E)
    assert s["wall"][e] == 0 and events_of(evs, K.EV_WALL_REMOVED)
    assert int(s["monster_cell"]) == RIGHT3
    assert events_of(evs, K.EV_ATTACK) == [(K.EV_ATTACK, 0, RIGHT3, 0b10, 0, 0)]
    assert sc.decision == K.D_WOUND and sc.decider == 1


def test_charge_stops_at_a_dead_end():
    sc = maze()
    sc.hide_tile(RIGHT2)  # a face-down tile counts as a dead end
    roll(sc, CHARGE)
    sc.step(K.A_CHARGE + E)
    assert int(sc.s["monster_cell"]) == RIGHT


def test_charge_passes_heroes_on_hide_tiles():
    sc = maze()
    sc.reveal(RIGHT2, "ESW", C.SYM_HIDE)
    sc.put(1, RIGHT2)
    evs = roll(sc, CHARGE)
    evs = sc.step(K.A_CHARGE + E)
    assert int(sc.s["monster_cell"]) == RIGHT3 and not events_of(evs, K.EV_ATTACK)


def test_monster_never_ends_on_its_starting_tile_it_goes_to_the_door():
    sc = maze()
    sc.monster(cell(0, 0))
    sc.put(1, cell(6, 6))
    roll(sc, CHARGE)
    evs = sc.step(K.A_CHARGE + W)  # the maze's edge: it cannot move
    assert int(sc.s["monster_cell"]) == DOOR
    assert events_of(evs, K.EV_MONSTER_MOVE) == [(K.EV_MONSTER_MOVE, 0, cell(0, 0), DOOR, 3, 0)]


def test_minotaur_must_leave_its_starting_tile_when_it_can():
    """l.227: the Door tile only when it cannot move off: the last point must move it off."""
    sc = maze()
    e = sc.wall(DOOR, E)
    roll(sc, HOOVES1)
    legal = set(sc.legal_actions())
    assert legal == {K.A_CELL + UP, K.A_CELL + cell(4, 3), K.A_CELL + cell(3, 2)}, "no rotation, no wall"
    assert K.A_EDGE + e not in legal and K.A_ROTATE + 2 * DOOR not in legal
    evs = sc.step(K.A_CELL + UP)
    assert int(sc.s["monster_cell"]) == UP and not [x for x in events_of(evs, K.EV_MONSTER_MOVE) if x[4] == 3]


def test_minotaur_must_leave_its_starting_tile_points_before_the_last_keep_a_way_off():
    sc = maze()
    corner = cell(0, 0)  # "NE": the maze's edge to the north, a face-down tile to the east
    sc.reveal(cell(1, 0), "NS")
    sc.monster(corner)
    roll(sc, HOOVES2)
    # only turning its own tile clockwise opens a way off (south) for the second point
    assert sc.legal_actions() == [K.A_ROTATE + 2 * corner + K.CLOCKWISE]
    sc.step(K.A_ROTATE + 2 * corner + K.CLOCKWISE)
    assert sc.legal_actions() == [K.A_CELL + cell(1, 0)]
    sc.step(K.A_CELL + cell(1, 0))
    assert int(sc.s["monster_cell"]) == cell(1, 0)


def test_minotaur_must_leave_its_starting_tile_never_back_onto_it_with_the_last_point():
    sc = maze()
    roll(sc, HOOVES2)
    sc.step(K.A_CELL + UP)
    legal = set(sc.legal_actions())
    assert K.A_CELL + DOOR not in legal and K.A_CELL + UP2 in legal and K.A_ROTATE + 2 * UP in legal
    sc.step(K.A_ROTATE + 2 * UP)
    assert int(sc.s["monster_cell"]) == UP


def test_minotaur_must_leave_its_starting_tile_the_door_when_it_cannot():
    sc = maze()
    sc.monster(cell(0, 0))  # no way off, and one point cannot open one
    roll(sc, HOOVES1)
    assert K.A_ROTATE + 2 * cell(0, 0) in sc.legal_actions()
    evs = sc.step(K.A_ROTATE + 2 * cell(0, 0))
    assert int(sc.s["monster_cell"]) == DOOR and events_of(evs, K.EV_MONSTER_MOVE)[-1][4] == K.MONSTER_HOW_DOOR


def test_minotaur_must_leave_its_starting_tile_a_charge_goes_a_way_it_can():
    sc = maze()
    sc.monster(UP2)  # face-down tiles north, east and west: only south is open
    roll(sc, CHARGE)
    assert sc.legal_actions() == [K.A_CHARGE + 2]


def test_attack_blood_die_wounds_then_displacement_and_points_are_lost():
    sc = maze()
    s = sc.s
    sc.put(1, UP)
    roll(sc, HOOVES3, blood_face(2))
    evs = sc.step(K.A_CELL + UP)
    assert events_of(evs, K.EV_BLOOD) == [(K.EV_BLOOD, 0, 2, 0, 0, 0)]
    assert int(s["m_points"]) == 0 and int(s["m_active"]) == 0
    assert sc.decision == K.D_WOUND and sc.decider == 1
    sc.steps(K.A_SLOT + C.S_HEAL, K.A_SLOT + C.S_SPECIAL)
    assert s["slot_wound"][1].sum() == 2
    assert sc.decision == K.D_DISPLACE and sc.decider == 0
    legal = set(sc.legal_actions())
    assert {K.A_CELL + DOOR, K.A_CELL + UP2} <= legal and K.A_CELL + UP not in legal
    sc.step(K.A_CELL + UP2)
    assert int(s["position"][1]) == UP2 and int(s["seat"]) == 1, "the remaining points were lost"


def test_attack_displaced_onto_a_trap_takes_that_wound_too():
    sc = maze()
    s = sc.s
    sc.put(1, UP)
    sc.reveal(UP2, "NS", C.SYM_TRAP)
    roll(sc, HOOVES1, blood_face(1))
    sc.steps(K.A_CELL + UP, K.A_SLOT + C.S_HEAL)  # the Blood die's wound
    assert sc.decision == K.D_DISPLACE
    sc.step(K.A_CELL + UP2)
    assert sc.decision == K.D_WOUND and sc.decider == 1  # the trap's wound as well (FAQ)
    sc.step(K.A_SLOT + C.S_SPECIAL)
    assert s["slot_wound"][1].sum() == 2


def test_hide_tile_protects_from_attacks_and_the_monster_keeps_its_points():
    sc = maze()
    sc.reveal(UP, "NES", C.SYM_HIDE)
    sc.put(1, UP)
    roll(sc, HOOVES2)
    evs = sc.step(K.A_CELL + UP)
    assert not events_of(evs, K.EV_ATTACK) and int(sc.s["m_points"]) == 1 and sc.decision == K.D_MONSTER


def test_monster_does_not_trigger_tile_symbols():
    sc = maze()
    sc.reveal(UP, "NS", C.SYM_TRAP)
    roll(sc, HOOVES1)
    evs = sc.step(K.A_CELL + UP)
    assert not events_of(evs, K.EV_WOUND) and int(sc.s["seat"]) == 1


def test_sharing_the_monsters_tile_at_the_start_is_no_attack():
    sc = maze()
    sc.put(1, DOOR)
    evs = roll(sc, HOOVES1)
    evs += sc.step(K.A_CELL + UP)  # it leaves the tile it shares with seat 1's hero
    assert not events_of(evs, K.EV_ATTACK) and int(sc.s["position"][1]) == DOOR


# --- special actions ---------------------------------------------------------------------------------
def test_shield_maiden_is_not_displaced():
    sc = maze(heroes=[C.H_SWIFT_STRIDE, C.H_SHIELD_MAIDEN])
    sc.put(1, UP)
    roll(sc, HOOVES1, blood_face(1))
    evs = sc.step(K.A_CELL + UP)
    evs += sc.step(K.A_SLOT + C.S_HEAL)
    assert events_of(evs, K.EV_SHIELD) and int(sc.s["position"][1]) == UP


def test_shield_maiden_covered_by_a_wound_is_displaced():
    sc = maze(heroes=[C.H_SWIFT_STRIDE, C.H_SHIELD_MAIDEN])
    sc.wound(1, C.S_SPECIAL)
    sc.put(1, UP)
    roll(sc, HOOVES1, blood_face(1))
    sc.steps(K.A_CELL + UP, K.A_SLOT + C.S_HEAL)
    assert sc.decision == K.D_DISPLACE


def test_wild_intuition_may_roll_the_minotaur_die_instead():
    sc = maze(heroes=[C.H_WILD_INTUITION, C.H_SHIELD_MAIDEN])
    sc.reveal(UP, "NS", C.SYM_MINOTAUR)
    sc.step(K.A_CELL + UP)
    assert sc.decision == K.D_INTUITION
    sc.dice(HOOVES3)
    evs = sc.step(K.A_YES)
    assert events_of(evs, K.EV_ROLL) == [(K.EV_ROLL, 0, HOOVES3, 0, 0, 0)] and int(sc.s["m_points"]) == 3


def test_wild_intuition_declined_gives_the_two_points():
    sc = maze(heroes=[C.H_WILD_INTUITION, C.H_SHIELD_MAIDEN])
    sc.reveal(UP, "NS", C.SYM_MINOTAUR)
    sc.steps(K.A_CELL + UP, K.A_NO)
    assert sc.decision == K.D_MONSTER and int(sc.s["m_points"]) == 2


def test_beast_caller_gives_two_monster_points():
    sc = maze(heroes=[C.H_BEAST_CALLER, C.H_SHIELD_MAIDEN])
    sc.step(K.A_SPECIAL)
    assert sc.decision == K.D_MONSTER and int(sc.s["m_points"]) == 2
    assert int(sc.s["hands"][0]) == 7 - int(C.SPECIAL_COST[C.H_BEAST_CALLER, 1])


# --- Medusa and Cerberus ---------------------------------------------------------------------------------
def test_medusa_wounds_go_from_the_topmost_open_action_down():
    sc = maze(monster="medusa")
    s = sc.s
    sc.wound(1, C.S_MOVE)
    sc.put(1, UP)
    roll(sc, HOOVES1, blood_face(2))
    sc.step(K.A_CELL + UP)
    assert list(s["slot_wound"][1][:4]) == [1, 1, 1, 0]  # move (before), explore, discover key


def test_cerberus_hunts_a_hero_in_line_of_sight():
    sc = maze(monster="cerberus")
    s = sc.s
    sc.put(0, cell(6, 6)).hide_tile(cell(6, 6))
    sc.put(1, cell(1, 4))
    sc.reveal(cell(1, 4), "NESW")
    sc.reveal(cell(2, 4), "NESW")
    roll(sc, HOOVES3)
    evs = sc.step(K.A_CELL + UP)  # from UP, r1c3 lies north; seat 1 at r1c4 is not in a line yet
    assert int(s["m_hunt"]) == -1
    evs = sc.step(K.A_CELL + UP2)  # at r1c3 seat 1 is next to it to the east: line of sight
    assert events_of(evs, K.EV_HUNT) == [(K.EV_HUNT, -1, 1, 0, 0, 0)]
    assert sc.legal_actions() == [K.A_CELL + cell(1, 4)], "all remaining points to get closer"
    evs = sc.step(K.A_CELL + cell(1, 4))
    assert events_of(evs, K.EV_ATTACK)


def test_monster_decks_are_shuffled_into_the_desperation_deck():
    for monster, extra in (("minotaur", ()), ("medusa", (MIRROR, GAZE, SERPENT)), ("cerberus", (HONEY, LYRE, THREE))):
        sc = Scenario(monster=monster)
        s = sc.s
        count = np.zeros(C.NUM_CARD_TYPES, dtype=int)
        for t in s["deck"][: int(s["deck_len"])]:
            count[int(t)] += 1
        count += s["hand"][:2].sum(axis=0)
        assert int(s["num_cards"]) == 60 + 15 * (monster != "minotaur")
        for t in range(C.NUM_CARD_TYPES):
            in_game = C.CARD_DECK[t] == C.MINOTAUR or t in extra
            assert count[t] == (C.CARD_COPIES[t] if in_game else 0), (monster, C.CARD_NAMES[t])


# --- Desperation cards and reactions -----------------------------------------------------------------------
def test_hermes_mischief_cancels_a_card_paying_the_cost_on_another_turn():
    sc = maze()
    s = sc.s
    sc.give_card(0, AMBROSIA).give_card(1, HERMES)
    sc.wound(0, C.S_HEAL)
    sc.step(K.A_CARD + AMBROSIA)
    assert sc.decision == K.D_CANCEL and sc.decider == 1
    evs = sc.step(K.A_YES)
    assert events_of(evs, K.EV_CANCEL) == [(K.EV_CANCEL, 1, AMBROSIA, 0, 0, 0)]
    assert s["slot_wound"][0, C.S_HEAL] == 1, "the effect was cancelled"
    assert int(s["hands"][1]) == 3 - int(C.SLOT_COST[C.S_DESPERATE, 1]) and int(s["discard"][HERMES]) == 1
    assert sc.decision == K.D_MAIN and sc.decider == 0


def test_hermes_mischief_can_itself_be_cancelled():
    sc = maze(num_players=3)
    s = sc.s
    sc.put(2, cell(0, 0)).tokens(2, 4, 3)
    sc.give_card(0, AMBROSIA).give_card(1, HERMES).give_card(2, HERMES)
    sc.wound(0, C.S_HEAL)
    sc.step(K.A_CARD + AMBROSIA)
    sc.step(K.A_YES)  # seat 1 cancels Ambrosia ...
    assert sc.decision == K.D_CANCEL and sc.decider == 2
    evs = sc.step(K.A_YES)  # ... and seat 2 cancels seat 1's Hermes' Mischief
    assert events_of(evs, K.EV_CANCEL) == [(K.EV_CANCEL, 2, HERMES, 1, 0, 0)]
    assert s["slot_wound"][0].sum() == 0, "Ambrosia resolves after all"
    assert int(s["discard"][HERMES]) == 2 and sc.decision == K.D_MAIN


def test_hermes_mischief_declined_lets_the_card_resolve():
    sc = maze()
    sc.give_card(0, AMBROSIA).give_card(1, HERMES)
    sc.wound(0, C.S_HEAL)
    sc.steps(K.A_CARD + AMBROSIA, K.A_NO)
    assert sc.s["slot_wound"][0].sum() == 0 and int(sc.s["hand"][1, HERMES]) == 1


def test_reactions_need_the_desperate_action_free_and_paid():
    sc = maze()
    sc.give_card(0, AMBROSIA).give_card(1, HERMES)
    sc.wound(1, C.S_DESPERATE)
    sc.step(K.A_CARD + AMBROSIA)
    assert sc.decision == K.D_MAIN
    sc2 = maze()
    sc2.give_card(0, SANDALS).give_card(1, HERMES).tokens(1, 4, 0)
    sc2.step(K.A_CARD + SANDALS)
    assert sc2.decision == K.D_MAIN


def test_hermes_mischief_is_asked_of_every_other_player_holding_it_or_not():
    """l.253: cards surprise: who is asked must not tell who holds Hermes' Mischief."""
    sc = maze(num_players=3)
    sc.put(2, cell(0, 0)).tokens(2, 4, 3)
    sc.give_card(0, AMBROSIA).give_card(1, TOOLS).give_card(2, HERMES)
    sc.wound(0, C.S_HEAL)
    sc.step(K.A_CARD + AMBROSIA)
    assert sc.decision == K.D_CANCEL and sc.decider == 1
    assert sc.legal_actions() == [K.A_NO], "without the card it can only pass"
    sc.step(K.A_NO)
    assert sc.decision == K.D_CANCEL and sc.decider == 2
    assert sc.legal_actions() == [K.A_YES, K.A_NO]
    sc.step(K.A_NO)
    assert sc.decision == K.D_MAIN and sc.s["slot_wound"][0].sum() == 0


def test_attack_reaction_is_asked_of_an_attacked_hero_without_one():
    sc = maze()
    sc.give_card(1, TOOLS)
    sc.put(1, UP)
    roll(sc, HOOVES1, blood_face(2))
    sc.step(K.A_CELL + UP)
    assert sc.decision == K.D_DODGE and sc.decider == 1
    assert sc.legal_actions() == [K.A_NO]
    sc.step(K.A_NO)
    assert sc.decision == K.D_WOUND and sc.decider == 1


def test_reaction_prompts_skip_only_who_publicly_cannot_react():
    """Not asked: an empty hand, a wounded or unpaid Desperate action, or every copy of the
    card in the face-up discard pile; all of it public."""
    sc = maze()
    s = sc.s
    sc.give_card(0, AMBROSIA).give_card(0, SANDALS).give_card(1, TOOLS)
    for _ in range(int(C.CARD_COPIES[HERMES])):  # every Hermes' Mischief face up in the discard pile
        sc.give_card(1, HERMES)
        s["hand"][1, HERMES] -= 1
        s["discard"][HERMES] += 1
    sc.wound(0, C.S_HEAL)
    sc.step(K.A_CARD + AMBROSIA)
    assert sc.decision == K.D_MAIN
    s["discard"][HERMES] -= 1
    s["hand"][1, TOOLS] = 0
    sc.step(K.A_CARD + SANDALS)  # seat 1's hand is empty
    assert sc.decision == K.D_MAIN


def test_sidestep_reaction_takes_no_wounds_from_the_attack():
    sc = maze()
    s = sc.s
    sc.give_card(1, SIDESTEP)
    sc.put(1, UP)
    roll(sc, HOOVES1, blood_face(2))
    sc.step(K.A_CELL + UP)
    assert sc.decision == K.D_DODGE and sc.decider == 1
    assert sc.legal_actions() == [K.A_CARD + SIDESTEP, K.A_NO]
    sc.step(K.A_CARD + SIDESTEP)
    assert s["slot_wound"][1].sum() == 0 and int(s["hands"][1]) == 2
    assert sc.decision == K.D_CANCEL and sc.decider == 0  # Sidestep may be cancelled: seat 0 is asked
    sc.step(K.A_NO)
    assert sc.decision == K.D_DISPLACE


def test_mirror_shield_lets_the_hero_place_medusas_wounds():
    sc = maze(monster="medusa")
    sc.give_card(1, MIRROR)
    sc.put(1, UP)
    roll(sc, HOOVES1, blood_face(1))
    sc.steps(K.A_CELL + UP, K.A_CARD + MIRROR)
    assert sc.decision == K.D_CANCEL and sc.decider == 0
    sc.step(K.A_NO)
    assert sc.decision == K.D_WOUND and sc.decider == 1
    sc.step(K.A_SLOT + C.S_HEAL)
    assert sc.s["slot_wound"][1, C.S_HEAL] == 1 and sc.s["slot_wound"][1, C.S_MOVE] == 0


def test_cards_winged_sandals_and_daedalus_tools_take_tokens():
    sc = maze()
    sc.give_card(0, SANDALS).give_card(0, TOOLS).tokens(0, 0, 2)
    sc.step(K.A_CARD + SANDALS)
    sc.step(K.A_CARD + TOOLS)
    assert (int(sc.s["feet"][0]), int(sc.s["hands"][0])) == (2, 2)


def test_card_ariadnes_thread_is_a_free_move():
    sc = maze()
    sc.give_card(0, THREAD).wound(0, C.S_MOVE)
    sc.step(K.A_CARD + THREAD)
    assert sc.decision == K.D_FREE_MOVE
    sc.step(K.A_CELL + UP)
    assert int(sc.s["position"][0]) == UP and int(sc.s["feet"][0]) == 7


def test_entering_the_minotaurs_tile_ariadnes_thread_allows_it():
    """l.121: never share the Minotaur's tile "unless a ... Desperation card allows it"."""
    sc = maze()
    sc.give_card(0, THREAD)
    sc.monster(UP)
    assert not sc.legal(K.A_CELL + UP)
    sc.step(K.A_CARD + THREAD)
    assert sc.decision == K.D_FREE_MOVE and sc.legal(K.A_CELL + UP)
    evs = sc.step(K.A_CELL + UP)
    assert int(sc.s["position"][0]) == UP and not events_of(evs, K.EV_ATTACK)


def test_entering_the_minotaurs_tile_the_tamers_special_action_allows_it():
    """l.121: "unless a ... Special action ... allows it": Beast Caller, while not covered."""
    sc = maze(heroes=[C.H_BEAST_CALLER, C.H_SHIELD_MAIDEN])
    sc.monster(UP)
    assert sc.legal(K.A_CELL + UP)
    sc.wound(0, C.S_SPECIAL)
    assert not sc.legal(K.A_CELL + UP)
    other = maze(heroes=[C.H_SWIFT_STRIDE, C.H_SHIELD_MAIDEN])
    other.monster(UP)
    assert not other.legal(K.A_CELL + UP)


def test_card_hiding_place_targets_a_hide_symbol_never_a_key_tile():
    """l.295: keys are not a symbol, so a card that targets a tile symbol never reaches a key tile."""
    sc = maze()
    s = sc.s
    far = cell(6, 0)
    sc.reveal(far, "NE", C.SYM_HIDE)
    key_tile = cell(6, 6)
    sc.reveal(key_tile, "NW", tile=int(C.KEY_TILE_OF_COLOUR[0]))
    sc.give_card(0, HIDING)
    sc.step(K.A_CARD + HIDING)
    assert sc.decision == K.D_FREE_MOVE and sc.legal(K.A_CELL + far) and not sc.legal(K.A_CELL + key_tile)
    for a in sc.legal_actions():
        assert C.TILE_SYMBOL[int(s["cell_tile"][a - K.A_CELL])] == C.SYM_HIDE
    evs = sc.step(K.A_CELL + far)
    assert int(s["position"][0]) == far and events_of(evs, K.EV_MOVE)[0][4] == K.HOW_HIDING


def test_card_tricksters_swap_exchanges_key_tokens_of_one_colour():
    """l.261: a card effect "swapping player's key tokens around"; one key per colour stays true."""
    sc = maze()
    s = sc.s
    mine = sc.give_key(0, 0, C.K_SECRET_LEVER, C.S_KEY)
    sc.give_key(0, 1, C.K_ORACLE, C.S_HEAL)
    theirs = sc.give_key(1, 0, C.K_BUILD, C.S_DESPERATE)
    sc.give_card(0, SWAP)
    sc.step(K.A_CARD + SWAP)
    assert sc.decision == K.D_SWAP_PLAYER and sc.legal_actions() == [K.A_TARGET]
    sc.step(K.A_TARGET)
    assert sc.decision == K.D_SWAP_KEY and sc.legal_actions() == [K.A_SLOT + C.S_KEY], "only a colour both hold"
    evs = sc.step(K.A_SLOT + C.S_KEY)
    assert int(s["slot_key"][0, C.S_KEY]) == theirs and int(s["slot_key"][1, C.S_DESPERATE]) == mine
    assert events_of(evs, K.EV_KEY_SWAP) == [(K.EV_KEY_SWAP, 0, 1, mine, theirs, 0)]
    assert sc.decision == K.D_MAIN


def test_card_earthquake_rotates_any_explored_tile():
    sc = maze()
    sc.give_card(0, QUAKE)
    sc.step(K.A_CARD + QUAKE)
    assert sc.decision == K.D_ROTATE_CARD and not sc.legal(K.A_DONE)
    sc.step(K.A_ROTATE + 2 * cell(0, 0))
    assert int(sc.s["cell_mask"][cell(0, 0)]) == 0b0110


def test_card_monster_points_and_lyre():
    sc = maze(monster="cerberus")
    sc.give_card(0, BULL).give_card(0, LYRE)
    sc.step(K.A_CARD + BULL)
    assert sc.decision == K.D_MONSTER and int(sc.s["m_points"]) == 2
    sc.steps(K.A_ROTATE + 2 * UP, K.A_CELL + RIGHT)  # the last point must take it off its tile
    assert sc.decision == K.D_MAIN
    sc.monster(UP2)
    sc.step(K.A_CARD + LYRE)
    assert int(sc.s["monster_cell"]) == DOOR


def test_card_stonemason_places_a_wall_and_stone_gaze_drains_tokens():
    sc = maze(monster="medusa")
    sc.give_card(0, MASON).give_card(0, GAZE)
    sc.step(K.A_CARD + MASON)
    assert sc.decision == K.D_WALL
    sc.step(K.A_EDGE + edge(cell(5, 5), N))
    sc.step(K.A_CARD + GAZE)
    assert sc.decision == K.D_TARGET and sc.legal_actions() == [K.A_TARGET]
    sc.step(K.A_TARGET)
    assert (int(sc.s["feet"][1]), int(sc.s["hands"][1])) == (2, 3)


def test_monster_cards_need_the_monster_on_the_board():
    sc = maze()
    sc.fresh_turn(0, first_round=True)
    sc.give_card(0, BULL)
    assert not sc.legal(K.A_CARD + BULL)


# --- the dice, statistically ------------------------------------------------------------------------------
def test_minotaur_die_faces_are_uniform_and_move_the_minotaur_as_printed():
    sc = maze()
    base = sc.states.copy()
    trial = sc.states.copy()
    rolls = 6000
    counts = np.zeros(6, dtype=int)
    rng = np.random.default_rng(5)
    for _ in range(rolls):
        trial[:] = base
        t = trial[0]
        t["rng"][0] = np.uint64(rng.integers(1, 1 << 62))
        t["decision"] = K.D_NONE
        K.roll_monster_die(t, 0)
        face = int(t["last_face"])
        counts[face] += 1
        kind = C.MINOTAUR_FACE_KIND[face]
        if kind == C.F_HOOVES:
            assert int(t["m_points"]) == C.MINOTAUR_FACE_HOOVES[face] and int(t["decision"]) == K.D_NONE
        elif kind == C.F_PASSAGE:
            assert int(t["decision"]) == K.D_NONE and int(t["monster_cell"]) == DOOR  # no passage tile
        else:
            assert int(t["decision"]) == K.D_CHARGE
    chi2 = (((counts - rolls / 6) ** 2) / (rolls / 6)).sum()
    assert chi2 < 20.5, counts  # 5 degrees of freedom, p ~ 0.001
    mean_hooves = (counts * C.MINOTAUR_FACE_HOOVES).sum() / rolls
    assert abs(mean_hooves - C.MINOTAUR_FACE_HOOVES.mean()) < 0.06


def test_minotaur_points_move_it_that_many_tiles_at_most():
    """Over many rolls in an open maze, the Minotaur spends exactly its hooves (a random
    controller), never moving more tiles than the face allows."""
    sc = maze()
    sc.put(0, cell(6, 6)).put(1, cell(6, 5))  # out of its reach: no attack ends a movement
    sc.hide_tile(cell(6, 6))
    sc.hide_tile(cell(6, 5))
    base = sc.states.copy()
    trial = sc.states.copy()
    rng = np.random.default_rng(9)
    spent = {1: [], 2: [], 3: []}
    for _ in range(1500):
        trial[:] = base
        t = trial[0]
        t["rng"][0] = np.uint64(rng.integers(1, 1 << 62))
        t["decision"] = K.D_NONE
        K.roll_monster_die(t, 0)
        face = int(t["last_face"])
        if C.MINOTAUR_FACE_KIND[face] != C.F_HOOVES:
            continue
        K.advance(t)
        points = 0
        start = int(t["monster_cell"])
        while int(t["decision"]) == K.D_MONSTER and int(t["seat"]) == 0:
            mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
            K.legal_mask(t, mask)
            K.step(t, int(rng.choice(np.flatnonzero(mask))))
            points += 1
        spent[int(C.MINOTAUR_FACE_HOOVES[face])].append(points)
        moved = abs(int(t["monster_cell"]) // 7 - start // 7) + abs(int(t["monster_cell"]) % 7 - start % 7)
        assert moved <= C.MINOTAUR_FACE_HOOVES[face] or int(t["monster_cell"]) == DOOR
    for h, xs in spent.items():
        assert xs and all(x == h for x in xs), (h, set(xs))


def test_blood_die_faces_are_uniform():
    sc = maze()
    sc.put(1, UP)
    sc.s["m_ctrl"] = 0
    sc.s["m_start"] = DOOR
    base = sc.states.copy()
    trial = sc.states.copy()
    counts = np.zeros(3, dtype=int)
    rng = np.random.default_rng(3)
    n = 3000
    for _ in range(n):
        trial[:] = base
        t = trial[0]
        t["rng"][0] = np.uint64(rng.integers(1, 1 << 62))
        t["monster_cell"] = UP
        K.attack(t, 0)
        counts[int(t["last_blood"])] += 1
    expected = np.bincount(C.BLOOD_FACES, minlength=3) / 6 * n
    chi2 = (((counts - expected) ** 2) / expected).sum()
    assert chi2 < 13.8, counts  # 2 degrees of freedom, p ~ 0.001
