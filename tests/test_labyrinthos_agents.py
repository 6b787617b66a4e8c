"""The Labyrinthos heuristic (legal, blind to hidden information, deterministic, winning)
and the search agent on this ruleset (legal, never sees hidden information)."""

from __future__ import annotations

import numpy as np
import pytest
from generic_env_checks import determinizer
from labyrinthos_helpers import DOOR, B, Scenario, cell, options_vector

import labyrinth_env
from labyrinth_env.agents import HeuristicAgent, make_agent
from labyrinth_env.agents.evaluate import evaluate, play_game
from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.labyrinthos import components as C
from labyrinth_env.rulesets.labyrinthos import kernel as K

# the module as pytest imports it, so that its game loop compiles once for both files
from tests.test_labyrinthos_env import INVARIANTS, _games

ENV = "labyrinthos_v2"


_determinize_one = determinizer(K)


def _kernel_game(seed: int, **options):
    states = new_states(K, 1)
    B.init_one(states, np.uint64(seed), options_vector(**options))
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(K.NUM_SEATS)
    B.refresh_one(states, mask, rewards)
    return states, mask, rewards


def test_heuristic_registered_like_the_others():
    assert labyrinth_env.get_spec(ENV).heuristic_module == "labyrinth_env.rulesets.labyrinthos.heuristic"


def test_heuristic_picks_only_legal_actions_and_leaves_the_state_alone():
    rng = np.random.default_rng(1)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    checked = 0
    decisions = set()
    for n in (2, 3, 4):
        for monster in C.MONSTER_NAMES:
            states, mask, rewards = _kernel_game(int(rng.integers(1 << 40)), num_players=n, monster=monster)
            steps = 0
            while K.to_act(states[0]) >= 0 and steps < 700:
                before = states.tobytes()
                action = int(B.heuristic_one(states, hmask))
                assert states.tobytes() == before
                assert mask[action] == 1, (n, action, K.DECISIONS[int(states[0]["decision"])])
                decisions.add(int(states[0]["decision"]))
                checked += 1
                if rng.random() < 0.4:  # random steps reach states the heuristic would avoid
                    action = int(rng.choice(np.flatnonzero(mask)))
                assert B.step_one(states, action, mask, rewards) != -2
                steps += 1
    assert checked > 3000
    wanted = {K.D_HERO, K.D_MAIN, K.D_ORIENT, K.D_KEY_PICK, K.D_KEY_SLOT, K.D_WOUND, K.D_MONSTER, K.D_REFRESH}
    assert wanted | {K.D_CHARGE, K.D_DISCARD_OPT, K.D_HEAL, K.D_WALL} <= decisions


def test_heuristic_never_reads_hidden_information():
    rng = np.random.default_rng(11)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    compared = 0
    for n in (2, 3, 4):
        states, mask, rewards = _kernel_game(int(rng.integers(1 << 40)), num_players=n)
        steps = 0
        while K.to_act(states[0]) >= 0 and steps < 400:
            action = int(B.heuristic_one(states, hmask))
            seat = int(states[0]["decider"])
            for _ in range(2):
                other = states.copy()
                _determinize_one(other, seat, np.uint64(rng.integers(1 << 62)))
                assert int(B.heuristic_one(other, hmask)) == action, K.DECISIONS[int(states[0]["decision"])]
                compared += 1
            if rng.random() < 0.3:
                action = int(rng.choice(np.flatnonzero(mask)))
            B.step_one(states, action, mask, rewards)
            steps += 1
    assert compared > 800


def test_heuristic_is_deterministic_and_plays_through_the_agent():
    env = labyrinth_env.make(ENV, num_players=3)
    a = play_game(env, HeuristicAgent(), 5)
    first = list(env.unwrapped.actions_taken)
    b = play_game(env, make_agent("heuristic"), 5)
    assert first == list(env.unwrapped.actions_taken) and a == b


def _heuristic_games(num_players: int, games: int, seed: int, heuristic_seats: int, monster: str = "minotaur"):
    """The games ``loops.play_games`` plays for ``seed`` (the heuristic in the seats of
    ``heuristic_seats``, the others at random on its dice), in ``test_labyrinthos_env``'s
    loop, which checks the invariants after every step too; returns its ``out``."""
    out = np.zeros(8, dtype=np.int64)
    vec = options_vector(num_players=num_players, monster=monster)
    seeds = np.arange(seed, seed + games, dtype=np.uint64)
    _games(new_states(K, 1), vec, seeds, seed * 2654435761 + 1, heuristic_seats, out)
    assert out[2] == 0, f"{INVARIANTS.get(int(out[2]), out[2])}: game {out[5]} step {out[6]}"
    assert out[0] == games  # each won or cut at max_turns
    return out


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("monster", C.MONSTER_NAMES)
def test_heuristic_vs_heuristic_games_end_with_a_winner(num_players, monster):
    out = _heuristic_games(num_players, 100, 1000 * num_players, (1 << num_players) - 1, monster)
    assert out[3] >= 95


def test_one_heuristic_beats_random_players():
    out = _heuristic_games(4, 60, 4242, 0b0001)
    assert out[7] / 60 >= 0.8  # the fair share is 0.25


def test_heuristic_through_evaluate():
    result = evaluate(ENV, "heuristic", 6, seed=7, num_players=2)
    assert result["win_rate"] >= 0.8 and result["outcomes"].get("illegal", 0) == 0


# --- purpose -------------------------------------------------------------------------------------------
def _act(sc: Scenario) -> int:
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    a = int(B.heuristic_one(sc.states, hmask))
    assert hmask[a], a
    return a


def test_heuristic_discovers_a_missing_key_and_stores_it_on_the_empty_key_slot():
    sc = Scenario()
    sc.reveal(cell(2, 3), "NES", tile=int(C.KEY_TILE_OF_COLOUR[0]))
    sc.put(0, cell(2, 3)).tokens(0, 4, 3)
    assert _act(sc) == K.A_DISCOVER
    sc.step(K.A_DISCOVER)
    assert _act(sc) == K.A_KEY_PICK + C.K_BANDAGES
    sc.step(K.A_KEY_PICK + C.K_BANDAGES)
    assert _act(sc) == K.A_SLOT + C.S_KEY


def test_heuristic_with_four_keys_heads_for_the_door():
    sc = Scenario()
    for c in (cell(2, 3), cell(1, 3)):
        sc.reveal(c, "NS")
    sc.put(0, cell(1, 3)).tokens(0, 4, 3).monster(cell(6, 6))
    for colour, slot in zip(range(4), (C.S_KEY, C.S_HEAL, C.S_DESPERATE, C.S_SPECIAL)):
        sc.give_key(0, colour, C.K_BUILD, slot)
    sc.s["cell_mask"][DOOR] = 0b1111
    assert _act(sc) == K.A_CELL + cell(2, 3)
    sc.step(K.A_CELL + cell(2, 3))
    assert _act(sc) == K.A_CELL + DOOR


def test_heuristic_heals_a_wounded_move_first():
    sc = Scenario()
    sc.tokens(0, 4, 3).wound(0, C.S_MOVE)
    assert _act(sc) == K.A_HEAL


def test_heuristic_without_a_reaction_card_answers_no():
    """Every player who could react is asked (issue 19): without the card the heuristic passes."""
    sc = Scenario(num_players=3).clear_hands()
    sc.give_card(0, 1).give_card(1, 3).give_card(2, 0)
    sc.put(0, DOOR).tokens(0, 7, 7).tokens(1, 4, 3).tokens(2, 4, 3)
    sc.wound(0, C.S_HEAL)
    sc.step(K.A_CARD + 1)
    assert sc.decision == K.D_CANCEL and sc.decider == 1
    assert _act(sc) == K.A_NO
    sc.step(K.A_NO)
    assert sc.decision == K.D_CANCEL and sc.decider == 2
    assert _act(sc) == K.A_YES


def test_heuristic_sends_the_monster_onto_a_rival():
    sc = Scenario()
    sc.monster(DOOR)
    sc.reveal(cell(2, 3), "NESW")
    sc.reveal(cell(3, 4), "NESW")
    sc.put(0, cell(6, 6)).put(1, cell(2, 3))
    sc.s["m_active"], sc.s["m_ctrl"], sc.s["m_points"], sc.s["m_start"] = 1, 0, 2, DOOR
    sc.s["decision"] = K.D_MONSTER
    assert _act(sc) == K.A_CELL + cell(2, 3)


# --- the search agent ---------------------------------------------------------------------------------------
SMALL = "mcts:simulations=24,rollout_turns=1"


def _positions(seed: int, every: int = 9) -> list[tuple[np.ndarray, str]]:
    env = labyrinth_env.raw_env(ENV, num_players=3)
    env.reset(seed=seed)
    heuristic = make_agent("heuristic")
    out = []
    choices = 0
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if obs["action_mask"].sum() > 1:
            choices += 1
            if choices % every == 0:
                out.append((env._states.copy(), name))
        env.step(heuristic.act(obs, env))
    return out


def _search(env, states: np.ndarray, agent_name: str, seed: int) -> tuple[int, np.ndarray]:
    env._states[:] = states
    env.agent_selection = agent_name
    agent = make_agent(SMALL, seed)
    obs = env.observe(agent_name)
    obs["action_mask"] = np.zeros_like(obs["action_mask"])
    env.batch.refresh_one(env._states, obs["action_mask"], np.zeros(env.max_seats))
    action = agent.act(obs, env)
    return action, agent.last_visits.copy()


def test_search_never_sees_hidden_information():
    env = labyrinth_env.raw_env(ENV, num_players=3)
    env.reset(seed=0)
    positions = _positions(seed=4)
    assert len(positions) >= 4
    compared = 0
    for states, name in positions[:5]:
        seat = env.agent_name_mapping[name]
        action, visits = _search(env, states, name, seed=7)
        seen = np.zeros(K.OBS_SIZE, dtype=np.float32)
        K.observe(states[0], seat, seen)
        others = []
        for seed in (11, 22):
            other = states.copy()
            K.determinize(other[0], seat, np.uint64(seed))
            others.append(other)
        other = states.copy()
        s = other[0]
        s["rng"][0] = np.uint64(0x1234567)
        n = int(s["deck_len"])
        s["deck"][:n] = s["deck"][:n][::-1].copy()
        others.append(other)
        for other in others:
            assert other.tobytes() != states.tobytes()
            theirs = np.zeros(K.OBS_SIZE, dtype=np.float32)
            K.observe(other[0], seat, theirs)
            assert np.array_equal(seen, theirs)
            other_action, other_visits = _search(env, other, name, seed=7)
            assert other_action == action and np.array_equal(other_visits, visits)
            compared += 1
        assert visits.sum() == 24
    assert compared >= 12


def test_search_plays_only_legal_actions():
    env = labyrinth_env.make(ENV, num_players=2, max_turns=12)
    agent = make_agent("mcts:simulations=8,rollout_turns=1", seed=3)
    env.reset(seed=1)
    agent.reset(101)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = agent.act(obs, env)
        assert obs["action_mask"][action] == 1
        env.step(action)
    assert env.unwrapped.illegal_action is None
    assert env.unwrapped.game_log[-1]["type"] in ("win", "truncated")
