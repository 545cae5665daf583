"""DCQCN fluid model: N flows sharing one bottleneck (reference for the packet model).

The delay-differential equations of Zhu et al., "Congestion Control for Large-Scale RDMA
Deployments" (SIGCOMM 2015, section 5) as restated in Zhu et al., "ECN or Delay: Lessons Learnt
from Analysis of DCQCN and TIMELY" (CoNEXT 2016). Notation (all flows symmetric unless the
initial state says otherwise):

  p(q)    RED marking: 0 for q <= Kmin, Pmax (q - Kmin) / (Kmax - Kmin) up to Kmax, 1 above
  dq/dt   = sum_i RC_i - C                                   (bottleneck queue, >= 0)
  dA/dt   = g / tau' * (M(tau') - A)                          (alpha, updated every tau')
  dRT/dt  = -(RT - RC) / tau * M(tau)                         (target clamped to RC at a cut)
            + RAI * (fB * eB + fT * eT)                       (additive increase after F stages)
  dRC/dt  = -RC * A / (2 tau) * M(tau)                        (at most one cut per tau)
            + (RT - RC) / 2 * (eB + eT)                       (each increase event halves RT - RC)

with the marking probability p and the rate RC seen tau* (the feedback delay) ago:
  M(x)    = 1 - (1 - p)^(x RC)      probability that at least one of the x RC packets sent in
                                    a window x is marked (a CNP, hence a cut, in that window)
  eB      = RC p / ((1 - p)^(-B) - 1)       rate of byte-counter events (B packets unmarked)
  eT      = RC p / ((1 - p)^(-T RC) - 1)    rate of timer events (T seconds unmarked)
  fB, fT  = (1 - p)^(F B), (1 - p)^(F T RC)  probability of being past F fast-recovery stages

Rates RC, RT, RAI are in bit/s; packet counts use the frame size on the wire; the queue is in
bytes as the switch stores them (wire bytes less preamble and inter-frame gap). The hyper
increase stage is not in the published model (with the paper's 10 MB byte counter it is never
reached near the fixed point). Integration is explicit (Euler) with a fixed step and a ring
buffer holding p and RC for the delayed terms.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import asdict, dataclass, replace

import numpy as np

WIRE_OVERHEAD_BYTES = 82  # docs/model.md: DATA frame overhead on the wire
PREAMBLE_GAP_BYTES = 20   # not stored in the switch buffer


@dataclass(frozen=True)
class DcqcnParams:
    """The DCQCN paper's parameters (SIGCOMM 2015, Table 1 and section 5) at 40 Gbit/s."""

    capacity_bps: float = 40e9
    kmin_bytes: float = 5_000
    kmax_bytes: float = 200_000
    pmax: float = 0.01
    g: float = 1.0 / 256
    tau_s: float = 50e-6          # CNP interval = at most one cut per tau
    tau_alpha_s: float = 55e-6    # alpha update period tau'
    timer_s: float = 55e-6        # rate increase timer T
    byte_counter_bytes: float = 10e6
    fast_recovery_steps: int = 5  # F
    rai_bps: float = 40e6
    feedback_delay_s: float = 4e-6  # tau*: propagation + serialization, no queueing
    mtu_bytes: int = 1000         # RDMA payload per packet

    @property
    def wire_bytes(self) -> int:
        return self.mtu_bytes + WIRE_OVERHEAD_BYTES

    @property
    def stored_fraction(self) -> float:
        """Bytes the switch stores per wire byte."""
        return (self.wire_bytes - PREAMBLE_GAP_BYTES) / self.wire_bytes

    def packets(self, rate_bps, seconds):
        """Packets sent at rate_bps in seconds (float or array)."""
        return rate_bps * seconds / (8.0 * self.wire_bytes)

    @property
    def byte_counter_packets(self) -> float:
        return self.byte_counter_bytes / self.wire_bytes


def marking_probability(q, prm: DcqcnParams):
    """RED as the switch does it (scalar or array)."""
    q = np.asarray(q, dtype=float)
    span = max(prm.kmax_bytes - prm.kmin_bytes, 1e-12)
    p = prm.pmax * (q - prm.kmin_bytes) / span
    p = np.where(q <= prm.kmin_bytes, 0.0, p)
    p = np.where(q > prm.kmax_bytes, 1.0, p)
    return p if p.ndim else float(p)


def _log_unmarked(p):
    """log(1 - p), -inf at p = 1."""
    with np.errstate(divide="ignore"):
        return np.log1p(-np.minimum(p, 1.0))


def _at_least_one_mark(p, n):
    """1 - (1 - p)^n: a mark among n packets."""
    return -np.expm1(n * _log_unmarked(p))


def _event_rate(p, rate_pkts, n):
    """rate p / ((1-p)^(-n) - 1): events per second of a counter reset by marks that fires after
    n unmarked packets; rate / n at p = 0, 0 at p = 1."""
    p = np.asarray(p, dtype=float)
    n = np.maximum(np.asarray(n, dtype=float), 1e-300)
    lu = _log_unmarked(p)
    with np.errstate(over="ignore", invalid="ignore"):
        denom = np.expm1(-n * lu)
        out = np.where(p > 0, rate_pkts * p / denom, rate_pkts / n)
    return np.where(np.isfinite(denom) | (p <= 0), out, 0.0)


def derivatives(rc, rt, alpha, p_d, rc_d, prm: DcqcnParams):
    """(dRC/dt, dRT/dt, dalpha/dt) for current rc, rt, alpha and the delayed p, rc."""
    pk_d = prm.packets(rc_d, 1.0)  # packets per second tau* ago
    lu = _log_unmarked(p_d)
    mark_tau = _at_least_one_mark(p_d, pk_d * prm.tau_s)
    mark_alpha = _at_least_one_mark(p_d, pk_d * prm.tau_alpha_s)
    n_timer = pk_d * prm.timer_s
    e_byte = _event_rate(p_d, pk_d, prm.byte_counter_packets)
    e_timer = _event_rate(p_d, pk_d, n_timer)
    f = prm.fast_recovery_steps
    with np.errstate(invalid="ignore"):
        past_byte = np.exp(f * prm.byte_counter_packets * lu)
        past_timer = np.exp(f * n_timer * lu)
    d_rc = -rc * alpha / (2 * prm.tau_s) * mark_tau + (rt - rc) / 2 * (e_byte + e_timer)
    d_rt = -(rt - rc) / prm.tau_s * mark_tau + prm.rai_bps * (past_byte * e_byte + past_timer * e_timer)
    d_alpha = prm.g / prm.tau_alpha_s * (mark_alpha - alpha)
    return d_rc, d_rt, d_alpha


@dataclass(frozen=True)
class FixedPoint:
    n_flows: int
    rate_bps: float
    target_bps: float
    alpha: float
    p: float
    queue_bytes: float
    saturated: bool  # p* >= Pmax: the queue sits at Kmax (marking jumps to 1 above)


def _balance(p, rc, prm):
    """Zero at the fixed point's p (rc given): RC A M(tau)^2 = tau^2 RAI (fB eB + fT eT)(eB + eT)."""
    pk = prm.packets(rc, 1.0)
    lu = math.log1p(-p)
    alpha = -math.expm1(pk * prm.tau_alpha_s * lu)
    mark_tau = -math.expm1(pk * prm.tau_s * lu)
    e_byte = float(_event_rate(p, pk, prm.byte_counter_packets))
    e_timer = float(_event_rate(p, pk, pk * prm.timer_s))
    f = prm.fast_recovery_steps
    inc = math.exp(f * prm.byte_counter_packets * lu) * e_byte + math.exp(f * pk * prm.timer_s * lu) * e_timer
    lhs = rc * alpha * mark_tau**2
    rhs = prm.tau_s**2 * prm.rai_bps * inc * (e_byte + e_timer)
    return math.log(lhs) - math.log(rhs) if lhs > 0 and rhs > 0 else (-1.0 if lhs <= 0 else 1.0)


def fixed_point(n_flows: int, prm: DcqcnParams) -> FixedPoint:
    """RC = C / N; p* by bisection on log p; then RT*, alpha*, q* = p^-1(p*)."""
    if n_flows < 1:
        raise ValueError("n_flows must be >= 1")
    rc = prm.capacity_bps / n_flows
    lo, hi = math.log(1e-15), math.log(1.0 - 1e-12)
    if _balance(math.exp(hi), rc, prm) < 0:
        raise ValueError("no fixed point with p < 1")
    for _ in range(200):
        mid = (lo + hi) / 2
        if _balance(math.exp(mid), rc, prm) < 0:
            lo = mid
        else:
            hi = mid
    p = math.exp((lo + hi) / 2)
    pk = prm.packets(rc, 1.0)
    lu = math.log1p(-p)
    alpha = -math.expm1(pk * prm.tau_alpha_s * lu)
    mark_tau = -math.expm1(pk * prm.tau_s * lu)
    e_byte = float(_event_rate(p, pk, prm.byte_counter_packets))
    e_timer = float(_event_rate(p, pk, pk * prm.timer_s))
    f = prm.fast_recovery_steps
    inc = math.exp(f * prm.byte_counter_packets * lu) * e_byte + math.exp(f * pk * prm.timer_s * lu) * e_timer
    target = rc + prm.tau_s * prm.rai_bps * inc / mark_tau
    saturated = p >= prm.pmax
    if saturated:
        queue = prm.kmax_bytes
    else:
        queue = prm.kmin_bytes + p / prm.pmax * (prm.kmax_bytes - prm.kmin_bytes)
    return FixedPoint(n_flows, rc, target, alpha, p, queue, saturated)


@dataclass
class Trajectory:
    t_s: np.ndarray          # sample times
    queue_bytes: np.ndarray
    rates_bps: np.ndarray    # (samples, flows)
    targets_bps: np.ndarray
    alphas: np.ndarray

    def mean_queue(self, after_s: float) -> float:
        return float(self.queue_bytes[self.t_s >= after_s].mean())

    def mean_rate(self, after_s: float) -> np.ndarray:
        return self.rates_bps[self.t_s >= after_s].mean(axis=0)


def simulate(n_flows: int, prm: DcqcnParams, duration_s: float, dt_s: float = 0.5e-6,
             sample_s: float = 10e-6, initial_rate_bps=None, initial_alpha: float = 1.0,
             queueing_delay_in_feedback: bool = False) -> Trajectory:
    """Euler integration from RC = RT = initial rate (default line rate), alpha, q = 0.

    queueing_delay_in_feedback: the delayed terms are read tau* + q(t) / C ago instead of tau*
    ago (marking at enqueue: a marked frame meets the queue it was marked in; the published
    model's tau* is constant, as marking at dequeue gives)."""
    if dt_s <= 0 or duration_s <= 0 or sample_s < dt_s:
        raise ValueError("need duration > 0, dt > 0, sample >= dt")
    line = prm.capacity_bps
    rc = np.full(n_flows, line if initial_rate_bps is None else 0.0, dtype=float)
    if initial_rate_bps is not None:
        rc[:] = np.broadcast_to(np.asarray(initial_rate_bps, dtype=float), (n_flows,))
    rt = rc.copy()
    alpha = np.full(n_flows, float(initial_alpha))
    q = 0.0
    stored = prm.stored_fraction
    delay_steps = max(1, int(round(prm.feedback_delay_s / dt_s)))
    drain_bytes_per_s = line / 8.0 * stored
    ring = delay_steps
    if queueing_delay_in_feedback:
        ring = delay_steps + int(math.ceil(50e-3 / dt_s))  # holds up to 50 ms of queueing delay
    hist_p = np.zeros(ring)            # p written delay_steps steps ago is read now
    hist_rc = np.tile(rc, (ring, 1))
    steps = int(round(duration_s / dt_s))
    every = max(1, int(round(sample_s / dt_s)))
    n_samples = steps // every + 1
    ts = np.empty(n_samples)
    qs = np.empty(n_samples)
    rcs = np.empty((n_samples, n_flows))
    rts = np.empty((n_samples, n_flows))
    als = np.empty((n_samples, n_flows))
    k = 0
    for step in range(steps + 1):
        if step % every == 0 and k < n_samples:
            ts[k], qs[k], rcs[k], rts[k], als[k] = step * dt_s, q, rc, rt, alpha
            k += 1
        slot = step % ring
        if queueing_delay_in_feedback:
            lag = min(ring - 1, delay_steps + int(q / drain_bytes_per_s / dt_s))
            read = (step - lag) % ring if step >= lag else None
            p_d = hist_p[read] if read is not None else 0.0
            rc_d = hist_rc[read].copy() if read is not None else hist_rc[0].copy()
        else:
            p_d, rc_d = hist_p[slot], hist_rc[slot].copy()
        hist_p[slot] = marking_probability(q, prm)
        hist_rc[slot] = rc
        d_rc, d_rt, d_alpha = derivatives(rc, rt, alpha, p_d, rc_d, prm)
        q = max(0.0, q + (rc.sum() - line) / 8.0 * stored * dt_s)
        rc = np.clip(rc + d_rc * dt_s, 0.0, line)
        rt = np.clip(rt + d_rt * dt_s, 0.0, line)
        alpha = np.clip(alpha + d_alpha * dt_s, 0.0, 1.0)
    return Trajectory(ts[:k], qs[:k], rcs[:k], rts[:k], als[:k])


def _main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="DCQCN fluid model: fixed point and time series")
    ap.add_argument("--flows", type=int, nargs="+", default=[2, 4, 8, 16])
    ap.add_argument("--duration-ms", type=float, default=0.0,
                    help="also integrate this long and print the mean of the second half")
    ap.add_argument("--series", action="store_true", help="print the time series (CSV)")
    ap.add_argument("--sample-us", type=float, default=100.0)
    ap.add_argument("--feedback-delay-us", type=float, default=4.0)
    args = ap.parse_args(argv)
    prm = replace(DcqcnParams(), feedback_delay_s=args.feedback_delay_us * 1e-6)
    print("# parameters: " + ", ".join(f"{k}={v}" for k, v in asdict(prm).items()))
    print("N,rate_gbps,target_gbps,alpha,p,queue_bytes,saturated" +
          (",sim_mean_queue_bytes,sim_mean_rate_gbps" if args.duration_ms > 0 else ""))
    for n in args.flows:
        fp = fixed_point(n, prm)
        row = (f"{n},{fp.rate_bps / 1e9:.4f},{fp.target_bps / 1e9:.4f},{fp.alpha:.5f},"
               f"{fp.p:.6g},{fp.queue_bytes:.0f},{fp.saturated}")
        if args.duration_ms > 0:
            dur = args.duration_ms * 1e-3
            tr = simulate(n, prm, dur, sample_s=args.sample_us * 1e-6)
            row += f",{tr.mean_queue(dur / 2):.0f},{tr.mean_rate(dur / 2).mean() / 1e9:.4f}"
            if args.series:
                print(row)
                print("t_us,queue_bytes,rate_gbps,target_gbps,alpha")
                for i in range(len(tr.t_s)):
                    print(f"{tr.t_s[i] * 1e6:.1f},{tr.queue_bytes[i]:.0f},"
                          f"{tr.rates_bps[i, 0] / 1e9:.4f},{tr.targets_bps[i, 0] / 1e9:.4f},"
                          f"{tr.alphas[i, 0]:.5f}")
                continue
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(_main())
