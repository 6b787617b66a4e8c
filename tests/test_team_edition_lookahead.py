"""Team Edition's ``lookahead`` option: per-action features appended to the observation
(what each legal action would bring the seat to act). The game itself never changes;
the features equal replaying each action on a copy and reading the reach, and use only
what the seat may know."""

from __future__ import annotations

import numpy as np
import pytest
from generic_env_checks import check_pettingzoo_api
from team_helpers import Scenario

import labyrinth_env
from labyrinth_env.rulesets.team_edition import kernel as K

ENV_ID = "team_edition_v2"
F = K.LOOKAHEAD_FEATURES
SKULL = 12


def features(obs: np.ndarray) -> np.ndarray:
    return obs[K.OBS_SIZE :].reshape(K.NUM_ACTIONS, F)


def observe_lookahead(s, seat: int) -> np.ndarray:
    out = np.zeros(K.OBS_SIZE_LOOKAHEAD, dtype=np.float32)
    K.observe(s, seat, out)
    return out


@pytest.mark.parametrize("variant", ["introductory", "standard", "expert"])
def test_lookahead_env_passes_the_pettingzoo_api_test(variant):
    check_pettingzoo_api(ENV_ID, num_cycles=100, num_players=2, variant=variant, lookahead=True)


def test_lookahead_changes_only_the_observation():
    """Same seed and actions with and without the option: the same game, log and masks;
    the observation is the plain one followed by the features."""
    plain = labyrinth_env.raw_env(ENV_ID, num_players=3, variant="standard")
    ahead = labyrinth_env.raw_env(ENV_ID, num_players=3, variant="standard", lookahead=True)
    assert ahead.observation_space("player_0")["observation"].shape == (K.OBS_SIZE_LOOKAHEAD,)
    assert plain.lookahead_layout() is None
    layout = ahead.lookahead_layout()
    assert layout["base_size"] == K.OBS_SIZE and layout["features"] == F and len(layout["kinds"]) == K.NUM_ACTIONS
    rng = np.random.default_rng(5)
    for seed in range(3):
        plain.reset(seed=seed)
        ahead.reset(seed=seed)
        for agent in plain.agent_iter():
            obs_p, _, term, trunc, _ = plain.last()
            obs_a, *_ = ahead.last()
            assert ahead.agent_selection == agent
            assert ahead.observation_space(agent).contains(obs_a)
            assert np.array_equal(obs_a["observation"][: K.OBS_SIZE], obs_p["observation"])
            assert np.array_equal(obs_a["action_mask"], obs_p["action_mask"])
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs_p["action_mask"])))
            plain.step(action)
            ahead.step(action)
        assert ahead.game_log == plain.game_log


def random_positions(env, seeds: range, steps: int, rng: np.random.Generator):
    """Positions of random games in ``env``: yields (state, seat to act, its observation,
    its mask), then plays a random legal action."""
    for seed in seeds:
        env.reset(seed=seed)
        for _ in range(steps):
            s = env._states[0]
            if s["outcome"] != K.RUNNING:
                break
            seat = int(s["seat"])
            obs = env.observe(f"player_{seat}")
            yield s, seat, obs["observation"], obs["action_mask"].astype(bool)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def _reference(states: np.ndarray, seat: int, *actions: int) -> tuple[int, int, int, int]:
    """(sure, maybe, distance, reached) after ``actions``, recomputed by brute force on a
    copy: the reach the kernel leaves, each target's kind, every reach x target pair."""
    copy = states.copy()
    w = copy[0]
    for action in actions:
        assert K.step(w, action)
    hidden = K.hidden_wanted(w, seat)
    kinds = [K.target_kind(w, seat, c, hidden) for c in range(K.NUM_CELLS)]
    reach = [c for c in range(K.NUM_CELLS) if w["reach"][c] > 0]
    targets = [c for c in range(K.NUM_CELLS) if kinds[c] != K.NOT_TARGET]
    sure = sum(kinds[c] == K.SURE_TARGET for c in reach)
    maybe = sum(kinds[c] == K.MAYBE_TARGET for c in reach)
    dist = min((K.manhattan(a, b) for a in reach for b in targets), default=K.MAX_DIST + 1)
    return sure, maybe, dist, len(reach)


def _scaled(ref: tuple[int, int, int, int]) -> tuple[float, float, float, float]:
    sure, maybe, dist, reached = ref
    return min(sure, 2) / 2, min(maybe, 2) / 2, (K.MAX_DIST + 1 - dist) / (K.MAX_DIST + 1), reached / K.NUM_CELLS


@pytest.mark.parametrize("variant", ["introductory", "standard"])
def test_lookahead_features_equal_replaying_each_spell(variant):
    """For every legal Push, Rotate and Switch while a move is left, the features are the
    reach after replaying the spell on a copy; moves are scored by their destination."""
    env = labyrinth_env.raw_env(ENV_ID, num_players=2, variant=variant, lookahead=True)
    checked = 0
    for step, (s, seat, obs, mask) in enumerate(random_positions(env, range(4), 60, np.random.default_rng(1))):
        f = features(obs)
        if step % 3 == 0 and s["decision"] == K.DECISION_MAIN and s["moves_left"] > 0:
            hidden = K.hidden_wanted(s, seat)
            for a in np.flatnonzero(mask):
                if K.A_MOVE <= a < K.A_ROTATE:
                    kind = K.target_kind(s, seat, int(a - K.A_MOVE), hidden)
                    assert f[a, K.LF_SURE] == (1.0 if kind == K.SURE_TARGET else 0.0)
                    continue
                if a == K.A_END:
                    continue
                if a == K.A_FLIP:  # v2: the flip left for later, scored by its best orientation
                    stand = tuple(f[K.A_END, : K.LF_SIMULATED])
                    best = max(stand, *(_scaled(_reference(env._states, seat, a, K.A_ORIENT + o)) for o in range(4)))
                    assert tuple(f[a, : K.LF_SIMULATED]) == pytest.approx(best)
                    continue
                sure, maybe, dist, reached = _reference(env._states, seat, int(a))
                assert f[a, K.LF_SURE] == min(sure, 2) / 2
                assert f[a, K.LF_MAYBE] == min(maybe, 2) / 2
                assert f[a, K.LF_CLOSENESS] == pytest.approx((K.MAX_DIST + 1 - dist) / (K.MAX_DIST + 1))
                assert f[a, K.LF_REACH] == pytest.approx(reached / K.NUM_CELLS)
                checked += 1
        # exactly the legal actions that were looked at carry features
        assert (f[~mask] == 0).all()
        looked = f[:, K.LF_SIMULATED] > 0
        assert looked[K.A_END] or s["decision"] != K.DECISION_MAIN
        if s["moves_left"] > 0 or s["decision"] != K.DECISION_MAIN:
            assert np.array_equal(looked, mask)
    assert checked > 500


def test_lookahead_shows_the_rotation_that_opens_the_way_to_a_wanted_treasure():
    """Yellow at home wants the Skull two cells east; the tile between lies N-S. Turning
    it a quarter (either way) opens the row, turning it half does not."""
    sc = Scenario(lookahead=True)
    sc.lay(1, "NS")
    sc.give(0, SKULL)
    sc.ready()
    f = features(observe_lookahead(sc.s, 0))
    rotate = [f[K.A_ROTATE + 3 * 1 + steps - 1] for steps in (1, 2, 3)]
    assert rotate[0][K.LF_SURE] == 0.5 and rotate[2][K.LF_SURE] == 0.5
    assert rotate[1][K.LF_SURE] == 0.0
    assert rotate[0][K.LF_CLOSENESS] == 1.0  # the reachable area holds the Skull
    here = f[K.A_END]
    assert here[K.LF_SURE] == 0.0 and here[K.LF_CLOSENESS] == pytest.approx(11 / 13)  # 2 cells away
    assert f[K.A_MOVE + 7, K.LF_SIMULATED] == 1.0 and f[K.A_MOVE + 7, K.LF_SURE] == 0.0
    assert f[K.A_MOVE + 2, K.LF_SIMULATED] == 0.0  # not reachable now: not a legal move


def test_lookahead_is_zero_for_a_seat_not_to_act():
    env = labyrinth_env.raw_env(ENV_ID, num_players=3, lookahead=True)
    env.reset(seed=2)
    acting = env.agent_selection
    assert features(env.observe(acting)["observation"]).any()
    for agent in env.agents:
        if agent != acting:
            assert not features(env.observe(agent)["observation"]).any()


def shuffle_face_down(states: np.ndarray, rng: np.random.Generator) -> None:
    """Swap the tiles lying face down in the maze among their cells (what a seat that does
    not recall public history cannot tell apart)."""
    s = states[0]
    cells = [c for c in range(K.NUM_CELLS) if s["tile_down"][s["cell_tile"][c]]]
    if s["decision"] == K.DECISION_FLIP:
        cells.remove(int(s["flip_cell"]))  # (the tile stopped on is the one the seat sees next)
    s["cell_tile"][cells] = rng.permutation(s["cell_tile"][cells])
    K.refresh_board(s)
    if s["decision"] == K.DECISION_MAIN:
        K.compute_reach(s)


@pytest.mark.parametrize("memory", [False, True])
def test_lookahead_uses_only_what_the_seat_may_know(memory):
    """``determinize`` resamples the unread pages and the treasure deck; without public
    memory the seat also cannot tell the face-down tiles apart: the lookahead, like the
    rest of the observation, is the same on every such sample."""
    env = labyrinth_env.raw_env(ENV_ID, num_players=2, public_memory=memory, lookahead=True)
    compared = 0
    rng = np.random.default_rng(4)
    for step, (_, seat, obs, _) in enumerate(random_positions(env, range(3), 80, np.random.default_rng(3))):
        for k in range(2):
            copy = env._states.copy()
            K.determinize(copy[0], seat, np.uint64(1000 * step + k))
            if not memory:
                shuffle_face_down(copy, rng)
            assert np.array_equal(observe_lookahead(copy[0], seat), obs)
            compared += 1
    assert compared > 200


def test_lookahead_is_off_by_default_and_checked():
    env = labyrinth_env.raw_env(ENV_ID)
    assert env.observation_space("player_0")["observation"].shape == (K.OBS_SIZE,)
    with pytest.raises(ValueError, match="lookahead"):
        labyrinth_env.raw_env(ENV_ID, lookahead="yes")
