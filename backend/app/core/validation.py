"""Helpers to raise Pydantic errors at a precise location from cross-field validators."""

from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError

Loc = tuple[str | int, ...]


def error_at(loc: Loc, message: str, value: Any, kind: str = "value_error") -> InitErrorDetails:
    """One error detail at `loc` (relative to the model being validated)."""
    # Without a context pydantic-core leaves braces in the template as they are.
    return InitErrorDetails(type=PydanticCustomError(kind, message), loc=loc, input=value)


def raise_errors(title: str, errors: list[InitErrorDetails]) -> None:
    """Raise a ValidationError carrying `errors` if there are any."""
    if errors:
        raise ValidationError.from_exception_data(title, errors)


def relocate(exc: ValidationError, prefix: Loc) -> list[InitErrorDetails]:
    """Re-emit the errors of a nested validation under `prefix`."""
    return [
        error_at(prefix + tuple(err["loc"]), err["msg"], err.get("input"), err["type"])
        for err in exc.errors()
    ]


def normalize_loc(loc: Loc, document: Any) -> list[str | int]:
    """Drop Pydantic's union tags from `loc` so it names a JSON path of `document`.

    Discriminated unions add the tag (`"explicit"`), plain unions add the member
    (`"int"`, `"literal['auto']"`); neither exists in the submitted document.
    """
    out: list[str | int] = []
    current: Any = document
    walking = True
    for part in loc:
        if not walking:
            out.append(part)
        elif isinstance(current, dict):
            if part in current:
                out.append(part)
                current = current[part]
            elif part == current.get("kind"):
                continue
            else:
                out.append(part)
                walking = False
        elif isinstance(current, list):
            if isinstance(part, int):
                out.append(part)
                current = current[part] if 0 <= part < len(current) else None
            # a string here is a union member name: drop it
        elif isinstance(part, str):
            continue
        else:
            out.append(part)
    return out


def parse_dotted(path: str) -> list[str | int]:
    """Inverse of `dotted`: `a.b[2].c` -> `["a", "b", 2, "c"]`."""
    parts: list[str | int] = []
    for chunk in path.split("."):
        name, _, rest = chunk.partition("[")
        if name:
            parts.append(name)
        while rest:
            index, _, rest = rest.partition("]")
            parts.append(int(index) if index.isdigit() else index)
            rest = rest.lstrip("[")
    return parts
