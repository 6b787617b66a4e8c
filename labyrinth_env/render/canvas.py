"""A small drawing description with two outputs: SVG text and a Pillow raster.

A ruleset's picture module draws a state once onto a ``Canvas`` (polygons, polylines,
circles, rectangles, text, nested groups); ``to_svg()`` writes it as SVG and
``to_array()`` rasterises the same shapes with Pillow (supersampled, so edges are smooth)
into an ``HxWx3`` uint8 image. Coordinates are pixels of the full-size picture, y down.

Text: ``y`` is the vertical middle of the line (SVG ``dominant-baseline: central``,
Pillow anchor ``?m``), so both outputs place text alike. The raster uses Pillow's
built-in font (``ImageFont.load_default``), so no font file is needed.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import numpy as np

Point = tuple[float, float]
ANCHORS = ("start", "middle", "end")
FONT_FAMILY = "DejaVu Sans, Verdana, Arial, sans-serif"
# Width of an average character in units of the font size: used to wrap and fit text
# the same way in both outputs (neither can measure the other's font). Bold runs wider:
# DejaVu Sans averages 0.49-0.55 of the size on the panels' texts, its bold 0.56-0.62, and a
# bold heading wrapped at the regular estimate ran past the Team Edition panel in browsers.
CHAR_WIDTH = 0.56
BOLD_CHAR_WIDTH = 0.64


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The estimated width of ``text`` at ``size`` (see ``CHAR_WIDTH``)."""
    return len(text) * size * (BOLD_CHAR_WIDTH if bold else CHAR_WIDTH)


def wrap_text(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """``text`` split into lines no wider than ``width`` (by the estimate above)."""
    per_line = max(4, int(width / (size * (BOLD_CHAR_WIDTH if bold else CHAR_WIDTH))))
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            while len(word) > per_line:  # a word longer than a line is cut
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:per_line])
                word = word[per_line:]
            candidate = f"{line} {word}" if line else word
            if len(candidate) <= per_line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


@functools.lru_cache(maxsize=1024)
def rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` (or ``"#rgb"``) as an (r, g, b) tuple."""
    if not isinstance(colour, str) or not colour.startswith("#") or len(colour) not in (4, 7):
        raise ValueError(f"colour must be '#rgb' or '#rrggbb', got {colour!r}")
    h = colour[1:]
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


@functools.lru_cache(maxsize=4096)  # pictures mix the same few colours over and over
def mix(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    ca, cb = rgb(a), rgb(b)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


def bezier(p0: Point, p1: Point, p2: Point, n: int = 10) -> list[Point]:
    """Points along the quadratic Bezier curve from ``p0`` to ``p2`` pulled towards ``p1``."""
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a * p0[0] + b * p1[0] + c * p2[0], a * p0[1] + b * p1[1] + c * p2[1]))
    return out


def regular_polygon(cx: float, cy: float, radius: float, sides: int, start_deg: float = 0.0) -> list[Point]:
    """The corners of a regular polygon (angles clockwise on screen from east)."""
    return [
        (
            cx + radius * math.cos(math.radians(start_deg + 360.0 * k / sides)),
            cy + radius * math.sin(math.radians(start_deg + 360.0 * k / sides)),
        )
        for k in range(sides)
    ]


@dataclass
class Shape:
    kind: str  # polygon, polyline, circle, rect, text
    attrs: dict[str, Any]


@dataclass
class Group:
    name: str | None = None
    title: str | None = None
    children: list[Shape | Group] = field(default_factory=list)


def _f(x: float) -> str:
    return f"{x:.1f}"


def _points(points: list[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _check_opacity(opacity: float) -> float:
    if not 0.0 <= opacity <= 1.0:
        raise ValueError(f"opacity must be in [0, 1], got {opacity!r}")
    return float(opacity)


class Canvas:
    """A picture as a tree of shapes; write it with ``to_svg`` or ``to_array``."""

    def __init__(self, width: int, height: int, background: str = "#ffffff", title: str | None = None) -> None:
        if width < 1 or height < 1:
            raise ValueError(f"canvas size must be positive, got {width}x{height}")
        rgb(background)
        self.width = int(width)
        self.height = int(height)
        self.background = background
        self.title = title
        self.root = Group()
        self._stack = [self.root]

    # --- building -----------------------------------------------------------------------
    def _add(self, kind: str, **attrs: Any) -> None:
        # a picture adds thousands of shapes: the checks inline, colours through rgb's cache
        fill, stroke = attrs.get("fill"), attrs.get("stroke")
        if fill is not None:
            rgb(fill)
        if stroke is not None:
            rgb(stroke)
        opacity = attrs.get("opacity", 1.0)
        if not 0.0 <= opacity <= 1.0:
            _check_opacity(opacity)
        self._stack[-1].children.append(Shape(kind, attrs))

    @contextlib.contextmanager
    def group(self, name: str | None = None, title: str | None = None) -> Iterator[Group]:
        """Shapes drawn inside the ``with`` block form one group (an SVG ``<g>`` with an
        optional class ``name`` and tooltip ``title``)."""
        g = Group(name, title)
        self._stack[-1].children.append(g)
        self._stack.append(g)
        try:
            yield g
        finally:
            self._stack.pop()

    def polygon(
        self,
        points: Sequence[Point],
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        opacity: float = 1.0,
        title: str | None = None,
    ) -> None:
        self._add(
            "polygon",
            points=[(float(x), float(y)) for x, y in points],
            fill=fill,
            stroke=stroke,
            width=width,
            opacity=opacity,
            title=title,
        )

    def polyline(
        self,
        points: Sequence[Point],
        stroke: str,
        width: float = 1.0,
        opacity: float = 1.0,
        dash: tuple[float, float] | None = None,
        round_caps: bool = True,
    ) -> None:
        self._add(
            "polyline",
            points=[(float(x), float(y)) for x, y in points],
            stroke=stroke,
            width=width,
            opacity=opacity,
            dash=dash,
            round_caps=round_caps,
        )

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        opacity: float = 1.0,
        title: str | None = None,
    ) -> None:
        self._add(
            "circle",
            cx=float(cx),
            cy=float(cy),
            r=float(r),
            fill=fill,
            stroke=stroke,
            width=width,
            opacity=opacity,
            title=title,
        )

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str | None = None,
        stroke: str | None = None,
        width: float = 1.0,
        radius: float = 0.0,
        opacity: float = 1.0,
        title: str | None = None,
    ) -> None:
        self._add(
            "rect",
            x=float(x),
            y=float(y),
            w=float(w),
            h=float(h),
            fill=fill,
            stroke=stroke,
            width=width,
            radius=float(radius),
            opacity=opacity,
            title=title,
        )

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float = 12.0,
        fill: str = "#000000",
        anchor: str = "start",
        bold: bool = False,
        opacity: float = 1.0,
    ) -> None:
        if anchor not in ANCHORS:
            raise ValueError(f"text anchor must be one of {ANCHORS}, got {anchor!r}")
        self._add(
            "text",
            x=float(x),
            y=float(y),
            text=str(text),
            size=float(size),
            fill=fill,
            anchor=anchor,
            bold=bool(bold),
            opacity=opacity,
        )

    # --- outputs ---------------------------------------------------------------------------
    def to_image(self, scale: float = 1.0, supersample: int = 2) -> Any:
        """A Pillow RGB image (see ``to_image``)."""
        return to_image(self, scale, supersample)

    def to_array(self, scale: float = 1.0, supersample: int = 2) -> np.ndarray:
        """An ``HxWx3`` uint8 array (see ``to_array``)."""
        return to_array(self, scale, supersample)

    def to_svg(self) -> str:
        """The picture as a standalone SVG document."""
        w, h = self.width, self.height
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'font-family="{FONT_FAMILY}">'
        ]
        if self.title:
            out.append(f"<title>{escape(self.title)}</title>")
        out.append(f'<rect x="0" y="0" width="{w}" height="{h}" fill="{self.background}"/>')
        self._svg_group(self.root, out)
        out.append("</svg>")
        return "\n".join(out)

    def _svg_group(self, group: Group, out: list[str]) -> None:
        for child in group.children:
            if isinstance(child, Group):
                cls = f" class={quoteattr(child.name)}" if child.name else ""
                out.append(f"<g{cls}>")
                if child.title:
                    out.append(f"<title>{escape(child.title)}</title>")
                self._svg_group(child, out)
                out.append("</g>")
            else:
                out.append(_svg_shape(child))


def _paint(a: dict[str, Any]) -> str:
    parts = [f'fill="{a["fill"]}"' if a.get("fill") else 'fill="none"']
    if a.get("stroke"):
        parts.append(f'stroke="{a["stroke"]}" stroke-width="{_f(a["width"])}"')
    if a.get("opacity", 1.0) < 1.0:
        parts.append(f'opacity="{a["opacity"]:.3g}"')
    return " ".join(parts)


def _svg_shape(shape: Shape) -> str:
    a = shape.attrs
    title = f"<title>{escape(a['title'])}</title>" if a.get("title") else ""
    close = f">{title}</{{}}>" if title else "/>"
    if shape.kind == "polygon":
        pts = _points(a["points"])
        return f'<polygon points="{pts}" {_paint(a)} stroke-linejoin="round"' + close.format("polygon")
    if shape.kind == "polyline":
        pts = _points(a["points"])
        extra = f' stroke-dasharray="{_f(a["dash"][0])} {_f(a["dash"][1])}"' if a["dash"] else ""
        cap = "round" if a["round_caps"] else "butt"
        opacity = f' opacity="{a["opacity"]:.3g}"' if a["opacity"] < 1.0 else ""
        return (
            f'<polyline points="{pts}" fill="none" stroke="{a["stroke"]}" stroke-width="{_f(a["width"])}" '
            f'stroke-linecap="{cap}" stroke-linejoin="round"{extra}{opacity}/>'
        )
    if shape.kind == "circle":
        return f'<circle cx="{_f(a["cx"])}" cy="{_f(a["cy"])}" r="{_f(a["r"])}" {_paint(a)}' + close.format("circle")
    if shape.kind == "rect":
        rx = f' rx="{_f(a["radius"])}"' if a["radius"] else ""
        return (
            f'<rect x="{_f(a["x"])}" y="{_f(a["y"])}" width="{_f(a["w"])}" height="{_f(a["h"])}"{rx} {_paint(a)}'
            + close.format("rect")
        )
    # text
    weight = ' font-weight="bold"' if a["bold"] else ""
    opacity = f' opacity="{a["opacity"]:.3g}"' if a["opacity"] < 1.0 else ""
    return (
        f'<text x="{_f(a["x"])}" y="{_f(a["y"])}" font-size="{_f(a["size"])}" fill="{a["fill"]}" '
        f'text-anchor="{a["anchor"]}" dominant-baseline="central"{weight}{opacity}>{escape(a["text"])}</text>'
    )


# --- raster ---------------------------------------------------------------------------------
_FONTS: dict[int, Any] = {}


def _font(size: int) -> Any:
    from PIL import ImageFont

    if size not in _FONTS:
        try:
            _FONTS[size] = ImageFont.load_default(size=size)
        except (TypeError, ValueError, OSError):  # Pillow without FreeType: one bitmap size
            _FONTS[size] = ImageFont.load_default()
    return _FONTS[size]


def _dashes(points: list[Point], on: float, off: float) -> list[list[Point]]:
    """A polyline cut into its dashes."""
    pieces: list[list[Point]] = []
    drawing, left = True, on
    current = [points[0]]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if drawing:
                current.append(p)
                pieces.append(current)
            else:
                current = [p]
            drawing = not drawing
            left = on if drawing else off
        left -= seg - pos
        if drawing:
            current.append((x1, y1))
    if drawing and len(current) > 1:
        pieces.append(current)
    return pieces


class _Raster:
    def __init__(self, canvas: Canvas, scale: float) -> None:
        from PIL import Image, ImageDraw

        self.Image, self.ImageDraw = Image, ImageDraw
        self.k = scale
        size = (max(1, round(canvas.width * scale)), max(1, round(canvas.height * scale)))
        self.image = Image.new("RGB", size, rgb(canvas.background))
        self.draw = ImageDraw.Draw(self.image)

    def run(self, group: Group) -> None:
        for child in group.children:
            if isinstance(child, Group):
                self.run(child)
            elif child.attrs.get("opacity", 1.0) < 1.0:
                self._translucent(child)
            else:
                self.shape(child, self.draw)

    def _translucent(self, shape: Shape) -> None:
        layer = self.Image.new("RGBA", self.image.size, (0, 0, 0, 0))
        self.shape(shape, self.ImageDraw.Draw(layer))
        alpha = layer.getchannel("A").point(lambda v: round(v * shape.attrs["opacity"]))
        layer.putalpha(alpha)
        base = self.image.convert("RGBA")
        base.alpha_composite(layer)
        self.image.paste(base.convert("RGB"))

    def shape(self, shape: Shape, draw: Any) -> None:
        a, k = shape.attrs, self.k
        fill = rgb(a["fill"]) if a.get("fill") else None
        stroke = rgb(a["stroke"]) if a.get("stroke") else None
        width = max(1, round(a.get("width", 1.0) * k)) if stroke else 0
        if shape.kind == "polygon":
            pts = [(x * k, y * k) for x, y in a["points"]]
            draw.polygon(pts, fill=fill, outline=stroke, width=width)
        elif shape.kind == "polyline":
            pts = [(x * k, y * k) for x, y in a["points"]]
            pieces = _dashes(pts, a["dash"][0] * k, a["dash"][1] * k) if a["dash"] else [pts]
            for piece in pieces:
                draw.line(piece, fill=stroke, width=width, joint="curve")
                if a["round_caps"] and width > 2:
                    for x, y in (piece[0], piece[-1]):
                        draw.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=stroke)
        elif shape.kind == "circle":
            cx, cy, r = a["cx"] * k, a["cy"] * k, a["r"] * k
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=stroke, width=width)
        elif shape.kind == "rect":
            box = (a["x"] * k, a["y"] * k, (a["x"] + a["w"]) * k, (a["y"] + a["h"]) * k)
            if a["radius"]:
                draw.rounded_rectangle(box, radius=a["radius"] * k, fill=fill, outline=stroke, width=width)
            else:
                draw.rectangle(box, fill=fill, outline=stroke, width=width)
        else:
            font = _font(max(1, round(a["size"] * k)))
            anchor = {"start": "lm", "middle": "mm", "end": "rm"}[a["anchor"]]
            bold = max(1, round(0.04 * a["size"] * k)) if a["bold"] else 0
            colour = rgb(a["fill"])
            try:
                draw.text(
                    (a["x"] * k, a["y"] * k),
                    a["text"],
                    font=font,
                    fill=colour,
                    anchor=anchor,
                    stroke_width=bold,
                    stroke_fill=colour,
                )
            except ValueError:  # a bitmap font takes no anchor
                draw.text((a["x"] * k, a["y"] * k), a["text"], font=font, fill=colour)


def to_image(canvas: Canvas, scale: float = 1.0, supersample: int = 2) -> Any:
    """The canvas as a Pillow RGB image of ``scale`` times its size, drawn ``supersample``
    times larger and reduced (Pillow draws shapes without antialiasing)."""
    if scale <= 0:
        raise ValueError(f"scale must be > 0, got {scale!r}")
    if supersample not in (1, 2, 3, 4):
        raise ValueError(f"supersample must be 1, 2, 3 or 4, got {supersample!r}")
    r = _Raster(canvas, scale * supersample)
    r.run(canvas.root)
    image = r.image
    if supersample > 1:
        image = image.reduce(supersample)
    target = (max(1, round(canvas.width * scale)), max(1, round(canvas.height * scale)))
    if image.size != target:
        image = image.resize(target)
    return image


def to_array(canvas: Canvas, scale: float = 1.0, supersample: int = 2) -> np.ndarray:
    """The canvas as an ``HxWx3`` uint8 array (PettingZoo's ``rgb_array``)."""
    return np.asarray(to_image(canvas, scale, supersample), dtype=np.uint8).copy()
