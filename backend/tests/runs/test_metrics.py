"""The run metrics declared once (app/runs/metrics.py): what runs, sweeps and tunings read from a
result's jobs, a training job's iteration time, tokens per second and exposed DP/TP time among
them. Pure functions on hand-made results; no services needed."""

import pytest
from pydantic import ValidationError

from app.runs import metrics as M
from app.runs.execution import metrics_of
from app.runs.models import Run
from app.runs.schemas import METRIC_NAMES, RunMetrics
from app.tunings import objectives as O
from app.tunings.schemas import ObjectiveIn, TuningCreate

RING = {"name": "ring", "generator": 0, "op": "all_reduce", "jct_us": 410.5, "busbw_gbps": 322.0}


def training(name: str, iteration_us: float, tokens_per_iteration: int, dp: float, tp: float) -> dict:
    """A training job as the simulator writes it (issue 35 §2): only the figures read here."""
    return {
        "name": name,
        "generator": 1,
        "kind": "training",
        "jct_us": 3 * iteration_us,
        "busbw_gbps": None,
        "training": {
            "iteration_us": [iteration_us] * 3,
            "mean_iteration_us": iteration_us,
            "tokens_per_iteration": tokens_per_iteration,
            "tokens_per_s": tokens_per_iteration / (iteration_us / 1e6),
            "exposed_us": {"tp": tp, "pp": 0.0, "dp": dp, "ep": 0.0},
        },
    }


LLAMA = training("llama", 367_800.0, 2_097_152, dp=42_000.0, tp=28_800.0)
MIXTRAL = training("mixtral", 500_000.0, 1_048_576, dp=1_000.0, tp=0.0)


def test_a_training_job_gives_its_iteration_tokens_and_exposed_time():
    assert M.job_value(LLAMA, "iteration_us") == 367_800.0
    assert M.job_value(LLAMA, "tokens_per_s") == pytest.approx(2_097_152 / 0.3678)
    assert M.job_value(LLAMA, "exposed_dp_us") == 42_000.0
    assert M.job_value(LLAMA, "exposed_tp_us") == 28_800.0
    # a collective job has no training metrics, a training job's JCT is still its JCT
    assert M.job_value(RING, "iteration_us") is None
    assert M.job_value(LLAMA, "jct_us") == 3 * 367_800.0


def test_flat_values_come_from_the_first_job_that_has_them():
    flat = M.first_job_values([RING, MIXTRAL, LLAMA])
    # jct_us and busbw_gbps stay result.jobs[0]'s; the training metrics: the first training job's
    assert flat["jct_us"] == 410.5 and flat["busbw_gbps"] == 322.0
    assert flat["iteration_us"] == 500_000.0 and flat["exposed_dp_us"] == 1_000.0
    # a training job first: its JCT, and the first collective job's busbw
    flat = M.first_job_values([LLAMA, RING])
    assert flat["jct_us"] == 3 * 367_800.0 and flat["busbw_gbps"] == 322.0
    assert M.first_job_values([RING])["tokens_per_s"] is None
    assert M.first_job_values(None) == {m: None for m in M.JOB_METRICS}


def test_by_name_each_job_has_the_metrics_of_its_kind():
    by_name = M.jobs_values([RING, LLAMA])
    assert set(by_name["ring"]) == {"jct_us", "busbw_gbps"}
    assert by_name["llama"]["iteration_us"] == 367_800.0
    assert "busbw_gbps" not in by_name["llama"]  # a training job has no bus bandwidth


def test_a_runs_columns_hold_the_first_training_jobs_metrics():
    values = metrics_of({"throughput_gbps": 1.0}, [RING, LLAMA])
    assert values["iteration_us"] == 367_800.0 and values["exposed_tp_us"] == 28_800.0
    assert values["jct_us"] == 410.5
    assert values["job_metrics"]["llama"]["tokens_per_s"] == pytest.approx(5_701_881.4, rel=1e-6)
    # every value metrics_of writes is a column of runs; every column metric is written
    assert set(METRIC_NAMES) <= set(values) and all(hasattr(Run, k) for k in values)


def test_the_run_metrics_model_lists_the_columns_in_order_then_jobs():
    # sweeps zip a row's column values with RunMetrics' fields: the orders must agree
    assert tuple(RunMetrics.model_fields) == (*METRIC_NAMES, "jobs")


def test_tunings_maximise_tokens_and_minimise_iteration_time():
    assert O.SINGLE_METRICS["tokens_per_s"] == "max" and O.SINGLE_METRICS["iteration_us"] == "min"
    assert O.SINGLE_METRICS["exposed_dp_us"] == "min" and O.SINGLE_METRICS["exposed_tp_us"] == "min"
    assert ObjectiveIn(kind="metric", metric="tokens_per_s").sense == "max"
    assert ObjectiveIn(kind="metric", metric="iteration_us").sense == "min"
    metrics = O.derive_metrics({"summary": {}, "jobs": [RING, LLAMA, MIXTRAL]}, {})
    assert O.value(O.Objective("metric", "iteration_us", "min"), metrics) == 367_800.0
    named = O.Objective("metric", "tokens_per_s", "max", job="mixtral")
    assert O.value(named, metrics) == pytest.approx(1_048_576 / 0.5)
    assert named.label == "tokens_per_s of mixtral"
    assert O.Constraint("exposed_dp_us", "<=", 2_000.0, job="mixtral").holds(metrics)
    assert not O.Constraint("exposed_dp_us", "<=", 2_000.0).holds(metrics)  # llama's 42 ms


def test_a_training_generator_is_a_job_an_objective_may_name():
    doc = {
        "traffic": [
            {"kind": "incast"},
            {"kind": "collective", "job": "ring"},
            {"kind": "training", "name": "llama"},
            {"kind": "training"},
        ]
    }
    assert O.job_names(doc) == ["ring", "llama", "job3"]
    O.check_job_names([(("objectives", 0, "job"), "llama")], [("A", doc)])
    with pytest.raises(O.JobNameError, match='"gpt" is not a job of scenario A'):
        O.check_job_names([(("objectives", 0, "job"), "gpt")], [("A", doc)])


def test_a_job_on_a_metric_no_job_has_is_refused_naming_the_job_metrics():
    body = {
        "scenario_ids": ["s"],
        "space": {"named": "bytetuning"},
        "strategies": [{"name": "vendor"}],
        "objectives": [{"kind": "metric", "metric": "drops_total", "job": "llama"}],
    }
    with pytest.raises(ValidationError, match="iteration_us, tokens_per_s, exposed_dp_us, exposed_tp_us"):
        TuningCreate(**body)
    body["objectives"] = [{"kind": "metric", "metric": "tokens_per_s", "job": "llama"}]
    assert TuningCreate(**body).objectives[0].metric == "tokens_per_s"
