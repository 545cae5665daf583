"""A topology thumbnail (PNG for link previews, SVG for pages): tiers as rows, links as lines.

The layout follows the editor's (frontend/src/lib/topology/layout.ts) in spirit: tier -> row,
highest tier on top, each row spread across the width, hosts ordered under their switch.
"""

import io
import re
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw, ImageFont

# Open Graph's recommended card size (1.91:1)
WIDTH, HEIGHT = 1200, 630
MARGIN = 48
BG, LINK, HOST, SWITCH, INK = "#f6f7f9", "#9aa4b1", "#4c78a8", "#54a24b", "#1d2330"


@dataclass
class Placed:
    """A node at its thumbnail position."""

    id: str
    kind: str
    x: float
    y: float


def _natural(s: str) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def layout(nodes: list[dict[str, Any]], width: int = WIDTH, height: int = HEIGHT,
           top: int = 112) -> list[Placed]:
    """Rows by tier (top tier first), switches in natural id order, hosts under their switch."""
    tiers = sorted({n["tier"] for n in nodes}, reverse=True)
    rank: dict[str, int] = {}
    rows: dict[int, list[dict[str, Any]]] = {}
    for tier in sorted(tiers):
        row = sorted((n for n in nodes if n["tier"] == tier), key=lambda n: _natural(n["id"]))
        if tier == 0:
            # hosts under the switch they hang off (group = that switch's id)
            row.sort(key=lambda n: (rank.get(n.get("group") or "", 1 << 30), _natural(n["id"])))
        rows[tier] = row
        rank.update({n["id"]: i for i, n in enumerate(row)})
    span_y = height - top - MARGIN
    placed = []
    for r, tier in enumerate(tiers):
        row = rows[tier]
        y = top + (span_y * r / (len(tiers) - 1) if len(tiers) > 1 else span_y / 2)
        step = (width - 2 * MARGIN) / max(len(row), 1)
        placed += [Placed(n["id"], n["kind"], MARGIN + (i + 0.5) * step, y) for i, n in enumerate(row)]
    return placed


def _sizes(count: int) -> tuple[float, float]:
    """Node radius and link width shrink as the fabric grows (1,000s of hosts stay readable)."""
    radius = 9.0 if count <= 40 else 5.0 if count <= 400 else 2.5 if count <= 2000 else 1.5
    return radius, 2.0 if count <= 400 else 1.0


def render_png(title: str, subtitle: str, nodes: list[dict[str, Any]],
               links: list[dict[str, Any]]) -> bytes:
    """The 1200 x 630 card: title, a line of stats, the fabric."""
    img = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(img)
    pos = {p.id: p for p in layout(nodes)}
    radius, link_width = _sizes(len(nodes))
    for link in links:
        a, b = pos.get(link["a"]), pos.get(link["b"])
        if a and b:
            draw.line([(a.x, a.y), (b.x, b.y)], fill=LINK, width=int(link_width))
    for p in pos.values():
        box = [p.x - radius, p.y - radius, p.x + radius, p.y + radius]
        if p.kind == "host":
            draw.ellipse(box, fill=HOST)
        else:
            r = radius * 1.4
            draw.rectangle([p.x - r, p.y - r, p.x + r, p.y + r], fill=SWITCH)
    draw.text((MARGIN, 18), title[:70], fill=INK, font=ImageFont.load_default(size=34))
    draw.text((MARGIN, 60), subtitle[:110], fill="#5b6577", font=ImageFont.load_default(size=20))
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def render_svg(title: str, nodes: list[dict[str, Any]], links: list[dict[str, Any]]) -> str:
    """The same drawing as SVG (no text but the title; names are escaped)."""
    pos = {p.id: p for p in layout(nodes)}
    radius, link_width = _sizes(len(nodes))
    lines = "".join(
        f'<line x1="{pos[lk["a"]].x:.1f}" y1="{pos[lk["a"]].y:.1f}" '
        f'x2="{pos[lk["b"]].x:.1f}" y2="{pos[lk["b"]].y:.1f}"/>'
        for lk in links if lk["a"] in pos and lk["b"] in pos)
    shapes = "".join(
        f'<circle cx="{p.x:.1f}" cy="{p.y:.1f}" r="{radius}" fill="{HOST}"/>' if p.kind == "host"
        else f'<rect x="{p.x - radius * 1.4:.1f}" y="{p.y - radius * 1.4:.1f}" '
             f'width="{radius * 2.8:.1f}" height="{radius * 2.8:.1f}" fill="{SWITCH}"/>'
        for p in pos.values())
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}"><rect width="100%" height="100%" fill="{BG}"/>'
            f'<text x="{MARGIN}" y="50" font-family="sans-serif" font-size="34" fill="{INK}">'
            f'{escape(title[:70])}</text>'
            f'<g stroke="{LINK}" stroke-width="{link_width}">{lines}</g>{shapes}</svg>')
