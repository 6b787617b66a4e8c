"""Throughput and compile-time benchmark for every labyrinth-env ruleset.

For each env id, with uniformly random legal actions:

* ``aec``            steps/s of ``labyrinth_env.make(id)`` in the standard PettingZoo loop
* ``raw``            the same loop over ``labyrinth_env.raw_env(id)``
* ``kernel serial``  ``random_steps_batch_serial`` (``env.batch``) over a batch, one thread
* ``kernel batch``   ``random_steps_batch`` (prange) over the same batch size
* ``connect_four_v3`` PettingZoo's own env in the same loop, the reference for the ratio column

and, in fresh interpreters, the cold compile time (empty ``NUMBA_CACHE_DIR``) and the warm
load time (normal on-disk cache). A "step" is one decision, i.e. one legal action applied;
the AEC loop's ``env.step(None)`` calls for finished agents are timed but not counted, as
the kernels have no such calls.

    python benchmarks/throughput.py --seconds 3 --repeats 3
    python benchmarks/throughput.py --quick --env team_edition_v2
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    # run as ``python benchmarks/throughput.py``: make the repo's packages importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numba
import numpy as np
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

import labyrinth_env
from labyrinth_env.benchmarks._probe import make_batch
from labyrinth_env.options import option_assignment

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "throughput.json"
REFERENCE_ID = "connect_four_v3"
KINDS = ("reference", "aec", "raw", "kernel_serial", "kernel_batch")
KIND_LABELS = {
    "reference": "AEC env() (reference)",
    "aec": "AEC make()",
    "raw": "AEC raw_env()",
    "kernel_serial": "kernel serial",
    "kernel_batch": "kernel prange",
}
AEC_KINDS = ("reference", "aec", "raw")
QUICK_SECONDS = 1.0
QUICK_BATCH = 64
# An idle numba thread pool may keep spinning for a moment after a prange region; on a
# 2-core machine that would slow whichever single-threaded row comes next.
PARALLEL_SETTLE_S = 0.25
PROBE_TIMEOUT_S = 1800


@dataclass
class Sample:
    """One timed run of one row."""

    steps: int
    games: int
    seconds: float
    other_cpu: float | None = None  # cores' worth of CPU used by other processes meanwhile

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


def _system_busy_s() -> float | None:
    """CPU seconds all processes have spent busy since boot (Linux), else None."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def measure_with_load(runner: AECRunner | KernelRunner, seconds: float) -> Sample:
    """``runner.measure`` plus how busy the rest of the machine was: on 2 shared cores,
    another process (tests, an evaluation) halves the prange row, and the sample says so."""
    busy0, own0 = _system_busy_s(), time.process_time()
    sample = runner.measure(seconds)
    busy1, own1 = _system_busy_s(), time.process_time()
    if busy0 is not None and busy1 is not None:
        sample.other_cpu = max(0.0, (busy1 - busy0) - (own1 - own0)) / sample.seconds
    return sample


class UniformDraws:
    """Uniform floats in [0, 1) drawn in blocks.

    Every AEC row picks its action as ``legal[int(u * len(legal))]``: a scalar
    ``Generator.integers`` call costs a few µs, which would be a visible share of a
    ~5 µs raw-env step and blur the comparison between rows.
    """

    def __init__(self, seed: int, block: int = 1 << 16) -> None:
        self._rng = np.random.default_rng(seed)
        self._block = block
        self._buf: list[float] = []
        self._i = 0

    def take(self) -> list[float]:
        """A fresh block (the loop indexes it directly to skip a method call per step)."""
        self._buf = self._rng.random(self._block).tolist()
        return self._buf


class AECRunner:
    """The standard PettingZoo AEC loop with random legal actions, under a time budget."""

    def __init__(self, make_env: Callable[[], Any], seed: int) -> None:
        self.env = make_env()
        self.next_seed = seed
        self.draws = UniformDraws(seed)

    def warmup(self, seconds: float) -> None:
        self.measure(seconds)

    def measure(self, seconds: float) -> Sample:
        env = self.env
        buf = self.draws.take()
        n_buf = len(buf)
        i = 0
        steps = games = 0
        perf = time.perf_counter
        start = perf()
        deadline = start + seconds
        over = False
        while not over:
            env.reset(seed=self.next_seed)
            self.next_seed += 1
            for _agent in env.agent_iter():
                obs, _reward, term, trunc, _info = env.last()
                if term or trunc:
                    action = None
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    if i == n_buf:
                        buf = self.draws.take()
                        i = 0
                    action = int(legal[int(buf[i] * legal.size)])
                    i += 1
                    steps += 1
                env.step(action)
                if perf() >= deadline:
                    over = True
                    break
            else:
                games += 1
        return Sample(steps, games, perf() - start)


class KernelRunner:
    """``random_steps_batch_serial`` / ``random_steps_batch`` called in chunks until the budget is spent."""

    def __init__(self, fn: Callable[..., None], spec: Any, options: np.ndarray, batch_size: int, seed: int) -> None:
        self.fn = fn
        self.batch_size = batch_size
        self.arrays = make_batch(spec, options, batch_size, seed)
        self.chunk = 1

    def _call(self, num_steps: int) -> float:
        t = time.perf_counter()
        self.fn(*self.arrays[:3], num_steps, self.arrays[3])
        return time.perf_counter() - t

    def warmup(self, seconds: float) -> None:
        self._call(1)  # compile or cache load, never timed
        # Grow the chunk until a call is long enough to time, then size it so one call
        # takes a small slice of the budget (the last call may overrun by that much).
        chunk, dt = 1, 0.0
        while chunk < 1 << 24:
            dt = self._call(chunk)
            if dt >= 0.01:
                break
            chunk *= 4
        target = min(0.1, max(seconds, 0.05) / 10)
        self.chunk = max(1, int(chunk * target / max(dt, 1e-9)))

    def measure(self, seconds: float) -> Sample:
        games_done = self.arrays[3]
        games_before = int(games_done.sum())
        calls = 0
        start = time.perf_counter()
        elapsed = 0.0
        while elapsed < seconds:
            self.fn(*self.arrays[:3], self.chunk, games_done)
            calls += 1
            elapsed = time.perf_counter() - start
        return Sample(calls * self.chunk * self.batch_size, int(games_done.sum()) - games_before, elapsed)


def check_env_ids(env_ids: Sequence[str]) -> list[str]:
    """The ids to run (all when empty); an unknown id raises the registry's ValueError."""
    ids = list(env_ids) if env_ids else labyrinth_env.list_envs()
    for env_id in ids:
        labyrinth_env.raw_env(env_id)
    return ids


def _connect_four_factory() -> Callable[[], Any] | None:
    try:
        with warnings.catch_warnings():
            # pettingzoo's own lazy-import shim warns about its old creation API on import
            warnings.simplefilter("ignore", DeprecationWarning)
            from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None
    return connect_four_v3.env


def _version(module: str) -> str | None:
    try:
        from importlib.metadata import version

        return version(module)
    except Exception:
        return None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def machine_info() -> dict[str, Any]:
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cpu_count": os.cpu_count(),
        "cpus_usable": affinity,
        "cpu_model": _cpu_model(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pettingzoo": _version("pettingzoo"),
        "gymnasium": _version("gymnasium"),
        "numba_num_threads": numba.get_num_threads(),
        "numba_max_threads": numba.config.NUMBA_NUM_THREADS,
        "git_commit": _git_commit(),
        # other busy processes share the 2 cores and show up as noise, so record them
        "loadavg_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def run_probe(args: Sequence[str], cache_dir: str | None, what: str) -> tuple[dict[str, Any], float]:
    """``python <args>`` in a fresh interpreter (never a fork: this process may already have
    started numba's thread pool), with this checkout first on its path: the JSON object of
    its last line of output and the wall time. ``cache_dir`` set: an empty numba cache
    there, so everything compiles; ``None``: the normal on-disk cache. A failing probe
    raises ``RuntimeError`` with ``what`` and the end of its stderr."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    if cache_dir is None:
        env.pop("NUMBA_CACHE_DIR", None)
    else:
        env["NUMBA_CACHE_DIR"] = cache_dir
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=PROBE_TIMEOUT_S,
        check=False,
    )
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"{what} failed (exit {proc.returncode}):\n{tail}")
    return json.loads(proc.stdout.strip().splitlines()[-1]), wall


def machine_info_at_end(info: dict[str, Any]) -> None:
    """Add to ``machine_info()`` what is known once the rows ran: the load average, and the
    threading layer numba chose (None if no parallel region ran)."""
    if hasattr(os, "getloadavg"):
        info["loadavg_end"] = list(os.getloadavg())
    try:
        info["numba_threading_layer"] = numba.threading_layer()
    except ValueError:  # no parallel region ran
        info["numba_threading_layer"] = None


def compile_probe(env_id: str, cache_dir: str | None) -> dict[str, Any]:
    """The probe (``_probe.py``) in a fresh interpreter (``run_probe``)."""
    result, wall = run_probe(
        ["-m", "labyrinth_env.benchmarks._probe", env_id], cache_dir, f"compile probe for {env_id}"
    )
    result["subprocess_wall_s"] = wall
    return result


def _summarise(env_id: str, kind: str, threads: int, samples: list[Sample]) -> dict[str, Any]:
    rates = [s.steps_per_s for s in samples]
    loads = [s.other_cpu for s in samples if s.other_cpu is not None]
    steps = sum(s.steps for s in samples)
    games = sum(s.games for s in samples)
    median = statistics.median(rates)
    return {
        "env_id": env_id,
        "kind": kind,
        "label": KIND_LABELS[kind],
        "threads": threads,
        "steps_per_s": median,
        "games_per_s": statistics.median(s.games_per_s for s in samples),
        "us_per_step": 1e6 / median if median > 0 else None,
        "steps_per_game": steps / games if games else None,
        "spread": (max(rates) - min(rates)) / median if median > 0 else None,
        "other_cpu_max": max(loads) if loads else None,
        "ratio_to_connect_four": None,
        "samples": [
            {
                "steps": s.steps,
                "games": s.games,
                "seconds": s.seconds,
                "steps_per_s": s.steps_per_s,
                "games_per_s": s.games_per_s,
                "other_cpu": s.other_cpu,
            }
            for s in samples
        ],
    }


def _compile_row(env_id: str, cold_compile: bool, bar: Progress, task: Any) -> dict[str, Any]:
    """The compile probes of one env id (``compile_probe``): cold on an empty cache if
    asked, then twice on the normal cache, the first run only priming it."""
    entry: dict[str, Any] = {"env_id": env_id, "cold": None, "warm": None, "warm_prime": None}
    if cold_compile:
        bar.update(task, description=f"{env_id}: cold compile (empty NUMBA_CACHE_DIR)")
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as tmp:
            entry["cold"] = compile_probe(env_id, tmp)
        bar.advance(task)
    # the first warm run may have to compile what the cache lacks, so it is not the measurement
    bar.update(task, description=f"{env_id}: compiling what the kernel cache lacks (fresh interpreter)")
    entry["warm_prime"] = compile_probe(env_id, None)
    bar.advance(task)
    bar.update(task, description=f"{env_id}: loading the kernels from the cache (fresh interpreter)")
    entry["warm"] = compile_probe(env_id, None)
    bar.advance(task)
    return entry


def _runners(
    row_keys: Sequence[tuple[str, str]],
    c4: Callable[[], Any] | None,
    options: Mapping[str, Any],
    batch_size: int,
    seed: int,
) -> dict[tuple[str, str], AECRunner | KernelRunner]:
    """A runner per row: the reference env, the wrapped or raw AEC env, or a batched
    kernel loop (serial or ``prange``)."""
    runners: dict[tuple[str, str], AECRunner | KernelRunner] = {}
    for env_id, kind in row_keys:
        if kind == "reference":
            runners[env_id, kind] = AECRunner(c4, seed)
        elif kind == "aec":
            runners[env_id, kind] = AECRunner(lambda e=env_id: labyrinth_env.make(e, **options), seed)
        elif kind == "raw":
            runners[env_id, kind] = AECRunner(lambda e=env_id: labyrinth_env.raw_env(e, **options), seed)
        else:
            raw = labyrinth_env.raw_env(env_id, **options)
            fn = raw.batch.random_steps_batch_serial if kind == "kernel_serial" else raw.batch.random_steps_batch
            runners[env_id, kind] = KernelRunner(fn, raw.ruleset, raw.options_vector(), batch_size, seed)
    return runners


def _rows(
    row_keys: Sequence[tuple[str, str]], samples: Mapping[tuple[str, str], list[Sample]], threads: int
) -> list[dict[str, Any]]:
    """The table's rows (``_summarise``), the AEC ones with their ratio to connect_four's."""
    rows = [
        _summarise(env_id, kind, threads if kind == "kernel_batch" else 1, samples[env_id, kind])
        for env_id, kind in row_keys
    ]
    ref = next((row for row in rows if row["kind"] == "reference"), None)
    if ref is not None and ref["steps_per_s"] > 0:
        for row in rows:
            if row["kind"] in AEC_KINDS:
                row["ratio_to_connect_four"] = row["steps_per_s"] / ref["steps_per_s"]
    return rows


def run(
    env_ids: Sequence[str] | None = None,
    seconds: float = 3.0,
    repeats: int = 3,
    batch_size: int = 256,
    quick: bool = False,
    *,
    measure_compile: bool = True,
    cold_compile: bool | None = None,
    seed: int = 0,
    console: Console | None = None,
    progress: bool = True,
    kinds: Sequence[str] = KINDS,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Measure every row and return the result as a JSON-ready dict.

    ``quick`` caps rows at ~1 s, one repeat, a batch of 64 and (unless ``cold_compile``
    says otherwise) skips the cold compile, which alone takes tens of seconds.
    ``measure_compile=False`` skips both compile probes (tests). ``kinds`` picks the rows
    (``reference``, ``aec``, ``raw``, ``kernel_serial``, ``kernel_batch``): the kernel rows
    compile loops of their own, which a short run that does not show them need not pay.
    ``options`` are env options given to every env id (e.g. ``characters="none"`` to set a
    character game against the same game without them); the compile probes ignore them.
    """
    ids = check_env_ids(env_ids or [])
    options = dict(options or {})
    for env_id in ids:  # an option an env does not take fails here, before any measuring
        labyrinth_env.raw_env(env_id, **options)
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise ValueError(f"unknown benchmark row kind(s) {unknown}; kinds are {list(KINDS)}")
    if quick:
        seconds = min(seconds, QUICK_SECONDS)
        repeats = 1
        batch_size = min(batch_size, QUICK_BATCH)
    if seconds <= 0 or repeats < 1 or batch_size < 1:
        raise ValueError(f"need seconds > 0, repeats >= 1, batch_size >= 1; got {seconds}, {repeats}, {batch_size}")
    if cold_compile is None:
        cold_compile = not quick
    cold_compile = cold_compile and measure_compile
    console = console or Console(stderr=True)
    threads = numba.get_num_threads()
    info = machine_info()  # before any prange: it runs git in a subprocess
    notes: list[str] = []
    if options and measure_compile:
        notes.append(f"compile probes use each env's default options, not {options}")

    c4 = _connect_four_factory()
    if c4 is None:
        notes.append("pettingzoo[classic] is not installed: no connect_four_v3 reference row")

    compile_rows: list[dict[str, Any]] = []
    row_keys: list[tuple[str, str]] = []  # (env id, kind) in table order
    if c4 is not None and "reference" in kinds:
        row_keys.append((REFERENCE_ID, "reference"))
    for env_id in ids:
        row_keys += [(env_id, k) for k in KINDS if k != "reference" and k in kinds]
    probes = len(ids) * ((2 if measure_compile else 0) + (1 if cold_compile else 0))
    work = probes + len(row_keys) * (repeats + 1)  # +1: the warm-up

    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not progress,
    ) as bar:
        task = bar.add_task("benchmark", total=work)

        # Compile probes first: they run before this process starts any numba thread pool,
        # and the warm probe leaves the on-disk cache current for the throughput rows.
        if measure_compile:
            compile_rows = [_compile_row(env_id, cold_compile, bar, task) for env_id in ids]
        runners = _runners(row_keys, c4, options, batch_size, seed)

        warm_s = min(0.5, seconds / 2)
        for key, runner in runners.items():
            bar.update(task, description=f"{key[0]}: warm-up {KIND_LABELS[key[1]]}")
            runner.warmup(warm_s)
            if key[1] == "kernel_batch":
                time.sleep(PARALLEL_SETTLE_S)
            bar.advance(task)

        # Repeats are the outer loop so slow drifts of the machine hit every row alike.
        samples: dict[tuple[str, str], list[Sample]] = {key: [] for key in runners}
        for r in range(repeats):
            for key, runner in runners.items():
                bar.update(task, description=f"{key[0]}: {KIND_LABELS[key[1]]} (repeat {r + 1}/{repeats})")
                samples[key].append(measure_with_load(runner, seconds))
                if key[1] == "kernel_batch":
                    time.sleep(PARALLEL_SETTLE_S)
                bar.advance(task)

    rows = _rows(row_keys, samples, threads)
    machine_info_at_end(info)
    return {
        "benchmark": "throughput",
        "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": info,
        "parameters": {
            "env_ids": ids,
            "seconds": seconds,
            "repeats": repeats,
            "batch_size": batch_size,
            "quick": quick,
            "measure_compile": measure_compile,
            "cold_compile": cold_compile,
            "seed": seed,
            "options": options,
            "threads": threads,
            "step": "one legal action applied (AEC step(None) calls for finished agents not counted)",
            "statistic": "median over repeats; spread = (max - min) / median of steps/s",
        },
        "rows": rows,
        "compile": compile_rows,
        "notes": notes,
    }


def write_json(result: dict[str, Any], path: str | Path = DEFAULT_OUT) -> Path:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return out


def _fmt_rate(x: float | None) -> str:
    return "—" if x is None else f"{x:,.0f}"


def print_table(result: dict[str, Any], console: Console | None = None) -> None:
    """The throughput table and, when measured, the compile-time table."""
    console = console or Console()
    p = result["parameters"]
    m = result["machine"]
    one = p["repeats"] == 1
    table = Table(
        title=(
            f"Throughput, random legal actions ({p['seconds']:g} s per row, one repeat: figures are noisy)"
            if one
            else f"Throughput, random legal actions (median of {p['repeats']} × {p['seconds']:g} s)"
        ),
        caption=(
            f"{m['cpu_count']} CPUs ({m['cpu_model']}), Python {m['python']}, numba {m['numba']} "
            f"({m.get('numba_threading_layer') or '?'} layer), kernel batch size {p['batch_size']}"
            + (f", load average {m['loadavg_start'][0]:.2f} at start" if m.get("loadavg_start") else "")
            + ("" if one else "; range = (max - min) / median over repeats")
            + "; other load = most CPU cores other processes used during the row (noise warning)"
            + ("; options " + ", ".join(f"{k}={v}" for k, v in p["options"].items()) if p.get("options") else "")
        ),
    )
    table.add_column("env")
    table.add_column("row")
    table.add_column("threads", justify="right")
    table.add_column("steps/s", justify="right")
    if not one:
        table.add_column("range", justify="right")
    table.add_column("µs/step", justify="right")
    table.add_column("games/s", justify="right")
    table.add_column("steps/game", justify="right")
    table.add_column("vs connect_four", justify="right")
    table.add_column("other load", justify="right")
    previous = None
    for row in result["rows"]:
        first = row["env_id"] != previous
        if first and previous is not None:
            table.add_section()
        previous = row["env_id"]
        ratio = row["ratio_to_connect_four"]
        spread = [] if one else ["—" if row["spread"] is None else f"{row['spread'] * 100:.0f}%"]
        table.add_row(
            row["env_id"] if first else "",
            row["label"],
            str(row["threads"]),
            _fmt_rate(row["steps_per_s"]),
            *spread,
            "—" if row["us_per_step"] is None else f"{row['us_per_step']:.2f}",
            f"{row['games_per_s']:,.1f}",
            "—" if row["steps_per_game"] is None else f"{row['steps_per_game']:.1f}",
            "—" if ratio is None else f"{ratio:.2f}×",
            "—" if row["other_cpu_max"] is None else f"{row['other_cpu_max']:.2f}",
        )
    console.print(table)

    if result["compile"]:
        phases = ["import", "init_one", "refresh_one", "step_one", "observe_one"]
        phases += ["random_steps_batch_serial", "random_steps_batch"]
        ct = Table(
            title="Compile time (fresh interpreter; seconds)",
            caption="cold: empty NUMBA_CACHE_DIR, everything compiles; warm: loads the on-disk cache. "
            "total excludes interpreter start and the numpy/numba import",
        )
        ct.add_column("env")
        ct.add_column("cache")
        ct.add_column("total", justify="right")
        for name in phases:
            ct.add_column(name.replace("random_steps_", "rs_"), justify="right")
        ct.add_column("process wall", justify="right")
        for entry in result["compile"]:
            for which in ("cold", "warm"):
                probe = entry[which]
                if probe is None:
                    ct.add_row(entry["env_id"], which, "skipped", *([""] * (len(phases) + 1)))
                    continue
                ct.add_row(
                    entry["env_id"],
                    which,
                    f"{probe['total_s']:.2f}",
                    *(f"{probe['phases_s'][name]:.2f}" for name in phases),
                    f"{probe['subprocess_wall_s']:.2f}",
                )
        console.print(ct)
    for note in result["notes"]:
        console.print(f"[yellow]note:[/] {note}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="labyrinth bench",
        description="AEC, raw and kernel steps/s and compile times per env id, with connect_four_v3 as reference.",
    )
    parser.add_argument("--env", action="append", default=[], metavar="ID", help="env id (repeatable; default all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget per row and repeat (default 3)")
    parser.add_argument("--repeats", type=int, default=3, help="repeats per row, median reported (default 3)")
    parser.add_argument("--batch-size", type=int, default=256, help="games per kernel batch (default 256)")
    parser.add_argument("--quick", action="store_true", help="~1 s rows, one repeat, no cold compile (demo)")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-time probes")
    parser.add_argument(
        "--cold",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="measure the cold compile (default: unless --quick)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="an env option for every env (repeatable)"
    )
    # the default named from the source tree: argparse wraps help at hyphens, and an absolute
    # path (".../labyrinth-env/...") broke in two
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        metavar="OUT.json",
        help="JSON output (default: benchmarks/results/throughput.json in the source tree)",
    )
    args = parser.parse_args(argv)
    try:
        ids = check_env_ids(args.env)
        options = dict(option_assignment(text) for text in args.option)
        for env_id in ids:
            labyrinth_env.raw_env(env_id, **options)
    except ValueError as exc:
        parser.error(str(exc))
    if args.seconds <= 0 or args.repeats < 1 or args.batch_size < 1:
        parser.error("--seconds must be > 0, --repeats and --batch-size >= 1")
    console = Console()
    if not console.is_terminal:
        console = Console(width=160)  # piped or logged: rich would squeeze the tables into 80 columns
    result = run(
        ids,
        args.seconds,
        args.repeats,
        args.batch_size,
        args.quick,
        measure_compile=not args.no_compile,
        cold_compile=args.cold,
        seed=args.seed,
        console=console,
        options=options,
    )
    print_table(result, console)
    out = write_json(result, args.out)
    console.print(f"wrote {out}")


if __name__ == "__main__":
    main()
