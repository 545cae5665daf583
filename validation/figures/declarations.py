"""Imports every module that declares figures (validation/figures/core.py)."""

from validation.figures import faults, incast  # noqa: F401
