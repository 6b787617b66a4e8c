"""Labyrinthos through the AEC env: PettingZoo API and seeding for 2-4 players and each
monster, thousands of random games with invariants checked after every step, determinism,
replays, hidden information, the egocentric observation, the vector env and bad input."""

from __future__ import annotations

import re

import numpy as np
import pytest
from generic_env_checks import (
    check_bad_action_types,
    check_illegal_wrapped,
    check_pettingzoo_api,
    check_pettingzoo_seed,
    check_replay,
    check_replay_continues,
    check_step_before_reset,
    determinizer,
    random_env,
)
from labyrinthos_helpers import B, options_vector
from numba import njit

import labyrinth_env
from labyrinth_env.core.contract import new_states
from labyrinth_env.rulesets.labyrinthos import components as C
from labyrinth_env.rulesets.labyrinthos import heuristic as H
from labyrinth_env.rulesets.labyrinthos import kernel as K
from labyrinth_env.rulesets.labyrinthos.env import cell_name

ENV_ID = "labyrinthos_v2"
PLAYERS = [2, 3, 4]
MONSTERS = list(C.MONSTER_NAMES)


# --- PettingZoo API --------------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYERS)
@pytest.mark.parametrize("monster", MONSTERS)
def test_pettingzoo_api_test(num_players, monster):
    check_pettingzoo_api(ENV_ID, num_cycles=150, num_players=num_players, monster=monster)


@pytest.mark.parametrize("num_players", PLAYERS)
@pytest.mark.parametrize("monster", MONSTERS)
def test_pettingzoo_seed_test(num_players, monster):
    check_pettingzoo_seed(ENV_ID, num_cycles=150, num_players=num_players, monster=monster)


def test_api_test_raw_env():
    check_pettingzoo_api(ENV_ID, raw=True, num_players=3)


def test_registered_with_module_pair():
    from labyrinth_env import labyrinthos_v2 as mod

    assert ENV_ID in labyrinth_env.list_envs()
    assert labyrinth_env.registry.player_range(ENV_ID) == (2, 4)
    assert isinstance(mod.env(), mod.raw_env) and mod.env().checked and not mod.raw_env().checked


# --- invariants over thousands of random games --------------------------------------------------------------
INVARIANTS = {
    1: "the 49 tiles are not a permutation, or the Door, starting or outer tiles left their places",
    2: "walls on the board plus the supply are not 30",
    3: "a tile has more than two walls around it (the wall limit)",
    4: "a key token is not in exactly one place (its pile or one action slot)",
    5: "a hero holds two keys of one colour",
    6: "wounds on boards plus the supply are not 40",
    7: "Feet or Hand tokens are not conserved (28 each) or negative",
    8: "Desperation cards are not conserved (deck, hands, discard pile per card)",
    9: "a hand holds more than 4 cards",
    10: "a hero stands on a face-down tile or off the maze",
    11: "the monster is on the board in the first round, off it later, or on a face-down tile",
    12: "something is still being resolved while the action decision is pending",
    13: "the task stack overflowed",
    14: "the winner is not on the Door tile with four keys",
    15: "the decider is not a seat in play",
    16: "a seat not in play holds something",
    17: "a Medusa or Cerberus card in another monster's game",
}


@njit(cache=True)
def invariant_error(s) -> int:
    """0 if the state is sound, else a code of ``INVARIANTS`` (the first check's that fails)."""
    for err in (_maze_error(s), _tokens_error(s), _cards_error(s), _seats_error(s), _turn_error(s)):
        if err != 0:
            return err
    return 0


@njit(cache=True)
def _maze_error(s) -> int:
    """The tiles (1), the walls (2) and the wall limit (3)."""
    seen = np.zeros(K.NUM_TILES, dtype=np.int64)
    for c in range(K.NUM_CELLS):
        seen[s.cell_tile[c]] += 1
    for t in range(K.NUM_TILES):
        if seen[t] != 1:
            return 1
    if s.cell_tile[K.DOOR_CELL] != C.DOOR_TILE or not s.cell_up[K.DOOR_CELL]:
        return 1
    for c in K.START_CELLS:
        if K.TILE_KIND[s.cell_tile[c]] != C.KIND_START:
            return 1
    walls = 0
    for e in range(K.NUM_EDGES):
        walls += s.wall[e]
    if walls + s.wall_supply != C.NUM_WALLS or s.wall_supply < 0:
        return 2
    for c in range(K.NUM_CELLS):
        if K.wall_count(s, c) > C.WALL_LIMIT:
            return 3
    return 0


@njit(cache=True)
def _tokens_error(s) -> int:
    """The heroes' boards and the supplies: a hero's keys one of a colour (5), every key
    token in one place (4), the wounds (6), the Feet and Hand tokens (7)."""
    places = np.zeros(K.NUM_KEY_TOKENS, dtype=np.int64)
    for k in range(K.NUM_KEY_TOKENS):
        places[k] += s.key_pile[k]
    if s.pending_token >= 0:  # taken from its pile, being placed on a slot
        places[s.pending_token] += 1
    wounds = 0
    for p in range(K.NUM_SEATS):
        colours = np.zeros(K.NUM_COLOURS, dtype=np.int64)
        for i in range(K.NUM_SLOTS):
            k = s.slot_key[p, i]
            if k >= 0:
                places[k] += 1
                colours[K.KEY_TOKEN_COLOUR[k]] += 1
            wounds += s.slot_wound[p, i]
        for col in range(K.NUM_COLOURS):
            if colours[col] > 1:
                return 5
    for k in range(K.NUM_KEY_TOKENS):
        if places[k] != 1:
            return 4
    if wounds + s.wound_supply != C.NUM_WOUND_TOKENS:
        return 6
    feet, hands = s.feet_supply, s.hand_supply
    for p in range(K.NUM_SEATS):
        if s.feet[p] < 0 or s.hands[p] < 0:
            return 7
        feet += s.feet[p]
        hands += s.hands[p]
    if feet != C.NUM_FEET_TOKENS or hands != C.NUM_HAND_TOKENS or s.feet_supply < 0 or s.hand_supply < 0:
        return 7
    return 0


@njit(cache=True)
def _cards_error(s) -> int:
    """The Desperation cards of the game's monster, each copy once (8), none of another's (17)."""
    cards = np.zeros(K.NUM_CARD_TYPES, dtype=np.int64)
    for i in range(s.deck_len):
        cards[s.deck[i]] += 1
    for t in range(K.NUM_CARD_TYPES):
        cards[t] += s.discard[t]
        for p in range(K.NUM_SEATS):
            cards[t] += s.hand[p, t]
    for t in range(K.NUM_CARD_TYPES):
        in_game = K.CARD_DECK[t] == C.MINOTAUR or K.CARD_DECK[t] == s.monster
        if cards[t] != (K.CARD_COPIES[t] if in_game else 0):
            return 8 if in_game else 17
    return 0


@njit(cache=True)
def _seats_error(s) -> int:
    """Hands within the limit (9), heroes on face-up tiles (10), the empty seats empty (16)."""
    n = s.num_players
    for p in range(n):
        if K.hand_size(s, p) > C.HAND_LIMIT:
            return 9
        if s.phase != K.PH_HERO:
            c = s.position[p]
            if c < 0 or c >= K.NUM_CELLS or not s.cell_up[c]:
                return 10
    for p in range(n, K.NUM_SEATS):
        if s.position[p] != -1 or s.feet[p] != 0 or s.hands[p] != 0 or K.hand_size(s, p) != 0:
            return 16
        for i in range(K.NUM_SLOTS):
            if s.slot_key[p, i] >= 0 or s.slot_wound[p, i]:
                return 16
    return 0


@njit(cache=True)
def _turn_error(s) -> int:
    """The monster (11), nothing left to resolve in the action decision (12), a seat in
    play decides (15), the task stack (13), the winner (14)."""
    m = s.monster_cell
    if K.first_round(s) != (m < 0):
        return 11
    if m >= 0 and not s.cell_up[m]:
        return 11
    if s.outcome == K.RUNNING:
        if s.decision == K.D_MAIN and (s.num_tasks != 0 or s.m_active):
            return 12
        if s.decider < 0 or s.decider >= s.num_players:
            return 15
    if s.task_overflow:
        return 13
    if s.outcome == K.WON:
        w = s.winner
        if s.position[w] != K.DOOR_CELL or K.keys_held(s, w) != K.NUM_COLOURS:
            return 14
    return 0


@njit(cache=True)
def _games(states, options, seeds, rng_seed: int, heuristic_seats: int, out) -> None:
    """Games in the kernel, the seats in the bit set ``heuristic_seats`` playing the
    heuristic and the others random legal actions, the invariants after every step:
    ``generic_env_checks.random_games`` written against this kernel (so numba caches it:
    the generic one takes the kernel's functions as arguments and compiles in every run),
    ``out`` and the loop's codes as there, and ``out[7]`` the games seat 0 won. One loop for
    the random and the heuristic games (``test_labyrinthos_agents``' too): each jitted loop
    links and emits the kernel's code once more."""
    s = states[0]
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(rng_seed)
    for g in range(seeds.shape[0]):
        K.init(s, seeds[g], options)
        err = invariant_error(s)
        steps = 0
        while s.outcome == K.RUNNING and err == 0:
            K.legal_mask(s, mask)
            if mask.sum() == 0:
                err = 20
                break
            if (heuristic_seats >> s.decider) & 1:
                a = H.heuristic_action(s, mask)
            else:
                a = B.random_legal_action(s, mask, rng)
            if not K.step(s, a):
                err = 21
                break
            steps += 1
            err = invariant_error(s)
            if steps > 100 * s.max_turns:
                err = 22
        if err == 0 and not (s.outcome == K.WON or (s.outcome == K.TRUNCATED and s.turn == s.max_turns)):
            err = 23
        if err != 0:
            out[2] = err
            out[5] = g
            out[6] = steps
            return
        out[0] += 1
        out[1] += steps
        out[3] += s.outcome == K.WON
        out[4] += s.outcome == K.TRUNCATED
        out[7] += s.outcome == K.WON and s.winner == 0


@pytest.mark.parametrize("num_players", PLAYERS)
@pytest.mark.parametrize("monster", MONSTERS)
def test_random_games_end_with_invariants_after_every_step(num_players, monster):
    vec = options_vector(num_players=num_players, monster=monster, max_turns=60)
    out = np.zeros(8, dtype=np.int64)
    seeds = np.uint64(num_players * 100_003) + np.arange(250, dtype=np.uint64)
    _games(new_states(K, 1), vec, seeds, num_players * 7919 + 1, 0, out)
    assert out[2] == 0, f"{INVARIANTS.get(int(out[2]), out[2])}: game {out[5]} step {out[6]}"
    assert out[0] == 250 and out[4] == 250 and out[1] > 250 * 60


@pytest.mark.parametrize("monster", MONSTERS)
def test_games_with_a_winner_keep_the_invariants(monster):
    # seat 0 plays the heuristic, the others at random
    out = np.zeros(8, dtype=np.int64)
    seeds = np.arange(60, dtype=np.uint64) + np.uint64(7)
    _games(new_states(K, 1), options_vector(num_players=3, monster=monster, max_turns=600), seeds, 12345, 1, out)
    assert out[2] == 0, f"{INVARIANTS.get(int(out[2]), out[2])}: game {out[5]} step {out[6]}"
    assert out[3] >= 50  # the heuristic beats random players


# --- determinism and replays ---------------------------------------------------------------------------------
def test_same_seed_same_game_different_seed_different_game():
    def play(seed):
        env = labyrinth_env.make(ENV_ID, num_players=3, max_turns=40)
        from generic_env_checks import play_random

        actions = play_random(env, seed)
        return actions, env.unwrapped.game_log

    a, log_a = play(3)
    b, log_b = play(3)
    _, log_c = play(4)
    assert a == b and log_a == log_b
    assert log_a != log_c


@pytest.mark.parametrize("monster", MONSTERS)
def test_replay_reproduces_log(tmp_path, monster):
    check_replay(
        tmp_path,
        ENV_ID,
        5,
        {"start_turn", "move", "refresh", "minotaur_die"},
        num_players=3,
        monster=monster,
        max_turns=40,
    )


def test_replay_of_unfinished_game_can_continue(tmp_path):
    env = random_env(ENV_ID, 2, 120, num_players=2)
    check_replay_continues(tmp_path, env)


# --- observation and hidden information --------------------------------------------------------------------
def test_observation_fixed_shape_for_every_player_count():
    shapes = set()
    for n in PLAYERS:
        env = labyrinth_env.make(ENV_ID, num_players=n)
        env.reset(seed=0)
        for agent in env.agents:
            obs = env.observe(agent)
            shapes.add((obs["observation"].shape, obs["action_mask"].shape, obs["observation"].dtype))
            assert env.observation_space(agent).contains(obs)
    assert shapes == {((K.OBS_SIZE,), (K.NUM_ACTIONS,), np.dtype(np.float32))}


def _cells(obs: np.ndarray) -> np.ndarray:
    return obs[: K.OBS_SEATS].reshape(K.NUM_CELLS, K.CELL_FEATURES)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_observation_is_egocentric(num_players):
    env = random_env(ENV_ID, 4, 150, num_players=num_players, max_turns=None)
    s = env.record
    for seat in range(num_players):
        obs = env.observe(f"player_{seat}")["observation"]
        cells = _cells(obs)
        for rel in range(num_players):
            p = (seat + rel) % num_players
            plane = cells[:, K.CF_HEROES + rel]
            assert plane[int(s["position"][p])] == 1.0 and plane.sum() == 1.0
            b = K.OBS_SEATS + rel * K.SEAT_FEATURES
            assert obs[b + K.SF_PRESENT] == 1.0 and obs[b + K.SF_HERO + int(s["hero"][p])] == 1.0
            assert np.array_equal(obs[b + K.SF_WOUND : b + K.SF_WOUND + 9], s["slot_wound"][p].astype(np.float32))
        for rel in range(num_players, K.NUM_SEATS):
            b = K.OBS_SEATS + rel * K.SEAT_FEATURES
            assert cells[:, K.CF_HEROES + rel].sum() == 0.0 and obs[b : b + K.SEAT_FEATURES].sum() == 0.0
        hand = obs[K.OBS_GLOBAL + K.G_HAND : K.OBS_GLOBAL + K.G_HAND + K.NUM_CARD_TYPES] * C.HAND_LIMIT
        assert np.allclose(hand, s["hand"][seat])
    others = [a for a in env.agents if a != env.agent_selection]
    assert all(env.observe(a)["action_mask"].sum() == 0 for a in others)


def test_face_down_tiles_show_nothing_but_walls():
    env = random_env(ENV_ID, 8, 200, num_players=3, max_turns=None)
    s = env.record
    down = [c for c in range(K.NUM_CELLS) if not s["cell_up"][c]]
    assert len(down) > 5
    for agent in env.agents:
        cells = _cells(env.observe(agent)["observation"])
        for c in down:
            row = cells[c].copy()
            row[K.CF_WALL : K.CF_WALL + 4] = 0
            assert row.sum() == 0.0


def test_hidden_tiles_hands_deck_and_rng_never_reach_the_observation():
    """Swapping two face-down tiles, the deck order, the other seats' hands and the RNG
    leaves each seat's observation unchanged."""
    env = random_env(ENV_ID, 9, 200, num_players=3, max_turns=None)
    for seat in range(3):
        name = f"player_{seat}"
        before = env.observe(name)["observation"].copy()
        saved = env._states.copy()
        s = env._states[0]
        down = [c for c in K.OUTER_CELLS if not s["cell_up"][c]]
        a, b = down[0], down[-1]
        s["cell_tile"][a], s["cell_tile"][b] = s["cell_tile"][b], s["cell_tile"][a]
        n = int(s["deck_len"])
        s["deck"][:n] = s["deck"][:n][::-1].copy()
        other = (seat + 1) % 3
        s["hand"][other] = np.roll(s["hand"][other], 3)
        s["rng"][0] ^= np.uint64(0xDEADBEEF)
        assert env.observe(name)["observation"].tobytes() == before.tobytes()
        env._states[:] = saved


# --- who is asked never tells a hand (issue 19, item 2) ---------------------------------------------------
HERMES, SIDESTEP, MIRROR, HONEY = 0, 8, 9, 12
DODGE_CARD = {"minotaur": SIDESTEP, "medusa": MIRROR, "cerberus": HONEY}


def _seat_masks(s, n: int) -> list[bytes]:
    """Each seat's action mask as the AEC env gives it: the decider's legal mask, zeros for the others."""
    out = []
    for p in range(n):
        m = np.zeros(K.NUM_ACTIONS, dtype=np.uint8)
        if int(s["outcome"]) == K.RUNNING and int(s["decider"]) == p:
            K.legal_mask(s, m)
        out.append(m)
    return out


def _seat_obs(states, n: int) -> list[bytes]:
    out = []
    for p in range(n):
        o = np.zeros(K.OBS_SIZE, dtype=np.float32)
        B.observe_one(states, p, o)
        out.append(o.tobytes())
    return out


def _hand_from_deck(s, seat: int, cards: list[int]) -> None:
    """Seat ``seat`` holds ``cards``: its old cards go back into the deck where they came from."""
    n = int(s["deck_len"])
    deck = [int(x) for x in s["deck"][:n]]
    old = [t for t in range(C.NUM_CARD_TYPES) for _ in range(int(s["hand"][seat, t]))]
    for t in cards:
        deck.remove(t)
    s["hand"][seat] = 0
    for t in cards:
        s["hand"][seat, t] += 1
    s["deck"][:n] = old + deck  # the old cards to the bottom: drawn last


def _to_the_bottom(s, cards: list[int]) -> None:
    """``cards`` from the deck to its bottom (drawn last), the rest in their order."""
    n = int(s["deck_len"])
    deck = [int(x) for x in s["deck"][:n]]
    for t in cards:
        deck.remove(t)
    s["deck"][:n] = cards + deck


def _lockstep(a, b, n: int, hidden: set[int], seed: int, deck_floor: int, counts: dict) -> None:
    """Play games ``a`` and ``b`` (the same game but for hidden cards) side by side with the
    same choices; before each step, every seat outside ``hidden`` must see the same
    observation and mask in both, and the same seat must be asked. Seats in ``hidden``
    choose among the actions legal in both (a seat without the card answers no); the
    others choose at random, card plays often. Stops when the hidden cards could come
    into view: a forced discard with no card in common, or the deck down to ``deck_floor``."""
    rng = np.random.default_rng(seed)
    sa, sb = a[0], b[0]
    while int(sa["outcome"]) == K.RUNNING:
        assert int(sa["decider"]) == int(sb["decider"]), "the agent order differs"
        assert int(sa["decision"]) == int(sb["decision"]), K.DECISIONS[int(sa["decision"])]
        if int(sa["deck_len"]) < deck_floor:
            counts["stopped"] += 1
            return
        oa, ob = _seat_obs(a, n), _seat_obs(b, n)
        ma, mb = _seat_masks(sa, n), _seat_masks(sb, n)
        for p in range(n):
            if p not in hidden:
                assert oa[p] == ob[p], f"seat {p} sees a difference ({K.DECISIONS[int(sa['decision'])]})"
                assert ma[p].tobytes() == mb[p].tobytes(), f"seat {p}'s mask differs"
        who = int(sa["decider"])
        dec = int(sa["decision"])
        if dec in (K.D_CANCEL, K.D_DODGE):
            counts["asked"] += 1
            counts["asked hidden"] += who in hidden
        legal = np.flatnonzero(ma[who] & mb[who])
        if len(legal) == 0:  # a forced discard of cards only one version holds: they would be seen
            assert dec == K.D_DISCARD
            counts["stopped"] += 1
            return
        cards = [x for x in legal if K.A_CARD <= x < K.A_CARD + C.NUM_CARD_TYPES]
        if dec == K.D_MAIN and cards and rng.random() < 0.5:
            action = int(rng.choice(cards))
        elif dec in (K.D_CANCEL, K.D_DODGE) and len(legal) > 1 and rng.random() < 0.7:
            action = int(legal[0])  # play the reaction
        else:
            action = int(rng.choice(legal))
        counts["played"] += dec in (K.D_CANCEL, K.D_DODGE) and action != K.A_NO
        assert K.step(sa, action) and K.step(sb, action)
    counts["games"] += 1


@pytest.mark.parametrize("monster", MONSTERS)
@pytest.mark.parametrize("num_players", [3, 4])
def test_reaction_prompts_do_not_depend_on_hidden_hands_swapped_between_two_players(num_players, monster):
    """Over whole games: seat 1 holds Hermes' Mischief twice and the monster's attack
    reaction, seat 2 none; swapping the two hands changes nothing any other seat sees (its
    observation, its mask) and not who is asked, at any step."""
    counts = dict.fromkeys(("games", "stopped", "asked", "asked hidden", "played"), 0)
    for g in range(6):
        a = new_states(K, 1)
        B.init_one(
            a, np.uint64(100 * num_players + g), options_vector(num_players=num_players, monster=monster, max_turns=40)
        )
        s = a[0]
        _hand_from_deck(s, 1, [HERMES, HERMES, DODGE_CARD[monster], 3])
        _hand_from_deck(s, 2, [1, 2, 4, 5])
        b = a.copy()
        b[0]["hand"][1], b[0]["hand"][2] = a[0]["hand"][2].copy(), a[0]["hand"][1].copy()
        _lockstep(a, b, num_players, {1, 2}, g, 0, counts)
    assert counts["asked hidden"] > 20 and counts["played"] > 0, counts


@pytest.mark.parametrize("num_players", [2, 3])
def test_reaction_prompts_do_not_depend_on_a_hidden_hand_swapped_with_the_deck(num_players):
    """Over whole games: seat 1's hand (Hermes' Mischief twice, Sidestep) against four cards
    without a reaction from the bottom of the deck; nothing the other seats see differs
    while the deck has not reached those cards."""
    counts = dict.fromkeys(("games", "stopped", "asked", "asked hidden", "played"), 0)
    for g in range(6):
        a = new_states(K, 1)
        B.init_one(a, np.uint64(7 * num_players + g), options_vector(num_players=num_players, max_turns=40))
        _hand_from_deck(a[0], 1, [HERMES, HERMES, SIDESTEP, 3])
        _to_the_bottom(a[0], [1, 2, 4, 5])
        b = a.copy()  # seat 1's hand and the deck's bottom four cards swapped
        sb = b[0]
        hand = [t for t in range(C.NUM_CARD_TYPES) for _ in range(int(sb["hand"][1, t]))]
        sb["hand"][1] = 0
        for t in sb["deck"][:4]:
            sb["hand"][1, int(t)] += 1
        sb["deck"][:4] = hand
        _lockstep(a, b, num_players, {1}, g, 8, counts)
    assert counts["asked hidden"] > 10, counts


_determinize_one = determinizer(K)


@pytest.mark.parametrize("num_players", PLAYERS)
def test_determinize_keeps_the_observation_of_that_seat(num_players):
    rng = np.random.default_rng(num_players)
    changed = 0
    for seed in range(3):
        env = random_env(ENV_ID, 50 + seed, 150, num_players=num_players, max_turns=None)
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
    env = random_env(ENV_ID, 21, 150, num_players=3, max_turns=None)
    a = env._states.copy()
    b = env._states.copy()
    s = b[0]
    n = int(s["deck_len"])
    s["deck"][:n] = s["deck"][:n][::-1].copy()
    s["rng"][0] ^= np.uint64(77)
    down = [c for c in K.OUTER_CELLS if not s["cell_up"][c]]
    s["cell_tile"][down[0]], s["cell_tile"][down[1]] = s["cell_tile"][down[1]], s["cell_tile"][down[0]]
    _determinize_one(a, 0, np.uint64(99))
    _determinize_one(b, 0, np.uint64(99))
    assert a.tobytes() == b.tobytes()


# --- bad input ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 5}, "num_players=5"),
        ({"num_players": 1}, "num_players=1"),
        ({"monster": "hydra"}, "monster='hydra'"),
        ({"use_empty_key_slot": 1}, "use_empty_key_slot=1"),
        ({"max_turns": 0}, "max_turns=0"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_bad_options_get_clear_errors(options, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        labyrinth_env.make(ENV_ID, **options)


def test_illegal_action_raw_env_raises_and_leaves_state_unchanged():
    env = random_env(ENV_ID, 3, 40, num_players=2)
    before = env.record.tobytes()
    illegal = int(np.flatnonzero(env._mask == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    assert env.record.tobytes() == before
    check_bad_action_types(env, K.NUM_ACTIONS, "pass")


def test_illegal_action_wrapped_env_terminates_with_penalty():
    check_illegal_wrapped(ENV_ID, K.A_PASS, num_players=2)  # choosing a hero is pending


def test_step_before_reset_is_an_error():
    check_step_before_reset(ENV_ID)


def test_truncation_by_max_turns_gives_zero_rewards():
    env = labyrinth_env.make(ENV_ID, num_players=2, max_turns=6)
    env.reset(seed=1)
    while not any(env.truncations.values()):
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        # pass, take 4 Feet, done discarding, and for the monster the first legal action
        for a in (K.A_PASS, K.A_REFRESH + 4, K.A_DONE):
            if a in legal:
                env.step(int(a))
                break
        else:
            env.step(int(legal[0]))
    assert int(env.unwrapped.record["turn"]) == 6
    assert not any(env.terminations.values())
    assert all(r == 0 for r in env._cumulative_rewards.values())
    assert {k: v for k, v in env.unwrapped.game_log[-1].items() if k != "text"} == {"type": "truncated"}


def test_action_names_round_trip_in_the_rulebooks_words():
    env = labyrinth_env.raw_env(ENV_ID)
    names = env.action_names()
    assert len(set(names)) == K.NUM_ACTIONS
    for a in range(K.NUM_ACTIONS):
        assert env.str_to_action(env.action_to_str(a)) == a
    assert env.action_to_str(K.A_DISCOVER) == "discover key"
    assert env.action_to_str(K.A_EXPLORE) == "explore north"
    assert env.action_to_str(K.A_ROTATE + 2 * K.DOOR_CELL) == "rotate tile r3c3 clockwise"
    assert env.action_to_str(K.A_RECOVER + 2) == "recover paying 2 feet and 3 hand"
    assert env.action_to_str(K.A_CARD) == "desperate action: hermes' mischief"
    assert env.action_to_str(K.A_KEY_ACT) == "key action: secret lever"
    assert env.action_to_str(K.A_ROT_WALL + 4 * 0 + 1) == "rotate wall from north to east"
    assert env.action_to_str(K.A_CHARGE + 3) == "charge west" and env.action_to_str(K.A_CELL + 17) == "move to r2c3"
    assert env.str_to_action("  Discover   KEY ") == K.A_DISCOVER
    with pytest.raises(ValueError, match="no action is named"):
        env.str_to_action("slay the minotaur")


@pytest.mark.parametrize("num_players", PLAYERS)
def test_render_ansi(num_players):
    env = labyrinth_env.make(ENV_ID, num_players=num_players, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "NESWD" in text and "choose a hero board" in text
    env = random_env(ENV_ID, 3, 200, num_players=num_players)
    env.render_mode = "ansi"
    text = env.render()
    assert f"player {num_players - 1}" in text and "##" in text


def board_cells(text: str) -> dict[str, str]:
    """Each cell's text on the board, found by its row label (``r2`` at the line's start)
    and its column label (``c4`` in the first line): ``"r2c4" -> "NESW 0  "``."""
    lines = text.splitlines()
    cols = {m.group(1): m.start() for m in re.finditer(r"c(\d)", lines[0])}
    rows = {m.group(1): line for line in lines[1:] if (m := re.match(r"r(\d) ", line))}
    assert sorted(cols) == sorted(rows) == [str(i) for i in range(K.SIZE)]
    return {f"r{r}c{c}": line[x : x + 8].ljust(8) for r, line in rows.items() for c, x in cols.items()}


@pytest.mark.parametrize("num_players", PLAYERS)
def test_text_board_labels_cells_as_the_actions_do_and_has_a_key(num_players):
    """Every cell a legal action names (``r2c4``, a wall's two cells) is found by the row
    and column labels; each hero, the monster and every tile stand in the cell the record
    says; face-down tiles show nothing but ``####``; the key explains the marks."""
    env = labyrinth_env.raw_env(ENV_ID, num_players=num_players, monster="medusa")
    env.reset(seed=num_players)
    rng = np.random.default_rng(num_players)
    oriented = 0
    for _ in range(400):
        s = env.record
        text = env.render_text()
        assert max(len(line) for line in text.splitlines()) <= 100
        assert "key: NESW a tile's open pathways" in text and "M the medusa" in text
        cells = board_cells(text)
        for a in env.legal_actions():
            for name in re.findall(r"r\d+c\d+", env.action_to_str(a)):
                assert name in cells, env.action_to_str(a)
        for cell in range(K.NUM_CELLS):
            body = cells[cell_name(cell)]
            who = body[5:].strip()
            assert ("M" in who) == (int(s["monster_cell"]) == cell)
            assert sorted(who.replace("M", "")) == [str(p) for p in range(num_players) if s["position"][p] == cell]
            mask = int(s["cell_mask"][cell])
            if s["cell_up"][cell]:
                assert body[:4] == "".join(d if (mask >> i) & 1 else "." for i, d in enumerate("NESW"))
            else:
                assert body[:5] == "#### "
        if s["decision"] == K.D_ORIENT:
            assert f"the explored tile at {cell_name(int(s['pending_cell']))} opens: turned 0 " in text
            oriented += 1
        if int(s["outcome"]) != K.RUNNING:
            break
        env.step(int(rng.choice(env.legal_actions())))
    assert oriented > 0


def test_event_log_decodes_every_event():
    env = random_env(ENV_ID, 12, 2000, num_players=4, monster="cerberus", max_turns=300)
    types = {e["type"] for e in env.game_log}
    assert {"start_turn", "move", "explore", "orient", "refresh", "draw", "minotaur_die", "monster_move"} <= types
    assert all("type" in e for e in env.game_log)
