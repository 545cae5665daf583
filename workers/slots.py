"""A worker machine's simulator slots (issue 19): a simulation holds one slot per thread, so that
runs on several threads and runs on one share the machine's cores instead of oversubscribing them.

The slots are lock files slot-0 .. slot-{S-1} in one directory (WORKER_SLOTS_DIR, else
RUNS_DIR/.slots: every worker process of the machine sees the same files), S = WORKER_SLOTS, else
the machine's cores, taken with flock(2): the kernel frees a slot when the process holding it
dies, kill -9 included, so a lost worker never leaks one. A run asking more threads than there
are slots takes them all.

One more file, the gate, keeps a run that gathers several slots from being starved by one-slot
runs that keep taking each slot as it frees: the gatherer holds the gate exclusively until it
has all of its slots, and a one-slot run passes the gate (shared) before it takes its slot.
Only one gatherer exists at a time, so two can never hold half of the slots each.
"""

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from app.core.config import Settings


def slots_of(settings: Settings) -> tuple[Path, int]:
    """(directory, number of slots) of this machine."""
    directory = settings.WORKER_SLOTS_DIR or Path(settings.RUNS_DIR) / ".slots"
    return Path(directory), settings.WORKER_SLOTS or os.cpu_count() or 1


def _open(path: Path):
    """A lock file, created when missing (never truncated: another process may hold it)."""
    return open(path, "a+b")  # noqa: SIM115 - closed by the caller's ExitStack


@contextmanager
def hold(threads: int, directory: Path, total: int, *, poll_s: float = 0.2) -> Iterator[list[int]]:
    """Wait for min(threads, total) slots and hold them for the block; yields their numbers."""
    want = max(1, min(threads, total))
    directory.mkdir(parents=True, exist_ok=True)
    with ExitStack() as held:
        gate = held.enter_context(_open(directory / "gate"))
        fcntl.flock(gate, fcntl.LOCK_EX if want > 1 else fcntl.LOCK_SH)
        taken: list[int] = []
        while len(taken) < want:
            for number in range(total):
                if number in taken:
                    continue
                handle = _open(directory / f"slot-{number}")
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    handle.close()
                    continue
                held.enter_context(handle)  # closing the file releases its lock
                taken.append(number)
                if len(taken) == want:
                    break
            else:
                time.sleep(poll_s)  # no free slot yet: a holder finishes a simulation meanwhile
        fcntl.flock(gate, fcntl.LOCK_UN)
        yield taken
