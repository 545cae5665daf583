"""Sweep lookups for the routes: path parameter `id` -> the row, or a 404 naming it."""

from typing import Annotated

from fastapi import Depends

from app.api.deps import IdPath, SessionDep, get_or_404
from app.sweeps.models import Sweep


def get_sweep(session: SessionDep, id: IdPath) -> Sweep:
    """Path parameter `id` -> sweep row."""
    return get_or_404(session, Sweep, id, "sweep")


SweepDep = Annotated[Sweep, Depends(get_sweep)]
