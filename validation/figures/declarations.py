"""Imports every module that declares figures (validation/figures/core.py)."""

from validation.figures import dci, faults, incast  # noqa: F401
