"""Memory of the vector env: peak resident memory per ruleset and batch size.

Each (ruleset, batch size) runs in a fresh interpreter that builds ``VectorEnv(env_id, n)``,
resets it and takes one step (kernels loaded from the cache, so compiling is not measured),
then reports its peak resident set size (``ru_maxrss``) and what the env itself holds:
state records, masks, observation buffers (the env's own, the kernel's final observations
and the pool ``copy=True`` hands out), and the observation space's bounds. ``baseline`` is
the same interpreter with the ruleset's kernels loaded and a one-game env, so ``added`` is
what the batch costs.

    python benchmarks/vector_memory.py [--env ID ...] [--envs 1024 16384] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "vector_memory.json"
MIB = 1024 * 1024


def child(env_id: str, num_envs: int) -> dict[str, Any]:
    """Measured in this process (a fresh one per call from ``measure``)."""
    import resource

    import numba
    import numpy as np

    from labyrinth_env.vector import PARALLEL_MIN_ENVS, VectorEnv

    # the same loops the batch will use (serial or parallel), loaded before the baseline
    parallel = num_envs >= PARALLEL_MIN_ENVS and numba.config.NUMBA_NUM_THREADS > 1
    warm = VectorEnv(env_id, 1, seed=0, parallel=parallel)
    warm.reset()
    warm.step(np.array([int(np.flatnonzero(warm.masks[0])[0])]))
    del warm
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB
    vec = VectorEnv(env_id, num_envs, seed=0)
    vec.reset()
    vec.step(np.array([int(np.flatnonzero(m)[0]) for m in vec.masks]))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    space = vec.observation_space
    bounds = sum(b.base.nbytes if b.base is not None else b.nbytes for b in (space.low, space.high))
    pools = sum(a.nbytes for a in vec._obs_out.arrays)
    return {
        "env_id": env_id,
        "num_envs": num_envs,
        "peak_rss_mib": peak,
        "baseline_rss_mib": baseline,
        "added_mib": peak - baseline,
        "states_mib": vec.states.nbytes / MIB,
        "masks_mib": vec.masks.nbytes / MIB,
        "observations_mib": (vec.final_obs.nbytes + pools) / MIB,
        "space_bounds_mib": bounds / MIB,
    }


def measure(env_ids: list[str], sizes: list[int], progress: bool = True) -> list[dict[str, Any]]:
    from tqdm import tqdm

    rows = []
    runs = [(e, n) for e in env_ids for n in sizes]
    for env_id, n in tqdm(runs, desc="vector memory", disable=not progress):
        code = f"import json, sys; sys.path.insert(0, {str(Path(__file__).resolve().parent.parent)!r}); "
        code += "from benchmarks.vector_memory import child; "
        code += f"print(json.dumps(child({env_id!r}, {n})))"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            raise RuntimeError(f"{env_id} at {n} envs failed:\n{done.stderr[-2000:]}")
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="VectorEnv memory (MiB): peak RSS of a fresh process, and what the env holds")
    for col in ("env", "envs", "peak RSS", "added by the batch", "states", "masks", "observations", "space bounds"):
        table.add_column(col, justify="left" if col == "env" else "right")
    for r in rows:
        table.add_row(
            r["env_id"],
            f"{r['num_envs']:,}",
            f"{r['peak_rss_mib']:,.0f}",
            f"{r['added_mib']:,.0f}",
            f"{r['states_mib']:,.1f}",
            f"{r['masks_mib']:,.1f}",
            f"{r['observations_mib']:,.1f}",
            f"{r['space_bounds_mib']:,.2f}",
        )
    Console(width=140).print(table)


def main(argv: list[str] | None = None) -> int:
    import labyrinth_env

    parser = argparse.ArgumentParser(prog="vector_memory", description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", metavar="ID", help="env id (repeatable; default all)")
    parser.add_argument("--envs", type=int, nargs="+", default=[1024, 16384], help="batch sizes")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"JSON output (default {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    env_ids = args.env or labyrinth_env.list_envs()
    unknown = [e for e in env_ids if e not in labyrinth_env.list_envs()]
    if unknown:
        raise ValueError(f"unknown env id {unknown[0]!r}; available: {', '.join(labyrinth_env.list_envs())}")
    if any(n < 1 for n in args.envs):
        raise ValueError(f"--envs must be batch sizes >= 1, got {args.envs}")
    rows = measure(env_ids, args.envs)
    print_table(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"rows": rows}, indent=1))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except ValueError as exc:
        print(f"vector_memory: error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
