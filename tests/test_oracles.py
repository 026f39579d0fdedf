"""The oracles keep up with the model: every weapon ability the engine parses
(``mathhammer.model.abilities.Abilities``) is drawn by the fuzzers (``tests/strategies.py``) and
played by the brute-force and Monte Carlo oracles, or each says why not.

A new field of ``Abilities`` fails here until the strategies draw it and both oracles play it
(or say why they do not), so a new weapon keyword cannot go unfuzzed.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import bruteforce
import montecarlo
import pytest
import strategies

from mathhammer.model.abilities import FLAGS, Abilities, parse_abilities

FIELDS = {f.name for f in attrs.fields(Abilities)}
HERE = Path(__file__).resolve().parent


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
