"""A trained ``LookaheadPolicy`` (MaskablePPO with ``ppo.policy: lookahead``) as a small file
that the ``learned`` agent plays without torch: the actor's weights and the critic's (no
optimizer state), stored as float16, and their forward passes in numpy and in numba.

The critic lets the network guide a search at play time (``learned:simulations=N``,
``agents/alphazero_template.policy_search``): its value of a position, plus the shaping the
run was trained with (``scale * potential``: a potential-based shaping's rewards from a
position on sum to minus its potential once the game is decided), is the seat's expected
return against the opponents it trained with, in [-1, 1].

    python -m labyrinth_env.agents.policy_net results/train/labyrinx_ppo_lookahead/final_model.zip \\
        agents/checkpoints/labyrinx_v1.npz

The SB3 zip of a Labyrinx run is 26 MB (Adam's moments included); the actor and critic in
float16 are 3.8 MB (the actor alone 2 MB). Rounding the weights to float16 moves a logit by about a
thousandth of its size, which decides a different action only where two actions were tied
that closely; the figures the shipped files quote are measured on the float16 file itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from labyrinth_env.core.jit import njit

FORMAT = "labyrinth-lookahead-policy-v1"
ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0.0)}
# the actor's arrays, in the order of the forward pass: the trunk's layers come first
HEAD = ("base_w", "base_b", "context_w", "context_b", "kind_embedding", "score0_w", "score0_b", "score2_w", "score2_b")


def export_policy(model_path: str | Path, out_path: str | Path, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write the actor of the MaskablePPO ``LookaheadPolicy`` at ``model_path`` to
    ``out_path`` (float16 weights and a JSON ``meta``); returns the meta. ``extra`` goes
    into the meta (the env id, the training config, the figures). Needs the ``train`` extra."""
    from sb3_contrib import MaskablePPO

    from labyrinth_env.agents.policies import LookaheadPolicy

    extra = dict(extra or {})
    model = MaskablePPO.load(str(model_path), device="cpu")
    policy = model.policy
    if not isinstance(policy, LookaheadPolicy):
        raise ValueError(
            f"{str(model_path)!r}: only a LookaheadPolicy (ppo.policy: lookahead) exports, not {type(policy).__name__}"
        )
    env_id = extra.get("env_id")
    if env_id is not None:
        import labyrinth_env

        # whether learned can compute the block itself (core/batch_template.lookahead_one) or
        # needs the env's own (Team Edition's), made with lookahead=True
        generic = labyrinth_env.raw_env(env_id, lookahead=True).generic_lookahead()
    else:
        generic = False
    arrays, shape = policy_arrays(policy, str(model_path))
    if extra.get("config") and "shaping" not in extra:  # the shaping the critic's values include
        extra.update(shaping_of(extra["config"]))
    meta = {
        "format": FORMAT,
        **shape,
        "generic_lookahead": bool(generic),
        "source": Path(model_path).name,
        "seed": model.seed,
        "timesteps": int(model.num_timesteps),
        **extra,
    }
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, meta=json.dumps(meta), **{k: v.astype(np.float16) for k, v in arrays.items()})
    return meta


def policy_arrays(policy: Any, where: str = "policy") -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The actor's and critic's weights of a ``LookaheadPolicy`` as float32 arrays, by the
    names this format stores, and the meta that says their shapes (``layout``,
    ``standardize``, ``activation``, the layer counts). ``ValueError`` for a network this
    format cannot hold."""
    activation = policy.activation_fn.__name__
    if activation not in ACTIVATIONS:
        raise ValueError(f"{where!r}: activation {activation} has no numpy form; use one of {list(ACTIVATIONS)}")
    state = {k: v.detach().cpu().float().numpy() for k, v in policy.state_dict().items()}
    arrays: dict[str, np.ndarray] = {}
    trunk = sorted({k.rsplit(".", 2)[1] for k in state if k.startswith("mlp_extractor.policy_net.")}, key=int)
    for i, layer in enumerate(trunk):
        arrays[f"trunk{i}_w"] = state[f"mlp_extractor.policy_net.{layer}.weight"].T
        arrays[f"trunk{i}_b"] = state[f"mlp_extractor.policy_net.{layer}.bias"]
    head = "action_net."
    arrays.update(
        base_w=state[head + "base.weight"].T,
        base_b=state[head + "base.bias"],
        context_w=state[head + "context.weight"].T,
        context_b=state[head + "context.bias"],
        kind_embedding=state[head + "kind_embedding.weight"],
        score0_w=state[head + "score.0.weight"].T,
        score0_b=state[head + "score.0.bias"],
        score2_w=state[head + "score.2.weight"].T,
        score2_b=state[head + "score.2.bias"],
    )
    if policy.standardize:
        arrays["linear_w"] = state[head + "linear.weight"].T
    critic = sorted({k.rsplit(".", 2)[1] for k in state if k.startswith("mlp_extractor.value_net.")}, key=int)
    for i, layer in enumerate(critic):
        arrays[f"critic{i}_w"] = state[f"mlp_extractor.value_net.{layer}.weight"].T
        arrays[f"critic{i}_b"] = state[f"mlp_extractor.value_net.{layer}.bias"]
    arrays.update(value_w=state["value_net.weight"].T, value_b=state["value_net.bias"])
    shape = {
        "layout": policy.layout,
        "standardize": bool(policy.standardize),
        "activation": activation,
        "trunk_layers": len(trunk),
        "critic_layers": len(critic),
    }
    return arrays, shape


def shaping_of(config: str | Path) -> dict[str, Any]:
    """``{"shaping": scale, "potential": name}`` of a training config's vector env (what a
    PPO critic trained under it includes in its values); empty if the file is not there."""
    import yaml

    try:
        data = yaml.safe_load(Path(config).read_text()) or {}
    except OSError:
        return {}
    vector = data.get("vector") or {} if isinstance(data, dict) else {}
    return {"shaping": float(vector.get("shaping", 0.0)), "potential": str(vector.get("potential", "shaping"))}


def shaping_of_run(run_dir: str | Path) -> dict[str, Any] | None:
    """``shaping_of`` for a PPO run's directory, from the ``config.json`` the trainer
    writes there; None if there is none."""
    try:
        data = json.loads((Path(run_dir) / "config.json").read_text())
    except (OSError, ValueError):
        return None
    vector = data.get("vector") or {} if isinstance(data, dict) else {}
    return {"shaping": float(vector.get("shaping", 0.0)), "potential": str(vector.get("potential", "shaping"))}


def is_policy_file(path: str | Path) -> bool:
    """Whether ``path`` holds an exported policy (this module's format)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return "meta" in data and json.loads(str(data["meta"])).get("format") == FORMAT
    except (OSError, ValueError, KeyError):
        return False


def load_policy(path: str | Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """``(arrays as float32, meta)`` of an exported policy; ``ValueError`` for anything else."""
    p = Path(path)
    try:
        with np.load(p, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {k: np.asarray(data[k], dtype=np.float32) for k in data.files if k != "meta"}
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"learned agent: {str(p)!r} is not an exported policy ({exc})") from None
    if meta.get("format") != FORMAT:
        raise ValueError(f"learned agent: {str(p)!r} has format {meta.get('format')!r}, expected {FORMAT!r}")
    need = [f"trunk{i}_{x}" for i in range(int(meta.get("trunk_layers", 0))) for x in "wb"] + list(HEAD)
    need += ["linear_w"] if meta.get("standardize") else []
    need += [f"critic{i}_{x}" for i in range(int(meta.get("critic_layers", 0))) for x in "wb"]
    need += ["value_w", "value_b"] if meta.get("critic_layers") else []
    missing = [k for k in need if k not in arrays]
    if missing or meta.get("activation") not in ACTIVATIONS:
        raise ValueError(f"learned agent: {str(p)!r} lacks {missing or 'a known activation'}")
    return arrays, meta


def standardized(per_action: np.ndarray) -> np.ndarray:
    """``agents.policies.standardized`` for one position (``[actions, features]``)."""
    legal = (np.abs(per_action).sum(axis=1, keepdims=True) > 0).astype(np.float32)
    count = max(float(legal.sum()), 1.0)
    mean = (per_action * legal).sum(axis=0, keepdims=True) / count
    spread = (((per_action - mean) * legal) ** 2).sum(axis=0, keepdims=True) / count
    return (per_action - mean) * legal / (np.sqrt(spread) + 1e-3)


def policy_logits(arrays: dict[str, np.ndarray], meta: dict[str, Any], obs: np.ndarray) -> np.ndarray:
    """The actor's logit of every action for one observation (lookahead block included):
    ``LookaheadHead.forward`` of ``agents/policies.py`` in numpy."""
    layout = meta["layout"]
    base, per = int(layout["base_size"]), int(layout["features"])
    act = ACTIVATIONS[meta["activation"]]
    h = np.asarray(obs[:base], dtype=np.float32)
    for i in range(int(meta["trunk_layers"])):
        h = act(h @ arrays[f"trunk{i}_w"] + arrays[f"trunk{i}_b"])
    per_action = np.asarray(obs[base:], dtype=np.float32).reshape(-1, per)
    n = per_action.shape[0]
    context = np.broadcast_to(h @ arrays["context_w"] + arrays["context_b"], (n, arrays["context_w"].shape[1]))
    kind = arrays["kind_embedding"][np.asarray(layout["kinds"], dtype=np.int64)]
    parts = [per_action]
    relative = standardized(per_action) if meta["standardize"] else None
    if relative is not None:
        parts.append(relative)
    hidden = np.tanh(np.concatenate([*parts, kind, context], axis=1) @ arrays["score0_w"] + arrays["score0_b"])
    logits = h @ arrays["base_w"] + arrays["base_b"] + (hidden @ arrays["score2_w"] + arrays["score2_b"])[:, 0]
    if relative is not None:
        logits = logits + (relative @ arrays["linear_w"])[:, 0]
    return logits


def policy_value(arrays: dict[str, np.ndarray], meta: dict[str, Any], obs: np.ndarray) -> float:
    """The critic's value of one observation (lookahead block included): the value network
    of ``LookaheadExtractor.forward_critic`` and SB3's ``value_net``, in numpy."""
    layout = meta["layout"]
    base, per = int(layout["base_size"]), int(layout["features"])
    act = ACTIVATIONS[meta["activation"]]
    per_action = np.asarray(obs[base:], dtype=np.float32).reshape(-1, per)
    h = np.concatenate([np.asarray(obs[:base], dtype=np.float32), per_action.max(axis=0)])
    for i in range(int(meta["critic_layers"])):
        h = act(h @ arrays[f"critic{i}_w"] + arrays[f"critic{i}_b"])
    return float((h @ arrays["value_w"] + arrays["value_b"])[0])


# --- the same network in numba, for the search -----------------------------------------
# ``search_arrays`` packs a policy file into one tuple; ``CONFIG_*`` index its last array
CONFIG_STANDARDIZE, CONFIG_TANH, CONFIG_SHAPING, CONFIG_POTENTIAL = 0, 1, 2, 3
CONFIG_CRITIC, CONFIG_TRUNK, CONFIG_OBSERVATION = 4, 5, 6  # layer counts; the own block's observation size
POTENTIAL_CODES = {"shaping": 1, "progress": 2}  # 0: the critic's values carry no shaping


def search_arrays(
    arrays: dict[str, np.ndarray], meta: dict[str, Any], own_observation: int = 0
) -> tuple[np.ndarray, ...]:
    """The policy (and critic) as the float32 tuple ``policy_forward`` reads: one or two
    trunk and critic layers (``ppo.net_arch: [w]`` or ``[w, w]``; a missing second layer is
    a placeholder the forward pass skips). The kind embedding's share of the score's first
    layer is folded into one row per action, since it never changes. ``own_observation``:
    the size of the observation a kernel writes with its own lookahead block (Team
    Edition's), 0 for the generic block. ``ValueError`` if the file cannot guide a search."""
    layout = meta["layout"]
    per = int(layout["features"])
    trunk, critic = int(meta.get("trunk_layers", 0)), int(meta.get("critic_layers", 0))
    if trunk not in (1, 2) or critic not in (0, 1, 2):
        raise ValueError(
            f"learned agent: the search reads policies with one or two trunk and critic layers "
            f"(ppo.net_arch: [w] or [w, w]), not {trunk} and {critic}"
        )
    f32 = np.float32
    s0 = arrays["score0_w"]
    read = per * (2 if meta["standardize"] else 1)
    kind_dim = arrays["kind_embedding"].shape[1]
    w_raw = s0[:per]
    w_rel = s0[per:read] if meta["standardize"] else np.zeros_like(w_raw)
    kinds = arrays["kind_embedding"][np.asarray(layout["kinds"], dtype=np.int64)]
    kind_score = kinds @ s0[read : read + kind_dim]
    w_ctx = s0[read + kind_dim :]

    def layer(name: str, i: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        if i < count:
            return arrays[f"{name}{i}_w"], arrays[f"{name}{i}_b"]
        return np.zeros((1, 1), f32), np.zeros(1, f32)

    value_w = arrays["value_w"][:, 0] if critic else np.zeros(1, f32)
    value_b = arrays["value_b"] if critic else np.zeros(1, f32)
    linear = arrays["linear_w"][:, 0] if meta["standardize"] else np.zeros(per, f32)
    config = np.zeros(CONFIG_OBSERVATION + 1, f32)
    config[CONFIG_OBSERVATION] = own_observation
    config[CONFIG_TRUNK] = trunk
    config[CONFIG_STANDARDIZE] = 1.0 if meta["standardize"] else 0.0
    config[CONFIG_TANH] = 1.0 if meta["activation"] == "Tanh" else 0.0
    config[CONFIG_SHAPING] = float(meta.get("shaping", 0.0))
    config[CONFIG_POTENTIAL] = POTENTIAL_CODES.get(str(meta.get("potential", "")), 0)
    config[CONFIG_CRITIC] = critic
    packed = (
        *layer("trunk", 0, trunk), *layer("trunk", 1, trunk),
        arrays["base_w"], arrays["base_b"], arrays["context_w"], arrays["context_b"], w_ctx, kind_score,
        w_raw, w_rel, arrays["score0_b"], arrays["score2_w"][:, 0], arrays["score2_b"], linear,
        *layer("critic", 0, critic), *layer("critic", 1, critic), value_w, value_b, config,
    )  # fmt: skip
    return tuple(np.ascontiguousarray(a, dtype=f32) for a in packed)


def blank_policy(layout: dict[str, Any], width: int = 4) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """``(arrays, meta)`` of an exported policy for ``layout`` (an env's ``lookahead_layout()``)
    with every weight zero and ``width`` units per layer: the shapes an export writes, for
    compiling the search ahead of use and for tests."""
    base, per, actions = int(layout["base_size"]), int(layout["features"]), len(layout["kinds"])
    shapes = {
        "trunk0_w": (base, width), "trunk0_b": (width,), "trunk1_w": (width, width), "trunk1_b": (width,),
        "base_w": (width, actions), "base_b": (actions,), "context_w": (width, 16), "context_b": (16,),
        "kind_embedding": (max(layout["kinds"]) + 1, 8), "score0_w": (2 * per + 8 + 16, 64), "score0_b": (64,),
        "score2_w": (64, 1), "score2_b": (1,), "linear_w": (per, 1), "critic0_w": (base + per, width),
        "critic0_b": (width,), "critic1_w": (width, width), "critic1_b": (width,), "value_w": (width, 1),
        "value_b": (1,),
    }  # fmt: skip
    meta = {
        "format": FORMAT, "layout": layout, "standardize": True, "activation": "Tanh", "trunk_layers": 2,
        "critic_layers": 2, "shaping": 0.0, "potential": "shaping",
    }  # fmt: skip
    return {k: np.zeros(s, dtype=np.float32) for k, s in shapes.items()}, meta


@njit(cache=True)
def activate(h, tanh: bool) -> None:
    for j in range(h.shape[0]):
        h[j] = np.tanh(h[j]) if tanh else max(h[j], 0.0)


@njit(cache=True)
def dense(x, w, b, out) -> None:
    """``out = x w + b``, skipping the zero inputs (an observation is mostly zeros)."""
    out[:] = b
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for j in range(out.shape[0]):
                out[j] += xi * w[i, j]


@njit(cache=True)
def hidden_layer(x, w, b, tanh: bool):
    """One trunk or critic layer: ``activation(x w + b)``, a new array."""
    out = np.empty(b.shape[0], dtype=np.float32)
    dense(x, w, b, out)
    activate(out, tanh)
    return out


@njit(cache=True)
def policy_forward(policy, x, block, mask, logits) -> float:
    """``policy_logits`` of the legal actions (``mask``; the others are left 0) for the
    observation ``x`` (without its block) and the per-action block ``block``
    (``[actions, features]``), and the critic's value (0 without a critic)."""
    t0w, t0b, t1w, t1b, base_w, base_b, ctx_w, ctx_b, w_ctx, kind_score = policy[:10]
    w_raw, w_rel, s0b, s2w, s2b, linear, c0w, c0b, c1w, c1b, value_w, value_b, config = policy[10:]
    tanh = config[CONFIG_TANH] != 0.0
    h = hidden_layer(x, t0w, t0b, tanh)
    if config[CONFIG_TRUNK] == 2.0:
        h = hidden_layer(h, t1w, t1b, tanh)
    context = np.empty(ctx_b.shape[0], dtype=np.float32)
    dense(h, ctx_w, ctx_b, context)
    shared = np.empty(s0b.shape[0], dtype=np.float32)
    dense(context, w_ctx, s0b, shared)  # the score's first layer, the context's share
    per = block.shape[1]
    # the block's legal rows (nonzero ones) and, standardized, their mean and spread
    mean = np.zeros(per, dtype=np.float32)
    spread = np.zeros(per, dtype=np.float32)
    legal_rows = 0
    for a in range(block.shape[0]):
        if np.abs(block[a]).sum() > 0.0:
            legal_rows += 1
            mean += block[a]
    mean /= max(legal_rows, 1)
    for a in range(block.shape[0]):
        if np.abs(block[a]).sum() > 0.0:
            spread += (block[a] - mean) ** 2
    spread = np.sqrt(spread / max(legal_rows, 1)) + np.float32(1e-3)
    standardize = config[CONFIG_STANDARDIZE] != 0.0
    relative = np.zeros(per, dtype=np.float32)
    hidden = np.empty(s0b.shape[0], dtype=np.float32)
    for a in range(mask.shape[0]):
        logits[a] = 0.0
        if not mask[a]:
            continue
        on = np.abs(block[a]).sum() > 0.0
        for f in range(per):
            relative[f] = (block[a, f] - mean[f]) / spread[f] if standardize and on else 0.0
        score = s2b[0]
        for j in range(hidden.shape[0]):
            z = shared[j] + kind_score[a, j]
            for f in range(per):
                z += block[a, f] * w_raw[f, j] + relative[f] * w_rel[f, j]
            score += np.tanh(z) * s2w[j]
        logit = base_b[a] + score
        for i in range(h.shape[0]):
            logit += h[i] * base_w[i, a]
        for f in range(per):
            logit += relative[f] * linear[f]
        logits[a] = logit
    if config[CONFIG_CRITIC] == 0.0:
        return 0.0
    # the critic reads the planes and each feature's maximum over the actions
    top = np.zeros(per, dtype=np.float32)
    for f in range(per):
        top[f] = block[:, f].max()
    v1 = np.empty(c0b.shape[0], dtype=np.float32)
    dense(x, c0w[: x.shape[0]], c0b, v1)
    for f in range(per):
        for j in range(v1.shape[0]):
            v1[j] += top[f] * c0w[x.shape[0] + f, j]
    activate(v1, tanh)
    if config[CONFIG_CRITIC] == 2.0:
        v1 = hidden_layer(v1, c1w, c1b, tanh)
    value = value_b[0]
    for j in range(v1.shape[0]):
        value += v1[j] * value_w[j]
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m labyrinth_env.agents.policy_net",
        description="Export a MaskablePPO LookaheadPolicy's actor (float16) for the learned agent.",
    )
    parser.add_argument("model", help="final_model.zip of a run with ppo.policy: lookahead")
    parser.add_argument("out", help="the .npz to write (agents/checkpoints/<env id>.npz ships it as 'learned')")
    parser.add_argument("--env", required=True, help="the env id the model was trained on")
    parser.add_argument("--config", default="", help="the training config, recorded in the file")
    parser.add_argument(
        "--leaf-mix",
        type=float,
        default=None,
        help="the share of a leaf's value the search takes from progress, recorded as the file's default "
        "for learned:simulations=N (0-1; unset: 0, the critic alone)",
    )
    args = parser.parse_args(argv)
    if args.leaf_mix is not None and not 0.0 <= args.leaf_mix <= 1.0:
        print(f"policy_net: --leaf-mix {args.leaf_mix} is outside 0-1", file=sys.stderr)
        return 2
    if not Path(args.model).is_file():
        print(f"policy_net: no model at {args.model!r} (expected a MaskablePPO .zip)", file=sys.stderr)
        return 2
    try:
        extra: dict[str, Any] = {"env_id": args.env, "config": args.config}
        if args.leaf_mix is not None:
            extra["leaf_mix"] = args.leaf_mix
        meta = export_policy(args.model, args.out, extra)
    except ValueError as exc:
        print(f"policy_net: {exc}", file=sys.stderr)
        return 2
    size = Path(args.out).stat().st_size
    print(f"wrote {args.out} ({size / 1e6:.1f} MB): the actor and critic of {meta['source']} for {args.env}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
