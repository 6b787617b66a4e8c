"""The self-play learner's policy/value network, twice: numba (inside the search) and torch
(for training), the same architecture and the same weights.

    x = the deciding seat's own observation (flat float32, ``K.OBS_SIZE``)
    f = what each legal action leads to    (``[K.NUM_ACTIONS, NUM_FEATURES]``, see
                                            ``batch_template.action_features``)
    h1 = relu(x W1 + b1), h2 = relu(h1 W2 + b2)
    g = h2 Wf + bf                         (``NUM_FEATURES``: how much each feature
                                            counts in this position)
    logits[a] = (h2 Wp + bp)[a] + f[a] . g (``K.NUM_ACTIONS``; the prior is their softmax
                                            over the legal actions only, and numba
                                            computes the legal ones only)
    value = tanh(h2 Wv + bv)               (``K.NUM_SEATS``: ``value[k]`` is the return of
                                            the seat ``k`` places after the observer, the
                                            observation's own egocentric order)

The action features are why the network can learn these games at all: a fully connected
layer over the flat board would have to learn a path search for each of its outputs
before it could tell a move towards the goal from one away from it (the first Labyrinx
run without them reached 0.04 against the heuristic). Each legal action's features are
read from the position it leads to in a world determinized for the deciding seat, so they
carry nothing the seat cannot know; the network learns how much each one counts.

The weights travel as a tuple of ten float32 arrays ``(W1, b1, W2, b2, Wp, bp, Wv, bv,
Wf, bf)``,
each weight matrix stored ``[inputs, outputs]``. The observations are mostly zeros (about
3% of Labyrinx's 7,507 entries are set), so the numba forward adds the rows of ``W1`` of
the nonzero inputs only: the first layer, which holds almost all the weights, costs a few
percent of a dense product.

A cooperative game's returns are the same for every seat, so the value head learns the
team's value without anything special.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from labyrinth_env.core.jit import njit

NUM_ARRAYS = 10
NUM_FEATURES = 4  # see core/batch_template.action_features
FORMAT = "labyrinth-alphazero-net/2"


@njit(cache=True)
def forward(net, x, features, mask, logits, value, h1, h2) -> None:
    """``logits`` (of the actions ``mask`` allows only; the others are left 0) and ``value``
    of observation ``x`` with action features ``features`` (``h1``, ``h2``: scratch of the
    hidden widths). Skipping the
    illegal actions' logits matters: the policy head is most of the work that is left once
    the first layer reads only the nonzero inputs."""
    w1, b1, w2, b2, wp, bp, wv, bv, wf, bf = net
    h1[:] = b1
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for j in range(h1.shape[0]):
                h1[j] += xi * w1[i, j]
    for j in range(h1.shape[0]):
        if h1[j] < 0.0:
            h1[j] = 0.0
    h2[:] = b2
    for i in range(h1.shape[0]):
        hi = h1[i]
        if hi != 0.0:
            for j in range(h2.shape[0]):
                h2[j] += hi * w2[i, j]
    for j in range(h2.shape[0]):
        if h2[j] < 0.0:
            h2[j] = 0.0
    legal = np.empty(mask.shape[0], dtype=np.int64)
    count = 0
    for a in range(mask.shape[0]):
        logits[a] = 0.0
        if mask[a]:
            legal[count] = a
            logits[a] = bp[a]
            count += 1
    value[:] = bv
    for i in range(h2.shape[0]):
        hi = h2[i]
        if hi != 0.0:
            for k in range(count):
                a = legal[k]
                logits[a] += hi * wp[i, a]
            for j in range(value.shape[0]):
                value[j] += hi * wv[i, j]
    for j in range(value.shape[0]):
        value[j] = np.tanh(value[j])
    weight = bf.copy()
    for i in range(h2.shape[0]):
        hi = h2[i]
        if hi != 0.0:
            for f in range(weight.shape[0]):
                weight[f] += hi * wf[i, f]
    for k in range(count):
        a = legal[k]
        for f in range(weight.shape[0]):
            logits[a] += weight[f] * features[a, f]


@njit(cache=True)
def masked_softmax(logits, mask, out) -> None:
    """``out``: the softmax of ``logits`` over the actions ``mask`` allows, 0 elsewhere."""
    top = -np.inf
    for a in range(mask.shape[0]):
        if mask[a] and logits[a] > top:
            top = logits[a]
    total = 0.0
    for a in range(mask.shape[0]):
        if mask[a]:
            out[a] = np.exp(logits[a] - top)
            total += out[a]
        else:
            out[a] = 0.0
    for a in range(mask.shape[0]):
        out[a] /= total


@njit(cache=True)
def masked_argmax(logits, mask) -> int:
    """The legal action of the highest logit (the first of equal ones); -1 if none is legal."""
    best, best_a = -np.inf, -1
    for a in range(mask.shape[0]):
        if mask[a] and logits[a] > best:
            best, best_a = logits[a], a
    if best_a < 0:  # every legal logit -inf or nan: the first legal action
        for a in range(mask.shape[0]):
            if mask[a]:
                return a
    return best_a


def init_weights(obs_size: int, num_actions: int, num_seats: int, hidden: tuple[int, int], seed: int) -> tuple:
    """Fresh weights (torch's default Linear initialisation, from ``seed``), as numba arrays."""
    return to_arrays(TorchNet(obs_size, num_actions, num_seats, hidden, seed=seed))


def check_hidden(hidden: Any) -> tuple[int, int]:
    """``hidden`` as two positive widths, or ``ValueError`` saying what is allowed."""
    if (
        not isinstance(hidden, (list, tuple))
        or len(hidden) != 2
        or not all(isinstance(h, int) and not isinstance(h, bool) and 1 <= h <= 4096 for h in hidden)
    ):
        raise ValueError(f"net hidden must be two layer widths in [1, 4096], like [128, 128]; got {hidden!r}")
    return int(hidden[0]), int(hidden[1])


def check_feature_prior(prior: Any) -> list[float]:
    """``prior`` as ``NUM_FEATURES`` numbers (or empty: no prior), or ``ValueError``."""
    if not isinstance(prior, (list, tuple)) or (
        prior
        and (
            len(prior) != NUM_FEATURES
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in prior)
        )
    ):
        raise ValueError(
            f"net feature_prior must be empty or {NUM_FEATURES} numbers (the starting weight of each action "
            f"feature: own progress, best rival's progress, the game's end, acting again); got {prior!r}"
        )
    return [float(v) for v in prior]


def set_feature_prior(model: Any, prior: list[float]) -> None:
    """Start the feature weights at ``prior`` in every position (``g = prior``) and the
    policy head at zero: the untrained network then plays by these weights on the action
    features alone, and self-play improves from there instead of from a random walk. A
    randomly initialised policy head would break the features' ties at random instead
    (Labyrinx: 23 and 6 of 40 games against random and the heuristic after 5 iterations,
    where the prior alone wins 26 of 40 against the heuristic)."""
    import torch

    with torch.no_grad():
        model.features.weight.zero_()
        model.features.bias.copy_(torch.tensor(prior, dtype=torch.float32))
        model.policy.weight.zero_()
        model.policy.bias.zero_()


def _torch_net_class() -> type:
    import torch
    from torch import nn

    class _TorchNet(nn.Module):
        def __init__(self, obs_size: int, num_actions: int, num_seats: int, hidden: tuple[int, int], seed: int = 0):
            super().__init__()
            generator_state = torch.random.get_rng_state()
            torch.manual_seed(seed)
            self.l1 = nn.Linear(obs_size, hidden[0])
            self.l2 = nn.Linear(hidden[0], hidden[1])
            self.policy = nn.Linear(hidden[1], num_actions)
            self.value = nn.Linear(hidden[1], num_seats)
            self.features = nn.Linear(hidden[1], NUM_FEATURES)
            torch.random.set_rng_state(generator_state)  # building a net leaves the caller's stream alone
            self.sizes = (obs_size, num_actions, num_seats, hidden)

        def forward(self, x: torch.Tensor, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = torch.relu(self.l2(torch.relu(self.l1(x))))
            logits = self.policy(h) + (features * self.features(h)[:, None, :]).sum(dim=2)
            return logits, torch.tanh(self.value(h))

    return _TorchNet


def TorchNet(obs_size: int, num_actions: int, num_seats: int, hidden: tuple[int, int], seed: int = 0) -> Any:
    """The torch twin of ``forward`` (``(logits, value)`` for a batch of observations and
    their action features ``[batch, actions, NUM_FEATURES]``)."""
    return _torch_net_class()(obs_size, num_actions, num_seats, tuple(hidden), seed)


def layers(model: Any) -> tuple:
    """The torch net's layers in the order of the numba tuple."""
    return (model.l1, model.l2, model.policy, model.value, model.features)


def to_arrays(model: Any) -> tuple:
    """The torch net's weights as the numba tuple (each matrix ``[inputs, outputs]``)."""
    out = []
    for layer in layers(model):
        out.append(np.ascontiguousarray(layer.weight.detach().cpu().numpy().T, dtype=np.float32))
        out.append(np.ascontiguousarray(layer.bias.detach().cpu().numpy(), dtype=np.float32))
    return tuple(out)


def load_arrays(model: Any, arrays: tuple) -> None:
    """Set the torch net's weights from the numba tuple."""
    import torch

    with torch.no_grad():
        for i, layer in enumerate(layers(model)):
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(arrays[2 * i].T)))
            layer.bias.copy_(torch.from_numpy(arrays[2 * i + 1]))


def save_net(path: str | Path, arrays: tuple, meta: dict[str, Any]) -> None:
    """Write the weights and what they were trained for (``meta``: env id, options, ...)."""
    names = {f"a{i}": a for i, a in enumerate(arrays)}
    np.savez_compressed(Path(path), meta=np.array(json.dumps({"format": FORMAT, **meta})), **names)


def load_net(path: str | Path) -> tuple[tuple, dict[str, Any]]:
    """``(arrays, meta)`` from ``save_net``'s file; ``ValueError`` for anything else."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"learned agent: no network file at {str(p)!r}")
    try:
        with np.load(p, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = tuple(np.ascontiguousarray(data[f"a{i}"], dtype=np.float32) for i in range(NUM_ARRAYS))
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"learned agent: {str(p)!r} is not a network file written by the trainer ({exc})") from None
    if meta.get("format") != FORMAT:
        raise ValueError(f"learned agent: {str(p)!r} has format {meta.get('format')!r}, expected {FORMAT!r}")
    if not shapes_fit(arrays):
        shapes = [a.shape for a in arrays]
        raise ValueError(f"learned agent: {str(p)!r} holds arrays of shapes {shapes}, which do not chain into the net")
    return arrays, meta


def shapes_fit(arrays: tuple) -> bool:
    """Whether the ten arrays chain (W1 [obs, h1], b1 [h1], W2 [h1, h2], ...): the numba
    forward pass does not check its indices."""
    w1, b1, w2, b2, wp, bp, wv, bv, wf, bf = arrays
    if any(a.ndim != 2 for a in (w1, w2, wp, wv, wf)) or any(a.ndim != 1 for a in (b1, b2, bp, bv, bf)):
        return False
    h1, h2 = w1.shape[1], w2.shape[1]
    return (
        b1.shape[0] == h1
        and w2.shape[0] == h1
        and b2.shape[0] == h2
        and wp.shape[0] == h2
        and wv.shape[0] == h2
        and bp.shape[0] == wp.shape[1]
        and bv.shape[0] == wv.shape[1]
        and wf.shape == (h2, NUM_FEATURES)
        and bf.shape[0] == NUM_FEATURES
    )
