"""docs/presets.md section 14 and lab 8: erd-vs-rc, ERD against RC, XRC and sprayed in an
all-to-all as the fat tree grows (seeds/004), with a 32-entry QP context cache."""

from validation.figures.core import at, case, figure

P = "erd-vs-rc"
ROWS = ("rc", "xrc", "sprayed", "erd2", "erd4", "erd8")


def point(k: int, row: str, **extra) -> dict:
    """A point of the preset's comparison: transport, ERD paths, k, linked duration."""
    transport = "erd" if row.startswith("erd") else row
    patch = {"nic.transport": transport, "topology.k": k, "duration_us": 800 * k - 2600}
    if transport == "erd":
        patch["nic.erd.paths"] = int(row[3:])
    return patch | extra


def fcts(r: dict) -> list[float]:
    return [f["fct_us"] for f in r["flows"]]


def fct_max(r: dict) -> float:
    return max(fcts(r))


def fct_mean(r: dict) -> float:
    return r["summary"]["fct_us"]["mean"]


def per_host(r: dict) -> float:
    """All bytes over the last completion, per host (Gbit/s)."""
    total = sum(f["bytes_delivered"] for f in r["flows"])
    return total * 8 / (fct_max(r) * 1e3) / len(r["transport"]["nics"])


def time_slowdown(r: dict) -> float:
    """The paper's time slowdown: worst FCT over mean FCT."""
    return fct_max(r) / fct_mean(r)


def contexts(r: dict) -> float:
    return max(n["qp_contexts_used"] for n in r["transport"]["nics"])


CASES = {(k, row): case(f"erd.k{k}.{row}", P, patch=point(k, row))
         for k in (4, 6) for row in ROWS}
for (k, row), c in CASES.items():
    fid = f"erd.k{k}.{row}"
    figure(f"{fid}.qps", c, at("transport.max_qps_per_nic"), 0)
    figure(f"{fid}.contexts", c, contexts, 0)
    figure(f"{fid}.misses", c, at("transport.qp_cache_misses"), 0)
    figure(f"{fid}.drops", c, at("summary.drops.total"), 0)
    figure(f"{fid}.resends", c, at("summary.retransmitted_packets"), 0)
    figure(f"{fid}.fct_mean", c, fct_mean, 1, "us")
    figure(f"{fid}.fct_p99", c, at("summary.fct_us.p99"), 1)
    figure(f"{fid}.fct_max", c, fct_max, 1)
    figure(f"{fid}.time_slowdown", c, time_slowdown, 2, "max / mean FCT")
    figure(f"{fid}.per_host", c, per_host, 1, "Gbit/s")
    figure(f"{fid}.slowdown_p99", c, at("summary.slowdown.p99"), 2, "lab 8")

ALL = tuple(CASES.values())
figure("erd.time_slowdown.min", ALL, lambda *rs: min(map(time_slowdown, rs)), 2)
figure("erd.time_slowdown.max", ALL, lambda *rs: max(map(time_slowdown, rs)), 2)
figure("erd.k4.erd4.per_host_0", CASES[4, "erd4"], per_host, 0)
for k in (4, 6):
    for other in ("rc", "xrc"):
        figure(f"erd.k{k}.erd4.below_{other}_pct", (CASES[k, "erd4"], CASES[k, other]),
               lambda erd, o: 100 * (1 - fct_mean(erd) / fct_mean(o)), 0,
               "ERD's mean FCT below the other's, %")
figure("erd.k4.erd4.fct_p99_0", CASES[4, "erd4"], at("summary.fct_us.p99"), 0, "lab 8")
K6_ERD = tuple(CASES[6, row] for row in ("erd2", "erd4", "erd8"))
figure("erd.k6.erd.resends_min", K6_ERD, lambda *rs: min(at("summary.retransmitted_packets")(r)
                                                         for r in rs), 0)
figure("erd.k6.erd.resends_max", K6_ERD, lambda *rs: max(at("summary.retransmitted_packets")(r)
                                                         for r in rs), 0)
figure("erd.k6.erd.nacks", K6_ERD, lambda *rs: sum(sum(f["erd"]["nacks_sent"] for f in r["flows"])
                                                   for r in rs) / len(rs), -2,
       "NACKs per run, the mean of 2, 4 and 8 paths")

# without the cache limit (qp_cache_entries 0): RC and XRC alike at k = 4
NOCACHE = case("erd.k4.rc-nocache", P, patch=point(4, "rc", **{"nic.qp_cache_entries": 0}))
figure("erd.k4.rc-nocache.fct_mean", NOCACHE, fct_mean, 1)
figure("erd.k4.rc-nocache.fct_p99", NOCACHE, at("summary.fct_us.p99"), 1)
figure("erd.k4.rc-nocache.per_host", NOCACHE, per_host, 1)

# 4 processes per host at k = 6: 45,792 flows overflow the lossy fabric's buffers
for row in ("rc", "xrc", "erd4"):
    c = case(f"erd.p4.k6.{row}", P, patch=point(6, row, **{"nic.processes_per_host": 4}))
    figure(f"erd.p4.k6.{row}.drops", c, at("summary.drops.total"), 0)
    if row == "rc":
        figure("erd.p4.k6.rc.completed", c, at("summary.flows_completed"), 0)
