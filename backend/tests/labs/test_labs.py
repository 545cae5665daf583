"""Labs: docs/labs/*.md parse, name real presets, and every step's target is a valid scenario."""

import copy

import pytest

from app.labs import service
from app.labs.service import LabFormatError, parse_lab

LAB_SLUGS = {"lab1-ecn-incast", "lab2-rdma-distance", "lab3-pfc-storm", "lab4-pingmesh",
             "lab5-dci-accelerator", "lab6-pfc-alpha", "lab7-ecmp-collisions",
             "lab8-erd-at-scale", "lab9-collectives-rail"}


def set_path(document: dict, path: str, value) -> None:
    """Set a dotted path (list indices as numbers) in a scenario document."""
    parts = [int(p) if p.isdigit() else p for p in path.split(".")]
    cur = document
    for part in parts[:-1]:
        cur = cur[part] if isinstance(part, int) else cur.setdefault(part, {})
    cur[parts[-1]] = value


def test_every_lab_parses_with_steps_and_instructor_notes():
    labs = {lab.slug: lab for lab in service.list_labs()}
    assert set(labs) == LAB_SLUGS
    lab1 = labs["lab1-ecn-incast"]
    assert lab1.preset == "incast-2to1"
    assert [s.check.kind for s in lab1.steps if s.check][:3] == [
        "preset_opened", "prediction_saved", "run_finished"]
    assert lab1.body.startswith("# Lab 1: ECN thresholds")
    assert "## Instructor notes" not in lab1.body and "23.1" in lab1.instructor
    assert lab1.predictions[0].metric == "throughput_gbps"


def test_format_errors_name_the_file_and_problem():
    with pytest.raises(LabFormatError, match="x: no front matter"):
        parse_lab("x", "# no front matter\n")
    with pytest.raises(LabFormatError, match="steps"):
        parse_lab("x", "---\ntitle: t\npreset: p\nsteps: []\n---\nbody\n")
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
        for step in lab.steps:
            check = step.check
            if check is None or check.path is None:
                continue
            target = copy.deepcopy(document)
            set_path(target, check.path, check.value)
            response = api.post("/scenarios/validate", json={"scenario": target})
            assert response.status_code == 200, (lab.slug, step.id, response.text)
        for step in lab.steps:
            if step.check and step.check.kind == "preset_opened":
                assert step.check.preset == lab.preset
            if step.check and step.check.kind == "prediction_saved":
                assert step.check.prediction in {p.id for p in lab.predictions}
