"""A datasheet's model groups on both sides: the unit's size shared out over its groups as the
data's constraints say, every group in the target, ``--models`` and ``-w`` for the whole unit.

The first tests read small 11e data folders written here (the shapes of the shared data's
Custodian Guard, Boyz and Gretchin); the last ones the shared data itself (skipped without it).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction as F
from pathlib import Path

import pytest
from bsjson import datasheet, group, model, weapon, write_folder
from test_army_formats import BSDATA, needs_data

import mathhammer as mh
from mathhammer.app.specs import attacker_of, target_of
from mathhammer.data.typed.lookup import find_unit
from mathhammer.engine.attack import value_against
from mathhammer.errors import InputError

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


CUSTODIAN = (("M", '6"'), ("T", "6"), ("SV", "2+"), ("W", "3"), ("LD", "6+"), ("OC", "2"))
SHIELD = (("M", '6"'), ("T", "6"), ("SV", "2+"), ("W", "4"), ("LD", "6+"), ("OC", "2"))
VEXILLA = (("M", '6"'), ("T", "6"), ("SV", "2+"), ("W", "4"), ("LD", "6+"), ("OC", "3"))
BOY = (("M", '6"'), ("T", "5"), ("SV", "5+"), ("W", "1"), ("LD", "7+"), ("OC", "2"))
NOB = (("M", '6"'), ("T", "5"), ("SV", "5+"), ("W", "2"), ("LD", "7+"), ("OC", "2"))
GROT = (("M", '6"'), ("T", "2"), ("SV", "7+"), ("W", "1"), ("LD", "8+"), ("OC", "2"))


SPEAR = weapon("ws", "Guardian spear", "5", "2+", "7", "-2", "2", melee=True)
BLADE = weapon("wb", "Sentinel blade", "5", "2+", "6", "-2", "1", melee=True)
KNIFE = weapon("wm", "Misericordia", "5", "2+", "5", "-2", "1", melee=True)
CHOPPA = weapon("wc", "Choppa", "3", "3+", "4", "-1", "1", melee=True)
BIG = weapon("wbc", "Big choppa", "3", "3+", "7", "-1", "2", melee=True)
SHOOTA = weapon("wbs", "Big shoota", "3", "5+", "5", "0", "1")
BLASTA = weapon("wg", "Grot blasta", "1", "4+", "3", "0", "1")


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """Custodian Guard: 4-5 Custodians, each with a spear (the default) or a blade and a
    shield (W4), one of them may carry a vexilla (OC3) and a misericordia; Boyz: 9-19 boys (one may
    have a big shoota) and a W2 Boss Nob; Gretchin: 10 Gretchin and a Runtherd, or 20 and 2."""
    custodes = datasheet("cg", "Custodian Guard", [group("cgg", "4-5 Custodian Guard", [
        model("cgs", "Custodian Guard (Guardian Spear)", CUSTODIAN, [SPEAR]),
        model("cgb", "Custodian Guard (Sentinel Blade & Praesidium Shield)", SHIELD, [BLADE]),
        model("cgv", "Custodian Guard (Vexilla & Misericordia)", VEXILLA, [KNIFE], hi=1)],
        lo=4, hi=5, default="cgs")], points=160)
    boyz = datasheet("bz", "Boyz", [
        group("bzg", "9-19 Boyz", [model("bzb", "Boy w/ Slugga and choppa", BOY, [CHOPPA])],
              lo=9, hi=19, default="bzb", groups=[group("bzs", "Special Weapons", [
                  model("bzh", "Boy w/ Big shoota", BOY, [SHOOTA, CHOPPA], hi=1)], hi=1)]),
        group("bzn", "Boss Nob", [model("bzk", "Boss Nob", NOB, [BIG], lo=1, hi=1)])],
        points=80)
    runtherd = (("M", '6"'), ("T", "5"), ("SV", "5+"), ("W", "2"), ("LD", "7+"), ("OC", "1"))
    grots = datasheet("gr", "Gretchin", [group("grc", "Unit Composition", [
        {"id": f"gr{n}", "name": f"{n // 10} Runtherd and {n} Gretchin", "type": "upgrade",
         "selectionEntries": [model(f"gr{n}g", "Gretchin", GROT, [BLASTA], lo=n, hi=n),
                              model(f"gr{n}r", "Runtherd", runtherd, lo=n // 10, hi=n // 10)]}
        for n in (10, 20)], lo=1, hi=1)], points=40)
    cat = {"id": "c1", "name": "Test - Testers", "gameSystemId": "gs1",
           "sharedSelectionEntries": [custodes, boyz, grots],
           "entryLinks": [{"id": f"l{u['id']}", "name": u["name"], "targetId": u["id"],
                           "type": "selectionEntry"} for u in (custodes, boyz, grots)]}
    return write_folder(tmp_path_factory.mktemp("cat"), cat)


def unit(data: Path, name: str):
    return find_unit(f"{data}:{name}")


def binomial_tail(n: int, p: F, k: int) -> F:
    """P(X >= k) for X ~ Binomial(n, p)."""
    return sum((math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)), F(0))


# ------------------------------------------------------------------------- sizes and groups


def test_custodian_guard_is_4_or_5_custodians_of_one_pool(data):
    cg = unit(data, "Custodian Guard")
    assert cg.size == (4, 5) and cg.sizes == (4, 5)
    assert [(g.min_models, g.max_models, g.wounds) for g in cg.groups] == [
        (0, 5, 3), (0, 5, 4), (0, 1, 4)]
    assert cg.composition() == (4, 0, 0) and cg.composition(5) == (5, 0, 0)
    t = cg.as_target()  # the default: 4 spear Custodians, T6 Sv2+ W3
    assert (t.models, t.toughness, t.save, t.wounds) == (4, 6, 2, 3)
    with pytest.raises(InputError, match="models: expected 4 or 5 for Custodian Guard, got 6"):
        cg.as_target(6)


def test_custodian_guard_fires_as_its_size(data):
    cg = unit(data, "Custodian Guard")
    assert [(w.name, n) for w, n in cg.as_profiles(melee=True, score=VS_MEQ)] == [
        ("Guardian spear", 4)]
    assert [(w.name, n) for w, n in cg.as_profiles(melee=True, models=5, score=VS_MEQ)] == [
        ("Guardian spear", 5)]
    assert [(w.name, n) for w, n in cg.as_profiles(True, ["4x Guardian spear"], score=VS_MEQ)] == [
        ("Guardian spear", 4)]
    with pytest.raises(InputError, match="carries 4 Guardian spear"):
        cg.as_profiles(True, ["5x Guardian spear"], score=VS_MEQ)
    # two blades: two Custodians with a blade and a shield for two with a spear, said
    with pytest.warns(UserWarning, match="need another make-up of its 4 models: 2 Custodian "
                                         r"Guard \(Guardian Spear\) and 2 Custodian Guard "
                                         r"\(Sentinel Blade"):
        fired = cg.as_profiles(True, ["2x Guardian spear", "2x Sentinel blade"], score=VS_MEQ)
    assert [(w.name, n) for w, n in fired] == [("Guardian spear", 2), ("Sentinel blade", 2)]
    with pytest.warns(UserWarning, match="1 Custodian Guard \\(Vexilla"):
        fired = cg.as_profiles(True, ["Misericordia"], models=5, score=VS_MEQ)
    assert [(w.name, n) for w, n in fired] == [("Misericordia", 1)]
    # too many for any make-up of the size: the error names the most one carries
    with pytest.raises(InputError, match="carries 1 Misericordia at its size"):
        cg.as_profiles(True, ["2x Misericordia"], score=VS_MEQ)  # one vexilla bearer at most
    with pytest.raises(InputError, match="carries 4 Sentinel blade at its size"):
        cg.as_profiles(True, ["5x Sentinel blade"], score=VS_MEQ)


def test_boyz_are_ten_with_the_nob(data):
    boyz = unit(data, "Boyz")
    assert boyz.sizes == tuple(range(10, 21)) and boyz.composition() == (9, 1)
    assert boyz.composition(20) == (19, 1)
    t = boyz.as_target()
    assert [(g.models, g.wounds, g.name) for g in t.groups] == [
        (9, 1, "Boy w/ Slugga and choppa"), (1, 2, "Boss Nob")]
    with pytest.warns(UserWarning, match="15 models taken as 14 Boy w/ Slugga and choppa and "
                                         "1 Boss Nob"):
        assert [g.models for g in boyz.as_target(15).groups] == [14, 1]
    # --models is the unit's size: 10 is 9 choppas and the Nob's big choppa (not 11 models)
    assert [(w.name, n) for w, n in boyz.as_profiles(True, models=10, score=VS_MEQ)] == [
        ("Choppa", 9), ("Big choppa", 1)]
    with pytest.raises(InputError, match="expected an integer from 10 to 20 for Boyz"):
        boyz.as_profiles(True, models=21, score=VS_MEQ)


def test_gretchin_is_a_choice_of_two_sizes(data):
    grots = unit(data, "Gretchin")
    assert grots.sizes == (11, 22)
    assert [(g.name, g.min_models, g.max_models) for g in grots.groups] == [
        ("Gretchin", 10, 20), ("Runtherd", 1, 2)]
    assert grots.composition() == (10, 1) and grots.composition(22) == (20, 2)
    with pytest.raises(InputError, match="expected 11 or 22 for Gretchin, got 15"):
        grots.composition(15)


# ------------------------------------------------------------------------- the numbers


def test_berzerkers_into_custodian_guard(data):
    """Ten Berzerkers' chainblades (4 attacks, WS3+, S4, AP-1, D1) into the Custodian Guard.

    Each attack: hits 2/3, wounds T6 on 5+ (1/3), Sv2+ at AP-1 is 3+ (4++ is worse): fails
    1/3; one unsaved wound p = 2/3 * 1/3 * 1/3 = 2/27, 1 damage each. Expected unsaved wounds:
    40 * 2/27 = 80/27. Four Custodians of W3 are 12 wounds: P(destroyed) = P(U >= 12), U ~
    Binomial(40, 2/27); five: P(U >= 15). Against the one W3 model the target had before:
    P(U >= 3) = 57.69%."""
    chainblades = "10x Chainblade | Melee | 4 | 3+ | 4 | -1 | 1"
    p = F(2, 27)
    for models, wounds in ((None, 12), (5, 15)):
        _, target = target_of(f"{data}:Custodian Guard", models=models)
        r = mh.attack(attacker_of(chainblades).profiles, target)
        assert r.unsaved.mean() == F(80, 27)
        assert r.destroyed == binomial_tail(40, p, wounds)
    assert float(binomial_tail(40, p, 3)) == pytest.approx(0.5769, abs=1e-4)  # the old answer
    assert float(binomial_tail(40, p, 12)) < 1e-4


def test_a_nob_in_the_target(data):
    """Ten D2 attacks that hit on 2+ and wound T5 on 3+ (S6, AP0) into ten Boyz (Sv5+: fails
    2/3): p = 5/6 * 2/3 * 2/3 = 10/27 per attack. A boy dies to any unsaved wound (excess is
    lost), the Nob (W2) to one D2 wound after the nine boys: P(destroyed) = P(U >= 10) =
    p^10; expected kills = E[min(U, 9)] + P(U = 10)."""
    _, boyz = target_of(f"{data}:Boyz")
    gun = mh.Weapon("Gun", attacks=1, skill=2, strength=6, ap=0, damage=2)
    r = mh.attack((gun, 10), boyz)
    p = F(10, 27)
    assert r.destroyed == p**10
    pmf = {k: math.comb(10, k) * p**k * (1 - p) ** (10 - k) for k in range(11)}
    assert r.kills.mean() == sum(min(k, 9) * q for k, q in pmf.items()) + pmf[10]
    assert r.group_kills[1].mean() == pmf[10]  # the Nob dies only to the tenth wound


def test_the_cli_says_the_size_and_refuses_others(cli, data):
    r = cli("kills", "10x Chainblade | Melee | 4 | 3+ | 4 | -1 | 1", f"{data}:Boyz",
                            "--target-models", "12")
    assert r.exit_code == 0, r.output
    assert "target:      11x T5 Sv5+ W1" in r.stdout and "+ 1x T5 Sv5+ W2" in r.stdout
    assert "warning: Boyz: 12 models taken as 11 Boy w/ Slugga and choppa and 1 Boss Nob" \
        in r.stderr
    r = cli("kills", f"{data}:Custodian Guard", "MEQ", "--melee",
                            "--models", "6")
    assert r.exit_code == 2 and "models: expected 4 or 5 for Custodian Guard, got 6" in r.stderr
    r = cli("kills", f"{data}:Custodian Guard", "MEQ", "--melee",
                            "-w", "2x Guardian spear", "-w", "2x Sentinel blade")
    assert r.exit_code == 0, r.output
    assert "2x Guardian spear" in r.stdout and "2x Sentinel blade" in r.stdout
    assert "need another make-up of its 4 models" in r.stderr


# ------------------------------------------------------------------------- the shared data


@needs_data
@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_shared_custodian_guard_and_boyz(edition):
    data = BSDATA / edition
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cg = find_unit("Custodian Guard", rules=edition, data=data)
        boyz = find_unit("Boyz", rules=edition, data=data)
    assert cg.sizes == (4, 5) and cg.composition()[0] == 4 and sum(cg.composition(5)) == 5
    t = cg.as_target()
    assert (t.models, t.toughness, t.save, t.wounds, t.invuln) == (4, 6, 2, 3, 4)
    assert [(w.name, n) for w, n in cg.as_profiles(True, score=VS_MEQ)] == [("Guardian Spear", 4)]
    assert [(w.name, n) for w, n in cg.as_profiles(True, ["4x Guardian Spear"], score=VS_MEQ)] == [
        ("Guardian Spear", 4)]
    assert sum(n for _w, n in cg.as_profiles(True, models=5, score=VS_MEQ)) == 5
    assert [(g.models, g.wounds) for g in boyz.as_target().groups] == [(9, 1), (1, 2)]
    assert boyz.sizes == tuple(range(10, 21))


@needs_data
def test_shared_berzerkers_into_custodian_guard(cli):
    """``kills "Khorne Berzerkers" "Custodian Guard" --rules 11e --melee --charged``: the ten
    Berzerkers' chainblades as in :func:`test_berzerkers_into_custodian_guard` (2/27 an
    attack), into four W3 Custodians: P(U >= 12), not the 57.69% of one model."""
    import json

    r = cli("kills", "Khorne Berzerkers", "Custodian Guard", "--rules",
                                 "11e", "--melee", "--charged", "--data", str(BSDATA / "11e"),
                                 "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [(w["name"], w["models"], w["profile"]) for w in out["weapons"]] == [
        ("Chainblade", 10, "Chainblade | Melee | 4 | 3+ | 4 | -1 | 1")]
    assert out["target"]["profile"].startswith("4x T6 Sv2+ W3 4++ ")
    assert F(out["mean"]["unsaved"]) == F(80, 27)
    assert F(out["destroyed"]) == binomial_tail(40, F(2, 27), 12)


def _shared_target(name: str, edition: str, models: int | None = None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return target_of(name, models, rules=edition, data=BSDATA / edition)[1]


@needs_data
@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_shared_sergeant_repentia_superior(edition):
    """A sergeant: Repentia Squad is 4 Sisters Repentia (Sv7+, 6++) and a Repentia Superior
    (Sv3+, 6++), all T3 W1 FNP 5+. Ten S6 AP-4 D1 shots at BS2+: hit 5/6, wound T3 on 2+
    (5/6), AP-4 leaves both groups the 6++ (fail 5/6), FNP 5+ fails 2/3: p = 125/324 a model
    each, in any order: P(destroyed) = P(Binomial(10, 125/324) >= 5), E[kills] = E[min(X,
    5)]. At AP0 the Superior saves on 3+ and is allocated last: the Monte Carlo oracle."""
    from montecarlo import simulate

    t = _shared_target("Repentia Squad", edition)
    assert [(g.name, g.models, g.save, g.invuln, g.wounds, g.fnp) for g in t.groups] == [
        ("Sister Repentia", 4, 7, 6, 1, 5), ("Repentia Superior", 1, 3, 6, 1, 5)]
    gun = mh.Weapon("Gun", attacks=1, skill=2, strength=6, ap=-4, damage=1)
    r = mh.attack((gun, 10), t, rules=edition)
    p = F(125, 324)
    pmf = {k: math.comb(10, k) * p**k * (1 - p) ** (10 - k) for k in range(11)}
    assert r.destroyed == binomial_tail(10, p, 5)
    assert r.kills.mean() == sum(min(k, 5) * q for k, q in pmf.items())
    bolt = mh.Weapon("Bolt", attacks=2, skill=3, strength=4, ap=0, damage=1)
    exact = mh.attack((bolt, 10), t)
    sim = simulate((bolt, 10), t, trials=30_000, seed=7)
    for got, runs in ((exact.kills.mean(), sim.kills), (exact.destroyed, sim.destroyed)):
        assert abs(float(got) - runs.mean()) <= 4.5 * runs.std() / len(runs) ** 0.5 + 1e-9


@needs_data
@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_shared_champion_aspiring_sorcerer(edition):
    """A champion: Rubric Marines are 4 Rubrics (W2) and an Aspiring Sorcerer (W3), T4 Sv3+
    5++. Twelve S8 AP-3 D2 shots at BS2+: hit 5/6, wound T4 on 2+ (5/6), Sv3+ at AP-3 is 6+,
    the 5++ fails 2/3: p = 25/54. A D2 wound kills a Rubric; the Sorcerer, allocated last,
    needs two: P(destroyed) = P(U >= 6) (the 4 Rubrics alone, as before: P(U >= 4)), E[kills]
    = E[min(U, 4)] + P(U >= 6)."""
    t = _shared_target("Rubric Marines", edition)
    assert [(g.name, g.models, g.toughness, g.save, g.invuln, g.wounds) for g in t.groups] == [
        ("Rubric Marine", 4, 4, 3, 5, 2), ("Aspiring Sorcerer", 1, 4, 3, 5, 3)]
    gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-3, damage=2)
    r = mh.attack((gun, 12), t, rules=edition)
    p = F(25, 54)
    pmf = {k: math.comb(12, k) * p**k * (1 - p) ** (12 - k) for k in range(13)}
    assert r.destroyed == binomial_tail(12, p, 6) != binomial_tail(12, p, 4)
    assert r.kills.mean() == sum(min(k, 4) * q for k, q in pmf.items()) \
        + binomial_tail(12, p, 6)


@needs_data
def test_shared_heavy_weapon_platform():
    """A heavy weapon team: 10e Guardian Defenders are 10 Guardians (W1) and a Heavy Weapon
    Platform (W2), T3 Sv4+. Thirty S4 AP0 D1 shots at BS3+: hit 2/3, wound T3 on 3+ (2/3), the
    4+ save fails 1/2: p = 2/9. The platform, last, takes two: P(destroyed) = P(U >= 12);
    E[kills] = E[min(U, 10)] + P(U >= 12)."""
    t = _shared_target("Guardian Defenders", "10e")
    assert [(g.name, g.models, g.save, g.wounds) for g in t.groups] == [
        ("Guardian Defender", 10, 4, 1), ("Heavy Weapon Platform", 1, 4, 2)]
    gun = mh.Weapon("Gun", attacks=1, skill=3, strength=4, ap=0, damage=1)
    r = mh.attack((gun, 30), t)
    p = F(2, 9)
    pmf = {k: math.comb(30, k) * p**k * (1 - p) ** (30 - k) for k in range(31)}
    assert r.destroyed == binomial_tail(30, p, 12)
    assert r.kills.mean() == sum(min(k, 10) * q for k, q in pmf.items()) \
        + binomial_tail(30, p, 12)
    # a Krieg squad at 9 models is the make-up with its heavy weapons team (2 wounds)
    krieg = _shared_target("Death Korps Grenadier Squad [Legends]", "10e", 9)
    assert [(g.name, g.models, g.wounds) for g in krieg.groups] == [
        ("Grenadier", 8, 1), ("Heavy Weapons Team", 1, 2)]


# ------------------------------------------------------------------------- army lists

LIST = "Test list ({points} points)\n\nTesters\nStrike Force (2000 points)\n\n"


def test_a_lists_unit_has_the_groups_its_lines_give(data):
    """A list's Custodian Guard with three spears and two blades is those two groups (5
    models as a target); Boyz named without model lines are the datasheet's make-up of the
    list's size (nine boys and the Nob)."""
    from mathhammer.data.army import parse_army

    guard = ("Custodian Guard (200 points)\n"
             "  • 3x Custodian Guard (Guardian Spear)\n    • 3x Guardian spear\n"
             "  • 2x Custodian Guard (Sentinel Blade & Praesidium Shield)\n"
             "    • 2x Sentinel blade\n")
    boyz = "Boyz (80 points)\n  • 10x Choppa\n"
    a = parse_army(LIST.format(points=280) + guard + "\n" + boyz, data=data.parent,
                   rules="11e")
    assert a.unresolved == (), [u.describe() for u in a.unresolved]
    cg, bz = a.units
    t = cg.as_target()  # the spears (W3) first, then the shields (W4)
    assert [(g.models, g.wounds) for g in t.groups] == [(3, 3), (2, 4)] and cg.models == 5
    assert [(w.name, n) for w, n in cg.as_profiles(melee=True, score=VS_MEQ)] == [
        ("Guardian spear", 3), ("Sentinel blade", 2)]
    assert bz.models == 10 and [(g.models, g.wounds) for g in bz.as_target().groups] == [
        (9, 1), (1, 2)]
