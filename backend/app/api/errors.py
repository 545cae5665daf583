"""Error responses: every bad input becomes a 422 naming the JSON path and the allowed range."""

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from app.core.config import get_settings
from app.core.db import DB_UNAVAILABLE
from app.core.simulator import SimulatorRejected
from app.core.validation import normalize_loc, parse_dotted

log = logging.getLogger(__name__)


class QuotaExceeded(Exception):
    """Over a limit (a quota of app/runs/quotas.py, the event streams of app/api/sse.py):
    answered 429 with Retry-After."""

    def __init__(self, limit: str, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.limit = limit
        self.message = message
        self.retry_after_s = max(1, int(retry_after_s))


def _clean(errors: list[dict[str, Any]], body: Any) -> list[dict[str, Any]]:
    """Union tags removed from locs; inputs and urls dropped to keep responses small."""
    out = []
    for err in errors:
        loc = list(err.get("loc", ()))
        if loc and loc[0] == "body" and body is not None:
            loc = ["body"] + normalize_loc(tuple(loc[1:]), body)
        item = {"loc": loc, "msg": err.get("msg", ""), "type": err.get("type", "value_error")}
        if err.get("ctx"):
            item["ctx"] = {k: str(v) for k, v in err["ctx"].items()}
        out.append(item)
    return out


def unprocessable(detail: list[dict[str, Any]]) -> JSONResponse:
    """A 422 response with FastAPI's error shape."""
    return JSONResponse(status_code=422, content=jsonable_encoder({"detail": detail}))


def simulator_detail(exc: SimulatorRejected, prefix: list[str | int]) -> list[dict[str, Any]]:
    """One 422 detail from the simulator's `path: message` line."""
    loc = prefix + parse_dotted(exc.path) if exc.path else prefix
    return [{"loc": loc, "msg": exc.message, "type": "simulator"}]


async def _request_validation(request: Request, exc: RequestValidationError) -> JSONResponse:
    """422 for request bodies, queries and paths."""
    body = exc.body
    if isinstance(body, (bytes, str)):
        try:
            body = json.loads(body)
        except ValueError:
            body = None
    return unprocessable(_clean(list(exc.errors()), body))


async def _pydantic_validation(request: Request, exc: ValidationError) -> JSONResponse:
    """422 for documents validated inside services (sweep points, presets)."""
    return unprocessable(_clean(exc.errors(), None))


async def _simulator_rejected(request: Request, exc: SimulatorRejected) -> JSONResponse:
    """422 for what only the simulator checks."""
    return unprocessable(simulator_detail(exc, ["body", "scenario"]))


async def _database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """503 with Retry-After while the database is unreachable (never a 500: nothing is wrong
    with the request, and the client may simply try again)."""
    retry_after = get_settings().DB_RETRY_AFTER_S
    log.warning("%s %s: database unavailable (%s)", request.method, request.url.path,
                type(exc).__name__)
    return JSONResponse(status_code=503, headers={"Retry-After": str(retry_after)},
                        content={"detail": "the database is unavailable; retry in "
                                           f"{retry_after} s"})


async def _quota_exceeded(request: Request, exc: QuotaExceeded) -> JSONResponse:
    """429 naming the limit, with Retry-After."""
    return JSONResponse(status_code=429, headers={"Retry-After": str(exc.retry_after_s)},
                        content={"detail": exc.message, "limit": exc.limit})


def install(app: FastAPI) -> None:
    """Register the handlers on the app."""
    app.add_exception_handler(QuotaExceeded, _quota_exceeded)
    for kind in DB_UNAVAILABLE:
        app.add_exception_handler(kind, _database_unavailable)
    app.add_exception_handler(RequestValidationError, _request_validation)
    app.add_exception_handler(ValidationError, _pydantic_validation)
    app.add_exception_handler(SimulatorRejected, _simulator_rejected)
