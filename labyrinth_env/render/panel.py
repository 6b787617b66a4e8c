"""Seat colours and the side panel every ruleset's picture shares."""

from __future__ import annotations

from collections.abc import Callable

from labyrinth_env.core.contract import TRUNCATED
from labyrinth_env.render.canvas import Canvas, mix, wrap_text

# Seat colours for rulesets without printed colours: distinct on the board's stone and on
# the panel's paper, and told apart by most colour-blind viewers by their lightness too.
SEAT_COLOURS = ("#d1342f", "#2f6fd1", "#2e9e4a", "#e0a500", "#8e44ad", "#e06a00")
INK = "#1e1e24"
MUTED = "#6b6b76"
PAPER = "#f6f1e7"
RULE = "#d8cfbd"


def turn_shown(turn: int, outcome: int) -> int:
    """The turn a board or panel names, from 1 (``turn``: the record's count from 0). A game
    cut short at its ``max_turns`` has counted on past its last turn; the log names that last
    turn, and so does the board (the finished game read 'turn 7' after the log's 'Turn 6')."""
    return int(turn) + (0 if int(outcome) == TRUNCATED else 1)


def seat_colour(seat: int) -> str:
    """The colour of ``seat`` (0-5)."""
    if not 0 <= seat < len(SEAT_COLOURS):
        raise ValueError(f"seat must be 0..{len(SEAT_COLOURS) - 1}, got {seat!r}")
    return SEAT_COLOURS[seat]


class Panel:
    """A column of text rows at (``x``, ``y``), ``width`` wide and at most ``height`` tall.

    Rows stop at the bottom (the last visible row ends in an ellipsis), so a picture keeps
    one size for a whole game however much there is to say."""

    def __init__(self, canvas: Canvas, x: float, y: float, width: float, height: float, size: float = 13.0) -> None:
        self.c = canvas
        self.x, self.top, self.width, self.bottom = x, y, width, y + height
        self.y = y
        self.size = size
        self.full = False
        canvas.rect(x - 10, y - 10, width + 20, height + 20, fill=PAPER, stroke=RULE, width=1.0, radius=8)

    def _room(self, h: float) -> bool:
        if self.full:
            return False
        if self.y + h > self.bottom:
            self.full = True
            self.c.text(self.x, self.y + self.size * 0.6, "…", self.size, MUTED)
            return False
        return True

    def gap(self, h: float = 6.0) -> None:
        self.y += h

    def heading(self, text: str, colour: str = INK) -> None:
        """A bold title over a rule, wrapped to the panel's width (a long one ran past it)."""
        size = self.size * 1.15
        lines = wrap_text(text, size, self.width, bold=True)
        for i, line in enumerate(lines):
            if not self._room(size * (1.5 if i == len(lines) - 1 else 1.2)):
                return
            self.c.text(self.x, self.y + size * 0.7, line, size, colour, bold=True)
            self.y += size * (1.5 if i == len(lines) - 1 else 1.2)
        self.c.polyline([(self.x, self.y - 3), (self.x + self.width, self.y - 3)], RULE, 1.0, round_caps=False)

    def text(
        self,
        text: str,
        colour: str = INK,
        size: float | None = None,
        bold: bool = False,
        indent: float = 0.0,
        swatch: str | None = None,
        max_lines: int = 3,
    ) -> None:
        """Wrapped text; ``swatch`` puts a small disc of that colour before the first line."""
        size = size or self.size
        left = self.x + indent + (size * 1.2 if swatch else 0.0)
        lines = wrap_text(text, size, self.x + self.width - left, bold=bold)
        if len(lines) > max_lines:
            lines = [*lines[: max_lines - 1], lines[max_lines - 1][:-1] + "…"]
        for i, line in enumerate(lines):
            if not self._room(size * 1.35):
                return
            mid = self.y + size * 0.68
            if swatch and i == 0:
                r = size * 0.42
                self.c.circle(self.x + indent + r, mid, r, fill=swatch, stroke=mix(swatch, INK, 0.5), width=1.0)
            self.c.text(left, mid, line, size, colour, bold=bold)
            self.y += size * 1.35

    def pips(self, label: str, value: int, maximum: int, colour: str, indent: float = 0.0) -> None:
        """``label`` and a row of ``maximum`` small discs, ``value`` of them filled."""
        size = self.size
        if not self._room(size * 1.35):
            return
        mid = self.y + size * 0.68
        self.c.text(self.x + indent, mid, label, size, MUTED)
        x0 = self.x + indent + len(label) * size * 0.56 + 6
        r = size * 0.32
        for i in range(max(maximum, value)):
            filled = i < value
            self.c.circle(
                x0 + i * (2 * r + 3) + r,
                mid,
                r,
                fill=colour if filled else PAPER,
                stroke=mix(colour, INK, 0.4),
                width=1.0,
            )
        self.y += size * 1.35

    def figure(self, height: float, draw: Callable[[float, float, float, float], None]) -> None:
        """Reserve ``height`` pixels and call ``draw(x, y, width, height)`` to fill them."""
        if not self._room(height):
            return
        draw(self.x, self.y, self.width, height)
        self.y += height
