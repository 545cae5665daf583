"""Simulated annealing on the grid, after ByteTuning (seeds/000): neighbour moves, a geometric
temperature schedule, restarts, a budget, then a greedy polish around the best point.

Constants (options, with defaults; docs/tuning.md explains the choice):
- `t0` = 0.05, `t_end` = 0.001: temperatures in units of relative loss change. A move that is
  5 % worse is taken with probability e^-1 at the start and practically never at the end.
- `restarts` = 3: the budget (less the polish share) is split evenly; restart 0 starts from a
  seeded random point, later ones from a new region (below).
- `polish` = 0.2: share of the budget kept for steepest descent from the best point found; what
  it leaves (the best point is already a local optimum) anneals once more, then polishes again.
- `parallel` = 2: neighbours proposed per batch; the Metropolis test then takes them in order,
  so two workers can evaluate at once without changing the walk's logic.
Revisiting a point costs nothing (its loss is known): such moves are taken inside `ask`, and no
point is ever evaluated twice.

Plateaus. A simulated objective is often flat along some axes (in 10 ms of an incast no PFC pause
is sent, so alpha and headroom change nothing): a move along such an axis returns exactly the
current loss, and a blind walk spends half its budget on such ties. The walk therefore counts,
per axis, the moves that tied (relative change below `polish.TIE_REL`) and those that changed the
loss, and draws the axis of its next neighbour with weight ((changes + 1) / (changes + ties + 1))^2
(squared: after 15 ties an axis's two neighbours together weigh 1/128 of a live axis's, not 1/8):
an axis that only ever tied is tried less and less, never never (it may matter elsewhere), and
on an objective without ties every axis keeps weight 1. Ties are still accepted as moves.
A restart goes to the unvisited point farthest from every visited one among `RESTART_CANDIDATES`
random draws (distance over the axes weighted the same way): a new region, not a random one.
"""

import math
import random
from dataclasses import dataclass, field

from app.tunings.space import Point, neighbours
from app.tunings.strategies.base import Request, Strategy
from app.tunings.strategies.polish import is_tie, tie_weight

MAX_FREE_MOVES = 2000  # walks through known points before jumping to an unvisited one
RESTART_CANDIDATES = 32  # random unvisited points a restart chooses the farthest of


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
    origin: Point | None = None     # where the pending batch was proposed from
    ties: list[int] = field(default_factory=list)      # per axis: moves that left the loss as is
    changes: list[int] = field(default_factory=list)   # per axis: moves that changed it

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
        self.ties = [0] * len(self.space.shape)
        self.changes = [0] * len(self.space.shape)

    # -- ask ---------------------------------------------------------------------------------
    def ask(self) -> list[Request]:
        if self.pending or self.remaining < 1 or len(self.results) >= self.space.size:
            return []
        if not self.polishing and self.cost >= self.anneal_budget:
            self.polishing = True
        if self.polishing:
            batch = self._polish()
            if batch or self.remaining < 1:
                return batch
            self._anneal_leftover()  # the best point is a local optimum: search on, not stop
        if self.current is None or self.steps >= self.steps_per_restart:
            return self._start()
        for _ in range(MAX_FREE_MOVES):
            chosen = self._pick(neighbours(self.space, self.current), 1)[0]
            if chosen not in self.results:  # fresh: evaluate it, and perhaps another fresh one
                others = [p for p in neighbours(self.space, self.current) if p != chosen]
                extra = self._pick(others, min(self.parallel, int(self.remaining)) - 1)
                return self._propose([chosen, *[p for p in extra if p not in self.results]])
            self._metropolis(chosen)  # a known point: moving there costs nothing
        return self._start()

    def _anneal_leftover(self) -> None:
        """Spend what the polish left as one more restart (then polish again)."""
        self.polishing = False
        leftover = int(self.remaining)
        polish = float(self.options.get("polish", 0.2))
        self.anneal_budget = self.cost + max(1, int(leftover * (1 - polish)))
        self.steps_per_restart = max(1, self.anneal_budget - int(self.cost))
        self.cooling = (self.t_end / self.t0) ** (1.0 / self.steps_per_restart)
        self.steps = self.steps_per_restart  # the next ask restarts

    def _start(self) -> list[Request]:
        """A (re)start with the temperature reset: from a random point at first, later from the
        unvisited point farthest from the visited ones among RESTART_CANDIDATES draws."""
        if self.current is not None:
            self.restart += 1
        self.steps, self.temperature, self.current = 0, self.t0, None
        candidates: list[Point] = []
        for _ in range(1000):
            point = self.space.point_at(self.rng.randrange(self.space.size))
            if point not in self.results and point not in candidates:
                candidates.append(point)
                if not self.results or len(candidates) >= RESTART_CANDIDATES:
                    break
        if not candidates:
            return []
        return self._propose([max(candidates, key=self._distance_to_visited)])

    def _weight(self, axis: int) -> float:
        """How informative moves along `axis` have been: 1 without ties, towards 0 if only ties."""
        return tie_weight(self.changes[axis], self.ties[axis])

    def _distance_to_visited(self, point: Point) -> float:
        """Squared distance (axes scaled to [0, 1] and weighted) to the nearest visited point."""
        scale = [self._weight(a) / max(1, n - 1) ** 2 for a, n in enumerate(self.space.shape)]
        return min((sum(w * (a - b) ** 2 for w, a, b in zip(scale, point, seen))
                    for seen in self.results), default=0.0)

    def _pick(self, fresh: list[Point], count: int) -> list[Point]:
        """`count` distinct neighbours, each drawn with its axis's weight."""
        pool, chosen = list(fresh), []
        while pool and len(chosen) < count:
            weights = [self._weight(_axis(self.current, p)) for p in pool]
            chosen.append(pool.pop(self._draw(weights)))
        return chosen

    def _draw(self, weights: list[float]) -> int:
        r = self.rng.random() * sum(weights)
        for i, w in enumerate(weights):
            r -= w
            if r < 0:
                return i
        return len(weights) - 1

    def _polish(self) -> list[Request]:
        """Steepest descent from the best point: its unknown neighbours, all at once (those along
        axes that have only tied so far are left out while any other is unknown)."""
        if self.best is None:
            return []
        fresh = [p for p in neighbours(self.space, self.best) if p not in self.results]
        live = [p for p in fresh if self._weight(_axis(self.best, p)) >= 0.5]
        return self._propose(live[:int(self.remaining)]) if live else []

    def _propose(self, points: list[Point]) -> list[Request]:
        self.origin = None if self.polishing else self.current
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
            self._learn_axes(batch)
            for r in batch:
                if not self.polishing:
                    self._metropolis(r.point)
                    self.steps += 1
                    self.temperature *= self.cooling

    def _learn_axes(self, batch: list[Request]) -> None:
        """Count each neighbour move of the batch as a tie or a change on its axis."""
        if self.origin is None:
            return
        base = self.results[self.origin]
        for r in batch:
            axis = _axis(self.origin, r.point)
            if is_tie(self.results[r.point], base):
                self.ties[axis] += 1
            else:
                self.changes[axis] += 1

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


def _axis(a: Point, b: Point) -> int:
    """The axis on which neighbours `a` and `b` differ."""
    return next(i for i, (x, y) in enumerate(zip(a, b)) if x != y)
