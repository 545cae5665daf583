"""Presets: JSON files shipped with the app, seeded idempotently as scenario snapshots."""

from functools import lru_cache
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.presets.schemas import PresetDetail, PresetFile, PresetPublic
from app.scenarios.models import ScenarioRow
from app.scenarios.service import content_hash, create_scenario, to_document
from app.scenarios.topology import node_ids

DATA_DIR = Path(__file__).parent / "data"


@lru_cache
def load_presets() -> dict[str, PresetFile]:
    """Every preset file, validated, by key (sorted by file name)."""
    presets = {}
    for path in sorted(DATA_DIR.glob("*.json")):
        preset = PresetFile.model_validate_json(path.read_text())
        presets[preset.key] = preset
    return presets


def seed_presets(session: Session) -> list[str]:
    """Make each preset key point at a snapshot of its current file; returns keys (re)created."""
    changed = []
    for key, preset in load_presets().items():
        row = session.scalar(select(ScenarioRow).where(ScenarioRow.preset_key == key))
        if row is not None and row.content_hash == content_hash(to_document(preset.scenario)):
            continue
        if row is not None:
            row.preset_key = None  # the old snapshot stays reachable by id
            session.flush()
        create_scenario(session, scenario=preset.scenario, preset_key=key, commit=False)
        changed.append(key)
    session.commit()
    return changed


def _public(preset: PresetFile, row: ScenarioRow) -> dict:
    """Fields of PresetPublic."""
    hosts, switches = node_ids(preset.scenario.topology)
    return {"key": preset.key, "title": preset.title, "description": preset.description,
            "source": preset.source, "scenario_id": row.id,
            "topology_kind": preset.scenario.topology.kind, "hosts": len(hosts),
            "switches": len(switches),
            **({"comparison": preset.comparison} if preset.comparison is not None else {})}


def _row(session: Session, key: str) -> ScenarioRow | None:
    """The snapshot a preset key points at (seeding on demand if missing)."""
    row = session.scalar(select(ScenarioRow).where(ScenarioRow.preset_key == key))
    if row is None and key in load_presets():
        seed_presets(session)
        row = session.scalar(select(ScenarioRow).where(ScenarioRow.preset_key == key))
    return row


def list_presets(session: Session) -> list[PresetPublic]:
    """All presets in file order."""
    return [PresetPublic(**_public(p, _row(session, k))) for k, p in load_presets().items()]


def get_preset(session: Session, *, key: str) -> PresetDetail | None:
    """One preset with its document, or None."""
    preset = load_presets().get(key)
    if preset is None:
        return None
    row = _row(session, key)
    return PresetDetail(**_public(preset, row), scenario=row.document)
