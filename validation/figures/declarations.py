"""Imports every module that declares figures (validation/figures/core.py)."""

from validation.figures import dci, ecmp, erd, faults, incast, websearch  # noqa: F401
