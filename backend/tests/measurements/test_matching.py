"""The simulation that matches a measurement (app/measurements/matching.py), worked by hand."""

from pathlib import Path

import pytest

from app.measurements import nccl_tests, perftest
from app.measurements.matching import MatchError, nccl_plan, perftest_plan
from app.scenarios import limits

DATA = Path(__file__).resolve().parents[1] / "data" / "fabric"
DOC = {"schema_version": 1, "duration_us": 200, "monitor": {"sample_interval_us": 10},
       "topology": {"kind": "leaf_spine"},
       "traffic": [{"kind": "perftest", "src": "h0", "dst": "h1"},
                   {"kind": "collective", "op": "all_reduce", "message_bytes": 1, "iterations": 2},
                   {"kind": "collective", "op": "all_gather", "message_bytes": 1}]}


def nccl(name: str) -> dict:
    return nccl_tests.parse((DATA / "nccl-tests" / name).read_text()).as_json()


def test_nccl_sweeps_exactly_the_measured_sizes_with_a_duration_that_grows():
    plan = nccl_plan(DOC, nccl("small_allreduce_8ranks.txt"), None, 100)
    assert (plan.kind, plan.generator, plan.fork) == ("sweep", 1, {})
    assert plan.parameters == [{"path": "traffic.1.message_bytes",
                                "values": [16384, 65536, 262144, 1048576]}]
    duration, sample = plan.linked
    # 2 iterations x 8 bits x 4 (margin) / 100 Gbit/s = 0.00064 us per byte; 200 + 2 x 100 us base
    assert duration == {"path": "duration_us", "from": "traffic.1.message_bytes",
                        "scale": pytest.approx(0.00064), "offset": 400}
    # the samples stay within MAX_SAMPLES: interval = duration / 100,000 at least, never under 10
    assert sample == {"path": "monitor.sample_interval_us", "from": "traffic.1.message_bytes",
                      "scale": pytest.approx(0.00064 / limits.MAX_SAMPLES), "offset": 10}
    assert plan.notes == ["NCCL-tests averaged 1 iterations; the simulation runs the generator's 2"]


def test_the_largest_sizes_are_capped_at_the_longest_run():
    plan = nccl_plan(DOC, nccl("all_reduce_perf.txt"), None, 0.1)   # 128 MiB at 0.1 Gbit/s
    duration = plan.linked[0]
    longest = duration["offset"] + duration["scale"] * 134217728
    assert longest == pytest.approx(limits.MAX_DURATION_US)
    assert "the largest sizes get at most 1e+07 us of simulated time" in plan.notes[0]


def test_the_generator_must_run_the_measured_op():
    with pytest.raises(MatchError, match="no collective generator with op reduce_scatter"):
        nccl_plan(DOC, nccl("reduce_scatter_perf.txt"), None, 100)
    assert nccl_plan(DOC, nccl("all_gather_perf.txt"), None, 100).generator == 2
    with pytest.raises(MatchError, match=r"traffic\[0\] is not collective generator with op"):
        nccl_plan(DOC, nccl("all_gather_perf.txt"), 0, 100)
    with pytest.raises(MatchError, match="no send/receive collective"):
        nccl_plan(DOC, nccl("sendrecv_perf.txt"), None, 100)


def test_perftest_one_size_is_one_run_of_a_fork():
    parsed = perftest.parse((DATA / "perftest" / "ib_write_bw.txt").read_text()).as_json()
    plan = perftest_plan(DOC, parsed, None, 100)
    assert (plan.kind, plan.generator, plan.parameters) == ("run", 0, [])
    # 65536 B x 5000 iterations at 100 Gbit/s: 5000 x 8 x 4 / 100,000 = 1.6 us per byte of a
    # message, plus 200 + 5000 x 20 us: 104,857.6 + 100,200 = 205,057.6 us; the sample interval
    # 10 us (the scenario's, above 100,200 / 100,000) + 1.6 / 100,000 x 65536 = 11.048576 us
    assert plan.fork == {"traffic.0.iterations": 5000, "traffic.0.tx_depth": 128,
                         "traffic.0.qps": 1, "traffic.0.message_bytes": 65536,
                         "duration_us": pytest.approx(205_057.6),
                         "monitor.sample_interval_us": pytest.approx(11.048576)}


def test_perftest_latency_sizes_are_a_sweep_with_one_message_outstanding():
    parsed = perftest.parse((DATA / "perftest" / "ib_write_lat.txt").read_text()).as_json()
    plan = perftest_plan(DOC, parsed, None, 100)
    assert plan.kind == "sweep"
    assert (plan.fork["traffic.0.tx_depth"], plan.fork["traffic.0.iterations"]) == (1, 1)
    assert plan.notes == ["one message per size stands for the 1000 measured ping-pongs: the "
                          "model has no noise, and its window counts packets, not messages"]
    assert plan.parameters == [{"path": "traffic.0.message_bytes", "values": [2, 64, 4096]}]
