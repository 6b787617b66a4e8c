"""The self-play learner's machinery (agents/alphazero_*.py, issue 35): the network's two
twins agree, the search never reads hidden information, training lowers the loss, a
resumed run continues bit-for-bit, and the toy race is learned. Strength is a figure in
docs/training.md, not a test."""

from __future__ import annotations

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env.agents import alphazero_net as N

torch = pytest.importorskip("torch")


def sparse_observations(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    x = np.zeros((count, size), dtype=np.float32)
    on = rng.random((count, size)) < 0.05
    x[on] = rng.choice(np.array([1.0, 0.5, -2.0, 3.0], dtype=np.float32), size=int(on.sum()))
    return x


def test_numba_and_torch_nets_give_the_same_outputs() -> None:
    obs_size, actions, seats = 300, 40, 4
    model = N.TorchNet(obs_size, actions, seats, (32, 16), seed=3)
    net = N.to_arrays(model)
    x = sparse_observations(np.random.default_rng(0), 16, obs_size)
    f = np.random.default_rng(1).normal(size=(16, actions, N.NUM_FEATURES)).astype(np.float32)
    with torch.no_grad():
        t_logits, t_value = model(torch.from_numpy(x), torch.from_numpy(f))
    logits = np.zeros(actions, dtype=np.float32)
    value = np.zeros(seats, dtype=np.float32)
    h1, h2 = np.zeros(32, dtype=np.float32), np.zeros(16, dtype=np.float32)
    every = np.ones(actions, dtype=np.uint8)
    some = (np.arange(actions) % 3 == 0).astype(np.uint8)
    for i in range(x.shape[0]):
        N.forward(net, x[i], f[i], some, logits, value, h1, h2)
        np.testing.assert_allclose(logits[some == 1], t_logits[i].numpy()[some == 1], rtol=1e-5, atol=1e-5)
        N.forward(net, x[i], f[i], every, logits, value, h1, h2)
        np.testing.assert_allclose(logits, t_logits[i].numpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(value, t_value[i].numpy(), rtol=1e-5, atol=1e-5)
    # and back: weights loaded into a fresh torch net give the same net
    other = N.TorchNet(obs_size, actions, seats, (32, 16), seed=99)
    N.load_arrays(other, net)
    with torch.no_grad():
        np.testing.assert_array_equal(other(torch.from_numpy(x), torch.from_numpy(f))[0].numpy(), t_logits.numpy())
    # the features count: other features, other logits
    with torch.no_grad():
        assert not np.allclose(model(torch.from_numpy(x), torch.from_numpy(2 * f + 1))[0].numpy(), t_logits.numpy())


def test_feature_prior_alone_sets_the_untrained_logits() -> None:
    """With a feature prior the untrained network's logits are ``features . prior``
    exactly: no random policy head breaks the features' ties."""
    model = N.TorchNet(300, 40, 2, (32, 16), seed=3)
    prior = [10.0, -3.0, 10.0, 1.0]
    N.set_feature_prior(model, prior)
    x = sparse_observations(np.random.default_rng(0), 8, 300)
    f = np.random.default_rng(1).normal(size=(8, 40, N.NUM_FEATURES)).astype(np.float32)
    with torch.no_grad():
        logits, _ = model(torch.from_numpy(x), torch.from_numpy(f))
    np.testing.assert_allclose(logits.numpy(), f @ np.asarray(prior, dtype=np.float32), rtol=1e-5, atol=1e-5)


def test_prior_is_the_softmax_over_legal_actions_only() -> None:
    logits = np.array([5.0, 1.0, 2.0, 9.0], dtype=np.float32)
    mask = np.array([0, 1, 1, 0], dtype=np.uint8)
    out = np.zeros(4, dtype=np.float32)
    N.masked_softmax(logits, mask, out)
    expected = np.exp([1.0, 2.0]) / np.exp([1.0, 2.0]).sum()
    np.testing.assert_allclose(out, [0.0, expected[0], expected[1], 0.0], rtol=1e-6)
    assert N.masked_argmax(logits, mask) == 2


def test_saved_net_loads_back_and_bad_files_are_named(tmp_path) -> None:
    net = N.init_weights(20, 5, 2, (8, 4), seed=1)
    path = tmp_path / "net.npz"
    N.save_net(path, net, {"env_id": "toy_race_v0"})
    arrays, meta = N.load_net(path)
    assert meta["env_id"] == "toy_race_v0"
    for a, b in zip(arrays, net, strict=True):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="no network file"):
        N.load_net(tmp_path / "missing.npz")
    N.save_net(tmp_path / "bent.npz", (*net[:2], net[2][:5], *net[3:]), {"env_id": "toy_race_v0"})
    with pytest.raises(ValueError, match="do not chain"):
        N.load_net(tmp_path / "bent.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a network file"):
        N.load_net(tmp_path / "junk.npz")


def bound(env_id: str):
    from labyrinth_env.agents import alphazero_template
    from labyrinth_env.core.templates import bind

    return bind(alphazero_template, labyrinth_env.get_spec(env_id))


def search_params(simulations: int, noise=0.25, target=1, adjudicate=0.0, max_decisions=100_000, leaf_mix=0.0):
    from labyrinth_env.agents import alphazero_template as T

    p = np.zeros(T.NUM_PARAMS)
    p[T.P_SIMULATIONS], p[T.P_C], p[T.P_NOISE] = simulations, 1.5, noise
    p[T.P_TEMPERATURE_MOVES], p[T.P_MAX_DECISIONS] = 8, max_decisions
    p[T.P_TARGET], p[T.P_ADJUDICATE], p[T.P_LEAF_MIX] = target, adjudicate, leaf_mix
    return p


def test_leaf_mix_values_leaves_by_progress_instead_of_the_value_head() -> None:
    """With ``leaf_mix`` 1 the search values a new leaf by progress alone
    (``progress_values``): two nets that differ only in their value heads search alike;
    with ``leaf_mix`` 0 the value head decides, and they do not."""
    K = labyrinth_env.get_spec("toy_race_v0").kernel
    m = bound("toy_race_v0")
    net = N.init_weights(K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS, (16, 16), seed=0)
    other = list(net)
    other[6] = np.random.default_rng(1).normal(scale=3.0, size=net[6].shape).astype(np.float32)  # Wv
    other = tuple(other)
    env = labyrinth_env.make("toy_race_v0", num_players=2, max_turns=60)
    env.reset(seed=2)
    states = env.unwrapped._states[:1].copy()
    seat = int(K.to_act(states[0]))

    def improved(weights, mix):
        visits = np.zeros(K.NUM_ACTIONS, dtype=np.int64)
        out = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
        features = np.zeros((K.NUM_ACTIONS, N.NUM_FEATURES), dtype=np.float32)
        m.search(states, seat, np.uint64(5), weights, search_params(64, noise=0.0, leaf_mix=mix), visits, out, features)
        return out

    np.testing.assert_array_equal(improved(net, 1.0), improved(other, 1.0))
    assert not np.array_equal(improved(net, 0.0), improved(other, 0.0))


def random_policy(env_id: str, seed: int, width: int = 16, scale: float = 0.5):
    """An exported PPO policy's arrays and meta (``agents/policy_net``) for ``env_id`` with
    random weights, packed for ``policy_search``: what a trained file holds, without torch."""
    from labyrinth_env.agents import policy_net as P

    blank, meta = P.blank_policy(labyrinth_env.raw_env(env_id, lookahead=True).lookahead_layout(), width)
    rng = np.random.default_rng(seed)
    arrays = {k: (scale * rng.normal(size=a.shape)).astype(np.float32) for k, a in blank.items()}
    meta = {**meta, "shaping": 1.0, "potential": "progress", "env_id": env_id}
    return arrays, meta, P.search_arrays(arrays, meta)


def test_the_numba_ppo_network_gives_the_numpy_logits_and_critic_value() -> None:
    """``policy_net.policy_forward`` (the search's) against ``policy_logits`` and
    ``policy_value`` (the learned agent's numpy forward, checked against torch in
    tests/test_train.py) on the observations of a Labyrinx game with its lookahead block."""
    from labyrinth_env.agents import policy_net as P

    arrays, meta, packed = random_policy("labyrinx_v1", seed=4)
    base = meta["layout"]["base_size"]
    env = labyrinth_env.make("labyrinx_v1", num_players=2, lookahead=True)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(25):
        obs = env.last()[0]
        o, mask = obs["observation"], obs["action_mask"].astype(np.uint8)
        logits = np.zeros(mask.size, dtype=np.float32)
        value = P.policy_forward(packed, o[:base].copy(), o[base:].reshape(mask.size, -1).copy(), mask, logits)
        legal = mask == 1
        np.testing.assert_allclose(logits[legal], P.policy_logits(arrays, meta, o)[legal], rtol=1e-4, atol=1e-4)
        assert np.all(logits[~legal] == 0.0)
        assert value == pytest.approx(P.policy_value(arrays, meta, o), abs=1e-4)
        env.step(int(rng.choice(np.flatnonzero(legal))))


def test_a_ppo_network_guides_the_search_by_its_critic_or_by_progress() -> None:
    """``policy_search``: with ``leaf_mix`` 0 a leaf is valued by the critic, so two
    networks that differ only in their critics search differently; with ``leaf_mix`` 1 by
    progress alone, and they search alike."""
    K = labyrinth_env.get_spec("toy_race_v0").kernel
    m = bound("toy_race_v0")
    _, _, packed = random_policy("toy_race_v0", seed=1)
    other = list(packed)
    other[20] = -3.0 * packed[20]  # the value layer's weights
    env = labyrinth_env.make("toy_race_v0", num_players=2, max_turns=60)
    env.reset(seed=2)
    states = env.unwrapped._states[:1].copy()
    seat = int(K.to_act(states[0]))

    def improved(policy, mix):
        visits = np.zeros(K.NUM_ACTIONS, dtype=np.int64)
        out = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
        features = np.zeros((K.NUM_ACTIONS, N.NUM_FEATURES), dtype=np.float32)
        params = search_params(64, noise=0.0, leaf_mix=mix)
        m.policy_search(states, seat, np.uint64(5), policy, params, visits, out, features)
        assert visits.sum() == 64
        return out

    np.testing.assert_array_equal(improved(packed, 1.0), improved(tuple(other), 1.0))
    assert not np.array_equal(improved(packed, 0.0), improved(tuple(other), 0.0))


def test_a_ppo_network_as_learned_plays_its_searchs_most_visited_move(tmp_path) -> None:
    """``learned:PATH,simulations=N`` with an exported PPO network plays the most visited
    root move of ``policy_search`` (``choose=auto``), and with ``choose=q`` the completed-Q
    policy's argmax; the agent draws each move's seed from its own stream."""
    import json

    from labyrinth_env.agents import make_agent
    from labyrinth_env.agents import policy_net as P

    arrays, meta, _ = random_policy("toy_race_v0", seed=2, scale=2.0)
    meta = {**meta, "format": P.FORMAT, "generic_lookahead": True}
    np.savez(tmp_path / "p.npz", meta=json.dumps(meta), **{k: v.astype(np.float16) for k, v in arrays.items()})
    packed = P.search_arrays(*P.load_policy(tmp_path / "p.npz"))
    K = labyrinth_env.get_spec("toy_race_v0").kernel
    m = bound("toy_race_v0")
    for choose in ("auto", "q"):
        agent = make_agent(f"learned:path={tmp_path / 'p.npz'},simulations=24,choose={choose}", seed=11)
        seeds = np.random.default_rng(11)
        env = labyrinth_env.make("toy_race_v0", num_players=2, max_turns=20)
        env.reset(seed=4)
        differ = 0
        for _ in range(12):
            raw, obs = env.unwrapped, env.last()[0]
            seat, seed = int(K.to_act(raw.record)), np.uint64(int(seeds.integers(0, 1 << 63)))
            visits = np.zeros(K.NUM_ACTIONS, dtype=np.int64)
            improved = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
            features = np.zeros((K.NUM_ACTIONS, N.NUM_FEATURES), dtype=np.float32)
            params = search_params(24, noise=0.0)
            m.policy_search(raw._states[:1].copy(), seat, seed, packed, params, visits, improved, features)
            mask = obs["action_mask"].astype(np.uint8)
            most_visited = N.masked_argmax(visits.astype(np.float32), mask)
            best_q = N.masked_argmax(improved, mask)
            differ += most_visited != best_q
            action = agent.act(obs, env)
            assert action == (most_visited if choose == "auto" else best_q)
            env.step(action)
        assert differ > 0  # the two choices are told apart


def test_states_differing_only_in_hidden_information_give_identical_training_inputs() -> None:
    """Labyrinx hides the other hands and the draw pile: at every decision of a game's start,
    the true record and a record the deciding seat cannot tell from it give the same
    observation, mask, action features and search visits for the same seed, in the search the
    self-play network guides and in the one a PPO network guides. The nets' weights are
    scaled up so that their values, and so the visits, follow whatever the search reads."""
    env_id = "labyrinx_v1"
    spec = labyrinth_env.get_spec(env_id)
    K = spec.kernel
    m = bound(env_id)
    net = tuple(10.0 * a for a in N.init_weights(K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS, (16, 16), seed=0))
    policy = random_policy(env_id, seed=0, scale=3.0)[2]
    env = labyrinth_env.make(env_id, num_players=3)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    compared = differing = 0
    for _ in range(30):
        legal = np.flatnonzero(env.last()[0]["action_mask"])
        env.step(int(rng.choice(legal)))
        raw = env.unwrapped
        if K.to_act(raw.record) < 0 or np.count_nonzero(env.last()[0]["action_mask"]) < 2:
            continue
        seat = int(K.to_act(raw.record))
        true_states = raw._states[:1].copy()
        other = raw.seat_view(raw.agent_selection).model.sample(seed=1234)
        differing += any(not np.array_equal(true_states[0][f], other[0][f]) for f in ("hand", "deck"))
        inputs = []
        for states in (true_states, other):
            obs = np.zeros(K.OBS_SIZE, dtype=np.float32)
            spec.loops.observe_one(states, seat, obs)
            mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
            spec.loops.refresh_one(states, mask, np.zeros(K.NUM_SEATS))
            visits = np.zeros(K.NUM_ACTIONS, dtype=np.int64)
            improved = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
            features = np.zeros((K.NUM_ACTIONS, N.NUM_FEATURES), dtype=np.float32)
            m.search(states, seat, np.uint64(77), net, search_params(48), visits, improved, features)
            chosen = m.net_action_one(states, seat, net, np.uint64(78))
            inputs.append((obs, mask, visits, improved, features, chosen))
            # and the search a PPO network guides (its actor, its critic)
            visits, improved = np.zeros_like(visits), np.zeros_like(improved)
            m.policy_search(states, seat, np.uint64(79), policy, search_params(48), visits, improved, features)
            inputs[-1] += (visits, improved, features.copy())
        assert inputs[0][2].sum() == 48 and inputs[0][6].sum() == 48
        for a, b in zip(inputs[0], inputs[1], strict=True):
            np.testing.assert_array_equal(a, b)
        compared += 1
    assert compared >= 10 and differing >= 10, (compared, differing)


def selfplay_buffers(K, capacity: int, games: int) -> dict[str, np.ndarray]:
    return {
        "obs": np.zeros((capacity, K.OBS_SIZE), dtype=np.float32),
        "features": np.zeros((capacity, K.NUM_ACTIONS, N.NUM_FEATURES), dtype=np.float32),
        "masks": np.zeros((capacity, K.NUM_ACTIONS), dtype=np.uint8),
        "policy": np.zeros((capacity, K.NUM_ACTIONS), dtype=np.float32),
        "seats": np.zeros(capacity, dtype=np.int64),
        "games": np.zeros(capacity, dtype=np.int64),
        "targets": np.zeros((capacity, K.NUM_SEATS), dtype=np.float32),
        "returns": np.zeros((games, K.NUM_SEATS), dtype=np.float64),
    }


def test_selfplay_records_search_targets_and_each_seats_returns() -> None:
    K = labyrinth_env.get_spec("toy_race_v0").kernel
    m = bound("toy_race_v0")
    net = N.init_weights(K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS, (16, 16), seed=0)
    options = labyrinth_env.raw_env("toy_race_v0", num_players=3).options_vector()
    b = selfplay_buffers(K, 8000, 12)
    seeds = np.arange(12, dtype=np.uint64)
    rows = m.selfplay(seeds, options, net, search_params(16), *b.values())
    assert 0 < rows < 8000
    policy, masks = b["policy"][:rows], b["masks"][:rows]
    np.testing.assert_allclose(policy.sum(axis=1), 1.0, rtol=1e-6)
    assert not (policy[masks == 0] > 0).any(), "visits only on legal actions"
    assert (masks.sum(axis=1) > 1).all(), "forced decisions are not recorded"
    for r in range(rows):
        g, seat = b["games"][r], b["seats"][r]
        expected = [b["returns"][g, (seat + k) % 3] for k in range(3)]
        np.testing.assert_array_equal(b["targets"][r, :3], expected)
        assert (b["targets"][r, 3:] == 0).all()
    assert (np.abs(b["returns"]).sum(axis=1) > 0).any(), "some game was won"
    again = selfplay_buffers(K, 8000, 12)
    assert m.selfplay(seeds, options, net, search_params(16), *again.values()) == rows
    for key in b:
        np.testing.assert_array_equal(b[key], again[key])


def test_undecided_games_teach_the_seats_progress_when_adjudicated() -> None:
    """Games the decision cap stops undecided return nothing; their value targets are then
    ``adjudicate * tanh(10 * (own - best other potential))``: opposite for two seats, within
    the weight, and the game's own returns stay zero."""
    K = labyrinth_env.get_spec("toy_race_v0").kernel
    m = bound("toy_race_v0")
    net = N.init_weights(K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS, (16, 16), seed=0)
    options = labyrinth_env.raw_env("toy_race_v0", num_players=2).options_vector()
    seeds = np.arange(8, dtype=np.uint64)
    plain, judged = selfplay_buffers(K, 400, 8), selfplay_buffers(K, 400, 8)
    rows = m.selfplay(seeds, options, net, search_params(8, max_decisions=5), *plain.values())
    assert m.selfplay(seeds, options, net, search_params(8, adjudicate=0.5, max_decisions=5), *judged.values()) == rows
    assert rows > 0 and not plain["returns"].any() and not judged["returns"].any()
    assert not plain["targets"].any(), "without adjudication an undecided game teaches a draw"
    t = judged["targets"][:rows, :2]
    assert np.abs(t).max() <= 0.5 and (t != 0).any()
    np.testing.assert_allclose(t[:, 0], -t[:, 1], atol=1e-6)


def test_evaluation_against_self_plays_every_seat_by_the_learner() -> None:
    """``OPPONENT_SELF`` (a cooperative team of learners) seats the learner everywhere: a
    network that walks away from its goal never lets a game end, where a random opponent
    beside it does win."""
    K = labyrinth_env.get_spec("toy_race_v0").kernel
    m = bound("toy_race_v0")
    net = [np.zeros_like(a) for a in N.init_weights(K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS, (8, 8), seed=0)]
    net[9][:] = np.array([-10.0, 0.0, -10.0, 0.0], dtype=np.float32)  # away from progress, never a win
    options = labyrinth_env.raw_env("toy_race_v0", num_players=2).options_vector()
    seeds = np.arange(12, dtype=np.uint64)
    seats = np.arange(12, dtype=np.int64) % 2
    outcomes = {}
    for kind in (m.OPPONENT_SELF, m.OPPONENT_RANDOM):
        returns = np.zeros((12, K.NUM_SEATS))
        m.play_match(seeds, options, tuple(net), search_params(0, max_decisions=400), seats, kind, returns)
        outcomes[kind] = int((returns > 0).any(axis=1).sum())
    assert outcomes[m.OPPONENT_SELF] == 0 and outcomes[m.OPPONENT_RANDOM] > 0, outcomes


def test_action_features_read_the_position_each_action_leads_to() -> None:
    """Each legal action's features: the change of the seat's own potential and of the best
    other seat's (times ten), its return if the action ends the game, whether it acts again;
    illegal actions' rows stay zero."""
    spec = labyrinth_env.get_spec("toy_race_v0")
    K = spec.kernel
    env = labyrinth_env.make("toy_race_v0", num_players=2, max_turns=60)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    moved_closer = checked = 0
    while env.agents and checked < 40:
        raw = env.unwrapped
        states = raw._states[:1].copy()
        s, seat = states[0], int(K.to_act(raw.record))
        mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
        K.legal_mask(s, mask)
        features = np.full((K.NUM_ACTIONS, N.NUM_FEATURES), 7.0, dtype=np.float32)
        spec.random_loops.action_features(s, seat, mask, features, np.empty(1, dtype=K.STATE_DTYPE))
        assert not features[mask == 0].any()
        for a in np.flatnonzero(mask):
            after = states.copy()
            K.step(after[0], a)
            own = K.progress(after[0], seat) - K.progress(s, seat)
            if K.to_act(after[0]) >= 0:
                assert features[a, 0] == pytest.approx(10 * own, abs=1e-5)
                assert features[a, 3] == float(K.to_act(after[0]) == seat)
            moved_closer += features[a, 0] > 0
        checked += 1
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 20 and moved_closer > 0


def toy_config(tmp_path, **over):
    from labyrinth_env.agents import train_alphazero as A

    data = {
        "algo": "alphazero",
        "env_id": "toy_race_v0",
        "options": {"num_players": 2, "max_turns": 60},
        "seed": 3,
        "out_dir": str(tmp_path / "run"),
        "iterations": 4,
        "checkpoint_every": 1,
        "net": {"hidden": [32, 32]},
        "selfplay": {"games": 4, "simulations": 8, "temperature_moves": 1000},
        "train": {"updates": 5, "batch_size": 64, "buffer": 1000},
        "eval": {"every": 2, "games": 6, "against": ["random", "heuristic"]},
    }
    for key, value in over.items():
        data[key] = {**data[key], **value} if isinstance(value, dict) else value
    return A.check_config(data)


def test_loss_falls_on_a_fixed_batch(tmp_path) -> None:
    from labyrinth_env.agents import train_alphazero as A

    trainer = A.Trainer(toy_config(tmp_path, train={"learning_rate": 3e-3}))
    trainer.selfplay(N.to_arrays(trainer.model))
    batch = trainer.buffer.sample(np.random.default_rng(0), 128)
    pi = batch["policy"]
    entropy = float(-(pi * np.log(np.where(pi > 0, pi, 1.0))).sum(axis=1).mean())  # the policy loss's floor

    def excess() -> float:
        with torch.no_grad():
            return A.losses(trainer.model, batch, trainer.players, 1.0)[0].item() - entropy

    first = excess()
    for _ in range(150):
        loss = A.losses(trainer.model, batch, trainer.players, 1.0)[0]
        trainer.optimizer.zero_grad()
        loss.backward()
        trainer.optimizer.step()
    assert excess() < 0.3 * first, (first, excess())


def test_a_feature_prior_makes_the_untrained_network_play_by_its_features(tmp_path) -> None:
    """With ``net.feature_prior`` the first network's logits are the prior's weighting of
    the action features alone: the weights say g = prior, and the policy head is zero."""
    from labyrinth_env.agents import train_alphazero as A

    prior = [1.0, -0.3, 5.0, 0.0]
    trainer = A.Trainer(toy_config(tmp_path, net={"hidden": [8, 8], "feature_prior": prior}))
    net = N.to_arrays(trainer.model)
    assert not net[8].any()
    np.testing.assert_array_equal(net[9], np.array(prior, dtype=np.float32))
    assert not net[4].any() and not net[5].any()
    plain = N.to_arrays(A.Trainer(toy_config(tmp_path / "plain", net={"hidden": [8, 8]})).model)
    assert not np.array_equal(plain[9], net[9])


def test_sparse_rows_give_back_the_dense_rows() -> None:
    from labyrinth_env.agents.train_alphazero import SparseRows

    dense = sparse_observations(np.random.default_rng(2), 30, 50)
    dense[4] = 0.0  # an empty row
    rows = SparseRows.from_dense(dense)
    pick = np.array([4, 0, 29, 4, 7, 0])
    np.testing.assert_array_equal(rows.gather(pick), dense[pick])
    joined = SparseRows.concat([SparseRows.from_dense(dense[:10]), SparseRows.from_dense(dense[10:])])
    np.testing.assert_array_equal(joined.gather(np.arange(30)), dense)


def test_a_resumed_run_continues_bit_for_bit(tmp_path) -> None:
    from labyrinth_env.agents import train_alphazero as A

    straight = A.train(toy_config(tmp_path / "a"), progress=False)["trainer"]
    A.train(toy_config(tmp_path / "b", iterations=2), progress=False)
    resumed = A.train(toy_config(tmp_path / "b"), resume=True, progress=False)["trainer"]
    assert resumed.iteration == straight.iteration == 4
    for a, b in zip(straight.model.state_dict().values(), resumed.model.state_dict().values(), strict=True):
        assert torch.equal(a, b)
    keys = ("loss", "decisions", "buffer")
    assert [[h[k] for k in keys] for h in straight.history] == [[h[k] for k in keys] for h in resumed.history]
    assert [h["eval"] for h in straight.history if "eval" in h] == [h["eval"] for h in resumed.history if "eval" in h]
    with pytest.raises(ValueError, match="already holds a run"):
        A.train(toy_config(tmp_path / "b"), progress=False)
    run = tmp_path / "b" / "run"
    for name in ("checkpoint.pt", "buffer.npz", "net.npz", "eval.jsonl", "scalars.jsonl", "learning_curve.png"):
        assert (run / name).is_file(), name
    assert (run / "net.npz").stat().st_size < 200_000


def test_config_errors_name_the_key_and_what_is_allowed(tmp_path) -> None:
    from labyrinth_env.agents import train_alphazero as A

    base = {"algo": "alphazero", "env_id": "toy_race_v0"}
    with pytest.raises(ValueError, match=r"unknown key selfplay.gamez; allowed"):
        A.check_config({**base, "selfplay": {"gamez": 3}})
    with pytest.raises(ValueError, match=r"selfplay.simulations must be >= 1"):
        A.check_config({**base, "selfplay": {"simulations": 0}})
    with pytest.raises(ValueError, match=r"net hidden must be two layer widths"):
        A.check_config({**base, "net": {"hidden": [8]}})
    with pytest.raises(ValueError, match=r"unknown eval.against entry 'mcts'"):
        A.check_config({**base, "eval": {"against": ["mcts"]}})
    with pytest.raises(ValueError, match=r"feature_prior must be empty or 4 numbers"):
        A.check_config({**base, "net": {"feature_prior": [1.0, 2.0]}})
    with pytest.raises(ValueError, match=r"selfplay.max_turns must be >= 0"):
        A.check_config({**base, "selfplay": {"max_turns": -1}})
    with pytest.raises(ValueError, match=r"selfplay.adjudicate must be in \[0, 1\]"):
        A.check_config({**base, "selfplay": {"adjudicate": 2.0}})
    with pytest.raises(ValueError, match=r"selfplay.leaf_mix must be in \[0, 1\]"):
        A.check_config({**base, "selfplay": {"leaf_mix": -0.5}})
    with pytest.raises(ValueError, match=r"unknown eval.against entry 'mirror'.*'self'"):
        A.check_config({**base, "eval": {"against": ["mirror"]}})
    with pytest.raises(ValueError, match=r"--resume: no checkpoint"):
        A.train(toy_config(tmp_path), resume=True, progress=False)


def test_labyrinth_train_runs_an_alphazero_config_and_names_config_errors(tmp_path, capsys) -> None:
    from labyrinth_env.cli import main

    good = tmp_path / "toy.yaml"
    good.write_text(
        "algo: alphazero\nenv_id: toy_race_v0\noptions: {num_players: 2, max_turns: 30}\n"
        f"out_dir: {tmp_path / 'cli'}\niterations: 1\nnet: {{hidden: [8, 8]}}\n"
        "selfplay: {games: 2, simulations: 4}\ntrain: {updates: 1, batch_size: 8}\n"
        "eval: {every: 1, games: 2, against: [random]}\n"
    )
    assert main(["train", "--config", str(good), "--no-progress"]) == 0
    assert "vs random: win rate" in capsys.readouterr().out
    assert (tmp_path / "cli" / "net.npz").is_file()
    bad = tmp_path / "bad.yaml"
    bad.write_text("algo: alphazero\nenv_id: toy_race_v0\nselfplay: {games: 0}\n")
    assert main(["train", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "selfplay.games must be >= 1" in err
    bad.write_text("algo: muzero\nenv_id: toy_race_v0\n")
    assert main(["train", "--config", str(bad)]) == 2
    assert "unknown algo 'muzero'" in capsys.readouterr().err


def test_learned_agent_plays_the_network_in_evaluate_and_names_what_is_missing(tmp_path) -> None:
    from labyrinth_env.agents import make_agent
    from labyrinth_env.agents.evaluate import evaluate_match
    from labyrinth_env.agents.train_alphazero import Trainer

    trainer = Trainer(toy_config(tmp_path))
    trainer.save_net(tmp_path / "net.npz")
    spec = f"learned:{tmp_path / 'net.npz'}"
    for agent in (spec, f"learned:path={tmp_path / 'net.npz'},simulations=8"):
        result = evaluate_match("toy_race_v0", [agent, "random"], 4, seed=1, num_players=2, max_turns=20)
        assert sum(result["outcomes"].values()) == 4
    # the network alone plays what the trainer's own evaluation plays: the masked argmax
    # (the agent draws a world seed from its own stream every move)
    env = labyrinth_env.make("toy_race_v0", num_players=2, max_turns=20)
    env.reset(seed=2)
    agent = make_agent(spec, seed=11)
    seeds = np.random.default_rng(11)
    K = labyrinth_env.get_spec("toy_race_v0").kernel
    for _ in range(10):
        raw = env.unwrapped
        seat, world_seed = int(K.to_act(raw.record)), np.uint64(int(seeds.integers(0, 1 << 63)))
        expected = trainer.module.net_action_one(raw._states[:1], seat, N.to_arrays(trainer.model), world_seed)
        action = agent.act(env.last()[0], env)
        assert action == expected
        env.step(action)
    with pytest.raises(ValueError, match="no shipped network for toy_race_v0"):
        make_agent("learned").act(env.last()[0], env)
    with pytest.raises(ValueError, match="trained for 'toy_race_v0', not 'labyrinx_v1'"):
        other = labyrinth_env.make("labyrinx_v1", num_players=2)
        other.reset(seed=0)
        agent.act(other.last()[0], other)
    with pytest.raises(ValueError, match="no network file"):
        make_agent("learned:" + str(tmp_path / "missing.npz"))


def test_the_toy_race_is_learned_beyond_the_heuristic_in_seconds(tmp_path) -> None:
    """A few seconds of self-play (12 iterations of 8 games) take the network alone from no
    wins against the random agent (the untrained argmax walks in circles) to 0.33, more than
    the toy's heuristic wins against it (0.23 over 200 games at max_turns 100; random
    against random wins 0.2 a seat, the rest are truncated). Trained on uniform policy
    targets instead, it reaches 0.02. Not optimal play: a 200-simulation MCTS with
    heuristic rollouts wins 0.60 against random (docs/training.md)."""
    from labyrinth_env.agents import train_alphazero as A

    cfg = toy_config(
        tmp_path,
        options={"num_players": 2, "max_turns": 100},
        seed=0,
        iterations=12,
        checkpoint_every=100,
        net={"hidden": [64, 64]},
        selfplay={"games": 8, "simulations": 32},
        train={"updates": 30, "batch_size": 256, "buffer": 5000, "learning_rate": 3e-3},
        eval={"every": 100, "games": 200, "against": ["random"]},
    )
    untrained = A.Trainer(cfg)
    before = untrained.evaluate(N.to_arrays(untrained.model))[0]["win_rate"]
    trainer = A.train(cfg, progress=False)["trainer"]
    after = trainer.evaluate(N.to_arrays(trainer.model))[0]["win_rate"]
    assert before < 0.1 and after >= 0.28, (before, after)


def test_the_feature_prior_benchmark_prints_a_table_and_writes_json(tmp_path, capsys) -> None:
    import json

    from labyrinth_env.benchmarks import feature_prior

    out = tmp_path / "prior.json"
    assert feature_prior.main(["--env", "toy_race_v0", "--games", "4", "--out", str(out)]) == 0
    table = capsys.readouterr().out
    assert "toy_race_v0" in table and "heuristic" in table
    rows = json.loads(out.read_text())["rows"]
    assert [r["opponent"] for r in rows] == ["random", "heuristic"] and all(r["games"] == 4 for r in rows)
    assert feature_prior.main(["--env", "toy_race_v0", "--prior", "1,2"]) == 2
    assert "--prior must be 4 comma-separated numbers" in capsys.readouterr().err


def shipped_networks() -> list:
    from labyrinth_env.agents.learned import CHECKPOINTS

    return sorted(CHECKPOINTS.glob("*.npz"))


@pytest.mark.parametrize("path", shipped_networks(), ids=lambda p: p.stem)
def test_shipped_networks_load_for_their_env_with_their_record(path) -> None:
    """Each shipped network (agent spec ``learned``) is named for its env, fits that env's
    kernel, is at most a few MB, and has beside it a record naming the training config it
    came from (which exists, trains that env, and has the seed and iteration count, or for
    an exported PPO policy the steps, the network's metadata gives) and the figures it was
    measured at."""
    import json
    from pathlib import Path

    from labyrinth_env.agents import learned, policy_net
    from labyrinth_env.agents.train_alphazero import load_config

    record = json.loads(path.with_suffix(".json").read_text())
    assert {"against", "games", "win_rate", "ci95", "command"} <= set(record["figures"][0])
    K = labyrinth_env.get_spec(path.stem).kernel
    assert learned.shipped_path(path.stem) == path and path.stat().st_size < 8_000_000
    if policy_net.is_policy_file(path):  # a PPO policy's actor: its record names the PPO config
        from labyrinth_env.agents.train_ppo import load_train_config

        _, meta = policy_net.load_policy(path)
        assert meta["env_id"] == path.stem and meta["config"] == record["config"]
        assert (meta["layout"]["base_size"], len(meta["layout"]["kinds"])) == (K.OBS_SIZE, K.NUM_ACTIONS)
        ppo = load_train_config(Path(__file__).resolve().parents[1] / record["config"])
        assert ppo.env_id == path.stem and ppo.seed == meta["seed"] == record["seed"]
        assert meta["timesteps"] == record["timesteps"] >= ppo.total_timesteps
        # its critic, and the shaping its values include, let it guide learned:simulations=N
        assert meta["critic_layers"] == 2
        assert (meta["shaping"], meta["potential"]) == (ppo.vector["shaping"], ppo.vector["potential"])
        return
    arrays, meta = N.load_net(path)
    assert meta["env_id"] == path.stem
    assert (arrays[0].shape[0], arrays[5].shape[0], arrays[7].shape[0]) == (K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS)
    cfg = load_config(Path(__file__).resolve().parents[1] / record["config"])
    assert cfg.env_id == path.stem and cfg.seed == meta["seed"] == record["seed"]
    assert cfg.iterations == meta["iteration"] == record["iteration"]
    assert cfg.selfplay["leaf_mix"] == meta["leaf_mix"]


def test_the_feature_prior_benchmark_measures_the_prior_and_its_search(capsys) -> None:
    """``benchmarks/feature_prior.py``: rows for the prior alone and guided search, and one
    line with exit code 2 for settings it cannot take."""
    from benchmarks import feature_prior

    for simulations in (0, 8):
        rows = feature_prior.measure("toy_race_v0", 4, (10.0, -3.0, 10.0, 0.0), simulations=simulations)
        assert [r["opponent"] for r in rows] == ["random", "heuristic"]
        assert all(r["games"] == 4 and 0 <= r["wins"] <= 4 and r["simulations"] == simulations for r in rows)
    for argv in (["--simulations", "-1"], ["--leaf-mix", "2"], ["--prior", "1,2"]):
        assert feature_prior.main(["--env", "toy_race_v0", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "feature_prior.py:" in err
