"""The worker's entry point (`celery -A workers.celery_app worker`): the Celery application lives in
app.core.queue, which the API imports too; the workers depend on it, not the other way."""

from app.core.queue import ALL_QUEUES, BATCH_QUEUE, CONTROL_QUEUE, SIM_QUEUE, celery_app

__all__ = ["ALL_QUEUES", "BATCH_QUEUE", "CONTROL_QUEUE", "SIM_QUEUE", "app", "celery_app"]

app = celery_app
