"""The ``lookahead`` option every ruleset offers (issue 35: per-action features for learners
that any RL library can use): its layout, what each row says, and that it depends on the
seat's information alone, over whole games."""

from __future__ import annotations

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env.agents.policies import check_layout
from labyrinth_env.core.batch_template import LOOKAHEAD_FEATURES, PROGRESS_SCALE


@pytest.mark.parametrize("env_id", labyrinth_env.list_envs())
def test_every_ruleset_offers_the_lookahead_option_and_its_layout(env_id: str) -> None:
    plain = labyrinth_env.raw_env(env_id)
    env = labyrinth_env.raw_env(env_id, lookahead=True)
    K = env.kernel
    assert plain.obs_size == plain.observation_size() and plain.lookahead_layout() is None
    layout = check_layout(env.lookahead_layout(), env.obs_size, K.NUM_ACTIONS)
    assert env.observation_space("player_0")["observation"].shape == (env.obs_size,)
    if env.generic_lookahead():
        assert layout["base_size"] == plain.obs_size
        assert env.obs_size == plain.obs_size + LOOKAHEAD_FEATURES * K.NUM_ACTIONS
        names = env.action_names()
        kinds = layout["kinds"]
        assert all((kinds[a] == kinds[b]) == (names[a].split()[0] == names[b].split()[0]) for a, b in [(0, -1), (0, 1)])
    with pytest.raises(ValueError, match="lookahead"):
        labyrinth_env.raw_env(env_id, lookahead=1)


def test_each_row_reads_the_position_its_action_leads_to() -> None:
    """Toy race: for the seat to act, a legal action's row holds 0.5 + tanh(10 x the change of
    its progress)/2, the rival's likewise, 0.5 + result/2, whether it acts again, and 1;
    illegal actions' rows and every row of a seat not to act are zero. The toy's moves are
    settled by a die already thrown, so the real record gives the same changes."""
    env = labyrinth_env.make("toy_race_v0", num_players=2, lookahead=True)
    env.reset(seed=4)
    K = env.unwrapped.kernel
    rng = np.random.default_rng(0)
    checked = moved_closer = 0
    while K.to_act(env.unwrapped.record) >= 0:
        raw = env.unwrapped
        seat = int(K.to_act(raw.record))
        obs = env.observe(f"player_{seat}")
        block = obs["observation"][K.OBS_SIZE :].reshape(K.NUM_ACTIONS, LOOKAHEAD_FEATURES)
        mask = obs["action_mask"].astype(bool)
        assert not block[~mask].any()
        assert (block[mask, 4] == 1).all()
        other = env.observe(f"player_{1 - seat}")["observation"][K.OBS_SIZE :]
        assert not other.any()
        for a in np.flatnonzero(mask):
            after = raw._states[:1].copy()
            K.step(after[0], a)
            if K.to_act(after[0]) < 0:
                returns = np.zeros(K.NUM_SEATS)
                K.returns(after[0], returns)
                assert block[a, 2] == pytest.approx(0.5 + 0.5 * returns[seat])
                continue
            own = PROGRESS_SCALE * (K.progress(after[0], seat) - K.progress(raw.record, seat))
            rival = PROGRESS_SCALE * (K.progress(after[0], 1 - seat) - K.progress(raw.record, 1 - seat))
            assert block[a, 0] == pytest.approx(0.5 + 0.5 * np.tanh(own), abs=1e-6)
            assert block[a, 1] == pytest.approx(0.5 + 0.5 * np.tanh(rival), abs=1e-6)
            assert block[a, 3] == float(K.to_act(after[0]) == seat)
            moved_closer += block[a, 0] > 0.5
        checked += 1
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 10 and moved_closer > 0


@pytest.mark.parametrize(("env_id", "options"), [("labyrinx_v1", {"num_players": 3}), ("toy_race_v0", {})])
def test_the_block_depends_on_the_seats_information_alone(env_id: str, options: dict) -> None:
    """At every decision of whole games, the true record and a world the deciding seat
    cannot tell from it (its seat view's sample: Labyrinx's other hands, draw pile and
    dice; the toy's dice) give the same observation, lookahead block included."""
    spec = labyrinth_env.get_spec(env_id)
    K = spec.kernel
    env = labyrinth_env.make(env_id, lookahead=True, **options)
    size = env.unwrapped.obs_size
    rng = np.random.default_rng(0)
    compared = differing = 0
    for game in range(2):
        env.reset(seed=5 + game)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            raw = env.unwrapped
            seat = int(K.to_act(raw.record))
            mask = observation["action_mask"]
            if np.count_nonzero(mask) >= 2:
                true_states = raw._states[:1].copy()
                other = raw.seat_view(agent).model.sample(seed=1234 + compared)
                differing += not np.array_equal(true_states[0]["rng"], other[0]["rng"])
                blocks = []
                for states in (true_states, other):
                    obs = np.zeros(size, dtype=np.float32)
                    spec.loops.observe_one(states, seat, obs)
                    spec.loops.lookahead_game(states, seat, obs)
                    blocks.append(obs)
                np.testing.assert_array_equal(blocks[0], blocks[1])
                assert blocks[0][K.OBS_SIZE :].any()
                compared += 1
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert compared >= 20 and differing >= 10, (compared, differing)


def test_lookahead_observations_stay_in_the_box_and_unpickle() -> None:
    import pickle

    env = labyrinth_env.make("toy_race_v0", lookahead=True)
    env.reset(seed=1)
    again = pickle.loads(pickle.dumps(env))
    space = env.observation_space("player_0")
    for agent in env.possible_agents:
        assert space.contains(env.observe(agent))
        np.testing.assert_array_equal(env.observe(agent)["observation"], again.observe(agent)["observation"])
