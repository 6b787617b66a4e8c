"""Compile-time probe, run by ``benchmarks.throughput`` in a fresh interpreter.

It is a separate, light module (numpy only at import) so that the times it reports
start after numpy/numba are imported and cover only labyrinth_env's own import and
the first call of each kernel function (a JIT compile, or a load from numba's cache
when ``NUMBA_CACHE_DIR`` holds one). ``python -m labyrinth_env.benchmarks._probe ENV_ID`` prints one
JSON object on the last line of stdout.
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from labyrinth_env.spec import RulesetSpec

PROBE_SEED = 12345


def make_batch(
    spec: RulesetSpec, options: np.ndarray, batch_size: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """States, masks, RNG words and finished-game counters for ``random_steps_*``.

    The probe and the throughput runs build their arrays here so both compile the very
    same numba specialisations (int8 masks like the AEC env, uint64[:, 1] RNG words).
    """
    loops = spec.loops
    states = spec.new_states(batch_size)
    for i in range(batch_size):
        # a slice is a view, so init_one writes game i in place
        loops.init_one(states[i : i + 1], np.uint64(seed + i), options)
    masks = np.zeros((batch_size, spec.kernel.NUM_ACTIONS), dtype=np.int8)
    words = np.random.SeedSequence(seed).generate_state(batch_size, dtype=np.uint64)
    rngs = (words | np.uint64(1)).reshape(batch_size, 1)  # xorshift cannot leave zero
    games_done = np.zeros(batch_size, dtype=np.int64)
    return states, masks, rngs, games_done


def probe(env_id: str) -> dict[str, Any]:
    """Time the import and the first call of every kernel function the benchmark uses."""
    t = time.perf_counter()
    import numba

    baseline = time.perf_counter() - t
    phases: dict[str, float] = {}

    def timed(name: str, fn: Any, *args: Any) -> Any:
        t0 = time.perf_counter()
        out = fn(*args)
        phases[name] = time.perf_counter() - t0
        return out

    start = time.perf_counter()
    t0 = time.perf_counter()
    import labyrinth_env

    env = labyrinth_env.raw_env(env_id)
    phases["import"] = time.perf_counter() - t0
    k = env.kernel
    opts = env.options_vector()
    # the same argument types the AEC env passes, so the env reuses these compilations
    states = env.ruleset.new_states(1)
    mask = np.zeros(k.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(env.max_seats, dtype=np.float64)
    obs = np.empty(k.OBS_SIZE, dtype=np.float32)
    loops = env.batch
    timed("init_one", loops.init_one, states, np.uint64(PROBE_SEED), opts)
    timed("refresh_one", loops.refresh_one, states, mask, rewards)
    action = int(np.flatnonzero(mask)[0])
    timed("step_one", loops.step_one, states, action, mask, rewards)
    timed("observe_one", loops.observe_one, states, 0, obs)
    batch = make_batch(env.ruleset, opts, 4, PROBE_SEED)
    timed("random_steps_batch_serial", loops.random_steps_batch_serial, batch[0], batch[1], batch[2], 1, batch[3])
    timed("random_steps_batch", loops.random_steps_batch, batch[0], batch[1], batch[2], 1, batch[3])
    total = time.perf_counter() - start

    # A few env steps after the probe: near zero unless the env needs a specialisation
    # the probe missed, which would make the compile figures above incomplete.
    t0 = time.perf_counter()
    env.reset(seed=PROBE_SEED)
    for _ in range(5):
        agent = env.agent_selection
        if not env.agents or env.terminations[agent] or env.truncations[agent]:
            break
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    env_check = time.perf_counter() - t0
    return {
        "env_id": env_id,
        "total_s": total,
        "phases_s": phases,
        "env_check_s": env_check,
        "numpy_numba_import_s": baseline,
        "numba_num_threads": numba.get_num_threads(),
    }


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit("usage: python -m labyrinth_env.benchmarks._probe ENV_ID")
    print(json.dumps(probe(args[0])))


if __name__ == "__main__":
    main()
