"""The effect fields of named rules are declared once (``mathhammer.model.named.EFFECTS``,
made from the ``effect`` metadata of ``mathhammer.Options`` and the target's changes): the
tables, the validation of rule files, the describer and the rule step are made from it, and a
field the rule files' schema (``rules/README.md``, its table made from it) or the rules
reference (``docs/rules.md``) does not name fails here.

The weapon keywords' twin is ``tests/test_oracles.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

import mathhammer as mh
from mathhammer.data.rules.named_schema import validate_rule_file
from mathhammer.model import named
from mathhammer.model.options import Combine, Options

HERE = Path(__file__).resolve().parent
#: a value a rule may give a field of each kind
VALUE = {Combine.ADD: 1, Combine.LOWEST: 5, Combine.BROADEST: "ones", Combine.SWITCH: True,
         Combine.ABILITIES: ["lethal hits"], Combine.BETTER: 5,
         Combine.TARGET_ABILITIES: ["stealth"],
         Combine.ROLL: {"roll": "D6", "table": {"5+": "1"}}}


def test_the_tables_are_made_from_the_one_declaration():
    declared = [f.name for f in named.EFFECTS]
    assert len(declared) == len(set(declared)) and set(declared) == set(named.EFFECT_FIELDS)
    options = {f.name for f in attrs.fields(Options) if f.metadata.get("effect")}
    assert options == {f.name for f in named.EFFECTS if not f.on_target} - {"mortal_wounds"}
    assert not options & set(named.TARGET_FIELDS)
    # the combine tables partition the fields
    tables = (named.ADDITIVE, named.LOWEST, named.REROLL_FIELDS, named.SWITCHES,
              named.TARGET_FIELDS, ("abilities", "mortal_wounds"))
    assert sorted(sum(tables, ())) == sorted(declared)
    # a re-roll policy's values come from its option's choices, narrowest first
    assert {f.name: f.choices for f in named.EFFECTS if f.choices} == {
        "reroll_hits": ("ones", "failed", "noncrit"),
        "reroll_wounds": ("ones", "failed", "noncrit"), "reroll_damage": ("ones", "any")}
    assert all(f.choices for f in named.EFFECTS if f.combine is Combine.BROADEST)


@pytest.mark.parametrize("field", named.EFFECTS, ids=lambda f: f.name)
def test_every_field_is_read_from_a_rule_file_and_described(field):
    raw = {"faction": "X", "rule": [{"name": "R", "kind": "stratagem", "side": "attacker",
                                     "text": "...", "effect": {field.name: VALUE[field.combine]}}]}
    rule, = validate_rule_file(raw, "x.toml")
    if field.combine is Combine.ROLL:
        assert rule.mortal_wounds is not None and rule.describe() == "mortal wounds D6: 5+ -> 1"
        return
    (key, value), = rule.effects[0].changes
    assert key == field.name
    shown = {Combine.ADD: f"{key}=+1" if field.signed else f"{key}=1",
             Combine.LOWEST: f"{key}=5", Combine.BROADEST: f"{key}=ones",
             Combine.SWITCH: key, Combine.ABILITIES: f"{key}=[lethal hits]",
             Combine.BETTER: f"{key}=5", Combine.TARGET_ABILITIES: f"{key}=[stealth]"}
    assert rule.describe() == shown[field.combine]
    if not field.on_target:  # the option's own describer agrees with the rule's
        assert mh.Options(**{key: value}).describe() == rule.describe()


#: the options the rules reference need not name, and why
NOT_IN_THE_REFERENCE = {"rules": "the rule set itself: the reference is both editions' rules"}


def test_every_effect_field_and_option_is_named_in_the_rules_reference():
    # docs/rules.md says what each does to the dice: a new field fails here until it does
    text = (HERE.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    names = {f.name for f in named.EFFECTS} | {f.name for f in attrs.fields(Options)}
    unnamed = sorted(n for n in names - set(NOT_IN_THE_REFERENCE)
                     if not re.search(rf"`{n}(`| ?=)", text))
    assert unnamed == []
    assert set(NOT_IN_THE_REFERENCE) <= names


def test_every_field_is_in_the_rule_files_schema():
    text = (HERE.parent / "rules" / "README.md").read_text(encoding="utf-8")
    assert [f.name for f in named.EFFECTS if f"`{f.name}`" not in text] == []
