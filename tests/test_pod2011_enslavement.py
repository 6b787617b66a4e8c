"""The Mistress of Golems' Enslavement (Paths of Destiny 2011, l.400-401): one scenario test
per sentence of the comment, and one per reading of ours (how long he is the Guard, who
moves him, his rounds, the cost, the target), each named after it.

l.400 "If you make a player, who was transformed into the Guard, fall asleep, using the Guard
card (crescent moon symbol), he receives 1 stun point. If a sun-burst symbol appears,
transfer him to the central field of the labyrinth. If the transformed player encounters the
Guard, he ignores him." l.401 "If a player transformed into the Guard meets another player,
the latter loses a key."

Board: ``east()`` lays straight corridors centre - 19 - 20 - key field 0 (N21); the Guard
is parked on key field 2; the Mistress (seat 0) and the Witch (seat 1) stand on N19.
"""

from __future__ import annotations

import numpy as np
from hex_helpers import events_of, key_node_of, node
from numba import njit
from pod2011_helpers import CENTER_NODE, Scenario, options_vector

from labyrinth_env.core.contract import new_states
from labyrinth_env.core.rng import pick_random, randint
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K
from labyrinth_env.rulesets.paths_of_destiny_2011.env import raw_env, render_text
from labyrinth_env.rulesets.paths_of_destiny_2011.heuristic import heuristic_action

# the module as pytest imports it: as ``test_pod2011_env`` its jitted checks compiled twice (1.6 s CPU)
from tests.test_pod2011_env import INVARIANTS, _invariant_error

N19, N20, N21 = node(19), node(20), key_node_of(0)
FAR = key_node_of(2)
EAST, WEST = 0, 3
ENSLAVE = K.A_SKILL_AT + 0  # "use skill 1 on player +1": the Witch, seat 1


def east(*others: str) -> Scenario:
    """The Mistress (seat 0) and the Witch (seat 1) on N19, ``others`` (seats 2..) on their start fields."""
    sc = Scenario(num_players=2 + len(others), characters=["Mistress of Golems", "Witch", *others])
    sc.lay_line(0)
    sc.guard(FAR)
    for p in range(2 + len(others)):
        sc.set(p, crystal=0)
    sc.put(0, N19)
    sc.put(1, N19)
    return sc


def skill_at_seat(sc: Scenario, target: int) -> int:
    """Enslavement ("use skill 1 on player +k") on seat ``target``; the Mistress is seat 0."""
    return K.A_SKILL_AT + sc.offset(0, target) - 1


def test_enslavement_moon_gives_the_transformed_player_one_stun_point_l400():
    # l.400 "If you make a player, who was transformed into the Guard, fall asleep, using the
    # Guard card (crescent moon symbol), he receives 1 stun point."
    sc = east()
    sc.next_guard_card(C.GUARD_MOON)
    evs = sc.step(ENSLAVE)
    assert (K.EV_SKILL, 0, K.SK_ENSLAVEMENT, 1, N19, 0) in evs
    assert int(sc.s["stun"][1]) == 1 and sc.pos(1) == N19, "1 stun point where he stands"
    assert int(sc.s["guard_asleep"]) == 0 and int(sc.s["guard_node"]) == FAR, "the real Guard does not sleep"
    assert int(sc.s["slave"]) == -1 and sc.decision == K.D_MAIN and sc.decider == 0


def test_enslavement_sun_burst_transfers_him_to_the_central_field_l400():
    # l.400 "If a sun-burst symbol appears, transfer him to the central field of the labyrinth."
    sc = east()
    sc.next_guard_card(C.GUARD_SUN)
    evs = sc.step(ENSLAVE)
    assert sc.pos(1) == CENTER_NODE and (K.EV_ENSLAVED_MOVE, 1, N19, CENTER_NODE, 0, 0) in evs
    assert int(sc.s["guard_node"]) == FAR, "the real Guard stays where it is"
    assert int(sc.s["stun"][1]) == 0 and int(sc.s["slave"]) == -1


def test_enslavement_he_ignores_the_real_guard_l400():
    # l.400 "If the transformed player encounters the Guard, he ignores him."
    sc = east()
    sc.guard(N20)
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.step(ENSLAVE)
    sc.dice(1, 1)  # a meeting would send him home
    evs = sc.step(K.A_GUARD_DIR + EAST)
    assert sc.pos(1) == N20 and not events_of(evs, K.EV_GUARD_MEETING), "no meeting, he stays"
    assert int(sc.s["guard_node"]) == N20 and int(sc.s["slave"]) == -1


def test_enslavement_a_player_he_meets_loses_a_key_l401():
    # l.401 "If a player transformed into the Guard meets another player, the latter loses a key."
    sc = east("Thief")
    sc.put(2, N20)
    sc.give_key(2, 3)
    sc.give_key(0, 4)  # the Mistress stands with him when the card is taken: ignored (l.330)
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.step(skill_at_seat(sc, 1))
    evs = sc.step(K.A_GUARD_DIR + EAST)
    assert (K.EV_ENSLAVED_MEETING, 2, 1, 3, 0, 0) in evs and (K.EV_DROP_KEY, 2, 3, N20, 0, 0) in evs
    assert int(sc.s["key_holder"][3]) == -1 and int(sc.s["key_node"][3]) == N20, "dropped where he is met"
    assert int(sc.s["key_holder"][4]) == 0, "the Mistress keeps hers"
    assert sc.pos(2) == N20 and int(sc.s["life"][2]) == K.LIFE, "no throw, no fight, no harm besides"


def test_enslavement_the_mistress_moves_him_by_the_guards_rules():
    # l.296 "after which you can immediately make a move in accordance with the instruction on
    # the card"; l.320 "He is resistant to traps"; l.321-323 never back into the corridor he
    # came from, unless at the end of a corridor
    sc = east()
    sc.place_trap(N20, "Poisoned Darts")
    sc.next_guard_card(C.GUARD_MOVE, 3)
    sc.step(ENSLAVE)
    assert sc.decision == K.D_GUARD_DIR and sc.decider == 0, "she steps him"
    assert [a - K.A_GUARD_DIR for a in sc.legal_actions()] == [EAST, WEST]
    evs = sc.step(K.A_GUARD_DIR + EAST)
    assert not events_of(evs, K.EV_TRAP_CHECK) and not events_of(evs, K.EV_TRAP_REVEALED), "traps ignored"
    moves = [e[2:4] for e in events_of(evs, K.EV_ENSLAVED_MOVE)]
    # N20: not back west; N21 (the key field): the end, so back to N20; never onto a start field
    assert moves == [(N19, N20), (N20, N21), (N21, N20)]
    assert sc.pos(1) == N20 and int(sc.s["slave"]) == -1


def test_enslavement_he_is_the_guard_for_the_one_card_only():
    # l.400 "using the Guard card": once it is carried out he is himself again; the next Guard
    # card moves the real Guard
    sc = east()
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.step(ENSLAVE)
    evs = sc.step(K.A_GUARD_DIR + EAST)
    assert (K.EV_ENSLAVED_END, 1, N20, 0, 0, 0) in evs and int(sc.s["slave"]) == -1
    sc.end()
    assert int(sc.s["seat"]) == 1
    sc.guard(CENTER_NODE)  # one way out: east, onto N19
    sc.next_guard_card(C.GUARD_MOVE, 1)
    evs = sc.step(K.A_MOVE_GUARD)
    assert sc.pos(1) == N20 and not events_of(evs, K.EV_ENSLAVED_MOVE), "the Witch's card is the Guard's"
    assert [e[2:4] for e in events_of(evs, K.EV_GUARD_MOVE)] == [(CENTER_NODE, N19)]


def test_enslavement_he_keeps_his_rounds():
    # he is the Guard only while her card is carried out: his next round is his own
    sc = east()
    sc.next_guard_card(C.GUARD_MOVE, 1)
    sc.step(ENSLAVE)
    sc.step(K.A_GUARD_DIR + EAST)
    sc.end()
    assert sc.decision == K.D_MAIN and sc.decider == 1 and int(sc.s["actions_left"]) == 2
    obs = sc.observe(1)
    assert not obs[K.OBS_CHARS + K.C_SLAVE : K.OBS_CHARS + K.C_SLAVE + K.NUM_SEATS].any()
    sc.move(WEST)
    assert sc.pos(1) == N19, "he moves himself"


def test_enslavement_costs_an_action_and_the_rounds_guard_card_l314():
    # l.296 "(the first from the top, it costs 1 action)"; l.314 "In one round you may take the
    # Guard movement card once only."
    sc = east()
    sc.next_guard_card(C.GUARD_STAY_CARD)
    sc.step(ENSLAVE)
    assert int(sc.s["actions_left"]) == 1 and int(sc.s["guard_used"]) == 1
    assert not sc.legal(K.A_MOVE_GUARD), "the card of the round is taken"
    sc = east()
    sc.next_guard_card(C.GUARD_STAY_CARD)
    sc.step(K.A_MOVE_GUARD)
    assert sc.decision == K.D_MAIN and int(sc.s["actions_left"]) == 1
    assert not sc.legal(ENSLAVE), "the Guard moved: no card left for him this round"


def test_enslavement_only_on_a_player_in_her_corridor():
    sc = east()
    sc.put(1, N20)
    assert not sc.legal(ENSLAVE), "next to her corridor is too far"
    sc.put(1, N19)
    assert sc.legal(ENSLAVE)
    sc.set(0, stun=1)
    assert not sc.legal(ENSLAVE), "a stunned Mistress uses no skill (l.351)"


def test_enslavement_who_is_transformed_is_public():
    # l.131 "The character and its skills must be visible to other players": the observation of
    # every seat, the text board and the log name him while she steps him
    sc = east()
    sc.next_guard_card(C.GUARD_MOVE, 2)
    evs = sc.step(ENSLAVE)
    for seat, rel in ((0, 1), (1, 0)):
        block = sc.observe(seat)[K.OBS_CHARS + K.C_SLAVE : K.OBS_CHARS + K.C_SLAVE + K.NUM_SEATS]
        assert np.flatnonzero(block).tolist() == [rel]
    assert "player 1 at (1,0)" in render_text(sc.s) and "transformed into the Guard" in " ".join(
        render_text(sc.s).split()
    )
    evs += sc.step(K.A_GUARD_DIR + EAST)
    env = raw_env(num_players=2, characters=["Mistress of Golems", "Witch"])
    log = [env.decode_event(np.array(e)) for e in evs]
    types = [e["type"] for e in log]
    assert types.count("enslaved_move") == 2 and "enslaved_end" in types
    assert {"type": "skill", "seat": 0, "skill": "Enslavement", "target": 1, "node": log[0]["node"]} == log[0]


@njit(cache=True)
def _heuristic_games(states, opts, seeds, rng_seed: int, heuristic_seats: int, one_in: int, enslave: bool, mask, out):
    """Games of the heuristic in the seats of the bit set ``heuristic_seats`` (with one action
    in ``one_in`` random, if ``one_in`` > 0) and random legal actions in the others; with
    ``enslave`` the Mistress enslaves whenever she may; the invariants after every step.
    ``out``: games, Enslavements, keys lost to him, error code, game, step, games won, games
    seat 0 won. (``test_pod2011_agents``' heuristic games too, which ``loops.play_games``
    played: each jitted game loop links and emits the kernel's code once more.)"""
    s = states[0]
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(rng_seed)
    for g in range(seeds.shape[0]):
        K.init(s, seeds[g], opts)
        steps = 0
        while s.outcome == K.RUNNING:
            if (heuristic_seats >> s.decider) & 1:
                a = heuristic_action(s, mask)
                if one_in > 0 and randint(rng, one_in) == 0:
                    a = pick_random(mask, rng)
            else:
                K.legal_mask(s, mask)
                a = pick_random(mask, rng)
            for k in range(K.NUM_SEATS - 1):
                if enslave and s.decision == K.D_MAIN and mask[K.A_SKILL_AT + k] and s.character[s.seat] == K.MISTRESS:
                    a = K.A_SKILL_AT + k
            K.step(s, a)
            steps += 1
            for i in range(s.num_events):
                e = s.events[i]
                if e[0] == K.EV_SKILL and e[2] == K.SK_ENSLAVEMENT:
                    out[1] += 1
                if e[0] == K.EV_ENSLAVED_MEETING and e[3] >= 0:
                    out[2] += 1
            err = _invariant_error(s)
            if err != 0:
                out[3] = err
                out[4] = g
                out[5] = steps
                return
        out[0] += 1
        out[6] += s.outcome == K.WON
        out[7] += s.outcome == K.WON and s.winner == 0


def test_enslavement_random_games_keep_the_invariants():
    # the Mistress in every seat in turn, 3 and 6 players, enslaving whenever she may
    out = np.zeros(8, dtype=np.int64)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    others = ["Witch", "Thief", "Monk", "Architect", "Illusionist"]
    for n in (3, 6):
        for seat in range(n):
            cast = others[: n - 1]
            cast.insert(seat, "Mistress of Golems")
            opts = options_vector(num_players=n, characters=cast, max_turns=150)
            seed = 100 * n + seat
            seeds = np.uint64(seed) + np.arange(40, dtype=np.uint64)
            _heuristic_games(new_states(K, 1), opts, seeds, seed, (1 << n) - 1, 5, True, mask, out)
            assert out[3] == 0, f"{INVARIANTS.get(int(out[3]))} ({n} players, game {out[4]}, step {out[5]})"
    assert out[0] == 40 * 9 and out[1] > 100 and out[2] > 5, out
