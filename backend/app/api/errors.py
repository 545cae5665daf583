"""Error responses: every bad input becomes a 422 naming the JSON path and the allowed range."""

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from app.core.simulator import SimulatorRejected
from app.core.validation import normalize_loc, parse_dotted


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


def install(app: FastAPI) -> None:
    """Register the handlers on the app."""
    app.add_exception_handler(RequestValidationError, _request_validation)
    app.add_exception_handler(ValidationError, _pydantic_validation)
    app.add_exception_handler(SimulatorRejected, _simulator_rejected)
