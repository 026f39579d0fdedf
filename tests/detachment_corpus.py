"""How the shared lists' detachments read: run ``python tests/detachment_corpus.py [SHARED]``.

For every list of ``SHARED/rosters/corpus`` (and the lists beside it, ``--all``): whether it has
a detachment line, how many of the detachments it names the data has, and, for the distinct
detachment rules found, how many change an attack and how many of those are modelled
(automatic or a switch) or not. Prints one line per list, then the totals.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mathhammer.data.army import load_army, read_list  # noqa: E402
from mathhammer.data.rules.detachments import for_unit, unit_keywords  # noqa: E402
from mathhammer.data.rules.sentences import is_attack_relevant  # noqa: E402
from mathhammer.data.rules.translate import translate  # noqa: E402


def measure(shared: Path, every: bool = False) -> dict[str, int]:
    """The counts (see the module's docstring), printing one line per list."""
    files = sorted((shared / "rosters" / "corpus").glob("*.*.*"))
    if every:
        files += sorted((shared / "rosters").glob("*.*.*"))
    files = [f for f in files if f.suffix in (".txt", ".ros", ".rosz")]
    data = str(shared / "bsdata")
    counts = dict.fromkeys(("lists", "with_line", "list_fails", "names", "found",
                            "lists_all_found",
                            "rules", "attack_relevant", "automatic", "switch",
                            "not_modelled"), 0)
    rules: dict[tuple[str, str], int] = {}
    for f in files:
        counts["lists"] += 1
        parsed = read_list(f)
        if not parsed.detachments:
            print(f"{f.name}: no detachment line")
            continue
        counts["with_line"] += 1
        try:
            army = load_army(f, data=data)
        except ValueError as e:  # a list that does not resolve (a missing catalogue)
            counts["list_fails"] += 1
            print(f"{f.name}: {parsed.detachments[0]!r}: the list does not resolve: "
                  f"{str(e).split(': ', 1)[-1][:100]}")
            continue
        missing = [w for w in army.warnings if ": detachment '" in w]
        named = len(army.detachments) + len(missing)
        counts["names"] += named
        counts["found"] += len(army.detachments)
        counts["lists_all_found"] += len(army.detachments) == named
        for u in army.units:  # each rule as read for each unit of the list: the best
            for det in u.detachments:
                for name, text in det.rules:
                    rules[(name, text)] = max(rules.get((name, text), 0),
                                              _kind(name, text, unit_keywords(u)))
        print(f"{f.name}: {parsed.detachments[0]!r} -> {', '.join(army.detachments) or '-'}"
              + "".join(f"\n    {w.split(': ', 1)[1]}" for w in missing))
    for (_name, text), kind in rules.items():
        counts["rules"] += 1
        if not is_attack_relevant(text):
            continue
        counts["attack_relevant"] += 1
        counts[("not_modelled", "not_modelled", "switch", "automatic")[kind]] += 1
    return counts


def _kind(name: str, text: str, keywords: frozenset[str]) -> int:
    """How a detachment rule reads for a unit: 3 automatic, 2 a switch (in part or whole),
    1 not modelled (in part), 0 not the unit's rule."""
    parts = for_unit(translate, name, text, keywords, "")
    if not parts:
        return 0
    if any(p.rule.not_modelled for p in parts):
        return 1
    return 3 if all(p.automatic for p in parts) else 2


if __name__ == "__main__":
    from tests.army_corpus import find_shared

    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    print(measure(Path(args[0]) if args else find_shared(), "--all" in sys.argv))
