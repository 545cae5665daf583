"""A synthetic objective over the ByteTuning grid (no simulator): a known global optimum, a
decoy basin and an interaction term, so search has something to get wrong."""

import math

from app.tunings.space import Point, bytetuning_space

SPACE = bytetuning_space()
OPTIMUM: Point = (7, 2, 3, 1)      # Kmin 3500, Pmax 20 %, alpha 11, headroom 200
DECOY: Point = (1, 8, 0, 5)        # a wide local basin far from the optimum


def loss(point: Point) -> float:
    """Lower is better; 0 exactly at OPTIMUM, about 0.25 at the bottom of the decoy basin."""
    d_opt = sum(((a - b) / n) ** 2 for a, b, n in zip(point, OPTIMUM, SPACE.shape))
    d_decoy = sum(((a - b) / n) ** 2 for a, b, n in zip(point, DECOY, SPACE.shape))
    ripple = 0.02 * (1 + math.sin(1.7 * point[0] + 0.9 * point[1]))
    if point == OPTIMUM:
        ripple = 0.0
    return min(4 * d_opt + ripple, 0.25 + 2 * d_decoy + ripple) + 0.05


def global_best() -> Point:
    return min(SPACE.points(), key=loss)
