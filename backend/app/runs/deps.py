"""Run lookups for the routes: path parameter `id` -> the row, or a 404 naming it."""

from typing import Annotated

from fastapi import Depends

from app.api.deps import IdPath, SessionDep, get_or_404
from app.runs.models import Run


def get_run(session: SessionDep, id: IdPath) -> Run:
    """Path parameter `id` -> run row."""
    return get_or_404(session, Run, id, "run")


RunDep = Annotated[Run, Depends(get_run)]
