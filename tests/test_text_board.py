"""Issue 37: the text boards a person plays on in the terminal: the key explains every mark
the board shows."""

from __future__ import annotations

import re

import numpy as np
import pytest

import labyrinth_env


def random_state(env_id: str, seed: int, steps: int, **options):
    env = labyrinth_env.raw_env(env_id, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    return env


@pytest.mark.parametrize("env_id", ["paths_of_destiny_3e_v3", "paths_of_destiny_2011_v6"])
def test_the_hex_key_explains_a_tiles_second_corridor_and_its_levels(env_id):
    """A new user saw '(1,-2) SW-NE bridge /1 SE-NW under' and no word on '/1'."""
    for seed in range(20):
        env = random_state(env_id, seed, 150)
        board, _, key = env.render_text().partition("\nkey: ")
        if re.search(r"/1 [A-Z]", board):
            break
    else:
        pytest.fail("no tile with a second corridor in 20 games")
    key = " ".join(key.split())
    assert "/1 and /2 a tile's second and third corridor" in key and "(q,r)/1 in the actions" in key
    for level in re.findall(r"[A-Z]+(?:-[A-Z]+)+ (bridge|under)\b", board):
        assert f"{level}: " in key, level


def test_labyrinx_key_explains_the_characters_icons():
    """A new user saw 'player 0 Engineer [TTC]' and no word on the marks."""
    env = random_state("labyrinx_v1", 0, 0)
    board, _, key = env.render_text().partition("\nkey: ")
    assert re.search(r"player 0 \w+ \[[MTC]{3}\]", board)
    key = " ".join(key.split())
    assert "[MTC] after a character: its challenge icons (M monster, T trap, C chest)" in key
