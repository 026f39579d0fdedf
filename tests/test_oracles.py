"""The oracles keep up with the model: every weapon keyword the engine parses (declared once,
in ``mathhammer.model.abilities.KEYWORDS``) is drawn by the fuzzers (``tests/strategies.py``,
from the model's list) and played by the brute-force and Monte Carlo oracles, or each says why
not; every option of an attack (``mathhammer.model.options.Options``, the effect fields of named
rules among them) is played by both oracles, or each says why not.

A new keyword or option fails here until both oracles play it (or say why they do not), so a
new weapon keyword or effect field cannot go unfuzzed or unchecked.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import bruteforce
import montecarlo
import pytest
import strategies

from mathhammer.model.abilities import FLAGS, KEYWORDS, Abilities, Form, parse_abilities
from mathhammer.model.options import Options

FIELDS = {f.name for f in attrs.fields(Abilities)}
HERE = Path(__file__).resolve().parent
OPTIONS = {f.name for f in attrs.fields(Options)}


def fields_set_by(spelling: str) -> set[str]:
    """The fields of ``Abilities`` that one spelled ability sets.

    >>> sorted(fields_set_by("sustained hits 2")), sorted(fields_set_by("assault"))
    (['sustained'], [])
    """
    parsed, plain = attrs.asdict(parse_abilities((spelling,))), attrs.asdict(Abilities())
    return {name for name in FIELDS if parsed[name] != plain[name]}


def test_every_field_is_drawn_by_the_strategies_or_said_why_not():
    drawn = set().union(*(fields_set_by(s) for s in strategies.WEAPON_ABILITIES))
    assert drawn | set(strategies.NOT_DRAWN) == FIELDS
    assert not drawn & set(strategies.NOT_DRAWN)
    # every fixed spelling of the model is drawn unless its field is not
    assert {s for s, f in FLAGS.items() if f not in strategies.NOT_DRAWN} <= set(
        strategies.WEAPON_ABILITIES)


@pytest.mark.parametrize("oracle", [bruteforce, montecarlo], ids=["bruteforce", "montecarlo"])
def test_every_field_is_played_by_the_oracle_or_said_why_not(oracle):
    assert set(oracle.PLAYED_ABILITIES) | set(oracle.NOT_PLAYED) == FIELDS
    assert not set(oracle.PLAYED_ABILITIES) & set(oracle.NOT_PLAYED)
    assert all(why.strip() for why in oracle.NOT_PLAYED.values())
    # what the oracle says it plays, it reads: ``ab.FIELD`` in its own source
    source = (HERE / f"{oracle.__name__}.py").read_text(encoding="utf-8")
    unread = [f for f in oracle.PLAYED_ABILITIES if not re.search(rf"\bab\.{f}\b", source)]
    assert unread == []


def test_what_the_fuzzers_draw_the_oracles_play():
    drawn = set().union(*(fields_set_by(s) for s in strategies.WEAPON_ABILITIES))
    assert drawn <= set(bruteforce.PLAYED_ABILITIES)
    assert drawn <= set(montecarlo.PLAYED_ABILITIES)


def test_every_field_is_set_by_a_keyword_of_the_model():
    assert {kw.field for kw in KEYWORDS if kw.field is not None} == FIELDS
    for kw in KEYWORDS:  # each spelling parses to its own field, and the fuzzers can draw it
        assert kw.form is Form.NO_EFFECT or kw.field in FIELDS
        for spelling in kw.spellings:
            assert fields_set_by(spelling) == ({kw.field} if kw.field else set()), spelling


def test_every_keyword_that_changes_the_numbers_is_in_the_rules_reference():
    text = (HERE.parent / "docs" / "rules.md").read_text(encoding="utf-8").lower()
    missing = [kw.name for kw in KEYWORDS if kw.field is not None and kw.name not in text]
    assert missing == []


@pytest.mark.parametrize("oracle", [bruteforce, montecarlo], ids=["bruteforce", "montecarlo"])
def test_every_option_is_played_by_the_oracle_or_said_why_not(oracle):
    assert set(oracle.PLAYED_OPTIONS) | set(oracle.NOT_PLAYED_OPTIONS) == OPTIONS
    assert not set(oracle.PLAYED_OPTIONS) & set(oracle.NOT_PLAYED_OPTIONS)
    assert all(why.strip() for why in oracle.NOT_PLAYED_OPTIONS.values())
    # what the oracle says it plays, it reads: ``opt.FIELD`` or ``o.FIELD`` in its own source
    source = (HERE / f"{oracle.__name__}.py").read_text(encoding="utf-8")
    unread = [f for f in oracle.PLAYED_OPTIONS if not re.search(rf"\bo(?:pt)?\.{f}\b", source)]
    assert unread == []


def test_what_the_fuzzers_draw_of_the_options_the_oracles_play():
    drawn = set(strategies.OPTION_DRAWS)
    assert drawn | set(strategies.NOT_DRAWN_OPTIONS) == OPTIONS
    assert drawn <= set(bruteforce.PLAYED_OPTIONS) & set(montecarlo.PLAYED_OPTIONS)
