"""Checks every ruleset's env tests run the same way: random play through the AEC env,
PettingZoo's API and seed tests, thousands of random games in the kernel with the
ruleset's invariants checked after every step, replays, and the errors of bad use.

Each test file keeps what is its own (the invariants, the options, which actions are
illegal when); these functions take them as arguments.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pytest
from numba import njit
from pettingzoo.test import api_test, seed_test

import labyrinth_env
from labyrinth_env.core.contract import RUNNING, TRUNCATED, WON, new_states
from labyrinth_env.core.rng import pick_random


def play_random(env, seed: int, max_steps: int = 20_000) -> list[int]:
    """Reset ``env`` (a wrapped AEC env) with ``seed`` and play random legal actions until
    every agent is done; returns the actions taken."""
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


def random_env(env_id: str, seed: int, steps: int, running: int = 0, **options: Any):
    """A raw env after ``steps`` random actions (fewer if the game ends first)."""
    env = labyrinth_env.raw_env(env_id, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if int(env.record["outcome"]) != running:
            break
        env.step(int(rng.choice(env.legal_actions())))
    return env


def check_pettingzoo_api(env_id: str, raw: bool = False, num_cycles: int = 150, **options: Any) -> None:
    make = labyrinth_env.raw_env if raw else labyrinth_env.make
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make(env_id, **options), num_cycles=num_cycles)


def check_pettingzoo_seed(env_id: str, num_cycles: int = 150, **options: Any) -> None:
    seed_test(lambda: labyrinth_env.make(env_id, **options), num_cycles=num_cycles)


# not cached: numba's cache cannot hold a function that takes other jitted functions as
# arguments (the index it re-saves keeps weak references to dispatchers of earlier processes,
# and pickling them fails with "underlying object has vanished"); it compiles in seconds
@njit
def random_games(
    states,
    options,
    num_games: int,
    seed: int,
    out,
    mask,
    obs,
    init,
    legal_mask,
    step,
    invariant_error,
    decision_error,
    checks: int,
) -> None:
    """Random games in the kernel whose functions are passed in, ``invariant_error(s)``
    (0: sound) checked after every step. ``out``: [games ended, steps, first error code,
    wins, truncations, game of the error, step of the error, decisions the ruleset's
    checks compared]. The loop's own codes: 20 an all-false mask while the game runs, 21 a
    legal action rejected, 22 a game longer than 100 steps a turn, 23 a game that ended
    neither by a win nor at ``max_turns``. With ``checks`` not 0, ``decision_error(s, mask,
    obs, checks, out)`` checks every decision (its mask filled) as well: the ruleset's own
    per-decision checks, in this loop rather than in loops of their own because each jitted
    game loop links and emits the whole kernel again (2.6-3.4 CPU s at ``NUMBA_OPT=1``)."""
    s = states[0]
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed * 7919 + 1)
    for g in range(num_games):
        init(s, np.uint64(seed * 100_003 + g), options)
        max_turns = s.max_turns
        err = invariant_error(s)
        steps = 0
        while s.outcome == RUNNING and err == 0:
            legal_mask(s, mask)
            if mask.sum() == 0:
                err = 20
                break
            if checks != 0:
                err = decision_error(s, mask, obs, checks, out)
                if err != 0:
                    break
            a = pick_random(mask, rng)
            if not step(s, a):
                err = 21
                break
            steps += 1
            err = invariant_error(s)
            if steps > 100 * max_turns:
                err = 22
        if err == 0 and not (s.outcome == WON or (s.outcome == TRUNCATED and s.turn == max_turns)):
            err = 23
        if err != 0:
            out[2] = err
            out[5] = g
            out[6] = steps
            return
        out[0] += 1
        out[1] += steps
        out[3] += 1 if s.outcome == WON else 0
        out[4] += 1 if s.outcome == TRUNCATED else 0


def check_random_games(
    kernel,
    invariant_error,
    decision_error,
    invariants: dict[int, str],
    options_vector,
    games: int,
    seed: int,
    what: str,
    checks: int = 0,
):
    """Run ``random_games`` and fail with the broken invariant's description; returns ``out``.
    A ruleset passes the same ``decision_error`` in every call, so that the loop compiles
    once for its kernel whichever ``checks`` a test asks for."""
    out = np.zeros(8, dtype=np.int64)
    mask = np.zeros(kernel.NUM_ACTIONS, dtype=np.uint8)
    obs = np.zeros(kernel.OBS_SIZE, dtype=np.float32)
    fns = (kernel.init, kernel.legal_mask, kernel.step, invariant_error, decision_error)
    random_games(new_states(kernel, 1), options_vector, games, seed, out, mask, obs, *fns, checks)
    assert out[2] == 0, (
        f"invariant broken: {invariants.get(int(out[2]))} (code {out[2]}), {what}, game {out[5]} step {out[6]}"
    )
    return out


def check_replay(tmp_path, env_id: str, seed: int, event_types: set[str], **options: Any) -> None:
    """A saved random game loads back to the same log and state."""
    env = labyrinth_env.make(env_id, **options)
    play_random(env, seed)
    path = tmp_path / "game.json"
    env.unwrapped.save_replay(path)
    data = json.loads(path.read_text())
    assert data["env_id"] == env_id and data["options"]["max_turns"] == options["max_turns"]
    replayed = labyrinth_env.load_replay(path)
    assert replayed.game_log == env.unwrapped.game_log
    assert replayed.record.tobytes() == env.unwrapped.record.tobytes()
    assert {e["type"] for e in replayed.game_log} >= event_types


def check_replay_continues(tmp_path, env) -> None:
    """The replay of an unfinished game loads and can be played on."""
    env.save_replay(tmp_path / "r.json")
    again = labyrinth_env.load_replay(tmp_path / "r.json")
    assert again.game_log == env.game_log
    again.step(again.legal_actions()[-1])


def check_illegal_wrapped(env_id: str, illegal: int, **options: Any) -> None:
    """The wrapped env ends the game on an illegal action, -1 for the offender."""
    env = labyrinth_env.make(env_id, **options)
    env.reset(seed=0)
    agent = env.agent_selection
    with pytest.warns(UserWarning, match="illegal action"):
        env.step(illegal)
    assert all(env.terminations.values()) and all(env.truncations.values())
    assert env._cumulative_rewards[agent] == -1.0
    assert env.illegal_action == (agent, illegal)


def check_bad_action_types(env, num_actions: int, word: str) -> None:
    """Out-of-range and non-int actions are refused and change nothing."""
    before = env.record.tobytes()
    with pytest.raises(ValueError, match="out of range"):
        env.step(num_actions)
    with pytest.raises(ValueError, match="must be an int"):
        env.step(word)
    assert env.record.tobytes() == before


def check_step_before_reset(env_id: str) -> None:
    env = labyrinth_env.make(env_id)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")


def check_truncation(env_id: str, end_turn: int, **options: Any) -> None:
    """Ending every turn until ``max_turns`` truncates the game with zero rewards."""
    env = labyrinth_env.make(env_id, **options)
    env.reset(seed=1)
    while not any(env.truncations.values()):
        env.step(end_turn)
    assert int(env.unwrapped.record["turn"]) == options["max_turns"]
    assert not any(env.terminations.values())
    assert all(r == 0 for r in env._cumulative_rewards.values())
    assert {k: v for k, v in env.unwrapped.game_log[-1].items() if k != "text"} == {"type": "truncated"}


# --- hidden information (both Paths of Destiny editions) ---------------------------------------
def all_observations(env) -> list[np.ndarray]:
    return [env.observe(a)["observation"].copy() for a in env.agents]


def state_with_face_down_traps(random_state, K, min_traps: int = 3):
    """A running 3-player game (from ``random_state(num_players, seed, steps, **options)``)
    with at least ``min_traps`` face-down traps on the board, and those traps' nodes."""
    for seed in range(50):
        env = random_state(3, 100 + seed, 200, max_turns=1_000_000)
        s = env.record
        down = [n for n in range(K.NUM_NODES) if s["node_trap"][n] >= 0 and not s["trap_up"][n]]
        if len(down) >= min_traps and int(s["outcome"]) == K.RUNNING:
            return env, down
    raise AssertionError("random play left no face-down traps")


def check_face_down_traps_show_only_presence(random_state, K) -> None:
    """A face-down trap shows as "a trap is here": giving each one a token of another type
    (swapped with the pile) changes no observation; a revealed trap shows its type."""
    env, down = state_with_face_down_traps(random_state, K)
    s = env._states[0]
    before = all_observations(env)
    nodes = before[0][: K.NUM_NODES * K.NODE_FEATURES].reshape(K.NUM_NODES, K.NODE_FEATURES)
    for node in down:
        assert nodes[node, K.F_TRAP_DOWN] == 1.0
        assert nodes[node, K.F_TRAP_TYPE : K.F_TRAP_TYPE + K.NUM_TRAP_TYPES].sum() == 0.0
    pool = list(s["trap_pool"][: int(s["trap_pool_len"])])
    for node in down:
        t = int(s["node_trap"][node])
        j = next(i for i, u in enumerate(pool) if K.TRAP_TOKENS[u] != K.TRAP_TOKENS[t])
        s["node_trap"][node], pool[j] = pool[j], t
    s["trap_pool"][: len(pool)] = pool
    after = all_observations(env)
    for a, b in zip(before, after, strict=True):
        assert np.array_equal(a, b)
    node = down[0]
    s["trap_up"][node] = 1
    obs = env.observe("player_0")["observation"]
    nodes = obs[: K.NUM_NODES * K.NODE_FEATURES].reshape(K.NUM_NODES, K.NODE_FEATURES)
    assert nodes[node, K.F_TRAP_DOWN] == 0.0
    assert nodes[node, K.F_TRAP_TYPE + K.TRAP_TOKENS[s["node_trap"][node]]] == 1.0


def check_unseen(env, reorder) -> None:
    """``reorder(s)`` (shuffling what no seat may see) changes no observation."""
    before = all_observations(env)
    reorder(env._states[0])
    s = env._states[0]
    s["rng"][0] ^= np.uint64(0xDEADBEEF)
    after = all_observations(env)
    for a, b in zip(before, after, strict=True):
        assert np.array_equal(a, b)


def determinizer(kernel):
    """``determinize_one(states, seat, seed)``: ``kernel.determinize`` on ``states[0]`` in
    place, called from Python. It runs what the precompile's ``determinize`` path compiled
    (the same argument types); a jitted wrapper of one line in each test file linked and
    emitted the whole determinize tree again, 0.3-0.8 s CPU per file at ``NUMBA_OPT=1``."""

    def determinize_one(states, seat, seed) -> None:
        kernel.determinize(states[0], int(seat), np.uint64(seed))

    return determinize_one


def check_determinize_keeps_observations(random_state, num_players: int, K, B, determinize_one, invariant_error):
    """``determinize`` for a seat keeps that seat's observation and leaves a sound game, and
    does change the hidden parts in some of the games."""
    rng = np.random.default_rng(num_players)
    changed = 0
    for seed in range(4):
        env = random_state(num_players, 50 + seed, 150, max_turns=1_000_000)
        for seat in range(num_players):
            copy = env._states.copy()
            determinize_one(copy, seat, np.uint64(rng.integers(1 << 62)))
            mine = env.observe(f"player_{seat}")["observation"]
            theirs = np.zeros(K.OBS_SIZE, dtype=np.float32)
            B.observe_one(copy, seat, theirs)
            assert np.array_equal(mine, theirs)
            changed += copy.tobytes() != env._states.tobytes()
            assert invariant_error(copy[0]) == 0
    assert changed > 0
