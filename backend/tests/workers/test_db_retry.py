"""Database outages in tasks: Celery's own retries (autoretry_for, backoff, a cap on tries) replace
the hand-written loops; a task gives up after DB_RETRY_MAX_TRIES and the error propagates (the
reconciler then finds the work). Runs the tasks eagerly (Task.apply): Celery re-runs an eager task
in place on retry, so each try is counted without a broker or a wait."""

import pytest
from sqlalchemy.exc import OperationalError

from app.core.config import get_settings
from app.runs import execution
from workers.tasks import runs as run_tasks
from workers.tasks import sweeps as sweep_tasks


def _outage(calls: list[int]):
    def fail(*args, **kwargs):
        calls.append(1)
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))
    return fail


def test_task_options_follow_the_settings():
    settings = get_settings()
    for task in (run_tasks.execute, run_tasks.execute_batch, sweep_tasks.expand):
        assert task.max_retries == settings.DB_RETRY_MAX_TRIES
        assert task.retry_backoff_max == int(settings.DB_RETRY_MAX_DELAY_S)
        assert OperationalError in task.autoretry_for


@pytest.mark.parametrize("cap", [0, 3])
def test_claim_outage_retries_up_to_the_cap_then_raises(monkeypatch, cap):
    calls: list[int] = []
    monkeypatch.setattr(execution, "claim_run", _outage(calls))
    monkeypatch.setattr(run_tasks.execute, "max_retries", cap)
    result = run_tasks.execute.apply(args=["no-such-run"])
    assert len(calls) == cap + 1
    with pytest.raises(OperationalError):
        result.get(propagate=True)


def test_a_try_that_succeeds_after_an_outage_returns_normally(monkeypatch):
    calls: list[int] = []
    fail = _outage(calls)

    def flaky(*args, **kwargs):
        if len(calls) < 2:
            fail()
        calls.append(1)
        return None  # "nothing to claim": the run is gone or final

    monkeypatch.setattr(execution, "claim_run", flaky)
    result = run_tasks.execute.apply(args=["no-such-run"])
    assert result.get() == "skipped" and len(calls) == 3
