"""The share page's preview card: Open Graph tags in the HTML the server sends for /s/<id>
(chat tools read the HTML and run no JavaScript) and the topology thumbnail they point at."""

import json
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from app.api.deps import IdPath, SessionDep
from app.auth.deps import CallerDep
from app.scenarios.deps import ScenarioDep
from app.core import simulator
from app.scenarios.models import ScenarioRow
from app.share import thumbnail
from app.share.history import ScenarioHistory, history

router = APIRouter(prefix="/scenarios", tags=["scenarios"])

# snapshots never change, so a scenario's card is computed once per process
IMMUTABLE = "public, max-age=86400, immutable"
DESCRIPTION_CHARS = 200


@lru_cache(maxsize=64)
def _expanded(topology_json: str) -> dict[str, Any]:
    """`fabricsim expand` of a topology (same document -> same nodes and links)."""
    return simulator.expand({"schema_version": 1, "topology": json.loads(topology_json)})


def expanded(row: ScenarioRow) -> dict[str, Any]:
    """The scenario's nodes, links and stats; 503 when the simulator cannot be run."""
    try:
        return _expanded(json.dumps(row.document["topology"], sort_keys=True))
    except (simulator.SimulatorUnavailable, simulator.SimulatorRejected) as exc:
        raise HTTPException(503, f"the thumbnail needs the simulator: {exc}") from exc


def stats_line(stats: dict[str, Any]) -> str:
    """'16 hosts · 6 switches · 24 links'."""
    return f"{stats.get('hosts', 0):,} hosts · {stats.get('switches', 0):,} switches · {stats.get('links', 0):,} links"


@lru_cache(maxsize=64)
def _png(scenario_id: str, title: str, subtitle: str, topology_json: str) -> bytes:
    graph = _expanded(topology_json)
    return thumbnail.render_png(title, subtitle, graph["nodes"], graph["links"])


@router.get("/{id}/thumbnail.png", response_class=Response,
            responses={200: {"content": {"image/png": {}}, "description": "1200 x 630 PNG"}})
def thumbnail_png(row: ScenarioDep) -> Response:
    """The topology as a 1200 x 630 PNG with the scenario's name (the share link's og:image)."""
    graph = expanded(row)
    png = _png(row.id, row.name or "Untitled fabric", stats_line(graph["stats"]),
               json.dumps(row.document["topology"], sort_keys=True))
    return Response(png, media_type="image/png", headers={"Cache-Control": IMMUTABLE})


@router.get("/{id}/history", response_model=ScenarioHistory)
def scenario_history(session: SessionDep, caller: CallerDep, row: ScenarioDep) -> ScenarioHistory:
    """The scenario's runs, sweeps, tunings and forks, and its parent's runs (newest first), as
    the list endpoints show them to the caller: every link holder's work on a saved scenario, the
    caller's own on a preset, and the caller's own forks."""
    return history(session, row, caller.listing())


@router.get("/{id}/thumbnail.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}, "description": "SVG"}})
def thumbnail_svg(row: ScenarioDep) -> Response:
    """The same topology drawing as SVG."""
    graph = expanded(row)
    svg = thumbnail.render_svg(row.name or "Untitled fabric", graph["nodes"], graph["links"])
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": IMMUTABLE})


def card_tags(row: ScenarioRow, page_url: str, image_url: str, stats: dict[str, Any] | None) -> str:
    """<title> and the Open Graph / Twitter tags; every value is HTML-escaped (names are user text)."""
    title = row.name or "Untitled fabric"
    about = (row.description or "").strip()
    if len(about) > DESCRIPTION_CHARS:
        about = about[: DESCRIPTION_CHARS - 1].rstrip() + "…"
    facts = stats_line(stats) if stats else ""
    description = " — ".join(p for p in (facts, about) if p) or "A FabricTwin RDMA fabric scenario"
    tags = {
        "og:type": "website", "og:site_name": "FabricTwin", "og:title": title,
        "og:description": description, "og:url": page_url, "og:image": image_url,
        "og:image:type": "image/png", "og:image:width": str(thumbnail.WIDTH),
        "og:image:height": str(thumbnail.HEIGHT), "og:image:alt": f"Topology of {title}",
    }
    html = [f"<title>{escape(title)} · FabricTwin</title>",
            f'<meta name="description" content="{escape(description)}">']
    html += [f'<meta property="{k}" content="{escape(v)}">' for k, v in tags.items()]
    html += ['<meta name="twitter:card" content="summary_large_image">',
             f'<meta name="twitter:title" content="{escape(title)}">',
             f'<meta name="twitter:description" content="{escape(description)}">',
             f'<meta name="twitter:image" content="{escape(image_url)}">']
    return "\n    ".join(html)


def _index_html(dist: Path) -> str:
    index = dist / "index.html"
    if index.is_file():
        return index.read_text(encoding="utf-8")
    return ("<!doctype html><html><head><meta charset=\"utf-8\"><title>FabricTwin</title></head>"
            "<body><p>The frontend is not built (frontend/dist missing).</p></body></html>")


def with_tags(page: str, tags: str) -> str:
    """The app's index.html with its <title> replaced by the card's tags."""
    head_end = page.find("</head>")
    start, end = page.find("<title>"), page.find("</title>")
    if 0 <= start < end < head_end:
        return page[:start] + tags + page[end + len("</title>"):]
    return page[:head_end] + tags + page[head_end:] if head_end >= 0 else tags + page


def mount_share_pages(app: FastAPI, dist: Path, api_prefix: str) -> None:
    """/s/<id> (and /share/<id>): the single-page app with the scenario's card in its <head>.
    Registered before the frontend's catch-all route."""

    def page(request: Request, session: Session, scenario_id: str) -> HTMLResponse:
        row = session.get(ScenarioRow, scenario_id)
        html = _index_html(dist.resolve())
        if row is None:
            # the app shows "This link does not open a scenario"; the status says it too
            return HTMLResponse(html, status_code=404)
        try:
            stats = expanded(row)["stats"]
        except HTTPException:
            stats = None  # the card still has title, description and the page link
        base = str(request.base_url).rstrip("/")
        tags = card_tags(row, f"{base}{request.url.path}",
                         f"{base}{api_prefix}/scenarios/{row.id}/thumbnail.png", stats)
        return HTMLResponse(with_tags(html, tags))

    @app.get("/s/{id}", include_in_schema=False, response_class=HTMLResponse)
    def share_page(request: Request, session: SessionDep, id: IdPath) -> HTMLResponse:
        return page(request, session, id)

    @app.get("/share/{id}", include_in_schema=False, response_class=HTMLResponse)
    def share_page_long(request: Request, session: SessionDep, id: IdPath) -> HTMLResponse:
        return page(request, session, id)
