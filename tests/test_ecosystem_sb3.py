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
    env = gymnasium.make(registered_id("team_edition_v2"), render_mode="human")
    _, info = env.reset(seed=0)
    after_reset = capsys.readouterr().out
    assert after_reset.strip(), "human mode draws at reset"
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert capsys.readouterr().out.strip(), "human mode draws after each step"
    ansi = gymnasium.make(registered_id("team_edition_v2"), render_mode="ansi")
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
    env = SB3VecEnv(VectorEnv("team_edition_v2", 2, max_turns=30), seed=0)
    assert env.env_is_wrapped(gymnasium.Wrapper) == [False, False]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "not wrapped with a Monitor wrapper" would be raised
        rewards, lengths = evaluate_policy(FirstLegal(env), env, n_eval_episodes=4, return_episode_rewards=True)
    assert len(rewards) == len(lengths) == 4
    # Monitor's record: the episode's whole return and length, not the last step's reward
    assert all(length > 1 for length in lengths)
    assert all(np.isfinite(r) for r in rewards)


def test_vec_monitor_over_the_adapter_warns_of_no_monitor_and_counts_episodes() -> None:
    """SB3VecEnv is SB3's VecMonitor over the batch (issue 34, item 6): wrapping it in a
    VecMonitor of one's own said "already wrapped with a Monitor", which it was not."""
    from stable_baselines3.common.vec_env import VecMonitor

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = VecMonitor(SB3VecEnv(VectorEnv("team_edition_v2", 2, max_turns=30), seed=0))
        rewards, lengths = evaluate_policy(FirstLegal(env), env, n_eval_episodes=4, return_episode_rewards=True)
    assert len(rewards) == 4 and all(length > 1 for length in lengths)


def test_sb3_render_tiles_every_env_and_vec_video_recorder_records_them(tmp_path) -> None:
    """SB3's render() and VecVideoRecorder on the batched env (issue 34, item 5): every
    env's picture, tiled by SB3 into one frame per step."""
    vec = VectorEnv("team_edition_v2", 2, max_turns=4, render_mode="rgb_array")
    env = SB3VecEnv(vec, seed=0)
    assert env.render_mode == "rgb_array"
    env.reset()
    frames = env.get_images()
    assert len(frames) == 2 and all(f.ndim == 3 and f.dtype == np.uint8 for f in frames)
    tiled = env.render("rgb_array")
    assert tiled.ndim == 3 and tiled.shape[0] * tiled.shape[1] >= 2 * frames[0].shape[0] * frames[0].shape[1]
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        SB3VecEnv(VectorEnv("team_edition_v2", 2, max_turns=4)).get_images()
    pytest.importorskip("moviepy")
    from stable_baselines3.common.vec_env import VecVideoRecorder

    recorder = VecVideoRecorder(env, str(tmp_path), lambda step: step == 0, video_length=3)
    recorder.reset()
    for _ in range(4):
        recorder.step(np.array([np.flatnonzero(row)[0] for row in vec.action_masks()]))
    recorder.close()
    assert list(tmp_path.glob("*.mp4")), "a video was written"


WORKER_SCRIPT = """
def main():
    # the package is imported nowhere at top level here, as in a notebook or `python -c`:
    # only Gymnasium's module:id form brings the ids into a spawned worker
    import numpy as np
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    env_id = "labyrinth_env:labyrinth_env/team_edition-v2"
    for method in ("spawn", "forkserver"):
        venv = make_vec_env(env_id, n_envs=2, vec_env_cls=SubprocVecEnv, vec_env_kwargs={"start_method": method},
                            env_kwargs={"max_turns": 4}, seed=0)
        venv.reset()
        venv.step(np.array([np.flatnonzero(m)[0] for m in venv.env_method("action_masks")]))
        venv.close()
    print("ok")


main()
"""


def test_subproc_workers_find_the_ids_from_a_python_c_parent() -> None:
    """SB3's ``make_vec_env`` with ``SubprocVecEnv`` under spawn and forkserver, from a
    ``python -c`` parent that imports the package nowhere (issue 34, item 3): the id in
    Gymnasium's ``module:id`` form imports ``labyrinth_env`` in each worker."""
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-c", WORKER_SCRIPT], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    assert result.stdout.rstrip().endswith("ok")


def test_check_env_names_the_penalty_option_and_passes_with_it() -> None:
    """Gymnasium's and SB3's ``check_env`` send random actions (issue 34, item 6): the
    default refusal names ``illegal_action="penalty"``, with which both checkers pass."""
    from gymnasium.utils.env_checker import check_env as gymnasium_check_env
    from stable_baselines3.common.env_checker import check_env

    env_id = registered_id("labyrinx_v1")
    with pytest.raises(ValueError, match="illegal_action='penalty'"):
        check_env(gymnasium.make(env_id).unwrapped)
    check_env(gymnasium.make(env_id, illegal_action="penalty").unwrapped)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Gymnasium's notes on the Box bounds' precision
        gymnasium_check_env(gymnasium.make(env_id, illegal_action="penalty").unwrapped)
