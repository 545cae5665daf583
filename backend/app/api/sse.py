"""Server-Sent Events by polling the database: the row is the truth, so any API replica can serve.

Each event carries an id derived from its payload. A client that reconnects (the browser's
EventSource does so by itself after an API restart) sends it back as Last-Event-ID; the stream
then skips a state the client has already seen instead of sending it twice. While the database is
unreachable the stream keeps polling instead of breaking.
"""

import hashlib
import json
import logging
import threading
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

import anyio
from fastapi import Header
from sqlalchemy.orm import Session
from sse_starlette.sse import EventSourceResponse

from app.api.errors import QuotaExceeded
from app.core.config import get_settings
from app.core.db import DB_UNAVAILABLE, get_sessionmaker

log = logging.getLogger(__name__)
RECONNECT_MS = 2000
LastEventId = Annotated[str | None, Header(alias="Last-Event-ID", max_length=64,
                                           description="id of the last event received "
                                                       "(sent by EventSource on reconnect)")]


def event_id(text: str) -> str:
    """A short id naming a state (same payload, same id)."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


State = tuple[dict[str, Any], bool] | None  # (payload, is_final), None: the object is gone
_UNREAD = object()


async def poll_events(read: Callable[[], State], last_event_id: str | None = None,
                      first: State | object = _UNREAD) -> AsyncIterator[dict]:
    """Yield `progress` events whenever `read()` changes and one `done` event at a final state.

    `read` runs in a thread (it uses a blocking DB session) and returns (payload, is_final),
    or None when the object has disappeared. `last_event_id`: the client's Last-Event-ID.
    `first`: the state already read, sent without polling for it.
    """
    interval = get_settings().SSE_POLL_INTERVAL_S
    last = last_event_id
    while True:
        try:
            if first is not _UNREAD:
                state, first = first, _UNREAD
            else:
                state = await anyio.to_thread.run_sync(read)
        except DB_UNAVAILABLE as exc:
            log.warning("SSE poll: database unavailable (%s); polling on", type(exc).__name__)
            await anyio.sleep(max(interval, 1.0))
            continue
        if state is None:
            yield {"event": "done", "data": json.dumps({"deleted": True})}
            return
        payload, final = state
        text = json.dumps(payload, default=str)
        ident = event_id(text)
        if ident != last:
            yield {"event": "progress", "data": text, "id": ident, "retry": RECONNECT_MS}
            last = ident
        if final:
            yield {"event": "done", "data": text, "id": ident}
            return
        await anyio.sleep(interval)


def progress_stream(session: Session, *, client: str, read: Callable[[Session], State],
                    last_event_id: str | None) -> EventSourceResponse:
    """The run, sweep and tuning event streams: `read(session)` gives the object's state. The
    first is read in the request's own session, so the first event needs no second trip to a
    thread and the database; then the request's session is closed (a stream holds no pooled
    connection) and each poll reads in a short session of its own."""
    first = read(session)
    session.close()

    def poll() -> State:
        with get_sessionmaker()() as own:
            return read(own)

    return EventSourceResponse(limited_stream(client, poll_events(poll, last_event_id, first)))


def limited_stream(client: str, events: AsyncIterator[dict]) -> AsyncIterator[dict]:
    """Take one of the client's SSE slots now (429 when none is left); give it back when the
    stream ends or the client goes away."""
    stream_slots.acquire(client, get_settings().MAX_SSE_PER_CLIENT)

    async def guarded() -> AsyncIterator[dict]:
        try:
            async for event in events:
                yield event
        finally:
            stream_slots.release(client)

    return guarded()


class StreamSlots:
    """Open SSE connections per client in this API process (each holds a polling loop)."""

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def acquire(self, client: str, limit: int) -> None:
        """Take a slot or raise QuotaExceeded (429)."""
        with self._lock:
            if self._open[client] >= limit:
                raise QuotaExceeded("SSE connections", f"quota: at most {limit} open event "
                                    "streams per client", 5)
            self._open[client] += 1

    def release(self, client: str) -> None:
        """Give the slot back (the stream ended or the client went away)."""
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]


stream_slots = StreamSlots()
