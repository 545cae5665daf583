"""Imports every module that declares figures (validation/figures/core.py)."""

from validation.figures import (  # noqa: F401
    ai,
    cc_presets,
    dci,
    ecmp,
    erd,
    faults,
    flow,
    incast,
    pfc_alpha,
    training,
    tuning,
    websearch,
)
