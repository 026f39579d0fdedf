"""A second reading of the 11e datasheet abilities (issue 30, item 6): the 40kdc data's
structured abilities (the ``wh40kdc`` package, the ``stratagems`` extra) against the text the
translator reads, measured on the same hand-read sample (``tests/fixtures/rules_audit``).

For each 11e entry of the audit that is a datasheet ability (or a wargear, army or other
ability), the 40kdc ability of the same name is read by the effect-tree translator
(:func:`mathhammer.data.rules.effect_tree.translate_effect`) and the reader's query is run with
it, as :func:`rules_audit.run_query` runs it with the text's reading; an entry counts as right
for a reading when the query gives the reader's hand value. Then, over every 11e ability the shared
data and the 40kdc data both have, how often the two readings agree (the same side and effect
clauses), and the kinds of disagreement::

    python tests/rules_second_reading.py /work/shared

Needs the 11e data and the ``wh40kdc`` package; prints the counts (nothing is written).
"""

from __future__ import annotations

import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
from rules_audit import load_fixtures, run_query

CATEGORIES = ("datasheet ability", "wargear ability", "army rule", "other ability")


def kdc_abilities() -> dict[str, list[dict[str, Any]]]:
    """The 40kdc data's datasheet, faction and core abilities by name key (a name may be
    several abilities: one per faction)."""
    from wh40kdc import Dataset

    from mathhammer.data.typed.names import name_key

    out: dict[str, list[dict[str, Any]]] = {}
    for a in Dataset.embedded().abilities.all:
        raw = a.raw
        if raw.get("ability_type") in ("unit", "faction", "core") and raw.get("effect"):
            out.setdefault(name_key(raw["name"]), []).append(raw)
    return out


def kdc_parts(name: str, tree: dict[str, Any], text: str) -> tuple[Any, ...]:
    """The 40kdc tree's parts, read as a datasheet ability is (automatic where the tree sets
    no condition the engine cannot check)."""
    from mathhammer.data.rules.effect_tree import translate_effect

    parts = translate_effect(name, tree, text, kind="datasheet ability")
    # a datasheet ability's tree is no stratagem: a part under no unchecked condition is on
    return tuple(attrs.evolve(p, rule=attrs.evolve(p.rule, assumes=""))
                 if p.rule.assumes == "the rule is in effect" else p for p in parts)


def _summary(parts: tuple[Any, ...]) -> frozenset[tuple[str, str]]:
    return frozenset((p.rule.side, p.rule.describe()) for p in parts if p.rule.usable)


def sample(shared: Path) -> list[str]:
    """Right per reading on the audit's 11e abilities."""
    import rules_audit

    from mathhammer.data.typed.names import name_key

    kdc = kdc_abilities()
    rows = Counter()
    lines = []
    for _file, e in load_fixtures():
        if e["edition"] != "11e" or e["category"] not in CATEGORIES or not e.get("verdict"):
            continue
        rows["read"] += 1
        expected = Fraction(e["query"]["expected"])
        text_ok = run_query(e) == expected
        rows["text right"] += text_ok
        found = kdc.get(name_key(e["name"]))
        if not found:
            rows["no 40kdc ability"] += 1
            lines.append(f"  {e['id']} {e['name']}: text {'right' if text_ok else 'wrong'}, "
                         "no 40kdc ability")
            continue
        tree = found[0]["effect"]
        saved = rules_audit.parts_of
        rules_audit.parts_of = lambda entry, tree=tree: kdc_parts(entry["name"], tree,
                                                                  entry["text"])
        try:
            kdc_ok = run_query(e) == expected
        except Exception:  # noqa: BLE001 - a tree the translator cannot read: wrong
            kdc_ok = False
        finally:
            rules_audit.parts_of = saved
        rows["with 40kdc ability"] += 1
        rows["40kdc right"] += kdc_ok
        rows["text right (of those)"] += text_ok
        lines.append(f"  {e['id']} {e['name']}: text {'right' if text_ok else 'wrong'}, "
                     f"40kdc {'right' if kdc_ok else 'wrong'}")
    head = [f"audit sample, 11e abilities: {rows['read']} read; text right {rows['text right']}; "
            f"{rows['with 40kdc ability']} have a 40kdc ability: text right "
            f"{rows['text right (of those)']}, 40kdc right {rows['40kdc right']}"]
    return head + lines


def agreement(shared: Path) -> list[str]:
    """How often the two readings agree over every 11e ability both data have."""
    from mathhammer.data.rules.sentences import is_attack_relevant
    from mathhammer.data.rules.translate import translate
    from mathhammer.data.rules.unit_rules import edition_abilities
    from mathhammer.data.typed.names import name_key

    kdc = kdc_abilities()
    c: Counter[str] = Counter()
    for name, text in edition_abilities("11e", shared / "bsdata" / "11e"):
        if not is_attack_relevant(text):
            continue
        found = kdc.get(name_key(name))
        if not found:
            c["no 40kdc ability"] += 1
            continue
        mine = translate(name, text)
        theirs = kdc_parts(name, found[0]["effect"], text)
        a, b = _summary(mine), _summary(theirs)
        if not b and a:
            c["40kdc reads no effect"] += 1
        elif not a and b:
            c["text reads no effect"] += 1
        elif a == b:
            c["agree"] += 1
        elif {s for s, _ in a} != {s for s, _ in b}:
            c["disagree: side"] += 1
        else:
            c["disagree: effect or condition"] += 1
    return ["every 11e attack-relevant ability: " + ", ".join(
        f"{k} {v}" for k, v in c.most_common())]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-3].strip(), file=sys.stderr)
        return 2
    shared = Path(argv[0])
    for line in sample(shared) + agreement(shared):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
