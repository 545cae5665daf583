"""A pure ASGI middleware refusing request bodies over the size limit (413) or nested deeper
than the depth limit (422), counted while the bytes stream in, before any parsing."""

import json
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(Exception):
    """Raised from receive() when the streamed body passes the limit."""


class TooDeep(Exception):
    """Raised from receive() when the JSON body nests deeper than the limit."""


_SIGNIFICANT = re.compile(rb'["\\\[\]{}]')


class DepthCounter:
    """Tracks the nesting depth of a JSON text fed in chunks (brackets outside strings)."""

    def __init__(self) -> None:
        self.depth = self.deepest = 0
        self.in_string = False
        self.offset = 0          # bytes consumed before the current chunk
        self.escaped_at = -1     # absolute offset of the byte a backslash escapes

    def feed(self, chunk: bytes) -> int:
        """Consume `chunk`; returns the deepest nesting seen so far."""
        # Only quotes, backslashes and brackets matter: visit just those bytes (fast in C).
        for match in _SIGNIFICANT.finditer(chunk):
            at = self.offset + match.start()
            if at == self.escaped_at:
                continue  # an escaped quote or backslash inside a string
            byte = chunk[match.start()]
            if self.in_string:
                if byte == 0x5C:
                    self.escaped_at = at + 1
                elif byte == 0x22:
                    self.in_string = False
            elif byte == 0x22:
                self.in_string = True
            elif byte in (0x5B, 0x7B):  # [ {
                self.depth += 1
                self.deepest = max(self.deepest, self.depth)
            elif byte in (0x5D, 0x7D):  # ] }
                self.depth -= 1
        self.offset += len(chunk)
        return self.deepest


class BodyLimitMiddleware:
    """413 when Content-Length, or the bytes actually streamed, exceed `max_bytes`; 422 when a
    JSON body nests deeper than `max_depth` (deep nesting costs recursion in every parser)."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_depth: int = 32) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the declared length, then count the streamed bytes."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._reject(send)
            return
        kind = dict(scope.get("headers", [])).get(b"content-type", b"")
        depth = DepthCounter() if b"json" in kind else None
        seen, replaced = 0, False
        refusal: tuple[int, str] | None = None

        async def counting_receive() -> Message:
            nonlocal seen, refusal
            message = await receive()
            if message["type"] == "http.request":
                body = message.get("body", b"")
                seen += len(body)
                if seen > self.max_bytes:
                    refusal = (413, f"request body over {self.max_bytes} bytes")
                    raise BodyTooLarge()
                if depth is not None and depth.feed(body) > self.max_depth:
                    refusal = (422, f"JSON nested deeper than {self.max_depth} levels")
                    raise TooDeep()
            return message

        async def guarded_send(message: Message) -> None:
            # The framework may turn the receive error into its own 400: answer ours instead.
            nonlocal replaced
            if refusal is not None:
                if not replaced:
                    replaced = True
                    await self._reject(send, *refusal)
                return
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except (BodyTooLarge, TooDeep):
            if not replaced and refusal is not None:
                await self._reject(send, *refusal)

    async def _reject(self, send: Send, status: int = 413, detail: str = "") -> None:
        """Send the refusal (413 for size, 422 for depth)."""
        detail = detail or f"request body over {self.max_bytes} bytes"
        content = detail if status == 413 else [{"loc": ["body"], "type": "json_too_deep",
                                                 "msg": detail}]
        body = json.dumps({"detail": content}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
