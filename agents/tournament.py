"""Tournaments between agents with balanced seatings, resumable JSON-lines results and a
statistics report (win rates with Wilson intervals, per seat, lengths, OpenSkill and Elo
ratings, head-to-head).

    labyrinth tournament --env paths_of_destiny_3e_v3 --players 4 --agents random,heuristic \\
        --games 2000 --workers 2 --seed 0 --out results/tournament/pod3e_4p
    labyrinth tournament --config configs/tournament/pod3e_4p.yaml [--games 100 ...]
    labyrinth tournament --config ... --backend ray [--address auto]

Ray: without ``--address`` a run starts a Ray of its own, on loopback only (``LOOPBACK_ENV``),
whose processes a reaper ends if the driver dies; with ``--address`` it joins that cluster.

Seatings: game ``i`` plays arrangement ``i mod cycle`` of ``Schedule`` (every agent sits
in every seat equally often over a cycle; with more agents than seats every subset plays,
with fewer some agents take two seats, each in turn). In a cooperative ruleset
(team_edition_v2) a game is one agent in all seats, the agents taking turns.

Seeds: game ``i``'s env seed and its agents' seeds come from (tournament seed, i) alone
(``game_seeds``), and every agent is reseeded with its seed before the game, so a result
does not depend on which worker or backend played the game, nor when.

What agents see: each decision is asked with ``act(observation, view)``, ``view`` the
acting seat's ``SeatView`` (its observation and mask, the public log, and a forward model
that samples the hidden part for the seat; ``labyrinth_env.seat_view``), never the env, so
a tournament cannot be won by reading deck orders, other hands or the dice to come.

Results: ``OUT/games.jsonl``, one game a line, each a complete replay (env id, options,
seed, actions, log digest) plus the seating, agent seeds, returns, winner, length and
outcome; a finished run leaves the file in game-index order. A rerun with the same
``--out`` reads the file, skips the games already there (a truncated last line is
dropped) and plays the rest; games of another tournament in the file are refused.
``OUT/report.{json,md,png}`` hold the statistics (``--report-only`` rebuilds them).

Integrity: whenever the file is read back (a resumed run, ``--report-only``,
``read_results``) every record is checked field by field (a wrong type, a missing key or a
value out of range is named with its file, line and field), its seeds and seating against
the tournament's (they follow from the tournament seed and the game index), and its game is
*replayed* in the kernel from its env id, options, seed and actions: a record whose replay
does not give its log digest, outcome, winner, returns, length and turns is refused, naming
the game and the field. The replay is what makes results trustworthy: ``record_sha256``,
an unkeyed digest of the record's content, only catches damage (a cut or garbled line),
since whoever edits a record can recompute it. A replay proves that the recorded results
follow from the recorded actions, not that the seated agents chose those actions (only
playing the game again with the same agents and seeds shows that). A record that fails
any check, or a game written twice (two runs into one folder), is named by line, and
``--repair`` drops such lines (keeping the first good record of a game) so that the run
plays those games again. One run at a time holds ``OUT/.lock``; a second one into the same folder stops at once. A
worker process that dies (killed, out of memory) loses no game: its batches are played
again in a fresh pool, and after ``MAX_POOL_RESTARTS`` deaths the run stops with an
error (the results so far stay, and a rerun resumes).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import hashlib
import itertools
import json
import math
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import labyrinth_env
from labyrinth_env.agents import describe_agents, make_agent, split_agent_specs
from labyrinth_env.agents.evaluate import play_game
from labyrinth_env.agents.ratings import plot_report, print_report, report_markdown, tournament_report
from labyrinth_env.compile import prepare
from labyrinth_env.core.cache import worker_env
from labyrinth_env.core.rng import derive_seed, python_seed, seed_state, splitmix64
from labyrinth_env.options import option_assignment, options_dict
from labyrinth_env.registry import player_range
from labyrinth_env.spec import RulesetSpec

BACKENDS = ("local", "ray")
RESULTS = "games.jsonl"
# Environment of worker processes: numba reads it at import, so it must be set before.
WORKER_ENV = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
LOCK = ".lock"
DIGEST = "record_sha256"
MAX_POOL_RESTARTS = 3


# --- seeds and seatings ---------------------------------------------------------------------------
def game_seeds(seed: int, index: int, seats: int) -> tuple[int, list[int]]:
    """(env seed, one agent seed per seat) of game ``index`` of a tournament with ``seed``:
    successive draws of a generator seeded from both, so they depend on nothing else."""
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or index < 0:
        raise ValueError(f"game index must be an int >= 0, got {index!r}")
    mixed = splitmix64(np.uint64(python_seed(seed))) ^ np.uint64(index)
    rng = np.array([seed_state(mixed)], dtype=np.uint64)
    env_seed = int(derive_seed(rng))
    return env_seed, [int(derive_seed(rng)) for _ in range(seats)]


@dataclasses.dataclass(frozen=True)
class Schedule:
    """Which agent sits in which seat in each game.

    Competitive: the arrangements of one cycle are every seating of a group of agents in
    which the agents of the group have as equal shares of seats as possible (``seats``
    distinct agents when there are enough; otherwise each agent ``seats // k`` or one
    more), over every such group. The set is unchanged by renaming the agents, so over a
    cycle each agent plays equally often, in each seat equally often, and each pair meets
    equally often. Within a cycle the seatings go in blocks of ``seats`` rotations, so
    every block is balanced by seat on its own. Cooperative: agent ``i mod k`` plays all
    seats of game ``i``.
    """

    agents: tuple[str, ...]
    seats: int
    cooperative: bool = False

    def __post_init__(self) -> None:
        if not self.agents:
            raise ValueError("a tournament needs at least one agent spec")
        if len(set(self.agents)) != len(self.agents):
            raise ValueError(f"agent specs must be distinct, got {list(self.agents)}")
        if isinstance(self.seats, bool) or not isinstance(self.seats, int) or self.seats < 1:
            raise ValueError(f"seats must be an int >= 1, got {self.seats!r}")

    @functools.cached_property
    def _patterns(self) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        """(necklaces of seat labels, groups mapping labels to agent indices)."""
        k, n = len(self.agents), self.seats
        if k >= n:
            counts = [1] * n
            groups = list(itertools.combinations(range(k), n))
        else:
            base, extra = divmod(n, k)
            counts = [base + 1] * extra + [base] * (k - extra)
            groups = [
                chosen + tuple(a for a in range(k) if a not in chosen)
                for chosen in itertools.combinations(range(k), extra)
            ]
        pattern = [label for label, c in enumerate(counts) for _ in range(c)]
        # One representative per rotation class; the rotations come back in ``seating``.
        necklaces = sorted(p for p in set(itertools.permutations(pattern)) if p == min(p[r:] + p[:r] for r in range(n)))
        return necklaces, groups

    @property
    def cycle(self) -> int:
        """Games after which the seatings repeat (and are exactly balanced)."""
        if self.cooperative:
            return len(self.agents)
        necklaces, groups = self._patterns
        return len(necklaces) * len(groups) * self.seats

    def arrangement(self, index: int) -> int:
        return index % self.cycle

    def seating(self, index: int) -> list[str]:
        """The agent spec in each seat of game ``index``."""
        if self.cooperative:
            return [self.agents[index % len(self.agents)]] * self.seats
        necklaces, groups = self._patterns
        j = index % self.cycle
        rotation, rest = j % self.seats, j // self.seats
        group, necklace = groups[rest % len(groups)], necklaces[rest // len(groups)]
        return [self.agents[group[necklace[(p + rotation) % self.seats]]] for p in range(self.seats)]


# --- the tournament's definition ------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Tournament:
    """A checked tournament: everything a worker needs to play any game of it."""

    env_id: str
    ruleset: RulesetSpec  # travels with the work: a worker registers a ruleset of one's own itself
    options: dict[str, Any]  # as given (what make() takes)
    full_options: dict[str, Any]  # every option, as the replay records them
    agents: tuple[str, ...]
    seed: int
    cooperative: bool

    @property
    def players(self) -> int:
        return int(self.full_options["num_players"])

    @functools.cached_property
    def schedule(self) -> Schedule:
        return Schedule(self.agents, self.players, self.cooperative)

    def meta(self) -> dict[str, Any]:
        return {
            "env_id": self.env_id,
            "options": self.full_options,
            "seed": self.seed,
            "players": self.players,
            "cycle": self.schedule.cycle,
        }


def _check_int(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
    return int(value)


def _check_agent(env_id: str, options: Mapping[str, Any], spec: str) -> None:
    """Build the agent and let it choose the first action of a game, so a spec that
    cannot play this env fails before any game starts."""
    try:
        agent = make_agent(spec, 0)
        env = labyrinth_env.make(env_id, **options)
        env.reset(seed=0)
        agent.reset(0)
        observation = env.observe(env.agent_selection)
        action = agent.act(observation, env.unwrapped.seat_view(model=getattr(agent, "uses_model", True)))
    except (ValueError, RuntimeError, ImportError) as exc:
        raise ValueError(f"agent {spec!r} cannot play {env_id}: {exc}") from None
    if not observation["action_mask"][action]:
        raise ValueError(f"agent {spec!r} chose an illegal first action {action} in {env_id}")


def make_tournament(
    env_id: str, agents: Sequence[str] | str, seed: int = 0, options: Mapping[str, Any] | None = None
) -> Tournament:
    """Check everything about a tournament (env, options, agents, seed) without playing;
    ``ValueError`` says what is wrong and what is allowed. ``num_players`` defaults to the
    number of agents in a competitive ruleset (and to the env's default in a cooperative
    one)."""
    if env_id not in labyrinth_env.list_envs():
        raise ValueError(f"unknown env id {env_id!r}; available: {', '.join(labyrinth_env.list_envs())}")
    if isinstance(agents, str):
        agents = split_agent_specs(agents)
    if not isinstance(agents, Sequence) or not all(isinstance(a, str) for a in agents):
        raise ValueError(f"agents must be a list of agent spec strings, got {agents!r}")
    specs = tuple(a.strip() for a in agents)
    if not specs or any(not a for a in specs):
        raise ValueError(f"agents must be non-empty agent specs (e.g. random,heuristic), got {list(agents)!r}")
    seed = _check_int("seed", seed, 0)
    options = dict(options or {})
    cooperative = labyrinth_env.get_spec(env_id).cooperative
    if not cooperative and "num_players" not in options:
        lo, hi = player_range(env_id)
        if not lo <= len(specs) <= hi:
            raise ValueError(
                f"{len(specs)} agents but {env_id} seats {lo}-{hi} players: give num_players (--players) explicitly"
            )
        options["num_players"] = len(specs)
    env = labyrinth_env.raw_env(env_id, **options)
    full = options_dict(env.options)
    Schedule(specs, int(full["num_players"]), cooperative)  # distinct specs
    if not cooperative and len(specs) < 2:
        raise ValueError(f"a competitive tournament needs at least 2 agents, got {list(specs)}")
    for spec in specs:
        _check_agent(env_id, options, spec)
    return Tournament(env_id, labyrinth_env.get_spec(env_id), options, full, specs, seed, cooperative)


# --- playing --------------------------------------------------------------------------------------
_ENVS: dict[tuple[str, str], Any] = {}
_AGENTS: dict[str, list[Any]] = {}


def _env(t: Tournament) -> Any:
    key = (t.env_id, json.dumps(t.options, sort_keys=True))
    if key not in _ENVS:
        labyrinth_env.register_ruleset(t.ruleset)  # a no-op for a ruleset this process knows
        _ENVS[key] = labyrinth_env.make(t.env_id, **t.options)
    return _ENVS[key]


def _seat_agents(seating: Sequence[str]) -> list[Any]:
    """One agent object per seat, kept per worker and reseeded for every game (so a model
    is loaded once per process, and results still do not depend on what ran before)."""
    out, used = [], dict.fromkeys(seating, 0)
    for spec in seating:
        pool = _AGENTS.setdefault(spec, [])
        if used[spec] == len(pool):
            pool.append(make_agent(spec, 0))
        out.append(pool[used[spec]])
        used[spec] += 1
    return out


def play_one(t: Tournament, index: int) -> dict[str, Any]:
    """Game ``index`` of the tournament, as its results-file record."""
    seating = t.schedule.seating(index)
    env_seed, agent_seeds = game_seeds(t.seed, index, t.players)
    env = _env(t)
    if t.cooperative:
        agent = _seat_agents(seating[:1])[0]
        result = play_game(env, agent, env_seed, agent_seeds[:1])
    else:
        result = play_game(env, _seat_agents(seating), env_seed, agent_seeds)
    record = {
        "index": index,
        "tournament_seed": t.seed,
        "arrangement": t.schedule.arrangement(index),
        "agents": seating,
        "agent_seeds": agent_seeds[:1] if t.cooperative else agent_seeds,
        **env.unwrapped.replay_dict(),
        "returns": result["returns"],
        "winner": result["winner"],
        "winner_agent": None if result["winner"] is None else seating[result["winner"]],
        "outcome": result["outcome"],
        "length": result["steps"],
        "turns": result["turns"],
    }
    if t.cooperative:
        record["treasures"] = result["treasures"]
    record[DIGEST] = record_digest(record)
    return record


def record_digest(record: Mapping[str, Any]) -> str:
    """SHA-256 of a record's content (canonical JSON, the digest itself left out)."""
    body = {k: v for k, v in record.items() if k != DIGEST}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def play_batch(t: Tournament, indices: Sequence[int]) -> list[dict[str, Any]]:
    return [play_one(t, i) for i in indices]


class WorkersDiedError(RuntimeError):
    """The worker processes died ``MAX_POOL_RESTARTS + 1`` times (the results so far stay)."""


def _worker_init(parent: int | None = None) -> None:
    import signal

    os.environ.update(WORKER_ENV)
    # Ctrl-C reaches the whole process group: the driver stops the run and ends its
    # workers, which would otherwise each print a KeyboardInterrupt traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None:
        _exit_with_parent(parent)


def _exit_with_parent(parent: int) -> None:
    """A worker whose driver is gone (killed) stops too: nobody reads its results, and a
    pool worker would otherwise wait for work for ever (it holds its own queue's pipe)."""
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-driver", daemon=True).start()


@contextlib.contextmanager
def _worker_environment() -> Iterator[None]:
    """WORKER_ENV in os.environ while worker processes start (they copy it at spawn)."""
    saved = {k: os.environ.get(k) for k in WORKER_ENV}
    os.environ.update(WORKER_ENV)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while worker processes are started (they inherit it); main thread only."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _batches(indices: Sequence[int], size: int) -> list[list[int]]:
    return [list(indices[i : i + size]) for i in range(0, len(indices), size)]


def _default_batch(todo: int, workers: int) -> int:
    return max(1, min(32, math.ceil(todo / (8 * workers))))


Sink = Callable[[list[dict[str, Any]]], None]


def run_local(t: Tournament, todo: Sequence[int], sink: Sink, workers: int = 1, batch_size: int | None = None) -> None:
    """Play ``todo`` in this process (one worker) or in a pool of spawned processes
    (never forked: numba's threading layer does not survive a fork); results reach
    ``sink`` batch by batch, in game-index order."""
    batches = _batches(todo, batch_size or _default_batch(len(todo), workers))
    if workers == 1:
        for batch in batches:
            sink(play_batch(t, batch))
        return
    import multiprocessing
    import queue
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    todo_batches = dict(enumerate(batches))
    for _ in range(MAX_POOL_RESTARTS + 1):
        # the workers start at the submits: they copy the environment and, with SIGINT
        # ignored, never install Python's KeyboardInterrupt handler (a Ctrl-C while one
        # is still importing would print its traceback)
        # Finished futures arrive through a queue their callbacks fill, not through
        # concurrent.futures.wait: wait() takes every pending future's lock in turn, and a
        # Ctrl-C landing while it held some (thousands of one-game batches) left them held,
        # so the pool's manager thread, failing those futures, and the exit waiting for it
        # hung for ever (seen in a CI run: gdb showed terminate_broken on a future's lock).
        with _worker_environment(), _sigint_ignored():
            pool = ProcessPoolExecutor(
                workers, multiprocessing.get_context("spawn"), initializer=_worker_init, initargs=(os.getpid(),)
            )
            finished: queue.SimpleQueue = queue.SimpleQueue()
            pending = {}
            for k, batch in todo_batches.items():
                future = pool.submit(play_batch, t, batch)
                pending[future] = k
                future.add_done_callback(finished.put)
        try:
            while pending:
                future = finished.get()
                k = pending.pop(future)
                records = future.result()  # BrokenProcessPool when a worker died
                del todo_batches[k]
                sink(records)
            return
        except BrokenProcessPool:
            pass  # the batches not yet received are played again in a fresh pool
        except KeyboardInterrupt:
            # end the workers now: shutting the pool down waits for their current batches
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            raise
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
    raise WorkersDiedError(
        f"tournament worker processes died {MAX_POOL_RESTARTS + 1} times ({len(todo_batches)} batches unplayed; "
        "out of memory or killed?); the results so far are kept: run again to resume"
    )


# Ray's single-node mode (as on macOS and Windows): the node address stays 127.0.0.1 instead of
# being replaced by an address other hosts can reach, so the GCS, the raylet, the runtime-env
# agent, the driver and the workers listen on loopback only. Ray reads it when it is imported.
LOOPBACK_ENV = ("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def _local_ray_on_loopback() -> None:
    """Ask for Ray's single-node (loopback) mode before Ray is imported; a process that
    imported Ray already keeps what it chose (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER``)."""
    if "ray" not in sys.modules:
        os.environ.setdefault(*LOOPBACK_ENV)


def run_ray(
    t: Tournament,
    todo: Sequence[int],
    sink: Sink,
    workers: int = 1,
    batch_size: int | None = None,
    address: str | None = None,
) -> None:
    """Play ``todo`` as Ray tasks, each a batch of games of one arrangement; uses the Ray
    that is already initialised, else starts one (``address``: a cluster to join, e.g.
    ``auto``; none: a local Ray with ``workers`` CPUs). Results reach ``sink`` as tasks
    finish."""
    if address is None:
        _local_ray_on_loopback()
    try:
        import ray
    except ImportError:
        raise ValueError("backend 'ray' needs ray: pip install -e '.[distributed]'") from None
    started = not ray.is_initialized()
    reaper = None
    if started:
        # no address: a new local Ray of our own ("local": a leftover cluster address file or
        # RAY_ADDRESS must not send the run elsewhere), on loopback (LOOPBACK_ENV: without it
        # ray.init replaces 127.0.0.1 by the host's address and every server listens on all
        # interfaces)
        kwargs: dict[str, Any] = (
            {"address": address}
            if address
            else {"address": "local", "num_cpus": workers, "_node_ip_address": "127.0.0.1"}
        )
        if not address:
            reaper = _Reaper()
        ray.init(include_dashboard=False, log_to_driver=False, **kwargs)
    try:
        size = batch_size or _default_batch(len(todo), workers)
        by_arrangement: dict[int, list[int]] = {}
        for i in todo:
            by_arrangement.setdefault(t.schedule.arrangement(i), []).append(i)
        # the workers load the kernels the driver compiled (run_tournament prepares them)
        env_vars = {**WORKER_ENV, **worker_env()}
        remote = ray.remote(num_cpus=1)(play_batch).options(runtime_env={"env_vars": env_vars})
        t_ref = ray.put(t)
        pending = [remote.remote(t_ref, batch) for ids in by_arrangement.values() for batch in _batches(ids, size)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            sink(ray.get(done[0]))
    finally:
        if started:
            ray.shutdown()
        if reaper is not None:
            reaper.close()


_REAPER = """
import os, signal, sys
procs, done = {}, False
for line in sys.stdin:
    if line.strip() == "done":
        done = True
        break
    pid, start = line.split()
    procs[int(pid)] = start
if not done:
    for pid, start in procs.items():
        if pid == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                alive_start = f.read().rsplit(")", 1)[1].split()[19]
            if alive_start == start:
                os.kill(pid, signal.SIGKILL)
        except (OSError, IndexError):
            pass
"""


class _Reaper:
    """Kills the processes a local Ray of this driver started if the driver dies without
    shutting it down (SIGKILL included): Ray's own agents outlive a killed driver. A
    separate process (its own session) learns their pids (with start times, so a reused
    pid is never hit) and acts when its input closes without "done". Linux (/proc) only;
    elsewhere it does nothing."""

    def __init__(self) -> None:
        import subprocess
        import threading

        self.proc = None
        if not os.path.isdir("/proc"):
            return
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _REAPER], stdin=subprocess.PIPE, text=True, start_new_session=True
        )
        self.sent: set[tuple[int, str]] = set()
        self.stop = threading.Event()
        threading.Thread(target=self._watch, name="ray-reaper", daemon=True).start()

    def _watch(self) -> None:
        while not self.stop.wait(0.5):
            try:
                for entry in _descendants(os.getpid(), skip=self.proc.pid) - self.sent:
                    self.proc.stdin.write(f"{entry[0]} {entry[1]}\n")
                    self.sent.add(entry)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                return

    def close(self) -> None:
        if self.proc is None:
            return
        self.stop.set()
        with contextlib.suppress(OSError, ValueError):
            self.proc.stdin.write("done\n")
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _descendants(root: int, skip: int | None = None) -> set[tuple[int, str]]:
    """(pid, start time) of every process below ``root`` but ``skip`` (and its own
    descendants), read from /proc."""
    parents: dict[int, list[tuple[int, str]]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append((int(name), fields[19]))
    found: set[tuple[int, str]] = set()
    todo = [root]
    while todo:
        for child in parents.get(todo.pop(), ()):
            if child not in found and child[0] != skip:
                found.add(child)
                todo.append(child[0])
    return found


# --- the results file -----------------------------------------------------------------------------
def read_results(
    path: str | Path,
    t: Tournament | None = None,
    *,
    repair: bool = False,
    drop_bad: bool = False,
    progress: bool = False,
) -> list[dict[str, Any]]:
    """The records of a results file. A last line cut off by an interruption is ignored
    (and cut from the file with ``repair``); any other malformed line, a record with a
    field of the wrong type or out of range, a record whose digest fails or whose game,
    replayed in the kernel, does not give its recorded results (``verify_record``), a
    repeated game index, or (given ``t``) a game that is not this tournament's raises
    ``ValueError`` naming the file, the line and what is wrong, unless ``drop_bad``: then
    bad records and repeats (after the first good record of a game) are dropped from the
    file (rewritten atomically) and those games will be played again. ``progress``: a
    progress bar on stderr while the replays last more than two seconds."""
    from tqdm import tqdm

    p = Path(path)
    if not p.exists():
        return []
    if not p.is_file():
        raise ValueError(f"results file {str(p)!r} is not a regular file")
    data = p.read_bytes()
    lines = data.split(b"\n")
    records: list[dict[str, Any]] = []
    seen: set[int] = set()
    dropped = 0
    good_end = 0
    replayer = _Replayer()
    bar = tqdm(
        total=len(lines), desc=f"checking {p.name}", unit="game", delay=2.0, disable=not progress, file=sys.stderr
    )
    for n, line in enumerate(lines):
        bar.update(1)
        last = n == len(lines) - 1
        if not line.strip():
            good_end += len(line) + (not last)
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError) as exc:
            if last or all(not x.strip() for x in lines[n + 1 :]):
                break  # cut off mid-write: the game will be played again
            if drop_bad:
                dropped += 1
                continue
            raise ValueError(f"results file {str(p)!r}, line {n + 1}: malformed ({exc}); {_REPAIR}") from None
        if last:
            break  # complete JSON but no newline: written partly; play it again
        # a whole JSON line that is not a good record is not a cut-off write: named, never skipped
        problem = "not a game record (a JSON object)" if not isinstance(rec, dict) else check_record_fields(rec)
        if problem is None and t is not None:
            _check_tournament(p, n + 1, rec, t)
        if problem is None and rec.get(DIGEST) != record_digest(rec):
            problem = "its record_sha256 does not match its content (edited or damaged)"
        if problem is None and rec["index"] in seen:
            problem = f"game {rec['index']} appears twice (two runs into one folder?)"
        if problem is None:
            problem = _check_seeds(rec, t)
        if problem is None:
            problem = replayer.verify(rec, f"{p}, line {n + 1}")
        if problem is not None:
            if drop_bad:
                dropped += 1
                continue
            bar.close()
            raise ValueError(f"results file {str(p)!r}, line {n + 1}: {problem}; {_REPAIR}")
        seen.add(rec["index"])
        records.append(rec)
        good_end += len(line) + 1
    bar.close()
    if dropped:
        tmp = p.with_suffix(".repair")
        tmp.write_text("".join(json.dumps(r) + "\n" for r in records))
        os.replace(tmp, p)
    elif repair and good_end < len(data):
        with p.open("r+b") as f:
            f.truncate(good_end)
    return records


_REPAIR = "run again with --repair to drop the bad lines and play those games again"


def _check_tournament(path: Path, line: int, rec: dict[str, Any], t: Tournament) -> None:
    """A record of another tournament (other env, options, seed or agents) is not damage
    to repair: the run stops and names it."""
    expected = {
        "env_id": t.env_id,
        "options": t.full_options,
        "tournament_seed": t.seed,
        "agents": t.schedule.seating(rec["index"]),
    }
    for key, value in expected.items():
        if rec.get(key) != value:
            raise ValueError(
                f"results file {str(path)!r}, line {line}: game {rec['index']} has {key}={rec.get(key)!r} but this "
                f"tournament has {value!r}; it belongs to another tournament: use another --out or remove the file"
            )


def _check_seeds(rec: dict[str, Any], t: Tournament | None) -> str | None:
    """What follows from the tournament seed and the game index: the game's seeds (and,
    given the tournament, its arrangement), so a copy of a game under another index is
    caught."""
    players = rec["options"]["num_players"]
    env_seed, agent_seeds = game_seeds(rec["tournament_seed"], rec["index"], players)
    cooperative = labyrinth_env.get_spec(rec["env_id"]).cooperative
    expected = {"seed": env_seed, "agent_seeds": agent_seeds[:1] if cooperative else agent_seeds}
    if t is not None:
        expected["arrangement"] = t.schedule.arrangement(rec["index"])
    for key, value in expected.items():
        if rec[key] != value:
            game = rec["index"]
            return f"game {game} has {key}={_shown(rec[key])} but game {game} of this tournament has {value!r}"
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: Any, low: int | None = None) -> bool:
    return type(value) is int and (low is None or value >= low)


def _is_number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def check_record_fields(rec: dict[str, Any]) -> str | None:
    """What is wrong with a results record's fields (a missing key, a wrong type, a value
    out of range), naming the field; None if nothing. Its replay part is checked as a
    replay file is (``registry.check_replay``)."""
    from labyrinth_env.registry import check_replay

    try:
        check_replay(rec, "record")
    except ValueError as exc:
        return str(exc).replace("malformed replay 'record': ", "")
    players = rec["options"].get("num_players")
    lo, hi = labyrinth_env.get_spec(rec["env_id"]).players
    if not _is_int(players) or not lo <= players <= hi:
        return f"field 'options' has num_players={_shown(players)}; {rec['env_id']} seats {lo}-{hi}"
    fields: dict[str, tuple[Callable[[Any], bool], str]] = {
        "index": (lambda v: _is_int(v, 0) and v < 2**63, "an int in [0, 2**63)"),
        "tournament_seed": (lambda v: _is_int(v, 0) and v < 2**64, "an int in [0, 2**64)"),
        "arrangement": (lambda v: _is_int(v, 0), "an int >= 0"),
        "agents": (
            lambda v: isinstance(v, list) and len(v) == players and all(isinstance(a, str) for a in v),
            f"a list of {players} agent specs",
        ),
        "agent_seeds": (
            lambda v: isinstance(v, list) and 1 <= len(v) <= players and all(_is_int(a, 0) for a in v),
            "a list of ints >= 0, one per seat",
        ),
        "log_sha256": (lambda v: isinstance(v, str) and len(v) == 64, "a SHA-256 hex digest"),
        "returns": (
            lambda v: isinstance(v, list) and len(v) == players and all(_is_number(x) for x in v),
            f"a list of {players} numbers",
        ),
        "winner": (lambda v: v is None or (_is_int(v, 0) and v < players), f"null or a seat 0..{players - 1}"),
        "winner_agent": (lambda v: v is None or isinstance(v, str), "null or an agent spec"),
        "outcome": (lambda v: isinstance(v, str), "a string"),
        "length": (lambda v: _is_int(v, 0), "an int >= 0"),
        "turns": (lambda v: _is_int(v, 0), "an int >= 0"),
        DIGEST: (lambda v: isinstance(v, str), "a SHA-256 hex digest"),
    }
    if "treasures" in rec:
        fields["treasures"] = (lambda v: _is_int(v, 0), "an int >= 0")
    for key, (ok, what) in fields.items():
        if key not in rec:
            return f"field {key!r} is missing"
        if not ok(rec[key]):
            return f"field {key!r} must be {what}, got {_shown(rec[key])}"
    return None


class _Replayer:
    """Replays records in the kernel, one env per env id and options (made once)."""

    def __init__(self) -> None:
        self.envs: dict[str, Any] = {}

    def verify(self, rec: dict[str, Any], source: str) -> str | None:
        """What in ``rec`` its game's replay contradicts (see ``verify_record``); None if nothing."""
        from labyrinth_env.registry import replay_data

        key = json.dumps([rec["env_id"], rec["options"]], sort_keys=True)
        try:
            env = replay_data(rec, source, env=self.envs.get(key))
        except ValueError as exc:
            return f"game {rec['index']} does not replay: {' '.join(str(exc).split())}"
        self.envs[key] = env
        got = replayed_results(env)
        if "treasures" not in rec:
            del got["treasures"]
        for field, value in got.items():
            if rec[field] != value:
                return (
                    f"game {rec['index']}: its replay gives {field}={_shown(value)}, the record says "
                    f"{_shown(rec[field])} (forged or damaged)"
                )
        if rec["winner_agent"] != (None if rec["winner"] is None else rec["agents"][rec["winner"]]):
            return (
                f"game {rec['index']}: winner_agent {_shown(rec['winner_agent'])} is not the agent in "
                f"seat {rec['winner']}"
            )
        return None


def replayed_results(env: Any) -> dict[str, Any]:
    """A replayed game's results as a record holds them (the fields ``play_game`` fills):
    outcome, winner, returns, length, turns, treasures."""
    from labyrinth_env.agents.evaluate import game_outcome

    log = env.game_log
    outcome, winner = game_outcome(log)
    illegal = env.illegal_action is not None
    return {
        "outcome": "illegal" if illegal else outcome,
        "winner": winner,
        "returns": [float(env._cumulative_rewards.get(a, 0.0)) for a in env.possible_agents],
        "length": len(env.actions_taken) + illegal,
        "turns": sum(1 for e in log if e["type"] == "start_turn"),
        "treasures": sum(1 for e in log if e["type"] == "collect"),
    }


def verify_record(rec: dict[str, Any], source: str = "record") -> str | None:
    """What is wrong with one results record: a bad field (``check_record_fields``), or a
    result its game's replay in the kernel contradicts (its log digest, outcome, winner,
    returns, length, turns, treasures, winner agent); None if nothing."""
    return check_record_fields(rec) or _Replayer().verify(rec, source)


def _sort_results(path: Path, records: list[dict[str, Any]]) -> None:
    """Rewrite the file in game-index order (atomically) if it is not already."""
    if all(a["index"] < b["index"] for a, b in itertools.pairwise(records)):
        return
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(json.dumps(r) + "\n" for r in sorted(records, key=lambda r: r["index"])))
    os.replace(tmp, path)


# --- running --------------------------------------------------------------------------------------
def run_tournament(
    env_id: str,
    agents: Sequence[str] | str,
    games: int,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    out: str | Path | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    batch_size: int | None = None,
    progress: bool = False,
    plot: bool = True,
    repair: bool = False,
) -> dict[str, Any]:
    """Play (or finish) a tournament and return its report (``agents.ratings``).

    With ``out`` the games go to ``out/games.jsonl`` (resumed if present) and the report to
    ``out/report.{json,md,png}``; without it everything stays in memory. Everything is
    checked before the first game. ``repair``: drop bad or repeated records from the
    results file and play those games again (see the module docstring).
    """
    games = _check_int("games", games, 1)
    workers = _check_int("workers", workers, 1)
    if batch_size is not None:
        batch_size = _check_int("batch_size", batch_size, 1)
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if backend == "ray":
        if address is None:
            _local_ray_on_loopback()
        try:
            import ray  # noqa: F401
        except ImportError:
            raise ValueError("backend 'ray' needs ray: pip install -e '.[distributed]'") from None
    t = make_tournament(env_id, agents, seed, options)
    # compiled here, before any game: the workers (processes, or Ray's on this machine)
    # then load the kernels from the cache instead of each compiling them mid-game
    prepare(env_id, t.agents)
    with contextlib.ExitStack() as stack:
        records: list[dict[str, Any]] = []
        path = None
        if out is not None:
            out_dir = Path(out)
            if out_dir.exists() and not out_dir.is_dir():
                raise ValueError(f"--out {str(out_dir)!r} is a file; it must be a directory")
            out_dir.mkdir(parents=True, exist_ok=True)
            stack.enter_context(_locked(out_dir))
            path = out_dir / RESULTS
            records = read_results(path, t, repair=True, drop_bad=repair, progress=progress)
        return _play_and_report(t, games, records, path, out, workers, backend, address, batch_size, progress, plot)


@contextlib.contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    """Hold ``out_dir/.lock`` for the run: a second run into the same folder fails at
    once, naming the first (the lock goes with its process, even a killed one)."""
    import fcntl

    lock = (out_dir / LOCK).open("a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip() or "another process"
        lock.close()
        raise ValueError(
            f"another tournament is writing to {str(out_dir)!r} ({holder}); wait for it to finish or use another --out"
        ) from None
    try:
        lock.seek(0)
        lock.truncate()
        lock.write(f"pid {os.getpid()}")
        lock.flush()
        yield
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def _play_and_report(
    t: Tournament,
    games: int,
    records: list[dict[str, Any]],
    path: Path | None,
    out: str | Path | None,
    workers: int,
    backend: str,
    address: str | None,
    batch_size: int | None,
    progress: bool,
    plot: bool,
) -> dict[str, Any]:
    env_id = t.env_id
    done = {r["index"] for r in records}
    todo = [i for i in range(games) if i not in done]

    from tqdm import tqdm

    bar = tqdm(
        total=games,
        initial=games - len(todo),
        desc=f"{env_id} tournament",
        unit="game",
        disable=not progress,
        file=sys.stderr,
    )
    handle = path.open("a") if path is not None else None

    def sink(batch: list[dict[str, Any]]) -> None:
        records.extend(batch)
        if handle is not None:
            handle.write("".join(json.dumps(r) + "\n" for r in batch))
            handle.flush()
        bar.update(len(batch))

    try:
        if todo:
            if backend == "ray":
                run_ray(t, todo, sink, workers, batch_size, address)
            else:
                run_local(t, todo, sink, workers, batch_size)
    finally:
        bar.close()
        if handle is not None:
            handle.close()
    if path is not None:
        _sort_results(path, records)
    report = tournament_report(
        [r for r in records if r["index"] < games], t.agents, cooperative=t.cooperative, meta=t.meta()
    )
    if out is not None:
        write_report(report, Path(out), plot=plot, records=[r for r in records if r["index"] < games])
    return report


def write_report(
    report: dict[str, Any], out_dir: Path, plot: bool = True, records: Sequence[dict[str, Any]] | None = None
) -> list[Path]:
    """report.json, report.md and (matplotlib permitting) report.png in ``out_dir``; with
    the game ``records`` also replays.md, each game with the command that replays it."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "report.json").write_text(json.dumps(report, indent=1))
    markdown = report_markdown(report)
    if records is not None:
        markdown += replay_section(out_dir)
    (out_dir / "report.md").write_text(markdown)
    written = [out_dir / "report.json", out_dir / "report.md"]
    if records is not None:
        (out_dir / "replays.md").write_text(replays_markdown(records, out_dir))
        written.append(out_dir / "replays.md")
    if plot:
        png = plot_report(report, out_dir / "report.png")
        if png is not None:
            written.append(png)
    return written


def replay_command(out_dir: str | Path, index: int) -> str:
    """The shell command that writes game ``index``'s HTML replay page."""
    results = Path(out_dir) / RESULTS
    return f"labyrinth replay {results} --game {index} --html {Path(out_dir) / 'replays' / f'game_{index}.html'}"


def replay_section(out_dir: Path) -> str:
    return (
        "\n## Replays\n\n"
        f"Every game can be watched in a browser: `{replay_command(out_dir, 0)}` (any game index); "
        "[replays.md](replays.md) lists each game with its command.\n"
    )


def replays_markdown(records: Sequence[dict[str, Any]], out_dir: Path) -> str:
    rows = ["# Replays", "", "| game | seats | winner | turns | replay |", "|---|---|---|---|---|"]
    for r in sorted(records, key=lambda r: r["index"]):
        seats = ", ".join(r.get("agents", []))
        winner = r.get("winner_agent") or r.get("outcome") or "-"
        rows.append(
            f"| {r['index']} | {seats} | {winner} | {r.get('turns', '-')} | `{replay_command(out_dir, r['index'])}` |"
        )
    return "\n".join(rows) + "\n"


# --- configs and the command line -----------------------------------------------------------------
_CONFIG_KEYS: dict[str, type | tuple[type, ...]] = {
    "env_id": str,
    "options": dict,
    "agents": (list, str),
    "games": int,
    "seed": int,
    "workers": int,
    "backend": str,
    "address": str,
    "batch_size": int,
    "out": str,
}


def load_tournament_config(path: str | Path) -> dict[str, Any]:
    """A tournament config (YAML with keys of ``run_tournament``: env_id, options, agents,
    games, seed, workers, backend, address, batch_size, out); ``ValueError`` names an
    unknown key or a wrong type."""
    from labyrinth_env.registry import parse_yaml_file

    p = Path(path)
    data = parse_yaml_file(p, "tournament config")
    if not isinstance(data, dict):
        raise ValueError(f"tournament config {str(p)!r}: expected a mapping with keys {sorted(_CONFIG_KEYS)}")
    unknown = sorted(set(data) - set(_CONFIG_KEYS))
    if unknown:
        raise ValueError(f"tournament config {str(p)!r}: unknown key(s) {unknown}; allowed: {sorted(_CONFIG_KEYS)}")
    for key, value in data.items():
        types = _CONFIG_KEYS[key] if isinstance(_CONFIG_KEYS[key], tuple) else (_CONFIG_KEYS[key],)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            names = " or ".join(t.__name__ for t in types)
            raise ValueError(f"tournament config {str(p)!r}: {key} must be {names}, got {value!r}")
    if "env_id" not in data:
        raise ValueError(f"tournament config {str(p)!r}: 'env_id' is required")
    bad = [k for k in data.get("options") or {} if not isinstance(k, str)]
    if bad:
        raise ValueError(f"tournament config {str(p)!r}: option names must be words, got {bad[0]!r}")
    return data


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="labyrinth tournament",
        description=__doc__.split("\n\n")[0],
        epilog="agent specs:\n" + describe_agents(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--config", type=Path, default=None, help="YAML config; flags given here override it")
    parser.add_argument("--env", default=None, help=f"env id ({', '.join(labyrinth_env.list_envs())})")
    parser.add_argument("--agents", default=None, help="agent specs, comma-separated (random,heuristic,mcts:c=2)")
    parser.add_argument("--players", type=int, default=None, help="num_players (default: one seat per agent)")
    parser.add_argument("--max-turns", type=int, default=None, help="max_turns option")
    parser.add_argument("--variant", default=None, help="variant option")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="any env option (repeatable)"
    )
    parser.add_argument("--games", type=int, default=None, help="games in all (default 100)")
    parser.add_argument("--seed", type=int, default=None, help="tournament seed (default 0)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes / Ray CPUs (default 1)")
    parser.add_argument("--backend", default=None, choices=BACKENDS, help="local processes (default) or ray")
    parser.add_argument("--address", default=None, help="Ray cluster to join (e.g. auto); default: a local Ray")
    parser.add_argument("--batch-size", type=int, default=None, help="games per task")
    parser.add_argument("--out", default=None, help="results directory (default results/tournament)")
    parser.add_argument("--report-only", action="store_true", help="rebuild the report from the results file")
    parser.add_argument(
        "--repair", action="store_true", help="drop bad or repeated records from the results and replay those games"
    )
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--no-plot", action="store_true")
    return parser


def settings_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """run_tournament's keyword arguments from the config file and the flags."""
    cfg = load_tournament_config(args.config) if args.config is not None else {}
    options = dict(cfg.get("options") or {})
    for flag, name in (("players", "num_players"), ("max_turns", "max_turns"), ("variant", "variant")):
        if getattr(args, flag) is not None:
            options[name] = getattr(args, flag)
    options.update(option_assignment(text) for text in args.option)
    settings = {
        "env_id": args.env or cfg.get("env_id"),
        "agents": args.agents if args.agents is not None else cfg.get("agents", "random,heuristic"),
        "games": args.games if args.games is not None else cfg.get("games", 100),
        "seed": args.seed if args.seed is not None else cfg.get("seed", 0),
        "options": options,
        "out": args.out or cfg.get("out", "results/tournament"),
        "workers": args.workers if args.workers is not None else cfg.get("workers", 1),
        "backend": args.backend or cfg.get("backend", "local"),
        "address": args.address or cfg.get("address"),
        "batch_size": args.batch_size if args.batch_size is not None else cfg.get("batch_size"),
    }
    if settings["env_id"] is None:
        raise ValueError(f"give --env or a --config with env_id; envs: {', '.join(labyrinth_env.list_envs())}")
    return settings


def report_only(settings: dict[str, Any], plot: bool = True, progress: bool = False) -> dict[str, Any]:
    """The report of the games already in ``out`` (none played; each is replayed to check
    its record)."""
    path = Path(settings["out"]) / RESULTS
    if not path.exists():  # before the agents are built: their kernels may have to compile
        raise ValueError(f"no results file {str(path)!r} to report on")
    t = make_tournament(settings["env_id"], settings["agents"], settings["seed"], settings["options"])
    records = [r for r in read_results(path, t, progress=progress) if r["index"] < settings["games"]]
    report = tournament_report(records, t.agents, cooperative=t.cooperative, meta=t.meta())
    write_report(report, Path(settings["out"]), plot=plot, records=records)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    settings: dict[str, Any] = {}
    try:
        settings = settings_from_args(args)
        if args.report_only:
            report = report_only(settings, plot=not args.no_plot, progress=not args.no_progress)
        else:
            report = run_tournament(
                **settings, progress=not args.no_progress, plot=not args.no_plot, repair=args.repair
            )
    except ValueError as exc:
        print(f"{parser.prog}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    except OSError as exc:  # --out not writable, a file where a folder must be, a full disk
        where = exc.filename or "the --out folder"
        print(f"{parser.prog}: error: cannot write {str(where)!r}: {exc.strerror}", file=sys.stderr)
        return 2
    except WorkersDiedError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        out = settings.get("out", "the --out folder")
        print(
            f"{parser.prog}: interrupted; every game written to {out}/{RESULTS} so far is complete "
            "(a line cut off is dropped): run the same command again to play the rest",
            file=sys.stderr,
        )
        return 130
    print_report(report)
    out = Path(settings["out"])
    names = (RESULTS, "report.json", "report.md", "report.png", "replays.md")
    written = [name for name in names if (out / name).exists()]
    print(f"results and report in {out}/: {', '.join(written)}")
    return 0


if __name__ == "__main__":
    # one code path however this file is run (python -m agents.tournament, python -m
    # labyrinth_env.agents.tournament): the module under its package name, whose functions
    # worker processes and Ray pickle by reference
    from labyrinth_env.agents.tournament import main as package_main

    raise SystemExit(package_main())
