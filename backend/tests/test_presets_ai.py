"""Physics of the AI-fabric presets (docs/presets.md, 15-18): each runs on the real `fabricsim`,
and what its description claims shows, against figures computed here by hand.

NIC payload rate at 400 Gbit/s and MTU 4096: 400 x 4096 / (4096 + 82) = 392.149 Gbit/s.
"""

import copy

import pytest

from tests.test_presets_physics import PRESETS, fabricsim, goodput_ceiling, sim  # noqa: F401

PAYLOAD = goodput_ceiling(400, 4096)
MIB = 1048576


def job(result: dict, name: str) -> dict:
    return next(j for j in result["jobs"] if j["name"] == name)


def test_ai_rail_allreduce_ring_against_tree(sim):
    result = sim(PRESETS["ai-rail-allreduce"]["scenario"])
    ring, tree = job(result, "ring"), job(result, "tree")
    assert ring["completed"] and tree["completed"]
    n, channels, size = 128, 4, 32 * MIB
    # each channel's ring leaves every one of the 16 servers once per step through one NIC:
    # 2(n-1) steps x 16 hops x S/(4n) bytes x 4 channels cross the network, the rest NVLink
    block = size // (channels * n)
    assert ring["network_bytes"] == 2 * (n - 1) * 16 * block * channels
    assert ring["nvlink_bytes"] == 2 * (n - 1) * (n - 16) * block * channels
    assert ring["flows"] == 2 * (n - 1) * n * channels
    # the bound: 4 channels, each through its own 400G NIC at the payload rate (64 KiB steps
    # each pay a path latency, so a few per cent below it)
    assert 0.9 * channels * PAYLOAD <= ring["busbw_gbps"] <= channels * PAYLOAD
    # the tree starts after the ring ended, so the two do not share the fabric
    assert tree["iterations"][0]["start_us"] >= ring["jct_us"]
    assert tree["busbw_gbps"] < ring["busbw_gbps"]
    # 2 trees x 4 channels, each reduce + broadcast over 127 edges, in 1 MiB chunks of 4 MiB
    assert tree["flows"] == 2 * channels * 2 * (n - 1) * 4


def test_ai_rail_allreduce_tree_wins_small_messages(sim):
    scenario = copy.deepcopy(PRESETS["ai-rail-allreduce"]["scenario"])
    for gen in scenario["traffic"]:
        gen["message_bytes"] = MIB
    result = sim(scenario)
    # 254 ring steps of 2 KiB cost their latency; 2 x 4 tree levels do not
    assert job(result, "tree")["jct_us"] < job(result, "ring")["jct_us"]


def variant(key: str, **nic_switch) -> dict:
    scenario = copy.deepcopy(PRESETS[key]["scenario"])
    for path, value in nic_switch.items():
        section, field = path.split("__")
        scenario.setdefault(section, {})[field] = value
    return scenario


def test_ai_moe_alltoall_spraying_needs_a_transport_that_tolerates_reordering(sim):
    # 24 blocks of 1 MiB leave each GPU through its NIC (7 of its 31 go over NVLink)
    bound_us = 24 * MIB * 8 / (PAYLOAD * 1000)
    ecmp = job(sim(PRESETS["ai-moe-alltoall"]["scenario"]), "moe")
    assert ecmp["network_bytes"] == 32 * 24 * MIB
    assert ecmp["jct_us"] > 2 * bound_us  # hashed collisions on the spine links
    sprayed_rc = sim(variant("ai-moe-alltoall", switch__load_balancing="per_packet"))
    assert sprayed_rc["summary"]["retransmitted_packets"] > 1000  # go-back-N on reordering
    assert job(sprayed_rc, "moe")["jct_us"] > ecmp["jct_us"]  # so spraying with RC loses to ECMP
    # the sprayed transport takes a source port per packet: plain ECMP spreads it to the bound
    ecmp_sprayed = job(sim(variant("ai-moe-alltoall", nic__transport="sprayed")), "moe")
    assert bound_us <= ecmp_sprayed["jct_us"] <= 1.05 * bound_us
    sprayed = job(sim(variant("ai-moe-alltoall", switch__load_balancing="per_packet",
                              nic__transport="sprayed")), "moe")
    assert sprayed["jct_us"] < 0.7 * ecmp["jct_us"]
    adaptive = job(sim(variant("ai-moe-alltoall", switch__load_balancing="adaptive",
                               nic__transport="sprayed")), "moe")
    assert bound_us <= adaptive["jct_us"] <= 1.05 * bound_us


def test_ai_two_jobs_spread_doubles_each_jct(sim):
    spread = sim(PRESETS["ai-two-jobs"]["scenario"])
    alone_doc = copy.deepcopy(PRESETS["ai-two-jobs"]["scenario"])
    alone_doc["traffic"] = alone_doc["traffic"][:1]
    alone = job(sim(alone_doc), "A")
    # a 32-rank ring of 64 MiB, one channel: 62 steps of 2 MiB through one 400G NIC each
    step_us = 2 * MIB * 8 / (PAYLOAD * 1000)
    assert alone["jct_us"] == pytest.approx(62 * step_us, rel=0.03)
    for name in ("A", "B"):
        assert job(spread, name)["jct_us"] == pytest.approx(2 * alone["jct_us"], rel=0.1)
    packed_doc = copy.deepcopy(PRESETS["ai-two-jobs"]["scenario"])
    for gen in packed_doc["traffic"]:
        gen["placement"] = "packed"
    packed = sim(packed_doc)
    for name in ("A", "B"):
        assert job(packed, name)["jct_us"] == pytest.approx(alone["jct_us"], rel=0.01)
    hosts = [set(job(packed, name)["hosts"]) for name in ("A", "B")]
    assert not hosts[0] & hosts[1]


def test_ai_link_failure_costs_a_timeout_then_runs_at_speed(sim):
    failed = sim(PRESETS["ai-link-failure"]["scenario"])
    healthy_doc = copy.deepcopy(PRESETS["ai-link-failure"]["scenario"])
    del healthy_doc["faults"]
    healthy = job(sim(healthy_doc), "train")
    # 62 ring steps of 64 MiB / (8 channels x 32 ranks) through one NIC each
    step_us = 64 * MIB / (8 * 32) * 8 / (PAYLOAD * 1000)
    for it in healthy["iterations"]:
        assert it["time_us"] == pytest.approx(62 * step_us, rel=0.1)
    train = job(failed, "train")
    assert train["completed"]
    times = [it["time_us"] for it in train["iterations"]]
    assert times[0] > 2 * healthy["iterations"][0]["time_us"]  # waited for the RTO
    assert len(times) == 3
    # then at about full speed over the remaining spine: within 25 % (two channels' connections
    # now share leaf0_0's one uplink left, each connection one QP whose steps queue on it:
    # docs/presets.md, 18)
    for t in times[2:]:
        assert t == pytest.approx(healthy["iterations"][0]["time_us"], rel=0.25)
    assert failed["faults"]["drops"]["link_down"] > 0
    assert failed["summary"]["retransmitted_packets"] >= failed["faults"]["drops"]["link_down"]
    assert train["flows_completed"] == train["flows"]


def test_ai_multi_plane_sprays_over_the_planes_and_loses_a_quarter_with_one(sim):
    # 4 planes of 200G: an 800G NIC delivers 4 x 200 x 4096 / 4178 = 784.3 Gbit/s of payload
    plane = goodput_ceiling(200, 4096)
    result = sim(PRESETS["ai-multi-plane"]["scenario"])
    train = job(result, "train")
    assert train["completed"] and train["flows_completed"] == train["flows"]
    assert train["nic_payload_gbps"] == pytest.approx(4 * plane, rel=1e-4)
    # 8 ranks in 4 servers of 2: 2(n-1) = 14 steps, each moving 16 MiB / 8 = 2 MiB between servers
    step_bytes = 16 * MIB // 8
    full = 14 * step_bytes * 8 / (4 * plane * 1000)        # 299.5 us: the whole NIC per step
    degraded = 14 * step_bytes * 8 / (3 * plane * 1000)    # 399.3 us: h0 with 3 of its 4 planes
    times = [it["time_us"] for it in train["iterations"]]
    assert full <= times[0] <= 1.05 * full
    # the plane-3 link of h0 fails at 312 us, as h0 starts iteration 1
    assert 0.99 * degraded <= times[1] <= 1.05 * degraded
    assert result["faults"]["drops"]["link_down"] > 0  # the frames on the wire when it failed
    # RC pins the one QP of each ring hop to one plane: one plane's rate per step
    rc = job(sim(variant("ai-multi-plane", nic__transport="rc")), "train")
    one_plane = 14 * step_bytes * 8 / (plane * 1000)       # 1197.7 us
    assert rc["completed"]
    assert one_plane <= rc["iterations"][0]["time_us"] <= 1.05 * one_plane


# -- 20-21. training iterations (docs/presets.md; docs/model.md, "Training iterations") ----------

def layer_forward_us(b: int, s: int, h: int, f: int, tp: int, matrices: int = 3, top_k: int = 1) -> float:
    """Narayanan et al.: 8 B s h^2 + 4 B s^2 h (attention) + 2 m B s h f x top_k (MLP), on tp GPUs
    at 989 TFLOP/s x 0.4."""
    flops = 8 * b * s * h * h + 4 * b * s * s * h + 2 * matrices * b * s * h * f * top_k
    return flops / tp / (989e12 * 0.4) * 1e6


def test_ai_training_70b_compute_bubble_and_tokens(sim):
    scenario = PRESETS["ai-training-70b"]["scenario"]
    t = job(sim(scenario), "llama")["training"]
    m, p, layers = 8, 4, 2
    tfb = 3 * layers * layer_forward_us(1, 8192, 1024, 3584, 8)
    assert t["tokens_per_iteration"] == 32 * m * 8192
    # the critical rank computes m passes of its stage (the last stage also the output layer)
    assert t["compute_us"] >= 0.999 * m * tfb
    # 1F1B with communication: at least (m + p - 1)(t_f + t_b), and a bubble of at least p - 1 passes
    iteration = t["iteration_us"][0]
    assert iteration >= (m + p - 1) * tfb
    assert t["bubble_us"] >= 0.99 * (p - 1) * tfb
    assert t["compute_us"] + t["bubble_us"] + sum(t["exposed_us"].values()) == pytest.approx(iteration, rel=0.001)
    assert t["tokens_per_s"] == pytest.approx(t["tokens_per_iteration"] / t["mean_iteration_us"] * 1e6, rel=1e-5)


def test_ai_training_moe_all_to_all_spraying(sim):
    rc = job(sim(PRESETS["ai-training-moe"]["scenario"]), "moe")["training"]
    sprayed = job(sim(variant("ai-training-moe", nic__transport="sprayed")), "moe")["training"]
    layers = 4
    logits = 2 * 4096 * 4096 * 32000 / 8 / (989e12 * 0.4) * 1e6  # the output layer (pp = 1: here)
    compute = 3 * (layers * layer_forward_us(1, 4096, 4096, 14336, 8, top_k=2) + logits)
    assert rc["compute_us"] == pytest.approx(compute, rel=0.001)
    # 16 all-to-alls of 7 MiB leaving each GPU at the 400G payload rate: 150 us each at best
    bound = 16 * 7 * MIB * 8 / (PAYLOAD * 1e3)
    assert rc["exposed_us"]["ep"] >= bound and sprayed["exposed_us"]["ep"] >= bound
    # per-packet spraying spreads every QP over the 4 spines whatever the hash: its all-to-alls
    # stay near the NIC bound (RC keeps one hashed path per QP for the whole job, as NCCL's
    # persistent QPs do, so how near RC comes depends on how the ports hash; see presets.md)
    assert sprayed["exposed_us"]["ep"] <= 1.1 * bound
