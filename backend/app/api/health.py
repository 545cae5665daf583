"""Liveness and versions."""

from fastapi import APIRouter
from pydantic import BaseModel
from sqlalchemy import text

from app.api.deps import SessionDep
from app.core import simulator
from app.core.strict_json import StrictJsonRoute

router = APIRouter(tags=["health"], route_class=StrictJsonRoute)


class Health(BaseModel):
    """Service state."""

    status: str
    simulator: str
    database: str


@router.get("/health", response_model=Health)
def health(session: SessionDep) -> Health:
    """`ok` with the simulator's version and the database state."""
    try:
        session.execute(text("SELECT 1"))
        database = "ok"
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        database = f"error: {type(exc).__name__}"
    return Health(status="ok" if database == "ok" else "degraded",
                  simulator=simulator.version(), database=database)
