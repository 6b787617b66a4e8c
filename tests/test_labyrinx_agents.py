"""The Labyrinx heuristic: legal, leaves the state alone, blind to hidden information,
deterministic, better than random play; and the generic agents on this ruleset."""

from __future__ import annotations

import numpy as np
from generic_env_checks import determinizer
from labyrinx_helpers import ENV_ID, EXIT, INVARIANTS, B, Scenario, cell, heuristic_games, options

import labyrinth_env
from labyrinth_env.agents import HeuristicAgent, make_agent
from labyrinth_env.agents.evaluate import play_game
from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.labyrinx import components as C
from labyrinth_env.rulesets.labyrinx import kernel as K

_determinize_one = determinizer(K)


def test_heuristic_registered_like_the_others():
    assert labyrinth_env.get_spec(ENV_ID).heuristic_module == "labyrinth_env.rulesets.labyrinx.heuristic"


def test_heuristic_is_legal_leaves_the_state_alone_and_never_reads_hidden_information():
    rng = np.random.default_rng(11)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(K.NUM_SEATS)
    compared = 0
    decisions = set()
    for n in (2, 3, 4, 5, 6, 2, 4):
        states = new_states(K, 1)
        B.init_one(states, np.uint64(rng.integers(1 << 40)), options(n, character_powers=True))
        steps = 0
        while K.to_act(states[0]) >= 0 and steps < 600:
            before = states.tobytes()
            action = int(B.heuristic_one(states, hmask))
            assert states.tobytes() == before
            B.refresh_one(states, mask, rewards)
            assert mask[action], K.DECISIONS[int(states[0]["decision"])]
            decisions.add(int(states[0]["decision"]))
            seat = int(states[0]["decider"])
            other = states.copy()
            _determinize_one(other, seat, np.uint64(rng.integers(1 << 62)))
            assert int(B.heuristic_one(other, hmask)) == action, K.DECISIONS[int(states[0]["decision"])]
            compared += 1
            if rng.random() < 0.3:
                action = int(rng.choice(np.flatnonzero(mask)))
            assert B.step_one(states, action, mask, rewards) != -2
            steps += 1
    assert compared > 1000
    assert {K.D_MAIN, K.D_EXPAND, K.D_ROTATE, K.D_DISCARD} <= decisions


def test_heuristic_is_deterministic_and_plays_through_the_agent():
    env = labyrinth_env.make(ENV_ID, num_players=3)
    a = play_game(env, HeuristicAgent(), 5)
    b = play_game(env, HeuristicAgent(), 5)
    assert a == b


def test_heuristic_attempts_a_visible_challenge_it_beats_and_peeks_before_walking_in():
    sc = Scenario(2)
    sc.character(0, "Knight")  # 2 monster icons
    sc.set_hand(0, ["corner", "corner"])
    sc.set_hand(1, [])
    sc.main(0)
    x = sc.lay(2, 3, "straight with a monster", 0)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    assert B.heuristic_one(sc.states, hmask) == K.A_MOVE + x
    sc.s["cell_up"][x] = 0
    sc.s["cell_rot"][x] = -1
    assert B.heuristic_one(sc.states, hmask) == K.A_PEEK + x  # unknown: look first
    sc.s["known"][0, x] = 1
    assert B.heuristic_one(sc.states, hmask) == K.A_MOVE + x  # 4 of 6 faces win
    assert sc.s["pos"][0] == EXIT and cell(2, 3) == x


def test_heuristic_does_not_help_a_rival_it_moves():
    sc = Scenario(2)
    sc.s["decision"] = K.D_MONSTER
    sc.s["decider"] = 1
    sc.s["mv_kind"] = K.MV_MONSTER
    sc.s["mv_seat"] = 0
    sc.s["mv_mover"] = 1
    sc.s["mv_steps"] = 3
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    assert B.heuristic_one(sc.states, hmask) == K.A_STOP


def test_heuristic_moves_a_rival_loser_into_a_monster_it_probably_fails():
    # l.49: the full difficulty or not at all; the first step into a challenge interrupts it
    sc = Scenario(3)
    s = sc.s
    sc.character(0, "Engineer")  # no monster icon
    sc.set_hand(0, [])
    sc.give_treasure(0, 1)
    sc.main(0)
    a = sc.lay(2, 3, "straight with a monster", face_up=False)
    b = sc.lay(1, 3, "straight with a monster", 0)
    sc.step(K.A_MOVE + a)
    sc.dice(6, 3)
    sc.step(K.A_ROT + 0)
    assert sc.decision().startswith("move the loser of the monster") and s["decider"] == 1
    sc.give_treasure(0, 1)  # the lost one back: a rival with a treasure to lose
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    assert B.heuristic_one(sc.states, hmask) == K.A_CELL + b
    events = sc.step(K.A_CELL + b)
    assert (K.EV_FAIL, 0, C.MONSTER, 1, 1, 0) in events and s["treasure"][0] == 0


def test_a_four_player_heuristic_game_without_max_turns_ends():
    # issue 19: with max_turns=None a four-player heuristic race ran past 20,000 steps; the
    # heuristic now finishes its races, and the guaranteed end would cut any other short
    env = labyrinth_env.make(ENV_ID, num_players=4, max_turns=None)
    for seed in range(3):
        play_game(env, HeuristicAgent(), seed)
        assert env.unwrapped.record["outcome"] == K.WON
    for table, n, powers in ((9, 4, False), (9, 4, True), (5, 4, False), (13, 4, True), (7, 6, False), (11, 2, True)):
        out = np.zeros(9, dtype=np.int64)
        seeds = np.arange(1, 301, dtype=np.uint64) * 7919 + table
        opts = options(n, max_turns=None, table_size=table, character_powers=powers)
        heuristic_games(new_states(K, 1), opts, seeds, (1 << n) - 1, 0, out)
        assert out[5] == 0, INVARIANTS.get(int(out[5]))
        assert out[0] == 300 and out[1] == 300 and out[2] == 0, (table, n, powers, out)  # every game won
        assert out[3] > 0 and out[4] == out[3], (table, n, powers, out)  # every race finished by a racer
        assert out[7] < C.RACE_TURN_LIMIT


def test_heuristic_racer_in_the_exit_space_steps_out_and_moves_back_in():
    # l.58: only moving to the exit space wins the race; standing there does not
    sc = Scenario(3, table_size=5)
    s = sc.s
    sc.lay(0, 2, "crossing", 0)  # north of the exit space's middle cell (1,2)
    s["race"] = 1
    s["race_turns"] = 1
    s["racer"][:2] = 1
    sc.main(1)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    assert int(s["pos"][1]) == s["exit0"]
    a = int(B.heuristic_one(sc.states, hmask))
    assert a == K.A_MOVE + cell(0, 2)
    sc.step(a)
    a = int(B.heuristic_one(sc.states, hmask))
    assert a == K.A_MOVE + cell(1, 2) or env_exit_move(sc, a)
    events = sc.step(a)
    assert (K.EV_WIN, 1, K.WIN_RACE, 0, 0, 0) in events


def env_exit_move(sc: Scenario, a: int) -> bool:
    """A move into any cell of the exit space (one location)."""
    return K.A_MOVE <= a < K.A_PEEK and sc.s["cell_type"][a - K.A_MOVE] == K.T_EXIT


def test_heuristic_racer_plays_a_card_where_the_way_is_empty():
    sc = Scenario(3, table_size=5)
    s = sc.s
    sc.lay(0, 1, "straight", 1)  # E-W, where seat 1 stands: west of it (0,0) is empty
    sc.lay(1, 0, "corner", 0)  # N-E: from (0,0) down and east into the exit space (1,1)
    kinds = ["straight"] * 7 + ["straight with a door"] * 4 + ["straight with a monster"] * 4 + ["straight with a trap"]
    for x in range(25):  # everything else N-S, face up: no other way to the exit space from (0,1)
        r, c = divmod(x, 5)
        if s["cell_type"][cell(r, c)] == K.T_FREE and s["cell_card"][cell(r, c)] < 0 and (r, c) != (0, 0):
            sc.lay(r, c, kinds.pop(), 0)
    sc.place(1, 0, 1)
    sc.set_hand(1, ["corner", "crossing"])
    s["race"] = 1
    s["race_turns"] = 1
    s["racer"][:2] = 1
    sc.main(1)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    a = int(B.heuristic_one(sc.states, hmask))
    assert a == K.A_PLAY + 1  # the crossing, the most open card
    sc.step(a)
    assert int(B.heuristic_one(sc.states, hmask)) == K.A_CELL + cell(0, 0)
    sc.step(K.A_CELL + cell(0, 0))
    sc.step(int(B.heuristic_one(sc.states, hmask)))  # its rotation
    for _ in range(2):
        sc.step(int(B.heuristic_one(sc.states, hmask)))  # onto it, then down to (1,0)
    assert s["pos"][1] == cell(1, 0) and s["seat"] == 0  # the turn's three actions are spent


def test_one_heuristic_beats_random_players():
    for n in (2, 4):
        games = 160
        out = np.zeros(9, dtype=np.int64)
        seeds = np.arange(1000, 1000 + games, dtype=np.uint64)
        # seat 0 the heuristic, the others at random, on play_games' dice for its rng_seed 5
        heuristic_games(new_states(K, 1), options(n), seeds, 1, 5 * 2654435761 + 1, out)
        assert out[5] == 0, INVARIANTS.get(int(out[5]))
        assert out[0] == games and out[1] / games > 0.9
        assert out[8] / games > 1.5 / n, (n, out[8])


def test_mcts_agent_plays_legal_moves():
    env = labyrinth_env.make(ENV_ID, num_players=2)
    env.reset(seed=4)
    agent = make_agent("mcts:simulations=16,rollout_turns=1", 3)
    for _ in range(25):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        action = agent.act(obs, env)
        assert obs["action_mask"][action] == 1
        env.step(action)
