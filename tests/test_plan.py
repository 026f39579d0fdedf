"""Several units into one target, plans for a phase, adaptive plans (issue 23)."""

import itertools
import json
import os
from fractions import Fraction as F
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer import Target, Weapon
from mathhammer.engine.plan import Aim, Objective, Planner, Shooter, salvo, until
from mathhammer.errors import InputError
from mathhammer.model.squad import initial_state, models_alive

# each attack deals its damage with 2/3 (3+ to hit) * 1/2 (S4 vs T4) = 1/3: no save (Sv7+)
ONE = Weapon("One", attacks=1, skill=3, strength=4, ap=0, damage=1)
TWO = Weapon("Two", attacks=1, skill=3, strength=4, ap=0, damage=2)
PAIR = Target(models=2, toughness=4, save=7, wounds=2)


def test_two_units_into_one_target_by_hand():
    # A: 4 attacks of D1, each through with 1/3: d ~ Binomial(4, 1/3) wounds lost
    # P(d) = 16/81, 32/81, 24/81, 8/81, 1/81 for d = 0..4, so (models, wounded):
    # (2, 0), (2, 1), (1, 0), (1, 1), destroyed. B: 1 attack of D2, through with 1/3: it
    # destroys a fresh or a wounded model (excess lost), so from (2, 0) or (2, 1) one model
    # is left, from (1, x) none.
    a, b = Shooter.of("A", [(ONE, 4)]), Shooter.of("B", [(TWO, 1)])
    t = salvo(PAIR, [a, b])
    assert t.destroyed == [F(1, 81), F(1, 81) + F(32, 81) * F(1, 3)]  # = 35/243
    # models left 2: (16 + 32)/81 * 2/3; 1: 48/81 * 1/3 + 32/81 * 2/3; 0: 35/243
    assert dict(t.models_left) == {2: F(32, 81), 1: F(112, 243), 0: F(35, 243)}
    assert dict(t.kills) == {0: F(32, 81), 1: F(112, 243), 2: F(35, 243)}
    # the same as the engine's attacks chained by hand, each from the state the last left
    state = mh.attack((ONE, 4), PAIR).state
    assert t.final == mh.attack((TWO, 1), PAIR, state=state).state
    # the other order: B first leaves (1, 0) with 1/3, then A needs 2 of 4 (33/81), else
    # (2, 0) and A needs 4 of 4 (1/81): 1/3 * 33/81 + 2/3 * 1/81 = 35/243 again
    assert salvo(PAIR, [b, a]).destroyed == [0, F(35, 243)]
    assert until(t, [a, b], F(1, 81)) == 1
    assert until(t, [a, b], F(35, 243)) == 2
    assert until(t, [a, b], F(1, 2)) is None


def test_each_unit_has_its_own_options_and_rules():
    a = Shooter.of("A", [(ONE, 4)], mh.Options(reroll_hits="failed"))
    b = Shooter.of("B", [(TWO, 1)])
    t = salvo(PAIR, [a, b])
    # re-rolled hits: 8/9 * 1/2 = 4/9 per attack for A only
    state = mh.attack((ONE, 4), PAIR, reroll_hits="failed").state
    assert t.final == mh.attack((TWO, 1), PAIR, state=state).state
    assert t.states[1].map(models_alive).prob(0) == F(4, 9) ** 4


def test_a_leaders_group_is_carried():
    leader = Target(models=1, toughness=4, save=7, wounds=2, keywords=["CHARACTER"],
                    name="Leader")
    squad = mh.Squad((Target(models=1, toughness=4, save=7, wounds=1, name="Body"), leader))
    a, b = Shooter.of("A", [(ONE, 2)]), Shooter.of("B", [(TWO, 1)])
    t = salvo(squad, [a, b])
    state = mh.attack((ONE, 2), squad).state
    assert t.final == mh.attack((TWO, 1), squad, state=state).state
    # the bodyguard takes the first wound: A kills it with 1 - (2/3)**2 = 5/9
    assert t.states[1].map(lambda s: s[0].models).prob(0) == F(5, 9)


def _value_by_hand(shooters, aims, targets, objective):
    """One assignment's value, every target's units chained with mh.attack in order."""
    total = F(0)
    for t, aim in enumerate(aims):
        state = None
        for i, sh in enumerate(shooters):
            if targets[i] == t:
                state = mh.attack(list(sh.profiles), aim.target, state=state).state
        if state is None:
            continue
        full = models_alive(initial_state(aim.target))
        for s, p in state.items():
            killed = full - models_alive(s)
            worth = {Objective.MODELS: F(killed),
                     Objective.POINTS: F(aim.points if killed == full else 0),
                     Objective.MODEL_POINTS: F(aim.points * killed, full)}[objective]
            total += p * worth
    return total


SHOOTERS = [Shooter.of("A", [(ONE, 4)]), Shooter.of("B", [(TWO, 2)]),
            Shooter.of("C", [(ONE, 2), (TWO, 1)])]
AIMS = [Aim("pair", PAIR, 40), Aim("lone", Target(models=1, toughness=4, save=7, wounds=3), 50)]


@pytest.mark.parametrize("objective", list(Objective))
def test_a_plan_ranks_every_assignment_as_enumerated_by_hand(objective):
    planner = Planner(SHOOTERS, AIMS, objective)
    ranked = planner.fixed()
    assert len(ranked) == 2 ** 3
    by_hand = {combo: _value_by_hand(SHOOTERS, AIMS, combo, objective)
               for combo in itertools.product(range(2), repeat=3)}
    assert {tuple(t[0] for t in a.targets): a.value for a in ranked} == by_hand
    assert ranked[0].value == max(by_hand.values())
    assert [a.value for a in ranked] == sorted(by_hand.values(), reverse=True)


def test_the_best_plan_by_hand():
    # two units, each destroying a lone W1 model with 5/6 * 5/6 = 25/36 (BS2+, S8 vs T4)
    gun = Weapon("Gun", attacks=1, skill=2, strength=8, ap=0, damage=1)
    one = Target(models=1, toughness=4, save=7, wounds=1)
    a, b = Shooter.of("A", [(gun, 1)]), Shooter.of("B", [(gun, 1)])
    p = Planner([a, b], [Aim("X", one, 10), Aim("Y", one, 20)], Objective.POINTS)
    ranked = p.fixed()
    # one each: (10 + 20) * 25/36 = 125/6; both into Y: 20 * (1 - (11/36)**2) = 5875/324
    assert ranked[0].value == F(125, 6) and ranked[1].value == F(125, 6)
    assert ranked[2].value == F(5875, 324) and ranked[2].targets == ((1,), (1,))
    # adapting: A into Y; if Y fell (25/36) B into X, else B into Y again:
    # 25/36 * (20 + 10 * 25/36) + 11/36 * 20 * 25/36 = 14875/648
    ad = p.adaptive()
    assert ad.exact and ad.value == F(25, 36) * (20 + F(250, 36)) + F(11, 36) * F(500, 36)
    assert ad.first[0][0] == (1,)
    assert {st[0].models: c for st, _, c in ad.second} == {0: (0,), 1: (1,)}


def _expectimax(shooters, aims, objective, unit, states):
    """The best adaptive value by brute force over histories: at each unit try every target,
    resolving the attack with mh.attack from each exact state (no memo, no joint DP)."""
    if unit == len(shooters):
        total = F(0)
        for aim, s in zip(aims, states, strict=True):
            full = models_alive(initial_state(aim.target))
            killed = full - models_alive(s)
            total += {Objective.MODELS: F(killed),
                      Objective.POINTS: F(aim.points if killed == full else 0)}[objective]
        return total
    best = None
    for t, aim in enumerate(aims):
        after = mh.attack(list(shooters[unit].profiles), aim.target,
                          state=mh.PMF.point(states[t])).state
        v = sum((p * _expectimax(shooters, aims, objective, unit + 1,
                                 states[:t] + (s,) + states[t + 1:])
                 for s, p in after.items()), F(0))
        best = v if best is None or v > best else best
    return best


def _best_policy_by_enumeration(shooters, aims, objective):
    """Two units: every policy (the first's target, then the second's for each outcome)."""
    start = tuple(initial_state(a.target) for a in aims)
    best = None
    for t0 in range(len(aims)):
        after = list(mh.attack(list(shooters[0].profiles), aims[t0].target).state.items())
        for picks in itertools.product(range(len(aims)), repeat=len(after)):
            v = F(0)
            for (s, p), t1 in zip(after, picks, strict=True):
                states = start[:t0] + (s,) + start[t0 + 1:]
                nxt = mh.attack(list(shooters[1].profiles), aims[t1].target,
                                state=mh.PMF.point(states[t1])).state
                for s2, q in nxt.items():
                    v += p * q * _expectimax(shooters, aims, objective, 2,
                                             states[:t1] + (s2,) + states[t1 + 1:])
            best = v if best is None or v > best else best
    return best


@pytest.mark.parametrize("objective", [Objective.POINTS, Objective.MODELS])
def test_adaptive_policy_against_brute_force(objective):
    two = SHOOTERS[:2]
    planner = Planner(two, AIMS, objective)
    ad = planner.adaptive()
    assert ad.exact
    assert ad.value == _best_policy_by_enumeration(two, AIMS, objective)
    three = Planner(SHOOTERS, AIMS, objective).adaptive()
    start = tuple(initial_state(a.target) for a in AIMS)
    assert three.exact and three.value == _expectimax(SHOOTERS, AIMS, objective, 0, start)
    assert three.value >= Planner(SHOOTERS, AIMS, objective).fixed()[0].value


def test_adaptive_within_a_budget_is_a_policy_between_fixed_and_best():
    planner = Planner(SHOOTERS, AIMS, Objective.POINTS)
    fixed = planner.fixed()[0].value
    exact = planner.adaptive()
    assert planner.adaptive(budget=1).depth == 0
    assert planner.adaptive(budget=1).value == fixed  # adapts for no unit: the fixed plan
    partial = planner.adaptive(budget=1 + exact.states[1])
    assert partial.depth == 1 and not partial.exact
    assert fixed <= partial.value <= exact.value
    # adapting for the first unit only, by hand: its best target, then the best fixed plan of
    # B and C from each outcome (enumerated)
    best = None
    for t0 in range(2):
        after = mh.attack(list(SHOOTERS[0].profiles), AIMS[t0].target).state
        v = F(0)
        for s, p in after.items():
            rest = max(
                sum((_rest_value(t, s if t == t0 else None, [i + 1 for i in range(2)
                                                              if combo[i] == t])
                     for t in range(2)), F(0))
                for combo in itertools.product(range(2), repeat=2))
            v += p * rest
        best = v if best is None or v > best else best
    assert partial.value == best


def _rest_value(t, state, units):
    aim = AIMS[t]
    st = mh.PMF.point(state) if state is not None else None
    for i in units:
        st = mh.attack(list(SHOOTERS[i].profiles), aim.target, state=st).state
    if st is None:
        st = mh.PMF.point(initial_state(aim.target))
    full = models_alive(initial_state(aim.target))
    return sum((p * (aim.points if models_alive(s) == 0 else 0) for s, p in st.items()), F(0)) \
        if full else F(0)


def test_split_weapons_pick_their_own_targets():
    planner = Planner(SHOOTERS, AIMS, Objective.MODELS, split=True)
    ranked = planner.fixed()
    assert len(ranked) == 2 * 2 * 4  # C has two weapons
    whole = Planner(SHOOTERS, AIMS, Objective.MODELS).fixed()[0].value
    assert ranked[0].value >= whole
    # C's One at the pair and its Two at the lone model, A and B as the plan says
    a = next(r for r in ranked if r.targets == ((0,), (1,), (0, 1)))
    pair = mh.attack((ONE, 4), PAIR).state
    pair = mh.attack((ONE, 2), PAIR, state=pair).state
    lone = mh.attack((TWO, 2), AIMS[1].target).state
    lone = mh.attack((TWO, 1), AIMS[1].target, state=lone).state
    assert a.value == pair.map(lambda s: 2 - s.models).mean() + lone.map(
        lambda s: 1 - s.models).mean()


def test_fewest_units_for_a_target():
    planner = Planner(SHOOTERS, AIMS, Objective.MODELS)
    # P(pair destroyed) alone: A needs 4 of 4 attacks through: 1/81; B both its D2 attacks:
    # 1/9; C one D1 of two can't: 1/3 * 1/3 * 1/3 for D1+D1 and the D2 = 1/27. One unit
    # suffices for 1/81, and B, the likeliest of them, is chosen
    f = planner.fewest(0, F(1, 81))
    assert f.units == (1,) and f.destroyed == F(1, 9)
    assert planner.fewest(0, F(1, 27)).units == (1,)
    every = planner.fewest(0, F(1))
    assert every.units is None and every.tried == 7
    sets = {u: planner.after(0, tuple((i, (0, 1) if i == 2 else (0,)) for i in u)).map(
        models_alive).prob(0) for k in (1, 2, 3) for u in itertools.combinations(range(3), k)}
    p = max(v for u, v in sets.items() if len(u) == 2)
    f = planner.fewest(0, p)
    assert len(f.units) == 2 and f.destroyed == p


def test_points_are_needed_for_a_points_plan():
    with pytest.raises(InputError, match="points are not known"):
        Planner(SHOOTERS, [Aim("x", PAIR)], Objective.POINTS)


# -- the command line ----------------------------------------------------------------------

A = "4x One | 24\" | 1 | 3+ | 4 | 0 | 1"
B = "1x Two | 24\" | 1 | 3+ | 4 | 0 | 2"
T = "2x T4 Sv7+ W2"


def test_kills_several_units_into_one_target(cli):
    r = cli.ok("kills", A, B, "-t", T, "--until", "1/10")
    words = [" ".join(line.split()) for line in r.output.splitlines()]
    # models left after A: 2 * 48/81 + 1 * 32/81 = 128/81; after B: 2 * 32/81 + 112/243
    assert "1. 4x One 1.23% 1.580 1/81" in words
    assert "2. 1x Two 14.40% 1.251 35/243" in words
    assert "models left 1.251 304/243" in words
    assert "P(destroyed) >= 10.00%: the first 2 units (4x One, 1x Two)" in words
    data = json.loads(cli.ok("kills", A, B, "-t", T, "--json", "--until", "0.5").output)
    assert [u["destroyed"] for u in data["after_units"]] == ["1/81", "35/243"]
    assert data["pmf"]["kills"] == {"0": "32/81", "1": "112/243", "2": "35/243"}
    assert data["until"] == {"p": "1/2", "units": None}


def test_odds_several_units_and_per_unit_options(cli):
    assert cli.ok("odds", A, B, "-t", T, "--destroy", "--exact").output == "35/243\n"
    # A re-rolls failed hits: each of its attacks through with 4/9
    r = cli.ok("odds", f"{A} --reroll-hits failed", B, "-t", T, "--at-least", "1", "--exact")
    state = mh.attack((ONE, 4), PAIR, reroll_hits="failed").state
    final = mh.attack((TWO, 1), PAIR, state=state).state
    assert F(r.output.strip()) == final.map(lambda s: 2 - s.models).at_least(1)


TOUGH = """name = "Tough Pair"
faction = "Test"
keywords = ["INFANTRY"]

[[models]]
count = 2
toughness = 4
save = "7+"
wounds = 2

[[abilities.text]]
name = "Thick Hide"
text = "Each time an attack is allocated to a model in this unit, subtract 1 from the Damage \
characteristic of that attack."
"""


def test_several_units_meet_the_targets_own_rules(cli, tmp_path):
    # the target of T with its ability (Damage - 1, never below 1): A's D1 stays 1, B's D2 is
    # 1, so the pair (4 wounds) falls only to 4 or 5 of the 5 attacks getting through (1/3
    # each): 5 * (1/3)^4 * (2/3) + (1/3)^5 = 11/243 (35/243 without the rule, as above)
    tough = tmp_path / "tough.toml"
    tough.write_text(TOUGH, encoding="utf-8")
    assert cli.ok("odds", A, B, "-t", str(tough), "--destroy", "--exact").output == "11/243\n"
    # one unit with -t is the same attack as kills ATTACKER TARGET, rules and all
    one = json.loads(cli.ok("kills", B, "-t", str(tough), "--json").output)
    two = json.loads(cli.ok("kills", B, str(tough), "--json").output)
    assert one["target_rules"] == ["Thick Hide"] and two["unit_rules"] == ["Thick Hide"]
    assert one["pmf"]["kills"] == two["pmf"]["kills"] == {"0": "1/1"}
    assert "target rules: Thick Hide" in cli.ok("kills", A, B, "-t", str(tough)).output
    # table -t TARGET too: B's D2 is 1, so 1/3 an attack through and no model falls (W2);
    # A's four D1 attacks: 4/3 damage whatever the rule (never below 1)
    grid = json.loads(cli.ok("table", A, B, "-t", str(tough), "--metric", "damage",
                          "--format", "json").output)
    assert [r["values"][0]["exact"] for r in grid["rows"]] == ["4/3", "1/3"]
    assert grid["columns"][0]["rules"] == ["Thick Hide"]


def test_kills_several_units_refuses_what_it_cannot_do(cli):
    assert "--until" in cli("kills", A, T, "--until", "0.5").output
    r = cli("kills", A, B, "-t", T, "--turns", "2")
    assert r.exit_code == 2 and "--turns" in r.output
    r = cli("kills", A, B, "-t", T, "--until", "2")
    assert r.exit_code == 2 and "probability '2'" in r.output
    r = cli("kills", f"{A} --bogus", "-t", T)
    assert r.exit_code == 2 and "--bogus" in r.output
    r = cli("kills", f"{A} --target-models 1", B, "-t", T)
    assert r.exit_code == 2 and "--target-models is the command's, not one unit's" in r.output


def test_plan_command_matches_the_library(cli):
    r = cli.ok("plan", A, B, "-t", T, "-t", "1x T4 Sv7+ W3", "--points", f"{T}=40",
            "--points", "1x T4 Sv7+ W3=50", "--json", "--adaptive")
    data = json.loads(r.output)
    planner = Planner([Shooter.of("A", [(ONE, 4)]), Shooter.of("B", [(TWO, 1)])], AIMS,
                      Objective.POINTS)
    ranked = planner.fixed()
    assert F(data["best"]["value"]) == ranked[0].value
    assert F(data["lead"]) == ranked[0].value - ranked[1].value
    assert F(data["adaptive"]["value"]) == planner.adaptive().value
    assert data["assignments"] == 4


def test_plan_try_says_which_switch_helps_most(cli):
    r = cli.ok("plan", A, B, "-t", T, "-t", "1x T4 Sv7+ W3", "--objective", "models",
            "--try", "--reroll-hits ones", "--try", "--reroll-hits failed")
    last = r.output.strip().splitlines()[-1]
    assert last.startswith("best: --reroll-hits failed, ahead of the next by")
    # re-rolling failed hits beats re-rolling ones: each attack 8/9 instead of 7/9 to hit
    aims = [Aim("pair", PAIR), Aim("lone", AIMS[1].target)]

    def best(opts):
        sh = [Shooter.of("A", [(ONE, 4)], opts), Shooter.of("B", [(TWO, 1)], opts)]
        return Planner(sh, aims, Objective.MODELS).fixed()[0].value

    gap = best(mh.Options(reroll_hits="failed")) - best(mh.Options(reroll_hits="ones"))
    from mathhammer.prob.numbers import readable_fraction
    assert last.endswith(f"(exact {readable_fraction(gap)})")


def test_plan_refuses_bad_input(cli):
    r = cli("plan", A, "-t", T)  # no points: fine for models, not for --objective
    assert r.exit_code == 0
    r = cli("plan", A, "-t", T, "--objective", "points")
    assert r.exit_code == 2 and "points are not known" in r.output
    r = cli("plan", A, "-t", T, "--points", "nope=5")
    assert r.exit_code == 2 and "--points 'nope': not one of the targets" in r.output
    r = cli("plan", A)
    assert r.exit_code == 2 and "-t TARGET" in r.output
    r = cli("plan", A, "-t", T, "--destroy", "zzz")
    assert r.exit_code == 2 and "not one of the targets" in r.output


def test_adaptive_heuristic_that_follows_the_fixed_plan(monkeypatch):
    import mathhammer.engine.plan as plan_module

    monkeypatch.setattr(plan_module, "REPLAN_UNITS", 0)
    planner = Planner(SHOOTERS, AIMS, Objective.POINTS)
    fixed = planner.fixed()[0]
    exact = planner.adaptive()
    ad = planner.adaptive(budget=1 + exact.states[1])
    assert ad.depth == 1 and ad.rest == "fixed"
    # by hand: A picks its target seeing nothing; B and C then shoot as the fixed plan says
    best = None
    for t0 in range(2):
        after = mh.attack(list(SHOOTERS[0].profiles), AIMS[t0].target).state
        v = F(0)
        for s, p in after.items():
            v += p * sum((_rest_value(t, s if t == t0 else None,
                                      [i for i in (1, 2) if fixed.targets[i][0] == t])
                          for t in range(2)), F(0))
        best = v if best is None or v > best else best
    assert ad.value == best
    assert fixed.value <= ad.value <= exact.value


def test_odds_try_picks_the_best_switch(cli):
    # one attack, no save, against one W1 model: 2/3 * 1/2 = 1/3; re-rolling failed hits:
    # 8/9 * 1/2 = 4/9; +1 to hit: 5/6 * 1/2 = 5/12. Best: the re-roll, by 4/9 - 5/12 = 1/36
    r = cli.ok("odds", "1x 1 | 3+ | 4 | 0 | 1", "1x T4 Sv7+ W1", "--destroy", "--json",
            "--try", "--reroll-hits failed", "--try", "--hit-mod 1")
    data = json.loads(r.output)
    assert [(t["options"], t["p"]) for t in data["tries"]] == [
        ("(as given)", "1/3"), ("--reroll-hits failed", "4/9"), ("--hit-mod 1", "5/12")]
    assert data["best"] == "--reroll-hits failed"
    r = cli.ok("odds", "1x 1 | 3+ | 4 | 0 | 1", "1x T4 Sv7+ W1", "--destroy",
            "--try", "--reroll-hits failed", "--try", "--hit-mod 1")
    assert r.output.strip().endswith("ahead of the next by 2.78% (exact 1/36)")
    r = cli.ok("odds", A, B, "-t", T, "--destroy", "--try", "--hit-mod 1", "--json")
    assert json.loads(r.output)["tries"][0]["p"] == "35/243"
    assert cli("odds", A, T, "--destroy", "--exact", "--try", "--hit-mod 1").exit_code == 2


def test_plan_command_split_and_destroy(cli):
    two = "2x Gun | 24\" | 1 | 3+ | 4 | 0 | 1; 1x Big | 24\" | 1 | 3+ | 4 | 0 | 2"
    r = cli.ok("plan", two, A, "-t", T, "-t", "1x T4 Sv7+ W3", "--split", "--json",
            "--objective", "models", "--destroy", "2x", "--probability", "1/81")
    data = json.loads(r.output)
    assert data["assignments"] == 4 * 2  # the first unit's two weapons, then A
    gun, big = Weapon("Gun", 1, 3, 4, 0, 1), Weapon("Big", 1, 3, 4, 0, 2)
    sh = [Shooter.of("two", [(gun, 2), (big, 1)]), Shooter.of("A", [(ONE, 4)])]
    planner = Planner(sh, AIMS, Objective.MODELS, split=True)
    assert F(data["best"]["value"]) == planner.fixed()[0].value
    # the first unit alone destroys the pair only if all three attacks land (each 1/3): the
    # two D1 take one model, the D2 the other: 1/27; A alone: 4 of 4, 1/81, and 1/27 > 1/81
    assert data["destroy"]["units"] == ["inline weapons"]
    assert data["destroy"]["destroyed"] == "1/27" == str(planner.fewest(0, F(1, 81)).destroyed)


SHARED = Path(os.environ.get("MATHHAMMER_SHARED", Path(__file__).resolve().parents[2] / "shared"))


@pytest.mark.slow
def test_plan_one_shared_roster_against_another(cli):
    rosters, data = SHARED / "rosters", SHARED / "bsdata" / "10e"
    if not (rosters / "necron-combat-patrol.10e.rosz").exists() or not data.is_dir():
        pytest.skip(f"shared rosters or data not found at {SHARED}")
    r = cli.ok("plan", "--army", str(rosters / "necron-combat-patrol.10e.rosz"), "--vs-army",
            str(rosters / "ultramarines.10e.rosz"), "--data", str(data), "--json")
    out = json.loads(r.stdout)
    # Overlord and Necron Warriors shoot (the others have melee weapons only) at 10 targets
    assert [a["attacker"] for a in out["attackers"]] == ["Overlord", "Necron Warriors"]
    assert out["assignments"] == 10 * 10 and out["objective"] == "points"
    # the best value is the sum of each target's, each target's exact value checked on its own
    assert F(out["best"]["value"]) == sum(F(t["value"]) for t in out["per_target"])
    assert F(out["best"]["value"]) >= F(out["next_best"]["value"])


def test_destroy_with_the_fewest_then_the_rest_of_the_army():
    from mathhammer.app.planning import solve

    ans = solve(Planner(SHOOTERS, AIMS, Objective.POINTS), destroy=(0, F(1, 81)))
    assert ans.fewest.units == (1,)  # B alone: 1/9 (see test_fewest_units_for_a_target)
    sub, found = ans.rest
    assert [s.label for s in sub.shooters] == ["A", "C"] and [a.name for a in sub.aims] == [
        "lone"]
    # A then C into the lone W3 model, chained with mh.attack: its 50 points when destroyed
    assert found.proved
    assert found.best.value == _value_by_hand([SHOOTERS[0], SHOOTERS[2]], [AIMS[1]], (0, 0),
                                              Objective.POINTS)


def test_fewest_stops_at_its_limit(monkeypatch):
    import mathhammer.engine.plan as plan_module

    monkeypatch.setattr(plan_module, "MAX_SUBSETS", 3)
    f = Planner(SHOOTERS, AIMS, Objective.MODELS).fewest(0, F(1))
    assert f.units is None and not f.complete and f.tried == 3


# -- interchangeable units and targets: the next best is a different plan -----------------

GUN = Weapon("Gun", attacks=1, skill=2, strength=8, ap=0, damage=1)  # 5/6 * 5/6 = 25/36
WEAK = Weapon("Weak", attacks=1, skill=4, strength=8, ap=0, damage=1)  # 1/2 * 5/6 = 5/12
LONE = Target(models=1, toughness=4, save=7, wounds=1)


def _keys_by_hand(planner, ranked, unit_kind, aim_kind):
    """Each assignment's plan by hand: for each target's kind, the sorted kinds of the units
    that shoot it (labels mapped to kinds by the test, not by the planner)."""
    out = []
    for a in ranked:
        per = {t: sorted(unit_kind[planner.shooters[i].label] for i, ts in enumerate(a.targets)
                         if ts[0] == t) for t in range(len(planner.aims))}
        out.append(sorted((aim_kind[planner.aims[t].name], tuple(v)) for t, v in per.items()))
    return out


def test_the_next_best_plan_is_not_the_best_with_alike_units_swapped():
    # two alike units A, A2 (the same gun, other labels and points) into X (10 pts), Y (20)
    a, a2 = Shooter.of("A", [(GUN, 1)], points=10), Shooter.of("A2", [(GUN, 1)], points=15)
    p = Planner([a, a2], [Aim("X", LONE, 10), Aim("Y", LONE, 20)], Objective.POINTS)
    assert p.unit_kinds == (0, 0) and p.aim_kinds == (0, 1)
    ranked = p.fixed()
    # one each: (10 + 20) * 25/36 = 125/6, either way round (a tie: the same plan);
    # both into Y: 20 * (1 - (11/36)**2) = 20 * 1175/1296 = 5875/324; into X: 5875/648
    assert [r.value for r in ranked] == [F(125, 6), F(125, 6), F(5875, 324), F(5875, 648)]
    nxt = p.runner_up(ranked)
    assert nxt.targets == ((1,), (1,)) and nxt.value == F(5875, 324)
    # 125/6 - 5875/324 = 6750/324 - 5875/324 = 875/324 (not 0, the swap)
    assert ranked[0].value - nxt.value == F(875, 324)
    assert p.distinct(ranked) == 3  # {A, A2} one each, both into X, both into Y
    assert _keys_by_hand(p, ranked, {"A": 0, "A2": 0}, {"X": 0, "Y": 1})[:2] == [
        [(0, (0,)), (1, (0,))]] * 2


def test_the_next_best_plan_is_not_the_best_with_alike_targets_swapped():
    # A (the gun) and C (the weak gun) into X, X2: alike lone W1 models, 10 pts each
    a, c = Shooter.of("A", [(GUN, 1)]), Shooter.of("C", [(WEAK, 1)])
    p = Planner([a, c], [Aim("X", LONE, 10), Aim("X #2", LONE, 10)], Objective.POINTS)
    assert p.unit_kinds == (0, 1) and p.aim_kinds == (0, 0)
    ranked = p.fixed()
    # one each: 10 * 25/36 + 10 * 5/12 = 250/36 + 150/36 = 100/9, either way round;
    # both into one: 10 * (1 - 11/36 * 7/12) = 10 * 355/432 = 1775/216, either one
    assert [r.value for r in ranked] == [F(100, 9)] * 2 + [F(1775, 216)] * 2
    nxt = p.runner_up(ranked)
    assert nxt.value == F(1775, 216) and len(set(nxt.targets)) == 1
    assert ranked[0].value - nxt.value == F(2400 - 1775, 216)  # 625/216
    assert p.distinct(ranked) == 2
    # adaptive: A's two first choices are one (alike targets): A into X, then C into the
    # other if X fell, else either: 25/36 * (10 + 50/12) + 11/36 * 50/12 = 100/9
    ad = p.adaptive()
    assert ad.exact and ad.value == F(100, 9)
    assert ad.first == (((0,), F(100, 9)),)


def test_alike_means_attacking_alike():
    base = Shooter.of("A", [(GUN, 1)])
    assert Planner([base, Shooter.of("B", [(GUN, 1)], points=99)], [Aim("X", LONE)]).unit_kinds \
        == (0, 0)  # points do not change an attack
    for other in (Shooter.of("B", [(GUN, 2)]), Shooter.of("B", [(WEAK, 1)]),
                  Shooter.of("B", [(GUN, 1)], mh.Options(reroll_hits="ones")),
                  Shooter.of("B", [(GUN, 1)], apply=["Oath of Moment"])):
        assert Planner([base, other], [Aim("X", LONE)]).unit_kinds == (0, 1), other
    two = Target(models=2, toughness=4, save=7, wounds=1)
    for other in (Aim("Y", two, 10), Aim("Y", LONE, 20), Aim("Y", LONE, 10, ("Stealth",))):
        assert Planner([base], [Aim("X", LONE, 10), other]).aim_kinds == (0, 1), other
    assert Planner([base], [Aim("X", LONE, 10), Aim("Y", LONE, 10)]).aim_kinds == (0, 0)


@pytest.mark.parametrize("objective", [Objective.POINTS, Objective.MODELS])
def test_runner_up_against_brute_force(objective):
    # alike units (A, A #2) and alike targets (pair, pair #2) with the others of the module:
    # the next best is the best assignment whose plan by hand differs from the best's
    shooters = [SHOOTERS[0], Shooter.of("A #2", [(ONE, 4)]), SHOOTERS[1]]
    aims = [AIMS[0], Aim("pair #2", PAIR, 40), AIMS[1]]
    p = Planner(shooters, aims, objective)
    ranked = p.fixed()
    by_hand = {combo: _value_by_hand(shooters, aims, combo, objective)
               for combo in itertools.product(range(3), repeat=3)}
    assert {tuple(t[0] for t in a.targets): a.value for a in ranked} == by_hand
    keys = _keys_by_hand(p, ranked, {"A": 0, "A #2": 0, "B": 2},
                         {"pair": 0, "pair #2": 0, "lone": 2})
    nxt = next(a for a, k in zip(ranked, keys, strict=True) if k != keys[0])
    assert p.runner_up(ranked) == nxt
    assert p.distinct(ranked) == len({tuple(k) for k in keys})
    assert p.distinct(ranked) < len(ranked) == 27


def test_fewest_tries_alike_units_once():
    # A, A #2 alike (and as dear), B not: the sets tried are {A}, {B}, {A, A #2}, {A, B},
    # {A, A #2, B}: {A #2} and {A #2, B} are {A} and {A, B} again (7 sets, 5 different)
    shooters = [SHOOTERS[0], Shooter.of("A #2", [(ONE, 4)]), SHOOTERS[1]]
    p = Planner(shooters, AIMS, Objective.MODELS)
    every = p.fewest(0, F(1))
    assert every.units is None and every.tried == 5
    assert every.destroyed == p.after(0, ((0, (0,)), (1, (0,)), (2, (0,)))).map(
        models_alive).prob(0)
    # B alone destroys the pair with 1/9 (test_fewest_units_for_a_target), A alone 1/81
    assert p.fewest(0, F(1, 9)).units == (2,)
    # at other points A #2 is another choice for "the fewest points": tried apart
    dear = [SHOOTERS[0], Shooter.of("A #2", [(ONE, 4)], points=5), SHOOTERS[1]]
    assert Planner(dear, AIMS, Objective.MODELS).fewest(0, F(1)).tried == 7


def test_plan_command_next_best_is_a_different_plan(cli):
    # A twice (alike) into two lone W1 models: one each, or both into one
    lone = "1x T4 Sv7+ W1"
    r = cli.ok("plan", A, A, "-t", lone, "-t", lone, "--objective", "models", "--json")
    data = json.loads(r.output)
    assert data["assignments"] == 4 and data["proved"] and data["gap"] == "0/1"
    assert data["next_best_proved"] and data["next_best_bound"] == data["next_best"]["value"]
    assert data["alike"] == [["4x One", "4x One #2"], [lone, f"{lone} #2"]]
    # one each: 2 * (1 - (2/3)**4) = 2 * 65/81 = 130/81 (each attack 2/3 * 1/2 = 1/3);
    # both into one: 1 - (2/3)**8 = 6305/6561; lead 10530/6561 - 6305/6561 = 4225/6561
    assert data["best"]["value"] == "130/81" and data["next_best"]["value"] == "6305/6561"
    assert data["lead"] == "4225/6561"
    text = " ".join(cli.ok("plan", A, A, "-t", lone, "-t", lone, "--objective",
                        "models").output.split())
    assert ("ahead of the next best plan by 0.644 (exact 4225/6561), which has 4x One #2 -> "
            f"{lone} ") in text
    text = " ".join(cli.ok("plan", A, A, "-t", lone, "-t", lone, "--objective", "models",
                        "--details").output.split())
    assert "the next best different plans: 2. 0.961" in text
    assert "4 assignments: the best proved optimal by the exact search" in text
    assert "alike:" in text and "(interchangeable: plans that only swap them are one plan)" \
        in text


# -- a target with its Leader --------------------------------------------------------------


def test_plan_target_with_its_leader_as_kills_takes_it(cli):
    # the bundled Necron Warriors (90 pts) led by the bundled Skitarii Marshal (35 pts)
    from mathhammer.data.typed.lookup import find_unit

    led = "Necron Warriors + Skitarii Marshal"
    r = cli("plan", "Hexmark Destroyer", "-t", led, "-t", "MEQ",
                                 "--objective", "models", "--json")
    assert r.exit_code == 0, r.output
    assert "warning: Skitarii Marshal cannot lead Necron Warriors" in r.stderr
    data = json.loads(r.stdout)
    [first, _meq] = data["per_target"]
    assert first["target"]["name"] == led
    assert first["points"] == 90 + 35 == find_unit("Necron Warriors").cost() + find_unit(
        "Skitarii Marshal").cost()
    kills = json.loads(cli.ok("kills", "Hexmark Destroyer", led, "--json").stdout)
    assert first["target"]["profile"] == kills["target"]["profile"]
    # its value into that target alone is what kills says (one unit, one target)
    alone = json.loads(cli.ok("plan", "Hexmark Destroyer", "-t", led, "--objective", "models",
                           "--json").stdout)
    assert alone["best"]["value"] == kills["mean"]["kills"]
    # --leader with the one target is the same target, with the same points and warning
    r = cli("plan", "Hexmark Destroyer", "-t", "Necron Warriors",
                                 "--leader", "Skitarii Marshal", "--objective", "models",
                                 "--json")
    assert r.exit_code == 0 and "cannot lead Necron Warriors" in r.stderr
    assert json.loads(r.stdout)["per_target"] == alone["per_target"]
    # several units into it (kills -t) take it the same way: the first unit alone as kills
    both = json.loads(cli.ok("kills", "Hexmark Destroyer", "Cronos", "-t", led, "--json").stdout)
    assert both["target"]["profile"] == kills["target"]["profile"]
    assert both["after_units"][0]["destroyed"] == kills["destroyed"]


def test_plan_leader_with_several_targets_is_refused(cli):
    r = cli("plan", A, "-t", "Necron Warriors", "-t", "MEQ", "--leader", "Skitarii Marshal")
    assert r.exit_code == 2
    assert ("--leader 'Skitarii Marshal': a plan with 2 targets; give the target it leads "
            'its Leader in its name instead: --target "UNIT + Skitarii Marshal"') in r.output


def test_a_leader_that_cannot_lead_the_target_is_said_either_way(cli):
    for args in (["Necron Warriors + Skitarii Marshal"],
                 ["Necron Warriors", "--leader", "Skitarii Marshal"]):
        r = cli("kills", "Hexmark Destroyer", *args)
        assert r.exit_code == 0, r.output
        assert r.stderr.count("warning: Skitarii Marshal cannot lead Necron Warriors (its "
                              "Leader ability lists Skitarii Rangers, Skitarii Vanguard); "
                              "attached anyway") == 1, args
    # an archetype stands for any unit of its kind: no Leader ability names it, none said
    r = cli("kills", "Hexmark Destroyer", "MEQ + Skitarii Marshal")
    assert r.exit_code == 0 and "cannot lead" not in r.stderr
    # an inline Leader has no Leader ability to check: no such warning
    r = cli("kills", "Hexmark Destroyer", "Necron Warriors", "--leader",
                                 "1x T4 Sv3+ W4 CHARACTER")
    assert r.exit_code == 0 and "cannot lead" not in r.stderr


@pytest.mark.slow
def test_plan_target_with_its_leader_from_data(cli):
    data = SHARED / "bsdata" / "10e"
    if not data.is_dir():
        pytest.skip(f"shared data not found at {data}")
    args = ["plan", "Intercessor Squad", "-t", "Necron Warriors + Technomancer",
            "--objective", "models", "--data", str(data), "--json"]
    out = json.loads(cli.ok(*args).stdout)
    [t] = out["per_target"]
    # the Technomancer's Rites of Reanimation (Feel No Pain 5+ for the unit it leads) meets
    # the Bolt Rifles: 5 x 2 shots, 3+ to hit, S4 vs T4 4+, Sv4+ at AP-1 fails on 1-4, then
    # FNP 5+ fails on 1-4: 10 * 2/3 * 1/2 * 2/3 * 2/3 = 40/27 warriors (W1; 10 attacks
    # never reach the Technomancer)
    assert t["rules"] == ["Rites of Reanimation"] and out["best"]["value"] == "40/27"
    kills = json.loads(cli.ok("kills", "Intercessor Squad", "Necron Warriors + Technomancer",
                           "--data", str(data), "--json").stdout)
    assert kills["unit_rules"] == t["rules"] and kills["mean"]["kills"] == "40/27"
    from mathhammer.data.typed.lookup import find_unit

    costs = [find_unit(n, data=data).cost() for n in ("Necron Warriors", "Technomancer")]
    assert t["points"] == sum(costs) and None not in costs
    led = json.loads(cli.ok("plan", "Intercessor Squad", "-t", "Necron Warriors", "--leader",
                         "Technomancer", "--objective", "models", "--data", str(data),
                         "--json").stdout)
    assert led["per_target"] == out["per_target"]
