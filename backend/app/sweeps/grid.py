"""Grid expansion: parameter values set at dotted paths of a scenario document."""

import copy
import itertools
from typing import Any

from pydantic import ValidationError

from app.core.validation import error_at, normalize_loc, raise_errors
from app.scenarios.document import Scenario
from app.sweeps.schemas import LinkedParameter, SweepCreate


def split_path(path: str) -> list[str | int]:
    """`traffic.0.size_bytes` -> ["traffic", 0, "size_bytes"]."""
    return [int(p) if p.isdigit() else p for p in path.split(".")]


def get_path(document: Any, path: str) -> Any:
    """The value at `path`, or KeyError."""
    node = document
    for part in split_path(path):
        if isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            raise KeyError(path)
    return node


def set_path(document: dict[str, Any], path: str, value: Any) -> None:
    """Set `value` at `path`, creating missing objects (lists must already hold the index)."""
    parts = split_path(path)
    node: Any = document
    for part in parts[:-1]:
        if isinstance(node, list):
            if not isinstance(part, int) or part >= len(node):
                raise KeyError(path)
            node = node[part]
        else:
            node = node.setdefault(part, {})
            if not isinstance(node, (dict, list)):
                raise KeyError(path)
    last = parts[-1]
    if isinstance(node, list):
        if not isinstance(last, int) or last >= len(node):
            raise KeyError(path)
    elif not isinstance(node, dict):
        raise KeyError(path)
    node[last] = value


def linked_value(link: LinkedParameter, params: dict[str, Any], base: dict[str, Any]) -> Any:
    """scale x value(from) + offset; integral when every input is."""
    source = params[link.from_] if link.from_ in params else get_path(base, link.from_)
    value = link.scale * source + link.offset
    ints = all(float(x).is_integer() for x in (source, link.scale, link.offset))
    return int(value) if ints and not isinstance(source, float) else value


def grid(body: SweepCreate) -> list[dict[str, Any]]:
    """Every combination of parameter values, in row-major order of `parameters`."""
    paths = [p.path for p in body.parameters]
    return [dict(zip(paths, combo)) for combo in itertools.product(*(p.values for p in body.parameters))]


def point_document(base: dict[str, Any], body: SweepCreate, params: dict[str, Any]
                   ) -> tuple[dict[str, Any], dict[str, Any]]:
    """(document, all params incl. linked) of one grid point; raises KeyError/TypeError on bad paths."""
    document = copy.deepcopy(base)
    full = dict(params)
    for path, value in params.items():
        set_path(document, path, value)
    for link in body.linked:
        full[link.path] = linked_value(link, params, base)
        set_path(document, link.path, full[link.path])
    return document, full


def build_points(base: dict[str, Any], body: SweepCreate) -> list[tuple[dict[str, Any], Scenario]]:
    """Validate every grid point; errors point at the parameter (and value) responsible."""
    points, errors = [], []
    for index, params in enumerate(grid(body)):
        try:
            document, full = point_document(base, body, params)
            points.append((full, Scenario.model_validate(document)))
        except (KeyError, TypeError) as exc:
            errors.append(error_at(("body",) + _blame(body, str(exc).strip("'")),
                                   f"no such path in the scenario: {exc}", None))
        except ValidationError as exc:
            for err in exc.errors()[:3]:
                where = ".".join(str(p) for p in normalize_loc(tuple(err["loc"]), document))
                if err["type"] == "extra_forbidden":  # a typo in the path: say so, plainly
                    errors.append(error_at(("body",) + _blame(body, where, None),
                                           f"{where} is not a field of the scenario (check the "
                                           "spelling; docs/scenario-format.md lists the fields)",
                                           where))
                    continue
                errors.append(error_at(("body",) + _blame(body, where, params),
                                       f"point {index} {params}: {where}: {err['msg']}",
                                       err.get("input")))
        if errors:
            break
    raise_errors("SweepCreate", errors)
    return points


def _blame(body: SweepCreate, where: str, params: dict[str, Any] | None = None) -> tuple:
    """Location of the parameter whose path matches `where`, else the parameters list."""
    for i, p in enumerate(body.parameters):
        if where.startswith(p.path) or p.path.startswith(where):
            if params is not None:
                return ("parameters", i, "values", p.values.index(params[p.path]))
            return ("parameters", i, "path")
    for i, link in enumerate(body.linked):
        if where.startswith(link.path) or link.path.startswith(where):
            return ("linked", i, "path")
    return ("parameters",)
