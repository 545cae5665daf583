"""Scalar fields of the scenario document, read from its JSON Schema (the Pydantic models).

A field is one leaf of the document ("switch.ecn.kmin_bytes"): its JSON type, range, default,
enumeration, unit and description. Maps (ecn_by_rate), lists and nested objects are not leaves.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# The unit a field's name ends with (the house convention: the name says the unit).
UNIT_SUFFIXES = (("_bytes", "bytes"), ("_us", "us"), ("_ns", "ns"), ("_gbps", "Gbit/s"),
                 ("_mbps", "Mbit/s"), ("_km", "km"), ("_packets", "packets"))


@dataclass
class FieldSpec:
    """One scalar field: what the three readers (API, editor, simulator) must agree on."""

    path: str
    type: str  # "integer" | "number" | "boolean" | "enum" | "string"
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    exclusive_maximum: bool = False
    options: list[str] = field(default_factory=list)
    keyword: str | None = None  # a word accepted besides a number ("auto", "bdp")
    default: Any = None
    nullable: bool = False
    unit: str | None = None
    description: str | None = None


def unit_of(name: str) -> str | None:
    """The unit a field name ends with, or None."""
    for suffix, unit in UNIT_SUFFIXES:
        if name.endswith(suffix):
            return unit
    return None


def resolve(schema: dict, node: dict) -> dict:
    """Follow a local $ref."""
    while "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def _bounds(spec: FieldSpec, node: dict) -> None:
    """Copy minimum/maximum (inclusive or exclusive) of a number schema into spec."""
    for key, attr, excl in (("minimum", "minimum", None), ("exclusiveMinimum", "minimum", "min"),
                            ("maximum", "maximum", None), ("exclusiveMaximum", "maximum", "max")):
        if key in node:
            setattr(spec, attr, node[key])
            if excl == "min":
                spec.exclusive_minimum = True
            elif excl == "max":
                spec.exclusive_maximum = True


def leaf(schema: dict, path: str, prop: dict) -> FieldSpec | None:
    """The FieldSpec of one property, or None when it is not a scalar leaf."""
    name = path.rsplit(".", 1)[-1]
    spec = FieldSpec(path=path, type="", default=prop.get("default"), unit=unit_of(name),
                     description=prop.get("description"))
    options = [resolve(schema, o) for o in prop.get("anyOf", [prop])]
    for o in options:
        kind = o.get("type")
        if kind == "null":
            spec.nullable = True
        elif "const" in o:
            spec.keyword = o["const"]
        elif "enum" in o:
            spec.type, spec.options = "enum", list(o["enum"])
        elif kind in ("integer", "number", "boolean", "string"):
            spec.type = kind
            _bounds(spec, o)
        else:
            return None
    if not spec.type:
        return None
    if spec.type == "string" and spec.keyword is not None:
        spec.type, spec.options = "enum", [spec.keyword]
        spec.keyword = None
    return spec


def object_fields(schema: dict, node: dict, prefix: str = "") -> list[FieldSpec]:
    """Every scalar leaf under an object schema, depth first, in property order (sorted)."""
    out: list[FieldSpec] = []
    node = resolve(schema, node)
    for name in sorted(node.get("properties", {})):
        prop = node["properties"][name]
        path = f"{prefix}{name}"
        target = resolve(schema, prop)
        if target.get("type") == "object" and "properties" in target:
            out += object_fields(schema, target, path + ".")
            continue
        spec = leaf(schema, path, prop)
        if spec is not None:
            out.append(spec)
    return out


def definition_ranges(schema: dict, extra: Sequence[tuple[str, dict]] = ()) -> dict[str, dict]:
    """Numeric ranges keyed "Definition.property" ("#.duration_us" for the root), and those of
    the `extra` (name, object schema) tables."""
    out: dict[str, dict] = {}
    tables = [("#", schema)] + list(extra) + sorted(schema["$defs"].items())
    for name, node in tables:
        for prop_name, prop in sorted(node.get("properties", {}).items()):
            spec = leaf(schema, prop_name, prop)
            if spec is None or spec.type not in ("integer", "number"):
                continue
            if spec.minimum is None and spec.maximum is None:
                continue
            out[f"{name}.{prop_name}"] = range_dict(spec)
    return out


def range_dict(spec: FieldSpec) -> dict:
    """min/max/exclusiveMin/exclusiveMax of a numeric field, only the keys that apply."""
    out: dict[str, Any] = {}
    if spec.minimum is not None:
        out["min"] = spec.minimum
    if spec.maximum is not None:
        out["max"] = spec.maximum
    if spec.exclusive_minimum:
        out["exclusiveMin"] = True
    if spec.exclusive_maximum:
        out["exclusiveMax"] = True
    return out
