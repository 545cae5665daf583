"""docs/model.md "Training iterations", docs/presets.md sections 20-21 and lab 10: training
iterations from a parallelism plan (the `training` generator)."""

from validation.figures.core import case, figure, job

FLOW = ("--engine", "flow")


def training(name: str) -> callable:
    return lambda r: job(r, name)["training"]


def field(name: str, key: str, scale: float = 1.0):
    return lambda r: training(name)(r)[key] * scale


def exposed(name: str, kind: str):
    return lambda r: training(name)(r)["exposed_us"][kind]


def _rail(gpus: int, traffic: dict, rate: int = 100) -> dict:
    return {
        "schema_version": 1,
        "seed": 1,
        "duration_us": 200000,
        "nic": {"mtu_bytes": 4096},
        "topology": {
            "kind": "rail_optimized",
            "units": 2,
            "servers_per_unit": 2,
            "nics_per_server": gpus,
            "spines": 2,
            "host_rate_gbps": rate,
            "fabric_rate_gbps": rate,
        },
        "traffic": [traffic],
    }


SMALL = {"layers": 8, "hidden": 512, "heads": 8, "seq_len": 512, "vocab": 1000}


def _pure_dp() -> dict:
    return _rail(
        1,
        {
            "kind": "training",
            "name": "dp",
            "servers": 4,
            "model": SMALL,
            "parallel": {"dp": 4, "bucket_bytes": 1000000000},
            "compute_us_per_layer": 100,
        },
    )


def _pure_dp_alone() -> dict:
    # the same gradient all-reduce (the stage's 8 layers and both embeddings, bf16) run alone
    grads = 8 * (4 * 512 * 512 + 2 * 512 * 2048) * 2 + 2 * 1000 * 512 * 2
    return _rail(1, {"kind": "collective", "name": "dp", "op": "all_reduce", "servers": 4, "message_bytes": grads})


def _pipeline(m: int) -> dict:
    return _rail(
        1,
        {
            "kind": "training",
            "name": "pp",
            "servers": 4,
            "model": {"layers": 8, "hidden": 64, "heads": 8, "seq_len": 64, "vocab": 1000},
            "parallel": {"pp": 4, "micro_batches": m},
            "compute_us_per_layer": 200,
        },
    )


# -- docs/model.md: the hand checks ----------------------------------------------------------
DP = case("training.dp", scenario=_pure_dp)
DP_ALONE = case("training.dp.alone", scenario=_pure_dp_alone)
figure("training.dp.iteration", DP, lambda r: training("dp")(r)["iteration_us"][0], 2)
figure("training.dp.compute", DP, field("dp", "compute_us"), 0)
figure("training.dp.alone", DP_ALONE, lambda r: job(r, "dp")["jct_us"], 2)
for m in (4, 8):
    c = case(f"training.pp.m{m}", scenario=lambda m=m: _pipeline(m))
    figure(
        f"training.pp.m{m}.bubble_pct",
        c,
        lambda r: 100 * training("pp")(r)["bubble_us"] / training("pp")(r)["iteration_us"][0],
        1,
    )
    figure(f"training.pp.m{m}.iteration", c, lambda r: training("pp")(r)["iteration_us"][0], 1)

# -- 20. ai-training-70b: non-blocking against 2:1, and lab 10's plans -----------------------
# lab 10: the same 1,024 GPUs and global batch (dp x micro-batches = 256 sequences), three plans
PLANS = {
    "pp4": {},
    "pp2": {"traffic.0.parallel.pp": 2, "traffic.0.parallel.dp": 64, "traffic.0.parallel.micro_batches": 4},
    "pp8": {"traffic.0.parallel.pp": 8, "traffic.0.parallel.dp": 16, "traffic.0.parallel.micro_batches": 16},
}
for spines, fabric in ((32, "nb"), (16, "2to1")):
    for plan, patch in PLANS.items():
        c = case(f"training.70b.{fabric}.{plan}", "ai-training-70b", patch={"topology.spines": spines, **patch})
        fid = f"training.70b.{fabric}.{plan}"
        figure(f"{fid}.iteration", c, field("llama", "mean_iteration_us", 1e-3), 2, "ms")
        figure(f"{fid}.mtok", c, field("llama", "tokens_per_s", 1e-6), 1, "million tokens/s")
        figure(f"{fid}.bubble", c, field("llama", "bubble_us", 1e-3), 2, "ms")
        for kind in ("tp", "pp", "dp"):
            figure(f"{fid}.{kind}", c, lambda r, kind=kind: exposed("llama", kind)(r) * 1e-3, 2, "ms")
figure("training.70b.compute", "training.70b.nb.pp4", field("llama", "compute_us", 1e-3), 2, "ms")

# -- 21. ai-training-moe: RC against sprayed -------------------------------------------------
for transport in ("rc", "sprayed"):
    c = case(f"training.moe.{transport}", "ai-training-moe", nic__transport=transport)
    figure(f"training.moe.{transport}.iteration", c, field("moe", "mean_iteration_us", 1e-3), 2, "ms")
    for kind in ("tp", "dp", "ep"):
        figure(f"training.moe.{transport}.{kind}", c, lambda r, kind=kind: exposed("moe", kind)(r) * 1e-3, 2, "ms")
figure("training.moe.compute", "training.moe.rc", field("moe", "compute_us", 1e-3), 2, "ms")

# -- the flow engine runs the same plan ------------------------------------------------------
EX = case("training.example.packet", scenario=lambda: _example())
EX_F = case("training.example.flow", scenario=lambda: _example(), args=FLOW)
figure(
    "training.example.flow_err",
    (EX, EX_F),
    lambda p, f: 100 * abs(training("dense")(f)["mean_iteration_us"] / training("dense")(p)["mean_iteration_us"] - 1),
    3,
    "|error| %",
)


def _example() -> dict:
    import json

    from validation.figures.core import ROOT

    return json.loads((ROOT / "docs" / "examples" / "valid" / "training-3d-parallel.json").read_text())


# what the 2:1 fabric costs each plan (lab 10)
for plan in PLANS:
    figure(
        f"training.70b.cost.{plan}",
        (f"training.70b.nb.{plan}", f"training.70b.2to1.{plan}"),
        lambda nb, over: (
            100 * (training("llama")(over)["mean_iteration_us"] / training("llama")(nb)["mean_iteration_us"] - 1)
        ),
        1,
        "+ %",
    )
