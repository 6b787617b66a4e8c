"""Expert iteration on a PPO network (``algo: distill``, agents/train_distill.py, issue 35):
the network reads in its games what the env's ``lookahead`` option gives, its games record
the search's visits and the results, training lowers the loss, a run is the same with one
worker or two and continues bit-for-bit when resumed, and configs name what is wrong.
Strength is a figure in docs/training.md, not a test."""

from __future__ import annotations

import json

import numpy as np
import pytest

import labyrinth_env

pytest.importorskip("sb3_contrib", reason="needs the train extra")
torch = pytest.importorskip("torch")

from labyrinth_env.agents import train_distill as D  # noqa: E402


def bound(env_id: str):
    from labyrinth_env.agents import alphazero_template
    from labyrinth_env.core.templates import bind

    return bind(alphazero_template, labyrinth_env.get_spec(env_id))


def ppo_run(tmp_path, env_id: str = "toy_race_v0", shaping: float = 0.5, **options) -> str:
    """A PPO run's outputs as a distill config's ``init_from`` reads them: a
    ``LookaheadPolicy`` model (weights moved off their initialisation, so that its moves
    depend on what it reads) and the ``config.json`` beside it."""
    from sb3_contrib import MaskablePPO

    from labyrinth_env.agents.policies import LookaheadPolicy
    from labyrinth_env.sb3 import SB3VecEnv
    from labyrinth_env.vector import VectorEnv

    vec = VectorEnv(env_id, 2, lookahead=True, seed=0, **options)
    kwargs = {"lookahead": vec.raw.lookahead_layout(), "standardize": True, "net_arch": [16, 16]}
    model = MaskablePPO(LookaheadPolicy, SB3VecEnv(vec, seed=0), n_steps=8, batch_size=16, policy_kwargs=kwargs, seed=0)
    torch.manual_seed(0)
    with torch.no_grad():
        for param in model.policy.parameters():
            param.add_(0.3 * torch.randn_like(param))
    run = tmp_path / "ppo"
    run.mkdir(parents=True, exist_ok=True)
    model.save(run / "final_model.zip")
    (run / "config.json").write_text(json.dumps({"vector": {"shaping": shaping, "potential": "progress"}}))
    return str(run / "final_model.zip")


def toy_config(tmp_path, init_from: str, **over) -> D.DistillConfig:
    data = {
        "algo": "distill",
        "env_id": "toy_race_v0",
        "options": {"num_players": 2, "max_turns": 60},
        "init_from": init_from,
        "seed": 3,
        "out_dir": str(tmp_path / "run"),
        "iterations": 3,
        "selfplay": {"games": 4, "simulations": 8, "temperature_moves": 4, "against": ["random", "self"]},
        "train": {"updates": 5, "batch_size": 32, "buffer": 1000},
        "eval": {"every": 2, "games": 6, "against": ["random", "heuristic"]},
    }
    for key, value in over.items():
        data[key] = {**data[key], **value} if isinstance(value, dict) else value
    return D.check_config(data)


def test_the_network_reads_in_its_games_what_the_envs_lookahead_option_gives() -> None:
    """``policy_observation`` (the input recorded and played from) is the observation of the
    env made with ``lookahead=True``, at every decision of a game (the generic block; Team
    Edition's own is the kernel's observation itself, with the record's option on)."""
    env_id = "toy_race_v0"
    K, m = labyrinth_env.get_spec(env_id).kernel, bound(env_id)
    env = labyrinth_env.make(env_id, lookahead=True, num_players=2)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    compared = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc or compared >= 40:
            break
        row = np.zeros(obs["observation"].shape[0], dtype=np.float32)
        m.policy_observation(env.unwrapped._states[0], env.unwrapped.agent_name_mapping[agent], False, row)
        np.testing.assert_array_equal(row, obs["observation"])
        assert row[K.OBS_SIZE :].any()  # the block is there
        compared += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert compared >= 10


def test_games_record_the_searchs_visits_and_each_deciders_result(tmp_path) -> None:
    """Every recorded row is a decision of the network's seat with a choice: a legal mask of
    two or more actions, the visit distribution over those only, and the decider's result
    with the shaping term of its position; the evaluation (no simulations) records nothing
    and still plays every game."""
    trainer = D.Trainer(toy_config(tmp_path, ppo_run(tmp_path), options={"num_players": 2, "max_turns": 300}))
    m = trainer.module
    policy = trainer.search_policy()
    seeds = np.arange(1, 5, dtype=np.uint64)
    seats = np.array([0, 1, 0, 1], dtype=np.int64)
    opponents = np.full(4, m.OPPONENT_RANDOM, dtype=np.int64)
    rows, values, returns, _ = D.play_games(
        trainer.spec, trainer.options_vector, policy, trainer.params(8, 0.0), seeds, seats, opponents,
        trainer.obs_size, 4,
    )  # fmt: skip
    n = len(rows["obs"])
    assert n > 8 and values.shape == (n, 2)
    every = np.arange(n)
    masks, targets = rows["mask"].gather(every), rows["policy"].gather(every)
    assert (masks.sum(axis=1) >= 2).all()
    np.testing.assert_allclose(targets.sum(axis=1), 1.0, atol=1e-6)
    assert (targets[masks == 0] == 0).all()
    assert set(np.unique(values[:, 0])) <= {-1.0, 0.0, 1.0} and (returns != 0).any()
    assert (values[:, 1] != 0).any()  # the shaping term: 0.5 * the decider's progress
    nothing, _, evaluation, _ = D.play_games(
        trainer.spec, trainer.options_vector, policy, trainer.params(0, 0.0), seeds, seats, opponents,
        trainer.obs_size, 4,
    )  # fmt: skip
    assert len(nothing["obs"]) == 0 and (evaluation != 0).any()


def test_with_play_network_the_network_moves_and_the_search_only_labels(tmp_path) -> None:
    """``selfplay.play: network`` (DAgger): the network's own moves make the games, so a
    search of 4 or of 16 simulations labels the very same positions (the same recorded
    inputs, other visits); with the search playing, the positions differ."""
    trainer = D.Trainer(toy_config(tmp_path, ppo_run(tmp_path), options={"num_players": 2, "max_turns": 80}))
    m = trainer.module
    seeds = np.arange(10, 16, dtype=np.uint64)
    seats = np.arange(6, dtype=np.int64) % 2
    opponents = np.full(6, m.OPPONENT_SELF, dtype=np.int64)
    trainer.cfg.selfplay["temperature_moves"] = 0
    recorded = {}
    for play in ("network", "search"):
        for simulations in (4, 16):
            trainer.cfg.selfplay["play"] = play
            rows, _, _, _ = D.play_games(
                trainer.spec, trainer.options_vector, trainer.search_policy(), trainer.params(simulations, 0.0),
                seeds, seats, opponents, trainer.obs_size, 4,
            )  # fmt: skip
            every = np.arange(len(rows["obs"]))
            recorded[play, simulations] = (rows["obs"].gather(every), rows["policy"].gather(every))
    (inputs4, visits4), (inputs16, visits16) = recorded["network", 4], recorded["network", 16]
    assert inputs4.shape[0] > 50
    np.testing.assert_array_equal(inputs4, inputs16)
    assert not np.array_equal(visits4, visits16)
    searched4, searched16 = recorded["search", 4][0], recorded["search", 16][0]
    assert searched4.shape != searched16.shape or not np.array_equal(searched4, searched16)


@pytest.mark.parametrize("target", ["move", "visits"])
def test_loss_falls_on_a_fixed_batch_and_the_network_takes_the_searchs_moves(tmp_path, target) -> None:
    trainer = D.Trainer(toy_config(tmp_path, ppo_run(tmp_path), train={"learning_rate": 3e-3}))
    trainer.selfplay(trainer.search_policy())
    batch = trainer.buffer.sample(np.random.default_rng(0), 128)
    pi = batch["policy"]
    # the policy loss's floor: 0 for the move, the visits' entropy for the visits
    floor = float(-(pi * np.log(np.where(pi > 0, pi, 1.0))).sum(axis=1).mean()) if target == "visits" else 0.0

    def excess_and_agreement() -> tuple[float, float]:
        with torch.no_grad():
            loss = D.losses(trainer.policy, batch, 1.0, target)[0].item() - floor
            obs = torch.from_numpy(batch["obs"])
            logits = trainer.policy.action_net(trainer.policy.mlp_extractor.forward_actor(obs))
            logits = logits.masked_fill(torch.from_numpy(batch["mask"]) == 0, -1e9)
        return loss, float((logits.argmax(dim=1).numpy() == pi.argmax(axis=1)).mean())

    first, agreed = excess_and_agreement()
    for _ in range(150):
        loss = D.losses(trainer.policy, batch, 1.0, target)[0]
        trainer.optimizer.zero_grad()
        loss.backward()
        trainer.optimizer.step()
    last, agrees = excess_and_agreement()
    assert last < 0.3 * first, (first, last)
    assert agrees > max(agreed, 0.9), (agreed, agrees)


def test_a_run_is_the_same_with_two_workers_and_continues_bit_for_bit_when_resumed(tmp_path) -> None:
    init = ppo_run(tmp_path)
    straight = D.train(toy_config(tmp_path / "a", init), progress=False)["trainer"]
    D.train(toy_config(tmp_path / "b", init, iterations=2, workers=2), progress=False)
    resumed = D.train(toy_config(tmp_path / "b", init), resume=True, progress=False)["trainer"]
    assert resumed.iteration == straight.iteration == 3
    for a, b in zip(straight.policy.state_dict().values(), resumed.policy.state_dict().values(), strict=True):
        assert torch.equal(a, b)
    keys = ("loss", "decisions", "buffer")
    assert [[h[k] for k in keys] for h in straight.history] == [[h[k] for k in keys] for h in resumed.history]
    assert [h["eval"] for h in straight.history if "eval" in h] == [h["eval"] for h in resumed.history if "eval" in h]
    with pytest.raises(ValueError, match="already holds a run"):
        D.train(toy_config(tmp_path / "b", init), progress=False)
    run = tmp_path / "b" / "run"
    for name in ("checkpoint.pt", "buffer.npz", "policy.npz", "final_model.zip", "eval.jsonl", "learning_curve.png"):
        assert (run / name).is_file(), name
    # the trained network plays as learned, alone and guiding the search
    from labyrinth_env.agents.evaluate import evaluate_match

    for spec in (f"learned:{run / 'policy.npz'}", f"learned:path={run / 'policy.npz'},simulations=4"):
        result = evaluate_match("toy_race_v0", [spec, "random"], 2, seed=1, num_players=2, max_turns=20)
        assert sum(result["outcomes"].values()) == 2


def test_config_errors_name_the_key_and_what_is_allowed(tmp_path) -> None:
    init = ppo_run(tmp_path)
    base = {"algo": "distill", "env_id": "toy_race_v0", "init_from": init}
    for over, message in (
        ({"init_from": ""}, "init_from is required"),
        ({"selfplay": {"simulations": 0}}, r"selfplay.simulations must be >= 1"),
        ({"selfplay": {"against": ["expert"]}}, r"selfplay.against must list opponents among"),
        ({"env_id": "team_edition_v2", "eval": {"against": ["heuristic"]}}, r"eval.against must list .*\['self'\]"),
        ({"selfplay": {"noise": 2.0}}, r"selfplay.noise must be in \[0, 1\]"),
        ({"workers": 0}, "workers must be >= 1"),
        ({"train": {"target": "q"}}, r"train.target must be one of \['move', 'visits'\]"),
        ({"selfplay": {"play": "heuristic"}}, r"selfplay.play must be one of \['search', 'network'\]"),
        ({"env_id": "chess_v1"}, "unknown env_id 'chess_v1'"),
        ({"options": {"num_players": 9}}, "num_players=9"),
        ({"algo": "alphazero"}, "is not 'distill'"),
    ):
        with pytest.raises(ValueError, match=message):
            D.check_config({**base, **over})
    with pytest.raises(ValueError, match="run that stage first"):
        D.Trainer(toy_config(tmp_path, str(tmp_path / "nowhere.zip")))
    (tmp_path / "ppo" / "config.json").unlink()
    with pytest.raises(ValueError, match=r"no config\.json beside"):
        D.Trainer(toy_config(tmp_path, init))
    other = ppo_run(tmp_path / "other", "team_edition_v2")
    with pytest.raises(ValueError, match="is not a LookaheadPolicy of toy_race_v0"):
        D.Trainer(toy_config(tmp_path, other))


def test_labyrinth_train_runs_a_distill_config_and_names_config_errors(tmp_path, capsys) -> None:
    from labyrinth_env.cli import main

    init = ppo_run(tmp_path)
    good = tmp_path / "toy.yaml"
    good.write_text(
        f"algo: distill\nenv_id: toy_race_v0\noptions: {{num_players: 2, max_turns: 30}}\ninit_from: {init}\n"
        f"out_dir: {tmp_path / 'out'}\niterations: 1\nselfplay: {{games: 2, simulations: 4}}\n"
        "train: {updates: 2, batch_size: 16}\neval: {games: 2, against: [random]}\n"
    )
    assert main(["train", "--config", str(good), "--no-progress"]) == 0
    assert "vs random: win rate" in capsys.readouterr().out
    assert (tmp_path / "out" / "policy.npz").is_file()
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"algo: distill\nenv_id: toy_race_v0\ninit_from: {init}\nselfplay: {{games: 0}}\n")
    assert main(["train", "--config", str(bad)]) == 2
    assert "selfplay.games must be >= 1" in capsys.readouterr().err
