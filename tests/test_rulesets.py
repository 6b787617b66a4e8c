"""What every registered ruleset must pass, the toy ruleset of ``tests/toy_ruleset``
included: the kernel contract, PettingZoo's api and seed tests, random games that end,
replays, the vector env against the AEC env, the agents, a tournament and the benchmark.
A ruleset declared in one folder and registered with ``register_ruleset`` gets all of it."""

from __future__ import annotations

import dataclasses
import json
import types
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import labyrinth_env
from labyrinth_env.core import contract
from labyrinth_env.core.contract import ContractError
from labyrinth_env.registry import check_ruleset
from labyrinth_env.spec import RulesetSpec
from tests.toy_ruleset import SPEC as TOY

ENV_IDS = labyrinth_env.list_envs()


def _options(env_id: str) -> dict:
    """A short game at the largest player count (up to 3)."""
    lo, hi = labyrinth_env.get_spec(env_id).players
    return {"num_players": min(max(lo, 3), hi), "max_turns": 40}


# --- the contract ------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_ruleset_meets_the_kernel_contract(env_id):
    spec = labyrinth_env.get_spec(env_id)
    check_ruleset(spec)
    k = spec.kernel
    for name, *_ in contract.state_head(k.NUM_OPTIONS) + contract.state_tail(1):
        assert name in k.STATE_DTYPE.names
    assert spec.options_class is spec.env_class.Options


def test_the_toy_ruleset_is_registered_from_the_test_folder():
    assert "toy_race_v0" in ENV_IDS
    assert labyrinth_env.get_spec("toy_race_v0") is TOY
    assert TOY.package == "tests.toy_ruleset"
    assert labyrinth_env.register_ruleset(TOY) is TOY  # again: nothing changes
    assert labyrinth_env.register_ruleset(dataclasses.replace(TOY)) is TOY  # an equal declaration
    with pytest.raises(ValueError, match="already registered"):
        labyrinth_env.register_ruleset(dataclasses.replace(TOY, players=(2, 3)))
    with pytest.raises(TypeError, match="RulesetSpec"):
        labyrinth_env.register_ruleset("toy_race_v0")


def _broken_kernel() -> types.ModuleType:
    """The toy kernel without ``determinize``, with a misshapen ``step`` and a record that
    lacks ``decider``."""
    k = types.ModuleType("broken_kernel")
    for name in ("init", "to_act", "legal_mask", "observe", "returns", "shaping_potential"):
        setattr(k, name, getattr(TOY.kernel, name))
    k.step = lambda s, action: True  # plain Python
    k.NUM_ACTIONS, k.NUM_SEATS, k.OBS_SIZE, k.NUM_OPTIONS = 5, 1, 3, 2
    k.DECISIONS = ("move",)
    k.STATE_DTYPE = np.dtype([("rng", np.uint64, (1,)), ("outcome", np.int8)])
    k.WON = 7
    return k


def test_the_contract_check_names_what_is_missing_in_plain_words():
    problems = contract.kernel_problems(_broken_kernel(), max_players=4)
    text = "\n".join(problems)
    assert "has no function determinize" in text
    assert "has no function unseen" in text
    assert "step must be a numba @njit function" in text
    assert "STATE_DTYPE has no field 'decider'" in text
    assert "NUM_SEATS is 1, fewer than the spec's 4 players" in text
    assert "WON is 7; outcome codes come from core.contract (WON = 1)" in text
    spec = dataclasses.replace(TOY, env_id="broken_v0", kernel_module="no.such.kernel")
    with pytest.raises(ContractError, match="cannot be imported"):
        check_ruleset(spec)
    spec = dataclasses.replace(TOY, env_id="broken_v0", players=(2, 5), heuristic_module="labyrinth_env.core.rng")
    with pytest.raises(ContractError) as err:
        check_ruleset(spec)
    assert "NUM_SEATS is 4, fewer than the spec's 5 players" in str(err.value)
    assert "needs an @njit heuristic_action(s, mask)" in str(err.value)
    assert "Options.num_players allows (2, 4), the spec says (2, 5)" in str(err.value)
    # the layers above the kernel: an env class that is not an AEC env, a picture without draw
    spec = dataclasses.replace(
        TOY, env_id="broken_v0", env="labyrinth_env.spec:RulesetSpec", picture_module="labyrinth_env.core.rng"
    )
    with pytest.raises(ContractError) as err:
        check_ruleset(spec)
    assert "labyrinth_env.spec:RulesetSpec must be a subclass of labyrinth_env.aec.LabyrinthAECEnv" in str(err.value)
    assert "labyrinth_env.core.rng needs draw(state, viewer=None, omniscient=False)" in str(err.value)
    with pytest.raises(ContractError, match=r"its picture module 'no\.such\.picture' cannot be imported"):
        check_ruleset(dataclasses.replace(TOY, env_id="broken_v0", picture_module="no.such.picture"))


def test_a_spec_refuses_bad_declarations():
    with pytest.raises(ValueError, match="must look like 'name_v0'"):
        RulesetSpec(env_id="Toy", title="", players=(2, 4), utility="zero_sum", kernel_module="k", env="e:c")
    with pytest.raises(ValueError, match="players must be"):
        RulesetSpec(env_id="toy_v0", title="", players=(3, 2), utility="zero_sum", kernel_module="k", env="e:c")
    with pytest.raises(ValueError, match="utility must be one of"):
        RulesetSpec(env_id="toy_v0", title="", players=(2, 2), utility="team", kernel_module="k", env="e:c")
    with pytest.raises(ValueError, match="module:class"):
        RulesetSpec(env_id="toy_v0", title="", players=(2, 2), utility="zero_sum", kernel_module="k", env="e")


def test_a_state_record_never_restates_the_common_fields():
    with pytest.raises(ValueError, match="common to every record"):
        contract.state_dtype(2, 4, [("turn", np.int32)])


def test_bound_templates_are_importable_modules_named_after_the_ruleset():
    import importlib

    loops = importlib.import_module("tests.toy_ruleset.loops")
    assert loops is TOY.loops and loops.K is TOY.kernel and loops.H is TOY.heuristic
    assert loops.step_one.py_func.__module__ == "tests.toy_ruleset.loops"
    for spec in labyrinth_env.specs():
        assert spec.loops.__name__ == f"{spec.package}.loops"


# --- the generic checks --------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_api_and_seed_tests(env_id):
    lo, hi = labyrinth_env.get_spec(env_id).players
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in sorted({lo, hi}):
            api_test(labyrinth_env.make(env_id, num_players=n), num_cycles=60)
        api_test(labyrinth_env.raw_env(env_id, num_players=lo), num_cycles=60)
    seed_test(lambda: labyrinth_env.make(env_id, num_players=lo), num_cycles=60)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_random_games_end_and_their_replays_reproduce_them(env_id, tmp_path):
    env = labyrinth_env.raw_env(env_id, **_options(env_id))
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        while env.agents and not any(env.terminations.values()) and not any(env.truncations.values()):
            legal = env.legal_actions()
            assert legal, f"{env_id}: no legal action while the game runs"
            env.step(int(rng.choice(legal)))
        assert int(env.record["outcome"]) in (contract.WON, contract.TRUNCATED, contract.LOST)
        env.save_replay(tmp_path / "game.json")
        again = labyrinth_env.load_replay(tmp_path / "game.json")
        assert again.game_log == env.game_log
    # in the kernel, with auto-reset (the vector env's loops, random opponents: what every
    # test run compiles, where the benchmark's random_steps loop compiled for this test
    # alone): many games, every mask non-empty
    from labyrinth_env.vector import VectorEnv

    vec = VectorEnv(env_id, 1, seed=1, opponents="random", **_options(env_id))
    vec.reset()
    ended = 0
    for _ in range(3000):
        mask = vec.action_masks()[0]
        assert mask.any(), f"{env_id}: no legal action while the game runs"
        _, _, terminated, truncated, _ = vec.step(np.array([rng.choice(np.flatnonzero(mask))]))
        ended += int(terminated[0] or truncated[0])
    assert ended > 1


def _pettingzoo_stack(env_id: str, observation_format: str = "dict", **options):
    """The raw env under PettingZoo's own standard wrappers, as its classic envs build them."""
    from pettingzoo.utils import wrappers

    env = labyrinth_env.raw_env(env_id, observation_format=observation_format, **options)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def _bookkeeping(env) -> tuple:
    return (
        env.agents[:],
        env.agent_selection,
        dict(env.terminations),
        dict(env.truncations),
        dict(env.rewards),
        dict(env._cumulative_rewards),
        {a: {k: np.asarray(v).tolist() for k, v in i.items()} for a, i in env.infos.items()},
    )


@pytest.mark.parametrize("observation_format", ["dict", "flat"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_an_illegal_move_ends_the_game_as_terminate_illegal_wrapper_does(env_id, observation_format, tmp_path):
    """``make()`` and PettingZoo's wrapper stack agree after an illegal move at a random
    point of 20 games, and through every dead step to the end (agents, selection,
    terminations, truncations, rewards, infos: with ``observation_format="flat"`` the
    offender's ``infos["action_mask"]`` stays as it was, issue 32 item 8); a step after the
    last agent is gone and ``observe``/``last`` then raise nothing; the replay records the
    illegal move and loads into the same ended game."""
    rng = np.random.default_rng(7)
    options = {**_options(env_id), "observation_format": observation_format}
    for game in range(20):
        ours, theirs = labyrinth_env.make(env_id, **options), _pettingzoo_stack(env_id, **options)
        ours.reset(seed=game)
        theirs.reset(seed=game)
        for _ in range(int(rng.integers(0, 30))):
            if not ours.agents or any(ours.terminations.values()) or any(ours.truncations.values()):
                break
            action = int(rng.choice(ours.legal_actions()))
            ours.step(action)
            theirs.step(action)
        if not ours.agents or any(ours.terminations.values()) or any(ours.truncations.values()):
            continue
        illegal = min(set(range(ours.kernel.NUM_ACTIONS)) - set(ours.legal_actions()))
        offender = ours.agent_selection
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours.step(illegal)
            theirs.step(illegal)
        assert _bookkeeping(ours) == _bookkeeping(theirs.unwrapped), f"game {game}"
        assert ours.illegal_action == (offender, illegal)
        ours.save_replay(tmp_path / "illegal.json")
        again = labyrinth_env.load_replay(tmp_path / "illegal.json")
        assert again.illegal_action == ours.illegal_action
        if observation_format == "dict":  # a replay does not record the format
            assert _bookkeeping(again) == _bookkeeping(ours)
        # the digest covers the illegal action: without it the file would load as a running game
        saved = json.loads((tmp_path / "illegal.json").read_text())
        del saved["illegal_action"]
        (tmp_path / "running.json").write_text(json.dumps(saved))
        with pytest.raises(ValueError, match="illegal action differ from the recorded"):
            labyrinth_env.load_replay(tmp_path / "running.json")
        while ours.agents:
            assert ours.last()[2] or ours.last()[3]
            ours.step(None)
            theirs.step(None)
            assert _bookkeeping(ours) == _bookkeeping(theirs.unwrapped)
        ours.observe(offender)  # no KeyError once the agents are gone
        ours.last()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ours.step(None)  # PettingZoo's order enforcing: a warning, nothing else
        assert ours.agents == []


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_vector_env_equals_the_aec_env(env_id):
    from tests.test_vector import check_vector_equals_aec

    check_vector_equals_aec(env_id, _options(env_id))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_heuristic_and_search_agents_play_it(env_id):
    from labyrinth_env.agents import make_agent

    env = labyrinth_env.make(env_id, **_options(env_id))
    env.reset(seed=3)
    players = [make_agent("heuristic"), make_agent("mcts:simulations=8,rollout_steps=20", seed=1)]
    for i in range(40):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        obs = env.observe(agent)
        action = players[i % 2].act(obs, env)
        assert obs["action_mask"][action]
        env.step(action)


def test_the_toy_ruleset_runs_a_tournament_in_worker_processes_and_the_benchmark():
    """Spawned workers know nothing of the toy ruleset until the tournament sends its spec."""
    from labyrinth_env.agents.tournament import run_tournament
    from labyrinth_env.benchmarks.throughput import run

    report = run_tournament(
        "toy_race_v0", ["random", "heuristic"], 8, seed=1, options={"max_turns": 30}, workers=2, plot=False
    )
    assert report["games"] == 8 and report["agents"] == ["random", "heuristic"]
    assert sum(row["seats"] for row in report["per_agent"].values()) == 16
    result = run(["toy_race_v0"], seconds=0.2, repeats=1, quick=True, measure_compile=False, progress=False)
    kinds = {row["kind"] for row in result["rows"] if row["env_id"] == "toy_race_v0"}
    assert {"aec", "raw", "kernel_serial"} <= kinds
