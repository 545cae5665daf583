"""Flow-level screening (issue 36, the practitioners' recipe): a sweep or a tuning runs every point
at flow level first, then its best `keep` points at packet level, and shows both figures side by
side. Declared once here; the sweeps and tunings schemas embed it (docs/api.md, docs/tuning.md).

Screening is refused, naming the parameter, when a swept path is one the flow engine does not
model (app/scenarios/flow_model.py): every point would get the same flow-level answer, and the
ranking would be noise.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import InitErrorDetails

from app.core.validation import Loc, error_at
from app.scenarios.flow_model import unmodelled

MIN_KEEP = 1
MAX_KEEP = 64
# What a sweep may rank its flow-level points by, and the better direction: the figures the flow
# engine answers (docs/validation-flow.md measures their error).
SCREEN_METRICS: dict[str, Literal["min", "max"]] = {
    "jct_us": "min",
    "busbw_gbps": "max",
    "throughput_gbps": "max",
    "fct_p50_us": "min",
    "fct_p99_us": "min",
    "slowdown_p99": "min",
}
ScreenMetric = Literal[tuple(SCREEN_METRICS)]  # type: ignore[valid-type]


class Screening(BaseModel):
    """Every point at flow level first, then the best `keep` at packet level."""

    model_config = ConfigDict(extra="forbid")
    engine: Literal["flow"] = Field("flow", description="the engine that screens every point")
    keep: int = Field(3, ge=MIN_KEEP, le=MAX_KEEP, description="how many of the best points run again at packet level")


def refuse_unmodelled(paths: list[tuple[Loc, str]]) -> list[InitErrorDetails]:
    """One error per swept path (at its location) the flow engine does not model."""
    errors = []
    for loc, path in paths:
        found = unmodelled(path)
        if found is not None:
            feature, why = found
            errors.append(
                error_at(
                    loc,
                    f"screening at flow level cannot rank over {path}: {why} (feature "
                    f"'{feature}', docs/model.md \"Flow-level engine\"); sweep it without screening, "
                    "or screen over what the flow engine models (topology, routing, placement, "
                    "parallelism, message sizes, channels)",
                    path,
                    kind="screening_unmodelled",
                )
            )
    return errors
