"""The Celery application, configured from the shared Settings."""

from celery import Celery

from app.core.config import get_settings

settings = get_settings()

# Queue names (app.core.queue explains the split): interactive runs, sweep/tuning points, control.
SIM_QUEUE = "sim"
BATCH_QUEUE = "sim-batch"
CONTROL_QUEUE = "celery"
ALL_QUEUES = f"{SIM_QUEUE},{BATCH_QUEUE},{CONTROL_QUEUE}"

celery_app = Celery("fabrictwin", broker=settings.CELERY_BROKER_URL,
                    include=["workers.tasks.runs", "workers.tasks.sweeps"])
celery_app.conf.update(
    task_ignore_result=True,          # the database holds the truth about runs
    task_acks_late=True,              # a message is acked only after the task returns...
    task_reject_on_worker_lost=True,  # ...and requeued when the worker process dies (kill -9)
    worker_prefetch_multiplier=1,     # one long simulation at a time per process
    task_routes={"runs.*": {"queue": SIM_QUEUE}, "sweeps.*": {"queue": CONTROL_QUEUE}},
    task_default_queue=CONTROL_QUEUE,
    broker_connection_retry_on_startup=True,
    broker_connection_max_retries=None,  # a Redis restart never stops a worker
    # Redelivery of unacked messages (worker host gone): longer than any run may last.
    # queue_order_strategy round_robin (Kombu's default, spelled out): fair between queues.
    broker_transport_options={"visibility_timeout": settings.RUN_MAX_WALL_S * 2 + 300,
                              "queue_order_strategy": "round_robin"},
    worker_hijack_root_logger=False,
    # Sending a task while Redis is down fails after ~3 s instead of hanging a request.
    task_publish_retry_policy={"max_retries": 3, "interval_start": 0.2, "interval_step": 0.5,
                               "interval_max": 1.0},
)
app = celery_app
