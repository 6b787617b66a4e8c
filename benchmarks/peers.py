"""Peer environments measured in the same run as ours, for ``benchmarks/vector_throughput.py``.

Each function returns one row (a JSON-ready dict). A peer whose package is missing gives a
row with ``status: "not installed"`` and no rate instead of failing: the peers are an
optional extra (``pip install -e ".[peers]"``), never needed by the tests.

* ``connect_four_aec``:    PettingZoo ``connect_four_v3``, the standard AEC loop, one game.
* ``openspiel_backgammon``: OpenSpiel (``pyspiel``) backgammon driven from Python, one game:
  random legal actions, chance outcomes sampled with their probabilities, a new game on a
  terminal state.
* ``openspiel_backgammon_obs``: the same loop, also asking the state for what an RL loop
  needs every step: ``observation_tensor`` and ``legal_actions_mask`` of the player to act.
* ``openspiel_backgammon_rl``: the same game through OpenSpiel's own RL interface
  (``open_spiel.python.rl_environment.Environment``), which hands the learner an
  observation tensor and the legal actions every step, as our ``VectorEnv`` does: the
  like-for-like row for an RL loop.
* ``pgx_game``:            Pgx ``backgammon`` / ``connect_four`` on the CPU,
  ``jax.jit`` of a ``jax.vmap``-ed auto-resetting ``env.step`` over a batch, random legal
  actions drawn from ``legal_action_mask`` inside the jitted function; compile time is
  reported apart from the rate.

A step is one decision (one player action applied): chance nodes are resolved but not
counted, as in our kernels.
"""

from __future__ import annotations

import importlib
import random
import time
import warnings
from types import ModuleType
from typing import Any

from labyrinth_env.benchmarks import throughput

INSTALL_HINT = 'pip install -e ".[peers]"'

# name: (label, package to install, game, how it runs)
PEERS: dict[str, tuple[str, str, str, str]] = {
    "pettingzoo_connect_four": ("PettingZoo connect_four_v3 (AEC)", "pettingzoo[classic]", "connect_four", "python"),
    "openspiel_backgammon": ("OpenSpiel backgammon (pyspiel, Python loop)", "open_spiel", "backgammon", "python"),
    "openspiel_backgammon_obs": (
        "OpenSpiel backgammon (pyspiel, Python loop + observation_tensor + legal_actions_mask)",
        "open_spiel",
        "backgammon",
        "python",
    ),
    "openspiel_backgammon_rl": (
        "OpenSpiel backgammon (rl_environment: observations + legal actions)",
        "open_spiel",
        "backgammon",
        "python",
    ),
    "pgx_backgammon": ("Pgx backgammon (jit+vmap, CPU)", "pgx", "backgammon", "jax"),
    "pgx_connect_four": ("Pgx connect_four (jit+vmap, CPU)", "pgx", "connect_four", "jax"),
}
PGX_GAMES = ("backgammon", "connect_four")


def _row(peer: str, batch: int, **fields: Any) -> dict[str, Any]:
    label, package, game, runtime = PEERS[peer]
    row: dict[str, Any] = {
        "peer": peer,
        "label": label,
        "package": package,
        "version": None,
        "game": game,
        "runtime": runtime,
        "batch": batch,
        "threads": 1 if runtime == "python" else "xla",
        "status": "ok",
        "steps_per_s": None,
        "games_per_s": None,
        "compile_s": None,
        "seconds": None,
        "other_cpu": None,
        "note": "",
    }
    row.update(fields)
    return row


def not_installed(peer: str, batch: int, missing: str) -> dict[str, Any]:
    """The row of a peer whose package cannot be imported."""
    return _row(peer, batch, status="not installed", note=f"{missing} is not installed ({INSTALL_HINT})")


def _import(name: str) -> ModuleType | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return importlib.import_module(name)
    except ImportError:
        return None


def _load(seconds: float, run: Any) -> tuple[Any, float | None]:
    """``run()`` and the cores' worth of CPU other processes used meanwhile (noise)."""
    busy0, own0, t0 = throughput._system_busy_s(), time.process_time(), time.perf_counter()
    out = run()
    wall = time.perf_counter() - t0
    busy1, own1 = throughput._system_busy_s(), time.process_time()
    if busy0 is None or busy1 is None or wall <= 0:
        return out, None
    return out, max(0.0, (busy1 - busy0) - (own1 - own0)) / wall


def _check_seconds(seconds: float) -> None:
    if not seconds > 0:
        raise ValueError(f"seconds must be > 0, got {seconds!r}")


def connect_four_aec(seconds: float, seed: int = 0) -> dict[str, Any]:
    """PettingZoo connect_four_v3 steps/s in the standard AEC loop (the loop of ``throughput.py``)."""
    _check_seconds(seconds)
    factory = throughput._connect_four_factory()
    if factory is None:
        return not_installed("pettingzoo_connect_four", 1, "pettingzoo[classic]")
    runner = throughput.AECRunner(factory, seed)
    runner.warmup(min(0.5, seconds / 2))
    sample, other = _load(seconds, lambda: runner.measure(seconds))
    return _row(
        "pettingzoo_connect_four",
        1,
        version=throughput._version("pettingzoo"),
        steps_per_s=sample.steps_per_s,
        games_per_s=sample.games_per_s,
        seconds=sample.seconds,
        other_cpu=other,
        note="env() with its wrappers, observation dicts and masks every step",
    )


def openspiel_backgammon(seconds: float, seed: int = 0, observe: bool = False) -> dict[str, Any]:
    """OpenSpiel backgammon decisions/s from Python (chance outcomes sampled, not counted);
    with ``observe`` also the observation tensor and legal-action mask of the player to act."""
    _check_seconds(seconds)
    peer = "openspiel_backgammon_obs" if observe else "openspiel_backgammon"
    pyspiel = _import("pyspiel")
    if pyspiel is None:
        return not_installed(peer, 1, "open_spiel")
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)

    def play(budget: float) -> tuple[int, int, int, float]:
        state = game.new_initial_state()
        steps = chance = games = 0
        perf = time.perf_counter
        start = perf()
        deadline = start + budget
        while True:
            # checking the clock every step would cost more than a pyspiel step
            for _ in range(64):
                if state.is_terminal():
                    state = game.new_initial_state()
                    games += 1
                elif state.is_chance_node():
                    u = rng.random()
                    outcomes = state.chance_outcomes()
                    action = outcomes[-1][0]
                    for outcome, p in outcomes:
                        u -= p
                        if u < 0.0:
                            action = outcome
                            break
                    state.apply_action(action)
                    chance += 1
                else:
                    if observe:
                        player = state.current_player()
                        state.observation_tensor(player)
                        state.legal_actions_mask(player)
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rng.random() * len(legal))])
                    steps += 1
            if perf() >= deadline:
                return steps, chance, games, perf() - start

    play(min(0.5, seconds / 2))
    (steps, chance, games, elapsed), other = _load(seconds, lambda: play(seconds))
    return _row(
        peer,
        1,
        version=throughput._version("open_spiel"),
        steps_per_s=steps / elapsed,
        games_per_s=games / elapsed,
        chance_steps_per_s=chance / elapsed,
        seconds=elapsed,
        other_cpu=other,
        note=(
            "observation tensor and legal-action mask of the player to act every step"
            if observe
            else "no observation tensors"
        )
        + "; chance nodes sampled but not counted as steps",
    )


def openspiel_backgammon_rl(seconds: float, seed: int = 0) -> dict[str, Any]:
    """OpenSpiel backgammon decisions/s through ``rl_environment`` (observation tensors and
    legal actions every step, chance resolved inside the environment)."""
    _check_seconds(seconds)
    if _import("pyspiel") is None:
        return not_installed("openspiel_backgammon_rl", 1, "open_spiel")
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("backgammon")
    env.seed(seed)
    rng = random.Random(seed)

    def play(budget: float) -> tuple[int, int, float]:
        steps = games = 0
        step = env.step
        perf = time.perf_counter
        start = perf()
        deadline = start + budget
        ts = env.reset()
        while True:
            for _ in range(64):
                if ts.last():
                    ts = env.reset()
                    games += 1
                    continue
                obs = ts.observations
                legal = obs["legal_actions"][obs["current_player"]]
                ts = step([legal[int(rng.random() * len(legal))]])
                steps += 1
            if perf() >= deadline:
                return steps, games, perf() - start

    play(min(0.5, seconds / 2))
    (steps, games, elapsed), other = _load(seconds, lambda: play(seconds))
    return _row(
        "openspiel_backgammon_rl",
        1,
        version=throughput._version("open_spiel"),
        steps_per_s=steps / elapsed,
        games_per_s=games / elapsed,
        seconds=elapsed,
        other_cpu=other,
        note="observation tensors (info_state) and legal actions for the player to act every step",
    )


def pgx_game(game: str, batch: int, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Pgx ``game`` steps/s on the CPU at ``batch``: one jitted call per batch step (random
    legal actions, auto-reset), waited for every step; jit compile time apart."""
    if game not in PGX_GAMES:
        raise ValueError(f"unknown Pgx game {game!r}; measured here: {list(PGX_GAMES)}")
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise ValueError(f"batch must be an int >= 1, got {batch!r}")
    _check_seconds(seconds)
    peer = f"pgx_{game}"
    pgx = _import("pgx")
    wrappers = _import("pgx.experimental") if pgx is not None else None
    if pgx is None or wrappers is None:
        return not_installed(peer, batch, "pgx")
    import jax
    import jax.numpy as jnp

    env = pgx.make(game)
    step = wrappers.auto_reset(env.step, env.init)

    def advance(state: Any, key: Any) -> tuple[Any, Any, Any]:
        key, k_act, k_step = jax.random.split(key, 3)
        # a uniformly random legal action per game: argmax of uniforms over the legal ones
        u = jax.random.uniform(k_act, state.legal_action_mask.shape)
        actions = jnp.argmax(jnp.where(state.legal_action_mask, u, -1.0), axis=-1)
        state = jax.vmap(step)(state, actions, jax.random.split(k_step, batch))
        return state, key, jnp.sum(state.terminated | state.truncated)

    init = jax.jit(jax.vmap(env.init))
    advance_jit = jax.jit(advance)
    key = jax.random.PRNGKey(seed)
    key, k_init = jax.random.split(key)
    t0 = time.perf_counter()
    state = jax.block_until_ready(init(jax.random.split(k_init, batch)))
    state, key, done = advance_jit(state, key)
    int(done)  # waits for the first call: compile + one step
    compile_s = time.perf_counter() - t0

    def play(budget: float) -> tuple[int, int, float]:
        nonlocal state, key
        calls = games = 0
        start = time.perf_counter()
        while True:
            state, key, done = advance_jit(state, key)
            games += int(done)  # blocks until the step is computed
            calls += 1
            if time.perf_counter() - start >= budget:
                return calls, games, time.perf_counter() - start

    play(min(0.5, seconds / 2))
    (calls, games, elapsed), other = _load(seconds, lambda: play(seconds))
    return _row(
        peer,
        batch,
        version=throughput._version("pgx"),
        jax_version=throughput._version("jax"),
        steps_per_s=calls * batch / elapsed,
        games_per_s=games / elapsed,
        compile_s=compile_s,
        seconds=elapsed,
        other_cpu=other,
        note="compile_s: jit of init and of the batched step (first call), not in the rate; "
        "XLA picks its own CPU threads",
    )


def run(seconds: float, pgx_batches: list[int] | tuple[int, ...] = (1024,), seed: int = 0) -> list[dict[str, Any]]:
    """Every peer row: the Python-loop peers at batch 1, Pgx at each of ``pgx_batches``."""
    rows = [
        connect_four_aec(seconds, seed),
        openspiel_backgammon(seconds, seed),
        openspiel_backgammon(seconds, seed, observe=True),
        openspiel_backgammon_rl(seconds, seed),
    ]
    for game in PGX_GAMES:
        for batch in pgx_batches:
            rows.append(pgx_game(game, batch, seconds, seed))
    return rows
