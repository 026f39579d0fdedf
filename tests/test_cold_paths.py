"""The shortcuts a cold query takes (issue 33 item 2) give what the long way gives."""

from __future__ import annotations

import itertools

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathhammer import Options, Target, Weapon, load_ruleset
from mathhammer.engine.work import _ANYWHERE, _most_attacks, attack_dice
from mathhammer.errors import InputError
from mathhammer.mechanics.rolls import attacks_roll
from mathhammer.model.abilities import parse_abilities
from mathhammer.model.squad import Squad
from mathhammer.model.state import TargetState
from mathhammer.prob import dice as dice_module
from mathhammer.prob.pmf import PMF


@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_most_attacks_is_the_highest_attacks_roll(edition):
    # the arithmetic of the attack-dice check against the distribution it replaces
    rules = load_ruleset(edition)
    abilities = [[], ["blast"], ["rapid fire 1"], ["rapid fire D3", "blast"], ["blast 2"],
                 ["cleave 1"], ["rapid fire D6+3", "blast", "cleave 2"]]
    for attacks, extra, models in itertools.product(
            [1, 2, "D3", "D6", "2D6", "D6+3", "3D3+1"], abilities, [1, 4, 5, 11, 20]):
        gun = Weapon("g", attacks=attacks, skill=3, strength=4, ap=0, damage=1,
                     abilities=extra)
        expected = max(attacks_roll(gun, _ANYWHERE, rules, models).outcomes())
        assert _most_attacks(gun, rules, models) == expected, (attacks, extra, models)
    gun = Weapon("g", attacks="2D6", skill=3, strength=4, ap=0, damage=1,
                 abilities=["blast", "rapid fire D3"])
    assert attack_dice([(gun, 10)], 10, rules) == 10 * (12 + 3 + 2)


def test_everyday_dice_table_parses_as_the_expression_does():
    # every entry of the import-time table against the regular expression's reading
    for text, parsed in dice_module._EVERYDAY.items():
        assert dice_module._parse.__wrapped__(text) == parsed, text
        n, sides, plus = parsed  # and each is spelled canonically (format_dice returns it)
        assert text == (f"{n if n > 1 else ''}D{sides}{f'+{plus}' if plus else ''}" if n
                        else str(plus))
    assert len(dice_module._EVERYDAY) == 21 + 4 * 2 * 7
    for key, law in dice_module._EVERYDAY_PMF.items():
        count, sides, plus = key
        # brute force: every roll of `count` dice of `sides` faces, equally likely
        rolls = itertools.product(range(1, sides + 1), repeat=count)
        assert law == PMF.uniform(sum(r) + plus for r in rolls), key
    assert dice_module.dice("2D6").prob(7) == PMF.uniform(range(1, 7)).repeat(2).prob(7)
    assert dice_module.dice("4D6+1") == PMF.uniform(range(1, 7)).repeat(4) + 1  # not tabled


def test_default_options_are_one_value_and_still_checked():
    assert Options.make() is Options.make(half_range=False, rules="10e", hit_mod=0)
    assert Options.make(half_range=False) == Options()
    assert Options.make(hit_mod=1).hit_mod == 1
    with pytest.raises(InputError, match="half_range: expected true or false, got 0"):
        Options.make(half_range=0)  # 0 is not False: checked, not taken for the default
    with pytest.raises(InputError, match="unknown option 'half_rnage'"):
        Options.make(half_rnage=False)


@pytest.mark.parametrize("target", [
    Target(models=5, toughness=4, save=3, wounds=2),
    Target(models=5, toughness=4, save=3, wounds=2, abilities=["stealth"], name="Scouts"),
    Target(models=1, toughness=9, save=3, wounds=10, abilities=["deadly demise D3"]),
    Target(models=3, toughness=5, save=3, wounds=3, keywords=["INFANTRY", "infantry"]),
    Target(models=3, toughness=5, save=3, wounds=3, abilities=["stealth",
                                                                "reanimation protocols"]),
])
def test_one_group_rolls_profile_is_the_long_way_round(target):
    # what Squad.rolls_target built before its shortcut: the group's profile with the unit's
    # models, its keywords once each, Stealth alone of its abilities, the unit's name
    unit = Squad.of(target)
    states = [None, unit.start(), (TargetState(target.models, 1),)]
    if target.models > 1:
        states.append((TargetState(target.models - 1, 0),))
    for state in states:
        start = unit.start() if state is None else state
        expected = attrs.evolve(
            target, models=start[0].models, keywords=tuple(dict.fromkeys(target.keywords)),
            abilities=("stealth",) if target.stealth else (), name=target.name)
        assert unit.rolls_target(load_ruleset(), state) == expected, state


def test_a_weapon_without_abilities_parses_as_no_abilities():
    gun = Weapon("g", attacks=1, skill=3, strength=4, ap=0, damage=1)
    assert gun.parsed == parse_abilities(())
    assert Weapon("g", attacks=1, skill=3, strength=4, ap=0, damage=1,
                  abilities=["lethal hits"]).parsed.lethal_hits


def _attack_wounds_by_mixture(weapon, target, options, rules):
    """attack_wounds of an attack without Sustained Hits the long way (as before its
    shortcut): the wound roll's law per hit, mixed over the hit roll."""
    from mathhammer.mechanics import criticals as c
    from mathhammer.mechanics import rolls

    crit_wound = c.DEVASTATING if weapon.parsed.devastating_wounds else c.CRITICAL
    w = rolls.wound_roll(weapon, target, options, rules).weights()
    rolled = PMF({(): w.get(rolls.FAIL, 0), (c.NORMAL,): w.get(rolls.SUCCESS, 0),
                  (crit_wound,): w.get(rolls.CRITICAL, 0)})
    one_hit = rolled.map(lambda ws: (1, ws))
    own = (PMF.point((1, (c.NORMAL,))) if rolls.lethal_hits(weapon, options, rules)
           else one_hit)
    h = rolls.hit_roll(weapon, target, options, rules).weights()
    return PMF.mix([(h.get(rolls.FAIL, 0), PMF.point((0, ()))),
                    (h.get(rolls.SUCCESS, 0), one_hit), (h.get(rolls.CRITICAL, 0), own)])


@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_one_wound_attack_law_is_the_mixture(edition):
    from mathhammer.mechanics.criticals import attack_wounds

    rules = load_ruleset(edition)
    target = Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])
    abilities = [[], ["lethal hits"], ["devastating wounds"],
                 ["lethal hits", "devastating wounds"], ["twin-linked"], ["torrent"],
                 ["anti-infantry 4+", "lethal hits"]]
    options = [Options(), Options(crit_hit=5, reroll_hits="ones"),
               Options(reroll_wounds="noncrit", crit_wound=5), Options(lethal_hits="decline"),
               Options(overwatch=True)]
    for skill, strength, extra, opts in itertools.product([2, 4, 6], [3, 4, 8], abilities,
                                                          options):
        gun = Weapon("g", attacks=2, skill=None if "torrent" in extra else skill,
                     strength=strength, ap=-1, damage=1, abilities=extra)
        expected = _attack_wounds_by_mixture(gun, target, opts, rules)
        got = attack_wounds.__wrapped__(gun, target, opts, rules)
        assert got == expected, (extra, opts)
        assert list(got.weights()) == list(expected.weights())  # the same order, too


def _d6_roll_face_by_face(need, mod, crit, reroll, fail_below, always_from):
    """d6_roll the long way (as before its shortcut): every face, and every face of its
    re-roll, judged one by one."""
    from mathhammer.mechanics.rolls import CRITICAL, FAIL, SUCCESS

    def judge(face):
        if face < fail_below:
            return FAIL
        if face >= crit:
            return CRITICAL
        return SUCCESS if face >= always_from or face + mod >= need else FAIL

    weights = {FAIL: 0, SUCCESS: 0, CRITICAL: 0}
    for face in range(1, 7):
        o = judge(face)
        if ((reroll == "ones" and face == 1) or (reroll == "failed" and o == FAIL)
                or (reroll == "noncrit" and o != CRITICAL)):
            for second in range(1, 7):
                weights[judge(second)] += 1
        else:
            weights[o] += 6
    return PMF({k: w for k, w in weights.items() if w})


def test_d6_roll_is_face_by_face():
    from mathhammer.mechanics.rolls import d6_roll

    for need, mod, crit, reroll, fail_below, always_from in itertools.product(
            range(2, 8), range(-6, 7), range(1, 8), (None, "ones", "failed", "noncrit"),
            (1, 2, 3, 6), (2, 5, 7)):
        args = (need, mod, crit, reroll, fail_below, always_from)
        got = d6_roll.__wrapped__(*args)
        assert got == _d6_roll_face_by_face(*args), args
        assert list(got.weights()) == sorted(got.weights())


def test_plain_damage_is_the_dice_plus_melta():
    # the shortcut of damage_roll (no re-roll, halving or modifier) against every pair of
    # rolls, the Damage dice's and Melta's, each weighted by its probability
    from mathhammer.mechanics.damage import damage_roll
    from mathhammer.prob.dice import dice

    for damage, extra, half in itertools.product([1, 3, "D3", "D6", "D6+1", "2D6", "D3+3"],
                                                 [[], ["melta 2"], ["melta D3"]],
                                                 [False, True]):
        gun = Weapon("g", attacks=1, skill=3, strength=4, ap=0, damage=damage,
                     abilities=extra)
        got = damage_roll.__wrapped__(gun, Options(half_range=half))
        melta = gun.parsed.melta if half else None
        rolls = [(d, m) for d in dice(gun.damage).outcomes()
                 for m in (dice(melta).outcomes() if melta else [0])]
        weights = {}
        for d, m in rolls:
            w = dice(gun.damage).weights()[d] * (dice(melta).weights()[m] if melta else 1)
            weights[max(1, d + m)] = weights.get(max(1, d + m), 0) + w
        assert got == PMF(weights), (damage, extra, half)


@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_sustained_attack_law_as_a_multiset_is_the_ordered_one_sorted(edition):
    # the multiset law of an attack with Sustained Hits, counted at once, against the ordered
    # law (mixtures and sums of wound sequences) with each sequence sorted, as it was made
    from mathhammer.mechanics.criticals import attack_wounds

    rules = load_ruleset(edition)
    target = Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])
    abilities = [["sustained hits 1"], ["sustained hits 2", "lethal hits"],
                 ["sustained hits d3", "devastating wounds"],
                 ["sustained hits 1", "lethal hits", "devastating wounds"],
                 ["sustained hits d6+1", "twin-linked"], ["sustained hits 1", "torrent"],
                 ["sustained hits 2", "anti-infantry 4+"]]
    options = [Options(), Options(crit_hit=5, reroll_hits="ones", hit_mod=1),
               Options(reroll_wounds="noncrit", crit_wound=5), Options(lethal_hits="decline"),
               Options(overwatch=True), Options(crit_hit=2)]
    for skill, strength, extra, opts in itertools.product([2, 4, 6], [2, 4, 8], abilities,
                                                          options):
        gun = Weapon("g", attacks=2, skill=None if "torrent" in extra else skill,
                     strength=strength, ap=-1, damage=1, abilities=extra)
        ordered = attack_wounds.__wrapped__(gun, target, opts, rules, ordered=True)
        expected = ordered.map(lambda o: (o[0], tuple(sorted(o[1]))))
        got = attack_wounds.__wrapped__(gun, target, opts, rules, ordered=False)
        assert got == expected, (skill, strength, extra, opts)
        assert list(got.weights()) == list(expected.weights())  # the same order, too


def test_packets_per_attack_is_every_save_rolled():
    # each wound's save rolled face by face (6^k rolls for k wounds), the Devastating Wounds
    # left out, counted or coded, against the one-pass count with its one-wound table
    from mathhammer.mechanics.criticals import (
        CRITICAL,
        DEVASTATING,
        NORMAL,
        attack_wounds,
        packets_per_attack,
    )

    rules = load_ruleset()
    target = Target(models=5, toughness=4, save=3, wounds=2)
    for extra in ([], ["lethal hits", "devastating wounds"], ["sustained hits 2"],
                  ["sustained hits d3", "devastating wounds"]):
        gun = Weapon("g", attacks=1, skill=3, strength=4, ap=-1, damage=1, abilities=extra)
        per = attack_wounds(gun, target, Options(), rules, ordered=False)
        for fails, base in itertools.product(
                [{NORMAL: 3, CRITICAL: 3, DEVASTATING: 6}, {NORMAL: 2, CRITICAL: 5,
                                                           DEVASTATING: 6},
                 {NORMAL: 0, CRITICAL: 6, DEVASTATING: 6}, None], [None, 0, 7]):
            weights = {}
            most = max(len(wounds) for _hits, wounds in per.outcomes())
            for (_hits, wounds), w in per.weights().items():
                dev = wounds.count(DEVASTATING)
                saved = [k for k in wounds if k != DEVASTATING]
                for faces in itertools.product(range(6), repeat=len(saved)):
                    u = len(saved) if fails is None else sum(
                        f < fails[k] for f, k in zip(faces, saved, strict=True))
                    key = u if base is None else u + dev if base == 0 else u * base + dev
                    # every outcome over 6^3 rolls: at most three wounds to save here
                    weights[key] = weights.get(key, 0) + w * 6 ** (most - len(saved))
            assert packets_per_attack(per, fails, base) == PMF(weights), (extra, fails, base)


def test_one_group_chain_is_the_chain():
    # a model losing the capped sum of the packets' losses, or W1 models losing one per
    # packet that takes a wound, against the chain over the unit's states
    from mathhammer.mechanics.allocation import one_group_chain, packet_move, wound_move
    from mathhammer.model.state import Group
    from mathhammer.prob.markov import chain

    # (and several models of more wounds, each packet taking a fixed loss, excess lost)
    losses = [PMF.point(1), PMF.uniform(range(1, 7)), PMF({0: 1, 1: 2}),
              PMF({0: 4, 1: 5, 3: 1, 7: 2}), PMF.point(0), PMF.point(2), PMF.point(4)]
    counts = [PMF.point(0), PMF.point(3), PMF.uniform(range(0, 5)), PMF({1: 1, 6: 3}),
              PMF.uniform(range(0, 31))]
    for wounds, loss, count in itertools.product([1, 3, 10], losses, counts):
        for move in (packet_move([Group(wounds)], [loss]),
                     wound_move([Group(wounds)], [4], [loss])):
            fixed = len(loss) == 1 and min(loss) > 0 and move.one_group[1] == [
                (min(loss), move.total)]  # a packet's fixed loss, no save rolled
            models = [1, 2, 5] if wounds == 1 or fixed else [1]
            keys = {((TargetState(m, lost),), ("tally",)): 1 + lost + m
                    for lost in range(wounds) for m in models}
            keys[(TargetState(0, 0),), ("tally",)] = 5

            def moved(key, move=move):
                return [((s2, key[1]), w) for s2, w in move(key[0])]

            got = one_group_chain(keys, count, move)
            expected = chain(keys, count, moved, move.total)
            assert PMF(got) == PMF(expected), (wounds, loss, count)
    two = packet_move([Group(2)], [PMF.point(1)])  # W2, D1: 3 steps take 1.5 models
    assert one_group_chain({((TargetState(3, 0),),): 1}, PMF.point(3), two) == {
        ((TargetState(2, 1),),): 1}
    d3 = packet_move([Group(2)], [PMF.uniform([1, 2, 3])])  # a random loss: the chain's
    assert one_group_chain({((TargetState(2, 0),),): 1}, PMF.point(1), d3) is None
    squad = packet_move([Group(2), Group(1)], [PMF.point(1), PMF.point(1)])
    assert one_group_chain({((TargetState(1, 0), TargetState(1, 0)),): 1}, PMF.point(1),
                           squad) is None


def test_canonical_ability_table_is_the_long_way(monkeypatch):
    # every spelling of the import-time table is canonical when read the long way round
    from mathhammer.model import abilities

    table = abilities._CANONICAL
    assert "lethal hits" in table and "sustained hits D3" in table and "blast 2" in table
    assert "sustained hits D6+6" not in table  # over MAX_ABILITY_VALUE: read (and refused)
    monkeypatch.setattr(abilities, "_CANONICAL", frozenset())
    for text in table:
        assert abilities.canonical(text) == text, text


def _capped_sum_by_dicts(x, counts, cap):
    """min(cap, the sum of N copies of X) in Horner's form on dicts, capping every sum."""
    total, top = sum(x.values()), max(counts)
    out: dict[int, int] = {}
    for k in range(top, -1, -1):
        step: dict[int, int] = {}
        for s, a in out.items():
            for e, b in x.items():
                step[min(s + e, cap)] = step.get(min(s + e, cap), 0) + a * b
        if c := counts.get(k, 0) * total ** (top - k):
            step[0] = step.get(0, 0) + c
        out = step
    return out


@given(st.dictionaries(st.integers(0, 14), st.integers(1, 40), min_size=1, max_size=6),
       st.dictionaries(st.integers(0, 25), st.integers(1, 40), min_size=1, max_size=6),
       st.integers(1, 16))
def test_capped_sum_packed_is_the_capped_horner_on_dicts(x, counts, cap):
    # the packed polynomials cut at the cap (the weight at the cap the rest of the total)
    # against every sum capped as it is made
    from mathhammer.mechanics.allocation import _capped_sum

    got = _capped_sum(x, counts, cap)
    assert got == {k: w for k, w in _capped_sum_by_dicts(x, counts, cap).items() if w}
    assert sum(got.values()) == sum(counts.values()) * sum(x.values()) ** max(counts)


@given(st.integers(1, 8), st.lists(st.tuples(st.integers(0, 10), st.integers(1, 30)),
                                   min_size=1, max_size=8),
       st.integers(0, 6), st.integers(0, 7))
def test_one_group_move_is_each_loss_taken(wounds, pairs, models, lost):
    # the move of one group (losses merged and split at what destroys the model) against
    # each (loss, weight) pair taken from the state as lose() takes it, equal states merged
    from mathhammer.mechanics.allocation import _one_group, lose
    from mathhammer.model.state import TargetState

    lost = min(lost, wounds - 1) if models else 0
    state = (TargetState(models, lost),)
    total = sum(w for _e, w in pairs)
    expected: dict = {}
    for e, w in pairs:
        s2 = lose(state, 0, e, wounds) if models else state
        expected[s2] = expected.get(s2, 0) + w
    got = _one_group(wounds, pairs, total)(state)
    assert dict(got) == expected and len(got) == len(expected)
