"""docs/presets.md sections 7-12 (Guo et al. 2016: faults, watchdogs, deadlock, Pingmesh)."""

from validation.figures.core import case, figure

CURED = case("deadlock-cured.preset", "msft-deadlock-cured")
figure("deadlock-cured.flow_min", CURED, lambda r: min(f["goodput_gbps"] for f in r["flows"]), 2,
       "the slowest flow's goodput over the run, Gbit/s")
figure("deadlock-cured.flow_max", CURED, lambda r: max(f["goodput_gbps"] for f in r["flows"]), 2,
       "the fastest flow's")
