"""Where a ``VectorEnv`` learner step's time goes, per env and per step, at one batch size.

``vector_throughput.py`` gives the rate; this splits it, with numba on one thread, into:

* sampler: choosing the random legal actions in numpy (the benchmark's learner);
* observe: writing every env's observation again (``observe_batch``), and beside it the
  floor for that array, a numpy zero fill of the same size;
* legal mask: the learner's mask (``legal_mask_batch``);
* game and the rest: the remainder of ``step``, i.e. the learner's move, the opponents'
  moves and their masks in the kernel, auto-resets and the Python side.

    python benchmarks/step_breakdown.py [--env ID ...] [--batch 1024] [--seconds 2]

Prints a table and writes JSON (default ``benchmarks/results/step_breakdown.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
from tqdm import tqdm

import labyrinth_env
from labyrinth_env.benchmarks import throughput
from labyrinth_env.benchmarks.vector_throughput import _set_threads, legal_sampler
from labyrinth_env.vector import VectorEnv

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "step_breakdown.json"


def _seconds_per_call(fn: Callable[[], Any], seconds: float) -> float:
    fn()
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        calls += 1
    return (time.perf_counter() - start) / calls


def breakdown(env_id: str, batch: int = 1024, seconds: float = 2.0, seed: int = 0) -> dict[str, Any]:
    """Microseconds per env step of each part (see the module docstring), one numba thread."""
    if batch < 1 or not seconds > 0:
        raise ValueError(f"batch must be >= 1 and seconds > 0, got batch={batch!r}, seconds={seconds!r}")
    _set_threads(1)
    learner = "all" if labyrinth_env.get_spec(env_id).cooperative else "rotate"
    vec = VectorEnv(env_id, batch, learner_seats=learner, opponents="random", seed=seed, copy=False)
    vec.reset()
    act = legal_sampler(vec, np.random.default_rng(seed))
    for _ in range(20):  # past the first turns, into positions a long run sees
        vec.step(act())
    part = seconds / 5
    step = _seconds_per_call(lambda: vec.step(act()), part)
    sampler = _seconds_per_call(act, part)
    observe = _seconds_per_call(lambda: vec.loops.observe_batch(vec.states, vec.seats, vec.obs), part)
    mask = _seconds_per_call(lambda: vec.loops.legal_mask_batch(vec.states, vec.masks), part)
    floor = np.empty_like(vec.obs)
    fill = _seconds_per_call(lambda: floor.fill(0.0), part)
    per = 1e6 / batch
    return {
        "env_id": env_id,
        "batch": batch,
        "observation_bytes": int(vec.obs.shape[1] * vec.obs.itemsize),
        "step_us": step * per,
        "sampler_us": sampler * per,
        "observe_us": observe * per,
        "zero_fill_us": fill * per,
        "legal_mask_us": mask * per,
        "game_and_rest_us": max(0.0, step - observe - mask) * per,
        "steps_per_s": batch / (step + sampler),
    }


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| env | observation | step + sampler µs | sampler | observe | (zero fill of it) | legal mask "
        "| game and rest |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['env_id']} | {r['observation_bytes'] / 1024:.1f} KB | {r['step_us'] + r['sampler_us']:.2f} "
            f"| {r['sampler_us']:.2f} | {r['observe_us']:.2f} | {r['zero_fill_us']:.2f} | {r['legal_mask_us']:.2f} "
            f"| {r['game_and_rest_us']:.2f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", choices=labyrinth_env.list_envs(), help="repeatable; default all")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per env")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    env_ids = args.env or labyrinth_env.list_envs()
    rows = [breakdown(env_id, args.batch, args.seconds) for env_id in tqdm(env_ids, desc="envs")]
    print(table(rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": throughput.machine_info(), "rows": rows}, indent=2))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
