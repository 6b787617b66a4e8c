"""Labyrinx env: PettingZoo API, random games with invariants after every step, determinism,
replays, hidden information, the egocentric observation, the vector env and bad input."""

from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pytest
from generic_env_checks import determinizer
from labyrinx_helpers import ENV_ID, INVARIANTS, B, invariant_error, options, random_games
from numba import njit
from pettingzoo.test import api_test, seed_test

import labyrinth_env
from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.labyrinx import kernel as K
from labyrinth_env.rulesets.labyrinx.env import cell_name

PLAYERS = [2, 3, 4, 5, 6]


def play_random(env, seed: int, max_steps: int = 50_000) -> list[int]:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                break
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return list(env.unwrapped.actions_taken)


def random_state(num_players: int, seed: int, steps: int, **opts) -> labyrinth_env.raw_env:
    env = labyrinth_env.raw_env(ENV_ID, num_players=num_players, **opts)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if int(env.record["outcome"]) != K.RUNNING:
            break
        env.step(int(rng.choice(env.legal_actions())))
    return env


# --- PettingZoo API -------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_api_test(num_players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(labyrinth_env.make(ENV_ID, num_players=num_players), num_cycles=200)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_seed_test(num_players):
    seed_test(lambda: labyrinth_env.make(ENV_ID, num_players=num_players, character_powers=True), num_cycles=200)


@pytest.mark.parametrize("num_players", [2, 6])
def test_api_test_raw_env(num_players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(labyrinth_env.raw_env(ENV_ID, num_players=num_players, table_size=5), num_cycles=200)


def test_registered_with_module_pair():
    from labyrinth_env import labyrinx_v1 as mod

    assert ENV_ID in labyrinth_env.list_envs()
    assert labyrinth_env.registry.player_range(ENV_ID) == (2, 6)
    assert isinstance(mod.env(), mod.raw_env) and mod.env().checked and not mod.raw_env().checked


# --- thousands of random games --------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYERS)
def test_random_games_end_with_invariants_after_every_step(num_players):
    # Every table size and both power settings; small tables fill up, the big one runs the
    # cards out; ties go to the race.
    out = np.zeros(11, dtype=np.int64)
    played = 0
    for table, powers, games in ((9, False, 300), (5, True, 400), (7, True, 200), (13, False, 60), (11, True, 60)):
        opts = options(num_players, table_size=table, character_powers=powers)
        random_games(new_states(K, 1), opts, games, 97 * num_players + table, out)
        played += games
        assert out[2] == 0, (
            f"invariant broken: {INVARIANTS.get(int(out[2]), 'step refused or game did not end')} "
            f"(code {out[2]}), {num_players} players, table {table}, powers {powers}, game {out[5]} step {out[6]}"
        )
    assert out[0] == played
    assert out[3] + out[4] == played  # every game is won, or truncated in a race that stalls
    assert out[3] > 0.9 * played
    assert out[8] > 0 and out[10] > 0  # races happened, and tables filled up
    assert out[9] > 4  # hands went over the limit of 4 (to be discarded) at times


# --- determinism and replays ----------------------------------------------------------------------
def test_same_seed_same_game_different_seed_different_game():
    def run(seed: int):
        env = labyrinth_env.make(ENV_ID, num_players=3)
        actions = play_random(env, seed)
        return actions, env.unwrapped.game_log, env.unwrapped.record.tobytes()

    a1, log1, s1 = run(5)
    a2, log2, s2 = run(5)
    _, log3, _ = run(6)
    assert a1 == a2 and log1 == log2 and s1 == s2
    assert log1 != log3
    setups = set()
    for seed in range(20):
        env = labyrinth_env.raw_env(ENV_ID, num_players=2)
        env.reset(seed=seed)
        s = env.record
        setups.add(s["deck"].tobytes() + s["hand"].tobytes() + s["character"].tobytes())
    assert len(setups) == 20


@pytest.mark.parametrize("num_players", [2, 6])
def test_replay_reproduces_log(tmp_path, num_players):
    env = labyrinth_env.make(ENV_ID, num_players=num_players, character_powers=True)
    play_random(env, 11)
    path = tmp_path / "game.json"
    env.unwrapped.save_replay(path)
    data = json.loads(path.read_text())
    assert data["env_id"] == ENV_ID and data["options"]["character_powers"] is True
    replayed = labyrinth_env.load_replay(path)
    assert replayed.game_log == env.unwrapped.game_log
    assert replayed.record.tobytes() == env.unwrapped.record.tobytes()
    assert {e["type"] for e in replayed.game_log} >= {"start_turn", "move", "labyrinth_expands", "flip", "win"}


def test_replay_of_unfinished_game_can_continue(tmp_path):
    env = random_state(2, 3, 40)
    env.save_replay(tmp_path / "r.json")
    again = labyrinth_env.load_replay(tmp_path / "r.json")
    assert again.game_log == env.game_log
    again.step(again.legal_actions()[-1])


# --- observation and hidden information -----------------------------------------------------------
def test_observation_fixed_shape_for_every_player_count():
    for n in PLAYERS:
        env = labyrinth_env.make(ENV_ID, num_players=n)
        env.reset(seed=1)
        obs = env.observe(env.agent_selection)
        assert obs["observation"].shape == (K.OBS_SIZE,) and obs["observation"].dtype == np.float32
        assert obs["action_mask"].shape == (K.NUM_ACTIONS,)
        assert obs["observation"].min() >= 0.0 and obs["observation"].max() <= 1.0


@pytest.mark.parametrize("num_players", [3, 6])
def test_observation_is_egocentric(num_players):
    env = random_state(num_players, 9, 60)
    s = env.record
    for seat in range(num_players):
        obs = env.observe(f"player_{seat}")["observation"]
        # the observer's own character is relative seat 0, the next player to the left seat 1
        for rel in range(num_players):
            p = (seat + rel) % num_players
            assert obs[int(s["pos"][p]) * K.CELL_FEATURES + K.F_CHAR + rel] == 1.0
            b = K.OBS_SEATS + rel * K.SEAT_FEATURES
            assert obs[b + 8 + int(s["character"][p])] == 1.0
        for rel in range(num_players, K.NUM_SEATS):
            assert obs[K.OBS_SEATS + rel * K.SEAT_FEATURES] == 0.0  # unused seats are zero


def _hand_block(obs: np.ndarray) -> np.ndarray:
    b = K.G_BASE + K.G_HAND
    return obs[b : b + K.MAX_HAND * K.NUM_KINDS]


def test_other_hands_deck_order_and_unseen_cards_never_reach_the_observation():
    env = random_state(3, 21, 80)
    states = env._states
    before = [env.observe(f"player_{p}")["observation"].copy() for p in range(3)]
    s = states[0]
    # another seat's hand, the deck order, unseen face-down cards and the RNG change ...
    n = int(s["deck_len"])
    s["deck"][:n] = s["deck"][:n][::-1].copy()
    s["rng"][0] ^= np.uint64(0xABCDEF)
    h = int(s["hand_len"][1])
    s["hand"][1, :h] = s["hand"][1, :h][::-1].copy()
    down = [x for x in range(K.NUM_CELLS) if s["cell_card"][x] >= 0 and not s["cell_up"][x] and not s["known"][0, x]]
    assert len(down) >= 2
    s["cell_card"][down[0]], s["cell_card"][down[1]] = s["cell_card"][down[1]], s["cell_card"][down[0]]
    after = env.observe("player_0")["observation"]
    assert np.array_equal(before[0], after)  # ... seat 0 sees none of it
    # seat 1 sees its own hand, in its own order
    assert not np.array_equal(_hand_block(before[1]), _hand_block(env.observe("player_1")["observation"])) or h < 2


def test_a_peeked_card_is_seen_only_by_the_peeker():
    env = random_state(2, 4, 0)
    s = env.record
    for _ in range(200):
        legal = env.legal_actions()
        peeks = [a for a in legal if K.A_PEEK <= a < K.A_PLAY]
        if peeks:
            break
        env.step(legal[0] if int(s["decision"]) != K.D_MAIN else next(a for a in legal if a < K.A_PEEK or a == K.A_END))
    assert peeks, "no peek in reach"
    x = peeks[0] - K.A_PEEK
    me = int(s["seat"])
    other = 1 - me
    kind_slice = slice(x * K.CELL_FEATURES + K.F_KIND, x * K.CELL_FEATURES + K.F_KIND + K.NUM_KINDS)
    assert env.observe(f"player_{me}")["observation"][kind_slice].sum() == 0
    env.step(peeks[0])
    mine = env.observe(f"player_{me}")["observation"]
    theirs = env.observe(f"player_{other}")["observation"]
    kind = int(K.CARD_KIND[s["cell_card"][x]])
    assert mine[kind_slice][kind] == 1.0 and mine[x * K.CELL_FEATURES + K.F_KNOWN] == 1.0
    assert theirs[kind_slice].sum() == 0.0 and theirs[x * K.CELL_FEATURES + K.F_KNOWN] == 0.0
    assert {"type": "peek", "seat": me, "at": f"({x // K.MAXT},{x % K.MAXT})"} == {
        k: v for k, v in env.game_log[-1].items() if k != "text"
    }


_determinize_one = determinizer(K)


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_determinize_keeps_the_observation_of_that_seat(num_players):
    rng = np.random.default_rng(num_players)
    changed = 0
    for seed in range(3):
        env = random_state(num_players, 50 + seed, 120, max_turns=None)
        for seat in range(num_players):
            copy = env._states.copy()
            _determinize_one(copy, seat, np.uint64(rng.integers(1 << 62)))
            mine = env.observe(f"player_{seat}")["observation"]
            theirs = np.zeros(K.OBS_SIZE, dtype=np.float32)
            B.observe_one(copy, seat, theirs)
            assert np.array_equal(mine, theirs)
            changed += copy.tobytes() != env._states.tobytes()
            assert invariant_error(copy[0]) == 0
    assert changed > 0


def test_determinize_depends_only_on_what_the_seat_knows():
    env = random_state(3, 12, 100, max_turns=None)
    a = env._states.copy()
    b = env._states.copy()
    s = b[0]
    n = int(s["deck_len"])
    s["deck"][:n] = s["deck"][:n][::-1].copy()
    s["rng"][0] ^= np.uint64(12345)
    h = int(s["hand_len"][2])
    s["hand"][2, :h] = s["hand"][2, :h][::-1].copy()
    assert a.tobytes() != b.tobytes()
    _determinize_one(a, 0, np.uint64(99))
    _determinize_one(b, 0, np.uint64(99))
    assert a.tobytes() == b.tobytes()


# --- bad input ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"num_players": 1}, "num_players=1.*2 to 6"),
        ({"num_players": 7}, "num_players=7.*2 to 6"),
        ({"players": 2}, "unknown option.*players.*allowed options"),
        ({"table_size": 4}, "table_size=4.*5 to 13"),
        ({"table_size": 14}, "table_size"),
        ({"character_powers": 1}, "character_powers"),
        ({"max_turns": 0}, "max_turns"),
    ],
)
def test_bad_options_get_clear_errors(opts, message):
    with pytest.raises(ValueError, match=message):
        labyrinth_env.make(ENV_ID, **opts)
    with pytest.raises(ValueError, match=message):
        labyrinth_env.raw_env(ENV_ID, **opts)


def test_illegal_action_raw_env_raises_and_leaves_state_unchanged():
    env = labyrinth_env.raw_env(ENV_ID, num_players=3)
    env.reset(seed=0)
    before = env.record.tobytes()
    illegal = int(np.flatnonzero(env._mask == 0)[0])
    with pytest.raises(ValueError, match=r"illegal action.*pending decision: the labyrinth expands"):
        env.step(illegal)
    assert env.record.tobytes() == before
    with pytest.raises(ValueError, match="out of range"):
        env.step(K.NUM_ACTIONS)


def test_illegal_action_wrapped_env_terminates_with_penalty():
    env = labyrinth_env.make(ENV_ID, num_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(np.flatnonzero(env._mask == 0)[0]))
    assert env.terminations[agent] and env._cumulative_rewards[agent] == -1.0


def test_action_names_round_trip_in_the_rulebooks_words():
    env = labyrinth_env.raw_env(ENV_ID)
    names = env.action_names()
    assert len(set(names)) == K.NUM_ACTIONS
    for a in range(K.NUM_ACTIONS):
        assert env.str_to_action(env.action_to_str(a)) == a
    assert env.action_to_str(K.A_DRAW) == "draw a card"
    assert env.action_to_str(K.A_DESPAIR) == "despair"
    assert env.action_to_str(K.A_MOVE + 3 * K.MAXT + 2) == "move to (3,2)"
    assert env.action_to_str(K.A_REST + 3) == "rest drawing 4"
    assert env.action_to_str(K.A_DIR + 1) == "straight line east" and env.action_to_str(K.A_ROT + 2) == "rotation 2"


def test_truncation_by_max_turns_gives_zero_rewards():
    env = labyrinth_env.make(ENV_ID, num_players=2, max_turns=3)
    play_random(env, 2)
    assert {k: v for k, v in env.unwrapped.game_log[-1].items() if k != "text"} == {
        "type": "truncated",
        "why": "max_turns",
    }
    assert all(v == 0.0 for v in env._cumulative_rewards.values())


def test_vector_env_with_heuristic_opponents_and_no_max_turns_finishes_its_games():
    # issue 19: a tie race with max_turns=None hung VectorEnv.step; every game now ends
    from labyrinth_env.vector import VectorEnv

    vec = VectorEnv(ENV_ID, 4, opponents="heuristic", seed=3, num_players=4, max_turns=None)
    vec.reset(seed=3)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(4000):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
        _, _, terminated, truncated, _ = vec.step(acts)
        finished += int(terminated.sum() + truncated.sum())
    assert finished >= 8


@pytest.mark.parametrize("num_players", [2, 6])
def test_render_ansi(num_players):
    env = labyrinth_env.make(ENV_ID, num_players=num_players, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "EXIT * EXIT   EXIT " in text and "pile   pile   pile " in text and "decision:" in text  # all in the exit
    assert text.count("treasures") == num_players


def board_cells(text: str) -> dict[str, str]:
    """Each space's text on the table, found by its row number (at the line's start) and
    its column number (the first line): ``"(3,4)" -> "NE..M0"``."""
    lines = text.split("\n\n")[0].splitlines()
    cols = {m.group(): m.start() - (5 - len(m.group())) // 2 for m in re.finditer(r"\d+", lines[0])}
    rows = {m.group(1): line for line in lines[1:] if (m := re.match(r" ?(\d+) ", line))}
    assert sorted(cols, key=int) == sorted(rows, key=int) == [str(i) for i in range(len(rows))]
    return {f"({r},{c})": line[x : x + 6].ljust(6) for r, line in rows.items() for c, x in cols.items()}


@pytest.mark.parametrize(("num_players", "table_size", "powers"), [(2, 9, False), (4, 5, True), (6, 13, True)])
def test_text_board_labels_spaces_as_the_actions_do_and_has_a_key(num_players, table_size, powers):
    """Every space a legal action names is found by the row and column numbers; each
    character and every card stand where the record says (a face-up card's sides, doors in
    lower case; nothing of a face-down card); the card being turned is shown in each
    rotation; the key explains the marks."""
    env = labyrinth_env.raw_env(ENV_ID, num_players=num_players, table_size=table_size, character_powers=powers)
    env.reset(seed=num_players)
    rng = np.random.default_rng(num_players)
    turned = 0
    for _ in range(500):
        s = env.record
        text = env.render_text()
        assert max(len(line) for line in text.splitlines()) <= 100
        assert "key: (r,c) in the actions: row r (left), column c (top)" in text
        cells = board_cells(text)
        assert len(cells) == table_size * table_size
        for a in env.legal_actions():
            for name in re.findall(r"\(\d+,\d+\)", env.action_to_str(a)):
                assert name in cells, env.action_to_str(a)
        for cell in (r * K.MAXT + c for r in range(table_size) for c in range(table_size)):
            body = cells[cell_name(cell)]
            here = [str(p) for p in range(num_players) if s["pos"][p] == cell]
            assert body[5] == (here[0] if len(here) == 1 else "*" if here else " ")
            card, rot = int(s["cell_card"][cell]), int(s["cell_rot"][cell])
            if s["cell_type"][cell] == K.T_FREE and card >= 0:
                if not s["cell_up"][cell]:
                    assert body[:5] == "#### "
                elif rot >= 0:
                    doors = 0 if s["race"] else int(K.CARD_DOORS[card, rot])
                    sides = [d.lower() if (doors >> i) & 1 else d for i, d in enumerate("NESW")]
                    assert body[:4] == "".join(sides[i] if (K.CARD_OPEN[card, rot] >> i) & 1 else "." for i in range(4))
        if s["decision"] == K.D_ROTATE and s["cell_up"][int(s["pl_cell"])]:
            assert f"the card being turned at {cell_name(int(s['pl_cell']))}: " in text and "rotation 3 " in text
            turned += 1
        if int(s["outcome"]) != K.RUNNING:
            break
        env.step(int(rng.choice(env.legal_actions())))
    assert turned > 0


# --- the vector env and the search agent ----------------------------------------------------------
def test_search_agent_never_sees_hidden_information():
    from labyrinth_env.agents import make_agent

    env = labyrinth_env.raw_env(ENV_ID, num_players=3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    compared = 0
    for _ in range(400):
        if int(env.record["outcome"]) != K.RUNNING:
            break
        legal = env.legal_actions()
        if len(legal) > 2 and rng.random() < 0.08:
            states = env._states.copy()
            name = env.agent_selection
            seat = env.agent_name_mapping[name]
            results = []
            variants = [states]
            for seed in (5, 6):
                other = states.copy()
                _determinize_one(other, seat, np.uint64(seed))
                variants.append(other)
            for var in variants:
                env._states[:] = var
                agent = make_agent("mcts:simulations=16,rollout_turns=1", 7)
                obs = env.observe(name)
                obs["action_mask"] = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
                B.refresh_one(env._states, obs["action_mask"], np.zeros(K.NUM_SEATS))
                results.append((agent.act(obs, env), agent.last_visits.copy()))
            env._states[:] = states
            for action, visits in results[1:]:
                assert action == results[0][0] and np.array_equal(visits, results[0][1])
            compared += 1
        env.step(int(rng.choice(legal)))
    assert compared >= 3


@njit(cache=True)
def _step_accepts_exactly_the_mask(states, opts, games: int, out) -> None:
    """For positions of random games, every action on a copy: ``step`` accepts it iff the
    mask allows it, and a refused action leaves the copy byte-identical."""
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.ones(1, dtype=np.uint64)
    copies = states.copy()
    for g in range(games):
        K.init(s, np.uint64(g + 500), opts)
        steps = 0
        while s.outcome == K.RUNNING and steps < 400:
            K.legal_mask(s, mask)
            if steps % 7 == 0:
                for a in range(K.NUM_ACTIONS):
                    copies[0] = s
                    ok = K.step(copies[0], a)
                    if ok != (mask[a] != 0):
                        out[1] += 1
                    if not ok:
                        for i in range(K.NUM_ACTIONS):
                            if copies[0].scratch[i] != s.scratch[i]:
                                out[1] += 1
                                break
                out[0] += 1
            K.step(s, B.random_legal_action(s, mask, rng))
            steps += 1


def test_step_accepts_exactly_the_masked_actions():
    out = np.zeros(2, dtype=np.int64)
    for n, powers in ((2, True), (5, False)):
        _step_accepts_exactly_the_mask(new_states(K, 1), options(n, character_powers=powers), 6, out)
    assert out[0] > 200 and out[1] == 0
