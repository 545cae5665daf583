"""Serve the built frontend (frontend/dist) at / with SPA fallback; /api stays the API."""

import re
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, HTMLResponse

NO_BUILD = ("<!doctype html><title>FabricTwin</title><p>The frontend is not built "
            "(frontend/dist missing). The API is at <a href='/docs'>/docs</a>.</p>")


# The single-page app's routes (frontend/src/app/App.tsx): any other path is answered with the
# app's "Page not found" and HTTP 404, not a soft 404 (a 200 that search engines and link
# checkers take for a page).
APP_ROUTES = re.compile(r"^(|editor|compare|seeds|labs|sweeps/[\w-]+|tunings/[\w-]+|runs/[\w-]+"
                        r"|measurements/[\w-]+|s/[\w-]+|share/[\w-]+|guide/[\w-]+)/?$")


def mount_frontend(app: FastAPI, dist: Path) -> None:
    """Register the catch-all route last, after the API routers."""
    root = dist.resolve()

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    def spa(path: str) -> FileResponse | HTMLResponse:
        """A file of the build when it exists, else index.html (client-side routes)."""
        if path.startswith(("api/", "docs", "redoc", "openapi")):
            raise HTTPException(404, "not found")
        index = root / "index.html"
        if not index.is_file():
            return HTMLResponse(NO_BUILD)
        candidate = (root / path).resolve()
        if path and candidate.is_file() and root in candidate.parents:
            return FileResponse(candidate)
        return FileResponse(index, status_code=200 if APP_ROUTES.match(path) else 404)
