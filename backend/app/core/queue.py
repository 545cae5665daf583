"""The Celery application and the queues: the one module the API (to enqueue) and the workers (to
consume) both import. The workers depend on it; it depends on nothing but the settings (task code is
named by string, never imported: the API never loads the simulator's tasks).

Two simulation queues give fair service: `sim` carries runs a person started, `sim-batch` the
points of sweeps (and tunings). Workers consume both; Kombu's Redis transport serves the queues of
a worker round robin, so one client's 5,000 queued sweep points delay another client's single run
by at most one point per worker slot instead of by the whole sweep.

A third, `sim-parallel`, carries runs on more than one simulator thread (issue 19): a worker of
concurrency 1 serves it, and each such run takes as many of the machine's slots as it has threads
(workers/slots.py; docs/operations.md, "Parallel runs").
"""

import base64
import json
from collections.abc import Iterable

from celery import Celery

from app.core.config import get_settings

__all__ = ["ALL_QUEUES", "BATCH_QUEUE", "CONTROL_QUEUE", "PARALLEL_QUEUE", "SIM_QUEUE", "celery_app",
           "enqueue_run",
           "enqueue_sweep", "held_messages", "kick_tuning"]

settings = get_settings()

# Interactive runs, sweep/tuning points, control (expansion, tuning steps).
SIM_QUEUE = "sim"
BATCH_QUEUE = "sim-batch"
CONTROL_QUEUE = "celery"
PARALLEL_QUEUE = "sim-parallel"
ALL_QUEUES = f"{SIM_QUEUE},{BATCH_QUEUE},{CONTROL_QUEUE}"

celery_app = Celery("fabrictwin", broker=settings.CELERY_BROKER_URL,
                    include=["workers.tasks.runs", "workers.tasks.sweeps",
                             "workers.tasks.tunings"])
celery_app.conf.update(
    task_ignore_result=True,          # the database holds the truth about runs
    task_acks_late=True,              # a message is acked only after the task returns...
    task_reject_on_worker_lost=True,  # ...and requeued when the worker process dies (kill -9)
    worker_prefetch_multiplier=1,     # one long simulation at a time per process
    task_routes={"runs.*": {"queue": SIM_QUEUE}, "sweeps.*": {"queue": CONTROL_QUEUE},
                 "tunings.evaluate": {"queue": BATCH_QUEUE}, "tunings.*": {"queue": CONTROL_QUEUE}},
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


def enqueue_run(run_id: str, *, batch: bool = False, threads: int = 1) -> str:
    """Send `runs.execute` for a committed run row; returns the Celery task id."""
    queue = BATCH_QUEUE if batch else PARALLEL_QUEUE if threads > 1 else SIM_QUEUE
    return celery_app.send_task("runs.execute", args=[run_id], kwargs={"threads": threads},
                                queue=queue).id


def enqueue_sweep(sweep_id: str) -> str:
    """Send `sweeps.expand` for a committed sweep row."""
    return celery_app.send_task("sweeps.expand", args=[sweep_id], queue=CONTROL_QUEUE).id


def kick_tuning(tuning_id: str) -> str:
    """Send `tunings.kick`: (re)start the step chain of a committed tuning row."""
    return celery_app.send_task("tunings.kick", args=[tuning_id], queue=CONTROL_QUEUE).id


# Kombu's Redis transport: one list per queue and priority step, and the messages delivered to a
# worker but not yet acknowledged in the `unacked` hash (kombu/transport/redis.py).
_PRIORITY_SEP = "\x06\x16"
_PRIORITY_STEPS = (0, 3, 6, 9)
_UNACKED_KEY = "unacked"


# Tasks that carry a list of run ids, and where that list is among their arguments: each run in
# such a message counts as held by a `runs.execute`, so the reconciler does not send it again.
_RUN_LISTS = {"runs.execute_batch": 0, "tunings.evaluate": 1}


def _held_items(raw: bytes | str) -> list[tuple[str, str]]:
    """(task name, first argument) of one serialized Kombu message, plus ("runs.execute", id)
    for every run of a chunk message; [] when unreadable."""
    try:
        message = json.loads(raw)
        if isinstance(message, list):  # unacked entries are [message, exchange, routing_key]
            message = message[0]
        task = message["headers"]["task"]
        args = json.loads(base64.b64decode(message["body"]))[0]
        if not args:
            return []
        items = [(task, str(args[0]))]
        if task in _RUN_LISTS and len(args) > _RUN_LISTS[task]:
            items += [("runs.execute", str(rid)) for rid in args[_RUN_LISTS[task]]]
        return items
    except (ValueError, KeyError, IndexError, TypeError):
        return []


def held_messages(queues: Iterable[str] = (SIM_QUEUE, BATCH_QUEUE, CONTROL_QUEUE, PARALLEL_QUEUE),
                  ) -> set[tuple[str, str]]:
    """Every (task, first argument) waiting in `queues` or delivered and not yet acknowledged.

    Raises the Redis client's error when the broker is unreachable (the caller skips its pass).
    """
    import redis

    client = redis.Redis.from_url(celery_app.conf.broker_url, socket_timeout=10,
                                  socket_connect_timeout=5)
    try:
        held: set[tuple[str, str]] = set()
        keys = [q if p == 0 else f"{q}{_PRIORITY_SEP}{p}" for q in queues for p in _PRIORITY_STEPS]
        for key in keys:
            for raw in client.lrange(key, 0, -1):
                held.update(_held_items(raw))
        for raw in client.hvals(_UNACKED_KEY):
            held.update(_held_items(raw))
        return held
    finally:
        client.close()
