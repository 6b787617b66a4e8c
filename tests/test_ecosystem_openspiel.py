"""The OpenSpiel bridge (issue 23, item 11): every ruleset loads with ``pyspiel.load_game``,
plays to the end with returns, observation tensors, clone and serialize, and OpenSpiel's
own MCTS, ISMCTS and bot evaluation run on it."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from labyrinth_env import openspiel as bridge  # noqa: E402

NAMES = bridge.register()  # every ruleset, the tests' toy one included


def play_randomly(state, rng: np.random.Generator, limit: int = 20_000):
    steps = 0
    while not state.is_terminal() and steps < limit:
        state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    return steps


@pytest.mark.parametrize("name", NAMES)
def test_every_ruleset_loads_and_plays_to_its_returns(name: str) -> None:
    game = pyspiel.load_game(name, {"num_players": 2, "max_turns": 6})
    assert game.num_players() == 2 and game.get_type().short_name == name
    state = game.new_initial_state()
    player = state.current_player()
    agent = state.env.agent_selection
    np.testing.assert_array_equal(
        np.asarray(state.observation_tensor(player), dtype=np.float32), state.env.observe(agent)["observation"]
    )
    assert state.legal_actions() == state.env.legal_actions() and state.legal_actions()
    assert np.flatnonzero(state.legal_actions_mask(player)).tolist() == state.legal_actions()
    play_randomly(state, np.random.default_rng(0))
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    returns = state.returns()
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sum(returns) == pytest.approx(0.0)
    else:
        assert len(set(returns)) == 1


@pytest.mark.parametrize("name", NAMES)
def test_clone_and_serialize_give_the_same_game(name: str) -> None:
    game = pyspiel.load_game(name, {"num_players": 2, "max_turns": 6})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(10):
        state.apply_action(int(rng.choice(state.legal_actions())))
    clone = state.clone()
    restored = game.deserialize_state(state.serialize())
    for other in (clone, restored):
        assert other.observation_tensor(0) == state.observation_tensor(0)
        assert other.legal_actions() == state.legal_actions()
    action = state.legal_actions()[0]
    clone.apply_action(action)
    assert clone.history() != state.history(), "a clone is an independent game"
    state.apply_action(action)
    restored.apply_action(action)
    assert restored.observation_tensor(1) == state.observation_tensor(1)


def test_successive_games_differ_and_the_seed_parameter_repeats_them() -> None:
    a = pyspiel.load_game("labyrinth_paths_of_destiny_3e", {"seed": 7})
    b = pyspiel.load_game("labyrinth_paths_of_destiny_3e", {"seed": 7})
    first, second = a.new_initial_state(), a.new_initial_state()
    assert first.env.record.tobytes() != second.env.record.tobytes()
    assert b.new_initial_state().env.record.tobytes() == first.env.record.tobytes()


def test_bad_parameters_name_what_is_allowed() -> None:
    with pytest.raises(pyspiel.SpielError, match=r"(?i)unknown parameter.*no_such_option"):
        pyspiel.load_game("labyrinth_labyrinx", {"no_such_option": 1})
    with pytest.raises(ValueError, match="num_players=9"):
        pyspiel.load_game("labyrinth_labyrinx", {"num_players": 9})


def test_resample_from_infostate_keeps_the_seats_view_and_deals_the_hidden_part_again() -> None:
    game = pyspiel.load_game("labyrinth_team_edition", {"num_players": 2})
    state = game.new_initial_state()
    seat = state.current_player()
    samples = [state.resample_from_infostate(seat, random.Random(i).random) for i in range(4)]
    for sample in samples:
        assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        assert sample.legal_actions() == state.legal_actions()
    # the Book of Daedalus is face down: its order is dealt again
    records = {sample.env.record.tobytes() for sample in samples}
    assert len(records) > 1 and state.env.record.tobytes() not in records


def test_openspiel_mcts_ismcts_and_evaluate_bots_run() -> None:
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game("labyrinth_team_edition", {"num_players": 2, "max_turns": 2})
    rng = np.random.RandomState(0)
    search = mcts.MCTSBot(game, 1.4, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    infoset_search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.4, 4, random_state=rng)
    state = game.new_initial_state()
    assert search.step(state) in state.legal_actions()
    assert infoset_search.step(state) in state.legal_actions()
    returns = evaluate_bots.evaluate_bots(
        game.new_initial_state(), [search, uniform_random.UniformRandomBot(1, rng)], rng
    )
    assert len(returns) == 2


def test_states_and_games_pickle_and_chance_outcomes_answer() -> None:
    """Pickle (issue 34, item 2): a state and its game pickle through the state's own
    ``serialize()`` and come back as the same game, which plays on identically; the bridge
    has no chance nodes, so ``chance_outcomes()`` is empty rather than a C++ error. pyspiel's
    ``serialize_game_and_state`` asks a sampled-stochastic game for a C++ RNG state a
    Python game cannot give (docs/ecosystem.md says so and gives these ways instead)."""
    import pickle

    game = pyspiel.load_game("labyrinth_team_edition", {"num_players": 2, "max_turns": 4, "seed": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(3):
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.chance_outcomes() == [] and not state.is_chance_node()
    copy = pickle.loads(pickle.dumps(state))
    assert isinstance(copy, bridge.LabyrinthState) and copy.history() == state.history()
    assert copy.get_game().get_parameters() == game.get_parameters()
    assert copy.env.record.tobytes() == state.env.record.tobytes()
    play_randomly(state, np.random.default_rng(1))
    play_randomly(copy, np.random.default_rng(1))
    assert copy.history() == state.history() and copy.returns() == state.returns()
    again = pickle.loads(pickle.dumps(game))
    assert again.get_parameters() == game.get_parameters() and again.new_initial_state().legal_actions()
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(game, state)
