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
from mathhammer.data.translate import is_attack_relevant, translate  # noqa: E402


def measure(shared: Path, every: bool = False) -> dict[str, int]:
    """The counts (see the module's docstring), printing one line per list."""
    files = sorted((shared / "rosters" / "corpus").glob("*.*.*"))
    if every:
        files += sorted((shared / "rosters").glob("*.*.*"))
    files = [f for f in files if f.suffix in (".txt", ".ros", ".rosz")]
    data = str(shared / "bsdata")
    counts = dict.fromkeys(("lists", "with_line", "names", "found", "lists_all_found",
                            "rules", "attack_relevant", "automatic", "switch",
                            "not_modelled"), 0)
    rules: dict[tuple[str, str], None] = {}
    for f in files:
        counts["lists"] += 1
        parsed = read_list(f)
        if not parsed.detachments:
            print(f"{f.name}: no detachment line")
            continue
        counts["with_line"] += 1
        army = load_army(f, data=data)
        missing = [w for w in army.warnings if ": detachment '" in w]
        named = len(army.detachments) + len(missing)
        counts["names"] += named
        counts["found"] += len(army.detachments)
        counts["lists_all_found"] += len(army.detachments) == named
        for u in army.units:
            for det in u.detachments:
                rules.update(dict.fromkeys(det.rules))
        print(f"{f.name}: {parsed.detachments[0]!r} -> {', '.join(army.detachments) or '-'}"
              + "".join(f"\n    {w.split(': ', 1)[1]}" for w in missing))
    for name, text in rules:
        counts["rules"] += 1
        if not is_attack_relevant(text):
            continue
        counts["attack_relevant"] += 1
        parts = translate(name, text)
        if any(p.rule.not_modelled for p in parts) or not parts:
            counts["not_modelled"] += 1
        elif all(p.automatic for p in parts):
            counts["automatic"] += 1
        else:
            counts["switch"] += 1
    return counts


if __name__ == "__main__":
    from tests.army_corpus import find_shared

    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    print(measure(Path(args[0]) if args else find_shared(), "--all" in sys.argv))
