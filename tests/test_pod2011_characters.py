"""Scenario tests for the characters of Paths of Destiny 2011 (issue 21): the options, the
cards dealt, fixed or chosen in turn, the general rules of characters (l.130-134, l.345,
l.351, l.362), and each skill the kernel plays, named after it.

Board: ``east()`` lays straight corridors centre - 19 - 20 - key field 0 (as the rules
tests do); N19 and N20 are one move apart. Dice are forced with ``Scenario.dice`` (one
face per die, in the order the kernel throws them).
"""

from __future__ import annotations

import numpy as np
import pytest
from hex_helpers import events, events_of, key_node_of, node
from pod2011_helpers import CENTER, B, Scenario, neighbor, options_vector, start_node_of

import labyrinth_env
from labyrinth_env.core.contract import new_states
from labyrinth_env.core.grid import ROTATE_HEX
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011 import picture
from labyrinth_env.rulesets.paths_of_destiny_2011.env import render_text

ENV_ID = "paths_of_destiny_2011_v6"
N19, N20 = node(19), node(20)
FAR = key_node_of(2)
SEAT_OFFSETS = K.NUM_SEATS - 1


def east(*characters: str, crystals: bool = False) -> Scenario:
    sc = Scenario(num_players=len(characters), characters=list(characters))
    sc.lay_line(0)
    sc.guard(FAR)
    if not crystals:
        for p in range(len(characters)):
            sc.set(p, crystal=0)
    return sc


def skill_at(slot: int, offset: int) -> int:
    return K.A_SKILL_AT + slot * SEAT_OFFSETS + offset - 1


def fights(evs) -> list[tuple[int, int, int, int]]:
    return [e[1:5] for e in events_of(evs, K.EV_FIGHT)]


# =====================================================================================
# The options, the cards, the draft
# =====================================================================================
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"characters": "all"}, "characters='all' is not allowed"),
        ({"characters": ["Witch"]}, "1 names for 2 players"),
        ({"characters": ["Witch", "Wizard"]}, "unknown character 'Wizard'"),
        ({"characters": ["Witch", "Witch"]}, "'Witch' is chosen twice"),
        ({"characters": 3}, "characters=3 is not allowed"),
        ({"characters": "none", "character_draft": True}, "needs characters='random'"),
        ({"characters": ["Witch", "Monk"], "character_draft": True}, "cannot go with a list"),
        ({"characters": "random", "character_draft": 1}, "character_draft=1 is not allowed"),
    ],
)
def test_characters_option_bad_values_get_clear_errors(options, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("[", r"\[")):
        labyrinth_env.make(ENV_ID, num_players=2, **options)


def test_characters_none_is_the_default_first_game_advice_l74():
    # l.74 "If you are playing for the first time, we advise you to skip this step"
    env = labyrinth_env.raw_env(ENV_ID, num_players=3)
    env.reset(seed=4)
    s = env.record
    assert int(s["char_mode"]) == 0 and (s["character"] == -1).all()
    assert env.observation_space("player_0")["observation"].shape == (K.OBS_BASE_SIZE,)
    assert not [e for e in env.game_log if e["type"] == "character"]
    on = labyrinth_env.raw_env(ENV_ID, num_players=3, characters="random")
    assert on.observation_space("player_0")["observation"].shape == (K.OBS_SIZE,)


def test_characters_random_dealt_from_the_kernel_rng_one_card_each():
    deals = set()
    for seed in range(12):
        env = labyrinth_env.raw_env(ENV_ID, num_players=6, characters="random")
        env.reset(seed=seed)
        chars = tuple(int(c) for c in env.record["character"][:6])
        assert len(set(chars)) == 6 and all(0 <= c < C.NUM_CHARACTERS for c in chars), "one card of each"
        again = labyrinth_env.raw_env(ENV_ID, num_players=6, characters="random")
        again.reset(seed=seed)
        assert tuple(int(c) for c in again.record["character"][:6]) == chars, "same seed, same deal"
        deals.add(chars)
        log = [e for e in env.game_log if e["type"] == "character"]
        assert [e["character"] for e in log] == [C.CHARACTERS[c] for c in chars]
    assert len(deals) > 8


def test_characters_fixed_by_name_per_seat():
    env = labyrinth_env.raw_env(ENV_ID, num_players=3, characters=["Witch", "Monk", "Thief"])
    env.reset(seed=2)
    assert [int(c) for c in env.record["character"][:3]] == [K.WITCH, K.MONK, K.THIEF]
    assert "Witch (curses 6 left)" in env.render_text()


def test_character_draft_seats_choose_in_turn_before_the_first_player_throw():
    states = new_states(K, 1)
    B.init_one(states, np.uint64(3), options_vector(num_players=3, characters="random", character_draft=True))
    s = states[0]
    assert not events_of(s, K.EV_FIRST_PLAYER), "the cards come first (step 8 before step 11, l.74-80)"
    picks = [K.WITCH, K.ARCHER, K.MONK]
    for seat, c in enumerate(picks):
        assert int(s["decision"]) == K.D_CHARACTER and int(s["decider"]) == seat
        mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
        K.legal_mask(s, mask)
        free = [a - K.A_CHARACTER for a in np.flatnonzero(mask)]
        assert free == [x for x in range(C.NUM_CHARACTERS) if x not in picks[:seat]]
        assert K.step(s, K.A_CHARACTER + c)
    assert [int(c) for c in s["character"][:3]] == picks
    assert events_of(s, K.EV_FIRST_PLAYER), "then the throw for the first player"
    assert int(s["decision"]) != K.D_CHARACTER


# =====================================================================================
# The general rules (l.130-134, l.345, l.351, l.362)
# =====================================================================================
def test_character_kept_till_the_end_of_the_game_l130():
    # l.130 "You have to play with the chosen / drawn character till the end of the game."
    for seed in range(6):
        env = labyrinth_env.raw_env(ENV_ID, num_players=4, characters="random", max_turns=60)
        env.reset(seed=seed)
        dealt = env.record["character"].copy()
        rng = np.random.default_rng(seed)
        while env.agents and not env.terminations[env.agent_selection] and not env.truncations[env.agent_selection]:
            mask = env.observe(env.agent_selection)["action_mask"]
            assert not mask[K.A_CHARACTER : K.A_SKILL].any(), "no card is taken after the deal"
            env.step(int(rng.choice(np.flatnonzero(mask))))
            assert (env.record["character"] == dealt).all()


def test_character_and_its_tokens_visible_to_other_players_l131():
    # l.131 "The character and its skills must be visible to other players."
    sc = east("Witch", "Female Archer", "Monk")
    sc.s["adrenaline"][1] = 2
    sc.s["curse"][2] = 1
    for seat in range(3):
        obs = sc.observe(seat)
        for p in range(3):
            r = K.OBS_CHARS + ((p - seat) % 3) * K.CHAR_SEAT_FEATURES
            assert obs[r + int(sc.s["character"][p])] == 1.0
            assert obs[r + K.NUM_CHARACTERS] == pytest.approx(int(sc.s["adrenaline"][p]) / 3)
            assert obs[r + K.NUM_CHARACTERS + 2] == pytest.approx(int(sc.s["curse"][p]) / 6)


def test_no_skill_on_the_start_field_l132():
    # l.132 "You cannot make use of the character's skills, if it is standing at the start field."
    sc = east("Female Archer", "Witch")
    sc.s["adrenaline"][0] = 1
    sc.put(0, start_node_of(0))
    assert not sc.legal(K.A_SKILL)
    sc.put(0, N19)
    assert sc.legal(K.A_SKILL), "off the start field the same skill is allowed"


def test_skills_give_stun_points_l345_shot_stuns():
    # l.345 a player receives stun points "under influence of some characters' skills"
    sc = east("Female Archer", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.dice(2, 3)  # the Witch throws 5: hit
    evs = sc.step(K.A_SKILL + 1)
    assert (K.EV_SHOT, 1, 5, 1, 0, 0) in evs and int(sc.s["stun"][1]) == 1


def test_stunned_player_cannot_use_skills_l351_shot_l392():
    # l.351 a stunned player "Cannot make use of any skills his character has"; l.392 "This
    # skill does not work, if you are under the influence of stun."
    sc = east("Female Archer", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    assert sc.legal(K.A_SKILL + 1)
    sc.set(0, stun=1)
    assert not sc.legal(K.A_SKILL + 1) and not K.action_legal(sc.s, K.A_SKILL + 1)
    sc.fresh_turn(1)
    sc.set(1, stun=1)
    assert not sc.legal(skill_at(0, 1)), "the stunned Witch cannot curse either"
    assert not K.action_legal(sc.s, skill_at(0, 1))
    # a passive skill too: the stunned Mistress of Golems has no Domination in a fight
    sc = east("Witch", "Mistress of Golems")
    sc.put(0, N20)
    sc.put(1, N20)
    sc.set(1, stun=1)
    sc.dice(3, 3, 3, 3)
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(1, 0b01, 6, 6)]


def test_fate_crystal_repeat_is_not_a_new_throw_the_curse_still_applies_l362():
    # l.362 "if the character was cursed, after using the fate crystal the curse still
    # affects the character's dice throw"
    sc = east("Witch", "Monk", crystals=True)
    sc.put(1, N19)
    sc.s["curse"][1] = 2
    sc.place_trap(N20, "Falling Rocks")  # 7 to pass
    sc.fresh_turn(1)
    sc.dice(4, 4, 4, 4)
    evs = sc.move(0)
    assert events_of(evs, K.EV_TRAP_CHECK)[0][3] == 8 - 2, "the curse on the throw"
    assert sc.decision == K.D_REROLL and sc.decider == 1
    evs = sc.step(K.A_REROLL)
    assert events_of(evs, K.EV_TRAP_CHECK)[0][3] == 8 - 2, "and on the repeated throw"
    assert int(sc.s["curse"][1]) == 0 and int(sc.s["life"][1]) == 3, "then the curses go back"


# =====================================================================================
# The skills (l.367-418), each named after it
# =====================================================================================
def test_climbing_assassin_has_the_bonus_after_a_fall_too_l375():
    # l.375 "You may fall down or try to jump down from a bridge in order to receive a +1
    # bonus to the dice throw."
    totals = {}
    for who in ("Assassin", "Monk"):
        sc = east(who, "Witch")
        b, u = sc.bridge(13)
        sc.put(0, b)
        sc.put(1, u)
        sc.dice(2, 3, 3, 3, 3)  # a fall, then the Witch attacks: 6 against 6 - 2 lost life
        sc.step(K.A_JUMP_DOWN)
        assert sc.decision == K.D_OCCUPANT and sc.decider == 1
        evs = sc.step(K.A_ATTACK_NEWCOMER)
        totals[who] = fights(evs)[0][3]
    assert totals == {"Assassin": 6 - 2 + 1, "Monk": 6 - 2}


def test_adrenaline_a_token_per_life_lost_at_most_three_kept_at_the_start_field_l390():
    # l.390 "You keep the adrenaline tokens when you come back to the start field. You may
    # have the maximum number of them (which is 3)."
    sc = east("Female Archer", "Witch")
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(0, life=2)
    sc.fresh_turn(1)
    sc.dice(6, 6, 1, 1)
    sc.step(K.A_ATTACK + 0)
    assert int(sc.s["adrenaline"][0]) == 1 and int(sc.s["life"][0]) == 1
    sc.s["adrenaline"][0] = 2
    sc.dice(6, 6, 1, 1)
    sc.step(K.A_ATTACK + 0)  # her last life: back to the start field
    assert sc.pos(0) == start_node_of(0) and int(sc.s["life"][0]) == 4
    assert int(sc.s["adrenaline"][0]) == 3, "kept at the start field, never more than 3"


def test_adrenaline_hands_a_token_back_for_one_more_action_once_a_round():
    sc = east("Female Archer", "Witch")
    sc.put(0, N19)
    sc.s["adrenaline"][0] = 2
    sc.actions(0)
    evs = sc.step(K.A_SKILL)
    assert int(sc.s["actions_left"]) == 1 and int(sc.s["adrenaline"][0]) == 1
    assert (K.EV_TOKENS, 0, K.TOKEN_ADRENALINE, -1, 1, 0) in evs
    assert not sc.legal(K.A_SKILL), "once a round"


def test_shot_fires_at_every_player_in_range_each_throws_for_himself_l391():
    # l.391 "If two or more players are in the corridors within the shooting range, you can
    # shoot both of them (each of them throws dice behind himself)."
    sc = east("Female Archer", "Witch", "Monk", "Thief")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, K.CENTER_NODE)
    sc.put(3, N19)  # in her own corridor: not in range
    sc.dice(1, 1, 6, 6)
    evs = sc.step(K.A_SKILL + 1)
    assert [e[1:4] for e in events_of(evs, K.EV_SHOT)] == [(1, 2, 1), (2, 12, 0)]
    assert [int(x) for x in sc.s["stun"][:4]] == [0, 1, 0, 0]
    assert int(sc.s["actions_left"]) == 1
    sc2 = east("Female Archer", "Witch")
    sc2.put(0, N19)
    sc2.put(1, key_node_of(3))
    assert not sc2.legal(K.A_SKILL + 1), "nobody in range"


def test_shot_the_archer_may_shoot_one_of_the_players_in_range_l391():
    # l.391 "If two or more players are in the corridors within the shooting range, you can
    # shoot both of them": a permission, so she may also shoot just one of them
    sc = east("Female Archer", "Witch", "Monk", "Thief")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, K.CENTER_NODE)
    sc.put(3, N19)  # in her own corridor: not in range
    assert sc.legal(K.A_SKILL + 1), "both of them"
    assert sc.legal(skill_at(1, 1)) and sc.legal(skill_at(1, 2)), "or one of them"
    assert not sc.legal(skill_at(1, 3)), "never one out of range"
    sc.dice(1, 1, 6, 6)
    evs = sc.step(skill_at(1, 2))
    assert [e[1:4] for e in events_of(evs, K.EV_SHOT)] == [(2, 2, 1)], "the Monk alone throws"
    assert [int(x) for x in sc.s["stun"][:4]] == [0, 0, 1, 0] and int(sc.s["actions_left"]) == 1
    assert (K.EV_SKILL, 0, K.SK_SHOT, 2, -1, 0) in evs
    sc = east("Female Archer", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    assert sc.legal(K.A_SKILL + 1) and not sc.legal(skill_at(1, 1)), "one in range: no choice to make"


def test_blessing_adds_one_to_the_next_throw_then_goes_back():
    sc = east("Monk", "Witch")
    sc.put(0, N19)
    sc.step(K.A_SKILL + 1)
    assert int(sc.s["blessing"][0]) == 1
    sc.place_trap(N20, "Falling Rocks")
    sc.dice(3, 3)
    evs = sc.move(0)
    assert events_of(evs, K.EV_TRAP_CHECK)[0][3] == 6 + 1
    assert int(sc.s["blessing"][0]) == 0 and int(sc.s["life"][0]) == 4, "7 passes the 7"
    sc.fresh_turn(0)
    sc.put(1, N20)
    assert sc.legal(skill_at(1, 1)), "a player in the Monk's corridor"
    sc.put(1, N19)
    assert not sc.legal(skill_at(1, 1)), "not one in another corridor"


def test_domination_a_fight_bonus_also_on_the_central_field_with_a_key_l402():
    # l.402 "Having a key you still have a bonus to use during a fight on the central field."
    sc = east("Mistress of Golems", "Witch")
    sc.put(0, K.CENTER_NODE)
    sc.put(1, K.CENTER_NODE)
    sc.give_key(0, 2)
    sc.s["seat"] = 1
    sc.fresh_turn(1)
    sc.dice(3, 3, 3, 3)
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(0, 0b10, 6, 7)]


def test_disarming_traps_even_with_the_guard_in_the_corridor_l411():
    # l.411 "The presence of the Guard does not prevent you from disarming a trap in that corridor."
    sc = east("Thief", "Witch")
    sc.put(0, N20)
    sc.guard(N20)
    token = sc.place_trap(N20, "Poisoned Darts")  # 8
    pile = int(sc.s["trap_pool_len"])
    sc.dice(4, 4)
    evs = sc.step(K.A_SKILL + 1)
    assert (K.EV_DISARM, 0, N20, 1, 8, 1) in evs
    assert int(sc.s["node_trap"][N20]) == -1 and int(sc.s["trap_pool_len"]) == pile + 1
    assert token in [int(t) for t in sc.s["trap_pool"][: pile + 1]], "the token is back in the pile"
    sc2 = east("Thief", "Witch")
    sc2.put(0, N20)
    sc2.place_trap(N20, "Poisoned Darts")
    sc2.dice(3, 4)
    sc2.step(K.A_SKILL + 1)
    assert int(sc2.s["node_trap"][N20]) >= 0, "7 does not reach the 8"


def test_curse_accumulates_l415():
    # l.415 "The curses accumulate (you may have e.g. -3 to your dice throw)."
    sc = east("Witch", "Thief")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.step(skill_at(0, 1))
    sc.step(skill_at(0, 1))
    assert int(sc.s["curse"][1]) == 2 and int(sc.s["seat"]) == 1, "two actions: her round is over"
    sc.fresh_turn(1)
    sc.place_trap(key_node_of(0), "Falling Rocks")
    sc.dice(5, 5)
    evs = sc.move(0)
    assert events_of(evs, K.EV_TRAP_CHECK)[0][3] == 10 - 2
    assert int(sc.s["curse"][1]) == 0


def test_curse_only_on_a_player_in_or_next_to_her_corridor():
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, key_node_of(0))
    assert not sc.legal(skill_at(0, 1))
    sc.put(1, N20)
    assert sc.legal(skill_at(0, 1))
    sc.s["curse"][1] = C.CURSE_TOKENS
    assert not sc.legal(skill_at(0, 1)), "all 6 curse tokens are out"


def test_skill_actions_never_legal_without_characters():
    sc = Scenario(num_players=2)
    sc.lay_line(0)
    sc.put(0, N19)
    assert not sc.mask()[K.NUM_BASE_ACTIONS :].any()
    assert events(sc.s) is not None


def skill_dir(slot: int, d: int) -> int:
    return K.A_SKILL_DIR + slot * 6 + d


def test_whirling_blades_attacks_twice_both_attacks_free_l406():
    # l.406 "You attack twice, also during an encounter (both attacks are free)."
    sc = east("Sword Master", "Witch")
    sc.put(0, N20)
    sc.put(1, N20)
    sc.dice(6, 6, 1, 1, 6, 5, 1, 2)
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(1, 0b01, 12, 2), (1, 0b01, 11, 3 - 1)]
    assert int(sc.s["life"][1]) == 2 and int(sc.s["actions_left"]) == 1, "the second attack costs nothing"
    assert (K.EV_SKILL, 0, K.SK_WHIRLING_BLADES, 1, -1, 0) in evs
    # in an encounter: the Sword Master comes in and attacks: two fights
    sc = east("Sword Master", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.move(0)
    assert sc.decision == K.D_OCCUPANT
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_ENTRANT and sc.decider == 0
    sc.dice(6, 6, 1, 1, 6, 6, 1, 1)
    evs = sc.step(K.A_TARGET + 0)
    assert len(fights(evs)) == 2 and int(sc.s["life"][1]) == 2
    other = east("Monk", "Witch")
    other.put(0, N20)
    other.put(1, N20)
    other.dice(6, 6, 1, 1, 6, 5, 1, 2)
    assert len(fights(other.step(K.A_ATTACK + 0))) == 1, "anyone else attacks once"


def test_prayer_moves_another_player_who_bears_the_standard_consequences_l396():
    # l.396 "If you moved another player to the corridor, where there is the Guard, a trap or
    # another player, the player you moved bears standard consequences."
    sc = east("Monk", "Witch")
    sc.put(0, N19)
    sc.put(1, N19)
    sc.place_trap(N20, "Poisoned Darts")
    sc.dice(2, 2)
    evs = sc.step(K.A_PRAY + 0 * 6 + 0)  # player +1, east
    assert sc.pos(1) == N20 and (K.EV_SKILL, 0, K.SK_PRAYER, 1, N20, 0) in evs
    assert events_of(evs, K.EV_TRAP_CHECK)[0][1] == 1 and int(sc.s["life"][1]) == 3, "his trap throw"
    assert int(sc.s["actions_left"]) == 1
    sc = east("Monk", "Witch", "Thief")
    sc.put(0, N19)
    sc.put(1, N19)
    sc.put(2, N20)
    sc.step(K.A_PRAY + 0)
    assert sc.decision == K.D_OCCUPANT and sc.decider == 2, "an encounter with the player there"
    sc = east("Monk", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    assert not sc.legal(K.A_PRAY + 0), "only a player in the Monk's corridor"


def test_dark_enlivening_moves_a_trap_into_a_corridor_with_one_trap_never_two_l416():
    # l.416 "You cannot move the trap to the corridor, where there are already two traps.":
    # one trap there does not stop her (l.134: her skill prevails over l.218's one a corridor)
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    token = sc.place_trap(N19, "Poisoned Darts", face_up=True)
    evs = sc.step(skill_dir(1, 0))
    assert int(sc.s["node_trap"][N20]) == token and int(sc.s["node_trap"][N19]) == -1
    assert int(sc.s["trap_up"][N20]) == 1 and (K.EV_SKILL, 0, K.SK_DARK_ENLIVENING, -1, N20, 0) in evs
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    moved = sc.place_trap(N19, "Poisoned Darts", face_up=True)
    there = sc.place_trap(N20, "Falling Rocks", face_up=True)
    assert sc.legal(skill_dir(1, 0)), "one trap there: she may move hers in (l.416)"
    sc.step(skill_dir(1, 0))
    assert int(sc.s["node_trap"][N20]) == there and int(sc.s["node_trap2"][N20]) == moved
    assert int(sc.s["trap2_up"][N20]) == 1 and int(sc.s["node_trap"][N19]) == -1
    assert "(2,0) Falling Rocks, (2,0) Poisoned Darts" in render_text(sc.s), "the text board shows both"
    svg = picture.draw(sc.s, viewer=0).to_svg()
    assert "Falling Rocks" in svg and "Poisoned Darts" in svg, "and so does the picture"
    sc.fresh_turn(0)
    sc.place_trap(N19, "Net")
    assert not sc.legal(skill_dir(1, 0)), "two traps there already (l.416)"
    assert not sc.legal(skill_dir(1, 3)), "nor into the central field"
    sc.fresh_turn(1)
    sc.put(1, N19)
    sc.dice(6, 6, 6, 6)
    evs = sc.move(0)
    if sc.decision == K.D_TRAP_ORDER:
        evs += sc.step(K.A_TRAP_ORDER)
    assert len(events_of(evs, K.EV_TRAP_CHECK)) == 2, "whoever comes in crosses both (l.386)"


def test_mystification_swaps_traps_even_with_the_guard_there_l382():
    # l.382 "The presence of the Guard does not stop you from swapping places of the traps in
    # the given corridor."
    sc = east("Illusionist", "Monk")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    sc.guard(N20)
    a = sc.place_trap(N19, "Poisoned Darts")
    b = sc.place_trap(N20, "Falling Rocks", face_up=True)
    sc.step(skill_dir(1, 0))
    assert int(sc.s["node_trap"][N19]) == b and int(sc.s["node_trap"][N20]) == a
    assert int(sc.s["trap_up"][N19]) == 1 and int(sc.s["trap_up"][N20]) == 0, "each token as it lay"
    sc = east("Illusionist", "Monk")
    sc.put(0, N19)
    assert not sc.legal(skill_dir(1, 0)), "no trap on either side: nothing to swap"


def test_mystification_swaps_every_trap_of_a_corridor_with_two_l382():
    # l.382 "swapping places of the traps in the given corridor": both traps of a corridor
    # with two (l.134, l.386) change places with the next corridor's, together
    sc = east("Illusionist", "Monk")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    a = sc.place_trap(N19, "Poisoned Darts")
    b = sc.trap_token_of(C.TRAP_NAMES.index("Net"))
    sc.s["node_trap2"][N19] = b
    sc.s["trap2_up"][N19] = 1
    c = sc.place_trap(N20, "Falling Rocks", face_up=True)
    sc.step(skill_dir(1, 0))
    assert (int(sc.s["node_trap"][N20]), int(sc.s["node_trap2"][N20])) == (a, b), "both went"
    assert (int(sc.s["node_trap"][N19]), int(sc.s["node_trap2"][N19])) == (c, -1), "the one came"
    assert int(sc.s["trap2_up"][N20]) == 1 and int(sc.s["trap_up"][N20]) == 0, "each token as it lay"
    sc.step(skill_dir(1, 0))  # and back: two traps into a corridor with none
    assert (int(sc.s["node_trap"][N19]), int(sc.s["node_trap2"][N19])) == (a, b)
    assert (int(sc.s["node_trap"][N20]), int(sc.s["node_trap2"][N20])) == (c, -1)


def test_disarming_traps_the_thief_chooses_which_of_two_traps_l411():
    # l.411 "disarming a trap in that corridor": one trap; of two, the Thief says which
    for pick, gone, stays in ((0, "Poisoned Darts", "Jammed Door"), (1, "Jammed Door", "Poisoned Darts")):
        sc = east("Thief", "Witch")
        sc.put(0, N20)
        sc.guard(N20)
        sc.place_trap(N20, "Poisoned Darts")
        sc.s["node_trap2"][N20] = sc.trap_token_of(C.TRAP_NAMES.index("Jammed Door"))
        sc.s["trap2_up"][N20] = 1
        kept = sc.s["node_trap"][N20] if pick == 1 else sc.s["node_trap2"][N20]
        sc.step(K.A_SKILL + 1)
        assert sc.decision == K.D_WHICH_TRAP and sc.decider == 0, "he chooses which"
        assert sc.legal(K.A_TRAP_ORDER) and sc.legal(K.A_TRAP_ORDER + 1)
        sc.dice(6, 6)
        evs = sc.step(K.A_TRAP_ORDER + pick)
        assert [e[3] for e in events_of(evs, K.EV_DISARM)] == [C.TRAP_NAMES.index(gone)]
        assert int(sc.s["node_trap"][N20]) == kept and int(sc.s["node_trap2"][N20]) == -1, stays
    sc = east("Thief", "Witch")  # one trap: no question
    sc.put(0, N20)
    sc.place_trap(N20, "Poisoned Darts")
    sc.dice(6, 6)
    sc.step(K.A_SKILL + 1)
    assert sc.decision == K.D_MAIN and int(sc.s["node_trap"][N20]) == -1


def test_misfortune_rite_the_witch_chooses_which_of_two_traps_to_set_off_l417():
    # l.417 "Activating a door trap does not bring any results." / l.418 "If a witch
    # activates a turn-back trap": the rite activates one trap; of two, she says which
    for pick, checked in ((0, []), (1, ["Poisoned Darts"])):
        sc = east("Witch", "Monk")
        sc.put(0, N19)
        sc.put(1, N20)
        sc.place_trap(N20, "Jammed Door")
        sc.s["node_trap2"][N20] = sc.trap_token_of(C.TRAP_NAMES.index("Poisoned Darts"))
        sc.step(skill_dir(2, 0))
        assert sc.decision == K.D_WHICH_TRAP and sc.decider == 0, "she chooses which"
        obs = sc.observe(0)
        assert obs[K.OBS_CHARS + K.C_WHICH_TRAP] == 1.0, "the decision is observed"
        if pick:
            sc.dice(1, 1)
        evs = sc.step(K.A_TRAP_ORDER + pick)
        assert [C.TRAP_NAMES[e[2]] for e in events_of(evs, K.EV_TRAP_CHECK)] == checked
        assert int(sc.s["life"][1]) == (3 if pick else 4) and sc.decision == K.D_MAIN
        revealed = [C.TRAP_NAMES[e[3]] for e in events_of(evs, K.EV_TRAP_REVEALED)]
        assert revealed == ["Poisoned Darts" if pick else "Jammed Door"], "only the one set off"


def test_entrapment_second_trap_in_a_corridor_skills_prevail_over_the_rules_l134():
    # l.134 "The character's skills prevail over the rules listed in the instruction manual
    # (e.g. the Head Hunter may place the second trap in the same corridor, which is not
    # possible otherwise)"; l.218 "In one corridor there may be only one trap."
    sc = east("Head Hunter", "Witch")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    first = sc.place_trap(N20, "Poisoned Darts")
    assert sc.legal(K.A_SET_TRAP + N20)
    top = int(sc.s["trap_pool"][int(sc.s["trap_pool_len"]) - 1])
    sc.step(K.A_SET_TRAP + N20)
    assert int(sc.s["node_trap"][N20]) == first and int(sc.s["node_trap2"][N20]) == top
    assert not sc.legal(K.A_SET_TRAP + N20), "never a third"
    other = east("Witch", "Monk")
    other.put(0, N19)
    other.place_trap(N20, "Poisoned Darts")
    assert not other.legal(K.A_SET_TRAP + N20), "anyone else: one trap a corridor"
    sc = east("Head Hunter", "Witch")
    sc.put(0, start_node_of(0))
    sc.place_trap(N20, "Poisoned Darts")
    assert not sc.legal(K.A_SET_TRAP + N20), "not from the start field (l.132)"


def two_traps(first: str, second: str) -> Scenario:
    sc = east("Head Hunter", "Witch", "Monk")
    sc.put(0, key_node_of(3))
    sc.put(2, N19)
    sc.place_trap(N20, first)
    t = sc.trap_token_of(C.TRAP_NAMES.index(second))
    sc.s["node_trap2"][N20] = t
    sc.fresh_turn(2)
    return sc


def test_entrapment_face_down_second_trap_is_dealt_again_by_determinize():
    """A face-down second token is hidden like any face-down trap: ``determinize`` for a seat
    deals it and the trap pile again from one unknown set (the set is kept, the token at the
    corridor varies with the seed)."""
    sc = two_traps("Poisoned Darts", "Net")
    n = int(sc.s["trap_pool_len"])

    def unknown(t) -> list[int]:
        return sorted([int(t["node_trap"][N20]), int(t["node_trap2"][N20]), *map(int, t["trap_pool"][:n])])

    assert not sc.s["trap_up"][N20] and not sc.s["trap2_up"][N20]
    before = unknown(sc.s)
    seen = set()
    for seed in range(12):
        trial = sc.states.copy()
        K.determinize(trial[0], 2, np.uint64(seed))
        assert unknown(trial[0]) == before
        seen.add(int(trial[0]["node_trap2"][N20]))
    assert len(seen) > 1


def test_entrapment_crossing_uncovers_both_turn_back_trap_first_l386():
    # l.386 "When any player crosses a corridor with two traps, he uncovers both of them; he
    # has to pass the turn-back traps at the beginning, others - as he likes"
    sc = two_traps("Poisoned Darts", "Magic Barrier")
    sc.dice(6, 6, 6, 6)
    evs = sc.move(0)
    revealed = [e[3] for e in events_of(evs, K.EV_TRAP_REVEALED)]
    assert sorted(revealed) == sorted([C.TRAP_NAMES.index("Poisoned Darts"), C.TRAP_NAMES.index("Magic Barrier")])
    checks = [e[2] for e in events_of(evs, K.EV_TRAP_CHECK)]
    assert checks == [C.TRAP_NAMES.index("Magic Barrier"), C.TRAP_NAMES.index("Poisoned Darts")]


def test_entrapment_crossing_the_others_in_the_order_he_likes_l386():
    sc = two_traps("Poisoned Darts", "Falling Rocks")
    sc.move(0)
    assert sc.decision == K.D_TRAP_ORDER and sc.decider == 2, "the player crossing decides"
    sc.dice(6, 6, 6, 6)
    evs = sc.step(K.A_TRAP_ORDER + 1)
    checks = [e[2] for e in events_of(evs, K.EV_TRAP_CHECK)]
    assert checks == [C.TRAP_NAMES.index("Falling Rocks"), C.TRAP_NAMES.index("Poisoned Darts")]
    assert sc.pos(2) == N20 and int(sc.s["life"][2]) == 4


def test_entrapment_door_trap_passed_when_leaving_l386():
    # l.386 "(apart from the door traps which he has to pass when he tries to leave the given corridor)"
    sc = two_traps("Poisoned Darts", "Jammed Door")
    sc.dice(6, 6)
    evs = sc.move(0)
    assert [e[2] for e in events_of(evs, K.EV_TRAP_CHECK)] == [C.TRAP_NAMES.index("Poisoned Darts")]
    sc.fresh_turn(2)
    sc.dice(1, 1)
    evs = sc.move(0)
    assert [e[2] for e in events_of(evs, K.EV_TRAP_CHECK)] == [C.TRAP_NAMES.index("Jammed Door")]
    assert sc.pos(2) == N20, "the door held"
    sc = two_traps("Poisoned Darts", "Jammed Door")  # standing there: the door trap in the second slot
    sc.put(2, N20)
    sc.dice(1, 1)
    evs = sc.move(0)
    assert [e[2] for e in events_of(evs, K.EV_TRAP_CHECK)] == [C.TRAP_NAMES.index("Jammed Door")]
    assert sc.pos(2) == N20


def test_theft_tries_to_steal_the_key_before_attacks_are_declared_l410():
    # l.410 "You may try to steal the key before declaring attacks."
    sc = east("Thief", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.give_key(1, 2)
    sc.move(0)
    assert sc.decision == K.D_THEFT and sc.decider == 0, "before anyone declares an attack"
    assert sc.legal(K.A_NO_THEFT) and sc.legal(skill_at(0, 1))
    sc.dice(4, 4)
    evs = sc.step(skill_at(0, 1))
    assert (K.EV_THEFT, 0, 1, 8, 1, 0) in evs and int(sc.s["key_holder"][2]) == 0
    assert sc.decision == K.D_OCCUPANT and sc.decider == 1, "then the encounter's attacks"
    sc = east("Thief", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.give_key(1, 2)
    sc.move(0)
    sc.dice(3, 4)
    sc.step(skill_at(0, 1))
    assert int(sc.s["key_holder"][2]) == 1, "7 is not enough"
    sc = east("Monk", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.give_key(1, 2)
    sc.move(0)
    assert sc.decision == K.D_OCCUPANT, "nobody else is asked"


def test_keen_eye_archer_adds_one_against_traps():
    sc = east("Female Archer", "Witch")
    sc.put(0, N19)
    sc.place_trap(N20, "Falling Rocks")
    sc.dice(3, 3)
    evs = sc.move(0)
    assert events_of(evs, K.EV_TRAP_CHECK)[0][3] == 7 and int(sc.s["life"][0]) == 4


def test_silent_step_nobody_attacks_the_assassin_as_he_comes_in():
    sc = east("Assassin", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.move(0)
    assert sc.decision == K.D_ENTRANT and sc.decider == 0, "the Witch is not asked"
    sc = east("Monk", "Witch")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.move(0)
    assert sc.decision == K.D_OCCUPANT and sc.decider == 1


def test_bounty_head_hunter_takes_a_key_from_the_player_he_beats():
    sc = east("Head Hunter", "Witch")
    sc.put(0, N20)
    sc.put(1, N20)
    sc.give_key(1, 2)
    sc.dice(6, 6, 1, 1)
    evs = sc.step(K.A_ATTACK + 0)
    assert int(sc.s["key_holder"][2]) == 0 and (K.EV_SKILL, 0, K.SK_BOUNTY, 1, -1, 0) in evs


def test_golem_ward_mistress_stays_with_the_guard_on_ten():
    sc = east("Mistress of Golems", "Witch")
    sc.put(0, N19)
    sc.guard(N20)
    sc.dice(5, 5)
    sc.move(0)
    assert sc.pos(0) == N20, "10 keeps her there"
    sc = east("Monk", "Witch")
    sc.put(0, N19)
    sc.guard(N20)
    sc.dice(5, 5)
    sc.move(0)
    assert sc.pos(0) == start_node_of(0), "anyone else needs 12 (l.329)"


def test_misfortune_rite_sets_off_a_trap_door_traps_do_nothing_the_witch_sends_l417_l418():
    # l.417 "Activating a door trap does not bring any results."; l.418 "If a witch
    # activates a turn-back trap, she is to decide where the character will go."
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.place_trap(N20, "Poisoned Darts")
    sc.dice(1, 1)
    evs = sc.step(skill_dir(2, 0))
    assert [e[1:3] for e in events_of(evs, K.EV_TRAP_CHECK)] == [(1, C.TRAP_NAMES.index("Poisoned Darts"))]
    assert int(sc.s["life"][1]) == 3 and int(sc.s["actions_left"]) == 1
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.place_trap(N20, "Jammed Door")
    evs = sc.step(skill_dir(2, 0))
    assert not events_of(evs, K.EV_TRAP_CHECK) and int(sc.s["trap_up"][N20]) == 1, "a door trap: nothing"
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.place_trap(N20, "Magic Barrier")
    sc.dice(1, 1)
    sc.step(skill_dir(2, 0))
    assert sc.decision == K.D_RITE and sc.decider == 0, "the Witch decides where he goes"
    assert sc.legal(skill_dir(2, 0)) and sc.legal(skill_dir(2, 3))
    sc.step(skill_dir(2, 0))
    assert sc.pos(1) == key_node_of(0) and sc.decision == K.D_MAIN and int(sc.s["seat"]) == 0
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    sc.place_trap(N20, "Poisoned Darts")
    assert not sc.legal(skill_dir(2, 0)), "nobody there"


def test_correction_architect_turns_a_field_next_to_his_or_his_own_if_alone_l371():
    # l.371 "You may also rotate the board field you stand on, on condition there is no
    # other player apart from you."
    sc = east("Architect", "Witch")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    own = K.A_CORRECTION + 6 * 5  # his own field, one sixth of a turn
    before = int(sc.s["node_mask"][N19])
    trap = sc.place_trap(N19, "Poisoned Darts")
    assert sc.legal(own)
    evs = sc.step(own)
    assert int(sc.s["node_mask"][N19]) == int(ROTATE_HEX[before, 1]) and int(sc.s["actions_left"]) == 1
    assert sc.pos(0) == N19 and int(sc.s["node_trap"][N19]) == trap, "his corridor turns with him and its trap"
    assert (K.EV_SKILL, 0, K.SK_CORRECTION, -1, N19, 0) in evs
    sc.put(1, N19)
    assert not sc.legal(own), "not with another player on it"
    sc.put(1, N20)
    assert not sc.legal(K.A_CORRECTION + 0 * 5), "nor a field next to his with a player on it"
    sc.put(1, key_node_of(3))
    assert sc.legal(K.A_CORRECTION + 0 * 5), "the field next to his (east), nobody there"
    assert not sc.legal(K.A_CORRECTION + 3 * 5), "never the central field"


def _architect_walled_in(open_side: bool) -> Scenario:
    """The Architect on N20 of the east line; the fields round the centre turned away from it
    but 19, so that the line is every start field's only way to the centre, unless
    ``open_side`` leaves the field north-east of the centre unbuilt (a way still to build)."""
    sc = east("Architect", "Witch")
    for d in range(2 if open_side else 1, 6):
        sc.lay(neighbor(CENTER, d), f"{(d + 1) % 6}{(d + 4) % 6}")
    sc.put(0, N20)
    sc.put(1, key_node_of(3))
    return sc


def test_correction_never_cuts_a_way_the_building_rule_keeps_l152_l371():
    # l.371 lets the Architect turn a field; l.152 still binds the board: "each player has an
    # opportunity to build at least one way to the central field of the labyrinth and the
    # key" (a skill prevails over a rule only where its text says so, l.134). Field 19 and his
    # own field 20 join every start field to the centre: only their half turn keeps that way.
    sc = _architect_walled_in(open_side=False)
    mask = sc.mask()
    for field in (3, 6):  # 19 (west of him), his own 20
        turns = [K.A_CORRECTION + field * 5 + t for t in range(5)]
        assert [sc.legal(a) for a in turns] == [False, False, True, False, False], field
        assert [bool(mask[a]) for a in turns] == [False, False, True, False, False], field
    before = int(sc.s["node_mask"][N19])
    sc.step(K.A_CORRECTION + 3 * 5 + 2)
    assert int(sc.s["node_mask"][N19]) == int(ROTATE_HEX[before, 3]) == before, "a straight turned by half"
    # the same turns are legal while another way to the centre can still be built
    sc = _architect_walled_in(open_side=True)
    assert all(sc.legal(K.A_CORRECTION + field * 5 + t) for field in (3, 6) for t in range(5))


def test_quick_fingers_thief_lifts_a_key_on_a_key_field_past_the_players_there():
    for who, lifts in (("Thief", True), ("Monk", False)):
        sc = east(who, "Witch")
        key = key_node_of(1)  # nobody's own key field
        sc.put(0, key)
        sc.put(1, key)
        sc.place_key(2, key)
        sc.s["fight_lost"] = 1  # he lost his fight there: the Witch still stands in the way (l.120)
        assert sc.legal(K.A_LIFT_KEY + 2) == lifts, who


def test_parry_sword_master_defending_alone_throws_three_dice_and_drops_the_lowest():
    sc = east("Witch", "Sword Master")
    sc.put(0, N20)
    sc.put(1, N20)
    sc.dice(3, 3, 1, 5, 4)
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(1, 0b01, 6, 9)]
    other = east("Witch", "Monk")
    other.put(0, N20)
    other.put(1, N20)
    other.dice(3, 3, 1, 5, 4)
    assert fights(other.step(K.A_ATTACK + 0)) == [(1, 0b01, 6, 6)]


def test_meditation_monk_alone_takes_a_blessing_at_the_start_of_his_round():
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.step(K.A_END_TURN)
    assert int(sc.s["seat"]) == 1 and int(sc.s["blessing"][1]) == 1
    sc = east("Witch", "Monk")
    sc.put(0, N20)
    sc.put(1, N20)
    sc.step(K.A_END_TURN)
    assert int(sc.s["blessing"][1]) == 0, "not with another player in his corridor"


def test_disarm_who_loses_to_the_sword_master_may_not_attack_in_his_next_round():
    sc = east("Witch", "Sword Master")
    sc.put(0, N20)
    sc.put(1, N20)
    sc.s["ask_crystal"] = 0
    sc.dice(1, 1, 6, 6)  # the Witch attacks and loses
    sc.step(K.A_ATTACK + 0)
    assert int(sc.s["disarmed"]) == 0b01
    sc.step(K.A_END_TURN)  # her round (the one she lost in) ends: still disarmed
    assert int(sc.s["disarmed"]) == 0b01
    sc.fresh_turn(0, turn=int(sc.s["turn"]) + 1)
    assert not sc.legal(K.A_ATTACK + 0), "no attack in her next round"
    sc.step(K.A_END_TURN)
    assert int(sc.s["disarmed"]) == 0, "then she may again"
    other = east("Witch", "Monk")
    other.put(0, N20)
    other.put(1, N20)
    other.s["ask_crystal"] = 0
    other.dice(1, 1, 6, 6)
    other.step(K.A_ATTACK + 0)
    assert int(other.s["disarmed"]) == 0


def test_picture_and_text_board_show_characters_and_tokens():
    env = labyrinth_env.raw_env(ENV_ID, num_players=3, characters=["Witch", "Female Archer", "Monk"])
    env.reset(seed=5)
    s = env.unwrapped.record if hasattr(env, "unwrapped") else env.record
    s["curse"][2] = 2
    s["adrenaline"][1] = 1
    text = env.render_text()
    assert "Witch (curses 4 left)" in text and "Female Archer (adrenaline 1)" in text and "cursed 2" in text
    from labyrinth_env.rulesets.paths_of_destiny_2011 import picture

    canvas = picture.draw(s, viewer=0)
    words = " ".join(str(x) for x in canvas.__dict__.values())
    assert "Female Archer (adrenaline 1)" in words and "Monk" in words


# =====================================================================================
# Time Loop (the Assassin, l.376, l.363)
# =====================================================================================
TIME_LOOP = K.A_SKILL + 2


def test_time_loop_undoes_the_last_action_and_the_players_it_touched_come_back_l376():
    # l.376 "Time Loop: After using the third skill, other players (if you were e.g.
    # attacking them) also come back to the previous state."
    sc = east("Assassin", "Witch", "Monk")
    sc.set(0, crystal=1)
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, key_node_of(3))
    sc.give_key(1, 2)
    sc.place_trap(N20, "Poisoned Darts")  # 8: passed with 12
    sc.dice(6, 6, 6, 6, 1, 1)  # the trap, then his attack on the Witch: 12 against 2
    sc.move(0)
    assert sc.decision == K.D_ENTRANT and sc.decider == 0
    sc.step(K.A_TARGET + 0)
    assert int(sc.s["life"][1]) == 3 and int(sc.s["actions_left"]) == 1
    assert sc.legal(TIME_LOOP), "right after the action, his crystal face up"
    rng = int(sc.s["rng"][0])
    evs = sc.step(TIME_LOOP)
    assert sc.pos(0) == N19 and int(sc.s["life"][1]) == 4, "he and the Witch he attacked come back"
    assert int(sc.s["actions_left"]) == 2, "the action undone gives its action point back"
    assert int(sc.s["crystal"][0]) == 0 and (K.EV_CRYSTAL, 0, 0, 0, 0, 0) in evs, "the crystal face down (l.363)"
    assert sorted(e[1] for e in events_of(evs, K.EV_TIME_LOOP)) == [0, 1], "the Monk was not touched"
    assert (K.EV_TIME_LOOP, 1, N20, N20, 4, 0) in evs
    assert int(sc.s["key_holder"][2]) == 1 and sc.pos(1) == N20
    assert int(sc.s["trap_up"][N20]) == 1, "the board stays: the trap everyone saw stays uncovered"
    assert int(sc.s["rng"][0]) == rng, "the dice go on: nothing thrown back"
    assert not sc.legal(TIME_LOOP), "once: the crystal is face down"
    # only right after the action: any other action of his becomes his last one
    sc = east("Assassin", "Witch")
    sc.set(0, crystal=1)
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    sc.place_key(2, N20)
    sc.move(0)
    assert sc.legal(TIME_LOOP)
    sc.step(K.A_LIFT_KEY + 2)  # free, but his action after the move
    assert sc.decision == K.D_MAIN and sc.decider == 0 and int(sc.s["actions_left"]) == 1
    assert not sc.legal(TIME_LOOP), "only right after the action"
    sc = east("Assassin", "Witch")
    sc.set(0, crystal=1)
    sc.put(0, N19)
    sc.step(K.A_SET_TRAP + N20)
    assert sc.decider == 0 and not sc.legal(TIME_LOOP), "setting a trap (a hidden token drawn) is never undone"
    # not from the start field (l.132): the Guard sent him home
    sc = east("Assassin", "Witch")
    sc.set(0, crystal=1)
    sc.put(0, N19)
    sc.guard(N20)
    sc.dice(1, 1)
    sc.move(0)
    assert sc.decision == K.D_REROLL
    sc.step(K.A_KEEP)
    assert sc.pos(0) == start_node_of(0) and not sc.legal(TIME_LOOP)
    # nobody else has it
    sc = east("Monk", "Witch")
    sc.set(0, crystal=1)
    sc.put(0, N19)
    sc.move(0)
    assert not sc.legal(TIME_LOOP)


def test_skill_that_requires_the_fate_crystal_cannot_be_used_without_it_l363():
    # l.363 "Using some of the characters' skills requires using the fate crystal at the same time."
    for repeat, loops in ((K.A_KEEP, True), (K.A_REROLL, False)):
        sc = east("Assassin", "Witch")
        sc.set(0, crystal=1)
        sc.put(0, N19)
        sc.put(1, key_node_of(3))
        sc.place_trap(N20, "Falling Rocks")  # 7
        sc.dice(1, 1, 1, 1)
        sc.move(0)
        assert sc.decision == K.D_REROLL and sc.decider == 0
        sc.step(repeat)  # keep the throw, or spend the crystal on repeating it
        assert int(sc.s["life"][0]) == 3 and sc.pos(0) == N20
        assert sc.legal(TIME_LOOP) == loops
        assert K.action_legal(sc.s, TIME_LOOP) == loops
        if loops:
            sc.step(TIME_LOOP)
            assert int(sc.s["life"][0]) == 4 and sc.pos(0) == N19


def test_time_loop_state_kept_never_reaches_the_observation():
    """What the Time Loop keeps is never observed: scrambling it changes no seat's
    observation (the mask of the Assassin shows whether he may loop, as for any skill)."""
    sc = east("Assassin", "Witch")
    sc.set(0, crystal=1)
    sc.put(0, N19)
    sc.move(0)
    before = [sc.observe(p) for p in range(2)]
    for name in ("loop_position", "loop_life", "loop_key_node", "loop_key_holder", "loop_met", "loop_tokens"):
        sc.s[name] = 3
    sc.s["loop_actions"] = 1
    for p in range(2):
        assert np.array_equal(sc.observe(p), before[p])


# =====================================================================================
# Spreading Illusion (the Illusionist, l.380-381)
# =====================================================================================
def face_down(sc: Scenario, cell: int, owner: int = 0) -> int:
    """The top field of the pile face down on ``cell``, built by ``owner``; returns it."""
    s = sc.s
    n = int(s["tile_pool_len"])
    tile = int(s["tile_pool"][n - 1])
    s["tile_pool_len"] = n - 1
    s["fd_tile"][cell] = tile
    s["fd_owner"][cell] = owner
    s["cell_built"][cell] = 1
    return tile


def covered_ahead(*characters: str) -> tuple[Scenario, int, int]:
    """``east`` with a straight field on X (south-east of cell 19) opening south-east onto
    the empty cell Y beyond it, face down (the Illusionist's, seat 0); returns (scenario,
    the corridor of X, Y)."""
    sc = east(*characters)
    x = neighbor(19, 1)
    y = neighbor(x, 1)
    assert 0 <= y < K.NUM_BOARD and not sc.s["cell_built"][y]
    (nx,) = sc.lay(x, "14")
    face_down(sc, y)
    return sc, nx, y


def test_spreading_illusion_builds_face_down_nobody_may_place_traps_on_it_l380():
    # l.380 "Spreading Illusion: Nobody may place traps on the board fields you left face-down."
    sc = east("Illusionist", "Witch")
    sc.put(0, N19)
    sc.put(1, key_node_of(3))
    top = int(sc.s["tile_pool"][int(sc.s["tile_pool_len"]) - 1])
    evs = sc.step(K.A_SKILL)
    assert sc.decision == K.D_FACE_DOWN and sc.decider == 0 and int(sc.s["actions_left"]) == 1
    assert (K.EV_SKILL, 0, K.SK_SPREADING_ILLUSION, -1, -1, 0) in evs
    legal = sc.legal_actions()
    assert legal and all(K.A_PLACE <= a < K.A_GUARD_DIR and (a - K.A_PLACE) % 6 == 0 for a in legal)
    cell = neighbor(19, 1)
    assert K.A_PLACE + cell * 6 in legal, "an empty cell touching the board"
    evs = sc.step(K.A_PLACE + cell * 6)
    assert (K.EV_FACE_DOWN, 0, cell, 0, 0, 0) in evs
    assert int(sc.s["fd_owner"][cell]) == 0 and int(sc.s["fd_tile"][cell]) == top, "the top field, unseen"
    assert int(sc.s["cell_built"][cell]) == 1 and not sc.s["node_mask"][cell * K.MC : cell * K.MC + K.MC].any()
    sc.fresh_turn(1)
    sc.put(1, N19)
    mask = sc.mask()
    assert mask[K.A_SET_TRAP : K.A_MOVE_GUARD].any(), "traps may be set elsewhere"
    assert not mask[K.A_SET_TRAP + cell * K.MC : K.A_SET_TRAP + cell * K.MC + K.MC].any(), "never on it"
    other = east("Witch", "Monk")
    other.put(0, N19)
    assert not other.legal(K.A_SKILL), "only the Illusionist has it"


def test_spreading_illusion_the_guard_entering_a_covered_field_uncovers_it_l381():
    # l.381 "Spreading Illusion: If the Guard enters the covered board field, you have to uncover it."
    sc, nx, y = covered_ahead("Illusionist", "Witch")
    tile = int(sc.s["fd_tile"][y])
    sc.put(0, key_node_of(3))
    sc.put(1, N19)
    sc.guard(nx)
    sc.fresh_turn(1)
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.step(K.A_MOVE_GUARD)
    assert sc.decision == K.D_UNCOVER and sc.decider == 0, "the Illusionist uncovers it, not the active player"
    legal = sc.legal_actions()
    rots = [a - K.A_SKILL_DIR for a in legal]
    assert legal and all(0 <= r < 6 for r in rots)
    edge = (1 + 3) % 6
    for r in range(6):  # the turns offered: exactly those with a corridor on the edge it is entered by
        opens = any((int(ROTATE_HEX[int(m), r]) >> edge) & 1 for m in C.TILE_CORRIDOR_MASK[tile])
        assert (r in rots) == opens
    evs = sc.step(K.A_SKILL_DIR + rots[0])
    assert (K.EV_UNCOVERED, 0, tile, y, rots[0], -1) in evs
    assert int(sc.s["fd_owner"][y]) == -1 and int(sc.s["cell_tile"][y]) == tile
    g = int(sc.s["guard_node"])
    assert g // K.MC == y and (int(sc.s["node_mask"][g]) >> edge) & 1, "the Guard came in"
    assert sc.decision == K.D_MAIN and sc.decider == 1 and int(sc.s["guard_steps"]) == 0
    # a player's move into it: uncovered too, then he comes in
    sc, nx, y = covered_ahead("Illusionist", "Witch")
    sc.put(0, N19)
    sc.put(1, nx)
    sc.fresh_turn(1)
    assert sc.legal(K.A_MOVE + 1), "the field is there, only its face is hidden"
    sc.move(1)
    assert sc.decision == K.D_UNCOVER and sc.decider == 0
    sc.step(sc.legal_actions()[0])
    assert sc.pos(1) // K.MC == y and int(sc.s["actions_left"]) == 1 and sc.decider == 1


def test_face_down_field_hidden_from_every_seat_and_resampled_by_determinize():
    sc, _, y = covered_ahead("Illusionist", "Witch", "Monk")
    sc.put(0, N19)
    before = [sc.observe(p) for p in range(3)]
    text = render_text(sc.s)
    assert before[1][K.OBS_CHARS + K.C_COVERED + y] == 1.0, "that it lies there is public"
    n = int(sc.s["tile_pool_len"])
    hidden = int(sc.s["fd_tile"][y])
    other = int(sc.s["tile_pool"][0])
    sc.s["fd_tile"][y], sc.s["tile_pool"][0] = other, hidden
    assert all(np.array_equal(before[p], sc.observe(p)) for p in range(3)), "no seat sees which field it is"
    assert render_text(sc.s) == text
    from labyrinth_env.rulesets.paths_of_destiny_2011 import picture

    seen_by = [str(picture.draw(sc.s, viewer=p).__dict__) for p in range(3)]
    sc.s["fd_tile"][y], sc.s["tile_pool"][0] = hidden, other
    assert seen_by == [str(picture.draw(sc.s, viewer=p).__dict__) for p in range(3)]
    seen = set()
    for seed in range(40):
        trial = sc.states.copy()
        K.determinize(trial[0], 2, np.uint64(seed))
        seen.add(int(trial[0]["fd_tile"][y]))
        unknown = sorted([*trial[0]["tile_pool"][:n].tolist(), int(trial[0]["fd_tile"][y])])
        assert unknown == sorted([*sc.s["tile_pool"][:n].tolist(), hidden])
        out = np.zeros(K.OBS_SIZE, dtype=np.float32)
        K.observe(trial[0], 2, out)
        assert np.array_equal(before[2], out)
    assert len(seen) > 5, "the face-down field is dealt again from the unknown fields"


# =====================================================================================
# Mirror Image (the Illusionist) and Shortcut (the Architect): reconstructed (Shortcut's
# free move: tests/test_pod2011_architect_hunter.py)
# =====================================================================================
def test_mirror_image_the_first_fight_against_the_illusionist_in_a_round_is_thrown_again():
    sc = east("Witch", "Illusionist")
    sc.put(0, N20)
    sc.put(1, N20)
    sc.dice(6, 6, 1, 1, 1, 1, 6, 6)
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(1, 0b01, 12, 2), (1, 0b01, 2, 12)], "the image is hit, the fight thrown again"
    assert (K.EV_SKILL, 1, K.SK_MIRROR_IMAGE, -1, -1, 0) in evs
    assert [int(x) for x in sc.s["life"][:2]] == [3, 4], "the second throw counts"
    sc.dice(6, 6, 1, 1)
    evs = sc.step(K.A_ATTACK + 0)
    assert fights(evs) == [(1, 0b01, 12 - 1, 2)], "only the first fight of the round (she lost a life)"
    assert int(sc.s["life"][1]) == 3
    sc.step(K.A_END_TURN)
    sc.fresh_turn(0, turn=int(sc.s["turn"]) + 1)
    sc.dice(6, 6, 1, 1, 1, 1, 6, 6)
    assert len(fights(sc.step(K.A_ATTACK + 0))) == 2, "a new round: a new image"
    other = east("Witch", "Monk")
    other.put(0, N20)
    other.put(1, N20)
    other.dice(6, 6, 1, 1, 1, 1, 6, 6)
    assert fights(other.step(K.A_ATTACK + 0)) == [(1, 0b01, 12, 2)], "anyone else: one throw"


def test_shortcut_the_fields_a_player_builds_are_his():
    sc = east("Architect", "Witch")
    sc.put(0, N19)
    sc.step(K.A_BUILD)
    assert sc.decision == K.D_PLACE
    a = sc.legal_actions()[0]
    sc.step(a)
    assert int(sc.s["cell_builder"][(a - K.A_PLACE) // 6]) == 0
