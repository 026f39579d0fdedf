"""Allocating damage to a target unit's models: which model takes the next wound and the one
damage transition (docs/rules.md, "Allocation").

A target unit is one or more model groups in allocation order. Its state is a tuple with one
``TargetState(models, wounds_lost)`` per group: the models left and the wounds already lost by
the group's damaged model. :func:`next_group` says which group takes the next wound,
:func:`lose` moves a state by one packet of damage, and :func:`packet_move`, :func:`wound_move`
and :func:`spill_move` are the steps the chain runner (:mod:`mathhammer.prob.markov`) takes;
attacks and every effect outside an attack are built from these.

>>> move = packet_move([Group(wounds=2)], [PMF.uniform([1, 2, 3])])
>>> after = chain({(TargetState(2, 0),): 1}, PMF.point(2), move)
>>> PMF(after).prob((TargetState(0, 0),))  # two packets kill both W2 models unless one is a 1
Fraction(4, 9)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import lcm

from ..model.state import Group, TargetState, UnitState
from ..prob.bigint import digit_width, pack, unpack
from ..prob.markov import Move, chain
from ..prob.pmf import PMF
from .damage import Loss, feel_no_pain

_ts = tuple.__new__  # a TargetState made without its Python __new__ (NamedTuple): the chains'
# steps make one per state they move to


def next_group(state: UnitState, groups: Sequence[Group], precision: bool = False) -> int | None:
    """Which group takes the next wound: Precision picks a CHARACTER while one stands; otherwise
    a wounded non-CHARACTER model, else the first non-CHARACTER group, then the CHARACTERs (a
    wounded one first). ``None`` when every model is destroyed.

    >>> s = (TargetState(0, 0), TargetState(3, 1), TargetState(1, 0))
    >>> g = (Group(1), Group(2), Group(3, character=True))
    >>> next_group(s, g), next_group(s, g, precision=True)
    (1, 2)
    """
    if len(state) == 1:  # one group: whoever is left
        return 0 if state[0].models else None

    def pick(wanted: bool) -> int | None:
        alive = [i for i, s in enumerate(state) if s.models and groups[i].character == wanted]
        wounded = [i for i in alive if state[i].wounds_lost]
        if wounded:
            return wounded[0]
        return alive[0] if alive else None

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
    new = (_ts(TargetState, (s.models - 1, 0)) if s.wounds_lost + e >= wounds
           else _ts(TargetState, (s.models, s.wounds_lost + e)))
    return state[:g] + (new,) + state[g + 1:]


def loss_total(losses: Sequence[Loss]) -> int:
    """The lcm of the totals of every law in ``losses`` (a group's loss may be one law per
    wounds its model has left, :data:`~mathhammer.mechanics.damage.Loss`)."""
    return lcm(*(law.total for loss in losses
                 for law in (loss if isinstance(loss, tuple) else (loss,))))


def loss_at(loss: Loss, wounds: int, wounds_lost: int) -> PMF:
    """The law of ``loss`` for a model of ``wounds`` W that has lost ``wounds_lost``.

    >>> loss_at((PMF.point(1), PMF.point(2)), 2, 1), loss_at(PMF.point(3), 2, 1)
    (PMF({1: 1})  # /1, PMF({3: 1})  # /1)
    """
    return loss[wounds - wounds_lost - 1] if isinstance(loss, tuple) else loss


def _scaled(loss: Loss, make: Callable[[PMF], list[tuple[int, int]]]) -> Items:
    return tuple(make(law) for law in loss) if isinstance(loss, tuple) else make(loss)


def packet_move(groups: Sequence[Group], losses: Sequence[Loss], precision: bool = False) -> Move:
    """One packet of damage (excess lost) on the model :func:`next_group` picks; ``losses[g]``
    is the wounds group ``g`` loses from it (after Feel No Pain; one law per wounds left when
    the Damage re-roll depends on them). Weights sum to the lcm of the losses' totals; a
    destroyed unit stays as it is. Losses that destroy the model lead to one state, listed
    once."""
    laws = [loss for loss in losses if isinstance(loss, PMF)]
    if len(laws) == len(losses):  # one law per group: the usual case
        total = lcm(*(law.total for law in laws))
        items: list[Items] = [[(e, w * (total // law.total)) for e, w in law.weights().items()]
                              for law in laws]
        return _allocated(groups, items, total, precision)
    total = loss_total(losses)
    items = [_scaled(loss, lambda law: [(e, w * (total // law.total))
                                        for e, w in law.weights().items()])
             for loss in losses]
    return _allocated(groups, items, total, precision)


def wound_move(groups: Sequence[Group], fails: Sequence[int], losses: Sequence[Loss],
               precision: bool = False) -> Move:
    """One wound on the model :func:`next_group` picks, its saving throw included: the save
    of group ``g`` fails on ``fails[g]`` faces of 6, and then the group loses ``losses[g]``
    (excess lost). Weights sum to 6 times the lcm of the losses' totals. For groups that save
    differently, where only the number of wounds is known before allocation.

    >>> move = wound_move([Group(wounds=1)], [2], [PMF.point(1)])  # a 5+ save, W1
    >>> move((TargetState(3, 0),))  # saved on 4 faces of 6, a model lost on 2
    [((TargetState(models=3, wounds_lost=0),), 4), ((TargetState(models=2, wounds_lost=0),), 2)]
    """
    scale = loss_total(losses)
    items: list[Items] = []
    for f, loss in zip(fails, losses, strict=True):
        saved = [(0, (6 - f) * scale)] if f < 6 else []

        def failed(law: PMF, f: int = f, saved: list[tuple[int, int]] = saved
                   ) -> list[tuple[int, int]]:
            return saved + [(e, f * w * (scale // law.total)) for e, w in law.weights().items()
                            if f]

        items.append(_scaled(loss, failed))
    return _allocated(groups, items, 6 * scale, precision)


#: one group's ``(wounds lost, weight)`` pairs, or one list per wounds its model has left
Items = list[tuple[int, int]] | tuple[list[tuple[int, int]], ...]


def _allocated(groups: Sequence[Group], items: list[Items], total: int,
               precision: bool) -> Move:
    """The move that takes ``e`` wounds from the model :func:`next_group` picks with weight
    ``w`` for each ``(e, w)`` of ``items[g]`` (of ``items[g][r - 1]`` when that is a tuple of
    lists, one per wounds left, and the model has ``r`` wounds left); equal next states
    merged."""
    if len(groups) == 1 and not isinstance(items[0], tuple):  # one group, one law: at once
        return _one_group(groups[0].wounds, items[0], total)

    def move(state: UnitState) -> list[tuple[UnitState, int]]:
        g = next_group(state, groups, precision)
        if g is None:
            return [(state, total)]
        out: dict[UnitState, int] = {}
        wounds = groups[g].wounds
        pairs = items[g]
        if isinstance(pairs, tuple):  # one list per wounds the model has left
            pairs = pairs[wounds - state[g].wounds_lost - 1]
        for e, w in pairs:
            s2 = lose(state, g, e, wounds)
            out[s2] = out.get(s2, 0) + w
        return list(out.items())

    move.total = total  # type: ignore[attr-defined]
    return move


def _one_group(wounds: int, pairs: list[tuple[int, int]], total: int) -> Move:
    """:func:`_allocated` for a unit of one group (one law): the next wound always goes to
    its damaged model, or to the next; the unit's state is a 1-tuple.

    >>> move = _one_group(2, [(1, 1), (2, 1)], 2)
    >>> move((TargetState(2, 1),))  # either loss destroys the wounded model
    [((TargetState(models=1, wounds_lost=0),), 2)]
    """
    def move(state: UnitState) -> list[tuple[UnitState, int]]:
        models, lost = state[0]
        if not models:
            return [(state, total)]
        out: dict[UnitState, int] = {}
        for e, w in pairs:
            s2 = state if not e else (_ts(TargetState, (models - 1, 0)),) if lost + e >= wounds \
                else (_ts(TargetState, (models, lost + e)),)
            out[s2] = out.get(s2, 0) + w
        return list(out.items())

    move.total = total  # type: ignore[attr-defined]
    move.one_group = (wounds, pairs)  # type: ignore[attr-defined]
    return move


def one_group_chain(keys: dict[tuple, int], count: PMF, move: Move) -> dict[tuple, int] | None:
    """:func:`~mathhammer.prob.markov.chain` of ``move`` (made by :func:`packet_move` or
    :func:`wound_move` for a unit of one group) for ``count`` steps from ``keys``, weights of
    ``(unit state, *tallies)`` keys, read off one random sum (of packed polynomials) instead
    of a chain over the states, when the group's models have one wound each (each step that
    takes any wound destroys a model: the count of those steps, capped) or every state is of
    one model at most (it loses the sum of the steps' losses, up to its wounds). None for
    any other move or state. The weights are over ``sum(keys)`` times the total of that
    count's or sum's weights (as a chain's: read by their sum).

    >>> move = packet_move([Group(wounds=3)], [PMF.uniform([1, 2])])
    >>> after = one_group_chain({((TargetState(1, 0),),): 1}, PMF.point(2), move)
    >>> PMF(after).prob(((TargetState(0, 0),),))  # 1 + 2, 2 + 1 or 2 + 2 of 3 wounds
    Fraction(3, 4)
    """
    spec = getattr(move, "one_group", None)
    if spec is None:
        return None
    wounds, pairs = spec
    if wounds > 1 and any(key[0][0].models > 1 for key in keys):
        taken = {e for e, _w in pairs}  # several models: only a fixed loss is read at once
        if len(taken) != 1 or 0 in taken:
            return None
        return _fixed_loss_chain(keys, count, wounds, taken.pop())
    loss: dict[int, int] = {}
    for e, w in pairs:
        e = min(e, 1) if wounds == 1 else e  # W1: whether the step destroys a model
        loss[e] = loss.get(e, 0) + w
    if wounds > 1:  # one model: the sum of its losses, capped at its wounds
        steps = _capped_sum(loss, count.weights(), wounds)
    elif len(loss) == 1 and 1 in loss:  # every step destroys a model: the count itself
        steps = count.weights()
    else:  # W1: how many steps take a wound
        steps = PMF._trusted(loss).random_sum(count).weights()
    out: dict[tuple, int] = {}
    whole = sum(steps.values())
    gone = (_ts(TargetState, (0, 0)),)
    for key, w in keys.items():
        state = key[0]
        models, lost = state[0]
        if not models:  # destroyed: it stays as it is
            out[key] = out.get(key, 0) + w * whole
            continue
        # the steps below ``room`` leave the unit standing (each a state of its own); every
        # other destroys it. ``steps`` is in order of its outcomes (a PMF's weights, or the
        # capped sum's), so the walk stops at the first that does
        room = models if wounds == 1 else wounds - lost
        standing = 0
        tail = key[1:]
        for x, p in steps.items():
            if x >= room:
                break
            s2 = state if not x else (_ts(TargetState, (models - x, 0)),) if wounds == 1 \
                else (_ts(TargetState, (1, lost + x)),)
            k2 = (s2, *tail)
            out[k2] = out.get(k2, 0) + w * p
            standing += p
        if standing < whole:
            k2 = (gone, *tail)
            out[k2] = out.get(k2, 0) + w * (whole - standing)
    return out


def _fixed_loss_chain(keys: dict[tuple, int], count: PMF, wounds: int,
                      e: int) -> dict[tuple, int]:
    """:func:`one_group_chain` of models of ``wounds`` W each of whose steps takes ``e``
    wounds (excess lost): the state after ``x`` steps is known at once. The damaged model
    falls after ``ceil((wounds - lost) / e)`` steps, each next one after ``ceil(wounds /
    e)``. The weights are over ``sum(keys) * count.total``.

    >>> keys = {((TargetState(3, 1),),): 1}  # W3 models, one wounded: D2 falls it at once
    >>> _fixed_loss_chain(keys, PMF.point(3), 3, 2)  # then 2 steps for the next
    {((TargetState(models=1, wounds_lost=0),),): 1}
    """
    per_model = -(-wounds // e)
    out: dict[tuple, int] = {}
    for key, w in keys.items():
        state = key[0]
        models, lost = state[0]
        first = -(-(wounds - lost) // e)  # the steps that destroy the damaged model
        for x, p in count.weights().items():
            if not models or not x:
                s2 = state
            elif x < first:
                s2 = (_ts(TargetState, (models, lost + x * e)),)
            else:
                destroyed, into = divmod(x - first, per_model)
                s2 = (_ts(TargetState, (0, 0)),) if destroyed + 1 >= models else (
                    _ts(TargetState, (models - destroyed - 1, into * e)),)
            k2 = (s2, *key[1:])
            out[k2] = out.get(k2, 0) + w * p
    return out


def _capped_sum(x: dict[int, int], counts: dict[int, int], cap: int) -> dict[int, int]:
    """Weights of min(cap, the sum of N copies of X), N ~ ``counts`` (X's weights ``x``, its
    outcomes >= 0), over ``sum(counts) * sum(x) ** max(N)``: Horner's form of
    :meth:`PMF.random_sum` on polynomials packed into one integer each (a digit per sum
    below ``cap``) and cut at ``cap`` after every product (a single model of ``cap`` wounds
    needs no more; the sum of 40 D6+1 losses would reach 280). The sums below ``cap`` are
    the uncut law's; the weight at ``cap`` is the rest of the total.

    >>> _capped_sum({1: 1, 2: 1}, {2: 1}, 3)  # 1+1, 1+2, 2+1, 2+2 capped at 3
    {2: 1, 3: 3}
    >>> _capped_sum({0: 1, 5: 1}, {0: 1, 1: 1}, 3)  # no copy, or one: 0 or 5, capped
    {0: 3, 3: 1}
    """
    total, top = sum(x.values()), max(counts)
    whole = sum(counts.values()) * total ** top  # every weight below, and their sum
    width = digit_width(whole)  # no coefficient is larger
    low = {e: w for e, w in x.items() if e < cap}  # a copy of cap or more: at cap at once
    px = pack(low, width, bits=8 * width * (cap + max(low) + 1)) if low else 0
    cut = (1 << (8 * width * cap)) - 1  # the digits of the sums below cap
    out = 0
    for k in range(top, -1, -1):  # ((c_top X + c_{top-1} T) X + c_{top-2} T^2) ...
        out = (out * px) & cut if out else 0
        out += counts.get(k, 0) * total ** (top - k)
    below = unpack(out, width) if out else {}
    rest = whole - sum(below.values())
    if rest:
        below[cap] = rest
    return below


def spill_move(groups: Sequence[Group], single: Sequence[PMF], amount: PMF,
               precision: bool = False) -> Move:
    """``amount`` mortal wounds applied one at a time, spilling over to the next model;
    ``single[g]`` is what one mortal wound costs group ``g`` (after Feel No Pain)."""
    one = packet_move(groups, single, precision)
    counts = amount.weights()
    top = max(counts)
    total = amount.total * one.total ** top  # type: ignore[attr-defined]

    def move(state: UnitState) -> list[tuple[UnitState, int]]:
        after = chain({state: 1}, amount, one)
        scale = total // sum(after.values())  # a chain that stops early sums to less
        return [(s, w * scale) for s, w in after.items()]

    move.total = total  # type: ignore[attr-defined]
    return move


def mortal_move(groups: Sequence[Group], fnps: Sequence[int | None], amount: PMF,
                excess_lost: bool, precision: bool = False) -> Move:
    """``amount`` mortal wounds as one step, Feel No Pain (``fnps[g]``) per wound: one packet
    that destroys at most one model when ``excess_lost`` (Devastating Wounds, Hazardous), else
    one wound at a time, spilling over to the next model.

    >>> two = mortal_move([Group(wounds=1)], [None], PMF.point(2), excess_lost=False)
    >>> list(chain({(TargetState(3, 0),): 1}, PMF.point(1), two))  # spilling: two W1 models
    [(TargetState(models=1, wounds_lost=0),)]
    """
    if excess_lost:
        return packet_move(groups, [feel_no_pain(amount, f) for f in fnps], precision)
    return spill_move(groups, [feel_no_pain(PMF.point(1), f) for f in fnps], amount, precision)
