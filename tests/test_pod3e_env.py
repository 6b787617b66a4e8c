"""Paths of Destiny 3e through the AEC env: PettingZoo API and seeding, thousands of random
games with invariants checked after every step, determinism, replays, hidden information,
the egocentric observation and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from generic_env_checks import (
    check_bad_action_types,
    check_determinize_keeps_observations,
    check_face_down_traps_show_only_presence,
    check_illegal_wrapped,
    check_pettingzoo_api,
    check_pettingzoo_seed,
    check_random_games,
    check_replay,
    check_replay_continues,
    check_step_before_reset,
    check_truncation,
    check_unseen,
    determinizer,
    play_random,
    random_env,
)
from hex_helpers import check_text_board, glyph_above, keys_error, map_captions, tiles_error_with_face_down, traps_error
from numba import njit

import labyrinth_env
from labyrinth_env import get_spec
from labyrinth_env.core.contract import new_states
from labyrinth_env.core.rng import randint
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C
from labyrinth_env.rulesets.paths_of_destiny_3e import heuristic as H
from labyrinth_env.rulesets.paths_of_destiny_3e import kernel as K

B = get_spec("paths_of_destiny_3e_v3").loops  # the ruleset's entry points and batched loops

ENV_ID = "paths_of_destiny_3e_v3"
# (num_players, two_player_variant)
CASES = [(2, False), (3, False), (4, False), (5, False), (6, False), (2, True)]
CASE_IDS = [f"{n}p{'-variant' if v else ''}" for n, v in CASES]


def random_state(num_players: int, seed: int, steps: int, **options) -> labyrinth_env.raw_env:
    """A raw env after ``steps`` random actions (fewer if the game ends first)."""
    return random_env(ENV_ID, seed, steps, num_players=num_players, **options)


# --- PettingZoo API -------------------------------------------------------------------------------
@pytest.mark.parametrize(("num_players", "variant"), CASES, ids=CASE_IDS)
def test_pettingzoo_api_test(num_players, variant):
    check_pettingzoo_api(ENV_ID, num_players=num_players, two_player_variant=variant)


@pytest.mark.parametrize(("num_players", "variant"), CASES, ids=CASE_IDS)
def test_pettingzoo_seed_test(num_players, variant):
    check_pettingzoo_seed(ENV_ID, num_players=num_players, two_player_variant=variant)


@pytest.mark.parametrize(("num_players", "variant"), [(2, True), (5, False)], ids=["2p-variant", "5p"])
def test_api_test_raw_env(num_players, variant):
    check_pettingzoo_api(ENV_ID, raw=True, num_players=num_players, two_player_variant=variant)


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
    16: "the Golem stands off the corridors (the board's and the starting spaces')",
    17: "the drawn tile is shown outside a placement decision",
    18: "the pending decision's seat is not in play",
    19: "a character stands on another character's starting space (unused ones are open, l.177)",
    20: "the mask is all false while the game runs",
    21: "step rejected a legal action",
    22: "a game did not end",
    23: "a game ended neither by a win nor by max_turns",
    24: "the winner is not alone on the central space with a key",
    25: "End turn offered while a stunned player must rest or one must move the Golem off his key space",
    26: "the Golem's trail keeps more than it may, or its turns run backwards or ahead",
    27: "an ability token is owned by a seat not in play, lies in the box with an owner's node, or off the board",
    28: "two seats play the same character, a seat not in play has one, or a 2-player game has an excluded one",
    29: "an ability token is in the box while a seat plays its character, or in hand of a seat not playing it",
    30: "a seat has no character after the deal (characters='random')",
    31: "a face-down tile is not closed, has corridors, a trap or the Golem, or an owner not in play",
    32: "a face-down tile is being revealed outside the orientation decision",
    # the per-decision check a test asks for (``_decision_error``)
    50: "at an activity decision the mask differs from activity_legal",
}


@njit(cache=True)
def _face_down_error(s) -> int:
    for cell in range(K.NUM_BOARD):
        o = s.fd_owner[cell]
        if o < 0:
            if s.fd_tile[cell] != -1:
                return 31
            continue
        if o >= s.num_players or not s.cell_built[cell] or s.cell_tile[cell] != -1 or s.fd_tile[cell] < 0:
            return 31
        for k in range(K.MC):
            node = cell * K.MC + k
            if s.node_mask[node] != 0 or s.node_trap[node] >= 0 or s.golem_node == node:
                return 31
    if s.rv_cell >= 0 and not (s.outcome == K.RUNNING and s.decision == K.D_ORIENT):
        return 32
    if s.outcome == K.RUNNING and s.decision == K.D_ORIENT and (s.rv_cell < 0 or s.fd_owner[s.rv_cell] < 0):
        return 32
    return 0


@njit(cache=True)
def _invariant_error(s) -> int:
    """0 if the state is sound, else a code of ``INVARIANTS`` (the first check's that fails)."""
    for err in (
        keys_error(s),
        traps_error(s, s.center_cell),
        tiles_error_with_face_down(s, s.center_cell, C.CENTRAL_TILE_ID, C.KEY_TILE_ID),
        _face_down_error(s),
        _items_error(s),
        _characters_error(s),
        _ability_tokens_error(s),
        _golem_error(s),
        _way_and_end_error(s),
    ):
        if err != 0:
            return err
    return 0


CHECK_MAIN_MASK = 1  # the bit of ``checks`` (``_decision_error``)


@njit(cache=True)
def _decision_error(s, mask, obs, checks: int, out) -> int:
    """``generic_env_checks.random_games``' per-decision check, as ``checks`` asks: at an
    activity decision, ``legal_mask`` equal to ``activity_legal`` action by action (50;
    ``out[7]`` counts the decisions compared)."""
    if checks & CHECK_MAIN_MASK and s.decision == K.D_MAIN:
        for a in range(K.NUM_ACTIONS):
            activity = a < K.A_PLACE or K.A_LAY_TOKEN <= a < K.A_FURY or K.A_FACE_DOWN <= a < K.A_ORIENT
            if (mask[a] != 0) != (activity and K.activity_legal(s, a)):
                return 50
        out[7] += 1
    return 0


CHECKS = (_invariant_error, _decision_error, INVARIANTS)  # check_random_games' ruleset arguments


@njit(cache=True)
def _items_error(s) -> int:
    """15 items: pool + board + carried, each exactly once (4), on a corridor (5); a drawn
    tile only while it is being placed (17)."""
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
    if s.drawn_tile >= 0 and not (s.outcome == K.RUNNING and s.decision == K.D_PLACE):
        return 17
    return 0


@njit(cache=True)
def _characters_error(s) -> int:
    """Life (10), stun (15), items in order (11), on a corridor (13), never on another's
    starting space (19); the empty seats empty (14)."""
    n = s.num_players
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
            for q in range(n):
                if q != p and node == K.start_node(s, q):
                    return 19
    for p in range(n, K.NUM_SEATS):
        if s.position[p] != -1 or s.items[p, 0] >= 0 or s.items[p, 1] >= 0 or s.life[p] != 0 or s.stun[p] != 0:
            return 14
    return 0


@njit(cache=True)
def _ability_tokens_error(s) -> int:
    """Characters dealt as the rules allow (28, 30) and the 21 ability tokens: each in the
    box, in front of its owner or on a corridor (27), of the owner's character (29)."""
    n = s.num_players
    for p in range(K.NUM_SEATS):
        c = s.character[p]
        if p >= n and c != -1:
            return 28
        if p < n and c >= 0:
            if n == 2 and (c == C.GOLEM_MISTRESS or c == C.ARCH_PRIESTESS):
                return 28
            for q in range(p + 1, n):
                if s.character[q] == c:
                    return 28
        if p < n and c < 0 and s.options[K.OPT_CHARACTERS] == 1 and s.decision != K.D_DRAFT:
            return 30
    for i in range(K.NUM_ABILITY_TOKENS):
        o = s.tok_owner[i]
        node = s.tok_node[i]
        kind = K.ABILITY_TOKENS[i]
        if o < -1 or o >= n or (o < 0 and node != -1):
            return 27
        if node >= 0 and (node >= K.NUM_BOARD_NODES or s.node_mask[node] == 0 or node == K.center_node(s)):
            return 27
        if o < 0:
            for p in range(n):
                if s.character[p] >= 0 and K.CHARACTER_TOKEN[s.character[p]] == kind:
                    return 29
        elif node < 0 and (s.character[o] < 0 or K.CHARACTER_TOKEN[s.character[o]] != kind):
            return 29
    return 0


@njit(cache=True)
def _golem_error(s) -> int:
    """The Golem on a corridor (16), its trail (26), and a turn that must go on while it
    blocks the starting space or the seat is stunned (25)."""
    g = s.golem_node
    if g < 0 or g >= K.NUM_NODES or s.node_mask[g] == 0:
        return 16
    if s.golem_trail_len > K.GOLEM_TRAIL:
        return 26
    for i in range(s.golem_trail_len):
        if s.golem_trail_turn[i] > s.turn or (i > 0 and s.golem_trail_turn[i] < s.golem_trail_turn[i - 1]):
            return 26
    if s.outcome == K.RUNNING and s.decision == K.D_MAIN and s.actions_left > 0:
        me = s.seat
        must = s.stun[me] > 0 or (K.at_start(s, me) and s.golem_node == K.KEY_NODES[s.seat_start[me]])
        if must:
            mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
            K.legal_mask(s, mask)
            if mask[K.A_END_TURN]:
                return 25
    return 0


@njit(cache=True)
def _way_and_end_error(s) -> int:
    """Never a path-closing build (12); a seat in play decides (18); a winner alone on the
    central space with a key (24)."""
    if not K.targets_connected(s, -1):
        return 12
    if s.outcome == K.RUNNING and (s.decider < 0 or s.decider >= s.num_players):
        return 18
    if s.outcome == K.WON:
        w = s.winner
        c = K.center_node(s)
        if s.position[w] != c or K.keys_held(s, w) == 0 or K.occupants(s, c, w) != 0:
            return 24
    return 0


def _options(num_players: int, **options) -> np.ndarray:
    return labyrinth_env.raw_env(ENV_ID, num_players=num_players, **options).options_vector()


@pytest.mark.parametrize(("num_players", "variant"), CASES, ids=CASE_IDS)
def test_random_games_end_with_invariants_after_every_step(num_players, variant):
    # Most games are cut at 60 turns (many games, early positions); some run the whole
    # default length so that the pools empty, the board fills and Annihilation comes.
    out = np.zeros(8, dtype=np.int64)
    for max_turns, games in ((60, 1500), (400, 60)):
        opts = _options(num_players, two_player_variant=variant, max_turns=max_turns)
        what = f"{num_players} players, max_turns {max_turns}"
        seed = 31 * num_players + max_turns + variant
        out += check_random_games(K, *CHECKS, opts, games, seed, what)
    assert out[0] == 1560
    assert out[3] + out[4] == out[0]


def test_random_games_without_crystal_questions_end_with_invariants():
    opts = _options(4, ask_crystal=False, max_turns=120)
    out = check_random_games(K, *CHECKS, opts, 150, 77, "4 players, no crystal questions")
    assert out[0] == 150


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
    K.lose_life(s, 0, 1)  # the last Life: the Heart counts as one more
    K.advance(s)
    assert int(s["life"][0]) == 1 and not s["dying"]
    assert s["items"][0].tolist() == [boots, -1]
    assert _invariant_error(s) == 0


# --- determinism and replays ------------------------------------------------------------------------------
def test_same_seed_same_game_different_seed_different_game():
    def run(seed: int):
        env = labyrinth_env.make(ENV_ID, num_players=3, max_turns=40)
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
        setups.add(s["tile_pool"].tobytes() + s["trap_pool"].tobytes() + s["item_pool"].tobytes())
    assert len(setups) == 20


@pytest.mark.parametrize(("num_players", "variant"), [(4, False), (2, True)], ids=["4p", "2p-variant"])
def test_replay_reproduces_log(tmp_path, num_players, variant):
    options = {"num_players": num_players, "two_player_variant": variant, "max_turns": 60}
    check_replay(tmp_path, ENV_ID, 11, {"start_turn", "move", "build"}, **options)


def test_replay_of_unfinished_game_can_continue(tmp_path):
    check_replay_continues(tmp_path, random_state(2, 3, 25))


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
    env = random_state(num_players, 4, 60, max_turns=1_000_000)
    s = env.record
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


def test_face_down_traps_show_only_presence():
    check_face_down_traps_show_only_presence(random_state, K)


def test_pool_and_deck_orders_never_reach_the_observation():
    def reorder(s):
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

    check_unseen(random_state(4, 9, 40, max_turns=1_000_000), reorder)


def test_drawn_tile_is_visible_while_placing():
    offset = K.OBS_GLOBAL + K.NUM_DECISIONS + K.NUM_SEATS + 3
    for seed in range(30):
        env = labyrinth_env.raw_env(ENV_ID, num_players=2)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(60):
            if K.A_BUILD in env.legal_actions():
                env.step(K.A_BUILD)
                if int(env.record["decision"]) != K.D_PLACE:
                    continue
                tile = int(env.record["drawn_tile"])
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


def _swap_hidden_tiles(s: np.void, rng: np.random.Generator) -> bool:
    """Deal the unknown tiles (the pool and every face-down tile not being revealed) again
    at random, in place; False if no face-down tile lies on the board."""
    n = int(s["tile_pool_len"])
    cells = [c for c in range(K.NUM_BOARD) if s["fd_owner"][c] >= 0 and c != s["rv_cell"]]
    if not cells:
        return False
    unknown = np.array([*s["tile_pool"][:n].tolist(), *(int(s["fd_tile"][c]) for c in cells)])
    unknown = rng.permutation(unknown)
    s["tile_pool"][:n] = unknown[:n]
    for i, c in enumerate(cells):
        s["fd_tile"][c] = unknown[n + i]
    return True


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_face_down_tiles_never_reach_another_seat_over_whole_games(num_players):
    """The Illusionist's face-down tiles (and the pool) dealt again at random at every step
    of whole games: every seat's observation, who is asked, what, the legal actions and the
    heuristic's choice stay the same; only the reveal shows the tile."""
    names = ["Illusionist", "Warlock", "Architect", "Witch", "Warden", "Swordmaster"][:num_players]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    mask2 = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    checked = 0
    for g in range(12):
        chars = names[g % num_players :] + names[: g % num_players]
        env = labyrinth_env.raw_env(ENV_ID, num_players=num_players, characters=chars, max_turns=60)
        env.reset(seed=500 + g)
        rng = np.random.default_rng(g)
        while int(env.record["outcome"]) == K.RUNNING:
            s = env.record
            other = np.array([s]).copy()
            if _swap_hidden_tiles(other[0], rng):
                checked += 1
                for p in range(num_players):
                    a, b = np.zeros(K.OBS_SIZE, np.float32), np.zeros(K.OBS_SIZE, np.float32)
                    K.observe(s, p, a)
                    K.observe(other[0], p, b)
                    assert np.array_equal(a, b), f"seat {p} sees the hidden tile, game {g}"
                assert (int(other[0]["decision"]), int(other[0]["decider"])) == (int(s["decision"]), int(s["decider"]))
                h1 = H.heuristic_action(s, mask)
                h2 = H.heuristic_action(other[0], mask2)
                assert np.array_equal(mask, mask2) and h1 == h2, f"the hidden tile shows in the mask, game {g}"
            legal = env.legal_actions()
            a = H.heuristic_action(env.record, mask) if rng.random() < 0.8 else int(rng.choice(legal))
            draws = int(a) == K.A_BUILD or int(env.record["decision"]) == K.D_PLACE  # a Build shows its tile
            env.step(int(a))
            # ... and one step on: the same, unless that step revealed a tile or built one
            swapped = checked and not draws and K.step(other[0], int(a))
            if swapped and int(env.record["decision"]) not in (K.D_ORIENT, K.D_PLACE):
                revealed = any(
                    int(e[0]) == K.EV_REVEALED for e in env.record["events"][: int(env.record["num_events"])]
                )
                if not revealed and int(env.record["outcome"]) == K.RUNNING:
                    for p in range(num_players):
                        a1, b1 = np.zeros(K.OBS_SIZE, np.float32), np.zeros(K.OBS_SIZE, np.float32)
                        K.observe(env.record, p, a1)
                        K.observe(other[0], p, b1)
                        assert np.array_equal(a1, b1), f"seat {p} learns the hidden tile by a step, game {g}"
    assert checked > 200


_determinize_one = determinizer(K)


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_determinize_keeps_the_observation_of_that_seat(num_players):
    check_determinize_keeps_observations(random_state, num_players, K, B, _determinize_one, _invariant_error)


# --- bad input ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 1}, "num_players=1.*2 to 6"),
        ({"num_players": 7}, "num_players=7.*2 to 6"),
        ({"num_players": "2"}, "num_players"),
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
    before = env.record.tobytes()
    log_before = list(env.game_log)
    taken = list(env.actions_taken)
    mask_before = env.observe(env.agent_selection)["action_mask"].copy()
    illegal = K.A_PLACE + 5  # no tile has been drawn
    with pytest.raises(
        ValueError, match=rf"illegal action {illegal} \(build tile at .* rotation 5\).*pending decision: activity"
    ):
        env.step(illegal)
    assert env.record.tobytes() == before
    assert np.array_equal(env.observe(env.agent_selection)["action_mask"], mask_before)
    assert env.game_log == log_before and env.actions_taken == taken
    with pytest.raises(ValueError, match=r"illegal action \d+ \(keep the roll\).*pending decision: activity"):
        env.step(K.A_KEEP)
    check_bad_action_types(env, K.NUM_ACTIONS, "build")
    # a pending decision other than the activity is named too
    env.step(K.A_BUILD)
    if int(env.record["decision"]) == K.D_PLACE:
        before = env.record.tobytes()
        with pytest.raises(ValueError, match=r"\(end turn\).*pending decision: place the drawn tile"):
            env.step(K.A_END_TURN)
        assert env.record.tobytes() == before


def test_illegal_action_wrapped_env_terminates_with_penalty():
    check_illegal_wrapped(ENV_ID, K.A_KEEP, num_players=3)


def test_step_before_reset_is_an_error():
    check_step_before_reset(ENV_ID)


def test_action_names_round_trip_and_are_unique():
    env = labyrinth_env.raw_env(ENV_ID)
    names = [env.action_to_str(a) for a in range(K.NUM_ACTIONS)]
    assert len(set(names)) == K.NUM_ACTIONS
    for a in range(K.NUM_ACTIONS):
        assert env.str_to_action(names[a]) == a
    assert env.str_to_action("  Risky   JUMP ") == K.A_RISKY_JUMP
    assert names[K.A_BUILD] == "build" and names[K.A_END_TURN] == "end turn"
    assert names[K.A_MOVE_GOLEM] == "move the golem" and names[K.A_REROLL] == "reroll with crystal of fate"
    assert names[K.A_MOVE + 5] == "move north-east" and names[K.A_GOLEM_DIR + 2] == "golem steps south-west"
    assert names[K.A_PUSH_DIR + 1] == "push the loser south-east" and env.str_to_action("move  East") == K.A_MOVE
    with pytest.raises(ValueError, match="no action is named"):
        env.str_to_action("dance")
    with pytest.raises(ValueError, match="out of range"):
        env.action_to_str(K.NUM_ACTIONS)


def test_truncation_by_max_turns_gives_zero_rewards():
    check_truncation(ENV_ID, K.A_END_TURN, num_players=2, max_turns=3)


@pytest.mark.parametrize(("num_players", "variant"), CASES, ids=CASE_IDS)
def test_render_ansi(num_players, variant):
    env = labyrinth_env.make(ENV_ID, num_players=num_players, two_player_variant=variant, render_mode="ansi")
    play_random(env, 2, max_steps=80)
    text = env.render()
    assert isinstance(text, str) and "turn" in text and "decision" in text
    assert all(f"player {p} at" in text for p in range(num_players))
    assert len(text.splitlines()) >= 7


@pytest.mark.parametrize(("num_players", "variant"), CASES, ids=CASE_IDS)
def test_text_board_names_spaces_as_the_actions_do_with_a_key(num_players, variant):
    """Every space a legal action names is labelled on the map, characters and the Golem
    stand where the record says, directions point where their names say
    (``check_text_board``)."""
    env = labyrinth_env.raw_env(ENV_ID, num_players=num_players, two_player_variant=variant)
    assert check_text_board(env, seed=num_players, steps=250, figure="golem_node") > 50
    text = env.render_text()
    assert "$ item  G Golem  @ ability token" in text and "S a start space (start 0-5)" in text
    centre = "(1,-1)" if variant else "(0,0)"
    assert glyph_above(text, centre).startswith("C")


def test_text_board_items_and_hidden_traps():
    env = labyrinth_env.raw_env(ENV_ID, num_players=2)
    env.reset(seed=1)
    s = env.record
    node = int(K.KEY_NODES[1])
    s["node_trap"][node] = 0
    s["item_node"][3] = node
    trap = C.TRAP_NAMES[int(C.TRAP_TOKENS[0])]
    text = env.render_text()
    assert glyph_above(text, "(3,-3)") == "K$^k1" and trap not in text
    assert f"items lying: (3,-3) {C.ITEM_NAMES[3]}" in text
    s["trap_up"][node] = 1
    text = env.render_text()
    assert glyph_above(text, "(3,-3)") == "K$!k1" and f"face-up traps: (3,-3) {trap}" in text
    assert map_captions(text)["start 2"][0] > map_captions(text)["(0,-3)"][0]  # beyond key space 2, south-west


@pytest.mark.parametrize("num_players", [2, 6])
def test_main_mask_equals_the_rule_per_action(num_players):
    # at every activity decision of random games, legal_mask equals activity_legal action by action
    opts = _options(num_players, max_turns=80)
    out = check_random_games(K, *CHECKS, opts, 60, 3 + num_players, f"{num_players} players", checks=CHECK_MAIN_MASK)
    assert out[7] > 3000


# --- every written character in every seat, with the heuristic using the abilities ---------------
READY = [n for i, n in enumerate(C.CHARACTER_NAMES) if C.CHARACTER_READY[i]]


@njit(cache=True)
def _mixed_games(states, options, num_games: int, seed: int, p_heuristic: float, out, mask, seen) -> None:
    """Games where each decision is the heuristic's with probability ``p_heuristic`` (it
    uses the abilities), else a random legal action; invariants after every step. ``out``
    as ``generic_env_checks.random_games``; ``seen[kind]`` counts the events by kind."""
    s = states[0]
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed * 7919 + 1)
    for g in range(num_games):
        K.init(s, np.uint64(seed * 100_003 + g), options)
        err = _invariant_error(s)
        steps = 0
        while s.outcome == K.RUNNING and err == 0:
            if H.heuristic_action(s, mask) < 0:
                err = 20
                break
            if rng_u01(rng) < p_heuristic:
                a = H.heuristic_action(s, mask)
            else:
                a = B.random_legal_action(s, mask, rng)
            if not K.step(s, a):
                err = 21
                break
            for e in range(min(s.num_events, K.MAX_EVENTS)):
                seen[s.events[e, 0]] += 1
            steps += 1
            err = _invariant_error(s)
            if steps > 100 * s.max_turns:
                err = 22
        if err != 0:
            out[2] = err
            out[5] = g
            out[6] = steps
            return
        out[0] += 1
        out[1] += steps


@njit(cache=True)
def rng_u01(rng) -> float:
    return randint(rng, 1 << 20) / float(1 << 20)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_random_games_every_character_in_every_seat_with_invariants(num_players):
    """Each written character sits in every seat (the list rotated one seat per option set);
    random play, and play where the heuristic (which uses the abilities) decides most of
    the time, with the invariants (the 21 ability tokens among them) after every step."""
    names = [n for n in READY if not (num_players == 2 and n in ("Golem Mistress", "Arch-priestess"))]
    seen = np.zeros(64, dtype=np.int64)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    games = 0
    for k in range(len(names)):
        chars = [names[(k + p) % len(names)] for p in range(num_players)]
        opts = _options(num_players, max_turns=60, characters=chars)
        what = f"{num_players} players, characters {chars}"
        out = check_random_games(K, *CHECKS, opts, 40, 97 * k + num_players, what)
        games += int(out[0])
        out = np.zeros(7, dtype=np.int64)
        _mixed_games(new_states(K, 1), opts, 3, 13 * k + num_players, 0.85, out, mask, seen)
        assert out[2] == 0, f"invariant broken: {INVARIANTS.get(int(out[2]))}, {what}, game {out[5]} step {out[6]}"
        games += int(out[0])
    assert games == len(names) * 43
    for kind in (K.EV_CHARACTER, K.EV_TOKEN_LAID, K.EV_TOKEN_EFFECT, K.EV_FACE_DOWN, K.EV_REVEALED):
        assert seen[kind] > 0, f"no event of kind {kind} in the heuristic's games"
