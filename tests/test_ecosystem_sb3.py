"""Gymnasium and stable-baselines3 as their own documentation uses them (issue 23, items 3
and 8): ``gymnasium.make(id, render_mode=...)``, SB3's ``make_vec_env(id)`` (which asks for
``rgb_array``) and ``evaluate_policy`` on the batched env."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import labyrinth_env
import labyrinth_env.single
from labyrinth_env.registry import registered_id

pytest.importorskip("stable_baselines3")

from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.evaluation import evaluate_policy

from labyrinth_env.sb3 import SB3VecEnv
from labyrinth_env.vector import VectorEnv

PICTURED = [spec.env_id for spec in labyrinth_env.specs() if spec.picture_module is not None]


@pytest.mark.parametrize("env_id", PICTURED)
def test_gymnasium_make_renders_rgb_array(env_id: str) -> None:
    env = gymnasium.make(registered_id(env_id), render_mode="rgb_array")
    _, info = env.reset(seed=0)
    image = env.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.ndim == 3 and image.shape[2] == 3 and min(image.shape[:2]) > 50
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.render().shape == image.shape
    env.close()


def test_human_mode_without_a_display_prints_the_board(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    env = gymnasium.make(registered_id("team_edition_v1"), render_mode="human")
    _, info = env.reset(seed=0)
    after_reset = capsys.readouterr().out
    assert after_reset.strip(), "human mode draws at reset"
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert capsys.readouterr().out.strip(), "human mode draws after each step"
    ansi = gymnasium.make(registered_id("team_edition_v1"), render_mode="ansi")
    ansi.reset(seed=0)
    assert ansi.render().strip() == after_reset.strip()


def test_an_unknown_render_mode_names_the_allowed_ones() -> None:
    allowed = r"render_mode='rgb'.*allowed: \['ansi', 'human', 'rgb_array'\]"
    # Gymnasium warns first, then the env refuses
    with pytest.warns(UserWarning, match="render_mode='rgb'"), pytest.raises(ValueError, match=allowed):
        gymnasium.make(registered_id("labyrinx_v1"), render_mode="rgb")
    unpictured = [spec.env_id for spec in labyrinth_env.specs() if spec.picture_module is None]
    for env_id in unpictured:  # a ruleset without pictures (the toy one) offers no rgb_array
        with pytest.raises(ValueError, match=r"allowed: \['ansi', 'human'\]"):
            labyrinth_env.single.SingleAgentEnv(env_id, render_mode="rgb_array")


def test_sb3_make_vec_env_steps_with_masks() -> None:
    venv = make_vec_env(registered_id("paths_of_destiny_3e_v3"), n_envs=2, seed=0)
    venv.reset()
    for _ in range(20):
        masks = np.stack(venv.env_method("action_masks"))
        actions = np.array([np.flatnonzero(row)[0] for row in masks])
        venv.step(actions)
    frames = venv.get_images()
    assert len(frames) == 2 and all(f.ndim == 3 for f in frames)
    venv.close()


class FirstLegal:
    """A PolicyPredictor that plays the first legal action of each game."""

    def __init__(self, env: SB3VecEnv) -> None:
        self.env = env

    def predict(self, observation, state=None, episode_start=None, deterministic=False):
        actions = np.array([np.flatnonzero(row)[0] for row in self.env.action_masks()])
        return actions, state


def test_evaluate_policy_counts_episodes_as_with_monitor() -> None:
    env = SB3VecEnv(VectorEnv("team_edition_v1", 2, max_turns=30), seed=0)
    assert env.env_is_wrapped(gymnasium.Wrapper) == [False, False]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "not wrapped with a Monitor wrapper" would be raised
        rewards, lengths = evaluate_policy(FirstLegal(env), env, n_eval_episodes=4, return_episode_rewards=True)
    assert len(rewards) == len(lengths) == 4
    # Monitor's record: the episode's whole return and length, not the last step's reward
    assert all(length > 1 for length in lengths)
    assert all(np.isfinite(r) for r in rewards)
