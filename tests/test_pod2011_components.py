"""Paths of Destiny 2011 components: the rulebook's counts, the reconstructed Table of Traps
in the rulebook's format, the Guard cards, and the board fields shared with the 3rd edition."""

from __future__ import annotations

import numpy as np

from labyrinth_env.rulesets.paths_of_destiny_3e import components as C3
from labyrinth_env.rulesets.paths_of_destiny_2011 import components as C


def test_component_counts_match_the_rulebook():
    assert C.NUM_NORMAL_TILES == 30 and C.NUM_TILES == 32
    assert C.TILE_NAMES[C.CENTRAL_TILE_ID] == "Central Space" and C.TILE_NAMES[C.KEY_TILE_ID] == "Key Space"
    assert C.NUM_TRAPS == 57 and C.TRAP_TOKENS.shape == (57,) and int(C.TRAP_COUNTS.sum()) == 57
    assert C.NUM_GUARD_CARDS == 12 and C.GUARD_CARD_KIND.shape == (12,)
    assert C.NUM_KEYS == 6 and C.LIFE == 4 and C.ACTIONS_PER_TURN == 2 and C.NUM_CRYSTALS == 6
    assert C.NUM_STUN_TOKENS == 12 and C.MAX_PLAYERS == 6, "6 crystals, 24 life = 6 x 4, 6 start fields"
    assert (C.JUMP_SUCCESS, C.JUMP_FAIL_LIFE, C.JUMP_FAIL_STUN, C.JUMP_BONUS, C.GUARD_STAY) == (4, 2, 1, 1, 12)


def test_board_fields_are_the_3rd_editions_shapes():
    # shared, not copied: the very same arrays
    assert C.TILE_CORRIDOR_MASK is C3.TILE_CORRIDOR_MASK and C.TILE_BRIDGE_PAIR is C3.TILE_BRIDGE_PAIR
    assert C.TILES_SOURCE == C.RECONSTRUCTED and "icons" in C.TILES_REASON


def test_table_of_traps_format():
    red = C.TRAP_COLOUR == C.RED
    assert red.sum() > 0 and (~red).sum() > 0, "red traps and orange door traps"
    assert (C.TRAP_DIFFICULTY[red][:, C.MODE_LEAVE] == 0).all()
    assert (C.TRAP_DIFFICULTY[~red][:, : C.MODE_LEAVE] == 0).all() and (C.TRAP_DIFFICULTY[~red][:, 3] > 0).all()
    assert (C.TRAP_BRACKET <= C.TRAP_DIFFICULTY).all() and (C.TRAP_BRACKET < C.TRAP_DIFFICULTY).any(), "brackets"
    assert (C.TRAP_MOVE == C.MOVE_TURN_BACK).any(), "turn-back traps"
    # effects that depend on entering, climbing up or jumping down
    per_way = C.TRAP_DIFFICULTY[red][:, : C.MODE_LEAVE] * 100 + C.TRAP_LIFE[red][:, : C.MODE_LEAVE] * 10
    assert any(len(set(row.tolist())) > 1 for row in per_way)
    assert set(C.TRAP_SOURCES) == {C.RECONSTRUCTED} and "TRAP_TYPES" in C.RECONSTRUCTION_REASONS
    assert C.describe_trap(C.TRAP_NAMES.index("Spiked Pit")) == (
        "Spiked Pit (red): enter 8 (6): lose 1 life | jump or come down 9 (7): lose 2 life"
    )
    assert C.describe_trap_way(C.TRAP_NAMES.index("Jammed Door"), C.MODE_ENTER) == "-"


def test_guard_cards_have_every_symbol():
    kinds = C.GUARD_CARD_KIND.tolist()
    assert {C.GUARD_MOVE, C.GUARD_SUN, C.GUARD_MOON, C.GUARD_STAY_CARD} == set(kinds)
    assert sorted(int(s) for k, s in zip(kinds, C.GUARD_CARD_STEPS) if k == C.GUARD_MOVE) == [1, 1, 1, 2, 2, 3, 3]
    assert np.bincount(C.GUARD_CARD_CLASS, minlength=6).tolist() == [3, 2, 2, 2, 2, 1]
    assert [C.describe_guard_card(i) for i in (0, 3, 5, 7, 9, 11)] == [
        "1 footprint", "2 footprints", "3 footprints", "sun-burst", "crescent moon", "crossed-out X",
    ]  # fmt: skip


def test_seating_patterns():
    assert C.FIXED_SEATS == {3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)} and C.CHOOSE_SEATS == (2, 5)


def test_traps_only_harm_as_the_rulebook_names_and_never_take_the_fate_crystal():
    # l.247 life, l.344 stun points, l.386/l.418 turn-back traps, l.230 door traps; l.359
    # "There is no way in which the fate crystal can be taken away from another player"
    assert not hasattr(C, "TRAP_CRYSTAL") and not hasattr(C, "MOVE_TO_START")
    assert set(np.unique(C.TRAP_MOVE).tolist()) == {C.MOVE_NONE, C.MOVE_TURN_BACK, C.MOVE_HELD}
    text = " ".join(C.describe_trap(t) for t in range(C.NUM_TRAP_TYPES))
    assert "crystal" not in text and "start field" not in text
