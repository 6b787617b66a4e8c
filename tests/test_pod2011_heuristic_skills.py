"""The Paths of Destiny 2011 heuristic with the skills that change a way (issue 21): Prayer,
Dark Enlivening, Mystification, the Misfortune Rite (and where its turn-back sends the
victim) and Correction. A position per skill where it helps, and one where it does not.

Board: ``east()`` lays straight corridors centre - 19 - 20 - key field 0 (N21), the Guard
parked on key field 2; seat 0 acts (a fresh round, two actions).
"""

from __future__ import annotations

import numpy as np
from generic_env_checks import determinizer
from hex_helpers import events_of, key_node_of, node
from pod2011_helpers import B, Scenario, east, options_vector

from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011.kernel.rite import A_RITE

N19, N20, N21 = node(19), node(20), key_node_of(0)
FAR = key_node_of(2)
EAST, WEST = 0, 3
ENLIVEN = K.A_SKILL_DIR + (K.SK_DARK_ENLIVENING % K.SKILLS_PER_CHARACTER) * 6
MYSTIFY = K.A_SKILL_DIR + (K.SK_MYSTIFICATION % K.SKILLS_PER_CHARACTER) * 6


def act(sc: Scenario) -> int:
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    a = int(B.heuristic_one(sc.states, hmask))
    assert hmask[a], a
    return a


def carrier_west(character: str, trap_at: int, trap: str, face_up: bool = True) -> Scenario:
    """``character`` (seat 0) carries a key on N20, the centre two moves west; a Monk far
    away; ``trap`` on ``trap_at``."""
    sc = east(character, "Monk")
    sc.put(0, N20)
    sc.give_key(0, 2)
    sc.put(1, key_node_of(3))
    sc.place_trap(trap_at, trap, face_up=face_up)
    return sc


def test_heuristic_prayer_sends_a_key_carrier_into_the_awake_guard_l396():
    # l.396 "the player you moved bears standard consequences": moved into the awake Guard's
    # corridor, the Witch goes home 35 times in 36
    def position(carrier: bool) -> Scenario:
        sc = east("Monk", "Witch")
        sc.put(0, N20)
        sc.put(1, N20)
        sc.set(0, life=1)  # too weak to attack her
        sc.s["blessing"][0] = 1  # already blessed: Prayer is his skill now
        if carrier:
            sc.give_key(1, 2)
        sc.guard(N19)
        return sc

    assert act(position(carrier=True)) == K.A_PRAY + 0 * 6 + WEST
    assert not K.A_PRAY <= act(position(carrier=False)) < K.A_TRAP_ORDER, "nobody to stop: no prayer"


def test_heuristic_dark_enlivening_moves_a_door_trap_out_of_her_way_l416():
    # the Witch carries a key west to the centre; the Portcullis in her corridor holds whoever
    # leaves it: she moves it east onto the key field behind her
    assert act(carrier_west("Witch", N20, "Portcullis")) == ENLIVEN + EAST
    assert act(carrier_west("Witch", N20, "Jammed Door")) == K.A_MOVE + WEST, "a door trap costing less"


def test_heuristic_mystification_swaps_the_trap_ahead_into_the_corridor_she_stands_in_l382():
    # the Illusionist carries a key west; the Swinging Blade lies face up on N19, her next
    # step: swapped into her own corridor (where it does not work on her), her way is clear
    assert act(carrier_west("Illusionist", N19, "Swinging Blade")) == MYSTIFY + WEST
    # face down, the trap counts by its presence only (the mean harm): not worth the action
    assert act(carrier_west("Illusionist", N19, "Swinging Blade", face_up=False)) == K.A_MOVE + WEST


def test_heuristic_misfortune_rite_sets_off_the_trap_under_a_key_carrier_next_to_her_l417():
    def position(carrier: bool) -> Scenario:
        sc = east("Witch", "Monk")
        sc.put(0, N19)
        sc.put(1, N20)
        if carrier:
            sc.give_key(1, 2)
        sc.place_trap(N20, "Swinging Blade", face_up=True)
        return sc

    assert act(position(carrier=True)) == A_RITE + EAST
    assert act(position(carrier=False)) != A_RITE + EAST, "not on a player without a key"


def test_heuristic_misfortune_rite_sends_the_victim_away_from_his_key_l418():
    # l.418 "If a witch activates a turn-back trap, she is to decide where the character will
    # go": the Monk wants key 0 on the key field east of him; she sends him west
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.place_trap(N20, "Magic Barrier", face_up=True)
    sc.dice(1, 1)
    sc.step(A_RITE + EAST)
    assert sc.decision == K.D_RITE and sc.decider == 0
    assert sc.legal(A_RITE + EAST) and sc.legal(A_RITE + WEST)
    assert act(sc) == A_RITE + WEST


def test_heuristic_correction_turns_the_field_that_opens_its_way_l371():
    # the Architect carries a key on N20; field 19 lies across the line (north-east to
    # south-west), so his way round runs over fields still to build: turned by 2/6 (or 5/6)
    # it joins 20 to the centre
    def position(turned_across: bool) -> Scenario:
        sc = east("Architect", "Witch", line=False)
        sc.lay(20, "03")
        sc.lay(19, "14" if turned_across else "03")
        sc.put(0, N20)
        sc.give_key(0, 2)
        sc.put(1, key_node_of(3))
        return sc

    assert act(position(turned_across=True)) == K.A_CORRECTION + 3 * 5 + 1
    assert act(position(turned_across=False)) == K.A_MOVE + WEST, "the way is open: no turn"


_determinize_one = determinizer(K)


def test_heuristic_with_these_skills_is_legal_leaves_the_state_alone_and_never_reads_hidden_information():
    # whole games (random steps mixed in) with the four characters of these skills: every
    # action legal, the record untouched by the copies the skills are tried on, the same
    # action after the hidden part is dealt again (face-down traps, piles, dice)
    rng = np.random.default_rng(21)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(K.NUM_SEATS)
    used, compared = set(), 0
    for g in range(4):
        cast = ["Monk", "Witch", "Architect", "Illusionist"][g:] + ["Monk", "Witch", "Architect", "Illusionist"][:g]
        states = new_states(K, 1)
        B.init_one(states, np.uint64(300 + g), options_vector(num_players=4, characters=cast, max_turns=60))
        B.refresh_one(states, mask, rewards)
        while K.to_act(states[0]) >= 0:
            before = states.tobytes()
            action = int(B.heuristic_one(states, hmask))
            assert states.tobytes() == before and mask[action] == 1
            if rng.random() < 0.5:
                other = states.copy()
                _determinize_one(other, int(states[0]["decider"]), np.uint64(rng.integers(1 << 62)))
                assert int(B.heuristic_one(other, hmask)) == action
                compared += 1
            if rng.random() < 0.2:
                action = int(rng.choice(np.flatnonzero(mask)))
            B.step_one(states, action, mask, rewards)
            used.update(e[2] for e in events_of(states[0], K.EV_SKILL))
    assert compared > 150
    assert used & {K.SK_PRAYER, K.SK_DARK_ENLIVENING, K.SK_MYSTIFICATION, K.SK_MISFORTUNE_RITE, K.SK_CORRECTION}


def test_heuristic_enslavement_steps_a_keyless_rival_onto_a_key_carrier_l401():
    # l.401 "If a player transformed into the Guard meets another player, the latter loses a
    # key.": the Witch (no key) shares the Mistress's corridor, the Thief carries a key next to it
    def position(carrier: bool) -> Scenario:
        sc = east("Mistress of Golems", "Witch", "Thief")
        sc.put(0, N19)
        sc.put(1, N19)
        sc.put(2, N20)
        if carrier:
            sc.give_key(2, 3)
        return sc

    sc = position(carrier=True)
    assert act(sc) == K.A_SKILL_AT + 0, "Enslavement on the Witch (player +1)"
    assert act(position(carrier=False)) != K.A_SKILL_AT + 0, "nobody to rob: no Enslavement"


def test_heuristic_enslavement_steps_him_onto_the_key_carrier():
    sc = east("Mistress of Golems", "Witch", "Thief")
    sc.put(0, N19)
    sc.put(1, N19)
    sc.put(2, N20)
    sc.give_key(2, 3)
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.step(K.A_SKILL_AT + 0)
    assert sc.decision == K.D_GUARD_DIR
    assert act(sc) == K.A_GUARD_DIR + EAST, "onto the Thief, who drops his key"
    sc.step(K.A_GUARD_DIR + EAST)
    assert int(sc.s["key_node"][3]) == N20


def test_heuristic_of_two_traps_disarms_the_door_and_sets_off_the_worse_l411_l417():
    # v6: Disarming Traps (l.411) and the Misfortune Rite (l.417) take one of a corridor's
    # two traps, the user's choice: the Thief disarms the face-up door trap he would have to
    # leave through, wherever it lies; the Witch sets off the trap that hurts more
    sc = east("Thief", "Monk")
    sc.put(0, N20)
    sc.put(1, key_node_of(3))
    sc.place_trap(N20, "Poisoned Darts", face_up=True)
    sc.s["node_trap2"][N20] = sc.trap_token_of(C.TRAP_NAMES.index("Jammed Door"))
    sc.s["trap2_up"][N20] = 1
    assert act(sc) == K.A_SKILL + 1, "the door trap in the second slot is worth disarming"
    sc.step(K.A_SKILL + 1)
    assert sc.decision == K.D_WHICH_TRAP and act(sc) == K.A_TRAP_ORDER + 1
    sc = east("Witch", "Monk")
    sc.put(0, N19)
    sc.put(1, N20)
    sc.give_key(1, 2)
    sc.place_trap(N20, "Jammed Door", face_up=True)
    sc.s["node_trap2"][N20] = sc.trap_token_of(C.TRAP_NAMES.index("Poisoned Darts"))
    sc.s["trap2_up"][N20] = 1
    sc.step(A_RITE + EAST)
    assert sc.decision == K.D_WHICH_TRAP and act(sc) == K.A_TRAP_ORDER + 1, "the darts, not the door"
