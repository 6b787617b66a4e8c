"""Training pipeline: config checking before anything starts, a short MaskablePPO run on
the vector env (never an illegal action: the env raises on one), outputs, and the trained
policy as an agent. A smoke test of the plumbing, not of learning."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="needs the train extra")

import labyrinth_env
from labyrinth_env.agents import make_agent
from labyrinth_env.agents.evaluate import evaluate_match
from labyrinth_env.agents.train_ppo import load_train_config, main, train
from labyrinth_env.sb3 import SB3VecEnv
from labyrinth_env.vector import VectorEnv

SMOKE = "configs/train/smoke.yaml"


def play_legally(agent, env, seed: int) -> list[tuple[np.ndarray, np.ndarray, int]]:
    """One game of ``agent`` in every seat of the AEC ``env``; asserts that every action is
    legal and returns each decision's (observation, mask, action)."""
    env.reset(seed=seed)
    seen = []
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = agent.act(obs)
        assert obs["action_mask"][action] == 1
        seen.append((obs["observation"].copy(), obs["action_mask"].astype(bool), action))
        env.step(action)
    assert env.unwrapped.illegal_action is None
    return seen


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("env_id: [", "not YAML"),
        ("[1, 2]", "expected a mapping"),
        ("options: {}", "'env_id' is required"),
        ("env_id: team_edition_v2\nlearning_rate: 3", "unknown key"),
        ("env_id: team_edition_v2\nppo: {lr: 3}", "unknown key ppo.lr"),
        ("env_id: team_edition_v2\ntotal_timesteps: many", "total_timesteps: expected int"),
        ("env_id: chess_v1", "unknown env_id 'chess_v1'"),
        ("env_id: team_edition_v2\noptions: {num_players: 9}", "num_players=9"),
        ("env_id: team_edition_v2\nvector: {opponents: grandmaster}", "unknown vector.opponents"),
        ("env_id: team_edition_v2\nvector: {opponents: {heuristic: 1, expert: 1}}", "unknown opponent 'expert'"),
        ("env_id: team_edition_v2\neval: {against: [mcts]}", "unknown eval.against"),
        ("env_id: team_edition_v2\nvector: {num_envs: 0}", "must be >= 1"),
        ("env_id: team_edition_v2\npretrain: {epsilon: 2.0}", "pretrain.epsilon in"),
        ("env_id: team_edition_v2\npretrain: {teacher: me}", "unknown key pretrain.teacher"),
        ("env_id: team_edition_v2\nppo: {policy: cnn}", "unknown ppo.policy 'cnn'"),
        ("env_id: team_edition_v2\nppo: {policy: lookahead}", "needs lookahead features"),
        ("env_id: paths_of_destiny_3e_v3\nppo: {policy: lookahead}", "needs lookahead features"),
        ("env_id: team_edition_v2\nvector: {potential: distance}", "unknown vector.potential 'distance'"),
        ("env_id: team_edition_v2\nppo: {standardize: true}", "ppo.standardize belongs to ppo.policy 'lookahead'"),
    ],
)
def test_bad_training_config_fails_before_training(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_train_config(path)


def test_shipped_training_configs_are_valid():
    from pathlib import Path

    from labyrinth_env.agents.train import load_any_config

    paths = sorted(Path("configs/train").glob("*.yaml"))
    assert len(paths) >= 4
    for path in paths:
        load_any_config(path)  # PPO's, or the self-play learner's (algo: alphazero)


def test_sb3_adapter_masks_and_terminal_observation():
    vec = VectorEnv("team_edition_v2", 3, seed=0, num_players=1, max_turns=1)
    env = SB3VecEnv(vec, seed=0)
    obs = env.reset()
    assert obs.shape == (3, vec.kernel.OBS_SIZE)
    masks = np.stack(env.env_method("action_masks"))
    assert masks.shape == (3, vec.kernel.NUM_ACTIONS) and masks.dtype == bool
    env.step_async(np.full(3, vec.kernel.A_END))
    _, _, dones, infos = env.step_wait()
    assert dones.all()
    assert all("terminal_observation" in i and i["TimeLimit.truncated"] for i in infos)


def test_smoke_training_run_outputs_and_trained_agent(tmp_path):
    cfg = load_train_config(SMOKE)
    cfg.out_dir = str(tmp_path / "run")
    result = train(cfg, progress=False)
    out = tmp_path / "run"
    for name in ("final_model.zip", "learning_curve.png", "summary.json", "eval.jsonl", "config.json"):
        assert (out / name).is_file(), name
    assert any((out / "checkpoints").iterdir())
    assert any((out / "tb").iterdir())  # TensorBoard events
    evals = [json.loads(line) for line in (out / "eval.jsonl").read_text().splitlines()]
    assert {e["opponent"] for e in evals} == {"random", "heuristic"}
    assert all(0.0 <= e["ci95"][0] <= e["win_rate"] <= e["ci95"][1] <= 1.0 for e in evals)
    assert result["timesteps"] >= cfg.total_timesteps
    # the curve's yardsticks: random and heuristic play in the learner's place, same games
    assert set(result["references"]) == {
        f"{a} agent vs {o}" for a in ("random", "heuristic") for o in ("random", "heuristic")
    }
    assert all(0.0 <= r <= 1.0 for r in result["references"].values())
    # the trained policy as an agent in the AEC env: only legal actions
    agent = make_agent(f"ppo:{out / 'final_model.zip'}")
    play_legally(agent, labyrinth_env.make("paths_of_destiny_3e_v3", num_players=2, max_turns=10), seed=1)


def test_behaviour_cloning_learns_the_heuristics_choices(tmp_path):
    """Imitation before PPO: on a few thousand heuristic decisions the policy learns to
    pick the heuristic's action at least twice as often as a uniform legal choice would,
    and the run records it."""
    cfg = load_train_config(SMOKE)
    cfg.env_id, cfg.options = "team_edition_v2", {"num_players": 1}
    cfg.vector = {"num_envs": 16, "learner_seats": "all", "opponents": "random"}
    cfg.pretrain.update(steps=2048, epochs=6, epsilon=0.0, batch_size=256)
    cfg.total_timesteps, cfg.eval["against"] = 256, ["random"]
    cfg.out_dir = str(tmp_path / "bc")
    result = train(cfg, progress=False)
    imitation = json.loads((tmp_path / "bc" / "imitation.json").read_text())
    assert (tmp_path / "bc" / "imitation_model.zip").is_file()
    assert imitation == result["imitation"]
    assert imitation["samples"] == 2048
    assert imitation["train_accuracy"] > 2 * imitation["uniform_accuracy"]


def test_lookahead_policy_imitates_trains_and_plays_only_legal_actions(tmp_path):
    """Team Edition with ``lookahead=True`` and ``ppo.policy: lookahead`` (its head reading
    the features standardized too, ``ppo.standardize``): behaviour cloning
    beats a uniform choice by far (the per-action head sees what each action brings), PPO
    runs, and the saved policy plays the AEC env (with the same option) legally, giving
    the same actions after a reload; without the option the agent refuses clearly."""
    cfg = load_train_config(SMOKE)
    cfg.env_id, cfg.options = "team_edition_v2", {"num_players": 2, "lookahead": True}
    cfg.vector = {"num_envs": 16, "learner_seats": "all", "opponents": "random"}
    cfg.ppo = {"policy": "lookahead", "standardize": True, "n_steps": 32, "batch_size": 256, "n_epochs": 2}
    cfg.ppo["net_arch"] = [64]
    cfg.pretrain.update(steps=4096, epochs=4, epsilon=0.0, batch_size=256)
    cfg.total_timesteps, cfg.eval["against"] = 1024, ["random"]
    cfg.out_dir = str(tmp_path / "la")
    train(cfg, progress=False)
    imitation = json.loads((tmp_path / "la" / "imitation.json").read_text())
    assert imitation["train_accuracy"] > max(0.25, 5 * imitation["uniform_accuracy"])
    path = tmp_path / "la" / "final_model.zip"
    agent = make_agent(f"ppo:{path}")
    assert type(agent.model.policy).__name__ == "LookaheadPolicy" and agent.model.policy.standardize
    seen = play_legally(agent, labyrinth_env.make("team_edition_v2", num_players=2, lookahead=True), seed=3)
    again = make_agent(f"ppo:{path}")
    obs = np.stack([o for o, _, _ in seen[:50]])
    masks = np.stack([m for _, m, _ in seen[:50]])
    assert np.array_equal(again.policy(obs, masks), [a for _, _, a in seen[:50]])
    plain = labyrinth_env.make("team_edition_v2", num_players=2)
    plain.reset(seed=3)
    with pytest.raises(ValueError, match="lookahead=True"):
        agent.act(plain.observe(plain.agent_selection))
    # the run also wrote the actor alone, which learned:PATH plays as the PPO agent does
    # (in an env made without the option too: it builds Team Edition's own block from the
    # seat's sample, which reads only what the seat may know)
    learned = make_agent(f"learned:{tmp_path / 'la' / 'policy.npz'}")
    replay = labyrinth_env.make("team_edition_v2", num_players=2, lookahead=True)
    replay.reset(seed=3)
    for observation, _, action in seen[:50]:
        assert np.array_equal(replay.last()[0]["observation"], observation)
        assert learned.act(replay.last()[0], replay) == action == learned.act(plain.last()[0], plain)
        replay.step(action)
        plain.step(action)
    cut = {"observation": replay.last()[0]["observation"][:100], "action_mask": replay.last()[0]["action_mask"]}
    with pytest.raises(ValueError, match="lookahead=True"):
        learned.act(cut, replay)
    # its search reads the same block from the kernel (the option switched on in its worlds):
    # one simulation visits the prior's best move, the network's own choice
    searcher = make_agent(f"learned:path={tmp_path / 'la' / 'policy.npz'},simulations=1")
    plain.reset(seed=3)
    for _, _, action in seen[:30]:
        assert searcher.act(plain.last()[0], plain) == action
        plain.step(action)


def test_standardized_features_are_relative_to_the_legal_actions_only():
    """The head's ``standardize``: per feature, (value - mean) / std over the legal actions'
    rows (nonzero rows), zero in the other rows and where the legal actions agree."""
    import torch

    from labyrinth_env.agents.policies import standardized

    per_action = torch.zeros(2, 4, 2)
    per_action[0, 0] = torch.tensor([0.5, 1.0])
    per_action[0, 1] = torch.tensor([0.7, 1.0])
    per_action[0, 3] = torch.tensor([0.6, 1.0])
    per_action[1, 2] = torch.tensor([0.9, 1.0])
    z = standardized(per_action)
    std = (0.02 / 3) ** 0.5  # of 0.5, 0.7, 0.6 about their mean 0.6
    assert torch.allclose(z[0, [0, 1, 3], 0], torch.tensor([-0.1, 0.1, 0.0]) / std, atol=0.02)
    assert not z[0, 2].any() and not z[1].any()  # an illegal row; a lone legal action agrees with itself
    assert not z[0, :, 1].any()  # every legal action has the same value


def test_lookahead_layout_must_match_the_spaces():
    from labyrinth_env.agents.policies import check_layout

    layout = labyrinth_env.raw_env("team_edition_v2", lookahead=True).lookahead_layout()
    size = layout["base_size"] + layout["features"] * len(layout["kinds"])
    assert check_layout(layout, size, len(layout["kinds"])) == layout
    with pytest.raises(ValueError, match="does not match the observation size"):
        check_layout(layout, layout["base_size"], len(layout["kinds"]))
    with pytest.raises(ValueError, match="action kinds"):
        check_layout(layout, size, 3)
    with pytest.raises(ValueError, match="keys"):
        check_layout({"base_size": 1}, size, 3)


def test_heuristic_actions_are_legal_and_leave_the_games_alone():
    vec = VectorEnv("paths_of_destiny_3e_v3", 4, seed=2, num_players=2)
    vec.reset()
    before = vec.states.copy()
    actions = vec.heuristic_actions()
    assert vec.action_masks()[np.arange(4), actions].all()
    assert vec.states.tobytes() == before.tobytes()


def test_train_cli_overrides(tmp_path, capsys):
    assert main(["--config", SMOKE, "--timesteps", "512", "--out", str(tmp_path / "cli"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out
    # the end names where everything went (issue 36)
    model = tmp_path / "cli" / "final_model.zip"
    assert f"model: {model}" in out and f"--agent ppo:{model}" in out and model.exists()
    assert f"checkpoints: {tmp_path / 'cli' / 'checkpoints'}/" in out
    assert f"TensorBoard logs: {tmp_path / 'cli' / 'tb'}/" in out
    assert "compiling not" in out


def test_ppo_agent_bad_path():
    with pytest.raises(ValueError, match="no trained model"):
        make_agent("ppo:/no/such/model.zip")


def test_an_exported_ppo_policy_plays_as_learned_in_numpy_the_moves_of_the_torch_policy(tmp_path):
    """``agents/policy_net``: the actor of a LookaheadPolicy (standardized head, two trunk
    layers, weights moved off their initialisation) in float16 and numpy gives the torch
    logits to float16's precision, and ``learned:PATH`` plays the PPO agent's moves: given
    the lookahead block, and computing it from the seat's plain observation."""
    import torch
    from sb3_contrib import MaskablePPO

    from labyrinth_env.agents import policy_net
    from labyrinth_env.agents.policies import LookaheadPolicy

    vec = VectorEnv("toy_race_v0", 2, num_players=2, lookahead=True, seed=0)
    kwargs = {"lookahead": vec.raw.lookahead_layout(), "standardize": True, "net_arch": [32, 16]}
    model = MaskablePPO(LookaheadPolicy, SB3VecEnv(vec, seed=0), n_steps=8, batch_size=16, policy_kwargs=kwargs, seed=0)
    torch.manual_seed(0)
    with torch.no_grad():
        for param in model.policy.parameters():
            param.add_(0.3 * torch.randn_like(param))
        model.policy.action_net.linear.weight.fill_(2.0)  # the standardized features' own term counts
    model.save(tmp_path / "model.zip")
    assert policy_net.main([str(tmp_path / "model.zip"), str(tmp_path / "p.npz"), "--env", "toy_race_v0"]) == 0
    arrays, meta = policy_net.load_policy(tmp_path / "p.npz")
    ppo, learned = make_agent(f"ppo:{tmp_path / 'model.zip'}"), make_agent(f"learned:{tmp_path / 'p.npz'}")
    env = labyrinth_env.make("toy_race_v0", num_players=2, lookahead=True, max_turns=40)
    base = meta["layout"]["base_size"]
    moves = 0
    for seed in range(3):
        env.reset(seed=seed)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            with torch.no_grad():
                latent = model.policy.mlp_extractor.forward_actor(torch.as_tensor(obs["observation"][None]))
                expected = model.policy.action_net(latent)[0].numpy()
                value = float(model.policy.predict_values(torch.as_tensor(obs["observation"][None]))[0, 0])
            got = policy_net.policy_logits(arrays, meta, obs["observation"])
            assert np.allclose(got, expected, atol=0.005 * (1 + np.abs(expected).max()))
            assert policy_net.policy_value(arrays, meta, obs["observation"]) == pytest.approx(value, abs=0.01)
            action = ppo.act(obs)
            plain = {"observation": obs["observation"][:base], "action_mask": obs["action_mask"]}
            assert learned.act(obs, env) == action == learned.act(plain, env)
            moves += int(obs["action_mask"].sum() > 1)
            env.step(action)
    assert moves > 20
    # its critic lets it guide the search; a file without one values leaves by progress only
    searcher = f"learned:path={tmp_path / 'p.npz'},simulations=8"
    result = evaluate_match("toy_race_v0", [searcher, "random"], 4, seed=1, num_players=2, max_turns=20)
    assert sum(result["outcomes"].values()) == 4
    data = dict(np.load(tmp_path / "p.npz"))
    old_meta = json.loads(str(data.pop("meta")))
    del old_meta["critic_layers"]
    kept = {k: v for k, v in data.items() if not k.startswith(("critic", "value_"))}
    np.savez(tmp_path / "old.npz", meta=json.dumps(old_meta), **kept)
    with pytest.raises(ValueError, match="holds no critic"):
        make_agent(f"learned:path={tmp_path / 'old.npz'},simulations=8")
    assert policy_net.main([str(tmp_path / "missing.zip"), str(tmp_path / "x.npz"), "--env", "toy_race_v0"]) == 2


def test_a_curriculum_stage_starts_from_the_earlier_stages_weights(tmp_path):
    """``init_from``: the next stage's model holds the earlier stage's weights (here against
    an opponent mix instead of the random agent); a model of another shape is refused,
    naming what must match."""
    from labyrinth_env.agents.train_ppo import build_model

    def model_of(cfg):
        vec = VectorEnv(cfg.env_id, 4, opponents=cfg.vector["opponents"], seed=0, **cfg.options)
        return build_model(cfg, SB3VecEnv(vec, seed=0), vec)

    first = load_train_config(SMOKE)
    first.seed = 5
    model_of(first).save(tmp_path / "first.zip")
    second = load_train_config(SMOKE)
    second.init_from, second.vector["opponents"] = str(tmp_path / "first.zip"), {"heuristic": 3, "random": 1}
    loaded, fresh = model_of(second).policy.state_dict(), model_of(load_train_config(SMOKE)).policy.state_dict()
    expected = model_of(first).policy.state_dict()
    assert all(np.array_equal(loaded[k], expected[k]) for k in expected)
    assert not all(np.array_equal(fresh[k], expected[k]) for k in expected)  # seeds 0 and 5 differ
    second.ppo["net_arch"] = [32]
    with pytest.raises(ValueError, match="does not fit this config's policy"):
        model_of(second)
    second.init_from = str(tmp_path / "nowhere.zip")  # before anything is built
    with pytest.raises(ValueError, match=r"init_from: no model at .*run that stage first"):
        train(second, progress=False)
