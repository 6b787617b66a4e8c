"""Paths of Destiny 3e through the AEC env: PettingZoo API and seeding, thousands of random
games with invariants checked after every step, determinism, replays, hidden information,
the egocentric observation and bad input."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from numba import njit
from pettingzoo.test import api_test, seed_test

import labyrinth_env
from labyrinth_env.core.batching import batch_module
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

B = batch_module("paths_of_destiny_3e")  # the ruleset's entry points and batched loops

ENV_ID = "paths_of_destiny_3e_v0"
# (num_players, two_player_variant)
CASES = [(2, False), (3, False), (4, False), (5, False), (6, False), (2, True)]
CASE_IDS = [f"{n}p{'-variant' if v else ''}" for n, v in CASES]


def play_random(env, seed: int, max_steps: int = 20_000) -> list[int]:
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


def random_state(num_players: int, seed: int, steps: int, **options) -> labyrinth_env.raw_env:
    """A raw env after ``steps`` random actions (fewer if the game ends first)."""
    env = labyrinth_env.raw_env(ENV_ID, num_players=num_players, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if int(env.state["outcome"]) != K.RUNNING:
            break
        env.step(int(rng.choice(env.legal_actions())))
    return env


# --- PettingZoo API -------------------------------------------------------------------------------
@pytest.mark.parametrize(("num_players", "variant"), CASES, ids=CASE_IDS)
def test_pettingzoo_api_test(num_players, variant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(labyrinth_env.make(ENV_ID, num_players=num_players, two_player_variant=variant), num_cycles=150)


@pytest.mark.parametrize(("num_players", "variant"), CASES, ids=CASE_IDS)
def test_pettingzoo_seed_test(num_players, variant):
    seed_test(lambda: labyrinth_env.make(ENV_ID, num_players=num_players, two_player_variant=variant), num_cycles=150)


@pytest.mark.parametrize(("num_players", "variant"), [(2, True), (5, False)], ids=["2p-variant", "5p"])
def test_api_test_raw_env(num_players, variant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(labyrinth_env.raw_env(ENV_ID, num_players=num_players, two_player_variant=variant), num_cycles=150)


# --- invariants over thousands of random games --------------------------------------------------------
# Codes returned by _invariant_error (0: sound).
INVARIANTS = {
    1: "a key is both on a node and held, or neither",
    2: "a key lies on a node that does not exist (or off the board)",
    3: "a key is held by a seat not in play",
    4: "an item is not in exactly one place (pool, board, carried)",
    5: "an item lies on a node that does not exist",
    6: "a trap token is not in exactly one place (pool, board)",
    7: "a trap lies on a missing, central or starting corridor",
    8: "a normal tile is not in exactly one place (board, drawn tile, pool)",
    9: "a fixed space (central, key, starting) is missing or a normal tile sits outside the board",
    10: "Life outside 0..4 (or above the event's cap) for a seat in play",
    11: "a character carries more than 2 items, or slot 1 filled while slot 0 is empty",
    12: "a build closed the last way to the central space or to a key space",
    13: "a character stands on a node that does not exist",
    14: "a seat not in play holds something or stands somewhere",
    15: "negative stun",
    16: "the Golem stands off the board's corridors",
    17: "the drawn tile is shown outside a placement decision",
    18: "the pending decision's seat is not in play",
    19: "a character stands on another character's starting space",
    20: "the mask is all false while the game runs",
    21: "step rejected a legal action",
    22: "a game did not end",
    23: "a game ended neither by a win nor by max_turns",
    24: "the winner is not alone on the central space with a key",
}


@njit(cache=True)
def _invariant_error(s) -> int:
    """0 if the state is sound, else a code of ``INVARIANTS``."""
    n = s.num_players
    # 6 keys: each on a node or held by exactly one character
    for k in range(K.NUM_KEYS):
        on_node = s.key_node[k] >= 0
        held = s.key_holder[k] >= 0
        if on_node == held:
            return 1
        if on_node and (s.key_node[k] >= K.NUM_BOARD_NODES or s.node_mask[s.key_node[k]] == 0):
            return 2
        if held and s.key_holder[k] >= n:
            return 3
    # 15 items: pool + board + carried, each exactly once
    seen = np.zeros(K.NUM_ITEMS, dtype=np.int64)
    for i in range(s.item_pool_len):
        seen[s.item_pool[i]] += 1
    for i in range(K.NUM_ITEMS):
        node = s.item_node[i]
        if node >= 0:
            seen[i] += 1
            if node >= K.NUM_NODES or s.node_mask[node] == 0:
                return 5
    for p in range(K.NUM_SEATS):
        for j in range(2):
            if s.items[p, j] >= 0:
                seen[s.items[p, j]] += 1
    for i in range(K.NUM_ITEMS):
        if seen[i] != 1:
            return 4
    # 60 traps: pool + board, each once; only on existing, non-central, non-start corridors
    traps = np.zeros(K.NUM_TRAPS, dtype=np.int64)
    for i in range(s.trap_pool_len):
        traps[s.trap_pool[i]] += 1
    for node in range(K.NUM_NODES):
        t = s.node_trap[node]
        if t >= 0:
            traps[t] += 1
            cell = node // K.MC
            if cell >= K.NUM_BOARD or cell == s.center_cell or s.node_mask[node] == 0:
                return 7
    for t in range(K.NUM_TRAPS):
        if traps[t] != 1:
            return 6
    # 37 board spaces: the fixed ones in place, each normal tile once among board, drawn, pool
    tiles = np.zeros(K.NUM_NORMAL_TILES, dtype=np.int64)
    for cell in range(K.NUM_BOARD):
        tile = s.cell_tile[cell]
        is_key = False
        for k in range(K.NUM_KEYS):
            if K.KEY_CELLS[k] == cell:
                is_key = True
        if cell == s.center_cell:
            if tile != C.CENTRAL_TILE_ID or not s.cell_built[cell]:
                return 9
        elif is_key:
            if tile != C.KEY_TILE_ID or not s.cell_built[cell]:
                return 9
        elif s.cell_built[cell]:
            if tile < 0 or tile >= K.NUM_NORMAL_TILES:
                return 9
            tiles[tile] += 1
        elif tile != -1:
            return 9
    for cell in range(K.NUM_BOARD, K.NUM_CELLS):
        if not s.cell_built[cell] or s.cell_tile[cell] != -1:
            return 9
    if s.drawn_tile >= 0:
        tiles[s.drawn_tile] += 1
    for i in range(s.tile_pool_len):
        tiles[s.tile_pool[i]] += 1
    for t in range(K.NUM_NORMAL_TILES):
        if tiles[t] != 1:
            return 8
    if s.drawn_tile >= 0 and not (s.outcome == K.RUNNING and s.decision == K.D_PLACE):
        return 17
    # characters
    cap = K.max_life(s)
    for p in range(n):
        if s.life[p] < 0 or s.life[p] > K.LIFE or s.life[p] > cap:
            return 10
        if s.stun[p] < 0:
            return 15
        if s.items[p, 1] >= 0 and s.items[p, 0] < 0:
            return 11
        node = s.position[p]
        if node < 0 or node >= K.NUM_NODES or s.node_mask[node] == 0:
            return 13
        if node >= K.START_CELL * K.MC and node != K.start_node(s, p):
            return 19
    for p in range(n, K.NUM_SEATS):
        if s.position[p] != -1 or s.items[p, 0] >= 0 or s.items[p, 1] >= 0 or s.life[p] != 0 or s.stun[p] != 0:
            return 14
    g = s.golem_node
    if g < 0 or g >= K.NUM_BOARD_NODES or s.node_mask[g] == 0:
        return 16
    # never a path-closing build
    if not K.targets_connected(s, -1):
        return 12
    if s.outcome == K.RUNNING and (s.decider < 0 or s.decider >= n):
        return 18
    if s.outcome == K.WON:
        w = s.winner
        c = K.center_node(s)
        if s.position[w] != c or K.keys_held(s, w) == 0 or K.occupant_mask(s, c, w) != 0:
            return 24
    return 0


@njit(cache=True)
def _random_games(states, options, num_games: int, seed: int, out) -> None:
    """Random games in the kernel, invariants checked after every step.
    out: [games ended, steps, first error code, wins, truncations, game of the error, step of the error]."""
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed * 7919 + 1)
    max_turns = options[K.OPT_MAX_TURNS]
    for g in range(num_games):
        K.init(s, seed * 100_003 + g, options)
        err = _invariant_error(s)
        steps = 0
        while s.outcome == K.RUNNING and err == 0:
            K.legal_mask(s, mask)
            if mask.sum() == 0:
                err = 20
                break
            a = K.random_legal_action(s, mask, rng)
            if not K.step(s, a):
                err = 21
                break
            steps += 1
            err = _invariant_error(s)
            if steps > 100 * max_turns:
                err = 22
        if err == 0 and not (s.outcome == K.WON or (s.outcome == K.TRUNCATED and s.turn == max_turns)):
            err = 23
        if err != 0:
            out[2] = err
            out[5] = g
            out[6] = steps
            return
        out[0] += 1
        out[1] += steps
        out[3] += 1 if s.outcome == K.WON else 0
        out[4] += 1 if s.outcome == K.TRUNCATED else 0


def _options(num_players: int, **options) -> np.ndarray:
    return labyrinth_env.raw_env(ENV_ID, num_players=num_players, **options).options_vector()


@pytest.mark.parametrize(("num_players", "variant"), CASES, ids=CASE_IDS)
def test_random_games_end_with_invariants_after_every_step(num_players, variant):
    # Most games are cut at 60 turns (many games, early positions); some run the whole
    # default length so that the pools empty, the board fills and Annihilation comes.
    out = np.zeros(7, dtype=np.int64)
    for max_turns, games in ((60, 1500), (400, 60)):
        opts = _options(num_players, two_player_variant=variant, max_turns=max_turns)
        _random_games(K.new_states(1), opts, games, 31 * num_players + max_turns + variant, out)
        assert out[2] == 0, (
            f"invariant broken: {INVARIANTS.get(int(out[2]))} (code {out[2]}), {num_players} players, "
            f"max_turns {max_turns}, game {out[5]} step {out[6]}"
        )
    assert out[0] == 1560
    assert out[3] + out[4] == out[0]


def test_random_games_without_crystal_questions_end_with_invariants():
    out = np.zeros(7, dtype=np.int64)
    _random_games(K.new_states(1), _options(4, ask_crystal=False, max_turns=120), 150, 77, out)
    assert out[2] == 0, f"invariant broken: {INVARIANTS.get(int(out[2]))} (code {out[2]})"
    assert out[0] == 150


@njit(cache=True)
def _lose_life_one(states, seat, n):
    K.lose_life(states[0], seat, n)
    K.advance(states[0])


def test_heart_of_the_abyss_in_slot_0_keeps_the_items_packed():
    # Found by the random games: the Heart leaving slot 0 must not leave items [-1, x]
    # (a later death would offer "drop item in slot 0" and duplicate an item).
    env = labyrinth_env.raw_env(ENV_ID, num_players=2)
    env.reset(seed=0)
    states = env._states
    s = states[0]
    heart, boots = C.ITEM_NAMES.index("Heart of the Abyss"), C.ITEM_NAMES.index("Winged Boots")
    pool = [int(i) for i in s["item_pool"][: int(s["item_pool_len"])] if i not in (heart, boots)]
    s["item_pool"][: len(pool)] = pool
    s["item_pool_len"] = len(pool)
    s["items"][0] = (heart, boots)
    s["life"][0] = 1
    _lose_life_one(states, 0, 1)  # the last Life: the Heart counts as one more
    assert int(s["life"][0]) == 1 and not s["dying"]
    assert s["items"][0].tolist() == [boots, -1]
    assert _invariant_error(s) == 0


# --- determinism and replays ------------------------------------------------------------------------------
def test_same_seed_same_game_different_seed_different_game():
    def run(seed: int):
        env = labyrinth_env.make(ENV_ID, num_players=3, max_turns=40)
        actions = play_random(env, seed)
        return actions, env.unwrapped.game_log, env.unwrapped.state.tobytes()

    a1, log1, s1 = run(5)
    a2, log2, s2 = run(5)
    _, log3, _ = run(6)
    assert a1 == a2 and log1 == log2 and s1 == s2
    assert log1 != log3
    setups = set()
    for seed in range(20):
        env = labyrinth_env.raw_env(ENV_ID, num_players=2)
        env.reset(seed=seed)
        s = env.state
        setups.add(s["tile_pool"].tobytes() + s["trap_pool"].tobytes() + s["item_pool"].tobytes())
    assert len(setups) == 20


@pytest.mark.parametrize(("num_players", "variant"), [(4, False), (2, True)], ids=["4p", "2p-variant"])
def test_replay_reproduces_log(tmp_path, num_players, variant):
    env = labyrinth_env.make(ENV_ID, num_players=num_players, two_player_variant=variant, max_turns=60)
    play_random(env, 11)
    path = tmp_path / "game.json"
    env.unwrapped.save_replay(path)
    data = json.loads(path.read_text())
    assert data["env_id"] == ENV_ID and data["options"]["max_turns"] == 60
    assert data["options"]["two_player_variant"] is variant
    replayed = labyrinth_env.load_replay(path)
    assert replayed.game_log == env.unwrapped.game_log
    assert replayed.state.tobytes() == env.unwrapped.state.tobytes()
    assert {e["type"] for e in replayed.game_log} >= {"start_turn", "move", "build"}


def test_replay_of_unfinished_game_can_continue(tmp_path):
    env = random_state(2, 3, 25)
    env.save_replay(tmp_path / "r.json")
    again = labyrinth_env.load_replay(tmp_path / "r.json")
    assert again.game_log == env.game_log
    again.step(again.legal_actions()[-1])


# --- observation ------------------------------------------------------------------------------------------
def test_observation_fixed_shape_for_every_player_count():
    shapes = set()
    for n, variant in CASES:
        env = labyrinth_env.make(ENV_ID, num_players=n, two_player_variant=variant)
        env.reset(seed=0)
        for agent in env.agents:
            obs = env.observe(agent)
            shapes.add((obs["observation"].shape, obs["action_mask"].shape, obs["observation"].dtype))
            assert env.observation_space(agent).contains(obs)
    assert shapes == {((K.OBS_SIZE,), (K.NUM_ACTIONS,), np.dtype(np.float32))}


def _char_plane(obs: np.ndarray, rel: int) -> np.ndarray:
    nodes = obs[: K.NUM_NODES * K.NODE_FEATURES].reshape(K.NUM_NODES, K.NODE_FEATURES)
    return nodes[:, K.F_CHAR + rel]


def _seat_block(obs: np.ndarray, rel: int) -> np.ndarray:
    b = K.OBS_SEATS + rel * K.SEAT_FEATURES
    return obs[b : b + K.SEAT_FEATURES]


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_observation_is_egocentric(num_players):
    env = random_state(num_players, 4, 60, max_turns=None)
    s = env.state
    for seat in range(num_players):
        obs = env.observe(f"player_{seat}")["observation"]
        for rel in range(num_players):
            p = (seat + rel) % num_players
            plane = _char_plane(obs, rel)
            assert plane[s["position"][p]] == 1.0 and plane.sum() == 1.0  # relative seat rel is seat + rel
            block = _seat_block(obs, rel)
            assert block[0] == 1.0 and block[1] == s["life"][p] / K.LIFE
            assert block[7 + 2 * K.NUM_ITEMS + s["seat_start"][p]] == 1.0
        for rel in range(num_players, K.NUM_SEATS):  # seats not in play: zero padding
            assert _char_plane(obs, rel).sum() == 0.0 and _seat_block(obs, rel).sum() == 0.0
    # the observation differs between seats of one state (it is not a shared view)
    assert not np.array_equal(env.observe("player_0")["observation"], env.observe("player_1")["observation"])
    # only the acting agent sees a mask
    others = [a for a in env.agents if a != env.agent_selection]
    assert all(env.observe(a)["action_mask"].sum() == 0 for a in others)
    assert env.observe(env.agent_selection)["action_mask"].sum() > 0


def _state_with_face_down_traps(min_traps: int = 3):
    for seed in range(50):
        env = random_state(3, 100 + seed, 200, max_turns=None)
        s = env.state
        down = [n for n in range(K.NUM_NODES) if s["node_trap"][n] >= 0 and not s["trap_up"][n]]
        if len(down) >= min_traps and int(s["outcome"]) == K.RUNNING:
            return env, down
    raise AssertionError("random play left no face-down traps")


def _all_obs(env) -> list[np.ndarray]:
    return [env.observe(a)["observation"].copy() for a in env.agents]


def test_face_down_traps_show_only_presence():
    env, down = _state_with_face_down_traps()
    s = env._states[0]
    before = _all_obs(env)
    nodes = before[0][: K.NUM_NODES * K.NODE_FEATURES].reshape(K.NUM_NODES, K.NODE_FEATURES)
    for node in down:
        assert nodes[node, K.F_TRAP_DOWN] == 1.0
        assert nodes[node, K.F_TRAP_TYPE : K.F_TRAP_TYPE + K.NUM_TRAP_TYPES].sum() == 0.0
    # give every face-down trap a token of another type (swapping with the pool): nothing shows
    pool = list(s["trap_pool"][: int(s["trap_pool_len"])])
    for node in down:
        t = int(s["node_trap"][node])
        j = next(i for i, u in enumerate(pool) if K.TRAP_TOKENS[u] != K.TRAP_TOKENS[t])
        s["node_trap"][node], pool[j] = pool[j], t
    s["trap_pool"][: len(pool)] = pool
    after = _all_obs(env)
    for a, b in zip(before, after):
        assert np.array_equal(a, b)
    # a revealed trap does show its type
    node = down[0]
    s["trap_up"][node] = 1
    nodes = env.observe("player_0")["observation"][: K.NUM_NODES * K.NODE_FEATURES].reshape(
        K.NUM_NODES, K.NODE_FEATURES
    )
    assert nodes[node, K.F_TRAP_DOWN] == 0.0
    assert nodes[node, K.F_TRAP_TYPE + K.TRAP_TOKENS[s["node_trap"][node]]] == 1.0


def test_pool_and_deck_orders_never_reach_the_observation():
    env = random_state(4, 9, 40, max_turns=None)
    s = env._states[0]
    before = _all_obs(env)
    n = int(s["tile_pool_len"])
    s["tile_pool"][:n] = s["tile_pool"][:n][::-1].copy()
    n = int(s["trap_pool_len"])
    s["trap_pool"][:n] = np.roll(s["trap_pool"][:n], 7)
    n = int(s["item_pool_len"])
    s["item_pool"][:n] = s["item_pool"][:n][::-1].copy()
    pos = int(s["golem_pos"])
    s["golem_deck"][pos:] = s["golem_deck"][pos:][::-1].copy()
    pos = int(s["event_pos"])
    s["event_deck"][pos : K.NUM_EVENTS - 1] = s["event_deck"][pos : K.NUM_EVENTS - 1][::-1].copy()
    s["rng"][0] ^= np.uint64(0xDEADBEEF)
    after = _all_obs(env)
    for a, b in zip(before, after):
        assert np.array_equal(a, b)


def test_drawn_tile_is_visible_while_placing():
    offset = K.OBS_GLOBAL + K.NUM_DECISIONS + K.NUM_SEATS + 3
    for seed in range(30):
        env = labyrinth_env.raw_env(ENV_ID, num_players=2)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(60):
            if K.A_BUILD in env.legal_actions():
                env.step(K.A_BUILD)
                if int(env.state["decision"]) != K.D_PLACE:
                    continue
                tile = int(env.state["drawn_tile"])
                assert env.pending_decision() == "place the drawn tile"
                for agent in env.agents:
                    obs = env.observe(agent)["observation"]
                    drawn = obs[offset : offset + K.NUM_TILES]
                    assert drawn[tile] == 1.0 and drawn.sum() == 1.0
                legal = env.legal_actions()
                assert legal and all(K.A_PLACE <= a < K.A_GOLEM_DIR for a in legal)
                env.step(legal[0])
                obs = env.observe(env.agents[0])["observation"]
                assert obs[offset : offset + K.NUM_TILES].sum() == 0.0  # placed: no longer "drawn"
                return
            env.step(int(rng.choice(env.legal_actions())))
    raise AssertionError("no build happened")


@njit(cache=True)
def _determinize_one(states, seat, seed):
    K.determinize(states[0], seat, seed)


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_determinize_keeps_the_observation_of_that_seat(num_players):
    rng = np.random.default_rng(num_players)
    changed = 0
    for seed in range(4):
        env = random_state(num_players, 50 + seed, 150, max_turns=None)
        for seat in range(num_players):
            copy = env._states.copy()
            _determinize_one(copy, seat, np.uint64(rng.integers(1 << 62)))
            mine = env.observe(f"player_{seat}")["observation"]
            theirs = np.zeros(K.OBS_SIZE, dtype=np.float32)
            B.observe_one(copy, seat, theirs)
            assert np.array_equal(mine, theirs)
            changed += copy.tobytes() != env._states.tobytes()
            # the sampled state is still a sound game
            assert _invariant_error(copy[0]) == 0
    assert changed > 0


# --- bad input ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 1}, "num_players=1.*2 to 6"),
        ({"num_players": 7}, "num_players=7.*2 to 6"),
        ({"num_players": "2"}, "num_players"),
        ({"num_players": 3, "two_player_variant": True}, "two_player_variant.*num_players=2"),
        ({"two_player_variant": "yes"}, "two_player_variant"),
        ({"players": 2}, "unknown option.*players.*allowed options"),
        ({"variant": "standard"}, "unknown option.*variant"),
        ({"max_turns": 0}, "max_turns"),
        ({"ask_crystal": 1}, "ask_crystal"),
    ],
)
def test_bad_options_get_clear_errors(options, message):
    with pytest.raises(ValueError, match=message):
        labyrinth_env.make(ENV_ID, **options)
    with pytest.raises(ValueError, match=message):
        labyrinth_env.raw_env(ENV_ID, **options)


def test_illegal_action_raw_env_raises_and_leaves_state_unchanged():
    env = labyrinth_env.raw_env(ENV_ID, num_players=2)
    env.reset(seed=0)
    # the first activity: only moving onto the key space (or the Golem, or ending the turn)
    env.step(next(a for a in env.legal_actions() if K.A_MOVE <= a < K.A_RISKY_JUMP))
    before = env.state.tobytes()
    log_before = list(env.game_log)
    taken = list(env.actions_taken)
    mask_before = env.observe(env.agent_selection)["action_mask"].copy()
    illegal = K.A_PLACE + 5  # no tile has been drawn
    with pytest.raises(
        ValueError, match=rf"illegal action {illegal} \(build tile at .* rotation 5\).*pending decision: activity"
    ):
        env.step(illegal)
    assert env.state.tobytes() == before
    assert np.array_equal(env.observe(env.agent_selection)["action_mask"], mask_before)
    assert env.game_log == log_before and env.actions_taken == taken
    with pytest.raises(ValueError, match=r"illegal action \d+ \(keep the roll\).*pending decision: activity"):
        env.step(K.A_KEEP)
    with pytest.raises(ValueError, match="out of range"):
        env.step(K.NUM_ACTIONS)
    with pytest.raises(ValueError, match="must be an int"):
        env.step("build")
    assert env.state.tobytes() == before
    # a pending decision other than the activity is named too
    env.step(K.A_BUILD)
    if int(env.state["decision"]) == K.D_PLACE:
        before = env.state.tobytes()
        with pytest.raises(ValueError, match=r"\(end turn\).*pending decision: place the drawn tile"):
            env.step(K.A_END_TURN)
        assert env.state.tobytes() == before


def test_illegal_action_wrapped_env_terminates_with_penalty():
    env = labyrinth_env.make(ENV_ID, num_players=3)
    env.reset(seed=0)
    agent = env.agent_selection
    with pytest.warns(UserWarning, match="illegal action"):
        env.step(K.A_KEEP)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1.0
    assert env.infos[agent]["illegal_move"] is True


def test_step_before_reset_is_an_error():
    env = labyrinth_env.make(ENV_ID)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")


def test_action_names_round_trip_and_are_unique():
    env = labyrinth_env.raw_env(ENV_ID)
    names = [env.action_to_str(a) for a in range(K.NUM_ACTIONS)]
    assert len(set(names)) == K.NUM_ACTIONS
    for a in range(K.NUM_ACTIONS):
        assert env.str_to_action(names[a]) == a
    assert env.str_to_action("  Risky   JUMP ") == K.A_RISKY_JUMP
    assert names[K.A_BUILD] == "build" and names[K.A_END_TURN] == "end turn"
    assert names[K.A_MOVE_GOLEM] == "move the golem" and names[K.A_REROLL] == "reroll with crystal of fate"
    with pytest.raises(ValueError, match="no action is named"):
        env.str_to_action("dance")
    with pytest.raises(ValueError, match="out of range"):
        env.action_to_str(K.NUM_ACTIONS)


def test_truncation_by_max_turns_gives_zero_rewards():
    env = labyrinth_env.make(ENV_ID, num_players=2, max_turns=3)
    env.reset(seed=1)
    while not any(env.truncations.values()):
        env.step(K.A_END_TURN)
    assert int(env.unwrapped.state["turn"]) == 3
    assert not any(env.terminations.values())
    assert all(r == 0 for r in env._cumulative_rewards.values())
    assert env.unwrapped.game_log[-1] == {"type": "truncated"}


@pytest.mark.parametrize(("num_players", "variant"), CASES, ids=CASE_IDS)
def test_render_ansi(num_players, variant):
    env = labyrinth_env.make(ENV_ID, num_players=num_players, two_player_variant=variant, render_mode="ansi")
    play_random(env, 2, max_steps=80)
    text = env.render()
    assert isinstance(text, str) and "turn" in text and "decision" in text
    assert all(f"player {p} at" in text for p in range(num_players))
    assert len(text.splitlines()) >= 7
