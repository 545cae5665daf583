"""DCQCN against its fluid model: N-to-1 incasts at 40 Gbit/s with the paper's parameters
(issue 7, section 1)."""

from __future__ import annotations

import numpy as np

from validation.dcqcn_fluid import DcqcnParams, fixed_point, simulate
from validation.incast import IncastSpec, run_incast
from validation.registry import Row, Section, target, within

SOURCE = "DCQCN fluid model (Zhu et al. SIGCOMM 2015 sec. 5; CoNEXT 2016), validation/dcqcn_fluid.py"
QUEUE_TOLERANCE = 0.15
QUEUE_TARGET_N = (2, 4, 8)
# The quick run (scripts/test.sh) guards what holds today: utilization and fairness at N = 2, 4
# and the N = 4 queue. The N = 2 and N = 8 queues and the start-up dip FAIL in the full run for
# reasons docs/validation.md ("Findings worth knowing") explains; they stay in the full run.
QUICK_QUEUE_TARGET_N = (4,)
# dcqcn-paper's additive increase (simcore/scenario/device-config.cc, DcqcnPreset): after F
# timer periods of fast recovery each 55 us period adds Rai = 40 Mbit/s to every flow's target
# (hyper increase needs F byte-counter stages too: 5 x 10 MB, far beyond a start-up).
RAI_BPS, TIMER_S = 40e6, 55e-6
SLOPE_TOLERANCE = 0.10


def recovery_slope(per_ms: tuple) -> tuple[float, int] | None:
    """Least-squares slope (fraction of capacity per ms) of the per-ms goodput from its worst
    millisecond up to the last one below 0.9, and how many ms it spans; None under 3 ms."""
    start = min(range(len(per_ms)), key=per_ms.__getitem__)
    end = start
    while end + 1 < len(per_ms) and per_ms[end + 1] < 0.9:
        end += 1
    if end - start + 1 < 3:
        return None
    y = np.asarray(per_ms[start:end + 1])
    return float(np.polyfit(np.arange(y.size), y, 1)[0]), int(y.size)


def slope_row(n: int, res, rate_bps: float) -> Row:
    want = n * RAI_BPS / TIMER_S * 1e-3 / rate_bps
    got = recovery_slope(res.per_ms_goodput)
    measured = "no ramp of 3 ms below 0.9" if got is None else \
        f"{got[0]:.4f} per ms over {got[1]} ms ({got[0] / want - 1:+.1%})"
    # N = 16 is reported only: it sits at the Kmax cliff (PFC pauses and repeated synchronous
    # cuts during the ramp), so its start-up is not one additive ramp.
    judged = n in QUEUE_TARGET_N and got is not None
    return Row(f"DCQCN N={n}: start-up recovery slope", "DCQCN additive increase: N x Rai per "
               "timer period (dcqcn-paper: 40 Mbit/s per 55 us)", f"{want:.4f} of capacity per ms",
               "+-10 %" if judged else "reported", measured,
               abs(got[0] / want - 1) <= SLOPE_TOLERANCE if judged else None)


def fluid_worst_ms(n: int, prm: DcqcnParams, duration_ms: int = 12) -> float:
    """Worst 1 ms goodput (fraction of C) after the first ms, all flows starting at line rate,
    alpha 1, empty queue: the link is busy while the queue holds anything."""
    tr = simulate(n, prm, duration_ms * 1e-3, dt_s=0.5e-6, sample_s=1e-6)
    busy = np.where(tr.queue_bytes > 0, 1.0,
                    np.minimum(1.0, tr.rates_bps.sum(axis=1) / prm.capacity_bps))
    per_ms = [busy[(tr.t_s >= k * 1e-3) & (tr.t_s < (k + 1) * 1e-3)].mean()
              for k in range(1, duration_ms)]
    return float(min(per_ms))


def fluid_mean_queue(n: int, prm: DcqcnParams, duration_ms: float = 40) -> float:
    tr = simulate(n, prm, duration_ms * 1e-3, dt_s=1e-6, sample_s=10e-6)
    return tr.mean_queue(after_s=duration_ms * 1e-3 / 2)


def _rows_for(n, fp, res, label, queue_target: bool):
    rows = []
    q_ok = within(res.mean_queue_bytes, fp.queue_bytes, QUEUE_TOLERANCE) if queue_target else None
    rows.append(Row(f"{label} N={n}: mean bottleneck queue", SOURCE,
                    f"{fp.queue_bytes / 1e3:.1f} KB (fixed point{', at Kmax' if fp.saturated else ''})",
                    "+-15 %" if queue_target else "reported",
                    f"{res.mean_queue_bytes / 1e3:.1f} KB ({res.mean_queue_bytes / fp.queue_bytes - 1:+.0%})",
                    q_ok))
    rows.append(Row(f"{label} N={n}: bottleneck utilization", "issue 7", ">= 0.95", "-",
                    f"{res.utilization:.4f}", res.utilization >= 0.95))
    rows.append(Row(f"{label} N={n}: Jain fairness", "issue 7", ">= 0.95", "-",
                    f"{res.jain:.4f}", res.jain >= 0.95))
    return rows


@target("dcqcn-fluid-incast", quick=True)
def dcqcn_vs_fluid(quick: bool) -> Section:
    prm = DcqcnParams()
    ns = (2, 4) if quick else (2, 4, 8, 16)
    duration = 80.0 if quick else 200.0
    warmup = 30.0 if quick else 30.0
    sec = Section("DCQCN N-to-1 incast at 40 Gbit/s against the fluid model")
    table = ["| N | fluid fixed point: q* (p*) | fluid simulated mean q | packet mean q, enqueue marking "
             "| packet mean q, dequeue marking | utilization (enq / deq) | Jain (enq / deq) "
             "| worst ms goodput after the first: fluid / packet enq / packet deq |",
             "|---|---|---|---|---|---|---|---|"]
    for n in ns:
        fp = fixed_point(n, prm)
        enq = run_incast(IncastSpec(n=n, duration_ms=duration, warmup_ms=warmup))
        queue_target = n in (QUICK_QUEUE_TARGET_N if quick else QUEUE_TARGET_N)
        if quick and not queue_target:
            sec.rows += _rows_for(n, fp, enq, "DCQCN", queue_target=False)[1:]
            continue
        sec.rows += _rows_for(n, fp, enq, "DCQCN", queue_target=queue_target)
        if quick:
            continue
        worst_fluid = fluid_worst_ms(n, prm)
        sec.rows.append(Row(
            f"DCQCN N={n}: goodput in every ms after the first", "issue 7 (paper parameters, all "
            "flows start at line rate together)", ">= 0.80 of capacity", "-",
            f"{enq.worst_ms_goodput:.3f} (ms {enq.worst_ms_at:.0f}); fluid model: {worst_fluid:.3f}",
            enq.worst_ms_goodput >= 0.80))
        sec.rows.append(slope_row(n, enq, 40e9))
        deq = run_incast(IncastSpec(n=n, duration_ms=duration, warmup_ms=warmup, mark_point="dequeue"))
        sim_q = fluid_mean_queue(n, prm)
        table.append(
            f"| {n} | {fp.queue_bytes / 1e3:.1f} KB ({fp.p:.3%}{', saturated' if fp.saturated else ''}) "
            f"| {sim_q / 1e3:.1f} KB | {enq.mean_queue_bytes / 1e3:.1f} KB "
            f"({enq.mean_queue_bytes / fp.queue_bytes - 1:+.0%}) | {deq.mean_queue_bytes / 1e3:.1f} KB "
            f"({deq.mean_queue_bytes / fp.queue_bytes - 1:+.0%}) | {enq.utilization:.4f} / "
            f"{deq.utilization:.4f} | {enq.jain:.4f} / {deq.jain:.4f} | {worst_fluid:.3f} / "
            f"{enq.worst_ms_goodput:.3f} / {deq.worst_ms_goodput:.3f} |")
    if not quick:
        sec.extra_markdown = (
            f"Packet model: `fabricsim run` on validation/incast.py's scenario (1 switch, 40 Gbit/s "
            f"hosts, 1 us links, MTU 1000, `dcqcn-paper`, CNP interval 50 us, `cnp_mode` window), "
            f"{duration:.0f} ms, statistics after {warmup:.0f} ms. Fluid: the same parameters, "
            f"feedback delay 4 us; simulated mean over 20..40 ms from line rate.\n\n" + "\n".join(table))
    return sec


@target("dcqcn-fluid-model", quick=True)
def fluid_self_check(quick: bool) -> Section:
    """The fluid model's own fixed point: the derivatives vanish there."""
    from validation.dcqcn_fluid import derivatives
    prm = DcqcnParams()
    sec = Section("DCQCN fluid model: fixed point")
    for n in (2, 4, 8, 16):
        fp = fixed_point(n, prm)
        d_rc, d_rt, _ = derivatives(fp.rate_bps, fp.target_bps, fp.alpha, fp.p, fp.rate_bps, prm)
        scale = fp.rate_bps * fp.alpha / (2 * prm.tau_s)
        resid = max(abs(float(d_rc)), abs(float(d_rt))) / scale
        sec.rows.append(Row(
            f"fluid N={n}: RC = C/N, dRC/dt = dRT/dt = 0", SOURCE, "residual 0", "< 1e-9",
            f"q* {fp.queue_bytes / 1e3:.1f} KB, p* {fp.p:.4%}, alpha* {fp.alpha:.4f}, "
            f"RT*-RC* {(fp.target_bps - fp.rate_bps) / 1e6:.1f} Mbit/s; residual {resid:.1e}",
            resid < 1e-9))
    return sec
