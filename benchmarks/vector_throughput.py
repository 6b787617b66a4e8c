"""Vector-env throughput against peers, with compile times and PPO training throughput.

Rows, all measured in the same run:

* ``vector``: learner steps/s of ``VectorEnv`` through the Python API (masks and observations
  every step, random opponents in the kernel, a random legal action per game chosen in
  numpy) for each batch size and numba thread count. A step is one learner decision in
  every game of the batch; opponent moves inside the kernel are not counted.
* ``vector_nocopy``: the same at batch 1024 with ``VectorEnv(copy=False)``, which returns
  the env's observation buffer instead of a copy (Gymnasium's ``copy=False``).
* ``kernel``: in-kernel random play (``random_steps_batch``, every seat's decisions counted,
  no masks or observations returned to Python), the ceiling of the vector rows.
* peers (``benchmarks/peers.py``, when installed): PettingZoo connect_four_v3 (AEC),
  OpenSpiel backgammon from Python, Pgx backgammon and connect_four on the CPU.
* compile: the vector env's import, first reset/step and first kernel call in a fresh
  interpreter, loading the on-disk numba cache (warm) and, with ``--cold``, compiling
  everything into an empty cache; Pgx's jit compile is in its peer rows.
* PPO (``benchmarks/ppo_throughput.py``, needs the ``train`` extra): MaskablePPO steps/s
  with the env and learner shares of the time.

Targets (reported, never asserted): at batch 1024 our vector env at least 10x OpenSpiel
backgammon's per-step rate from Python and faster than Pgx backgammon on the CPU. OpenSpiel
is measured twice: a bare loop (legal actions only, no observations) and its RL interface
(observations and legal actions, like ours); the report gives the ratio to both.

    python benchmarks/vector_throughput.py [--env ID] [--batch 1 64 1024 4096] [--threads 1 2] [--seconds 2]

Writes JSON, a markdown report (same name, ``.md``) and a PNG plot (``.png``) of steps/s
against batch size.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np
from rich.console import Console

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import labyrinth_env
from labyrinth_env.benchmarks import peers, throughput
from labyrinth_env.vector import VectorEnv

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "vector_throughput.json"
TARGET_BATCH = 1024
TARGET_OPENSPIEL = 10.0  # at least this many times OpenSpiel backgammon's steps/s
TARGET_PGX = 1.0  # more than Pgx backgammon's steps/s at the same batch
NOISY_OTHER_CPU = 0.25  # cores' worth of other processes' CPU above which the report warns
STEP_DEFINITIONS = {
    "vector": "one learner decision per game of the batch (opponents' moves in the kernel not counted); "
    "masks and observations returned to Python every step; a uniformly random legal action per game chosen "
    "in numpy (benchmarks.vector_throughput.legal_sampler)",
    "vector_nocopy": "as vector, with VectorEnv(copy=False): the observation buffer itself is returned",
    "kernel": "one decision of any seat, in the kernel (random_steps_batch); nothing returned to Python",
    "peer": "one decision of any player (chance outcomes resolved, not counted)",
}


def _other_cpu(run: Callable[[], Any]) -> tuple[Any, float | None]:
    """``run()`` and how many cores' worth of CPU other processes used meanwhile: the
    machine is shared, and a busy neighbour halves a 2-thread row."""
    busy0, own0, t0 = throughput._system_busy_s(), time.process_time(), time.perf_counter()
    out = run()
    wall = time.perf_counter() - t0
    busy1, own1 = throughput._system_busy_s(), time.process_time()
    if busy0 is None or busy1 is None or wall <= 0:
        return out, None
    return out, max(0.0, (busy1 - busy0) - (own1 - own0)) / wall


def _set_threads(threads: int) -> int:
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    return numba.get_num_threads()


def legal_sampler(vec: VectorEnv, rng: np.random.Generator) -> Callable[[], np.ndarray]:
    """The learner's side of a step: a uniformly random legal action per env, from one
    uniform number per env (the k-th legal action of the row). Drawing a uniform per action
    and taking the argmax over the mask costs more than some envs' whole step."""
    n = vec.single_action_space.n
    row_start = np.arange(vec.num_envs, dtype=np.int64) * n

    def act() -> np.ndarray:
        # masks hold 0/1, and numpy finds the nonzeros of a bool array far faster than of uint8
        legal = np.flatnonzero(vec.masks.view(np.bool_))
        counts = np.bincount(legal // n, minlength=vec.num_envs)
        first = np.cumsum(counts) - counts
        pick = first + (rng.random(vec.num_envs) * counts).astype(np.int64)
        return legal[pick] - row_start

    return act


def measure(env_id: str, batch: int, threads: int, seconds: float, seed: int = 0, copy: bool = True) -> dict[str, Any]:
    """Learner steps/s of ``VectorEnv`` for one setting (after a short warm-up)."""
    used = _set_threads(threads)
    learner = "all" if labyrinth_env.get_spec(env_id).cooperative else "rotate"
    vec = VectorEnv(env_id, batch, learner_seats=learner, opponents="random", seed=seed, copy=copy)
    vec.reset()
    act = legal_sampler(vec, np.random.default_rng(seed))

    for _ in range(3):
        vec.step(act())

    def timed() -> tuple[int, int, float]:
        steps = ended = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            _, _, term, trunc, _ = vec.step(act())
            ended += int(term.sum() + trunc.sum())
            steps += 1
        return steps, ended, time.perf_counter() - start

    (steps, ended, elapsed), other = _other_cpu(timed)
    return {
        "env_id": env_id,
        "kind": "vector" if copy else "vector_nocopy",
        "batch": batch,
        "threads": used,
        "vector_steps": steps,
        "seconds": elapsed,
        "steps_per_s": steps * batch / elapsed,
        "episodes_per_s": ended / elapsed,
        "other_cpu": other,
    }


def measure_kernel(env_id: str, batch: int, threads: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """In-kernel random play steps/s (``random_steps_batch``) for one setting."""
    used = _set_threads(threads)
    raw = labyrinth_env.raw_env(env_id)
    runner = throughput.KernelRunner(raw.batch.random_steps_batch, raw.ruleset, raw.options_vector(), batch, seed)
    runner.warmup(min(0.5, seconds / 2))
    sample, other = _other_cpu(lambda: runner.measure(seconds))
    return {
        "env_id": env_id,
        "kind": "kernel",
        "batch": batch,
        "threads": used,
        "seconds": sample.seconds,
        "steps_per_s": sample.steps_per_s,
        "episodes_per_s": sample.games_per_s,
        "other_cpu": other,
    }


# --- compile and cache-load times ---------------------------------------------------------
_PROBE_CODE = """
import json, sys, time
t = time.perf_counter()
import numba, numpy
base = time.perf_counter() - t
t = time.perf_counter()
from labyrinth_env.benchmarks import vector_throughput as vt
imported = time.perf_counter() - t
print(json.dumps(vt.vector_probe(sys.argv[1], imported, base)))
"""


def vector_probe(env_id: str, import_s: float = 0.0, numpy_numba_import_s: float = 0.0) -> dict[str, Any]:
    """Time the first call of everything this benchmark runs (a JIT compile, or a load
    from numba's cache): meant for a fresh interpreter (``compile_probe``)."""
    from labyrinth_env.benchmarks._probe import make_batch

    phases: dict[str, float] = {"import": import_s}

    def timed(name: str, fn: Callable[..., Any], *args: Any) -> Any:
        t0 = time.perf_counter()
        out = fn(*args)
        phases[name] = time.perf_counter() - t0
        return out

    learner = "all" if labyrinth_env.get_spec(env_id).cooperative else "rotate"
    vec = timed("make", lambda: VectorEnv(env_id, 4, learner_seats=learner, opponents="random", seed=1))
    timed("reset", vec.reset)
    first = np.argmax(vec.masks, axis=1)
    timed("step", vec.step, first)
    arrays = make_batch(vec.ruleset, vec.options_vector, 4, 1)
    timed("random_steps_batch", vec.loops.random_steps_batch, *arrays[:3], 1, arrays[3])
    # a second step costs microseconds unless the first missed a specialisation
    t0 = time.perf_counter()
    vec.step(np.argmax(vec.masks, axis=1))
    return {
        "env_id": env_id,
        "total_s": sum(phases.values()),
        "phases_s": phases,
        "second_step_s": time.perf_counter() - t0,
        "numpy_numba_import_s": numpy_numba_import_s,
    }


def compile_probe(env_id: str, cache_dir: str | None) -> dict[str, Any]:
    """``vector_probe`` in a fresh interpreter (``throughput.run_probe``)."""
    result, wall = throughput.run_probe(["-c", _PROBE_CODE, env_id], cache_dir, f"vector compile probe for {env_id}")
    result["process_wall_s"] = wall
    return result


def compile_times(env_id: str, cold: bool) -> dict[str, Any]:
    """Warm (cache-load) probe after a priming run, and the cold compile when asked."""
    entry: dict[str, Any] = {"env_id": env_id, "cold": None, "warm": None}
    if cold:
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as tmp:
            entry["cold"] = compile_probe(env_id, tmp)
    compile_probe(env_id, None)  # refreshes a stale cache, so it is not the measurement
    entry["warm"] = compile_probe(env_id, None)
    return entry


# --- the run --------------------------------------------------------------------------------
def _check_settings(env_ids: Sequence[str], batches: Sequence[int], threads: Sequence[int], seconds: float) -> None:
    known = labyrinth_env.list_envs()
    for env_id in env_ids:
        if env_id not in known:
            raise ValueError(f"unknown env id {env_id!r}; available: {known}")
    for name, values in (("batch sizes", batches), ("thread counts", threads)):
        if not values or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in values):
            raise ValueError(f"{name} must be ints >= 1, got {list(values)}")
    if not seconds > 0:
        raise ValueError(f"seconds must be > 0, got {seconds!r}")


def decisions_per_learner_step(env_id: str, games: int = 20, seed: int = 0) -> float:
    """All seats' decisions per learner decision in the benchmark's setting (default
    options, random play in every seat): a learner step also plays the opponents' decisions
    until the learner's next turn, where OpenSpiel's loops count each player's decision as a
    step. Measured on ``games`` AEC games, averaged over the seats the learner rotates
    through; 1 for the cooperative ruleset (the learner plays every seat)."""
    if labyrinth_env.get_spec(env_id).cooperative:
        return 1.0
    env = labyrinth_env.make(env_id)
    rng = np.random.default_rng(seed)
    counts: dict[str, int] = {}
    for g in range(games):
        env.reset(seed=seed + g)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            counts[agent] = counts.get(agent, 0) + 1
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    total = sum(counts.values())
    return float(np.mean([total / c for c in counts.values()]))


# OpenSpiel backgammon rows the target is read against: (peer, key suffix, column name)
OPENSPIEL_REFERENCES = (
    ("openspiel_backgammon", "", "bare"),
    ("openspiel_backgammon_obs", "_obs", "obs + mask"),
    ("openspiel_backgammon_rl", "_rl", "RL API"),
)


def _targets(
    rows: list[dict[str, Any]], peer_rows: list[dict[str, Any]], decisions: dict[str, float] | None = None
) -> list[dict[str, Any]]:
    """Per ruleset and thread count at batch 1024: ratios to OpenSpiel and Pgx backgammon.
    With ``decisions`` (env id -> all seats' decisions per learner step), also the rate
    of every player's decisions against the bare loop, which counts them that way: for
    information, the verdicts stay on learner steps."""

    def peer_rate(peer: str, batch: int | None) -> float | None:
        for p in peer_rows:
            if p["peer"] == peer and p["status"] == "ok" and (batch is None or p["batch"] == batch):
                return p["steps_per_s"]
        return None

    openspiel = {suffix: peer_rate(peer, None) for peer, suffix, _ in OPENSPIEL_REFERENCES}
    pgx = peer_rate("pgx_backgammon", TARGET_BATCH)
    out = []
    for r in rows:
        if r["kind"] not in ("vector", "vector_nocopy") or r["batch"] != TARGET_BATCH:
            continue
        target: dict[str, Any] = {
            "env_id": r["env_id"],
            "threads": r["threads"],
            "batch": TARGET_BATCH,
            "copy": r["kind"] == "vector",
            "steps_per_s": r["steps_per_s"],
        }
        for suffix, rate in openspiel.items():
            ratio = r["steps_per_s"] / rate if rate else None
            target[f"openspiel{suffix}_backgammon_steps_per_s"] = rate
            target[f"ratio_to_openspiel{suffix}"] = ratio
            target[f"openspiel{suffix}_target_met"] = None if ratio is None else ratio >= TARGET_OPENSPIEL
        ratio_pgx = r["steps_per_s"] / pgx if pgx else None
        per_step = (decisions or {}).get(r["env_id"])
        target["decisions_per_step"] = per_step
        target["ratio_to_openspiel_all_decisions"] = (
            r["steps_per_s"] * per_step / openspiel[""] if per_step and openspiel[""] else None
        )
        target["pgx_backgammon_steps_per_s"] = pgx
        target["ratio_to_pgx"] = ratio_pgx
        target["pgx_target_met"] = None if ratio_pgx is None else ratio_pgx > TARGET_PGX
        out.append(target)
    return out


def _ppo_rows(
    env_ids: Sequence[str], threads: Sequence[int], rollouts: int, say: Callable[[str], None], notes: list[str]
) -> list[dict[str, Any]]:
    """MaskablePPO's training throughput for each default config of these env ids, per numba
    thread count (torch and the env's prange loops take turns on the cores); none, with a
    note, without sb3-contrib."""
    if importlib.util.find_spec("sb3_contrib") is None:
        notes.append("PPO rows skipped: sb3-contrib is not installed (pip install -e '.[train]')")
        return []
    from labyrinth_env.benchmarks import ppo_throughput

    rows = []
    for path in ppo_throughput.DEFAULT_CONFIGS:
        cfg = ppo_throughput.load_train_config(path)
        if cfg.env_id not in env_ids:
            continue
        for t in threads:
            say(f"PPO: {path.name}, {rollouts} iteration(s) (the first a warm-up), numba {t} thread(s)")
            rows.append(ppo_throughput.measure(cfg, rollouts, 1, t, config_name=path.name))
            if t > 1:
                time.sleep(throughput.PARALLEL_SETTLE_S)
    return rows


def run(
    env_ids: Sequence[str],
    batches: Sequence[int] = (1, 64, 1024, 4096),
    threads: Sequence[int] = (1, 2),
    seconds: float = 2.0,
    *,
    kernel: bool = True,
    with_peers: bool = True,
    pgx_batches: Sequence[int] = (TARGET_BATCH,),
    compile_s: bool = True,
    cold: bool = False,
    ppo: bool = False,
    ppo_rollouts: int = 2,
    seed: int = 0,
    log: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure everything asked for and return a JSON-ready dict (``rows``: the vector
    rows; ``kernel_rows``, ``peers``, ``targets``, ``compile``, ``ppo``)."""
    env_ids = list(env_ids)
    _check_settings(env_ids, batches, threads, seconds)
    say = log or (lambda _msg: None)
    info = throughput.machine_info()  # runs git in a subprocess: before any numba thread pool starts
    notes: list[str] = []

    # fresh interpreters first, before this process starts numba's thread pool
    compile_rows = []
    if compile_s:
        for env_id in env_ids:
            say(f"{env_id}: compile probes ({'cold and ' if cold else ''}warm)")
            compile_rows.append(compile_times(env_id, cold))

    rows: list[dict[str, Any]] = []
    kernel_rows: list[dict[str, Any]] = []
    for env_id in env_ids:
        for batch in batches:
            for t in threads:
                say(f"{env_id}: VectorEnv batch {batch}, {t} thread(s)")
                rows.append(measure(env_id, batch, t, seconds, seed))
                if batch == TARGET_BATCH:
                    say(f"{env_id}: VectorEnv(copy=False) batch {batch}, {t} thread(s)")
                    rows.append(measure(env_id, batch, t, seconds, seed, copy=False))
                if kernel:
                    say(f"{env_id}: in-kernel random play batch {batch}, {t} thread(s)")
                    kernel_rows.append(measure_kernel(env_id, batch, t, seconds, seed))
                if t > 1:
                    time.sleep(throughput.PARALLEL_SETTLE_S)  # let idle pool threads stop spinning
    _set_threads(max(threads))
    decisions = {env_id: decisions_per_learner_step(env_id, seed=seed) for env_id in env_ids}

    peer_rows: list[dict[str, Any]] = []
    if with_peers:
        say("peers: PettingZoo connect_four_v3, OpenSpiel backgammon, Pgx (jit compile first)")
        peer_rows = peers.run(seconds, list(pgx_batches), seed)
        for p in peer_rows:
            if p["status"] != "ok":
                notes.append(f"{p['label']}: {p['note']}")

    ppo_rows = _ppo_rows(env_ids, threads, ppo_rollouts, say, notes) if ppo else []

    loads = [r["other_cpu"] for r in rows + kernel_rows + peer_rows if r.get("other_cpu") is not None]
    if loads and max(loads) > NOISY_OTHER_CPU:
        notes.append(
            f"other processes used up to {max(loads):.2f} cores while rows ran: the figures are noisy, and rows "
            "with 2 numba threads suffer most (each parallel region waits for a thread that shares a core)"
        )
    throughput.machine_info_at_end(info)
    for module in ("jax", "pgx", "open_spiel", "torch", "stable_baselines3", "sb3_contrib"):
        info[module] = throughput._version(module)
    return {
        "benchmark": "vector_throughput",
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": info,
        "parameters": {
            "env_ids": env_ids,
            "batches": list(batches),
            "threads": list(threads),
            "seconds_per_row": seconds,
            "pgx_batches": list(pgx_batches) if with_peers else [],
            "kernel": kernel,
            "peers": with_peers,
            "compile": compile_s,
            "cold": cold and compile_s,
            "ppo": ppo,
            "ppo_rollouts": ppo_rollouts if ppo else None,
            "seed": seed,
            "step": STEP_DEFINITIONS,
            "targets": {
                "batch": TARGET_BATCH,
                "vs_openspiel_backgammon": f">= {TARGET_OPENSPIEL:g}x",
                "vs_pgx_backgammon": f"> {TARGET_PGX:g}x",
            },
        },
        "rows": rows,
        "kernel_rows": kernel_rows,
        "peers": peer_rows,
        "decisions_per_step": decisions,
        "targets": _targets(rows, peer_rows, decisions),
        "compile": compile_rows,
        "ppo": ppo_rows,
        "notes": notes,
    }


# --- reports ----------------------------------------------------------------------------------
def _rate(x: float | None) -> str:
    return "—" if x is None else f"{x:,.0f}"


def _ratio(x: float | None, met: bool | None) -> str:
    if x is None:
        return "not measured"
    return f"{x:.2f}× ({'met' if met else 'not met'})"


def markdown_report(result: dict[str, Any]) -> str:
    """The whole result as markdown: steps/s by batch size, targets, peers, compile, PPO."""
    m, p = result["machine"], result["parameters"]
    peer_ok = [r for r in result["peers"] if r["status"] == "ok"]
    batches = sorted({*p["batches"], *(r["batch"] for r in peer_ok)})
    out = ["# Vector env throughput against peers", ""]
    load = m.get("loadavg_start")
    out.append(
        f"{result['created']}, {m.get('cpu_count')} CPUs ({m.get('cpu_model')}), Python {m.get('python')}, "
        f"numba {m.get('numba')}, numpy {m.get('numpy')}, commit {(m.get('git_commit') or '?')[:10]}; "
        f"{p['seconds_per_row']:g} s per row"
        + (f"; load average {load[0]:.2f} at start" if load else "")
        + (f", {m['loadavg_end'][0]:.2f} at end" if m.get("loadavg_end") else "")
        + ". The machine may be shared: `other CPU` is how many cores other processes used while a row ran, "
        "and figures taken with other load are noisy (a 2-thread row suffers most)."
    )
    out += ["", "## Steps/s by batch size", ""]
    out.append("| row | env / game | threads | " + " | ".join(str(b) for b in batches) + " | other CPU (max) |")
    out.append("|---|---|---:|" + "---:|" * len(batches) + "---:|")
    ours = result["rows"] + result["kernel_rows"]
    labels = {
        "vector": "VectorEnv (Python API)",
        "vector_nocopy": "VectorEnv (Python API, copy=False)",
        "kernel": "in-kernel random play",
    }
    for env_id in p["env_ids"]:
        for kind in ("vector", "vector_nocopy", "kernel"):
            for t in sorted({r["threads"] for r in ours if r["env_id"] == env_id and r["kind"] == kind}):
                cells = {
                    r["batch"]: r for r in ours if r["env_id"] == env_id and r["kind"] == kind and r["threads"] == t
                }
                loads = [r["other_cpu"] for r in cells.values() if r["other_cpu"] is not None]
                load_cell = f"{max(loads):.2f}" if loads else "—"
                out.append(
                    f"| {labels[kind]} | {env_id} | {t} | "
                    + " | ".join(_rate(cells[b]["steps_per_s"]) if b in cells else "" for b in batches)
                    + f" | {load_cell} |"
                )
    for r in peer_ok:
        out.append(
            f"| {r['label']} | {r['game']} | {r['threads']} | "
            + " | ".join(_rate(r["steps_per_s"]) if b == r["batch"] else "" for b in batches)
            + (f" | {r['other_cpu']:.2f} |" if r["other_cpu"] is not None else " | — |")
        )
    out += ["", "Steps: " + "; ".join(f"**{k}** {v}" for k, v in p["step"].items()) + "."]

    if result["targets"]:
        out += ["", f"## Targets at batch {TARGET_BATCH}", ""]
        out.append(
            f"Our VectorEnv (masks and observations) against OpenSpiel backgammon from Python "
            f"(target ≥ {TARGET_OPENSPIEL:g}×; a bare loop without observations, the same loop asking for the "
            f"observation tensor and legal-action mask of the player to act, and OpenSpiel's RL interface "
            f"with observations and legal actions) and Pgx backgammon on the CPU at batch {TARGET_BATCH} "
            f"(target > {TARGET_PGX:g}×)."
        )
        head = "| env | threads | obs copied | VectorEnv steps/s | "
        head += "".join(f"OpenSpiel bg ({name}) | × {name} | " for _, _, name in OPENSPIEL_REFERENCES)
        head += "Pgx bg steps/s | × Pgx | decisions per step | all decisions × bare |"
        out += ["", head, "|---|---:|---|" + "---:|" * (5 + 2 * len(OPENSPIEL_REFERENCES))]
        for t in result["targets"]:
            line = f"| {t['env_id']} | {t['threads']} | {'yes' if t.get('copy', True) else 'no'} "
            line += f"| {_rate(t['steps_per_s'])} "
            for _, suffix, _ in OPENSPIEL_REFERENCES:
                line += f"| {_rate(t.get(f'openspiel{suffix}_backgammon_steps_per_s'))} "
                line += f"| {_ratio(t.get(f'ratio_to_openspiel{suffix}'), t.get(f'openspiel{suffix}_target_met'))} "
            per_step = t.get("decisions_per_step")
            every = t.get("ratio_to_openspiel_all_decisions")
            line += f"| {_rate(t['pgx_backgammon_steps_per_s'])} | {_ratio(t['ratio_to_pgx'], t['pgx_target_met'])} "
            line += "| — " if per_step is None else f"| {per_step:.2f} "
            line += "| — |" if every is None else f"| {every:.2f}× |"
            out.append(line)
        out += [
            "",
            "A learner step also plays the opponents' decisions in the kernel (no observation returned for them), "
            "while OpenSpiel's loops count every player's decision as a step. *Decisions per step* is all seats' "
            "decisions per learner decision (random AEC games in the same setting), and *all decisions × bare* "
            "the decision rate that gives against the bare loop. This is for information only; the verdicts "
            "count learner steps.",
            "",
        ]
        for env_id in p["env_ids"]:
            best = max(
                (t for t in result["targets"] if t["env_id"] == env_id), key=lambda t: t["steps_per_s"], default=None
            )
            if best is None:
                continue
            copied = "observations copied" if best.get("copy", True) else "copy=False"
            verdicts = ", ".join(
                f"{name} {_ratio(best.get(f'ratio_to_openspiel{suffix}'), best.get(f'openspiel{suffix}_target_met'))}"
                for _, suffix, name in OPENSPIEL_REFERENCES
            )
            out.append(
                f"- {env_id} (best: {best['threads']} thread(s), {copied}): ≥ {TARGET_OPENSPIEL:g}× OpenSpiel "
                f"{verdicts}; faster than Pgx {_ratio(best['ratio_to_pgx'], best['pgx_target_met'])}"
            )

    if result["peers"]:
        out += ["", "## Peers", ""]
        out += [
            "| peer | version | batch | status | steps/s | games/s | jit compile s | note |",
            "|---|---|---:|---|---:|---:|---:|---|",
        ]
        for r in result["peers"]:
            games = "—" if r["games_per_s"] is None else f"{r['games_per_s']:,.1f}"
            comp = "—" if r["compile_s"] is None else f"{r['compile_s']:.2f}"
            out.append(
                f"| {r['label']} | {r['version'] or '—'} | {r['batch']} | {r['status']} | {_rate(r['steps_per_s'])} "
                f"| {games} | {comp} | {r['note']} |"
            )

    if result["compile"]:
        out += ["", "## Compile and cache-load times (fresh interpreter, seconds)", ""]
        phases = ["import", "make", "reset", "step", "random_steps_batch"]
        out.append("| env | numba cache | total | " + " | ".join(phases) + " | process wall |")
        out.append("|---|---|---:|" + "---:|" * len(phases) + "---:|")
        for entry in result["compile"]:
            for which, label in (("cold", "cold (empty: compiles)"), ("warm", "warm (loads)")):
                probe = entry[which]
                if probe is None:
                    out.append(f"| {entry['env_id']} | {label} | not run (--cold) |" + " |" * (len(phases) + 1))
                    continue
                out.append(
                    f"| {entry['env_id']} | {label} | {probe['total_s']:.2f} | "
                    + " | ".join(f"{probe['phases_s'].get(ph, 0.0):.2f}" for ph in phases)
                    + f" | {probe['process_wall_s']:.2f} |"
                )
        out.append("")
        out.append(
            "total excludes the interpreter start and the numpy/numba import; make = raw env and batch module, "
            "reset/step = the first VectorEnv.reset/step (vector_reset/vector_step), random_steps_batch = the "
            "in-kernel rows' function. Pgx's jit compile is in the peers table."
        )

    if result["ppo"]:
        from labyrinth_env.benchmarks.ppo_throughput import markdown_table

        out += ["", "## MaskablePPO training (shipped configs, torch 1 thread, per numba thread count)", ""]
        out.append(markdown_table(result["ppo"]).rstrip())
        out += [
            "",
            "env = inside the VecEnv (step, reset, action masks); policy = the rest of rollout collection "
            "(forward passes, buffer); update = train(). The first PPO iteration is a warm-up and not counted.",
        ]
    if result["notes"]:
        out += ["", "## Notes", ""] + [f"- {n}" for n in result["notes"]]
    return "\n".join(out) + "\n"


PEER_MARKERS = {
    "pettingzoo_connect_four": "s",
    "openspiel_backgammon": "D",
    "openspiel_backgammon_obs": "P",
    "openspiel_backgammon_rl": "d",
    "pgx_backgammon": "^",
    "pgx_connect_four": "v",
}


def plot(result: dict[str, Any], path: Path) -> None:
    """Steps/s against batch size, one panel per ruleset on a shared scale (one ruleset's
    eleven lines are readable, fifty in one axes are not): colour = numba threads, solid =
    VectorEnv, crosses = copy=False, dashed = in-kernel play; the peers in black in every
    panel, and the 10x line of the OpenSpiel target."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    ours = result["rows"] + result["kernel_rows"]
    env_ids = sorted({r["env_id"] for r in ours}) or ["(no rows)"]
    peer_rows = [r for r in result["peers"] if r["status"] == "ok" and r["peer"] in PEER_MARKERS]
    ncols = min(3, len(env_ids))
    nrows = -(-len(env_ids) // ncols)
    spare = nrows * ncols > len(env_ids)  # an empty panel takes the legend, else a column beside
    width = 4.2 * ncols + (0 if spare else 5.0)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, 3.4 * nrows + 0.6), sharey=True, squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    threads = sorted({r["threads"] for r in ours})
    styles = {"vector": ("-", "o", 5), "vector_nocopy": ("none", "x", 8), "kernel": ("--", "o", 3)}
    ticks = sorted({r["batch"] for r in ours} | {r["batch"] for r in peer_rows})
    reference = next((r["steps_per_s"] for r in peer_rows if r["peer"] == "openspiel_backgammon_obs"), None)
    for ax, env_id in zip(axes.flat, env_ids):
        for t in threads:
            colour = colours[threads.index(t) % len(colours)]
            for kind, (line, marker, size) in styles.items():
                rows = sorted(
                    (r for r in ours if r["env_id"] == env_id and r["threads"] == t and r["kind"] == kind),
                    key=lambda r: r["batch"],
                )
                if rows:
                    ax.plot(
                        [r["batch"] for r in rows],
                        [r["steps_per_s"] for r in rows],
                        linestyle=line,
                        marker=marker,
                        markersize=size,
                        color=colour,
                    )
        for peer, marker in PEER_MARKERS.items():
            rows = sorted((r for r in peer_rows if r["peer"] == peer), key=lambda r: r["batch"])
            if rows:
                ax.plot(
                    [r["batch"] for r in rows],
                    [r["steps_per_s"] for r in rows],
                    ":",
                    marker=marker,
                    markersize=7,
                    color="black",
                    alpha=0.8,
                )
        if reference:
            ax.axhline(10 * reference, color="grey", linewidth=1, linestyle="-.")
        ax.set_title(env_id, fontsize=10)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(ticks, [str(b) for b in ticks])
        ax.grid(alpha=0.3, which="both")
    for ax in axes.flat[len(env_ids) :]:
        ax.axis("off")
    for ax in axes[-1]:
        ax.set_xlabel("batch size (games)")
    for ax in axes[:, 0]:
        ax.set_ylabel("steps/s")
    handles = [
        Line2D([], [], color=colours[n % len(colours)], linestyle="-", label=f"{t} numba thread(s)")
        for n, t in enumerate(threads)
    ]
    handles += [
        Line2D([], [], color="dimgrey", linestyle="-", marker="o", label="VectorEnv (Python API)"),
        Line2D([], [], color="dimgrey", linestyle="none", marker="x", markersize=8, label="VectorEnv copy=False"),
        Line2D([], [], color="dimgrey", linestyle="--", marker="o", markersize=3, label="in-kernel random play"),
    ]
    if reference:
        handles.append(Line2D([], [], color="grey", linestyle="-.", label="10x OpenSpiel bg (obs + mask)"))
    seen = []
    for r in peer_rows:
        if r["peer"] not in seen:
            seen.append(r["peer"])
            handles.append(
                Line2D([], [], color="black", linestyle=":", marker=PEER_MARKERS[r["peer"]], label=r["label"])
            )
    fig.suptitle("Steps/s against batch size (one run)", fontsize=11)
    if spare:
        axes.flat[-1].legend(handles=handles, loc="center", fontsize=7, frameon=False)
        fig.tight_layout(rect=(0, 0, 1, 0.97))
    else:
        fig.legend(handles=handles, loc="center right", fontsize=7, frameon=False)
        fig.tight_layout(rect=(0, 0, 1 - 5.0 / width, 0.97))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_reports(result: dict[str, Any], out: str | Path = DEFAULT_OUT) -> dict[str, Path | None]:
    """JSON at ``out``, markdown and PNG beside it (no PNG without matplotlib)."""
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1) + "\n")
    md = path.with_suffix(".md")
    md.write_text(markdown_report(result))
    png: Path | None = path.with_suffix(".png")
    try:
        plot(result, png)
    except ImportError:
        png = None
    return {"json": path, "markdown": md, "png": png}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", help="env id (repeatable; default: all)")
    parser.add_argument("--batch", type=int, nargs="+", default=[1, 64, 1024, 4096])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per row (default 2)")
    parser.add_argument("--no-kernel", action="store_true", help="skip the in-kernel random play rows")
    parser.add_argument("--no-peers", action="store_true", help="skip PettingZoo, OpenSpiel and Pgx")
    parser.add_argument("--pgx-batch", type=int, nargs="+", default=[TARGET_BATCH], help="Pgx batch sizes")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile/cache-load probes")
    parser.add_argument("--cold", action="store_true", help="also time a full compile into an empty numba cache")
    parser.add_argument("--no-ppo", action="store_true", help="skip the MaskablePPO training rows")
    parser.add_argument("--ppo-rollouts", type=int, default=2, help="PPO iterations per config (first is warm-up)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="JSON path; .md and .png are written beside it")
    args = parser.parse_args(argv)
    env_ids = args.env or labyrinth_env.list_envs()
    console = Console(stderr=True)
    try:
        _check_settings(env_ids, args.batch, args.threads, args.seconds)
        if any(b < 1 for b in args.pgx_batch) or args.ppo_rollouts < 1:
            raise ValueError("--pgx-batch sizes and --ppo-rollouts must be >= 1")
        result = run(
            env_ids,
            args.batch,
            args.threads,
            args.seconds,
            kernel=not args.no_kernel,
            with_peers=not args.no_peers,
            pgx_batches=args.pgx_batch,
            compile_s=not args.no_compile,
            cold=args.cold,
            ppo=not args.no_ppo,
            ppo_rollouts=args.ppo_rollouts,
            seed=args.seed,
            log=lambda msg: console.log(msg),
        )
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    paths = write_reports(result, args.out)
    print(markdown_report(result))
    print("wrote " + ", ".join(str(p) for p in paths.values() if p is not None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
