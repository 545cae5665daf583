"""The training generator in the Pydantic models (the simulator's side is
simcore/test/scenario-training-plan-test.cc and model-training-run-test.cc): defaults, the public
model table, and bad input named by field (the products tp x pp x dp, Megatron-LM's divisibility,
algorithms that cannot split)."""

import pytest
from pydantic import ValidationError

from app.scenarios.document import Scenario
from app.scenarios.traffic import TRAINING_MODELS

RAIL = {"kind": "rail_optimized", "units": 2, "servers_per_unit": 2, "nics_per_server": 4, "spines": 2}
HOSTS = [f"h{i}" for i in range(16)]


def doc(*generators: dict) -> dict:
    return {"schema_version": 1, "duration_us": 1000, "topology": RAIL, "traffic": list(generators)}


def errors_of(document: dict) -> list[dict]:
    with pytest.raises(ValidationError) as info:
        Scenario.model_validate(document)
    return info.value.errors()


def test_training_defaults_and_named_models():
    s = Scenario.model_validate(doc({"kind": "training", "model": "llama3-8b", "servers": 2,
                                     "parallel": {"tp": 8, "dp": 2}}))
    gen = s.traffic[0]
    p = gen.parallel
    assert (p.pp, p.ep, p.micro_batches, p.micro_batch_size, p.bucket_bytes) == (1, 1, 1, 1, 100_000_000)
    assert (p.distributed_optimizer, p.sequence_parallel, p.overlap_grad_reduce) == (False, False, False)
    assert (gen.gpu.tflops, gen.gpu.mfu, gen.precision, gen.iterations) == (989.0, 0.4, "bf16", 1)
    assert (gen.tp_algorithm, gen.dp_algorithm, gen.compute_us_per_layer) == ("ring", "ring", None)
    # Llama 3 70B (Dubey et al. 2024, Table 3): 80 layers, 8192 wide, FFN 28672, 64 heads
    assert {k: TRAINING_MODELS["llama3-70b"][k] for k in ("layers", "hidden", "ffn_hidden", "heads")} == \
        {"layers": 80, "hidden": 8192, "ffn_hidden": 28672, "heads": 64}
    assert (TRAINING_MODELS["mixtral-8x7b"]["experts"], TRAINING_MODELS["mixtral-8x7b"]["top_k"]) == (8, 2)


@pytest.mark.parametrize(("generator", "loc", "message"), [
    ({"hosts": HOSTS[:8], "parallel": {"tp": 8, "pp": 4, "dp": 32}}, ("parallel",),
     "tp x pp x dp = 8 x 4 x 32 = 1024, but the job has 8 ranks"),
    ({"model": {"layers": 3, "hidden": 64, "heads": 4, "seq_len": 8, "vocab": 10}, "parallel": {"pp": 2}},
     ("parallel", "pp"), "must divide the model's layers (3)"),
    ({"parallel": {"tp": 3}}, ("parallel", "tp"), "heads (32)"),
    ({"parallel": {"dp": 4, "ep": 3}}, ("parallel", "ep"), "must divide dp (4)"),
    ({"parallel": {"dp": 4, "ep": 4}}, ("parallel", "ep"), "experts (1)"),
    ({"model": {"layers": 2, "hidden": 64, "heads": 4, "seq_len": 8, "vocab": 10, "experts": 2, "top_k": 3}},
     ("top_k",), "must be <= experts (2)"),
    ({"parallel": {"tp": 2, "sequence_parallel": True}, "tp_algorithm": "tree"}, ("tp_algorithm",),
     "reduce_scatter"),
    ({"hosts": ["h0", "h0"]}, ("hosts", 1), "a rank twice"),
    ({"qps": 2}, ("qps",), "channels"),
    ({"compute_us_per_layer": 0}, ("compute_us_per_layer",), "greater than 0"),
    ({"parallel": {"micro_batches": 0}}, ("parallel", "micro_batches"), "greater than or equal to 1"),
])
def test_training_bad_input_names_the_field(generator, loc, message):
    gen = {"kind": "training", "model": "llama3-8b", "servers": 1, **generator}
    if "hosts" in gen:
        del gen["servers"]
    errors = errors_of(doc(gen))
    assert any(tuple(str(p) for p in e["loc"][-len(loc):]) == tuple(str(p) for p in loc) and message in e["msg"]
               for e in errors), errors


def test_training_model_name_unknown():
    errors = errors_of(doc({"kind": "training", "model": "llama3-9b", "servers": 1}))
    assert any("model" in e["loc"] and "llama3-8b" in str(e) for e in errors), errors
