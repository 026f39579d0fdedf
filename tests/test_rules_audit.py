"""The hand-read audit of the rules from data (issue 30, item 7): every entry of
``tests/fixtures/rules_audit/*.toml`` is one rule the translator applied when the sample was
drawn (``tests/rules_audit.py``), read by hand by someone other than the translator's author,
with one query whose exact value the reader derived from the rule's text (the arithmetic is in
the entry).

Each query runs the rule as the translator reads its text *now* (:func:`rules_audit.parts_of`:
the public ``translate``, ``for_unit`` or, for a 40kdc stratagem, ``translate_effect`` on the
effect tree kept in the fixture), so no data is needed. An entry the reader judged ``correct``
must give the hand value exactly; a wrong one is a strict xfail (its verdict and class are the
reason): when the translator is fixed it passes, the xfail fails as XPASS, and a reader updates
the entry (its ``verdict``; ``python tests/rules_audit.py --refresh FILE`` writes the translator's
``effect`` as it then reads, and names the entries whose reading changed).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from rules_audit import (
    CATEGORIES,
    MEASURES,
    VERDICTS,
    allocate,
    draw,
    load_fixtures,
    parts_of,
    precision_lines,
    run_query,
)

ENTRIES = load_fixtures()


def _param(file: str, entry: dict) -> object:
    ident = f"{file.removesuffix('.toml')}:{entry['id']}:{entry['name']}"
    verdict = entry.get("verdict", "")
    if not verdict:
        return pytest.param(file, entry, id=ident,
                            marks=pytest.mark.skip(reason="not read yet (no verdict)"))
    if verdict != "correct":
        reason = f"{verdict}: {entry.get('class', '')}"
        return pytest.param(file, entry, id=ident,
                            marks=pytest.mark.xfail(strict=True, reason=reason))
    return pytest.param(file, entry, id=ident)


@pytest.mark.parametrize(("file", "entry"), [_param(f, e) for f, e in ENTRIES])
def test_query_gives_the_hand_value(file: str, entry: dict) -> None:
    expected = Fraction(entry["query"]["expected"])
    assert run_query(entry) == expected, entry["query"]["arithmetic"]


def test_the_fixtures_hold_at_least_100_read_rules_of_both_editions() -> None:
    read = [e for _f, e in ENTRIES if e.get("verdict")]
    assert len(read) >= 100
    assert {e["edition"] for e in read} == {"10e", "11e"}
    # every category of each edition is present (11e has the stratagems besides)
    for edition in ("10e", "11e"):
        have = {e["category"] for e in read if e["edition"] == edition}
        want = set(CATEGORIES) - ({"stratagem"} if edition == "10e" else set())
        assert have == want, edition


@pytest.mark.parametrize(("file", "entry"), [pytest.param(f, e, id=f"{f}:{e['id']}")
                                             for f, e in ENTRIES])
def test_an_entry_is_complete(file: str, entry: dict) -> None:
    """A read entry has a known verdict, a class when wrong (none when correct), a reading,
    a query with a measure, an exact expected value and its arithmetic; the rule it names is
    still applied by the translator (or a reader must look at it again)."""
    if not entry.get("verdict"):
        pytest.skip("not read yet")
    assert entry["verdict"] in VERDICTS
    assert bool(entry["class"]) == (entry["verdict"] != "correct")
    # one fixed since it was read keeps its old verdict and class (``was``) and says by what
    assert bool(entry.get("fixed_by")) == bool(entry.get("was"))
    assert not entry.get("fixed_by") or entry["verdict"] == "correct"
    assert entry["reading"].strip()
    q = entry["query"]
    assert q["measure"] in MEASURES and q["weapons"] and q["arithmetic"].strip()
    assert q["role"] in ("attacker", "defender")
    Fraction(q["expected"])  # an exact value, not a float
    # ... or the guard (mathhammer/data/rules/guard.py) now says it not modelled (``guard``)
    assert any(p.rule.usable for p in parts_of(entry)) or entry["verdict"] != "correct" \
        or entry.get("guard")
    # one judged partly applied and correct since its dropped clause is said (``said``): the
    # translator still says it (its query measures only the parts applied)
    assert not entry.get("said") or any(p.rule.not_modelled for p in parts_of(entry))


def test_an_entry_judged_correct_is_not_the_rule_switched_off() -> None:
    """The queries of the rules judged correct are not all equal to the same query without
    the rule (a query that cannot fail): at least 90% of them change the answer. One fixed
    since it was read (``fixed_by``) is left out: its query failed before the fix (most
    show that a rule wrongly given to the bearer no longer changes its number)."""
    changed = 0
    correct = [e for _f, e in ENTRIES if e.get("verdict") == "correct"
               and not e.get("fixed_by")]
    for e in correct:
        off = {**e, "query": {**e["query"], "switches": []}, "read": "translate",
               "text": "", "name": "nothing"}
        off.pop("effect_tree", None)
        changed += run_query(off) != run_query(e)
    assert changed >= 0.9 * len(correct), (changed, len(correct))


def test_allocate_gives_every_stratum_its_minimum_and_the_rest_in_proportion() -> None:
    # the minimum: 3 + 2 (all "tiny" has) + 3 = 8; the 92 left in proportion to the 997, 0 and
    # 97 spare: 92 x 997/1094 = 83.84 and 92 x 97/1094 = 8.16, so 83 and 8, and the one still
    # left to the largest remainder (big): 3 + 84, 2, 3 + 8
    take = allocate({"big": 1000, "tiny": 2, "mid": 100}, 100, 3)
    assert take == {"big": 87, "tiny": 2, "mid": 11} and sum(take.values()) == 100
    assert allocate({"a": 1, "b": 1}, 10, 3) == {"a": 1, "b": 1}  # fewer rules than asked


def test_draw_is_seeded_and_stratified() -> None:
    from rules_audit import Item

    items = [Item(ed, cat, f"r{i}", f"t{i}", "") for ed in ("10e", "11e")
             for cat in ("datasheet ability", "enhancement") for i in range(20)]
    one, two = draw(items, 12, seed=5), draw(items, 12, seed=5)
    assert one == two and len(one) == 12
    assert {(i.edition, i.category) for i in one} == {(i.edition, i.category) for i in items}
    assert draw(items, 12, seed=6) != one


def test_precision_lines_count_correct_over_read() -> None:
    entries = [{"edition": "10e", "category": "enhancement", "mode": "switch",
                "verdict": v, "class": c} for v, c in (("correct", ""), ("correct", ""),
                                                       ("wrong beneficiary", "aura"))]
    entries.append({"edition": "11e", "category": "stratagem", "verdict": ""})
    lines = precision_lines(entries)
    assert lines[0] == "3 rules read (1 not read yet)"
    assert "  all                            2 / 3    66.7%" in lines
    assert "wrong, by class: aura 1" in lines
    assert "fixed since first read: 0 (correct when drawn 2 / 3)" in lines
    entries[1] |= {"fixed_by": "a change", "was": "wrong effect: x"}
    lines = precision_lines(entries)  # still 2 / 3 correct now; 1 of them was wrong when drawn
    assert "  all                            2 / 3    66.7%" in lines
    assert "fixed since first read: 1 (correct when drawn 1 / 3)" in lines
    assert "    1  a change" in lines


def test_a_query_reaches_a_rule_of_one_model_named_by_name() -> None:
    """"An Autarch has a 4+ Invulnerable save": the model's group only, named by ``group_names``
    (one name for a target of one group); a group not named so (or not named) has none."""
    entry = {"edition": "10e", "category": "datasheet ability", "name": "Invulnerable Save",
             "text": "An Autarch has a 4+ Invulnerable save", "read": "translate",
             "query": {"role": "defender", "weapons": ["Gun | 24 | 6 | 3+ | 4 | -3 | 1"],
                       "target": "1x T4 Sv3+ W5 INFANTRY", "switches": ["all"],
                       "measure": "unsaved"}}
    # Sv3+ at AP-3 is 6+, fails 5/6: 6 x hit 2/3 x wound 1/2 x 5/6 = 5/3 (the group not named:
    # the unit's other models, as a reader asks of Garran Branatar's); named Autarch, the 4+
    # invulnerable fails 1/2: 6 x 2/3 x 1/2 x 1/2 = 1
    assert run_query(entry) == Fraction(5, 3)
    entry["query"]["group_names"] = ["Autarch"]
    assert run_query(entry) == 1
    entry["query"]["group_names"] = ["Guardian"]
    assert run_query(entry) == Fraction(5, 3)
    # two groups, Guardians first: the unsaved count rolls the first group's save (Sv4+ at
    # AP-3: none): 6 x 2/3 x wound S4 v T3 2/3 x 1 = 8/3; the Autarch's save is not theirs
    entry["query"] |= {"target": "5x T3 Sv4+ W1 INFANTRY + 1x T3 Sv3+ W5 INFANTRY",
                       "group_names": ["Guardians", "Autarch"]}
    assert run_query(entry) == Fraction(8, 3)
