"""docs/presets.md sections 7-12 (Guo et al. 2016: faults, watchdogs, deadlock, Pingmesh), the
alpha preset's `set` replay there, and labs 3 and 4."""

import statistics

from validation.figures.core import DELETE, at, case, figure, thr


def rate_after(r: dict, flow: str, t0: float) -> float:
    """A flow's mean sampled rate after t0 (series.flow_rates_gbps)."""
    t = r["series"]["t_us"]
    values = [v for ti, v in zip(t, r["series"]["flow_rates_gbps"][flow]) if ti > t0]
    return sum(values) / len(values)


def event_times(r: dict, event: str, target: str | None = None) -> list[float]:
    return [e["t_us"] for e in r["faults"]["events"]
            if e["event"] == event and (target is None or e["target"] == target)]


VICTIMS = ("0", "1", "2")  # h0->h4, h1->h5, h2->h6: they never touch the stormy h7

# -- msft-pfc-storm, msft-pfc-storm-watchdogs (lab 3) ------------------------------------------

STORM = case("storm.preset", "msft-pfc-storm")
figure("storm.after", STORM, lambda r: max(rate_after(r, f, 1000) for f in "0123"), 0,
       "the fastest of the four flows after 1000 us, Gbit/s")
GUARDED = case("storm-watchdogs.preset", "msft-pfc-storm-watchdogs")
FREE = case("storm-watchdogs.fault-free", "msft-pfc-storm-watchdogs", faults=DELETE)
figure("storm-watchdogs.switch_us", GUARDED,
       lambda r: event_times(r, "switch_watchdog", "leaf1->h7")[0], 0)
figure("storm-watchdogs.nic_us", GUARDED, lambda r: event_times(r, "nic_watchdog")[0], 0)
figure("storm-watchdogs.victims", GUARDED,
       lambda r: min(rate_after(r, f, 700) for f in VICTIMS), 2, "the slowest victim after 700 us")
figure("storm-watchdogs.fault_free", FREE,
       lambda r: min(rate_after(r, f, 700) for f in VICTIMS), 2)
figure("storm-watchdogs.drops", GUARDED, at("faults.drops.pfc_watchdog"), 0)
figure("storm-watchdogs.nic_only_us",
       case("storm-watchdogs.nic-only", "msft-pfc-storm-watchdogs",
            watchdogs__switch__enabled=False),
       lambda r: event_times(r, "nic_watchdog")[0], 0, "lab 3: the NIC watchdog alone")

# -- msft-link-failure -------------------------------------------------------------------------

LINK = case("link-failure.preset", "msft-link-failure")
figure("link-failure.drops", LINK, at("faults.drops.link_down"), 0)
figure("link-failure.paused_ports", LINK, lambda r: len(r["series"]["pause"]), 0,
       "ports the pause chart shows (monitor.ports auto)")

# -- msft-deadlock, msft-deadlock-cured --------------------------------------------------------

LOCKED = case("deadlock.preset", "msft-deadlock")
figure("deadlock.formed_us", LOCKED, lambda r: r["faults"]["deadlocks"][0]["formed_us"], 1)
figure("deadlock.after", LOCKED, lambda r: max(rate_after(r, f, 300) for f in
                                               r["series"]["flow_rates_gbps"]), 0)

CURED = case("deadlock-cured.preset", "msft-deadlock-cured")
figure("deadlock-cured.flow_min", CURED, lambda r: min(f["goodput_gbps"] for f in r["flows"]), 2,
       "the slowest flow's goodput over the run, Gbit/s")
figure("deadlock-cured.flow_max", CURED, lambda r: max(f["goodput_gbps"] for f in r["flows"]), 2,
       "the fastest flow's")
figure("deadlock-cured.total", CURED, thr, 2)
figure("deadlock-cured.mb_min", CURED, lambda r: min(f["bytes_delivered"] for f in r["flows"])
       / 1e6, 2)
figure("deadlock-cured.mb_max", CURED, lambda r: max(f["bytes_delivered"] for f in r["flows"])
       / 1e6, 2)
figure("deadlock-cured.triggers", CURED, at("faults.switch_watchdog_triggers"), 0)
figure("deadlock-cured.drops", CURED, at("faults.drops.pfc_watchdog"), 0)
figure("deadlock-cured.retx", CURED, at("summary.retransmitted_packets"), 0)


def bursts(r: dict) -> list[tuple[float, float, list[float]]]:
    """(start, end, every flow's samples) of each stretch where the ring moves."""
    t, rates = r["series"]["t_us"], r["series"]["flow_rates_gbps"]
    step = r["series"]["interval_us"]
    moving = [any(rates[f][i] > 0 for f in rates) for i in range(len(t))]
    out, start = [], None
    for i, m in enumerate(moving + [False]):
        if m and start is None:
            start = i
        elif not m and start is not None:
            out.append((t[start] - step, t[i - 1], [rates[f][k] for f in rates
                                                     for k in range(start, i)]))
            start = None
    return out


figure("deadlock-cured.burst_gbps", CURED, lambda r: statistics.median(bursts(r)[0][2]), 0,
       "a flow's rate while the ring moves (the first burst's median sample)")
figure("deadlock-cured.burst_us", CURED, lambda r: bursts(r)[0][1] - bursts(r)[0][0], 0,
       "how long the first burst lasts")
for n in (1, 2):
    figure(f"deadlock-cured.restart{n}_ms", CURED, lambda r, n=n: bursts(r)[n][0] / 1000, 2)
for n, (event, k) in enumerate((("switch_watchdog", 0), ("switch_watchdog_restore", 0),
                                ("switch_watchdog", 1), ("switch_watchdog_restore", 1),
                                ("switch_watchdog", 2))):
    figure(f"deadlock-cured.event{n + 1}_us", CURED,
           lambda r, event=event, k=k: event_times(r, event, "s0->s1")[k], 0)

# -- msft-pingmesh (lab 4) ---------------------------------------------------------------------

PING = case("pingmesh.preset", "msft-pingmesh")
figure("pingmesh.idle_p50", PING, at("pingmesh.idle.p50_us"), 2)
figure("pingmesh.idle_p99", PING, at("pingmesh.idle.p99_us"), 2)
figure("pingmesh.loaded_p99", PING, at("pingmesh.loaded.p99_us"), 0)
figure("pingmesh.loaded_p999", PING, at("pingmesh.loaded.p999_us"), 0)
figure("pingmesh.tor_p50", PING, at("pingmesh.scopes.tor.p50_us"), 2)
figure("pingmesh.tor_p99", PING, at("pingmesh.scopes.tor.p99_us"), 0)

# -- pfc-alpha-incast's `set` fault: alpha back to 1/16 at 1000 us -----------------------------

ALPHA = case("alpha-fix.preset", "pfc-alpha-incast")
UNFIXED = case("alpha-fix.without", "pfc-alpha-incast", faults=DELETE)


def paused_pct(before: bool):
    def value(r: dict) -> float:
        t, paused = r["series"]["t_us"], r["series"]["pause"]["h1->leaf0"]
        v = [p for ti, p in zip(t, paused) if (ti < 1000) == before]
        return 100 * sum(v) / len(v)
    return value


figure("alpha-fix.paused_before_pct", ALPHA, paused_pct(True), 0, "h1's egress, % of samples")
figure("alpha-fix.paused_after_pct", ALPHA, paused_pct(False), 0)
figure("alpha-fix.pauses", ALPHA, at("summary.counters.whole_run.pfc_pauses_sent"), 0)
figure("alpha-fix.pauses_without", UNFIXED, at("summary.counters.whole_run.pfc_pauses_sent"), 0)
