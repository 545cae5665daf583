"""Validation targets: a registry of functions, each returning rows of
(target, source, expected, tolerance, measured, pass). Add a target with @target."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Row:
    target: str
    source: str
    expected: str
    tolerance: str
    measured: str
    passed: bool | None  # None: reported, no pass/fail criterion

    @property
    def verdict(self) -> str:
        return "-" if self.passed is None else ("PASS" if self.passed else "FAIL")


@dataclass
class Section:
    """What one target function returns: its rows and optional extra markdown (a table)."""

    title: str
    rows: list[Row] = field(default_factory=list)
    extra_markdown: str = ""


@dataclass(frozen=True)
class Target:
    name: str
    func: Callable[[bool], Section]
    quick: bool  # also part of the quick run (scripts/test.sh)


REGISTRY: list[Target] = []


def target(name: str, quick: bool = False):
    """Registers func(quick: bool) -> Section. Quick targets run in scripts/test.sh and must be
    short; in the quick run func gets quick=True and may measure less."""

    def wrap(func: Callable[[bool], Section]):
        REGISTRY.append(Target(name, func, quick))
        return func

    return wrap


def within(measured: float, expected: float, rel: float) -> bool:
    return abs(measured - expected) <= rel * abs(expected)
