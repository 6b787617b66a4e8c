"""Scenario tests for the Paths of Destiny 3e rulebook: attack, the combat check, free
attacks, combat on the central space, character death, keys, items, the events' effects,
the Crystal of Fate and Poisoned Spears. One test (or a few) per rule, named after it, in
rulebook order; the dice-driven rules also get a statistical test from the event log. The
board, moving, jumps, traps in general, the Golem and the win are in
``tests/test_pod3e_rules_board.py``; ``docs/rules/paths_of_destiny_3e.md`` maps every rule
to these tests.

Board reference (see ``pod3e_helpers``): the centre is cell 18 (node 54); ``arena()`` lays
straight corridors east of the centre on cells 19 and 20 (nodes 57, 60), so that centre,
19, 20 and key space 0 (node 63) form one line, and west of it on cells 17 and 16 (nodes
51, 48) out to key space 3 (node 45). In a 2-player game seat 0 starts beyond key space 0
and seat 1 beyond key space 3; in a 3-player game the seats start at 0, 2 and 4. The
Golem is parked on key space 5, which no seat uses below 6 players.
"""

from __future__ import annotations

import numpy as np
import pytest
from hex_helpers import events_of, key_node_of, node
from pod3e_helpers import CENTER, Scenario, ev, start_node_of, trap_check

from labyrinth_env.core.rng import seed_state
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

CENTRE = node(CENTER)  # 54
N19, N20 = node(19), node(20)  # east of the centre, towards key space 0
N17, N16 = node(17), node(16)  # west of the centre, towards key space 3
KEY0, KEY3 = key_node_of(0), key_node_of(3)
START0, START3 = start_node_of(0), start_node_of(3)
PARK = key_node_of(5)  # the Golem's parking place
EAST, WEST = 0, 3  # directions along the line

ITEM = {name: i for i, name in enumerate(C.ITEM_NAMES)}
TRAP = {name: i for i, name in enumerate(C.TRAP_NAMES)}
EVENT = {name: i for i, name in enumerate(C.EVENT_NAMES)}
SWORD, DAGGER, HAMMER = ITEM["Flaming Sword"], ITEM["Shadow Dagger"], ITEM["Dwarven Warhammer"]
SHIELD, VEST = ITEM["Tower Shield"], ITEM["Chainmail Vest"]
BOOTS, AMULET, RUNE = ITEM["Winged Boots"], ITEM["Amulet of Warding"], ITEM["Rune of Binding"]
SCEPTER, HEART = ITEM["Scepter of Control"], ITEM["Heart of the Abyss"]
POTION, SALTS = ITEM["Healing Potion"], ITEM["Smelling Salts"]
SPEARS, PIT = TRAP["Poisoned Spears"], TRAP["Spiked Pit"]


def arena(num_players: int = 2, crystals: bool = False, **options) -> Scenario:
    """Straight corridors on 19, 20 (east) and 17, 16 (west) of the centre, the Golem parked,
    a fresh turn for seat 0; every Crystal of Fate inactive unless ``crystals``."""
    sc = Scenario(num_players=num_players, **options)
    sc.lay_line(0)
    sc.lay_line(3)
    sc.golem(PARK)
    for p in range(num_players):
        sc.set(p, crystal=1 if crystals else 0)
    return sc


def kinds(evs) -> list[int]:
    return [e[0] for e in evs]


def combats(evs) -> list[tuple[int, int, int, int]]:
    """(attacker, defender, attack total, defence total) of each combat in ``evs``."""
    return [(e[1], e[2], e[3], e[4]) for e in events_of(evs, K.EV_COMBAT)]


def life(sc: Scenario, seat: int) -> int:
    return int(sc.s["life"][seat])


def items_of(sc: Scenario, seat: int) -> list[int]:
    return [int(i) for i in sc.s["items"][seat]]


def keys_of(sc: Scenario, seat: int) -> list[int]:
    return [k for k in range(K.NUM_KEYS) if int(sc.s["key_holder"][k]) == seat]


def in_item_pool(sc: Scenario, item: int) -> bool:
    return item in sc.s["item_pool"][: int(sc.s["item_pool_len"])].tolist()


# =====================================================================================
# Attack: 1 action, a character on the same corridor, the target declared
# =====================================================================================
def test_attack_costs_one_action_against_declared_target_on_same_corridor():
    sc = arena(3)
    sc.put(0, N19)
    sc.put(1, N20)  # on another corridor
    sc.put(2, N19)
    assert not sc.legal(K.A_ATTACK + 0), "seat 1 is not on the attacker's corridor"
    assert sc.legal(K.A_ATTACK + 1)
    sc.rolls(9, 5)
    evs = sc.step(K.A_ATTACK + 1)  # declares seat 0 + 2
    assert combats(evs) == [(0, 2, 9, 5)]
    assert int(sc.s["actions_left"]) == 1
    assert life(sc, 2) == 3 and life(sc, 1) == 4 and life(sc, 0) == 4


def test_attack_not_offered_when_alone_on_corridor():
    sc = arena(3)
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, N16)
    assert not sc.mask()[K.A_ATTACK : K.A_SET_TRAP].any()


def test_attack_declared_target_among_several():
    sc = arena(3)
    for p in range(3):
        sc.put(p, N19)
    assert sc.legal(K.A_ATTACK + 0) and sc.legal(K.A_ATTACK + 1)
    sc.rolls(9, 5)
    evs = sc.step(K.A_ATTACK + 0)
    assert combats(evs) == [(0, 1, 9, 5)], "only two characters take part in a combat"
    assert life(sc, 1) == 3 and life(sc, 2) == 4


# =====================================================================================
# Combat Check: 2d6 each, higher wins, ties repeat, the loser loses 1 Life
# =====================================================================================
@pytest.mark.parametrize(("att", "dfn", "loser"), [(9, 5, 1), (4, 10, 0)], ids=["attacker_wins", "defender_wins"])
def test_combat_check_higher_total_wins_loser_loses_one_life(att, dfn, loser):
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(att, dfn)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, att, dfn)]
    assert ev(K.EV_LIFE, loser, -1, 3) in evs
    assert life(sc, loser) == 3 and life(sc, 1 - loser) == 4


def test_combat_check_ties_repeat_until_resolved():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(7, 7, 6, 6, 3, 8)  # two ties, then the defender wins
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, 3, 8)]
    assert life(sc, 0) == 3 and life(sc, 1) == 4


def test_combat_check_tie_after_bonus_repeats():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    sc.give_items(1, VEST)  # +1 when attacked
    sc.rolls(9, 8, 12, 9)  # 9 : 8+1 is a tie, then 12 : 9+1
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, 12, 10)]
    assert life(sc, 1) == 3


@pytest.mark.parametrize(
    ("att_items", "dfn_items", "rolls", "totals", "loser"),
    [
        ((SWORD,), (), (6, 7), (8, 7), 1),  # +2 attacking
        ((), (SHIELD,), (8, 7), (8, 9), 0),  # +2 when attacked
        ((SHIELD,), (SWORD,), (7, 6), (7, 6), 1),  # the attack bonus only attacking, defence only attacked
        ((HAMMER, DAGGER), (VEST,), (6, 7), (8, 8), None),  # both items add up; a tie rerolls
    ],
    ids=["attack_bonus", "defence_bonus", "bonus_by_role", "two_items_add_up"],
)
def test_combat_check_item_attack_and_defence_bonuses(att_items, dfn_items, rolls, totals, loser):
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    sc.give_items(0, *att_items)
    sc.give_items(1, *dfn_items)
    if loser is None:  # the tie repeats: 6+2 : 7+1, then 10+2 : 3+1
        sc.rolls(*rolls, 10, 3)
        evs = sc.step(K.A_ATTACK)
        assert combats(evs) == [(0, 1, 12, 4)]
        assert life(sc, 1) == 3
        return
    sc.rolls(*rolls)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, *totals)]
    assert life(sc, loser) == 3 and life(sc, 1 - loser) == 4


def test_stunned_character_cannot_attack():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(0, stun=1)
    assert sc.legal_actions() == [K.A_REST], "only Rest (not even End turn, l.220)"


def test_stunned_character_loses_combat_without_rolling():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(1, stun=1)
    sc.give_items(1, SHIELD)
    before = int(sc.s["rng"][0])
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, 1, 0)], "the stunned defender loses, no totals rolled"
    assert int(sc.s["rng"][0]) == before, "no dice were rolled"
    assert life(sc, 1) == 3 and sc.decision == K.D_MAIN, "and its Crystal cannot turn a roll never made"


# =====================================================================================
# Free attacks: the mover's priority, the occupants' chance, random order, one combat per
# pair per movement, stunned characters cannot attack, also when placed
# =====================================================================================
def test_free_attack_mover_priority_against_any_number_of_occupants():
    sc = arena(3)
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, N20)
    sc.move(EAST)
    assert sc.decision == K.D_FREE_ATTACK and sc.decider == 0
    fa = sc.mask()[K.A_FREE_ATTACK : K.A_FREE_ATTACK + 5].tolist()
    assert fa == [True, True, False, False, False] and sc.legal(K.A_DECLINE)
    sc.rolls(10, 3)
    evs = sc.step(K.A_FREE_ATTACK + 0)
    assert combats(evs) == [(0, 1, 10, 3)]
    assert sc.decision == K.D_FREE_ATTACK and sc.decider == 0, "it may fight every occupant"
    fa = sc.mask()[K.A_FREE_ATTACK : K.A_FREE_ATTACK + 5].tolist()
    assert fa == [False, True, False, False, False], "but each only once"
    sc.rolls(10, 3)
    evs = sc.step(K.A_FREE_ATTACK + 1)
    assert combats(evs) == [(0, 2, 10, 3)]
    assert sc.decision == K.D_MAIN and sc.decider == 0, "nobody it fought may attack it back"
    assert int(sc.s["actions_left"]) == 1, "free attacks cost no action"
    assert life(sc, 1) == 3 and life(sc, 2) == 3


def test_free_attack_declined_each_occupant_may_attack_in_random_order():
    firsts = set()
    for i in range(40):
        sc = arena(3)
        sc.put(0, N19)
        sc.put(1, N20)
        sc.put(2, N20)
        sc.move(EAST)
        sc.s["rng"][0] = seed_state(np.uint64(1000 + i))
        sc.step(K.A_DECLINE)
        assert sc.decision == K.D_COUNTER
        first = sc.decider
        assert sc.legal_actions() == [K.A_DECLINE, K.A_COUNTER]
        sc.step(K.A_DECLINE)
        assert sc.decision == K.D_COUNTER and sc.decider == 3 - first, "then the other occupant"
        sc.step(K.A_DECLINE)
        assert sc.decision == K.D_MAIN and sc.decider == 0
        firsts.add(first)
    assert firsts == {1, 2}, "the order is random"


def test_free_attack_occupant_attacks_the_character_that_entered():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N20)
    sc.give_items(1, SWORD)  # the occupant is the attacker now
    sc.move(EAST)
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_COUNTER and sc.decider == 1 and K.to_act(sc.s) == 1
    sc.rolls(6, 7)
    evs = sc.step(K.A_COUNTER)
    assert combats(evs) == [(1, 0, 8, 7)]
    assert life(sc, 0) == 3 and sc.decision == K.D_MAIN and sc.decider == 0


def test_free_attack_only_occupants_not_fought_may_attack():
    sc = arena(3)
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, N20)
    sc.move(EAST)
    sc.rolls(10, 3)
    sc.step(K.A_FREE_ATTACK + 0)  # fights seat 1
    sc.step(K.A_DECLINE)  # and forgoes seat 2
    assert sc.decision == K.D_COUNTER and sc.decider == 2
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_MAIN, "seat 1, already fought, gets no second combat"


def test_free_attack_one_combat_per_pair_per_movement():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N20)
    sc.move(EAST)
    sc.rolls(10, 3)
    sc.step(K.A_FREE_ATTACK)
    assert sc.decision == K.D_MAIN and sc.decider == 0, "one combat for this movement"
    sc.move(WEST)
    sc.fresh_turn(0)
    sc.move(EAST)  # a new movement onto the same corridor
    assert sc.decision == K.D_FREE_ATTACK, "a new movement, a new free attack"


def test_free_attack_only_with_the_character_entering():
    sc = arena(3)
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, N20)
    sc.move(EAST)
    sc.step(K.A_DECLINE)
    for _ in range(2):
        assert sc.decision == K.D_COUNTER
        sc.rolls(9, 4)
        evs = sc.step(K.A_COUNTER)
        assert all(0 in c[:2] for c in combats(evs)), "occupants never fight each other"
    assert sc.decision == K.D_MAIN and life(sc, 0) == 2


def test_stunned_occupant_cannot_free_attack():
    sc = arena(3)
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, N20)
    sc.set(1, stun=1)
    sc.move(EAST)
    assert sc.legal(K.A_FREE_ATTACK + 0), "a stunned occupant can still be attacked"
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_COUNTER and sc.decider == 2
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_MAIN, "the stunned seat 1 is never asked"


def test_stunned_mover_cannot_free_attack_and_loses_without_rolling():
    sc = Scenario()
    bridge, under = sc.lay(19, ("03", C.BRIDGE), ("14", C.UNDER))
    sc.golem(PARK)
    sc.set(0, crystal=0)
    sc.set(1, crystal=0)
    sc.put(0, bridge)
    sc.put(1, under)
    sc.rolls(4)  # the risky jump fails: the fall stuns
    sc.step(K.A_RISKY_JUMP)
    assert sc.pos(0) == under and int(sc.s["stun"][0]) == 1 and life(sc, 0) == 2
    assert sc.decision == K.D_COUNTER and sc.decider == 1, "no free attack for the stunned mover"
    before = int(sc.s["rng"][0])
    evs = sc.step(K.A_COUNTER)
    assert combats(evs) == [(1, 0, 1, 0)] and int(sc.s["rng"][0]) == before
    assert life(sc, 0) == 1


def test_free_attack_when_placed_pushed_out_of_centre():
    sc = arena(3)
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.put(2, N17)
    sc.move(WEST)
    sc.rolls(10, 3)
    sc.step(K.A_FREE_ATTACK + 0)
    assert sc.decision == K.D_PUSH_DIR and sc.decider == 0
    sc.step(K.A_PUSH_DIR + WEST)  # onto seat 2's corridor
    assert sc.pos(1) == N17
    assert sc.decision == K.D_FREE_ATTACK and sc.decider == 1, "the placed character may attack"
    assert sc.mask()[K.A_FREE_ATTACK : K.A_FREE_ATTACK + 5].tolist() == [True, False, False, False, False]
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_COUNTER and sc.decider == 2, "and be attacked"
    sc.rolls(9, 4)
    evs = sc.step(K.A_COUNTER)
    assert combats(evs) == [(2, 1, 9, 4)] and life(sc, 1) == 2


# =====================================================================================
# Combat on the central space: the loser is pushed out, the winner chooses the way
# =====================================================================================
def test_central_combat_loser_pushed_out_winner_chooses_direction():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.move(WEST)
    sc.rolls(10, 3)
    sc.step(K.A_FREE_ATTACK)
    assert sc.decision == K.D_PUSH_DIR and sc.decider == 0 and K.to_act(sc.s) == 0
    push = sc.mask()[K.A_PUSH_DIR : K.A_PUSH_DIR + 6].tolist()
    assert push == [True, False, False, True, False, False], "along the corridors out of the centre"
    evs = sc.step(K.A_PUSH_DIR + EAST)
    assert ev(K.EV_PUSHED_OUT, 1, CENTRE, N19) in evs and sc.pos(1) == N19
    assert life(sc, 1) == 3


def test_central_combat_winner_occupant_pushes_mover_out():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.move(WEST)
    sc.step(K.A_DECLINE)
    sc.rolls(10, 3)
    sc.step(K.A_COUNTER)  # seat 1 attacks and wins
    assert sc.decision == K.D_PUSH_DIR and sc.decider == 1, "during seat 0's turn, seat 1 decides"
    sc.step(K.A_PUSH_DIR + WEST)
    assert sc.pos(0) == N17 and sc.decision == K.D_MAIN and sc.decider == 0


def test_central_combat_by_attack_activity_also_pushes():
    sc = arena()
    sc.put(0, CENTRE)
    sc.put(1, CENTRE)
    sc.rolls(10, 3)
    sc.step(K.A_ATTACK)
    assert sc.decision == K.D_PUSH_DIR and sc.decider == 0
    sc.step(K.A_PUSH_DIR + WEST)
    assert sc.pos(1) == N17


def test_pushed_out_character_explores_new_corridor():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.place_trap(N17, PIT)
    sc.move(WEST)
    sc.rolls(10, 3)
    sc.step(K.A_FREE_ATTACK)
    sc.rolls(4)  # the Spiked Pit (7+) is not avoided
    evs = sc.step(K.A_PUSH_DIR + WEST)
    assert ev(K.EV_TRAP_REVEALED, 1, N17, PIT) in evs
    assert trap_check(1, PIT, 1, [4]) in evs
    assert life(sc, 1) == 2


def test_pushed_out_after_losing_combat_no_pick_up():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.place_key(3, N17, dropped_by=1)
    sc.place_item(SWORD, N17)
    sc.move(WEST)
    sc.step(K.A_DECLINE)
    sc.rolls(10, 3)
    sc.step(K.A_COUNTER)  # the active seat 0 loses
    sc.step(K.A_PUSH_DIR + WEST)
    assert sc.pos(0) == N17
    assert sc.decision == K.D_MAIN, "no pick-up, even for the active player"
    assert keys_of(sc, 0) == [] and int(sc.s["item_node"][SWORD]) == N17
    sc.fresh_turn(0)
    sc.put(1, N20)
    sc.move(EAST)
    sc.move(WEST)  # moving in by itself later, it may pick them up
    assert sc.decision == K.D_PICKUP and sc.legal(K.A_PICK_KEY + 3) and sc.legal(K.A_PICK_ITEM + SWORD)


def test_central_combat_keith_roger_example_mover_wins_alone_with_key():
    # Roger (seat 1) on the central space; Keith (seat 0) enters with a key.
    sc = arena()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.give_key(0, 3)
    sc.give_items(1, VEST)  # Roger's +1, as Domination in the example
    sc.place_trap(N17, PIT)
    sc.move(WEST)
    assert sc.decision == K.D_FREE_ATTACK and sc.decider == 0
    sc.rolls(9, 8, 12, 9)  # 9 : 8+1 a tie, repeated; 12 : 9+1 Keith wins
    evs = sc.step(K.A_FREE_ATTACK)
    assert combats(evs) == [(0, 1, 12, 10)] and life(sc, 1) == 3
    assert sc.decision == K.D_PUSH_DIR and sc.decider == 0
    sc.rolls(5)  # Roger's Trap Check fails
    evs = sc.step(K.A_PUSH_DIR + WEST)
    assert kinds(evs).index(K.EV_TRAP_CHECK) < kinds(evs).index(K.EV_WIN)
    assert ev(K.EV_WIN, 0) in evs
    assert int(sc.s["outcome"]) == K.WON and int(sc.s["winner"]) == 0
    assert sc.returns()[:2].tolist() == [1.0, -1.0]


def test_central_combat_loser_who_dies_is_not_pushed():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.set(1, life=1)
    sc.give_key(1, 0)
    sc.move(WEST)
    sc.rolls(10, 3)
    evs = sc.step(K.A_FREE_ATTACK)
    assert ev(K.EV_DEATH, 1, CENTRE) in evs and ev(K.EV_DROP, 1, 0, 0, CENTRE) in evs
    assert sc.pos(1) == START3 and sc.decision == K.D_PICKUP, "back to start; the key lies on the centre"


# =====================================================================================
# Character's death: drop a key, else an item; back to start with all Life; the Crystal
# of Fate is not renewed; the Heart of the Abyss is one more Life
# =====================================================================================
def dying_defender(num_players: int = 2, **kw) -> Scenario:
    """Seat 0 and seat 1 on corridor 19; seat 1 has 1 Life left; seat 0 wins the next attack."""
    sc = arena(num_players, **kw)
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(1, life=1)
    sc.rolls(10, 3)
    return sc


def test_death_drops_key_and_returns_to_start_with_full_life():
    sc = dying_defender()
    sc.give_key(1, 0)
    sc.give_items(1, SWORD)
    evs = sc.step(K.A_ATTACK)
    assert ev(K.EV_DEATH, 1, N19) in evs and ev(K.EV_DROP, 1, 0, 0, N19) in evs
    assert ev(K.EV_TO_START, 1, N19) in evs
    assert int(sc.s["key_node"][0]) == N19 and int(sc.s["key_dropped_by"][0]) == 1
    assert items_of(sc, 1) == [SWORD, -1], "with a key to drop it keeps its items"
    assert sc.pos(1) == START3 and life(sc, 1) == 4


def test_death_drops_one_key_only():
    sc = dying_defender()
    sc.give_key(1, 0)
    sc.give_key(1, 2)
    sc.step(K.A_ATTACK)
    assert len(keys_of(sc, 1)) == 1
    dropped = [k for k in (0, 2) if int(sc.s["key_node"][k]) == N19]
    assert len(dropped) == 1


def test_death_without_key_drops_item_of_its_choice():
    sc = dying_defender()
    sc.give_items(1, SWORD, SHIELD)
    sc.step(K.A_ATTACK)
    assert sc.decision == K.D_DROP_ITEM and sc.decider == 1 and K.to_act(sc.s) == 1
    assert sc.legal_actions() == [K.A_DROP_ITEM, K.A_DROP_ITEM + 1]
    evs = sc.step(K.A_DROP_ITEM + 1)
    assert ev(K.EV_DROP, 1, 1, SHIELD, N19) in evs
    assert int(sc.s["item_node"][SHIELD]) == N19 and items_of(sc, 1) == [SWORD, -1]
    assert sc.pos(1) == START3 and life(sc, 1) == 4
    assert sc.decision == K.D_MAIN and sc.decider == 0


def test_death_with_one_item_drops_it():
    sc = dying_defender()
    sc.give_items(1, SWORD)
    evs = sc.step(K.A_ATTACK)
    assert ev(K.EV_DROP, 1, 1, SWORD, N19) in evs and items_of(sc, 1) == [-1, -1]
    assert sc.pos(1) == START3


def test_death_with_nothing_drops_nothing():
    sc = dying_defender()
    evs = sc.step(K.A_ATTACK)
    assert events_of(evs, K.EV_DROP) == [] and sc.pos(1) == START3 and life(sc, 1) == 4


@pytest.mark.parametrize("crystal", [0, 1], ids=["inactive_stays_inactive", "active_stays_active"])
def test_death_crystal_of_fate_not_renewed(crystal):
    sc = dying_defender()
    sc.set(1, crystal=crystal)
    sc.step(K.A_ATTACK)
    if crystal:
        assert sc.decision == K.D_REROLL and sc.decider == 1
        sc.step(K.A_KEEP)
    assert sc.pos(1) == START3 and life(sc, 1) == 4
    assert int(sc.s["crystal"][1]) == crystal, "the Crystal is neither dropped nor turned"


def test_death_ann_example_mover_picks_up_dropped_key():
    # Ann (seat 0) enters the corridor of Christopher (seat 1) and Robert (seat 2).
    sc = arena(3)
    sc.put(0, N19)
    sc.put(1, N20)
    sc.put(2, N20)
    sc.set(1, life=1)
    sc.give_key(1, 4)  # Robert's key, carried by Christopher
    sc.move(EAST)
    sc.rolls(10, 9)
    evs = sc.step(K.A_FREE_ATTACK + 0)
    assert ev(K.EV_DROP, 1, 0, 4, N20) in evs and sc.pos(1) == start_node_of(2) and life(sc, 1) == 4
    assert sc.decision == K.D_FREE_ATTACK and sc.decider == 0, "Ann could attack Robert"
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_COUNTER and sc.decider == 2, "Robert could attack Ann"
    sc.step(K.A_DECLINE)
    assert sc.decision == K.D_PICKUP and sc.legal(K.A_PICK_KEY + 4)
    sc.step(K.A_PICK_KEY + 4)
    assert keys_of(sc, 0) == [4]


def test_heart_of_the_abyss_counts_as_one_more_life():
    sc = dying_defender()
    sc.give_items(1, HEART)
    evs = sc.step(K.A_ATTACK)
    assert ev(K.EV_HEART, 1) in evs
    assert life(sc, 1) == 1 and sc.pos(1) == N19 and items_of(sc, 1) == [-1, -1]
    assert in_item_pool(sc, HEART), "spent, it goes back to the item pool"
    sc.rolls(10, 3)
    evs = sc.step(K.A_ATTACK)
    assert ev(K.EV_DEATH, 1, N19) in evs, "without it the next lost Life is the last"


def test_heart_of_the_abyss_in_first_slot_keeps_other_item():
    sc = dying_defender()
    sc.give_items(1, HEART, SWORD)
    sc.step(K.A_ATTACK)
    assert items_of(sc, 1) == [SWORD, -1], "the other item stays carried, the free slot usable"
    sc.rolls(10, 3)
    evs = sc.step(K.A_ATTACK)
    assert ev(K.EV_DROP, 1, 1, SWORD, N19) in evs and int(sc.s["item_node"][SWORD]) == N19


def test_heart_of_the_abyss_not_enough_for_two_lost_life():
    sc = arena()
    sc.put(0, N19)
    sc.set(0, life=1)
    sc.give_items(0, HEART)
    sc.place_trap(N20, TRAP["Swinging Blade"])  # 1 x 8+, lose 2 Life
    sc.rolls(3)
    evs = sc.move(EAST)
    assert ev(K.EV_HEART, 0) in evs and ev(K.EV_DEATH, 0, N20) in evs
    assert sc.pos(0) == START0 and life(sc, 0) == 4


# =====================================================================================
# Keys: pick up any number in step 5; never your own key from your key space unless
# another character dropped it; carry any number
# =====================================================================================
def test_pick_up_any_number_of_keys_and_carry_any_number():
    sc = arena(3)
    sc.put(0, N19)
    sc.give_key(0, 1)
    sc.give_key(0, 3)
    sc.place_key(2, N20, dropped_by=1)
    sc.place_key(4, N20, dropped_by=2)
    sc.place_item(SWORD, N20)
    sc.move(EAST)
    assert sc.decision == K.D_PICKUP and sc.decider == 0
    assert sc.legal(K.A_PICK_KEY + 2) and sc.legal(K.A_PICK_KEY + 4) and sc.legal(K.A_PICK_ITEM + SWORD)
    sc.step(K.A_PICK_KEY + 2)
    assert sc.decision == K.D_PICKUP, "more to pick up"
    sc.step(K.A_PICK_ITEM + SWORD)
    evs = sc.step(K.A_PICK_KEY + 4)
    assert ev(K.EV_PICK_UP, 0, 0, 4) in evs
    assert keys_of(sc, 0) == [1, 2, 3, 4] and items_of(sc, 0) == [SWORD, -1]
    assert sc.decision == K.D_MAIN, "nothing left: exploring ends"


def test_pick_up_is_optional():
    sc = arena()
    sc.put(0, N19)
    sc.place_key(3, N20, dropped_by=1)
    sc.move(EAST)
    sc.step(K.A_PICKUP_DONE)
    assert keys_of(sc, 0) == [] and int(sc.s["key_node"][3]) == N20 and sc.decision == K.D_MAIN


def test_pick_up_key_from_another_players_key_space():
    sc = arena()
    sc.put(0, N16)
    sc.move(WEST)  # onto key space 3, seat 1's
    assert sc.pos(0) == KEY3 and sc.decision == K.D_PICKUP and sc.legal(K.A_PICK_KEY + 3)
    sc.step(K.A_PICK_KEY + 3)
    assert keys_of(sc, 0) == [3] and int(sc.s["key_node"][3]) == -1


@pytest.mark.parametrize(
    ("dropped_by", "may_pick"),
    [(-1, False), (0, False), (1, True)],
    ids=["printed_key", "dropped_by_itself", "dropped_by_another"],
)
def test_never_pick_up_own_key_from_own_key_space_unless_another_dropped_it(dropped_by, may_pick):
    sc = arena()
    sc.put(0, N20)
    sc.place_key(0, KEY0, dropped_by=dropped_by)
    sc.move(EAST)
    assert sc.pos(0) == KEY0
    assert (sc.decision == K.D_PICKUP) == may_pick
    if may_pick:
        sc.step(K.A_PICK_KEY + 0)
        assert keys_of(sc, 0) == [0]
    else:
        assert int(sc.s["key_node"][0]) == KEY0


@pytest.mark.parametrize(("dropped_by", "may_pick"), [(0, False), (1, True)], ids=["by_itself", "by_another"])
def test_any_key_on_own_key_space_only_if_another_dropped_it(dropped_by, may_pick):
    sc = arena()
    sc.put(0, N20)
    sc.place_key(3, KEY0, dropped_by=dropped_by)  # seat 1's key lying on seat 0's key space
    sc.move(EAST)
    assert (sc.decision == K.D_PICKUP) == may_pick
    if may_pick:
        assert sc.legal(K.A_PICK_KEY + 3) and not sc.legal(K.A_PICK_KEY + 0), "the printed key stays"


def test_only_active_player_picks_up():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.place_item(SWORD, N17)
    sc.move(WEST)
    sc.rolls(10, 3)
    sc.step(K.A_FREE_ATTACK)
    sc.step(K.A_PUSH_DIR + WEST)  # seat 1 lands on the item during seat 0's turn
    assert sc.decision == K.D_MAIN and sc.decider == 0 and int(sc.s["item_node"][SWORD]) == N17


# =====================================================================================
# Items: at most 2; exchange only when picking up, each item once per turn, the old one
# stays on the corridor; visible to all; the item abilities and bonuses
# =====================================================================================
def test_items_at_most_two():
    sc = arena()
    sc.put(0, N19)
    sc.give_items(0, SWORD)
    sc.place_item(SHIELD, N20)
    sc.place_item(BOOTS, N20)
    sc.move(EAST)
    assert sc.legal(K.A_PICK_ITEM + SHIELD) and sc.legal(K.A_PICK_ITEM + BOOTS)
    sc.step(K.A_PICK_ITEM + SHIELD)
    assert items_of(sc, 0) == [SWORD, SHIELD]
    assert sc.decision == K.D_PICKUP and not sc.legal(K.A_PICK_ITEM + BOOTS), "no third slot"
    assert sc.legal(K.A_EXCHANGE + 2 * BOOTS + 0) and sc.legal(K.A_EXCHANGE + 2 * BOOTS + 1), "only an exchange"


def test_exchange_leaves_old_item_on_corridor():
    sc = arena()
    sc.put(0, N19)
    sc.give_items(0, SWORD, SHIELD)
    sc.place_item(BOOTS, N20)
    sc.move(EAST)
    evs = sc.step(K.A_EXCHANGE + 2 * BOOTS + 0)
    assert ev(K.EV_EXCHANGE, 0, BOOTS, SWORD) in evs
    assert items_of(sc, 0) == [BOOTS, SHIELD] and int(sc.s["item_node"][SWORD]) == N20
    assert int(sc.s["item_node"][BOOTS]) == -1


def test_exchange_each_item_once_per_turn():
    sc = arena()
    sc.put(0, N19)
    sc.give_items(0, SWORD, SHIELD)
    sc.place_item(BOOTS, N20)
    sc.place_item(AMULET, N20)
    sc.move(EAST)
    sc.step(K.A_EXCHANGE + 2 * BOOTS + 0)  # Boots for the Sword
    assert sc.decision == K.D_PICKUP
    assert not sc.mask()[K.A_EXCHANGE + 2 * SWORD : K.A_EXCHANGE + 2 * SWORD + 2].any(), "the Sword not taken back"
    assert not sc.legal(K.A_EXCHANGE + 2 * AMULET + 0), "the Boots not given up again this turn"
    assert sc.legal(K.A_EXCHANGE + 2 * AMULET + 1), "the Shield may still go"
    sc.step(K.A_EXCHANGE + 2 * AMULET + 1)
    assert items_of(sc, 0) == [BOOTS, AMULET]
    assert sc.decision == K.D_MAIN, "every item on the corridor was exchanged this turn"
    sc.end()
    sc.end()
    sc.move(WEST)
    sc.move(EAST)  # the next turn the items may be exchanged again
    assert sc.decision == K.D_PICKUP and sc.legal(K.A_EXCHANGE + 2 * SWORD + 0)


def test_exchange_only_when_picking_up_never_discard():
    sc = arena()
    sc.put(0, N19)
    sc.give_items(0, SWORD, SHIELD)
    main = sc.legal_actions()
    assert not any(K.A_EXCHANGE <= a < K.A_PICKUP_DONE or a >= K.A_DROP_ITEM for a in main)
    sc.move(EAST)  # nothing to pick up on corridor 20
    assert sc.decision == K.D_MAIN and items_of(sc, 0) == [SWORD, SHIELD]


def test_picked_up_items_and_keys_visible_to_all():
    sc = arena()
    sc.put(0, N19)
    sc.give_key(0, 3)
    sc.place_item(SWORD, N20)
    sc.move(EAST)
    sc.step(K.A_PICK_ITEM + SWORD)
    obs = sc.observe(1)  # seen by the other player: seat 0 is relative seat 1
    base = K.OBS_SEATS + 1 * K.SEAT_FEATURES
    assert obs[base + 7 + SWORD] == 1.0
    assert obs[base + 4] == pytest.approx(1 / K.NUM_KEYS)


def test_scepter_of_control_spend_life_to_ignore_golem():
    sc = arena()
    sc.put(0, N19)
    sc.golem(N20)
    sc.give_items(0, SCEPTER)
    before = int(sc.s["rng"][0])
    sc.move(EAST)
    assert sc.decision == K.D_SCEPTER and sc.decider == 0
    evs = sc.step(K.A_SCEPTER_YES)
    assert ev(K.EV_SCEPTER, 0) in evs and events_of(evs, K.EV_GOLEM_CHECK) == []
    assert life(sc, 0) == 3 and sc.pos(0) == N20 and int(sc.s["rng"][0]) == before
    assert items_of(sc, 0) == [SCEPTER, -1], "the Scepter is kept"


def test_scepter_of_control_declined_makes_golem_check():
    sc = arena()
    sc.put(0, N19)
    sc.golem(N20)
    sc.give_items(0, SCEPTER)
    sc.move(EAST)
    sc.rolls(5)
    evs = sc.step(K.A_SCEPTER_NO)
    assert ev(K.EV_GOLEM_CHECK, 0, 5, 0) in evs and sc.pos(0) == START0 and life(sc, 0) == 4


def test_scepter_of_control_holder_decides_when_golem_comes():
    sc = arena()
    sc.put(0, N16)
    sc.put(1, N19)
    sc.golem(N20)
    sc.give_items(1, SCEPTER)
    sc.next_golem_card(C.GOLEM_MOVE, 1)
    sc.step(K.A_MOVE_GOLEM)
    sc.golem_dir(WEST)
    assert sc.decision == K.D_SCEPTER and sc.decider == 1 and K.to_act(sc.s) == 1
    sc.step(K.A_SCEPTER_YES)
    assert life(sc, 1) == 3 and sc.pos(1) == N19 and sc.decision == K.D_MAIN and sc.decider == 0


# test_healing_potion_never_discarded (tests/test_pod3e_rules_v1.py): 1 action, 1 Life, kept


def test_healing_potion_capped_at_full_life():
    sc = arena()
    sc.put(0, N19)
    sc.set(0, life=3)
    sc.give_items(0, POTION)
    sc.step(K.A_USE_POTION)
    assert life(sc, 0) == 4


def test_smelling_salts_rest_discards_all_stun():
    sc = arena()
    sc.put(0, N19)
    sc.set(0, stun=3)
    sc.give_items(0, SALTS)
    assert sc.legal_actions() == [K.A_REST]
    evs = sc.step(K.A_REST)
    assert ev(K.EV_REST, 0, 0) in evs and int(sc.s["stun"][0]) == 0
    assert int(sc.s["actions_left"]) == 1 and sc.legal(K.A_MOVE + EAST)


@pytest.mark.parametrize(("items", "success"), [((), False), ((BOOTS,), True)], ids=["plain", "winged_boots"])
def test_item_bonus_jump_check(items, success):
    sc = Scenario()
    bridge, under = sc.lay(19, ("03", C.BRIDGE), ("14", C.UNDER))
    sc.golem(PARK)
    sc.set(0, crystal=0)
    sc.put(0, bridge)
    sc.give_items(0, *items)
    sc.rolls(6)
    evs = sc.step(K.A_RISKY_JUMP)
    assert ev(K.EV_JUMP, 0, 6 + 2 * success, int(success), 1) in evs
    assert sc.pos(0) == under and life(sc, 0) == (4 if success else 2)


@pytest.mark.parametrize(
    ("items", "fails"), [((), 3), ((AMULET,), 1), ((AMULET, ITEM["Climbing Rope"]), 0)],
    ids=["plain", "amulet", "amulet_and_rope"],
)  # fmt: skip
def test_item_bonus_trap_check_every_roll(items, fails):
    sc = arena()
    sc.put(0, N19)
    sc.give_items(0, *items)
    sc.place_trap(N20, SPEARS)
    sc.rolls(6, 5, 7)  # +2: 8, 7, 9; +3: 9, 8, 10
    evs = sc.move(EAST)
    bonus = sum(int(C.ITEM_TRAP_BONUS[i]) for i in items)
    assert trap_check(0, SPEARS, fails, [6, 5, 7], bonus) in evs


@pytest.mark.parametrize(("items", "success"), [((), False), ((RUNE,), True)], ids=["plain", "rune_of_binding"])
def test_item_bonus_golem_check(items, success):
    sc = arena()
    sc.put(0, N19)
    sc.golem(N20)
    sc.give_items(0, *items)
    sc.rolls(10)
    evs = sc.move(EAST)
    assert ev(K.EV_GOLEM_CHECK, 0, 10 + 2 * success, int(success)) in evs
    assert sc.pos(0) == (N20 if success else START0)


# =====================================================================================
# No pick-up when moved by a trap or pushed after losing combat (the trap that moves a
# character: test_no_pick_up_when_moved_by_a_trap in tests/test_pod3e_rules_v1.py)
# =====================================================================================
def test_no_pick_up_when_placed_on_start_by_trap():
    sc = arena()
    sc.put(0, N19)
    sc.place_trap(N20, TRAP["Portal Rune"])
    sc.place_item(SWORD, N20)
    sc.rolls(3)
    evs = sc.move(EAST)
    assert ev(K.EV_TO_START, 0, N20) in evs and sc.pos(0) == START0
    assert sc.decision == K.D_MAIN and int(sc.s["item_node"][SWORD]) == N20


# test_pushed_out_after_losing_combat_no_pick_up (above) covers the push.


# =====================================================================================
# Events: the one-time effect by the active player, the long-lasting effect until the
# next event; Plague, Terror, Annihilation; every one-time and long-lasting kind
# =====================================================================================
def event_scenario(num_players: int = 3, seat: int = 0) -> Scenario:
    sc = arena(num_players)
    sc.fresh_turn(seat)
    for p in range(num_players):
        sc.put(p, [N19, N20, N17][p])
    return sc


def trigger(sc: Scenario, name: str) -> list:
    if name == "Annihilation":
        sc.s["event_pos"] = K.NUM_EVENTS - 1
    else:
        sc.next_event(EVENT[name])
    return sc.step(K.A_EVENT)


def test_event_one_time_effect_choose_a_character_by_active_player():
    sc = event_scenario(3, seat=1)
    trigger(sc, "Terror")
    assert sc.decision == K.D_EVENT_TARGET and sc.decider == 1 and K.to_act(sc.s) == 1
    assert sc.legal_actions() == [K.A_EVENT_TARGET + i for i in range(3)], "any character, itself too"
    sc.step(K.A_EVENT_TARGET + 2)  # seat 1 + 2 = seat 0
    assert [life(sc, p) for p in range(3)] == [3, 4, 4]
    assert int(sc.s["current_event"]) == EVENT["Terror"] and sc.decision == K.D_MAIN and sc.decider == 1


def test_event_terror_on_yourself():
    sc = event_scenario(2)
    trigger(sc, "Terror")
    sc.step(K.A_EVENT_TARGET + 0)
    assert [life(sc, 0), life(sc, 1)] == [3, 4]


@pytest.mark.parametrize(
    ("name", "target", "lives", "stuns", "crystals", "positions"),
    [
        ("Plague", 1, [2, 2, 2], [0, 0, 0], [1, 0, 1], None),  # and its long-lasting cap
        ("Terror", 2, [4, 4, 3], [0, 0, 0], [1, 1, 1], None),
        ("Cursed Treasures", 1, [4, 3, 4], [0, 0, 0], [1, 1, 1], None),
        ("Earthquake", 2, [4, 4, 4], [0, 0, 1], [1, 1, 1], None),
        ("Shifting Walls", 1, [4, 4, 4], [0, 0, 0], [1, 1, 1], [N19, start_node_of(2), N17]),
    ],
    ids=["plague_crystal", "terror_life", "cursed_treasures_life", "earthquake_stun", "shifting_walls_start"],
)
def test_event_one_time_effect_on_chosen_character(name, target, lives, stuns, crystals, positions):
    sc = event_scenario(3)
    for p in range(3):
        sc.set(p, crystal=1)
    trigger(sc, name)
    assert sc.decision == K.D_EVENT_TARGET and sc.decider == 0
    sc.step(K.A_EVENT_TARGET + target)
    s = sc.s
    assert s["life"][:3].tolist() == lives
    assert s["stun"][:3].tolist() == stuns and s["crystal"][:3].tolist() == crystals
    assert s["position"][:3].tolist() == (positions or [N19, N20, N17])


@pytest.mark.parametrize(
    ("name", "before", "after"),
    [
        ("Blood Moon", [2, 3, 4], [2, 3, 4]),  # no one-time effect
        ("Darkness", [2, 3, 4], [2, 3, 4]),
        ("Healing Springs", [2, 3, 4], [3, 4, 4]),  # every character +1
        ("Guiding Light", [2, 3, 1], [3, 3, 1]),  # the active player +1
        ("Respite", [1, 3, 1], [3, 3, 1]),  # the active player +2
        ("Annihilation", [2, 3, 4], [1, 2, 3]),  # every character -1
    ],
    ids=["none_blood_moon", "none_darkness", "all_gain", "active_gains_1", "active_gains_2", "all_lose"],
)
def test_event_one_time_effect_without_choice(name, before, after):
    sc = event_scenario(3)
    for p in range(3):
        sc.set(p, life=before[p])
    trigger(sc, name)
    assert sc.decision == K.D_MAIN and sc.decider == 0, "nothing to choose"
    assert sc.s["life"][:3].tolist() == after


def test_event_annihilation_all_lose_life_kills_at_one():
    sc = event_scenario(3)
    sc.set(2, life=1)
    sc.give_key(2, 0)
    evs = trigger(sc, "Annihilation")
    assert ev(K.EV_DEATH, 2, N17) in evs and int(sc.s["key_node"][0]) == N17
    assert sc.pos(2) == start_node_of(4) and life(sc, 2) == 4


def test_event_golems_slumber_golem_to_centre():
    sc = event_scenario(3)
    sc.put(1, CENTRE)
    sc.rolls(12)  # seat 1 on the centre passes its Golem Check
    evs = trigger(sc, "Golem's Slumber")
    assert int(sc.s["golem_node"]) == CENTRE
    assert ev(K.EV_GOLEM_MOVE, -1, PARK, CENTRE) in evs
    assert ev(K.EV_GOLEM_CHECK, 1, 14, 1) in evs, "Golem Checks get +2 from now on"


def test_event_plague_caps_life_at_two():
    sc = event_scenario(3)
    sc.set(1, life=1)
    trigger(sc, "Plague")
    sc.step(K.A_EVENT_TARGET + 1)
    assert sc.s["life"][:3].tolist() == [2, 1, 2], "more than 2 Life drops to 2"
    assert int(sc.s["crystal"][1]) == 0, "and the chosen character's Crystal turns inactive"


def test_event_plague_cap_logged_as_life_lost():
    sc = event_scenario(3)
    sc.set(1, life=1)
    sc.set(2, life=3)
    evs = trigger(sc, "Plague")
    assert ev(K.EV_LIFE, 0, -2, 2) in evs and ev(K.EV_LIFE, 2, -1, 2) in evs
    assert not events_of([e for e in evs if e[1] == 1], K.EV_LIFE)


def test_event_plague_caps_gains_and_resurrection():
    sc = event_scenario(2)
    sc.set(0, life=1)
    sc.give_items(0, POTION)
    sc.set_event(EVENT["Plague"])
    sc.step(K.A_USE_POTION)
    assert life(sc, 0) == 2 and not sc.legal(K.A_USE_POTION), "healing stops at the cap"
    sc.put(1, N19)
    sc.set(1, life=1)
    sc.rolls(10, 3)
    sc.step(K.A_ATTACK)
    assert sc.pos(1) == START3 and life(sc, 1) == 2, "resurrection restores only up to the cap"


def test_event_long_lasting_effect_until_next_event():
    sc = event_scenario(2)
    trigger(sc, "Plague")
    sc.step(K.A_EVENT_TARGET + 1)
    assert life(sc, 0) == 2 and K.max_life(sc.s) == 2
    sc.end()
    sc.end()  # still in play on later turns
    assert int(sc.s["current_event"]) == EVENT["Plague"] and K.max_life(sc.s) == 2
    trigger(sc, "Healing Springs")
    assert int(sc.s["current_event"]) == EVENT["Healing Springs"]
    assert life(sc, 0) == 3, "the cap is gone: Healing Springs' +1 goes above 2"


@pytest.mark.parametrize(
    ("name", "rolls", "totals"),
    [(None, (6, 7), (6, 7)), ("Blood Moon", (6, 7), (8, 7)), ("Respite", (8, 7), (6, 7))],
    ids=["no_event", "blood_moon_plus_2", "respite_minus_2"],
)
def test_event_long_lasting_combat_modifier_for_attacker(name, rolls, totals):
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    if name:
        sc.set_event(EVENT[name])
    sc.rolls(*rolls)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, *totals)]


@pytest.mark.parametrize(
    ("name", "roll", "total"), [("Earthquake", 9, 7), ("Blood Moon", 8, 8)], ids=["earthquake_minus_2", "other_event"]
)
def test_event_long_lasting_jump_modifier(name, roll, total):
    sc = Scenario()
    bridge, _ = sc.lay(19, ("03", C.BRIDGE), ("14", C.UNDER))
    sc.golem(PARK)
    sc.set(0, crystal=0)
    sc.put(0, bridge)
    sc.set_event(EVENT[name])
    sc.rolls(roll)
    evs = sc.step(K.A_RISKY_JUMP)
    assert ev(K.EV_JUMP, 0, total, int(total >= 8), 1) in evs


@pytest.mark.parametrize(
    ("name", "fails"), [("Darkness", 3), ("Guiding Light", 1), ("Blood Moon", 2)],
    ids=["darkness_minus_2", "guiding_light_plus_1", "other_event"],
)  # fmt: skip
def test_event_long_lasting_trap_modifier(name, fails):
    sc = arena()
    sc.put(0, N19)
    sc.place_trap(N20, SPEARS)
    sc.set_event(EVENT[name])
    sc.rolls(9, 7, 6)  # -2: 7, 5, 4; +1: 10, 8, 7; none: 9, 7, 6
    evs = sc.move(EAST)
    modifier = {"Darkness": -2, "Guiding Light": 1}.get(name, 0)
    assert trap_check(0, SPEARS, fails, [9, 7, 6], modifier) in evs


@pytest.mark.parametrize(
    ("name", "roll", "total"), [("Golem's Slumber", 10, 12), ("Annihilation", 12, 10)],
    ids=["slumber_plus_2", "annihilation_minus_2"],
)  # fmt: skip
def test_event_long_lasting_golem_modifier(name, roll, total):
    sc = arena()
    sc.put(0, N19)
    sc.golem(N20)
    sc.set_event(EVENT[name])
    sc.rolls(roll)
    evs = sc.move(EAST)
    assert ev(K.EV_GOLEM_CHECK, 0, total, int(total >= 12)) in evs


def test_event_long_lasting_no_item_pick_up():
    sc = arena()
    sc.put(0, N19)
    sc.place_item(SWORD, N20)
    sc.place_key(3, N20, dropped_by=1)
    sc.set_event(EVENT["Cursed Treasures"])
    sc.move(EAST)
    assert sc.decision == K.D_PICKUP
    assert not sc.legal(K.A_PICK_ITEM + SWORD) and sc.legal(K.A_PICK_KEY + 3), "keys still can be taken"
    sc.step(K.A_PICK_KEY + 3)
    assert sc.decision == K.D_MAIN and int(sc.s["item_node"][SWORD]) == N20


@pytest.mark.parametrize("name", ["Terror", "Healing Springs", "Shifting Walls"])
def test_event_long_lasting_without_effect_on_checks(name):
    # Terror forbids character abilities (none in the base game); the other two have none.
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set_event(EVENT[name])
    assert K.max_life(sc.s) == 4
    sc.rolls(6, 7)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, 6, 7)]


def test_event_annihilation_last_stays_to_end_and_stops_events():
    sc = event_scenario(2)
    for e in range(K.NUM_EVENTS - 1):
        assert int(sc.s["event_deck"][e]) != C.ANNIHILATION
    sc.s["event_pos"] = K.NUM_EVENTS - 1
    evs = sc.step(K.A_EVENT)
    assert ev(K.EV_EVENT, 0, C.ANNIHILATION) in evs
    for _ in range(4):
        sc.end()
        assert not sc.legal(K.A_EVENT), "no event can be triggered any more"
        assert int(sc.s["current_event"]) == C.ANNIHILATION, "its effect lasts to the end"


# =====================================================================================
# Crystal of Fate: reroll a failed check (a trap check rerolls all its rolls; in combat
# after both checks, only the loser); inactive after use; activate for 2 actions; the
# owner's seat decides; ask_crystal=False never asks
# =====================================================================================
def test_crystal_reroll_failed_check_replaces_result():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.golem(N20)
    sc.rolls(5)
    sc.move(EAST)
    assert sc.decision == K.D_REROLL and sc.decider == 0 and sc.legal_actions() == [K.A_KEEP, K.A_REROLL]
    sc.rolls(12)
    evs = sc.step(K.A_REROLL)
    assert ev(K.EV_REROLL, 0, K.CK_GOLEM) in evs and ev(K.EV_GOLEM_CHECK, 0, 12, 1) in evs
    assert sc.pos(0) == N20 and int(sc.s["crystal"][0]) == 0, "the Crystal turns inactive"


def test_crystal_reroll_result_counts_even_if_worse():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.place_trap(N20, SPEARS)
    sc.rolls(9, 9, 7)
    sc.move(EAST)
    sc.rolls(2, 2, 2)
    evs = sc.step(K.A_REROLL)
    assert trap_check(0, SPEARS, 3, [2, 2, 2]) in evs and sc.decision == K.D_LIFE_OR_STUN
    assert int(sc.s["choices_left"]) == 3


def test_crystal_keep_roll_keeps_crystal():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.golem(N20)
    sc.rolls(5)
    sc.move(EAST)
    sc.step(K.A_KEEP)
    assert sc.pos(0) == START0 and int(sc.s["crystal"][0]) == 1


def test_crystal_not_asked_after_successful_check():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.golem(N20)
    sc.rolls(12)
    sc.move(EAST)
    assert sc.decision == K.D_MAIN


def test_crystal_reroll_trap_check_rerolls_all_rolls():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.place_trap(N20, SPEARS)
    sc.rolls(9, 9, 3)  # one failed roll of three
    evs = sc.move(EAST)
    assert trap_check(0, SPEARS, 1, [9, 9, 3]) in evs and sc.decision == K.D_REROLL
    sc.rolls(3, 3, 9)  # all three rolled again, the two successes too
    evs = sc.step(K.A_REROLL)
    assert trap_check(0, SPEARS, 2, [3, 3, 9]) in evs
    assert sc.decision == K.D_LIFE_OR_STUN and int(sc.s["choices_left"]) == 2


def test_crystal_in_combat_after_both_checks_only_loser_asked():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.put(1, N19)
    sc.rolls(5, 9)
    evs = sc.step(K.A_ATTACK)
    assert combats(evs) == [(0, 1, 5, 9)], "both Combat Checks are made first"
    assert sc.decision == K.D_REROLL and sc.decider == 0, "the loser is asked, not the winner"
    assert life(sc, 0) == 4
    sc.rolls(11)
    evs = sc.step(K.A_REROLL)
    assert combats(evs) == [(0, 1, 11, 9)], "only the loser's check is rerolled"
    assert sc.decision == K.D_REROLL and sc.decider == 1, "now seat 1 lost: its turn to decide"
    assert K.to_act(sc.s) == 1
    sc.step(K.A_KEEP)
    assert life(sc, 1) == 3 and life(sc, 0) == 4
    assert sc.s["crystal"][:2].tolist() == [0, 1]


def test_crystal_in_combat_reroll_tie_repeats_both():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(1, crystal=0)
    sc.rolls(5, 9)
    sc.step(K.A_ATTACK)
    sc.rolls(9, 4, 10)  # the reroll ties at 9: both checks again, 4 : 10
    evs = sc.step(K.A_REROLL)
    assert combats(evs) == [(0, 1, 4, 10)]
    assert sc.decision == K.D_MAIN and life(sc, 0) == 3, "its Crystal is spent: no second reroll"


def test_crystal_winner_of_combat_not_asked():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.put(1, N19)
    sc.set(1, crystal=0)
    sc.rolls(9, 5)
    sc.step(K.A_ATTACK)
    assert sc.decision == K.D_MAIN and life(sc, 1) == 3


def test_crystal_activate_costs_two_actions():
    sc = arena()
    sc.put(0, N19)
    assert sc.legal(K.A_ACTIVATE_CRYSTAL)
    sc.actions(1)
    assert not sc.legal(K.A_ACTIVATE_CRYSTAL), "2 actions, not spent partially"
    sc.actions(2)
    evs = sc.step(K.A_ACTIVATE_CRYSTAL)
    assert ev(K.EV_CRYSTAL, 0, 1) in evs and int(sc.s["crystal"][0]) == 1
    assert sc.decider == 1, "both actions spent: the turn passes"
    sc.fresh_turn(0)
    assert not sc.legal(K.A_ACTIVATE_CRYSTAL), "already active"


def test_crystal_reroll_decision_by_owner_seat():
    sc = arena(crystals=True)
    sc.put(0, N19)
    sc.put(1, N20)
    sc.move(EAST)
    sc.step(K.A_DECLINE)
    sc.set(0, crystal=0)
    sc.rolls(4, 9)
    sc.step(K.A_COUNTER)  # seat 1 attacks and loses during seat 0's turn
    assert sc.decision == K.D_REROLL and sc.decider == 1 and K.to_act(sc.s) == 1
    assert int(sc.s["seat"]) == 0


def test_crystal_ask_false_never_asks():
    sc = arena(crystals=True, ask_crystal=False)
    sc.put(0, N19)
    sc.put(1, N19)
    sc.golem(N20)
    sc.rolls(5, 9)
    sc.step(K.A_ATTACK)
    assert sc.decision == K.D_MAIN and life(sc, 0) == 3
    sc.rolls(5)
    sc.move(EAST)
    assert sc.pos(0) == START0 and sc.s["crystal"][:2].tolist() == [1, 1]


# =====================================================================================
# Poisoned Spears: 3 rolls 8+, per failed roll the victim chooses lose 1 Life or 1 stun
# =====================================================================================
def test_poisoned_spears_three_rolls_eight_plus():
    assert (int(C.TRAP_ROLLS[SPEARS]), int(C.TRAP_DIFFICULTY[SPEARS])) == (3, 8)
    sc = arena()
    sc.put(0, N19)
    sc.place_trap(N20, SPEARS)
    sc.rolls(8, 7, 12)
    evs = sc.move(EAST)
    assert trap_check(0, SPEARS, 1, [8, 7, 12]) in evs, "8 passes, 7 fails"
    assert sc.decision == K.D_LIFE_OR_STUN and int(sc.s["choices_left"]) == 1
    sc.step(K.A_TAKE_STUN)
    assert int(sc.s["stun"][0]) == 1 and life(sc, 0) == 4


def test_poisoned_spears_victim_chooses_per_failed_roll():
    sc = arena()
    sc.put(0, N19)
    sc.place_trap(N20, SPEARS)
    sc.rolls(2, 2, 2)
    sc.move(EAST)
    for choice in (K.A_TAKE_STUN, K.A_LOSE_LIFE, K.A_TAKE_STUN):
        assert sc.decision == K.D_LIFE_OR_STUN and sc.decider == 0
        sc.step(choice)
    assert life(sc, 0) == 3 and int(sc.s["stun"][0]) == 2 and sc.decision == K.D_MAIN


def test_poisoned_spears_victim_decides_when_not_active():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, CENTRE)
    sc.place_trap(N17, SPEARS)
    sc.move(WEST)
    sc.rolls(10, 3)
    sc.step(K.A_FREE_ATTACK)
    sc.rolls(2, 9, 9)
    sc.step(K.A_PUSH_DIR + WEST)
    assert sc.decision == K.D_LIFE_OR_STUN and sc.decider == 1 and K.to_act(sc.s) == 1
    sc.step(K.A_TAKE_STUN)
    assert int(sc.s["stun"][1]) == 1 and life(sc, 1) == 3 and sc.decision == K.D_MAIN and sc.decider == 0


def test_poisoned_spears_death_ends_remaining_choices():
    sc = arena()
    sc.put(0, N19)
    sc.set(0, life=1)
    sc.place_trap(N20, SPEARS)
    sc.rolls(2, 2, 2)
    sc.move(EAST)
    evs = sc.step(K.A_LOSE_LIFE)
    assert ev(K.EV_DEATH, 0, N20) in evs and sc.pos(0) == START0
    assert sc.decision == K.D_MAIN and life(sc, 0) == 4 and int(sc.s["stun"][0]) == 0, (
        "the resurrected character takes no more of the trap"
    )


# =====================================================================================
# Statistics from the event log
# =====================================================================================
def test_stat_combat_attacker_wins_half():
    sc = arena()
    sc.put(0, N19)
    sc.put(1, N19)
    sc.s["rng"][0] = seed_state(np.uint64(424242))
    n, wins, ties_left = 4000, 0, 0
    for _ in range(n):
        sc.fresh_turn(0)
        sc.set(0, life=4)
        sc.set(1, life=4)
        assert K.step(sc.s, K.A_ATTACK)
        (c,) = combats(events_of(sc.s, K.EV_COMBAT))
        ties_left += c[2] == c[3]
        wins += c[2] > c[3]
    assert ties_left == 0, "a combat always ends with a winner"
    assert abs(wins / n - 0.5) < 4.5 * np.sqrt(0.25 / n), wins / n


@pytest.mark.parametrize(("trap", "fail_rate"), [(SPEARS, 21 / 36), (PIT, 15 / 36)], ids=["spears_8", "pit_7"])
def test_stat_trap_per_roll_failure_rate_matches_difficulty(trap, fail_rate):
    sc = arena()
    sc.place_trap(N20, trap, face_up=True)
    sc.s["rng"][0] = seed_state(np.uint64(77 + trap))
    games, failed, rolled = 2500, 0, 0
    for _ in range(games):
        sc.fresh_turn(0)
        sc.put(0, N19)
        sc.set(0, life=4, stun=0)
        assert K.step(sc.s, K.A_MOVE + EAST)
        (check,) = events_of(sc.s, K.EV_TRAP_CHECK)
        failed += check[3]
        rolled += check[4]
        while int(sc.s["decision"]) == K.D_LIFE_OR_STUN:
            assert K.step(sc.s, K.A_TAKE_STUN)
    p = fail_rate
    assert abs(failed / rolled - p) < 4.5 * np.sqrt(p * (1 - p) / rolled), failed / rolled
