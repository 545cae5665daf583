"""Labs: the teaching labs of docs/labs, for the lab viewer beside the canvas and results."""

from fastapi import APIRouter, HTTPException, Path

from app.labs import service
from app.labs.schemas import LabPublic, LabsPublic, LabSummary

router = APIRouter(prefix="/labs", tags=["labs"])


@router.get("", response_model=LabsPublic)
def list_() -> LabsPublic:
    """Every lab: slug, title, preset and time."""
    data = [LabSummary(slug=lab.slug, title=lab.title, preset=lab.preset, time=lab.time)
            for lab in service.list_labs()]
    return LabsPublic(data=data, count=len(data))


@router.get("/{slug}", response_model=LabPublic)
def get(slug: str = Path(max_length=80)) -> LabPublic:
    """One lab: steps with their checks, predictions, questions, text and instructor notes."""
    lab = service.load_lab(slug)
    if lab is None:
        raise HTTPException(404, f"lab '{slug}' not found")
    return lab
