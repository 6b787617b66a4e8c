"""Pictures of every ruleset: the canvas and its two outputs, PettingZoo's render test,
hidden information only in the omniscient view, every state of many random games, and a
golden image per ruleset (``LABYRINTH_UPDATE_GOLDEN=1`` rewrites them after a deliberate
change; see ``_golden_state`` for what a golden picture shows)."""

from __future__ import annotations

import hashlib
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import render_test

import labyrinth_env
from labyrinth_env.registry import player_range
from labyrinth_env.render import Canvas, Panel, wrap_text
from labyrinth_env.render.canvas import rgb

# rulesets with a picture module (labyrinth_env/rulesets/<package>/picture.py)
ENV_IDS = [s.env_id for s in labyrinth_env.specs() if s.picture_module is not None]
GOLDEN = Path(__file__).parent / "golden"
SVG = "{http://www.w3.org/2000/svg}"


def random_steps(env, rng: np.random.Generator, steps: int) -> int:
    """Up to ``steps`` uniformly random legal actions; the number taken."""
    for i in range(steps):
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return i
        legal = env.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
    return steps


def svg_titles(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}title")]


# --- the canvas -----------------------------------------------------------------------------
def test_canvas_svg_and_raster_draw_the_same_shapes():
    c = Canvas(120, 80, "#ffffff", title="t & <t>")
    c.rect(10, 10, 40, 30, fill="#ff0000")
    with c.group("g", title="a disc"):
        c.circle(90, 40, 15, fill="#0000ff", stroke="#000000", width=2)
    c.polyline([(0, 75), (120, 75)], "#00ff00", 4)
    c.text(60, 60, "Hi <&>", 10, "#000000", anchor="middle", bold=True)
    root = ET.fromstring(c.to_svg())  # well-formed, text escaped
    assert root.get("width") == "120" and root.get("height") == "80"
    assert [e.tag.removeprefix(SVG) for e in root.iter()][:4] == ["svg", "title", "rect", "rect"]
    assert root.find(f"{SVG}text").text == "Hi <&>"
    assert "a disc" in svg_titles(c.to_svg())
    img = c.to_array()
    assert img.shape == (80, 120, 3) and img.dtype == np.uint8
    assert tuple(img[25, 30]) == (255, 0, 0)  # inside the rectangle
    assert tuple(img[40, 90]) == (0, 0, 255)  # inside the disc
    assert tuple(img[5, 100]) == (255, 255, 255)  # background
    assert img[75, 60, 1] > 200 and img[75, 60, 0] < 60  # the green line
    half = c.to_array(scale=0.5)
    assert half.shape == (40, 60, 3)


def test_canvas_translucent_shape_blends():
    c = Canvas(20, 20, "#000000")
    c.rect(0, 0, 20, 20, fill="#ffffff", opacity=0.5)
    assert abs(int(c.to_array()[10, 10, 0]) - 128) <= 2


def test_canvas_bad_input_says_what_is_allowed():
    c = Canvas(10, 10)
    with pytest.raises(ValueError, match="colour must be"):
        c.circle(1, 1, 1, fill="red")
    with pytest.raises(ValueError, match="anchor must be one of"):
        c.text(0, 0, "x", anchor="left")
    with pytest.raises(ValueError, match="opacity"):
        c.rect(0, 0, 1, 1, fill="#000", opacity=2)
    with pytest.raises(ValueError, match="canvas size"):
        Canvas(0, 10)
    with pytest.raises(ValueError, match="scale"):
        c.to_array(scale=0)
    assert rgb("#0a0") == (0, 170, 0)


def test_text_wraps_and_panel_stops_at_its_bottom():
    lines = wrap_text("the quick brown fox jumps over the lazy dog", 10, 60)
    assert len(lines) > 1 and all(len(x) <= 10 for x in lines)
    assert " ".join(lines) == "the quick brown fox jumps over the lazy dog"
    c = Canvas(200, 100)
    p = Panel(c, 10, 10, 180, 60)
    for i in range(20):
        p.text(f"row {i}")
    assert p.full and p.y <= 70
    texts = [s.attrs["text"] for s in c.root.children if s.kind == "text"]
    assert texts[-1] == "…" and "row 19" not in texts


# --- the env's render modes ---------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_render_test(env_id, monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert "rgb_array" in labyrinth_env.get_spec(env_id).env_class.metadata["render_modes"]
    render_test(lambda render_mode=None: labyrinth_env.make(env_id, render_mode=render_mode))
    # human mode without a display falls back to the text board
    assert "\n" in capsys.readouterr().out


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_rgb_array_and_svg_of_each_ruleset(env_id):
    env = labyrinth_env.make(env_id, render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    random_steps(env, np.random.default_rng(0), 40)
    later = env.render()
    assert later.shape == first.shape, "a game keeps one picture size (videos need it)"
    assert (later != first).any()
    assert len(np.unique(later.reshape(-1, 3), axis=0)) > 20  # a picture, not a blank
    svg = env.unwrapped.to_svg()
    root = ET.fromstring(svg)
    assert (int(root.get("width")), int(root.get("height"))) == (later.shape[1], later.shape[0])
    assert env.unwrapped.to_svg(viewer="player_0") != ""
    with pytest.raises(ValueError, match="viewer"):
        env.unwrapped.to_svg(viewer="player_9")
    with pytest.raises(ValueError, match="omniscient must be"):
        env.unwrapped.to_svg(omniscient="yes")


def test_human_mode_without_a_gui_backend_prints_the_text_board(monkeypatch, capsys):
    import matplotlib

    monkeypatch.setenv("DISPLAY", ":99")  # a display is announced, but matplotlib has no GUI backend
    matplotlib.use("Agg")
    env = labyrinth_env.make("paths_of_destiny_3e_v3", render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert capsys.readouterr().out.strip() == env.unwrapped.render_text().strip()
    env.close()


def test_render_before_reset_and_unknown_mode_are_refused():
    env = labyrinth_env.make("team_edition_v2", render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        env.render()
    with pytest.raises(RuntimeError, match="reset"):
        env.unwrapped.to_svg()
    with pytest.raises(ValueError, match="rgb_array"):
        labyrinth_env.make("team_edition_v2", render_mode="video")


def test_every_built_in_ruleset_has_pictures():
    built_in = [s.env_id for s in labyrinth_env.specs() if s.package.startswith("labyrinth_env.rulesets.")]
    assert len(built_in) == 5 and set(built_in) <= set(ENV_IDS)
    for env_id in built_in:
        modes = labyrinth_env.get_spec(env_id).env_class.metadata["render_modes"]
        assert {"ansi", "human", "rgb_array"} <= set(modes), env_id


def test_a_ruleset_without_pictures_says_so():
    import dataclasses

    from labyrinth_env.rulesets.labyrinx import SPEC

    class NoPictures(SPEC.env_class):
        ruleset = dataclasses.replace(SPEC, picture_module=None)

    env = NoPictures()
    assert "rgb_array" not in env.metadata["render_modes"]
    env.reset(seed=0)
    with pytest.raises(NotImplementedError, match="has no pictures"):
        env.picture()


# --- hidden information ---------------------------------------------------------------------
def test_team_edition_face_down_treasure_only_in_omniscient_view():
    from labyrinth_env.rulesets.team_edition import components as C

    # without memory of public history (with it, every face-down treasure was once seen by
    # the whole table: the Book turns face-up tiles down, so nothing on the board is hidden)
    env = labyrinth_env.raw_env("team_edition_v2", num_players=2, public_memory=False)
    env.reset(seed=1)
    s = env.record
    cell = next(c for c in C.LOOSE_CELLS if C.TILE_TREASURE[s["cell_tile"][c]] >= 0)
    tile = int(s["cell_tile"][cell])
    name = C.TREASURES[C.TILE_TREASURE[tile]]
    assert name in svg_titles(env.to_svg())
    s["tile_down"][tile] = 1
    s["open"][cell] = 0
    assert name not in svg_titles(env.to_svg())
    assert name not in env.to_svg(viewer=0)
    assert name in svg_titles(env.to_svg(omniscient=True))
    # the next Daedalus page is hidden too
    assert "next page" not in env.to_svg() and "next page" in env.to_svg(omniscient=True)


@pytest.mark.parametrize("env_id", ["paths_of_destiny_3e_v3", "paths_of_destiny_2011_v6"])
def test_paths_of_destiny_face_down_trap_only_in_omniscient_view(env_id):
    env = labyrinth_env.raw_env(env_id, num_players=2)
    env.reset(seed=1)
    s = env.record
    components = importlib_components(env)
    node = int(np.flatnonzero(s["node_mask"][: 37 * 3])[0])
    token = 0
    s["node_trap"][node] = token
    s["trap_up"][node] = 0
    trap = components.TRAP_NAMES[int(components.TRAP_TOKENS[token])]
    public = " ".join(svg_titles(env.to_svg()))
    assert "a face-down trap" in public and trap not in public
    assert trap in " ".join(svg_titles(env.to_svg(omniscient=True)))
    s["trap_up"][node] = 1
    assert trap in " ".join(svg_titles(env.to_svg()))


def importlib_components(env):
    import importlib

    return importlib.import_module(f"{env.ruleset.package}.components")


# --- every state of many games ------------------------------------------------------------------
SHORT_GAMES = 300
SHORT_STATES = 6_000  # the short games end here: Labyrinthos' took 30,000 states and 65 s


@pytest.mark.slow  # ~10-20 s per ruleset on 2 busy cores
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_state_of_many_random_games_renders(env_id):
    """Every state of short random games (3 turns, every player count, spectator, seat and
    omniscient views in turn; 300 games or 6,000 states, whichever comes first) is drawn,
    every 10th written as SVG and every 150th rasterised; and every 100th state of 10
    full-length random games (Labyrinthos' run to 11,000 decisions)."""
    lo, hi = player_range(env_id)
    env_short = {n: labyrinth_env.raw_env(env_id, num_players=n, max_turns=3) for n in range(lo, hi + 1)}
    env_long = {n: labyrinth_env.raw_env(env_id, num_players=n) for n in range(lo, hi + 1)}
    rng = np.random.default_rng(7)
    draw = labyrinth_env.get_spec(env_id).picture.draw
    drawn = 0
    for g in range(SHORT_GAMES + 10):
        if g < SHORT_GAMES and drawn >= SHORT_STATES:
            continue
        n = lo + g % (hi - lo + 1)
        env = env_short[n] if g < SHORT_GAMES else env_long[n]
        env.reset(seed=1000 + g)
        every = 1 if g < SHORT_GAMES else 100
        viewer = (None, g % n, None)[g % 3]
        step = 0
        while True:
            if step % every == 0:
                c = draw(env.record, viewer=viewer, omniscient=g % 3 == 2)
                if drawn % 10 == 0:
                    assert c.to_svg().endswith("</svg>")
                if drawn % 150 == 0:
                    assert c.to_array(scale=0.25, supersample=1).shape[2] == 3
                drawn += 1
            if random_steps(env, rng, 1) == 0:
                break
            step += 1
        draw(env.record)  # the final state
    assert drawn > 1000


# --- golden images --------------------------------------------------------------------------------
GOLDEN_STEPS = 90


def _golden_state(env_id: str):
    """A fixed mid-game position: seed 11, 3 players, 90 seeded random legal actions."""
    env = labyrinth_env.make(env_id, num_players=3, render_mode="rgb_array")
    env.reset(seed=11)
    taken = random_steps(env.unwrapped, np.random.default_rng(11), GOLDEN_STEPS)
    return env, taken


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_golden_image(env_id):
    """The rgb_array picture, reduced to half size, against tests/golden/<env_id>.png (kept
    small: half size, 128 colours)."""
    from PIL import Image

    env, taken = _golden_state(env_id)
    digest = hashlib.sha256(env.unwrapped.record.tobytes()).hexdigest()
    image = np.asarray(Image.fromarray(env.render()).reduce(2))
    png, meta = GOLDEN / f"{env_id}.png", GOLDEN / f"{env_id}.json"
    if os.environ.get("LABYRINTH_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        Image.fromarray(image).quantize(128).save(png, optimize=True)
        meta.write_text(json.dumps({"seed": 11, "num_players": 3, "steps": taken, "state_sha256": digest}, indent=1))
    assert png.exists(), f"no golden image {png}: run LABYRINTH_UPDATE_GOLDEN=1 pytest {__file__}"
    recorded = json.loads(meta.read_text())
    cause = (
        "the game itself changed (rules, setup or RNG: the state differs from the recorded one)"
        if (recorded["steps"], recorded["state_sha256"]) != (taken, digest)
        else "the same state is drawn differently"
    )
    golden = np.asarray(Image.open(png).convert("RGB"))
    assert golden.shape == image.shape, f"{env_id}: picture size changed: {golden.shape} -> {image.shape}; {cause}"
    diff = np.abs(golden.astype(np.int16) - image.astype(np.int16)).max(axis=2)
    # the tolerance covers the 128-colour palette of the stored file and small differences in
    # font rasterisation between Pillow/FreeType builds; moving or recolouring things does not pass
    changed = float((diff > 48).mean())
    assert diff.mean() < 1.5 and changed < 0.003, (
        f"{env_id}: the picture differs from {png.name} (mean {diff.mean():.2f}, {changed:.2%} of pixels): "
        f"{cause}; if the change is deliberate, look at it and rerun with LABYRINTH_UPDATE_GOLDEN=1"
    )
