"""Paths of Destiny 3e components: counts, the rulebook's figures and the tile constraints."""

from __future__ import annotations

import numpy as np
import pytest

from labyrinth_env.core.grid import HEX_CELLS, HEX_CORNERS, HEX_DELTAS, HEX_NEIGHBORS, rotate_mask
from labyrinth_env.rulesets.paths_of_destiny_3e import components as C


def _edges(mask: int) -> list[int]:
    return [d for d in range(6) if (int(mask) >> d) & 1]


def _shape(tile: int) -> str:
    """A tile's shape class: dead end, straight, sharp/wide bend, fork, four-way, two-corridor,
    bridge, bridge+side."""
    n = int(C.TILE_NUM_CORRIDORS[tile])
    levels = C.TILE_CORRIDOR_LEVEL[tile, :n].tolist()
    if C.BRIDGE in levels:
        return "bridge" if n == 2 else "bridge+side"
    if n == 2:
        return "two-corridor"
    edges = _edges(C.TILE_CORRIDOR_MASK[tile, 0])
    if len(edges) == 1:
        return "dead end"
    if len(edges) == 2:
        gap = (edges[1] - edges[0]) % 6
        return {3: "straight", 1: "sharp bend", 5: "sharp bend", 2: "wide bend", 4: "wide bend"}[gap]
    return {3: "fork", 4: "four-way"}.get(len(edges), "other")


# --- counts ---------------------------------------------------------------------------------
def test_component_counts_match_the_box_contents():
    assert len(C.NORMAL_TILES) == 30 and C.NUM_TILES == 32
    assert C.CENTRAL_TILE_ID == 30 and C.KEY_TILE_ID == 31
    assert C.TILE_NAMES[C.CENTRAL_TILE_ID] == "Central Space" and C.TILE_NAMES[C.KEY_TILE_ID] == "Key Space"
    assert C.NUM_TRAPS == 60 and C.TRAP_TOKENS.shape == (60,) and int(C.TRAP_COUNTS.sum()) == 60
    assert C.NUM_ITEMS == 15 and len(set(C.ITEM_NAMES)) == 15
    assert C.NUM_EVENTS == 12 and len(C.EVENTS) == 12
    assert C.ANNIHILATION == 11 and C.EVENT_NAMES[-1] == "Annihilation"
    assert C.NUM_GOLEM_CARDS == 12 and C.GOLEM_CARD_KIND.shape == (12,)
    assert C.NUM_KEYS == 6 and C.LIFE == 4 and C.MAX_ITEMS == 2 and C.ACTIONS_PER_TURN == 2


def test_array_shapes_and_dtypes():
    for arr in (C.TILE_CORRIDOR_LEVEL, C.TILE_CORRIDOR_ICON, C.TILE_BRIDGE_PAIR):
        assert arr.shape == (C.NUM_TILES, C.MAX_CORRIDORS) and arr.dtype == np.int8
    assert C.TILE_CORRIDOR_MASK.shape == (C.NUM_TILES, C.MAX_CORRIDORS) and C.TILE_CORRIDOR_MASK.dtype == np.uint8
    for arr in (C.TRAP_ROLLS, C.TRAP_DIFFICULTY, C.TRAP_EFFECT, C.TRAP_PARAM):
        assert arr.shape == (C.NUM_TRAP_TYPES,) and arr.dtype == np.int8
    assert C.TRAP_TOKENS.dtype == np.int8
    for arr in (
        C.ITEM_ATTACK_BONUS, C.ITEM_DEFEND_BONUS, C.ITEM_JUMP_BONUS, C.ITEM_TRAP_BONUS, C.ITEM_GOLEM_BONUS,
        C.ITEM_SPECIAL,
    ):  # fmt: skip
        assert arr.shape == (15,) and arr.dtype == np.int8
    for arr in (C.EVENT_ONCE, C.EVENT_ONCE_PARAM, C.EVENT_LONG, C.EVENT_LONG_PARAM):
        assert arr.shape == (12,) and arr.dtype == np.int8
    for arr in (C.GOLEM_CARD_KIND, C.GOLEM_CARD_STEPS):
        assert arr.shape == (12,) and arr.dtype == np.int8
    assert len(C.TILE_NAMES) == C.NUM_TILES and len(C.ITEM_TEXT) == 15 and len(C.EVENT_TEXT) == 12


# --- rulebook figures -------------------------------------------------------------------------
def test_poisoned_spears_is_three_rolls_at_8_lose_life_or_stun():
    t = C.TRAP_NAMES.index("Poisoned Spears")
    assert t == 0 and C.TRAP_SOURCES[t] == C.RULEBOOK
    assert C.TRAP_ROLLS[t] == 3 and C.TRAP_DIFFICULTY[t] == 8 and C.TRAP_EFFECT[t] == C.TRAP_LIFE_OR_STUN
    assert C.describe_trap(t).startswith("Poisoned Spears (3 x 8+): ")


def test_scepter_of_control_and_heart_of_the_abyss():
    s = C.ITEM_NAMES.index("Scepter of Control")
    h = C.ITEM_NAMES.index("Heart of the Abyss")
    assert C.ITEM_SPECIAL[s] == C.SPECIAL_SCEPTER and C.ITEM_SOURCES[s] == C.RULEBOOK
    assert C.ITEM_SPECIAL[h] == C.SPECIAL_HEART and C.ITEM_SOURCES[h] == C.RULEBOOK
    assert C.ITEM_TEXT[s] == "When you encounter the Golem, you can spend a Life to ignore its effects."
    assert C.ITEM_TEXT[h] == "After you lose all Life, this item is treated as 1 additional Life."
    assert sorted(C.ITEM_SPECIAL.tolist()).count(C.SPECIAL_NONE) == 10
    assert {int(x) for x in C.ITEM_SPECIAL} == {C.SPECIAL_NONE, C.SPECIAL_SCEPTER, C.SPECIAL_HEART,
                                                C.SPECIAL_POTION, C.SPECIAL_SALTS, C.SPECIAL_TOOLS}  # fmt: skip


def test_reconstructed_items_and_traps_fit_the_text():
    """l.373, l.471: no item is discarded voluntarily (the potion's text says it stays);
    l.358: some trap moves a character (Spring Floor); l.428: some effect takes a Trap Check
    again (Thief's Tools), and none takes a trap away (l.267)."""
    p = C.ITEM_NAMES.index("Healing Potion")
    assert "discard" not in C.ITEM_TEXT[p].lower() and C.ITEM_SPECIAL[p] == C.SPECIAL_POTION
    assert C.TRAP_THROWN_BACK in C.TRAP_EFFECT.tolist()
    tools = C.ITEM_NAMES.index("Thief's Tools")
    assert C.ITEM_SPECIAL[tools] == C.SPECIAL_TOOLS and "again" in C.ITEM_TEXT[tools]


def test_plague_and_terror_effects():
    p = C.EVENT_NAMES.index("Plague")
    assert C.EVENT_ONCE[p] == C.ONCE_CHOOSE_CRYSTAL_INACTIVE
    assert C.EVENT_LONG[p] == C.LONG_MAX_LIFE and C.EVENT_LONG_PARAM[p] == 2
    t = C.EVENT_NAMES.index("Terror")
    assert C.EVENT_ONCE[t] == C.ONCE_CHOOSE_LOSE_LIFE and C.EVENT_ONCE_PARAM[t] == 1
    assert C.EVENT_LONG[t] == C.LONG_NO_ABILITIES
    assert C.EVENT_SOURCES[p] == C.EVENT_SOURCES[t] == C.RULEBOOK


def test_check_difficulties_from_the_text():
    assert C.JUMP_DIFFICULTY == 8 and C.GOLEM_DIFFICULTY == 12


def test_golem_cards_show_every_symbol():
    kinds = C.GOLEM_CARD_KIND.tolist()
    assert set(kinds) == {C.GOLEM_MOVE, C.GOLEM_IDLE, C.GOLEM_CENTER}
    moves = C.GOLEM_CARD_STEPS[C.GOLEM_CARD_KIND == C.GOLEM_MOVE]
    assert set(moves.tolist()) == {1, 2, 3}
    assert (C.GOLEM_CARD_STEPS[C.GOLEM_CARD_KIND != C.GOLEM_MOVE] == 0).all()


# --- trap, item and event tables ---------------------------------------------------------------
def test_trap_types_are_in_range_and_tokens_match_counts():
    assert 10 <= C.NUM_TRAP_TYPES <= 13
    assert ((C.TRAP_ROLLS >= 1) & (C.TRAP_ROLLS <= 3)).all()
    assert ((C.TRAP_DIFFICULTY >= 5) & (C.TRAP_DIFFICULTY <= 10)).all()
    assert np.array_equal(np.bincount(C.TRAP_TOKENS, minlength=C.NUM_TRAP_TYPES), C.TRAP_COUNTS)
    for t in range(C.NUM_TRAP_TYPES):
        if C.TRAP_EFFECT[t] in (C.TRAP_LOSE_LIFE, C.TRAP_TAKE_STUN, C.TRAP_LOSE_LIFE_AND_STUN):
            assert C.TRAP_PARAM[t] >= 1


def test_events_annihilation_last_and_every_kind_used():
    assert C.EVENT_NAMES[C.ANNIHILATION] == "Annihilation"
    assert C.EVENT_NAMES.count("Annihilation") == 1
    assert C.EVENT_LONG[C.ANNIHILATION] != C.LONG_NONE
    assert set(C.EVENT_ONCE.tolist()) == set(range(9))
    assert set(C.EVENT_LONG.tolist()) == set(range(8))
    for e in range(C.NUM_EVENTS):
        if C.EVENT_LONG[e] == C.LONG_MAX_LIFE:
            assert 1 <= C.EVENT_LONG_PARAM[e] < C.LIFE
        if C.EVENT_LONG[e] in (C.LONG_COMBAT_MOD, C.LONG_JUMP_MOD, C.LONG_TRAP_MOD, C.LONG_GOLEM_MOD):
            assert C.EVENT_LONG_PARAM[e] != 0


def test_sources_are_marked():
    for sources in (C.TILE_SOURCES, C.TRAP_SOURCES, C.ITEM_SOURCES, C.EVENT_SOURCES):
        assert set(sources) <= {C.RULEBOOK, C.RECONSTRUCTED}
    assert all(reason for reason in C.RECONSTRUCTION_REASONS.values())


# --- tiles --------------------------------------------------------------------------------------
@pytest.mark.parametrize("tile", range(32))
def test_tile_corridors_are_disjoint_and_bridges_pair_with_a_crossing_straight(tile):
    n = int(C.TILE_NUM_CORRIDORS[tile])
    assert 1 <= n <= C.MAX_CORRIDORS
    masks = C.TILE_CORRIDOR_MASK[tile].tolist()
    levels = C.TILE_CORRIDOR_LEVEL[tile].tolist()
    assert all(m > 0 for m in masks[:n]) and all(m == 0 for m in masks[n:])
    assert all(lev >= 0 for lev in levels[:n]) and all(lev == -1 for lev in levels[n:])
    used = 0
    for m in masks[:n]:
        assert m & used == 0
        used |= m
    straights = {0b001001, 0b010010, 0b100100}
    if C.BRIDGE in levels:
        b, u = levels.index(C.BRIDGE), levels.index(C.UNDER)
        assert levels.count(C.BRIDGE) == levels.count(C.UNDER) == 1
        assert masks[b] in straights and masks[u] in straights and masks[b] != masks[u]
        assert C.TILE_BRIDGE_PAIR[tile, b] == u and C.TILE_BRIDGE_PAIR[tile, u] == b
        others = [k for k in range(C.MAX_CORRIDORS) if k not in (b, u)]
        assert all(C.TILE_BRIDGE_PAIR[tile, k] == -1 for k in others)
        assert all(levels[k] in (C.GROUND, -1) for k in others)
    else:
        assert C.UNDER not in levels
        assert (C.TILE_BRIDGE_PAIR[tile] == -1).all()
        assert all(lev == C.GROUND for lev in levels[:n])
    # at most one icon per corridor, none on missing corridors
    assert all(C.TILE_CORRIDOR_ICON[tile, k] == C.ICON_NONE for k in range(n, C.MAX_CORRIDORS))


def test_tile_shapes_are_varied():
    shapes = [_shape(t) for t in range(30)]
    for wanted in (
        "dead end", "straight", "sharp bend", "wide bend", "fork", "four-way", "two-corridor", "bridge",
        "bridge+side",
    ):  # fmt: skip
        assert wanted in shapes, wanted
    assert "other" not in shapes
    assert {_shape(t) for t in range(30) if C.TILE_NUM_CORRIDORS[t] == 3} == {"bridge+side"}


def test_icons_present_on_normal_tiles_only():
    icons = C.TILE_CORRIDOR_ICON[:30]
    assert 8 <= int((icons == C.ICON_TRAP).sum()) <= 12
    assert 6 <= int((icons == C.ICON_CHEST).sum()) <= 10
    assert (C.TILE_CORRIDOR_ICON[30:] == C.ICON_NONE).all()


def test_central_tile_opens_everywhere():
    assert C.TILE_CORRIDOR_MASK[C.CENTRAL_TILE_ID, 0] == 0b111111
    assert C.TILE_NUM_CORRIDORS[C.CENTRAL_TILE_ID] == 1


@pytest.mark.parametrize("corner", range(6))
def test_key_tile_turned_to_each_corner_opens_to_start_and_every_board_neighbour(corner):
    cell = int(HEX_CORNERS[corner])
    assert tuple(HEX_CELLS[cell]) == tuple(3 * HEX_DELTAS[corner])
    mask = rotate_mask(int(C.TILE_CORRIDOR_MASK[C.KEY_TILE_ID, 0]), corner, 6)
    on_board = {d for d in range(6) if HEX_NEIGHBORS[cell, d] >= 0}
    assert set(_edges(mask)) == on_board | {corner}  # the frame's starting space lies in direction `corner`


def test_start_seats_are_distinct_and_sized():
    for n, seats in C.START_SEATS.items():
        assert len(seats) == n and len(set(seats)) == n and all(0 <= s < 6 for s in seats)
    assert C.START_SEATS[2] == (0, 3)


def test_describe_functions():
    assert C.describe_tile(C.CENTRAL_TILE_ID).startswith("Central Space")
    assert all(C.describe_tile(t) for t in range(C.NUM_TILES))
    assert all(C.describe_trap(t) for t in range(C.NUM_TRAP_TYPES))
    assert C.describe_item(C.ITEM_NAMES.index("Heart of the Abyss")).startswith("Heart of the Abyss: ")
    assert C.describe_event(C.ANNIHILATION).startswith("Annihilation: ")
    assert {C.describe_golem_card(c) for c in range(12)} >= {"move 1", "move 2", "move 3", "idle", "central space"}
