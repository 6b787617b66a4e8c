"""PettingZoo's API as its documentation states it, where these turn-based games differ
from its other families (issue 23, item 10): no Parallel API, no ``max_cycles``."""

from __future__ import annotations

import pytest
from pettingzoo.utils.conversions import aec_to_parallel

import labyrinth_env

ENV_IDS = [spec.env_id for spec in labyrinth_env.specs()]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_max_cycles_is_refused_with_max_turns_as_the_hint(env_id: str) -> None:
    with pytest.raises(ValueError, match=r"unknown option\(s\) max_cycles .*max_turns limits whole turns"):
        labyrinth_env.make(env_id, max_cycles=100)
    labyrinth_env.make(env_id, max_turns=100)  # the option that is meant


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_parallel_conversion_is_refused(env_id: str) -> None:
    env = labyrinth_env.make(env_id)
    assert env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_state_keeps_pettingzoos_meaning_and_the_record_has_its_own_name(env_id: str) -> None:
    env = labyrinth_env.make(env_id)
    env.reset(seed=0)
    with pytest.raises(NotImplementedError, match=r"state\(\).*env.unwrapped.record"):
        env.state()
    record = env.unwrapped.record
    assert record.dtype.names and "outcome" in record.dtype.names
    assert record.tobytes() == env.unwrapped._states[0].tobytes()


def test_parallel_env_is_pettingzoos_turn_based_conversion_with_masks() -> None:
    """``parallel_env()`` (issue 34, item 6): PettingZoo's ``turn_based_aec_to_parallel``,
    which passes its ``parallel_api_test``; the seat to act has its mask, and PettingZoo's
    ``max_cycles_test`` is answered with the option these games have."""
    import numpy as np
    from pettingzoo.test import max_cycles_test, parallel_api_test

    module = labyrinth_env.team_edition_v2
    parallel_api_test(module.parallel_env(max_turns=6), num_cycles=50)
    env = labyrinth_env.parallel_env("team_edition_v2", num_players=2, max_turns=6)
    observations, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    while env.agents:
        acting = env.unwrapped.agent_selection
        assert observations[acting]["action_mask"].any()
        assert all(not observations[a]["action_mask"].any() for a in observations if a != acting)
        action = int(rng.choice(np.flatnonzero(observations[acting]["action_mask"])))
        observations, *_ = env.step({acting: action})
        steps += 1
    assert steps > 1 and env.unwrapped.illegal_action is None
    with pytest.raises(ValueError, match="max_turns limits whole turns"):
        max_cycles_test(module)
