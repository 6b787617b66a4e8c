"""Paths of Destiny 3e, issue 20: the characters (setup step 9, l.89), their abilities and
ability tokens. A scenario per rule, named after it; both combat examples of the rulebook
(l.445, l.447) played out with forced dice."""

from __future__ import annotations

import numpy as np
import pytest
from hex_helpers import events_of, key_node_of, node
from pod3e_helpers import CENTER, ROTATE_HEX, Scenario, ev, start_node_of

import labyrinth_env
from labyrinth_env.core import characters as CH
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import heuristic as H
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

ENV_ID = "paths_of_destiny_3e_v3"
CENTRE = node(CENTER)
N19, N20, N21 = node(19), node(20), node(21)  # east of the centre; 21 is key space 0
N17, N16 = node(17), node(16)  # west of the centre
START0 = start_node_of(0)
PARK = key_node_of(5)
EAST, WEST = 0, 3
NAME = {n: i for i, n in enumerate(C.CHARACTER_NAMES)}
TRAP = {name: i for i, name in enumerate(C.TRAP_NAMES)}
EVENT = {name: i for i, name in enumerate(C.EVENT_NAMES)}
READY = [n for i, n in enumerate(C.CHARACTER_NAMES) if C.CHARACTER_READY[i]]


def arena(names: list[str], crystals: bool = False) -> Scenario:
    """The characters ``names`` (one per seat), straight corridors east and west of the
    centre, the Golem parked, a fresh turn for seat 0, Crystals inactive unless asked."""
    sc = Scenario(num_players=len(names), characters=names)
    sc.lay_line(0)
    sc.lay_line(3)
    sc.golem(PARK)
    for p in range(len(names)):
        sc.set(p, crystal=1 if crystals else 0)
    return sc


def life(sc: Scenario, seat: int) -> int:
    return int(sc.s["life"][seat])


def combats(evs) -> list[tuple[int, int, int, int]]:
    return [(e[1], e[2], e[3], e[4]) for e in events_of(evs, K.EV_COMBAT)]


def tokens_of(sc: Scenario, seat: int, kind: int) -> list[int]:
    return [i for i in range(K.NUM_ABILITY_TOKENS) if sc.s["tok_owner"][i] == seat and C.ABILITY_TOKENS[i] == kind]


def lay(sc: Scenario, token: int, at: int) -> None:
    sc.s["tok_node"][token] = at


def in_hand(sc: Scenario, token: int) -> bool:
    return int(sc.s["tok_node"][token]) == -1


# =====================================================================================
# The option: "random" (default), "none", a name per seat, the draft; clear errors
# =====================================================================================
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"characters": ["Swordmaster", "Nobody"]}, "unknown character 'Nobody'"),
        ({"characters": ["Swordmaster", "Swordmaster"]}, "'Swordmaster' is chosen twice"),
        ({"characters": ["Swordmaster"]}, "1 names for 2 players"),
        ({"characters": ["Swordmaster", "Golem Mistress"]}, "'Golem Mistress' cannot be used with 2 players"),
        ({"characters": "some"}, "expected 'random', 'none' or a list"),
        ({"characters": 3}, "expected 'random', 'none' or a list"),
        ({"characters": "none", "character_draft": True}, "needs characters='random'"),
        ({"characters": ["Swordmaster", "Paladin"], "character_draft": True}, "cannot go with a list"),
    ],
)
def test_characters_option_clear_errors(options, message):
    options.setdefault("num_players", 2)
    with pytest.raises(ValueError, match=message):
        labyrinth_env.make(ENV_ID, **options)


def test_characters_option_excluded_message_names_the_allowed_ones():
    with pytest.raises(ValueError) as err:
        CH.check_characters(["Arch-priestess", "Paladin"], C.CHARACTER_NAMES, 2, excluded=["Arch-priestess"])
    assert "allowed: Swordmaster" in str(err.value) and "Arch-priestess," not in str(err.value).split("allowed:")[1]


def test_characters_random_is_the_default_dealt_from_the_kernel_rng():
    seen = set()
    for seed in range(40):
        sc_states = labyrinth_env.make(ENV_ID, num_players=4)
        sc_states.reset(seed=seed)
        chars = [int(c) for c in sc_states.unwrapped.record["character"][:4]]
        assert len(set(chars)) == 4 and all(C.CHARACTER_READY[c] for c in chars)
        seen.update(chars)
        again = labyrinth_env.make(ENV_ID, num_players=4)
        again.reset(seed=seed)
        assert [int(c) for c in again.unwrapped.record["character"][:4]] == chars, "same seed, same deal"
    assert seen == {NAME[n] for n in READY}, "every written character is dealt"


def test_characters_two_player_setup_excludes_golem_mistress_and_arch_priestess_l499():
    for seed in range(200):
        e = labyrinth_env.make(ENV_ID, num_players=2)
        e.reset(seed=seed)
        chars = {int(c) for c in e.unwrapped.record["character"][:2]}
        assert not chars & {C.GOLEM_MISTRESS, C.ARCH_PRIESTESS}


def test_characters_none_plays_without_characters_or_tokens():
    e = labyrinth_env.make(ENV_ID, num_players=3, characters="none")
    e.reset(seed=3)
    s = e.unwrapped.record
    assert (s["character"] == -1).all() and (s["tok_owner"] == -1).all()


def test_characters_listed_per_seat_take_their_tokens_l89():
    sc = Scenario(num_players=3, characters=["Warlock", "Stormcaller", "Swordmaster"])
    assert [int(c) for c in sc.s["character"][:3]] == [C.WARLOCK, C.STORMCALLER, C.SWORDMASTER]
    assert len(tokens_of(sc, 0, C.TOK_HELLFIRE)) == 3 and len(tokens_of(sc, 1, C.TOK_TORNADO)) == 2
    owned = int((sc.s["tok_owner"] >= 0).sum())
    assert owned == 5 and all(in_hand(sc, i) for i in range(K.NUM_ABILITY_TOKENS))


def test_character_draft_seats_pick_in_turn_as_their_decision():
    e = labyrinth_env.make(ENV_ID, num_players=3, character_draft=True)
    e.reset(seed=5)
    s = e.unwrapped.record
    assert int(s["decision"]) == K.D_DRAFT and e.agent_selection == "player_0"
    mask = e.observe("player_0")["action_mask"]
    assert {a - K.A_DRAFT for a in np.flatnonzero(mask)} == {NAME[n] for n in READY}
    e.step(K.A_DRAFT + C.WAR_SISTER)
    assert e.agent_selection == "player_1"
    mask = e.observe("player_1")["action_mask"]
    assert not mask[K.A_DRAFT + C.WAR_SISTER], "a character is taken once"
    e.step(K.A_DRAFT + C.WARLOCK)
    e.step(K.A_DRAFT + C.GOLEM_MISTRESS)
    assert [int(c) for c in s["character"][:3]] == [C.WAR_SISTER, C.WARLOCK, C.GOLEM_MISTRESS]
    assert int(s["decision"]) == K.D_MAIN and int(s["decider"]) == int(s["seat"]), "the first turn begins"
    assert sum(1 for i in range(K.NUM_ABILITY_TOKENS) if s["tok_owner"][i] == 1) == 3, "the Warlock's tokens"


def test_character_draft_two_players_never_offers_the_excluded_l499():
    e = labyrinth_env.make(ENV_ID, num_players=2, character_draft=True)
    e.reset(seed=1)
    mask = e.observe("player_0")["action_mask"]
    assert not mask[K.A_DRAFT + C.GOLEM_MISTRESS] and not mask[K.A_DRAFT + C.ARCH_PRIESTESS]


def test_characters_and_tokens_are_public_in_every_observation():
    sc = Scenario(num_players=3, characters=["Warlock", "Paladin", "Swordmaster"])
    sc.lay_line(0)
    t = tokens_of(sc, 0, C.TOK_HELLFIRE)[0]
    lay(sc, t, N19)
    for viewer in range(3):
        obs = sc.observe(viewer)
        for p, c in enumerate((C.WARLOCK, C.PALADIN, C.SWORDMASTER)):
            b = K.OBS_SEATS + ((p - viewer) % 3) * K.SEAT_FEATURES
            assert obs[b + K.S_CHARACTER + c] == 1.0 and obs[b + K.S_CHARACTER : b + K.S_TOKENS].sum() == 1.0
        b0 = K.OBS_SEATS + ((0 - viewer) % 3) * K.SEAT_FEATURES
        assert obs[b0 + K.S_TOKENS + C.TOK_HELLFIRE] == pytest.approx(2 / 3), "two Hellfire tokens left in hand"
        assert obs[N19 * K.NODE_FEATURES + K.F_TOKEN + C.TOK_HELLFIRE] == 1.0
        assert obs[N19 * K.NODE_FEATURES + K.F_TOKEN_OWNER + (0 - viewer) % 3] == 1.0


# =====================================================================================
# The rulebook's combat examples
# =====================================================================================
def test_war_sister_fury_and_dismember_against_the_swordmaster_rulebook_example_l445():
    # Christopher (seat 1, Swordmaster) and Robert (seat 2, Warlock) on one corridor; Ann
    # (seat 0, War Sister) enters it and attacks Christopher.
    sc = arena(["War Sister", "Swordmaster", "Warlock"])
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, N20)
    sc.give_key(1, 4)
    sc.move(EAST)
    assert sc.decision == K.D_FREE_ATTACK and sc.decider == 0
    sc.rolls(8, 6)  # Ann 6+2=8; Christopher 6, +3: 9
    evs = sc.step(K.A_FREE_ATTACK + 0)
    assert combats(evs) == [(0, 1, 8, 9)]
    assert sc.decision == K.D_FURY and sc.decider == 0, "Ann, losing, may use Fury"
    evs = sc.step(K.A_FURY)
    assert ev(K.EV_FURY, 0, 10) in evs and ev(K.EV_LIFE, 0, -1, 3) in evs
    assert ev(K.EV_DISMEMBER, 0, 1) in evs and ev(K.EV_LIFE, 1, -4, 0) in evs, "he loses all his Life"
    assert ev(K.EV_DEATH, 1, N20) in evs and ev(K.EV_DROP, 1, K.TOKEN_KEY, 4, N20) in evs
    assert sc.pos(1) == sc.start_of(1) and life(sc, 1) == 4, "back on his starting space with 4 Life"
    assert sc.decision == K.D_FREE_ATTACK and sc.decider == 0, "Ann could attack Robert"
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_COUNTER and sc.decider == 2, "Robert could attack Ann"
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_PICKUP and sc.legal(K.A_PICK_KEY + 4)
    sc.step(K.A_PICK_KEY + 4)
    assert int(sc.s["key_holder"][4]) == 0 and life(sc, 0) == 3


def test_golem_mistress_domination_and_the_tie_rulebook_example_l447():
    # Roger (seat 1, Golem Mistress) on the central space; Keith (seat 0, Paladin) enters
    # with a key; a third player elsewhere (the Golem Mistress is not in 2-player games).
    sc = arena(["Paladin", "Golem Mistress", "Swordmaster"])
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.put(2, N16)
    sc.give_key(0, 3)
    sc.place_trap(N17, TRAP["Spiked Pit"])
    sc.move(WEST)
    assert sc.decision == K.D_FREE_ATTACK and sc.decider == 0
    sc.rolls(9, 8, 12, 10)  # 9 : 8+1 a tie, both repeated; 12 : 10+1, Roger loses
    evs = sc.step(K.A_FREE_ATTACK + 0)
    assert combats(evs) == [(0, 1, 12, 11)] and life(sc, 1) == 3
    assert sc.decision == K.D_PUSH_DIR and sc.decider == 0, "Keith pushes Roger out"
    sc.rolls(5)  # Roger's Trap Check
    evs = sc.step(K.A_PUSH_DIR + WEST)
    kinds = [e[0] for e in evs]
    assert ev(K.EV_PUSHED_OUT, 1, CENTRE, N17) in evs
    assert kinds.index(K.EV_TRAP_CHECK) < kinds.index(K.EV_WIN), "Roger explores, a Trap Check"
    assert int(sc.s["outcome"]) == K.WON and int(sc.s["winner"]) == 0, "alone with a key in his turn"


# =====================================================================================
# Each ability
# =====================================================================================
def test_swordmaster_plus_3_to_all_combat_checks():
    sc = arena(["Swordmaster", "Paladin"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(5, 7)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, 8, 7)] and life(sc, 1) == 3, "attacking"
    sc.fresh_turn(1)
    sc.rolls(9, 5)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(1, 0, 9, 8)] and life(sc, 0) == 3, "defending too"


def test_fury_once_per_combat_and_never_with_the_last_life():
    sc = arena(["War Sister", "Swordmaster"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(0, life=1)
    sc.rolls(5, 7)
    evs = sc.step(K.A_ATTACK)
    assert sc.decision != K.D_FURY and ev(K.EV_DEATH, 0, N19) in evs, "with her last Life, no Fury"
    sc = arena(["War Sister", "Swordmaster"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(2, 2)  # 2 : 5, Fury brings 4: she still loses, and is not asked again
    sc.step(K.A_ATTACK)
    assert sc.decision == K.D_FURY
    evs = sc.step(K.A_FURY)
    assert ev(K.EV_FURY, 0, 4) in evs and life(sc, 0) == 2 and sc.decision == K.D_MAIN


def test_fury_that_makes_a_tie_repeats_both_checks():
    sc = arena(["War Sister", "Swordmaster"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(8, 7, 12, 2)  # 8 : 10; Fury 10 : 10, a tie: 12 : 5
    sc.step(K.A_ATTACK)
    evs = sc.step(K.A_FURY)
    assert combats(evs) == [(0, 1, 12, 5)]
    assert life(sc, 1) == 0 or ev(K.EV_DEATH, 1, N19) in evs, "won: Dismember"


def test_dismember_the_loser_loses_all_life():
    sc = arena(["War Sister", "Paladin"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(1, life=3)
    sc.rolls(9, 4)
    evs = sc.step(K.A_ATTACK)
    assert ev(K.EV_DISMEMBER, 0, 1) in evs and ev(K.EV_LIFE, 1, -3, 0) in evs and ev(K.EV_DEATH, 1, N19) in evs


def test_golem_mistress_golem_check_can_pass_12_l296():
    sc = arena(["Golem Mistress", "Swordmaster", "Paladin"])
    sc.put(0, N19)
    sc.golem(N20)
    sc.rolls(10)
    evs = sc.move(EAST)
    assert ev(K.EV_GOLEM_CHECK, 0, 12, 1) in evs and sc.pos(0) == N20, "10 + 2 passes"
    sc = arena(["Golem Mistress", "Swordmaster", "Paladin"])
    sc.put(0, N19)
    sc.golem(N20)
    sc.rolls(12)
    evs = sc.move(EAST)
    assert ev(K.EV_GOLEM_CHECK, 0, 14, 1) in evs, "greater than 12"


def test_lay_token_one_action_on_own_corridor_not_central_nor_start():
    sc = arena(["Warlock", "Paladin"])
    sc.put(0, N19)
    assert sc.legal(K.A_LAY_TOKEN)
    evs = sc.step(K.A_LAY_TOKEN)
    t = tokens_of(sc, 0, C.TOK_HELLFIRE)[0]
    assert ev(K.EV_TOKEN_LAID, 0, C.TOK_HELLFIRE, N19) in evs and int(sc.s["tok_node"][t]) == N19
    assert int(sc.s["actions_left"]) == 1
    assert not sc.legal(K.A_LAY_TOKEN), "one Hellfire token per corridor"
    sc.fresh_turn(0)
    sc.put(0, CENTRE)
    assert not sc.legal(K.A_LAY_TOKEN), "not on the central space"
    sc.put(0, START0)
    sc.fresh_turn(0)
    assert not sc.legal(K.A_LAY_TOKEN), "not on a starting space"


def test_warlock_hellfire_token_burns_another_character_and_returns():
    sc = arena(["Warlock", "Paladin"])
    t = tokens_of(sc, 0, C.TOK_HELLFIRE)[0]
    lay(sc, t, N20)
    sc.put(0, N19)
    evs = sc.move(EAST)
    assert life(sc, 0) == 4 and int(sc.s["tok_node"][t]) == N20, "its owner walks through"
    sc.fresh_turn(1)
    sc.put(0, N21)
    sc.put(1, N19)
    evs = sc.move(EAST)
    assert ev(K.EV_TOKEN_EFFECT, 1, C.TOK_HELLFIRE, N20, 0) in evs and life(sc, 1) == 3
    assert in_hand(sc, t) and ev(K.EV_TOKEN_RETURNED, 0, C.TOK_HELLFIRE, N20) in evs


def test_witch_curse_token_stuns_another_character():
    sc = arena(["Witch", "Paladin"])
    t = tokens_of(sc, 0, C.TOK_CURSE)[0]
    lay(sc, t, N20)
    sc.fresh_turn(1)
    sc.put(1, N19)
    evs = sc.move(EAST)
    assert ev(K.EV_TOKEN_EFFECT, 1, C.TOK_CURSE, N20, 0) in evs and int(sc.s["stun"][1]) == 1 and in_hand(sc, t)


def test_paladin_faith_token_heals_its_owner_only():
    sc = arena(["Paladin", "Warlock"])
    t = tokens_of(sc, 0, C.TOK_FAITH)[0]
    lay(sc, t, N20)
    sc.set(0, life=2)
    sc.put(0, N19)
    evs = sc.move(EAST)
    assert ev(K.EV_TOKEN_EFFECT, 0, C.TOK_FAITH, N20, 0) in evs and life(sc, 0) == 3
    assert int(sc.s["tok_node"][t]) == N20, "it stays"
    sc.fresh_turn(1)
    sc.set(1, life=2)
    sc.put(0, N21)
    sc.put(1, N19)
    sc.move(EAST)
    assert life(sc, 1) == 2, "no one else"


def test_stormcaller_tornado_throws_another_character_back():
    sc = arena(["Stormcaller", "Paladin"])
    t = tokens_of(sc, 0, C.TOK_TORNADO)[0]
    lay(sc, t, N20)
    sc.fresh_turn(1)
    sc.put(1, N19)
    evs = sc.move(EAST)
    assert ev(K.EV_TOKEN_EFFECT, 1, C.TOK_TORNADO, N20, 0) in evs and ev(K.EV_THROWN_BACK, 1, N20, N19) in evs
    assert sc.pos(1) == N19 and int(sc.s["tok_node"][t]) == N20


def test_ability_tokens_resolved_first_in_the_active_players_order_l187():
    sc = arena(["Warlock", "Witch", "Paladin"])
    hell = tokens_of(sc, 0, C.TOK_HELLFIRE)[0]
    curse = tokens_of(sc, 1, C.TOK_CURSE)[0]
    lay(sc, hell, N20)
    lay(sc, curse, N20)
    sc.place_trap(N20, TRAP["Spiked Pit"])
    sc.fresh_turn(2)
    sc.put(2, N19)
    sc.move(EAST)
    assert sc.decision == K.D_TOKEN_ORDER and sc.decider == 2, "step 1, before the trap (step 3)"
    assert sc.legal(K.A_RESOLVE_TOKEN + hell) and sc.legal(K.A_RESOLVE_TOKEN + curse)
    evs = sc.step(K.A_RESOLVE_TOKEN + curse)
    kinds = [e[0] for e in evs]
    effects = [e[2] for e in events_of(evs, K.EV_TOKEN_EFFECT)]
    assert effects == [C.TOK_CURSE, C.TOK_HELLFIRE], "in the chosen order"
    assert K.EV_TRAP_REVEALED not in kinds or kinds.index(K.EV_TRAP_REVEALED) > kinds.index(K.EV_TOKEN_EFFECT)


def test_ability_token_order_is_the_active_players_when_another_explores():
    # A pushed character explores; the active player (the winner) orders its tokens.
    sc = arena(["Warlock", "Witch", "Paladin"])
    lay(sc, tokens_of(sc, 0, C.TOK_HELLFIRE)[0], N17)
    lay(sc, tokens_of(sc, 1, C.TOK_CURSE)[0], N17)
    sc.put(0, N19)
    sc.put(2, CENTRE)
    sc.move(WEST)
    sc.rolls(11, 3)
    sc.step(K.A_FREE_ATTACK + 1)
    sc.step(K.A_PUSH_DIR + WEST)
    assert sc.decision == K.D_TOKEN_ORDER and sc.decider == 0


def test_architect_rebuild_removes_a_normal_tile_and_returns_its_tokens_l152():
    sc = arena(["Architect", "Warlock"], crystals=True)
    sc.put(0, N16)
    n20_tile = int(sc.s["cell_tile"][20])
    hell = tokens_of(sc, 1, C.TOK_HELLFIRE)[0]
    lay(sc, hell, N20)
    trap = sc.place_trap(N20, TRAP["Spiked Pit"])
    sc.place_item(0, N20)
    traps_before = int(sc.s["trap_pool_len"])
    assert sc.legal(K.A_REBUILD + 20)
    evs = sc.step(K.A_REBUILD + 20)
    assert ev(K.EV_REBUILD, 0, n20_tile, 20) in evs
    assert int(sc.s["cell_tile"][20]) == -1 and int(sc.s["tile_pool"][0]) == n20_tile, "to the bottom of the pool"
    assert in_hand(sc, hell) and int(sc.s["tok_owner"][hell]) == 1, "back to its owner"
    assert int(sc.s["trap_pool_len"]) == traps_before + 1 and trap in sc.s["trap_pool"][: traps_before + 1]
    assert int(sc.s["item_node"][0]) == -1 and 0 in sc.s["item_pool"][: int(sc.s["item_pool_len"])]
    assert int(sc.s["crystal"][0]) == 0 and int(sc.s["actions_left"]) == 1, "1 action and the Crystal (l.346)"


def test_architect_rebuild_never_frame_central_or_key_spaces_l171():
    sc = arena(["Architect", "Warlock"], crystals=True)
    sc.put(0, N16)
    mask = sc.mask()
    assert not mask[K.A_REBUILD + CENTER] and not mask[K.A_REBUILD + 21], "central, key space"
    assert mask[K.A_REBUILD + 19] and not mask[K.A_REBUILD + 16], "not the tile he stands on"
    sc.place_key(3, N19)
    assert not sc.legal(K.A_REBUILD + 19), "never a tile with a key token (l.152)"
    sc.set(0, crystal=0)
    assert not sc.mask()[K.A_REBUILD : K.A_REBUILD + K.NUM_BOARD].any(), "needs the Crystal"


def test_terror_stops_abilities_but_tokens_on_the_board_stay_active_l317():
    sc = arena(["Swordmaster", "Warlock"])
    sc.set_event(EVENT["Terror"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(5, 7)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, 5, 7)], "no +3 under Terror"
    hell = tokens_of(sc, 1, C.TOK_HELLFIRE)[0]
    lay(sc, hell, N20)
    sc.fresh_turn(1)
    assert not sc.legal(K.A_LAY_TOKEN), "no new token"
    sc.fresh_turn(0)
    sc.put(0, N19)
    evs = sc.move(EAST)
    assert ev(K.EV_TOKEN_EFFECT, 0, C.TOK_HELLFIRE, N20, 1) in evs, "the token already in the game works"


def test_terror_stops_fury_and_dismember():
    sc = arena(["War Sister", "Paladin"])
    sc.set_event(EVENT["Terror"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(3, 7)
    sc.step(K.A_ATTACK)
    assert sc.decision != K.D_FURY
    sc.fresh_turn(0)
    sc.rolls(9, 2)
    sc.step(K.A_ATTACK)
    assert life(sc, 1) == 3, "one Life, no Dismember"


def test_architect_rebuild_moves_a_tile_built_again_by_the_build_rules():
    sc = arena(["Architect", "Warlock"], crystals=True)
    sc.put(0, N16)
    tile = int(sc.s["cell_tile"][20])
    hell = tokens_of(sc, 1, C.TOK_HELLFIRE)[0]
    lay(sc, hell, N20)
    evs = sc.step(K.A_MOVE_TILE + 20)
    assert ev(K.EV_REBUILD, 0, tile, 20, 1) in evs and in_hand(sc, hell), "l.152 for its tokens"
    assert sc.decision == K.D_PLACE and sc.decider == 0 and int(sc.s["drawn_tile"]) == tile
    place = int(np.flatnonzero(sc.mask())[0])
    cell = (place - K.A_PLACE) // 6
    sc.step(place)
    assert int(sc.s["cell_tile"][cell]) == tile and int(sc.s["crystal"][0]) == 0


def test_arch_priestess_consecration_no_combat_on_the_corridor():
    sc = arena(["Arch-priestess", "Swordmaster", "Paladin"])
    t = tokens_of(sc, 0, C.TOK_CONSECRATION)[0]
    lay(sc, t, N20)
    sc.put(0, N20)
    sc.put(1, N20)
    assert not sc.mask()[K.A_ATTACK : K.A_SET_TRAP].any(), "no Attack there"
    sc.fresh_turn(2)
    sc.put(2, N19)
    sc.move(EAST)
    assert sc.decision == K.D_MAIN and sc.decider == 2, "no free attack either"
    lay(sc, t, -1)
    sc.fresh_turn(2)
    assert sc.legal(K.A_ATTACK + 0), "without the token, combat again"


def test_sorcerer_chaos_portal_sends_another_character_to_another_portal():
    sc = arena(["Sorcerer", "Paladin"])
    a, b, _ = tokens_of(sc, 0, C.TOK_CHAOS_PORTAL)
    lay(sc, a, N20)
    lay(sc, b, N16)
    sc.place_key(2, N20, dropped_by=-1)
    sc.fresh_turn(1)
    sc.put(1, N19)
    evs = sc.move(EAST)
    assert ev(K.EV_PORTAL, 1, N20, N16) in evs and sc.pos(1) == N16
    assert sc.decision != K.D_PICKUP, "placed, it picks nothing up"
    sc.fresh_turn(0)
    sc.put(0, N19)
    evs = sc.move(EAST)
    assert sc.pos(0) == N20, "its owner is not sent"


def test_warden_seal_no_other_character_picks_up_there_the_golem_ignores_it_l285_l287():
    # l.287 "The Golem ignores all tokens placed on corridors, including trap tokens."; l.285
    # "The active player must move the Golem as many times as shown on the card drawn."
    sc = arena(["Warden", "Paladin"])
    t = tokens_of(sc, 0, C.TOK_SEAL)[0]
    sc.golem(N19)
    lay(sc, t, N20)
    assert K.golem_options(sc.s) & (1 << EAST), "the Golem goes into a sealed corridor as into any"
    sc.place_key(0, N20)
    sc.place_item(0, N20)
    sc.golem(PARK)
    sc.fresh_turn(1)
    sc.put(1, N19)
    sc.move(EAST)
    assert sc.decision == K.D_MAIN and not sc.legal(K.A_PICK_UP), "sealed: the Paladin picks up nothing"
    assert int(sc.s["key_node"][0]) == N20 and int(sc.s["item_node"][0]) == N20
    sc.fresh_turn(0)
    sc.put(0, N20)
    assert sc.legal(K.A_PICK_UP), "the Warden himself may"
    sc.s["tok_node"][t] = -1
    sc.fresh_turn(1)
    assert sc.legal(K.A_PICK_UP), "the Seal gone, the Paladin may"


def test_armourer_living_armor_plus_2_on_its_corridor():
    sc = arena(["Armourer", "Paladin"])
    t = tokens_of(sc, 0, C.TOK_LIVING_ARMOR)[0]
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(6, 7)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, 6, 7)], "away from it, no bonus"
    lay(sc, t, N19)
    sc.rolls(6, 7)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, 8, 7)]


def test_thief_steals_a_key_when_he_wins():
    sc = arena(["Thief", "Paladin"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.give_key(1, 2)
    sc.rolls(9, 4)
    evs = sc.step(K.A_ATTACK)
    assert ev(K.EV_STEAL, 0, 1, 2) in evs and int(sc.s["key_holder"][2]) == 0 and life(sc, 1) == 3


def test_shapeshifter_change_keeps_life_crystal_stun_keys_items_l459_461():
    sc = arena(["Shapeshifter", "Paladin"], crystals=True)
    sc.put(0, N19)
    sc.set(0, life=2)
    sc.give_key(0, 1)
    sc.give_items(0, 3)
    assert not sc.legal(K.A_SHAPESHIFT + C.PALADIN), "not a character in play"
    assert not sc.legal(K.A_SHAPESHIFT + C.GOLEM_MISTRESS), "not one the 2-player setup excludes"
    evs = sc.step(K.A_SHAPESHIFT + C.WARLOCK)
    assert ev(K.EV_CHARACTER, 0, C.WARLOCK, K.CHAR_CHANGED) in evs and int(sc.s["character"][0]) == C.WARLOCK
    assert life(sc, 0) == 2 and int(sc.s["key_holder"][1]) == 0 and int(sc.s["items"][0, 0]) == 3
    assert int(sc.s["crystal"][0]) == 0 and int(sc.s["actions_left"]) == 1, "1 action and the Crystal"
    assert len(tokens_of(sc, 0, C.TOK_HELLFIRE)) == 3, "the new character's tokens (l.463)"


def test_changing_characters_old_tokens_stay_but_do_not_benefit_l462_l463():
    sc = arena(["Paladin", "Warlock"])
    faith = tokens_of(sc, 0, C.TOK_FAITH)
    lay(sc, faith[0], N20)
    K.change_character(sc.s, 0, C.WITCH)
    assert int(sc.s["tok_owner"][faith[0]]) == 0 and int(sc.s["tok_node"][faith[0]]) == N20, "stays on the board"
    assert all(int(sc.s["tok_owner"][i]) == -1 for i in faith[1:]), "those in hand go back to the box"
    assert len(tokens_of(sc, 0, C.TOK_CURSE)) == 3, "the Witch's tokens are taken"
    sc.set(0, life=2)
    sc.put(0, N19)
    sc.move(EAST)
    assert life(sc, 0) == 2, "the new character cannot benefit from the old token"
    hell = tokens_of(sc, 1, C.TOK_HELLFIRE)[0]
    lay(sc, hell, N16)
    K.change_character(sc.s, 1, C.STORMCALLER)
    sc.fresh_turn(1)
    sc.put(1, N17)
    evs = sc.move(WEST)
    assert ev(K.EV_TOKEN_EFFECT, 1, C.TOK_HELLFIRE, N16, 1) in evs, "no longer spared by his old Hellfire"
    assert int(sc.s["tok_owner"][hell]) == -1, "returned, it goes to the box: no one plays the Warlock"


# =====================================================================================
# The heuristic uses each character's main ability
# =====================================================================================
def heuristic(sc: Scenario) -> int:
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    return int(H.heuristic_action(sc.s, mask))


def test_heuristic_uses_fury_when_it_wins_the_combat():
    sc = arena(["War Sister", "Paladin"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(7, 8)
    sc.step(K.A_ATTACK)
    assert sc.decision == K.D_FURY and heuristic(sc) == K.A_FURY, "7 + 2 beats 8"
    sc = arena(["War Sister", "Paladin"])
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(3, 9)
    sc.step(K.A_ATTACK)
    assert sc.decision == K.D_FURY and heuristic(sc) == K.A_NO_FURY, "3 + 2 is still lost: keep the Life"


def test_heuristic_shapeshifter_changes_into_the_swordmaster():
    sc = arena(["Shapeshifter", "Paladin"], crystals=True)
    sc.put(0, N19)
    assert heuristic(sc) == K.A_SHAPESHIFT + C.SWORDMASTER


def test_heuristic_lays_a_token_next_to_the_central_space():
    sc = arena(["Warlock", "Paladin"])
    sc.put(0, N19)  # next to the centre
    assert heuristic(sc) == K.A_LAY_TOKEN
    sc.put(0, N20)
    assert heuristic(sc) != K.A_LAY_TOKEN, "not on a corridor no one needs to pass"


def test_heuristic_architect_cuts_a_key_carriers_way():
    sc = arena(["Architect", "Paladin"], crystals=True)
    sc.put(0, N16)
    sc.put(1, N21)  # on key space 0 with a key, the centre three steps west
    sc.give_key(1, 3)
    a = heuristic(sc)
    assert a in (K.A_REBUILD + 20, K.A_REBUILD + 19), "a tile on the carrier's way to the centre"


# =====================================================================================
# labyrinth_env.core.characters (shared with the 2011 edition)
# =====================================================================================
def test_core_characters_deal_draws_distinct_allowed_characters_from_the_rng():
    allowed = 0b1011_0110_1101
    seen = set()
    for seed in range(200):
        opts = np.zeros(8, dtype=np.int32)
        CH.encode(opts, 1, "random", C.CHARACTER_NAMES, False)
        rng = np.array([np.uint64(seed * 7 + 1)], dtype=np.uint64)
        out = np.full(6, -9, dtype=np.int64)
        assert CH.deal(opts, 1, rng, out, 5, allowed) == CH.MODE_RANDOM
        dealt = out[:5].tolist()
        assert len(set(dealt)) == 5 and all((allowed >> c) & 1 for c in dealt) and out[5] == -1
        seen.update(dealt)
    assert seen == {c for c in range(12) if (allowed >> c) & 1}


def test_core_characters_listed_and_draft_modes():
    opts = np.zeros(8, dtype=np.int32)
    CH.encode(opts, 1, ("Witch", "Thief"), C.CHARACTER_NAMES, False)
    out = np.full(6, -9, dtype=np.int64)
    rng = np.array([np.uint64(3)], dtype=np.uint64)
    assert CH.deal(opts, 1, rng, out, 2, 0) == CH.MODE_LIST and out[:2].tolist() == [C.WITCH, C.THIEF]
    CH.encode(opts, 1, "random", C.CHARACTER_NAMES, True)
    assert CH.deal(opts, 1, rng, out, 3, 0b111) == CH.MODE_DRAFT and (out == -1).all(), "the draft deals nothing"
    out[1] = 2
    assert CH.draft_seat(out, 3, 0) == 0 and CH.draft_seat(out, 3, 1) == 2
    mask = np.zeros(10, dtype=np.uint8)
    CH.draft_mask(out, 3, 0b111, mask, 4, 3)
    assert mask.tolist() == [0, 0, 0, 0, 1, 1, 0, 0, 0, 0], "a character taken is not offered"


# =====================================================================================
# The Illusionist: face-down tiles whose orientation she decides (l.465)
# =====================================================================================
DEAD_END, TRAPPED_NICHE = 0, 2  # one corridor, edge 0 (the Niche with a trap icon)


def face_down(sc: Scenario, cell: int, owner: int, tile: int) -> None:
    """A face-down tile of ``owner`` on the empty ``cell`` (taken from the pool)."""
    sc._take_from_pool(tile)
    s = sc.s
    s["fd_owner"][cell] = owner
    s["fd_tile"][cell] = tile
    s["cell_built"][cell] = 1


def rotations_onto(tile: int, edge: int) -> set[int]:
    """The rotations of ``tile`` with a corridor on ``edge``."""
    return {
        r
        for r in range(6)
        for k in range(K.MC)
        if C.TILE_CORRIDOR_LEVEL[tile, k] >= 0 and (int(ROTATE_HEX[int(C.TILE_CORRIDOR_MASK[tile, k]), r]) >> edge) & 1
    }


def test_illusionist_illusion_lays_the_top_tile_face_down_unseen_for_1_action():
    sc = arena(["Illusionist", "Warlock"])
    sc.clear_cell(20)
    sc.put(0, N19)
    n = int(sc.s["tile_pool_len"])
    top = int(sc.s["tile_pool"][n - 1])
    assert not sc.legal(K.A_FACE_DOWN + 19), "not on a built space"
    far = next(c for c in range(K.NUM_BOARD) if not sc.s["cell_built"][c] and not K.buildable_cell(sc.s, c))
    assert not sc.legal(K.A_FACE_DOWN + far), "only next to the board (l.141)"
    evs = sc.step(K.A_FACE_DOWN + 20)
    assert ev(K.EV_FACE_DOWN, 0, 20) in evs, "the event names no tile"
    assert int(sc.s["fd_owner"][20]) == 0 and int(sc.s["fd_tile"][20]) == top
    assert int(sc.s["tile_pool_len"]) == n - 1 and int(sc.s["actions_left"]) == 1
    assert sc.s["cell_built"][20] and not sc.s["node_mask"][20 * K.MC : 21 * K.MC].any(), "closed: no corridor"
    sc.fresh_turn(1)
    sc.put(1, N16)
    assert not sc.mask()[K.A_FACE_DOWN : K.A_ORIENT].any(), "the Illusionist's ability only"


def test_illusion_never_closes_the_last_way_to_a_key_space_l142_l143():
    sc = arena(["Illusionist", "Warlock"])
    sc.clear_cell(20)
    sc.lay(14, "03")  # key space 0 (cell 21) is now reached through cell 20 only
    sc.lay(27, "03")
    sc.put(0, N19)
    assert not sc.legal(K.A_FACE_DOWN + 20), "a closed space there cuts key space 0 off"
    assert sc.legal(K.A_FACE_DOWN + 13)


def test_nothing_is_built_or_laid_on_a_face_down_tile():
    sc = arena(["Illusionist", "Architect"], crystals=True)
    sc.clear_cell(20)
    sc.put(0, N19)
    sc.step(K.A_FACE_DOWN + 20)
    sc.fresh_turn(1)
    sc.put(1, N16)
    mask = sc.mask()
    assert not mask[K.A_SET_TRAP + 20 * K.MC : K.A_SET_TRAP + 21 * K.MC].any(), "no trap on it"
    assert not mask[K.A_REBUILD + 20] and not mask[K.A_MOVE_TILE + 20], "Rebuild cannot take it"
    sc.step(K.A_BUILD)
    assert sc.decision == K.D_PLACE
    assert not sc.mask()[K.A_PLACE + 20 * 6 : K.A_PLACE + 21 * 6].any(), "no tile is built onto it"


def test_entering_a_face_down_tile_reveals_it_and_the_illusionist_orients_it_l465():
    sc = arena(["Illusionist", "Warlock"])
    sc.clear_cell(20)
    face_down(sc, 20, 0, DEAD_END)
    sc.fresh_turn(1)
    sc.put(1, N19)
    evs = sc.move(EAST)
    assert sc.decision == K.D_ORIENT and sc.decider == 0, "she decides, though it is his turn (l.465)"
    legal = {a - K.A_ORIENT for a in sc.legal_actions()}
    assert legal == rotations_onto(DEAD_END, WEST) and len(legal) == 1, "a corridor on the edge he enters by"
    assert int(sc.s["actions_left"]) == 1 and sc.pos(1) == N19, "the Move is spent; he waits on the edge"
    r = legal.pop()
    evs = sc.step(K.A_ORIENT + r)
    assert ev(K.EV_REVEALED, 0, DEAD_END, 20, r, 1) in evs
    assert int(sc.s["fd_owner"][20]) == -1 and int(sc.s["cell_tile"][20]) == DEAD_END
    assert sc.pos(1) == N20 and ev(K.EV_MOVE, 1, N19, N20) in evs, "he enters it and explores it"


def test_a_revealed_face_down_tile_lays_its_icons_trap_explored_at_once():
    sc = arena(["Illusionist", "Warlock"])
    sc.clear_cell(20)
    face_down(sc, 20, 0, TRAPPED_NICHE)
    sc.next_trap(TRAP["Spiked Pit"])
    sc.fresh_turn(1)
    sc.put(1, N19)
    sc.move(EAST)
    r = next(iter(rotations_onto(TRAPPED_NICHE, WEST)))
    sc.rolls(2)
    evs = sc.step(K.A_ORIENT + r)
    assert ev(K.EV_TRAP_PLACED, 1, N20) in evs, "the trap icon draws a trap (l.149), by the active player"
    assert events_of(evs, K.EV_TRAP_CHECK) and life(sc, 1) == 3, "he explores the corridor: its trap (l.189)"


def test_the_golem_stepping_into_a_face_down_tile_reveals_it_l465():
    sc = arena(["Illusionist", "Warlock"])
    sc.clear_cell(20)
    face_down(sc, 20, 0, DEAD_END)
    sc.fresh_turn(1)
    sc.put(1, N16)
    sc.golem(N19)
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    sc.step(K.A_MOVE_GOLEM)
    assert sc.decision == K.D_GOLEM_DIR and sc.legal(K.A_GOLEM_DIR + EAST), "the Golem may go into it"
    sc.golem_dir(EAST)
    assert sc.decision == K.D_ORIENT and sc.decider == 0, "the Illusionist orients it"
    r = next(iter(rotations_onto(DEAD_END, WEST)))
    evs = sc.step(K.A_ORIENT + r)
    assert ev(K.EV_REVEALED, 0, DEAD_END, 20, r, -1) in evs
    assert int(sc.s["golem_node"]) == N20 and int(sc.s["golem_steps"]) == 0, "its step ends on the tile"


def test_changing_characters_whoever_enters_the_illusionists_tile_orients_it_l465():
    sc = arena(["Illusionist", "Warlock"])
    sc.clear_cell(20)
    sc.clear_cell(17)
    face_down(sc, 20, 0, DEAD_END)
    face_down(sc, 17, 0, DEAD_END)
    K.change_character(sc.s, 0, C.WITCH)
    sc.fresh_turn(1)
    sc.put(1, N19)
    sc.move(EAST)
    assert sc.decision == K.D_ORIENT and sc.decider == 1, "the character entering decides"
    sc.step(K.A_ORIENT + next(iter(rotations_onto(DEAD_END, WEST))))
    sc.fresh_turn(1)
    sc.golem(CENTRE)
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    sc.step(K.A_MOVE_GOLEM)
    sc.golem_dir(WEST)
    assert sc.decision == K.D_ORIENT and sc.decider == 1, "revealing it with the Golem: the active player decides"


def test_terror_stops_illusion_but_her_face_down_tiles_stay_hers_l317():
    sc = arena(["Illusionist", "Warlock"])
    sc.clear_cell(20)
    face_down(sc, 20, 0, DEAD_END)
    sc.set_event(EVENT["Terror"])
    sc.put(0, N16)
    assert not sc.mask()[K.A_FACE_DOWN : K.A_ORIENT].any(), "no ability is used under Terror"
    sc.fresh_turn(1)
    sc.put(1, N19)
    sc.move(EAST)
    assert sc.decider == 0, "a tile already in the game: she still orients it"


def test_face_down_tile_hidden_from_every_seat_and_resampled_by_determinize():
    sc = arena(["Illusionist", "Warlock", "Witch"])
    sc.clear_cell(20)
    sc.put(0, N19)
    sc.step(K.A_FACE_DOWN + 20)
    before = [sc.observe(p) for p in range(3)]
    n = int(sc.s["tile_pool_len"])
    hidden = int(sc.s["fd_tile"][20])
    other = int(sc.s["tile_pool"][0])
    sc.s["fd_tile"][20], sc.s["tile_pool"][0] = other, hidden
    assert all(np.array_equal(before[p], sc.observe(p)) for p in range(3)), "no seat sees which tile it is"
    seen = set()
    for seed in range(40):
        trial = sc.states.copy()
        K.determinize(trial[0], 2, np.uint64(seed))
        seen.add(int(trial[0]["fd_tile"][20]))
        unknown = sorted([*trial[0]["tile_pool"][:n].tolist(), int(trial[0]["fd_tile"][20])])
        assert unknown == sorted([*sc.s["tile_pool"][:n].tolist(), other])
        assert np.array_equal(before[2], _observe(trial, 2))
    assert len(seen) > 5, "the face-down tile is dealt again from the unknown tiles"


def _observe(states, seat):
    out = np.zeros(K.OBS_SIZE, dtype=np.float32)
    K.observe(states[0], seat, out)
    return out


def test_heuristic_illusionist_lays_a_face_down_tile_in_a_key_carriers_way():
    sc = arena(["Illusionist", "Warlock"])
    sc.clear_cell(19)
    sc.put(0, N16)
    sc.put(1, N20)
    sc.give_key(1, 2)
    a = heuristic(sc)
    assert a == K.A_FACE_DOWN + 19, K.DECISIONS[sc.decision]


def test_heuristic_illusionist_orients_the_tile_against_a_rival():
    # a one-corridor tile that some of its turns open onto the central space, others not
    tile = next(
        t
        for t in range(C.NUM_NORMAL_TILES)
        if C.TILE_CORRIDOR_LEVEL[t, 1] < 0
        and {r for r in rotations_onto(t, EAST) if r not in rotations_onto(t, WEST)}
        and rotations_onto(t, EAST) & rotations_onto(t, WEST)
    )
    sc = arena(["Illusionist", "Warlock"])
    sc.clear_cell(19)
    face_down(sc, 19, 0, tile)
    sc.fresh_turn(1)
    sc.put(1, N20)
    sc.give_key(1, 2)
    sc.move(WEST)
    assert sc.decider == 0
    r = heuristic(sc) - K.A_ORIENT
    sc.step(K.A_ORIENT + r)
    assert not (int(sc.s["node_mask"][N19]) >> WEST) & 1, "not the way through to the central space"
