"""MaskablePPO training throughput on ``VectorEnv`` (through ``labyrinth_env.sb3.SB3VecEnv``):
steps/s and where the time goes.

A short ``MaskablePPO.learn`` run built as ``agents/train_ppo.py`` builds it, from a training
config (default: the shipped 2-player configs), with the time split three ways:

* env:    inside the VecEnv (``step_async``/``step_wait``, ``reset`` and the action-mask
          call ``env_method("action_masks")``), i.e. the numba kernels and the adapter;
* policy: the rest of rollout collection (forward passes, the rollout buffer, GAE);
* update: ``train()``, the PPO gradient epochs.

The learner share is policy + update. Each PPO iteration (one rollout, then one update) is
timed; the first is a warm-up and is left out of the figures when there are several.

    python benchmarks/ppo_throughput.py [--config configs/train/team_edition_2p.yaml] [--rollouts 4]

Needs the ``train`` extra (torch, stable-baselines3, sb3-contrib).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numba

from labyrinth_env.agents.train_ppo import TrainConfig, load_train_config

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIGS = (
    ROOT / "configs" / "train" / "paths_of_destiny_3e_2p.yaml",
    ROOT / "configs" / "train" / "team_edition_2p.yaml",
)
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "ppo_throughput.json"
SB3_N_STEPS = 2048  # MaskablePPO's default rollout length per env


class Stopwatch:
    """Seconds spent inside the functions it wraps (a call inside another timed call of the
    same stopwatch is counted once)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._depth = 0

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*args: Any, **kwargs: Any) -> Any:
            self._depth += 1
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self.seconds += time.perf_counter() - start

        return timed


def measure(
    cfg: TrainConfig,
    rollouts: int = 4,
    torch_threads: int = 1,
    numba_threads: int | None = None,
    config_name: str | None = None,
) -> dict[str, Any]:
    """Train ``rollouts`` PPO iterations of ``cfg`` and return steps/s with the env,
    policy and update times (the first iteration left out when ``rollouts >= 2``)."""
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
        raise ValueError(f"rollouts must be an int >= 1, got {rollouts!r}")
    if torch_threads < 1:
        raise ValueError(f"torch_threads must be >= 1, got {torch_threads!r}")
    opponents = cfg.vector.get("opponents", "random")
    if opponents not in ("random", "heuristic"):
        raise ValueError(
            f"vector.opponents {opponents!r}: the PPO benchmark times kernel-side opponents only (random, heuristic)"
        )
    import torch

    import labyrinth_env
    from labyrinth_env.agents.train_ppo import build_model
    from labyrinth_env.sb3 import SB3VecEnv
    from labyrinth_env.vector import VectorEnv

    torch.set_num_threads(torch_threads)
    if numba_threads is not None:
        numba.set_num_threads(min(numba_threads, numba.config.NUMBA_NUM_THREADS))
    learner = "all" if labyrinth_env.get_spec(cfg.env_id).cooperative else cfg.vector.get("learner_seats", "rotate")
    vec = VectorEnv(
        cfg.env_id,
        cfg.vector["num_envs"],
        learner_seats=learner,
        opponents=opponents,
        shaping=float(cfg.vector.get("shaping", 0.0)),
        seed=cfg.seed,
        **cfg.options,
    )
    env = SB3VecEnv(vec, seed=cfg.seed)
    model = build_model(cfg, env, vec)
    n_steps = int(cfg.ppo.get("n_steps", SB3_N_STEPS))
    per_rollout = n_steps * vec.num_envs

    # Instance attributes shadow the methods SB3 calls through ``self``/``env``.
    env_watch = Stopwatch()
    for name in ("step_async", "step_wait", "reset", "env_method"):
        setattr(env, name, env_watch.wrap(getattr(env, name)))
    iterations: list[dict[str, float]] = []
    collect = model.collect_rollouts
    train = model.train

    def timed_collect(*args: Any, **kwargs: Any) -> Any:
        env0, t0 = env_watch.seconds, time.perf_counter()
        out = collect(*args, **kwargs)
        iterations.append({"collect_s": time.perf_counter() - t0, "env_s": env_watch.seconds - env0, "train_s": 0.0})
        return out

    def timed_train() -> None:
        t0 = time.perf_counter()
        train()
        iterations[-1]["train_s"] = time.perf_counter() - t0

    model.collect_rollouts = timed_collect
    model.train = timed_train
    start = time.perf_counter()
    model.learn(rollouts * per_rollout, progress_bar=False)
    wall = time.perf_counter() - start
    env.close()

    measured = iterations[1:] if len(iterations) >= 2 else iterations
    env_s = sum(it["env_s"] for it in measured)
    collect_s = sum(it["collect_s"] for it in measured)
    train_s = sum(it["train_s"] for it in measured)
    total = collect_s + train_s
    steps = per_rollout * len(measured)
    return {
        "env_id": cfg.env_id,
        "config": config_name,
        "options": dict(cfg.options),
        "num_envs": vec.num_envs,
        "n_steps": n_steps,
        "batch_size": int(model.batch_size),
        "n_epochs": int(model.n_epochs),
        "net_arch": list(cfg.ppo.get("net_arch", [256, 256])),
        "policy": cfg.ppo.get("policy", "mlp"),
        "torch_threads": torch_threads,
        "numba_threads": numba.get_num_threads(),
        "iterations": len(iterations),
        "measured_iterations": len(measured),
        "steps": steps,
        "seconds": total,
        "steps_per_s": steps / total if total > 0 else None,
        "env_s": env_s,
        "policy_s": collect_s - env_s,
        "update_s": train_s,
        "env_share": env_s / total if total > 0 else None,
        "learner_share": (total - env_s) / total if total > 0 else None,
        "policy_share": (collect_s - env_s) / total if total > 0 else None,
        "update_share": train_s / total if total > 0 else None,
        "env_steps_per_s": steps / env_s if env_s > 0 else None,
        "wall_s": wall,
        "timesteps_trained": int(model.num_timesteps),
        "per_iteration": iterations,
    }


def run(
    configs: Sequence[str | Path] | None = None,
    rollouts: int = 4,
    torch_threads: int = 1,
    numba_threads: int | None = None,
) -> dict[str, Any]:
    """One row per training config (default: the shipped 2-player configs)."""
    paths = [Path(c) for c in configs] if configs else list(DEFAULT_CONFIGS)
    rows = []
    for path in paths:
        cfg = load_train_config(path)
        rows.append(measure(cfg, rollouts, torch_threads, numba_threads, config_name=path.name))
    return {
        "benchmark": "ppo_throughput",
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "parameters": {"rollouts": rollouts, "torch_threads": torch_threads, "numba_threads": numba_threads},
        "rows": rows,
    }


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def markdown_table(rows: list[dict[str, Any]]) -> str:
    """The PPO rows as a markdown table."""
    lines = [
        "| env | config | envs × n_steps | net | torch / numba threads | steps/s | env share | learner share "
        "(policy + update) | env-only steps/s |",
        "|---|---|---|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        rate = "—" if r["steps_per_s"] is None else f"{r['steps_per_s']:,.0f}"
        env_rate = "—" if r["env_steps_per_s"] is None else f"{r['env_steps_per_s']:,.0f}"
        lines.append(
            f"| {r['env_id']} | {r['config'] or '—'} | {r['num_envs']} × {r['n_steps']} "
            f"| {r['policy']} {r['net_arch']} "
            f"| {r['torch_threads']} / {r['numba_threads']} | {rate} | {_pct(r['env_share'])} "
            f"| {_pct(r['learner_share'])} ({_pct(r['policy_share'])} + {_pct(r['update_share'])}) | {env_rate} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", action="append", help="training config (repeatable; default: shipped 2p configs)")
    parser.add_argument("--rollouts", type=int, default=4, help="PPO iterations (first is a warm-up; default 4)")
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--numba-threads", type=int, default=None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    try:
        result = run(args.config, args.rollouts, args.torch_threads, args.numba_threads)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(markdown_table(result["rows"]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    args.out.with_suffix(".md").write_text("# MaskablePPO training throughput\n\n" + markdown_table(result["rows"]))
    print(f"wrote {args.out} and {args.out.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
