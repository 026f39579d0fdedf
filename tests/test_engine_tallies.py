"""Several Devastating weapons in one attack (``mathhammer.engine.tallies``): the packed
tallies give exactly the keyed chain's answer, the attack-by-attack chain's and the brute
force's, and the shape of issue 33 that made a whole-army plan slow takes them."""

from __future__ import annotations

import pytest
from bruteforce import brute_force, engine_dicts

import mathhammer as mh
from mathhammer import PMF, Squad, Target, Weapon
from mathhammer import TargetState as TS
from mathhammer.engine import attack as engine
from mathhammer.engine import tallies

DEV = "devastating wounds"

#: the Knight Warden's four weapons, each with Devastating Wounds (a rule of its army list
#: gives them), into Khârn and his Khorne Berzerkers: the slowest one-unit step of the plan
#: of imperial-knights.11e x world-eaters.11e (issue 33), 118 of them from as many states
WARDEN = [(Weapon("Avenger gatling cannon", 18, 3, 6, -2, 2, [DEV]), 1),
          (Weapon("Heavy flamer", "D6", None, 5, -1, 1, ["ignores cover", "torrent", DEV]), 1),
          (Weapon("Questoris heavy stubber", 3, 3, 4, -1, 1, ["rapid fire 3", DEV]), 1),
          (Weapon("Stormspear rocket pod", 3, 3, 8, -2, "D6", [DEV]), 1)]
KHARN = Squad((Target(10, 4, 3, 2, keywords=["INFANTRY"], name="Khorne Berzerkers"),
               Target(1, 4, 3, 5, invuln=4, keywords=["INFANTRY", "CHARACTER"], name="Kharn")))


def _settled(result: mh.Result) -> mh.Result:
    for name in engine.LAWS:
        getattr(result, name)
    return result


def _packing(monkeypatch, on: bool | None) -> list:
    """Packing forced on (every attack of two Devastating weapons or more), off, or as the
    engine decides (None); returns the list each packed attack appends to. The answers
    remembered so far are forgotten."""
    mh.clear_caches()
    packed: list = []
    run = tallies.packed_final

    def spy(*args):
        packed.append(args[0])
        return run(*args)

    monkeypatch.setattr(engine, "packed_final", spy)
    if on is not None:
        monkeypatch.setattr(engine, "worth_packing", lambda most: on and len(most) > 1)
    return packed


def test_the_knight_wardens_shape_packs_and_matches_the_keyed_and_general_chains(monkeypatch):
    state = PMF.point((TS(7, 0), TS(1, 0)))
    packed = _packing(monkeypatch, None)
    fast = _settled(mh.attack(WARDEN, KHARN, state=state, rules="11e"))
    assert len(packed) == 1  # the engine's own choice: 19 x 7 x 4 tallies before the last
    _packing(monkeypatch, False)
    keyed = _settled(mh.attack(WARDEN, KHARN, state=state, rules="11e"))
    assert fast == keyed and 0 < fast.destroyed < 1
    # the general chain (attack by attack for every weapon), packed and keyed
    monkeypatch.setattr(engine, "saves_alike", lambda fails: False)
    monkeypatch.setattr(engine, "one_kind", lambda fails, kinds: None)
    for on in (True, False):
        _packing(monkeypatch, on)
        assert _settled(mh.attack(WARDEN, KHARN, state=state, rules="11e")) == fast


BODYGUARD = Target(4, 5, 3, 3, invuln=4, fnp=6, name="Bodyguard")
LEADER = Target(1, 4, 2, 5, keywords=["CHARACTER"], name="Leader")
CASES = {
    "two": [(Weapon("a", 3, 3, 6, -2, 2, [DEV]), 2),
            (Weapon("b", "D3", 3, 4, 0, "D3", [DEV]), 1)],
    "three, random": [(Weapon("a", "D6", 3, 6, -1, 1, [DEV]), 1),
                      (Weapon("b", 2, 3, 5, -1, "D3", [DEV, "sustained hits 1"]), 2),
                      (Weapon("c", 2, 4, 8, -2, "D6", [DEV]), 1)],
    "another between": [(Weapon("a", 4, 3, 6, -2, 2, [DEV, "lethal hits"]), 2),
                        (Weapon("p", 3, 3, 4, 0, 1), 2),
                        (Weapon("b", 2, 3, 5, -1, "D3", [DEV]), 1)],
    "precision": [(Weapon("a", 5, 3, 5, -1, 1, [DEV]), 1),
                  (Weapon("b", 2, 3, 5, -1, "D3", [DEV, "precision"]), 2)],
}
TARGETS = {
    "W1": Target(6, 4, 5, 1),
    "W3 FNP": BODYGUARD,  # Feel No Pain: no Devastating Wound is sure to take a wound
    "led": Squad((BODYGUARD, LEADER)),  # the groups save differently
    "led, no FNP": Squad((Target(4, 5, 3, 3, invuln=4), LEADER)),
}


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("rules", ["10e", "11e", "spill"])
def test_packed_tallies_match_the_keyed_chain(name, target, rules, monkeypatch, tmp_path):
    # from the unharmed unit and from a mixture of damaged states (one run from each),
    # excess lost (10e, 11e) or spilling (a house rule)
    if rules == "spill":
        path = tmp_path / "spill.toml"
        path.write_text('extends = "10e"\n[devastating_wounds]\nexcess_lost = false\n')
        rules = str(path)
    unit = TARGETS[target]
    hurt = ((TS(3, 1), TS(1, 2)), (TS(2, 0), TS(1, 0))) if isinstance(unit, Squad) else (
        TS(4, 0), TS(2, 0) if unit.wounds == 1 else TS(2, 2))
    for state in (None, PMF.uniform(hurt)):
        answers = []
        for on in (True, False):
            packed = _packing(monkeypatch, on)
            answers.append(_settled(mh.attack(CASES[name], unit, state=state, rules=rules)))
            # (into W1 models every Damage destroys one: weapons may share one tally)
            assert bool(packed) == on or (on and target == "W1")
        assert answers[0] == answers[1] and answers[0].kills.mean() > 0


@pytest.mark.parametrize("target", TARGETS)
def test_weapons_whose_devastating_wounds_move_alike_share_a_tally(target, monkeypatch):
    # a heavy flamer's and a heavy stubber's D1 (the Knight Warden's), and a D2 after them:
    # two tallies (three into W1 models, where D2 destroys one as D1 does), the same answer
    # as a tally for each weapon, packed or keyed
    guns = [(Weapon("flamer", "D6", None, 5, -1, 1, ["torrent", DEV]), 1),
            (Weapon("stubber", 3, 3, 4, -1, 1, [DEV]), 2),
            (Weapon("cannon", 6, 3, 6, -2, 2, [DEV]), 1)]
    unit = TARGETS[target]
    shared = []
    slots = engine._slots
    monkeypatch.setattr(engine, "_slots", lambda *a: shared.append(slots(*a)) or shared[-1])
    answers = []
    for on in (True, False):
        _packing(monkeypatch, on)
        answers.append(_settled(mh.attack(guns, unit)))
    assert shared[0] == ({0: 0, 1: 0, 2: 0} if target == "W1" else {0: 0, 1: 0, 2: 1})
    monkeypatch.setattr(engine, "_slots", lambda volleys, devs, rules: {i: i for i in devs})
    for on in (True, False):
        _packing(monkeypatch, on)
        answers.append(_settled(mh.attack(guns, unit)))
    assert all(a == answers[0] for a in answers) and answers[0].kills.mean() > 0


def test_a_tally_counts_no_more_devastating_wounds_than_destroy_the_unit(monkeypatch):
    # 12 attacks of D2 into 3 W2 models: at most 3 Devastating Wounds change anything, so
    # the first weapon's tally counts 0..3, not 0..12; with Feel No Pain no number is sure to
    guns = [(Weapon("a", 12, 3, 6, -2, 2, [DEV]), 1), (Weapon("b", 2, 3, 4, 0, 1, [DEV]), 1)]
    caps = []
    cap = tallies._caps
    monkeypatch.setattr(tallies, "_caps", lambda *a: caps.append((list(a[2]), cap(*a)))
                        or caps[-1][1])
    for target in (Target(3, 4, 3, 2), Target(3, 4, 3, 2, fnp=5)):
        _packing(monkeypatch, True)
        fast = _settled(mh.attack(guns, target))
        _packing(monkeypatch, False)
        assert _settled(mh.attack(guns, target)) == fast
    assert caps == [([12, 2], [3, 2]), ([12, 2], [12, 2])]


@pytest.mark.parametrize("start", [None, (2, 1)])
def test_packed_tallies_match_the_brute_force(start, monkeypatch):
    # two Devastating weapons and a plain one between them into two W2 models (10e)
    profiles = [(Weapon("a", 3, 3, 4, -1, 2, [DEV]), 1), (Weapon("p", 1, 3, 4, 0, 1), 1),
                (Weapon("b", 2, 3, 4, 0, 1, [DEV]), 1)]
    target = Target(models=2, toughness=4, save=4, wounds=2, fnp=6)
    oracle = brute_force(profiles, target, start=start)
    packed = _packing(monkeypatch, True)
    state = None if start is None else PMF.point(TS(*start))
    result = mh.attack(profiles, target, state=state)
    got, want = engine_dicts(result), oracle.dicts()
    assert packed and all(got[name] == want[name] for name in want)
    assert result.destroyed == oracle.destroyed
