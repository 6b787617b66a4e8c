"""Every observation lies in its declared space (issue 32, item 4): the AEC env's Dict (a
float32 Box in [0, 1] and the mask) for every seat at every decision, and the vector env's
batched Box (the final observations of ended games too), in long random and heuristic play
of all five rulesets, with the option variants that have the most players and the largest
table. Labyrinx's discard-pile feature, a float32 sum of 1/KIND_COUNT, reached 1.0000001
(3 players, ``table_size=5``, seed 7, about 250 random vector steps)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import labyrinth_env
from labyrinth_env.agents import make_agent
from labyrinth_env.vector import VectorEnv
from tests.test_fuzz import _fields, _valid_value, fuzz

# ruleset -> option variants: the most players, the largest table, every component in play
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "labyrinthos": [{"num_players": 4, "monster": "medusa"}, {"num_players": 4, "monster": "cerberus"}],
    "labyrinx": [
        {"num_players": 6, "table_size": 13, "character_powers": True},
        {"num_players": 3, "table_size": 5},
    ],
    "paths_of_destiny_2011": [{"num_players": 6, "characters": "random"}],
    "paths_of_destiny_3e": [{"num_players": 6, "characters": "random", "two_player_variant": False}],
    "team_edition": [{"num_players": 4, "variant": "expert", "public_memory": False}],
}
ENV_IDS = sorted(s.env_id for s in labyrinth_env.specs() if not s.package.startswith("tests."))
CASES = [(e, k) for e in ENV_IDS for k in range(len(VARIANTS[e.rsplit("_v", 1)[0]]))]
AEC_DECISIONS, VECTOR_STEPS = 1500, 400


def _options(env_id: str, k: int) -> dict[str, Any]:
    return VARIANTS[env_id.rsplit("_v", 1)[0]][k]


def _outside(space: Any, obs: np.ndarray) -> str:
    """Why ``obs`` is not in the Box ``space`` (the first index out of bounds)."""
    bad = np.flatnonzero((obs < space.low) | (obs > space.high) | np.isnan(obs))
    where = f"index {bad[0]} = {obs.flat[bad[0]]!r}" if bad.size else f"shape {obs.shape}, dtype {obs.dtype}"
    return f"{bad.size} values outside [0, 1], first {where}"


def test_every_builtin_ruleset_has_variants():
    assert {e.rsplit("_v", 1)[0] for e in ENV_IDS} == set(VARIANTS)


@pytest.mark.parametrize("agent", ["random", "heuristic"])
@pytest.mark.parametrize(("env_id", "k"), CASES)
def test_aec_observations_stay_in_their_space(env_id, k, agent):
    """Whole games one after another, every seat's observation at every decision."""
    options = {**_options(env_id, k), "max_turns": None if env_id.startswith("team") else 1000}
    env = labyrinth_env.raw_env(env_id, **options)
    rng = np.random.default_rng(k)
    player = make_agent("heuristic", seed=k) if agent == "heuristic" else None
    checked = games = 0
    while checked < AEC_DECISIONS:
        env.reset(seed=7 + k + 100 * games)
        games += 1
        while env.agents and checked < AEC_DECISIONS:
            name = env.agent_selection
            if env.terminations[name] or env.truncations[name]:
                env.step(None)
                continue
            for seat in env.possible_agents:
                obs = env.observe(seat)
                space = env.observation_space(seat)
                assert space.contains(obs), (
                    f"game {games}, {seat}: {_outside(space['observation'], obs['observation'])}"
                )
            obs = env.observe(name)
            action = (
                int(rng.choice(np.flatnonzero(obs["action_mask"]))) if player is None else int(player.act(obs, env))
            )
            env.step(action)
            checked += 1


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
@pytest.mark.parametrize(("env_id", "k"), CASES)
def test_vector_observations_stay_in_their_space(env_id, k, opponents):
    """The learner's observations of 8 games (their next games after they end) and the last
    observations of those that ended."""
    venv = VectorEnv(env_id, 8, opponents=opponents, seed=7, parallel=False, **_options(env_id, k))
    obs, _ = venv.reset(seed=7)
    rng = np.random.default_rng(7)
    space, single = venv.observation_space, venv.single_observation_space
    for step in range(VECTOR_STEPS):
        assert space.contains(obs), f"step {step}: {_outside(space, obs)}"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()], dtype=np.int64)
        obs, _, terminated, truncated, info = venv.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            final = info["final_obs"][i]
            assert single.contains(final), f"step {step}, env {i} (ended): {_outside(single, final)}"
    assert space.contains(obs), _outside(space, obs)


def test_labyrinx_whole_discarded_kinds_are_exactly_one():
    """Every card in the discard pile (a record edited to hold them all): each kind's
    discard feature is exactly 1, never a float32 sum above it."""
    from labyrinth_env.rulesets.labyrinx.kernel import G_BASE, G_DISCARD_KINDS, KIND_COUNT, NUM_CARDS

    env = labyrinth_env.raw_env("labyrinx_v1", num_players=3, table_size=5)
    env.reset(seed=7)
    s = env._states[0]
    s["discard"][:NUM_CARDS] = np.arange(NUM_CARDS)
    s["discard_len"] = NUM_CARDS
    obs = env.observe("player_0")["observation"]
    kinds = obs[G_BASE + G_DISCARD_KINDS : G_BASE + G_DISCARD_KINDS + len(KIND_COUNT)]
    assert kinds.tolist() == [1.0] * len(KIND_COUNT)
    assert env.observation_space("player_0")["observation"].contains(obs), _outside(
        env.observation_space("player_0")["observation"], obs
    )


# --- fuzz: any valid options, any game ----------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
@fuzz(8)
@given(data=st.data())
def test_fuzz_observations_of_any_valid_options_stay_in_their_space(env_id, data):
    """Options drawn as the fuzz suite draws valid ones, a game seed, then up to 300 random
    decisions: the deciding seat's observation at each, every seat's at the end."""
    fields = _fields(env_id)
    lo, hi = labyrinth_env.get_spec(env_id).players
    players = data.draw(st.integers(lo, hi), label="num_players")
    options: dict[str, Any] = {"num_players": players}
    for name, opt in fields.items():
        if name != "num_players" and data.draw(st.booleans(), label=f"set {name}"):
            options[name] = data.draw(_valid_value(env_id, name, opt, players), label=name)
    try:
        env = labyrinth_env.raw_env(env_id, **options)
    except ValueError:
        return  # a refused combination (test_fuzz checks the message)
    env.reset(seed=data.draw(st.integers(0, 2**64 - 1), label="seed"))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="actions"))
    for _ in range(300):
        name = env.agent_selection
        if not env.agents or env.terminations[name] or env.truncations[name]:
            break
        obs = env.observe(name)
        assert env.observation_space(name).contains(obs), _outside(
            env.observation_space(name)["observation"], obs["observation"]
        )
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for seat in env.possible_agents:
        obs = env.observe(seat)
        assert env.observation_space(seat).contains(obs), _outside(
            env.observation_space(seat)["observation"], obs["observation"]
        )
