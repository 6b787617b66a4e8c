"""Team Edition through the AEC env: PettingZoo API and seeding, long random runs with
invariants, determinism, replays, hidden information and bad input."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from generic_env_checks import (
    check_bad_action_types,
    check_illegal_wrapped,
    check_pettingzoo_api,
    check_pettingzoo_seed,
    check_step_before_reset,
    play_random,
)
from numba import njit

import labyrinth_env
from labyrinth_env import get_spec
from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.team_edition import components as C
from labyrinth_env.rulesets.team_edition import kernel as K
from labyrinth_env.rulesets.team_edition.env import cell_name
from labyrinth_env.rulesets.team_edition.render import _LETTER


def text_letter(treasure: int) -> str:
    return _LETTER[treasure]


B = get_spec("team_edition_v2").loops  # the ruleset's batched loops and single-game entry points

ENV_ID = "team_edition_v2"
VARIANTS = ("introductory", "standard", "expert")
CASES = [(n, v) for n in (1, 2, 3, 4) for v in VARIANTS]


@pytest.mark.parametrize(("num_players", "variant"), CASES)
def test_pettingzoo_api_test(num_players, variant):
    check_pettingzoo_api(ENV_ID, num_cycles=200, num_players=num_players, variant=variant)


@pytest.mark.parametrize(("num_players", "variant"), CASES)
def test_pettingzoo_seed_test(num_players, variant):
    check_pettingzoo_seed(ENV_ID, num_cycles=200, num_players=num_players, variant=variant)


def test_api_test_raw_env_and_public_memory():
    check_pettingzoo_api(ENV_ID, raw=True, num_cycles=200, num_players=3, public_memory=True)


@njit(cache=True)
def _invariant_error(s) -> int:
    """0 if the state is sound, else a code naming the broken invariant (the first check's
    that fails)."""
    for err in (_treasures_error(s), _board_error(s), _turn_error(s)):
        if err != 0:
            return err
    return 0


@njit(cache=True)
def _treasures_error(s) -> int:
    """The treasures: collected, on a board or in the deck, each once (1-4)."""
    n = s.num_players
    where = np.zeros(K.NUM_TREASURES, dtype=np.int64)
    for t in range(K.NUM_TREASURES):
        if s.collected[t]:
            where[t] += 1
    for p in range(n):
        if s.slots[p, 1] >= 0 and s.slots[p, 0] < 0:
            return 1  # boards fill from the left
        for k in range(2):
            if s.slots[p, k] >= 0:
                where[s.slots[p, k]] += 1
    for p in range(n, K.NUM_SEATS):
        if s.slots[p, 0] >= 0 or s.slots[p, 1] >= 0 or s.piece[p] != -1:
            return 2  # seats not in play hold nothing
    for i in range(s.treasure_pos, K.NUM_TREASURES):
        where[s.treasure_deck[i]] += 1
    for t in range(K.NUM_TREASURES):
        if where[t] != 1:
            return 3  # each treasure collected, on one board, or in the deck: exactly once
    total = 0
    for t in range(K.NUM_TREASURES):
        total += s.collected[t]
    if total != s.num_collected:
        return 4
    return 0


@njit(cache=True)
def _board_error(s) -> int:
    """The tiles, the printed spaces and the pieces (5-9)."""
    n = s.num_players
    seen = np.zeros(K.NUM_TILES, dtype=np.int64)
    for cell in range(K.NUM_CELLS):
        seen[s.cell_tile[cell]] += 1
    seen[s.spare] += 1
    for t in range(K.NUM_TILES):
        if seen[t] != 1:
            return 5  # every tile in exactly one place (each uncollected treasure on one tile)
    if s.spare >= K.NUM_LOOSE or s.tile_down[s.spare]:
        return 6  # the spare is a loose tile lying face up
    for k in range(K.FIXED_CELLS.shape[0]):
        tile = s.cell_tile[K.FIXED_CELLS[k]]
        if tile != K.NUM_LOOSE + k or s.tile_rot[tile] != 0 or s.tile_down[tile]:
            return 7  # printed spaces never move, turn or flip
    for p in range(n):
        cell = s.piece[p]
        if cell < 0 or cell >= K.NUM_CELLS:
            return 8  # every piece stands on the board
    if s.outcome == K.RUNNING and s.decision != K.DECISION_MAIN:
        cell = s.flip_cell
        if cell != s.piece[s.seat] or s.tile_down[s.cell_tile[cell]] != (s.decision == K.DECISION_FLIP):
            return 9  # the tile stopped on is face down until flipped, face up while turned
    return 0


@njit(cache=True)
def _turn_error(s) -> int:
    """The turn's collections, the Book's pages (10-12)."""
    if s.collected_this_turn > 2:
        return 10
    if s.outcome == K.RUNNING and s.turn >= s.num_pages:
        return 11
    for kind in range(3):
        count = 0
        for i in range(s.num_pages):
            count += s.pages[i, 0] == kind
        if count != s.options[K.OPT_DECK + kind]:
            return 12  # the Book holds the chosen number of pages of each kind
    return 0


@njit(cache=True)
def _random_games(states, options, num_games: int, seed: int, out) -> None:
    """Play random games in the kernel, checking invariants after every step.
    out: [games ended, steps, first error code, wins, total collected]."""
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed * 7919 + 1)
    for g in range(num_games):
        K.init(s, np.uint64(seed * 100_003 + g), options)
        err = _invariant_error(s)
        steps = 0
        while s.outcome == K.RUNNING and err == 0:
            K.legal_mask(s, mask)
            if mask.sum() == 0:
                err = 20  # never all-false while the game runs
                break
            a = B.random_legal_action(s, mask, rng)
            if not K.step(s, a):
                err = 21
                break
            steps += 1
            err = _invariant_error(s)
            if steps > 5000:
                err = 22  # a game must end
        if err != 0:
            out[2] = err
            return
        out[0] += 1
        out[1] += steps
        out[3] += 1 if s.outcome == K.WON else 0
        out[4] += s.num_collected


@pytest.mark.parametrize("variant", VARIANTS)
def test_2000_random_games_end_with_invariants(variant):
    out = np.zeros(5, dtype=np.int64)
    for n in (1, 2, 3, 4):
        opts = labyrinth_env.raw_env(ENV_ID, num_players=n, variant=variant).options_vector()
        _random_games(new_states(K, 1), opts, 500, n, out)
        assert out[2] == 0, f"invariant {out[2]} broken with {n} players ({variant})"
    assert out[0] == 2000
    assert out[4] > 0  # random play does collect treasures


def test_random_games_small_deck_and_public_memory_end():
    out = np.zeros(5, dtype=np.int64)
    env = labyrinth_env.raw_env(
        ENV_ID,
        num_players=2,
        variant="standard",
        public_memory=True,
        daedalus_deck={"push": 1, "flip": 0, "teleport": 0},
    )
    _random_games(new_states(K, 1), env.options_vector(), 300, 9, out)
    assert out[2] == 0 and out[0] == 300


def test_same_seed_same_game_different_seed_different_game():
    def run(seed: int):
        env = labyrinth_env.make(ENV_ID, num_players=3, variant="standard")
        actions = play_random(env, seed, max_steps=10_000)
        return actions, env.unwrapped.game_log

    a1, log1 = run(5)
    a2, log2 = run(5)
    _, log3 = run(6)
    assert a1 == a2 and log1 == log2
    assert log1 != log3
    starts = set()
    for seed in range(20):
        env = labyrinth_env.raw_env(ENV_ID, num_players=2)
        env.reset(seed=seed)
        starts.add(env.record["cell_tile"].tobytes() + env.record["pages"].tobytes())
    assert len(starts) == 20


def test_replay_reproduces_log(tmp_path):
    env = labyrinth_env.make(ENV_ID, num_players=4, variant="expert", max_turns=10)
    play_random(env, 11, max_steps=10_000)
    path = tmp_path / "game.json"
    env.unwrapped.save_replay(path)
    data = json.loads(path.read_text())
    assert data["env_id"] == ENV_ID and data["options"]["max_turns"] == 10
    replayed = labyrinth_env.load_replay(path)
    assert replayed.game_log == env.unwrapped.game_log
    assert replayed.record.tobytes() == env.unwrapped.record.tobytes()


def test_replay_of_unfinished_game_can_continue(tmp_path):
    env = labyrinth_env.raw_env(ENV_ID, num_players=2)
    env.reset(seed=3)
    for _ in range(5):
        env.step(env.legal_actions()[0])
    env.save_replay(tmp_path / "r.json")
    again = labyrinth_env.load_replay(tmp_path / "r.json")
    assert again.game_log == env.game_log
    again.step(again.legal_actions()[-1])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ("[]", "JSON object"),
        ('{"format": "x"}', "format"),
        ('{"format": "labyrinth-env-replay", "version": 1, "env_id": "team_edition_v2", "options": {}}', "missing key"),
        (
            '{"format": "labyrinth-env-replay", "version": 1, "env_id": "nope_v0", "options": {},'
            ' "seed": 1, "actions": []}',
            "unknown env id",
        ),
        (
            '{"format": "labyrinth-env-replay", "version": 1, "env_id": "team_edition_v2", "options":'
            ' {"num_players": 9}, "seed": 1, "actions": []}',
            "num_players",
        ),
        (
            '{"format": "labyrinth-env-replay", "version": 1, "env_id": "team_edition_v2", "options": {},'
            ' "seed": 1, "actions": ["a"]}',
            "not an int",
        ),
        (
            '{"format": "labyrinth-env-replay", "version": 1, "env_id": "team_edition_v2", "options": {},'
            ' "seed": 1, "actions": [342]}',
            "action #0",
        ),
        (
            '{"format": "labyrinth-env-replay", "version": 1, "env_id": "team_edition_v2", "options": {},'
            ' "seed": 1, "actions": [], "log_sha256": "00"}',
            "differ from the recorded",
        ),
    ],
)
def test_malformed_replay_gets_clear_error(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        labyrinth_env.load_replay(path)


def test_missing_replay_file():
    with pytest.raises(ValueError, match="does not exist"):
        labyrinth_env.load_replay("/nonexistent/replay.json")


def test_unknown_env_id():
    with pytest.raises(ValueError, match=r"unknown env id 'team_edition_v9'.*team_edition_v2"):
        labyrinth_env.make("team_edition_v9")
    assert ENV_ID in labyrinth_env.list_envs()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 0}, "num_players=0.*1 to 4"),
        ({"num_players": 5}, "num_players=5"),
        ({"num_players": "2"}, "num_players"),
        ({"players": 2}, "unknown option.*players.*allowed options"),
        ({"variant": "hard"}, "variant='hard'.*introductory"),
        ({"public_memory": "yes"}, "public_memory"),
        ({"max_turns": 0}, "max_turns"),
        ({"daedalus_deck": {"push": 100}}, "1 to 60 pages"),
        ({"daedalus_deck": {"push": 0}}, "1 to 60 pages"),
        ({"daedalus_deck": {"shuffle": 3}}, "unknown page kind"),
        ({"daedalus_deck": [1, 2]}, "daedalus_deck"),
        ({"spells": ["switch", "escape"]}, "only for variant"),
        ({"variant": "standard", "spells": ["switch"]}, "one spell per player"),
        ({"variant": "standard", "spells": ["switch", "switch"]}, "same spell"),
        ({"variant": "standard", "spells": ["switch", "fly"]}, "unknown spell 'fly'"),
    ],
)
def test_bad_options_get_clear_errors(options, message):
    with pytest.raises(ValueError, match=message):
        labyrinth_env.make(ENV_ID, **options)


def test_bad_render_mode():
    with pytest.raises(ValueError, match="render_mode"):
        labyrinth_env.make(ENV_ID, render_mode="video")


def test_illegal_action_raw_env_raises_and_leaves_state_unchanged():
    env = labyrinth_env.raw_env(ENV_ID, num_players=2)
    env.reset(seed=0)
    before = env.record.tobytes()
    log_before = list(env.game_log)
    illegal = K.A_ORIENT  # no tile is waiting for an orientation
    with pytest.raises(ValueError, match=r"illegal action 342 \(flip face up turn 0\).*pending decision: spell, move"):
        env.step(illegal)
    assert env.record.tobytes() == before
    assert env.game_log == log_before and env.actions_taken == []
    check_bad_action_types(env, K.NUM_ACTIONS, "push")


def test_illegal_action_wrapped_env_terminates_with_penalty():
    check_illegal_wrapped(ENV_ID, K.A_ORIENT, num_players=2)


def test_step_before_reset_is_an_error():
    check_step_before_reset(ENV_ID)


def test_action_names_round_trip():
    env = labyrinth_env.raw_env(ENV_ID)
    names = [env.action_to_str(a) for a in range(K.NUM_ACTIONS)]
    assert len(set(names)) == K.NUM_ACTIONS
    for a in (0, 47, K.A_MOVE + 24, K.A_ROTATE + 5, K.A_SWITCH + 3, K.A_ORIENT + 2, K.A_END):
        assert env.str_to_action(env.action_to_str(a)) == a
    assert names[K.A_ROTATE + 3 * 16] == "rotate r2c2 clockwise 1/4 turn"
    assert names[K.A_ROTATE + 3 * 16 + 2] == "rotate r2c2 clockwise 3/4 turn"
    assert names[K.A_PUSH + 4 * 1 + 2] == "push top col 3 turn 2" and names[K.A_SWITCH + 1] == "switch r0c0 with south"
    assert env.str_to_action("  End   Turn ") == K.A_END
    with pytest.raises(ValueError, match="no action is named"):
        env.str_to_action("dance")


def test_truncation_by_max_turns():
    env = labyrinth_env.make(ENV_ID, num_players=2, max_turns=3)
    env.reset(seed=1)
    while not any(env.truncations.values()):
        env.step(K.A_END)
    assert int(env.unwrapped.record["turn"]) == 3
    assert not any(env.terminations.values())
    assert all(r == 0 for r in env._cumulative_rewards.values())


def test_cooperative_rewards_all_equal():
    env = labyrinth_env.make(ENV_ID, num_players=3)
    env.reset(seed=2)
    while not any(env.terminations.values()):
        env.step(K.A_END)
    assert {k: v for k, v in env.unwrapped.game_log[-1].items() if k != "text"} == {
        "type": "game_end",
        "outcome": "lost",
        "collected": 0,
    }
    assert set(env._cumulative_rewards.values()) == {-1.0}


def test_observation_fixed_shape_for_every_player_count():
    shapes = set()
    for n in (1, 2, 3, 4):
        env = labyrinth_env.make(ENV_ID, num_players=n)
        env.reset(seed=0)
        obs = env.observe(env.agent_selection)
        shapes.add((obs["observation"].shape, obs["action_mask"].shape, obs["observation"].dtype))
        assert env.observation_space(env.agent_selection).contains(obs)
    assert len(shapes) == 1


def test_observation_is_egocentric():
    env = labyrinth_env.raw_env(ENV_ID, num_players=3)
    env.reset(seed=4)
    s = env.record
    for seat in range(3):
        obs = env.observe(f"player_{seat}")["observation"]
        own = obs[K.P_PIECE * K.NUM_CELLS : (K.P_PIECE + 1) * K.NUM_CELLS]
        assert own[s["piece"][seat]] == 1.0  # relative seat 0 is the observer
        nxt = obs[(K.P_PIECE + 1) * K.NUM_CELLS : (K.P_PIECE + 2) * K.NUM_CELLS]
        assert nxt[s["piece"][(seat + 1) % 3]] == 1.0
        padding = obs[(K.P_PIECE + 3) * K.NUM_CELLS : (K.P_PIECE + 4) * K.NUM_CELLS]
        assert padding.sum() == 0.0  # the fourth seat is not in play
    # only the acting agent sees a mask
    others = [a for a in env.agents if a != env.agent_selection]
    assert all(env.observe(a)["action_mask"].sum() == 0 for a in others)


def _face_down_cell(env) -> int:
    s = env.record
    for cell in C.LOOSE_CELLS:
        tile = s["cell_tile"][cell]
        if C.TILE_TREASURE[tile] >= 0 and not (s["piece"] == cell).any():
            return int(cell)
    raise AssertionError("no loose treasure tile in the maze")


@pytest.mark.parametrize("memory", [False, True])
def test_face_down_treasures_hidden_unless_public_memory(memory):
    env = labyrinth_env.raw_env(ENV_ID, num_players=2, public_memory=memory)
    env.reset(seed=8)
    cell = _face_down_cell(env)
    tile = env.record["cell_tile"][cell]
    treasure = int(C.TILE_TREASURE[tile])
    env._states[0]["tile_down"][tile] = 1
    K.refresh_board(env._states[0])
    obs = env.observe("player_0")["observation"]
    planes = obs[: K.NUM_PLANES * K.NUM_CELLS].reshape(K.NUM_PLANES, K.NUM_CELLS)
    assert planes[K.P_DOWN, cell] == 1.0
    assert planes[K.P_OPEN : K.P_OPEN + 4, cell].sum() == 0.0  # no paths of a face-down tile
    assert planes[K.P_TREASURE + treasure, cell] == (1.0 if memory else 0.0)


def test_deck_orders_never_reach_the_observation():
    env = labyrinth_env.raw_env(ENV_ID, num_players=2)
    env.reset(seed=9)
    obs = env.observe("player_0")["observation"].copy()
    s = env._states[0]
    pos = int(s["page_pos"])
    s["pages"][pos:24] = s["pages"][pos:24][::-1].copy()
    tpos = int(s["treasure_pos"])
    s["treasure_deck"][tpos:] = s["treasure_deck"][tpos:][::-1].copy()
    assert np.array_equal(env.observe("player_0")["observation"], obs)


def test_determinize_keeps_what_the_seat_knows():
    env = labyrinth_env.raw_env(ENV_ID, num_players=2)
    env.reset(seed=10)
    s = env.record
    copy = env._states.copy()
    K.determinize(copy[0], 0, np.uint64(123))
    obs = env.observe("player_0")["observation"]
    other = np.zeros(K.OBS_SIZE, dtype=np.float32)
    K.observe(copy[0], 0, other)
    assert np.array_equal(obs, other)
    assert copy[0]["pages"].tobytes() != s["pages"].tobytes()


@pytest.mark.parametrize("memory", [None, False])
def test_determinize_keeps_every_publicly_known_treasure_where_it_is(memory):
    """Issue 19, item 1: which tile lies under each face-down tile is public history (every
    tile was seen face up and every change since was public), so ``determinize`` samples
    only what nobody has seen (the unread pages and the treasure deck) and never moves a
    tile, whether or not the observation recalls it (``public_memory``). Over whole
    random games, at every step."""
    options = {} if memory is None else {"public_memory": memory}
    env = labyrinth_env.raw_env(ENV_ID, num_players=3, variant="standard", **options)
    rng = np.random.default_rng(7)
    checked = face_down = 0
    for seed in range(4):
        env.reset(seed=seed)
        step = 0
        while int(env.record["outcome"]) == K.RUNNING:
            s = env.record
            copy = env._states.copy()
            K.determinize(copy[0], int(s["seat"]), np.uint64(1000 * seed + step))
            d = copy[0]
            down = s["tile_down"][s["cell_tile"]].astype(bool)
            face_down += int(down.sum())
            assert np.array_equal(d["cell_tile"], s["cell_tile"]) and int(d["spare"]) == int(s["spare"])
            assert np.array_equal(d["tile_down"], s["tile_down"])
            pos = int(s["page_pos"])
            assert np.array_equal(d["pages"][:pos], s["pages"][:pos]), "the pages read stay read"
            assert sorted(d["pages"][pos:24, 0].tolist()) == sorted(s["pages"][pos:24, 0].tolist())
            tpos = int(s["treasure_pos"])
            assert sorted(d["treasure_deck"][tpos:].tolist()) == sorted(s["treasure_deck"][tpos:].tolist())
            checked += 1
            step += 1
            env.step(int(rng.choice(env.legal_actions())))
    assert checked > 200 and face_down > 500


def test_determinize_deals_unread_pages_from_what_nobody_has_seen():
    """Which Flip and Teleport cards a game's Book holds is dealt at random (item 4), so it
    is hidden like their order: a determinized Book is a valid Book that keeps the pages
    read, and it does not depend on the true unread cards."""
    env = labyrinth_env.raw_env(ENV_ID, num_players=4)
    env.reset(seed=21)
    for _ in range(5):
        env.step(K.A_END)
    s = env.record
    pos = int(s["page_pos"])
    variants = set()
    for seed in range(40):
        copy = env._states.copy()
        K.determinize(copy[0], int(s["seat"]), np.uint64(seed))
        pages = [tuple(p) for p in copy[0]["pages"][:24].tolist()]
        assert pages[:pos] == [tuple(p) for p in s["pages"][:pos].tolist()]
        flips = [p for p in pages if p[0] == C.PAGE_FLIP]
        assert len(flips) == 6 and len(set(flips)) == 6 and set(flips) <= set(C.FLIP_POOL)
        assert sorted(p for p in pages if p[0] == C.PAGE_PUSH) == sorted(C.PUSH_POOL)
        teleports = [p for p in pages if p[0] == C.PAGE_TELEPORT]
        assert len(set(teleports)) == 6 and set(teleports) <= set(C.TELEPORT_POOLS[4])
        variants.add(frozenset(flips))
    assert len(variants) > 5, "the unread Flip cards are resampled, not kept"
    # swap an unread Flip card for one the Book does not hold: the same samples
    unread = [i for i in range(pos, 24) if s["pages"][i, 0] == C.PAGE_FLIP]
    held = {tuple(p) for p in s["pages"][:24].tolist()}
    absent = next(p for p in C.FLIP_POOL if p not in held)
    other = env._states.copy()
    other[0]["pages"][unread[0]] = absent
    for seed in range(5):
        a, b = env._states.copy(), other.copy()
        K.determinize(a[0], int(s["seat"]), np.uint64(seed))
        K.determinize(b[0], int(s["seat"]), np.uint64(seed))
        assert a.tobytes() == b.tobytes()


PAGE = "The Book of Daedalus turns a page: "  # a page event's sentence (game_log's "text")


@pytest.mark.parametrize("kind", ["push", "flip", "teleport"])
def test_opening_page_is_logged_like_every_other_page(kind):
    """Issue 19, item 5: the first page is read while ``reset`` sets the game up; its page
    event and its effects are in the game log and the observation, as every later page's."""
    deck = {"push": 0, "flip": 0, "teleport": 0, kind: 2}
    env = labyrinth_env.raw_env(ENV_ID, num_players=4, daedalus_deck=deck)
    env.reset(seed=5)
    s = env.record
    first = s["pages"][0].tolist()
    log = list(env.game_log)
    starts = [i for i, e in enumerate(log) if e["type"] == "start_turn"]
    assert len(starts) == 1 and log[starts[0]]["turn"] == 0
    page = log[starts[0] + 1]
    assert page == {"type": "daedalus_page", "seat": 0, "kind": kind, "text": PAGE + C.describe_page(first) + "."}
    effect = {"push": "daedalus_push", "flip": "daedalus_flip", "teleport": "sent_home"}[kind]
    assert any(e["type"] == effect for e in log[starts[0] + 2 :]), "and what the page did"
    for agent in env.agents:
        obs = env.observe(agent)["observation"]
        assert obs[K.OBS_GLOBAL + K.G_LAST_PAGE + C.PAGE_KINDS.index(kind)] == 1.0
        if kind == "push":
            assert obs[K.OBS_GLOBAL + K.G_LAST_PAGE + 3 + first[1]] == 1.0
    env.step(K.A_END)
    second = [e for e in env.game_log[len(log) :] if e["type"] == "daedalus_page"]
    assert second == [
        {"type": "daedalus_page", "seat": 1, "kind": kind, "text": PAGE + C.describe_page(s["pages"][1]) + "."}
    ]


def test_render_ansi_shows_board_and_panel():
    env = labyrinth_env.make(ENV_ID, num_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "to act: yellow" in text and "Daedalus pages left" in text
    assert len(text.splitlines()) >= 23


def board_cells(text: str) -> dict[str, list[str]]:
    """Each cell's three lines on the board, found by its row label (``r2``, on the row's
    middle line) and its column label (``c4``, in the first line)."""
    lines = text.splitlines()
    cols = {m.group(1): m.start() - 2 for m in re.finditer(r"c(\d)", lines[0])}
    rows = {m.group(1): i for i, line in enumerate(lines) if (m := re.match(r"r(\d) ", line))}
    assert sorted(cols) == sorted(rows) == [str(i) for i in range(C.SIZE)]
    return {
        f"r{r}c{c}": [lines[i + k][x : x + 5] for k in (-1, 0, 1)] for r, i in rows.items() for c, x in cols.items()
    }


@pytest.mark.parametrize(("num_players", "variant"), [(1, "introductory"), (2, "standard"), (4, "expert")])
def test_text_board_labels_cells_as_the_actions_do_and_has_a_key(num_players, variant):
    """Every cell a legal action names (``r2c4``) is found by the row and column labels;
    the pieces and every tile's walls sit where the record says; a face-down tile shows
    nothing but ``?`` (and the pieces on it); the spare (and a tile being flipped) is drawn
    in each ``turn k``; the key explains the marks."""
    env = labyrinth_env.raw_env(ENV_ID, num_players=num_players, variant=variant)
    env.reset(seed=10 + num_players)  # (v2: seed 4's random expert game had no flip)
    rng = np.random.default_rng(10 + num_players)
    flips = 0
    for _ in range(300):
        s = env.record
        text = env.render_text()
        assert max(len(line) for line in text.splitlines()) <= 100
        flat = " ".join(text.split())  # the key, however it is wrapped
        assert "key: rows r0-r6 and columns c0-c6" in flat and "v < ^ > the push arrows" in flat
        assert all(f"{C.COLORS[p][0].upper()} {C.COLORS[p]} (player {p})" in flat for p in range(num_players))
        assert "spare tile, as 'push ... turn k' lays it in:" in text and "turn 0  turn 1  turn 2  turn 3" in text
        cells = board_cells(text)
        for a in env.legal_actions():
            for name in re.findall(r"r\dc\d", env.action_to_str(a)):
                assert name in cells, env.action_to_str(a)
        for cell in range(C.NUM_CELLS):
            top, middle, bottom = cells[cell_name(cell)]
            pieces = [C.COLORS[p][0].upper() for p in range(num_players) if s["piece"][p] == cell]
            assert all(letter in middle for letter in pieces)
            tile = int(s["cell_tile"][cell])
            if s["tile_down"][tile]:
                # face down: no paths; the treasure the table recalls (public memory, the default)
                t = int(C.TILE_TREASURE[tile])
                recalled = {text_letter(t)} if t >= 0 and not s["collected"][t] else set()
                assert top == bottom == "?????" and set(middle) <= {"?", *pieces, *recalled}
            else:
                mask = int(s["open"][cell])
                assert (top == "#   #") == bool(mask & 1) and (bottom == "#   #") == bool(mask & 4)
                assert (middle[0] == " ") == bool(mask & 8) and (middle[4] == " ") == bool(mask & 2)
        if s["decision"] == K.DECISION_ORIENT:
            assert f"flipped tile at {cell_name(int(s['flip_cell']))}, as 'flip face up turn k' lays it:" in text
            flips += 1
        if int(s["outcome"]) != K.RUNNING:
            break
        env.step(int(rng.choice(env.legal_actions())))
    assert flips > 0 or variant == "introductory"
