"""docs/presets.md sections 4 and 5, lab 7: ECMP collisions (Guo et al. 2016, seeds/001) in the
three-tier podsets and in a non-blocking leaf-spine permutation."""

import statistics

from validation.figures.core import DELETE, at, case, figure, link_util, pauses, thr


# -- section 4: three-tier-podsets -------------------------------------------------------------

T = "three-tier-podsets"
CUT = 8 * 40 * 1000 / 1082  # 8 Leaf-spine links at 40G: 295.7 Gbit/s of goodput
TT = {
    "preset": case("tt.preset", T),
    "seed7": case("tt.ecmp-seed7", T, switch__ecmp_seed=7),
    "qps8": case("tt.qps8", T, traffic__0__qps=8),
    "nopfc": case("tt.no-pfc", T, switch__pfc__enabled=False),
    "paper": case("tt.dcqcn-paper", T, nic__cc={"algorithm": "dcqcn", "preset": "dcqcn-paper"}),
}
for row in ("preset", "seed7", "qps8", "nopfc", "paper"):
    figure(f"tt.{row}.goodput", TT[row], thr, 1, "aggregate, Gbit/s")
for row in ("preset", "qps8"):
    figure(f"tt.{row}.cut_pct", TT[row], lambda r: 100 * thr(r) / CUT, 0, "% of 295.7 Gbit/s")
for link in ("leaf0_0->spine0", "leaf0_0->spine1", "leaf0_1->spine2", "leaf0_1->spine3",
             "leaf1_0->spine0", "leaf1_0->spine1", "leaf1_1->spine2", "leaf1_1->spine3"):
    figure(f"tt.util.{link.replace('->', '-')}", TT["preset"],
           lambda r, link=link: link_util(r, link), 2)
figure("tt.preset.drops", TT["preset"], at("summary.drops.total"), 0)
figure("tt.preset.pauses", TT["preset"], pauses, 0)
figure("tt.pingmesh.sent", TT["preset"], at("pingmesh.probes_sent"), 0)
figure("tt.pingmesh.answered", TT["preset"], at("pingmesh.rtt.count"), 0)
figure("tt.pingmesh.p50", TT["preset"], at("pingmesh.rtt.p50_us"), 0, "RTT under load, us")
figure("tt.pingmesh.max", TT["preset"], at("pingmesh.rtt.max_us"), 0)
figure("tt.pingmesh.idle_p50", case("tt.idle", T, traffic__0=DELETE), at("pingmesh.rtt.p50_us"),
       1, "the probes alone")
figure("tt.preset.max_queue_mb", TT["preset"], lambda r: r["summary"]["max_queue_bytes"] / 1e6, 1)
figure("tt.nopfc.drops", TT["nopfc"], at("summary.drops.tail_drop"), 0)
figure("tt.nopfc.of_lossless_pct", (TT["nopfc"], TT["preset"]),
       lambda lossy, lossless: 100 * thr(lossy) / thr(lossless), 0)


# -- section 5 and lab 7: leaf-spine-permutation -----------------------------------------------

P = "leaf-spine-permutation"
SHARED = 1.5  # a slowdown above it: the flow shared an uplink (or a spine downlink)


def slowdowns(r: dict, shared: bool | None = None) -> list[float]:
    return sorted(f["slowdown"] for f in r["flows"]
                  if shared is None or (f["slowdown"] > SHARED) == shared)


def goodputs(r: dict, shared: bool) -> list[float]:
    return [f["goodput_gbps"] for f in r["flows"] if (f["slowdown"] > SHARED) == shared]


PERM = {
    "preset": case("perm.preset", P),
    "seed7": case("perm.ecmp-seed7", P, switch__ecmp_seed=7),
    "seed2": case("perm.seed2", P, seed=2),
    "dcqcn": case("perm.dcqcn", P, nic__cc={"algorithm": "dcqcn"}),  # the default preset
    "paper": case("perm.dcqcn-paper", P, nic__cc={"algorithm": "dcqcn",
                                                  "preset": "dcqcn-paper"}),
    "sprayed": case("perm.sprayed", P, nic__transport="sprayed",
                    switch={"load_balancing": "per_packet"}),
    "adaptive": case("perm.adaptive", P, nic__transport="sprayed",
                     switch={"load_balancing": "adaptive"}),
    "sprayed-ecmp": case("perm.sprayed-ecmp", P, nic__transport="sprayed"),
}
STATED = {"preset": ("p50", "p95", "mean"), "seed7": ("p50", "p95", "mean"),
          "seed2": ("p50", "p95", "mean"), "dcqcn": ("p50", "p95", "mean"), "paper": ("p95",),
          "sprayed": ("p50", "p95", "mean"), "adaptive": ("p95", "mean"),
          "sprayed-ecmp": ("p95",)}
for row, stats in STATED.items():
    for stat in stats:
        figure(f"perm.{row}.{stat}", PERM[row], at(f"summary.slowdown.{stat}"), 2)
for row in ("preset", "seed7", "seed2", "dcqcn"):
    for stat in ("p50", "p99"):
        figure(f"perm.{row}.fct_{stat}", PERM[row], at(f"summary.fct_us.{stat}"), 1, "us")

R = PERM["preset"]
figure("perm.preset.alone", R, lambda r: len(slowdowns(r, False)), 0, "flows that share nothing")
figure("perm.preset.shared", R, lambda r: len(slowdowns(r, True)), 0)
figure("perm.preset.alone_min", R, lambda r: slowdowns(r, False)[0], 2)
figure("perm.preset.alone_max", R, lambda r: slowdowns(r, False)[-1], 2)
figure("perm.preset.shared_min", R, lambda r: slowdowns(r, True)[0], 2)
figure("perm.preset.shared_max", R, lambda r: slowdowns(r, True)[-1], 2)
figure("perm.preset.alone_gbps_min", R, lambda r: min(goodputs(r, False)), 0)
figure("perm.preset.alone_gbps_max", R, lambda r: max(goodputs(r, False)), 0)
figure("perm.preset.shared_gbps_min", R, lambda r: min(goodputs(r, True)), 0)
figure("perm.preset.shared_gbps_max", R, lambda r: max(goodputs(r, True)), 0)
figure("perm.paper.shared_gbps", PERM["paper"], lambda r: statistics.median(goodputs(r, True)),
       0, "the median collided flow's goodput")
figure("perm.sprayed.min", PERM["sprayed"], lambda r: slowdowns(r)[0], 2)
figure("perm.sprayed.max", PERM["sprayed"], lambda r: slowdowns(r)[-1], 2)
for row in ("sprayed", "sprayed-ecmp"):
    figure(f"perm.{row}.retx", PERM[row], at("summary.retransmitted_packets"), 0)
figure("perm.sprayed.retx_pct", PERM["sprayed"],
       lambda r: 100 * r["summary"]["retransmitted_packets"] / (16 * 2000), 1,
       "% of the 32,000 packets")
