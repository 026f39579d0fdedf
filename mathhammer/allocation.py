"""Allocating damage to a target unit's models: the one damage transition and the one chain
runner (docs/rules.md, "Allocation").

A target unit is one or more model groups in allocation order. Its state is a tuple with one
``TargetState(models, wounds_lost)`` per group: the models left and the wounds already lost by
the group's damaged model. :func:`next_group` says which group takes the next wound,
:func:`lose` moves a state by one packet of damage, and :func:`chain` runs any number of
independent steps; attacks and every effect outside an attack are built from these three.

>>> move = packet_move([Group(wounds=2)], [PMF.uniform([1, 2, 3])])
>>> after = chain({(TargetState(2, 0),): 1}, PMF.point(2), move)
>>> PMF(after).prob((TargetState(0, 0),))  # two packets kill both W2 models unless one is a 1
Fraction(4, 9)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import lcm
from typing import Any, NamedTuple

from .bigint import big
from .pmf import PMF


class TargetState(NamedTuple):
    """Models left in one model group and wounds lost by its damaged model."""

    models: int
    wounds_lost: int


#: The state of a target unit: one TargetState per model group, in allocation order.
UnitState = tuple[TargetState, ...]
#: A distribution over states as integer weights over an implicit common denominator.
Weights = dict[Any, int]
#: One step of a chain: state -> (next state, weight) pairs whose weights sum to a constant.
Move = Callable[[Any], list[tuple[Any, int]]]


class Group(NamedTuple):
    """What allocation needs to know of a model group."""

    wounds: int
    character: bool = False


def next_group(state: UnitState, groups: Sequence[Group], precision: bool = False) -> int | None:
    """Which group takes the next wound: Precision picks a CHARACTER while one stands; otherwise
    a wounded non-CHARACTER model, else the first non-CHARACTER group, then the CHARACTERs (a
    wounded one first). ``None`` when every model is destroyed.

    >>> s = (TargetState(0, 0), TargetState(3, 1), TargetState(1, 0))
    >>> g = (Group(1), Group(2), Group(3, character=True))
    >>> next_group(s, g), next_group(s, g, precision=True)
    (1, 2)
    """
    def pick(wanted: bool) -> int | None:
        alive = [i for i, s in enumerate(state) if s.models and groups[i].character == wanted]
        wounded = [i for i in alive if state[i].wounds_lost]
        return (wounded or alive or [None])[0]

    if precision:
        first = pick(True)
        if first is not None:
            return first
    first = pick(False)
    return first if first is not None else pick(True)


def lose(state: UnitState, g: int, e: int, wounds: int) -> UnitState:
    """Group ``g``'s next model loses ``e`` wounds; what exceeds its remaining wounds is lost.

    >>> lose((TargetState(2, 1),), 0, 5, 3)
    (TargetState(models=1, wounds_lost=0),)
    """
    if e == 0:
        return state
    s = state[g]
    new = (TargetState(s.models - 1, 0) if s.wounds_lost + e >= wounds
           else TargetState(s.models, s.wounds_lost + e))
    return state[:g] + (new,) + state[g + 1:]


def packet_move(groups: Sequence[Group], losses: Sequence[PMF], precision: bool = False) -> Move:
    """One packet of damage (excess lost) on the model :func:`next_group` picks; ``losses[g]``
    is the wounds group ``g`` loses from it (after Feel No Pain). Weights sum to the lcm of the
    losses' totals; a destroyed unit stays as it is."""
    total = lcm(*(loss.total for loss in losses))
    items = [[(e, w * (total // loss.total)) for e, w in loss.weights().items()]
             for loss in losses]

    def move(state: UnitState) -> list[tuple[UnitState, int]]:
        g = next_group(state, groups, precision)
        if g is None:
            return [(state, total)]
        return [(lose(state, g, e, groups[g].wounds), w) for e, w in items[g]]

    move.total = total  # type: ignore[attr-defined]
    return move


def step(weights: Weights, move: Move, memo: dict[Any, list[tuple[Any, int]]]) -> Weights:
    """Apply ``move`` once to every state (each state's moves worked out once, in ``memo``)."""
    out: Weights = {}
    get = out.get
    for s, w in weights.items():
        moves = memo.get(s)
        if moves is None:
            moves = memo[s] = move(s)
        for s2, w2 in moves:
            out[s2] = get(s2, 0) + w * w2
    return out


def chain(start: Weights, count: PMF, move: Move, total: int | None = None) -> Weights:
    """The state after a random number ``count`` of independent steps; ``move(state)`` lists
    (next state, weight) pairs whose weights sum to ``total`` (default ``move.total``).
    Run in Horner form: one step per possible count, whatever the number of counts.

    >>> from fractions import Fraction
    >>> heads = chain({0: 1}, PMF.point(3), lambda s: [(s, 1), (s + 1, 1)], 2)
    >>> PMF(heads) == PMF.binomial(3, Fraction(1, 2))  # three coin flips
    True
    """
    by_count = {n: {s: w * c for s, w in start.items()} for n, c in count.weights().items()}
    return horner(by_count, move, total)


def horner(by_count: dict[int, Weights], move: Move, total: int | None = None) -> Weights:
    """``sum over v of move^v applied to by_count[v]``: states that still have ``v`` steps to
    take, in Horner form (one step per count instead of one chain per count). The result's
    weights are over the inputs' denominator times ``total ** max(v)``.

    >>> out = horner({0: {0: 1}, 2: {0: 1}}, lambda s: [(s, 1), (s + 1, 1)], 2)
    >>> PMF(out) == PMF({0: 4 + 1, 1: 2, 2: 1})  # half no step; half two coin flips
    True
    """
    total = move.total if total is None else total  # type: ignore[attr-defined]
    top = max(by_count)
    memo: dict[Any, list[tuple[Any, int]]] = {}
    acc: Weights = dict(by_count[top])
    for v in range(top - 1, -1, -1):
        acc = step(acc, move, memo)
        scale = total ** (top - v)
        for s, w in by_count.get(v, {}).items():
            acc[s] = acc.get(s, 0) + w * scale
    return acc


def spill_move(groups: Sequence[Group], single: Sequence[PMF], amount: PMF,
               precision: bool = False) -> Move:
    """``amount`` mortal wounds applied one at a time, spilling over to the next model;
    ``single[g]`` is what one mortal wound costs group ``g`` (after Feel No Pain)."""
    one = packet_move(groups, single, precision)
    counts = amount.weights()
    top = max(counts)
    total = amount.total * one.total ** top  # type: ignore[attr-defined]

    def move(state: UnitState) -> list[tuple[UnitState, int]]:
        return list(chain({state: 1}, amount, one).items())

    move.total = total  # type: ignore[attr-defined]
    return move


def tallied_chain(start: Weights, count: PMF, move: Callable[[Any], list[tuple[Any, int, int]]],
                  total: int) -> dict[tuple[Any, int], int]:
    """:func:`chain` where each step may also add to a tally (the Devastating Wounds still to
    come): ``move(state)`` lists (next state, tally added, weight). The result is keyed by
    (state, tally). The tally is packed into each state's weight as the digits of one big
    integer, so a step costs one operation per state and move, however many tallies there are.

    >>> out = tallied_chain({0: 1}, PMF.point(2), lambda s: [(s, 0, 1), (s, 1, 1)], 2)
    >>> PMF(out) == PMF({(0, 0): 1, (0, 1): 2, (0, 2): 1})  # two coin flips, tallied
    True
    """
    counts = count.weights()
    top = max(counts)
    bits = (sum(start.values()) * count.total * total ** top).bit_length() + 1
    memo: dict[Any, list[tuple[Any, int, int]]] = {}
    acc: dict[Any, Any] = {}
    for n in range(top, -1, -1):
        if n < top:
            nxt: dict[Any, Any] = {}
            get = nxt.get
            for s, x in acc.items():
                moves = memo.get(s)
                if moves is None:
                    moves = memo[s] = [(s2, bits * d, w) for s2, d, w in move(s)]
                for s2, shift, w in moves:
                    y = x * w
                    nxt[s2] = get(s2, 0) + (y << shift if shift else y)
            acc = nxt
        if n in counts:
            scale = counts[n] * total ** (top - n)
            for s, w in start.items():
                acc[s] = acc.get(s, 0) + big(w * scale)
    out: dict[tuple[Any, int], int] = {}
    mask = (1 << bits) - 1
    for s, x in acc.items():
        d = 0
        while x:
            w = int(x & mask)
            if w:
                out[(s, d)] = w
            x >>= bits
            d += 1
    return out
