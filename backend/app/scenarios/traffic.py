"""Traffic generators and monitoring options."""

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic import Strict as PydStrict

from app.core.validation import error_at, raise_errors
from app.scenarios import limits
from app.scenarios.topology import NodeId, Strict

Size = Annotated[int, Field(ge=0, le=limits.MAX_SIZE_BYTES, description="bytes; 0 = long-lived")]
PortName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.:-]{1,64}->[A-Za-z0-9_.:-]{1,64}$")]


class Generator(Strict):
    """Fields common to every traffic generator."""

    name: str = Field("", max_length=200)
    priority: int | None = Field(None, ge=0, le=6, description="default: switch.data_priority")
    start_us: float = Field(0, ge=0, description="must be < duration_us")
    qps: int = Field(1, ge=1, le=1024)


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
        None, min_length=1, max_length=1000, description="[[size_bytes, cumulative_percent], ...]")
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
    priority: int | None = Field(None, ge=0, le=6, description="default: the generator's priority")
    udp_src_port: int | None = Field(None, ge=1, le=65535,
                                     description="ECMP entropy; default: 49152 + flow index mod 16384")


class FlowList(Strict):
    """An explicit list of flows (imported from another simulator's flow file or a CSV)."""

    kind: Literal["flows"]
    name: str = Field("", max_length=200)
    priority: int | None = Field(None, ge=0, le=6, description="default: switch.data_priority")
    start_us: float = Field(0, ge=0, description="offset added to every flow's start_us")
    flows: list[ListedFlow] = Field(min_length=1, max_length=limits.MAX_FLOW_LIST)

    @model_validator(mode="after")
    def _distinct(self) -> "FlowList":
        """Each flow's two ends differ."""
        raise_errors("FlowList", [error_at(("flows", i, "dst"), "must differ from src", f.dst)
                                  for i, f in enumerate(self.flows) if f.src == f.dst][:20])
        return self


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
    | InterPodPermutation,
    Field(discriminator="kind"),
]


class Monitor(Strict):
    """What to sample during a run."""

    sample_interval_us: float = Field(10, ge=0.1, le=limits.MAX_DURATION_US)
    queues: Literal["auto"] | Annotated[list[PortName], Field(max_length=limits.MAX_MONITOR_ENTRIES)] = "auto"
    flows: Literal["auto", "all"] | Annotated[
        list[Annotated[int, Field(ge=0, le=2**32 - 1)]], Field(max_length=limits.MAX_MONITOR_ENTRIES)] = "auto"
    ports: Literal["auto"] | Annotated[list[PortName], Field(max_length=limits.MAX_MONITOR_ENTRIES)] = "auto"
