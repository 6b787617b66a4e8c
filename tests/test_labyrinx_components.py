"""Labyrinx components: the counts the rulebook fixes and the shape of the reconstructions."""

from __future__ import annotations

import numpy as np

from labyrinth_env.rulesets.labyrinx import components as C
from labyrinth_env.rulesets.labyrinx import kernel as K


def test_component_counts_match_the_rulebook():
    assert C.NUM_CARDS == 100 and C.CARD_KIND.shape == (100,) and int(C.KIND_COUNT.sum()) == 100
    assert C.NUM_CHARACTERS == len(C.CHARACTERS) == 12
    assert C.NUM_TREASURES == 25 and C.HAND_LIMIT == 4 and C.ACTIONS_PER_TURN == 3 and C.WIN_TREASURES == 5


def test_every_card_has_open_sides_doors_only_on_open_sides_and_at_most_one_icon():
    for kind in range(C.NUM_KINDS):
        assert C.KIND_OPEN[kind] != 0
        assert C.KIND_DOORS[kind] & ~C.KIND_OPEN[kind] == 0
        assert C.KIND_ICON[kind] in (C.NO_ICON, C.MONSTER, C.TRAP, C.CHEST)
    icons = np.array([C.KIND_ICON[k] for k in C.CARD_KIND])
    assert [(icons == i).sum() for i in (C.MONSTER, C.TRAP, C.CHEST)] == [12, 12, 12]


def test_rotated_cards_keep_their_sides_and_doors():
    for card in range(C.NUM_CARDS):
        counts = {bin(int(K.CARD_OPEN[card, r])).count("1") for r in range(4)}
        assert len(counts) == 1
        for r in range(4):
            assert K.CARD_DOORS[card, r] & ~K.CARD_OPEN[card, r] == 0


def test_characters_have_three_icons_and_only_some_a_special_power():
    # l.38: "Some characters have a special power": one of each icon mix has one, the other none
    assert (C.CHAR_ICONS.sum(axis=1) == C.ICONS_PER_CHARACTER).all()
    powered = [p for p in C.CHAR_POWER.tolist() if p != C.POW_NONE]
    assert sorted(powered) == list(range(C.NUM_POWERS)) and 0 < len(powered) < C.NUM_CHARACTERS
    assert len(C.POWER_NAMES) == C.NUM_POWERS and all("action" in name for name in C.POWER_NAMES)
    mixes = {}
    for ch in range(C.NUM_CHARACTERS):
        mixes.setdefault(tuple(C.CHAR_ICONS[ch]), []).append(C.CHAR_POWER[ch] != C.POW_NONE)
    assert all(sorted(v) == [False, True] for v in mixes.values())


def test_reconstructions_are_marked_with_reasons():
    for source, reason in (
        (C.CARD_KINDS_SOURCE, C.CARD_KINDS_REASON),
        (C.CHARACTERS_SOURCE, C.CHARACTERS_REASON),
        (C.HALL_SOURCE, C.HALL_REASON),
    ):
        assert source == C.RECONSTRUCTED and len(reason) > 40
