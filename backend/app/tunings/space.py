"""Search spaces: parameters on a grid of vendor-unit values, mapped onto scenario fields.

A point of a space is a tuple of value indices, one per parameter (so neighbours on the grid
are one index apart). `Space.settings(point)` gives the vendor-unit values by parameter name;
`Space.apply(document, point)` writes the model values (bytes, fractions) into a scenario
document, linked parameters (Kmax = Kmin + 500) included. Units are documented in docs/tuning.md.
"""

import copy
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from app.sweeps.grid import get_path, set_path

Point = tuple[int, ...]

# How a vendor-unit value becomes a scenario value. Every mapping is a pure function of the value
# and the scenario (cells need its `switch.cell_bytes`), so a space can be re-read at any time.
Unit = Literal["model", "bytes", "cells", "percent", "alpha_direct", "alpha_broadcom_index",
               "alpha_sai_exponent"]
UNITS: dict[str, str] = {
    "model": "the value is written as it is",
    "bytes": "bytes, written as they are (integer)",
    "cells": "buffer cells: value x switch.cell_bytes bytes (208 B unless the scenario says)",
    "percent": "percent: value / 100",
    "alpha_direct": "dynamic-threshold alpha as a multiple of the free shared buffer, as written",
    "alpha_broadcom_index": "Broadcom dynamic-threshold index 0..10: alpha = 2^(value - 7), "
                            "1/128 .. 8",
    "alpha_sai_exponent": "SAI/Spectrum dynamic_th exponent -7..6: alpha = 2^value, 1/128 .. 64",
}
DEFAULT_CELL_BYTES = 208


class SpaceError(ValueError):
    """A space that cannot be used: `where` names the parameter, `message` says why."""

    def __init__(self, where: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


def cell_bytes(document: dict[str, Any]) -> int:
    """The switch cell size the scenario uses (its default when unset)."""
    try:
        return int(get_path(document, "switch.cell_bytes"))
    except KeyError:
        return DEFAULT_CELL_BYTES


def to_model(unit: str, value: float, document: dict[str, Any]) -> Any:
    """One vendor-unit value -> the value stored at the scenario path."""
    if unit == "model":
        return value
    if unit == "bytes":
        return int(round(value))
    if unit == "cells":
        return int(round(value * cell_bytes(document)))
    if unit == "percent":
        return round(value / 100.0, 10)
    if unit == "alpha_direct":
        return float(value)
    if unit == "alpha_broadcom_index":
        if not 0 <= value <= 10 or not float(value).is_integer():
            raise SpaceError((), f"Broadcom alpha index {value} is outside 0..10")
        return 2.0 ** (value - 7)
    if unit == "alpha_sai_exponent":
        if not -7 <= value <= 6 or not float(value).is_integer():
            raise SpaceError((), f"SAI alpha exponent {value} is outside -7..6")
        return 2.0 ** value
    raise SpaceError((), f"unknown unit {unit}")


def expand_range(start: float, stop: float, step: float) -> list[float]:
    """start, start+step, ... up to stop inclusive (stop is hit when (stop-start)/step is whole)."""
    if step <= 0:
        raise SpaceError(("step",), f"step must be > 0 (got {step})")
    if stop < start:
        raise SpaceError(("stop",), f"stop ({stop}) must be >= start ({start})")
    count = int(math.floor((stop - start) / step + 1e-9)) + 1
    values = [start + i * step for i in range(count)]
    return [int(v) if float(v).is_integer() else round(v, 12) for v in values]


@dataclass(frozen=True)
class Parameter:
    """One axis: a short name, the scenario path, the vendor-unit values and their unit."""

    name: str
    path: str
    values: tuple[float, ...]
    unit: str = "model"


@dataclass(frozen=True)
class Linked:
    """A path set from another parameter: scale x value(from) + offset, in `unit` (Kmax = Kmin + 500)."""

    name: str
    path: str
    source: str
    offset: float = 0.0
    scale: float = 1.0
    unit: str = "model"


@dataclass(frozen=True)
class Space:
    """Parameters (grid axes) and linked parameters."""

    parameters: tuple[Parameter, ...]
    linked: tuple[Linked, ...] = ()

    def __post_init__(self) -> None:
        names = [p.name for p in self.parameters] + [link.name for link in self.linked]
        if len(set(names)) != len(names):
            raise SpaceError(("parameters",), "parameter names must be distinct")
        for i, link in enumerate(self.linked):
            if link.source not in {p.name for p in self.parameters}:
                raise SpaceError(("linked", i, "from"),
                                 f"'{link.source}' is not a parameter of the space")

    @property
    def shape(self) -> tuple[int, ...]:
        """Number of values of each parameter."""
        return tuple(len(p.values) for p in self.parameters)

    @property
    def size(self) -> int:
        """Number of grid points."""
        return math.prod(self.shape)

    def points(self) -> Iterator[Point]:
        """Every point in row-major order (the last parameter varies fastest)."""
        return itertools.product(*(range(n) for n in self.shape))

    def index_of(self, point: Point) -> int:
        """Row-major rank of a point (0 .. size-1)."""
        rank = 0
        for i, n in zip(point, self.shape):
            rank = rank * n + i
        return rank

    def point_at(self, rank: int) -> Point:
        """Inverse of index_of."""
        out = []
        for n in reversed(self.shape):
            rank, i = divmod(rank, n)
            out.append(i)
        return tuple(reversed(out))

    def contains(self, point: Point) -> bool:
        """Whether every index is on its axis."""
        return len(point) == len(self.shape) and all(0 <= i < n for i, n in zip(point, self.shape))

    def settings(self, point: Point) -> dict[str, float]:
        """Vendor-unit values by name, linked ones included."""
        values = {p.name: p.values[i] for p, i in zip(self.parameters, point)}
        for link in self.linked:
            values[link.name] = _num(link.scale * values[link.source] + link.offset)
        return values

    def point_of(self, settings: dict[str, float]) -> Point:
        """The grid point whose values are `settings` (KeyError/ValueError when off the grid)."""
        return tuple(p.values.index(settings[p.name]) for p in self.parameters)

    def nearest(self, settings: dict[str, float]) -> Point:
        """The grid point closest, axis by axis, to `settings` (a fixed point off the grid)."""
        return tuple(min(range(len(p.values)), key=lambda i, p=p: abs(p.values[i] - settings[p.name]))
                     for p in self.parameters)

    def apply(self, document: dict[str, Any], point: Point) -> tuple[dict[str, Any], dict[str, Any]]:
        """(a copy of `document` with the point's settings, model values by path)."""
        return self.apply_settings(document, self.settings(point))

    def apply_settings(self, document: dict[str, Any], settings: dict[str, float]
                       ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Like apply, from vendor-unit values by name (fixed points need not lie on the grid)."""
        out = copy.deepcopy(document)
        by_path: dict[str, Any] = {}
        units = {p.name: (p.path, p.unit) for p in self.parameters}
        units.update({link.name: (link.path, link.unit) for link in self.linked})
        for name, value in settings.items():
            path, unit = units[name]
            by_path[path] = to_model(unit, value, document)
        for path, value in by_path.items():
            set_path(out, path, value)
        return out, by_path


def _num(value: float) -> float:
    """Integral floats as ints, so labels read 5500 rather than 5500.0."""
    return int(value) if float(value).is_integer() else value


def neighbours(space: Space, point: Point) -> list[Point]:
    """Points one index away on one axis."""
    out = []
    for axis, n in enumerate(space.shape):
        for step in (-1, 1):
            j = point[axis] + step
            if 0 <= j < n:
                out.append(point[:axis] + (j,) + point[axis + 1:])
    return out


# The ByteTuning space (seeds/000, the slides' "ECN/PFC threshold parameter search space"):
# 11 Kmin x 10 Pmax x 5 alpha x 6 headroom = 3,300 points, Kmax = Kmin + 500 (cells).
BYTETUNING_UNITS = {"kmin": "cells", "pmax": "percent", "alpha": "alpha_direct",
                    "headroom": "cells"}


def bytetuning_space(units: dict[str, str] | None = None) -> Space:
    """The named space `bytetuning`; `units` overrides the vendor-unit mapping per parameter."""
    u = {**BYTETUNING_UNITS, **(units or {})}
    return Space(
        parameters=(
            Parameter("kmin", "switch.ecn.kmin_bytes", tuple(range(0, 5001, 500)), u["kmin"]),
            Parameter("pmax", "switch.ecn.pmax", (1, 10, 20, 30, 40, 50, 60, 70, 80, 90), u["pmax"]),
            Parameter("alpha", "switch.pfc.alpha", (1, 3, 5, 11, 20), u["alpha"]),
            Parameter("headroom", "switch.pfc.headroom_bytes", tuple(range(100, 601, 100)),
                      u["headroom"]),
        ),
        linked=(Linked("kmax", "switch.ecn.kmax_bytes", "kmin", offset=500, unit=u["kmin"]),),
    )


NAMED_SPACES = {"bytetuning": bytetuning_space}
