"""Hostile input outside the web page and the list readers (issue 24): the library checks the
work it is asked for as the command line does, ``--json`` output is bounded, and what
mathhammer would not use is said (rule-set keys, ``--vary`` options, a Leader that is no
CHARACTER). Each test is an input and the exact one line it gets."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import mathhammer as mh

ROW = "2 | 3+ | 4 | 0 | 1"
GUN = mh.Weapon("g", attacks=1, skill=3, strength=4, ap=0, damage=1)
MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2)


# --- 4. the library checks its work; library values check their types ------------------------


@pytest.mark.parametrize(("call", "error", "line"), [
    (lambda: mh.attacker_of(5), TypeError,
     "spec: expected a unit's name, inline weapon rows or a unit, got int"),
    (lambda: mh.attacker_of("Cronos", "spirit vortex"), TypeError,
     "weapons: expected weapon names or inline rows (a list of strings)"),
    (lambda: mh.target_of(5), TypeError,
     "spec: expected a unit's name or an inline profile, got int"),
    (lambda: mh.target_of("MEQ", leader=7), TypeError,
     "leader: expected a unit's name or an inline profile, got int"),
    (lambda: mh.attack((GUN, 10**6), MEQ), ValueError,
     "attack dice: up to 1000000 is over the limit of 20000 "
     "(mathhammer.limits.MAX_ATTACK_DICE)"),
    (lambda: mh.turns((GUN, 5), MEQ, 10**9), ValueError,
     "turns: 1000000000 is over the limit of 20 (mathhammer.engine.work.MAX_TURNS)"),
    (lambda: mh.turns((GUN, 5), MEQ, "3"), TypeError, "turns: expected an integer, got str"),
    (lambda: mh.crushing_impact(10**6), ValueError,
     "toughness: expected a Toughness from 1 to 30, got 1000000"),
    (lambda: mh.crushing_impact(2.5), TypeError, "toughness: expected an integer, got float"),
])
def test_the_library_refuses_before_any_work(call, error, line):
    with pytest.raises(error) as e:
        call()
    assert str(e.value) == line


def test_an_attack_within_the_limit_still_runs():
    # 2 attacks x 10 models = 20 dice: hit 2/3, wound (S4 vs T4) 1/2, Sv3+ fails 1/3
    assert mh.attack((mh.Weapon("g", attacks=2, skill=3, strength=4, ap=0, damage=1), 10),
                     MEQ).unsaved.mean() == Fraction(20, 9)


# --- 4. --json is bounded unless asked for in full -----------------------------------------------


def _json(cli, *args: str) -> tuple[dict, int]:
    r = cli(*args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout), len(r.stdout)


def test_json_shows_huge_exact_values_by_their_size(cli):
    # 1200 attack dice: the hits are Binomial(1200, 2/3), fractions over 3^1200 (573 digits)
    args = ["kills", "120x 10 | 3+ | 4 | 0 | 1", "MEQ", "--json"]
    short, short_size = _json(cli, *args)
    full, full_size = _json(cli, *args, "--full-fractions")
    assert short_size * 5 < full_size  # 0.8 MB against 4.9 MB
    sized = 0
    for k, text in full["pmf"]["hits"].items():
        shown = short["pmf"]["hits"][k]
        if shown == text:
            assert len(text) <= 1000
            continue
        # "[n/d digits]": n and d as stored, over the PMF's common denominator (3^1200, 573
        # digits), at least those of the reduced fraction; more than 1000 characters together
        sized += 1
        num, den = shown[1:-len(" digits]")].split("/")
        value = Fraction(text)
        assert int(den) == 573 and int(den) >= len(str(value.denominator))
        assert int(num) >= len(str(value.numerator)) and int(num) + int(den) + 1 > 1000
    assert sized > 700
    assert short["mean"]["hits"] == full["mean"]["hits"] == "800/1"  # 1200 x 2/3
    assert short["mean"]["kills"] == "[1146/1145 digits]"  # a mean: reduced, as the text
    assert short["mean_float"] == full["mean_float"]  # the floats are there either way


def test_the_text_report_says_how_to_get_every_digit(cli):
    r = cli("kills", "120x 10 | 3+ | 4 | 0 | 1", "MEQ")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[-1] == ("(exact fractions longer than 30 characters show "
                                         "their digits; --json --full-fractions has them all)")
    r = cli("kills", "20x 10 | 3+ | 4 | 0 | 1", "MEQ")
    assert r.stdout.splitlines()[-1] == ("(exact fractions longer than 30 characters show "
                                         "their digits; --json has them all)")


def test_full_fractions_is_not_a_web_parameter():
    from mathhammer.jobs.queries import answer

    assert answer("kills", {"attacker": "Cronos", "target": "MEQ", "full_fractions": True})[1]\
        .startswith("mathhammer: error: unknown parameter 'full_fractions' for kills")


# --- 5. say what is not used ---------------------------------------------------------------------


@pytest.mark.parametrize(("body", "line"), [
    ("[hit]\nmodifer_cap = 2", "hit.modifer_cap: not a rule-set key; did you mean "
                               "hit.modifier_cap?"),
    ("[hitt]\nmodifier_cap = 1", "[hitt]: not a rule-set key; did you mean hit?"),
    ('nmae = "x"', "nmae: not a rule-set key; did you mean name?"),
    ("[wound]\ntable = { double = 2, greater = 3, equal = 4, lesser = 5, half = 6, doubel = 2 }",
     "wound.table.doubel: not a rule-set key; did you mean wound.table.double?"),
    ('[reanimation]\nwounds = "999D6"', "reanimation.wounds: mathhammer always applies 'D3' "
                                        "(docs/rules.md); it does not read another value, got "
                                        "'999D6'"),
    ('[mortal_wounds]\norder = ["nobody"]',
     "mortal_wounds.order: mathhammer always applies ['wounded non-character', "
     "'non-character', 'wounded character', 'character'] (docs/rules.md); it does not read "
     "another value, got ['nobody']"),
])
def test_a_rule_set_key_mathhammer_does_not_read_is_an_error(cli, tmp_path, body, line):
    path = tmp_path / "house.toml"
    path.write_text(f'extends = "10e"\n{body}\n', encoding="utf-8")
    with pytest.raises(ValueError) as e:
        mh.load_ruleset(str(path))
    assert str(e.value) == f"{path}: {line}"
    assert cli.fails("kills", ROW, "MEQ", "--rules", str(path)) == (
        f"mathhammer kills: error: Invalid value for '--rules': {path}: {line} (see mathhammer "
        "kills --help)")


def test_a_rule_set_may_repeat_what_mathhammer_applies(tmp_path):
    path = tmp_path / "same.toml"
    path.write_text('extends = "11e"\n[reanimation]\nwounds = "D3"\n', encoding="utf-8")
    assert mh.load_ruleset(str(path)).cover_effect == "skill"  # 11e's, inherited


@pytest.mark.parametrize(("vary", "line"), [
    ("--leader Hexmark Destroyer", "mathhammer: error: --vary '--leader Hexmark Destroyer': "
     "--leader changes the targets (the columns), which every row shares, so the row would be "
     "the same; give it to the command"),
    ("--target-models 3", "mathhammer: error: --vary '--target-models 3': --target-models "
     "changes the targets (the columns), which every row shares, so the row would be the same; "
     "give it to the command"),
    ("--data /tmp", "mathhammer: error: --vary '--data /tmp': --data: a row cannot change the "
     "data folder; give --data to the command"),
])
def test_a_vary_option_that_cannot_change_a_row_is_refused(cli, vary, line):
    assert cli.fails("table", "Cronos", "-t", "MEQ", "--vary", vary) == line


def test_a_leader_that_is_no_character(cli):
    assert cli.fails("kills", ROW, "MEQ", "--leader", "MEQ") == (
        "mathhammer: error: --leader 'MEQ': MEQ is not a CHARACTER, so it cannot lead a unit; "
        'give a CHARACTER unit, or an inline profile such as "1x T4 Sv3+ W4 CHARACTER"')
    r = cli("kills", ROW, "MEQ", "--leader", "T4 Sv3+ W4", "--json")
    assert r.exit_code == 0
    assert r.stderr == ("warning: --leader 'T4 Sv3+ W4': the profile has no CHARACTER keyword; "
                        "attached as a Leader, its models are CHARACTERs (allocated last)\n")
    # the same answer as with the keyword given: the warning only says what was assumed
    said = cli("kills", ROW, "MEQ", "--leader", "T4 Sv3+ W4 CHARACTER",
                                    "--json")
    assert json.loads(said.stdout)["pmf"] == json.loads(r.stdout)["pmf"]

