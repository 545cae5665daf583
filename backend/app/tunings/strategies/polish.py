"""A local polish of a model-based search's best point: its untried neighbours along the axes
that matter, nearest first (docs/tuning.md, "TPE, then a local polish of its best").

A model of the results (TPE's densities) smooths over a narrow optimum: on the simulated incast
the best value is one Pmax step in a rugged row, flanked by points worse than the plateau next
to it, so TPE ends in the row without trying that step. The polish searches the lines through
the incumbent (every other value of one axis, the rest held), nearest index first, and moves to
a better point as soon as one is found.

Flat axes are learned from ties, as annealing does (`strategies/annealing.py`): every pair of
evaluated points that differ on one axis only is a tie (relative change below `TIE_REL`) or a
change on that axis, and an axis is weighted ((changes + 1) / (changes + ties + 1))^2. Lines
along axes whose weight fell below `LIVE_WEIGHT` are left out while any other line has an
untried point (an axis that only ever tied changes nothing near the incumbent).
"""

from app.tunings.space import Point

TIE_REL = 1e-9      # a relative loss change below this is a tie (annealing uses it too)
LIVE_WEIGHT = 0.5   # axes weighted below this are polished only when no other is left


def is_tie(a: float, b: float) -> bool:
    """Two losses equal within TIE_REL (a move that changed nothing)."""
    return abs(a - b) <= TIE_REL * max(abs(a), abs(b), 1e-12)


def tie_weight(changes: int, ties: int) -> float:
    """An axis's weight from its single-axis comparisons: 1 without ties, towards 0 with only
    ties (squared: after 15 ties an axis weighs 1/256 of a live one, not 1/16)."""
    return ((changes + 1) / (changes + ties + 1)) ** 2


def axis_weights(results: dict[Point, float], dims: int) -> list[float]:
    """Per axis, how informative single-axis differences between evaluated points have been:
    1 without ties, falling towards 0 when every such pair tied."""
    ties, changes = [0] * dims, [0] * dims
    for axis in range(dims):
        # points equal on every other axis differ on this one only: compare within such lines
        lines: dict[tuple, list[float]] = {}
        for point, value in results.items():
            lines.setdefault(point[:axis] + point[axis + 1:], []).append(value)
        for values in lines.values():
            for i, a in enumerate(values):
                for b in values[i + 1:]:
                    if is_tie(a, b):
                        ties[axis] += 1
                    else:
                        changes[axis] += 1
    return [tie_weight(c, t) for c, t in zip(changes, ties)]


def line_candidates(best: Point, shape: tuple[int, ...], weights: list[float],
                    tried: set[Point]) -> list[Point]:
    """Untried points on the lines through `best`, nearest (in index steps) first; lines along
    flat axes only when no live one has an untried point. Ties in distance go by axis order,
    then the lower index first, so the order is deterministic."""
    def along(axes: list[int]) -> list[Point]:
        found = []
        for axis in axes:
            for value in range(shape[axis]):
                point = best[:axis] + (value,) + best[axis + 1:]
                if value != best[axis] and point not in tried:
                    found.append((abs(value - best[axis]), axis, value, point))
        return [p for *_, p in sorted(found)]

    live = [a for a in range(len(shape)) if weights[a] >= LIVE_WEIGHT]
    return along(live) or along([a for a in range(len(shape)) if a not in live])
