"""The DCQCN fluid model (validation/dcqcn_fluid.py) against its own equations and hand-computed
limits."""

import math
from dataclasses import replace

import numpy as np
import pytest

from validation.dcqcn_fluid import (DcqcnParams, derivatives, fixed_point, marking_probability,
                                    simulate)

PAPER = DcqcnParams()


def test_red_marking_by_hand():
    # 5 KB .. 200 KB, Pmax 1 %: p(102.5 KB) = 0.5 %, 0 at Kmin, Pmax at Kmax, 1 above
    assert marking_probability(5_000, PAPER) == 0.0
    assert marking_probability(102_500, PAPER) == pytest.approx(0.005)
    assert marking_probability(200_000, PAPER) == pytest.approx(0.01)
    assert marking_probability(200_001, PAPER) == 1.0


@pytest.mark.parametrize("n", [2, 4, 8])
def test_fixed_point_zeroes_every_derivative(n):
    fp = fixed_point(n, PAPER)
    assert fp.rate_bps == pytest.approx(PAPER.capacity_bps / n)
    assert not fp.saturated
    assert marking_probability(fp.queue_bytes, PAPER) == pytest.approx(fp.p, rel=1e-9)
    d_rc, d_rt, d_alpha = derivatives(fp.rate_bps, fp.target_bps, fp.alpha, fp.p, fp.rate_bps, PAPER)
    # relative to the size of each term: a cut's pull RC alpha M / 2 tau
    scale = fp.rate_bps * fp.alpha / (2 * PAPER.tau_s)
    assert abs(d_rc) < 1e-9 * scale
    assert abs(d_rt) < 1e-9 * scale
    assert abs(d_alpha) < 1e-12


def test_queue_grows_with_n():
    queues = [fixed_point(n, PAPER).queue_bytes for n in (1, 2, 4, 8, 16)]
    assert all(a < b for a, b in zip(queues, queues[1:]))
    # 16 flows need p* above Pmax: the fixed point sits at Kmax (marking jumps to 1 above it)
    assert fixed_point(16, PAPER).saturated and queues[-1] == PAPER.kmax_bytes


def test_small_p_limit_by_hand():
    """F = 0 and small p: (1-p)^n ~ 1 - n p, so alpha = L tau' p, M(tau) = L tau p,
    eB = L / B, eT = 1 / T (L = packets per second) and the balance
    RC alpha M(tau)^2 = tau^2 RAI (eB + eT)^2 gives p^3 = RAI (L/B + 1/T)^2 / (RC L^3 tau')."""
    prm = replace(PAPER, fast_recovery_steps=0, rai_bps=1e5)
    rc = prm.capacity_bps
    pkts = rc / (8 * prm.wire_bytes)
    b = prm.byte_counter_bytes / prm.wire_bytes
    hand = (prm.rai_bps * (pkts / b + 1 / prm.timer_s) ** 2 / (rc * pkts**3 * prm.tau_alpha_s)) ** (1 / 3)
    fp = fixed_point(1, prm)
    assert fp.p < 1e-4  # the limit applies
    assert fp.p == pytest.approx(hand, rel=0.02)


def test_no_marks_increase_by_hand():
    """Below Kmin (p = 0): no cut; the timer fires every T and the byte counter every B packets,
    each moving RC half way to RT; RT grows by RAI per event; alpha decays at g / tau'."""
    rc, rt, alpha = 10e9, 30e9, 0.5
    d_rc, d_rt, d_alpha = derivatives(rc, rt, alpha, 0.0, rc, PAPER)
    events = 1 / PAPER.timer_s + rc / (8 * PAPER.wire_bytes) / PAPER.byte_counter_packets
    assert d_rc == pytest.approx((rt - rc) / 2 * events)
    assert d_rt == pytest.approx(PAPER.rai_bps * events)
    assert d_alpha == pytest.approx(-PAPER.g / PAPER.tau_alpha_s * alpha)


def test_all_marked_cuts_by_hand():
    """Above Kmax (p = 1): one cut per tau of alpha/2, RT pulled to RC at 1/tau, no increase,
    alpha pulled to 1 at g / tau'."""
    rc, rt, alpha = 20e9, 30e9, 0.5
    d_rc, d_rt, d_alpha = derivatives(rc, rt, alpha, 1.0, rc, PAPER)
    assert d_rc == pytest.approx(-rc * alpha / (2 * PAPER.tau_s))
    assert d_rt == pytest.approx(-(rt - rc) / PAPER.tau_s)
    assert d_alpha == pytest.approx(PAPER.g / PAPER.tau_alpha_s * (1 - alpha))


@pytest.mark.parametrize("n", [2, 4])
def test_rates_converge_to_fair_share(n):
    """From line rate the mean rate is C / N within 1 %; flows started unequal (0.3 C .. C) close
    their gap (slowly, as DCQCN does with the paper's parameters): over 20..40 ms the spread of the
    mean rates is under a fifth of the initial one and their sum is C within 1 %."""
    tr = simulate(n, PAPER, duration_s=0.04, dt_s=1e-6, sample_s=10e-6)
    assert tr.mean_rate(after_s=0.02) == pytest.approx(np.full(n, PAPER.capacity_bps / n), rel=0.01)
    start = np.linspace(0.3, 1.0, n) * PAPER.capacity_bps
    tr = simulate(n, PAPER, duration_s=0.04, dt_s=1e-6, sample_s=10e-6, initial_rate_bps=start)
    mean = tr.mean_rate(after_s=0.02)
    assert mean.max() - mean.min() < 0.2 * (start.max() - start.min())
    assert mean.sum() == pytest.approx(PAPER.capacity_bps, rel=0.01)
    assert tr.queue_bytes.min() >= 0.0


def test_single_flow_below_line_rate_climbs_without_queue():
    """One flow below capacity never builds a queue; the timer alone takes RC to RT and RT up at
    RAI per event: after 5 ms from 10G with RT 10G, RC is near 10 + 0.04 x 5 ms / 55 us = 13.6G."""
    prm = replace(PAPER, byte_counter_bytes=1e15)
    tr = simulate(1, prm, duration_s=0.005, dt_s=1e-6, sample_s=100e-6, initial_rate_bps=10e9,
                  initial_alpha=0.0)
    assert tr.queue_bytes.max() == 0.0
    hand_target = 10e9 + prm.rai_bps * 0.005 / prm.timer_s
    assert tr.targets_bps[-1, 0] == pytest.approx(hand_target, rel=1e-3)
    assert math.isclose(tr.rates_bps[-1, 0], hand_target, rel_tol=0.01)


def test_queueing_delay_in_feedback_is_tau_star_without_a_queue():
    """One flow never queues: reading the delayed terms tau* + q/C ago is reading them tau* ago."""
    a = simulate(1, PAPER, 1e-3, dt_s=0.5e-6, sample_s=10e-6)
    b = simulate(1, PAPER, 1e-3, dt_s=0.5e-6, sample_s=10e-6, queueing_delay_in_feedback=True)
    assert np.array_equal(a.rates_bps, b.rates_bps) and a.queue_bytes.max() == 0.0


def test_queueing_delay_in_feedback_delays_the_first_cut():
    """4 flows from line rate: the queue grows at 3 C; with the queue's delay in the loop the
    cuts come later, so the start-up queue peaks higher."""
    a = simulate(4, PAPER, 1e-3, dt_s=0.5e-6, sample_s=1e-6)
    b = simulate(4, PAPER, 1e-3, dt_s=0.5e-6, sample_s=1e-6, queueing_delay_in_feedback=True)
    assert b.queue_bytes.max() > 1.1 * a.queue_bytes.max()
