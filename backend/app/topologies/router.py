"""Topology expansion through the simulator, so editor, backend and simulator agree."""

from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field

from app.core import simulator
from app.core.simulator import SimulatorRejected
from app.api.errors import simulator_detail
from app.core.strict_json import StrictJsonRoute
from app.scenarios.topology import Topology

router = APIRouter(prefix="/topologies", tags=["topologies"], route_class=StrictJsonRoute)


class ExpandRequest(BaseModel):
    """Body of POST /topologies/expand."""

    model_config = ConfigDict(extra="forbid")
    topology: Topology


class ExpandedNode(BaseModel):
    """A node after expansion."""

    id: str
    kind: Literal["host", "switch"]
    tier: int
    group: str = ""
    server: str | None = Field(None, description="hosts with a server: the server this NIC is in")
    rail: int | None = Field(None, description="with server: the NIC's index in it")
    x: float | None = None
    y: float | None = None


class ExpandedLink(BaseModel):
    """A link after expansion."""

    id: int
    a: str
    b: str
    rate_gbps: float
    delay_us: float


class ExpandedTopology(BaseModel):
    """`fabricsim expand` output."""

    nodes: list[ExpandedNode]
    links: list[ExpandedLink]
    stats: dict[str, Any]


@router.post("/expand", response_model=ExpandedTopology,
             responses={503: {"description": "simulator unavailable"}})
def expand(body: ExpandRequest) -> ExpandedTopology:
    """Explicit nodes and links of a generator (or a drawn topology), with stats."""
    document = {"schema_version": 1, "topology": body.topology.model_dump(mode="json",
                                                                       exclude_none=True)}
    try:
        return ExpandedTopology.model_validate(simulator.expand(document))
    except SimulatorRejected as exc:
        raise HTTPException(422, simulator_detail(exc, ["body"])) from exc
    except simulator.SimulatorUnavailable as exc:
        raise HTTPException(503, str(exc)) from exc
