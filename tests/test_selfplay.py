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
    with torch.no_grad():
        t_logits, t_value = model(torch.from_numpy(x))
    logits = np.zeros(actions, dtype=np.float32)
    value = np.zeros(seats, dtype=np.float32)
    h1, h2 = np.zeros(32, dtype=np.float32), np.zeros(16, dtype=np.float32)
    every = np.ones(actions, dtype=np.uint8)
    some = (np.arange(actions) % 3 == 0).astype(np.uint8)
    for i in range(x.shape[0]):
        N.forward(net, x[i], some, logits, value, h1, h2)
        np.testing.assert_allclose(logits[some == 1], t_logits[i].numpy()[some == 1], rtol=1e-5, atol=1e-5)
        N.forward(net, x[i], every, logits, value, h1, h2)
        np.testing.assert_allclose(logits, t_logits[i].numpy(), rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(value, t_value[i].numpy(), rtol=1e-5, atol=1e-5)
    # and back: weights loaded into a fresh torch net give the same net
    other = N.TorchNet(obs_size, actions, seats, (32, 16), seed=99)
    N.load_arrays(other, net)
    with torch.no_grad():
        np.testing.assert_array_equal(other(torch.from_numpy(x))[0].numpy(), t_logits.numpy())


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
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a network file"):
        N.load_net(tmp_path / "junk.npz")


def bound(env_id: str):
    from labyrinth_env.agents import alphazero_template
    from labyrinth_env.core.templates import bind

    return bind(alphazero_template, labyrinth_env.get_spec(env_id))


def search_params(simulations: int, noise: float = 0.25):
    from labyrinth_env.agents import alphazero_template as T

    p = np.zeros(T.NUM_PARAMS)
    p[T.P_SIMULATIONS], p[T.P_C], p[T.P_NOISE] = simulations, 1.5, noise
    p[T.P_TEMPERATURE_MOVES], p[T.P_MAX_DECISIONS] = 8, 100_000
    return p


def test_states_differing_only_in_hidden_information_give_identical_training_inputs() -> None:
    """Labyrinx hides the other hands and the draw pile: at every decision of a game's start,
    the true record and a record the deciding seat cannot tell from it give the same
    observation, mask and search visits for the same seed. The net's weights are scaled up
    so that its values, and so the visits, follow whatever the search reads."""
    env_id = "labyrinx_v1"
    spec = labyrinth_env.get_spec(env_id)
    K = spec.kernel
    m = bound(env_id)
    net = tuple(10.0 * a for a in N.init_weights(K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS, (16, 16), seed=0))
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
            m.search(states, seat, np.uint64(77), net, search_params(48), visits)
            inputs.append((obs, mask, visits))
        assert inputs[0][2].sum() == 48
        for a, b in zip(inputs[0], inputs[1], strict=True):
            np.testing.assert_array_equal(a, b)
        compared += 1
    assert compared >= 10 and differing >= 10, (compared, differing)


def selfplay_buffers(K, capacity: int, games: int) -> dict[str, np.ndarray]:
    return {
        "obs": np.zeros((capacity, K.OBS_SIZE), dtype=np.float32),
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
    b = selfplay_buffers(K, 4000, 6)
    seeds = np.arange(6, dtype=np.uint64)
    rows = m.selfplay(seeds, options, net, search_params(16), *b.values())
    assert 0 < rows < 4000
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
    again = selfplay_buffers(K, 4000, 6)
    assert m.selfplay(seeds, options, net, search_params(16), *again.values()) == rows
    for key in b:
        np.testing.assert_array_equal(b[key], again[key])
