"""Enqueue Celery tasks by name (the API never imports task code)."""

from workers.celery_app import celery_app

SIM_QUEUE = "sim"


def enqueue_run(run_id: str) -> str:
    """Send `runs.execute` for a committed run row; returns the Celery task id."""
    return celery_app.send_task("runs.execute", args=[run_id], queue=SIM_QUEUE).id


def enqueue_sweep(sweep_id: str) -> str:
    """Send `sweeps.expand` for a committed sweep row."""
    return celery_app.send_task("sweeps.expand", args=[sweep_id], queue="celery").id


def kick_tuning(tuning_id: str) -> str:
    """Send `tunings.kick`: (re)start the step chain of a committed tuning row."""
    return celery_app.send_task("tunings.kick", args=[tuning_id], queue="celery").id
