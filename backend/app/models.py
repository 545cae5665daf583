"""Import every table so Alembic and the workers see the whole metadata."""

from app.auth.models import Account
from app.core.db import Base
from app.measurements.models import Measurement
from app.runs.models import Run, RunResult
from app.scenarios.models import ScenarioRow
from app.sweeps.models import Sweep, SweepPoint
from app.tunings.models import Tuning, TuningEvaluation

__all__ = ["Account", "Base", "Measurement", "Run", "RunResult", "ScenarioRow", "Sweep",
           "SweepPoint", "Tuning", "TuningEvaluation"]
