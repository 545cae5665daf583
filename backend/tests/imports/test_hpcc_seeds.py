"""validation/hpcc_seeds.py without running the simulator: a --set assignment edits the scenario
at its dotted path; the summary says whether the reference lies inside the seeds' range."""

from validation.hpcc_seeds import apply_setting, markdown, summary


def test_set_edits_the_dotted_path():
    doc = {"nic": {"cc": {"g": 0.5}}}
    apply_setting(doc, 'nic.ack_priority="data"')
    apply_setting(doc, "switch.pfc.alpha=0.125")
    assert doc == {"nic": {"cc": {"g": 0.5}, "ack_priority": "data"}, "switch": {"pfc": {"alpha": 0.125}}}


def test_summary_range_and_inside():
    rows = [{"ecmp_seed": s, "p50": 1.0 + s / 100, "p95": 4.0, "p99": 6.0 + s / 10, "completed": 100 + s,
             "all_pass": True} for s in range(3)]
    s = summary(rows, {"p50": 1.5, "p95": 4.0, "p99": 6.1, "completed": 101})
    assert (s["p99"]["min"], s["p99"]["max"]) == (6.0, 6.2)
    assert abs(s["p99"]["std"] - 0.1) < 1e-12  # sample sd of 6.0, 6.1, 6.2
    assert s["p99"]["reference_inside"] and s["completed"]["reference_inside"]
    assert not s["p50"]["reference_inside"]  # 1.5 is above 1.00 .. 1.02
    assert "| 2 | 1.020 | 4.000 | 6.200 | 102 | PASS |" in markdown(rows, s)
