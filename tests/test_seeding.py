"""Reproducible runs (issue 34, item 1): Gymnasium and PettingZoo seed once, so after
``reset(seed=s)`` a bare ``reset()`` continues from the seeded stream. A seeded run of
several episodes, driven the way each library drives an env (its own resets without a
seed in between), is the same run twice and another run with another seed."""

from __future__ import annotations

import hashlib

import gymnasium
import numpy as np
import pytest

import labyrinth_env
from labyrinth_env.registry import registered_id
from labyrinth_env.vector import VectorEnv

ENV = "team_edition_v2"
OPTIONS = {"num_players": 2, "max_turns": 3}  # games of a few decisions: several episodes per run


class Trace:
    """A digest of everything a run saw."""

    def __init__(self) -> None:
        self.digest = hashlib.sha256()

    def add(self, *arrays: object) -> None:
        for a in arrays:
            self.digest.update(np.ascontiguousarray(np.asarray(a, dtype=np.float64)).tobytes())

    def hexdigest(self) -> str:
        return self.digest.hexdigest()


def check_reproducible(run) -> None:
    """``run(seed)`` twice with one seed is the same run, with another seed another."""
    first = run(1)
    assert run(1) == first, "the same seed played other games"
    assert run(2) != first, "another seed played the same games"


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def test_aec_bare_resets_continue_the_seeded_stream() -> None:
    def run(seed: int) -> str:
        env = labyrinth_env.make(ENV, **OPTIONS)
        rng = np.random.default_rng(0)
        trace = Trace()
        env.reset(seed=seed)
        for _episode in range(3):
            for _agent in env.agent_iter():
                observation, reward, termination, truncation, _ = env.last()
                trace.add(observation["observation"], [reward])
                env.step(None if termination or truncation else random_legal(rng, observation["action_mask"]))
            env.reset()  # as PettingZoo's loops and Tianshou's collector reset: no seed
        return trace.hexdigest()

    check_reproducible(run)


def test_tianshou_collector_after_envs_seed_is_reproducible() -> None:
    pytest.importorskip("tianshou")
    import torch
    from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make() -> PettingZooEnv:
        return PettingZooEnv(labyrinth_env.make(ENV, **OPTIONS))

    def run(seed: int) -> str:
        np.random.seed(0)  # the random algorithm's own draws
        torch.manual_seed(0)
        env = make()
        algorithm = MultiAgentOffPolicyAlgorithm(
            algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents],
            env=env,
        )
        envs = DummyVectorEnv([make, make])
        envs.seed(seed)
        buffer = VectorReplayBuffer(400, 2)
        collector = Collector(algorithm.policy, envs, buffer)
        result = collector.collect(n_step=120, reset_before_collect=True)
        assert result.n_collected_episodes >= 4, "several episodes, so that bare resets happened"
        trace = Trace()
        trace.add(buffer.obs.obs[: len(buffer)], buffer.rew[: len(buffer)], buffer.act[: len(buffer)])
        return trace.hexdigest()

    check_reproducible(run)


def run_vector(envs: gymnasium.vector.VectorEnv, seed: int, steps: int = 40) -> str:
    """A seeded reset, steps across autoresets, a bare reset, more steps."""
    rng = np.random.default_rng(0)
    trace = Trace()
    observations, _ = envs.reset(seed=seed)
    trace.add(observations)
    for step in range(2 * steps):
        if step == steps:
            observations, _ = envs.reset()
            trace.add(observations)
        masks = envs.unwrapped.action_masks()
        actions = np.array([random_legal(rng, row) for row in masks])
        observations, rewards, terminations, truncations, _ = envs.step(actions)
        trace.add(observations, rewards, terminations, truncations)
    return trace.hexdigest()


def test_gymnasium_make_vec_bare_reset_continues_the_seeded_stream() -> None:
    check_reproducible(lambda seed: run_vector(gymnasium.make_vec(registered_id(ENV), 2, **OPTIONS), seed))


def test_vector_env_seed_is_the_first_resets_only() -> None:
    """``VectorEnv(id, n, seed=s)``: the first ``reset()`` plays seed s; later bare resets
    deal new games (they replayed seed s's games every time)."""
    first = VectorEnv(ENV, 2, seed=3, **OPTIONS)
    first.reset()
    games = first.game_seeds.copy()
    reference = VectorEnv(ENV, 2, **OPTIONS)
    reference.reset(seed=3)
    np.testing.assert_array_equal(reference.game_seeds, games)
    first.reset()
    assert not np.array_equal(first.game_seeds, games), "a bare reset replayed the constructor's seed"
    again = VectorEnv(ENV, 2, seed=3, **OPTIONS)
    again.reset()
    again.reset()
    np.testing.assert_array_equal(again.game_seeds, first.game_seeds)
    with pytest.raises(ValueError, match="seed must be an int"):
        VectorEnv(ENV, 2, seed=-1, **OPTIONS)


def test_partial_and_per_env_seeds_are_reproducible() -> None:
    def run(seed: int) -> str:
        env = VectorEnv(ENV, 3, **OPTIONS)
        trace = Trace()
        env.reset(seed=[seed, seed + 3, seed + 7])
        trace.add(env.game_seeds)
        env.reset(options={"reset_mask": np.array([True, False, True])})
        trace.add(env.game_seeds, env.states["rng"])
        env.reset(seed=[None, None, None])
        trace.add(env.game_seeds)
        return trace.hexdigest()

    check_reproducible(run)


def test_gymnasium_single_agent_env_is_reproducible() -> None:
    def run(seed: int) -> str:
        env = gymnasium.make(registered_id(ENV), **OPTIONS)
        rng = np.random.default_rng(0)
        trace = Trace()
        _, info = env.reset(seed=seed)
        for _episode in range(3):
            done = False
            while not done:
                observation, reward, terminated, truncated, info = env.step(random_legal(rng, info["action_mask"]))
                trace.add(observation, [reward])
                done = terminated or truncated
            _, info = env.reset()
        return trace.hexdigest()

    check_reproducible(run)


def test_sb3_vec_env_seed_then_its_resets_are_reproducible() -> None:
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    from labyrinth_env.sb3 import SB3VecEnv

    def run_sb3(venv, seed: int) -> str:
        rng = np.random.default_rng(0)
        trace = Trace()
        venv.seed(seed)  # SB3: the seed of the next reset only
        for _ in range(2):  # SB3's learn() resets at its start; a second learn() resets again
            trace.add(venv.reset())
            for _ in range(30):
                masks = np.stack(venv.env_method("action_masks"))
                observations, rewards, dones, _ = venv.step(np.array([random_legal(rng, row) for row in masks]))
                trace.add(observations, rewards, dones)
        return trace.hexdigest()

    check_reproducible(lambda seed: run_sb3(SB3VecEnv(VectorEnv(ENV, 2, **OPTIONS)), seed))
    check_reproducible(lambda seed: run_sb3(make_vec_env(registered_id(ENV), n_envs=2, env_kwargs=OPTIONS), seed))


def test_openspiel_games_of_one_seed_are_the_same() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import labyrinth_env.openspiel  # noqa: F401

    def run(seed: int) -> str:
        game = pyspiel.load_game("labyrinth_team_edition", {**OPTIONS, "seed": seed})
        rng = np.random.default_rng(0)
        trace = Trace()
        for _game in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                trace.add(state.observation_tensor())
                state.apply_action(int(rng.choice(state.legal_actions())))
            trace.add(state.returns())
        return trace.hexdigest()

    check_reproducible(run)


def test_rllib_env_runner_resets_continue_the_seeded_stream() -> None:
    """RLlib's env runner seeds its env's first reset only (``config.debugging(seed=...)``)
    and resets it bare for every later episode."""
    pytest.importorskip("tree")  # dm-tree: installed with ray[rllib], in RLlib's own venv
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner

    from labyrinth_env.rllib import ppo_config

    def run(seed: int) -> str:
        runner = MultiAgentEnvRunner(config=ppo_config(ENV, **OPTIONS).debugging(seed=seed))
        trace = Trace()
        episodes = runner.sample(num_episodes=2) + runner.sample(num_episodes=2)  # each sample() resets
        for episode in episodes:
            for _agent, single in sorted(episode.agent_episodes.items()):
                trace.add(single.get_observations()["observations"], single.get_rewards())
        runner.stop()
        return trace.hexdigest()

    check_reproducible(run)
