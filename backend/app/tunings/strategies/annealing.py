"""Simulated annealing on the grid, after ByteTuning (seeds/000): neighbour moves, a geometric
temperature schedule, restarts, a budget, then a greedy polish around the best point.

Constants (options, with defaults; docs/tuning.md explains the choice):
- `t0` = 0.05, `t_end` = 0.001: temperatures in units of relative loss change. A move that is
  5 % worse is taken with probability e^-1 at the start and practically never at the end.
- `restarts` = 3: the budget (less the polish share) is split evenly; restart 0 starts from a
  seeded random point, later ones from a random unvisited point (diversification).
- `polish` = 0.2: share of the budget kept for steepest descent from the best point found.
- `parallel` = 2: neighbours proposed per batch; the Metropolis test then takes them in order,
  so two workers can evaluate at once without changing the walk's logic.
Revisiting a point costs nothing (its loss is known): such moves are taken inside `ask`.
"""

import math
import random
from dataclasses import dataclass, field

from app.tunings.space import Point, neighbours
from app.tunings.strategies.base import Request, Strategy

MAX_FREE_MOVES = 2000  # walks through known points before jumping to an unvisited one


@dataclass
class AnnealingStrategy(Strategy):
    rng: random.Random = field(default_factory=random.Random)
    current: Point | None = None
    current_loss: float = math.inf
    best: Point | None = None
    best_loss: float = math.inf
    temperature: float = 0.0
    restart: int = 0
    steps: int = 0
    polishing: bool = False
    pending: list[Request] = field(default_factory=list)
    results: dict[Point, float] = field(default_factory=dict)
    path: list[Point] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.t0 = float(self.options.get("t0", 0.05))
        self.t_end = float(self.options.get("t_end", 0.001))
        self.restarts = max(1, int(self.options.get("restarts", 3)))
        self.parallel = max(1, int(self.options.get("parallel", 2)))
        polish = float(self.options.get("polish", 0.2))
        self.anneal_budget = max(self.restarts, int(self.budget * (1 - polish)))
        self.steps_per_restart = max(1, self.anneal_budget // self.restarts)
        self.cooling = (self.t_end / self.t0) ** (1.0 / self.steps_per_restart)
        self.temperature = self.t0

    # -- ask ---------------------------------------------------------------------------------
    def ask(self) -> list[Request]:
        if self.pending or self.remaining < 1 or len(self.results) >= self.space.size:
            return []
        if not self.polishing and self.cost >= self.anneal_budget:
            self.polishing = True
        if self.polishing:
            return self._polish()
        if self.current is None or self.steps >= self.steps_per_restart:
            return self._start()
        for _ in range(MAX_FREE_MOVES):
            fresh = [p for p in neighbours(self.space, self.current) if p not in self.results]
            if fresh:
                self.rng.shuffle(fresh)
                return self._propose(fresh[:min(self.parallel, int(self.remaining))])
            self._metropolis(self.rng.choice(neighbours(self.space, self.current)))
        return self._start()

    def _start(self) -> list[Request]:
        """A (re)start from a random unvisited point with the temperature reset."""
        if self.current is not None:
            self.restart += 1
        self.steps, self.temperature, self.current = 0, self.t0, None
        for _ in range(1000):
            point = self.space.point_at(self.rng.randrange(self.space.size))
            if point not in self.results:
                return self._propose([point])
        return []

    def _polish(self) -> list[Request]:
        """Steepest descent from the best point: its unknown neighbours, all at once."""
        if self.best is None:
            return []
        fresh = [p for p in neighbours(self.space, self.best) if p not in self.results]
        return self._propose(fresh[:int(self.remaining)]) if fresh else []

    def _propose(self, points: list[Point]) -> list[Request]:
        self.pending = [Request(p) for p in points]
        return self._charge(list(self.pending))

    # -- tell --------------------------------------------------------------------------------
    def tell(self, request: Request, losses: tuple[float, ...]) -> None:
        self._remember(request, losses)
        self.results[request.point] = losses[0]
        if losses[0] < self.best_loss:
            self.best, self.best_loss = request.point, losses[0]
        if all(r.point in self.results for r in self.pending):
            batch, self.pending = self.pending, []
            for r in batch:
                if not self.polishing:
                    self._metropolis(r.point)
                    self.steps += 1
                    self.temperature *= self.cooling

    def _metropolis(self, point: Point) -> None:
        """Move to `point` if better, else with probability exp(-relative worsening / T)."""
        loss = self.results[point]
        if self.current is None or loss <= self.current_loss:
            self.current, self.current_loss = point, loss
            self.path.append(point)
            return
        scale = max(abs(self.current_loss), 1e-12)
        worse = (loss - self.current_loss) / scale
        if self.temperature > 0 and self.rng.random() < math.exp(-worse / self.temperature):
            self.current, self.current_loss = point, loss
            self.path.append(point)
