"""POST /estimate: the flow-level engine's answer for a scenario, at once (not stored)."""

from fastapi import APIRouter, HTTPException

from app.api.deps import SessionDep
from app.core import simulator
from app.estimate import service
from app.estimate.schemas import EstimateResult
from app.runs.speed import packet_speed
from app.scenarios import service as scenarios
from app.scenarios.schemas import ScenarioValidate

router = APIRouter(prefix="/estimate", tags=["estimate"])


@router.post("", response_model=EstimateResult,
             responses={422: {"description": "invalid, refused by the flow engine (the field named), "
                                             "or beyond the estimate's size"}})
def estimate(session: SessionDep, body: ScenarioValidate) -> EstimateResult:
    """The headline figures of a scenario from the flow-level engine (JCT, busbw and iteration time
    per job, throughput, FCT and slowdown, what it leaves out), synchronously: fabrics of at most
    ESTIMATE_MAX_HOSTS hosts, 2 s and 1 GB of simulation (status "limit" past them). Nothing is
    stored; a run (engine "flow" or "packet") keeps its result. `packet_run` predicts how long a
    packet-level run would take, from this instance's recent packet-level runs."""
    try:
        return service.estimate(scenarios.to_document(body.scenario), packet_speed(session))
    except service.TooLarge as exc:
        raise HTTPException(422, [{"loc": ["body", "scenario", "topology"], "type": "estimate_too_large",
                                   "msg": str(exc), "input": None}]) from exc
    except simulator.SimulatorUnavailable as exc:
        raise HTTPException(503, f"the estimate needs the simulator: {exc}") from exc
