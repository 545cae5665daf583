"""Serve the built frontend (frontend/dist) at / with SPA fallback; /api stays the API."""

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, HTMLResponse

NO_BUILD = ("<!doctype html><title>FabricTwin</title><p>The frontend is not built "
            "(frontend/dist missing). The API is at <a href='/docs'>/docs</a>.</p>")


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
        return FileResponse(index)
