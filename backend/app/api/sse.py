"""Server-Sent Events by polling the database: the row is the truth, so any API replica can serve."""

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio

from app.core.config import get_settings


async def poll_events(read: Callable[[], tuple[dict[str, Any], bool] | None]) -> AsyncIterator[dict]:
    """Yield `progress` events whenever `read()` changes and one `done` event at a final state.

    `read` runs in a thread (it uses a blocking DB session) and returns (payload, is_final),
    or None when the object has disappeared.
    """
    interval = get_settings().SSE_POLL_INTERVAL_S
    last = None
    while True:
        state = await anyio.to_thread.run_sync(read)
        if state is None:
            yield {"event": "done", "data": json.dumps({"deleted": True})}
            return
        payload, final = state
        text = json.dumps(payload, default=str)
        if text != last:
            yield {"event": "progress", "data": text}
            last = text
        if final:
            yield {"event": "done", "data": text}
            return
        await anyio.sleep(interval)
