"""How many threads a run simulates on (issue 19, `fabricsim run --threads N`).

- The range: 1 to MAX_RUN_THREADS (app/core/config.max_run_threads: the machine's cores unless
  configured).
- The scenarios the simulator runs on one thread only: `parallel_refusal` mirrors
  simcore/helper/partitioner.cc ParallelRefusal from the scenario document (the DCI accelerator;
  collectives and flows that wait for flows run on threads: a completion a sender learns through
  its ACK crosses partitions at a window's end, any other dependency's hosts share a partition). backend/tests/runs/test_threads_rules.py runs the real fabricsim on the examples to
  keep both in step.
- The default when a request names none (`auto_threads`): 1 for a refused scenario and for a
  fabric below 2 x HOSTS_PER_THREAD hosts, else min(maximum, hosts // HOSTS_PER_THREAD). A thread
  gets at least 64 hosts' worth of ports: below that the windows' barriers cost more than the
  partitions gain (docs/model.md, the parallel engine), and the simulator makes fewer partitions
  than threads on small fabrics anyway.
"""

from typing import Any

from pydantic import TypeAdapter, ValidationError

from app.scenarios import fabric_counts
from app.scenarios.topology import Topology

HOSTS_PER_THREAD = 64

# The simulator's words (partitioner.cc), after "--threads N: "; "--threads 1" becomes the
# API's field name.
DCI_ACCELERATOR = "the DCI accelerator runs on one thread: use threads 1"

_TOPOLOGY = TypeAdapter(Topology)


def parallel_refusal(document: dict[str, Any]) -> str:
    """Why the simulator refuses this scenario on more than one thread, or ""."""
    topology = document.get("topology") or {}
    if topology.get("kind") == "dci" and (topology.get("accelerator") or {}).get("enabled") is True:
        return DCI_ACCELERATOR
    return ""


def host_count(document: dict[str, Any]) -> int:
    """Hosts of the scenario's fabric after expansion (0 when the topology does not validate)."""
    raw = document.get("topology")
    if isinstance(raw, dict) and raw.get("kind") == "explicit":  # drawn: count, whatever its links
        return sum(isinstance(n, dict) and n.get("kind") == "host" for n in raw.get("nodes") or [])
    try:
        topo = _TOPOLOGY.validate_python(raw)
    except ValidationError:
        return 0
    return fabric_counts.count(topo.kind, "hosts", topo)


def auto_threads(document: dict[str, Any], maximum: int) -> int:
    """The threads of a run whose request names none (the rule in the module's docstring)."""
    if parallel_refusal(document):
        return 1
    return max(1, min(maximum, host_count(document) // HOSTS_PER_THREAD))


def range_message(maximum: int) -> str:
    """The allowed range, as the 422 states it."""
    return f"must be an integer from 1 to {maximum} (MAX_RUN_THREADS; absent: chosen from the fabric's size)"
