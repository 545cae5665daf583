"""The Celery application, configured from the shared Settings."""

from celery import Celery

from app.core.config import get_settings

settings = get_settings()

celery_app = Celery("fabrictwin", broker=settings.CELERY_BROKER_URL,
                    include=["workers.tasks.runs", "workers.tasks.sweeps",
                             "workers.tasks.tunings"])
celery_app.conf.update(
    task_ignore_result=True,          # the database holds the truth about runs
    task_acks_late=True,              # a message is acked only after the task returns...
    task_reject_on_worker_lost=True,  # ...and requeued when the worker process dies (kill -9)
    worker_prefetch_multiplier=1,     # one long simulation at a time per process
    task_routes={"runs.*": {"queue": "sim"}, "sweeps.*": {"queue": "celery"},
                 "tunings.evaluate": {"queue": "sim"}, "tunings.*": {"queue": "celery"}},
    task_default_queue="celery",
    broker_connection_retry_on_startup=True,
    # Redelivery of unacked messages (worker host gone): longer than any run may last.
    broker_transport_options={"visibility_timeout": settings.RUN_MAX_WALL_S * 2 + 300},
    worker_hijack_root_logger=False,
)
app = celery_app
