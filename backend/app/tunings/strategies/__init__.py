"""Strategy registry: name -> constructor (each returns a Strategy)."""

from app.tunings.strategies.annealing import AnnealingStrategy
from app.tunings.strategies.base import PENALTY, Request, Strategy
from app.tunings.strategies.exhaustive import GridStrategy, RandomStrategy
from app.tunings.strategies.fixed import experience, vendor
from app.tunings.strategies.samplers import OptunaStrategy

STRATEGIES = {
    "vendor": vendor,
    "experience": experience,
    "grid": lambda **kw: GridStrategy(name="grid", **kw),
    "random": lambda **kw: RandomStrategy(name="random", **kw),
    "annealing": lambda **kw: AnnealingStrategy(name="annealing", **kw),
    "tpe": lambda **kw: OptunaStrategy(name="tpe", **kw),
    "nsga2": lambda **kw: OptunaStrategy(name="nsga2", **kw),
}
FIXED = ("vendor", "experience")
MULTI_OBJECTIVE = ("nsga2",)


def make(name: str, **kwargs) -> Strategy:
    """A fresh strategy by name."""
    return STRATEGIES[name](**kwargs)


__all__ = ["FIXED", "MULTI_OBJECTIVE", "PENALTY", "Request", "STRATEGIES", "Strategy", "make"]
