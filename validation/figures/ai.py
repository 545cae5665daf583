"""docs/presets.md sections 15-19 and lab 9: the AI presets (collectives on rail-optimized and
multi-plane fabrics)."""

from validation.figures.core import case, figure, job, jct_us, marks, retx

MIB = 1 << 20
BOUND_MOE_US = 24 * MIB * 8 / 392.149e3  # 24 MiB through one 400G NIC's payload rate: 513.4 us


def busbw(name: str):
    return lambda r: job(r, name)["busbw_gbps"]


def iteration_us(name: str, index: int):
    return lambda r: job(r, name)["iterations"][index]["time_us"]


def iteration_busbw(name: str, index: int):
    return lambda r: job(r, name)["iterations"][index]["busbw_gbps"]


def fault_drops(kind: str):
    return lambda r: r["faults"]["drops"][kind]


# -- 15. ai-rail-allreduce: ring against tree ---------------------------------------------------
RAIL = case("ai-rail.preset", "ai-rail-allreduce")
figure("ai-rail.ring.jct", RAIL, jct_us("ring"), 1)
figure("ai-rail.ring.busbw", RAIL, busbw("ring"), 1)
figure("ai-rail.ring.of_bound", RAIL, lambda r: 100 * busbw("ring")(r) / (4 * 392.149), 0)
figure("ai-rail.tree.jct", RAIL, jct_us("tree"), 1)
figure("ai-rail.tree.busbw", RAIL, busbw("tree"), 1)
figure("ai-rail.marks", RAIL, marks, 0)
RAIL_NOCC = case("ai-rail.none", "ai-rail-allreduce", nic__cc__algorithm="none")
figure("ai-rail.none.tree.jct", RAIL_NOCC, jct_us("tree"), 1)
RAIL_PAPER = case("ai-rail.paper", "ai-rail-allreduce", nic__cc__preset="dcqcn-paper")
figure("ai-rail.paper.tree.jct", RAIL_PAPER, jct_us("tree"), 1)
RAIL64 = case("ai-rail.64mib", "ai-rail-allreduce",
              patch={"traffic.0.message_bytes": 64 * MIB, "traffic.1.message_bytes": 64 * MIB,
                     "traffic.1.start_us": 800, "duration_us": 3000})
figure("ai-rail.64mib.ring.busbw", RAIL64, busbw("ring"), 1)
figure("ai-rail.64mib.ring.of_bound", RAIL64, lambda r: 100 * busbw("ring")(r) / (4 * 392.149), 0)
figure("ai-rail.64mib.tree.busbw", RAIL64, busbw("tree"), 1)
for size in (1, 8):
    c = case(f"ai-rail.{size}mib", "ai-rail-allreduce",
             patch={"traffic.0.message_bytes": size * MIB, "traffic.1.message_bytes": size * MIB})
    figure(f"ai-rail.{size}mib.ring.jct", c, jct_us("ring"), 1)
    figure(f"ai-rail.{size}mib.tree.jct", c, jct_us("tree"), 1)

# -- 16. ai-moe-alltoall: load balancing x transport ---------------------------------------------
for lb in ("ecmp", "per_packet", "adaptive"):
    for tr in ("rc", "sprayed"):
        c = case(f"ai-moe.{lb}.{tr}", "ai-moe-alltoall", switch__load_balancing=lb,
                 nic__transport=tr)
        figure(f"ai-moe.{lb}.{tr}.jct", c, jct_us("moe"), 1)
        figure(f"ai-moe.{lb}.{tr}.x_bound", c, lambda r: jct_us("moe")(r) / BOUND_MOE_US, 2)
        figure(f"ai-moe.{lb}.{tr}.retx", c, retx, 0)
        figure(f"ai-moe.{lb}.{tr}.marks", c, marks, 0)
MOE_PAPER = case("ai-moe.paper", "ai-moe-alltoall", nic__cc__preset="dcqcn-paper")
figure("ai-moe.paper.jct", MOE_PAPER, jct_us("moe"), 1)
MOE_NOCC = case("ai-moe.none", "ai-moe-alltoall", nic__cc__algorithm="none")
figure("ai-moe.none.jct", MOE_NOCC, jct_us("moe"), 1)

# -- 17. ai-two-jobs: placement and interference -------------------------------------------------
ALONE = case("ai-two-jobs.alone", "ai-two-jobs", patch={"traffic": [
    {"kind": "collective", "name": "job A", "op": "all_reduce", "algorithm": "ring",
     "message_bytes": 64 * MIB, "servers": 4, "placement": "spread", "job": "A"}]})
figure("ai-two-jobs.alone.jct", ALONE, jct_us("A"), 1)
SPREAD = case("ai-two-jobs.spread", "ai-two-jobs")
figure("ai-two-jobs.spread.a", SPREAD, jct_us("A"), 1)
figure("ai-two-jobs.spread.b", SPREAD, jct_us("B"), 1)
figure("ai-two-jobs.spread.x_alone", SPREAD, lambda r: jct_us("A")(r) / (62 * 2 * MIB * 8 / 392.149e3),
       1)
PACKED = case("ai-two-jobs.packed", "ai-two-jobs", traffic__0__placement="packed")
figure("ai-two-jobs.packed.a", PACKED, jct_us("A"), 1)
figure("ai-two-jobs.packed.b", PACKED, jct_us("B"), 1)

# -- 18. ai-link-failure -------------------------------------------------------------------------
FAIL = case("ai-link-failure.preset", "ai-link-failure")
NOFAIL = case("ai-link-failure.no-fault", "ai-link-failure", faults=[])
for i in range(3):
    figure(f"ai-link-failure.it{i}", FAIL, iteration_us("train", i), 1)
    figure(f"ai-link-failure.no-fault.it{i}", NOFAIL, iteration_us("train", i), 1)
figure("ai-link-failure.link_down", FAIL, fault_drops("link_down"), 0)

# -- 19. ai-multi-plane ---------------------------------------------------------------------------
for tr in ("sprayed", "rc"):
    for ch in (1, 4):
        c = case(f"ai-mp.{tr}.{ch}", "ai-multi-plane", nic__transport=tr,
                 patch={"traffic.0.channels": ch})
        figure(f"ai-mp.{tr}.{ch}.jct", c, jct_us("train"), 1)
        figure(f"ai-mp.{tr}.{ch}.it0", c, iteration_us("train", 0), 1)
        figure(f"ai-mp.{tr}.{ch}.it1", c, iteration_us("train", 1), 1)
figure("ai-mp.sprayed.1.it0.busbw", "ai-mp.sprayed.1", iteration_busbw("train", 0), 1)
figure("ai-mp.sprayed.1.it1.busbw", "ai-mp.sprayed.1", iteration_busbw("train", 1), 1)
figure("ai-mp.sprayed.1.it1.ratio", "ai-mp.sprayed.1",
       lambda r: iteration_busbw("train", 1)(r) / iteration_busbw("train", 0)(r), 2)
figure("ai-mp.sprayed.1.link_down", "ai-mp.sprayed.1", fault_drops("link_down"), 0)
figure("ai-mp.sprayed.1.retx", "ai-mp.sprayed.1", retx, 0)
figure("ai-mp.sprayed.4.link_down", "ai-mp.sprayed.4", fault_drops("link_down"), 0)
figure("ai-mp.sprayed.4.it0.busbw", "ai-mp.sprayed.4", iteration_busbw("train", 0), 1)
figure("ai-moe.spray_rc_x_ecmp", ("ai-moe.per_packet.rc", "ai-moe.ecmp.rc"),
       lambda a, b: jct_us("moe")(a) / jct_us("moe")(b), 1, "spraying with RC against ECMP")
