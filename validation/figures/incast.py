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
