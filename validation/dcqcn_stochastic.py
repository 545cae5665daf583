"""DCQCN with per-packet marking: the fluid model's set-up, its mean field taken away.

The fluid model (validation/dcqcn_fluid.py) replaces every random event by its expectation: a
flow's rate falls continuously by RC alpha / 2 tau times the probability of a mark in tau, and
the queue follows the mean rates. The packet model (fabricsim) cuts by alpha / 2 when a CNP
comes, and a CNP comes when a frame happened to be marked. The two need not have the same mean
queue. This module sits between them, to tell which gap is which:

- the bottleneck queue is a fluid (bytes, drained at C), as in the fluid model;
- each sender is the DCQCN reaction point of the specification, event by event: a cut of
  alpha / 2 per CNP (at most one per decrease interval, a CNP inside it cuts at its end),
  Rt = Rc at a cut, alpha += g per CNP and decays by (1 - g) per 55 us without one (the
  paper's "restart on CNP" reading, as the packet model's `dcqcn-paper` preset), an increase
  timer restarted by each cut, a byte counter, F fast-recovery steps, then additive and hyper
  increase, a minimum rate;
- each frame is marked with probability p(q) (RED on the queue when it is enqueued, or when it
  leaves for marking at dequeue), independently, with a seeded generator;
- the notification point sends at most one CNP per interval per flow: at once when none was
  sent in the last interval, else at the interval's end if a marked frame came in it (the
  paper's window, fabricsim's `nic.cnp_mode` "window");
- the feedback delay is the propagation and serialization delay (4 us here, as the fluid
  model's tau*) plus, for marking at enqueue, the queueing delay the marked frame meets.

Frames are counted per step of dt (default 1 us; the 50 and 55 us timers are whole steps).
Everything that is not the congestion-control loop (ports, PFC, packet headers, ACKs) is left
out, so where this model agrees with fabricsim and both differ from the fluid model, the
difference is the mean-field approximation, not a packet-model deviation.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np

from validation.dcqcn_fluid import DcqcnParams, fixed_point, marking_probability

PREAMBLE_GAP_BYTES = 20


@dataclass(frozen=True)
class StochasticSpec:
    n_flows: int
    duration_s: float = 60e-3
    warmup_s: float = 20e-3
    seed: int = 1
    mark_at_dequeue: bool = False
    dt_s: float = 1e-6
    forward_delay_s: float = 2e-6   # sender -> receiver, less queueing
    backward_delay_s: float = 2e-6  # CNP back to the sender
    min_rate_bps: float = 100e6
    rhai_bps: float = 200e6


@dataclass
class StochasticResult:
    n_flows: int
    mean_queue_bytes: float     # after warm-up
    utilization: float          # fraction of C carried after warm-up
    mean_rates_bps: np.ndarray  # per flow, after warm-up
    marked_fraction: float      # marks / frames after warm-up (the time-mean p the loop settles at)
    per_ms_utilization: np.ndarray  # fraction of C carried in each millisecond
    queue_bytes: np.ndarray     # per step

    @property
    def jain(self) -> float:
        r = self.mean_rates_bps
        return float(r.sum() ** 2 / (len(r) * (r * r).sum()))

    def worst_ms_after_first(self) -> float:
        return float(self.per_ms_utilization[1:].min())


class _ReactionPoints:
    """The DCQCN reaction point of every flow (vectorised where events are dense)."""

    def __init__(self, n: int, prm: DcqcnParams, spec: StochasticSpec):
        self.prm, self.spec = prm, spec
        self.dt = spec.dt_s
        self.line = prm.capacity_bps
        self.rc = np.full(n, self.line)
        self.rt = np.full(n, self.line)
        self.alpha_ref = np.ones(n)
        self.alpha_ref_step = np.zeros(n, dtype=np.int64)
        self.last_cut = np.full(n, -(10 ** 12), dtype=np.int64)
        self.cut_due = np.full(n, -1, dtype=np.int64)       # deferred cut step, -1 none
        self.next_increase = np.full(n, -1, dtype=np.int64)  # -1: timer not running
        self.timer_stage = np.zeros(n, dtype=np.int64)
        self.byte_stage = np.zeros(n, dtype=np.int64)
        self.bytes_since = np.zeros(n)
        self.alpha_period = self._steps(prm.tau_alpha_s)
        self.decrease_interval = self._steps(prm.tau_s)
        self.timer = self._steps(prm.timer_s)

    def _steps(self, seconds: float) -> int:
        return max(1, int(round(seconds / self.dt)))

    def alpha(self, i: int, step: int) -> float:
        periods = (step - self.alpha_ref_step[i]) // self.alpha_period
        return self.alpha_ref[i] * (1.0 - self.prm.g) ** periods

    def on_cnp(self, i: int, step: int) -> None:
        a = self.alpha(i, step)
        if step - self.last_cut[i] >= self.decrease_interval:
            self._cut(i, step, a)
        elif self.cut_due[i] < 0:
            self.cut_due[i] = self.last_cut[i] + self.decrease_interval
        self.alpha_ref[i] = (1.0 - self.prm.g) * a + self.prm.g
        self.alpha_ref_step[i] = step

    def _cut(self, i: int, step: int, a: float) -> None:
        self.rt[i] = self.rc[i]
        self.rc[i] = max(self.rc[i] * (1.0 - a / 2.0), self.spec.min_rate_bps)
        self.last_cut[i] = step
        self.timer_stage[i] = self.byte_stage[i] = 0
        self.bytes_since[i] = 0.0
        self.next_increase[i] = step + self.timer

    def _increase(self, i: int) -> None:
        f = self.prm.fast_recovery_steps
        hi = max(self.timer_stage[i], self.byte_stage[i])
        lo = min(self.timer_stage[i], self.byte_stage[i])
        if hi > f:
            self.rt[i] = min(self.rt[i] + (self.spec.rhai_bps if lo > f else self.prm.rai_bps), self.line)
        self.rc[i] = min(max((self.rc[i] + self.rt[i]) / 2.0, self.spec.min_rate_bps), self.line)

    def tick(self, step: int, sent_bytes: np.ndarray) -> None:
        """Deferred cuts, increase timers and byte counters due at this step."""
        for i in np.nonzero(self.cut_due == step)[0]:
            self.cut_due[i] = -1
            self._cut(i, step, self.alpha(i, step))
        for i in np.nonzero(self.next_increase == step)[0]:
            self.timer_stage[i] += 1
            self._increase(i)
            self.next_increase[i] = step + self.timer if self.rc[i] < self.line else -1
        below = self.rc < self.line
        self.bytes_since[below] += sent_bytes[below]
        for i in np.nonzero(self.bytes_since >= self.prm.byte_counter_bytes)[0]:
            self.bytes_since[i] -= self.prm.byte_counter_bytes
            self.byte_stage[i] += 1
            self._increase(i)


def simulate(prm: DcqcnParams, spec: StochasticSpec) -> StochasticResult:
    n, dt = spec.n_flows, spec.dt_s
    rng = np.random.default_rng(spec.seed)
    rp = _ReactionPoints(n, prm, spec)
    wire = prm.wire_bytes
    stored_per_frame = wire - PREAMBLE_GAP_BYTES
    drain_frames = prm.capacity_bps * dt / (8.0 * wire)  # frames the bottleneck sends per step
    steps = int(round(spec.duration_s / dt))
    warm = int(round(spec.warmup_s / dt))
    per_ms = max(1, int(round(1e-3 / dt)))
    fwd, back = (max(1, int(round(x / dt))) for x in (spec.forward_delay_s, spec.backward_delay_s))
    ring = 1 << 14  # steps of feedback delay the rings can hold (16 ms at 1 us)
    marks_at_np = np.zeros((ring, n), dtype=np.int64)   # marked frames reaching the receiver
    cnps_at_rp = np.zeros((ring, n), dtype=bool)
    # For marking at dequeue: the frames leaving now entered when the cumulative arrivals
    # reached the cumulative departures, so their mix is the senders' rates at that step (not
    # qdelay steps ago: at a line-rate start the queue grows faster than time passes).
    rates_sent = np.zeros((steps, n)) if spec.mark_at_dequeue else None
    arrived_total = np.zeros(steps) if spec.mark_at_dequeue else None
    departed = 0.0
    last_cnp = np.full(n, -(10 ** 12), dtype=np.int64)
    cnp_owed = np.full(n, -1, dtype=np.int64)
    interval = rp.decrease_interval  # NP interval = RP decrease interval = tau (50 us) here
    credit = np.zeros(n)
    q = 0.0
    backlog_frames = 0.0
    queue = np.empty(steps)
    carried = np.empty(steps)
    sent_after = np.zeros(n)
    frames_after = marks_after = 0
    for s in range(steps):
        slot = s % ring
        credit += rp.rc * dt / (8.0 * wire)
        frames = np.floor(credit)
        credit -= frames
        # marking
        p = marking_probability(q, prm)
        qdelay = int(q / (prm.capacity_bps / 8.0 * (stored_per_frame / wire)) / dt)
        if spec.mark_at_dequeue:
            rates_sent[s] = rp.rc
            arrived_total[s] = (arrived_total[s - 1] if s else 0.0) + frames.sum()
            leaving = min(drain_frames, backlog_frames + frames.sum())
            departed += leaving
            entered = min(int(np.searchsorted(arrived_total[: s + 1], departed)), s)
            share = rates_sent[entered]
            depart = share / max(share.sum(), 1e-300) * leaving
            marks = rng.binomial(np.floor(depart + rng.random(n)).astype(np.int64), p) if p > 0 else 0
            delay = fwd
        else:
            marks = rng.binomial(frames.astype(np.int64), p) if p > 0 else 0
            delay = fwd + qdelay
        if np.any(marks):
            marks_at_np[(s + min(delay, ring - 1)) % ring] += marks
        # queue
        backlog_frames = max(0.0, backlog_frames + frames.sum() - drain_frames)
        carried[s] = min(1.0, (q / stored_per_frame + frames.sum()) / drain_frames)
        q = backlog_frames * stored_per_frame
        queue[s] = q
        # notification points: one CNP per interval, the window's owed one at its end
        arrived = marks_at_np[slot]
        for i in np.nonzero((cnp_owed == s) | (arrived > 0))[0]:
            if s - last_cnp[i] >= interval:
                last_cnp[i] = s
                cnp_owed[i] = -1
                cnps_at_rp[(s + back) % ring, i] = True
            elif cnp_owed[i] < 0:
                cnp_owed[i] = last_cnp[i] + interval
        marks_at_np[slot] = 0
        # reaction points
        for i in np.nonzero(cnps_at_rp[slot])[0]:
            rp.on_cnp(i, s)
        cnps_at_rp[slot] = False
        rp.tick(s, frames * wire)
        if s >= warm:
            sent_after += frames
            frames_after += int(frames.sum())
            marks_after += int(np.sum(marks))
    after = slice(warm, steps)
    ms = steps // per_ms
    per_ms_util = carried[: ms * per_ms].reshape(ms, per_ms).mean(axis=1)
    rates = sent_after * wire * 8.0 / max((steps - warm) * dt, 1e-300)
    return StochasticResult(n, float(queue[after].mean()), float(carried[after].mean()), rates,
                            marks_after / max(frames_after, 1), per_ms_util, queue)


def _main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="DCQCN with per-packet marking (stochastic model)")
    ap.add_argument("--flows", type=int, nargs="+", default=[2, 4, 8, 16])
    ap.add_argument("--duration-ms", type=float, default=60.0)
    ap.add_argument("--warmup-ms", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dequeue", action="store_true", help="mark at dequeue (no queueing delay in feedback)")
    args = ap.parse_args(argv)
    prm = DcqcnParams()
    print("N,fixed_point_queue_bytes,fixed_point_p,mean_queue_bytes,vs_fixed_point,marked_fraction,"
          "utilization,jain,worst_ms_after_first")
    for n in args.flows:
        spec = StochasticSpec(n, args.duration_ms * 1e-3, args.warmup_ms * 1e-3, args.seed,
                              mark_at_dequeue=args.dequeue)
        res = simulate(prm, spec)
        fp = fixed_point(n, prm)
        print(f"{n},{fp.queue_bytes:.0f},{fp.p:.5f},{res.mean_queue_bytes:.0f},"
              f"{res.mean_queue_bytes / fp.queue_bytes - 1:+.3f},{res.marked_fraction:.5f},"
              f"{res.utilization:.4f},{res.jain:.4f},{res.worst_ms_after_first():.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
