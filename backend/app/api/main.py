"""The v1 API router: only includes the domain routers. Every route reads the caller's
X-Owner-Token (401 when malformed; docs/security.md)."""

from fastapi import APIRouter, Depends

from app.api import health
from app.api.deps import get_caller
from app.configcheck import router as configcheck
from app.estimate import router as estimate
from app.imports import router as imports
from app.labs import router as labs
from app.presets import router as presets
from app.runs import router as runs
from app.scenarios import router as scenarios
from app.share import router as share
from app.sweeps import router as sweeps
from app.topologies import router as topologies
from app.tunings import router as tunings

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
