"""docs/model.md, "Flow-level engine": where the flow engine differs from the packet model, the
figures its text states (docs/validation-flow.md has them all, validation/flow_vs_packet.py)."""

import json

from validation.figures.core import ROOT, case, figure, job, thr

FLOW = ("--engine", "flow")
STREAMS = ("--engine", "flow", "--collective-streams", "on")


def _rail_ring() -> dict:
    from validation.flow_vs_packet import rail_ring
    return rail_ring(2, 2, 1, 32)


def _ai_256_ring() -> dict:
    return json.loads((ROOT / "bench" / "ai-256-ring.json").read_text())


def jct(r: dict, name: str | None = None) -> float:
    return (job(r, name) if name else r["jobs"][0])["jct_us"]


def pct(flow: float, packet: float) -> float:
    return 100 * (flow / packet - 1)


# DCQCN: the packet all-to-all's JCT against the flow engine's max-min answer, and without it
MOE_P = case("flow.moe.packet", "ai-moe-alltoall")
MOE_F = case("flow.moe.flow", "ai-moe-alltoall", args=FLOW)
figure("flow.moe.x", (MOE_P, MOE_F), lambda p, f: jct(p, "moe") / jct(f, "moe"), 1)
MOE_NP = case("flow.moe-none.packet", "ai-moe-alltoall", nic__cc__algorithm="none")
MOE_NF = case("flow.moe-none.flow", "ai-moe-alltoall", nic__cc__algorithm="none", args=FLOW)
figure("flow.moe-none.err", (MOE_NP, MOE_NF),
       lambda p, f: abs(pct(jct(f, "moe"), jct(p, "moe"))), 1, "|error| %")
# PFC behind ECMP collisions: the three-tier preset's throughput
TT_P = case("flow.three-tier.packet", "three-tier-podsets")
TT_F = case("flow.three-tier.flow", "three-tier-podsets", args=FLOW)
figure("flow.three-tier.err", (TT_P, TT_F), lambda p, f: pct(thr(f), thr(p)), 0, "+ %")
# rings whose connections hold several released steps: transfer by transfer, and as streams
RING_P = case("flow.ring2x2.packet", scenario=_rail_ring)
RING_F = case("flow.ring2x2.flow", scenario=_rail_ring, args=FLOW)
RING_S = case("flow.ring2x2.streams", scenario=_rail_ring, args=STREAMS)
figure("flow.ring2x2.err", (RING_P, RING_F), lambda p, f: pct(jct(f), jct(p)), 1, "+ %")
figure("flow.ring2x2.streams", (RING_P, RING_S), lambda p, f: -pct(jct(f), jct(p)) + 0.0, 1, "- %")
RAIL_P = case("flow.rail.packet", "ai-rail-allreduce")
RAIL_F = case("flow.rail.flow", "ai-rail-allreduce", args=FLOW)
figure("flow.rail.err", (RAIL_P, RAIL_F), lambda p, f: pct(jct(f, "ring"), jct(p, "ring")), 1,
       "+ %")
A256_P = case("flow.ai256.packet", scenario=_ai_256_ring)
A256_S = case("flow.ai256.streams", scenario=_ai_256_ring, args=STREAMS)
figure("flow.ai256.streams", (A256_P, A256_S), lambda p, f: -pct(jct(f), jct(p)) + 0.0, 1, "- %")
