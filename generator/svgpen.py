"""SvgPen: the Pen on svgwrite, so a face renders to SVG with no change.

The SVG canvas is the card plus bleed, in millimetres (``width="69.5mm"`` and a matching
``viewBox``), so user units are mm. SVG's y axis points down; the pen flips it. Ids (for clip
paths) are numbered per drawing, never from svgwrite's global counter, so files are
byte-identical run to run. Text uses the Vera family names with generic fallbacks; SVG has no
CMYK, so CMYK and greyscale colours are written as their RGB equivalents.
"""

from __future__ import annotations

import svgwrite

from .colour import Mode, as_rgb, hex_of
from .fonts import face as font_face
from .pen import Pen
from .sizes import PT, CardGeometry, Rect

_ANCHOR = {"left": "start", "centre": "middle", "right": "end"}


def _n(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".") if v % 1 else str(int(v))


class SvgPen(Pen):
    def __init__(self, geom: CardGeometry, mode: Mode, label: str = "card"):
        super().__init__(geom.trim, geom.bleed_box, geom.safe, mode, label)
        b = geom.bleed
        self.width, self.height = geom.width + 2 * b, geom.height + 2 * b
        self.ox, self.oy = b, b
        self.drawing = svgwrite.Drawing(size=(f"{_n(self.width)}mm", f"{_n(self.height)}mm"), profile="full",
                                        viewBox=f"0 0 {_n(self.width)} {_n(self.height)}", debug=False)
        self._stack = [self.drawing]
        self._clips = 0

    # coordinates ----------------------------------------------------------------------
    def _x(self, x: float) -> float:
        return round(x + self.ox, 4)

    def _y(self, y: float) -> float:
        return round(self.height - (y + self.oy), 4)

    @staticmethod
    def _paint(fill, stroke, width) -> dict:
        attrs = {"fill": hex_of(as_rgb(fill)) if fill is not None else "none"}
        if stroke is not None:
            attrs.update(stroke=hex_of(as_rgb(stroke)), stroke_width=round(width, 4))
        return attrs

    def _add(self, element) -> None:
        self._stack[-1].add(element)

    # primitives -----------------------------------------------------------------------
    def _rect(self, x, y, w, h, fill, stroke, width, radius) -> None:
        d = self.drawing
        extra = {"rx": radius, "ry": radius} if radius > 0 else {}
        self._add(d.rect((self._x(x), self._y(y + h)), (round(w, 4), round(h, 4)), **extra,
                         **self._paint(fill, stroke, width)))

    def _path(self, points, fill, stroke, width, closed, dash) -> None:
        d = self.drawing
        pts = [(self._x(px), self._y(py)) for px, py in points]
        attrs = self._paint(fill, stroke, width)
        if dash:
            attrs["stroke_dasharray"] = ",".join(_n(v) for v in dash)
        self._add(d.polygon(pts, **attrs) if closed else d.polyline(pts, **attrs))

    def _circle(self, cx, cy, r, fill, stroke, width) -> None:
        self._add(self.drawing.circle((self._x(cx), self._y(cy)), round(r, 4), **self._paint(fill, stroke, width)))

    def _image(self, x, y, w, h, png: bytes) -> None:
        import base64

        href = "data:image/png;base64," + base64.b64encode(png).decode()
        self._add(self.drawing.image(href, insert=(self._x(x), self._y(y + h)), size=(round(w, 4), round(h, 4))))

    def _text(self, x, y, text, font, size, colour, align, angle) -> None:
        f = font_face(font)
        attrs = {"font_family": f.family, "font_size": round(size * PT, 4), "fill": hex_of(as_rgb(colour)),
                 "text_anchor": _ANCHOR[align]}
        if f.weight != "normal":
            attrs["font_weight"] = f.weight
        if f.style != "normal":
            attrs["font_style"] = f.style
        px, py = self._x(x), self._y(y)
        if angle:
            attrs["transform"] = f"rotate({_n(-angle)} {_n(px)} {_n(py)})"  # SVG rotates clockwise
        t = self.drawing.text(text, insert=(px, py), **attrs)
        t.attribs["xml:space"] = "preserve"
        self._add(t)

    def _push_clip(self, box: Rect) -> None:
        self._clips += 1
        cid = f"clip{self._clips}"
        cp = self.drawing.defs.add(self.drawing.clipPath(id=cid))
        cp.add(self.drawing.rect((self._x(box.x), self._y(box.top)), (round(box.w, 4), round(box.h, 4))))
        group = self.drawing.g(clip_path=f"url(#{cid})")
        self._stack[-1].add(group)
        self._stack.append(group)

    def _pop_clip(self) -> None:
        self._stack.pop()

    def tostring(self) -> str:
        return self.drawing.tostring()
