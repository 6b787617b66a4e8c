"""Pictures of game states: one drawing description (``Canvas``) written as SVG or as a
Pillow raster, a shared side panel and seat colours, and the HTML replay viewer.

Each ruleset draws its states in ``labyrinth_env/rulesets/<package>/picture.py`` with

    def draw(state, viewer: int | None = None, omniscient: bool = False) -> Canvas

(``viewer``: the seat whose private information may be shown, None for a spectator;
hidden information only with ``omniscient=True``). ``picture_module`` finds it by the
ruleset's package name, so a new ruleset plugs in by adding that one module.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from labyrinth_env.render.canvas import Canvas, bezier, mix, regular_polygon, rgb, text_width, wrap_text
from labyrinth_env.render.panel import INK, MUTED, PAPER, SEAT_COLOURS, Panel, seat_colour

__all__ = [
    "INK",
    "MUTED",
    "PAPER",
    "SEAT_COLOURS",
    "Canvas",
    "Panel",
    "bezier",
    "mix",
    "picture_module",
    "regular_polygon",
    "rgb",
    "seat_colour",
    "text_width",
    "wrap_text",
]


def picture_module(package: str) -> ModuleType:
    """``labyrinth_env.rulesets.<package>.picture``; ``NotImplementedError`` when that
    ruleset has no pictures yet."""
    name = f"labyrinth_env.rulesets.{package}.picture"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name not in (name, name.rsplit(".", 1)[0]):
            raise
        raise NotImplementedError(f"ruleset {package!r} has no pictures yet (no module {name})") from None
