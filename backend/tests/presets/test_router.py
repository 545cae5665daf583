"""Presets: seeded at start-up as scenarios; list, get, 404, 422; each preset is runnable input."""

PRESET_KEYS = {"incast-2to1", "leaf-spine-permutation", "fat-tree-k4-websearch",
               "three-tier-podsets", "dci-100km-perftest", "pfc-alpha-incast",
               "msft-pfc-storm", "msft-pfc-storm-watchdogs", "msft-link-failure", "msft-deadlock",
               "msft-deadlock-cured", "msft-pingmesh", "ntt-dci-distance", "erd-vs-rc",
               "ai-rail-allreduce", "ai-moe-alltoall", "ai-two-jobs", "ai-link-failure",
               "ai-multi-plane", "ai-training-70b", "ai-training-moe"}


def test_list_presets(api):
    body = api.get("/presets").json()
    assert {p["key"] for p in body["data"]} == PRESET_KEYS and body["count"] == len(PRESET_KEYS)
    incast = next(p for p in body["data"] if p["key"] == "incast-2to1")
    assert incast["hosts"] == 4 and incast["switches"] == 3 and incast["topology_kind"] == "leaf_spine"
    # the list says which presets carry a comparison, so the gallery can offer to run it
    assert [p["key"] for p in body["data"] if "comparison" in p] == [
        "ntt-dci-distance", "erd-vs-rc", "ai-rail-allreduce", "ai-moe-alltoall", "ai-two-jobs",
        "ai-multi-plane", "ai-training-70b", "ai-training-moe"]
    ntt = next(p for p in body["data"] if p["key"] == "ntt-dci-distance")
    assert ntt["comparison"]["title"].startswith("NTT")


def test_get_preset_is_a_stored_scenario(api):
    preset = api.get("/presets/dci-100km-perftest").json()
    assert preset["scenario"]["topology"]["length_km"] == 100
    stored = api.get(f"/scenarios/{preset['scenario_id']}").json()
    assert stored["preset_key"] == "dci-100km-perftest"


def test_presets_pass_the_simulator(api):
    for key in PRESET_KEYS:
        document = api.get(f"/presets/{key}").json()["scenario"]
        response = api.post("/scenarios/validate", json={"scenario": document})
        assert response.status_code == 200, (key, response.text)
        assert response.json()["simulator_checked"] is True


def test_preset_comparison_runs_as_a_sweep(api):
    preset = api.get("/presets/ntt-dci-distance").json()
    comparison = preset["comparison"]
    assert [p["path"] for p in comparison["parameters"]] == [
        "nic.qp_depth", "topology.accelerator.enabled", "topology.length_km",
        "traffic.0.message_bytes"]
    assert "comparison" not in api.get("/presets/incast-2to1").json()
    body = {"scenario_id": preset["scenario_id"], "parameters": comparison["parameters"],
            "linked": comparison["linked"], "seed": 1}
    response = api.post("/sweeps", json=body)
    assert response.status_code in (200, 201, 202), response.text
    sweep = response.json()
    assert sweep["total"] == 2 * 2 * 3 * 9
    api.post(f"/sweeps/{sweep['id']}/cancel")


def test_preset_404_and_422(api):
    assert api.get("/presets/no-such-preset").status_code == 404
    assert api.get("/presets/" + "x" * 65).status_code == 422


def test_seeding_is_idempotent(stack, pg_url):
    import subprocess

    from tests.support import BACKEND, VENV_BIN

    before = {p["key"]: p["scenario_id"] for p in stack.client().get("/presets").json()["data"]}
    result = subprocess.run([str(VENV_BIN / "python"), str(BACKEND / "scripts/seed_presets.py")],
                            env=stack.env, capture_output=True, text=True, check=True)
    assert "all up to date" in result.stdout
    after = {p["key"]: p["scenario_id"] for p in stack.client().get("/presets").json()["data"]}
    assert before == after
