"""RLlib PPO with action masking on the rulesets (``labyrinth_env.rllib``): a few training
iterations per env id, a table of what each iteration sampled and how long it took.

RLlib pins its own Gymnasium, so run this in a venv of its own::

    python3 -m venv .venv-rllib && . .venv-rllib/bin/activate
    pip install torch==2.13.0 "ray[rllib]==2.60.0" -e .
    python benchmarks/rllib_ppo.py --iterations 2 --out benchmarks/results/rllib_ppo.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import labyrinth_env


def run(env_ids: list[str], iterations: int, num_players: int, max_turns: int) -> list[dict[str, Any]]:
    from labyrinth_env.agents.tournament import _local_ray_on_loopback

    _local_ray_on_loopback()  # before Ray is imported: its local node listens on 127.0.0.1 only
    import ray
    from rich.progress import Progress

    from labyrinth_env.core.cache import worker_env
    from labyrinth_env.rllib import ppo_config

    ray.init(
        address="local",
        include_dashboard=False,
        num_cpus=1,
        _node_ip_address="127.0.0.1",
        log_to_driver=False,
        runtime_env={"env_vars": worker_env()},  # env runners load the kernels from this process's cache
    )
    rows = []
    try:
        with Progress(transient=True) as bar:
            task = bar.add_task("RLlib PPO", total=len(env_ids) * iterations)
            for env_id in env_ids:
                bar.update(task, description=f"{env_id}: building PPO")
                algo = ppo_config(env_id, num_players=num_players, max_turns=max_turns).build_algo()
                for i in range(iterations):
                    bar.update(task, description=f"{env_id}: iteration {i + 1}/{iterations}")
                    start = time.perf_counter()
                    result = algo.train()
                    runners = result.get("env_runners", {})
                    rows.append(
                        {
                            "env_id": env_id,
                            "iteration": i + 1,
                            "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
                            "episodes": int(runners.get("num_episodes_lifetime", 0)),
                            "episode_return_mean": runners.get("episode_return_mean"),
                            "seconds": time.perf_counter() - start,
                        }
                    )
                    bar.advance(task)
                algo.stop()
    finally:
        ray.shutdown()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rllib_ppo", description=__doc__.splitlines()[0])
    parser.add_argument("--env", action="append", default=[], metavar="ID", help="env id (repeatable; default all)")
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--max-turns", type=int, default=20)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/rllib_ppo.json"))
    args = parser.parse_args(argv)
    known = labyrinth_env.list_envs()
    unknown = [e for e in args.env if e not in known]
    if unknown or args.iterations < 1:
        parser.error(f"unknown env id(s) {unknown}; known: {known}" if unknown else "--iterations must be >= 1")
    # without importing Ray (the loopback setting must come first); dm-tree comes with ray[rllib]
    if importlib.util.find_spec("ray") is None or importlib.util.find_spec("tree") is None:
        print("rllib_ppo: RLlib is not installed (see this script's docstring for its venv)", file=sys.stderr)
        return 2
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    rows = run(args.env or known, args.iterations, args.players, args.max_turns)
    print("| env | iteration | env steps (total) | episodes (total) | episode return mean | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        mean = "" if r["episode_return_mean"] is None else f"{r['episode_return_mean']:.3f}"
        cells = [r["env_id"], str(r["iteration"]), f"{r['env_steps']:,}", f"{r['episodes']:,}", mean]
        print("| " + " | ".join([*cells, f"{r['seconds']:.1f}"]) + " |")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"rows": rows, "argv": sys.argv[1:]}, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
