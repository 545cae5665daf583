"""Traffic generators and monitoring options."""

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic import Strict as PydStrict

from app.core.validation import error_at, raise_errors
from app.scenarios import limits
from app.scenarios.topology import NodeId, Strict

Size = Annotated[int, Field(ge=0, le=limits.MAX_SIZE_BYTES, description="bytes; 0 = long-lived")]
_NODE_ID = limits.NODE_ID_PATTERN[1:-1]  # the pattern without its anchors
PortName = Annotated[str, Field(pattern=rf"^{_NODE_ID}->{_NODE_ID}$")]


class Generator(Strict):
    """Fields common to every traffic generator."""

    name: str = Field("", max_length=limits.MAX_NAME_CHARS)
    priority: int | None = Field(None, ge=0, le=limits.MAX_DATA_PRIORITY, description="default: switch.data_priority")
    start_us: float = Field(0, ge=0, description="must be < duration_us")
    qps: int = Field(1, ge=1, le=limits.MAX_QPS)


class Incast(Generator):
    """N senders to one receiver."""

    kind: Literal["incast"]
    senders: list[NodeId] = Field(min_length=1)
    receiver: NodeId
    size_bytes: Size = 0

    @model_validator(mode="after")
    def _receiver_not_sender(self) -> "Incast":
        """The receiver cannot also send."""
        if self.receiver in self.senders:
            raise_errors("Incast", [error_at(
                ("receiver",), f"must not be one of the senders ('{self.receiver}')",
                self.receiver)])
        return self


# JSON has no tuples: a pair arrives as a two-element list, so tuples accept lists (their items
# stay strict).
LaxTuple = PydStrict(False)


class Pairs(Generator):
    """Host pairs, or every host under one ToR to the same-index host under another."""

    kind: Literal["pairs"]
    # JSON has no tuples: a pair arrives as a two-element list (lax for this field only).
    pairs: list[Annotated[tuple[NodeId, NodeId], LaxTuple]] | None = None
    tor_pairs: list[Annotated[tuple[NodeId, NodeId], LaxTuple]] | None = None
    size_bytes: Size = 0

    @model_validator(mode="after")
    def _one_list(self) -> "Pairs":
        """Exactly one of pairs and tor_pairs; the two ends of a pair differ."""
        if (self.pairs is None) == (self.tor_pairs is None):
            raise_errors("Pairs", [error_at((), "give exactly one of pairs and tor_pairs", None)])
        field = "pairs" if self.pairs is not None else "tor_pairs"
        items = self.pairs if self.pairs is not None else self.tor_pairs
        if not items:
            raise_errors("Pairs", [error_at((field,), "needs at least 1 item", items)])
        raise_errors("Pairs", [error_at((field, i, 1), "must differ from the source", b)
                               for i, (a, b) in enumerate(items) if a == b])
        return self


class Permutation(Generator):
    """A random derangement over the hosts (from the seed)."""

    kind: Literal["permutation"]
    hosts: list[NodeId] | None = Field(None, min_length=2)
    size_bytes: Size = 0


class Stride(Generator):
    """Al-Fares et al. (SIGCOMM 2008) stride: host i of the list sends to host (i + stride) mod N."""

    kind: Literal["stride"]
    hosts: list[NodeId] | None = Field(None, min_length=2, description="default: every host")
    stride: int = Field(ge=1, le=limits.MAX_NODES, description="1 .. number of hosts - 1")
    size_bytes: Size = 0


class InterPodPermutation(Generator):
    """A random permutation in which no host sends inside its own pod (Al-Fares et al.)."""

    kind: Literal["inter_pod_permutation"]
    hosts: list[NodeId] | None = Field(None, min_length=2, description="default: every host")
    size_bytes: Size = 0


class AllToAll(Generator):
    """Every host to every other host."""

    kind: Literal["all_to_all"]
    hosts: list[NodeId] | None = Field(None, min_length=2, max_length=limits.MAX_ALL_TO_ALL_HOSTS)
    size_bytes: Size = 0


class Perftest(Generator):
    """ib_write_bw-like message stream from src to dst."""

    kind: Literal["perftest"]
    src: NodeId
    dst: NodeId
    message_bytes: int | None = Field(None, ge=1, le=2**31, description="default: nic.message_bytes")
    tx_depth: int | None = Field(None, ge=1, le=65536, description="default: nic.qp_depth")
    iterations: int = Field(0, ge=0, le=10**9, description="0 = until the end of the run")

    @model_validator(mode="after")
    def _distinct(self) -> "Perftest":
        """src and dst differ."""
        if self.src == self.dst:
            raise_errors("Perftest", [error_at(("dst",), "must differ from src", self.dst)])
        return self


class Workload(Generator):
    """Flow sizes from a distribution at a target load, Poisson arrivals."""

    kind: Literal["workload"]
    distribution: Literal["websearch", "fb_hadoop", "alistorage", "custom"]
    cdf: list[Annotated[tuple[Annotated[int, Field(ge=1, le=limits.MAX_SIZE_BYTES, strict=True)],
                              Annotated[float, Field(ge=0, le=100, strict=True)]], LaxTuple]] | None = Field(
        None, min_length=1, max_length=limits.MAX_CDF_POINTS, description="[[size_bytes, cumulative_percent], ...]")
    load: float = Field(0.3, gt=0, le=1)
    hosts: list[NodeId] | None = Field(None, min_length=2)
    stop_us: float | None = Field(None, gt=0, description="default: duration_us")

    @model_validator(mode="after")
    def _cdf(self) -> "Workload":
        """A custom distribution needs an increasing CDF ending at 100 %."""
        errors = []
        if self.distribution == "custom":
            if not self.cdf:
                errors.append(error_at(("cdf",), 'field required with distribution "custom"', None))
            else:
                errors += _cdf_errors(self.cdf)
        elif self.cdf is not None:
            errors.append(error_at(("cdf",), 'only allowed with distribution "custom"', None))
        raise_errors("Workload", errors)
        return self


class Pingmesh(Generator):
    """Small probes between hosts at an interval (RTT percentiles)."""

    kind: Literal["pingmesh"]
    hosts: list[NodeId] | None = Field(None, min_length=2)
    interval_us: float = Field(100, ge=limits.MIN_PROBE_INTERVAL_US, le=limits.MAX_DURATION_US)
    probe_bytes: int = Field(512, ge=1, le=65536)
    scope: Literal["all", "tor", "podset", "fabric"] = Field(
        "all", description="peers probed: all, under the same ToR, in the same podset (other "
                           "ToRs), or in other podsets")


class ListedFlow(Strict):
    """One flow of an explicit list."""

    src: NodeId
    dst: NodeId
    size_bytes: Size
    start_us: float = Field(ge=0, description="plus the generator's start_us; must be < duration_us")
    priority: int | None = Field(None, ge=0, le=limits.MAX_DATA_PRIORITY, description="default: the generator's priority")
    udp_src_port: int | None = Field(None, ge=1, le=65535,
                                     description="ECMP entropy; default: 49152 + flow index mod 16384")
    after: list[Annotated[int, Field(ge=0, le=limits.MAX_FLOW_LIST - 1)]] = Field(
        [], max_length=limits.MAX_FLOW_AFTER,
        description="indices in this list of the flows this one waits for: it starts when its "
        "sender knows they completed (at once for a flow into the sender's host, when the last ACK "
        "is back for a flow the sender sent), plus gap_us (and not before its own start_us)")
    gap_us: float = Field(0, ge=0, le=limits.MAX_DURATION_US, description="us after the last of `after`")


class FlowList(Strict):
    """An explicit list of flows (imported from another simulator's flow file or a CSV)."""

    kind: Literal["flows"]
    name: str = Field("", max_length=limits.MAX_NAME_CHARS)
    priority: int | None = Field(None, ge=0, le=limits.MAX_DATA_PRIORITY, description="default: switch.data_priority")
    start_us: float = Field(0, ge=0, description="offset added to every flow's start_us")
    flows: list[ListedFlow] = Field(min_length=1, max_length=limits.MAX_FLOW_LIST)

    @model_validator(mode="after")
    def _distinct(self) -> "FlowList":
        """Each flow's two ends differ."""
        raise_errors("FlowList", [error_at(("flows", i, "dst"), "must differ from src", f.dst)
                                  for i, f in enumerate(self.flows) if f.src == f.dst][:20])
        n = len(self.flows)
        raise_errors("FlowList", [error_at(("flows", i, "after", k), f"must name another flow of this list (0 .. {n - 1})", a)
                                  for i, f in enumerate(self.flows) for k, a in enumerate(f.after)
                                  if a >= n or a == i][:20])
        cycle = _first_cycle([f.after for f in self.flows])
        if cycle is not None:
            raise_errors("FlowList", [error_at(("flows", cycle, "after"), "is part of a dependency cycle "
                                               f"(flow {cycle} waits, through `after`, for itself)", None)])
        return self


def _first_cycle(after: list[list[int]]) -> int | None:
    """The lowest flow index on a cycle of `after`, or None (Kahn's algorithm)."""
    n = len(after)
    waiting = [len(set(a)) for a in after]
    dependents: list[list[int]] = [[] for _ in range(n)]
    for i, a in enumerate(after):
        for d in set(a):
            dependents[d].append(i)
    ready = [i for i in range(n) if waiting[i] == 0]
    while ready:
        i = ready.pop()
        for j in dependents[i]:
            waiting[j] -= 1
            if waiting[j] == 0:
                ready.append(j)
    left = [i for i in range(n) if waiting[i] > 0]
    if not left:
        return None
    # a node left over may only wait on a cycle: walk back to one
    seen: set[int] = set()
    i = left[0]
    while i not in seen:
        seen.add(i)
        i = next(d for d in after[i] if waiting[d] > 0)
    return min(_cycle_from(i, after, waiting))


def _cycle_from(start: int, after: list[list[int]], waiting: list[int]) -> list[int]:
    out, i = [start], next(d for d in after[start] if waiting[d] > 0)
    while i != start:
        out.append(i)
        i = next(d for d in after[i] if waiting[d] > 0)
    return out


COLLECTIVE_ALGORITHMS = {
    "all_reduce": ("ring", "tree", "halving_doubling", "hierarchical"),
    "all_gather": ("ring", "halving_doubling"),
    "reduce_scatter": ("ring", "halving_doubling"),
    "all_to_all": ("direct",),
    "broadcast": ("ring", "tree"),
}
# The ops, and every algorithm in the order the table first names it: the enumerations of
# Collective.op and Collective.algorithm (the simulator reads the table, kCollectiveOps).
COLLECTIVE_OPS = tuple(COLLECTIVE_ALGORITHMS)
ALGORITHMS = tuple(dict.fromkeys(a for algs in COLLECTIVE_ALGORITHMS.values() for a in algs))

# The fields a placed job shares (the collective and the training generators): declared once
# here, each generator adding its description where it reads differently.
JobServers = Annotated[int | None, Field(
    ge=1, le=limits.MAX_NODES, description="how many servers placement gives the job (all their NICs are ranks)")]
JobPlacement = Annotated[Literal["packed", "spread", "random"], Field(
    description="with servers: the first free servers, free servers spread across "
    "leaves or units, or free servers drawn from the seed")]
JobChannels = Annotated[int, Field(ge=1, le=limits.MAX_COLLECTIVE_CHANNELS)]
JobChunkBytes = Annotated[int, Field(ge=0, le=limits.MAX_SIZE_BYTES)]
JobName = Annotated[str, Field(
    max_length=limits.MAX_JOB_NAME,
    description="the job's name in results; default: the generator's name, else job{index}")]
JobNvlinkGbps = Annotated[float | None, Field(
    ge=limits.MIN_RATE_GBPS, le=limits.MAX_NVLINK_GBPS,
    description="Gbit/s per GPU and direction inside a server; default: topology.nvlink_gbps, else 3600")]
AllReduceAlgorithm = Literal[COLLECTIVE_ALGORITHMS["all_reduce"]]  # type: ignore[valid-type]


class Collective(Generator):
    """A collective operation (NCCL's definitions) over ranks: its steps as flows that wait for
    the flows bringing their data; between two GPUs of one server a step is an NVLink transfer."""

    kind: Literal["collective"]
    op: Literal[COLLECTIVE_OPS]  # type: ignore[valid-type]
    algorithm: Literal[ALGORITHMS] | None = Field(  # type: ignore[valid-type]
        None, description="; ".join(f"{op}: {', '.join(algs)}" for op, algs in COLLECTIVE_ALGORITHMS.items())
        + ". Unset: the op's first")
    hosts: list[NodeId] | None = Field(
        None, min_length=2, max_length=limits.MAX_COLLECTIVE_RANKS,
        description="the ranks in rank order; default: the servers placement picks, else every host")
    servers: JobServers = None
    placement: JobPlacement = "packed"
    message_bytes: int = Field(ge=1, le=limits.MAX_SIZE_BYTES, description="NCCL-tests' size of the op, bytes")
    channels: JobChannels = Field(1, description="parallel rings or trees, each its own QPs and 1/channels of the data")
    chunk_bytes: JobChunkBytes = Field(0, description="pipelining unit; 0: ring steps whole, tree and broadcast 1 MiB")
    iterations: int = Field(1, ge=1, le=limits.MAX_COLLECTIVE_ITERATIONS)
    compute_us: float = Field(0, ge=0, le=limits.MAX_DURATION_US,
                              description="between a rank's iterations")
    job: JobName = ""
    nvlink_gbps: JobNvlinkGbps = None

    @model_validator(mode="after")
    def _consistent(self) -> "Collective":
        """The algorithm runs the op; ranks distinct; hosts or servers; one QP per step."""
        errors = []
        allowed = COLLECTIVE_ALGORITHMS[self.op]
        if self.algorithm is not None and self.algorithm not in allowed:
            errors.append(error_at(("algorithm",), f"'{self.algorithm}' does not run {self.op} "
                                   f"(allowed for {self.op}: {', '.join(allowed)})", self.algorithm))
        if self.hosts is not None:
            seen: set[str] = set()
            for i, h in enumerate(self.hosts):
                if h in seen:
                    errors.append(error_at(("hosts", i), f"'{h}' is a rank twice", h))
                seen.add(h)
            if self.servers is not None:
                errors.append(error_at(("servers",), "give hosts or servers, not both", self.servers))
        if self.qps != 1:
            errors.append(error_at(("qps",), "must be 1 for a collective (channels sets its parallel QPs)", self.qps))
        raise_errors("Collective", errors[:20])
        return self


# Public models the training generator knows by name. Dimensions from the papers and model cards
# cited in docs/model.md ("Training iterations"): Llama 3 (Dubey et al. 2024, Table 3; vocabulary
# from the released config), GPT-3 (Brown et al. 2020, Table 2.1; GPT-2's BPE vocabulary), Mixtral
# (Jiang et al. 2024, Table 1). `gated`: a SwiGLU MLP of three matrices instead of two.
TRAINING_MODELS: dict[str, dict[str, int | bool]] = {
    "llama3-8b": {"layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32, "seq_len": 8192,
                  "vocab": 128256, "experts": 1, "top_k": 1, "gated": True},
    "llama3-70b": {"layers": 80, "hidden": 8192, "ffn_hidden": 28672, "heads": 64, "seq_len": 8192,
                   "vocab": 128256, "experts": 1, "top_k": 1, "gated": True},
    "gpt3-175b": {"layers": 96, "hidden": 12288, "ffn_hidden": 49152, "heads": 96, "seq_len": 2048,
                  "vocab": 50257, "experts": 1, "top_k": 1, "gated": False},
    "mixtral-8x7b": {"layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32, "seq_len": 32768,
                     "vocab": 32000, "experts": 8, "top_k": 2, "gated": True},
}

# Bytes per element of activations, gradients and parameters on the wire.
TRAINING_PRECISION_BYTES = {"bf16": 2, "fp16": 2, "fp8": 1, "fp32": 4}


class TrainingModel(Strict):
    """A transformer's dimensions (decoder-only; MoE when experts > 1)."""

    layers: int = Field(ge=1, le=1000)
    hidden: int = Field(ge=1, le=1_000_000, description="model dimension h")
    ffn_hidden: int | None = Field(None, ge=1, le=4_000_000, description="MLP inner dimension; default 4 x hidden")
    heads: int = Field(ge=1, le=10_000)
    seq_len: int = Field(ge=1, le=10_000_000, description="tokens per sequence")
    vocab: int = Field(ge=1, le=10_000_000)
    experts: int = Field(1, ge=1, le=4096, description="MLP experts per layer (1: dense)")
    top_k: int = Field(1, ge=1, le=4096, description="experts per token")
    gated: bool = Field(False, description="SwiGLU MLP: three matrices instead of two")

    @model_validator(mode="after")
    def _experts(self) -> "TrainingModel":
        """top_k experts among experts."""
        if self.top_k > self.experts:
            raise_errors("TrainingModel", [error_at(("top_k",), f"must be <= experts ({self.experts})", self.top_k)])
        return self


class TrainingParallel(Strict):
    """A Megatron-LM parallelism plan (ranks = tp x pp x dp)."""

    tp: int = Field(1, ge=1, le=limits.MAX_TRAINING_PARALLEL, description="tensor parallel")
    pp: int = Field(1, ge=1, le=limits.MAX_TRAINING_PARALLEL, description="pipeline stages")
    dp: int = Field(1, ge=1, le=limits.MAX_TRAINING_PARALLEL, description="data parallel")
    ep: int = Field(1, ge=1, le=limits.MAX_TRAINING_PARALLEL,
                    description="expert parallel: DP ranks the experts are spread over (divides dp)")
    micro_batches: int = Field(1, ge=1, le=100_000, description="per iteration, per DP rank")
    micro_batch_size: int = Field(1, ge=1, le=100_000, description="sequences per micro-batch")
    distributed_optimizer: bool = Field(
        False, description="DP gradients by reduce-scatter and parameters by all-gather, not one all-reduce")
    sequence_parallel: bool = Field(
        False, description="TP all-reduces as reduce-scatter + all-gather")
    overlap_grad_reduce: bool = Field(
        False, description="DP buckets start during the last micro-batch's backward pass")
    bucket_bytes: int = Field(100_000_000, ge=1, le=limits.MAX_SIZE_BYTES,
                              description="DP gradient bucket, bytes")


class TrainingGpu(Strict):
    """A GPU's compute rate for the FLOP count."""

    tflops: float = Field(989.0, gt=0, le=100_000,
                          description="dense peak at the precision, TFLOP/s (H100 SXM bf16: 989)")
    mfu: float = Field(0.4, gt=0, le=1, description="model FLOPs utilisation")


TP_ALGORITHMS = ("ring", "tree", "halving_doubling", "hierarchical")


class Training(Generator):
    """One or more training iterations of a model under a parallelism plan: per layer compute and
    TP collectives, PP sends in a 1F1B schedule, EP all-to-alls, DP gradient buckets."""

    kind: Literal["training"]
    hosts: list[NodeId] | None = Field(
        None, min_length=1, max_length=limits.MAX_COLLECTIVE_RANKS,
        description="the ranks in rank order; default: the servers placement picks, else every host")
    servers: JobServers = None
    placement: JobPlacement = "packed"
    model: Literal[tuple(TRAINING_MODELS)] | TrainingModel = Field(  # type: ignore[valid-type]
        description="a public model by name, or its dimensions")
    parallel: TrainingParallel = Field(default_factory=TrainingParallel)
    gpu: TrainingGpu = Field(default_factory=TrainingGpu)
    compute_us_per_layer: float | None = Field(
        None, gt=0, le=limits.MAX_DURATION_US,
        description="forward time of one layer for one micro-batch (backward: 2x); "
        "default: from the FLOP count and gpu")
    precision: Literal["bf16", "fp16", "fp8", "fp32"] = Field("bf16", description="bytes per element: 2, 2, 1, 4")
    iterations: int = Field(1, ge=1, le=limits.MAX_TRAINING_ITERATIONS)
    tp_algorithm: AllReduceAlgorithm = Field(
        "ring", description="TP all-reduce (with sequence_parallel: ring or halving_doubling)")
    dp_algorithm: AllReduceAlgorithm = Field(
        "ring", description="DP all-reduce (with distributed_optimizer: ring or halving_doubling)")
    channels: JobChannels = Field(1, description="parallel rings or trees of every collective, each its own QPs")
    chunk_bytes: JobChunkBytes = Field(0, description="pipelining unit; 0: ring steps whole, tree 1 MiB")
    job: JobName = ""
    nvlink_gbps: JobNvlinkGbps = None

    @model_validator(mode="after")
    def _consistent(self) -> "Training":
        """The plan's products, divisibility and algorithms; ranks distinct; hosts or servers."""
        errors = []
        p = self.parallel
        m = TrainingModel(**TRAINING_MODELS[self.model]) if isinstance(self.model, str) else self.model
        if self.hosts is not None:
            seen: set[str] = set()
            for i, h in enumerate(self.hosts):
                if h in seen:
                    errors.append(error_at(("hosts", i), f"'{h}' is a rank twice", h))
                seen.add(h)
            if self.servers is not None:
                errors.append(error_at(("servers",), "give hosts or servers, not both", self.servers))
            if len(self.hosts) != p.tp * p.pp * p.dp:
                errors.append(error_at(("parallel",), f"tp x pp x dp = {p.tp} x {p.pp} x {p.dp} = "
                                       f"{p.tp * p.pp * p.dp}, but the job has {len(self.hosts)} ranks", None))
        errors += training_plan_errors(m, p)
        for field, alg, split in (("tp_algorithm", self.tp_algorithm, p.sequence_parallel),
                                  ("dp_algorithm", self.dp_algorithm, p.distributed_optimizer)):
            if split and alg not in COLLECTIVE_ALGORITHMS["reduce_scatter"]:
                errors.append(error_at((field,), f"'{alg}' does not run reduce_scatter and all_gather "
                                       f"(allowed: {', '.join(COLLECTIVE_ALGORITHMS['reduce_scatter'])})", alg))
        if self.qps != 1:
            errors.append(error_at(("qps",), "must be 1 for a training job (channels sets its parallel QPs)", self.qps))
        raise_errors("Training", errors[:20])
        return self


def training_plan_errors(m: TrainingModel, p: TrainingParallel) -> list:
    """What Megatron-LM refuses: layers split evenly over stages, heads over TP, experts over EP."""
    errors = []
    if m.layers % p.pp:
        errors.append(error_at(("parallel", "pp"), f"must divide the model's layers ({m.layers})", p.pp))
    if m.heads % p.tp:
        errors.append(error_at(("parallel", "tp"), f"must divide the model's heads ({m.heads})", p.tp))
    if p.dp % p.ep:
        errors.append(error_at(("parallel", "ep"), f"must divide dp ({p.dp})", p.ep))
    elif p.ep > 1 and m.experts % p.ep:
        errors.append(error_at(("parallel", "ep"), f"must divide the model's experts ({m.experts})", p.ep))
    return errors


def _cdf_errors(cdf: list[tuple[int, float]]) -> list:
    """Sizes strictly increasing, percents not decreasing, ending at 100."""
    for i in range(1, len(cdf)):
        if cdf[i][0] <= cdf[i - 1][0]:
            return [error_at(("cdf", i, 0), "sizes must be strictly increasing", cdf[i][0])]
        if cdf[i][1] < cdf[i - 1][1]:
            return [error_at(("cdf", i, 1), "percents must not decrease", cdf[i][1])]
    if cdf[-1][1] != 100:
        return [error_at(("cdf", len(cdf) - 1, 1), "the last percent must be 100", cdf[-1][1])]
    return []


TrafficGenerator = Annotated[
    Incast | Pairs | Permutation | AllToAll | Perftest | Workload | Pingmesh | FlowList | Stride
    | InterPodPermutation | Collective | Training,
    Field(discriminator="kind"),
]


class Monitor(Strict):
    """What to sample during a run."""

    sample_interval_us: float = Field(10, ge=0.1, le=limits.MAX_DURATION_US)
    queues: Literal["auto"] | Annotated[list[PortName], Field(max_length=limits.MAX_MONITOR_ENTRIES)] = "auto"
    flows: Literal["auto", "all"] | Annotated[
        list[Annotated[int, Field(ge=0, le=limits.MAX_FLOW_ID)]], Field(max_length=limits.MAX_MONITOR_ENTRIES)] = "auto"
    ports: Literal["auto"] | Annotated[list[PortName], Field(max_length=limits.MAX_MONITOR_ENTRIES)] = "auto"
