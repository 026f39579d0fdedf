"""Markov chains over exact distributions: the one chain runner of mathhammer.

A distribution is a dict of integer weights over an implicit common denominator; a *move* lists
(next state, weight) pairs whose weights sum to a constant (``move.total``). :func:`chain` runs a
random number of independent steps, :func:`horner` applies a different number of steps to each
part of a distribution, and :func:`tallied_chain` also counts something along the way. Attacks,
mortal wounds, Devastating Wounds and Reanimation Protocols are all run through these.

>>> from mathhammer.prob.pmf import PMF
>>> coin = lambda s: [(s, 1), (s + 1, 1)]
>>> PMF(chain({0: 1}, PMF.uniform([1, 2]), coin, 2)).mean()  # one or two flips: 1/2 * 3/2
Fraction(3, 4)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .bigint import big, digit_width, unpack
from .pmf import PMF

#: A distribution over states as integer weights over an implicit common denominator.
Weights = dict[Any, int]
#: One step of a chain: state -> (next state, weight) pairs whose weights sum to a constant.
Move = Callable[[Any], list[tuple[Any, int]]]


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
    Run in Horner form: one step per possible count, whatever the number of counts. The
    weights sum to ``sum(start) * count.total * total ** k``, ``k`` at most ``max(count)``
    and smaller where every state is absorbing (a destroyed unit) before the last step: a
    move made of a chain rescales (:func:`~mathhammer.mechanics.allocation.spill_move`).

    >>> from fractions import Fraction
    >>> heads = chain({0: 1}, PMF.point(3), lambda s: [(s, 1), (s + 1, 1)], 2)
    >>> PMF(heads) == PMF.binomial(3, Fraction(1, 2))  # three coin flips
    True
    """
    memo: dict[Any, list[tuple[Any, int]]] = {}
    total = move.total if total is None else total  # type: ignore[attr-defined]
    counts = count.weights()
    top = max(counts)
    if len(start) == 1:
        path = _path(next(iter(start)), move, top, memo)
        if path is not None:  # one state after each number of steps: no chain to run
            (w0,) = start.values()
            scale = w0 * total ** min(top, len(path) - 1)  # as horner() below would give
            out: Weights = {}
            for n, c in counts.items():
                s = path[min(n, len(path) - 1)]
                out[s] = out.get(s, 0) + c * scale
            return out
    bound = absorbed_after(start, move, total, top, memo)
    if bound is not None:  # more steps than that change nothing: count them as ``bound``
        capped: dict[int, int] = {}
        for n, c in counts.items():
            capped[min(n, bound)] = capped.get(min(n, bound), 0) + c
        counts = capped
    by_count = {n: {s: w * c for s, w in start.items()} for n, c in counts.items()}
    return horner(by_count, move, total, memo)


def _path(state: Any, move: Move, limit: int, memo: dict[Any, list[tuple[Any, int]]]
          ) -> list[Any] | None:
    """The states after 0, 1, ... steps from ``state`` when each step has one next state (a
    fixed loss, no save or Feel No Pain left to roll), up to ``limit`` steps or an absorbing
    state (then the path ends there); None when some step has several.

    >>> _path(3, lambda s: [(max(s - 1, 0), 1)], 10, {})
    [3, 2, 1, 0]
    """
    path = [state]
    for _ in range(limit):
        moves = memo.get(state)
        if moves is None:
            moves = memo[state] = move(state)
        if len(moves) != 1:
            return None
        nxt = moves[0][0]
        if nxt == state:
            return path
        path.append(nxt)
        state = nxt
    return path


def absorbed_after(start: Weights, move: Move, total: int, limit: int,
                   memo: dict[Any, list[tuple[Any, int]]]) -> int | None:
    """The number of steps after which every state reachable from ``start`` is absorbing
    (its one move is to itself: a destroyed unit), when that is fewer than ``limit``; None
    when it is not, or when some other state can stay where it is (a saved wound, a Feel No
    Pain roll), so no number of steps is sure to get there.

    >>> absorbed_after({3: 1}, lambda s: [(max(s - 1, 0), 1)], 1, 10, {})
    3
    >>> absorbed_after({3: 1}, lambda s: [(s, 1), (max(s - 1, 0), 1)], 2, 10, {}) is None
    True
    """
    frontier = set(start)
    for steps in range(limit):
        nxt: set[Any] = set()
        absorbed = True  # every state of the frontier moves to itself alone
        for s in frontier:
            moves = memo.get(s)
            if moves is None:
                moves = memo[s] = move(s)
            if len(moves) > 1:
                absorbed = False
                for s2, _w in moves:
                    if s2 == s:  # it may stay where it is, or move on
                        return None
                    nxt.add(s2)
            else:
                s2 = moves[0][0]
                absorbed = absorbed and s2 == s
                nxt.add(s2)
        if absorbed:
            return steps
        frontier = nxt
    return None



def horner(by_count: dict[int, Weights], move: Move, total: int | None = None,
           memo: dict[Any, list[tuple[Any, int]]] | None = None) -> Weights:
    """``sum over v of move^v applied to by_count[v]``: states that still have ``v`` steps to
    take, in Horner form (one step per count instead of one chain per count). The result's
    weights are over the inputs' denominator times ``total ** max(v)``.

    >>> out = horner({0: {0: 1}, 2: {0: 1}}, lambda s: [(s, 1), (s + 1, 1)], 2)
    >>> PMF(out) == PMF({0: 4 + 1, 1: 2, 2: 1})  # half no step; half two coin flips
    True
    """
    total = move.total if total is None else total  # type: ignore[attr-defined]
    top = max(by_count)
    memo = {} if memo is None else memo  # each state's moves, worked out once
    acc: Weights = dict(by_count[top])
    # GMP multiplies the large weights by the large scales much faster
    scale = big(1, bits=total.bit_length() * top + max(
        (w.bit_length() for ws in by_count.values() for w in ws.values()), default=0))
    for v in range(top - 1, -1, -1):
        acc = step(acc, move, memo)
        scale *= total
        for s, w in by_count.get(v, {}).items():
            acc[s] = acc.get(s, 0) + w * scale
    return {s: int(w) for s, w in acc.items()} if top else acc



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
    width = digit_width(sum(start.values()) * count.total * total ** top)
    memo: dict[Any, list[tuple[Any, int, int]]] = {}
    acc: dict[Any, Any] = {}
    for n in range(top, -1, -1):
        if n < top:
            nxt: dict[Any, Any] = {}
            get = nxt.get
            for s, x in acc.items():
                moves = memo.get(s)
                if moves is None:
                    moves = memo[s] = [(s2, 8 * width * d, w) for s2, d, w in move(s)]
                for s2, shift, w in moves:
                    y = x * w
                    nxt[s2] = get(s2, 0) + (y << shift if shift else y)
            acc = nxt
        if n in counts:
            scale = counts[n] * total ** (top - n)
            for s, w in start.items():
                acc[s] = acc.get(s, 0) + big(w * scale, bits=8 * width * (top + 1))
    return {(s, d): w for s, x in acc.items() for d, w in unpack(x, width).items()}
