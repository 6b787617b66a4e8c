"""Tianshou 2.x on the AEC envs, as its PettingZoo tutorial does it: ``PettingZooEnv``, one
random masked algorithm per seat, a vectorised collector (issue 23's integration tests)."""

from __future__ import annotations

import pytest

import labyrinth_env

pytest.importorskip("tianshou")

from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

ENV_IDS = [spec.env_id for spec in labyrinth_env.specs()]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_tianshou_collects_whole_games_with_masked_random_play(env_id: str) -> None:
    def make() -> PettingZooEnv:
        # raw_env: an illegal action would raise here, so every collected action was legal
        return PettingZooEnv(labyrinth_env.raw_env(env_id, max_turns=4))

    env = make()
    algorithms = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)
    # a buffer sized to the run: Tianshou's default holds 2**15 steps per env, hundreds of MB here
    buffer = VectorReplayBuffer(total_size=600, buffer_num=2)
    collector = Collector(algorithm.policy, DummyVectorEnv([make, make]), buffer)
    result = collector.collect(n_step=300, reset_before_collect=True)
    assert result.n_collected_steps >= 300
    assert result.n_collected_episodes >= 2, "several short games ended"
    assert (result.lens > 0).all()
