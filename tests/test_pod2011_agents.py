"""The Paths of Destiny 2011 heuristic: legal, deterministic, blind to hidden information,
purposeful in the situations the rules make common, clearly better than random, and
heuristic-vs-heuristic games end with a winner (at least 95%) for 2-5 players."""

from __future__ import annotations

import numpy as np
import pytest
from generic_env_checks import determinizer
from hex_helpers import key_node_of, node
from pod2011_helpers import Scenario

import labyrinth_env
from labyrinth_env import get_spec
from labyrinth_env.agents import HeuristicAgent, make_agent
from labyrinth_env.agents.evaluate import evaluate, evaluate_match, play_game
from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.paths_of_destiny_2011 import heuristic as H
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K

# the modules as pytest imports them, so that the game loop compiles once for both files
from tests.test_pod2011_enslavement import _heuristic_games as _heuristic_games_loop
from tests.test_pod2011_env import INVARIANTS

B = get_spec("paths_of_destiny_2011_v6").loops  # the ruleset's batched loops and single-game entry points

B = get_spec("paths_of_destiny_2011_v6").loops
ENV = "paths_of_destiny_2011_v6"
N19, N20 = node(19), node(20)


_determinize_one = determinizer(K)


def _kernel_game(seed: int, **options):
    vec = labyrinth_env.raw_env(ENV, **options).options_vector()
    states = new_states(K, 1)
    B.init_one(states, np.uint64(seed), vec)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    rewards = np.zeros(K.NUM_SEATS)
    B.refresh_one(states, mask, rewards)
    return states, mask, rewards


def test_heuristic_registered_like_the_others():
    assert labyrinth_env.get_spec(ENV).heuristic_module == "labyrinth_env.rulesets.paths_of_destiny_2011.heuristic"


def test_heuristic_picks_only_legal_actions_and_leaves_the_state_alone():
    rng = np.random.default_rng(1)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    checked = 0
    decisions = set()
    for n in (2, 3, 4, 5, 6):
        for _ in range(4):
            states, mask, rewards = _kernel_game(int(rng.integers(1 << 40)), num_players=n, max_turns=150)
            while K.to_act(states[0]) >= 0:
                before = states.tobytes()
                action = int(B.heuristic_one(states, hmask))
                assert states.tobytes() == before
                assert mask[action] == 1, (n, action, K.DECISIONS[int(states[0]["decision"])])
                decisions.add(int(states[0]["decision"]))
                checked += 1
                if rng.random() < 0.4:  # random steps reach states the heuristic would avoid
                    action = int(rng.choice(np.flatnonzero(mask)))
                assert B.step_one(states, action, mask, rewards) != -2
    assert checked > 2000
    assert {K.D_MAIN, K.D_START, K.D_PLACE, K.D_GUARD_DIR, K.D_REROLL, K.D_OCCUPANT, K.D_ENTRANT} <= decisions


def test_heuristic_never_reads_hidden_information():
    rng = np.random.default_rng(11)
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    compared = 0
    for n in (2, 3, 4, 5, 6):
        states, mask, rewards = _kernel_game(int(rng.integers(1 << 40)), num_players=n)
        steps = 0
        while K.to_act(states[0]) >= 0 and steps < 400:
            action = int(B.heuristic_one(states, hmask))
            seat = int(states[0]["decider"])
            for _ in range(2):
                other = states.copy()
                _determinize_one(other, seat, np.uint64(rng.integers(1 << 62)))
                assert int(B.heuristic_one(other, hmask)) == action, K.DECISIONS[int(states[0]["decision"])]
                compared += 1
            if rng.random() < 0.3:
                action = int(rng.choice(np.flatnonzero(mask)))
            B.step_one(states, action, mask, rewards)
            steps += 1
    assert compared > 800


def test_heuristic_is_deterministic_and_plays_through_the_agent():
    env = labyrinth_env.make(ENV, num_players=3)
    a = play_game(env, HeuristicAgent(), 5)
    first = list(env.unwrapped.actions_taken)
    b = play_game(env, make_agent("heuristic"), 5)
    assert first == list(env.unwrapped.actions_taken) and a == b


# --- purpose -------------------------------------------------------------------------------------------
def _act(sc: Scenario) -> int:
    hmask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    a = int(B.heuristic_one(sc.states, hmask))
    assert hmask[a], a
    return a


def _east() -> Scenario:
    sc = Scenario(num_players=2)
    sc.lay_line(0)
    sc.guard(key_node_of(2))
    return sc


def test_heuristic_rests_when_stunned():
    sc = _east()
    sc.put(0, N20)
    sc.set(0, stun=1)
    assert _act(sc) == K.A_REST


def test_heuristic_lifts_a_key_and_takes_a_stunned_players_key():
    sc = _east()
    sc.put(0, N20)
    sc.place_key(3, N20)
    assert _act(sc) == K.A_LIFT_KEY + 3
    sc = _east()
    sc.put(0, N20)
    sc.put(1, N20)
    sc.set(1, stun=1)
    sc.give_key(1, 2)
    assert _act(sc) == K.A_TAKE_KEY + 0


def test_heuristic_with_a_key_heads_for_the_central_field():
    sc = _east()
    sc.put(0, N20)
    sc.give_key(0, 2)
    assert _act(sc) == K.A_MOVE + 3


def test_heuristic_heads_for_another_players_key_and_not_its_own():
    sc = _east()
    sc.put(0, key_node_of(0))  # its own key lies here: it must not stay for it
    a = _act(sc)
    assert a == K.A_MOVE + 3 or a == K.A_BUILD


def test_heuristic_moves_the_awake_guard_off_its_path_and_avoids_its_corridor():
    sc = _east()
    sc.empty_pool()  # no detour through fields still to be built
    sc.put(0, N20)
    sc.give_key(0, 2)
    sc.guard(N19)
    assert _act(sc) == K.A_MOVE_GUARD
    sc.s["guard_used"] = 1
    assert _act(sc) != K.A_MOVE + 3, "never into the awake Guard's corridor"
    sc.s["guard_asleep"] = 1
    assert _act(sc) == K.A_MOVE + 3, "a sleeping Guard is passed freely"


def test_heuristic_places_a_field_that_shortens_its_way():
    sc = Scenario(num_players=2)
    sc.guard(key_node_of(2))
    sc.lay(20, "03")
    sc.put(0, N20)
    sc.give_key(0, 2)
    sc.next_tile(H.C.TILE_NAMES.index("Narrow Passage"))  # a straight
    sc.step(K.A_BUILD)
    a = _act(sc)
    assert a in (K.A_PLACE + 19 * 6 + 0, K.A_PLACE + 19 * 6 + 3), "joining 20 to the central field"


# --- strength ---------------------------------------------------------------------------------------------
def _heuristic_games(num_players: int, games: int, seed: int, heuristic_seats: int) -> np.ndarray:
    """The games ``loops.play_games`` plays for ``seed`` (the heuristic in the seats of
    ``heuristic_seats``, the others at random on its dice), in ``test_pod2011_enslavement``'s
    loop, which checks the invariants after every step too; returns its ``out``."""
    vec = labyrinth_env.raw_env(ENV, num_players=num_players).options_vector()
    out = np.zeros(8, dtype=np.int64)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    seeds = np.arange(seed, seed + games, dtype=np.uint64)
    _heuristic_games_loop(new_states(K, 1), vec, seeds, seed * 2654435761 + 1, heuristic_seats, 0, False, mask, out)
    assert out[3] == 0, f"{INVARIANTS.get(int(out[3]))} (game {out[4]}, step {out[5]})"
    assert out[0] == games
    return out


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_heuristic_vs_heuristic_games_end_with_a_winner(num_players):
    out = _heuristic_games(num_players, 100, 1000 * num_players, (1 << num_players) - 1)
    assert out[6] >= 95


def test_one_heuristic_beats_random_players():
    out = _heuristic_games(4, 60, 4242, 0b0001)
    assert out[7] / 60 >= 0.8  # the fair share is 0.25


def test_heuristic_through_evaluate():
    result = evaluate(ENV, "heuristic", 10, seed=7, num_players=2)
    assert result["win_rate"] >= 0.9 and result["outcomes"].get("illegal", 0) == 0
    match = evaluate_match(ENV, ["heuristic", "random"], 10, seed=3, num_players=2)
    assert match["win_rate"]["heuristic"] >= 0.8
