"""The information-set MCTS agent: blind to hidden information, legal, deterministic for a
seed, in every ruleset; and the agent spec parser of ``agents``."""

from __future__ import annotations

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env.agents import AGENTS, MCTSAgent, describe_agents, make_agent, parse_agent_spec, split_agent_specs
from labyrinth_env.agents.base import Agent

RULESETS = {
    "team_edition_v2": {"num_players": 2, "variant": "standard"},
    "paths_of_destiny_3e_v3": {"num_players": 3},
    # with characters (issue 21): skills in the search, the Head Hunter's face-down second traps
    "paths_of_destiny_2011_v6": {"num_players": 3, "characters": ["Head Hunter", "Witch", "Architect"]},
}
SMALL = "mcts:simulations=24,rollout_turns=1"  # searches that take milliseconds


def _positions(env_id: str, options: dict, seed: int, every: int = 7) -> list[tuple[np.ndarray, str]]:
    """(state copy, agent to act) at every ``every``-th decision with a real choice, from a
    game the heuristic plays."""
    env = labyrinth_env.raw_env(env_id, **options)
    env.reset(seed=seed)
    heuristic = make_agent("heuristic")
    out = []
    choices = 0
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if obs["action_mask"].sum() > 1:
            choices += 1
            if choices % every == 0:
                out.append((env._states.copy(), name))
        env.step(heuristic.act(obs, env))
    return out


def _hide_differently(env_id: str, states: np.ndarray, seat: int) -> list[np.ndarray]:
    """Copies of ``states`` that differ from it only in what ``seat`` cannot know: two
    determinizations, and one where remaining deck/pool orders are reversed by hand and
    the RNG (the future dice) replaced."""
    k = labyrinth_env.raw_env(env_id).kernel
    out = []
    for seed in (11, 22):
        other = states.copy()
        k.determinize(other[0], seat, np.uint64(seed))
        out.append(other)
    other = states.copy()
    s = other[0]
    s["rng"][0] = np.uint64(0x1234567)
    if env_id == "team_edition_v2":
        pos, num = int(s["page_pos"]), int(s["num_pages"])
        s["pages"][pos:num] = s["pages"][pos:num][::-1].copy()
        t = int(s["treasure_pos"])
        s["treasure_deck"][t:] = s["treasure_deck"][t:][::-1].copy()
    else:
        n = int(s["tile_pool_len"])
        s["tile_pool"][:n] = s["tile_pool"][:n][::-1].copy()
        deck, pos = (
            ("guard_deck", "guard_pos") if env_id.startswith("paths_of_destiny_2011") else ("golem_deck", "golem_pos")
        )
        g = int(s[pos])
        s[deck][g:] = s[deck][g:][::-1].copy()
        t = int(s["trap_pool_len"])
        s["trap_pool"][:t] = s["trap_pool"][:t][::-1].copy()
    out.append(other)
    return out


def _search(env, states: np.ndarray, agent_name: str, spec: str, seed: int) -> tuple[int, np.ndarray]:
    env._states[:] = states
    env.agent_selection = agent_name
    agent = make_agent(spec, seed)
    obs = env.observe(agent_name)
    obs["action_mask"] = np.zeros_like(obs["action_mask"])
    env.batch.refresh_one(env._states, obs["action_mask"], np.zeros(env.max_seats))
    action = agent.act(obs, env)
    return action, agent.last_visits.copy()


@pytest.mark.parametrize("env_id", sorted(RULESETS))
def test_search_never_sees_hidden_information(env_id):
    # The same public position with other deck orders, hidden tokens and future dice must
    # give the same search, visit for visit, for the same agent seed.
    options = RULESETS[env_id]
    env = labyrinth_env.raw_env(env_id, **options)
    env.reset(seed=0)
    k = env.kernel
    positions = _positions(env_id, options, seed=4)
    assert len(positions) >= 4
    compared = 0
    for states, name in positions[:6]:
        seat = env.agent_name_mapping[name]
        action, visits = _search(env, states, name, SMALL, seed=7)
        seen = np.zeros(k.OBS_SIZE, dtype=np.float32)
        k.observe(states[0], seat, seen)
        for other in _hide_differently(env_id, states, seat):
            assert other.tobytes() != states.tobytes()  # the hidden part really differs
            theirs = np.zeros(k.OBS_SIZE, dtype=np.float32)
            k.observe(other[0], seat, theirs)
            assert np.array_equal(seen, theirs)  # ... and nothing the seat sees
            other_action, other_visits = _search(env, other, name, SMALL, seed=7)
            assert other_action == action
            assert np.array_equal(other_visits, visits)
            compared += 1
        assert visits.sum() == 24
    assert compared >= 12


@pytest.mark.parametrize("env_id", sorted(RULESETS))
def test_search_plays_only_legal_actions_and_replays_for_a_seed(env_id):
    env = labyrinth_env.make(env_id, **RULESETS[env_id])
    agent = make_agent("mcts:simulations=8,rollout_turns=1", seed=3)
    seen = []
    for game in range(2):
        env.reset(seed=game)
        agent.reset(100 + game)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            action = agent.act(obs, env)
            assert obs["action_mask"][action] == 1
            env.step(action)
        assert env.unwrapped.illegal_action is None
        seen.append(list(env.unwrapped.actions_taken))
        assert env.unwrapped.game_log[-1]["type"] in ("game_end", "win", "truncated")
    # the same agent seed and game seed replay the game move for move
    env.reset(seed=1)
    agent.reset(101)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agent.act(obs, env))
    assert list(env.unwrapped.actions_taken) == seen[1]


def test_agent_seed_changes_the_search():
    # Different agent seeds sample other determinizations and dice; the same seed repeats.
    env_id = "paths_of_destiny_3e_v3"
    env = labyrinth_env.raw_env(env_id, **RULESETS[env_id])
    env.reset(seed=0)
    differs = 0
    for states, name in _positions(env_id, RULESETS[env_id], seed=4)[:4]:
        one = _search(env, states, name, SMALL + ",prior=0", 1)[1]
        two = _search(env, states, name, SMALL + ",prior=0", 2)[1]
        differs += not np.array_equal(one, two)
        assert np.array_equal(_search(env, states, name, SMALL + ",prior=0", 1)[1], one)
    assert differs >= 2


def test_search_takes_a_treasure_in_reach_without_the_heuristic_prior():
    # Team Edition, the first decision of a game where a wanted treasure is reachable:
    # even with a uniform prior (no help from the heuristic) the search walks there.
    env = labyrinth_env.raw_env("team_edition_v2", num_players=1, variant="introductory")
    k = env.kernel
    for seed in range(200):
        env.reset(seed=seed)
        s = env.record
        wanted = {int(t) for t in s["slots"][0] if t >= 0}
        cells = [
            c for c in range(k.NUM_CELLS) if s["reach"][c] == 1 and int(k.TILE_TREASURE[s["cell_tile"][c]]) in wanted
        ]
        if cells:
            break
    else:
        pytest.fail("no game starts with a wanted treasure in reach")
    agent = make_agent("mcts:simulations=300,prior=0,rollout_turns=0", seed=0)
    obs = env.observe(env.agent_selection)
    action = agent.act(obs, env)
    assert action - k.A_MOVE in cells, env.action_to_str(action)


def test_act_batch_defaults_to_act_per_game():
    envs = [labyrinth_env.raw_env("paths_of_destiny_3e_v3", num_players=2) for _ in range(3)]
    for i, env in enumerate(envs):
        env.reset(seed=i)
    observations = [env.observe(env.agent_selection) for env in envs]
    batch = make_agent("heuristic").act_batch(observations, envs)
    single = [make_agent("heuristic").act(o, e) for o, e in zip(observations, envs, strict=True)]
    assert batch.dtype == np.int64 and batch.tolist() == single
    with pytest.raises(ValueError, match="one per game"):
        make_agent("heuristic").act_batch(observations, envs[:2])
    rand = make_agent("random", seed=0).act_batch(observations)
    assert all(o["action_mask"][a] for o, a in zip(observations, rand, strict=True))


# --- the spec parser ------------------------------------------------------------------------------
def test_spec_parser_reads_names_keys_and_values():
    assert parse_agent_spec("random") == ("random", {})
    assert parse_agent_spec(" Heuristic ") == ("heuristic", {})
    assert parse_agent_spec("mcts:simulations=400") == ("mcts", {"simulations": 400})
    name, params = parse_agent_spec("mcts: simulations = 50 , c=1, rollout=random, prior=0.25")
    assert name == "mcts" and params == {"simulations": 50, "c": 1.0, "rollout": "random", "prior": 0.25}
    assert isinstance(params["c"], float)
    assert parse_agent_spec("ppo:runs/A/final_model.zip") == ("ppo", {"path": "runs/A/final_model.zip"})
    assert parse_agent_spec("ppo:path=m.zip,deterministic=false") == ("ppo", {"path": "m.zip", "deterministic": False})
    agent = make_agent("mcts:simulations=33,rollout_turns=0", seed=1)
    assert isinstance(agent, MCTSAgent) and isinstance(agent, Agent)
    assert agent.settings(labyrinth_env.get_spec("paths_of_destiny_3e_v3"))["simulations"] == 33
    assert agent.settings(labyrinth_env.get_spec("paths_of_destiny_3e_v3"))["rollout_turns"] == 0
    assert AGENTS["mcts"](2, simulations=7).settings(labyrinth_env.get_spec("team_edition_v2"))["simulations"] == 7
    assert "simulations=" in describe_agents() and "ppo:<path>" in describe_agents()


def test_split_agent_specs_keeps_each_specs_keys_together():
    text = "random, mcts:simulations=400,c=2,heuristic,ppo:m.zip,mcts:prior=0"
    assert split_agent_specs(text) == ["random", "mcts:simulations=400,c=2", "heuristic", "ppo:m.zip", "mcts:prior=0"]
    assert split_agent_specs("heuristic") == ["heuristic"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "alphazero",
            r"unknown agent spec 'alphazero'; available agents: heuristic, random, learned\[:<path>\], mcts\[:",
        ),
        ("", "non-empty string"),
        (None, "non-empty string"),
        ("mcts:sims=10", r"unknown parameter 'sims' for agent 'mcts'; allowed: c, epsilon, prior"),
        ("mcts:simulations=ten", r"parameter simulations: bad value 'ten'; expected an int in \[1, 1e\+06\]"),
        ("mcts:simulations=0", r"bad value 0; expected an int in \[1, 1e\+06\]"),
        ("mcts:simulations=2.5", "bad value '2.5'; expected an int"),
        ("mcts:c=-1", r"bad value -1.0; expected a number >= 0"),
        ("mcts:c=nan", "bad value nan"),
        ("mcts:prior=1.5", r"expected a number in \[0, 1\]"),
        ("mcts:rollout=greedy", "expected one of heuristic, random"),
        ("mcts:simulations", "'simulations' is not key=value"),
        ("mcts:simulations=5,simulations=6", "given twice"),
        ("mcts:", "nothing after ':'"),
        ("random:seed=3", "agent 'random' takes no parameters"),
        ("ppo:deterministic=maybe", "expected true or false"),
    ],
)
def test_spec_parser_errors_say_what_is_allowed(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_agent_parameters_are_checked_in_python_too():
    with pytest.raises(ValueError, match="unknown parameter"):
        MCTSAgent(0, simulation=3)
    with pytest.raises(ValueError, match="parameter simulations: bad value True"):
        MCTSAgent(0, simulations=True)
    with pytest.raises(ValueError, match="needs path"):
        AGENTS["ppo"](0)
    with pytest.raises(ValueError, match="needs the env"):
        make_agent(SMALL).act({"observation": np.zeros(1), "action_mask": np.ones(3, np.int8)})
