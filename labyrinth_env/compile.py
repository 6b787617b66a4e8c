"""``labyrinth compile``: fill the kernel cache for several rulesets at once, one process per
ruleset, with a line per ruleset that counts its compiled functions as they come ("N of
about M", M from the last compile of the same ruleset, paths and sources) and says when it
is done, with that ruleset's own time.

The cache (``labyrinth_env.core.cache``) is keyed on the sources' contents, the numba
version and the CPU, so what this compiles serves every later process, every clone of the
same sources and every worker on this machine; nothing stale is ever loaded.

    labyrinth compile [--env ID ...] [--paths aec vector parallel heuristic determinize search ...] [--jobs N]
    labyrinth compile [--env ID ...] --export kernels.tar.gz   (compile, then pack them in one file)
    labyrinth compile --import kernels.tar.gz                   (on another machine: load, not compile)

An archive (``labyrinth_env.core.cache_archive``) holds the compiled kernels of the installed
sources for this Python, numba and CPU target; an import refuses, in one line, an archive
built for others or from other sources, or damaged.

``prepare(env_id, agents)`` is the same compile in the calling process, for what games with
those agents run: the commands call it before their first game.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue as queue_module
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

PATHS = ("aec", "vector", "parallel", "heuristic", "determinize", "search", "alphazero", "batch", "analyze")
PATH_HELP = {
    "aec": "the AEC env (make, reset, step, observe)",
    "vector": "the vector env's serial loops (reset, step; random and heuristic opponents)",
    "parallel": "the vector env's parallel loops (prange: from 32 games up, with more than one numba thread)",
    "heuristic": "the heuristic agent",
    "determinize": "a seat's forward model (the view tournaments and evaluations give search agents)",
    "search": "the MCTS agent",
    "alphazero": "the learned agent's network and search, and the self-play learner's games (needs torch)",
    "batch": "the benchmark's in-kernel loops (random_steps, serial and prange)",
    "analyze": "the game card's recorded play and hidden-information count (labyrinth analyze)",
}


def warm(env_id: str, paths: Sequence[str], report: Any = None) -> None:
    """Compile (or load) ``paths`` of ``env_id`` in this process. ``report(functions)`` is
    called after every finished compile."""
    import numpy as np
    from numba.core import event

    import labyrinth_env

    class Counter(event.Listener):
        functions = 0

        def on_start(self, ev: Any) -> None:
            pass

        def on_end(self, ev: Any) -> None:
            Counter.functions += 1
            if report is not None:
                report(Counter.functions)

    listener = Counter()
    event.register("numba:compile", listener)
    try:
        spec = labyrinth_env.get_spec(env_id)
        env = labyrinth_env.make(env_id)
        env.reset(seed=0)  # every path starts from a game: compiles every AEC entry point at once
        obs = env.observe(env.agent_selection)
        if "heuristic" in paths and spec.heuristic_module is not None:
            from labyrinth_env.agents import make_agent

            make_agent("heuristic").act(obs, env)
        if "determinize" in paths:
            env.unwrapped.seat_view()
        if "search" in paths:
            from labyrinth_env.agents import make_agent

            make_agent("mcts:simulations=2,rollout_steps=4", 0).act(obs, env)
        if "alphazero" in paths:
            _warm_alphazero(spec, env.unwrapped)
        # the parallel loops cost about twice the serial ones' compile time (a third of a
        # ruleset's), and only batches of PARALLEL_MIN_ENVS games and more run them: a path
        # of their own
        loops = [p for p, name in ((False, "vector"), (True, "parallel")) if name in paths]
        if loops:
            from labyrinth_env.vector import VectorEnv

            for opponents in ("random", "heuristic") if spec.heuristic_module else ("random",):
                for parallel in loops:
                    vec = VectorEnv(env_id, 1, seed=0, opponents=opponents, parallel=parallel)
                    vec.reset()
                    vec.step(np.argmax(vec.action_masks(), axis=1))
        if "batch" in paths:
            from labyrinth_env.benchmarks._probe import make_batch

            states, masks, rngs, done = make_batch(spec, env.options_vector(), 2, 0)
            spec.loops.random_steps_batch_serial(states, masks, rngs, 1, done)
            spec.loops.random_steps_batch(states, masks, rngs, 1, done)
        if "analyze" in paths:
            from labyrinth_env import analyze
            from labyrinth_env.core.contract import NO_SEAT

            agents = ["heuristic", "random"] if spec.heuristic_module else ["random"]
            analyze.analyze(env_id, players=spec.players[0], agents=agents, games=1)
            env.reset(seed=0)
            unseen = np.zeros(2)
            analyze._bound(spec).unseen_one(env.unwrapped._states, NO_SEAT, unseen)
            spec.kernel.determinize(env.unwrapped._states.copy()[0], 0, np.uint64(0))
    finally:
        event.unregister("numba:compile", listener)


# what games with an agent run besides the env itself (agent name -> compile paths)
AGENT_PATHS = {
    "heuristic": ("heuristic",),
    "mcts": ("determinize", "search"),
    "learned": ("determinize", "alphazero"),
}


def agent_paths(agent_specs: Sequence[str]) -> list[str]:
    """The compile paths games with these agents run (``AGENT_PATHS``), the AEC env's first."""
    paths = ["aec"]
    for spec in agent_specs:
        for path in AGENT_PATHS.get(spec.split(":")[0].strip(), ()):
            if path not in paths:
                paths.append(path)
    return paths


def prepare(env_id: str, agent_specs: Sequence[str]) -> None:
    """Compile (or load) in this process, before the first game, what games of ``env_id``
    with these agents run: the commands call it so that no compile stops a game in the
    middle (each compile that takes a while is announced on stderr as it happens). The
    kernels go to the cache, which worker processes on this machine then load."""
    warm(env_id, agent_paths(agent_specs))


def _warm_alphazero(spec: Any, raw: Any) -> None:
    """The learned agent's network and search and the self-play learner's games and
    matches (``agents/alphazero_template.py`` bound to the ruleset), on a tiny network and
    a game cut short: the same argument types as theirs, so the same compiled code."""
    import importlib.util

    import numpy as np

    if importlib.util.find_spec("torch") is None:  # the network's weights come from torch
        return
    from labyrinth_env.agents import alphazero_net as N
    from labyrinth_env.agents import alphazero_template
    from labyrinth_env.core.templates import bind

    K, m = spec.kernel, bind(alphazero_template, spec)
    net = N.init_weights(K.OBS_SIZE, K.NUM_ACTIONS, K.NUM_SEATS, (4, 4), 0)
    params = np.zeros(m.NUM_PARAMS, dtype=np.float64)
    params[m.P_SIMULATIONS], params[m.P_C], params[m.P_MAX_DECISIONS] = 2, 1.5, 4
    params[m.P_TARGET] = m.TARGET_COMPLETED_Q
    options, seeds, rows = raw.options_vector(), np.zeros(1, dtype=np.uint64), 8
    returns = np.zeros((1, K.NUM_SEATS), dtype=np.float64)
    m.selfplay(
        seeds,
        options,
        net,
        params,
        np.zeros((rows, K.OBS_SIZE), dtype=np.float32),
        np.zeros((rows, K.NUM_ACTIONS, N.NUM_FEATURES), dtype=np.float32),
        np.zeros((rows, K.NUM_ACTIONS), dtype=np.uint8),
        np.zeros((rows, K.NUM_ACTIONS), dtype=np.float32),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros((rows, K.NUM_SEATS), dtype=np.float32),
        returns,
    )
    m.play_match(seeds, options, net, params, np.zeros(1, dtype=np.int64), m.OPPONENT_RANDOM, returns)
    view = raw.seat_view()
    visits = np.zeros(K.NUM_ACTIONS, dtype=np.int64)
    improved = np.zeros(K.NUM_ACTIONS, dtype=np.float32)
    features = np.zeros((K.NUM_ACTIONS, N.NUM_FEATURES), dtype=np.float32)
    m.search(view.model.position(), view.model.seat, np.uint64(0), net, params, visits, improved, features)
    m.net_action_one(view.model.position(), view.model.seat, net, np.uint64(0))
    # a PPO network's search (learned:simulations=N on an exported policy)
    from labyrinth_env.agents import policy_net
    from labyrinth_env.core.batch_template import LOOKAHEAD_FEATURES

    layout = {"base_size": K.OBS_SIZE, "features": LOOKAHEAD_FEATURES, "kinds": [0] * K.NUM_ACTIONS}
    policy = policy_net.search_arrays(*policy_net.blank_policy(layout))
    m.policy_search(view.model.position(), view.model.seat, np.uint64(0), policy, params, visits, improved, features)


def _child(spec: Any, paths: Sequence[str], messages: Any) -> None:
    import labyrinth_env

    os.environ["LABYRINTH_PROGRESS"] = "0"  # the parent shows progress
    env_id = labyrinth_env.register_ruleset(spec).env_id  # a ruleset of one's own reaches the child so
    started = time.perf_counter()
    last = [0.0]
    total = [0]

    def report(functions: int) -> None:
        total[0] = functions
        now = time.perf_counter()
        if now - last[0] > 0.5:
            last[0] = now
            messages.put((env_id, "count", functions))

    try:
        warm(env_id, paths, report)
    except Exception as exc:  # the parent reports it, names the ruleset, exits non-zero
        messages.put((env_id, "error", f"{type(exc).__name__}: {exc}"))
        return
    messages.put((env_id, "done", (time.perf_counter() - started, total[0])))


COUNTS_FILE = "compile_counts.json"  # in the cache root: functions per ruleset, paths and sources


def _counts_key(spec: Any, paths: Sequence[str]) -> str:
    """A ruleset's paths and the sources they compile (its kernel, its heuristic, the
    templates bound to it): the same key means the same functions to compile."""
    import hashlib

    from labyrinth_env.core.cache import closure_stamp
    from labyrinth_env.core.templates import TEMPLATES

    modules = [spec.kernel.__name__, *sorted(set(TEMPLATES.values()))]
    if spec.heuristic is not None:
        modules.append(spec.heuristic.__name__)
    digest = hashlib.sha256("".join(closure_stamp(m) for m in modules).encode()).hexdigest()[:20]
    return f"{spec.env_id} {','.join(sorted(paths))} {digest}"


def _read_counts() -> dict[str, int]:
    import json

    from labyrinth_env.core.cache import cache_root

    try:
        counts = json.loads((cache_root() / COUNTS_FILE).read_text())
    except (OSError, ValueError):
        return {}
    return counts if isinstance(counts, dict) else {}


def _write_counts(counts: dict[str, int]) -> None:
    import json

    from labyrinth_env.core.cache import cache_root

    path = cache_root() / COUNTS_FILE
    try:
        tmp = path.with_name(f"{COUNTS_FILE}.{os.getpid()}")
        tmp.write_text(json.dumps(counts, indent=1, sort_keys=True))
        os.replace(tmp, path)
    except OSError:  # a read-only cache: the next compile counts without an estimate
        pass


def compile_rulesets(
    env_ids: Sequence[str],
    paths: Sequence[str] | Mapping[str, Sequence[str]] = PATHS,
    jobs: int | None = None,
    progress: bool = True,
) -> dict[str, float]:
    """Fill the cache for ``env_ids`` in ``jobs`` processes (spawned, one ruleset each);
    ``paths`` for all of them, or per env id. Returns each ruleset's seconds (compiling, or
    loading what the cache already holds). ``RuntimeError`` names a ruleset that failed."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    import labyrinth_env
    from labyrinth_env.core.sentences import plural
    from labyrinth_env.progress import PLAIN_EVERY_S

    jobs = max(1, min(jobs or os.cpu_count() or 1, len(env_ids)))
    context = multiprocessing.get_context("spawn")  # numba's thread pool breaks fork
    messages = context.Queue()
    waiting = list(env_ids)
    running: dict[str, Any] = {}
    exiting: list[Any] = []  # children that sent their result and are shutting down
    seconds: dict[str, float] = {}
    errors: dict[str, str] = {}
    known = _read_counts()  # functions each ruleset's paths compiled last time from these sources
    keys: dict[str, str] = {}
    columns = (TextColumn("{task.description}"), BarColumn(bar_width=20), TimeElapsedColumn())
    console = Console()
    # Away from a terminal (a CI log, a pipe) the bar would show only when all is done, each
    # ruleset's last line again: plain lines instead, a line per ruleset every PLAIN_EVERY_S
    # (as the envs' own compiles).
    plain = progress and not console.is_terminal
    with Progress(*columns, console=console, disable=not progress or plain, transient=False) as bar:
        said: dict[str, float] = {}
        counts: dict[str, int] = {}
        began: dict[str, float] = {}

        def show(env_id: str, text: str, count: bool = False, final: bool = False) -> None:
            bar.update(tasks[env_id], description=f"{env_id}: {text}")
            if plain and (not count or time.perf_counter() - said.get(env_id, 0.0) >= PLAIN_EVERY_S):
                said[env_id] = time.perf_counter()
                clock = "" if final else f" ({time.perf_counter() - began[env_id]:.0f} s)"
                print(f"{env_id}: {text}{clock}", flush=True)

        def functions(env_id: str) -> str:
            done = counts.get(env_id, 0)
            expected = known.get(keys[env_id], 0)
            return f"{done} of about {max(done, expected)} functions" if expected else plural(done, "function")

        tasks = {e: bar.add_task(f"{e}: waiting", total=None, start=False) for e in env_ids}
        saved = os.environ.get("NUMBA_NUM_THREADS")
        os.environ["NUMBA_NUM_THREADS"] = "1"  # in the children: compiling needs no thread pool
        try:
            while waiting or running:
                exiting = [proc for proc in exiting if proc.is_alive()]
                for env_id in running:  # a long compile (a prange loop) sends no count for a while
                    show(env_id, f"compiling, {functions(env_id)}", count=True)
                while waiting and len(running) < jobs:
                    env_id = waiting.pop(0)
                    spec = labyrinth_env.get_spec(env_id)
                    mine = tuple(paths[env_id]) if isinstance(paths, Mapping) else tuple(paths)
                    keys[env_id] = _counts_key(spec, mine)
                    proc = context.Process(target=_child, args=(spec, mine, messages), daemon=True)
                    proc.start()
                    running[env_id] = proc
                    began[env_id] = time.perf_counter()
                    bar.start_task(tasks[env_id])  # its clock: this ruleset's time, not the command's
                    show(env_id, "compiling")
                try:
                    env_id, kind, value = messages.get(timeout=0.5)
                except queue_module.Empty:
                    for env_id, proc in list(running.items()):
                        if not proc.is_alive() and env_id not in seconds and env_id not in errors:
                            errors[env_id] = f"the compile process exited with code {proc.exitcode}"
                            running.pop(env_id)
                    continue
                if kind == "count":
                    counts[env_id] = value
                    show(env_id, f"compiling, {functions(env_id)}", count=True)
                elif kind == "done":
                    compiled = value[1]
                    seconds[env_id] = time.perf_counter() - began[env_id]  # its process's start included
                    # said now: the child may take seconds more to exit (numba and LLVM
                    # tear down), which nobody needs to wait for
                    exiting.append(running.pop(env_id))
                    if compiled:
                        show(
                            env_id, f"compiled in {seconds[env_id]:.0f} s ({plural(compiled, 'function')})", final=True
                        )
                    else:
                        show(env_id, f"ready in {seconds[env_id]:.0f} s (all loaded from the cache)", final=True)
                    bar.stop_task(tasks[env_id])
                    bar.update(tasks[env_id], total=1, completed=1)
                    if compiled > known.get(keys[env_id], 0):
                        known[keys[env_id]] = compiled
                        _write_counts({**_read_counts(), keys[env_id]: compiled})
                else:
                    errors[env_id] = value
                    exiting.append(running.pop(env_id))
                    show(env_id, "FAILED", final=True)
                    bar.stop_task(tasks[env_id])
                    bar.update(tasks[env_id], total=1, completed=1)
            for proc in exiting:
                proc.join(timeout=60)
        finally:
            if saved is None:
                os.environ.pop("NUMBA_NUM_THREADS", None)
            else:
                os.environ["NUMBA_NUM_THREADS"] = saved
            for proc in running.values():
                proc.terminate()
    if errors:
        raise RuntimeError("; ".join(f"{e}: {msg}" for e, msg in errors.items()))
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    import labyrinth_env
    from labyrinth_env.core.cache import cache_root

    # the docstring's reST markup is for readers of the source, not of --help
    parser = argparse.ArgumentParser(prog="labyrinth compile", description=__doc__.split("\n\n")[0].replace("``", ""))
    parser.add_argument("--env", action="append", metavar="ID", help="env id (repeatable; default every ruleset)")
    parser.add_argument(
        "--paths",
        nargs="+",
        default=None,
        choices=PATHS,
        help="default: all; " + "; ".join(f"{k}: {v}" for k, v in PATH_HELP.items()),
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes at once (default: CPUs)")
    archive = parser.add_mutually_exclusive_group()
    archive.add_argument(
        "--export",
        type=Path,
        metavar="FILE",
        help="after compiling, write the compiled kernels of these rulesets to FILE (a .tar.gz)",
    )
    archive.add_argument(
        "--import",
        dest="import_",
        type=Path,
        metavar="FILE",
        help="unpack an archive written by --export into the kernel cache instead of compiling",
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be >= 1, got {args.jobs}")
    known = labyrinth_env.list_envs()
    for env_id in args.env or []:
        if env_id not in known:
            parser.error(f"unknown env id {env_id!r}; available: {', '.join(known)}")
    if args.import_ is not None:
        if args.env or args.paths:
            parser.error("--import takes no --env or --paths: it unpacks whatever the archive holds")
        return _import(args.import_)
    if args.export is not None and args.export.is_dir():
        parser.error(f"--export {args.export}: that is a folder; give the archive's file name (kernels.tar.gz)")
    env_ids = args.env or known
    started = time.perf_counter()
    try:
        seconds = compile_rulesets(env_ids, args.paths or PATHS, args.jobs)
    except RuntimeError as exc:  # a ruleset failed to compile: its error in one line, not a traceback
        print(f"labyrinth compile: {exc}", file=sys.stderr)
        return 1
    each = ", ".join(f"{e} {seconds[e]:.0f} s" for e in env_ids)
    print(f"{len(env_ids)} rulesets ready in {time.perf_counter() - started:.0f} s ({each}); cache: {cache_root()}")
    if args.export is not None:
        return _export(args.export, env_ids)
    return 0


def _export(out: Path, env_ids: Sequence[str]) -> int:
    import labyrinth_env
    from labyrinth_env.core.cache_archive import ArchiveError, export_archive

    try:
        manifest = export_archive(out, [labyrinth_env.get_spec(e).package for e in env_ids])
    except (ArchiveError, OSError) as exc:
        print(f"labyrinth compile: cannot export to {out}: {exc}", file=sys.stderr)
        return 2
    size = out.stat().st_size / 1e6
    cpu = manifest["target"]["cpu_name"]
    print(
        f"wrote {out} ({size:.0f} MB, {len(manifest['files'])} files of {len(manifest['modules'])} modules, "
        f"for CPU target {cpu}); on another machine: labyrinth compile --import {out.name}"
    )
    return 0


def _import(archive: Path) -> int:
    from labyrinth_env.core.cache import cache_root
    from labyrinth_env.core.cache_archive import ArchiveError, import_archive

    started = time.perf_counter()
    try:
        manifest = import_archive(archive)
    except ArchiveError as exc:  # refused: nothing was written
        print(f"labyrinth compile: cannot import {archive}: {exc}", file=sys.stderr)
        return 2
    print(
        f"imported {len(manifest['files'])} files of {len(manifest['modules'])} modules into {cache_root()} "
        f"in {time.perf_counter() - started:.0f} s: these kernels now load instead of compiling"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
