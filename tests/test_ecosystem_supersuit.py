"""SuperSuit on the AEC envs (issue 23, items 1 and 6): its observation wrappers need a Box,
so ``observation_format="flat"`` gives the observation vector with the legal actions in
``infos[agent]["action_mask"]`` (the final step included); its stateful wrappers call
``observe`` after every step, the last included."""

from __future__ import annotations

import numpy as np
import pytest

import labyrinth_env

supersuit = pytest.importorskip("supersuit")

ENV_IDS = [spec.env_id for spec in labyrinth_env.specs()]

WRAPPERS = {
    "dtype_v0": lambda env: supersuit.dtype_v0(env, np.float16),
    "normalize_obs_v0": lambda env: supersuit.normalize_obs_v0(env, env_min=-1.0, env_max=1.0),
    "flatten_v0": lambda env: supersuit.flatten_v0(env),
    "delay_observations_v0": lambda env: supersuit.delay_observations_v0(env, 2),
    "frame_stack_v1": lambda env: supersuit.frame_stack_v1(env, 2),
}


@pytest.mark.parametrize("wrapper", sorted(WRAPPERS))
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_supersuit_wrappers_play_whole_games_on_the_flat_format(env_id: str, wrapper: str) -> None:
    env = WRAPPERS[wrapper](labyrinth_env.make(env_id, observation_format="flat", max_turns=8))
    twin = labyrinth_env.make(env_id, max_turns=8)  # the dict format, same game
    env.reset(seed=3)
    twin.reset(seed=3)
    rng = np.random.default_rng(0)
    space = env.observation_space(env.possible_agents[0])
    steps = 0
    for agent in env.agent_iter(5000):
        obs, _, term, trunc, info = env.last()
        assert space.contains(obs.astype(space.dtype)) and obs.shape == space.shape
        assert agent == twin.agent_selection
        np.testing.assert_array_equal(info["action_mask"], twin.observe(agent)["action_mask"])
        infos = env.unwrapped.infos
        assert not any(infos[other]["action_mask"].any() for other in infos if other != agent)
        action = None if term or trunc else int(rng.choice(np.flatnonzero(info["action_mask"])))
        env.step(action)
        twin.step(action)
        steps += 1
    assert not env.agents and steps > 10, "the game ran to its end"
    # after the end the env still answers (PettingZoo's own wrappers' last() does not)
    _, _, term, trunc, info = env.unwrapped.last()
    assert term or trunc
    assert not info["action_mask"].any()


def test_the_dict_format_is_what_supersuits_box_wrappers_refuse() -> None:
    env = labyrinth_env.make("team_edition_v2")
    with pytest.raises(Exception):  # noqa: B017 - SuperSuit's own error for a Dict space
        supersuit.dtype_v0(env, np.float16)


def test_the_flat_observation_is_the_dict_formats_vector() -> None:
    flat = labyrinth_env.make("labyrinthos_v2", observation_format="flat")
    as_dict = labyrinth_env.make("labyrinthos_v2")
    flat.reset(seed=1)
    as_dict.reset(seed=1)
    agent = flat.agent_selection
    np.testing.assert_array_equal(flat.observe(agent), as_dict.observe(agent)["observation"])
    assert flat.observation_space(agent) == as_dict.observation_space(agent)["observation"]
    # what a tournament hands an agent does not depend on the format
    view = flat.seat_view(agent, model=False)
    np.testing.assert_array_equal(view.observation, as_dict.observe(agent)["observation"])
    np.testing.assert_array_equal(view.action_mask, as_dict.observe(agent)["action_mask"])


def test_an_unknown_observation_format_names_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match=r"observation_format='box' is not one of \['dict', 'flat'\]"):
        labyrinth_env.make("labyrinx_v1", observation_format="box")


def test_pettingzoo_env_to_vec_env_keeps_the_masks() -> None:
    """SuperSuit's ``pettingzoo_env_to_vec_env_v1`` over ``parallel_env`` in the flat format
    (issue 34, item 6): one row per seat, each with its mask in infos, across the games
    it starts again by itself; no action it sends is illegal."""
    env = labyrinth_env.parallel_env("team_edition_v2", observation_format="flat", num_players=2, max_turns=4)
    venv = supersuit.pettingzoo_env_to_vec_env_v1(env)
    observations, infos = venv.reset(seed=0)
    assert observations.shape == (2, env.observation_space("player_0").shape[0])
    rng = np.random.default_rng(0)
    games = 0
    for _ in range(80):
        masks = np.stack([info["action_mask"] for info in infos])
        assert masks.any(axis=1).sum() == 1, "one seat decides at a time"
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        observations, _, terminations, truncations, infos = venv.step(actions)
        games += int((terminations | truncations).all())
    assert games >= 2 and env.unwrapped.illegal_action is None
