"""A small SVG line chart of best-so-far against evaluations (no plotting library in the venv)."""

import math
from html import escape

COLOURS = {"grid": "#7f7f7f", "random": "#1f77b4", "annealing": "#d62728", "tpe": "#2ca02c",
           "nsga2": "#9467bd", "vendor": "#8c564b", "experience": "#e377c2"}
W, H, LEFT, RIGHT, TOP, BOTTOM = 760, 420, 70, 150, 30, 50


def best_so_far_svg(report: dict) -> str:
    """Objective (the negated loss: higher is better) against evaluations on a log axis."""
    series = {name: [(m, -v) for m, v in s["curve_dense"]] for name, s in report["strategies"].items()}
    values = [v for pts in series.values() for _, v in pts] + [-x for x in report["fixed"].values()]
    lo, hi = min(values), max(values)
    hi += (hi - lo) * 0.05 or 1.0
    lo -= (hi - lo) * 0.05
    x_max = max(m for pts in series.values() for m, _ in pts)

    def x(m: float) -> float:
        return LEFT + (W - LEFT - RIGHT) * math.log10(max(m, 1)) / math.log10(x_max)

    def y(v: float) -> float:
        return TOP + (H - TOP - BOTTOM) * (hi - v) / (hi - lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{LEFT}" y="18">best objective so far (median over seeds) against '
           f'evaluations; dashed: fixed points</text>']
    for decade in range(0, int(math.log10(x_max)) + 1):
        m = 10 ** decade
        out.append(f'<line x1="{x(m):.1f}" y1="{TOP}" x2="{x(m):.1f}" y2="{H - BOTTOM}" '
                   f'stroke="#ddd"/><text x="{x(m):.1f}" y="{H - BOTTOM + 16}" '
                   f'text-anchor="middle">{m}</text>')
    for i in range(6):
        v = lo + (hi - lo) * i / 5
        out.append(f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{W - RIGHT}" y2="{y(v):.1f}" '
                   f'stroke="#eee"/><text x="{LEFT - 6}" y="{y(v) + 4:.1f}" '
                   f'text-anchor="end">{v:.3g}</text>')
    out.append(f'<text x="{(LEFT + W - RIGHT) / 2}" y="{H - 12}" text-anchor="middle">'
               f'evaluations (full-duration equivalents, log scale)</text>')
    legend_y = TOP + 10
    for name, value in report["fixed"].items():
        colour = COLOURS.get(name, "#000")
        out.append(f'<line x1="{LEFT}" y1="{y(-value):.1f}" x2="{W - RIGHT}" y2="{y(-value):.1f}" '
                   f'stroke="{colour}" stroke-dasharray="5,4"/>')
        out.append(_legend(legend_y, colour, f"{name} ({-value:.3g})", dashed=True))
        legend_y += 18
    for name, pts in series.items():
        colour = COLOURS.get(name, "#000")
        path = " ".join(f"{'M' if i == 0 else 'L'}{x(m):.1f},{y(v):.1f}" for i, (m, v) in enumerate(pts))
        out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.append(_legend(legend_y, colour, escape(name)))
        legend_y += 18
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(y: float, colour: str, label: str, dashed: bool = False) -> str:
    dash = ' stroke-dasharray="5,4"' if dashed else ""
    return (f'<line x1="{W - RIGHT + 10}" y1="{y}" x2="{W - RIGHT + 34}" y2="{y}" stroke="{colour}" '
            f'stroke-width="2"{dash}/><text x="{W - RIGHT + 40}" y="{y + 4}">{label}</text>')
