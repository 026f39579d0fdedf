"""The plan search (issue 33): its optimum is the exhaustive enumeration's, exactly; its gap is
a proved bound (>= 0, and 0 when it is proved)."""

import itertools
import random
from fractions import Fraction as F

import pytest

import mathhammer as mh
from mathhammer.engine.plan import Aim, Objective, Planner, Shooter
from mathhammer.engine.search import Piece, Problem, _Search, _tighten, search
from mathhammer.prob.pmf import PMF

CAP = 4  # a synthetic target's state: the damage it has taken, at most CAP


def synthetic(seed: int, units: int, targets: int, split: bool = False) -> Problem:
    """A random plan: each (unit kind, weapon, target kind) deals 0-2 damage with random
    exact odds, a unit's weapons together (their sum), capped at CAP; each state of each
    target kind has a random worth (not monotone: the order of the units matters). Some
    units and targets are alike (one kind); each piece has one to all targets."""
    rng = random.Random(seed)
    uk = tuple(rng.randrange(max(1, units - 1)) for _ in range(units))
    tk = tuple(rng.randrange(max(1, targets - 1)) for _ in range(targets))
    n_weapons = 2 if split else 1
    odds = {(k, w, j): [rng.randrange(4) for _ in range(3)]
            for k in set(uk) for w in range(n_weapons) for j in set(tk)}
    for key, ws in odds.items():
        if not any(ws):
            odds[key] = [1, 0, 0]
    worth = {(j, d): F(rng.randrange(12)) for j in set(tk) for d in range(CAP + 1)}

    def move(u, weapons, t, state):
        dist = PMF.point(0)
        for w in weapons:
            one = PMF({x: n for x, n in enumerate(odds[(uk[u], w, tk[t])]) if n})
            dist = PMF(_sum(dist, one))
        return PMF(_shift(dist, state))

    pieces = tuple(Piece(u, (w,)) for u in range(units) for w in range(n_weapons)) if split \
        else tuple(Piece(u, (0,)) for u in range(units))
    pairs = set()
    for i in range(len(pieces)):
        ts = rng.sample(range(targets), rng.randint(1, targets))
        pairs |= {(i, t) for t in ts}
    return Problem(pieces, targets, frozenset(pairs), move=move, start=lambda t: 0,
                   worth=lambda t, s: worth[(tk[t], s)], unit_kinds=uk, target_kinds=tk)


def _sum(a: PMF, b: PMF) -> dict[int, int]:
    out: dict[int, int] = {}
    for x, wa in a.weights().items():
        for y, wb in b.weights().items():
            out[x + y] = out.get(x + y, 0) + wa * wb
    return out


def _shift(dist: PMF, state: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for x, w in dist.weights().items():
        s = min(CAP, state + x)
        out[s] = out.get(s, 0) + w
    return out


def enumerate_plans(p: Problem) -> list[tuple[F, tuple[int, ...], tuple]]:
    """Every assignment of the pieces to their candidate targets with its exact value (each
    target's units in order, a unit's pieces there together) and which plan it is (what each
    kind of target receives), by brute force over the problem's own steps."""
    allowed = [sorted(t for i2, t in p.pairs if i2 == i) for i in range(len(p.pieces))]
    out = []
    for targets in itertools.product(*allowed):
        value, key = F(0), []
        for t in range(p.targets):
            per: dict[int, list[int]] = {}
            for pc, t2 in zip(p.pieces, targets, strict=True):
                if t2 == t:
                    per.setdefault(pc.unit, []).extend(pc.weapons)
            dist = PMF.point(p.start(t))
            for u in sorted(per):
                parts = [(dist.prob(s), p.move(u, tuple(sorted(per[u])), t, s)) for s in dist]
                dist = PMF.mix(parts)
            value += sum((dist.prob(s) * p.worth(t, s) for s in dist), F(0))
            key.append((p.target_kinds[t], tuple(sorted((p.unit_kinds[u], tuple(sorted(ws)))
                                                        for u, ws in per.items()))))
        out.append((value, targets, tuple(sorted(key))))
    return out


def value_of(p: Problem, targets: tuple[int, ...]) -> F:
    return next(v for v, a, _k in enumerate_plans(p) if a == targets)


@pytest.mark.parametrize("seed", range(40))
def test_the_search_finds_the_enumerations_optimum_and_next_best(seed):
    rng = random.Random(1000 + seed)
    split = seed % 4 == 3
    p = synthetic(seed, rng.randint(1, 3 if split else 5), rng.randint(1, 4), split)
    plans = enumerate_plans(p)
    best = max(v for v, _a, _k in plans)
    found = search(p)
    assert found.complete and found.proved and found.gap == 0
    assert found.value == best == found.bound
    assert value_of(p, found.targets) == best  # the plan given is worth what it says
    key = next(k for v, a, k in plans if a == found.targets)
    others = [v for v, _a, k in plans if k != key]
    if not others:
        assert found.runner_up is None
    else:  # the next best different plan, also proved
        assert found.runner_value == max(others) == found.runner_bound
        assert value_of(p, found.runner_up) == found.runner_value
        assert next(k for v, a, k in plans if a == found.runner_up) != key


@pytest.mark.parametrize("budget", [1, 30, 300, 3000])
def test_a_search_that_stops_gives_a_proved_gap(budget):
    # 6 units into 4 targets, 4,096 assignments: the budget stops the proof at first
    p = synthetic(7, 6, 4)
    plans = enumerate_plans(p)
    best = max(v for v, _a, _k in plans)
    found = search(p, budget)
    assert found.value == value_of(p, found.targets) <= best <= found.bound
    assert found.gap == found.bound - found.value >= 0
    assert found.proved == (found.gap == 0)
    if budget == 1:
        assert not found.complete
    full = search(p)
    assert full.proved and full.value == best


@pytest.mark.parametrize("seed", range(12))
def test_every_bound_of_a_stopped_search_holds(seed):
    # the proof alone, from the worst plan as the incumbent and multipliers of 0 (a weak
    # Lagrange bound: the search must branch), stopped after a few steps; then the bisection
    # of the bound: every bound it gives is at least the enumeration's optimum
    p = synthetic(500 + seed, 5, 3)
    plans = enumerate_plans(p)
    best = max(v for v, _a, _k in plans)
    worst_value, worst = min((v, a) for v, a, _k in plans)
    for steps in (1, 4, 16, 64, 10**6):
        s = _Search(p, 10**9)
        s.prepare([F(0)] * len(p.pieces))
        value, plan, bound, complete = s.run((worst_value, worst), None, steps)
        assert value == value_of(p, plan) <= best <= bound
        if complete:
            assert value == bound == best
        value, plan, bound = _tighten(s, value, plan, bound, s.steps + steps)
        assert value == value_of(p, plan) <= best <= bound


def test_a_stopped_search_is_told_by_the_command(cli):
    # 5 different units into 4 different targets (1,024 assignments), 1 step: the plan found
    # and its gap; in full: proved, and its value within the stopped one's gap
    import json

    units = [f'{n}x Gun{k} | 24" | {a} | 3+ | {s} | {ap} | {d}'
             for k, (n, a, s, ap, d) in enumerate([(4, 1, 4, 0, 1), (2, 2, 8, -2, 2),
                                                   (1, 3, 5, -1, 1), (3, 1, 9, -3, 3),
                                                   (5, 1, 3, 0, 1)])]
    aims = ["3x T4 Sv3+ W2", "1x T8 Sv3+ W6", "5x T3 Sv5+ W1", "2x T5 Sv2+ W3"]
    args = ["plan", *units, *(a for t in aims for a in ("-t", t)), "--objective", "models"]
    r = cli(*args, "--search-budget", "1", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    gap = F(data["gap"])
    assert gap > 0 and not data["proved"]
    text = cli(*args, "--search-budget", "1").output
    assert "not proved" in text and "gap" in text
    full = json.loads(cli(*args, "--json").output)
    assert full["proved"] and F(full["gap"]) == 0
    assert F(data["best"]["value"]) <= F(full["best"]["value"]) <= \
        F(data["best"]["value"]) + gap


W = mh.Weapon
SHOOTERS = [
    Shooter.of("bolters", [(W("bolter", attacks=2, skill=3, strength=4, ap=0, damage=1), 4)]),
    Shooter.of("melta", [(W("melta", attacks=1, skill=3, strength=9, ap=-4, damage="D6"), 1)]),
    Shooter.of("two guns", [(W("plasma", attacks=1, skill=3, strength=7, ap=-2, damage=2), 2),
                            (W("flamer", attacks="D3", skill=None, strength=4, ap=0, damage=1,
                               abilities=["torrent"]), 1)]),
    Shooter.of("bolters #2", [(W("bolter", attacks=2, skill=3, strength=4, ap=0, damage=1), 4)]),
]
AIMS = [
    Aim("3x MEQ", mh.Target(models=3, toughness=4, save=3, wounds=2), 60),
    Aim("Leader + 2", mh.Squad((mh.Target(models=2, toughness=4, save=3, wounds=2),
                                mh.Target(models=1, toughness=4, save=3, wounds=4, invuln=4,
                                          keywords=["CHARACTER"]))), 90),
    Aim("3x MEQ #2", mh.Target(models=3, toughness=4, save=3, wounds=2), 60),
]


@pytest.mark.parametrize("objective", list(Objective))
@pytest.mark.parametrize("split", [False, True])
def test_best_equals_the_enumeration_of_every_assignment(objective, split):
    # the real engine's steps (engine/sequence): Planner.best (the search) against
    # Planner.fixed (every assignment valued exactly, ranked)
    planner = Planner(SHOOTERS, AIMS, objective, split=split)
    ranked = planner.fixed()
    found = planner.best()
    assert found.proved and found.gap == 0 and found.bound == ranked[0].value
    assert found.best.value == ranked[0].value
    assert found.best.value == next(a.value for a in ranked if a.targets == found.best.targets)
    runner = planner.runner_up(ranked)
    assert found.runner_up is not None and runner is not None
    assert found.runner_up.value == runner.value and found.runner_proved
    assert planner.plan_key(found.runner_up) != planner.plan_key(found.best)


@pytest.mark.parametrize("budget", [1, 50, 500, 5000])
def test_no_phase_goes_past_the_budget(budget):
    # every phase (the multipliers, the prices and first plans, the proof, its bisection)
    # stops at its share: the search takes at most the budget, and one step more per phase
    # and per search of the bisection (each stops at the step past its end)
    from mathhammer.engine.search import TIGHTEN_ROUNDS

    p = synthetic(11, 7, 5)
    found = search(p, budget)
    assert found.steps <= budget + 4 + TIGHTEN_ROUNDS
    plans = enumerate_plans(p)
    assert found.value == value_of(p, found.targets) <= max(v for v, _a, _k in plans) <= \
        found.bound


@pytest.mark.parametrize("seed", range(8))
def test_a_price_from_floats_bounds_the_exact_price(seed):
    # the proof's price of each target is its float price and twice the float margin; the
    # exact price (branch and bound in exact arithmetic, as before) is never above it, for
    # random multipliers (multiples of 1/2**16), and the adaptive bound is above both
    from mathhammer.engine.search import LAMBDA_DENOMINATOR, _margin, _price_above

    p = synthetic(300 + seed, 5, 3)
    s = _Search(p, 10**9)
    rng = random.Random(seed)
    lam = [F(rng.randrange(0, 8 * LAMBDA_DENOMINATOR), LAMBDA_DENOMINATOR)
           for _ in p.pieces]
    floats = [float(x) for x in lam]
    ftables, rough = s.priced(floats, False)
    tables, exact = s.priced(lam, True)
    ints = [x.numerator * (LAMBDA_DENOMINATOR // x.denominator) for x in lam]
    for t in range(p.targets):
        above = _price_above(rough[t][0], _margin(ftables[t], ints, LAMBDA_DENOMINATOR))
        nums, den = tables[t][0]
        assert exact[t][0] <= above <= exact[t][0] + F(1, 10**6) and \
            exact[t][0] <= F(nums[0], den)
        # and the enumeration's price: the most any subset of its candidates yields
        ch = s.chains[t]
        subsets = itertools.product(*[[None] + list(range(len(o))) for o in ch.options])
        best = max(ch.value(pre) - sum((lam[i] for k, o in pre
                                        for i in range(len(p.pieces))
                                        if ch.options[k][o].mask >> i & 1), F(0))
                   for pre in (tuple((k, o) for k, o in enumerate(c) if o is not None)
                               for c in subsets))
        assert best == exact[t][0]


def test_alike_targets_and_units_share_their_steps():
    # two targets of one profile (points differ: not alike in the plan) and two units that
    # attack alike: each one-unit step is resolved once, and the plan is the enumeration's
    gun = mh.Weapon("Gun", attacks=2, skill=3, strength=5, ap=-1, damage=1)
    body = mh.Target(models=3, toughness=4, save=4, wounds=1)
    shooters = [Shooter.of("A", [(gun, 2)]), Shooter.of("B", [(gun, 2)])]
    aims = [Aim("X", body, 30), Aim("Y", body, 40)]
    pl = Planner(shooters, aims, Objective.POINTS)
    best = pl.best()
    one = Planner(shooters, aims[:1], Objective.POINTS)
    one.best()
    assert len(pl._moves) == len(one._moves)  # as many steps as into one of the targets
    assert best.proved and best.best.value == pl.fixed()[0].value


def _enumerated_price(s, p, t, lam):
    """The most any subset of target ``t``'s candidates yields at ``lam`` (exact), by
    enumeration of every option (or none) of each of its units."""
    ch = s.chains[t]
    subsets = itertools.product(*[[None] + list(range(len(o))) for o in ch.options])
    return max(ch.value(pre) - sum((lam[i] for k, o in pre for i in range(len(p.pieces))
                                    if ch.options[k][o].mask >> i & 1), F(0))
               for pre in (tuple((k, o) for k, o in enumerate(c) if o is not None)
                           for c in subsets))


@pytest.mark.parametrize("seed", range(10))
def test_a_best_first_price_stopped_or_not_bounds_the_enumerations(seed):
    # best-first pricing stopped after 0, 1, 3, 10 steps and unstopped: its price (with the
    # float margin, as the proof takes it) is never below the enumeration's price, its subset
    # is worth what it says and no more than the price; unstopped it is the price itself
    from mathhammer.engine.search import LAMBDA_DENOMINATOR, _margin, _price_above

    p = synthetic(700 + seed, 5, 3, split=seed % 3 == 2)
    rng = random.Random(seed)
    lam = [F(rng.randrange(0, 6 * LAMBDA_DENOMINATOR), LAMBDA_DENOMINATOR) for _ in p.pieces]
    floats = [float(x) for x in lam]
    ints = [x.numerator * (LAMBDA_DENOMINATOR // x.denominator) for x in lam]
    s = _Search(p, 10**9)
    ftables, _rough = s.priced(floats, False, True)
    for t in range(p.targets):
        price = _enumerated_price(s, p, t, lam)
        margin = _margin(ftables[t], ints, LAMBDA_DENOMINATOR)
        for steps in (0, 1, 3, 10, 10**9):
            red, prefix, mask = s.best_first(t, ftables[t], floats, None, s.steps + steps)
            assert _price_above(red, margin) >= price
            got = s.chains[t].value(prefix) - sum((lam[i] for i in range(len(p.pieces))
                                                   if mask >> i & 1), F(0))
            assert got <= price
            if steps == 10**9:
                assert abs(red - float(price)) < 1e-9 * (1 + abs(float(price)))


@pytest.mark.parametrize("seed", range(10))
def test_the_ascent_is_a_subset_below_the_price(seed):
    # the multipliers' coordinate ascent: a real subset, worth (in floats) what it says, never
    # above the enumeration's price; no unit alone changes it for the better
    p = synthetic(800 + seed, 5, 3, split=seed % 3 == 2)
    rng = random.Random(seed)
    lam = [F(rng.randrange(0, 6 * 1024), 1024) for _ in p.pieces]
    floats = [float(x) for x in lam]
    s = _Search(p, 10**9)
    for t in range(p.targets):
        red, prefix, mask = s.ascent(t, floats, {})
        ch = s.chains[s.target_class[t]]
        exact = ch.value(prefix) - sum((lam[i] for i in range(len(p.pieces)) if mask >> i & 1),
                                       F(0))
        assert abs(float(exact) - red) < 1e-9 * (1 + abs(red)) or (red == 0.0 and exact <= 0)
        assert exact <= _enumerated_price(s, p, t, lam)


@pytest.mark.parametrize("seed", range(16))
def test_a_stopped_search_states_a_gap_at_least_the_real_one(seed):
    # random plans, stopped at every budget from 1 step to the proof: the plan is worth what
    # it says, the bound is at least the enumeration's optimum (the stated gap at least the
    # real one), and a search that finishes is proved
    rng = random.Random(900 + seed)
    p = synthetic(900 + seed, rng.randint(4, 6), rng.randint(2, 4))
    plans = enumerate_plans(p)
    best = max(v for v, _a, _k in plans)
    for budget in (1, 10, 100, 1000, 10**6):
        found = search(p, budget)
        assert found.value == value_of(p, found.targets) <= best <= found.bound
        assert found.gap >= best - found.value >= 0
        if found.complete:
            assert found.proved and found.value == best
