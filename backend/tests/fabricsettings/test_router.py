"""Settings import (dry run, then stored) and export (scenario, run, tuning pick) through the API,
with 404 and 422 (a file's line, a query field)."""

from pathlib import Path

from tests.helpers import create_scenario, error_locs, sse_events
from tests.scenarios_data import incast

DATA = Path(__file__).resolve().parents[1] / "data" / "fabric"
TOR = {"name": "tor1.config_db.json",
       "text": (DATA / "sonic" / "tor1.config_db.json").read_text()}
SYSFS = (DATA / "nic-sysfs" / "cx6dx_eth2_defaults.txt").read_text()


def test_dry_run_then_apply(api):
    base = create_scenario(api, incast(name="real ToR"))
    count = api.get("/scenarios", params={"limit": 200}).json()["count"]
    preview = api.post(f"/scenarios/{base['id']}/settings/import",
                       json={"sonic": [TOR], "nic_sysfs": SYSFS})
    assert preview.status_code == 200, preview.text
    body = preview.json()
    assert "saved" not in body and "owner_token" not in body
    assert body["scenario"]["switch"]["pfc"]["alpha"] == 0.125
    assert body["scenario"]["nic"]["cc"]["g"] == 5 / 1024
    assert body["counts"]["mapped"] >= 20 and body["counts"]["kept"] >= 7
    entry = next(e for e in body["report"] if e["parameter"] == "switch.buffer_bytes")
    assert (entry["status"], entry["source"], entry["converted"], entry["conversion"]) == (
        "mapped", "tor1.config_db.json: BUFFER_POOL|ingress_lossless_pool.size+xoff", 15069184,
        "shared pool + shared headroom pool")
    assert api.get("/scenarios", params={"limit": 200}).json()["count"] == count  # nothing stored

    applied = api.post(f"/scenarios/{base['id']}/settings/import",
                       json={"sonic": [TOR], "nic_sysfs": SYSFS, "dry_run": False,
                             "name": "real ToR, imported"})
    assert applied.status_code == 200, applied.text
    saved = applied.json()["saved"]
    assert saved["parent_id"] == base["id"] and saved["name"] == "real ToR, imported"
    stored = api.get(f"/scenarios/{saved['id']}").json()["scenario"]
    assert stored["switch"]["ecn"] == {"enabled": True, "kmin_bytes": 250000,
                                       "kmax_bytes": 2097152, "pmax": 0.05}
    assert stored["watchdogs"]["switch"]["detect_us"] == 200000


def test_import_errors_name_the_file_and_line(api):
    base = create_scenario(api, incast())
    bad = {"name": "tor1.config_db.json",
           "text": (DATA / "malformed" / "sonic_syntax.config_db.json").read_text()}
    response = api.post(f"/scenarios/{base['id']}/settings/import", json={"sonic": [TOR, bad]})
    assert error_locs(response) == [["body", "sonic", 0, "text"]] or \
        error_locs(response) == [["body", "sonic", 1, "text"]]
    bad["name"] = "broken.config_db.json"
    response = api.post(f"/scenarios/{base['id']}/settings/import", json={"sonic": [bad]})
    assert error_locs(response) == [["body", "sonic", 0, "text"]]
    assert response.json()["detail"][0]["msg"] == (
        "line 45: broken.config_db.json: expected JSON: Expecting ',' delimiter (column 9)")
    response = api.post(f"/scenarios/{base['id']}/settings/import",
                        json={"nic_sysfs": "roce_rp/rpg_ai_rate 5\nroce_rp/rpg_min_rate 0\n"})
    assert error_locs(response) == [["body", "nic_sysfs"]]
    assert response.json()["detail"][0]["msg"].startswith("line 2: roce_rp/rpg_min_rate 0 gives")
    assert error_locs(api.post(f"/scenarios/{base['id']}/settings/import", json={})) == [["body"]]
    assert api.post("/scenarios/nope/settings/import", json={"nic_sysfs": "x 1"}).status_code == 404
    # a host the scenario does not have: the resulting scenario is refused, at its path
    response = api.post(f"/scenarios/{base['id']}/settings/import",
                        json={"nic_sysfs": "roce_rp/rpg_ai_rate 5", "nic_host": "h99"})
    assert error_locs(response) == [["body", "scenario", "nic_overrides", "h99"]]


def test_export_every_format(api):
    base = create_scenario(api, incast(name="exported"))
    sonic = api.get(f"/scenarios/{base['id']}/settings/export", params={"format": "sonic"})
    assert sonic.status_code == 200, sonic.text
    body = sonic.json()
    assert [f["name"] for f in body["files"]] == ["leaf0.config_db.json",
                                                  "spine0.config_db.json"]
    assert body["source"] == {"scenario_id": base["id"], "scenario_name": "exported",
                              "run_id": None}
    assert '"scenario_name": "exported"' in body["files"][0]["content"]
    assert "cell_bytes" in body["not_exported"]
    nvue = api.get(f"/scenarios/{base['id']}/settings/export",
                   params={"format": "nvue", "switch": "leaf0"}).json()
    (only,) = nvue["files"]
    assert only["name"] == "leaf0.nvue.sh"
    assert only["content"].startswith(f"# FabricTwin settings export: NVIDIA Cumulus Linux NVUE, "
                                      f"switch leaf0\n# scenario: exported ({base['id']})\n"
                                      "# run: none\n")
    assert "nv set qos congestion-control default-global traffic-class 3 min-threshold 5000" in \
        only["content"]
    sysfs = api.get(f"/scenarios/{base['id']}/settings/export",
                    params={"format": "nic_sysfs"}).json()
    # the scenario names no preset: the default's (nvidia-default) values, written out
    content = sysfs["files"][0]["content"]
    assert "# preset nvidia-default: every value below is the scenario's effective one" in content
    assert "echo 1019 > $RP/dce_tcp_g   # nic.cc.g 0.00488281" in content
    assert "echo 4 > $NP/min_time_between_cnps   # nic.cnp_interval_us 4" in content


def test_export_404_and_422(api):
    base = create_scenario(api, incast())
    other = create_scenario(api, incast(name="other"))
    run = api.post("/runs", json={"scenario_id": other["id"], "seeds": [1]}).json()["data"][0]
    url = f"/scenarios/{base['id']}/settings/export"
    assert api.get(url, params={"format": "sonic", "run_id": run["id"]}).status_code == 404
    named = api.get(f"/scenarios/{other['id']}/settings/export",
                    params={"format": "nic_sysfs", "run_id": run["id"]}).json()
    assert f"# run: {run['id']}" in named["files"][0]["content"]
    assert api.get(url, params={"format": "sonic", "switch": "leaf7"}).status_code == 404
    assert error_locs(api.get(url, params={"format": "yaml"})) == [["query", "format"]]
    assert error_locs(api.get(url)) == [["query", "format"]]
    assert api.get("/scenarios/nope/settings/export", params={"format": "nvue"}).status_code == 404


def test_export_a_tuning_pick(api):
    preset = api.get("/presets/incast-2to1").json()["scenario_id"]
    tuning = api.post("/tunings", json={
        "scenario_ids": [preset], "seeds": [1],
        "space": {"parameters": [{"name": "kmin", "path": "switch.ecn.kmin_bytes",
                                  "values": [0, 20], "unit": "cells"}]},
        "objectives": [{"kind": "bytetuning_throughput", "beta": 0.5}],
        "strategies": [{"name": "vendor"}]})
    assert tuning.status_code == 201, tuning.text
    tuning = tuning.json()
    events = sse_events(api, f"/tunings/{tuning['id']}/events", timeout=600)
    assert events[-1][1]["status"] == "SUCCEEDED", events[-1]
    (pick,) = api.get(f"/tunings/{tuning['id']}/results").json()["picks"]
    url = f"/tunings/{tuning['id']}/evaluations/{pick['evaluation_id']}/settings/export"
    body = api.get(url, params={"format": "nic_sysfs"}).json()
    assert body["source"]["tuning_id"] == tuning["id"] and body["source"]["strategy"] == "vendor"
    content = body["files"][0]["content"]
    # the vendor pick is NVIDIA's DCQCN defaults (app/tunings/strategies/fixed.py)
    assert "echo 1019 > $RP/dce_tcp_g" in content and "echo 5 > $RP/rpg_ai_rate" in content
    assert f"# tuning {tuning['id']}, vendor pick (evaluation {pick['evaluation_id']})" in content
    assert f"# run: {body['source']['run_id']}" in content and body["source"]["run_id"]
    assert api.get(f"/tunings/{tuning['id']}/evaluations/999999/settings/export",
                   params={"format": "nvue"}).status_code == 404
    assert error_locs(api.get(url, params={"format": "nvue", "scenario_index": 2})) == \
        [["query", "scenario_index"]]
