"""Topology part of the scenario: generators and explicit graphs, with their node ids."""

import json
from collections import defaultdict, deque
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, model_validator

from app.core import simulator
from app.core.validation import error_at, raise_errors
from app.scenarios import fabric_counts, limits

Rate = Annotated[float, Field(ge=limits.MIN_RATE_GBPS, le=limits.MAX_RATE_GBPS, description="Gbit/s")]
Delay = Annotated[float, Field(ge=0, le=limits.MAX_DELAY_US, description="microseconds")]
NodeId = Annotated[str, Field(pattern=limits.NODE_ID_PATTERN)]


class Strict(BaseModel):
    """Base of every scenario object: unknown fields are errors, and types are not coerced
    ("5" is not an integer, 1 is not a boolean), exactly as `fabricsim validate` reads them."""

    model_config = ConfigDict(extra="forbid", strict=True)


class LeafSpineSite(Strict):
    """Fields of a two-tier leaf-spine (also a DCI site)."""

    leaves: int = Field(2, ge=1, le=512)
    spines: int = Field(2, ge=1, le=256)
    hosts_per_leaf: int = Field(2, ge=1, le=512)
    host_rate_gbps: Rate = 100
    fabric_rate_gbps: Rate = 100
    link_delay_us: Delay = 1


class LeafSpine(LeafSpineSite):
    """Leaf-spine generator: hosts h{i}, leaf{i}, spine{j}."""

    kind: Literal["leaf_spine"]


class FatTree(Strict):
    """k-ary fat tree: h{i}, edge{p}_{i}, agg{p}_{i}, core{i}."""

    kind: Literal["fat_tree"]
    k: int = Field(4, ge=2, le=64, multiple_of=2)
    host_rate_gbps: Rate = 100
    fabric_rate_gbps: Rate = 100
    link_delay_us: Delay = 1


class ThreeTier(Strict):
    """Microsoft podsets: h{i}, tor{p}_{i}, leaf{p}_{j}, spine{s}."""

    kind: Literal["three_tier"]
    podsets: int = Field(2, ge=1, le=64)
    tors_per_podset: int = Field(4, ge=1, le=64)
    leafs_per_podset: int = Field(2, ge=1, le=16)
    spines: int = Field(4, ge=1, le=256)
    hosts_per_tor: int = Field(4, ge=1, le=128)
    host_rate_gbps: Rate = 100
    tor_uplink_gbps: Rate | None = Field(None, description="default: host_rate_gbps")
    leaf_uplink_gbps: Rate | None = Field(None, description="default: host_rate_gbps")
    link_delay_us: Delay = 1

    @model_validator(mode="after")
    def _spines_per_plane(self) -> "ThreeTier":
        """Spines split evenly into one plane per Leaf index."""
        if self.spines % self.leafs_per_podset:
            raise_errors("ThreeTier", [error_at(
                ("spines",),
                f"must be a multiple of leafs_per_podset ({self.leafs_per_podset})",
                self.spines)])
        return self


class RailOptimized(Strict):
    """Rail-optimized fabric of an AI cluster (NVIDIA DGX SuperPOD): scalable units of servers,
    one leaf per rail per unit (NIC r of every server of unit u on leaf{u}_{r}), every leaf
    linked to every spine. Hosts h{i} (one GPU's NIC; i = server x nics_per_server + rail)
    carry their server srv{s} and rail; leaf{u}_{r}, spine{j}."""

    kind: Literal["rail_optimized"]
    units: int = Field(2, ge=1, le=limits.RAIL_MAX_UNITS, description="scalable units")
    servers_per_unit: int = Field(4, ge=1, le=limits.RAIL_MAX_SERVERS_PER_UNIT)
    nics_per_server: int = Field(8, ge=1, le=limits.RAIL_MAX_NICS_PER_SERVER,
                                 description="one per GPU; the number of rails")
    spines: int = Field(4, ge=1, le=limits.RAIL_MAX_SPINES)
    host_rate_gbps: Rate = Field(400, description="Gbit/s, each NIC")
    fabric_rate_gbps: Rate = Field(400, description="Gbit/s, each leaf-spine link")
    link_delay_us: Delay = 1
    nvlink_gbps: float = Field(
        limits.RAIL_NVLINK_GBPS, ge=limits.MIN_RATE_GBPS, le=limits.MAX_NVLINK_GBPS,
        description="Gbit/s per GPU and direction inside a server: a documented cost, not a link")


class MultiPlane(Strict):
    """Multi-plane fabric (the 2025-2026 AI back-end designs: an 800G NIC split into planes):
    every NIC's port is split into `planes` ports of host_rate_gbps, port k on plane k, and each
    plane is its own rail-optimized leaf-spine (the rail_optimized fields, per plane). Hosts h{i}
    as rail_optimized (server srv{s}, rail); p{k}-leaf{u}_{r}, p{k}-spine{j}."""

    kind: Literal["multi_plane"]
    planes: int = Field(4, ge=1, le=limits.MAX_PLANES,
                        description="ports per NIC, each on its own plane (fabric)")
    units: int = Field(1, ge=1, le=limits.RAIL_MAX_UNITS, description="scalable units")
    servers_per_unit: int = Field(4, ge=1, le=limits.RAIL_MAX_SERVERS_PER_UNIT)
    nics_per_server: int = Field(2, ge=1, le=limits.RAIL_MAX_NICS_PER_SERVER,
                                 description="one per GPU; the number of rails")
    spines: int = Field(2, ge=1, le=limits.RAIL_MAX_SPINES, description="per plane")
    host_rate_gbps: Rate = Field(200, description="Gbit/s, each NIC port (one per plane)")
    fabric_rate_gbps: Rate = Field(200, description="Gbit/s, each leaf-spine link")
    link_delay_us: Delay = 1
    nvlink_gbps: float = Field(
        limits.RAIL_NVLINK_GBPS, ge=limits.MIN_RATE_GBPS, le=limits.MAX_NVLINK_GBPS,
        description="Gbit/s per GPU and direction inside a server: a documented cost, not a link")


class DciAccelerator(Strict):
    """The RDMA WAN accelerator at both site edges (a-dci, b-dci; NTT, seeds/002): pseudo-ACKs
    to the local sender, data held until the far end acknowledges it, resent over the long link."""

    enabled: StrictBool = False
    buffer_bytes: int = Field(256 * limits.MIB, ge=64 * limits.KIB, le=4 * limits.GIB,
                              description="data held per edge, all QPs together")
    retransmit_timeout_us: float | None = Field(
        None, ge=1, le=10_000_000,
        description="resend the held data when the far end acknowledged nothing for this long; "
        "default: 2 x the long-haul RTT + 100 us")


class Dci(Strict):
    """Two leaf-spine sites a and b joined by a long-haul link between a-dci and b-dci."""

    kind: Literal["dci"]
    site: LeafSpineSite = Field(default_factory=LeafSpineSite)
    length_km: float = Field(100, ge=1, le=20_000)
    dci_rate_gbps: Rate = 100
    dci_buffer_bytes: int = Field(
        64 * limits.MB, ge=64 * limits.KIB, le=limits.GB,
        description="the edges' buffer; absent: 64 MB, or the edge's PFC headroom + 12 MB when "
        "the long link needs more")
    accelerator: DciAccelerator = Field(default_factory=DciAccelerator)


class ExplicitNode(Strict):
    """A drawn node."""

    id: NodeId
    kind: Literal["host", "switch"]
    tier: int = Field(0, ge=0, le=4)
    server: NodeId | None = Field(
        None, description="hosts only: the server this NIC is in; its rail is its index among "
        "the server's hosts in node order")
    x: float | None = None
    y: float | None = None


class ExplicitLink(Strict):
    """A drawn link; exactly one of delay_us and length_km (5 us/km)."""

    a: NodeId
    b: NodeId
    rate_gbps: Rate
    delay_us: Delay | None = None
    length_km: float | None = Field(None, ge=0, le=limits.MAX_DELAY_US / limits.FIBRE_US_PER_KM)

    @model_validator(mode="after")
    def _one_delay(self) -> "ExplicitLink":
        """Exactly one of delay_us and length_km."""
        if (self.delay_us is None) == (self.length_km is None):
            raise_errors("ExplicitLink", [error_at(
                ("delay_us",), "give exactly one of delay_us and length_km", self.delay_us)])
        return self


class Explicit(Strict):
    """Nodes and links as drawn in the editor."""

    kind: Literal["explicit"]
    nodes: list[ExplicitNode] = Field(min_length=1, max_length=limits.MAX_NODES)
    links: list[ExplicitLink] = Field(default_factory=list, max_length=limits.MAX_LINKS)

    @model_validator(mode="after")
    def _graph(self) -> "Explicit":
        """Unique ids, links between existing different nodes, one link per host (or one per
        plane), connected."""
        raise_errors("Explicit", graph_errors(self))
        return self


Generated = LeafSpine | FatTree | ThreeTier | Dci | RailOptimized | MultiPlane
Topology = Annotated[Generated | Explicit, Field(discriminator="kind")]


def graph_errors(topo: Explicit) -> list:
    """Structural errors of an explicit topology, each at its JSON path."""
    errors, kinds = [], {}
    for i, node in enumerate(topo.nodes):
        if node.id in kinds:
            errors.append(error_at(("nodes", i, "id"), f"duplicate node id '{node.id}'", node.id))
        kinds[node.id] = node.kind
        if node.server is not None and node.kind != "host":
            errors.append(error_at(("nodes", i, "server"), "only a host (a NIC) belongs to a server",
                                   node.server))
    adjacency: dict[str, set[str]] = defaultdict(set)
    degree: dict[str, int] = defaultdict(int)
    for i, link in enumerate(topo.links):
        for end in ("a", "b"):
            if getattr(link, end) not in kinds:
                errors.append(error_at(("links", i, end), f"unknown node '{getattr(link, end)}'",
                                       getattr(link, end)))
        if link.a == link.b:
            errors.append(error_at(("links", i, "b"), "must differ from a", link.b))
        adjacency[link.a].add(link.b)
        adjacency[link.b].add(link.a)
        degree[link.a] += 1
        degree[link.b] += 1
    if errors:
        return errors
    errors += _host_link_errors(topo, kinds, degree)
    if not errors and not _connected(topo.nodes[0].id, adjacency, len(kinds)):
        errors.append(error_at((), "the topology must be connected", len(topo.links)))
    return errors


def _host_link_errors(topo: Explicit, kinds: dict[str, str], degree: dict[str, int]) -> list:
    """A host has exactly one link, or one link into each of several planes (a multi-plane NIC:
    a plane is a set of switches joined by switch-switch links), as `fabricsim validate` says."""
    plane = {n: n for n, kind in kinds.items() if kind == "switch"}

    def find(x: str) -> str:
        while plane[x] != x:
            plane[x] = plane[plane[x]]
            x = plane[x]
        return x

    for link in topo.links:
        if kinds[link.a] == "switch" and kinds[link.b] == "switch":
            plane[find(link.a)] = find(link.b)
    errors: list = []
    into: dict[str, dict[str, str]] = defaultdict(dict)  # host -> plane -> its switch there
    bad: set[str] = set()
    index = {node.id: i for i, node in enumerate(topo.nodes)}
    for link in topo.links:
        for host, other in ((link.a, link.b), (link.b, link.a)):
            if kinds[host] != "host" or degree[host] <= 1 or host in bad:
                continue
            where = ("nodes", index[host], "id")
            if kinds[other] == "host":
                msg = f"has {degree[host]} links: a host has one link, or one to a switch of each plane"
            elif find(other) in into[host]:
                msg = (f"has two links into one plane ('{into[host][find(other)]}' and '{other}' are "
                       "joined by switches): a host has one link, or one to a switch of each plane")
            else:
                into[host][find(other)] = other
                continue
            bad.add(host)
            errors.append(error_at(where, msg, host))
    for i, node in enumerate(topo.nodes):
        if node.kind == "host" and degree[node.id] == 0:
            errors.append(error_at(("nodes", i, "id"), "a host must have exactly one link (has 0)",
                                   node.id))
    return errors


def _connected(start: str, adjacency: dict[str, set[str]], count: int) -> bool:
    """Breadth-first search from `start` reaches all `count` nodes."""
    seen, queue = {start}, deque([start])
    while queue:
        for nxt in adjacency[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen) == count


def node_ids(topo: Generated | Explicit) -> tuple[list[str], list[str]]:
    """(host ids, switch ids) after expansion.

    A drawn topology lists its ids; a generator's are named by the simulator alone
    (`fabricsim expand`, simcore/scenario/topology-generators.cc), not derived again here.
    Raises simulator.SimulatorUnavailable when the binary cannot be run.
    """
    if isinstance(topo, Explicit):
        hosts = [n.id for n in topo.nodes if n.kind == "host"]
        return hosts, [n.id for n in topo.nodes if n.kind == "switch"]
    key = json.dumps(topo.model_dump(mode="json", exclude_none=True), sort_keys=True)
    hosts, switches = _expanded_ids(key)
    return list(hosts), list(switches)


@lru_cache(maxsize=256)
def _expanded_ids(topology_json: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Host and switch ids of a generated topology, from `fabricsim expand` (cached: a sweep's
    points mostly share their topology)."""
    expanded = simulator.expand({"schema_version": 1, "topology": json.loads(topology_json)})
    nodes = expanded["nodes"]
    return (tuple(n["id"] for n in nodes if n["kind"] == "host"),
            tuple(n["id"] for n in nodes if n["kind"] != "host"))


def counts(topo: Generated | Explicit) -> tuple[int, int]:
    """(nodes, links) after expansion, computed without building the graph (a generator's by
    its formulas, app/scenarios/fabric_counts.py)."""
    if isinstance(topo, Explicit):
        return len(topo.nodes), len(topo.links)
    return (fabric_counts.count(topo.kind, "nodes", topo),
            fabric_counts.count(topo.kind, "links", topo))
