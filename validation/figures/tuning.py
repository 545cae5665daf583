"""docs/tuning.md: the vendor point and the grid's pick on the 2-to-1 incast preset (3 ms)."""

from validation.figures.core import case, figure, queue, thr

P = "incast-2to1"
VENDOR = case("tuning.vendor", P, patch={  # backend/app/tunings/strategies/fixed.py, VENDOR_SETTINGS
    "switch.ecn.kmin_bytes": 150_000, "switch.ecn.kmax_bytes": 1_500_000, "switch.ecn.pmax": 1.0,
    "nic.cc.preset": "nvidia-default"})
PICK = case("tuning.pick", P, patch={  # the grid's pick at beta 0.5: Kmin 0, Kmax 500, Pmax 50 %
    "switch.ecn.kmin_bytes": 0, "switch.ecn.kmax_bytes": 500, "switch.ecn.pmax": 0.5})
for name, c in (("vendor", VENDOR), ("pick", PICK)):
    figure(f"tuning.{name}.goodput", c, thr, 2)
    figure(f"tuning.{name}.p99_kb", c, lambda r: queue(r, "leaf0->h0")["p99_bytes"] / 1000, 0)
