"""The Labyrinx heuristic: legal, leaves the state alone, blind to hidden information,
deterministic, better than random play; and the generic agents on this ruleset."""

from __future__ import annotations

import numpy as np
from labyrinx_helpers import ENV_ID, EXIT, B, Scenario, cell, options
from numba import njit

import labyrinth_env
from labyrinth_env.agents import HeuristicAgent, make_agent
from labyrinth_env.agents.evaluate import play_game
from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.labyrinx import kernel as K


@njit(cache=True)
def _determinize_one(states, seat, seed):
    K.determinize(states[0], seat, seed)


def test_heuristic_registered_like_the_others():
    assert labyrinth_env.get_spec(ENV_ID).heuristic_module == "labyrinth_env.rulesets.labyrinx.heuristic"


def test_heuristic_is_legal_leaves_the_state_alone_and_never_reads_hidden_information():
    rng = np.random.default_rng(11)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
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
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
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
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    assert B.heuristic_one(sc.states, hmask) == K.A_STOP


def test_one_heuristic_beats_random_players():
    for n in (2, 4):
        games = 160
        out = np.zeros((games, 4), dtype=np.int64)
        seeds = np.arange(1000, 1000 + games, dtype=np.uint64)
        B.play_games(new_states(K, 1), options(n), seeds, 1, 5, out)
        wins = int((out[:, 0] == 0).sum())
        assert (out[:, 3] == K.WON).mean() > 0.9
        assert wins / games > 1.5 / n, (n, wins)


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
