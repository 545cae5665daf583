"""/docs without internet: Swagger UI's JavaScript and CSS served by the app itself.

The assets come from the `fastapi-offline` package (Swagger UI 5, which renders OpenAPI 3.1);
FastAPI's default page loads them from a CDN, which leaves /docs blank offline (issue 13, defect 5).
"""

import html
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

VENDOR = Path(fastapi_offline.__file__).parent / "static"
OWN = Path(__file__).parent / "static"
ASSETS = "/docs-assets"


def mount_docs(app: FastAPI, *, openapi_url: str, title: str) -> None:
    """Register /docs and the asset mounts (before the frontend's catch-all route)."""
    app.mount(f"{ASSETS}/vendor", StaticFiles(directory=VENDOR), name="docs-vendor")
    app.mount(f"{ASSETS}/app", StaticFiles(directory=OWN), name="docs-app")
    page = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} API</title>
<link rel="stylesheet" href="{ASSETS}/vendor/swagger-ui.css">
<link rel="icon" href="{ASSETS}/vendor/favicon.png">
</head>
<body>
<div id="swagger-ui" data-openapi-url="{html.escape(openapi_url)}"></div>
<script src="{ASSETS}/vendor/swagger-ui-bundle.js"></script>
<script src="{ASSETS}/app/swagger-init.js"></script>
</body>
</html>
"""

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """Swagger UI, every asset local."""
        return HTMLResponse(page)
