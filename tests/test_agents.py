"""Agents: the random baseline, the Team Edition heuristic, the registry and evaluate()."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest
from generic_env_checks import determinizer

import labyrinth_env
from labyrinth_env import get_spec
from labyrinth_env.agents import HeuristicAgent, RandomAgent, make_agent
from labyrinth_env.agents.evaluate import evaluate, main, wilson_interval
from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.team_edition import kernel as K

B = get_spec("team_edition_v2").loops  # the ruleset's batched loops and single-game entry points

B = get_spec("team_edition_v2").loops  # the ruleset's entry points and batched loops

ENV = "team_edition_v2"


_determinize_one = determinizer(K)


def _kernel_game(seed: int, **options) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A fresh game run straight on the kernel (faster than the env for many states)."""
    vec = labyrinth_env.raw_env(ENV, **options).options_vector()
    states = new_states(K, 1)
    B.init_one(states, np.uint64(seed), vec)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(K.NUM_SEATS)
    B.refresh_one(states, mask, rewards)
    return states, mask, rewards


def _play_checked(env, agent, seed: int) -> list[int]:
    env.reset(seed=seed)
    agent.reset(seed)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = agent.act(obs, env)
        assert obs["action_mask"][action] == 1
        env.step(action)
    assert env.unwrapped.illegal_action is None
    return list(env.unwrapped.actions_taken)


def test_random_agent_picks_only_legal_actions():
    env = labyrinth_env.make(ENV, num_players=3, variant="standard")
    for seed in range(3):
        _play_checked(env, RandomAgent(seed), seed)


def test_random_agent_is_uniform_over_the_mask_and_seeded():
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    mask[[3, 50, 346]] = 1
    obs = {"observation": np.zeros(K.OBS_SIZE, np.float32), "action_mask": mask}
    agent = RandomAgent(7)
    picks = [agent.act(obs) for _ in range(3000)]
    values, counts = np.unique(picks, return_counts=True)
    assert values.tolist() == [3, 50, 346]
    assert counts.min() > 850  # 1000 expected each; 850 is > 5 sd away
    agent.reset(7)
    assert [agent.act(obs) for _ in range(50)] == picks[:50]
    with pytest.raises(ValueError, match="allows no action"):
        agent.act({"observation": obs["observation"], "action_mask": np.zeros_like(mask)})


@pytest.mark.parametrize("variant", K.VARIANTS)
def test_heuristic_picks_only_legal_actions_and_leaves_the_state_alone(variant):
    rng = np.random.default_rng(K.VARIANTS.index(variant))
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    checked = 0
    for n in (1, 2, 3, 4):
        for memory in (False, True):
            states, mask, rewards = _kernel_game(
                int(rng.integers(1 << 40)), num_players=n, variant=variant, public_memory=memory
            )
            # Random steps mixed in reach states the heuristic would avoid on its own.
            while K.to_act(states[0]) >= 0:
                before = states.tobytes()
                action = B.heuristic_one(states, hmask)
                assert states.tobytes() == before
                assert mask[action] == 1, (variant, n, memory, action)
                checked += 1
                if rng.random() < 0.4:
                    action = int(rng.choice(np.flatnonzero(mask)))
                assert B.step_one(states, action, mask, rewards) != -2
    assert checked > 300


def test_heuristic_never_reads_hidden_information():
    # Resampling what the acting seat cannot know (deck orders, face-down tiles without
    # public memory) must not change the heuristic's choice.
    rng = np.random.default_rng(11)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    compared = 0
    for variant in K.VARIANTS:
        for n in (2, 4):
            states, mask, rewards = _kernel_game(int(rng.integers(1 << 40)), num_players=n, variant=variant)
            while K.to_act(states[0]) >= 0:
                action = B.heuristic_one(states, hmask)
                if states[0]["decision"] == K.DECISION_MAIN:
                    other = states.copy()
                    _determinize_one(other, int(states[0]["seat"]), np.uint64(rng.integers(1 << 62)))
                    assert B.heuristic_one(other, hmask) == action
                    compared += 1
                if rng.random() < 0.3:
                    action = int(rng.choice(np.flatnonzero(mask)))
                B.step_one(states, action, mask, rewards)
    assert compared > 200


def test_heuristic_is_deterministic():
    env = labyrinth_env.make(ENV, num_players=2, variant="standard")
    first = _play_checked(env, HeuristicAgent(), 5)
    again = _play_checked(env, make_agent("heuristic"), 5)
    assert first == again
    states, _, _ = _kernel_game(9, num_players=3)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    assert B.heuristic_one(states, hmask) == B.heuristic_one(states, hmask)


def test_heuristic_collects_more_treasures_than_random():
    options = {"num_players": 2, "variant": "introductory"}
    heuristic = evaluate(ENV, "heuristic", 30, seed=100, **options)
    rand = evaluate(ENV, "random", 30, seed=100, **options)
    assert heuristic["mean_treasures"] > rand["mean_treasures"] + 5
    assert heuristic["win_rate"] >= rand["win_rate"]


def test_evaluate_result_structure_and_reproducibility():
    result = evaluate(ENV, "random", 4, seed=3, num_players=2, variant="expert")
    assert {
        "env_id",
        "agent",
        "options",
        "games",
        "seed",
        "wins",
        "win_rate",
        "win_rate_ci95",
        "outcomes",
        "mean_treasures",
        "mean_turns",
    } <= set(result)
    lo, hi = result["win_rate_ci95"]
    assert 0.0 <= lo <= result["win_rate"] <= hi <= 1.0
    assert sum(result["outcomes"].values()) == result["games"] == 4
    assert result["options"] == {"num_players": 2, "variant": "expert"}
    assert 0 <= result["mean_treasures"] <= 24 and 1 <= result["mean_turns"] <= 24
    json.dumps(result)
    again = evaluate(ENV, "random", 4, seed=3, num_players=2, variant="expert")
    assert {k: v for k, v in again.items() if k != "seconds"} == {k: v for k, v in result.items() if k != "seconds"}


def test_a_match_in_the_team_game_counts_the_teams_wins_for_its_agents():
    """``evaluate_match`` on Team Edition (cooperative): a game the team wins is a win of
    every agent in it (it reported 0 wins for a team that won 84% of its games)."""
    from labyrinth_env.agents.evaluate import evaluate_match

    result = evaluate_match(ENV, ["heuristic", "random"], 6, seed=3, num_players=2)
    won = result["outcomes"].get("won", 0)
    assert result["wins"] == {"heuristic": won, "random": won}
    both = evaluate_match(ENV, ["heuristic", "heuristic"], 6, seed=3, num_players=2)
    assert both["wins"]["heuristic"] == both["outcomes"].get("won", 0) > 0


def test_evaluate_cli_writes_json(tmp_path, capsys):
    out = tmp_path / "r.json"
    assert main(["--agent", "heuristic", "--games", "2", "--players", "1", "--no-progress", "--json", str(out)]) == 0
    assert "win rate" in capsys.readouterr().out
    assert json.loads(out.read_text())["games"] == 2


def test_evaluate_cli_takes_any_env_option(tmp_path, capsys):
    out = tmp_path / "r.json"
    argv = ["--agent", "random", "--games", "1", "--option", "lookahead=true", "--option", "daedalus_deck={push: 3}"]
    assert main([*argv, "--no-progress", "--json", str(out)]) == 0
    options = json.loads(out.read_text())["options"]
    assert options["lookahead"] is True and options["daedalus_deck"] == {"push": 3}
    capsys.readouterr()
    for bad, message in [("lookahead", "NAME=VALUE"), ("lookahead=maybe", "lookahead"), ("colour=red", "colour")]:
        assert main(["--agent", "random", "--games", "1", "--option", bad, "--no-progress"]) == 2
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, err


def test_wilson_interval_known_values():
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)


def test_bad_specs_and_bad_use_raise_clear_errors():
    with pytest.raises(ValueError, match=r"unknown agent spec 'alphazero'; available agents: heuristic, random"):
        make_agent("alphazero")
    with pytest.raises(ValueError, match="games must be"):
        evaluate(ENV, "random", 0)
    fake = SimpleNamespace(unwrapped=SimpleNamespace(env_id="chess_v1"))
    obs = {"observation": np.zeros(1, np.float32), "action_mask": np.ones(K.NUM_ACTIONS, np.int8)}
    with pytest.raises(ValueError, match="unknown env id 'chess_v1'"):
        HeuristicAgent().act(obs, fake)
    with pytest.raises(ValueError, match="needs the env"):
        HeuristicAgent().act(obs)


def test_evaluate_cli_takes_agent_specs_with_parameters(capsys):
    from labyrinth_env.agents.evaluate import main

    argv = ["--env", "team_edition_v2", "--agent", "mcts:simulations=5", "--games", "1", "--no-progress"]
    assert main(argv) == 0
    assert "1 games" in capsys.readouterr().out
    assert main(["--env", "team_edition_v2", "--agent", "mcts:simulatons=5", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "simulatons" in err and len(err.strip().splitlines()) == 1
