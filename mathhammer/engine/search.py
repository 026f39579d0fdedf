"""The best fixed plan, proved: dynamic programming over the targets with branch and bound.

A fixed plan sends each *piece* (an attacking unit, or with ``--split`` one of its weapons) to
one target. The units that shoot a target resolve in the order given, its state carried from
one to the next, and different targets are rolled with different dice, so the value of a plan
is a sum over the targets: ``value = sum_t f_t(S_t)``, where ``S_t`` is the set of pieces sent
to target ``t`` and ``f_t(S)`` the exact expected worth of its state after them (the
objective: its points if destroyed, points per model, models). :func:`search` finds the plan
of the highest value among the candidate (piece, target) pairs it is given, and proves it:

1. **Chains.** Each target is a Markov chain over its states (models left, wounds lost, each
   group of an attached unit): the exact transition of every unit (each subset of its pieces
   with ``--split``) from every state that the candidates can reach
   (:class:`Problem`'s ``move``, the engine's one-unit step). ``f_t(S)`` is the chain run
   through the units of ``S`` in order (:meth:`_Chain.value`).
2. **Upper bounds.** For multipliers ``lam`` (one per piece), ``price_t = max_S f_t(S) -
   lam(S)``. For *any* ``lam``, every plan is worth at most ``sum(lam) + sum_t price_t``
   (:func:`lagrange_bound`: a plan's value is ``sum_t (f_t(S_t) - lam(S_t)) + sum(lam)``, since
   every piece goes to exactly one target, and each term is at most ``price_t``). The price of a
   target is itself found by branch and bound over subsets of its units, in order, with the
   bound :meth:`_Chain.tables`: ``W(k, s)``, the best a policy could get from state ``s`` with
   the units from the ``k``-th on if it could choose each unit after seeing the state
   (:func:`adaptive_bound`; a fixed subset is one such policy, so ``W`` bounds it), best first
   (:meth:`_Search.best_first`: stopped by the budget, the price is the highest bound of a
   branch still open, a bound as valid). ``lam`` is chosen by subgradient steps in floating
   point (any value gives a valid bound): on the adaptive bound, then on each target's subset
   found by coordinate ascent (:meth:`_Search.ascent`: cheap, whatever the number of units),
   then on the prices; the bound itself is computed exactly, with ``lam`` rounded to a
   rational.
3. **Dynamic programming over the targets.** The targets in order of their price; the state
   is which pieces are still free. At a target, the subsets of the free pieces whose reduced
   value ``f_t(S) - lam(S)`` could still lead to a plan better than the best so far are tried,
   best first; the completion of a state is memoised with its proved bound (so a state reached
   by two paths is solved once). Forced pieces: a piece whose last candidate target is this
   one goes here.
4. **Dominance.** Alike targets (the same profile, points, rules and candidates) are
   interchangeable: of alike targets in a row, the first takes the subset with the lowest
   piece. Alike units in a row (the same attack and candidates, next to each other in the
   order) are interchangeable too (no unit between them changes which fires first): each
   target takes the first of them still free. Either way every plan keeps one of its
   equivalents, of the same value, in the search.
5. **Anytime.** A local search (single moves and swaps) gives the first best plan; the search
   stops after ``budget`` steps (every phase within its share; a step is a subset or a state,
   and one more per :data:`WORK_UNIT` of the chains' work, so that a step takes about as long
   whatever the targets' states and the units' number), and then the best plan found
   is returned with its exact value and an exact upper bound on every plan (``bound``;
   ``gap = bound - value``, 0 when proved).

The next best *different* plan (``key``: what a plan does, alike units and targets aside) is
found the same way, among plans whose key differs from the best's.

Why one module: the chains, the bounds, the first plans and the dynamic programming share one
search state (:class:`_Search`: its chains' cached distributions, its multipliers, its memo
and its step budget); split apart, each would pass all of it to the others.

>>> from fractions import Fraction
>>> import mathhammer as mh
>>> from mathhammer.model.squad import initial_state, models_alive
>>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-3, damage=1)
>>> one = mh.Target(models=1, toughness=4, save=7, wounds=1)
>>> def move(unit, weapons, target, state):
...     return mh.attack((gun, 1), one, state=mh.PMF.point(state)).state
>>> worth = lambda t, s: Fraction((10, 20)[t] * (models_alive(s) == 0))
>>> p = Problem(pieces=(Piece(0, (0,)), Piece(1, (0,))), targets=2,
...             pairs=frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}), move=move,
...             start=lambda t: initial_state(one), worth=worth, unit_kinds=(0, 0))
>>> found = search(p)
>>> found.targets, found.value, found.gap  # one each: (10 + 20) * 25/36
((0, 1), Fraction(125, 6), Fraction(0, 1))
"""

from __future__ import annotations

import functools
import heapq
import math
import operator
import random
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from ..prob.pmf import PMF

#: steps the search may take by default (each a subset valued or a state of the targets
#: visited, and the chains' work, :data:`WORK_UNIT`): at most about 8 s of one core for any
#: plan of up to 20 x 20 of tests/benchmark.py's growth (--search)
BUDGET = 2_000_000
#: subgradient steps for the multipliers: on the adaptive bound (cheap), then on the prices;
#: the step halves after PATIENCE steps without a better bound; it aims at TARGET_SHARE of the
#: best plan's value
ADAPTIVE_STEPS, PRICE_STEPS, PATIENCE, TARGET_SHARE = 60, 40, 3, 0.95
#: steps on the coordinate ascent's subsets (:meth:`_Search.ascent`) between the two, and its
#: sweeps at most
ASCENT_STEPS, ASCENT_SWEEPS = 120, 4
#: units that may shoot one target from which the multipliers take the ascent's steps and the
#: prices are found best first (:attr:`_Search.bulky`)
BULKY_UNITS = 18
#: the multipliers are rounded to multiples of 1 / LAMBDA_DENOMINATOR (exact rationals)
LAMBDA_DENOMINATOR = 1 << 16
#: local searches from random starts (seeded) for the first plan
RESTARTS = 8
#: the beam searches for the first plan: subsets within these shares of the Lagrange bound's
#: lead over the best plan so far (of their targets' prices)
BEAM_SHARES = (0.25, 1.0)
#: shares of the budget: the multipliers (FIRST_SHARE), the prices at the last of them and the
#: first plans from them (PRICE_SHARE; a target not priced within it takes its adaptive
#: bound); of the rest, what a proof that stops leaves to tighten its bound (:func:`_tighten`,
#: at most TIGHTEN_ROUNDS searches). No phase goes past its share.
FIRST_SHARE, PRICE_SHARE, TIGHTEN_SHARE, TIGHTEN_ROUNDS = 0.25, 0.35, 0.25, 12
#: a step of the budget for this much of the chains' work (:attr:`_Chain.meter`: a state of a
#: distribution computed, times the prefix's length for the exact ones), on top of one per
#: subset or state: so that a step costs about as much time whatever the chains
WORK_UNIT = 64
#: the same for a plan with a target that many units may shoot (:attr:`_Search.bulky`): its
#: exact distributions after a long prefix cost more
BULKY_WORK_UNIT = 48
#: and its exact distributions' work for each state and unit of their prefix (their integers
#: grow with it; 1 for the others, as a float distribution's state)
BULKY_EXACT_WORK = 3
#: prefix distributions a chain keeps (it forgets them all past this, and recomputes)
MAX_CACHED = 200_000

State = Hashable


@attrs.frozen
class Piece:
    """What picks one target: a unit's weapons (all of them, or one with ``--split``)."""

    unit: int
    weapons: tuple[int, ...]


@attrs.frozen
class Problem:
    """A fixed plan to find: ``pieces`` in the order given (a unit's pieces together),
    ``targets`` targets, the candidate (piece, target) ``pairs``, and the exact one-unit step
    ``move(unit, weapons, target, state) -> PMF`` of next states, each target's ``start``
    state and the ``worth(target, state)`` of a state. Units of one ``unit_kinds`` number
    attack alike, targets of one ``target_kinds`` number are alike (interchangeable): two
    plans are the same plan when every kind of target receives the same kinds of unit (with
    the same weapons), as :meth:`mathhammer.engine.plan.Planner.plan_key` says."""

    pieces: tuple[Piece, ...]
    targets: int
    pairs: frozenset[tuple[int, int]]
    move: Callable[[int, tuple[int, ...], int, State], PMF] = attrs.field(eq=False)
    start: Callable[[int], State] = attrs.field(eq=False)
    worth: Callable[[int, State], Fraction] = attrs.field(eq=False)
    unit_kinds: tuple[int, ...] | None = None
    target_kinds: tuple[int, ...] | None = None


@attrs.frozen
class Found:
    """The best plan found (``targets``: each piece's target) with its exact ``value``, and
    ``bound``: no plan is worth more (proved). The next best different plan likewise
    (``runner_up``, None when every plan is the same plan). ``steps`` taken, and whether the
    search finished (``complete``: both bounds are then the values)."""

    targets: tuple[int, ...]
    value: Fraction
    bound: Fraction
    runner_up: tuple[int, ...] | None = None
    runner_value: Fraction | None = None
    runner_bound: Fraction | None = None
    steps: int = 0
    complete: bool = True
    #: the exact Lagrange bound at the start (before any branching) and its multipliers' sum
    root_bound: Fraction | None = None

    @property
    def gap(self) -> Fraction:
        """How much better than ``value`` the best plan can be (0: proved optimal)."""
        return self.bound - self.value

    @property
    def proved(self) -> bool:
        return self.bound == self.value


# -- one target's chain ------------------------------------------------------------------


@attrs.frozen
class _Option:
    """What a unit may send to a target: some of its pieces (a bit mask over all pieces), the
    weapons they fire, and their transitions (exact: integer weights over ``den``; float)."""

    mask: int
    weapons: tuple[int, ...]
    den: int
    rows: tuple[tuple[tuple[int, int], ...], ...]
    frows: tuple[tuple[tuple[int, float], ...], ...]


class _Chain:
    """One target's states (0 is its start), their worth, and the transitions of every option
    of every unit that may shoot it (``units``: in order; ``options[k]``: of the k-th)."""

    def __init__(self, problem: Problem, target: int, units: list[int],
                 masks: list[list[int]]):
        self.target = target
        self.units = units
        start = problem.start(target)
        index: dict[State, int] = {start: 0}
        states = [start]
        pmfs: dict[tuple[int, int, int], PMF] = {}
        todo = [start]
        opts = [[(m, tuple(sorted(w for p in _bits(m) for w in problem.pieces[p].weapons)))
                 for m in ms] for ms in masks]
        while todo:  # every state the units can reach, each unit from each state
            s = todo.pop()
            j = index[s]
            for k, u in enumerate(units):
                for o, (_m, weapons) in enumerate(opts[k]):
                    pmf = problem.move(u, weapons, target, s)
                    pmfs[(k, o, j)] = pmf
                    for s2 in pmf:
                        if s2 not in index:
                            index[s2] = len(states)
                            states.append(s2)
                            todo.append(s2)
        self.states = states
        worth = [Fraction(problem.worth(target, s)) for s in states]
        self.worth = worth
        self.wden = math.lcm(*(w.denominator for w in worth))
        self.wnum = [w.numerator * (self.wden // w.denominator) for w in worth]
        self.fworth = [float(w) for w in worth]
        self.options: list[list[_Option]] = []
        for k in range(len(units)):
            row = []
            for o, (m, weapons) in enumerate(opts[k]):
                got = [pmfs[(k, o, j)] for j in range(len(states))]
                den = math.lcm(*(p.total for p in got))
                rows = tuple(tuple((index[s2], w * (den // p.total))
                                   for s2, w in p.weights().items()) for p in got)
                frows = tuple(tuple((j2, w / den) for j2, w in r) for r in rows)
                row.append(_Option(m, weapons, den, rows, frows))
            self.options.append(row)
        #: each unit's pieces that may come here, and its option for each subset of them
        self.unit_mask = [functools.reduce(operator.or_, (o.mask for o in opts), 0)
                          for opts in self.options]
        self.option_of = [{o.mask: i for i, o in enumerate(opts)} for opts in self.options]
        self._dist: dict[tuple[tuple[int, int], ...], tuple[tuple[int, ...], int]] = {}
        #: the work of the distributions computed (states times the prefix's length for the
        #: exact ones, whose integers grow with it), shared with the search (:meth:`_Search.tick`)
        self.meter = [0]
        #: an exact distribution's work for each state and unit of its prefix (:attr:`meter`)
        self.exact_work = 1
        self._fdist: dict[tuple[tuple[int, int], ...], tuple[float, ...]] = {}
        self.values: dict[tuple[tuple[int, int], ...], Fraction] = {}
        #: the adaptive bound after a prefix from a unit on, for the search's exact tables:
        #: (numerator, denominator)
        self.dots: dict[tuple[tuple[tuple[int, int], ...], int], tuple[int, int]] = {}

    # exact distributions: integer weights over one denominator, prefixes of (unit, option)
    def dist(self, prefix: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], int]:
        got = self._dist.get(prefix)
        if got is None:
            if not prefix:
                got = ((1,) + (0,) * (len(self.states) - 1), 1)
            else:
                weights, den = self.dist(prefix[:-1])
                k, o = prefix[-1]
                opt = self.options[k][o]
                out = [0] * len(self.states)
                for j, w in enumerate(weights):
                    if w:
                        for j2, r in opt.rows[j]:
                            out[j2] += w * r
                den *= opt.den
                g = math.gcd(den, *out)
                got = (tuple(x // g for x in out), den // g)
                self.meter[0] += self.exact_work * len(out) * len(prefix)  # its integers grow
            if len(self._dist) >= MAX_CACHED:
                self._dist.clear()
            self._dist[prefix] = got
        return got

    def fdist(self, prefix: tuple[tuple[int, int], ...]) -> tuple[float, ...]:
        got = self._fdist.get(prefix)
        if got is None:
            if not prefix:
                got = (1.0,) + (0.0,) * (len(self.states) - 1)
            else:
                base = self.fdist(prefix[:-1])
                k, o = prefix[-1]
                rows = self.options[k][o].frows
                out = [0.0] * len(self.states)
                for j, w in enumerate(base):
                    if w:
                        for j2, r in rows[j]:
                            out[j2] += w * r
                got = tuple(out)
                self.meter[0] += len(out)
            if len(self._fdist) >= MAX_CACHED:
                self._fdist.clear()
            self._fdist[prefix] = got
        return got

    def value(self, prefix: tuple[tuple[int, int], ...]) -> Fraction:
        """``f_t``: the exact expected worth after the prefix's units, in order."""
        got = self.values.get(prefix)
        if got is None:
            weights, den = self.dist(prefix)
            got = Fraction(sum(map(operator.mul, weights, self.wnum)), den * self.wden)
            if len(self.values) >= MAX_CACHED:
                self.values.clear()
            self.values[prefix] = got
        return got

    def prefix(self, mask: int) -> tuple[tuple[int, int], ...]:
        """The prefix (unit, option) for the pieces ``mask`` sent here, in order."""
        return tuple((k, self.option_of[k][mask & um])
                     for k, um in enumerate(self.unit_mask) if mask & um)

    def fvalue(self, prefix: tuple[tuple[int, int], ...]) -> float:
        return sum(map(operator.mul, self.fdist(prefix), self.fworth))

    def option_costs(self, lam: Sequence[Any]) -> list[list[Any]]:
        """Each unit's options' costs at the multipliers ``lam``: the sum of its pieces'."""
        return [[sum(lam[p] for p in _bits(o.mask)) for o in opts] for opts in self.options]

    def tables(self, lam: Sequence[Any], exact: bool) -> list[Any]:
        """``W(k, s)`` for k = 0..len(units) (see :func:`adaptive_bound`): exact, each
        ``W(k)`` as integer numerators over one denominator (``lam``: Fractions whose
        denominators divide :data:`LAMBDA_DENOMINATOR`), or in floats."""
        if not exact:
            w = list(self.fworth)
            out: list[Any] = [w]
            for k in range(len(self.units) - 1, -1, -1):
                fcur = list(w)
                for opt in self.options[k]:
                    cost = sum(lam[p] for p in _bits(opt.mask))
                    for j, row in enumerate(opt.frows):
                        fv = sum(r * w[j2] for j2, r in row) - cost
                        if fv > fcur[j]:
                            fcur[j] = fv
                out.append(fcur)
                w = fcur
            return out[::-1]
        scale = LAMBDA_DENOMINATOR
        nums, den = list(self.wnum), self.wden  # W(k + 1) = nums / den
        ints: list[Any] = [(nums, den)]
        for k in range(len(self.units) - 1, -1, -1):
            opts = self.options[k]
            common = den * math.lcm(*(o.den for o in opts)) * scale
            cur = [x * (common // den) for x in nums]
            for opt in opts:
                cost = sum(lam[p].numerator * (scale // lam[p].denominator)
                           for p in _bits(opt.mask))  # over scale
                mul = common // (den * opt.den)
                off = cost * (common // scale)
                for j, row in enumerate(opt.rows):
                    v = sum(r * nums[j2] for j2, r in row) * mul - off
                    if v > cur[j]:
                        cur[j] = v
            g = math.gcd(common, *cur)
            nums, den = [x // g for x in cur], common // g
            ints.append((nums, den))
        return ints[::-1]

def _bits(mask: int) -> list[int]:
    """The positions of the bits set in ``mask``, lowest first.

    >>> _bits(0b1011)
    [0, 1, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def adaptive_bound(chain_rows: Sequence[Sequence[Sequence[Sequence[tuple[int, Fraction]]]]],
                   costs: Sequence[Sequence[Fraction]], worth: Sequence[Fraction]
                   ) -> list[list[Fraction]]:
    """The adaptive bound of one target, in plain rationals (the search computes the same in
    :meth:`_Chain.tables`): ``W[k][s]``, the most a policy can get from state ``s`` with units
    ``k``.. if it may choose, for each unit in turn and after seeing the state, one of the
    unit's options (``chain_rows[k][o][s]``: the next states with their probabilities; at a
    ``costs[k][o]``) or none; the final state is worth ``worth``.

    Proof that it bounds every fixed choice ``Q`` (an option or none for each unit ``>= k``):
    by backward induction, ``V_Q(n, s) = worth(s) = W[n][s]``; if ``V_Q(k + 1, .) <= W[k +
    1]`` pointwise, then ``V_Q(k, s)`` is either ``V_Q(k + 1, s)`` or ``sum_s' P(s, s')
    V_Q(k + 1, s') - cost``, each at most the corresponding term of the maximum that makes
    ``W[k][s]`` (the probabilities are non-negative). So ``E_D[V_Q(k, .)] <= E_D[W[k]]`` for
    any distribution ``D`` of states.

    >>> half = [[[(1, Fraction(1, 2)), (0, Fraction(1, 2))], [(1, Fraction(1))]]]
    >>> w = adaptive_bound([half, half], [[Fraction(0)], [Fraction(0)]], [0, 1])
    >>> w[0][0], w[1][0], w[2][0]  # from state 0: two tries at 1/2, one, none
    (Fraction(3, 4), Fraction(1, 2), 0)
    """
    w = list(worth)
    out = [w]
    for k in range(len(chain_rows) - 1, -1, -1):
        cur = list(w)
        for o, rows in enumerate(chain_rows[k]):
            for s, row in enumerate(rows):
                v = sum((p * w[s2] for s2, p in row), Fraction(0)) - costs[k][o]
                cur[s] = max(cur[s], v)
        w = cur
        out.insert(0, w)
    return out


def lagrange_bound(values: Sequence[dict[frozenset[int], Fraction]], lam: Sequence[Fraction]
                   ) -> Fraction:
    """The Lagrange bound from each target's value of every subset of pieces it may take
    (``values[t][S]``, the empty set included): ``sum(lam) + sum_t max_S (values[t][S] -
    lam(S))``. Every plan (each piece in exactly one target's subset) is worth at most this,
    whatever ``lam``: its value is ``sum_t (values[t][S_t] - lam(S_t)) + sum(lam)``.

    >>> v = [{frozenset(): Fraction(0), frozenset({0}): Fraction(3)},
    ...      {frozenset(): Fraction(0), frozenset({0}): Fraction(2)}]
    >>> lagrange_bound(v, [Fraction(0)]), lagrange_bound(v, [Fraction(3)])  # the best plan: 3
    (Fraction(5, 1), Fraction(3, 1))
    """
    total = sum(lam, Fraction(0))
    for vals in values:
        total += max(v - sum((lam[p] for p in s), Fraction(0)) for s, v in vals.items())
    return total


# -- the search ----------------------------------------------------------------------------

#: no completion (compares below every Fraction)
NEG = -math.inf


class _Stop(Exception):
    """The budget is spent; ``bound`` bounds every completion of the state that raised it
    that was not yet ruled out (None: not known there)."""

    def __init__(self, bound: Any = None):
        super().__init__(bound)
        self.bound = bound


Prefix = tuple[tuple[int, int], ...]


class _Search:
    """The state of one search (see the module's docstring)."""

    def __init__(self, problem: Problem, budget: int):
        self.p = problem
        self.budget = budget
        self.steps = 0
        self.stop_at = budget  # the step at which the current phase stops
        self.active = False  # a search (:meth:`run`) stops there; the other phases check it
        #: the best plan the current search (:meth:`run`) has found: its value and its path
        self.incumbent_value: Fraction | None = None
        self.incumbent_path: list[tuple[int, int]] | None = None
        n_pieces = len(problem.pieces)
        units = sorted({pc.unit for pc in problem.pieces})
        self.unit_pieces = {u: [i for i, pc in enumerate(problem.pieces) if pc.unit == u]
                            for u in units}
        allowed = [sorted(t for i2, t in problem.pairs if i2 == i) for i in range(n_pieces)]
        for i, ts in enumerate(allowed):
            if not ts:
                raise ValueError(f"piece {i} has no candidate target")
        self.allowed = allowed
        self.chains: list[_Chain] = []
        for t in range(problem.targets):
            us, masks = [], []
            for u in units:
                mine = [i for i in self.unit_pieces[u] if (i, t) in problem.pairs]
                if not mine:
                    continue
                us.append(u)
                masks.append([sum(1 << mine[b] for b in range(len(mine)) if sub >> b & 1)
                              for sub in range(1, 1 << len(mine))])  # every non-empty subset
            self.chains.append(_Chain(problem, t, us, masks))
        self.meter = [0]
        for ch in self.chains:
            ch.meter = self.meter
        self.uk = problem.unit_kinds or tuple(range(max(units) + 1))
        self.tk = problem.target_kinds or tuple(range(problem.targets))
        # alike targets: the same kind and the same candidate pieces
        takes = [frozenset(i for i in range(n_pieces) if (i, t) in problem.pairs)
                 for t in range(problem.targets)]
        self.target_class = [next(t2 for t2 in range(t + 1) if self.tk[t2] == self.tk[t] and
                                  takes[t2] == takes[t]) for t in range(problem.targets)]
        # alike units in a row (one piece each, the same candidates): the piece before, or -1
        self.run_prev = [-1] * n_pieces
        if all(len(ps) == 1 for ps in self.unit_pieces.values()):
            for i in range(1, n_pieces):
                a, b = problem.pieces[i - 1].unit, problem.pieces[i].unit
                if self.uk[a] == self.uk[b] and allowed[i - 1] == allowed[i]:
                    self.run_prev[i] = i - 1
        self.full = (1 << n_pieces) - 1
        #: a target that as many units may shoot as :data:`BULKY_UNITS`: its price is too many
        #: subsets for branch and bound in depth; the multipliers take the ascent's steps, and
        #: the prices are found best first (a bound when stopped)
        self.bulky = max((len(ch.units) for ch in self.chains), default=0) >= BULKY_UNITS
        #: the chains' work a step stands for (:meth:`tick`)
        self.work_unit = BULKY_WORK_UNIT if self.bulky else WORK_UNIT
        for ch in self.chains:
            ch.exact_work = BULKY_EXACT_WORK if self.bulky else 1
        #: the last float pricing without hints (:meth:`priced`): its multipliers, its answer
        self.priced_memo: dict[tuple[float, ...], tuple[list[Any], list[Any]]] = {}

    def tick(self) -> None:
        """One step, and one more for each :data:`WORK_UNIT` of the chains' work since."""
        work, unit = self.meter[0], self.work_unit
        self.steps += 1 + work // unit
        self.meter[0] = work % unit
        if self.active and self.steps > self.stop_at:
            raise _Stop

    # -- plans -----------------------------------------------------------------------------

    def masks(self, targets: Sequence[int]) -> list[int]:
        """The pieces each target receives (bit masks), from each piece's target."""
        out = [0] * self.p.targets
        for i, t in enumerate(targets):
            out[t] |= 1 << i
        return out

    def exact_value(self, targets: Sequence[int]) -> Fraction:
        return sum((ch.value(ch.prefix(m)) for ch, m in zip(self.chains, self.masks(targets),
                                                            strict=True)), Fraction(0))

    def float_value(self, targets: Sequence[int]) -> float:
        return sum(ch.fvalue(ch.prefix(m)) for ch, m in zip(self.chains, self.masks(targets),
                                                            strict=True))

    def canonical(self, targets: Sequence[int]) -> tuple[int, ...]:
        """Of the plans equivalent to ``targets`` by the dominance rules (alike units in a
        row, alike targets: the same value), one that is first in the order of the
        assignments (each piece's target, lowest first): runs of alike units take their
        targets lowest first, and alike targets their subsets by their lowest piece."""
        a = list(targets)
        runs, start = [], 0
        for i in range(1, len(a) + 1):
            if i == len(a) or self.run_prev[i] != i - 1:
                if i - start > 1:
                    runs.append((start, i))
                start = i
        classes: dict[int, list[int]] = {}
        for t, c in enumerate(self.target_class):
            classes.setdefault(c, []).append(t)
        groups = [ts for ts in classes.values() if len(ts) > 1]
        changed = True
        while changed:  # each change makes the assignment earlier in that order: it ends
            changed = False
            for i, j in runs:
                if a[i:j] != sorted(a[i:j]):
                    a[i:j], changed = sorted(a[i:j]), True
            masks = self.masks(a)
            for ts in groups:
                subs = sorted((masks[t] for t in ts), key=lambda m: (m == 0, m & -m))
                for t, m in zip(ts, subs, strict=True):
                    if masks[t] != m:
                        changed = True
                        for p in _bits(m):
                            a[p] = t
        return tuple(a)

    def part_key(self, t: int, mask: int) -> tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]:
        """What target ``t`` receiving the pieces ``mask`` is, alike units and targets aside:
        its kind and each unit's kind with the weapons it fires there."""
        per: dict[int, list[int]] = {}
        for i in _bits(mask):
            pc = self.p.pieces[i]
            per.setdefault(pc.unit, []).extend(pc.weapons)
        return (self.tk[t], tuple(sorted((self.uk[u], tuple(sorted(ws)))
                                         for u, ws in per.items())))

    def key(self, targets: Sequence[int]) -> Hashable:
        """Which plan an assignment is (:meth:`~mathhammer.engine.plan.Planner.plan_key`)."""
        return tuple(sorted(self.part_key(t, m) for t, m in enumerate(self.masks(targets))))

    # -- subsets of one target (its price, and the children of a state) --------------------

    def subsets(self, t: int, tables: Any, lam: Sequence[Any], exact: bool, free: int,
                theta: Any, forced: int = 0, above: int = -1, maximise: bool = False,
                runs: bool = True, hint: tuple[Prefix, int] | None = None,
                ftable: list[list[float]] | None = None,
                out: list[tuple[Any, Prefix, int]] | None = None
                ) -> list[tuple[Any, Prefix, int]]:
        """The subsets of the ``free`` pieces that target ``t`` may take whose reduced value
        ``f_t(S) - lam(S)`` is at least ``theta`` (None: every one; ``exact``: ``lam`` in
        multiples of ``1 / LAMBDA_DENOMINATOR``, else floats), as ``(reduced value,
        prefix, mask)``; with ``maximise`` only the best one (above ``theta``). Every
        ``forced`` piece is in; none at or below piece ``above``; of alike units in a row
        (``runs``), the first free one first. Branch and bound over the target's units in
        order, with the adaptive bound ``tables`` (:meth:`_Chain.tables`). A price (an upper
        bound) takes no ``runs``: the dominance rules hold for a plan's subsets together, not
        for one target's alone. ``hint``: a subset to start from when maximising. ``ftable``:
        the same tables in floats, a filter before the exact bound (:func:`_margin`). ``out``:
        where the subsets go (the best so far, when the budget stops a maximisation)."""
        ch = self.chains[t]
        n_units = len(ch.units)
        out = [] if out is None else out
        run_prev = self.run_prev if runs else [-1] * len(self.run_prev)
        mine = getattr(self, "tables", None)
        own = exact and mine is not None and tables is mine[t] and lam is self.lam_int and \
            ftable is self.ftables[t]
        # the proof's own tables: the multipliers' costs, the float filter's margin and its
        # dot products are the same at every state of the search (kept until :meth:`prepare`)
        kept = self.kept.get(t) if own else None
        if kept is None:
            kept = (ch.option_costs(lam),
                    _margin(ftable, lam, LAMBDA_DENOMINATOR) if exact and ftable is not None
                    else None, {})
            if own:
                self.kept[t] = kept
        costs, margin, fdots = kept
        low_mask = (2 << above) - 1 if above >= 0 else 0
        scale = LAMBDA_DENOMINATOR
        # the floor as integers (exact: lam are multiples of 1 / scale): fnum / fden; in floats
        floor: list[Any] = [theta, 0, 1, 0.0]

        def set_floor(x: Any) -> None:
            floor[0] = x
            if exact and x is not None:
                floor[1], floor[2], floor[3] = x.numerator * scale, x.denominator, float(x)

        set_floor(theta)
        if maximise and hint is not None:
            cost = sum(costs[k][o] for k, o in hint[0])
            red = ch.value(hint[0]) - Fraction(cost, scale) if exact else \
                ch.fvalue(hint[0]) - cost
            if theta is None or red > theta:
                set_floor(red)
                out.append((red, hint[0], hint[1]))

        dots = ch.dots if exact and mine is not None and tables is mine[t] else {}

        def reaches(prefix: Prefix, k: int, cost: Any) -> bool:
            """Whether the adaptive bound after ``prefix``, from unit ``k``, less ``cost``
            reaches the floor."""
            if exact:  # num / den >= fnum / (fden * scale) + cost / scale
                if margin is not None:  # the float filter: exact only when it is too close
                    assert ftable is not None
                    dot = fdots.get((prefix, k))
                    if dot is None:
                        dot = sum(map(operator.mul, ch.fdist(prefix), ftable[k]))
                        if len(fdots) >= MAX_CACHED:
                            fdots.clear()
                        fdots[(prefix, k)] = dot
                    gap = dot - floor[3] - cost / scale
                    near = margin * (1.0 + abs(floor[3]))
                    if gap < -near:
                        return False
                    if gap > near:
                        return True
                got = dots.get((prefix, k))
                if got is None:
                    weights, den = ch.dist(prefix)
                    w, wden = tables[k]
                    got = (sum(map(operator.mul, weights, w)), den * wden)
                    if len(dots) >= MAX_CACHED:
                        dots.clear()
                    dots[(prefix, k)] = got
                num, den = got
                fnum, fden = floor[1], floor[2]
                return num * scale * fden >= (fnum + cost * fden) * den
            return sum(map(operator.mul, ch.fdist(prefix), tables[k])) >= floor[0] + cost

        def rec(k: int, prefix: Prefix, mask: int, cost: Any) -> None:
            self.tick()
            if floor[0] is not None and not reaches(prefix, k, cost):
                return
            if k == n_units:
                red = ch.value(prefix) - Fraction(cost, scale) if exact else \
                    ch.fvalue(prefix) - cost
                if not maximise:
                    out.append((red, prefix, mask))
                elif floor[0] is None or red > floor[0]:
                    set_floor(red)
                    out[:] = [(red, prefix, mask)]
                return
            must = ch.unit_mask[k] & forced
            for o, opt in enumerate(ch.options[k]):
                m = opt.mask
                if m & ~free or must & ~m or m & low_mask:
                    continue
                q = run_prev[(m & -m).bit_length() - 1]
                if q >= 0 and free >> q & 1 and not mask >> q & 1:
                    continue  # an alike unit just before it is free and not taken: it goes first
                rec(k + 1, prefix + ((k, o),), mask | m, cost + costs[k][o])
            if not must:
                rec(k + 1, prefix, mask, cost)

        rec(0, (), 0, 0 if exact else 0.0)
        return out

    # -- multipliers (floating point) ------------------------------------------------------

    def priced(self, lam: Sequence[Any], exact: bool, tables_only: bool = False,
               hints: list[tuple[Prefix, int] | None] | None = None,
               ftables: list[Any] | None = None, until: int | None = None
               ) -> tuple[list[Any], list[tuple[Any, Prefix, int]]]:
        """Each target's tables and its price with its best subset ``(reduced value,
        prefix, mask)`` for ``lam`` (exact: ``lam`` as Fractions), once for alike targets
        (their chains are built alike); ``hints``: a subset to start from for each,
        ``ftables``: the float tables of ``lam`` (exact: the filter). Floats only, with
        ``until``: each target priced by :meth:`best_first` within its share of the steps
        left until then (its price then a bound, its subset the best found)."""
        memo_key = tuple(lam) if not exact and not tables_only and hints is None and \
            ftables is None else None
        if memo_key is not None and memo_key in self.priced_memo:
            return self.priced_memo[memo_key]
        assert until is None or not exact
        tables: list[Any] = []
        best: list[tuple[Any, Prefix, int]] = []
        lam_ints = [x.numerator * (LAMBDA_DENOMINATOR // x.denominator) for x in lam] \
            if exact else lam
        zero: Any = Fraction(0) if exact else 0.0
        left = sum(1 for t, c in enumerate(self.target_class) if c == t)
        for t, ch in enumerate(self.chains):
            c = self.target_class[t]
            if c != t:
                tables.append(tables[c])
                best.append(best[c])
                continue
            tables.append(ch.tables(lam, exact))
            if tables_only:
                best.append((zero, (), 0))
                continue
            if until is not None and self.bulky:  # best first, in its share of the steps left
                best.append(self.best_first(t, tables[t], lam, None if hints is None else
                                            hints[t], self.steps + max(
                                                0, until - self.steps) // left))
                left -= 1
                continue
            if until is not None:
                self.active, self.stop_at = True, until
            kept: list[tuple[Any, Prefix, int]] = []
            try:
                got = self.subsets(t, tables[t], lam_ints, exact, self.full, zero,
                                   maximise=True, runs=False,
                                   hint=None if hints is None else hints[t],
                                   ftable=None if ftables is None else ftables[t], out=kept)
            except _Stop:  # the price: the adaptive bound; the subset: the best one found
                got = [(tables[t][0][0], *(kept[0][1:] if kept else ((), 0)))]
            finally:
                if until is not None:
                    self.active = False
            best.append(got[0] if got else (zero, (), 0))
        if memo_key is not None:  # the same float multipliers priced again: the first plans'
            self.priced_memo = {memo_key: (tables, best)}  # and the proof's (the last kept)
        return tables, best

    def best_first(self, t: int, table: list[list[float]], lam: Sequence[float],
                   hint: tuple[Prefix, int] | None, until: int) -> tuple[float, Prefix, int]:
        """Target ``t``'s price at ``lam`` (floats) by best-first branch and bound over its
        units in order (the adaptive bound ``table``): ``(price, prefix, mask)`` with its
        best subset; stopped after ``until`` steps, the price is the highest bound of a
        branch still open (no subset in it is worth more) or the best subset's value, and the
        subset the best found. Every branch's prefix, with no more units, is itself a
        subset (an incumbent at once); ``hint`` another."""
        ch = self.chains[t]
        n_units = len(ch.units)
        costs = ch.option_costs(lam)
        inc: tuple[float, Prefix, int] = (0.0, (), 0)
        if hint is not None:
            cost = sum(costs[k][o] for k, o in hint[0])
            red = ch.fvalue(hint[0]) - cost
            if red > inc[0]:
                inc = (red, hint[0], hint[1])
        heap: list[tuple[float, int, int, Prefix, int, float]] = [
            (-table[0][0], 0, 0, (), 0, 0.0)]
        count = 1
        while heap:
            neg, _c, k, prefix, mask, cost = heap[0]
            if -neg <= inc[0]:
                return inc  # no branch open can beat the best subset: proved
            if self.steps >= until:
                return (-neg, inc[1], inc[2])
            heapq.heappop(heap)
            self.tick()
            here = ch.fdist(prefix)
            red = sum(map(operator.mul, here, ch.fworth)) - cost
            if red > inc[0]:
                inc = (red, prefix, mask)
            if k == n_units:
                continue
            nxt = table[k + 1]
            kids = [(sum(map(operator.mul, here, nxt)) - cost, prefix, mask, cost)]
            for o, opt in enumerate(ch.options[k]):
                p2, c2 = prefix + ((k, o),), cost + costs[k][o]
                kids.append((sum(map(operator.mul, ch.fdist(p2), nxt)) - c2, p2,
                             mask | opt.mask, c2))
            self.meter[0] += len(here) * (len(kids) + 1)  # the dot products
            for bound, p2, m2, c2 in kids:
                if bound > inc[0]:
                    heapq.heappush(heap, (-bound, count, k + 1, p2, m2, c2))
                    count += 1
        return inc

    def multipliers(self, target: float, until: int) -> list[float]:
        """Multipliers (one per piece) that make the Lagrange bound small: subgradient steps
        (Polyak's, toward ``target``, a little below a plan's value; halved after
        :data:`PATIENCE` steps without a better bound), first on the adaptive bound, then on
        the prices; until the search has taken ``until`` steps. Any multipliers give a valid
        bound; better ones prune more."""
        n = len(self.p.pieces)
        lam = [0.0] * n
        best = (math.inf, lam)
        scale, idle = 1.0, 0
        choices: dict[int, list[int]] = {}
        hints: list[tuple[Prefix, int] | None] = [None] * self.p.targets
        ascent = ASCENT_STEPS if self.bulky else 0
        for step in range(ADAPTIVE_STEPS + ascent + PRICE_STEPS):
            if self.steps > until:
                break
            priced = step >= ADAPTIVE_STEPS
            if step in (ADAPTIVE_STEPS, ADAPTIVE_STEPS + ascent):
                lam, scale, idle, best = best[1], 0.5, 0, (math.inf, best[1])
            total = sum(lam)
            grad = [1.0] * n
            if step >= ADAPTIVE_STEPS + ascent:  # the prices (from the ascent's subsets)
                _tables, bests = self.priced(lam, False, False, hints, until=until)
            elif priced:
                if self.steps + self.ascent_cost() > until:
                    break  # no time for another: nor for the prices
                bests = [self.ascent(t, lam, choices) for t in range(self.p.targets)]
                self.tick()
            else:
                all_tables, bests = self.priced(lam, False, True)
            if priced:
                hints = [(prefix, mask) if mask else None for _r, prefix, mask in bests]
            usage: dict[int, dict[int, float]] = {}
            for t, ch in enumerate(self.chains):
                if priced:
                    red, prefix, mask = bests[t]
                    total += red
                    for p in _bits(mask):
                        grad[p] -= 1.0
                else:
                    tables = all_tables[t]
                    total += tables[0][0]
                    c = self.target_class[t]
                    if c not in usage:
                        usage[c] = _usage(ch, tables, lam)
                    for p, used in usage[c].items():
                        grad[p] -= used
            if best[0] == math.inf or total < best[0] - 1e-12 * max(1.0, abs(best[0])):
                best, idle = (total, list(lam)), 0
            else:
                idle += 1
                if idle >= PATIENCE:
                    scale, idle = scale / 2, 0
            norm = sum(g * g for g in grad)
            if norm < 1e-18:
                break
            size = scale * max(total - target * TARGET_SHARE, 1e-9 * max(abs(total), 1.0)) \
                / norm
            lam = [x - size * g for x, g in zip(lam, grad, strict=True)]
        return best[1]

    def ascent_cost(self) -> int:
        """About the steps of one round of :meth:`ascent` (each class of targets, its starts,
        two sweeps each): one is not begun without them."""
        work = sum(3 * 2 * len(ch.states) * sum(len(opts) + 1 for opts in ch.options)
                   for t, ch in enumerate(self.chains) if self.target_class[t] == t)
        return work // self.work_unit

    def ascent(self, t: int, lam: Sequence[float], choices: dict[int, list[int]]
               ) -> tuple[float, Prefix, int]:
        """A good subset for target ``t``'s price at ``lam`` (floats; a lower estimate of the
        price, for the multipliers' steps): coordinate ascent over its units, each in turn
        taking its best option (or none) with the others fixed, from the last one found
        (``choices``, kept per class of alike targets) until no unit changes. Each unit's
        choice is valued with the distribution before it and the worth after it of the
        units after it: one product each."""
        c = self.target_class[t]
        ch = self.chains[c]
        n_units = len(ch.units)
        costs = ch.option_costs(lam)
        starts = [[len(opts) - 1 for opts in ch.options], [-1] * n_units]
        if c in choices:
            starts.insert(0, choices[c])
        best: tuple[float, list[int]] | None = None
        for start in starts:
            got = self._ascend(ch, list(start), costs)
            if best is None or got[0] > best[0] + 1e-12 * (1.0 + abs(best[0])):
                best = got
        assert best is not None
        red, pick = best
        choices[c] = pick
        prefix = tuple((k, o) for k, o in enumerate(pick) if o >= 0)
        mask = functools.reduce(operator.or_, (ch.options[k][o].mask for k, o in prefix), 0)
        return (red, prefix, mask) if red > 0.0 else (0.0, (), 0)

    def _ascend(self, ch: _Chain, pick: list[int], costs: list[list[float]]
                ) -> tuple[float, list[int]]:
        """:meth:`ascent` from one start ``pick`` (each unit's option, -1: none): its reduced
        value and the choice it ends with."""
        n_units = len(ch.units)
        width = len(ch.states)
        red = 0.0
        for _sweep in range(ASCENT_SWEEPS):
            after = [ch.fworth]  # after[i]: the worth before unit n - i, of the units after
            for k in range(n_units - 1, -1, -1):
                o = pick[k]
                self.meter[0] += width
                after.append(after[-1] if o < 0 else
                             [sum(r * after[-1][j2] for j2, r in row)
                              for row in ch.options[k][o].frows])
            after.reverse()
            dist = [0.0] * width
            dist[0] = 1.0
            changed, paid = False, 0.0
            for k in range(n_units):
                nxt = after[k + 1]
                best_v, best_o, best_d = sum(map(operator.mul, dist, nxt)), -1, dist
                for o, opt in enumerate(ch.options[k]):
                    self.meter[0] += width
                    out = [0.0] * width
                    for j, w in enumerate(dist):
                        if w:
                            for j2, r in opt.frows[j]:
                                out[j2] += w * r
                    v = sum(map(operator.mul, out, nxt)) - costs[k][o]
                    if v > best_v + 1e-12 * (1.0 + abs(best_v)):
                        best_v, best_o, best_d = v, o, out
                if best_o != pick[k]:
                    pick[k], changed = best_o, True
                dist = best_d
                if best_o >= 0:
                    paid += costs[k][best_o]
            red = sum(map(operator.mul, dist, ch.fworth)) - paid
            if not changed:
                break
        return red, pick

    # -- first plans (floating point) ------------------------------------------------------

    def starts(self) -> list[tuple[int, ...]]:
        """Where the local search starts: each piece in turn to the target where it adds the
        most (greedy, in the order given); each piece to its first candidate."""
        a: list[int] = []
        masks = [0] * self.p.targets
        for i in range(len(self.p.pieces)):
            best = None
            for t in self.allowed[i]:
                ch = self.chains[t]
                gain = ch.fvalue(ch.prefix(masks[t] | 1 << i)) - ch.fvalue(ch.prefix(masks[t]))
                if best is None or gain > best[0]:
                    best = (gain, t)
            assert best is not None
            a.append(best[1])
            masks[best[1]] |= 1 << i
        return [tuple(a), tuple(ts[0] for ts in self.allowed)]

    def lagrange_start(self, lam: Sequence[float], until: int | None = None
                       ) -> tuple[int, ...]:
        """A plan from the prices of ``lam`` (priced until the search has taken ``until``
        steps): the targets by price, each taking the pieces of its best subset still free;
        the rest greedily."""
        _tables, bests = self.priced(lam, False, until=until)
        picks = [(-red, t, mask) for t, (red, _p, mask) in enumerate(bests) if mask]
        a: list[int | None] = [None] * len(self.p.pieces)
        for _r, t, mask in sorted(picks):
            for p in _bits(mask):
                if a[p] is None:
                    a[p] = t
        return self.greedy(a)

    def beam(self, lam: Sequence[float], value: float, share: float, width: int = 30,
             children: int = 8) -> tuple[float, tuple[int, ...]] | None:
        """A plan and its value by beam search over the targets (floating point): the
        targets by price; at each, the ``width`` states of the highest Lagrange bound so far,
        each with its ``children`` best subsets within ``share`` of the Lagrange bound's lead
        over ``value`` (a plan's) of the target's price (any subset where a piece must go;
        a subset further below its price is in no plan better than ``value``)."""
        tables, bests = self.priced(lam, False)
        prices = [red for red, _p, _m in bests]
        order = sorted(range(self.p.targets), key=lambda t: (-prices[t], t))
        slack = share * max(sum(lam) + sum(prices) - value, 1e-9 * (1 + abs(value)))
        level = {t: i for i, t in enumerate(order)}
        last = [max(level[t] for t in ts) for ts in self.allowed]
        suffix = [0.0] * (len(order) + 1)
        for i in range(len(order) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + prices[order[i]]
        states: list[tuple[float, int, list[tuple[int, int]]]] = [(0.0, self.full, [])]
        for i, t in enumerate(order):
            nxt: dict[int, tuple[float, float, list[tuple[int, int]]]] = {}
            for value, free, path in states:
                forced = sum(1 << p for p in _bits(free) if last[p] == i)
                kids = self.subsets(t, tables[t], lam, False, free,
                                    None if forced else prices[t] - slack, forced)
                kids.sort(key=lambda c: (-c[0], c[2]))
                for _red, prefix, mask in kids[:children]:
                    v = value + self.chains[t].fvalue(prefix)
                    rest = free & ~mask
                    score = v + sum(lam[p] for p in _bits(rest)) + suffix[i + 1]
                    if rest not in nxt or nxt[rest][0] < score:
                        nxt[rest] = (score, v, path + [(t, mask)])
            ranked = sorted(nxt.items(), key=lambda kv: (-kv[1][0], kv[0]))[:width]
            states = [(v, rest, path) for rest, (_s, v, path) in ranked]
        done = [(v, path) for v, rest, path in states if not rest]
        if not done:
            return None
        best = max(done, key=lambda vp: vp[0])
        targets = [0] * len(self.p.pieces)
        for t, m in best[1]:
            for p in _bits(m):
                targets[p] = t
        return best[0], tuple(targets)

    def greedy(self, a: Sequence[int | None]) -> tuple[int, ...]:
        """``a`` completed: each piece without a target, in turn, to the target where it
        adds the most."""
        out = list(a)
        masks = [0] * self.p.targets
        for i, t in enumerate(out):
            if t is not None:
                masks[t] |= 1 << i
        for i, t in enumerate(out):
            if t is not None:
                continue
            best = None
            for t2 in self.allowed[i]:
                ch = self.chains[t2]
                gain = ch.fvalue(ch.prefix(masks[t2] | 1 << i)) - ch.fvalue(ch.prefix(masks[t2]))
                if best is None or gain > best[0]:
                    best = (gain, t2)
            assert best is not None
            out[i] = best[1]
            masks[best[1]] |= 1 << i
        self.meter[0] = 0
        return tuple(t for t in out if t is not None)

    def local(self, starts: Sequence[Sequence[int]],
              seen: dict[Hashable, tuple[float, tuple[int, ...]]] | None = None
              ) -> list[tuple[float, tuple[int, ...]]]:
        """Local search from each start (the best single move of each piece, then swaps of
        two pieces, until neither improves): the plans it ends with and their neighbours,
        the best of each key (:meth:`key`), best first (``seen``: of earlier searches)."""
        seen = {} if seen is None else seen
        n = len(self.p.pieces)

        def value_of(t: int, mask: int) -> float:
            ch = self.chains[t]
            return ch.fvalue(ch.prefix(mask))

        def note(v: float, plan: tuple[int, ...]) -> None:
            k = self.key(plan)
            if k not in seen or v > seen[k][0]:
                seen[k] = (v, plan)

        for start in starts:
            a = list(start)
            masks = self.masks(a)
            vals = [value_of(t, m) for t, m in enumerate(masks)]
            while True:
                moved = False
                for i in range(n):
                    t1 = a[i]
                    m1 = masks[t1] & ~(1 << i)
                    v1 = value_of(t1, m1)
                    best = None
                    for t2 in self.allowed[i]:
                        if t2 != t1:
                            v2 = value_of(t2, masks[t2] | 1 << i)
                            gain = v1 + v2 - vals[t1] - vals[t2]
                            if best is None or gain > best[0]:
                                best = (gain, t2, v2)
                    if best is not None and best[0] > 1e-12 * (1.0 + abs(sum(vals))):
                        _g, t2, v2 = best
                        masks[t1], masks[t2] = m1, masks[t2] | 1 << i
                        vals[t1], vals[t2], a[i], moved = v1, v2, t2, True
                if moved:
                    continue
                for i in range(n):
                    for i2 in range(i + 1, n):
                        t1, t2 = a[i], a[i2]
                        if t1 == t2 or t2 not in self.allowed[i] or t1 not in self.allowed[i2]:
                            continue
                        m1 = masks[t1] & ~(1 << i) | 1 << i2
                        m2 = masks[t2] & ~(1 << i2) | 1 << i
                        v1, v2 = value_of(t1, m1), value_of(t2, m2)
                        if v1 + v2 - vals[t1] - vals[t2] > 1e-12 * (1.0 + abs(sum(vals))):
                            masks[t1], masks[t2], vals[t1], vals[t2] = m1, m2, v1, v2
                            a[i], a[i2], moved = t2, t1, True
                if not moved:
                    break
            total = sum(vals)
            note(total, tuple(a))
            for i in range(n):  # its neighbours: candidates for the next best different plan
                t1 = a[i]
                v1 = value_of(t1, masks[t1] & ~(1 << i))
                for t2 in self.allowed[i]:
                    if t2 != t1:
                        v = total - vals[t1] - vals[t2] + v1 + value_of(t2, masks[t2] | 1 << i)
                        note(v, tuple(a[:i]) + (t2,) + tuple(a[i + 1:]))
        self.meter[0] = 0  # the first plans' work is not the budget's (no phase stops it)
        return sorted(seen.values(), key=lambda va: (-va[0], va[1]))

    def shuffled(self, count: int) -> list[tuple[int, ...]]:
        """``count`` starts with each piece at a random candidate (seeded: the same each
        time)."""
        rng = random.Random(len(self.p.pieces) * 1009 + self.p.targets)
        return [tuple(rng.choice(ts) for ts in self.allowed) for _ in range(count)]

    # -- dynamic programming over the targets ----------------------------------------------

    def prepare(self, lam: Sequence[Fraction]) -> None:
        """The exact tables and prices for ``lam`` (multiples of ``1 / LAMBDA_DENOMINATOR``),
        the order of the targets (by price), and the Lagrange bound (``root_bound``)."""
        self.lam = list(lam)
        self.lam_int = [x.numerator * (LAMBDA_DENOMINATOR // x.denominator) for x in self.lam]
        for ch in self.chains:
            ch.dots.clear()
        self.kept: dict[int, tuple[list[list[Any]], float | None, dict[Any, float]]] = {}
        self.ftables, rough = self.priced([float(x) for x in self.lam], False)
        self.tables, _zero = self.priced(self.lam, True, tables_only=True)
        prices = [_price_above(red, _margin(self.ftables[t], self.lam_int, LAMBDA_DENOMINATOR))
                  for t, (red, _p, _m) in enumerate(rough)]
        self.prices = prices
        self.order = sorted(range(self.p.targets),
                            key=lambda t: (-prices[t], self.target_class[t], t))
        level = {t: i for i, t in enumerate(self.order)}
        self.last_level = [max(level[t] for t in ts) for ts in self.allowed]
        self.suffix = [Fraction(0)] * (self.p.targets + 1)
        for i in range(self.p.targets - 1, -1, -1):
            self.suffix[i] = self.suffix[i + 1] + prices[self.order[i]]
        self.root_bound = sum(self.lam, Fraction(0)) + self.suffix[0]
        self.memo: dict[tuple[int, int, int], tuple[Any, list[tuple[int, int]] | None]] = {}

    def lam_of(self, mask: int) -> Fraction:
        return Fraction(sum(self.lam_int[p] for p in _bits(mask)), LAMBDA_DENOMINATOR)

    def need(self, value: Fraction) -> Fraction | None:
        """What a completion after a path worth ``value`` must beat (None: anything)."""
        return None if self.incumbent_value is None else self.incumbent_value - value

    def offer(self, value: Fraction, path: list[tuple[int, int]]) -> None:
        if self.incumbent_value is None or value > self.incumbent_value:
            self.incumbent_value, self.incumbent_path = value, list(path)

    def consume(self, rest: dict[Hashable, int], t: int, mask: int
                ) -> dict[Hashable, int] | None:
        """What the excluded plan still holds after target ``t`` takes ``mask`` (None: the
        path now differs from it)."""
        part = self.part_key(t, mask)
        if not rest.get(part):
            return None
        out = dict(rest)
        out[part] -= 1
        return out

    def solve(self, i: int, free: int, value: Fraction, above: int,
              path: list[tuple[int, int]], rest: dict[Hashable, int] | None) -> Any:
        """An upper bound, proved, on every completion from level ``i`` with the ``free``
        pieces after ``path`` (worth ``value``; NEG: none); a completion that makes a plan
        better than the incumbent becomes the incumbent. ``above``: the lowest piece the
        previous target took when it is alike (-2: it took none). ``rest``: what the excluded
        plan still holds when the path agrees with it so far (None: it does not)."""
        if i == len(self.order):
            if free or rest is not None:
                return NEG  # a piece left over, or the excluded plan itself
            self.offer(value, path)
            return Fraction(0)
        t = self.order[i]
        if not (i and self.target_class[self.order[i - 1]] == self.target_class[t]):
            above = -1
        base = self.lam_of(free) + self.suffix[i + 1]
        apriori = base + self.prices[t]  # the Lagrange bound of this state
        try:
            self.tick()
        except _Stop:
            raise _Stop(apriori) from None
        key = (i, free, above)
        if rest is None and key in self.memo:
            ub, completion = self.memo[key]
            need = self.need(value)
            if need is not None and ub <= need:
                return ub
            if completion is not None:  # solved before: its best completion
                self.offer(value + ub, path + completion)
                return ub
        need0 = self.need(value)
        forced = sum(1 << p for p in _bits(free) if self.last_level[p] == i)
        if above == -2:  # the alike target before took nothing: nor does this one
            children: list[tuple[Any, Prefix, int]] = [] if forced else [(Fraction(0), (), 0)]
        else:
            try:
                children = self.subsets(t, self.tables[t], self.lam_int, True, free,
                                        None if need0 is None else need0 - base, forced, above,
                                        ftable=self.ftables[t])
            except _Stop:
                raise _Stop(apriori) from None
            children.sort(key=lambda c: (-float(c[0]), -c[0], c[2]))  # floats: exact on ties
        ub = NEG if need0 is None else need0  # the subsets not listed are below it
        for n, (red, prefix, mask) in enumerate(children):
            need = self.need(value)
            if need is not None and red + base <= need:
                ub = max(ub, red + base)  # and so are the rest, best first
                break
            f = self.chains[t].value(prefix)
            nxt = None if rest is None else self.consume(rest, t, mask)
            low = (mask & -mask).bit_length() - 1 if mask else -2
            try:
                sub = self.solve(i + 1, free & ~mask, value + f, low, path + [(t, mask)], nxt)
            except _Stop as stop:
                later = children[n + 1][0] + base if n + 1 < len(children) else NEG
                raise _Stop(max(ub, f + stop.bound, later)) from None
            ub = max(ub, f + sub)
        if rest is None:
            solved = None
            if self.incumbent_path is not None and self.need(value) == ub and \
                    self.incumbent_path[:i] == path:
                solved = self.incumbent_path[i:]
            self.memo[key] = (ub, solved)
        return ub

    def run(self, incumbent: tuple[Fraction, tuple[int, ...] | None] | None,
            exclude: tuple[int, ...] | None, steps: int
            ) -> tuple[Fraction | None, tuple[int, ...] | None, Any, bool]:
        """One search of at most ``steps`` steps: the best plan better than ``incumbent``
        (value, plan; the plan may be None: a value to beat) and not the same plan as
        ``exclude``: ``(value, plan, bound, complete)``, the incumbent if none is better;
        ``bound`` bounds every plan (not ``exclude``), finished or not (NEG: there is
        none)."""
        self.stop_at = self.steps + steps
        self.incumbent_value = None if incumbent is None else incumbent[0]
        self.incumbent_path = None
        rest: dict[Hashable, int] | None = None
        if exclude is not None:
            rest = {}
            for t, m in enumerate(self.masks(exclude)):
                part = self.part_key(t, m)
                rest[part] = rest.get(part, 0) + 1
        self.active, complete = True, True
        try:
            ub = self.solve(0, self.full, Fraction(0), -1, [], rest)
        except _Stop as stop:
            ub, complete = stop.bound, False
        finally:
            self.active = False
        value = self.incumbent_value
        plan = None if incumbent is None else incumbent[1]
        if self.incumbent_path is not None:
            targets = [0] * len(self.p.pieces)
            for t, m in self.incumbent_path:
                for p in _bits(m):
                    targets[p] = t
            plan = tuple(targets)
        return value, plan, ub if value is None else max(ub, value), complete


#: how far a float bound must be from the floor, relative to the magnitudes involved, for the
#: search to trust its side without the exact bound (:func:`_margin`)
FLOAT_MARGIN = 1e-9


def _margin(ftable: list[list[float]], lam: Sequence[int], scale: int) -> float:
    """The float filter's margin for one target's tables: :data:`FLOAT_MARGIN` times the
    magnitude of what is summed (the tables' largest value and the multipliers' sum). The
    float bound is a dot product of probabilities (each a product of at most one factor per
    unit, rounded) with the float tables (at most one max of dot products per unit, each
    rounded); its error is at most about ``(units + 1) * (states + pieces) * 2**-53`` times
    that magnitude, below ``1e-11`` of it for 20 units of 1,000 states: the margin is a
    hundred times that, so a float bound beyond it is on the same side as the exact one.

    >>> _margin([[1.0, -2.0], [0.5, 0.0]], [65536, 0], 65536)  # 1e-9 * (2 + 1 + 1)
    4e-09
    """
    top = max((abs(x) for row in ftable for x in row), default=0.0)
    return FLOAT_MARGIN * (top + sum(abs(x) for x in lam) / scale + 1.0)


def _price_above(red: float, margin: float) -> Fraction:
    """An exact upper bound on a target's price from its price found in floating point
    (``red``: the best subset's reduced value, 0 for the empty one), :func:`_margin` of its
    tables ``margin``. The float search prunes a subset only where its float bound is below
    the float value of one found, and each of the two is within ``margin * (1 + |red|)`` of
    its exact value (:func:`_margin`): so no subset's exact reduced value is above ``red`` by
    more than twice that (a subset valued is at most ``red`` in floats, so likewise).

    >>> _price_above(2.0, 1e-9) > Fraction(2) + Fraction(59, 10**10)  # 2 + 2 * 1e-9 * (1 + 2)
    True
    """
    return Fraction(max(red, 0.0)) + Fraction(2.0 * margin * (1.0 + abs(red)))


def _usage(ch: _Chain, tables: list[list[float]], lam: Sequence[float]) -> dict[int, float]:
    """How likely the adaptive policy of ``tables`` is to send each piece to the chain's
    target (floats: for the multipliers' steps)."""
    occ = [0.0] * len(ch.states)
    occ[0] = 1.0
    used: dict[int, float] = {}
    for k, opts in enumerate(ch.options):
        nxt = tables[k + 1]
        costs = [sum(lam[p] for p in _bits(o.mask)) for o in opts]
        out = [0.0] * len(ch.states)
        for j, here in enumerate(occ):
            if not here:
                continue
            pick, best = None, nxt[j]
            for opt, cost in zip(opts, costs, strict=True):
                v = sum(r * nxt[j2] for j2, r in opt.frows[j]) - cost
                if v > best:
                    pick, best = opt, v
            if pick is None:
                out[j] += here
                continue
            for p in _bits(pick.mask):
                used[p] = used.get(p, 0.0) + here
            for j2, r in pick.frows[j]:
                out[j2] += here * r
        occ = out
    return used


def search(problem: Problem, budget: int = BUDGET) -> Found:
    """The best plan of ``problem`` and the next best different plan, each with its exact
    value and a proved bound (see the module's docstring), within about ``budget`` steps:
    :data:`FIRST_SHARE` of them for the first plans and the multipliers, the rest for the
    proof (and, when it finishes, the next best plan's); a proof that stops leaves
    :data:`TIGHTEN_SHARE` of the rest to :func:`_tighten` the bound."""
    s = _Search(problem, budget)
    first_end = int(budget * FIRST_SHARE)
    seen: dict[Hashable, tuple[float, tuple[int, ...]]] = {}
    found = s.local(s.starts(), seen)
    floats = s.multipliers(found[0][0], first_end)
    # rounded as the proof takes them (exact rationals): its float prices are the first plans'
    lam = [Fraction(round(x * LAMBDA_DENOMINATOR), LAMBDA_DENOMINATOR) for x in floats]
    floats = [float(x) for x in lam]
    price_end = first_end + int(budget * PRICE_SHARE)
    found = s.local([s.lagrange_start(floats, price_end), *s.shuffled(RESTARTS)], seen)
    for share in BEAM_SHARES:  # narrow first, then as wide as the better plan allows
        if s.steps > price_end:
            break
        s.active, s.stop_at = True, price_end
        try:
            beamed = s.beam(floats, found[0][0], share)
        except _Stop:
            beamed = None
        finally:
            s.active = False
        if beamed is not None and beamed[0] > found[0][0]:
            found = s.local([beamed[1]], seen)
    s.prepare(lam)  # its prices: the first plans' (priced above)
    first = found[0][1]
    left = max(budget - s.steps, 1)
    value, plan, bound, complete = s.run((s.exact_value(first), first), None,
                                         int(left * (1 - TIGHTEN_SHARE)))
    assert value is not None and plan is not None
    key = s.key(plan)
    others = [a for _v, a in found if s.key(a) != key]
    inc2 = (s.exact_value(others[0]), others[0]) if others else None
    end = s.steps + int(left * TIGHTEN_SHARE)
    if complete:
        value2, runner, bound2, complete = s.run(inc2, plan, max(1, end - s.steps))
    else:  # no proof: the best different plan the local search saw; the bound tightened
        value, plan, bound = _tighten(s, value, plan, bound, end)
        value2, runner = inc2 if inc2 is not None else (None, None)
        bound2 = bound
    if runner is None:
        value2 = bound2 = None
    else:
        runner = s.canonical(runner)
    return Found(s.canonical(plan), value, bound, runner, value2, bound2, s.steps, complete,
                 s.root_bound)


def _tighten(s: _Search, value: Fraction, plan: tuple[int, ...], bound: Fraction, end: int
             ) -> tuple[Fraction, tuple[int, ...], Fraction]:
    """A lower bound, by bisection, after a search that stopped: a search for a plan better
    than ``at``, between the best plan's ``value`` and ``bound``, prunes more than one for a
    plan better than ``value``; if it finishes without one, no plan is worth more than
    ``at``; if it finds one, that is the best plan; if it stops, ``at`` was too low for the
    steps it had. Each search has half the steps left until ``end``; whatever the outcome,
    its bound is a bound. Returns the best plan, its value and the bound."""
    low = value
    for _ in range(TIGHTEN_ROUNDS):
        if s.steps >= end or bound <= value:
            break
        at = low + (bound - low) / 2
        got, better, ub, complete = s.run((at, None), None, max(1, (end - s.steps) // 2))
        bound = min(bound, max(ub, value))
        if better is not None and got is not None:
            value, plan, low = got, better, max(low, got)
        elif not complete:
            low = at  # too low to finish: try higher
    return value, plan, bound
