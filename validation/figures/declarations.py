"""Imports every module that declares figures (validation/figures/core.py)."""

from validation.figures import dci, ecmp, faults, incast, websearch  # noqa: F401
