"""How many hosts, nodes and links a generated fabric expands to: the one declaration of the
formulas (docs/scenario-format.md, the generators).

The API (topology.counts, runs.threads.host_count), the simulator (its node and link limits,
simcore/scenario/topology-reader.cc) and the editor (the count shown before generating,
GeneratorForm.tsx) all read these: `python -m app.contracts.generate` writes them into
simcore/scenario/scenario-contract.h (namespace counts) and
frontend/src/lib/scenario/contract.gen.ts (FABRIC_COUNTS).

A formula is an arithmetic expression (+, -, *, / and parentheses, integer constants) over the
generator's fields; "site.leaves" is a field of a nested object. Each `/` divides exactly (a
fat-tree's k is even), so every language gets the same whole number.
"""

import ast
from fractions import Fraction
from typing import Any

FABRIC_COUNTS: dict[str, dict[str, str]] = {
    "leaf_spine": {
        "hosts": "leaves * hosts_per_leaf",
        "nodes": "leaves * (hosts_per_leaf + 1) + spines",
        "links": "leaves * (hosts_per_leaf + spines)",
    },
    "fat_tree": {
        "hosts": "k * k * k / 4",
        "nodes": "k * k * k / 4 + 5 * k * k / 4",
        "links": "3 * k * k * k / 4",
    },
    "three_tier": {
        "hosts": "podsets * tors_per_podset * hosts_per_tor",
        "nodes": "podsets * (tors_per_podset * (hosts_per_tor + 1) + leafs_per_podset) + spines",
        "links": "podsets * (tors_per_podset * (hosts_per_tor + leafs_per_podset) + spines)",
    },
    "dci": {  # two leaf-spine sites, a DCI switch at each, one long-haul link between them
        "hosts": "2 * site.leaves * site.hosts_per_leaf",
        "nodes": "2 * (site.leaves * (site.hosts_per_leaf + 1) + site.spines + 1)",
        "links": "2 * (site.leaves * (site.hosts_per_leaf + site.spines) + site.spines) + 1",
    },
    "rail_optimized": {  # one leaf per rail per unit
        "hosts": "units * servers_per_unit * nics_per_server",
        "nodes": "units * nics_per_server * (servers_per_unit + 1) + spines",
        "links": "units * nics_per_server * (servers_per_unit + spines)",
    },
    "multi_plane": {  # a rail-optimized fabric per plane; each NIC has a port in every plane
        "hosts": "units * servers_per_unit * nics_per_server",
        "nodes": "units * nics_per_server * (servers_per_unit + planes) + planes * spines",
        "links": "planes * units * nics_per_server * (servers_per_unit + spines)",
    },
}

_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def parse(formula: str) -> ast.expr:
    """The formula's syntax tree; ValueError for anything but the arithmetic the module allows."""
    tree = ast.parse(formula, mode="eval").body
    for node in ast.walk(tree):
        allowed = (ast.BinOp, ast.Name, ast.Attribute, ast.Load, ast.Constant, *_OPS)
        if not isinstance(node, allowed) or (isinstance(node, ast.Constant) and type(node.value) is not int):
            raise ValueError(f"{formula!r}: {type(node).__name__} is not allowed in a count")
    return tree


def variable(node: ast.expr) -> str:
    """The field a Name or Attribute names ("site.leaves")."""
    if isinstance(node, ast.Attribute):
        return f"{variable(node.value)}.{node.attr}"
    assert isinstance(node, ast.Name), ast.dump(node)
    return node.id


def variables(formula: str) -> list[str]:
    """Fields the formula reads, in order of first use."""
    out: list[str] = []
    render(formula, lambda field: out.append(field) or field)
    return list(dict.fromkeys(out))


def render(formula: str, name: Any) -> str:
    """The formula as C++ or TypeScript source, each field written by `name(field)`."""

    def walk(node: ast.expr) -> str:
        if isinstance(node, ast.BinOp):
            return f"({walk(node.left)} {_OPS[type(node.op)]} {walk(node.right)})"
        if isinstance(node, ast.Constant):
            return str(node.value)
        return name(variable(node))

    text = walk(parse(formula))
    return text[1:-1] if text.startswith("(") and text.endswith(")") else text


def evaluate(formula: str, read: Any) -> int:
    """The formula's value, each field's value from `read(field)`; exact (ValueError if a
    division leaves a remainder)."""

    def walk(node: ast.expr) -> Fraction:
        if isinstance(node, ast.BinOp):
            a, b = walk(node.left), walk(node.right)
            op = type(node.op)
            return a + b if op is ast.Add else a - b if op is ast.Sub else a * b if op is ast.Mult else a / b
        if isinstance(node, ast.Constant):
            return Fraction(node.value)
        return Fraction(read(variable(node)))

    value = walk(parse(formula))
    if value.denominator != 1:
        raise ValueError(f"{formula!r} is not a whole number here ({value})")
    return int(value)


def count(kind: str, what: str, topology: Any) -> int:
    """hosts, nodes or links of a generated topology (a Pydantic model or a dict)."""

    def read(field: str) -> Any:
        value = topology
        for part in field.split("."):
            value = value[part] if isinstance(value, dict) else getattr(value, part)
        return value

    return evaluate(FABRIC_COUNTS[kind][what], read)
