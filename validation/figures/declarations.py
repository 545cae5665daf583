"""Imports every module that declares figures (validation/figures/core.py)."""

from validation.figures import ai, cc_presets, faults, incast, pfc_alpha, tuning  # noqa: F401
