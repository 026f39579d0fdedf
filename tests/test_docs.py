"""The project's own documents point at what exists: every ``mathhammer.x.y`` named in the README
and docs/ resolves to a module or a name in it, and every link leads to a file and a heading."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOTTED = re.compile(r"`(mathhammer(?:\.\w+)+)`")


def resolve(dotted: str) -> object:
    """The module, or the attribute of the longest importable prefix, a dotted name means."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


DOCUMENTS = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]


def test_the_manual_is_there():
    # the README is a front door; the manual is docs/ (issue 34)
    for doc in ("cli", "library", "page", "notebook", "lists", "data", "rules", "reference",
                "speed", "limits"):
        assert f"docs/{doc}.md" in DOCUMENTS, doc
    assert (ROOT / "README.md").read_text(encoding="utf-8").count("\n") <= 250


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_every_function_the_documents_point_at_exists(doc):
    names = sorted(set(DOTTED.findall((ROOT / doc).read_text(encoding="utf-8"))))
    if doc == "docs/rules.md":
        assert len(names) > 20
    missing = []
    for name in names:
        try:
            resolve(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert missing == []


LINK = re.compile(r"\]\(([^()\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub makes of a Markdown file's headings."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", text, re.M)}


def test_anchors_are_github_s():
    made = anchors(ROOT / "docs" / "data.md") | anchors(ROOT / "docs" / "rules.md")
    assert {"the-compiled-store", "13-the-10e11e-differences"} <= made


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_every_link_leads_somewhere(doc):
    path = ROOT / doc
    broken = []
    for target in LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists() or anchor and anchor not in anchors(linked):
            broken.append(target)
    assert broken == []


def test_every_rule_step_has_a_section_in_the_rules_reference():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for step in ("Attacks", "Hit roll", "Critical hits and wounds", "Wound roll", "Saving throw",
                 "Damage and Feel No Pain", "Allocation", "What is counted", "Attached units",
                 "Effects outside an attack", "Decisions"):
        assert re.search(rf"^## \d+\. {step}$", text, re.M), step


def test_modules_over_400_lines_say_why():
    long = []
    for path in sorted((ROOT / "mathhammer").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").count("\n")
        text = path.read_text(encoding="utf-8")
        if lines > 400 and "Why one module" not in text.split('"""')[1]:
            long.append(f"{path.relative_to(ROOT)} ({lines} lines)")
    assert long == []


def test_the_rule_step_index_points_at_functions_that_exist():
    # mathhammer/mechanics/__init__.py: "rule step -> function", for a reader of the tree
    import mathhammer.mechanics as mechanics

    refs = re.findall(r":func:`\.(\w+)\.(\w+)`", mechanics.__doc__)
    assert len(refs) >= 15
    for module, name in refs:
        assert callable(resolve(f"mathhammer.mechanics.{module}.{name}")), (module, name)


def test_the_command_line_reference_is_current():
    # docs/reference.md is every command's --help: `python -m mathhammer.cli.reference`
    # writes it, so a new option or command cannot be left out of it
    from mathhammer.cli import reference

    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    assert text == reference.reference(), "run python -m mathhammer.cli.reference"
    for command in ("kills", "odds", "table", "mortal", "plan", "army", "data check", "serve"):
        assert f"\n## mathhammer {command}\n" in text, command
    assert "--half-range" in text and "--until" in text


def test_the_tables_made_from_a_declaration_are_current():
    # docs/lists.md's formats (their registry) and rules/README.md's effect fields (their
    # declaration): `python -m mathhammer.cli.reference` writes them, so a new list format or
    # effect field is in the manual without a hand edit
    from mathhammer.cli import reference

    stale = [str(path.relative_to(ROOT)) for path, text in reference.documents().items()
             if path.read_text(encoding="utf-8") != text]
    assert stale == [], "run python -m mathhammer.cli.reference"
    lists = (ROOT / "docs" / "lists.md").read_text(encoding="utf-8")
    assert "\n| `newrecruit-wtc` | New Recruit's WTC and WTC-compact text " in lists
    assert "\n| `newrecruit-gw`, `newrecruit-wtc` | New Recruit says 11e by " in lists
    fields = (ROOT / "rules" / "README.md").read_text(encoding="utf-8")
    assert '\n| `reroll_damage` | `"ones"`, `"any"` | the broadest wins (None < ones < any) |' \
        in fields
    with pytest.raises(ValueError, match="no block 'effect fields'"):
        reference.refreshed("no markers here", "effect fields", "| x |")
