"""Paths of Destiny 2011 through the AEC env: PettingZoo API and seeding for 2-5 players,
thousands of random games with invariants checked after every step, determinism, replays,
hidden information, the egocentric observation and bad input."""

from __future__ import annotations

import types

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
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C
from labyrinth_env.rulesets.paths_of_destiny_2011 import kernel as K

B = get_spec("paths_of_destiny_2011_v6").loops  # the ruleset's batched loops and single-game entry points

B = get_spec("paths_of_destiny_2011_v6").loops

ENV_ID = "paths_of_destiny_2011_v6"
PLAYERS = [2, 3, 4, 5, 6]


def random_state(num_players: int, seed: int, steps: int, **options) -> labyrinth_env.raw_env:
    return random_env(ENV_ID, seed, steps, num_players=num_players, **options)


# --- PettingZoo API -------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_api_test(num_players):
    check_pettingzoo_api(ENV_ID, num_players=num_players)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_pettingzoo_seed_test(num_players):
    check_pettingzoo_seed(ENV_ID, num_players=num_players)


@pytest.mark.parametrize("num_players", [2, 5, 6])
def test_api_test_raw_env(num_players):
    check_pettingzoo_api(ENV_ID, raw=True, num_players=num_players)


def test_registered_with_module_pair():
    from labyrinth_env import paths_of_destiny_2011_v6 as mod

    assert ENV_ID in labyrinth_env.list_envs()
    assert labyrinth_env.registry.player_range(ENV_ID) == (2, 6)
    assert isinstance(mod.env(), mod.raw_env) and mod.env().checked and not mod.raw_env().checked


# --- invariants over thousands of random games --------------------------------------------------------
INVARIANTS = {
    1: "a key is both in a corridor and held, or neither",
    2: "a key lies on a corridor that does not exist (or off the board)",
    3: "a key is held by a seat not in play",
    6: "a trap token is not in exactly one place (pile, board)",
    7: "a trap lies on a missing, central or start-field corridor",
    8: "a board field is not in exactly one place (board, drawn, pile)",
    9: "a printed field (central, key, start) is missing or a board field sits outside the board",
    10: "life outside 1..4 for a seat in play (a player at 0 must be home with 4)",
    12: "a build closed every way from a start field to the central field",
    13: "a player stands on a corridor that does not exist",
    14: "a seat not in play holds something or stands somewhere",
    15: "negative stun",
    16: "the Guard stands off the board's corridors",
    17: "the drawn field is shown outside a placement decision",
    18: "the pending decision's seat is not in play",
    19: "a player stands on another player's (or an empty) start field",
    20: "the mask is all false while the game runs",
    21: "step rejected a legal action",
    22: "a game did not end",
    23: "a game ended neither by a win nor by max_turns",
    24: "the winner is not on the central field with a key",
    25: "a player stands on its start field with lost life or stun points",
    26: "a trap is marked failed (bracket) while face down",
    27: "a face-up fate crystal count or stun of a seat is out of range",
    28: "two players share a start field",
    29: "something is still being resolved while the main decision is pending",
    30: "a player counts as just out of its start field but stands elsewhere than on its key field",
    31: "a player counts a key taken from a stunned player who is not in its corridor",
    32: "a player counts as fallen into the trap of a corridor without a trap",
    33: "a corridor memory (fight lost, trap fallen into, start field left) for a seat not in play",
    34: "a character card is held twice, is out of range, or is held in a game without characters",
    35: "adrenaline tokens outside 0..3, or on a player who is not the Female Archer",
    36: "blessing tokens: negative, more than 6 out, or out in a game without the Monk",
    37: "curse tokens: negative, more than 6 out, or out in a game without the Witch",
    38: "a seat lacks a character once the cards are dealt or chosen",
    39: "a Head Hunter's second trap lies where there is no first, or off the board's corridors",
    40: "a face-down field: not the Illusionist's, not closed, without its field, or turned up outside its decision",
    41: "Enslavement: a player transformed into the Guard outside the Mistress's steps of her card, or its fields left",
    # the per-decision checks a test asks for (``_decision_error``)
    50: "at a main decision the mask differs from action_legal",
    51: "a seat's observation leaves [0, 1]",
}


@njit(cache=True)
def _face_down_error(s) -> int:
    """40: each face-down field is the Illusionist's, closed (built, no corridor), holds a
    field; one is being turned face up only in her decision."""
    for cell in range(K.NUM_BOARD):
        o = s.fd_owner[cell]
        if o < 0:
            if s.fd_tile[cell] != -1:
                return 40
            continue
        if s.character[o] != K.ILLUSIONIST or s.fd_tile[cell] < 0 or not s.cell_built[cell]:
            return 40
        for k in range(K.MC):
            if s.node_mask[cell * K.MC + k] != 0:
                return 40
    if (s.rv_cell >= 0) != (s.outcome == K.RUNNING and s.decision == K.D_UNCOVER):
        return 40
    return 0


@njit(cache=True)
def _second_traps_error(s) -> int:
    """6 with the second traps counted (each token in exactly one place: pile, a first or
    a second slot); 39: a second trap without a first."""
    if traps_error(s, K.CENTER_CELL) not in (0, 6):
        return traps_error(s, K.CENTER_CELL)
    seen = np.zeros(s.trap_pool.shape[0], dtype=np.int64)
    for i in range(s.trap_pool_len):
        seen[s.trap_pool[i]] += 1
    for node in range(K.NUM_NODES):
        if s.node_trap[node] >= 0:
            seen[s.node_trap[node]] += 1
        if s.node_trap2[node] >= 0:
            seen[s.node_trap2[node]] += 1
            if s.node_trap[node] < 0 or node >= K.NUM_BOARD_NODES or s.node_mask[node] == 0:
                return 39
    for t in range(seen.shape[0]):
        if seen[t] != 1:
            return 6
    return 0


@njit(cache=True)
def _characters_error(s) -> int:
    """The cards and the tokens (l.47-51): each card once, the tokens conserved."""
    n = s.num_players
    held = 0
    for p in range(K.NUM_SEATS):
        c = s.character[p]
        if c < 0:
            if s.char_mode != 0 and p < n and s.draft_pos >= n:
                return 38
            continue
        if c >= K.NUM_CHARACTERS or p >= n or s.char_mode == 0 or (held >> c) & 1:
            return 34
        held |= 1 << c
    blessings = 0
    curses = 0
    for p in range(K.NUM_SEATS):
        if s.adrenaline[p] < 0 or s.adrenaline[p] > C.ADRENALINE_TOKENS:
            return 35
        if s.adrenaline[p] > 0 and s.character[p] != K.ARCHER:
            return 35
        if s.blessing[p] < 0:
            return 36
        if s.curse[p] < 0:
            return 37
        blessings += s.blessing[p]
        curses += s.curse[p]
    if blessings > C.BLESSING_TOKENS or (blessings > 0 and not (held >> K.MONK) & 1):
        return 36
    if curses > C.CURSE_TOKENS or (curses > 0 and not (held >> K.WITCH) & 1):
        return 37
    if s.slave < 0:
        return 41 if s.slave_steps != 0 or s.slave_from != -1 or s.slave_ignore != 0 else 0
    # transformed only while the Mistress steps him with her card (the Guard direction decision)
    bad = s.slave >= n or s.slave == s.seat or s.character[s.seat] != K.MISTRESS or s.slave_steps <= 0
    if bad or s.outcome != K.RUNNING or s.decision != K.D_GUARD_DIR or s.decider != s.seat:
        return 41
    return 0


@njit(cache=True)
def _invariant_error(s) -> int:
    """0 if the state is sound, else a code of ``INVARIANTS`` (the first check's that fails)."""
    for err in (
        _characters_error(s),
        keys_error(s),
        _second_traps_error(s),
        tiles_error_with_face_down(s, K.CENTER_CELL, C.CENTRAL_TILE_ID, C.KEY_TILE_ID),
        _face_down_error(s),
        _trap_and_tile_error(s),
        _players_error(s),
        _met_error(s),
        _guard_and_turn_error(s),
    ):
        if err != 0:
            return err
    return 0


CHECK_MAIN_MASK, CHECK_OBSERVATIONS = 1, 2  # the bits of ``checks`` (``_decision_error``)


@njit(cache=True)
def _decision_error(s, mask, obs, checks: int, out) -> int:
    """``generic_env_checks.random_games``' per-decision checks, as the bits of ``checks``
    ask: every seat's observation in [0, 1] (51); at a main decision, ``legal_mask`` equal
    to ``action_legal`` action by action (50; ``out[7]`` counts the decisions compared)."""
    if checks & CHECK_OBSERVATIONS:
        for p in range(s.num_players):
            K.observe(s, p, obs)
            for i in range(obs.shape[0]):
                if not (obs[i] >= 0.0 and obs[i] <= 1.0):
                    return 51
    if checks & CHECK_MAIN_MASK and s.decision == K.D_MAIN:
        for a in range(K.NUM_ACTIONS):
            main = a < K.A_PLACE or a >= K.A_SKILL  # the round's actions, the skills
            if (mask[a] != 0) != (main and K.action_legal(s, a)):
                return 50
        out[7] += 1
    return 0


CHECKS = (_invariant_error, _decision_error, INVARIANTS)  # check_random_games' ruleset arguments


@njit(cache=True)
def _trap_and_tile_error(s) -> int:
    """A failed trap is face up (26); a drawn tile only while it is being placed (17)."""
    for node in range(K.NUM_NODES):
        if s.trap_failed[node] and not s.trap_up[node]:
            return 26
    if s.drawn_tile >= 0 and not (s.outcome == K.RUNNING and s.decision == K.D_PLACE):
        return 17
    return 0


@njit(cache=True)
def _players_error(s) -> int:
    """Life (10), stun (15), the crystal (27); once seated, a start field each (28), on a
    corridor (13), on a start field only its own (19) and restored there (25); the empty
    seats empty (14) and never met (33)."""
    n = s.num_players
    seated = s.choose_pos >= n
    for p in range(n):
        if s.life[p] < 1 or s.life[p] > K.LIFE:
            return 10
        if s.stun[p] < 0:
            return 15
        if s.crystal[p] < 0 or s.crystal[p] > 1:
            return 27
        if not seated:
            continue
        for q in range(p):
            if s.seat_start[q] == s.seat_start[p]:
                return 28
        node = s.position[p]
        if node < 0 or node >= K.NUM_NODES or s.node_mask[node] == 0:
            return 13
        if node >= K.START_CELL * K.MC:
            if node != K.start_node(s, p):
                return 19
            if s.life[p] != K.LIFE or s.stun[p] != 0:
                return 25
    for p in range(n, K.NUM_SEATS):
        if s.position[p] != -1 or s.life[p] != 0 or s.stun[p] != 0:
            return 14
        if ((s.fight_lost | s.trap_fell | s.left_start) >> p) & 1 or s.took_key[p] != 0:
            return 33
    return 0


@njit(cache=True)
def _met_error(s) -> int:
    """What each player met in its corridor: come from its start field onto its own key
    field (30), the players it took a key from still there (31), a trap where it fell (32)."""
    n = s.num_players
    for p in range(n):
        if (s.left_start >> p) & 1 and s.position[p] != K.own_key_node(s, p):
            return 30
        for q in range(n):
            if (s.took_key[p] >> q) & 1 and s.position[q] != s.position[p]:
                return 31
        if (s.trap_fell >> p) & 1 and s.node_trap[s.position[p]] < 0:
            return 32
    return 0


@njit(cache=True)
def _guard_and_turn_error(s) -> int:
    """The Guard on a board corridor (16); every start field joined to the centre once
    seated (12); a seat in play decides (18), nothing left to resolve in the action decision
    (29); the winner on the central field with a key (24)."""
    n = s.num_players
    g = s.guard_node
    if g < 0 or g >= K.NUM_BOARD_NODES or s.node_mask[g] == 0:
        return 16
    if s.choose_pos >= n:
        K.reach_from_centre(s)
        for p in range(n):
            if not s.reach[K.start_node(s, p)]:
                return 12
    if s.outcome == K.RUNNING:
        if s.decider < 0 or s.decider >= n:
            return 18
        busy = s.ex_active or s.ck_kind != K.CK_NONE or s.guard_steps or s.guard_checks or s.shot_queue
        busy = busy or s.rite_node >= 0 or s.rite_queue or s.rite_victim >= 0
        if s.decision == K.D_MAIN and busy:
            return 29
    if s.outcome == K.WON:
        w = s.winner
        if s.position[w] != K.CENTER_NODE or K.keys_held(s, w) == 0:
            return 24
    return 0


def _options(num_players: int, **options) -> np.ndarray:
    return labyrinth_env.raw_env(ENV_ID, num_players=num_players, **options).options_vector()


@pytest.mark.parametrize("num_players", PLAYERS)
def test_random_games_end_with_invariants_after_every_step(num_players):
    # Most games are cut at 60 rounds (early positions, many of them); some run long enough
    # for the piles to empty and the board to fill.
    out = np.zeros(8, dtype=np.int64)
    for max_turns, games in ((60, 1000), (400, 40)):
        opts = _options(num_players, max_turns=max_turns)
        what = f"{num_players} players, max_turns {max_turns}"
        out += check_random_games(K, *CHECKS, opts, games, 31 * num_players + max_turns, what)
    assert out[0] == 1040
    assert out[3] + out[4] == out[0]


@pytest.mark.parametrize("num_players", PLAYERS)
def test_random_games_with_characters_in_every_seat_end_with_invariants(num_players):
    """Characters in every seat (dealt, and chosen in the draft), every player count; the
    tokens conserved after every step (invariants 34-38)."""
    out = np.zeros(8, dtype=np.int64)
    for draft, games in ((False, 600), (True, 200)):
        opts = _options(num_players, max_turns=80, characters="random", character_draft=draft)
        what = f"{num_players} players with characters, draft {draft}"
        out += check_random_games(K, *CHECKS, opts, games, 53 * num_players + draft, what)
    assert out[0] == 800 and out[3] + out[4] == out[0]


@pytest.mark.parametrize("num_players", [3, 6])
def test_observation_within_its_box_with_characters(num_players):
    """An adrenaline token makes a third action: the round's feature stays in [0, 1]."""
    opts = _options(num_players, max_turns=120, characters="random")
    what = f"{num_players} players with characters"
    out = check_random_games(K, *CHECKS, opts, 150, 11 + num_players, what, checks=CHECK_OBSERVATIONS)
    assert out[0] == 150


def test_random_games_without_crystal_questions_end_with_invariants():
    opts = _options(4, ask_crystal=False, max_turns=120)
    out = check_random_games(K, *CHECKS, opts, 150, 77, "4 players, no crystal questions")
    assert out[0] == 150


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
        setups.add(s["tile_pool"].tobytes() + s["trap_pool"].tobytes() + s["guard_deck"].tobytes())
    assert len(setups) == 20


@pytest.mark.parametrize("num_players", [2, 5])
def test_replay_reproduces_log(tmp_path, num_players):
    events = {"start_turn", "move", "build", "start_field"}
    check_replay(tmp_path, ENV_ID, 11, events, num_players=num_players, max_turns=60)


def test_replay_of_unfinished_game_can_continue(tmp_path):
    check_replay_continues(tmp_path, random_state(2, 3, 25))


# --- observation ------------------------------------------------------------------------------------------
def test_observation_fixed_shape_for_every_player_count():
    shapes = set()
    for n in PLAYERS:
        env = labyrinth_env.make(ENV_ID, num_players=n)
        env.reset(seed=0)
        for agent in env.agents:
            obs = env.observe(agent)
            shapes.add((obs["observation"].shape, obs["action_mask"].shape, obs["observation"].dtype))
            assert env.observation_space(agent).contains(obs)
    assert shapes == {((K.OBS_BASE_SIZE,), (K.NUM_ACTIONS,), np.dtype(np.float32))}
    on = labyrinth_env.make(ENV_ID, num_players=3, characters="random")
    on.reset(seed=0)
    assert on.observe("player_0")["observation"].shape == (K.OBS_SIZE,), "the character block with characters"


def _char_plane(obs: np.ndarray, rel: int) -> np.ndarray:
    nodes = obs[: K.NUM_NODES * K.NODE_FEATURES].reshape(K.NUM_NODES, K.NODE_FEATURES)
    return nodes[:, K.F_CHAR + rel]


def _seat_block(obs: np.ndarray, rel: int) -> np.ndarray:
    b = K.OBS_SEATS + rel * K.SEAT_FEATURES
    return obs[b : b + K.SEAT_FEATURES]


@pytest.mark.parametrize("num_players", PLAYERS)
def test_observation_is_egocentric(num_players):
    env = random_state(num_players, 4, 60, max_turns=1_000_000)
    s = env.record
    for seat in range(num_players):
        obs = env.observe(f"player_{seat}")["observation"]
        for rel in range(num_players):
            p = (seat + rel) % num_players
            plane = _char_plane(obs, rel)
            assert plane[s["position"][p]] == 1.0 and plane.sum() == 1.0
            block = _seat_block(obs, rel)
            assert block[0] == 1.0 and block[1] == s["life"][p] / K.LIFE
            assert block[8 + s["seat_start"][p]] == 1.0
        for rel in range(num_players, K.NUM_SEATS):
            assert _char_plane(obs, rel).sum() == 0.0 and _seat_block(obs, rel).sum() == 0.0
    assert not np.array_equal(env.observe("player_0")["observation"], env.observe("player_1")["observation"])
    others = [a for a in env.agents if a != env.agent_selection]
    assert all(env.observe(a)["action_mask"].sum() == 0 for a in others)
    assert env.observe(env.agent_selection)["action_mask"].sum() > 0


def test_face_down_traps_show_only_presence():
    check_face_down_traps_show_only_presence(random_state, K)


def test_pile_and_deck_orders_and_rng_never_reach_the_observation():
    def reorder(s):
        n = int(s["tile_pool_len"])
        s["tile_pool"][:n] = s["tile_pool"][:n][::-1].copy()
        n = int(s["trap_pool_len"])
        s["trap_pool"][:n] = np.roll(s["trap_pool"][:n], 7)
        pos = int(s["guard_pos"])
        s["guard_deck"][pos:] = s["guard_deck"][pos:][::-1].copy()

    check_unseen(random_state(4, 9, 40, max_turns=1_000_000), reorder)


def test_guard_cards_left_are_counted_by_kind():
    env = labyrinth_env.raw_env(ENV_ID, num_players=3, ask_crystal=False)
    env.reset(seed=2)
    g = K.OBS_GLOBAL + K.G_GUARD_CARDS
    obs = env.observe(env.agent_selection)["observation"]
    assert np.allclose(obs[g : g + 6] * 3, [3, 2, 2, 2, 2, 1])
    env.step(K.A_MOVE_GUARD)
    card = int(env.record["guard_deck"][0])
    counts = np.array([3, 2, 2, 2, 2, 1], dtype=float)
    counts[K.GUARD_CLASS[card]] -= 1
    for agent in env.agents:
        obs = env.observe(agent)["observation"]
        assert np.allclose(obs[g : g + 6] * 3, counts)


def test_drawn_field_is_visible_while_placing():
    offset = K.OBS_GLOBAL + K.G_DRAWN
    for seed in range(30):
        env = labyrinth_env.raw_env(ENV_ID, num_players=3)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(60):
            if K.A_BUILD in env.legal_actions():
                env.step(K.A_BUILD)
                if int(env.record["decision"]) != K.D_PLACE:
                    continue
                tile = int(env.record["drawn_tile"])
                assert env.pending_decision() == "place the board field"
                for agent in env.agents:
                    drawn = env.observe(agent)["observation"][offset : offset + K.NUM_TILES]
                    assert drawn[tile] == 1.0 and drawn.sum() == 1.0
                legal = env.legal_actions()
                assert legal and all(K.A_PLACE <= a < K.A_GUARD_DIR for a in legal)
                env.step(legal[0])
                obs = env.observe(env.agents[0])["observation"]
                assert obs[offset : offset + K.NUM_TILES].sum() == 0.0
                return
            env.step(int(rng.choice(env.legal_actions())))
    raise AssertionError("no build happened")


_determinize_one = determinizer(K)


@pytest.mark.parametrize("num_players", [2, 4, 5, 6])
def test_determinize_keeps_the_observation_of_that_seat(num_players):
    # without characters the observation is v1's (``K.OBS_BASE_SIZE``), which the check reads as OBS_SIZE
    base = types.SimpleNamespace(OBS_SIZE=K.OBS_BASE_SIZE)
    check_determinize_keeps_observations(random_state, num_players, base, B, _determinize_one, _invariant_error)


def test_determinize_depends_only_on_what_the_seat_knows():
    env = random_state(3, 12, 120, max_turns=1_000_000)
    a = env._states.copy()
    b = env._states.copy()
    s = b[0]
    n = int(s["tile_pool_len"])
    s["tile_pool"][:n] = s["tile_pool"][:n][::-1].copy()
    pos = int(s["guard_pos"])
    s["guard_deck"][pos:] = s["guard_deck"][pos:][::-1].copy()
    s["rng"][0] ^= np.uint64(12345)
    _determinize_one(a, 0, np.uint64(99))
    _determinize_one(b, 0, np.uint64(99))
    assert a.tobytes() == b.tobytes()


# --- bad input ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 1}, "num_players=1.*2 to 6"),
        ({"num_players": 7}, "num_players=7.*2 to 6"),
        ({"num_players": "2"}, "num_players"),
        ({"players": 2}, "unknown option.*players.*allowed options"),
        ({"two_player_variant": True}, "unknown option.*two_player_variant"),
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
    env = labyrinth_env.raw_env(ENV_ID, num_players=3, ask_crystal=False)
    env.reset(seed=0)
    before = env.record.tobytes()
    log_before = list(env.game_log)
    illegal = K.A_PLACE + 5
    with pytest.raises(
        ValueError, match=rf"illegal action {illegal} \(build field at .* rotation 5\).*pending decision: action"
    ):
        env.step(illegal)
    assert env.record.tobytes() == before and env.game_log == log_before
    with pytest.raises(ValueError, match=r"illegal action \d+ \(keep the throw\).*pending decision: action"):
        env.step(K.A_KEEP)
    check_bad_action_types(env, K.NUM_ACTIONS, "build")
    env2 = labyrinth_env.raw_env(ENV_ID, num_players=2, ask_crystal=False)
    env2.reset(seed=0)
    assert env2.pending_decision() == "choose a start field"
    before = env2.record.tobytes()
    with pytest.raises(ValueError, match=r"\(build\).*pending decision: choose a start field"):
        env2.step(K.A_BUILD)
    assert env2.record.tobytes() == before


def test_illegal_action_wrapped_env_terminates_with_penalty():
    check_illegal_wrapped(ENV_ID, K.A_KEEP, num_players=3, ask_crystal=False)


def test_step_before_reset_is_an_error():
    check_step_before_reset(ENV_ID)


def test_action_names_round_trip_in_the_rulebooks_words():
    env = labyrinth_env.raw_env(ENV_ID)
    names = [env.action_to_str(a) for a in range(K.NUM_ACTIONS)]
    assert len(set(names)) == K.NUM_ACTIONS
    for a in range(K.NUM_ACTIONS):
        assert env.str_to_action(names[a]) == a
    assert names[K.A_JUMP_DOWN] == "jump down" and names[K.A_COME_DOWN] == "come down"
    assert names[K.A_CLIMB_UP] == "climb up" and names[K.A_MOVE_GUARD] == "move the guard"
    assert env.str_to_action("Move the  Guard") == K.A_MOVE_GUARD
    assert names[K.A_REGENERATE] == "regenerate the fate crystal" and names[K.A_REST] == "rest"
    assert names[K.A_MOVE + 5] == "move north-east" and names[K.A_GUARD_DIR + 2] == "guard steps south-west"
    assert env.str_to_action("move  East") == K.A_MOVE and names[K.A_START_FIELD + 3] == "choose start field 3"
    with pytest.raises(ValueError, match="no action is named"):
        env.str_to_action("dance")
    with pytest.raises(ValueError, match="out of range"):
        env.action_to_str(K.NUM_ACTIONS)


def test_truncation_by_max_turns_gives_zero_rewards():
    check_truncation(ENV_ID, K.A_END_TURN, num_players=3, max_turns=3, ask_crystal=False)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_render_ansi(num_players):
    env = labyrinth_env.make(ENV_ID, num_players=num_players, render_mode="ansi")
    play_random(env, 2, max_steps=80)
    text = env.render()
    assert isinstance(text, str) and "turn" in text and "decision" in text and "guard" in text
    assert all(f"player {p} at" in text for p in range(num_players))


@pytest.mark.parametrize("num_players", PLAYERS)
def test_text_board_names_fields_as_the_actions_do_with_a_key(num_players):
    """Every field a legal action names is labelled on the map, players and the Guard stand
    where the record says, directions point where their names say (``check_text_board``)."""
    env = labyrinth_env.raw_env(ENV_ID, num_players=num_players)
    assert check_text_board(env, seed=num_players, steps=250, figure="guard_node") > 50
    text = env.render_text()
    assert "G the Guard (g asleep)" in text and "S a start field (start 0-5)" in text


def test_text_board_drawn_field_rotations_and_hidden_traps():
    env = labyrinth_env.raw_env(ENV_ID, num_players=3)
    env.reset(seed=1)
    s = env.record
    text = env.render_text()
    assert glyph_above(text, "(0,0)").startswith("C") and glyph_above(text, "(3,0)") == "Kk0"
    assert map_captions(text)["start 0"][0] == map_captions(text)["(3,0)"][0]  # beyond key field 0, eastwards
    # a face-down trap shows only as ^; its name once it lies face up
    node = int(K.KEY_NODES[1])
    s["node_trap"][node] = 0
    trap = C.TRAP_NAMES[int(C.TRAP_TOKENS[0])]
    text = env.render_text()
    assert glyph_above(text, "(3,-3)") == "K^k1" and trap not in text
    s["trap_up"][node] = 1
    text = env.render_text()
    assert glyph_above(text, "(3,-3)") == "K!k1" and f"face-up traps: (3,-3) {trap}" in text
    # the drawn field: its corridors in each rotation, by direction
    s["drawn_tile"] = C.TILE_NAMES.index("Stone Bridge")
    text = env.render_text()
    assert "drawn field: Stone Bridge" in text and "rotation 0: E-W bridge, SE-NW under" in text
    assert "rotation 1: SE-NW bridge, SW-NE under" in text


@pytest.mark.parametrize("num_players", [2, 5])
def test_main_mask_equals_the_rule_per_action(num_players):
    # at every main decision of random games, legal_mask equals action_legal action by action
    what = f"{num_players} players"
    opts = _options(num_players, max_turns=80)
    assert check_random_games(K, *CHECKS, opts, 60, 5 + num_players, what, checks=CHECK_MAIN_MASK)[7] > 3000
    chars = _options(num_players, max_turns=80, characters="random")
    out = check_random_games(K, *CHECKS, chars, 60, 9 + num_players, what + " with characters", checks=CHECK_MAIN_MASK)
    assert out[7] > 3000, "with the skills"


# --- with characters: the same API, seeding, replay and hidden-information checks ----------------------
CHARS = {"characters": "random"}


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_pettingzoo_api_and_seed_with_characters(num_players):
    check_pettingzoo_api(ENV_ID, num_players=num_players, **CHARS)
    check_pettingzoo_seed(ENV_ID, num_players=num_players, **CHARS)
    check_pettingzoo_api(ENV_ID, num_players=num_players, characters="random", character_draft=True)


def test_replay_with_characters_and_the_draft(tmp_path):
    events = {"start_turn", "character", "move"}
    check_replay(tmp_path, ENV_ID, 13, events, num_players=4, max_turns=60, **CHARS)
    check_replay(tmp_path, ENV_ID, 14, events, num_players=3, max_turns=60, characters="random", character_draft=True)


@pytest.mark.parametrize("num_players", [3, 5])
def test_determinize_keeps_the_observation_with_characters(num_players):
    def state(n: int, seed: int, steps: int, **options):
        return random_state(n, seed, steps, **CHARS, **options)

    check_determinize_keeps_observations(state, num_players, K, B, _determinize_one, _invariant_error)


def test_hidden_traps_second_traps_and_piles_never_reach_the_observation_with_characters():
    def reorder(s):
        n = int(s["trap_pool_len"])
        s["trap_pool"][:n] = s["trap_pool"][:n][::-1].copy()
        down = [x for x in range(K.NUM_NODES) if s["node_trap2"][x] >= 0 and not s["trap2_up"][x]]
        tokens = [int(s["node_trap2"][x]) for x in down]
        for x, t in zip(down, tokens[::-1], strict=True):
            s["node_trap2"][x] = t
        s["rng"][0] = np.uint64(12345)

    for seed in range(4):
        env = random_state(
            5, 30 + seed, 400, max_turns=1_000_000, characters=["Head Hunter", "Witch", "Monk", "Thief", "Architect"]
        )
        check_unseen(env, reorder)


def _swap_hidden_fields(s: np.void, rng: np.random.Generator) -> bool:
    """Deal the unknown board fields (the pile and every face-down field not being turned
    face up) again at random, in place; False if no field lies face down."""
    n = int(s["tile_pool_len"])
    cells = [c for c in range(K.NUM_BOARD) if s["fd_owner"][c] >= 0 and c != s["rv_cell"]]
    if not cells:
        return False
    unknown = rng.permutation(np.array([*s["tile_pool"][:n].tolist(), *(int(s["fd_tile"][c]) for c in cells)]))
    s["tile_pool"][:n] = unknown[:n]
    for i, c in enumerate(cells):
        s["fd_tile"][c] = unknown[n + i]
    return True


@pytest.mark.parametrize("num_players", [2, 4])
def test_face_down_fields_never_reach_another_seat_over_whole_games(num_players):
    """Spreading Illusion (l.380-381): the face-down fields (and the pile) dealt again at
    random at every step of whole games: every seat's observation, who is asked and what,
    the legal actions, the heuristic's choice and the text board stay the same; only the
    field being turned face up is shown."""
    from labyrinth_env.rulesets.paths_of_destiny_2011 import heuristic as H
    from labyrinth_env.rulesets.paths_of_destiny_2011.env import render_text

    names = ["Illusionist", "Witch", "Thief", "Monk"][:num_players]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    mask2 = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    checked = 0
    uncovered = 0
    for g in range(8):
        chars = names[g % num_players :] + names[: g % num_players]
        env = labyrinth_env.raw_env(ENV_ID, num_players=num_players, characters=chars, max_turns=50)
        env.reset(seed=700 + g)
        rng = np.random.default_rng(g)
        while int(env.record["outcome"]) == K.RUNNING:
            s = env.record
            other = np.array([s]).copy()
            if _swap_hidden_fields(other[0], rng):
                checked += 1
                for p in range(num_players):
                    a, b = (
                        np.zeros(K.OBS_SIZE, np.float32),
                        np.zeros(K.OBS_SIZE, np.float32),
                    )
                    K.observe(s, p, a)
                    K.observe(other[0], p, b)
                    assert np.array_equal(a, b), f"seat {p} sees a hidden field, game {g}"
                assert (int(other[0]["decision"]), int(other[0]["decider"])) == (
                    int(s["decision"]),
                    int(s["decider"]),
                )
                h1 = H.heuristic_action(s, mask)
                h2 = H.heuristic_action(other[0], mask2)
                assert np.array_equal(mask, mask2) and h1 == h2, f"a hidden field shows in the mask, game {g}"
                assert render_text(s) == render_text(other[0])
            uncovered += int(int(s["decision"]) == K.D_UNCOVER)
            legal = env.legal_actions()
            illusion = K.A_SKILL in legal and int(s["decision"]) == K.D_MAIN
            a = K.A_SKILL if illusion and rng.random() < 0.5 else None
            if a is None:
                a = H.heuristic_action(env.record, mask) if rng.random() < 0.6 else int(rng.choice(legal))
            env.step(int(a))
    assert checked > 200 and uncovered > 0, (checked, uncovered)
