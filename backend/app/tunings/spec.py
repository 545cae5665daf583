"""From a stored TuningCreate to the objects the strategies and objectives use, and from a
strategy's request to the scenario document that gets simulated."""

import copy
import itertools
from typing import Any

from pydantic import ValidationError

from app.core.validation import error_at, normalize_loc, raise_errors
from app.scenarios.document import Scenario
from app.sweeps.grid import set_path
from app.tunings.objectives import Constraint, Objective
from app.tunings.schemas import SpaceIn, StrategyIn, TuningCreate
from app.tunings.space import (Linked, Parameter, Space, SpaceError, _num, bytetuning_space,
                               expand_range)
from app.tunings.strategies import PENALTY, Request, Strategy, make

MAX_CORNERS = 256  # corner points checked at creation (every axis at its first or last value)


def build_space(spec: SpaceIn) -> Space:
    """The Space of a request; SpaceError names the parameter at fault."""
    if spec.named:
        space = bytetuning_space()
        known = {p.name for p in space.parameters}
        for name in spec.units:
            if name not in known:
                raise SpaceError(("units", name), f"'{name}' is not a parameter of the "
                                                  f"{spec.named} space ({', '.join(sorted(known))})")
        return bytetuning_space(dict(spec.units))
    params = []
    for i, p in enumerate(spec.parameters):
        try:
            values = p.values if p.values is not None else expand_range(
                p.range.start, p.range.stop, p.range.step)
        except SpaceError as exc:
            raise SpaceError(("parameters", i, "range") + exc.where, exc.message) from None
        params.append(Parameter(p.name, p.path, tuple(_num(v) for v in values), p.unit))
    linked = [Linked(link.name, link.path, link.from_, link.offset, link.scale, link.unit)
              for link in spec.linked]
    return Space(tuple(params), tuple(linked))


def objectives_of(spec: TuningCreate) -> list[Objective]:
    return [Objective(kind=o.kind, metric=o.metric, goal=o.sense, beta=o.beta, gamma=o.gamma,
                      job=o.job) for o in spec.objectives]


def constraints_of(spec: TuningCreate) -> list[Constraint]:
    return [Constraint(c.metric, c.op, c.value, c.job) for c in spec.constraints]


def strategy_of(spec: TuningCreate, sspec: StrategyIn, space: Space) -> Strategy:
    """A fresh strategy (deterministic: its seed and options come from the stored spec)."""
    options = sspec.options.model_dump(exclude_none=True)
    return make(sspec.name, space=space, n_objectives=len(spec.objectives), budget=sspec.budget,
                seed=sspec.seed, options=options)


def request_to_json(request: Request) -> dict[str, Any]:
    return {"point": list(request.point) if request.point is not None else None,
            "fidelity": request.fidelity, "settings": [list(s) for s in request.settings],
            "overrides": [list(o) for o in request.overrides]}


def request_from_json(data: dict[str, Any]) -> Request:
    point = tuple(data["point"]) if data.get("point") is not None else None
    return Request(point, float(data["fidelity"]), tuple(tuple(s) for s in data["settings"]),
                   tuple(tuple(o) for o in data["overrides"]))


def params_of(space: Space, request: Request) -> dict[str, Any]:
    """Vendor-unit settings of a grid point, or the fixed point's model values by path."""
    if request.point is not None:
        return space.settings(request.point)
    return dict(request.overrides)


def document_for(base: dict[str, Any], space: Space, request: Request) -> dict[str, Any]:
    """The scenario document one request simulates (settings applied, duration scaled)."""
    doc = space.apply(base, request.point)[0] if request.point is not None else copy.deepcopy(base)
    for path, value in request.overrides:
        set_path(doc, path, value)
    if request.fidelity < 1.0:
        duration = float(doc.get("duration_us", 10_000))
        doc["duration_us"] = round(duration * request.fidelity, 3)
        if "warmup_us" in doc:
            doc["warmup_us"] = round(float(doc["warmup_us"]) * request.fidelity, 3)
    return doc


def check_points(spec: TuningCreate, space: Space, bases: list[dict[str, Any]]) -> None:
    """422 unless every corner of the space and every fixed point gives a valid scenario."""
    corners = list(itertools.islice(itertools.product(*[
        sorted({0, n - 1}) for n in space.shape]), MAX_CORNERS))
    errors = []
    for base in bases:
        for corner in corners:
            errors += _check(lambda c=corner: document_for(base, space, Request(c)), space,
                             ("body", "space"), corner)
            if errors:
                break
        for i, sspec in enumerate(spec.strategies):
            if sspec.name in ("vendor", "experience"):
                request = strategy_of(spec, sspec, space).ask()[0]
                errors += _check(lambda r=request: document_for(base, space, r), space,
                                 ("body", "strategies", i, "options", "settings"), None)
        if errors:
            break
    raise_errors("TuningCreate", errors[:5])


def _check(build, space: Space, where: tuple, corner) -> list:
    try:
        document = build()
        Scenario.model_validate(document)
    except SpaceError as exc:
        return [error_at(where + exc.where, exc.message, None)]
    except (KeyError, TypeError) as exc:
        return [error_at(where + _blame(space, str(exc).strip("'")),
                         f"no such path in the scenario: {exc}", None)]
    except ValidationError as exc:
        out = []
        for err in exc.errors()[:3]:
            path = ".".join(str(p) for p in normalize_loc(tuple(err["loc"]), document))
            label = "" if corner is None else f" at {space.settings(corner)}"
            out.append(error_at(where + _blame(space, path),
                                f"{path}: {err['msg']}{label}", err.get("input")))
        return out
    return []


def _blame(space: Space, path: str) -> tuple:
    """Location of the parameter whose path matches `path`."""
    for i, p in enumerate(space.parameters):
        if path.startswith(p.path) or p.path.startswith(path):
            return ("parameters", i, "path")
    for i, link in enumerate(space.linked):
        if path.startswith(link.path) or link.path.startswith(path):
            return ("linked", i, "path")
    return ()


def losses_of(objectives: list[Objective], estimates: list[tuple[float, float]] | None,
              feasible: bool) -> list[float]:
    """What the strategies minimise: -mean for maximised objectives; PENALTY when infeasible."""
    if estimates is None or not feasible:
        return [PENALTY] * len(objectives)
    return [-m if o.goal == "max" else m for o, (m, _ci) in zip(objectives, estimates)]
