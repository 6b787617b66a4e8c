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
ENVS = ["labyrinthos_v2", "labyrinx_v1", "paths_of_destiny_2011_v6", "paths_of_destiny_3e_v3", "team_edition_v2"]
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


@pytest.mark.parametrize("env_id", ENVS)
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


def _texts(group):
    from labyrinth_env.render.canvas import Group

    for child in group.children:
        if isinstance(child, Group):
            yield from _texts(child)
        elif child.kind == "text":
            yield child.attrs


@pytest.mark.parametrize("env_id", ENVS)
def test_panel_texts_stay_inside_their_panel_in_dejavu_sans(env_id, monkeypatch):
    """The side panel's rows measured in the font the SVG names first (DejaVu Sans, bold
    where bold) end inside the panel's box: Team Edition's omniscient heading ran past it
    in browsers (issue 37, "the final panel's heading is cut off")."""
    font = pytest.importorskip("PIL.ImageFont")
    faces = {b: FONTS / "dejavu" / f"DejaVuSans{'-Bold' if b else ''}.ttf" for b in (False, True)}
    if not all(f.exists() for f in faces.values()):
        pytest.skip("DejaVu Sans is not installed")
    from labyrinth_env.render import panel as panel_module

    panels = []
    made = panel_module.Panel.__init__

    def record(self, canvas, x, y, width, height, size=13.0):
        made(self, canvas, x, y, width, height, size)
        panels.append((canvas, x, width))

    monkeypatch.setattr(panel_module.Panel, "__init__", record)
    env = labyrinth_env.raw_env(env_id, num_players=4)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        legal = env.legal_actions()
        env.step(legal[rng.integers(len(legal))])
    for picture in (env.picture(viewer=0), env.picture(omniscient=True)):
        _, x, width = next(p for p in panels if p[0] is picture)
        for t in _texts(picture.root):
            if t["anchor"] != "start" or not x <= t["x"] < x + width:
                continue
            face = font.truetype(str(faces[t["bold"]]), round(t["size"] * 4))
            right = t["x"] + face.getlength(t["text"]) / 4
            assert right <= x + width + 10, f"{t['text']!r} ends at {right:.0f}, the panel's box at {x + width + 10}"
