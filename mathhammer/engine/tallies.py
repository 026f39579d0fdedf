"""Several Devastating weapons in one attack, their tallies packed: the chain of
:mod:`.attack` keys each state by the unit's state and the Devastating Wounds still to come of
each Devastating weapon (``(state, pending)``), so several such weapons multiply the keys (a
Knight's four into a Leader and his Bodyguard: 20 states of the unit, 38,000 keys), and every
path's steps and every Devastating Wound's are taken on each key.

Each path moves the unit's state alone and adds to its own weapon's tally: what it does to a
key is what it does to the key's state, the tally shifted. :func:`packed_final` therefore runs
each weapon's path once on the states of the unit it may find (each tagged, of weight 1: the
transfer from each state to each next state and number of Devastating Wounds, its weights
divided by their common factor), then carries the weights as one big integer per state of
the unit, a digit per combination of tallies (mixed radix, the first weapon's lowest): a
transfer is one big-integer product, one shift per next state and number of Devastating
Wounds. A tally counts at most the Devastating Wounds that destroy the unit from any state
it may find (where each takes a wound: no Feel No Pain), so the digits stop growing with the
attacks. The Devastating Wounds are then applied weapon by weapon, in Horner form over their
count, each count's digits cut out of every state's number (the tallies of the weapons after
it riding in them). The weights are the keyed chain's up to one common factor (each answer
is read as weights over their sum); :func:`worth_packing` says when the keys are many enough.

>>> def coin(slot):  # a weapon of one attack: a Devastating Wound on heads
...     up = lambda p: p[:slot] + (p[slot] + 1,) + p[slot + 1:]
...     return lambda keys: {k: w for (s, p), w in keys.items()
...                          for k in ((s, p), (s, up(p)))}
>>> wound = lambda lost: [(min(lost + 1, 2), 1)]  # a unit of 2 wounds: the wounds lost
>>> wound.total = 1  # two weapons of one attack each: Binomial(2, 1/2)
>>> sorted(packed_final(0, [(0, coin(0)), (1, coin(1))], [wound, wound], 2).items())
[(0, 1), (1, 2), (2, 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from math import gcd, lcm, prod
from typing import Any

from ..prob.bigint import big, digit_width, split
from ..prob.markov import Move, Weights, absorbed_after, horner

__all__ = ["packed_final", "worth_packing"]

#: Pack when the combinations of tallies before the last Devastating weapon are at least so
#: many (measured with two Devastating weapons: below, the keyed chain is as fast or faster)
_COMBINATIONS = 6

#: One weapon's volley on the keys, and its Devastating weapon's slot (None: not one)
Step = tuple[int | None, Callable[[Weights], Weights]]


def worth_packing(most: Sequence[int]) -> bool:
    """Whether :func:`packed_final` is worth its packing, given the most Devastating Wounds
    each Devastating weapon may make, in order: the combinations of the tallies that ride
    through the last one's volley are many.

    >>> worth_packing([18, 6, 3, 3]), worth_packing([4, 2]), worth_packing([6])
    (True, False, False)
    """
    return len(most) > 1 and prod(1 + m for m in most[:-1]) >= _COMBINATIONS


def packed_final(start: Hashable, steps: Sequence[Step], devastate: Sequence[Move],
                 length: int) -> Weights:
    """The weights of the unit's states after every step from ``start``, then the Devastating
    Wounds of each slot (``devastate[k]``: one of slot ``k``'s, applied in slot order), as
    :func:`~mathhammer.engine.attack._final` gives them from its keys of ``length`` tallies
    (``length`` at least 2: a step's state is tagged in a slot other than its own)."""
    reach: list[Hashable] = [start]
    transfers: list[tuple[int | None, list[Hashable], list[tuple[int, Hashable, int, int]]]] = []
    mass = 1  # what the weights sum to after every step (each run brought to one total)
    for slot, run in steps:
        tag = 1 if slot == 0 else 0
        zero = (0,) * length
        out = run({(s, zero[:tag] + (t,) + zero[tag + 1:]): 1 for t, s in enumerate(reach)})
        sums = [0] * len(reach)
        for (_s, p), w in out.items():
            sums[p[tag]] += w
        total = lcm(*(x for x in sums if x))
        weights = [w * (total // sums[p[tag]]) for (_s, p), w in out.items()]
        common = gcd(*weights)  # (the paths' weights share large factors: their scales)
        entries = [(p[tag], s2, p[slot] if slot is not None else 0, w // common)
                   for ((s2, p), _w), w in zip(out.items(), weights, strict=True)]
        transfers.append((slot, reach, entries))
        mass *= total // common
        reach = list(dict.fromkeys(s2 for _t, s2, _d, _w in entries))
    most = _most(transfers, length)
    caps = _caps(reach, devastate, most)
    if caps != most:  # more Devastating Wounds than destroy the unit count as so many
        transfers = [(slot, states, entries if slot is None or caps[slot] == most[slot] else
                      [(t, s2, min(d, caps[slot]), w) for t, s2, d, w in entries])
                     for slot, states, entries in transfers]
        most = _most(transfers, length)
    for k, move in enumerate(devastate):
        mass *= move.total ** most[k]  # type: ignore[attr-defined]
    width = digit_width(mass)  # no digit exceeds the whole
    strides = [1]
    for m in most:
        strides.append(strides[-1] * (m + 1))
    numbers: dict[Hashable, Any] = {start: big(1)}
    for slot, states, entries in transfers:
        # each next state's weights by the Devastating Wounds added (the tallies before
        # them shifted up at once: one shift per next state and count, not per entry)
        parts: dict[Hashable, dict[int, Any]] = {}
        for t, s2, d, w in entries:
            x = numbers.get(states[t])
            if x is not None:
                part = parts.setdefault(s2, {})
                part[d] = part[d] + x * w if d in part else x * w
        shift = 8 * width * strides[slot] if slot is not None else 0
        numbers = {}
        for s2, part in parts.items():
            acc = None
            for d, x in part.items():
                x = x << (shift * d) if d else x
                acc = x if acc is None else acc + x
            numbers[s2] = acc
    for k, move in enumerate(devastate):  # slot k's tally is the lowest digit left
        by_count: dict[int, Weights] = {}
        for s, x in numbers.items():
            for d, part in enumerate(split(x, width, most[k] + 1)):
                if part:
                    by_count.setdefault(d, {})[s] = part
        numbers = horner(by_count, move, move.total)  # type: ignore[attr-defined]
    return {s: int(w) for s, w in numbers.items() if w}


def _most(transfers: list, length: int) -> list[int]:
    """The most Devastating Wounds each slot's tally may count after every transfer (a slot
    may take the wounds of several weapons in a row)."""
    most = [0] * length
    for slot, _states, entries in transfers:
        if slot is not None:
            most[slot] += max(d for _t, _s, d, _w in entries)
    return most


def _caps(reach: list[Hashable], devastate: Sequence[Move], most: list[int]) -> list[int]:
    """The most Devastating Wounds of each slot that may change the unit's state: where a
    slot's every wound takes a wound (no Feel No Pain, no zero loss), so many that every
    state they may find (each reached by the volleys, then by any Devastating Wounds) is
    destroyed after them, when that is fewer than ``most``; else ``most``. Applying more
    changes nothing (a destroyed unit stays as it is)."""
    seen = set(reach)
    frontier = list(reach)
    while frontier:
        nxt = []
        for s in frontier:
            for move in devastate:
                for s2, _w in move(s):
                    if s2 not in seen:
                        seen.add(s2)
                        nxt.append(s2)
        frontier = nxt
    everywhere = dict.fromkeys(seen, 1)
    out = []
    for move, m in zip(devastate, most, strict=True):
        bound = absorbed_after(everywhere, move, move.total, m, {})  # type: ignore[attr-defined]
        out.append(m if bound is None else bound)
    return out
