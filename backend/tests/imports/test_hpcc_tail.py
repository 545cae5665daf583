"""validation/hpcc_tail.py: the reference's tail (flows above its p95) fed back as "ours" is
its own tail, class by class with a zero log ratio; a run whose small flows are twice as fast
shows the gap in the small-flow class only. Rivals are counted by hand on a toy timeline."""

from tests.imports.test_hpcc_compare import DATA, reference_as_result
from validation.hpcc_tail import analyse, markdown, mean_competitors, placement


def test_reference_tail_against_itself():
    a = analyse(reference_as_result(1.0), DATA)
    assert a["tail_flows"] == 339  # 6,767 completed flows, 5% above p95 (4.218)
    assert a["tail_completed_by_ours"] == a["tail_in_our_tail"] == 339
    assert abs(a["all"]["median_log_ratio"]) < 1e-12
    sizes = a["groups"]["size"]
    assert sum(s["flows"] for s in sizes.values()) == 339
    assert all(abs(s["median_log_ratio"]) < 1e-12 for s in sizes.values())
    assert "| size | < 100 KB |" in markdown(a)


def test_small_flows_faster_show_in_their_class_only():
    result = reference_as_result(1.0)
    for f in result["flows"]:
        if f["sender_fct_us"] is not None and f["size_bytes"] < 100_000:
            f["sender_fct_us"] /= 2
    sizes = analyse(result, DATA)["groups"]["size"]
    assert abs(sizes["< 100 KB"]["median_log_ratio"] + 0.693147) < 1e-5  # ln 1/2
    assert abs(sizes[">= 1 MB"]["median_log_ratio"]) < 1e-12


def test_rivals_and_placement_by_hand():
    # host 1 sends three flows: [0, 100), [50, 150) and [100, 300) ns in the reference
    rows = [{"src": 1, "dst": 2, "start_ns": 0, "theirs": 100, "listed": True},
            {"src": 1, "dst": 3, "start_ns": 50, "theirs": 100, "listed": True},
            {"src": 1, "dst": 4, "start_ns": 100, "theirs": 200, "listed": True},
            {"src": 5, "dst": 2, "start_ns": 0, "theirs": 100, "listed": False}]
    assert mean_competitors(rows, "src") == [0.5, 1.0, 0.25, 0.0]
    # flows into each flow's sender (host 1 receives none; the unlisted flow is ignored)
    assert mean_competitors(rows, "src", "dst") == [0.0, 0.0, 0.0, 0.0]
    rows.append({"src": 2, "dst": 1, "start_ns": 0, "theirs": 400, "listed": True})
    assert mean_competitors(rows, "src", "dst")[:3] == [1.0, 1.0, 1.0]
    assert placement(0, 15) == "same ToR" and placement(0, 63) == "same pod"
    assert placement(0, 64) == "across pods"
