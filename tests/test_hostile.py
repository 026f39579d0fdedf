"""Hostile input (issue 14): every input ends quickly, in an answer or one clear line.

One section per class of the issue: tracebacks that became one-line errors, limits on the size
of the game (each message names the limit), silent wrong answers that became errors or
warnings, and long exact values in human output. Large hostile inputs are generated in
``tmp_path``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import bsjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer import limits
from mathhammer.app.grids import Column, Grid, Row
from mathhammer.data.bsdata import BattleScribeWarning, list_catalogue_units, load_catalogue_unit
from mathhammer.data.typed.inline import parse_target, parse_weapon
from mathhammer.data.units.file import loads_unit
from mathhammer.engine.work import attack_dice, check_attack_dice
from mathhammer.model.ruleset import load_ruleset
from mathhammer.prob.dice import parse_dice
from mathhammer.prob.numbers import as_float, decimal, fraction, percent, readable_fraction
from mathhammer.prob.pmf import PMF
from mathhammer.report.tables import render

ROW = "10x 2 | 3+ | 4 | 0 | 1"


def warns(cli, *args: str) -> tuple[str, str]:
    """(stdout, warning lines) of a command that succeeds with a warning."""
    r = cli(*args)
    assert r.exit_code == 0, (args, r.stderr, r.exception)
    warnings = [line for line in r.stderr.splitlines() if line.startswith("warning: ")]
    assert warnings, r.stderr
    return r.stdout, "\n".join(warnings)


# --- tracebacks: inline rows -------------------------------------------------------------------


@pytest.mark.parametrize("rng", ['-5"', "long", "∞", '12-24"', "12 - 24in", "24 inches"])
def test_a_range_that_is_not_a_distance_is_refused(cli, rng):
    row = f"10x Bolter | {rng} | 2 | 3+ | 4 | 0 | 1"
    with pytest.raises(ValueError, match=r'range ".*" \(column 2\): expected "melee" or inches'):
        parse_weapon(row)
    assert "range" in cli.fails("kills", row, "MEQ", one_line=False)


def test_a_range_without_a_name_is_still_a_range():
    with pytest.raises(ValueError, match=r'range "12-24"" \(column 1\)'):
        parse_weapon('| 12-24" | 2 | 3+ | 4 | 0 | 1')
    assert parse_weapon('| 12" | 2 | 3+ | 4 | 0 | 1')[0].range == 12


@pytest.mark.parametrize("name", ["Bolter [lethal hits", "Bolter lethal hits]",
                                  "Bolter [heavy] [lethal hits"])
def test_an_unclosed_bracket_is_refused(name):
    with pytest.raises(ValueError, match=r'a "\[" without its "\]"'):
        parse_weapon(f'10x {name} | 24" | 2 | 3+ | 4 | 0 | 1')


# --- tracebacks: very large values are formatted exactly -----------------------------------------


def test_any_exact_value_formats_without_overflow():
    huge = Fraction(10**400 + 1, 3)
    assert decimal(huge, 2) == "3.33e+399"
    assert decimal(-huge, 0) == "-3e+399"
    assert as_float(huge) is None and as_float(Fraction(1, 3)) == 1 / 3
    assert percent(Fraction(1, 10**400)) == "<0.01%"
    # more digits than Python's str() allows by default (4300)
    tiny = Fraction(1, 6**6000)
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        digits = str(6**6000)
    finally:
        sys.set_int_max_str_digits(old)
    assert len(digits) == 4669 and fraction(tiny) == f"1/{digits}"
    assert sys.get_int_max_str_digits() == old  # the limit is back
    assert readable_fraction(tiny) == "[1/4669 digits]"


@given(st.fractions(min_value=-(10**14), max_value=10**14), st.integers(0, 8))
def test_decimal_rounds_to_the_nearest(x, places):
    text = decimal(x, places)
    assert abs(Fraction(text) - x) <= Fraction(1, 2 * 10**places)
    assert len(text.split(".")[1]) == places if places else "." not in text


@given(st.integers(16, 2000), st.integers(1, 9))
def test_decimal_of_huge_values_keeps_three_significant_digits(exp, lead):
    x = Fraction(lead * 10**exp + 7, 3)
    text = decimal(x, 2)
    mantissa, e = text.split("e+")
    assert abs(Fraction(mantissa) * 10 ** int(e) - x) <= Fraction(5, 1000) * 10 ** int(e)


@pytest.mark.parametrize("fmt", ["text", "md", "csv", "html", "json"])
def test_a_grid_of_huge_values_renders_in_every_format(fmt):
    huge = Fraction(7 * 10**400, 3)
    meq = mh.Target(models=5, toughness=4, save=3, wounds=2, name="MEQ")
    grid = Grid("damage", (Row("Big", ()),), (Column("MEQ", meq),), ((huge,),))
    text = render(grid, fmt)
    if fmt == "json":
        cell = json.loads(text)["rows"][0]["values"][0]
        assert Fraction(cell["exact"]) == huge and cell["float"] is None
    else:
        assert "2.33e+400" in text or "2.333333e+400" in text  # 7/3 * 10**400 (csv: 6 places)


# --- tracebacks: rule-set files ------------------------------------------------------------------


def _ruleset(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("body, message", [
    ("[blast]\nper_models = 0", "blast.per_models: expected an integer from 1 to 1000, got 0"),
    ("[blast]\nper_models = -5", "blast.per_models: expected an integer from 1 to 1000, got -5"),
    ("hit = 5", "hit: expected a table [hit], got 5"),
    ("[hazardous]\nfails_on = 9", "hazardous.fails_on: expected an integer from 0 to 6, got 9"),
    ("[hazardous]\nmortal_wounds = -3", "hazardous.mortal_wounds: expected an integer from 0"),
    ("[hit]\nunmodified_fail = 7", "hit.unmodified_fail: expected an integer from 1 to 5"),
    ("[hit]\nmodifier_cap = true", "hit.modifier_cap: expected an integer from 0 to 6"),
    ("[hit]\noverwatch_rerolls = 1", "hit.overwatch_rerolls: expected true or false, got 1"),
    ("[wound]\ntable = { double = 2, greater = 3, equal = 4, lesser = 5, half = 9 }",
     "wound.table.half: expected an integer from 2 to 6, got 9"),
    ("[cover]\neffect = 3", "cover.effect: expected one of save, skill, got 3"),
    ("description = 5", "description: expected a string, got 5"),
])
def test_every_rule_set_field_is_checked(cli, tmp_path, body, message):
    path = _ruleset(tmp_path, "house.toml", f'extends = "10e"\n{body}\n')
    with pytest.raises(ValueError) as e:
        load_ruleset(path)
    assert str(e.value) == f"{path}: {message}" or str(e.value).startswith(f"{path}: {message}")
    assert message in cli.fails("kills", ROW, "MEQ", "--rules", path, one_line=False)


def test_extends_must_name_a_rule_set(tmp_path):
    path = _ruleset(tmp_path, "five.toml", "extends = 5\n")
    with pytest.raises(ValueError, match="five.toml: extends: expected the name or path"):
        load_ruleset(path)


def test_extends_cycles_are_found_by_resolved_path(cli, tmp_path):
    (tmp_path / "sub").mkdir()
    me = _ruleset(tmp_path, "me.toml", 'extends = "me.toml"\n')
    with pytest.raises(ValueError, match=r"circular reference \(me.toml -> me.toml\)"):
        load_ruleset(me)
    # a.toml -> sub/../b.toml -> a.toml: the names differ, the files are the same
    a = _ruleset(tmp_path, "a.toml", f'extends = "{tmp_path}/sub/../b.toml"\nname = "x"\n')
    _ruleset(tmp_path, "b.toml", f'extends = "{tmp_path}/a.toml"\nname = "x"\n')
    with pytest.raises(ValueError, match=r"circular reference \(a.toml -> b.toml -> a.toml\)"):
        load_ruleset(a)
    assert "circular reference" in cli.fails("kills", ROW, "MEQ", "--rules", a, one_line=False)


def test_deeply_nested_and_oversized_rule_sets(cli, tmp_path):
    deep = _ruleset(tmp_path, "deep.toml", "x = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ValueError, match="deep.toml: cannot read rule set: nested too deeply"):
        load_ruleset(deep)
    big = _ruleset(tmp_path, "big.toml", "# " + "x" * limits.MAX_RULES_FILE_BYTES + "\n")
    assert "MAX_RULES_FILE_BYTES" in cli.fails("kills", ROW, "MEQ", "--rules", big, one_line=False)


def test_the_11e_description_does_not_point_at_a_file_users_lack(cli):
    assert "RULES.md" not in load_ruleset("11e").description
    assert "RULES.md" not in cli("kills", ROW, "MEQ", "--rules", "11e").stdout


# --- tracebacks: nested TOML and BattleScribe files ----------------------------------------------


def test_deeply_nested_unit_file(cli, tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="invalid TOML: nested too deeply"):
        loads_unit(path.read_text(encoding="utf-8"), "deep.toml")
    assert "deep.toml: invalid TOML: nested too deeply" in cli.fails("kills", str(path), "MEQ",
                                                                      one_line=False)


BOY = (("M", '6"'), ("T", "5"), ("SV", "5+"), ("W", "1"), ("LD", "7+"), ("OC", "2"))


def _unit(weapons: list[tuple[str, str, str]]) -> dict:
    """A minimal 11e-style catalogue with one unit carrying ``weapons`` (name, A, D)."""
    guns = [bsjson.weapon(f"wp{i}", name, a, "5+", "5", "0", d)
            for i, (name, a, d) in enumerate(weapons)]
    return {
        "id": "c1", "name": "Test - Orks", "gameSystemId": "gs1",
        "sharedSelectionEntries": [bsjson.unit("u1", "Boyz", 10, [], [], guns, BOY,
                                               faction="Orks", model="Boy")],
        "entryLinks": [{"id": "el1", "name": "Boyz", "targetId": "u1",
                        "type": "selectionEntry"}],
    }


_SYSTEM = {"gameSystem": {"id": "gs1", "name": "Test system"}}


def _catalogue(folder: Path, weapons=(("Shoota", "2", "1"),)) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "Orks.json"
    path.write_text(json.dumps({"catalogue": _unit(list(weapons))}, indent=4), encoding="utf-8")
    (folder / "System.json").write_text(json.dumps(_SYSTEM, indent=4), encoding="utf-8")
    return path


def test_deeply_nested_battlescribe_files_name_the_file(cli, tmp_path):
    deep_json = tmp_path / "Deep.json"
    deep_json.write_text('{"catalogue": ' + "[" * 100_000 + "]" * 100_000 + "}",
                         encoding="utf-8")
    assert "Deep.json: nested too deeply" in cli.fails("catalogue", str(deep_json), one_line=False)
    deep_xml = tmp_path / "Deep.cat"
    deep_xml.write_text('<catalogue id="c" name="x">' + "<selectionEntries>" * 50_000
                        + "</selectionEntries>" * 50_000 + "</catalogue>", encoding="utf-8")
    assert "Deep.cat: nested too deeply" in cli.fails("catalogue", str(deep_xml), one_line=False)


def test_a_broken_neighbour_is_skipped(cli, tmp_path):
    cat = _catalogue(tmp_path)
    # a deeply nested file, and one that claims the game system's id but is not valid JSON
    (tmp_path / "Aaa.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (tmp_path / "Aab.json").write_text('{\n    "gameSystem": {\n    "id": "gs1",\n    "type": '
                                       '"gameSystem",\n    "name": "x", [[[', encoding="utf-8")
    assert list_catalogue_units(cat) == ["Boyz"]
    with pytest.warns(BattleScribeWarning, match="skipped Aab.json: .*not a well-formed JSON"):
        assert load_catalogue_unit(f"{cat}:Boyz").name == "Boyz"
    r = cli("kills", f"{cat}:Boyz", "MEQ")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("Boyz -> MEQ")
    r = cli("import", "--catalogue", str(cat), "Boyz", "-o", str(tmp_path / "out"))
    assert r.exit_code == 0, r.stderr


def test_oversized_battlescribe_file_is_refused_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_CATALOGUE_BYTES", 1000)
    from mathhammer.data.bsdata import files

    monkeypatch.setattr(files, "MAX_CATALOGUE_BYTES", 1000)
    cat = _catalogue(tmp_path)
    with pytest.raises(ValueError, match="over the limit of 1000 bytes .*MAX_CATALOGUE_BYTES"):
        list_catalogue_units(cat)


def test_links_that_fan_out_are_bounded(cli, tmp_path):
    # ten links per level, nine levels: 10**9 walks without a bound on the expansions
    data = _unit([("Shoota", "2", "1")])
    shared = data["sharedSelectionEntries"]
    for level in range(9):
        shared.append({"id": f"s{level}", "name": f"Level {level}", "type": "upgrade",
                       "entryLinks": [{"id": f"s{level}-{i}", "name": f"to {level + 1}",
                                       "targetId": f"s{level + 1}", "type": "selectionEntry"}
                                      for i in range(10)] if level < 8 else []})
    model = shared[0]["selectionEntries"][0]
    model["entryLinks"] = [{"id": "top", "name": "fan", "targetId": "s0",
                            "type": "selectionEntry"}]
    (tmp_path / "Orks.json").write_text(json.dumps({"catalogue": data}, indent=4),
                                        encoding="utf-8")
    (tmp_path / "System.json").write_text(json.dumps(_SYSTEM, indent=4), encoding="utf-8")
    line = cli.fails("kills", f"{tmp_path / 'Orks.json'}:Boyz", "MEQ", one_line=False)
    assert f"more than {limits.MAX_LINK_EXPANSIONS} times" in line
    assert "MAX_LINK_EXPANSIONS" in line


# --- tracebacks: library values check their arguments --------------------------------------------


@pytest.mark.parametrize("call, error, name", [
    (lambda: mh.Target(models=5, toughness=4, save=3, wounds=1, keywords=[5]), TypeError,
     "keywords"),
    (lambda: mh.Target(models=5, toughness=4, save=3, wounds=1, keywords=5), TypeError,
     "keywords"),
    (lambda: mh.Target(models=5, toughness=4, save=3, wounds=1, abilities=[None]), TypeError,
     "abilities"),
    (lambda: mh.Target(models="5", toughness=4, save=3, wounds=1), TypeError, "models"),
    (lambda: mh.Target(models=5, toughness=4, save=3, wounds=1, name=3), TypeError, "name"),
    (lambda: mh.Weapon(5, attacks=1, skill=3, strength=4, ap=0, damage=1), TypeError, "name"),
    (lambda: mh.Weapon("g", attacks=1, skill=3, strength="4", ap=0, damage=1), TypeError,
     "strength"),
    (lambda: mh.Weapon("g", attacks=1, skill=3, strength=4, ap=0, damage=1, abilities=[1]),
     TypeError, "abilities"),
    (lambda: mh.Weapon("g", attacks=1, skill=3, strength=4, ap=0, damage=1, range=2.5),
     TypeError, "range"),
    (lambda: mh.Weapon("g", attacks=1, skill=3, strength=4, ap=0, damage=1, range="far"),
     ValueError, "range"),
    (lambda: PMF.point(1).convolve(None), TypeError, "other"),
    (lambda: PMF.point(1) + "x", TypeError, "other"),
    (lambda: PMF.point(1).map(None), TypeError, "f"),
    (lambda: PMF.point(1).bind(3), TypeError, "f"),
    (lambda: PMF.point(1).random_sum(3), TypeError, "n"),
    (lambda: PMF.point(1).repeat(2, op=None), TypeError, "op"),
    (lambda: PMF(None), TypeError, "weights"),
    (lambda: PMF.uniform(None), TypeError, "outcomes"),
    (lambda: PMF.from_probs([1]), TypeError, "probs"),
    (lambda: PMF.bernoulli(2), ValueError, "p"),
    (lambda: PMF.bernoulli("x"), TypeError, "p"),
    (lambda: PMF.binomial(2.0, Fraction(1, 2)), TypeError, "n"),
    (lambda: PMF.mix([(1, None)]), TypeError, "parts"),
    (lambda: mh.load_unit(None), TypeError, "path_or_name"),
    (lambda: mh.Options(rules=5), TypeError, "rules"),
    (lambda: mh.load_ruleset(5), TypeError, "rules"),
])
def test_library_values_check_their_arguments(call, error, name):
    with pytest.raises(error) as e:
        call()
    assert str(e.value).startswith(f"{name}: ") and "\n" not in str(e.value)


# --- limits: each message names the limit and its value ------------------------------------------


@pytest.mark.parametrize("args, limit, value", [
    (("kills", "1x 2 | 3+ | 4 | 0 | 1", "1000001x T4 Sv3+ W1"), "MAX_MODELS", 1000),
    (("kills", "1000001x 2 | 3+ | 4 | 0 | 1", "MEQ"), "MAX_MODELS", 1000),
    (("kills", "1x 2 | 3+ | 4 | 0 | 1", "T4 Sv3+ W1001"), "MAX_WOUNDS", 1000),
    (("kills", "10x 99999999999999999999D6 | 3+ | 4 | 0 | 1", "MEQ"), "MAX_DICE", 20),
    (("kills", "10x D6+99999999 | 3+ | 4 | 0 | 1", "MEQ"), "MAX_FLAT", 100),
    (("kills", "10x 2 | 3+ | 4 | 0 | 1000000", "T4 Sv3+ W1 FNP5+"), "MAX_FLAT", 100),
    (("kills", "10x 2 | 3+ | 4 | 0 | 1 | sustained hits 99999", "MEQ"), "MAX_ABILITY_VALUE",
     10),
    (("kills", "10x 2 | 3+ | 4 | 0 | 1 | rapid fire 9999999", "MEQ"), "MAX_ABILITY_VALUE", 10),
    (("kills", "10x 2 | 3+ | 4 | 0 | 1", "MEQ", "-a", "sustained hits 11"), "MAX_ABILITY_VALUE",
     10),
    (("kills", "10x 2 | 3+ | 999 | 0 | 1", "MEQ"), "", 100),  # S: a range, 1 to 100
    (("mortal", "MEQ", "99999999D6"), "MAX_DICE", 20),
    (("kills", "1x 2 | 3+ | 4 | 0 | 1 | blast", "MEQ", "--target-models", "1000000000"),
     "MAX_MODELS", 1000),
    (("kills", "Hexmark Destroyer", "MEQ", "--models", "99999999999999999999999"), "MAX_MODELS",
     1000),
    (("kills", "1000x 10 | 3+ | 4 | 0 | 1 | blast", "1000x T4 Sv3+ W1"), "MAX_ATTACK_DICE",
     20000),
    (("table", "1000x 11 | 3+ | 4 | 0 | 1 | rapid fire 10", "--targets", "MEQ"),
     "MAX_ATTACK_DICE", 20000),
])
def test_limits_are_named(cli, args, limit, value):
    line = cli.fails(*args, one_line=False)
    assert str(value) in line
    assert f"mathhammer.limits.{limit}" in line if limit else "from 1 to 100" in line


def test_a_thousand_models_of_ten_attacks_are_allowed():
    meq = mh.Target(models=5, toughness=4, save=3, wounds=2)
    gun, _ = parse_weapon("1000x 10 | 3+ | 4 | 0 | 1")
    assert attack_dice([(gun, 1000)], meq.models) == 10_000 <= limits.MAX_ATTACK_DICE
    check_attack_dice([(gun, 1000)], meq.models)  # no error
    assert parse_target("1000x T4 Sv3+ W1").models == 1000


@given(st.integers(0, 10**30), st.sampled_from([3, 6]), st.integers(0, 10**30))
def test_dice_expressions_are_within_the_limits_or_refused(n, sides, plus):
    text = f"{n}D{sides}+{plus}"
    try:
        count, s, k = parse_dice(text)
    except ValueError as e:
        assert n == 0 or n > limits.MAX_DICE or plus > limits.MAX_FLAT
        assert n == 0 or "mathhammer.limits.MAX_" in str(e)
    else:
        assert (count, s, k) == (n, sides, plus)
        assert 1 <= count <= limits.MAX_DICE and 0 <= k <= limits.MAX_FLAT


def test_import_stops_at_the_size_limit(cli):
    line = cli.fails("import", "/dev/zero", "-o", "/nonexistent/x.toml", one_line=False)
    assert f"over the limit of {limits.MAX_PAGE_BYTES} bytes" in line
    assert "MAX_PAGE_BYTES" in line
    r = cli("import", "-", "-o", "/nonexistent/x.toml",
                           input=b"\0" * (limits.MAX_PAGE_BYTES + 10))
    assert r.exit_code == 2 and "MAX_PAGE_BYTES" in r.stderr


def test_a_long_datasheet_page_is_refused(cli, tmp_path):
    rows = "".join(f'| Gun {i} | 24" | 2 | 3+ | 4 | 0 | 1 |\n' for i in range(200_000))
    page = tmp_path / "page.txt"
    page.write_text("Thing\nRANGED WEAPONS\n" + rows, encoding="utf-8")
    out = tmp_path / "thing.toml"
    assert "MAX_PAGE_BYTES" in cli.fails("import", str(page), "-o", str(out), one_line=False)
    page.write_text("Thing\nRANGED WEAPONS\n" + "\n" * 6000 + rows[:2000], encoding="utf-8")
    assert "MAX_PAGE_LINES" in cli.fails("import", str(page), "-o", str(out), one_line=False)
    page.write_text("Thing\nRANGED WEAPONS\n" + rows[:40 * 300], encoding="utf-8")
    assert "MAX_WEAPONS" in cli.fails("import", str(page), "-o", str(out), "--statline",
                                  "M6 T4 Sv3+ W2 Ld6+ OC1", one_line=False)
    assert not out.exists()


def _unit_file(weapons: int) -> str:
    gun = '{ name = "Gun %d", range = 24, attacks = 1, skill = "3+", strength = 4, ap = 0, ' \
          "damage = 1 }"
    listed = ",\n".join(gun % i for i in range(weapons))
    return (f'name = "Many"\nfaction = "Test"\n[[models]]\ncount = 1\ntoughness = 4\n'
            f'save = "3+"\nwounds = 1\nweapons = [\n{listed}\n]\n')


def test_a_unit_file_with_too_many_weapons(cli, tmp_path):
    assert len(loads_unit(_unit_file(limits.MAX_WEAPONS), "ok.toml").groups[0].weapons) == 200
    with pytest.raises(ValueError, match=r"models\[0\].weapons: 201 weapons is over the limit"):
        loads_unit(_unit_file(limits.MAX_WEAPONS + 1), "many.toml")
    big = tmp_path / "huge.toml"
    big.write_text(_unit_file(300_000 // 20), encoding="utf-8")  # 1.3 MB
    assert "MAX_UNIT_FILE_BYTES" in cli.fails("kills", str(big), "MEQ", one_line=False)


# --- silent wrong answers ------------------------------------------------------------------------


def test_a_weapon_the_importer_cannot_read_is_warned_about_on_every_use(cli, tmp_path):
    cat = _catalogue(tmp_path, [("Shoota", "2", "1"), ("Gauss flayer array", "D6+D3", "1")])
    with pytest.warns(BattleScribeWarning, match=r"Orks.json:Boyz: weapon 'Gauss flayer array' "
                                                 r"left out: A 'D6\+D3'"):
        unit = load_catalogue_unit(f"{cat}:Boyz")
    assert [w.name for w in unit.weapons()] == ["Shoota"]
    for args in (("kills", f"{cat}:Boyz", "MEQ"), ("table", f"{cat}:Boyz", "--targets", "MEQ"),
                 ("odds", f"{cat}:Boyz", "MEQ", "--at-least", "1")):
        _, warning = warns(cli, *args)
        assert "Orks.json:Boyz: weapon 'Gauss flayer array' left out" in warning


def test_a_unit_without_a_readable_weapon_is_an_error(cli, tmp_path):
    cat = _catalogue(tmp_path, [("Gauss flayer array", "D6+D3", "1")])
    line = cli.fails("kills", f"{cat}:Boyz", "MEQ", one_line=False)
    assert "Orks.json:Boyz: no weapon mathhammer can read" in line
    assert "Gauss flayer array" in line


@pytest.mark.parametrize("args, message", [
    (("kills", ROW, "MEQ", "-o", ""), "--output: expected a file name, got ''"),
    (("kills", ROW, "MEQ", "--plot", ""), "--plot: expected a file name, got ''"),
    (("mortal", "MEQ", "D3", "-o", ""), "--output: expected a file name"),
    (("table", ROW, "--targets", "MEQ", "-o", ""), "--output: expected a file name"),
    (("kills", ROW, "MEQ", "--plot", "k.svg", "-o", "k.svg"), "--plot and --output are the same"),
    (("table", ROW, "--targets", "MEQ", "-o", "t.xlsx"), "no format writes '.xlsx' files"),
    (("kills", 'Gun | 24" | 2 | 3+ | 4 | 0 | 1', "MEQ", "--melee"),
     'weapon "Gun" has a range of 24" but --melee asks for melee weapons'),
    (("kills", "Hexmark Destroyer", "MEQ", "--melee", "-w", 'G | 18" | 2 | 3+ | 4 | 0 | 1'),
     "but --melee asks for melee weapons"),
])
def test_contradicting_options_are_refused(cli, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    assert message in cli.fails(*args, one_line=False)
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_options_without_effect_are_warned_about(cli):
    out, warning = warns(cli, "kills", "10x 2 | 3+ | 4 | 0 | 1 | lethal hits", "MEQ",
                         "--lethal-hits", "best")
    assert "--lethal-hits best has no effect with --rules 10e" in warning
    # with 11e it has an effect: no warning
    r = cli("kills", "10x 2 | 3+ | 4 | 0 | 1 | lethal hits", "MEQ", "--lethal-hits", "best",
            "--rules", "11e")
    assert r.exit_code == 0 and r.stderr == ""
    out, warning = warns(cli, "kills", "Necron Warriors", "MEQ", "--rule", "Dark Harvest")
    assert warning == ("warning: --rule 'Dark Harvest' is a Drukhari rule, but Necron Warriors "
                       "is Necrons")
    r = cli("kills", "Necron Warriors", "MEQ", "--rule", "Disintegration Beams")  # a Necron rule
    assert r.exit_code == 0 and r.stderr == ""


@pytest.mark.parametrize("args, message", [
    (("kills", ROW, "MEQ", "-o", "k.json"),
     "writing text, though the suffix says json (add --json)"),
    (("mortal", "MEQ", "D3", "--json", "-o", "m.md"), "writing json, though the suffix says md"),
    (("table", ROW, "--targets", "MEQ", "--format", "md", "-o", "t.html"),
     "writing md, though the suffix says html"),
])
def test_an_output_suffix_of_another_format_is_warned_about(cli, tmp_path, monkeypatch, args,
                                                             message):
    monkeypatch.chdir(tmp_path)
    _, warning = warns(cli, *args)
    assert message in warning
    assert len(list(tmp_path.iterdir())) == 1  # written all the same


def test_deeply_nested_named_rules_file(tmp_path):
    from mathhammer.data.rules.named import read_named_rule_file

    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="deep.toml: cannot read named rules: nested too deeply"):
        read_named_rule_file(path)


def test_exit_status_0_on_a_closed_pipe():
    code = "from mathhammer.cli import main; main()"
    proc = subprocess.Popen([sys.executable, "-c", code, "rules", "--text"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader goes away before the first line
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""
    proc.stderr.close()


# --- reading the answers -------------------------------------------------------------------------


def test_odds_shows_a_long_fraction_by_its_size(cli):
    args = ("odds", "60x 2 | 3+ | 4 | 0 | 1", "20x T4 Sv3+ W1", "--at-least", "20")
    line = cli(*args).stdout.splitlines()[0]
    exact = Fraction(cli(*args, "--exact").stdout.strip())
    num, den = len(str(exact.numerator)), len(str(exact.denominator))
    assert num > 30
    assert line == (f"P(kills >= 20) = {percent(exact)} (exact: a fraction of {num}/{den} "
                    "digits; --exact or --json prints it)")
    assert Fraction(json.loads(cli(*args, "--json").stdout)["p"]) == exact
    short = cli("odds", "1x 1 | 3+ | 4 | 0 | 1", "T4 Sv7+ W1", "--at-least", "1").stdout
    assert short.startswith("P(kills >= 1) = 1/3 = 33.33%")  # 2/3 hit * 1/2 wound


def test_kills_report_shows_long_fractions_by_their_size(cli):
    out = cli("kills", "60x 2 | 3+ | 4 | 0 | 1", "20x T4 Sv3+ W1").stdout
    exact = [line.split("  ")[-1] for line in out.splitlines() if line.startswith("  kills ")]
    assert exact and exact[0].startswith("[") and exact[0].endswith(" digits]")
    assert all(len(w) <= 40 for line in out.splitlines() for w in line.split())
    assert out.rstrip().endswith("--json has them all)")


def test_an_army_list_is_read_up_to_its_limit(cli, tmp_path, monkeypatch):
    # a list from /dev/zero, a zipped roster that unpacks past the limit, or standard input
    # past the limit: refused at once, naming the limit
    limit = "limit of 5000000 bytes (mathhammer.limits.MAX_ARMY_FILE_BYTES)"
    assert cli.fails("army", "/dev/zero", one_line=False).endswith(
        f"/dev/zero: army list is over the {limit}")
    import zipfile

    bomb = tmp_path / "bomb.rosz"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("bomb.ros", b"<" + b" " * (limits.MAX_ARMY_FILE_BYTES + 1))
    assert cli.fails("army", str(bomb), one_line=False).endswith(
        f"the roster inside is over the {limit}")
    r = cli("army", "-", input=b"x" * (limits.MAX_ARMY_FILE_BYTES + 2))
    assert r.exit_code == 2 and f"<stdin>: army list is over the {limit}" in r.stderr
