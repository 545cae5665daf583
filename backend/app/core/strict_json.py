"""Request bodies parsed as strictly as `fabricsim` reads a file: a key given twice in one
object, or a number JSON cannot hold (1e400, NaN, Infinity), is a 422 naming where it is,
never silently "last key wins" or an infinite value."""

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute

Path = tuple[str | int, ...]


class _Duplicated(dict):
    """An object in which `duplicate_key` appeared more than once (the last value kept)."""

    duplicate_key: str = ""


class NotFinite(ValueError):
    """A number literal outside the range of a double."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """object_pairs_hook: a dict, marked when a key repeats."""
    out: dict[str, Any] = {}
    repeated = None
    for key, value in pairs:
        if key in out and repeated is None:
            repeated = key
        out[key] = value
    if repeated is None:
        return out
    marked = _Duplicated(out)
    marked.duplicate_key = repeated
    return marked


def _finite(text: str) -> float:
    """parse_float: refuse literals that overflow to infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise NotFinite(f"number {text[:40]} is out of range")
    return value


def _constant(text: str) -> float:
    """parse_constant: NaN and Infinity are not JSON."""
    raise NotFinite(f"{text} is not a JSON number")


def _first_duplicate(value: Any, path: Path = ()) -> Path | None:
    """Path of the first repeated key, depth first in document order."""
    if isinstance(value, _Duplicated):
        return path + (value.duplicate_key,)
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, child in items:
        found = _first_duplicate(child, path + (key,))
        if found is not None:
            return found
    return None


def strict_errors(body: bytes) -> list[dict[str, Any]]:
    """422 details for a duplicate key or a non-finite number in `body` (empty if none).

    Syntax errors are left to FastAPI's own json_invalid error.
    """
    try:
        document = json.loads(body, object_pairs_hook=_object, parse_float=_finite,
                              parse_constant=_constant)
    except NotFinite as exc:
        return [{"loc": ("body",), "msg": f"invalid JSON: {exc}", "type": "json_invalid"}]
    except (ValueError, RecursionError):
        return []
    path = _first_duplicate(document)
    if path is None:
        return []
    key = path[-1]
    return [{"loc": ("body", *path), "type": "duplicate_key",
             "msg": f"duplicate key '{key}' (each key may appear once in an object)"}]


def _is_json(request: Request) -> bool:
    """Content type application/json or application/*+json (what FastAPI parses as JSON)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


class StrictJsonRoute(APIRoute):
    """An APIRoute that checks JSON bodies with strict_errors before FastAPI parses them."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        """Wrap the default handler."""
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            if request.method in ("POST", "PUT", "PATCH") and _is_json(request):
                errors = strict_errors(await request.body())
                if errors:
                    raise RequestValidationError(errors, body=None)
            return await handler(request)

        return strict_handler
