"""``determinize`` depends on the seat's information alone (issue 32, "What must hold"): for
every registered ruleset, the toy one too, random games are stopped at every decision and,
for every seat, a twin record is built that differs only in what that seat cannot see (each
hidden set the kernel's ``unseen`` names is permuted in place, and the dice's future
changed). The seat's observation must be equal in both, and ``determinize`` with the same
seed must return the same world from both; otherwise a search over determinized worlds
reads hidden information.

A twin maker below lays out each ruleset's hidden sets as slots of its record and returns
how many pieces it permuted, which must be ``unseen``'s count for that seat: a set the
kernel resamples but the twin leaves alone (or the other way round) fails here. A ruleset
registered without a twin maker fails too."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import labyrinth_env
from tests.test_fuzz import fuzz

Slots = list[tuple[np.ndarray, tuple]]  # an array of the record and an index into it


def _permute(slots: Slots, rng: np.random.Generator) -> int:
    """Deal the pieces in ``slots`` among them again (a permutation that moves some piece
    whenever two differ); returns how many there were."""
    values = np.array([arr[i] for arr, i in slots])
    if len(set(values.tolist())) > 1:
        order = rng.permutation(len(values))
        while np.array_equal(values[order], values):
            order = rng.permutation(len(values))
        for (arr, i), v in zip(slots, values[order], strict=True):
            arr[i] = v
    return len(slots)


def _hex_tiles(s: Any) -> Slots:
    """Both Paths of Destiny editions: the tile pile with the face-down fields (the one
    being turned face up is public), ``core.hexboard.unseen_tiles``."""
    slots = [(s["tile_pool"], (i,)) for i in range(int(s["tile_pool_len"]))]
    rv = int(s["rv_cell"])
    slots += [(s["fd_tile"], (c,)) for c in range(s["fd_owner"].shape[0]) if s["fd_owner"][c] >= 0 and c != rv]
    return slots


def _face_down(tokens: np.ndarray, up: np.ndarray) -> Slots:
    return [(tokens, (n,)) for n in range(tokens.shape[0]) if tokens[n] >= 0 and not up[n]]


def _trap_pile(s: Any) -> Slots:
    return [(s["trap_pool"], (i,)) for i in range(int(s["trap_pool_len"]))]


def _tail(arr: np.ndarray, start: int, stop: int) -> Slots:
    return [(arr, (i,)) for i in range(start, stop)]


def twin_pod3e(s: Any, seat: int, rng: np.random.Generator) -> int:
    from labyrinth_env.rulesets.paths_of_destiny_3e.kernel import NUM_EVENTS

    return (
        _permute(_hex_tiles(s), rng)
        + _permute(_tail(s["item_pool"], 0, int(s["item_pool_len"])), rng)
        + _permute(_tail(s["golem_deck"], int(s["golem_pos"]), s["golem_deck"].shape[0]), rng)
        + _permute(_tail(s["event_deck"], int(s["event_pos"]), NUM_EVENTS - 1), rng)
        + _permute(_face_down(s["node_trap"], s["trap_up"]) + _trap_pile(s), rng)
    )


def twin_pod2011(s: Any, seat: int, rng: np.random.Generator) -> int:
    """The face-down first and second trap tokens (the Head Hunter's Entrapment) and the
    trap pile are one set: nobody can tell which face-down token is which."""
    traps = _face_down(s["node_trap"], s["trap_up"]) + _face_down(s["node_trap2"], s["trap2_up"]) + _trap_pile(s)
    return (
        _permute(_hex_tiles(s), rng)
        + _permute(_tail(s["guard_deck"], int(s["guard_pos"]), s["guard_deck"].shape[0]), rng)
        + _permute(traps, rng)
    )


def twin_labyrinx(s: Any, seat: int, rng: np.random.Generator) -> int:
    """The draw pile, the other hands and the face-down cards ``seat`` does not remember."""
    slots = _tail(s["deck"], 0, int(s["deck_len"]))
    for p in range(int(s["num_players"])):
        if p != seat:
            slots += [(s["hand"], (p, i)) for i in range(int(s["hand_len"][p]))]
    cards, up, known = s["cell_card"], s["cell_up"], s["known"][seat]
    slots += [(cards, (c,)) for c in range(cards.shape[0]) if cards[c] >= 0 and not up[c] and not known[c]]
    return _permute(slots, rng)


def twin_labyrinthos(s: Any, seat: int, rng: np.random.Generator) -> int:
    """The face-down starting tiles among the starting cells, the others among the outer
    cells (a tile's paths go with it), and the deck with the other hands (held by type,
    their sizes kept)."""
    from labyrinth_env.rulesets.labyrinthos.kernel import OUTER_CELLS, START_CELLS, TILE_MASK

    count = 0
    for cells in (START_CELLS, OUTER_CELLS):
        down = [int(c) for c in cells if not s["cell_up"][c]]
        count += _permute([(s["cell_tile"], (c,)) for c in down], rng)
        for c in down:
            s["cell_mask"][c] = TILE_MASK[s["cell_tile"][c]]
    others = [p for p in range(int(s["num_players"])) if p != seat]
    cards = [int(c) for c in s["deck"][: int(s["deck_len"])]]
    sizes = [int(s["hand"][p].sum()) for p in others]
    for p in others:
        cards += [t for t in range(s["hand"].shape[1]) for _ in range(int(s["hand"][p, t]))]
    dealt = np.array(cards, dtype=np.int64)
    count += _permute([(dealt, (i,)) for i in range(len(cards))], rng)
    n = int(s["deck_len"])
    s["deck"][:n] = dealt[:n]
    for p, size in zip(others, sizes, strict=True):
        s["hand"][p] = np.bincount(dealt[n : n + size], minlength=s["hand"].shape[1])
        n += size
    return count


def twin_team(s: Any, seat: int, rng: np.random.Generator) -> int:
    """The treasure deck and the unread Daedalus pages (their order; which cards they are
    is tested in test_team_edition_env)."""
    deck = _tail(s["treasure_deck"], int(s["treasure_pos"]), s["treasure_deck"].shape[0])
    count = _permute(deck, rng)
    start, stop = int(s["page_pos"]), int(s["num_pages"])
    if stop - start > 1:
        s["pages"][start:stop] = s["pages"][start:stop][rng.permutation(stop - start)]
    return count + stop - start


def twin_toy(s: Any, seat: int, rng: np.random.Generator) -> int:
    """Nothing is hidden but the dice's future."""
    return 0


# package -> (twin maker, options: the most hidden sets the ruleset has, players included)
TWINS: dict[str, tuple[Callable[[Any, int, np.random.Generator], int], dict]] = {
    "labyrinth_env.rulesets.paths_of_destiny_3e": (
        twin_pod3e,
        {"num_players": 4, "characters": ["Illusionist", "Golem Mistress", "Witch", "Architect"]},
    ),
    "labyrinth_env.rulesets.paths_of_destiny_2011": (
        twin_pod2011,
        {"num_players": 4, "characters": ["Head Hunter", "Illusionist", "Monk", "Mistress of Golems"]},
    ),
    "labyrinth_env.rulesets.labyrinx": (twin_labyrinx, {"num_players": 4, "character_powers": True}),
    "labyrinth_env.rulesets.labyrinthos": (twin_labyrinthos, {"num_players": 4}),
    "labyrinth_env.rulesets.team_edition": (twin_team, {"num_players": 3, "variant": "expert"}),
    "tests.toy_ruleset": (twin_toy, {"num_players": 3}),
}
GAMES, PROBES = 3, 250  # per ruleset: whole random games, decisions probed in each (every seat)
MAX_TURNS = 100  # a random game ends by then, truncated at worst (the toy's and Team's end sooner)


def test_every_registered_ruleset_has_a_twin_maker():
    assert {labyrinth_env.get_spec(e).package for e in labyrinth_env.list_envs()} <= set(TWINS)


def _probe(K: Any, states: np.ndarray, seat: int, rng: np.random.Generator, counts: dict) -> None:
    make_twin = counts["twin"]
    twin = states.copy()
    permuted = make_twin(twin[0], seat, rng)
    twin[0]["rng"][0] ^= np.uint64(rng.integers(1, 1 << 62))
    unseen = np.zeros(2)
    K.unseen(states[0], seat, unseen)
    assert permuted == unseen[0], f"seat {seat}: the twin permuted {permuted} pieces, unseen counts {unseen[0]}"
    mine, theirs = np.zeros(K.OBS_SIZE, np.float32), np.zeros(K.OBS_SIZE, np.float32)
    K.observe(states[0], seat, mine)
    K.observe(twin[0], seat, theirs)
    assert np.array_equal(mine, theirs), f"seat {seat}'s observation shows what its twin changed"
    if seat == K.to_act(states[0]):
        masks = np.zeros((2, K.NUM_ACTIONS), np.uint8)
        K.legal_mask(states[0], masks[0])
        K.legal_mask(twin[0], masks[1])
        assert np.array_equal(masks[0], masks[1]), f"seat {seat}'s legal actions show what its twin changed"
    seed = np.uint64(rng.integers(1 << 62))
    a, b = states.copy(), twin.copy()
    K.determinize(a[0], seat, seed)
    K.determinize(b[0], seat, seed)
    counts["probes"] += 1
    counts["hidden moved"] += _but_dice(twin) != _but_dice(states)
    counts["differ"] += a.tobytes() != b.tobytes()


def _random_game(K: Any, states: np.ndarray, rng: np.random.Generator) -> list[int]:
    """The actions of a random game from ``states`` to its end (``states`` is left there)."""
    mask = np.zeros(K.NUM_ACTIONS, np.uint8)
    actions = []
    while K.to_act(states[0]) >= 0:
        K.legal_mask(states[0], mask)
        actions.append(int(rng.choice(np.flatnonzero(mask))))
        assert K.step(states[0], actions[-1])
    return actions


def _but_dice(states: np.ndarray) -> bytes:
    copy = states.copy()
    copy[0]["rng"][0] = 0
    return copy.tobytes()


@pytest.mark.parametrize("env_id", labyrinth_env.list_envs())
def test_determinize_depends_only_on_what_the_seat_knows(env_id):
    spec = labyrinth_env.get_spec(env_id)
    make_twin, options = TWINS[spec.package]
    K = spec.kernel
    counts = {"twin": make_twin, "probes": 0, "hidden moved": 0, "differ": 0}
    for game in range(GAMES):
        env = labyrinth_env.raw_env(env_id, **options)
        if "max_turns" in {f.name for f in dataclasses.fields(env.options)} and env.options.max_turns is not None:
            env = labyrinth_env.raw_env(env_id, **options, max_turns=MAX_TURNS)
        env.reset(seed=1000 + game)
        start = env._states.copy()
        actions = _random_game(K, env._states, np.random.default_rng(game))
        stride = max(1, len(actions) // PROBES)  # probes spread over the whole game
        states, rng = start, np.random.default_rng(game + 100)
        for i, action in enumerate(actions):
            if i % stride == 0:
                for seat in range(int(states[0]["num_players"])):
                    _probe(K, states, seat, rng, counts)
            assert K.step(states[0], action)
    summary = {k: v for k, v in counts.items() if k != "twin"}
    assert counts["differ"] == 0, f"{env_id}: determinize told twins apart: {summary}"
    if make_twin is not twin_toy:
        assert counts["hidden moved"] > counts["probes"] // 2, summary


# --- fuzz: any position, any seat, any seed ------------------------------------------------------------
@pytest.mark.parametrize("env_id", labyrinth_env.list_envs())
@fuzz(15)
@given(data=st.data())
def test_fuzz_twins_get_the_same_world(env_id, data):
    """A game seed, up to 400 random decisions, a seat and its twin: the same world."""
    spec = labyrinth_env.get_spec(env_id)
    make_twin, options = TWINS[spec.package]
    K = spec.kernel
    env = labyrinth_env.raw_env(env_id, **options)
    env.reset(seed=data.draw(st.integers(0, 2**64 - 1), label="seed"))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="dice"))
    mask = np.zeros(K.NUM_ACTIONS, np.uint8)
    for _ in range(data.draw(st.integers(0, 400), label="decisions")):
        if K.to_act(env._states[0]) < 0:
            break
        K.legal_mask(env._states[0], mask)
        K.step(env._states[0], int(rng.choice(np.flatnonzero(mask))))
    seat = data.draw(st.integers(0, int(env._states[0]["num_players"]) - 1), label="seat")
    counts = {"twin": make_twin, "probes": 0, "hidden moved": 0, "differ": 0}
    _probe(K, env._states, seat, rng, counts)
    assert counts["differ"] == 0, f"{env_id}: determinize told twins apart for seat {seat}"
