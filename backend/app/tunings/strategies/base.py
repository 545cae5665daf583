"""The one interface every strategy implements: ask for requests, tell their results.

A strategy minimises losses (the engine turns a maximised objective into its negative, and an
infeasible or failed point into `PENALTY`). It returns batches: the engine evaluates every
request of a batch (in parallel), tells each result, then asks again; an empty batch means the
strategy has finished. Strategies are deterministic for a given seed and sequence of tells, so a
tuning can be rebuilt after a restart by replaying its stored evaluations.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.tunings.space import Point, Space

PENALTY = 1e30  # loss of an infeasible or failed point: worse than anything measured


@dataclass(frozen=True)
class Request:
    """One evaluation: a grid point (or a fixed point's settings) at a fidelity.

    `fidelity` is the fraction of the scenario's simulated duration to run (1.0 = all of it):
    the multi-fidelity hook, so a sampler can look at a point briefly before paying in full.
    `overrides` are model values by scenario path applied on top (fixed points such as the
    vendor's NIC preset, which lie outside the space).
    """

    point: Point | None
    fidelity: float = 1.0
    settings: tuple[tuple[str, float], ...] = ()
    overrides: tuple[tuple[str, Any], ...] = ()

    @property
    def key(self) -> tuple:
        """Identity of the evaluation (what the engine caches on)."""
        return (self.point, self.fidelity, self.settings, self.overrides)


@dataclass
class Strategy(ABC):
    """Ask/tell over a space with `objectives` losses per evaluation and a budget of cost."""

    space: Space
    n_objectives: int = 1
    budget: int = 100
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    name: str = "strategy"
    cost: float = 0.0            # evaluations asked so far, each weighted by its fidelity
    known: dict[tuple, tuple[float, ...]] = field(default_factory=dict)
    # Batches that may be asked before the oldest untold one has results: 0 for a strategy that
    # learns from results; more for one whose batches never depend on them (grid, random).
    lookahead: ClassVar[int] = 0

    @abstractmethod
    def ask(self) -> list[Request]:
        """The next batch (all distinct, none already known); [] when finished."""

    @abstractmethod
    def tell(self, request: Request, losses: tuple[float, ...]) -> None:
        """The losses of one request of the last batch (PENALTY when infeasible or failed)."""

    def _charge(self, requests: list[Request]) -> list[Request]:
        """Count the batch against the budget."""
        self.cost += sum(r.fidelity for r in requests)
        return requests

    def _remember(self, request: Request, losses: tuple[float, ...]) -> None:
        self.known[request.key] = losses

    @property
    def remaining(self) -> float:
        """Budget left, in full-fidelity evaluations."""
        return self.budget - self.cost
