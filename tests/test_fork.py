"""Forked children (issue 23, item 4; issue 32, item 8): after a parallel kernel ran,
numba's GNU OpenMP layer aborts a child made by fork at its first parallel region. A
child's envs step serially, and so do the bound loops' prange entry points the benchmarks
call (``random_steps_batch``), so Gymnasium's AsyncVectorEnv, SB3's SubprocVecEnv and a
benchmark in a forked worker work with ``fork``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """
    import multiprocessing as mp
    import sys

    import numba
    import numpy as np

    import labyrinth_env
    from labyrinth_env.registry import registered_id
    from labyrinth_env.single import SingleAgentEnv
    from labyrinth_env.vector import VectorEnv

    ENV = "team_edition_v2"

    def first_legal(masks):
        return np.array([np.flatnonzero(row)[0] for row in masks])

    parent = VectorEnv(ENV, 64, parallel=True)
    parent.reset(seed=0)
    parent.step(first_legal(parent.action_masks()))
    print("layer", numba.threading_layer(), flush=True)
    # the in-kernel prange loop the benchmarks call (issue 32, item 8), run in the parent too
    from labyrinth_env.benchmarks._probe import make_batch
    spec = labyrinth_env.get_spec(ENV)
    batch = make_batch(spec, parent.raw.options_vector(), 16, 0)
    spec.loops.random_steps_batch(*batch[:3], 5, batch[3])

    def child(queue):
        single = SingleAgentEnv(ENV)
        _, info = single.reset(seed=1)
        single.step(int(np.flatnonzero(info["action_mask"])[0]))
        built = VectorEnv(ENV, 64)
        built.reset(seed=2)
        built.step(first_legal(built.action_masks()))
        built.heuristic_actions()
        parent.step(first_legal(parent.action_masks()))  # the inherited env, which was parallel
        spec.loops.random_steps_batch(*batch[:3], 5, batch[3])  # runs serial in the child
        queue.put((built.parallel, parent.parallel))

    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=child, args=(queue,))
    proc.start()
    proc.join(120)
    assert proc.exitcode == 0, f"forked child exit code {proc.exitcode}"
    assert queue.get(timeout=5) == (False, False)
    assert parent.parallel, "the parent keeps its parallel loops"
    assert spec.loops.random_steps_batch is not spec.loops.random_steps_batch_serial, "and the parent's batch loop"

    import gymnasium
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make(registered_id(ENV)) for _ in range(2)], context="fork"
    )
    _, infos = envs.reset(seed=3)
    envs.step(first_legal(infos["action_mask"]))
    envs.close()

    if sys.argv[1] == "sb3":
        from stable_baselines3.common.env_util import make_vec_env
        from stable_baselines3.common.vec_env import SubprocVecEnv
        venv = make_vec_env(registered_id(ENV), n_envs=2, vec_env_cls=SubprocVecEnv,
                            vec_env_kwargs={"start_method": "fork"})
        venv.reset()
        venv.step(first_legal(np.stack(venv.env_method("action_masks"))))
        venv.close()
    print("ok")
    """
)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_forked_children_build_and_step_envs_after_a_parallel_kernel_ran() -> None:
    extra = "sb3" if _has("stable_baselines3") else "none"
    env = {**os.environ, "NUMBA_NUM_THREADS": "2"}
    result = subprocess.run([sys.executable, "-c", SCRIPT, extra], capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    assert "layer omp" in result.stdout, "the parent ran GNU OpenMP threads (the case that aborted children)"
    assert result.stdout.rstrip().endswith("ok")


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None
