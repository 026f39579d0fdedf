"""Allocating damage to the target's models: a Markov chain over the target's state (RULES.md 6).

The state of a unit of identical models is ``TargetState(models, wounds_lost)``: the models
left and the wounds already lost by the damaged model (which takes the next attack). One
*packet* is the wounds one attack makes a model lose; what exceeds that model's remaining
wounds is lost. A state distribution is a PMF over TargetState, so it can be handed on.

>>> start = PMF.point(TargetState(2, 0))
>>> after = allocate(start, packets=PMF.point(2), loss=PMF.uniform([1, 2, 3]), wounds=2)
>>> after.prob(TargetState(0, 0))  # two packets kill both models unless a packet is a 1
Fraction(4, 9)
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .pmf import PMF


class TargetState(NamedTuple):
    """Models left in the target unit and wounds lost by its damaged model."""

    models: int
    wounds_lost: int


# Internally a state distribution is a dict {(models, wounds_lost, tag): weight} over an
# implicit common denominator; ``tag`` carries whatever else the caller tracks along.
Weights = dict[tuple[int, int, Any], int]


def step(weights: Weights, loss: list[tuple[int, int]], total: int, wounds: int) -> Weights:
    """Apply one packet to every state; the result's denominator is ``total`` times larger."""
    out: Weights = {}
    get = out.get
    for key, w in weights.items():
        models, lost, tag = key
        if models == 0:
            out[key] = get(key, 0) + w * total
            continue
        for e, we in loss:
            if e == 0:
                k = key
            elif lost + e >= wounds:
                k = (models - 1, 0, tag)
            else:
                k = (models, lost + e, tag)
            out[k] = get(k, 0) + w * we
    return out


def step_many(weights: Weights, loss: PMF, wounds: int, n: int) -> tuple[Weights, int]:
    """Apply ``n`` packets; returns the weights and the factor the denominator grew by."""
    items, total = list(loss.weights().items()), loss.total
    factor = 1
    for _ in range(n):
        if all(k[0] == 0 for k in weights):
            return weights, factor  # the unit is destroyed in every state: nothing changes
        weights = step(weights, items, total, wounds)
        factor *= total
    return weights, factor


def allocate(states: PMF, packets: PMF, loss: PMF, wounds: int) -> PMF:
    """The state after a random number ``packets`` of packets, each losing ``loss`` wounds.

    >>> allocate(PMF.point(TargetState(1, 0)), PMF.uniform([0, 1]), PMF.point(1), 1).prob((0, 0))
    Fraction(1, 2)
    """
    start: Weights = {(s.models, s.wounds_lost, None): w for s, w in states.weights().items()}
    counts = packets.weights()
    top = max(counts)
    items, total = list(loss.weights().items()), loss.total
    out: Weights = {}
    cur, done = start, 0
    for n in range(top + 1):
        if n > done and any(k[0] for k in cur):
            cur, done = step(cur, items, total, wounds), n
        if n in counts:
            scale = counts[n] * total ** (top - done)
            for key, w in cur.items():
                out[key] = out.get(key, 0) + w * scale
    return PMF({TargetState(m, lost): w for (m, lost, _), w in out.items()})
