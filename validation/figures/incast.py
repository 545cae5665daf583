"""docs/presets.md section 1 and lab 1: the 2-to-1 incast (ByteTuning), ECN and DCQCN presets."""

from validation.figures.core import (case, cnps, figure, flow_goodput, marks, peak_time_us,
                                     qmax_kb, qmean_kb, thr)

P = "incast-2to1"
Q = "leaf0->h0"
CEILING = 25 * 1000 / 1082

ROWS = {
    "preset": case("incast.preset", P),
    "kmax": case("incast.kmax200k", P, switch__ecn__kmax_bytes=200000),
    "nvidia": case("incast.nvidia", P, nic__cc__preset="nvidia-default"),
    "nvidia50": case("incast.nvidia-cnp50", P, nic__cc__preset="nvidia-default",
                     nic__cnp_interval_us=50),
    "none": case("incast.none", P, nic__cc__algorithm="none"),
}
for row, c in ROWS.items():
    figure(f"incast.{row}.goodput", c, thr, 2, "goodput after warm-up, Gbit/s")
    figure(f"incast.{row}.ceiling_pct", c, lambda r: 100 * thr(r) / CEILING, 1, "% of 23.105")
    figure(f"incast.{row}.marks", c, marks, 0)
    figure(f"incast.{row}.cnps", c, cnps, 0)
    figure(f"incast.{row}.qmean", c, qmean_kb(Q), 1, "KB")
    figure(f"incast.{row}.qmax", c, qmax_kb(Q), 1, "KB")
figure("incast.none.pauses", ROWS["none"], lambda r: r["summary"]["pfc_pauses_sent"], 0)
figure("incast.preset.flow0", ROWS["preset"], flow_goodput(0), 2)
figure("incast.preset.flow1", ROWS["preset"], flow_goodput(1), 2)
figure("incast.preset.qmax_run", ROWS["preset"], qmax_kb(Q, whole_run=True), 1)
figure("incast.kmax.qmax_run", ROWS["kmax"], qmax_kb(Q, whole_run=True), 0)
figure("incast.kmax.peak_us", ROWS["kmax"], peak_time_us(Q), 0)
figure("incast.kmax10ms.goodput",
       case("incast.kmax200k-10ms", P, switch__ecn__kmax_bytes=200000, duration_us=10000), thr, 1)
figure("incast.nvidia.qmax_run", ROWS["nvidia"], qmax_kb(Q, whole_run=True), 1)
figure("incast.nvidia-cnp2.goodput",
       case("incast.nvidia-cnp2", P, nic__cc__preset="nvidia-default", nic__cnp_interval_us=2),
       thr, 2, "nvidia-default with a CNP at most every 2 us")
figure("incast.nvidia-cnp2.qmean", "incast.nvidia-cnp2", qmean_kb(Q), 1)

# docs/model.md, "ECN marking point": docs/examples/valid/leaf-spine-incast.json for 5 ms with
# nvidia-default (simcore/test/model-dcqcn-incast-test.cc runs the same).
def _example_incast() -> dict:
    import json

    from validation.figures.core import ROOT
    doc = json.loads((ROOT / "docs/examples/valid/leaf-spine-incast.json").read_text())
    doc["duration_us"] = 5000
    doc.setdefault("nic", {})["cc"] = {"preset": "nvidia-default", "algorithm": "dcqcn"}
    return doc


for point in ("enqueue", "dequeue"):
    c = case(f"incast.example.{point}", scenario=_example_incast, switch__ecn_mark_point=point)
    figure(f"incast.example.{point}.goodput", c, thr, 2)
    figure(f"incast.example.{point}.pct", c, lambda r: 100 * thr(r) / 23.09, 0,
           "% of the bottleneck's 23.09 Gbit/s")
figure("incast.example.dequeue.pauses", "incast.example.dequeue",
       lambda r: r["summary"]["pfc_pauses_sent"], 0)
