"""Issue 37: every character a person is shown renders in common fonts (the browser pages'
pause button was U+23F8, a box in DejaVu Sans and in Liberation Sans, Arial's metric twin).
The pages are checked against both proportional fonts, the terminal's texts against both
monospaced ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import labyrinth_env
from labyrinth_env.play_web import _PAGE as PLAY_PAGE
from labyrinth_env.render.replay_html import _PAGE as REPLAY_PAGE

FONTS = Path("/usr/share/fonts/truetype")
PAGE_FONTS = ("dejavu/DejaVuSans.ttf", "liberation/LiberationSans-Regular.ttf")
TERMINAL_FONTS = ("dejavu/DejaVuSansMono.ttf", "liberation/LiberationMono-Regular.ttf")


def missing_glyphs(text: str, fonts: tuple[str, ...]) -> dict[str, list[str]]:
    """The characters of ``text`` that a font lacks, by font."""
    ttlib = pytest.importorskip("fontTools.ttLib")
    absent = [f for f in fonts if not (FONTS / f).exists()]
    if absent:
        pytest.skip(f"fonts not installed: {', '.join(absent)}")
    wanted = {c for c in text if ord(c) > 127}
    out = {}
    for f in fonts:
        cmap = ttlib.TTFont(FONTS / f)["cmap"].getBestCmap()
        lacking = sorted(f"{c} U+{ord(c):04X}" for c in wanted if ord(c) not in cmap)
        if lacking:
            out[f] = lacking
    return out


@pytest.mark.parametrize("page", [PLAY_PAGE, REPLAY_PAGE], ids=["play --web", "replay --html"])
def test_the_pages_buttons_render_in_common_fonts(page):
    assert missing_glyphs(page, PAGE_FONTS) == {}


@pytest.mark.parametrize("env_id", labyrinth_env.list_envs())
def test_the_terminals_texts_render_in_common_fonts(env_id):
    env = labyrinth_env.make(env_id, render_mode="ansi", max_turns=2)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    raw = env.unwrapped
    shown = []
    for name in env.agent_iter():
        if env.terminations[name] or env.truncations[name]:
            env.step(None)
            continue
        shown += [env.render(), *raw.private_lines(name), *(raw.action_label(a) for a in raw.legal_actions())]
        legal = raw.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    shown += [e["text"] for e in raw.game_log]
    assert missing_glyphs("\n".join(shown), TERMINAL_FONTS) == {}
