"""A trained ``LookaheadPolicy`` (MaskablePPO with ``ppo.policy: lookahead``) as a small file
that the ``learned`` agent plays without torch: the actor's weights alone (no value network,
no optimizer state), stored as float16, and its forward pass in numpy.

    python -m labyrinth_env.agents.policy_net results/train/labyrinx_ppo_lookahead/final_model.zip \\
        agents/checkpoints/labyrinx_v1.npz

The SB3 zip of a Labyrinx run is 26 MB (the value network and Adam's moments included); the
actor in float16 is about 2 MB. Rounding the weights to float16 moves a logit by about a
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

    model = MaskablePPO.load(str(model_path), device="cpu")
    policy = model.policy
    if not isinstance(policy, LookaheadPolicy):
        raise ValueError(
            f"{str(model_path)!r}: only a LookaheadPolicy (ppo.policy: lookahead) exports, not {type(policy).__name__}"
        )
    activation = policy.activation_fn.__name__
    if activation not in ACTIVATIONS:
        raise ValueError(
            f"{str(model_path)!r}: activation {activation} has no numpy form; use one of {list(ACTIVATIONS)}"
        )
    env_id = (extra or {}).get("env_id")
    if env_id is not None:
        import labyrinth_env

        # whether learned can compute the block itself (core/batch_template.lookahead_one) or
        # needs the env's own (Team Edition's), made with lookahead=True
        generic = labyrinth_env.raw_env(env_id, lookahead=True).generic_lookahead()
    else:
        generic = False
    state = {k: v.detach().cpu().numpy() for k, v in policy.state_dict().items()}
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
    meta = {
        "format": FORMAT,
        "layout": policy.layout,
        "standardize": bool(policy.standardize),
        "generic_lookahead": bool(generic),
        "activation": activation,
        "trunk_layers": len(trunk),
        "source": Path(model_path).name,
        "seed": model.seed,
        "timesteps": int(model.num_timesteps),
        **(extra or {}),
    }
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, meta=json.dumps(meta), **{k: v.astype(np.float16) for k, v in arrays.items()})
    return meta


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m labyrinth_env.agents.policy_net",
        description="Export a MaskablePPO LookaheadPolicy's actor (float16) for the learned agent.",
    )
    parser.add_argument("model", help="final_model.zip of a run with ppo.policy: lookahead")
    parser.add_argument("out", help="the .npz to write (agents/checkpoints/<env id>.npz ships it as 'learned')")
    parser.add_argument("--env", required=True, help="the env id the model was trained on")
    parser.add_argument("--config", default="", help="the training config, recorded in the file")
    args = parser.parse_args(argv)
    if not Path(args.model).is_file():
        print(f"policy_net: no model at {args.model!r} (expected a MaskablePPO .zip)", file=sys.stderr)
        return 2
    try:
        meta = export_policy(args.model, args.out, {"env_id": args.env, "config": args.config})
    except ValueError as exc:
        print(f"policy_net: {exc}", file=sys.stderr)
        return 2
    size = Path(args.out).stat().st_size
    print(f"wrote {args.out} ({size / 1e6:.1f} MB): the actor of {meta['source']} for {args.env}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
