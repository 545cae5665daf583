"""Labs: docs/labs/*.md parse, name real presets, and every step's target is a valid scenario."""

import copy
import json
import re

import pytest

from app.core.config import REPO_ROOT
from app.labs import service
from app.labs.service import LabFormatError, parse_lab

LAB_SLUGS = {"lab1-ecn-incast", "lab2-rdma-distance", "lab3-pfc-storm", "lab4-pingmesh",
             "lab5-dci-accelerator", "lab6-pfc-alpha", "lab7-ecmp-collisions",
             "lab8-erd-at-scale", "lab9-collectives-rail", "lab10-training-plans"}


def set_path(document: dict, path: str, value) -> None:
    """Set a dotted path (list indices as numbers) in a scenario document."""
    parts = [int(p) if p.isdigit() else p for p in path.split(".")]
    cur = document
    for part in parts[:-1]:
        cur = cur[part] if isinstance(part, int) else cur.setdefault(part, {})
    cur[parts[-1]] = value


def test_every_lab_parses_with_steps_and_instructor_notes():
    listed = service.list_labs()
    labs = {lab.slug: lab for lab in listed}
    assert set(labs) == LAB_SLUGS
    # in number order: lab 10 after lab 9, not after lab 1
    assert [lab.slug for lab in listed][-2:] == ["lab9-collectives-rail", "lab10-training-plans"]
    lab1 = labs["lab1-ecn-incast"]
    assert lab1.preset == "incast-2to1"
    assert [s.check.kind for s in lab1.steps if s.check][:3] == [
        "preset_opened", "prediction_saved", "run_finished"]
    assert lab1.body.startswith("# Lab 1: ECN thresholds")
    assert "## Instructor notes" not in lab1.body and "23.1" in lab1.instructor
    goodput = next(p for p in lab1.predictions if p.id == "goodput")
    assert goodput.metric == "throughput_gbps"
    # issue 22 §3: tied to the unchanged preset's run, with its answer kept out of the text
    assert goodput.run.kind == "run_finished" and goodput.run.preset == "incast-2to1"
    assert "20.94 Gbit/s" in goodput.answer and "(Answer:" not in lab1.body
    run_preset = next(s for s in lab1.steps if s.id == "run-preset")
    assert run_preset.check.preset == "incast-2to1" and run_preset.check.path is None


def test_format_errors_name_the_file_and_problem():
    with pytest.raises(LabFormatError, match="x: no front matter"):
        parse_lab("x", "# no front matter\n")
    with pytest.raises(LabFormatError, match="steps"):
        parse_lab("x", "---\ntitle: t\npreset: p\nsteps: []\n---\nbody\n")
    with pytest.raises(LabFormatError, match="run must be a run_finished check"):
        parse_lab("x", "---\ntitle: t\npreset: p\nsteps:\n  - {id: a, text: b}\npredictions:\n"
                       "  - {id: q, question: q, run: {kind: preset_opened}}\n---\n")
    with pytest.raises(LabFormatError, match="kind"):
        parse_lab("x", "---\ntitle: t\npreset: p\nsteps:\n  - {id: a, text: b, check: {kind: magic}}\n---\n")


def test_labs_api_list_get_404(api):
    body = api.get("/labs").json()
    assert {lab["slug"] for lab in body["data"]} == LAB_SLUGS and body["count"] == len(LAB_SLUGS)
    lab = api.get("/labs/lab2-rdma-distance").json()
    assert lab["preset"] == "dci-100km-perftest" and lab["steps"][0]["check"]["kind"] == "preset_opened"
    assert api.get("/labs/no-such-lab").status_code == 404
    assert api.get("/labs/..%2Fsecrets").status_code == 404


def test_lab_presets_exist_and_step_targets_validate(api):
    for lab in service.list_labs():
        preset = api.get(f"/presets/{lab.preset}")
        assert preset.status_code == 200, lab.slug
        document = preset.json()["scenario"]
        runs = [p.run for p in lab.predictions if p.run is not None]
        for check in [step.check for step in lab.steps] + runs:
            base = document
            if check is not None and check.kind == "run_finished" and check.preset is not None:
                # a run of a preset "as it is": the lab's, or another it opens (lab 9's all-to-all)
                other = api.get(f"/presets/{check.preset}")
                assert other.status_code == 200, (lab.slug, check.preset)
                base = other.json()["scenario"]
            if check is None or (check.path is None and not check.also):
                continue
            target = copy.deepcopy(base)
            for path, value in ([(check.path, check.value)] if check.path else []) + [
                    (p, v) for p, v in (check.also or {}).items() if v is not None]:
                set_path(target, path, value)
            response = api.post("/scenarios/validate", json={"scenario": target})
            assert response.status_code == 200, (lab.slug, check.path, check.also, response.text)
        for step in lab.steps:
            if step.check and step.check.kind == "preset_opened":
                assert step.check.preset == lab.preset
            if step.check and step.check.kind == "prediction_saved":
                assert step.check.prediction in {p.id for p in lab.predictions}


ANSWER_BLOCK = re.compile(r"^```answer ((?:[a-z0-9-]+ ?)+)[ \t]*\n(.*?)^```[ \t]*$",
                          re.MULTILINE | re.DOTALL)


def metric_exists(metric: str, jobs: set[str]) -> bool:
    """A prediction's metric names a result field (docs/labs/README.md): the run summary's, a
    collective or training job's by name (a training job's `training` block too), or the
    Pingmesh's (docs/result.schema.json)."""
    defs = json.loads((REPO_ROOT / "docs" / "result.schema.json").read_text())["$defs"]
    root, *rest = metric.split(".")
    if root == "jobs" and rest[1:2] == ["training"]:  # jobs.<training job>.training.<field>
        return len(rest) == 3 and rest[0] in jobs and rest[2] in defs["Training"]["properties"]
    if root == "jobs":
        return len(rest) == 2 and rest[0] in jobs and rest[1] in defs["Job"]["properties"]
    if root == "pingmesh":
        return bool(rest) and rest[0] in defs["Pingmesh"]["properties"]
    return root in defs["ResultSummary"]["properties"]


def test_every_prediction_is_checked_against_its_run_and_answered_once_saved(api):
    """Issue 37: every lab's predictions are compared with the run they ask about (a metric and a
    run), and each has an answer the viewer shows once the prediction is saved: in the front
    matter or in the file's fenced `answer <id>` blocks, which the lab text hides until then."""
    for lab in service.list_labs():
        ids = {p.id for p in lab.predictions}
        text = f"{lab.body}\n{lab.instructor}"
        blocks = ANSWER_BLOCK.findall(text)
        for named, _source in blocks:
            assert set(named.split()) <= ids, (lab.slug, named)
        answered = {i for named, _ in blocks for i in named.split()}
        for p in lab.predictions:
            assert p.metric and p.run is not None, (lab.slug, p.id)
            assert p.answer or p.id in answered, (lab.slug, p.id)
            preset = p.run.preset or lab.preset
            scenario = api.get(f"/presets/{preset}").json()["scenario"]
            jobs = {t.get("job") or t.get("name") for t in scenario.get("traffic", [])
                    if t["kind"] in ("collective", "training")}
            assert metric_exists(p.metric, jobs), (lab.slug, p.id, p.metric)
