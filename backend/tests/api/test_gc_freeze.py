"""The API process moves what it made while starting out of the garbage collector's reach
(app/main.py `lifespan`): a full collection that walked those objects paused every request of
the process (docs/benchmarks.md, "API under load")."""

import asyncio
import gc

from app.main import create_app, lifespan


def test_the_objects_made_at_start_are_frozen():
    create_app()
    gc.unfreeze()
    assert gc.get_freeze_count() == 0

    async def start_and_stop() -> int:
        async with lifespan(create_app()):
            return gc.get_freeze_count()

    try:
        frozen = asyncio.run(start_and_stop())
    finally:
        gc.unfreeze()
    # the app's modules, models and routes: more than a hundred thousand objects
    assert frozen > 100_000
