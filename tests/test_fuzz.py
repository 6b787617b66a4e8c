"""Hypothesis fuzzing of everything a hostile user can hand the package (issue 22): options,
AEC actions, vector actions (and an external policy's answers), replays and configs.

Each property is what the hardening issue asks: bad input raises a ``ValueError`` that
names what is wrong, and nothing moves (the game's record byte for byte); good input plays.
The budget is fixed and the examples derandomized, so the module takes seconds and CI
tries the same cases every run; ``LABYRINTH_FUZZ_SCALE=20`` multiplies the examples and
``LABYRINTH_FUZZ_RANDOM=1`` draws new ones each run (for a longer search by hand).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import json
import math
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import labyrinth_env
from labyrinth_env import cli
from labyrinth_env.agents.train import load_any_config
from labyrinth_env.config import make_from_config
from labyrinth_env.options import _check_value, check_bool
from labyrinth_env.registry import replay_data
from labyrinth_env.vector import VectorEnv

SCALE = float(os.environ.get("LABYRINTH_FUZZ_SCALE", "1"))


def fuzz(examples: int) -> settings:
    """The module's fixed budget: ``examples`` per test (times LABYRINTH_FUZZ_SCALE), no
    deadline (a first call may load kernels from the cache), no example database, the same
    examples every run unless LABYRINTH_FUZZ_RANDOM=1."""
    return settings(
        max_examples=max(1, int(examples * SCALE)),
        deadline=None,
        database=None,
        derandomize=os.environ.get("LABYRINTH_FUZZ_RANDOM") != "1",
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )


ENV_IDS = sorted(s.env_id for s in labyrinth_env.specs() if not s.package.startswith("tests."))
ROOT = Path(__file__).resolve().parent.parent
ENV_CONFIGS = sorted(p for p in (ROOT / "configs").rglob("*.yaml") if not {"train", "tournament"} & set(p.parts))
TOURNAMENT_CONFIGS = sorted((ROOT / "configs" / "tournament").glob("*.yaml"))
TRAIN_CONFIGS = sorted((ROOT / "configs" / "train").glob("*.yaml"))

# JSON/YAML-like junk: what a file or a config can hold
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | st.integers(-3, 3), inner, max_size=4)
    ),
    max_leaves=12,
)


def _options_class(env_id: str) -> type:
    return labyrinth_env.get_spec(env_id).options_class


def _fields(env_id: str) -> dict[str, Any]:
    return {f.name: f.metadata["option"] for f in dataclasses.fields(_options_class(env_id))}


# --- options ------------------------------------------------------------------------------------
# valid values of the options whose check is custom (names from the rulesets' components)
def _custom_valid(env_id: str, name: str, players: int) -> st.SearchStrategy:
    spec = labyrinth_env.get_spec(env_id)
    if name == "characters":
        if spec.name == "paths_of_destiny_2011":
            from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C

            names = list(C.CHARACTERS)
        else:
            from labyrinth_env.rulesets.paths_of_destiny_3e import components as C

            names = [C.CHARACTER_NAMES[c] for c in range(C.NUM_CHARACTERS) if C.CHARACTER_READY[c]]
        return st.sampled_from(["none", "random"]) | st.permutations(names).map(lambda p: list(p[:players]))
    if name == "daedalus_deck":
        from labyrinth_env.rulesets.team_edition import components as C

        return st.fixed_dictionaries({}, optional={k: st.integers(0, 12) for k in C.PAGE_KINDS}).filter(
            lambda d: 1 <= sum(d.values()) <= C.MAX_PAGES
        )
    if name == "spells":
        from labyrinth_env.rulesets.team_edition import components as C

        return st.none() | st.permutations(list(C.SPELLS)).map(lambda p: list(p[:players]))
    raise AssertionError(f"no strategy for option {name} of {env_id}: add one")


def _valid_value(env_id: str, name: str, opt: Any, players: int) -> st.SearchStrategy:
    if opt.check is check_bool:
        return st.booleans()
    if opt.choices is not None:
        out = st.sampled_from(list(opt.choices))
    elif opt.int_range is not None:
        lo, hi = opt.int_range
        out = st.integers(lo, hi) | st.integers(lo, hi).map(np.int64)
    else:
        out = _custom_valid(env_id, name, players)
    return out | st.none() if opt.optional else out


def _invalid_value(name: str, opt: Any) -> st.SearchStrategy:
    """Values the option must refuse."""
    never = st.floats(allow_nan=True) | st.dictionaries(st.integers(), st.integers(), min_size=1, max_size=2)
    if opt.check is check_bool:
        return never | st.integers() | st.text(max_size=5) | st.just(np.int64(1)) | st.lists(st.booleans(), min_size=1)
    if opt.int_range is not None:
        lo, hi = opt.int_range
        out = (
            never | st.integers(max_value=lo - 1) | st.integers(min_value=hi + 1) | st.booleans() | st.text(max_size=5)
        )
        out = out | st.just(np.float64(lo)) | st.lists(st.integers(lo, hi), min_size=1, max_size=2)
        return out if opt.optional else out | st.none()
    if opt.choices is not None:
        return never | st.integers() | st.text(max_size=8).filter(lambda t: t not in opt.choices) | st.none()
    # custom checks: names that are nobody's, wrong types
    bogus_names = st.lists(st.text(min_size=1, max_size=6).map(lambda t: "no such " + t), min_size=1, max_size=3)
    return never | st.integers() | bogus_names | (st.text(max_size=8).filter(lambda t: t not in ("none", "random")))


@pytest.mark.parametrize("env_id", ENV_IDS)
@fuzz(25)
@given(data=st.data())
def test_fuzz_valid_options_make_a_game(env_id, data):
    fields = _fields(env_id)
    lo, hi = labyrinth_env.get_spec(env_id).players
    players = data.draw(st.integers(lo, hi), label="num_players")
    given_opts: dict[str, Any] = {"num_players": players}
    for name, opt in fields.items():
        if name != "num_players" and data.draw(st.booleans(), label=f"set {name}"):
            given_opts[name] = data.draw(_valid_value(env_id, name, opt, players), label=name)
    for name, value in given_opts.items():  # each value is allowed on its own
        _check_value(name, value, fields[name])
    try:
        env = labyrinth_env.raw_env(env_id, **given_opts)
    except ValueError as exc:
        # only a combination may be refused (the options' validate()), naming an option of it
        assert any(name in str(exc) for name in given_opts), str(exc)
        return
    env.reset(seed=data.draw(st.integers(0, 2**64 - 1), label="seed"))
    rng = np.random.default_rng(0)
    for _ in range(3):
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        env.step(int(rng.choice(env.legal_actions())))
    assert env.observation_space(env.agent_selection).contains(env.observe(env.agent_selection))


@pytest.mark.parametrize("env_id", ENV_IDS)
@fuzz(25)
@given(data=st.data())
def test_fuzz_invalid_options_are_refused_naming_the_option(env_id, data):
    fields = _fields(env_id)
    if data.draw(st.integers(0, 4), label="unknown name?") == 0:
        name = data.draw(st.from_regex(r"[a-z_]{1,12}", fullmatch=True).filter(lambda n: n not in fields))
        value = data.draw(JUNK)
    else:
        name = data.draw(st.sampled_from(sorted(fields)), label="option")
        value = data.draw(_invalid_value(name, fields[name]), label="value")
    with pytest.raises(ValueError) as info:
        labyrinth_env.raw_env(env_id, **{name: value})
    assert name in str(info.value), str(info.value)


# --- AEC actions --------------------------------------------------------------------------------
def _bad_action(n: int, mask: np.ndarray) -> st.SearchStrategy:
    illegal = [int(a) for a in np.flatnonzero(mask == 0)]
    return (
        st.sampled_from(illegal or [n])
        | st.integers(max_value=-1)
        | st.integers(min_value=n)
        | st.floats(allow_nan=True)
        | st.booleans()
        | st.text(max_size=6)
        | st.none()
        | st.lists(st.integers(0, n - 1), min_size=1, max_size=2)
        | st.integers(0, n - 1).map(lambda a: np.array([a]))
        | st.integers(0, n - 1).map(np.float32)
        | st.just(np.bool_(True))
    )


def _to_position(env_id: str, data: Any, checked: bool) -> Any:
    env = labyrinth_env.make(env_id) if checked else labyrinth_env.raw_env(env_id)
    env.reset(seed=data.draw(st.integers(0, 2**32), label="game seed"))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32), label="play seed"))
    for _ in range(data.draw(st.integers(0, 120), label="steps")):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        env.step(int(rng.choice(env.legal_actions())))
    assume(not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]))
    return env


def _aec_snapshot(env: Any) -> tuple:
    raw = env.unwrapped
    return (raw._states.tobytes(), raw._mask.tobytes(), list(raw.actions_taken), raw.agent_selection, len(raw.game_log))


@pytest.mark.parametrize("env_id", ENV_IDS)
@fuzz(30)
@given(data=st.data())
def test_fuzz_bad_aec_actions_change_nothing(env_id, data):
    checked = data.draw(st.booleans(), label="checked (make) or raw")
    env = _to_position(env_id, data, checked)
    raw = env.unwrapped
    action = data.draw(_bad_action(raw.kernel.NUM_ACTIONS, raw._mask), label="action")
    before = _aec_snapshot(env)
    in_range_int = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
    in_range_int = in_range_int and 0 <= int(action) < raw.kernel.NUM_ACTIONS
    if checked and in_range_int:
        # make(): an illegal move ends the game as TerminateIllegalWrapper does; the record stays
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env.step(action)
        assert raw.illegal_action == (before[3], int(action))
        assert all(env.terminations.values()) and all(env.truncations.values())
        assert raw._states.tobytes() == before[0]
        return
    with pytest.raises(ValueError):
        env.step(action)
    assert _aec_snapshot(env) == before


# --- vector actions -----------------------------------------------------------------------------
def _bad_vector_actions(n: int, num_envs: int, masks: np.ndarray) -> st.SearchStrategy:
    legal = [int(np.flatnonzero(m)[0]) for m in masks]

    def illegal_row(row: int) -> np.ndarray:
        acts = np.array(legal, dtype=np.int64)
        bad = np.flatnonzero(masks[row] == 0)
        acts[row] = int(bad[0]) if bad.size else n
        return acts

    def set_row(row_value: tuple[int, Any]) -> list:
        acts: list[Any] = list(legal)
        acts[row_value[0]] = row_value[1]
        return acts

    rows = st.integers(0, num_envs - 1)
    wrong_shapes = st.sampled_from([(), (num_envs - 1,), (num_envs + 1,), (num_envs, 1), (1, num_envs), (0,)])
    return (
        rows.map(illegal_row)
        | st.tuples(rows, st.integers(max_value=-1) | st.integers(min_value=n, max_value=2**62)).map(
            lambda rv: np.array(set_row(rv), dtype=np.int64)
        )
        | st.tuples(rows, st.floats(allow_nan=True) | st.text(max_size=3) | st.none()).map(set_row)
        | st.just(np.array(legal, dtype=np.float64))
        | st.just(np.array(legal, dtype=bool))
        | st.just(np.array(legal, dtype=object))
        | st.just([str(a) for a in legal])
        | wrong_shapes.map(lambda shape: np.zeros(shape, dtype=np.int64))
        | st.just(np.array(legal, dtype=np.uint64) + np.uint64(2**63))
    )


def _vector_snapshot(venv: VectorEnv) -> tuple:
    return tuple(np.array(a, copy=True).tobytes() for a in (venv.states, venv.masks, venv.obs, venv.rngs, venv.seats))


@pytest.mark.parametrize("env_id", ENV_IDS)
@fuzz(20)
@given(data=st.data())
def test_fuzz_bad_vector_actions_are_refused_before_anything_moves(env_id, data):
    num_envs = data.draw(st.integers(1, 4), label="num_envs")
    venv = VectorEnv(env_id, num_envs, seed=data.draw(st.integers(0, 2**32), label="seed"))
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(data.draw(st.integers(0, 6), label="good steps")):
        venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()], dtype=np.int64))
    actions = data.draw(_bad_vector_actions(venv.kernel.NUM_ACTIONS, num_envs, venv.masks), label="actions")
    before = _vector_snapshot(venv)
    with pytest.raises(ValueError):
        venv.step(actions)
    assert _vector_snapshot(venv) == before
    venv.step(np.array([np.flatnonzero(m)[0] for m in venv.action_masks()], dtype=np.int64))  # still usable


def _bad_answer(kind: str, masks: np.ndarray, junk: Any) -> Any:
    first = np.array([np.flatnonzero(m)[0] for m in masks], dtype=np.int64)
    if kind == "negative":
        return np.full(len(masks), -1, dtype=np.int64)
    if kind == "float":
        return first + 0.5
    if kind == "illegal":
        bad = [np.flatnonzero(m == 0) for m in masks]
        return np.array([b[0] if b.size else masks.shape[1] for b in bad], dtype=np.int64)
    if kind == "shape":
        return np.concatenate([first, first])
    if kind == "raise":
        raise ValueError("the policy failed")
    return junk


@pytest.mark.parametrize("env_id", ENV_IDS)
@fuzz(15)
@given(data=st.data())
def test_fuzz_a_bad_policy_leaves_the_batch_as_it_was(env_id, data):
    kind = data.draw(st.sampled_from(["negative", "float", "illegal", "shape", "raise", "junk"]), label="answer")
    junk = data.draw(JUNK, label="junk")
    answers: list[Any] = []

    def policy(obs: np.ndarray, masks: np.ndarray) -> Any:
        if answers:
            return _bad_answer(answers.pop(), masks, junk)
        return np.array([np.flatnonzero(m)[0] for m in masks], dtype=np.int64)

    venv = VectorEnv(env_id, 2, seed=data.draw(st.integers(0, 2**32), label="seed"), opponents=policy)
    venv.reset()
    answers.append(kind)  # armed after the reset, whose opponents answer well
    for _ in range(80):  # until the opponents are asked (a turn may hold many learner decisions)
        legal = np.array([np.flatnonzero(m)[0] for m in venv.action_masks()], dtype=np.int64)
        before = _vector_snapshot(venv)
        try:
            venv.step(legal)
        except ValueError:
            assert _vector_snapshot(venv) == before
            venv.step(legal)  # and the batch still plays
            return
        assert answers or kind == "junk", "a bad answer was taken"  # junk may happen to be legal
        if not answers:
            return


@pytest.mark.parametrize("shaping", [math.nan, math.inf, -math.inf, -1.0, "1", None, True])
def test_fuzz_vector_shaping_must_be_finite(shaping):
    with pytest.raises(ValueError, match="shaping"):
        VectorEnv(ENV_IDS[0], 1, shaping=shaping)


# --- replays ------------------------------------------------------------------------------------
@functools.cache
def _base_replay(env_id: str) -> str:
    env = labyrinth_env.raw_env(env_id)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(40):
        if env.terminations[env.agent_selection]:
            break
        env.step(int(rng.choice(env.legal_actions())))
    return json.dumps(env.replay_dict())


@functools.cache
def _base_illegal_replay(env_id: str) -> str:
    """A game that an illegal action ended (in make()'s checked mode)."""
    env = labyrinth_env.make(env_id)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(10):
        if env.terminations[env.agent_selection]:
            break
        env.step(int(rng.choice(env.legal_actions())))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(min(set(range(env.unwrapped.kernel.NUM_ACTIONS)) - set(env.legal_actions())))
    assert env.unwrapped.illegal_action is not None
    return json.dumps(env.unwrapped.replay_dict())


def _mutate_replay(data: Any, draw: Any) -> dict[str, Any]:
    replay = json.loads(data)
    for _ in range(draw(st.integers(1, 3), label="mutations")):
        kind = draw(st.sampled_from(["key", "drop", "action", "cut", "extend", "option", "seed", "illegal"]))
        if kind == "key":
            replay[draw(st.sampled_from([*replay, "extra"]))] = draw(JUNK)
        elif kind == "drop" and replay:
            replay.pop(draw(st.sampled_from(sorted(replay))))
        elif kind == "action" and isinstance(replay.get("actions"), list) and replay["actions"]:
            i = draw(st.integers(0, len(replay["actions"]) - 1))
            replay["actions"][i] = draw(st.integers(-5, 3000) | JUNK)
        elif kind == "cut" and isinstance(replay.get("actions"), list):
            replay["actions"] = replay["actions"][: draw(st.integers(0, len(replay["actions"])))]
        elif kind == "extend" and isinstance(replay.get("actions"), list):
            replay["actions"] += draw(st.lists(st.integers(-2, 3000), min_size=1, max_size=3))
        elif kind == "option" and isinstance(replay.get("options"), dict):
            replay["options"][draw(st.sampled_from([*replay["options"], "bogus"]))] = draw(JUNK)
        elif kind == "seed":
            replay["seed"] = draw(st.integers(-3, 2**66))
        elif kind == "illegal":
            replay["illegal_action"] = draw(
                st.fixed_dictionaries(
                    {"agent": st.sampled_from(["player_0", "player_1", "x"]), "action": st.integers(-1, 3000)}
                )
                | JUNK
            )
    return replay


@pytest.mark.parametrize("env_id", ENV_IDS)
@fuzz(25)
@given(data=st.data())
def test_fuzz_mutated_replays_load_the_same_game_or_fail_cleanly(env_id, data):
    base = data.draw(st.sampled_from([_base_replay(env_id), _base_illegal_replay(env_id)]), label="base")
    replay = _mutate_replay(base, data.draw)
    text = json.dumps(replay)
    try:
        env = replay_data(json.loads(text), "fuzzed.json")
    except ValueError as exc:
        assert str(exc).startswith("malformed replay 'fuzzed.json'"), str(exc)
        return
    # it loaded: it is the game the file describes
    assert list(env.actions_taken) == replay["actions"]
    assert env.seed_used == replay["seed"]
    if "log_sha256" in replay:
        assert env.log_digest() == replay["log_sha256"]
        # issue 32, item 8: the digest covers the illegal action, so a file whose
        # illegal_action was deleted (or added) does not load as another game
        assert (env.illegal_action is None) == (json.loads(base).get("illegal_action") is None)
    again = replay_data(env.replay_dict(), "again")
    assert again.log_digest() == env.log_digest()


def _run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


@fuzz(20)
@given(data=st.data())
def test_fuzz_the_replay_command_exits_0_or_2_with_one_line(data):
    env_id = data.draw(st.sampled_from(ENV_IDS))
    replay = _mutate_replay(_base_replay(env_id), data.draw)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzzed.json"
        path.write_text(json.dumps(replay))
        code, _, err = _run_cli(["replay", str(path)])
    assert code in (0, 2), err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
        assert str(path) in err, err


# --- configs ------------------------------------------------------------------------------------
def _mutate_yaml(path: Path, draw: Any) -> str:
    """A config's text, mutated: its data (values replaced, keys dropped or added, options
    changed) and then perhaps its text (bytes inserted, a slice cut)."""
    data = yaml.safe_load(path.read_text())
    for _ in range(draw(st.integers(0, 3), label="data mutations")):
        # option names that are not words are drawn twice as often: they reach furthest (a
        # TypeError from make(**options) if nothing checks them)
        kind = draw(st.sampled_from(["value", "drop", "add", "option", "option name", "option name", "nested"]))
        keys = sorted(data, key=str) if isinstance(data, dict) else []
        if kind == "value" and keys:
            data[draw(st.sampled_from(keys))] = draw(JUNK)
        elif kind == "drop" and keys:
            data.pop(draw(st.sampled_from(keys)))
        elif kind == "add" and isinstance(data, dict):
            data[draw(st.text(max_size=8) | st.integers(-2, 2))] = draw(JUNK)
        elif kind == "option" and isinstance(data, dict) and isinstance(data.get("options"), dict):
            opts = data["options"]
            opts[draw(st.sampled_from([*opts, "bogus"]))] = draw(JUNK)
        elif kind == "option name" and isinstance(data, dict):  # YAML keys need not be words
            if not isinstance(data.get("options"), dict):
                data["options"] = {}
            data["options"][draw(st.integers(-2, 2) | st.none() | st.booleans() | st.floats())] = draw(SCALARS)
        elif kind == "nested" and isinstance(data, dict):
            sections = [k for k in keys if isinstance(data[k], dict) and data[k]]
            if sections:
                section = data[draw(st.sampled_from(sections))]
                section[draw(st.sampled_from(sorted(section, key=str)))] = draw(JUNK)
        elif kind == "value" and not keys:
            data = draw(JUNK)
    text = yaml.safe_dump(data, allow_unicode=True)
    if draw(st.integers(0, 3), label="text mutation?") == 0:
        at = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:at] + draw(st.text(max_size=6)) + text[at:]
        else:
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
    return text


def _write(tmp: str, text: str) -> Path:
    path = Path(tmp) / "fuzzed.yaml"
    path.write_text(text, errors="surrogatepass")
    return path


@fuzz(30)
@given(data=st.data())
def test_fuzz_mutated_env_configs_make_an_env_or_say_why(data):
    text = _mutate_yaml(data.draw(st.sampled_from(ENV_CONFIGS)), data.draw)
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(tmp, text)
        try:
            env = make_from_config(path)
        except ValueError as exc:
            assert str(path) in str(exc), str(exc)
            return
    env.reset(seed=0)
    assert env.agent_selection in env.agents


@fuzz(30)
@given(data=st.data())
def test_fuzz_mutated_tournament_configs_exit_2_with_one_line(data):
    # --report-only with an empty --out: a config that is fine still stops (no results to
    # report on), so every example ends with exit 2 and one line, and no game is played
    text = _mutate_yaml(data.draw(st.sampled_from(TOURNAMENT_CONFIGS)), data.draw)
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(tmp, text)
        argv = ["tournament", "--config", str(path), "--report-only", "--out", str(Path(tmp) / "out"), "--no-plot"]
        code, out, err = _run_cli(argv)
    assert code == 2, out + err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


@fuzz(30)
@given(data=st.data())
def test_fuzz_mutated_training_configs_load_or_say_why(data):
    text = _mutate_yaml(data.draw(st.sampled_from(TRAIN_CONFIGS)), data.draw)
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(tmp, text)
        try:
            cfg = load_any_config(path)  # PPO's or the self-play learner's, as the file's algo says
        except ValueError as exc:
            assert "training config" in str(exc) or "config " in str(exc), str(exc)
            return
    assert cfg.env_id in labyrinth_env.list_envs()


# --- issue 32: tournament records, kernel cache files, what agents hold, output paths ------------
@functools.cache
def _tournament_lines() -> tuple[str, ...]:
    """Six games of a small tournament, as its results file's lines."""
    from labyrinth_env.agents.tournament import RESULTS, run_tournament

    with tempfile.TemporaryDirectory() as tmp:
        options = {"num_players": 2, "max_turns": 20}
        run_tournament(
            "paths_of_destiny_3e_v3", ["random", "heuristic"], 6, seed=2, options=options, out=tmp, plot=False
        )
        return tuple((Path(tmp) / RESULTS).read_text().splitlines())


@functools.cache
def _fuzz_tournament() -> Any:
    from labyrinth_env.agents.tournament import make_tournament

    return make_tournament("paths_of_destiny_3e_v3", ["random", "heuristic"], 2, {"num_players": 2, "max_turns": 20})


RECORD_KEYS = ["index", "winner", "winner_agent", "returns", "length", "turns", "outcome", "seed", "actions"]
RECORD_KEYS += ["agent_seeds", "arrangement", "tournament_seed", "log_sha256", "options", "agents", "illegal_action"]


@fuzz(40)
@given(data=st.data())
def test_fuzz_forged_tournament_records_are_refused_naming_the_line(data):
    """Issue 32, item 3: a record edited (fields replaced by junk or by another game's,
    keys dropped, copies added) with its unkeyed digest recomputed is refused with a
    ValueError naming the file and line, or, if every edit left it as it was, read back
    unchanged; never another exception. Read as a resumed run or a report reads it (with
    the tournament), and without it."""
    from labyrinth_env.agents.tournament import DIGEST, read_results, record_digest

    lines = list(_tournament_lines())
    records = [json.loads(line) for line in lines]
    line = data.draw(st.integers(0, len(lines) - 1), label="line")
    rec = dict(records[line])
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        key = data.draw(st.sampled_from(RECORD_KEYS), label="key")
        kind = data.draw(st.sampled_from(["junk", "other game", "drop", "nudge", "copy"]), label="kind")
        if kind == "junk":
            rec[key] = json.loads(json.dumps(data.draw(JUNK)))  # as a file holds it (keys are text)
        elif kind == "other game":
            rec[key] = records[data.draw(st.integers(0, len(records) - 1))].get(key)
        elif kind == "drop":
            rec.pop(key, None)
        elif kind == "nudge" and type(rec.get(key)) is int:
            rec[key] += data.draw(st.sampled_from([-1, 1, 2**63]))
        elif kind == "copy":
            lines.append(json.dumps({**rec, DIGEST: record_digest(rec)}))
    rec[DIGEST] = record_digest(rec)
    lines[line] = json.dumps(rec)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.jsonl"
        path.write_text("\n".join(lines) + "\n")
        t = _fuzz_tournament() if data.draw(st.booleans(), label="with the tournament") else None
        try:
            got = read_results(path, t)
        except ValueError as exc:
            assert str(exc).startswith(f"results file {str(path)!r}, line "), str(exc)
            return
    # nothing that can be checked was changed; without the tournament a seating's
    # arrangement number (index mod the schedule's cycle) cannot be
    unchecked = set() if t is not None else {"arrangement", DIGEST}
    assert [{k: v for k, v in r.items() if k not in unchecked} for r in got] == [
        {k: v for k, v in r.items() if k not in unchecked} for r in records
    ]


@fuzz(60)
@given(data=st.data())
def test_fuzz_damaged_kernel_cache_files_load_as_written_or_are_called_corrupt(data):
    """Issue 32, item 5: whatever happens to a cache entry's files (bytes flipped, cut,
    garbage, removed), loading it gives what was saved or raises CorruptCacheError (which
    the cache reports and compiles past), never anything else; a save over the damage works."""
    import pickle

    from labyrinth_env.core.cache import CheckedCacheFile, CorruptCacheError

    payload = {"code": bytes(range(256)) * 8, "n": 42}
    with tempfile.TemporaryDirectory() as tmp:
        cache = CheckedCacheFile(tmp, "kernel-1.py311", "stamp")
        cache.save("key", payload)
        files = sorted(Path(tmp).iterdir())
        for _ in range(data.draw(st.integers(1, 3), label="damages")):
            target = data.draw(st.sampled_from(files), label="file")
            content = bytearray(target.read_bytes()) if target.exists() else bytearray()
            kind = data.draw(st.sampled_from(["flip", "cut", "garbage", "remove", "pickle"]), label="kind")
            if kind == "flip" and content:
                i = data.draw(st.integers(0, len(content) - 1))
                content[i] ^= data.draw(st.integers(1, 255))
                target.write_bytes(bytes(content))
            elif kind == "cut":
                target.write_bytes(bytes(content[: data.draw(st.integers(0, max(0, len(content) - 1)))]))
            elif kind == "garbage":
                target.write_bytes(data.draw(st.binary(max_size=64)))
            elif kind == "remove" and target.exists():
                target.unlink()
            elif kind == "pickle":
                target.write_bytes(pickle.dumps(data.draw(JUNK)))
        try:
            got = cache.load("key")
        except CorruptCacheError:
            got = "corrupt"
        assert got in (payload, None, "corrupt")
        cache.save("key", payload)  # what the cache does after a miss or damage
        assert cache.load("key") == payload


@fuzz(15)
@given(data=st.data())
def test_fuzz_an_agent_that_vandalises_what_it_holds_changes_nothing(data):
    """Issue 32, item 2: whatever an agent writes into what it was handed (the view, its
    log and events, the observation dict), the game, its results and its replay are those
    of an agent that touched nothing."""
    from labyrinth_env.agents.evaluate import play_game
    from tests.test_seat_view import _Spy, _Vandal

    env_id = data.draw(st.sampled_from(ENV_IDS))
    lo, hi = labyrinth_env.get_spec(env_id).players
    options = {"num_players": data.draw(st.integers(lo, min(hi, 3))), "max_turns": 4}
    seed = data.draw(st.integers(0, 2**32))
    honest = labyrinth_env.make(env_id, **options)
    expected = play_game(honest, [_Spy() for _ in range(options["num_players"])], seed=seed)
    env = labyrinth_env.make(env_id, **options)
    assert play_game(env, [_Vandal() for _ in range(options["num_players"])], seed=seed) == expected
    assert env.unwrapped.replay_dict() == honest.unwrapped.replay_dict()


@fuzz(20)
@given(data=st.data())
def test_fuzz_output_and_input_paths_give_one_line_and_exit_2(data):
    """Issue 32, item 6: replay --html, evaluate --json and analyze --out into paths that
    cannot be written, and replays that are not regular files, end with one line and exit
    code 2 before any game."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "a_file").write_text("x")
        (root / "folder").mkdir()
        os.mkfifo(root / "fifo")
        env = labyrinth_env.make("team_edition_v2", num_players=2)
        env.reset(seed=1)
        env.save_replay(root / "good.json")
        bad = data.draw(
            st.sampled_from(["a_file/x", "a_file/x/y", "folder", "missing/deeper/x", "fifo/x", "a_file"]), label="path"
        )
        target = str(root / bad)
        command = data.draw(st.sampled_from(["html", "json", "out", "replay"]), label="command")
        if command == "html":
            # a new file must be named .html; the other paths are refused before that check
            name = target + ".html" if bad.startswith("missing") else target
            argv = ["replay", str(root / "good.json"), "--html", name]
        elif command == "json":
            argv = ["evaluate", "--env", "team_edition_v2", "--agent", "random", "--games", "1", "--no-progress"]
            argv += ["--json", target]
        elif command == "out":
            argv = ["analyze", "--env", "toy_race_v0", "--players", "2", "--games", "2", "--no-progress"]
            argv += ["--out", target]
        else:
            argv = ["replay", data.draw(st.sampled_from([str(root / "fifo"), "/dev/zero", "/dev/null", str(root)]))]
        code, _, err = _run_cli(argv)
        if command == "html" and bad.startswith("missing"):
            assert code == 0, err  # --html makes its folders
        elif command == "out" and (bad.startswith("missing") or bad == "folder"):
            assert code == 0, err  # --out is a folder, made if missing
        elif command == "json" and bad == "a_file":
            assert code == 0, err  # an existing file is written over
        else:
            assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (argv, err)
