"""docs/presets.md section 6: fat-tree-k4-websearch, FCT slowdown under the WebSearch workload."""

from validation.figures.core import at, case, figure, pauses, thr

P = "fat-tree-k4-websearch"
PRESET = case("ws.preset", P)
figure("ws.preset.flows", PRESET, at("summary.flows_total"), 0)
figure("ws.preset.completed", PRESET, at("summary.flows_completed"), 0)
for stat in ("p50", "p95", "p99", "mean"):
    figure(f"ws.preset.{stat}", PRESET, at(f"summary.slowdown.{stat}"), 2, "slowdown")
figure("ws.preset.fct_p50", PRESET, at("summary.fct_us.p50"), 1, "us")
figure("ws.preset.fct_p99", PRESET, at("summary.fct_us.p99"), 0, "us")
figure("ws.preset.goodput", PRESET, thr, 1)
figure("ws.preset.drops", PRESET, at("summary.drops.total"), 0)
figure("ws.preset.pauses", PRESET, pauses, 0)

for load, c in (("0.3", case("ws.load0.3", P, traffic__0__load=0.3)), ("0.5", PRESET),
                ("0.8", case("ws.load0.8", P, traffic__0__load=0.8))):
    figure(f"ws.load{load}.mean", c, at("summary.slowdown.mean"), 2)
    figure(f"ws.load{load}.p95", c, at("summary.slowdown.p95"), 1)

# every flow started in the first 2 ms, with 2 ms more to finish
LONG = case("ws.stop2ms-4ms", P, traffic__0__stop_us=2000, duration_us=4000)
figure("ws.long.completed", LONG, at("summary.flows_completed"), 0)
figure("ws.long.flows", LONG, at("summary.flows_total"), 0)
figure("ws.long.p95", LONG, at("summary.slowdown.p95"), 1)

PAPER = case("ws.dcqcn-paper", P, nic__cc={"preset": "dcqcn-paper"})
figure("ws.paper.p95", PAPER, at("summary.slowdown.p95"), 2)
figure("ws.paper.mean", PAPER, at("summary.slowdown.mean"), 2)
figure("ws.paper.pauses", PAPER, pauses, 0)
