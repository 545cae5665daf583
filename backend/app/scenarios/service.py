"""Scenario snapshots: create, fork, list, delete."""

import hashlib
import json
import secrets
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session, defer

from app.core import owners
from app.scenarios.models import ScenarioRow
from app.scenarios.document import Scenario
from app.scenarios.schemas import ScenarioKind


def new_id() -> str:
    """A short unguessable id: 9 random bytes (72 bits) -> 12 URL-safe characters."""
    return secrets.token_urlsafe(9)


def canonical_json(document: dict[str, Any]) -> str:
    """Sorted keys, no whitespace: the bytes the content hash is taken over."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(document: dict[str, Any]) -> str:
    """sha256 of the canonical JSON."""
    return hashlib.sha256(canonical_json(document).encode()).hexdigest()


def simulation_hash(scenario: Scenario) -> str:
    """sha256 of the fully defaulted scenario without its name and description.

    The document's seed stays in: runs carry their own seed, but a sweep over `seed` must still
    give one run per value."""
    document = scenario.model_dump(mode="json", exclude={"name", "description"})
    return content_hash(document)


def token_hash(token: str) -> str:
    """Only the hash of an owner token is stored."""
    return owners.token_hash(token)


def to_document(scenario: Scenario) -> dict[str, Any]:
    """The stored form: what the author set (defaults stay implicit, null means default)."""
    return scenario.model_dump(mode="json", exclude_unset=True, exclude_none=True)


def create_scenario(session: Session, *, scenario: Scenario, parent_id: str | None = None,
                    preset_key: str | None = None, tuning_id: str | None = None,
                    sweep_id: str | None = None, commit: bool = True, owner_token: str | None = None,
                    owner_hash: str | None = None) -> tuple[ScenarioRow, str | None]:
    """Store a new snapshot owned by `owner_token` (a fresh one when None); returns the row and
    the token (only its hash is stored). `owner_hash` instead: owned by that hash, no token
    returned (the snapshots a sweep or tuning stores belong to its owner).
    `tuning_id` marks a tuning evaluation's internal snapshot, `sweep_id` a sweep point's."""
    document = to_document(scenario)
    token = None if owner_hash else owner_token or owners.new_token()
    row = ScenarioRow(
        id=new_id(), name=scenario.name, description=scenario.description,
        content_hash=content_hash(document), sim_hash=simulation_hash(scenario),
        document=document, parent_id=parent_id,
        preset_key=preset_key, owner_token_hash=owner_hash or token_hash(token),
        tuning_id=tuning_id, sweep_id=sweep_id,
    )
    session.add(row)
    if commit:
        session.commit()
    return row, token


def list_scenarios(session: Session, *, q: str | None, limit: int, offset: int,
                   kind: ScenarioKind = ScenarioKind.all,
                   owned_by: tuple[str, ...] | None = None) -> tuple[list[ScenarioRow], int]:
    """Newest first, filtered by kind and optionally by a case-insensitive name search. With
    `owned_by` (token hashes): only the scenarios these own, plus the presets."""
    query = select(ScenarioRow)
    if owned_by is not None:
        query = query.where(or_(ScenarioRow.owner_token_hash.in_(owned_by),
                                ScenarioRow.preset_key.is_not(None)))
    if q:
        query = query.where(func.lower(ScenarioRow.name).contains(q.lower()))
    is_point = ScenarioRow.sweep_id.is_not(None)
    if kind is ScenarioKind.user:
        query = query.where(ScenarioRow.preset_key.is_(None), ScenarioRow.tuning_id.is_(None),
                            ~is_point)
    elif kind is ScenarioKind.tuning_point:
        query = query.where(ScenarioRow.tuning_id.is_not(None))
    elif kind is ScenarioKind.preset:
        query = query.where(ScenarioRow.preset_key.is_not(None))
    elif kind is ScenarioKind.sweep_point:
        query = query.where(is_point)
    count = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    # A list row needs no document: not reading 20 documents (JSON) is most of the list's cost.
    rows = session.scalars(query.options(defer(ScenarioRow.document))
                           .order_by(ScenarioRow.created_at.desc(), ScenarioRow.id)
                           .limit(limit).offset(offset)).all()
    return list(rows), count


def delete_scenario(session: Session, *, row: ScenarioRow) -> None:
    """Delete the snapshot; the database deletes its runs and sweeps with it (their
    foreign keys cascade; SQLite runs with foreign_keys on). Children keep existing with
    parent_id unset."""
    session.delete(row)
    session.commit()
