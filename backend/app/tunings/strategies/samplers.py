"""Optuna's samplers behind the ask/tell interface: TPE (one objective, with pruning over
simulated duration) and NSGA-II (two objectives, the Pareto front).

Multi-fidelity: with `fidelities` = [0.2, 1.0] (the default for TPE) a new point first runs for
20 % of the scenario's simulated duration; its loss is reported to the trial as step 0 and
Optuna's MedianPruner decides whether the point is clearly worse than the median of earlier
points at the same step. A pruned point costs 0.2 of an evaluation; a survivor runs in full
(a separate, cached evaluation) and its full-duration loss completes the trial.
Points the sampler proposes again are told their known loss without a new evaluation.

A look that does not rank points as the full runs do is worse than none (the pruner then stops
points at random): after LOOK_PAIRS points seen both ways, a rank correlation below
MIN_LOOK_CORRELATION stops the looks and new points run in full (`_check_looks`).

Polish ("TPE, then a local polish of its best", docs/tuning.md): the last POLISH share of the
budget runs the untried points on the lines through the best point found, along the axes that
matter, nearest first (`strategies/polish.py`); a model of the results smooths over a narrow
optimum such as the simulated incast's (one Pmax value in a rugged row), the walk does not. On
the incast table this took TPE from 5 to 10 of 10 seeds within 2 % of the grid's best (seeds
10-29: 12 to 20 of 20), the synthetic objective from 9 to 10 of 10 (17 to 18 of 20).

Start-up: TPE models the results only after STARTUP_TRIALS trials; those are a Latin hypercube
over the grid (each axis's range covered evenly), enqueued before the first ask, rather than
Optuna's uniform random start-up. On 20 held-out seeds (10-29, not used to choose) this took
TPE from 11 to 17 of 20 within 2% on the synthetic objective and from 4 to 8 of 20 on the
simulated incast (docs/benchmarks-history.md, "Tuning strategies").
"""

import random
from dataclasses import dataclass, field
from typing import Any

import optuna
from optuna.distributions import IntDistribution
from optuna.trial import TrialState

from app.tunings.space import Point
from app.tunings.strategies.base import Request, Strategy
from app.tunings.strategies.polish import axis_weights, line_candidates

optuna.logging.set_verbosity(optuna.logging.WARNING)
MAX_DUPLICATE_ASKS = 200  # proposals of known points in a row before the sampler is done
STARTUP_TRIALS = 10       # space-filling (Latin hypercube) trials before TPE models the results
PRUNE_AFTER = 5           # trials with a short look before the MedianPruner may stop one
LOOK_PAIRS = 8            # points seen both briefly and in full before the looks are judged
MIN_LOOK_CORRELATION = 0.3  # below this rank correlation the looks stop (new points run in full)
POLISH = 0.2              # TPE's share of the budget for the local polish of its best point


@dataclass
class OptunaStrategy(Strategy):
    study: Any = None
    trials: dict[tuple, Any] = field(default_factory=dict)   # request key -> trial
    promote: list[tuple[Any, Point]] = field(default_factory=list)
    final: dict[Point, tuple[float, ...]] = field(default_factory=dict)
    in_flight: set[Point] = field(default_factory=set)
    looks: dict[Point, float] = field(default_factory=dict)        # a point's short-look loss
    pairs: list[tuple[float, float]] = field(default_factory=list)  # (short look, full) losses

    def __post_init__(self) -> None:
        self.batch = max(1, int(self.options.get("batch", 4)))
        default = [0.2, 1.0] if self.n_objectives == 1 and self.name == "tpe" else [1.0]
        self.fidelities = sorted(float(f) for f in self.options.get("fidelities", default))
        if self.fidelities[-1] != 1.0:
            self.fidelities.append(1.0)
        self.distributions = {p.name: IntDistribution(0, len(p.values) - 1)
                              for p in self.space.parameters}
        # share of the budget kept for the local polish of the best point (TPE, one objective)
        default = POLISH if self.name == "tpe" else 0.0
        self.polish = float(self.options.get("polish", default)) if self.n_objectives == 1 else 0.0
        self.study = self._make_study()

    def _make_study(self):
        if self.name == "nsga2":
            sampler = optuna.samplers.NSGAIISampler(
                seed=self.seed, population_size=max(4, self.batch))
            return optuna.create_study(directions=["minimize"] * self.n_objectives,
                                       sampler=sampler)
        # constant_liar: the points of one batch are asked before any is told; the liar keeps
        # them apart (Optuna's default since 4.x, spelled out so an upgrade cannot change it)
        sampler = optuna.samplers.TPESampler(seed=self.seed, n_startup_trials=STARTUP_TRIALS,
                                             multivariate=True, constant_liar=True)
        pruner = optuna.pruners.MedianPruner(n_startup_trials=PRUNE_AFTER, n_warmup_steps=0)
        study = optuna.create_study(direction="minimize", sampler=sampler, pruner=pruner)
        for point in latin_hypercube(self.space.shape, STARTUP_TRIALS, self.seed):
            study.enqueue_trial({p.name: i for p, i in zip(self.space.parameters, point)})
        return study

    def ask(self) -> list[Request]:
        batch: list[Request] = []
        # a promotion is a full run charged on its own: it must fit what the batch leaves
        while self.promote and len(batch) < self.batch and self.remaining - _cost(batch) >= 1.0:
            trial, point = self.promote.pop(0)
            # (the looks may have stopped since: then the next level is the full run)
            level = min(trial.user_attrs["level"] + 1, len(self.fidelities) - 1)
            trial.set_user_attr("level", level)
            batch.append(self._track(trial, point, self.fidelities[level]))
        if self._polishing():
            batch += self._polish_batch(batch)
            if batch:
                return self._charge(batch)
        duplicates = 0
        while len(batch) < self.batch and self.remaining - _cost(batch) >= self.fidelities[0]:
            trial = self.study.ask(self.distributions)
            point = tuple(trial.params[p.name] for p in self.space.parameters)
            if point in self.final:
                self.study.tell(trial, list(self.final[point]))
            elif point in self.in_flight:
                self.study.tell(trial, state=TrialState.FAIL)  # proposed twice in one batch
            else:
                trial.set_user_attr("level", 0)
                batch.append(self._track(trial, point, self.fidelities[0]))
                duplicates = 0
                continue
            duplicates += 1
            if duplicates >= MAX_DUPLICATE_ASKS:
                break
        return self._charge(batch)

    def _track(self, trial, point: Point, fidelity: float) -> Request:
        request = Request(point, fidelity=fidelity)
        self.trials[request.key] = trial
        self.in_flight.add(point)
        return request

    def _polishing(self) -> bool:
        return self.polish > 0 and bool(self.final) and self.cost >= self.budget * (1 - self.polish)

    def _polish_batch(self, batch: list[Request]) -> list[Request]:
        """Full runs of the best point's untried neighbours along the axes that matter, nearest
        first (`strategies/polish.py`); [] when none is left (then TPE asks again)."""
        results = {p: losses[0] for p, losses in self.final.items()}
        best = min(results, key=results.__getitem__)
        weights = axis_weights(results, len(self.space.shape))
        tried = set(self.final) | self.in_flight
        room = min(self.batch - len(batch), int(self.remaining - _cost(batch)))
        out = []
        for point in line_candidates(best, self.space.shape, weights, tried)[:max(0, room)]:
            out.append(Request(point))
            self.in_flight.add(point)
        return out

    def tell(self, request: Request, losses: tuple[float, ...]) -> None:
        self._remember(request, losses)
        self.in_flight.discard(request.point)
        trial = self.trials.pop(request.key, None)
        if trial is None:  # a polish point: Optuna learns it as a finished trial
            self.final[request.point] = losses
            self.study.add_trial(optuna.trial.create_trial(
                params={p.name: i for p, i in zip(self.space.parameters, request.point)},
                distributions=self.distributions, value=losses[0]))
            return
        if request.fidelity >= 1.0:
            self.final[request.point] = losses
            self.study.tell(trial, list(losses) if self.n_objectives > 1 else losses[0])
            if request.point in self.looks:
                self.pairs.append((self.looks[request.point], losses[0]))
                self._check_looks()
            return
        if trial.user_attrs["level"] == 0:
            self.looks[request.point] = losses[0]
        trial.report(losses[0], step=trial.user_attrs["level"])
        if trial.should_prune():
            self.study.tell(trial, state=TrialState.PRUNED)
        else:
            self.promote.append((trial, request.point))
            self.in_flight.add(request.point)


    def _check_looks(self) -> None:
        """Stop looking briefly once the looks are shown not to rank points as the full runs do
        (rank correlation below MIN_LOOK_CORRELATION over the first LOOK_PAIRS points seen both
        ways): pruning on an uninformative look stops points at random and costs a fifth of an
        evaluation each. From then on new points run in full."""
        if len(self.fidelities) == 1 or len(self.pairs) < LOOK_PAIRS:
            return
        if spearman([a for a, _ in self.pairs], [b for _, b in self.pairs]) < MIN_LOOK_CORRELATION:
            self.fidelities = [1.0]


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (ties get their mean rank); 0 when either side is constant."""
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx, syy = sum((a - mx) ** 2 for a in rx), sum((b - my) ** 2 for b in ry)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else 0.0


def latin_hypercube(shape: tuple[int, ...], count: int, seed: int) -> list[tuple[int, ...]]:
    """`count` distinct grid points spread like a Latin hypercube: on every axis each of `count`
    equal strata holds one point (so the start-up trials cover every axis's range evenly instead
    of clustering as uniform draws do)."""
    rng = random.Random(seed)
    columns = []
    for n in shape:
        strata = [min(n - 1, int((i + rng.random()) * n / count)) for i in range(count)]
        rng.shuffle(strata)
        columns.append(strata)
    return list(dict.fromkeys(zip(*columns)))


def _cost(batch: list[Request]) -> float:
    return sum(r.fidelity for r in batch)
