"""Pickle and deepcopy (issue 23, item 7): an env pickles by its options, state record and log,
and comes back as the same game; a deep copy is an independent game."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env.single import SingleAgentEnv
from labyrinth_env.vector import VectorEnv

ENV_IDS = labyrinth_env.list_envs()


def first_legal(env) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


def play_on(env, rng: np.random.Generator, steps: int) -> list:
    """Random legal play; what each step showed (the seat, its observation, the rewards)."""
    seen = []
    for _ in range(steps):
        if not env.agents:
            break
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        seen.append((agent, obs["observation"].tobytes(), dict(env.rewards)))
    return seen


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_pickled_env_continues_as_the_same_game(env_id: str) -> None:
    env = labyrinth_env.make(env_id)
    env.reset(seed=11)
    play_on(env, np.random.default_rng(0), 25)
    restored = pickle.loads(pickle.dumps(env))
    assert type(restored) is type(env)
    assert restored.record.tobytes() == env.record.tobytes()
    assert restored.game_log == env.game_log and restored.actions_taken == env.actions_taken
    assert play_on(restored, np.random.default_rng(1), 300) == play_on(env, np.random.default_rng(1), 300)
    assert restored.replay_dict() == env.replay_dict()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_deep_copy_is_an_independent_game(env_id: str) -> None:
    env = labyrinth_env.make(env_id)
    env.reset(seed=12)
    play_on(env, np.random.default_rng(2), 10)
    before = (env.record.tobytes(), env.agent_selection, list(env.actions_taken), list(env.game_log))
    twin = copy.deepcopy(env)
    play_on(twin, np.random.default_rng(3), 30)
    assert twin.actions_taken != env.actions_taken
    assert (env.record.tobytes(), env.agent_selection, list(env.actions_taken), list(env.game_log)) == before
    # and the original still plays
    env.step(first_legal(env))


def test_a_fresh_env_pickles_before_reset() -> None:
    env = labyrinth_env.make("team_edition_v2", num_players=3)
    restored = pickle.loads(pickle.dumps(env))
    assert restored.options == env.options
    restored.reset(seed=0)
    env.reset(seed=0)
    assert restored.record.tobytes() == env.record.tobytes()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_pickled_vector_env_continues_as_the_same_games(env_id: str) -> None:
    venv = VectorEnv(env_id, 3, opponents="random")
    venv.reset(seed=5)
    rng = np.random.default_rng(4)

    def actions(masks: np.ndarray) -> np.ndarray:
        return np.array([rng.choice(np.flatnonzero(row)) for row in masks])

    for _ in range(5):
        venv.step(actions(venv.action_masks()))
    twin = pickle.loads(pickle.dumps(venv))
    clone = copy.deepcopy(venv)
    for _ in range(20):
        chosen = actions(venv.action_masks())
        a, b, c = venv.step(chosen), twin.step(chosen.copy()), clone.step(chosen.copy())
        for x, y in ((a, b), (a, c)):
            for got, want in zip(x[:4], y[:4], strict=True):
                np.testing.assert_array_equal(got, want)
    assert clone.states is not venv.states


def test_a_single_agent_env_deep_copies() -> None:
    env = SingleAgentEnv("team_edition_v2")
    env.reset(seed=3)
    twin = copy.deepcopy(env)
    action = int(np.flatnonzero(env.action_masks())[0])
    got, want = twin.step(action), env.step(action)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:4] == want[1:4]
