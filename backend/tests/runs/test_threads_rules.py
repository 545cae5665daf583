"""The threads of a run (issue 19), without services: the API's mirror of the simulator's refusal
(app/runs/threads.py) kept in step with the real fabricsim, the default, the slots."""

import copy
import fcntl
import json
import subprocess
import threading
from pathlib import Path

import pytest

from app.core.config import REPO_ROOT, get_settings
from app.runs import threads as rules
from workers import slots
from workers.simprocess import command
from tests.support import wait_until

EXAMPLES = sorted((REPO_ROOT / "docs" / "examples" / "valid").glob("*.json"))


def _variants() -> list[tuple[str, dict]]:
    """Every valid example, and the examples' refused features switched off (which must run)."""
    out = [(path.stem, json.loads(path.read_text())) for path in EXAMPLES]
    for name, document in list(out):
        if name == "dci-accelerator-bdp":
            plain = copy.deepcopy(document)
            plain["topology"]["accelerator"]["enabled"] = False
            out.append(("dci-accelerator-off", plain))
    return out


@pytest.mark.parametrize("name,document", _variants(), ids=[n for n, _ in _variants()])
def test_refusal_mirrors_the_simulator(name, document, tmp_path):
    """`fabricsim run --threads 2` refuses exactly the scenarios parallel_refusal names, with the
    same words (the simulator's `--threads 1` is the API's `threads 1`)."""
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps(document))
    # A refusal comes before the network is built; an accepted run stops at the event limit
    # (exit 3), or ends (exit 0) when it has fewer events.
    argv = [*command(get_settings().FABRICSIM_BIN, tmp_path, 120, 4096, threads=2),
            "--max-events", "20000"]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    expected = rules.parallel_refusal(document)
    if expected:
        assert proc.returncode == 2, proc.stderr
        said = proc.stderr.strip().splitlines()[0]
        assert said.startswith("--threads 2: " + expected.replace("use threads 1", "use --threads 1"))
    else:
        assert proc.returncode in (0, 3), f"{name}: {proc.stderr}"


def test_refused_scenarios_named():
    # Collectives and flows that wait for flows run on threads (issue 19).
    assert rules.parallel_refusal({"traffic": [{"kind": "collective"}]}) == ""
    assert rules.parallel_refusal({"traffic": [{"kind": "flows", "flows": [{"after": [0]}]}]}) == ""
    dci = {"topology": {"kind": "dci", "accelerator": {"enabled": True}}}
    assert rules.parallel_refusal(dci) == rules.DCI_ACCELERATOR
    assert rules.parallel_refusal({"topology": {"kind": "dci"}, "traffic": []}) == ""


@pytest.mark.parametrize("topology,hosts", [
    ({"kind": "fat_tree", "k": 4}, 16), ({"kind": "fat_tree", "k": 16}, 1024),
    ({"kind": "leaf_spine", "leaves": 8, "hosts_per_leaf": 16}, 128),
    ({"kind": "dci", "site": {"leaves": 2, "hosts_per_leaf": 40}}, 160),
    ({"kind": "three_tier", "podsets": 2, "tors_per_podset": 4, "hosts_per_tor": 8}, 64),
    ({"kind": "rail_optimized", "units": 2, "servers_per_unit": 4, "nics_per_server": 8}, 64),
    ({"kind": "multi_plane", "planes": 4, "units": 2, "servers_per_unit": 8, "nics_per_server": 2},
     32),
    ({"kind": "explicit", "nodes": [{"id": "a", "kind": "host"}, {"id": "s", "kind": "switch"}]}, 1),
    ({"kind": "nonsense"}, 0),
])
def test_host_count(topology, hosts):
    assert rules.host_count({"topology": topology}) == hosts


def test_default_threads_from_the_fabric_size():
    """1 below 128 hosts, then hosts / 64 up to the maximum; 1 for a refused scenario."""
    def fat_tree(k, **extra):
        return {"topology": {"kind": "fat_tree", "k": k}, **extra}

    assert rules.auto_threads(fat_tree(4), 16) == 1      # 16 hosts
    assert rules.auto_threads(fat_tree(8), 16) == 2      # 128 hosts
    assert rules.auto_threads(fat_tree(16), 16) == 16    # 1,024 hosts
    assert rules.auto_threads(fat_tree(16), 6) == 6      # capped by the maximum
    assert rules.auto_threads(fat_tree(16, traffic=[{"kind": "collective"}]), 16) == 16
    dci = {"topology": {"kind": "dci", "site": {"leaves": 64, "hosts_per_leaf": 64},
                        "accelerator": {"enabled": True}}}
    assert rules.auto_threads(dci, 16) == 1               # refused: one thread


def test_run_command_passes_threads_and_engine(tmp_path):
    argv = command(Path("/bin/fabricsim"), tmp_path, 60, 512, threads=3)
    assert argv[-4:] == ["--threads", "3", "--engine", "packet"]
    assert command(Path("/bin/fabricsim"), tmp_path, 60, 512)[-4:-2] == ["--threads", "1"]
    assert command(Path("/bin/fabricsim"), tmp_path, 60, 512, engine="flow")[-2:] == ["--engine", "flow"]


def _gate_held_exclusively(directory: Path) -> bool:
    """True while some holder has the gate exclusively (a gatherer of several slots)."""
    with open(directory / "gate", "a+b") as gate:
        try:
            fcntl.flock(gate, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(gate, fcntl.LOCK_UN)
        return False


def test_slots_a_gatherer_waits_for_every_slot_and_is_not_starved(tmp_path):
    """Two slots: a one-slot run holds one; a two-slot run waits until it is freed, then holds
    both; a one-slot run arriving while the gatherer waits runs after it, not before.
    (flock is per open file: threads of one process compete as processes do.)"""
    order: list[str] = []
    one_holds, release_one = threading.Event(), threading.Event()

    def run(name: str, want: int, hold_until: threading.Event | None = None):
        with slots.hold(want, tmp_path, 2, poll_s=0.01) as taken:
            order.append(f"{name} {sorted(taken)}" if want > 1 else name)
            if hold_until is not None:
                one_holds.set()
                hold_until.wait(60)

    first = threading.Thread(target=run, args=("first", 1, release_one))
    first.start()
    one_holds.wait(60)
    gatherer = threading.Thread(target=run, args=("gatherer", 2))
    gatherer.start()
    wait_until(lambda: _gate_held_exclusively(tmp_path), 30, what="the gatherer at the gate")
    late = threading.Thread(target=run, args=("late", 1))
    late.start()
    assert order == ["first"]  # one slot is free, but the gatherer needs two
    release_one.set()
    for thread in (first, gatherer, late):
        thread.join(60)
    assert order == ["first", "gatherer [0, 1]", "late"]
    with slots.hold(3, tmp_path, 2, poll_s=0.01) as taken:  # more than there are: all of them
        assert sorted(taken) == [0, 1]
