"""Tuning lookups for the routes: path parameter `id` -> the row, or a 404 naming it."""

from typing import Annotated

from fastapi import Depends

from app.api.deps import IdPath, SessionDep, get_or_404
from app.tunings.models import Tuning


def get_tuning(session: SessionDep, id: IdPath) -> Tuning:
    """Path parameter `id` -> tuning row."""
    return get_or_404(session, Tuning, id, "tuning")


TuningDep = Annotated[Tuning, Depends(get_tuning)]
