"""Vector-env throughput through the Python API: learner steps/s of ``VectorEnv`` (masks and
observations computed every step, kernel-side random opponents) for several batch sizes
and numba thread counts. Prints a table, writes JSON and a PNG plot of steps/s against
batch size.

    python benchmarks/vector_throughput.py [--env ID] [--batch 1 64 1024 4096] [--threads 1 2] [--seconds 2]

A step is one learner decision in every env of the batch (opponent moves inside the
kernel are not counted), so steps/s = batch size x vector steps per second.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np
from rich.console import Console
from rich.table import Table

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import labyrinth_env
from labyrinth_env.vector import COOPERATIVE, VectorEnv


def measure(env_id: str, batch: int, threads: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Median-free single measurement (warm-up first): learner steps/s for one setting."""
    numba.set_num_threads(threads)
    learner = "all" if env_id in COOPERATIVE else "rotate"
    vec = VectorEnv(env_id, batch, learner_seats=learner, opponents="random", seed=seed)
    vec.reset()
    rng = np.random.default_rng(seed)

    def act() -> np.ndarray:
        # a random legal action per env, vectorised (argmax of masked uniforms)
        return np.argmax(vec.masks * rng.random(vec.masks.shape, dtype=np.float32), axis=1)

    for _ in range(3):
        vec.step(act())
    steps = 0
    ended = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, term, trunc, _ = vec.step(act())
        ended += int(term.sum() + trunc.sum())
        steps += 1
    elapsed = time.perf_counter() - start
    return {
        "env_id": env_id,
        "batch": batch,
        "threads": threads,
        "vector_steps": steps,
        "steps_per_s": steps * batch / elapsed,
        "episodes_per_s": ended / elapsed,
    }


def run(env_ids: list[str], batches: list[int], threads: list[int], seconds: float) -> dict[str, Any]:
    rows = []
    for env_id in env_ids:
        for batch in batches:
            for t in threads:
                rows.append(measure(env_id, batch, min(t, numba.config.NUMBA_NUM_THREADS), seconds))
    return {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "numba": numba.__version__,
            "numpy": np.__version__,
        },
        "seconds_per_row": seconds,
        "rows": rows,
    }


def print_table(result: dict[str, Any], console: Console | None = None) -> None:
    table = Table(title="VectorEnv learner steps/s (masks + observations every step, random opponents in the kernel)")
    for col in ("env", "batch", "threads", "steps/s", "episodes/s"):
        table.add_column(col, justify="right" if col != "env" else "left")
    for r in result["rows"]:
        table.add_row(
            r["env_id"], str(r["batch"]), str(r["threads"]), f"{r['steps_per_s']:,.0f}", f"{r['episodes_per_s']:,.1f}"
        )
    (console or Console(width=120)).print(table)


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    keys = sorted({(r["env_id"], r["threads"]) for r in result["rows"]})
    for env_id, t in keys:
        rows = sorted(
            (r for r in result["rows"] if r["env_id"] == env_id and r["threads"] == t), key=lambda r: r["batch"]
        )
        ax.plot([r["batch"] for r in rows], [r["steps_per_s"] for r in rows], marker="o", label=f"{env_id}, {t} thr")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size (games)")
    ax.set_ylabel("learner steps/s")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", help="env id (repeatable; default: all)")
    parser.add_argument("--batch", type=int, nargs="+", default=[1, 64, 1024, 4096])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--out", default="benchmarks/results/vector_throughput.json")
    args = parser.parse_args(argv)
    env_ids = args.env or labyrinth_env.list_envs()
    for env_id in env_ids:
        if env_id not in labyrinth_env.list_envs():
            print(f"unknown env id {env_id!r}; available: {labyrinth_env.list_envs()}", file=sys.stderr)
            return 2
    result = run(env_ids, args.batch, args.threads, args.seconds)
    print_table(result)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1))
    try:
        plot(result, out.with_suffix(".png"))
        print(f"wrote {out} and {out.with_suffix('.png')}")
    except ImportError:
        print(f"wrote {out} (matplotlib not installed: no plot)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
