"""The game card (``labyrinth analyze``, ``labyrinth_env.analyze``): its figures agree with
each other and with the public env, a position counted by hand gives its branching, the
kernels' ``unseen`` accounting matches what their ``determinize`` resamples, and bad
arguments get one line and exit code 2."""

from __future__ import annotations

import math

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env import analyze as A
from labyrinth_env import cli
from labyrinth_env.core import analyze_template as T
from labyrinth_env.core.contract import NO_SEAT, tally_unseen
from tests.toy_ruleset import env as toy_env
from tests.toy_ruleset.kernel import tables as toy_tables
from tests.toy_ruleset.kernel import turn as toy_turn

TOY = "toy_race_v0"


def _rows(env_id: str, players: int, mix: tuple[str, ...], games: int, seed: int = 3, external: bool = False):
    spec = labyrinth_env.get_spec(env_id)
    vec = labyrinth_env.raw_env(env_id, num_players=players).options_vector()
    seeds, agent_seeds = A._seeds(seed, players, games)
    if external:
        return A.play_external(env_id, spec, {"num_players": players}, mix, seeds)
    kinds = np.array([[A.KERNEL_AGENTS[a] for a in A._seating(mix, players, g)] for g in range(games)])
    return A.play_kernel(spec, vec, seeds, kinds, agent_seeds)


def _check_consistent(result: dict) -> None:
    for card in result["settings"]:
        # decisions per game: the per-turn counts add up to them
        per_game = card["length"]["decisions_per_game"]["mean"] * card["games"]
        assert card["branching"]["decisions"] == pytest.approx(per_game)
        if "seats" in card:
            seats = card["seats"]
            total = sum(r["rate"] for r in seats["by_seat"]) + seats["no_winner_share"]
            assert total == pytest.approx(1.0)
            assert sum(r["rate"] for r in seats["by_turn_order"]) + seats["no_winner_share"] == pytest.approx(1.0)
            assert seats["no_winner_share"] >= seats["truncated_share"]
            for r in seats["by_seat"]:
                assert r["ci95"][0] <= r["rate"] <= r["ci95"][1]
            p = seats["equal_seats_p_value"]
            assert math.isnan(p) or 0.0 <= p <= 1.0
        else:
            team = card["team"]
            assert team["won"]["rate"] + team["lost"]["rate"] + team["truncated"]["rate"] == pytest.approx(1.0)
        assert sum(d["decisions"] for d in card["branching"]["by_decision"].values()) == card["branching"]["decisions"]
        assert sum(card["histograms"]["legal"]) == card["branching"]["decisions"]
        assert sum(card["histograms"]["turns"]) == card["games"]


def test_decisions_per_game_are_the_sum_over_turns_and_rows_match_games():
    decisions, infoset, games, _ = _rows(TOY, 3, ("heuristic", "random", "random"), 12)
    assert len(decisions) == len(infoset) == games[:, T.G_DECISIONS].sum()
    for g in range(len(games)):
        mine = decisions[decisions[:, T.D_GAME] == g]
        assert len(mine) == games[g, T.G_DECISIONS]
        _, per_turn = np.unique(mine[:, T.D_TURN], return_counts=True)
        assert per_turn.sum() == games[g, T.G_DECISIONS]
        # turns are played in order and the last one is the game's counter (or one short of
        # it when the game ended on a truncation)
        assert np.all(np.diff(mine[:, T.D_TURN]) >= 0)
        assert mine[-1, T.D_TURN] <= games[g, T.G_TURNS]


def test_kernel_rows_equal_the_public_env_rows():
    """The in-kernel loop's branching (its own mask count) equals the AEC env's action
    mask at every decision, and every other column and game figure agrees."""
    kernel = _rows(TOY, 2, ("heuristic",), 6)
    env = _rows(TOY, 2, ("heuristic",), 6, external=True)
    np.testing.assert_array_equal(kernel[0], env[0])
    np.testing.assert_array_equal(kernel[1], env[1])
    np.testing.assert_array_equal(kernel[2], env[2])


def test_toy_card_figures_by_hand():
    """The toy race's chance and hidden information, known from its rules: one die per
    turn (thrown by the step that turns a tile or passes), so the random numbers drawn per
    game are its turn decisions and the decisions after a chance event are exactly its move
    decisions; nothing is hidden; the first decision of a 2-player game is turning one of
    the 23 tiles without a piece or passing (24)."""
    result = A.analyze(TOY, players=[2, 3], agents=["heuristic", "random"], games=10, seed=5)
    _check_consistent(result)
    for card in result["settings"]:
        by = card["branching"]["by_decision"]
        turns, moves = by["turn a tile or pass"]["decisions"], by["move"]["decisions"]
        assert card["chance"]["random_numbers_per_game"]["mean"] * card["games"] == turns
        assert card["chance"]["decisions_after_chance_share"] == pytest.approx(moves / (turns + moves))
        assert card["chance"]["draws_per_game"]["max"] == 0
        assert card["hidden"]["unseen_per_decision"]["max"] == 0
        assert card["hidden"]["infoset_log10"]["max"] == 0
    decisions, _, games, _ = _rows(TOY, 2, ("random",), 5)
    firsts = np.r_[0, np.cumsum(games[:, T.G_DECISIONS])[:-1]]
    assert set(decisions[firsts, T.D_LEGAL]) == {25 - 2 + 1}
    assert set(decisions[firsts, T.D_DECISION]) == {toy_tables.D_TURN}


def test_hand_checked_toy_position_branching():
    """Every tile open (a 5x5 grid of open paths), piece 0 to move: from the corner with a
    roll of 2 it may stay or reach the 5 cells within two steps (6); from the next cell
    along the edge, 4 with a roll of 1 and 8 with a roll of 2; with a roll of 0 it can only
    stay (1). Turning a tile: the 23 tiles without a piece, or passing (24)."""
    spec = labyrinth_env.get_spec(TOY)
    loops = A._bound(spec)
    states = spec.new_states(1)
    opts = labyrinth_env.raw_env(TOY, num_players=2).options_vector()
    spec.kernel.init(states[0], np.uint64(1), opts)
    s = states[0]
    s["tile"][:] = 0b1111
    s["position"][1] = toy_tables.NUM_CELLS - 1
    s["decision"] = toy_tables.D_MOVE
    s["decider"] = 0
    s["seat"] = 0
    for cell, roll, legal in ((0, 2, 6), (0, 0, 1), (1, 1, 4), (1, 2, 8)):
        s["position"][0] = cell
        toy_turn.measure_distances(s, cell)
        s["roll"] = roll
        assert loops.branching_one(states) == legal, (cell, roll)
    s["decision"] = toy_tables.D_TURN
    assert loops.branching_one(states) == toy_tables.NUM_CELLS - 2 + 1


def test_seat_p_values():
    assert A.seat_p_value([50, 50]) == pytest.approx(1.0)
    assert A.seat_p_value([90, 10]) < 1e-10
    assert math.isnan(A.seat_p_value([3, 2]))  # too few winners for the test
    assert A.binomial_p_value(50, 100, 0.5) == pytest.approx(1.0)
    assert A.binomial_p_value(70, 100, 0.5) == pytest.approx(0.0000785, rel=0.01)


def test_tally_unseen_counts_arrangements():
    out = np.zeros(2)
    tally_unseen(out, np.array([3, 1, 2, 1], dtype=np.int8))  # 4! / 2! orders
    assert out[0] == 4 and out[1] == pytest.approx(math.log10(12))
    tally_unseen(out, np.array([5], dtype=np.int8))  # one piece, one order
    assert out[0] == 5 and out[1] == pytest.approx(math.log10(12))
    tally_unseen(out, np.array([0, 1, 2], dtype=np.int64))
    assert out[0] == 8 and out[1] == pytest.approx(math.log10(12 * 6))


def _others_only(env_id: str, s: np.void, seat: int) -> int:
    """What ``seat`` cannot see beyond what no seat has seen: the other players' hands (and
    in Labyrinx the face-down cards another seat remembers and ``seat`` does not)."""
    n = int(s["num_players"])
    if env_id.startswith("labyrinthos"):
        return sum(int(s["hand"][p].sum()) for p in range(n) if p != seat)
    if env_id.startswith("labyrinx"):
        hands = sum(int(s["hand_len"][p]) for p in range(n) if p != seat)
        down = (s["cell_card"] >= 0) & (s["cell_up"] == 0)
        others = np.any(s["known"][[p for p in range(n) if p != seat]], axis=0)
        return hands + int(np.sum(down & others & (s["known"][seat] == 0)))
    return 0  # Paths of Destiny, Team Edition: what is hidden is hidden from every seat


@pytest.mark.parametrize("env_id", [e for e in labyrinth_env.list_envs() if e != TOY])
def test_unseen_is_what_determinize_resamples(env_id):
    """Along a random game: a seat cannot see what no seat has seen and the other players'
    hands; determinizing for it keeps its unseen count and arrangements (the same sets,
    dealt again)."""
    spec = labyrinth_env.get_spec(env_id)
    loops = A._bound(spec)
    env = labyrinth_env.raw_env(env_id, num_players=spec.players[1])
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    seen, again, public = np.zeros(2), np.zeros(2), np.zeros(2)
    checked = 0
    for step in range(400):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        if step % 20 == 0:
            states = env.unwrapped._states
            seat = env.agent_name_mapping[env.agent_selection]
            loops.unseen_one(states, seat, seen)
            loops.unseen_one(states, NO_SEAT, public)
            assert seen[0] - public[0] == _others_only(env_id, states[0], seat) and public[0] >= 0
            copy = states.copy()
            spec.kernel.determinize(copy[0], seat, np.uint64(step))
            loops.unseen_one(copy, seat, again)
            assert again[0] == seen[0]
            if math.isfinite(seen[1]):
                assert again[1] == pytest.approx(seen[1])
            checked += 1
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(rng.choice(legal)))
    assert checked >= 3


def test_a_ruleset_card_is_consistent():
    result = A.analyze("labyrinx_v1", players=2, agents=["heuristic"], games=3, seed=1)
    _check_consistent(result)
    card = result["settings"][0]
    assert card["hidden"]["unseen_per_decision"]["mean"] > 0
    assert card["chance"]["draws_per_game"]["mean"] > 0
    assert card["sizes"]["state_bytes"] == labyrinth_env.get_spec("labyrinx_v1").kernel.STATE_DTYPE.itemsize


@pytest.mark.parametrize("max_turns", [2, 5])
def test_the_card_observation_is_the_envs_for_the_options(monkeypatch, max_turns):
    # The card reads the observation size off the env made with the options played, not the
    # kernel's largest (the 2011 card showed 8064 with characters for the default game's
    # 6031). On the toy, whose analysis loops the suite compiles anyway, an observation that
    # grows with max_turns stands in for such an option.
    monkeypatch.setattr(toy_env.raw_env, "observation_size", lambda self: toy_tables.OBS_SIZE + self.options.max_turns)
    result = A.analyze(TOY, players=2, agents=["random"], games=1, seed=1, options={"max_turns": max_turns})
    env = labyrinth_env.make(TOY, num_players=2, max_turns=max_turns)
    size = env.observation_space("player_0")["observation"].shape[0]
    assert size == toy_tables.OBS_SIZE + max_turns
    assert result["settings"][0]["sizes"]["observation"] == size


def test_truncated_games_count_as_truncated():
    result = A.analyze(TOY, players=2, agents=["random"], games=8, seed=2, options={"max_turns": 3})
    card = result["settings"][0]
    assert card["length"]["truncated_share"] == 1.0
    assert card["seats"]["no_winner_share"] == 1.0
    assert card["length"]["turns_per_game"]["max"] == 3
    _check_consistent(result)


def test_cli_writes_json_and_png(tmp_path, capsys):
    out = tmp_path / "card"
    argv = ["analyze", "--env", TOY, "--players", "2", "--games", "4", "--no-progress", "--out", str(out), "--markdown"]
    assert cli.main(argv) == 0
    printed = capsys.readouterr().out
    assert "first player's edge" in printed
    assert "| decisions per game | " in printed and "(median " in printed.split("| decisions per game | ")[1]
    data = (out / "analysis.json").read_text()
    assert '"env_id": "toy_race_v0"' in data
    assert (out / "analysis.png").stat().st_size > 1000


def _one_line_error(capsys, argv: list[str], *words: str) -> None:
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    for word in words:
        assert word in err, err


def test_bad_arguments_are_one_line_errors(capsys):
    _one_line_error(capsys, ["analyze", "--env", "nope_v0"], "unknown env id 'nope_v0'", "available")
    three = ["--agents", "random,heuristic,random"]
    _one_line_error(capsys, ["analyze", "--env", TOY, "--players", "2", *three], "do not fit 2 players")
    _one_line_error(capsys, ["analyze", "--env", TOY, "--games", "0"], "games must be an int >= 1, got 0")
    _one_line_error(capsys, ["analyze", "--env", TOY, "--players", "9"], "players 9", "(2-4)")
    _one_line_error(capsys, ["analyze", "--env", TOY, "--agents", "nobody"], "nobody")


def test_a_search_agent_plays_through_the_env_with_the_seating_rotated():
    result = A.analyze(TOY, players=2, agents=["random,mcts:simulations=8"], games=4, seed=1)
    _check_consistent(result)
    card = result["settings"][0]
    assert card["played"] == "through the AEC env" and card["seating"] == "rotated every game"
    assert [r["games"] for r in card["by_agent"].values()] == [4, 4]  # each agent in one seat of every game
    wins = sum(r["wins"] for r in card["by_agent"].values())
    assert wins == sum(r["wins"] for r in card["seats"]["by_seat"])
