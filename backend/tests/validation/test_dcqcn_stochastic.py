"""The per-packet-marking DCQCN model (validation/dcqcn_stochastic.py) against hand-computed
figures: the reaction point's steps, the notification point's pacing, the queue's growth."""

from dataclasses import replace

import numpy as np
import pytest

from validation.dcqcn_fluid import DcqcnParams
from validation.dcqcn_stochastic import StochasticSpec, _ReactionPoints, simulate

PAPER = DcqcnParams()


def test_reaction_point_cut_and_fast_recovery_by_hand():
    """40G, CNP at alpha 1: 20G; then the timer every 55 us halves the gap to the target (40G):
    30, 35, 37.5, 38.75, 39.375; the 6th step is additive (target capped at 40G): 39.6875."""
    rp = _ReactionPoints(1, PAPER, StochasticSpec(1))
    no_bytes = np.zeros(1)
    rp.on_cnp(0, 0)
    assert rp.rc[0] == 20e9 and rp.rt[0] == 40e9
    assert rp.alpha(0, 0) == pytest.approx(1.0)  # (1 - g) 1 + g
    seen = []
    for step in range(1, 6 * 55 + 1):
        rp.tick(step, no_bytes)
        if step % 55 == 0:
            seen.append(rp.rc[0])
    assert seen == [30e9, 35e9, 37.5e9, 38.75e9, 39.375e9, 39.6875e9]


def test_cnp_inside_decrease_interval_cuts_at_its_end():
    rp = _ReactionPoints(1, PAPER, StochasticSpec(1))
    rp.on_cnp(0, 0)     # 40 -> 20G
    rp.on_cnp(0, 19)    # inside the 50 us interval: no cut yet
    assert rp.rc[0] == 20e9
    for step in range(20, 51):
        rp.tick(step, np.zeros(1))
    alpha_at_50 = 1.0 * (1 - PAPER.g) + PAPER.g  # the CNP at 19 us set it; no full period since
    assert rp.rc[0] == pytest.approx(20e9 * (1 - alpha_at_50 / 2))
    assert rp.rt[0] == 20e9


def test_alpha_decays_per_idle_period():
    rp = _ReactionPoints(1, PAPER, StochasticSpec(1))
    assert rp.alpha(0, 10 * 55) == pytest.approx((1 - PAPER.g) ** 10, rel=1e-12)


def test_no_marks_queue_grows_at_excess_rate():
    """Pmax 0 and Kmax beyond reach: nobody is marked, N = 3 flows stay at line rate and the queue
    grows by (3 - 1) C of stored bytes: 2 x 40G x 1 ms x (1082 - 20) / 1082 / 8."""
    prm = replace(PAPER, pmax=0.0, kmax_bytes=1e12)
    res = simulate(prm, StochasticSpec(3, duration_s=1e-3, warmup_s=0.0))
    expected = 2 * 40e9 * 1e-3 / 8 * (1062 / 1082)
    assert res.queue_bytes[-1] == pytest.approx(expected, rel=2e-3)
    assert res.marked_fraction == 0.0
    assert np.all(res.mean_rates_bps == pytest.approx(40e9, rel=1e-3))


def test_one_flow_never_queues():
    # frames are whole per 1 us step while the link drains 4.62 per step: at most the frame
    # in service (1082 - 20 = 1062 stored bytes) waits, never a queue, never a mark
    res = simulate(PAPER, StochasticSpec(1, duration_s=2e-3, warmup_s=0.0))
    assert res.queue_bytes.max() <= PAPER.wire_bytes - 20
    assert res.marked_fraction == 0.0
    assert res.utilization == pytest.approx(1.0, abs=1e-3)


def test_same_seed_same_result_and_seeds_differ():
    a = simulate(PAPER, StochasticSpec(2, duration_s=3e-3, warmup_s=1e-3, seed=7))
    b = simulate(PAPER, StochasticSpec(2, duration_s=3e-3, warmup_s=1e-3, seed=7))
    c = simulate(PAPER, StochasticSpec(2, duration_s=3e-3, warmup_s=1e-3, seed=8))
    assert np.array_equal(a.queue_bytes, b.queue_bytes)
    assert not np.array_equal(a.queue_bytes, c.queue_bytes)


def test_start_up_overshoot_reaches_past_kmax_before_the_first_cut():
    """2 flows at line rate: the queue grows at C (5 KB/us); RED marks sparsely on the ramp
    (Pmax 1 %), so the first cut waits for a mark and its return: the queue passes Kmax (200 KB,
    40 us of growth) and is still there when every frame is marked. Hand bound: no mark is
    likely before ~25 us (E[marks] = sum of p over the ~9.2 frames/us sent is < 1 until
    q ~ 150 KB)."""
    res = simulate(PAPER, StochasticSpec(2, duration_s=0.5e-3, warmup_s=0.0))
    assert res.queue_bytes.max() > PAPER.kmax_bytes


def test_marking_at_dequeue_marks_the_frames_leaving_at_a_line_rate_start():
    """4 flows start at 40G into 40G: the queue grows by 3 x 40G (14.7 KB of stored frames per
    us) and passes Kmax (200 KB, p = 1) about 13.6 us in; the frames leaving then are marked,
    reach the receivers 2 us later, whose first CNPs cut every sender at once 2 us after that
    (by 18 us): 4 x 20G, the queue grows by 1 x 40G (4.9 KB per us) until the next cut, at most
    two 50 us intervals later, which brings the sum to 40G. So the queue peaks below
    18 x 14.7 + 100 x 4.9 = 755 KB and then drains. A frame leaving at step s entered when the
    arrivals reached the departures; looking back by the current queueing delay instead (which
    grows 3 us per us here) found steps before the start: no marks at all, and a queue growing
    without bound (14.7 MB at 1 ms)."""
    res = simulate(PAPER, StochasticSpec(4, duration_s=2e-3, warmup_s=0.0, mark_at_dequeue=True))
    stored = (PAPER.wire_bytes - 20) / PAPER.wire_bytes
    per_us_at_line = 40e9 / 8 * 1e-6 * stored
    assert res.queue_bytes.max() <= 18 * 3 * per_us_at_line + 100 * per_us_at_line
    assert res.queue_bytes[-1] < res.queue_bytes.max() / 2  # it drains once the rates fall
    assert res.marked_fraction > 0
