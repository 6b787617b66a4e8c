"""Where the first run's time goes: compile seconds per ruleset and entry path, from an
empty kernel cache, and the functions that take them.

Every (ruleset, path) runs in a fresh interpreter with an empty cache folder
(``LABYRINTH_CACHE_DIR``), so each figure is what a new user of that path pays alone;
``all`` is one process that takes every path in turn (what the demo pays), and ``warm``
reruns ``all`` over the cache it left (what every later process pays).

Paths: ``aec`` (``make``, ``reset``, the first ``step`` and ``observe``), ``vector``
(``VectorEnv`` of 4 games: ``reset`` and a ``step``), ``heuristic`` (the heuristic agent's
first move), ``mcts`` (the search agent's first move, 8 simulations).

For each run the numba compile events name the functions compiled, with their own time
(``self``: the function's typing, lowering and optimisation, without the functions it
compiled on the way); the table lists the heaviest per ruleset.

With ``--archive FILE`` (an archive from ``labyrinth compile --export``) it measures what a
fresh clone pays instead: the archive imported into an empty cache folder, then each
ruleset's first ``make``, ``reset``, ``observe`` and ``step`` in a fresh interpreter (issue
36: at most 3 s each) and ``labyrinth demo`` on that cache (at most 60 s). Run it from the
clone, so that every process runs the clone's sources.

    labyrinth compile-time [--env ID ...] [--paths aec vector heuristic mcts all warm] [--out FILE]
    labyrinth compile-time --archive kernels.tar.gz [--env ID ...] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PATHS = ("aec", "vector", "heuristic", "mcts", "all", "warm")
DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "compile_time.json"
IMPORTED_OUT = Path(__file__).resolve().parent / "results" / "compile_time_imported.json"
TIMEOUT_S = 1800


# --- the child: one path in this fresh process ---------------------------------------------
def _play_path(env_id: str, path: str, phases: dict[str, float]) -> None:
    import numpy as np

    import labyrinth_env

    def timed(name: str, fn: Any, *args: Any) -> Any:
        t0 = time.perf_counter()
        out = fn(*args)
        phases[name] = phases.get(name, 0.0) + time.perf_counter() - t0
        return out

    if path in ("aec", "heuristic", "mcts"):
        env = timed("make", labyrinth_env.make, env_id)
        timed("reset", env.reset, 0)
        obs = timed("observe", env.observe, env.agent_selection)
        if path == "aec":
            timed("step", env.step, int(np.flatnonzero(obs["action_mask"])[0]))
            return
        from labyrinth_env.agents import make_agent

        agent = make_agent("heuristic" if path == "heuristic" else "mcts:simulations=8", 0)
        action = timed(f"{path} act", agent.act, obs, env)
        timed("step", env.step, int(action))
    elif path == "vector":
        from labyrinth_env.vector import VectorEnv

        learner = "all" if labyrinth_env.get_spec(env_id).cooperative else "rotate"
        vec = timed("make", lambda: VectorEnv(env_id, 4, learner_seats=learner, seed=1))
        timed("reset", vec.reset)
        timed("step", vec.step, np.argmax(vec.action_masks(), axis=1))


def child(env_id: str, path: str) -> dict[str, Any]:
    t_start = time.perf_counter()
    import numba
    from numba.core import event

    base_import = time.perf_counter() - t_start
    phases: dict[str, float] = {}
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    with event.install_recorder("numba:compile") as recorder:
        import labyrinth_env  # noqa: F401 (timed: the package's own import)

        phases["import"] = time.perf_counter() - t0
        for p in ("aec", "vector", "heuristic", "mcts") if path in ("all", "warm") else (path,):
            _play_path(env_id, p, phases)
    total = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    inclusive: dict[str, float] = defaultdict(float)
    own: dict[str, float] = defaultdict(float)
    stack: list[list[Any]] = []
    count = 0
    for stamp, ev in recorder.buffer:
        dispatcher = ev.data["dispatcher"]
        name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
        if ev.is_start:
            stack.append([name, stamp, 0.0])
        else:
            name, started, children = stack.pop()
            took = stamp - started
            inclusive[name] += took
            own[name] += took - children
            count += 1
            if stack:
                stack[-1][2] += took
    return {
        "env_id": env_id,
        "path": path,
        "total_s": total,
        "cpu_s": cpu,  # what the process itself used: steadier than wall time on a busy machine
        "numpy_numba_import_s": base_import,
        "compile_s": sum(own.values()),
        "compiles": count,
        "phases_s": phases,
        "functions": sorted(
            ({"name": n, "self_s": own[n], "inclusive_s": inclusive[n]} for n in own), key=lambda r: -r["self_s"]
        ),
        "numba_opt": numba.config.OPT,
    }


# --- the parent: fresh processes, a table ---------------------------------------------------------
def run_child(env_id: str, path: str, cache: str, show_stderr: bool = False) -> dict[str, Any]:
    """One measured run in a fresh interpreter. ``show_stderr`` passes the child's own
    compile progress (a line every few seconds off a terminal) through, so that a log
    never stays silent for a whole compile; otherwise its stderr is kept for the error."""
    env = {**os.environ, "LABYRINTH_CACHE_DIR": cache, "NUMBA_NUM_THREADS": os.environ.get("NUMBA_NUM_THREADS", "2")}
    env.pop("NUMBA_CACHE_DIR", None)
    root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    t0 = time.perf_counter()
    # this file as a script, not ``-m labyrinth_env.benchmarks...``: that would import the
    # package before the child times its import
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", env_id, path],
        env=env,
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=None if show_stderr else subprocess.PIPE,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    if proc.returncode != 0:
        tail = "(its output is above)" if show_stderr else "\n".join(proc.stderr.strip().splitlines()[-12:])
        raise RuntimeError(f"compile-time run {env_id}/{path} failed (exit {proc.returncode}):\n{tail}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["process_s"] = time.perf_counter() - t0
    return result


def measure(env_ids: list[str], paths: list[str], progress: bool = True) -> dict[str, Any]:
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    runs: list[dict[str, Any]] = []
    # rich draws a live bar only on a terminal; elsewhere (CI logs, files) it would print
    # nothing until the end, so there each run says when it starts and the child's own
    # progress lines pass through
    terminal = progress and sys.stderr.isatty()
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"))
    with (
        tempfile.TemporaryDirectory(prefix="labyrinth-compile-") as tmp,
        Progress(*columns, TimeElapsedColumn(), disable=not terminal, transient=False) as bar,
    ):
        task = bar.add_task("compile-time runs", total=len(env_ids) * len(paths))
        for env_id in env_ids:
            for path in paths:
                # each path its own empty cache; "warm" reuses what "all" left
                cache = os.path.join(tmp, env_id, "all" if path == "warm" else path)
                what = "loading the cache" if path == "warm" else "compiling, empty cache"
                bar.update(task, description=f"{env_id}: {path} ({what})")
                if progress and not terminal:
                    print(
                        f"compile-time run {len(runs) + 1}/{bar.tasks[0].total}: {env_id} {path} ({what})",
                        file=sys.stderr,
                        flush=True,
                    )
                runs.append(run_child(env_id, path, cache, show_stderr=progress and not terminal))
                bar.advance(task)
    return {"runs": runs, "meta": {"python": sys.version.split()[0], "cpus": os.cpu_count(), "when": time.ctime()}}


def _command(argv: list[str], cache: str, out: Path) -> float:
    """Seconds of ``labyrinth ARGV`` in a fresh interpreter on the kernel cache ``cache``
    (its output to ``out``); a failure raises with the output's last lines."""
    env = {**os.environ, "LABYRINTH_CACHE_DIR": cache}
    env.pop("NUMBA_CACHE_DIR", None)
    root = str(Path(__file__).resolve().parents[1])
    t0 = time.perf_counter()
    with out.open("w") as log:
        proc = subprocess.run(
            [sys.executable, "-m", "labyrinth_env.cli", *argv],
            env=env,
            cwd=root,
            stdout=log,
            stderr=subprocess.STDOUT,
            timeout=TIMEOUT_S,
            check=False,
        )
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        tail = "\n".join(out.read_text().strip().splitlines()[-12:])
        raise RuntimeError(f"labyrinth {' '.join(argv)} failed (exit {proc.returncode}):\n{tail}")
    return seconds


def measure_imported(archive: Path, env_ids: list[str], demo: bool = True) -> dict[str, Any]:
    """A fresh clone's first use with an imported archive: the import, then each ruleset's
    AEC path in a fresh interpreter, then ``labyrinth demo`` (its output kept in the result)."""
    with tempfile.TemporaryDirectory(prefix="labyrinth-imported-") as tmp:
        cache = os.path.join(tmp, "cache")
        print(f"importing {archive} into an empty cache folder...", file=sys.stderr, flush=True)
        import_s = _command(["compile", "--import", str(archive.resolve())], cache, Path(tmp, "import.txt"))
        runs = []
        for env_id in env_ids:
            print(f"{env_id}: first make, reset, observe, step...", file=sys.stderr, flush=True)
            runs.append(run_child(env_id, "aec", cache))
        demo_s, demo_out = None, ""
        if demo:
            print("labyrinth demo...", file=sys.stderr, flush=True)
            demo_s = _command(["demo", "--out", os.path.join(tmp, "demo")], cache, Path(tmp, "demo.txt"))
            demo_out = Path(tmp, "demo.txt").read_text()
    meta = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "when": time.ctime(), "archive": str(archive)}
    return {"runs": runs, "import_s": import_s, "demo_s": demo_s, "demo_output": demo_out, "meta": meta}


def print_imported(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"with an imported archive (imported in {result['import_s']:.1f} s): a fresh interpreter each")
    for col in ("env", "import labyrinth_env s", "first make, reset, observe, step s", "compiles", "process s"):
        table.add_column(col, justify="left" if col == "env" else "right")
    for r in result["runs"]:
        phases = r["phases_s"]
        first = sum(phases.get(k, 0.0) for k in ("make", "reset", "observe", "step"))
        table.add_row(
            r["env_id"],
            f"{phases['import']:.1f}",
            f"{first:.1f}",
            str(r["compiles"]),
            f"{r['process_s']:.1f}",
        )
    console = Console(width=max(Console().width, 120))
    console.print(table)
    if result["demo_s"] is not None:
        console.print(f"labyrinth demo on that cache: {result['demo_s']:.0f} s (interpreter start included)")


def print_tables(result: dict[str, Any], top: int = 6) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(Console().width, 120))
    runs = result["runs"]
    paths = [p for p in PATHS if any(r["path"] == p for r in runs)]
    table = Table(
        title="first-run seconds per path, wall (CPU): a fresh process with an empty cache; warm: the cache loaded"
    )
    table.add_column("env")
    for p in paths:
        table.add_column(p, justify="right")
    for env_id in dict.fromkeys(r["env_id"] for r in runs):
        cells = []
        for p in paths:
            r = next((r for r in runs if r["env_id"] == env_id and r["path"] == p), None)
            cells.append("" if r is None else f"{r['total_s']:.1f} ({r['cpu_s']:.1f})")
        table.add_row(env_id, *cells)
    console.print(table)
    heavy = Table(title=f"heaviest compiles (self seconds) in each ruleset's 'all' run, top {top}")
    for col in ("env", "function", "self s", "with callees s"):
        heavy.add_column(col, justify="right" if col.endswith(" s") else "left")
    for r in runs:
        if r["path"] != "all":
            continue
        for f in r["functions"][:top]:
            heavy.add_row(
                r["env_id"], f["name"].removeprefix("labyrinth_env."), f"{f['self_s']:.1f}", f"{f['inclusive_s']:.1f}"
            )
    if heavy.row_count:
        console.print(heavy)


def main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--child"]:
        print(json.dumps(child(args_in[1], args_in[2])))
        return 0
    parser = argparse.ArgumentParser(prog="labyrinth compile-time", description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", metavar="ID", help="env id (repeatable; default all)")
    parser.add_argument("--paths", nargs="+", default=None, choices=PATHS, help="paths to measure (default all)")
    parser.add_argument(
        "--archive",
        type=Path,
        metavar="FILE",
        help="measure a fresh clone with this archive (labyrinth compile --export) imported: "
        "each ruleset's first make/reset/observe/step and labyrinth demo",
    )
    parser.add_argument("--no-demo", action="store_true", help="with --archive: leave out labyrinth demo")
    parser.add_argument(
        "--out", type=Path, default=None, help=f"JSON output (default {DEFAULT_OUT}, or {IMPORTED_OUT})"
    )
    args = parser.parse_args(args_in)
    import labyrinth_env

    env_ids = args.env or labyrinth_env.list_envs()
    unknown = [e for e in env_ids if e not in labyrinth_env.list_envs()]
    if unknown:
        parser.error(f"unknown env id {unknown[0]!r}; available: {', '.join(labyrinth_env.list_envs())}")
    if args.archive is not None:
        if args.paths is not None:
            parser.error("--archive measures the AEC path and the demo: drop --paths")
        if not args.archive.is_file():
            parser.error(f"--archive {args.archive}: no such file (write one with labyrinth compile --export FILE)")
        imported = measure_imported(args.archive, env_ids, demo=not args.no_demo)
        print_imported(imported)
        out = args.out or IMPORTED_OUT
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(imported, indent=1))
        print(f"wrote {out}")
        return 0
    if args.no_demo:
        parser.error("--no-demo goes with --archive")
    args.paths = args.paths or list(PATHS)
    args.out = args.out or DEFAULT_OUT
    paths = list(args.paths)
    if "warm" in paths and "all" not in paths:
        parser.error("--paths warm loads the cache that 'all' leaves: add all")
    result = measure(env_ids, paths)
    print_tables(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
