"""The simulator's child process: it runs at SIM_NICE so that simulations yield the cores to the
API on a shared host (docs/benchmarks-history.md, API under load), and it dies with its worker."""

import os
import sys

import pytest
from pydantic import ValidationError

from app.core.config import Settings
from workers.simprocess import run_simulator

# A stand-in for fabricsim that reports the priority it was started with, as a progress line.
REPORT_NICENESS = ("import json, os; "
                   "print(json.dumps({'nice': os.getpriority(os.PRIO_PROCESS, 0)}), flush=True)")


def _child_niceness(tmp_path, nice: int) -> int:
    lines: list[dict] = []
    outcome = run_simulator([sys.executable, "-c", REPORT_NICENESS], tmp_path, hard_wall_s=60,
                            tick_s=0.5, on_tick=lambda _line: True, on_line=lines.append,
                            nice=nice)
    assert outcome.returncode == 0, outcome
    assert len(lines) == 1, lines
    return lines[0]["nice"]


def test_simulator_runs_at_the_configured_niceness(tmp_path):
    own = os.getpriority(os.PRIO_PROCESS, 0)
    assert _child_niceness(tmp_path, 10) == max(own, 10)
    assert _child_niceness(tmp_path, 19) == 19
    # 0 leaves the worker's own priority; a niceness is never lowered below the worker's
    assert _child_niceness(tmp_path, 0) == own
    assert os.getpriority(os.PRIO_PROCESS, 0) == own  # the worker itself is untouched


def test_sim_nice_setting_is_bounded(monkeypatch):
    monkeypatch.delenv("SIM_NICE", raising=False)
    assert Settings().SIM_NICE == 10
    monkeypatch.setenv("SIM_NICE", "20")
    with pytest.raises(ValidationError, match="SIM_NICE"):
        Settings()
