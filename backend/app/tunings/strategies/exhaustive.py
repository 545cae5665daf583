"""Exhaustive grid and uniform random sampling without repetition."""

import random
from dataclasses import dataclass, field
from typing import ClassVar

from app.tunings.strategies.base import Request, Strategy

DEFAULT_BATCH = 64  # points handed to the workers at once; large batches amortise dispatch
LOOKAHEAD = 2       # batches stored ahead of results: the workers never wait for a step


@dataclass
class GridStrategy(Strategy):
    """Every point once, in row-major order (the budget does not cut it short)."""

    next_rank: int = 0
    lookahead: ClassVar[int] = LOOKAHEAD

    def ask(self) -> list[Request]:
        batch = int(self.options.get("batch", DEFAULT_BATCH))
        stop = min(self.space.size, self.next_rank + batch)
        requests = [Request(self.space.point_at(r)) for r in range(self.next_rank, stop)]
        self.next_rank = stop
        return self._charge(requests)

    def tell(self, request: Request, losses: tuple[float, ...]) -> None:
        self._remember(request, losses)


@dataclass
class RandomStrategy(Strategy):
    """`budget` distinct points drawn uniformly without replacement (seeded)."""

    order: list[int] = field(default_factory=list)
    next_index: int = 0
    lookahead: ClassVar[int] = LOOKAHEAD

    def __post_init__(self) -> None:
        # sample() over a range draws distinct ranks without building the whole grid
        count = min(int(self.budget), self.space.size)
        self.order = random.Random(self.seed).sample(range(self.space.size), count)

    def ask(self) -> list[Request]:
        batch = int(self.options.get("batch", DEFAULT_BATCH))
        chunk = self.order[self.next_index:self.next_index + batch]
        self.next_index += len(chunk)
        return self._charge([Request(self.space.point_at(r)) for r in chunk])

    def tell(self, request: Request, losses: tuple[float, ...]) -> None:
        self._remember(request, losses)
