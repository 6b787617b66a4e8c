"""Labyrinthos components: the rulebook's counts and the reconstructed tables' shape."""

from __future__ import annotations

import numpy as np

from labyrinth_env.rulesets.labyrinthos import components as C


def test_component_counts_match_the_rulebook():
    assert C.NUM_TILES == 49 and C.SIZE == 7
    kinds = np.bincount(C.TILE_KIND, minlength=4)
    assert list(kinds) == [1, 8, 36, 4]  # Door, centre maze tiles, maze tiles, key tiles
    assert (C.NUM_FEET_TOKENS, C.NUM_HAND_TOKENS, C.NUM_WOUND_TOKENS, C.NUM_WALLS) == (28, 28, 40, 30)
    assert C.NUM_KEY_TOKENS == 16 and np.bincount(C.KEY_TOKEN_COLOUR).tolist() == [4, 4, 4, 4]
    assert (C.START_FEET, C.START_HANDS, C.POOL_SIZE, C.HAND_LIMIT) == (4, 3, 7, 4)
    assert (C.RECOVER_COST, C.REARRANGE_COST, C.MINOTAUR_SYMBOL_POINTS, C.WALL_LIMIT) == (5, 3, 2, 2)
    assert int(C.SLOT_COST[C.S_DISCOVER, 1]) == 1 and int(C.SLOT_COST[C.S_DISCOVER, 0]) == 0


def test_desperation_decks_have_60_and_15_and_15_cards():
    for deck, total in ((C.MINOTAUR, 60), (C.MEDUSA, 15), (C.CERBERUS, 15)):
        assert int(C.CARD_COPIES[deck == C.CARD_DECK].sum()) == total
    assert C.CARD_NAMES[0] == "Hermes' Mischief" and C.CARD_REACTION[0] == C.R_CARD
    assert (C.CARD_REACTION[C.CARD_DECK == C.MINOTAUR] != C.R_NONE).sum() >= 2  # reaction cards exist
    assert len(C.CARD_TEXT) == C.NUM_CARD_TYPES


def test_tiles_symbols_and_pathways():
    maze = C.TILE_KIND == C.KIND_MAZE
    symbols = np.bincount(C.TILE_SYMBOL[maze], minlength=C.NUM_SYMBOLS)
    assert all(symbols[s] > 0 for s in range(1, C.NUM_SYMBOLS)), "every symbol occurs"
    assert all(0 < int(m) < 16 for m in C.TILE_MASK)
    assert int(C.TILE_MASK[C.DOOR_TILE]) == 15
    for hero in range(C.NUM_HEROES):  # each hero's colour tile is a starting tile
        t = C.HERO_START_TILE[hero]
        assert C.TILE_KIND[t] == C.KIND_START and C.TILE_COLOUR[t] == hero
    for colour in range(C.NUM_KEY_COLOURS):
        assert C.TILE_COLOUR[C.KEY_TILE_OF_COLOUR[colour]] == colour


def test_dice_and_reconstructions_are_documented():
    assert len(C.MINOTAUR_FACE_KIND) == 6 and set(C.MINOTAUR_FACE_KIND) == {C.F_HOOVES, C.F_PASSAGE, C.F_CHARGE}
    assert len(C.BLOOD_FACES) == 6
    assert C.SPECIAL_NAMES[:2] == ("shield maiden", "wild intuition")
    assert C.KEY_ACTION_NAMES[:4] == ("secret lever", "build", "visions", "bandages")
    for what in ("tiles", "costs", "heroes", "key tokens", "dice", "cards"):
        assert C.RECONSTRUCTION_REASONS[what]
    for source in (C.TILES_SOURCE, C.COSTS_SOURCE, C.HEROES_SOURCE, C.KEY_TOKENS_SOURCE, C.DICE_SOURCE, C.CARDS_SOURCE):
        assert source == C.RECONSTRUCTED


def test_key_tokens_are_unique():
    """l.274: "each one will grant you a unique action": 16 tokens, 16 key actions, 4 per
    colour; the four the rulebook names are one colour's (Bronze)."""
    assert C.NUM_KEY_TOKENS == 16
    assert sorted(C.KEY_TOKEN_ACTION.tolist()) == list(range(16)) and len(set(C.KEY_ACTION_NAMES)) == 16
    assert np.bincount(C.KEY_TOKEN_COLOUR).tolist() == [4, 4, 4, 4]
    assert [int(C.KEY_TOKEN_COLOUR[k]) for k in (C.K_SECRET_LEVER, C.K_BUILD, C.K_VISIONS, C.K_BANDAGES)] == [0] * 4
    assert len(C.KEY_ACTION_TEXT) == 16 and C.KEY_ACTION_COST.shape == (16, 2)
