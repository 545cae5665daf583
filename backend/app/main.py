"""The FastAPI application: builds the app and mounts the v1 router and the frontend."""

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator

import anyio
from fastapi import APIRouter, Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.routing import APIRoute

from app.api import errors, health
from app.auth.deps import get_caller
from app.configcheck import router as configcheck
from app.core.config import get_settings
from app.core.docs import mount_docs
from app.core.frontend import mount_frontend
from app.core.middleware import BodyLimitMiddleware
from app.core.security import SecurityHeadersMiddleware
from app.estimate import router as estimate
from app.fabricsettings import router as fabricsettings
from app.imports import router as imports
from app.labs import router as labs
from app.measurements import router as measurements
from app.presets import router as presets
from app.runs import router as runs
from app.scenarios import router as scenarios
from app.share import router as share
from app.share.router import mount_share_pages
from app.sweeps import router as sweeps
from app.topologies import router as topologies
from app.tunings import router as tunings

log = logging.getLogger(__name__)

# The v1 API: every domain's router, assembled here, at the top, so that app/api stays the base
# the domains import (docs/architecture.md, "The layers"). Every route reads the caller's
# X-Owner-Token (401 when malformed; docs/security.md).
api_router = APIRouter(dependencies=[Depends(get_caller)], responses={
    401: {"description": "X-Owner-Token is malformed (22-64 URL-safe characters per token, at "
                         "most 32 comma-separated)"}})
api_router.include_router(health.router)
api_router.include_router(configcheck.router)
api_router.include_router(scenarios.router)
api_router.include_router(share.router)
api_router.include_router(presets.router)
api_router.include_router(runs.router)
api_router.include_router(estimate.router)
api_router.include_router(sweeps.router)
api_router.include_router(tunings.router)
api_router.include_router(topologies.router)
api_router.include_router(imports.router)
api_router.include_router(labs.router)
api_router.include_router(measurements.router)
api_router.include_router(fabricsettings.router)


def unique_id(route: APIRoute) -> str:
    """Operation ids `{tag}-{name}` (e.g. `scenarios-create`), names without a trailing `_`."""
    tag = route.tags[0] if route.tags else "app"
    return f"{tag}-{route.name.rstrip('_')}"


async def _reconciler_loop(interval: float) -> None:
    """Run the reconciler forever (errors are logged, never fatal)."""
    from app.core.db import DB_UNAVAILABLE
    from app.sweeps.reconciler import reconcile_once

    while True:
        await asyncio.sleep(interval)
        try:
            await anyio.to_thread.run_sync(reconcile_once)
        except DB_UNAVAILABLE as exc:
            log.warning("reconciler pass skipped: database unavailable (%s)", type(exc).__name__)
        except Exception:  # noqa: BLE001 - keep the loop alive
            log.exception("reconciler pass failed")


@contextlib.asynccontextmanager
async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
    """Start the reconciler (REAPER_INTERVAL_S > 0): stale RUNNING and orphaned PENDING runs.
    The objects the app made while starting (modules, models, routes: some 156,000) are moved
    out of the garbage collector's reach (`gc.freeze`): they live as long as the process, and a
    full collection that walked them paused every request of the process for about 90 ms on the
    2-core machine, the tail of bench/load.py (docs/benchmarks.md, "API under load")."""
    gc.collect()
    gc.freeze()
    interval = get_settings().REAPER_INTERVAL_S
    task = asyncio.create_task(_reconciler_loop(interval)) if interval > 0 else None
    yield
    if task is not None:
        task.cancel()


def document_security(app: FastAPI) -> None:
    """OpenAPI: an operation that changes an owner's work (it answers 403) requires the
    OwnerToken scheme; every other one accepts it (lists: the caller's own) without requiring
    it. Overrides app.openapi, computed once."""
    build = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            schema = build()
            for item in schema.get("paths", {}).values():
                for operation in item.values():
                    if not isinstance(operation, dict) or "responses" not in operation:
                        continue
                    owner = {"OwnerToken": []}
                    operation["security"] = ([owner] if "403" in operation["responses"]
                                             else [{}, owner])
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def create_app() -> FastAPI:
    """The application with its middleware, error handlers, API and frontend."""
    settings = get_settings()
    app = FastAPI(title=settings.PROJECT_NAME, version="0.1.0", lifespan=lifespan,
                  openapi_url=f"{settings.API_V1_STR}/openapi.json", docs_url=None,
                  redoc_url=None, generate_unique_id_function=unique_id)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.MAX_BODY_BYTES,
                       max_depth=settings.MAX_JSON_DEPTH)
    app.add_middleware(SecurityHeadersMiddleware)
    if settings.CORS_ORIGINS:
        app.add_middleware(CORSMiddleware, allow_origins=settings.CORS_ORIGINS,
                           allow_methods=["*"], allow_headers=["*"])
    errors.install(app)
    if settings.OIDC_ISSUER:
        if not settings.SESSION_SECRET:
            raise RuntimeError("OIDC_ISSUER needs SESSION_SECRET (signs the session cookie)")
        from starlette.middleware.sessions import SessionMiddleware

        from app.auth.router import router as auth_router

        app.add_middleware(SessionMiddleware, secret_key=settings.SESSION_SECRET,
                           same_site="lax", https_only=settings.SESSION_COOKIE_SECURE)
        app.include_router(auth_router, prefix=settings.API_V1_STR)
    else:
        from app.auth.off import router as no_sign_in_router

        # read like every API route: the caller's tokens (401 when malformed)
        app.include_router(no_sign_in_router, prefix=settings.API_V1_STR,
                           dependencies=api_router.dependencies, responses=api_router.responses)
    app.include_router(api_router, prefix=settings.API_V1_STR)
    document_security(app)
    mount_docs(app, openapi_url=f"{settings.API_V1_STR}/openapi.json", title=settings.PROJECT_NAME)
    mount_share_pages(app, settings.FRONTEND_DIST, settings.API_V1_STR)
    mount_frontend(app, settings.FRONTEND_DIST)
    return app


app = create_app()
