"""Games that need not end (issue 32, item 7): a Paths of Destiny game has no end but a
win, and random games with ``max_turns=None`` ran 3,000,000 decisions without one, so both
editions refuse ``None`` (one error naming the option and what is allowed); ``labyrinth
analyze`` plays a game into a buffer that grows to a fixed cap, not without limit; and
``VectorEnv``'s ``max_opponent_decisions`` is checked the same way by the constructor,
``set_attr`` and plain assignment, a refused value leaving the env as it was. The fuzz
cases at the end throw junk at the same doors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import labyrinth_env
from labyrinth_env import analyze as A
from labyrinth_env.vector import MAX_OPPONENT_DECISIONS, VectorEnv
from tests.test_fuzz import JUNK, fuzz

POD = sorted(s.env_id for s in labyrinth_env.specs() if "paths_of_destiny" in s.package)
TOY = "toy_race_v0"
BAD_LIMITS = [0, -5, 10**15, MAX_OPPONENT_DECISIONS + 1, 2.5, True, "3", None, np.int64(0)]


# --- max_turns=None where a game need not end ---------------------------------------------------------
@pytest.mark.parametrize("env_id", POD)
def test_paths_of_destiny_refuse_max_turns_none(env_id):
    message = r"option max_turns=None is not allowed: a Paths of Destiny game need not end .*an integer from 1 to"
    with pytest.raises(ValueError, match=message):
        labyrinth_env.make(env_id, max_turns=None)
    with pytest.raises(ValueError, match=message):
        VectorEnv(env_id, 2, max_turns=None)
    assert labyrinth_env.raw_env(env_id, max_turns=1_000_000).options.max_turns == 1_000_000


def test_two_editions_are_the_ones_refusing():
    assert len(POD) == 2


# --- labyrinth analyze: a game longer than the cap ----------------------------------------------------
class _Sizes:
    """The analysis loops, noting the decision rows of every buffer handed to them."""

    def __init__(self, loops) -> None:
        self.loops, self.rows = loops, []

    def play_recorded(self, states, options, seeds, kinds, agent_seeds, decisions, *rest):
        self.rows.append(decisions.shape[0])
        return self.loops.play_recorded(states, options, seeds, kinds, agent_seeds, decisions, *rest)

    def __getattr__(self, name):
        return getattr(self.loops, name)


@pytest.mark.parametrize("external", [False, True], ids=["in the kernel", "through the AEC env"])
def test_analyze_refuses_a_game_longer_than_its_cap(monkeypatch, external):
    """With the cap at 3 decisions (the toy's games are longer) the card is refused with one
    line naming the game and what to do; the kernel path's buffer never passes the cap."""
    bound = A._bound(labyrinth_env.get_spec(TOY))
    sizes = _Sizes(bound)
    monkeypatch.setattr(A, "_bound", lambda spec: sizes)
    monkeypatch.setattr(A, "MAX_GAME_DECISIONS", 3)
    monkeypatch.setattr(A, "ROW_CAPACITY", 1)
    if external:
        monkeypatch.setattr(A, "KERNEL_AGENTS", {})  # every mix through the AEC env
    with pytest.raises(
        ValueError, match=r"toy_race_v0: game 0 \(seed \d+\) had not ended after 3 decisions.*max_turns"
    ):
        A.analyze(TOY, 2, ["random"], games=2)
    assert max(sizes.rows, default=0) <= 3
    assert external or sizes.rows[-1] == 3


def test_analyze_plays_games_within_the_cap():
    card = A.analyze(TOY, 2, ["random"], games=3)
    assert card["settings"][0]["games"] == 3


# --- VectorEnv.max_opponent_decisions ---------------------------------------------------------------------
def _error(value) -> str:
    with pytest.raises(ValueError) as info:
        VectorEnv(TOY, 2, max_opponent_decisions=value)
    return str(info.value)


@pytest.mark.parametrize("value", BAD_LIMITS, ids=repr)
def test_set_attr_max_opponent_decisions_is_checked_as_the_constructor_does(value):
    message = _error(value)
    assert "max_opponent_decisions must be an int from 1 to 50,000" in message
    vec = VectorEnv(TOY, 2, seed=1, max_opponent_decisions=7)
    vec.reset(seed=1)
    before = (vec.states.tobytes(), vec.max_opponent_decisions)
    for how in (
        lambda: vec.set_attr("max_opponent_decisions", value),
        lambda: setattr(vec, "max_opponent_decisions", value),
    ):
        with pytest.raises(ValueError) as info:
            how()
        assert str(info.value) == message
        assert (vec.states.tobytes(), vec.max_opponent_decisions) == before
    with pytest.raises(ValueError):
        vec.set_attr("max_opponent_decisions", [value, value])
    assert vec.max_opponent_decisions == 7


def test_max_opponent_decisions_accepts_1_to_the_default():
    vec = VectorEnv(TOY, 2, seed=1)
    assert vec.max_opponent_decisions == MAX_OPPONENT_DECISIONS
    vec.set_attr("max_opponent_decisions", [1, 1])
    assert vec.max_opponent_decisions == 1
    vec.set_attr("max_opponent_decisions", np.int32(MAX_OPPONENT_DECISIONS))
    assert vec.max_opponent_decisions == MAX_OPPONENT_DECISIONS and type(vec.max_opponent_decisions) is int


# --- fuzz -------------------------------------------------------------------------------------------------
def _limit(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_OPPONENT_DECISIONS


@fuzz(40)
@given(value=JUNK | st.integers(min_value=-(2**70), max_value=2**70))
def test_fuzz_max_opponent_decisions_takes_1_to_the_default_or_says_why(value):
    """One value, or one per env (two here, all equal)."""
    vec = VectorEnv(TOY, 2, seed=1, max_opponent_decisions=9)
    per_env = isinstance(value, (list, tuple))
    if _limit(value) if not per_env else len(value) == 2 and _limit(value[0]) and value[1] == value[0]:
        vec.set_attr("max_opponent_decisions", value)
        assert vec.max_opponent_decisions == (value[0] if per_env else value)
        return
    with pytest.raises(ValueError, match=r"set_attr|max_opponent_decisions must be an int from 1"):
        vec.set_attr("max_opponent_decisions", value)
    assert vec.max_opponent_decisions == 9


@pytest.mark.parametrize("env_id", POD)
@fuzz(20)
@given(value=JUNK)
def test_fuzz_pod_max_turns_is_an_integer_or_refused_naming_it(env_id, value):
    good = isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 1_000_000
    if good:
        assert labyrinth_env.raw_env(env_id, max_turns=value).options.max_turns == value
    else:
        with pytest.raises(ValueError, match=r"option max_turns=.* is not allowed"):
            labyrinth_env.raw_env(env_id, max_turns=value)
