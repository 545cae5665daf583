"""Presets: read-only scenarios shipped with the app."""

from fastapi import APIRouter, HTTPException, Path

from app.api.deps import SessionDep
from app.core.strict_json import StrictJsonRoute
from app.presets import service
from app.presets.schemas import PresetDetail, PresetsPublic

router = APIRouter(prefix="/presets", tags=["presets"], route_class=StrictJsonRoute)


@router.get("", response_model=PresetsPublic, response_model_exclude_unset=True)
def list_(session: SessionDep) -> PresetsPublic:
    """Every preset with its scenario id and size."""
    data = service.list_presets(session)
    return PresetsPublic(data=data, count=len(data))


@router.get("/{key}", response_model=PresetDetail, response_model_exclude_unset=True)
def get(session: SessionDep, key: str = Path(max_length=64)) -> PresetDetail:
    """One preset with its scenario document."""
    preset = service.get_preset(session, key=key)
    if preset is None:
        raise HTTPException(404, f"preset '{key}' not found")
    return preset
