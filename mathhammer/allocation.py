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

from collections.abc import Callable
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


def chain(start: PMF, count: PMF, move: Callable[[Any], list[tuple[Any, int]]],
          total: int) -> PMF:
    """The state after ``count`` independent steps; ``move(state)`` lists (next state, weight)
    pairs whose weights sum to ``total``. Each state's moves are worked out once.

    >>> from fractions import Fraction
    >>> heads = chain(PMF.point(0), PMF.point(3), lambda s: [(s, 1), (s + 1, 1)], 2)
    >>> heads == PMF.binomial(3, Fraction(1, 2))  # three coin flips
    True
    """
    counts = count.weights()
    top = max(counts)
    memo: dict[Any, list[tuple[Any, int]]] = {}
    out: dict[Any, int] = {}
    cur = start.weights()
    for n in range(top + 1):
        if n:
            nxt: dict[Any, int] = {}
            for s, w in cur.items():
                if s not in memo:
                    memo[s] = move(s)
                for s2, w2 in memo[s]:
                    nxt[s2] = nxt.get(s2, 0) + w * w2
            cur = nxt
        if n in counts:
            scale = counts[n] * total ** (top - n)
            for s, w in cur.items():
                out[s] = out.get(s, 0) + w * scale
    return PMF(out)


def allocate(states: PMF, packets: PMF, loss: PMF, wounds: int) -> PMF:
    """The state after a random number ``packets`` of packets, each losing ``loss`` wounds.

    >>> allocate(PMF.point(TargetState(1, 0)), PMF.uniform([0, 1]), PMF.point(1), 1).prob((0, 0))
    Fraction(1, 2)
    """
    items, total = list(loss.weights().items()), loss.total

    def move(s: TargetState) -> list[tuple[TargetState, int]]:
        if s.models == 0:
            return [(s, total)]
        return [(s if e == 0 else TargetState(s.models - 1, 0) if s.wounds_lost + e >= wounds
                 else TargetState(s.models, s.wounds_lost + e), w) for e, w in items]

    return chain(states, packets, move, total)
