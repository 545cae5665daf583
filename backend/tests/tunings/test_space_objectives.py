"""Search spaces (units, linked parameters, the named ByteTuning space) and objectives."""

import pytest

from app.tunings import objectives as O
from app.tunings.space import Space, Parameter, SpaceError, bytetuning_space, expand_range, to_model


def test_bytetuning_space_has_3300_points_with_kmax_linked():
    space = bytetuning_space()
    assert space.shape == (11, 10, 5, 6) and space.size == 3300
    settings = space.settings((3, 0, 1, 2))
    assert settings == {"kmin": 1500, "pmax": 1, "alpha": 3, "headroom": 300, "kmax": 2000}


def test_apply_maps_vendor_units_onto_the_model():
    doc = {"switch": {"cell_bytes": 256}}
    out, by_path = bytetuning_space().apply(doc, (2, 9, 4, 5))
    assert by_path == {"switch.ecn.kmin_bytes": 1000 * 256, "switch.ecn.pmax": 0.9,
                       "switch.pfc.alpha": 20.0, "switch.pfc.headroom_bytes": 600 * 256,
                       "switch.ecn.kmax_bytes": 1500 * 256}
    assert out["switch"]["ecn"]["kmax_bytes"] == 384000 and doc == {"switch": {"cell_bytes": 256}}


def test_cells_default_to_208_bytes_and_alpha_mappings_are_changeable():
    _, by_path = bytetuning_space({"alpha": "alpha_broadcom_index"}).apply({}, (1, 0, 2, 0))
    assert by_path["switch.ecn.kmin_bytes"] == 500 * 208
    assert by_path["switch.pfc.alpha"] == 2.0 ** (5 - 7)
    assert to_model("alpha_sai_exponent", -4, {}) == 1 / 16
    with pytest.raises(SpaceError):
        bytetuning_space({"alpha": "alpha_broadcom_index"}).apply({}, (0, 0, 3, 0))  # 11 > 10


def test_ranges_and_point_ranks_round_trip():
    assert expand_range(0, 5000, 500) == list(range(0, 5001, 500))
    assert expand_range(0.1, 0.3, 0.1) == [0.1, 0.2, 0.3]
    with pytest.raises(SpaceError, match="step must be > 0"):
        expand_range(0, 5000, 0)
    space = bytetuning_space()
    assert [space.index_of(p) for p in space.points()] == list(range(3300))
    assert all(space.point_at(space.index_of(p)) == p for p in space.points())


def test_linked_source_must_be_a_parameter():
    from app.tunings.space import Linked
    with pytest.raises(SpaceError, match="not a parameter"):
        Space((Parameter("a", "x.a", (1, 2)),), (Linked("b", "x.b", "zz"),))


RESULT = {
    "summary": {
        "throughput_gbps": 22.0, "max_queue_bytes": 9000, "ecn_marked_packets": 10,
        "fct_us": {"p50": None, "p99": None}, "slowdown": {"p99": None}, "drops": {"total": 0},
        "pfc_pauses_sent": 0, "cnps_sent": 3,
        "link_utilization": [{"link": "leaf0->h0", "utilization": 0.95},
                             {"link": "spine0->leaf0", "utilization": 0.24},
                             {"link": "h2->leaf1", "utilization": 0.5}],
        "queues": [{"queue": "leaf0->h0", "p99_bytes": 4328.0},
                   {"queue": "spine0->leaf0", "p99_bytes": 0}],
    },
    "flows": [{"src": "h2", "dst": "h0", "goodput_gbps": 12.0},
              {"src": "h3", "dst": "h0", "goodput_gbps": 10.0}],
}
DOC = {"topology": {"kind": "leaf_spine", "host_rate_gbps": 25}}


def test_throughput_sensitive_objective_by_hand():
    m = O.derive_metrics(RESULT, DOC)
    assert [s["id"] for s in m["switches"]] == ["leaf0", "spine0"]   # hosts are not switches
    assert m["q_min_bytes"] == 1082
    # leaf0: 0.5 x 0.95 + 0.5 x 1082/4328 ; spine0: 0.5 x 0.24 + 0.5 x 1 (queue below a packet)
    expected = 0.5 * 0.95 + 0.5 * 0.25 + 0.5 * 0.24 + 0.5 * 1.0
    assert O.value(O.Objective("bytetuning_throughput", beta=0.5), m) == pytest.approx(expected)


def test_latency_sensitive_objective_by_hand():
    m = O.derive_metrics(RESULT, DOC)
    ceiling = 25 * 1000 / 1082 / 2                      # fair share at h0
    shares = [12.0 / ceiling, 10.0 / ceiling]
    mean = sum(shares) / 2
    numerator = sum(0.7 * min(1.0, x) + 0.3 * 0.25 for x in shares)  # above fair share: 1
    denominator = 1 + 2.0 * sum((x - mean) ** 2 for x in shares)
    got = O.value(O.Objective("bytetuning_latency", beta=0.7, gamma=2.0), m)
    assert got == pytest.approx(numerator / denominator)


def test_score_terms_add_up_to_the_score():
    """Issue 22 §1: the page explains a pick by its score's parts; they must make the score."""
    m = O.derive_metrics(RESULT, DOC)
    tput = O.Objective("bytetuning_throughput", beta=0.5)
    t = O.terms(tput, m)
    assert t["throughput_part"] == pytest.approx(0.5 * 0.95 + 0.5 * 0.24)
    assert t["queue_part"] == pytest.approx(0.5 * 0.25 + 0.5 * 1.0)
    assert t["throughput_part"] + t["queue_part"] == pytest.approx(O.value(tput, m))
    lat = O.Objective("bytetuning_latency", beta=0.7, gamma=2.0)
    t = O.terms(lat, m)
    assert t["fairness_penalty"] > 0
    assert (t["throughput_part"] + t["queue_part"]) / (1 + t["fairness_penalty"]) == pytest.approx(O.value(lat, m))
    assert O.terms(O.Objective("metric", metric="fct_p99_us", goal="min"), m) is None
    assert "beta" in O.FORMULAS["bytetuning_throughput"] and "gamma" in O.FORMULAS["bytetuning_latency"]


def test_constraints_aggregation_and_interval_comparison():
    m = O.derive_metrics(RESULT, DOC)
    assert O.Constraint("drops_total", "<=", 0).holds(m)
    assert not O.Constraint("queue_p99_bytes", "<", 4000).holds(m)
    assert not O.Constraint("fct_p99_us", "<", 10).holds(m)          # missing metric fails
    obj = O.Objective("metric", metric="throughput_gbps", goal="max")
    rows = [[{"throughput_gbps": 20.0}, {"throughput_gbps": 22.0}],
            [{"throughput_gbps": 10.0}, {"throughput_gbps": 12.0}]]
    assert O.aggregate(obj, rows, "mean") == (pytest.approx(16.0), pytest.approx(12.706))
    assert O.aggregate(obj, rows, "worst")[0] == pytest.approx(11.0)
    assert O.better((20, 1), (17, 1), "max") and not O.better((20, 2), (17, 2), "max")
    assert O.better((1, 0.1), (2, 0.1), "min")


def test_pareto_front_has_no_dominated_point():
    values = [(1, 5), (2, 4), (2, 6), (3, 3), (1, 5), (0, 9)]
    front = O.pareto_front(values, ("max", "max"))
    assert sorted(front) == [2, 3, 5]       # (2, 6) dominates (1, 5) and (2, 4)
    assert O.pareto_front(values, ("max", "min")) == [3]
    assert O.pareto_front([(1, 1), (1, 1)], ("max", "max")) == [0]  # a duplicate kept once
    for i in front:
        assert not any(O.dominates(values[j], values[i], ("max", "max")) for j in range(6))


def test_job_metrics_are_the_first_jobs():
    """jct_us (min) and busbw_gbps (max) read result.jobs[0]; without a job they are missing, so
    an objective on them has no value (and a constraint on them fails)."""
    jobs = [{"name": "a", "jct_us": 373.579, "busbw_gbps": 2698.22},
            {"name": "b", "jct_us": 900.0, "busbw_gbps": 100.0}]
    m = O.derive_metrics({**RESULT, "jobs": jobs}, DOC)
    assert (m["jct_us"], m["busbw_gbps"]) == (373.579, 2698.22)
    assert O.SINGLE_METRICS["jct_us"] == "min" and O.SINGLE_METRICS["busbw_gbps"] == "max"
    assert O.value(O.Objective("metric", "jct_us", "min"), m) == 373.579
    bare = O.derive_metrics(RESULT, DOC)
    assert bare["jct_us"] is None and O.value(O.Objective("metric", "busbw_gbps", "max"), bare) is None
    assert not O.Constraint("jct_us", "<=", 1e9).holds(bare)
    # a job that did not finish has a null JCT: missing, not zero
    unfinished = O.derive_metrics({**RESULT, "jobs": [{"name": "a", "jct_us": None, "busbw_gbps": None}]}, DOC)
    assert O.value(O.Objective("metric", "jct_us", "min"), unfinished) is None


def test_job_metrics_are_accepted_objectives_with_their_sense():
    from app.tunings.schemas import ObjectiveIn
    assert ObjectiveIn(kind="metric", metric="jct_us").sense == "min"
    assert ObjectiveIn(kind="metric", metric="busbw_gbps").sense == "max"
    with pytest.raises(ValueError):
        ObjectiveIn(kind="metric", metric="jct")
