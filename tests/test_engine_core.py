"""The engine's shape: fast paths agree with the general chain, caches cannot lie, and the
module graph only points down."""

from __future__ import annotations

import ast
from fractions import Fraction as F
from pathlib import Path

import attrs
import pytest

import mathhammer as mh
from mathhammer import PMF, Squad, Target, Weapon
from mathhammer import TargetState as TS
from mathhammer.engine import attack as engine

PACKAGE = Path(mh.__file__).parent

# ------------------------------------------------------------------ fast paths vs the chain

BODYGUARD = Target(4, 5, 3, 3, invuln=4, fnp=6, name="Bodyguard")
LEADER = Target(1, 4, 2, 5, keywords=["CHARACTER"], name="Leader")

CASES = {
    "devastating, last": [(Weapon("a", 2, 3, 6, -1, "D3", ["devastating wounds"]), 3)],
    "devastating, random attacks, last": [
        (Weapon("a", "D3", 3, 6, -1, "D3+1", ["devastating wounds"]), 2)],
    "devastating, then another": [
        (Weapon("a", "D3", 3, 6, -1, 2, ["devastating wounds", "sustained hits 1"]), 2),
        (Weapon("b", 2, 4, 4, 0, 1, ["lethal hits"]), 2)],
    "single-wound devastating, then another": [
        (Weapon("a", "D3", 3, 6, -1, "D3", ["devastating wounds"]), 2),
        (Weapon("b", 2, 4, 4, 0, 1), 2)],
    "two devastating": [
        (Weapon("a", 2, 3, 6, -2, 2, ["devastating wounds"]), 1),
        (Weapon("b", 3, 3, 4, 0, "D3", ["devastating wounds", "precision"]), 1)],
    "precision devastating, last": [
        (Weapon("b", 2, 4, 4, 0, 1), 3),
        (Weapon("a", 2, 3, 5, -1, "D3", ["devastating wounds", "precision"]), 2)],
    "sustained, no devastating": [(Weapon("a", 2, 3, 5, -1, 2, ["sustained hits 1"]), 3)],
    "precision, critical AP": [(Weapon("a", 3, 3, 5, 0, 2, ["precision", "lethal hits"]), 2)],
}


def _settled(result: mh.Result) -> mh.Result:
    """Every law of ``result`` worked out now (a Result works each out when first asked:
    before the next monkeypatch)."""
    for name in engine.LAWS:
        getattr(result, name)
    return result


def _forced_chain(monkeypatch) -> None:
    """Make the engine take the attack-by-attack chain (the oracle of every counting path);
    the answers remembered so far forgotten."""
    mh.clear_caches()
    monkeypatch.setattr(engine, "saves_alike", lambda fails: False)
    monkeypatch.setattr(engine, "one_kind", lambda fails, kinds: None)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("target", [BODYGUARD, Squad((BODYGUARD,)),
                                    Squad((BODYGUARD, LEADER))], ids=["one", "squad1", "led"])
def test_counting_paths_match_the_attack_by_attack_chain(name, target, monkeypatch):
    options = {"crit_wound_ap": 0} if name != "precision, critical AP" else {}
    fast = _settled(mh.attack(CASES[name], target, **options))
    _forced_chain(monkeypatch)
    slow = _settled(mh.attack(CASES[name], target, **options))
    assert fast.state == slow.state and fast.kills == slow.kills


# Devastating Wounds into a Bodyguard and a Leader that save differently (AP-1: 4+ against a
# 4++ for the Bodyguard, 3+ for the Leader), both with Feel No Pain (6+ and 5+).
SAVES_DIFFER = Squad((BODYGUARD, Target(1, 4, 2, 5, fnp=5, keywords=["CHARACTER"])))


def _force(monkeypatch, path: engine.Path) -> list[tuple[engine.Path, list[engine.Path]]]:
    """Make the engine take ``path`` for every weapon it applies to (the cost model's choice
    for the others); returns the (path taken, paths that applied) of each weapon. The answers
    remembered so far are forgotten."""
    mh.clear_caches()
    taken = []
    choose = engine.choose_path

    def forced(shape, alike, one_kind, single):
        applies = engine.paths_for(shape, alike, one_kind, single)
        taken.append((path if path in applies else choose(shape, alike, one_kind, single),
                      applies))
        return taken[-1][0]

    monkeypatch.setattr(engine, "choose_path", forced)
    monkeypatch.setattr(engine, "packets_first", lambda alike, tallied: False)  # every shape
    return taken


def test_packets_first_is_what_the_cost_model_chooses():
    # 3000 random shapes (seeded) of a weapon without Devastating Wounds whose groups save
    # alike: whatever else applies, the cost model takes the packets, as _final does at once
    # without the shape (merged Devastating packets are not: the chain's estimate is lower)
    import random

    rng = random.Random(33)
    for _ in range(3000):
        shape = engine._Shape(
            attacks=rng.randint(0, 200), counts=rng.randint(1, 60), wounds=rng.randint(0, 4),
            devastating=rng.randint(0, 3), tallied=False, merged=False, last=False,
            states=rng.randint(1, 400), outcomes=rng.randint(1, 12), bits=rng.randint(1, 300),
            packets=False, rest=rng.randint(0, 50), phases=rng.randint(0, 100))
        assert engine.packets_first(True, shape.tallied)
        for one_kind in (False, True):
            for single in (False, True):
                if single and shape.wounds > 1:
                    continue  # single: every attack makes at most one wound
                assert engine.choose_path(shape, True, one_kind, single) is engine.Path.PACKETS
    assert not engine.packets_first(False, False) and not engine.packets_first(True, True)
    merged = engine._Shape(170, 56, 1, 0, True, True, True, 278, 11, 228, True, 46, 40)
    assert engine.choose_path(merged, True, False, False) is engine.Path.ATTACKS


def test_a_plain_unit_takes_the_packets_without_the_cost_model(monkeypatch):
    # one group (every group saves alike), no Devastating Wounds: the packets at once, the
    # same state as the attack-by-attack chain's
    asked = []
    monkeypatch.setattr(engine, "choose_path", lambda *a: asked.append(a) or engine.Path.ATTACKS)
    mh.clear_caches()
    gun = Weapon("g", "D6", 3, 5, -1, "D3", ["sustained hits 1"])
    fast = _settled(mh.attack((gun, 3), BODYGUARD))
    assert asked == []
    _forced_chain(monkeypatch)
    assert fast == _settled(mh.attack((gun, 3), BODYGUARD)) and fast.kills.mean() > 0


@pytest.mark.parametrize(("attacks", "count"), [(1, 12), ("D6", 2), ("2D3", 3)])
@pytest.mark.parametrize("rules", ["10e", "11e", "spill"])
def test_devastating_into_groups_that_save_differently_matches_the_chain(
        attacks, count, rules, monkeypatch, tmp_path):
    # fixed and random attack counts; excess lost (10e, 11e) or spilling (a house rule)
    if rules == "spill":
        path = tmp_path / "spill.toml"
        path.write_text('extends = "10e"\n[devastating_wounds]\nexcess_lost = false\n')
        rules = str(path)
    gun = Weapon("g", attacks, 3, 6, -1, "D3+1", ["devastating wounds"])
    fails = [engine.save_fails(gun, g, mh.Options(), mh.load_ruleset(rules))
             for g in SAVES_DIFFER.groups]
    assert not engine.saves_alike(fails) and engine.one_kind(fails, {"normal"}) == [3, 2]
    chosen = _settled(mh.attack((gun, count), SAVES_DIFFER, rules=rules))
    answers = {}
    for path in engine.Path:
        taken = _force(monkeypatch, path)
        answers[path] = _settled(mh.attack((gun, count), SAVES_DIFFER, rules=rules))
        applies = taken[0][1]
    # the single-wound path (conditioned on the Devastating count, the wounds applied in
    # Horner form) and both count paths apply, and where the excess is lost (a Devastating
    # Wound then costs what an unsaved wound does) the first group's two paths; each gives
    # every counter and distribution
    first = [engine.Path.FIRST, engine.Path.PHASES] if rules != str(
        tmp_path / "spill.toml") else []
    assert applies == [engine.Path.ATTACKS, engine.Path.WOUNDS, engine.Path.SINGLE, *first]
    assert all(answers[p] == answers[engine.Path.ATTACKS] == chosen for p in applies)
    assert 0 < chosen.character_destroyed < 1 and chosen.mortal.mean() > 0


# The shapes of issue 33 (tests/benchmark.py), small: three groups that save differently, a
# Leader with a bodyguard of mixed saves, Sustained + Lethal + Devastating, Feel No Pain on one
# group only, random attack counts; a Devastating weapon last, or followed by another weapon.
def _led(*groups: Target) -> Squad:
    return Squad(tuple(groups[:-1]) + (attrs.evolve(groups[-1], keywords=("CHARACTER",)),))


SHAPES = {
    "three groups save differently, Sustained 1 + Devastating": (
        [(Weapon("g", 2, 3, 4, -1, 2, ["sustained hits 1", "devastating wounds"]), 3)],
        _led(Target(4, 4, 3, 2), Target(2, 4, 2, 3, invuln=4), Target(1, 4, 2, 5, invuln=4,
                                                                       fnp=5))),
    "2D6 Devastating D6+1 into W4 FNP6+": (
        [(Weapon("g", "2D6", 3, 8, -2, "D6+1", ["devastating wounds"]), 1)],
        Target(4, 5, 3, 4, invuln=4, fnp=6)),
    "Sustained 1 bolt into W2 + a 4++ Leader": (
        [(Weapon("g", 2, 3, 4, -1, 1, ["sustained hits 1"]), 4)],
        _led(Target(4, 4, 3, 2), Target(1, 4, 3, 5, invuln=4))),
    "a Leader with a bodyguard of mixed saves": (
        [(Weapon("g", 2, 3, 8, -3, 2), 3)],
        _led(Target(3, 4, 3, 2), Target(2, 4, 3, 3, invuln=4), Target(1, 4, 2, 5, invuln=4))),
    "Sustained + Lethal + Devastating, saves differ": (
        [(Weapon("g", 3, 3, 5, -2, 2, ["sustained hits 1", "lethal hits",
                                       "devastating wounds"]), 2)],
        _led(Target(4, 4, 3, 2), Target(1, 4, 3, 5, invuln=4))),
    "Feel No Pain on the Leader only": (
        [(Weapon("g", 3, 3, 5, -1, 2, ["devastating wounds"]), 2)],
        _led(Target(4, 4, 3, 2), Target(1, 4, 3, 5, fnp=4))),
    "Feel No Pain on the Bodyguard only, saves differ, random attacks": (
        [(Weapon("g", "D6", 3, 5, -2, "D3", ["devastating wounds"]), 2)],
        _led(Target(4, 5, 3, 2, fnp=5), Target(1, 5, 2, 5, invuln=4))),
    "2D6 Devastating into a Bodyguard and a Leader that save differently, FNP on both": (
        [(Weapon("g", "2D6", 3, 8, -3, "D3+1", ["devastating wounds"]), 1)],
        _led(Target(3, 5, 3, 4, invuln=4, fnp=6), Target(1, 5, 2, 6, fnp=5))),
    "random attacks, Devastating then another weapon": (
        [(Weapon("g", "D6", 3, 5, -2, "D3", ["devastating wounds"]), 2),
         (Weapon("h", 2, 4, 4, 0, 1, ["sustained hits 1"]), 2)],
        _led(Target(4, 5, 3, 2, fnp=5), Target(1, 5, 2, 5, invuln=4))),
    "four Devastating weapons, a Knight Warden's (their tallies packed)": (
        [(Weapon("a", 6, 3, 6, -2, 2, ["devastating wounds"]), 1),
         (Weapon("f", "D3", None, 5, -1, 1, ["torrent", "devastating wounds"]), 1),
         (Weapon("s", 2, 3, 4, -1, 1, ["devastating wounds"]), 1),
         (Weapon("r", 2, 3, 8, -2, "D6", ["devastating wounds"]), 1)],
        _led(Target(4, 4, 3, 2), Target(1, 4, 3, 5, invuln=4))),
}


@pytest.mark.parametrize("name", SHAPES)
def test_every_path_gives_the_general_chains_fractions_on_the_benchmark_shapes(
        name, monkeypatch):
    profiles, target = SHAPES[name]
    chosen = _settled(mh.attack(profiles, target))
    answers = {}
    for path in engine.Path:
        taken = _force(monkeypatch, path)
        answers[path] = _settled(mh.attack(profiles, target))
        if path in taken[0][1]:
            assert taken[0][0] is path
    general = answers[engine.Path.ATTACKS]
    assert all(r == general for r in answers.values()) and chosen == general
    assert general.kills.mean() > 0 and sum(general.state.values()) == 1


def test_the_first_groups_path_is_taken_past_a_bodyguard_and_corrects_exactly(monkeypatch):
    # H5 of tests/benchmark.py, smaller: AP-3 makes the Bodyguard's 4++ a 4+ and the Leader's
    # Sv2+ a 5+; the Devastating Wounds cost what an unsaved wound does (excess lost, the same
    # Feel No Pain), so every wound is a packet until the Bodyguard falls: the cost model takes
    # that path, corrected on the Leader's 7 states alone, and it gives the chain's fractions
    gun = Weapon("g", "2D6", 3, 8, -3, "D6+1", ["devastating wounds"])
    unit = _led(Target(6, 5, 3, 4, invuln=4, fnp=6), Target(1, 5, 2, 6, fnp=5))
    choose = engine.choose_path
    taken = _force(monkeypatch, engine.Path.FIRST)
    first = _settled(mh.attack((gun, 4), unit))
    assert taken[0] == (engine.Path.FIRST, [engine.Path.ATTACKS, engine.Path.WOUNDS,
                                            engine.Path.SINGLE, engine.Path.FIRST,
                                            engine.Path.PHASES])
    _force(monkeypatch, engine.Path.ATTACKS)
    assert first == _settled(mh.attack((gun, 4), unit))
    chosen = []
    monkeypatch.setattr(engine, "choose_path", lambda *a: chosen.append(choose(*a)) or chosen[-1])
    mh.clear_caches()
    mh.attack((gun, 4), unit).state  # noqa: B018 - the law asked for runs the chain
    assert chosen == [engine.Path.FIRST] and 0 < first.character_destroyed < 1


def test_the_first_groups_path_steps_aside_where_a_later_group_leads_back(monkeypatch):
    # a start with a wounded model in the second group: its wounds go there first, then to
    # the first group (no model wounded), then back to the second: no correction on the states
    # past the second group alone would do, and the single-wound path answers instead
    gun = Weapon("g", "D6", 3, 8, -3, "D3+1", ["devastating wounds"])
    unit = _led(Target(2, 5, 3, 2, invuln=4, fnp=6), Target(2, 5, 3, 3, fnp=6),
                Target(1, 5, 2, 4, fnp=5))
    start = PMF.point((TS(2, 0), TS(2, 1), TS(1, 0)))
    seen = []
    real = engine._first_group
    monkeypatch.setattr(engine, "_first_group", lambda *a: seen.append(real(*a)) or seen[-1])
    taken = _force(monkeypatch, engine.Path.FIRST)
    first = _settled(mh.attack((gun, 3), unit, state=start))
    assert taken[0][0] is engine.Path.FIRST and seen == [None]
    _force(monkeypatch, engine.Path.ATTACKS)
    assert first == _settled(mh.attack((gun, 3), unit, state=start))
    seen.clear()
    _force(monkeypatch, engine.Path.FIRST)
    # unharmed, the same unit takes it (its wounds reach the groups in order)
    assert _settled(mh.attack((gun, 3), unit)) == _settled(mh.attack((gun, 3), unit)) and seen
    assert seen[0] is not None


# _phases: the first group's packets counted until it falls, then the packets after it; each
# shape forced onto it and held to the general chain; None where the shape is not its own
PHASED = {
    # issue 33's I1, small: W2 models lose one model a packet, so the first group falls at
    # a fixed packet; the two groups past it save alike (3+ and 4++ both a 3+ at AP-1)
    "three groups, Sustained 1 + Devastating D2": (
        (Weapon("g", 2, 3, 4, -1, 2, ["sustained hits 1", "devastating wounds"]), 3),
        _led(Target(3, 4, 3, 2), Target(2, 4, 2, 3, invuln=4),
             Target(1, 4, 2, 5, invuln=4, fnp=5)), {}, True),
    # Feel No Pain on the first group: it may fall at any packet; random attacks
    "Feel No Pain on the Bodyguard, random attacks": (
        (Weapon("g", "D6", 3, 5, -2, "D3", ["devastating wounds"]), 2),
        _led(Target(3, 5, 3, 2, fnp=5), Target(1, 5, 2, 5, invuln=4)), {}, True),
    # Precision: the wounds go to the Leader first, then to its Bodyguard
    "precision, the Leader first": (
        (Weapon("g", 2, 3, 4, -2, 2, ["sustained hits 1", "devastating wounds",
                                      "precision"]), 2),
        _led(Target(3, 4, 3, 2), Target(1, 4, 2, 4, invuln=4)), {}, True),
    # three groups whose last two save differently (Sv3+ and 4++ at AP-2: 5+ and 4+)
    "the groups past the first save differently": (
        (Weapon("g", 2, 3, 4, -2, 2, ["sustained hits 1", "devastating wounds"]), 2),
        _led(Target(2, 4, 2, 2), Target(2, 4, 3, 2), Target(1, 4, 2, 4, invuln=4)), {},
        False),
    # a start of two groups wounded: the wounds leave the first group before it falls
    "a start with two wounded models": (
        (Weapon("g", 2, 3, 4, -1, 2, ["devastating wounds"]), 2),
        _led(Target(2, 4, 3, 3), Target(2, 4, 2, 3, invuln=4), Target(1, 4, 2, 4, invuln=4)),
        {"state": PMF.point((TS(2, 1), TS(2, 1), TS(1, 0)))}, False),
}


@pytest.mark.parametrize("name", PHASED)
def test_the_phases_path_gives_the_general_chains_fractions(name, monkeypatch):
    profile, unit, options, applies = PHASED[name]
    seen = []
    real = engine._phases
    monkeypatch.setattr(engine, "_phases", lambda *a: seen.append(real(*a)) or seen[-1])
    taken = _force(monkeypatch, engine.Path.PHASES)
    phased = _settled(mh.attack(profile, unit, **options))
    # where the groups past the first save differently, or the start is several states, the
    # path does not apply; else it answers (or finds the shape is not its own: None)
    assert (taken[0][0] is engine.Path.PHASES) == (engine.Path.PHASES in taken[0][1])
    assert (bool(seen) and seen[0] is not None) == applies
    _force(monkeypatch, engine.Path.ATTACKS)
    general = _settled(mh.attack(profile, unit, **options))
    assert phased == general and general.kills.mean() > 0


def test_three_groups_that_save_differently_take_the_phases_path_at_scale(monkeypatch):
    # I1 at 60 models: 120 attacks of up to two wounds each (Sustained Hits 1); the first
    # group of W2 models falls at its tenth packet, and the chain over those packets (and
    # the one after) beats the attack-by-attack chain's 41 states (measured, tests/benchmark.py)
    profiles, target = SHAPES["three groups save differently, Sustained 1 + Devastating"]
    unit = _led(Target(10, 4, 3, 2), Target(5, 4, 2, 3, invuln=4),
                Target(1, 4, 2, 5, invuln=4, fnp=5))
    taken = []
    choose = engine.choose_path
    monkeypatch.setattr(engine, "choose_path",
                        lambda *a: taken.append(choose(*a)) or taken[-1])
    mh.clear_caches()
    _settled(mh.attack((profiles[0][0], 60), unit))
    assert taken == [engine.Path.PHASES]


def test_three_groups_that_save_differently_never_take_the_count_path_over_wounds(monkeypatch):
    # issue 33: 30 x 2 Sustained Hits 1 + Devastating Wounds D2 into three groups that save
    # differently; the count path over wounds needs the joint law of (wounds, Devastating
    # Wounds) of 120 wounds, the general chain 60 attacks: the cost model takes the chain,
    # or the packets of the first group counted until it falls where the groups past it save
    # alike (at 30 models 6 ms against the chain's 16 and the count path's 46, measured)
    profiles, target = SHAPES["three groups save differently, Sustained 1 + Devastating"]
    taken = []
    choose = engine.choose_path
    monkeypatch.setattr(engine, "choose_path",
                        lambda *a: taken.append(choose(*a)) or taken[-1])
    mh.clear_caches()
    _settled(mh.attack((profiles[0][0], 30), target))
    apart = attrs.evolve(target, groups=(*target.groups[:2],
                                         attrs.evolve(target.groups[2], save=3, invuln=None)))
    _settled(mh.attack((profiles[0][0], 30), apart))  # the last two save apart: 3+ and 4+
    assert taken == [engine.Path.PHASES, engine.Path.ATTACKS]


def test_saves_alike_in_different_groups_use_the_count_path():
    # AP-2 makes Sv3+ 4++ and Sv2+ 4++ both a 4+: the same faces fail in both groups
    gun = Weapon("Gun", "2D6", 3, 8, -2, "D6+1", ["devastating wounds"])
    led = Squad((Target(5, 5, 3, 4, invuln=4, fnp=6), Target(1, 5, 2, 6, invuln=4,
                                                             keywords=["CHARACTER"])))
    r = mh.attack((gun, 2), led)
    assert sum(r.state.values()) == 1 and r.kills.mean() > 0
    fails = [engine.save_fails(gun, g, mh.Options(), mh.load_ruleset()) for g in led.groups]
    assert engine.saves_alike(fails)


def test_state_carries_between_weapons_and_mixes_over_starting_states():
    # one S8 automatic hit (wounds T4 on 2+, 5/6) into a W2 Sv7 model that has lost 1 wound
    hurt = PMF.point(TS(1, 1))
    r = mh.attack(Weapon("Auto", 1, None, 8, 0, 1), Target(1, 4, 7, 2), state=hurt)
    assert r.destroyed == F(5, 6)
    half = PMF.uniform([TS(1, 0), TS(1, 1)])
    r = mh.attack(Weapon("Auto", 1, None, 8, 0, 1), Target(1, 4, 7, 2), state=half)
    assert r.destroyed == F(5, 12)


# ------------------------------------------------------------------ caches that can't lie


def test_a_house_rules_file_gets_its_own_numbers_after_a_10e_query(tmp_path):
    # 10e: S4 vs T4 wounds on 4+ (1/2). The house rules wound everything on 2+ (5/6).
    house = tmp_path / "house.toml"
    house.write_text('extends = "10e"\n[wound.table]\n'
                     'double = 2\ngreater = 2\nequal = 2\nlesser = 2\nhalf = 2\n')
    bolt = Weapon("Bolt", 1, None, 4, 0, 1)
    meq = Target(1, 4, 3, 2)
    assert mh.attack(bolt, meq).wounds.mean() == F(1, 2)
    assert mh.attack(bolt, meq, rules=str(house)).wounds.mean() == F(5, 6)
    assert mh.load_ruleset(str(house)).name == "house" != mh.load_ruleset("10e").name
    assert mh.load_ruleset(str(house)) != mh.load_ruleset("10e")
    # edited on disk: read again (the size changes, so does the key)
    house.write_text('extends = "10e"\n[wound.table]\n'
                     'double = 3\ngreater = 3\nequal = 3\nlesser = 3\nhalf = 3\n\n')
    assert mh.attack(bolt, meq, rules=str(house)).wounds.mean() == F(2, 3)
    mh.clear_caches()
    assert mh.attack(bolt, meq).wounds.mean() == F(1, 2)


def test_named_rules_are_read_again_when_their_folder_changes(tmp_path):
    rule = ('faction = "Test"\n[[rule]]\nname = "NAME"\nkind = "stratagem"\n'
            'side = "attacker"\ntext = "Critical Hits on 5+"\neffect = { crit_hit = 5 }\n')
    (tmp_path / "a.toml").write_text(rule.replace("NAME", "Sharp Eyes"))
    assert mh.find_rule("Sharp Eyes", directory=tmp_path).name == "Sharp Eyes"
    with pytest.raises(ValueError, match="unknown named rule 'Keen Blades'"):
        mh.find_rule("Keen Blades", directory=tmp_path)
    (tmp_path / "b.toml").write_text(rule.replace("NAME", "Keen Blades"))
    assert mh.find_rule("Keen Blades", directory=tmp_path).name == "Keen Blades"


# ------------------------------------------------------------------ no private names across modules
# (the layers and the absence of import cycles: tests/test_layers.py)


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module imported, names) for every relative import in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            out.append((node.module or "", [a.name for a in node.names]))
    return out


def test_no_private_names_across_modules():
    for path in PACKAGE.rglob("*.py"):
        for target, names in _imports(path):
            for name in names:
                assert not (name.startswith("_") and name != "__version__"), (
                    f"{path.name} imports the private name {name} from {target}")


# ------------------------------------------------------------------ library arguments


@pytest.mark.parametrize("call, name", [
    (lambda: mh.attack(Weapon("Bolt", 2, 3, 4, -1, 1), None), "target"),
    (lambda: mh.attack(Weapon("Bolt", 2, 3, 4, -1, 1), Target(5, 4, 3, 2), state="x"), "state"),
    (lambda: mh.attack("bolt", Target(5, 4, 3, 2)), "profiles"),
    (lambda: mh.attack([(Weapon("Bolt", 2, 3, 4, -1, 1), "10")], Target(5, 4, 3, 2)),
     "profiles"),
    (lambda: mh.attack(Weapon("Bolt", 2, 3, 4, -1, 1), Target(5, 4, 3, 2), attacker=5),
     "attacker"),
    (lambda: mh.sequence(None, []), "target"),
    (lambda: mh.sequence(Target(5, 4, 3, 2), "reanimate"), "steps"),
    (lambda: mh.reanimate(Target(5, 4, 3, 2), "x"), "state"),
    (lambda: mh.mortal_wounds(None, None, 2), "target"),
    (lambda: mh.mortal_wounds(Target(5, 4, 3, 2), None, 2.5), "amount"),
])
def test_public_functions_name_a_wrong_argument(call, name):
    with pytest.raises((TypeError, ValueError)) as e:
        call()
    assert str(e.value).startswith(f"{name}: ") and "\n" not in str(e.value)


def test_a_counter_never_runs_the_chain_over_the_targets_states(monkeypatch):
    # the counters come from the dice alone (docs/rules.md section 8): asked alone, they are
    # worked out without the chain; the chain runs when a law of the target's states is asked
    def no_chain(*args):
        raise AssertionError("the chain ran")

    mh.clear_caches()
    monkeypatch.setattr(engine, "_final", no_chain)
    bolt = Weapon("Bolt", 2, 3, 4, -1, 1)
    r = mh.attack((bolt, 10), Target(10, 4, 3, 2))
    # 20 attacks; hits on 3+ (2/3); wounds on 4+ (1/2); AP-1 makes the 3+ save a 4+ (1/2)
    assert (r.attacks.mean(), r.hits.mean(), r.wounds.mean(), r.unsaved.mean()) == (
        20, F(40, 3), F(20, 3), F(10, 3))
    with pytest.raises(AssertionError, match="the chain ran"):
        r.kills  # noqa: B018


def test_a_result_pickles_with_every_law_worked_out():
    import pickle

    r = mh.attack((Weapon("Gun", "D6", 3, 5, -1, 2, ["devastating wounds"]), 3),
                  Squad((Target(5, 4, 3, 2), Target(1, 4, 2, 5, keywords=["CHARACTER"]))))
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.kills == r.kills and back.group_kills == r.group_kills
    assert pickle.loads(pickle.dumps(back)) == r
