"""Drive strategies against an evaluator, with a shared cache: an evaluated request costs no
simulation however many strategies (or tunings, via the run cache) ask for it again.

`drive` is the in-process loop of the strategy tests and benchmarks (so it lives in bench/, not in
the app); the Celery tuning task (app/tunings/driver.py) performs the
same ask -> evaluate -> tell cycle batch by batch with its state in the database.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from app.tunings.strategies.base import Request, Strategy


@dataclass
class Record:
    """One evaluation as a strategy saw it."""

    strategy: str
    request: Request
    losses: tuple[float, ...]
    simulated: bool  # False when the cache answered


@dataclass
class Outcome:
    records: list[Record] = field(default_factory=list)
    simulations: int = 0

    def best_so_far(self, strategy: str) -> list[float]:
        """Best full-fidelity loss after each of the strategy's evaluations (cost order)."""
        out, best = [], float("inf")
        for r in self.records:
            if r.strategy != strategy:
                continue
            if r.request.fidelity >= 1.0:
                best = min(best, r.losses[0])
            out.append(best)
        return out


def drive(strategies: list[Strategy], evaluate: Callable[[list[Request]], list[tuple[float, ...]]],
          cache: dict[tuple, tuple[float, ...]] | None = None, max_batches: int = 100_000) -> Outcome:
    """Round-robin over strategies, one batch each, until all have finished."""
    cache = {} if cache is None else cache
    outcome = Outcome()
    active = list(strategies)
    for _ in range(max_batches):
        if not active:
            break
        for strategy in list(active):
            batch = strategy.ask()
            if not batch:
                active.remove(strategy)
                continue
            todo = [r for r in dict.fromkeys(r.key for r in batch) if r not in cache]
            by_key = {r.key: r for r in batch}
            if todo:
                for key, losses in zip(todo, evaluate([by_key[k] for k in todo])):
                    cache[key] = losses
                outcome.simulations += len(todo)
            for request in batch:
                strategy.tell(request, cache[request.key])
                outcome.records.append(Record(strategy.name, request, cache[request.key],
                                              request.key in todo))
    return outcome
