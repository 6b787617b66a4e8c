"""The vector env against Gymnasium 1.x's vector API (issue 23, item 5): autoreset modes,
per-env seeds, partial resets, ``final_info``, ``call``/``get_attr``/``set_attr``, and the
final step's mask through ``gymnasium.make_vec(..., vectorization_mode="sync")``."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from labyrinth_env.registry import registered_id
from labyrinth_env.vector import VectorEnv

ENV = "team_edition_v2"
OPTIONS = {"max_turns": 4}  # short games: several end within a few steps


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


def step_until_a_game_ends(env, rng: np.random.Generator) -> tuple:
    """Random legal steps until some env's game ends; that step's results."""
    for _ in range(200):
        result = env.step(random_actions(env.action_masks(), rng))
        if (result[2] | result[3]).any():
            return result
    pytest.fail("no game ended")


def test_next_step_shows_the_final_observation_then_the_next_game_ignoring_the_action() -> None:
    nxt = VectorEnv(ENV, 4, autoreset_mode="next-step", **OPTIONS)
    same = VectorEnv(ENV, 4, **OPTIONS)
    assert nxt.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert same.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    a, _ = nxt.reset(seed=9)
    b, _ = same.reset(seed=9)
    np.testing.assert_array_equal(a, b)
    rng = np.random.default_rng(0)
    for _ in range(200):
        acts = random_actions(same.action_masks(), rng)
        obs_n, rew_n, term_n, trunc_n, info_n = nxt.step(acts)
        obs_s, rew_s, term_s, trunc_s, info_s = same.step(acts.copy())
        np.testing.assert_array_equal(rew_n, rew_s)
        np.testing.assert_array_equal(term_n | trunc_n, term_s | trunc_s)
        done = term_s | trunc_s
        if done.any():
            break
        np.testing.assert_array_equal(obs_n, obs_s)
    else:
        pytest.fail("no game ended")
    ended = np.flatnonzero(done)
    # the step that ends a game shows its last observation, not the next game's first
    np.testing.assert_array_equal(obs_n[ended], np.stack(info_s["final_obs"][ended]))
    np.testing.assert_array_equal(obs_n[~done], obs_s[~done])
    assert "final_obs" not in info_n and "final_return" in info_n
    begun = obs_s[ended].copy()
    # the next step ignores the ended envs' actions (even an illegal one) and shows the new game
    acts = random_actions(nxt.action_masks(), rng)
    acts[ended] = 0 if not nxt.action_masks()[ended[0], 0] else int(np.flatnonzero(~nxt.action_masks()[ended[0]])[0])
    states_before = nxt.states[ended].copy()
    obs, rew, term, trunc, _ = nxt.step(acts)
    np.testing.assert_array_equal(obs[ended], begun)
    assert (rew[ended] == 0).all() and not (term[ended] | trunc[ended]).any()
    assert nxt.states[ended].tobytes() == states_before.tobytes()
    # and the action after that is played
    nxt.step(random_actions(nxt.action_masks(), rng))
    assert nxt.states[ended].tobytes() != states_before.tobytes()


def test_gymnasiums_normalize_observation_takes_the_next_step_env() -> None:
    with pytest.raises(ValueError, match="NEXT_STEP"):
        gymnasium.wrappers.vector.NormalizeObservation(VectorEnv(ENV, 2, **OPTIONS))
    env = gymnasium.wrappers.vector.NormalizeObservation(VectorEnv(ENV, 2, autoreset_mode="next-step", **OPTIONS))
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    for _ in range(30):
        env.step(random_actions(env.unwrapped.action_masks(), rng))


def test_disabled_mode_needs_a_partial_reset_and_it_resets_only_the_masked_envs() -> None:
    env = VectorEnv(ENV, 4, autoreset_mode=AutoresetMode.DISABLED, **OPTIONS)
    env.reset(seed=4)
    rng = np.random.default_rng(2)
    obs, _, term, trunc, _ = step_until_a_game_ends(env, rng)
    done = term | trunc
    with pytest.raises(ValueError, match=r"autoreset_mode='disabled'.*reset_mask"):
        env.step(random_actions(env.action_masks(), rng))
    kept = env.states[~done].copy()
    kept_obs = obs[~done].copy()
    new_obs, _ = env.reset(options={"reset_mask": done})
    assert env.states[~done].tobytes() == kept.tobytes()
    np.testing.assert_array_equal(new_obs[~done], kept_obs)
    env.step(random_actions(env.action_masks(), rng))  # every env plays again


def test_seed_lists_give_each_env_its_own_game_and_partial_resets_follow_the_seed() -> None:
    a = VectorEnv(ENV, 3, **OPTIONS)
    b = VectorEnv(ENV, 3, **OPTIONS)
    obs_a, _ = a.reset(seed=[5, 6, 7])
    obs_b, _ = b.reset(seed=[7, 8, 5])
    # env i's game depends on its own seed only, in whichever slot
    assert a.states[0].tobytes() == b.states[2].tobytes() and a.states[2].tobytes() == b.states[0].tobytes()
    assert a.states[0].tobytes() != a.states[1].tobytes()
    np.testing.assert_array_equal(obs_a[0], obs_b[2])
    # a partial reset with an int seed gives the masked envs the games a full reset gives them
    full = VectorEnv(ENV, 3, **OPTIONS)
    full.reset(seed=11)
    mask = np.array([False, True, False])
    before = a.states[[0, 2]].copy()
    a.reset(seed=11, options={"reset_mask": mask})
    assert a.states[1].tobytes() == full.states[1].tobytes()
    assert a.states[[0, 2]].tobytes() == before.tobytes()
    with pytest.raises(ValueError, match="one per env"):
        a.reset(seed=[1, 2])


@pytest.mark.parametrize(
    "options, message",
    [
        ({"num_players": 3}, "may only hold 'reset_mask'"),
        ({"reset_mask": [1, 0, 1]}, "bool array of shape"),
        ({"reset_mask": np.ones(2, dtype=bool)}, "bool array of shape"),
    ],
)
def test_reset_refuses_unknown_options_and_bad_masks(options: dict, message: str) -> None:
    env = VectorEnv(ENV, 3, **OPTIONS)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=message):
        env.reset(options=options)


def test_the_first_reset_starts_every_env() -> None:
    with pytest.raises(ValueError, match="first reset"):
        VectorEnv(ENV, 2).reset(options={"reset_mask": np.array([True, False])})


def test_same_step_reports_final_info() -> None:
    env = VectorEnv(ENV, 4, **OPTIONS)
    env.reset(seed=1)
    _, _, term, trunc, info = step_until_a_game_ends(env, np.random.default_rng(3))
    done = term | trunc
    np.testing.assert_array_equal(info["_final_info"], done)
    np.testing.assert_array_equal(info["final_info"]["final_return"], info["final_return"])


def test_call_get_attr_and_set_attr() -> None:
    env = VectorEnv(ENV, 3, **OPTIONS)
    env.reset(seed=0)
    masks = env.call("action_masks")
    assert len(masks) == 3 and all((m == row).all() for m, row in zip(masks, env.action_masks(), strict=True))
    assert env.get_attr("num_players") == (env.num_players,) * 3
    assert env.get_attr("game_seeds") == tuple(env.game_seeds)
    env.set_attr("shaping", [0.5, 0.5, 0.5])
    assert env.shaping == 0.5
    with pytest.raises(ValueError, match="share 'shaping'"):
        env.set_attr("shaping", [0.1, 0.2, 0.3])
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        env.get_attr("nope")


def test_unknown_autoreset_mode_names_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match=r"autoreset_mode must be one of \['same-step', 'next-step', 'disabled'\]"):
        VectorEnv(ENV, 2, autoreset_mode="sometimes")


def test_sync_vector_env_final_step_has_a_legal_mask_row() -> None:
    envs = gymnasium.make_vec(registered_id(ENV), num_envs=2, vectorization_mode="sync", max_turns=3)
    _, infos = envs.reset(seed=0)
    rng = np.random.default_rng(4)
    for _ in range(300):
        _, _, term, trunc, infos = envs.step(random_actions(infos["action_mask"], rng))
        if (term | trunc).any():
            break
    else:
        pytest.fail("no game ended")
    # every row, the ended env's included, has an action to send next
    assert infos["action_mask"].any(axis=1).all()
    envs.step(random_actions(infos["action_mask"], rng))


def test_make_vec_renders_every_env_as_gymnasiums_vector_envs_do() -> None:
    """``gymnasium.make_vec(id, n, render_mode="rgb_array")`` (issue 34, item 5): a frame per
    env, as SyncVectorEnv gives them; each is the AEC env's picture of that env's game."""
    import labyrinth_env

    envs = gymnasium.make_vec(registered_id(ENV), num_envs=2, render_mode="rgb_array", **OPTIONS)
    assert envs.render_mode == "rgb_array" and "rgb_array" in envs.metadata["render_modes"]
    envs.reset(seed=[3, 4])
    frames = envs.render()
    assert isinstance(frames, tuple) and len(frames) == 2
    for seed, frame in zip((3, 4), frames):
        env = labyrinth_env.raw_env(ENV, **OPTIONS)
        env.reset(seed=int(envs.unwrapped.game_seeds[[3, 4].index(seed)]))
        np.testing.assert_array_equal(frame, env.picture().to_array())
    texts = VectorEnv(ENV, 2, render_mode="ansi", seed=0, **OPTIONS)
    texts.reset()
    assert all(isinstance(t, str) and t.strip() for t in texts.render())
    with pytest.raises(ValueError, match=r"render_mode='human'.*allowed: \['ansi', 'rgb_array'\]"):
        VectorEnv(ENV, 2, render_mode="human")


def test_a_video_ends_on_the_finished_game() -> None:
    """Gymnasium's frame collection over ``gymnasium.make`` (issue 34, item 4): the frame
    after the step that ends an episode is the finished game's last position (it was the
    next game's first), and stays so until the next reset."""
    import labyrinth_env

    options = {"num_players": 2, "max_turns": 3}  # Team Edition: the learner plays every seat
    env = gymnasium.wrappers.RenderCollection(
        gymnasium.make(registered_id(ENV), render_mode="rgb_array", **options), pop_frames=True
    )
    _, info = env.reset(seed=5)
    actions = []
    done = False
    while not done:
        actions.append(int(np.flatnonzero(info["action_mask"])[0]))
        _, _, terminated, truncated, info = env.step(actions[-1])
        done = terminated or truncated
    frames = env.render()
    assert len(frames) == len(actions) + 1
    same_game = labyrinth_env.raw_env(ENV, **options)
    same_game.reset(seed=int(env.unwrapped.vec.game_seeds[0]))
    for action in actions:
        same_game.step(action)
    assert same_game.record["outcome"] != 0, "the same game ended"
    np.testing.assert_array_equal(frames[-1], same_game.picture().to_array())
    np.testing.assert_array_equal(env.unwrapped.render(), frames[-1])
