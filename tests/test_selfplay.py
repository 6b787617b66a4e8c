"""The self-play learner's machinery (agents/alphazero_*.py, issue 35): the network's two
twins agree, the search never reads hidden information, training lowers the loss, a
resumed run continues bit-for-bit, and the toy race is learned. Strength is a figure in
docs/training.md, not a test."""

from __future__ import annotations

import numpy as np
import pytest

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
    for i in range(x.shape[0]):
        N.forward(net, x[i], logits, value, h1, h2)
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
