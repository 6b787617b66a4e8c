"""The envs through Gymnasium's and PettingZoo's own registries (``import labyrinth_env``
registers them): the same games as through labyrinth_env's constructors."""

import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from generic_env_checks import play_random

import labyrinth_env
from labyrinth_env.registry import register_envs, registered_id
from labyrinth_env.single import SingleAgentEnv
from labyrinth_env.vector import VectorEnv


@pytest.mark.parametrize("env_id", labyrinth_env.list_envs())
def test_every_env_is_registered_under_its_namespaced_id(env_id):
    rid = registered_id(env_id)
    game, version = env_id.rsplit("_v", 1)
    assert rid == f"labyrinth_env/{game}-v{version}"
    spec = gymnasium.spec(rid)
    assert spec.kwargs == {"env_id": env_id}
    assert spec.entry_point == "labyrinth_env.single:SingleAgentEnv"
    assert spec.vector_entry_point == "labyrinth_env.vector:VectorEnv"
    assert rid in pettingzoo.aec_registry


def test_registered_id_of_an_unknown_env():
    with pytest.raises(ValueError, match="unknown env id 'chess_v0'; available: labyrinthos_v2"):
        registered_id("chess_v0")


@pytest.mark.parametrize("env_id", labyrinth_env.list_envs())
def test_another_version_of_a_game_names_the_version_this_release_plays(env_id):
    game, version = env_id.rsplit("_v", 1)
    old = f"{game}_v{int(version) + 7}"
    with pytest.raises(
        ValueError, match=rf"unknown env id '{old}' \({old} is another version of {game}; this release plays {env_id}\)"
    ):
        labyrinth_env.make(old)


def test_registering_again_changes_nothing_and_does_not_warn():
    before = gymnasium.spec(registered_id("team_edition_v2"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        register_envs()
    assert gymnasium.spec(registered_id("team_edition_v2")) is before


def test_gymnasium_make_is_the_single_agent_env():
    made = gymnasium.make("labyrinth_env/paths_of_destiny_3e-v3", num_players=2, opponents="heuristic")
    direct = SingleAgentEnv("paths_of_destiny_3e_v3", num_players=2, opponents="heuristic")
    assert isinstance(made.unwrapped, SingleAgentEnv)
    assert made.observation_space == direct.observation_space and made.action_space == direct.action_space
    obs_m, _ = made.reset(seed=3)
    obs_d, _ = direct.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        assert np.array_equal(obs_m, obs_d)
        mask = made.get_wrapper_attr("action_masks")()  # what sb3-contrib's mask helper calls
        assert np.array_equal(mask, direct.action_masks())
        action = int(rng.choice(np.flatnonzero(mask)))
        obs_m, r_m, term_m, trunc_m, _ = made.step(action)
        obs_d, r_d, term_d, trunc_d, _ = direct.step(action)
        assert (r_m, term_m, trunc_m) == (r_d, term_d, trunc_d)
        if term_m or trunc_m:
            obs_m, _ = made.reset(seed=4)
            obs_d, _ = direct.reset(seed=4)


def test_gymnasium_make_passes_options_and_names_bad_ones():
    with pytest.raises(ValueError, match="unknown option"):
        gymnasium.make("labyrinth_env/team_edition-v2", players=2)
    with pytest.raises(ValueError, match="illegal_action must be 'raise' or 'penalty'"):
        gymnasium.make("labyrinth_env/team_edition-v2", illegal_action="ignore")


def test_numpy_scalar_options_are_accepted_and_stored_as_python_values():
    """``np.int64(2)`` is an int option's 2 and ``np.str_`` a str option's str, stored as
    plain Python values (so configs, replays and reprs hold no numpy types); a numpy
    float is still no int, and a numpy bool no number."""
    env = labyrinth_env.raw_env("team_edition_v2", num_players=np.int64(2), variant=np.str_("standard"))
    assert env.options.num_players == 2 and type(env.options.num_players) is int
    assert type(env.options.variant) is str
    env = labyrinth_env.raw_env("team_edition_v2", lookahead=np.bool_(True))
    assert env.options.lookahead is True
    with pytest.raises(ValueError, match=r"option num_players=2\.0 is not allowed"):
        labyrinth_env.raw_env("team_edition_v2", num_players=np.float64(2))
    with pytest.raises(ValueError, match="option num_players=True is not allowed"):
        labyrinth_env.raw_env("team_edition_v2", num_players=np.bool_(True))


def test_gymnasium_make_vec_is_the_vector_env():
    vec = gymnasium.make_vec("labyrinth_env/team_edition-v2", num_envs=3, num_players=2, seed=5)
    direct = VectorEnv("team_edition_v2", 3, num_players=2, seed=5)
    assert isinstance(vec, VectorEnv) and vec.num_envs == 3
    obs_v, _ = vec.reset(seed=5)
    obs_d, _ = direct.reset(seed=5)
    assert np.array_equal(obs_v, obs_d)
    actions = np.array([np.flatnonzero(m)[0] for m in vec.action_masks()])
    assert np.array_equal(vec.step(actions)[0], direct.step(actions)[0])


def test_pettingzoo_make_is_labyrinth_env_make():
    made = pettingzoo.make("aec", "labyrinth_env/labyrinthos-v2", num_players=3)
    direct = labyrinth_env.make("labyrinthos_v2", num_players=3)
    assert type(made) is type(direct)
    actions = play_random(made, seed=11, max_steps=300)
    assert actions == play_random(direct, seed=11, max_steps=300) and len(actions) > 50
    assert made.log_digest() == direct.log_digest()
