"""Pictures of game states: one drawing description (``Canvas``) written as SVG or as a
Pillow raster, a shared side panel and seat colours, and the HTML replay viewer.

Each ruleset draws its states in the picture module its spec names
(``labyrinth_env/rulesets/<package>/picture.py``) with

    def draw(state, viewer: int | None = None, omniscient: bool = False) -> Canvas

(``viewer``: the seat whose private information may be shown, None for a spectator;
hidden information only with ``omniscient=True``).
"""

from __future__ import annotations

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
    "regular_polygon",
    "rgb",
    "seat_colour",
    "text_width",
    "wrap_text",
]
