"""The batched vector env and the single-agent env: same games as the AEC env, auto-reset
at episode ends, opponents inside the kernel or in Python, Gymnasium's checker, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import labyrinth_env
from labyrinth_env.agents.heuristic import HeuristicAgent
from labyrinth_env.registry import player_range
from labyrinth_env.single import SingleAgentEnv
from labyrinth_env.vector import VectorEnv

# every ruleset at its default options is checked by tests/test_rulesets.py; these are the
# option variants that change the observation
# Paths of Destiny 2011 with characters (issue 21; its observation gains the character block):
# dealt at random and listed per seat, every player count; the cast listed has active skills
POD2011_CAST = ["Witch", "Architect", "Monk", "Illusionist", "Thief", "Female Archer"]
CASES = [
    ("team_edition_v2", {"num_players": 2}),
    ("team_edition_v2", {"num_players": 3, "variant": "standard", "lookahead": True}),
    ("toy_race_v0", {"num_players": 2, "lookahead": True}),  # the lookahead every ruleset offers (issue 35)
    *[("paths_of_destiny_2011_v6", {"num_players": n, "characters": "random"}) for n in range(2, 7)],
    *[("paths_of_destiny_2011_v6", {"num_players": n, "characters": POD2011_CAST[:n]}) for n in range(2, 7)],
]


def _first_game_trace(vec: VectorEnv, rng: np.random.Generator, env_index: int):
    """Learner observations, learner actions and the final reward of env ``env_index``'s
    first game, played with random legal learner actions in every env."""
    obs_seen, actions = [], []
    while True:
        masks = vec.action_masks()
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs_seen.append(vec.obs[env_index].copy())
        actions.append(int(acts[env_index]))
        _, rewards, term, trunc, info = vec.step(acts)
        if term[env_index] or trunc[env_index]:
            return obs_seen, actions, float(rewards[env_index]), info["final_obs"][env_index]


@pytest.mark.parametrize(("env_id", "options"), CASES)
def test_vector_env_plays_the_same_games_as_the_aec_env(env_id, options):
    check_vector_equals_aec(env_id, options)


def check_vector_equals_aec(env_id: str, options: dict) -> None:
    """The first games of two slots of a ``VectorEnv`` (random learner actions, heuristic
    opponents in the kernel) are the same games through the AEC env with the heuristic
    agent in the other seats: the learner's observations, its return, its last
    observation."""
    cooperative = labyrinth_env.get_spec(env_id).cooperative
    vec = VectorEnv(env_id, 4, learner_seats="rotate", opponents="heuristic", seed=11, **options)
    vec.reset()
    seeds = vec.game_seeds.copy()
    rng = np.random.default_rng(0)
    for i in (0, 1):
        vec.reset(seed=11)
        obs_seen, actions, reward, final_obs = _first_game_trace(vec, rng, i)
        # the same game through the AEC env, the heuristic agent in the other seats
        env = labyrinth_env.raw_env(env_id, **options)
        env.reset(seed=int(seeds[i]))
        learner = None if cooperative else f"player_{i % env.num_agents}"
        heuristic = HeuristicAgent()
        k = 0
        while not any(env.terminations.values()) and not any(env.truncations.values()):
            agent = env.agent_selection
            obs = env.observe(agent)
            if learner is None or agent == learner:
                assert np.array_equal(obs["observation"], obs_seen[k]), f"env {i}, learner step {k}"
                env.step(actions[k])
                k += 1
            else:
                env.step(heuristic.act(obs, env))
        assert k == len(actions)
        seat = int(vec.reward_seats[i])
        assert env._cumulative_rewards[f"player_{seat}"] == pytest.approx(reward)
        assert np.array_equal(env.observe(f"player_{seat}")["observation"], final_obs)


def test_auto_reset_truncation_and_masks_at_episode_end():
    vec = VectorEnv("team_edition_v2", 3, seed=3, num_players=1, max_turns=2)
    obs, info = vec.reset()
    assert info == {} and obs.shape == (3, vec.kernel.OBS_SIZE)
    end = vec.kernel.A_END
    _, rewards, term, trunc, info = vec.step(np.full(3, end))
    assert not trunc.any() and not term.any()
    obs, rewards, term, trunc, info = vec.step(np.full(3, end))
    assert trunc.all() and not term.any() and (rewards == 0).all()
    assert info["_final_obs"].all() and info["final_obs"].shape == (3,)
    assert all(final.shape == obs.shape[1:] for final in info["final_obs"])
    # the slots already hold new games: turn 0, masks for their first decision
    assert (vec.states["turn"] == 0).all()
    assert vec.action_masks().any(axis=1).all()


def test_cooperative_loss_reward_reaches_the_learner():
    vec = VectorEnv("team_edition_v2", 2, seed=5, num_players=2, daedalus_deck={"push": 1})
    vec.reset()
    end = vec.kernel.A_END
    _, rewards, term, _, _ = vec.step(np.full(2, end))
    assert term.all() and (rewards == -1.0).all()


def test_python_opponents_are_batched_and_equal_the_kernel_heuristic():
    vec_k = VectorEnv("paths_of_destiny_3e_v3", 3, learner_seats=0, opponents="heuristic", seed=2, num_players=2)
    calls = []

    def policy(observations, masks):
        # stands in for a frozen network: the same heuristic, called from Python in one
        # batch for every env waiting on an opponent
        calls.append(len(observations))
        idx = np.flatnonzero(vec_p.learners[np.arange(3), vec_p.seats] == 0)
        out = []
        for i in idx:
            m = np.zeros(vec_p.kernel.NUM_ACTIONS, dtype=np.int8)
            out.append(vec_p.loops.heuristic_one(vec_p.states[i : i + 1], m))
        return np.array(out)

    vec_p = VectorEnv("paths_of_destiny_3e_v3", 3, learner_seats=0, opponents=policy, seed=2, num_players=2)
    ok, op = vec_k.reset(), vec_p.reset()
    assert np.array_equal(ok[0], op[0])
    rng = np.random.default_rng(1)
    for _ in range(60):
        masks = vec_k.action_masks()
        assert np.array_equal(masks, vec_p.action_masks())
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        a = vec_k.step(acts)
        b = vec_p.step(acts)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert calls and max(calls) > 1  # one call served several waiting envs


def test_an_opponent_mix_plays_each_env_against_its_share_of_the_kernel_opponents():
    """``opponents={"heuristic": w, "random": w}``: the envs split in proportion (largest
    remainders, in blocks so that rotating seats meet both); a heuristic env plays the
    kernel heuristic's games move for move, a random env random games that the seed
    repeats; a bad mix is refused, naming what is allowed."""
    kw = {"learner_seats": 0, "seed": 2, "num_players": 2}
    mixed = VectorEnv("paths_of_destiny_3e_v3", 4, opponents={"heuristic": 3, "random": 1.0}, **kw)
    assert mixed.mix.tolist() == [1, 1, 1, 0]
    kernel = VectorEnv("paths_of_destiny_3e_v3", 4, opponents="heuristic", **kw)
    again = VectorEnv("paths_of_destiny_3e_v3", 4, opponents={"random": 1, "heuristic": 3}, **kw)
    runs = [v.reset()[0] for v in (mixed, kernel, again)]
    rng = np.random.default_rng(1)
    differs = False
    for _ in range(60):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mixed.action_masks()])
        own = acts.copy()  # env 3 of the kernel's batch is another game: a legal move of its own
        own[3] = np.flatnonzero(kernel.action_masks()[3])[0]
        a, b, c = mixed.step(acts), kernel.step(own), again.step(acts)
        assert np.array_equal(a[0][:3], b[0][:3]) and np.array_equal(a[1][:3], b[1][:3])
        assert np.array_equal(a[0], c[0]) and np.array_equal(a[1], c[1])
        differs |= not np.array_equal(a[0][3], b[0][3])
    assert differs and runs  # the random env's opponent is not the heuristic
    assert VectorEnv("toy_race_v0", 7, opponents={"heuristic": 0.5, "random": 0.5}).mix.tolist() == [
        1,
        1,
        1,
        1,
        0,
        0,
        0,
    ]
    for bad, message in [
        ({"expert": 1}, "unknown opponent 'expert' in the mix"),
        ({"random": -1}, "must be a number >= 0"),
        ({"random": 0}, "needs a weight above 0"),
        (3, "a mix such as"),
    ]:
        with pytest.raises(ValueError, match=message):
            VectorEnv("toy_race_v0", 2, opponents=bad)


def test_returned_observations_never_change_while_held_and_final_obs_is_gymnasiums():
    # copy=True reuses the arrays of earlier steps once nobody holds them: an array still
    # held (even through a view) must never change; final_obs is Gymnasium's object array,
    # None where no game ended (issue 34, item 6: it was zeros)
    vec = VectorEnv("team_edition_v2", 6, seed=3, num_players=1, max_turns=2)
    obs, _ = vec.reset()
    held = [(obs, obs.copy())]
    view = None
    rng = np.random.default_rng(2)
    ended = 0
    for k in range(40):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
        obs, _, term, trunc, info = vec.step(acts)
        done = term | trunc
        if done.any():
            ended += 1
            final = info["final_obs"]
            assert final.dtype == object and final.shape == (6,)
            assert all(row is None for row in final[~done]) and all(row.any() for row in final[done])
            if view is None and k >= 5:
                row = final[np.flatnonzero(done)[0]]
                view = (row, row.copy())
        if k in (3, 4, 10):
            held.append((obs[1:], obs[1:].copy()))
        assert all(np.array_equal(a, b) for a, b in held)
        assert view is None or np.array_equal(*view)
    assert ended > 10


def test_copy_false_returns_the_buffer_and_the_same_observations():
    copied = VectorEnv("paths_of_destiny_3e_v3", 3, seed=5, copy=True)
    shared = VectorEnv("paths_of_destiny_3e_v3", 3, seed=5, copy=False)
    obs_c, _ = copied.reset()
    obs_s, _ = shared.reset()
    assert obs_s is shared.obs
    assert np.array_equal(obs_c, obs_s)
    kept = [(obs_c, obs_c.copy())]  # copy=True: an array once returned never changes
    rng = np.random.default_rng(1)
    for _ in range(20):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in copied.action_masks()])
        held = obs_s.copy()
        obs_c, r_c, *_ = copied.step(acts)
        obs_s, r_s, *_ = shared.step(acts)
        assert obs_s is shared.obs and np.array_equal(obs_c, obs_s) and np.array_equal(r_c, r_s)
        assert all(np.array_equal(a, b) for a, b in kept)
        kept.append((obs_c, obs_c.copy()))
        # the buffer was overwritten in place: what the caller held now shows the new step
        if not np.array_equal(held, obs_s):
            break
    else:
        pytest.fail("20 steps never changed an observation")
    with pytest.raises(ValueError, match="copy must be True or False"):
        VectorEnv("team_edition_v2", 2, copy="no")


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_parallel_and_serial_loops_play_the_same_games(opponents):
    """``parallel=True`` (prange on numba's threads) and ``parallel=False`` (the serial
    binding) step the same games to the same observations, rewards and ends; the default
    is serial below ``PARALLEL_MIN_ENVS`` games. Both are the batch template's loops, bound
    alike to every ruleset: the toy ruleset's test them (a large ruleset's parallel loops
    compile for a minute)."""
    from labyrinth_env.vector import PARALLEL_MIN_ENVS

    runs = []
    for parallel in (True, False):
        vec = VectorEnv("toy_race_v0", 6, opponents=opponents, seed=4, num_players=3, parallel=parallel)
        rng = np.random.default_rng(1)
        trace = [vec.reset()[0].copy()]
        for _ in range(120):
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
            obs, rewards, term, trunc, _ = vec.step(acts)
            trace += [obs.copy(), rewards.copy(), term.copy(), trunc.copy()]
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))
    assert not VectorEnv("team_edition_v2", PARALLEL_MIN_ENVS - 1).parallel
    assert VectorEnv("team_edition_v2", 2, parallel=True).parallel


def test_stalled_opponents_truncate_the_game_and_say_so():
    """A game whose kernel-side opponents would play on without a learner seat deciding is
    truncated at the bound (here lowered to 3 decisions so that an ordinary 4-player game
    reaches it): the step returns, the game is marked stalled and truncated, a warning says
    so, and the slot goes on with a new game."""
    vec = VectorEnv("paths_of_destiny_3e_v3", 4, learner_seats=0, seed=3, num_players=4)
    vec.reset()
    vec.max_opponent_decisions = 3
    rng = np.random.default_rng(0)
    stalled = np.zeros(4, dtype=bool)
    with pytest.warns(RuntimeWarning, match="decisions in a row without a learner seat deciding"):
        for _ in range(30):
            acts = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
            _, rewards, _, trunc, info = vec.step(acts)
            if "stalled" in info:
                assert trunc[info["stalled"]].all() and (rewards[info["stalled"]] == 0).all()
                stalled |= info["stalled"]
    assert stalled.any()
    assert (vec.seats == 0).all()  # every slot waits on its learner again


def test_no_learner_decision_at_all_raises_instead_of_hanging():
    """When no new game ever reaches a learner decision (here: no learner seat at all, and
    every game stalls after 50 opponent decisions), reset ends in a RuntimeError after
    the bounded number of games instead of hanging."""
    vec = VectorEnv("paths_of_destiny_3e_v3", 2, learner_seats=0, seed=3, num_players=4)
    vec.learners[:] = 0
    vec.max_opponent_decisions = 50
    with pytest.raises(RuntimeError, match="games in a row ended or stalled before any learner seat decided"):
        vec.reset()


def test_bad_actions_and_policies_never_move_a_game():
    """Floats, wrong shapes, out-of-range and illegal actions are refused before any env
    moves; an external policy that returns -1, floats or raises leaves the batch exactly as
    it was before the step."""
    vec = VectorEnv("team_edition_v2", 3, seed=0)
    vec.reset()
    before = vec.states.tobytes()
    legal = np.array([int(np.flatnonzero(m)[0]) for m in vec.action_masks()])
    for bad, match in [
        (legal.astype(float) + 0.7, "must be integers, got dtype float64"),
        (legal.astype(str), "must be integers"),
        (legal.reshape(3, 1), r"shape \(3,\), got shape \(3, 1\)"),
        (np.array([legal[0], legal[1], -1]), "action -1 in env 2 is out of range"),
    ]:
        with pytest.raises(ValueError, match=match):
            vec.step(bad)
        assert vec.states.tobytes() == before
    with pytest.raises(ValueError, match="finite number"):
        VectorEnv("team_edition_v2", 2, shaping=float("nan"))

    def good(obs, masks):
        return np.array([int(np.flatnonzero(m)[0]) for m in masks])

    for reply, error in [(None, StopIteration), ("neg", ValueError), ("float", ValueError)]:
        pvec = VectorEnv("paths_of_destiny_3e_v3", 3, learner_seats=0, opponents=good, seed=2, num_players=2)
        pvec.reset()
        rng = np.random.default_rng(5)

        def misbehave(obs, masks, reply=reply):
            if reply is None:
                raise StopIteration("the policy failed")
            first = np.array([int(np.flatnonzero(m)[0]) for m in masks])
            return -np.ones_like(first) if reply == "neg" else first.astype(float)

        pvec.policy = misbehave
        snapshot = (pvec.states.tobytes(), pvec.masks.copy(), pvec.seats.copy(), pvec.obs.copy())
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in pvec.action_masks()])
        with pytest.raises(error):
            pvec.step(acts)
        assert pvec.states.tobytes() == snapshot[0]
        assert np.array_equal(pvec.masks, snapshot[1]) and np.array_equal(pvec.seats, snapshot[2])
        assert np.array_equal(pvec.obs, snapshot[3])
        pvec.policy = good
        pvec.step(acts)  # the same step, now with a policy that works


def test_the_batched_observation_space_is_batch_space_without_per_env_copies():
    """The vector env's observation space equals Gymnasium's ``batch_space`` of the single
    space (shape, bounds, contains, sample) but its bounds are broadcast views: no
    ``num_envs`` copies of the bounds (issue 22, item 10)."""
    import gymnasium

    vec = VectorEnv("labyrinx_v1", 64, seed=0)
    reference = gymnasium.vector.utils.batch_space(vec.single_observation_space, 64)
    space = vec.observation_space
    assert space == reference and space.shape == reference.shape
    assert space.contains(space.sample()) and not space.contains(space.sample() + 2.0)
    for bound in (space.low, space.high, space.bounded_below, space.bounded_above):
        assert bound.strides[0] == 0  # one row of bounds shared by every env


def test_vector_env_bad_input():
    with pytest.raises(ValueError, match="parallel must be True, False or None"):
        VectorEnv("team_edition_v2", 2, parallel="yes")
    with pytest.raises(ValueError, match="unknown env id"):
        VectorEnv("nope_v0", 2)
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv("team_edition_v2", 0)
    with pytest.raises(ValueError, match="unknown opponents 'strong'"):
        VectorEnv("team_edition_v2", 2, opponents="strong")
    with pytest.raises(ValueError, match="cooperative ruleset"):
        VectorEnv("paths_of_destiny_3e_v3", 2, learner_seats="all")
    with pytest.raises(ValueError, match="not a seat"):
        VectorEnv("paths_of_destiny_3e_v3", 2, learner_seats=3, num_players=2)
    with pytest.raises(ValueError, match="unknown option"):
        VectorEnv("team_edition_v2", 2, players=2)
    vec = VectorEnv("team_edition_v2", 2, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step([0, 0])
    vec.reset()
    before = vec.states.copy()
    with pytest.raises(ValueError, match=r"expected actions of shape \(2,\), got shape \(1,\)"):
        vec.step([0])
    illegal = int(np.flatnonzero(vec.action_masks()[1] == 0)[0])
    legal = int(np.flatnonzero(vec.action_masks()[0])[0])
    with pytest.raises(ValueError, match=f"illegal action {illegal} .* in env 1"):
        vec.step([legal, illegal])
    assert vec.states.tobytes() == before.tobytes()  # nothing half-applied


def test_single_agent_env_passes_gymnasium_checker_and_handles_illegal_actions():
    env = SingleAgentEnv("team_edition_v2", num_players=2, illegal_action="penalty")
    check_env(env, skip_render_check=True)
    env.reset(seed=4)
    illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, term, _, info = env.step(illegal)
    assert term and reward == -1.0 and info["illegal_action"]
    strict = SingleAgentEnv("paths_of_destiny_3e_v3", opponents="heuristic", num_players=2)
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="illegal action"):
        strict.step(int(np.flatnonzero(strict.action_masks() == 0)[0]))
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv("team_edition_v2", illegal_action="ignore")


def test_single_agent_env_episode_and_render():
    env = SingleAgentEnv("team_edition_v2", num_players=1, max_turns=3, render_mode="ansi")
    env.reset(seed=0)
    assert "to act: yellow" in env.render()
    done, steps = False, 0
    while not done:
        _, _, term, trunc, _ = env.step(env.vec.kernel.A_END)
        done = term or trunc
        steps += 1
    assert trunc and steps == 3


def _shaped_and_plain_totals(
    max_turns: int | None, potential: str = "shaping"
) -> tuple[VectorEnv, np.ndarray, np.ndarray, list[list[int]]]:
    """Two 1-player Team Edition games played with the same random actions through a
    plain and a shaped (scale 2, by ``potential``) vector env; each game's reward totals
    and actions."""
    plain = VectorEnv("team_edition_v2", 2, seed=7, num_players=1, max_turns=max_turns)
    shaped = VectorEnv(
        "team_edition_v2", 2, seed=7, num_players=1, max_turns=max_turns, shaping=2.0, potential=potential
    )
    plain.reset()
    shaped.reset()
    shaped.start_phi = shaped._phi.copy()
    total_plain = np.zeros(2)
    total_shaped = np.zeros(2)
    actions: list[list[int]] = [[], []]
    rng = np.random.default_rng(3)
    finished = np.zeros(2, dtype=bool)
    while not finished.all():
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in plain.action_masks()])
        for i in np.flatnonzero(~finished):
            actions[i].append(int(acts[i]))
        _, r1, t1, u1, _ = plain.step(acts)
        _, r2, _, _, _ = shaped.step(acts)
        total_plain += np.where(finished, 0, r1)
        total_shaped += np.where(finished, 0, r2)
        finished |= t1 | u1
    return shaped, total_plain, total_shaped, actions


@pytest.mark.parametrize("potential", ["shaping", "progress"])
def test_shaping_is_opt_in_and_a_decided_game_sums_to_minus_the_start_potential(potential: str):
    """Off by default (rewards are only the game results); with shaping, a decided game's
    shaped rewards add up to its result minus scale * potential(start), by either
    potential (both are 0 once the game is decided)."""
    shaped, total_plain, total_shaped, _ = _shaped_and_plain_totals(None, potential)
    assert set(total_plain) <= {-1.0, 1.0}  # decided games
    assert potential == "shaping" or shaped.start_phi.all()  # Team Edition's shaping potential starts at 0
    assert np.allclose(total_shaped, total_plain - 2.0 * shaped.start_phi, atol=1e-5)
    with pytest.raises(ValueError, match="shaping"):
        VectorEnv("team_edition_v2", 2, shaping=-1)
    with pytest.raises(ValueError, match=r"potential must be one of \['shaping', 'progress'\], got 'steps'"):
        VectorEnv("team_edition_v2", 2, shaping=1, potential="steps")


@pytest.mark.parametrize("potential", ["shaping", "progress"])
def test_shaping_of_a_truncated_game_keeps_the_final_positions_potential(potential: str):
    """Truncation ends the episode, not the game: the shaping adds up to scale *
    (potential(final position) - potential(start)), the final position replayed
    through the AEC env; ``potential="progress"`` shapes by the kernel's ``progress``."""
    from labyrinth_env.rulesets.team_edition import kernel as K

    shaped, total_plain, total_shaped, actions = _shaped_and_plain_totals(6, potential)
    measure = K.shaping_potential if potential == "shaping" else K.progress
    assert not total_plain.any()  # truncated: no result
    for i in range(2):
        env = labyrinth_env.raw_env("team_edition_v2", num_players=1, max_turns=6)
        env.reset(seed=int(shaped.game_seeds[i]))
        for a in actions[i]:
            env.step(a)
        assert env.truncations["player_0"]
        final_phi = measure(env._states[0], 0)
        assert np.isclose(total_shaped[i], 2.0 * (final_phi - shaped.start_phi[i]), atol=1e-5)


def test_paths_of_destiny_potential_rewards_a_key_and_the_way_to_the_centre():
    from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

    env = labyrinth_env.raw_env("paths_of_destiny_3e_v3", num_players=2)
    env.reset(seed=0)
    s = env._states[0]
    far = K.shaping_potential(s, 0)
    s["key_holder"][3] = 0  # seat 0 holds another player's key
    s["key_node"][3] = -1
    with_key = K.shaping_potential(s, 0)
    s["position"][0] = K.center_node(s)
    at_centre = K.shaping_potential(s, 0)
    assert far < with_key < at_centre == 0.5


@pytest.mark.parametrize(
    ("env_id", "num_players"),
    [(e, n) for e in labyrinth_env.list_envs() for n in sorted(set(player_range(e)))],
)
def test_observations_stay_in_the_declared_box(env_id, num_players):
    """Every observation of long random play lies in the Box the env declares ([0, 1]):
    check totals with modifiers once went past both ends (Paths of Destiny, many players)."""
    learner = "all" if labyrinth_env.get_spec(env_id).cooperative else "rotate"
    # the serial loop: the parallel one plays the same games (the test above), and its compile
    # would cost a third of the ruleset's again for no other test
    vec = VectorEnv(env_id, 256, learner_seats=learner, num_players=num_players, seed=1, parallel=False)
    obs, _ = vec.reset(seed=1)
    space = vec.single_observation_space
    rng = np.random.default_rng(0)
    low, high = float(obs.min()), float(obs.max())
    for _ in range(1500):
        masks = vec.action_masks()
        pick = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs = vec.step(pick)[0]
        low, high = min(low, float(obs.min())), max(high, float(obs.max()))
    assert space.low.min() <= low and high <= space.high.max(), (low, high)


def test_next_step_render_draws_the_finished_game_until_the_next_step():
    # issue 34: after the step that ends a game, render() drew the next game (the kernel had
    # begun it in the slot) while the step returned the finished game's final observation.
    # The same games with autoreset_mode="disabled" (which never begins the next one) are
    # the reference for what the finished game looks like.
    toy = "toy_race_v0"
    kwargs = {"seed": 5, "opponents": "heuristic", "render_mode": "ansi"}
    vec = VectorEnv(toy, 2, autoreset_mode="next-step", **kwargs)
    ref = VectorEnv(toy, 2, autoreset_mode="disabled", **kwargs)
    vec.reset()
    ref.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        if ref._ended.any():
            break
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
        _, _, term, trunc, _ = vec.step(acts)
        ref.step(acts)
        done = np.flatnonzero(term | trunc)
        assert vec.render() == ref.render()
        ended += done.size
    assert ended, "no game ended"
    (i,) = np.flatnonzero(ref._ended)[:1]
    finished = vec.render()[i]
    vec.step(np.array([np.flatnonzero(m)[0] for m in vec.action_masks()]))
    assert vec.render()[i] != finished  # the next step began the new game, which is drawn now


def test_each_kind_of_vector_loops_announces_its_own_compile(monkeypatch):
    # issue 36: the heuristic opponents' loops compiled for a minute in silence in a process
    # that had built a random-opponent vector env (one announcement per ruleset)
    from contextlib import contextmanager

    from labyrinth_env import progress

    announced = []

    @contextmanager
    def compiling(what, show=None):
        announced.append(what)
        yield progress.CompileReport(what)

    monkeypatch.setattr(progress, "_FIRST_DONE", set())
    monkeypatch.setattr(progress, "compiling", compiling)
    for opponents, parallel in (("random", False), ("heuristic", False), ("heuristic", True), ("random", False)):
        VectorEnv("toy_race_v0", 1, seed=0, opponents=opponents, parallel=parallel).reset()
    assert announced == [
        "the Toy maze race vector-env kernels (random opponents, serial loop)",
        "the Toy maze race vector-env kernels (heuristic opponents, serial loop)",
        "the Toy maze race vector-env kernels (heuristic opponents, parallel loop)",
    ]


def test_potential_set_later_rebinds_its_loop_and_reads_the_games_anew():
    """``set_attr("potential", ...)`` (or the attribute) after a reset: the shaping reads the
    new potential from the next step on, and it survives a pickle; a bad value is refused."""
    import pickle

    from labyrinth_env.rulesets.team_edition import kernel as K

    env = VectorEnv("team_edition_v2", 2, seed=7, num_players=1, shaping=1.0)
    env.reset()
    env.set_attr("potential", "progress")
    assert env.potential == "progress"
    assert np.allclose(env._phi, [K.progress(s, 0) for s in env.states])
    env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
    assert np.allclose(env._phi, [K.progress(s, 0) for s in env.states])
    again = pickle.loads(pickle.dumps(env))
    assert again.potential == "progress" and again._potentials is env._potentials
    with pytest.raises(ValueError, match="potential must be one of"):
        env.potential = "distance"
    assert env.potential == "progress"
