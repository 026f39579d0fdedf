"""The audit of the rules from data (issue 30, item 7): a seeded random sample of the rules the
translator *applies* (automatically or as a switch), each kept as a fixture for a reader to
judge by hand, with one query whose exact value the reader derives from the rule's text.

Draw a sample (the store builds once per edition, about a minute each; then seconds)::

    python tests/rules_audit.py /work/shared --seed 7 --n 100 \\
        --out tests/fixtures/rules_audit/seed-7.toml

The population is every applied rule of both editions' data, deduplicated by (edition, name,
text), in its category: ``datasheet ability`` (a datasheet's rules and ability profiles, its
models' too, as :func:`mathhammer.data.rules.unit_rules.unit_rules` reads them), ``army rule`` (the
datasheet's faction abilities), ``detachment rule`` (read for a unit the rule names, as an
army list reads it: :func:`mathhammer.data.rules.detachments.for_unit`), ``enhancement``,
``wargear ability`` (the ability profile of a wargear option), ``other ability`` (any other
ability text of a catalogue: what ``data check`` counts), and for 11e the ``stratagem``\\ s of
the 40kdc data when the ``wh40kdc`` package is installed. The sample is stratified: every
(edition, category) gets at least ``--min`` rules (or all it has), the rest in proportion to
the sizes. Each entry holds the source text, where it came from, the translator's parts as it
describes them, and blank fields for the reader: ``verdict``, ``class``, ``reading`` and a
``query`` with its ``expected`` value and ``arithmetic``.

A reader fills them in; ``tests/test_rules_audit.py`` runs every query (:func:`run_query`) with
the rule rebuilt from the fixture's text by the public translator (:func:`parts_of`), so it
runs without the data. ``python tests/rules_audit.py --report`` prints the precision (correct /
sampled) per edition, category, class and automatic vs switch, from every fixture.

Verdicts: ``correct``, ``wrong effect``, ``wrong beneficiary``, ``condition dropped``, ``partly
applied`` (reported as fully applied), ``wrong scope`` (weapons, profile or scaling). How the
readers of seed 3030 judged (keep to it, so that samples compare):

- a switch asserts its ``assumes`` text: a condition the engine cannot check left to a switch is
  right; a checkable one left to it is right too, noted under ``coverage`` (not a wrong case);
- a part not modelled is right when it is *said* (a not-modelled part); a clause that changes an
  attack and is neither applied, a switch nor said is ``partly applied``;
- an effect is right only on the unit, models and weapons the text gives it to: a switch that
  changes the bearer for a rule that helps another unit (or hinders an enemy) is ``wrong
  beneficiary``, one that changes weapons the text does not name is ``wrong scope``;
- an aura for "friendly X units within N\"" reaches the bearer's own unit when it is X (the
  Aura rules), an attached unit has the keywords of its models (a CHARACTER unit);
- the query is asked of the bearer (attacking, or attacked: ``role``), with the rule's parts for
  that side switched on (``switches``: ``all`` or by name), so a rule given to the wrong unit
  shows as the bearer's number changing when it should not; ``keywords`` gives the bearer's
  keywords, and its rules are then read for it as a unit's are (``resolve``: a rule for
  friendly X units is its own when it is X), else a rule for friendly X units is not its own.

>>> allocate({"a": 50, "b": 2, "c": 10}, 10, 3)
{'a': 5, 'b': 2, 'c': 3}
>>> sorted(caps_keywords("Each time a WORLD EATERS model from your army makes an attack"))
['EATERS', 'WORLD', 'WORLD EATERS']
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures" / "rules_audit"
CATEGORIES = ("datasheet ability", "army rule", "detachment rule", "enhancement",
              "wargear ability", "other ability", "stratagem")
VERDICTS = ("correct", "wrong effect", "wrong beneficiary", "condition dropped",
            "partly applied", "wrong scope")
#: the Result fields a query can measure (the mean of a PMF, or P(destroyed))
MEASURES = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills", "destroyed")


@attrs.frozen
class Item:
    """One applied rule of the data: where it is, its text, and how the translator reads it."""

    edition: str
    category: str
    name: str
    text: str
    source: str
    #: how the rule is read: ``translate``, ``for_unit`` (with ``keywords``) or
    #: ``translate_effect`` (a 40kdc stratagem: ``effect`` and ``attack``)
    read: str = "translate"
    keywords: tuple[str, ...] = ()
    effect: Any = attrs.field(default=None, eq=False)
    attack: str | None = None
    assumes: str = ""
    count: int = 1  # datasheets (or files) that have it

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.edition, self.name, self.text)


# -- rebuilding the translator's reading ---------------------------------------------------------


def caps_keywords(text: str) -> frozenset[str]:
    """The keywords a text names (runs of words in capitals, and each word): a unit that has
    them all is one a "X units from your army" rule reaches."""
    from mathhammer.data.rules.sentences import normalize

    runs = re.findall(r"[A-Z][A-Z0-9'\-]+(?: [A-Z][A-Z0-9'\-]+)*", normalize(text))
    return frozenset(runs) | frozenset(w for r in runs for w in r.split())


def named_keywords(text: str) -> frozenset[str]:
    """The keywords of a unit a text names (:func:`caps_keywords`) less those it only keeps
    out ("ORKS unit (excluding GROTS units)": an ORKS unit that is not GROTS).

    >>> sorted(named_keywords("an ORKS unit from your army (excluding GROTS units)"))
    ['ORKS']
    """
    from mathhammer.data.rules.sentences import normalize

    out = r"\((?:excluding|other than) ([^)]*)\)"
    clean = normalize(text)
    kept_out = caps_keywords(" ".join(re.findall(out, clean)))
    return caps_keywords(clean) - (kept_out - caps_keywords(re.sub(out, "", clean)))


def parts_of(entry: dict[str, Any]) -> tuple[Any, ...]:
    """The translator's parts (:class:`~mathhammer.data.rules.parts.DataRule`) of a fixture
    entry, read again from its text (or a stratagem's effect tree) by the public functions."""
    from mathhammer.data.rules.detachments import for_unit
    from mathhammer.data.rules.effect_tree import translate_effect
    from mathhammer.data.rules.translate import translate

    kind = "datasheet ability" if entry["category"] in ("wargear ability", "other ability") \
        else entry["category"]
    read = entry.get("read", "translate")
    if read == "translate_effect":
        import json

        return translate_effect(entry["name"], json.loads(entry["effect_tree"]), entry["text"],
                                kind="stratagem", attack=entry.get("attack") or None,
                                assumes=entry.get("assumes", ""))
    if read == "for_unit":
        return for_unit(translate, entry["name"], entry["text"],
                        frozenset(entry.get("keywords", ())), "", kind=kind)
    return translate(entry["name"], entry["text"], kind=kind)


def describe_part(part: Any) -> str:
    """One part as the translator says it: automatic, switch or not modelled; the side; whose
    (scope); its name, conditions and effect; what switching it on asserts."""
    r = part.rule
    how = "automatic" if part.automatic else "switch" if part.switch else "not modelled"
    line = f"{how} | {r.side} | {part.scope.value} | {r.name} | "
    line += r.not_modelled if r.not_modelled else r.describe()
    if part.switch:
        line += f" | assumes: {r.assumes}"
    return line


def mode_of(parts: Iterable[Any]) -> str:
    """``automatic`` (every applied part is), ``switch`` (every one is) or ``mixed``."""
    kinds = {"automatic" if p.automatic else "switch" for p in parts if p.rule.usable}
    return kinds.pop() if len(kinds) == 1 else "mixed"


def applied(parts: Iterable[Any]) -> bool:
    return any(p.rule.usable for p in parts)


# -- the population -------------------------------------------------------------------------


def _translated(item: Item) -> tuple[Any, ...]:
    entry = {"name": item.name, "text": item.text, "category": item.category, "read": item.read,
             "keywords": item.keywords, "attack": item.attack, "assumes": item.assumes}
    if item.read == "translate_effect":
        import json

        entry["effect_tree"] = json.dumps(item.effect)
    return parts_of(entry)


def catalogue_rules(edition: str, data: Path) -> list[Item]:
    """Every ability of an edition's data with its category (first category met wins, in the
    order of :data:`CATEGORIES`), applied or not."""
    from mathhammer.data.rules.detachments import detachments, linked_files
    from mathhammer.data.rules.unit_rules import file_abilities
    from mathhammer.data.store.compiled import open_store
    from mathhammer.data.store.data_folder import edition_dir, edition_files, is_game_system
    from mathhammer.data.typed.names import name_key

    folder = edition_dir(edition, data)  # type: ignore[arg-type]
    store = open_store(edition, folder)  # type: ignore[arg-type]
    found: dict[tuple[str, str], list] = {}  # (name, text) -> [category, source, count, extra]

    def add(category: str, name: str, text: str, source: str, **extra: Any) -> None:
        key = (name.strip(), text.strip())
        if not key[1]:
            return
        if key in found:
            found[key][2] += 1
            return
        found[key] = [category, source, 1, extra]

    paths = {cid: Path(path) for path, _bs, _n, _lib, _links, _miss, cid in store.catalogues()}
    home: dict[int, tuple[Path, str]] = {}
    for cid, ds, unit, *_rest in store.entries():
        home.setdefault(ds, (paths[cid], unit))
    for sheet in store.datasheets():
        if sheet.error is not None or sheet.id not in home:
            continue
        path, unit = home[sheet.id]
        kinds = {n: k for k, n, _t in store.ability_texts(sheet.id)}
        for name, text in store.rule_texts(sheet.id):
            category = "army rule" if kinds.get(name) == "faction" else "datasheet ability"
            add(category, name, text, f"{path.name}, {unit}")
    files = [p for p in edition_files(folder, edition) if not is_game_system(p)]
    for path in files:
        dets, _missing = detachments(path)
        for det in dets.values():
            for name, text in det.rules:
                add("detachment rule", name, text, f"{det.file}, detachment {det.name}",
                    read="for_unit", keywords=tuple(sorted(named_keywords(text))))
    for path in files:
        cat = store.catalogue(path)
        if cat is None or cat.error:
            continue
        names = store.selectable_names(cat.id)
        texts: dict[str, tuple[str, str]] = {}
        for file in (path, *linked_files(path)):
            for name, text in file_abilities(file):
                texts.setdefault(name_key(name), (name, text))
        for name, kind, _cost in names:
            if kind in ("enhancement", "upgrade") and name_key(name) in texts:
                rname, text = texts[name_key(name)]
                add("enhancement", rname, text, f"{path.name}, enhancement {name}")
        wargear = {name_key(n) for n, kind, _c in names if kind == "wargear"}
        for name, text in file_abilities(path):
            category = "wargear ability" if name_key(name) in wargear else "other ability"
            where = "wargear" if category == "wargear ability" else "ability"
            add(category, name, text, f"{path.name}, {where} {name}")
    out = []
    for (name, text), (category, source, count, extra) in found.items():
        kw = dict(extra)
        if "keywords" in kw:
            kw["keywords"] = tuple(kw["keywords"])
        out.append(Item(edition, category, name, text, source, count=count, **kw))
    return out


def stratagem_rules() -> list[Item]:
    """The 11e stratagems of the 40kdc data (``[]`` without the ``wh40kdc`` package), each with
    its effect tree."""
    from mathhammer.data.rules import stratagems

    if not stratagems.available():
        return []
    from wh40kdc import Dataset

    ds = Dataset.embedded()
    trees = {}
    for s in ds.stratagems.all:
        view = ds.abilities.get(s["ability_id"]) if s.get("ability_id") else None
        trees[s["id"]] = (view.raw or {}).get("effect") if view is not None else None
    out: dict[tuple[str, str], Item] = {}
    for s in stratagems.all_stratagems():
        m = re.search(r"stratagem (\S+?),", s.source)
        tree = trees.get(m.group(1)) if m else None
        if not s.parts or tree is None:
            continue
        where = f"40kdc-data stratagem {m.group(1)}" + (
            f" ({s.faction}: {s.detachment})" if s.detachment else " (core)")
        attack = s.parts[0].rule.requires.attack
        assumes = f"{s.name} is used on the unit ({'/'.join(s.phases)} phase)"
        item = Item("11e", "stratagem", s.name, s.text, where, read="translate_effect",
                    effect=tree, attack=attack, assumes=assumes)
        out.setdefault(item.key[1:], item)
    return list(out.values())


def population(shared: Path, editions: Iterable[str] = ("10e", "11e")) -> list[Item]:
    """Every applied rule of the shared data (``shared``: the folder holding ``bsdata/``), in a
    fixed order."""
    items: list[Item] = []
    for edition in editions:
        items += catalogue_rules(edition, shared / "bsdata" / edition)
        if edition == "11e":
            items += stratagem_rules()
    kept = [i for i in items if applied(_translated(i))]
    return sorted(kept, key=lambda i: (i.edition, CATEGORIES.index(i.category), i.name, i.text))


# -- the sample -----------------------------------------------------------------------------


def allocate(sizes: dict[Any, int], n: int, minimum: int) -> dict[Any, int]:
    """How many to draw from each stratum: ``minimum`` each (or all it has), the rest in
    proportion to the sizes (largest remainder; ties in the strata's order)."""
    take = {k: min(minimum, v) for k, v in sizes.items()}
    left = n - sum(take.values())
    spare = {k: v - take[k] for k, v in sizes.items()}
    total = sum(spare.values())
    if left <= 0 or total == 0:
        return take
    left = min(left, total)
    shares = {k: Fraction(left * v, total) for k, v in spare.items()}
    for k, s in shares.items():
        take[k] += int(s)
    order = sorted(shares, key=lambda k: -(shares[k] - int(shares[k])))
    for k in order[:left - sum(int(s) for s in shares.values())]:
        take[k] += 1
    return take


def draw(items: list[Item], n: int, seed: int, minimum: int = 3) -> list[Item]:
    """A seeded sample stratified by (edition, category)."""
    strata: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for i in items:
        strata[(i.edition, i.category)].append(i)
    take = allocate({k: len(v) for k, v in strata.items()}, n, minimum)
    rng = random.Random(seed)
    out: list[Item] = []
    for k in sorted(strata, key=lambda k: (k[0], CATEGORIES.index(k[1]))):
        out += rng.sample(strata[k], take[k])
    return out


def fixture_entry(item: Item, number: int) -> dict[str, Any]:
    """A fixture entry for a reader: the rule, the translator's reading and blank fields."""
    import json

    parts = _translated(item)
    entry: dict[str, Any] = {
        "id": f"{item.edition}-{number:03d}", "edition": item.edition,
        "category": item.category, "source": item.source, "holders": item.count,
        "name": item.name, "text": item.text, "read": item.read,
    }
    if item.keywords:
        entry["keywords"] = list(item.keywords)
    if item.read == "translate_effect":
        entry["effect_tree"] = json.dumps(item.effect, sort_keys=True)
        entry["attack"] = item.attack or ""
        entry["assumes"] = item.assumes
    entry["mode"] = mode_of(parts)
    entry["effect"] = [describe_part(p) for p in parts]
    entry |= {"verdict": "", "class": "", "reading": "", "coverage": "",
              "query": {"role": "attacker", "weapons": [], "target": "MEQ", "options": {},
                        "switches": ["all"], "measure": "unsaved", "expected": "",
                        "arithmetic": ""}}
    return entry


def commit() -> str:
    """The checkout's commit (what translator drew the sample), "" outside a git checkout."""
    import subprocess

    try:
        return subprocess.run(["git", "-C", str(HERE), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def write_fixture(path: Path, seed: int, entries: list[dict[str, Any]],
                  sizes: dict[str, int], n: int, minimum: int) -> None:
    import tomli_w

    path.parent.mkdir(parents=True, exist_ok=True)
    head = {"seed": seed, "n": n, "min": minimum, "reader": "", "commit": commit(),
            "population": sizes, "rule": entries}
    path.write_text(tomli_w.dumps(head, multiline_strings=True), encoding="utf-8")


# -- queries --------------------------------------------------------------------------------


def load_fixtures(folder: Path = FIXTURES) -> list[tuple[str, dict[str, Any]]]:
    """(file name, entry) of every fixture entry, in file order."""
    out = []
    for path in sorted(folder.glob("*.toml")):
        with path.open("rb") as f:
            for entry in tomllib.load(f).get("rule", []):
                out.append((path.name, entry))
    return out


def query_rules(entry: dict[str, Any]) -> list[Any]:
    """The named rules a query applies: the rule's parts sorted for the query's side (the
    bearer attacking or attacked, leading a unit or not, as one model group of an attached
    unit or not) as the library sorts a unit's rules (:func:`~mathhammer.data.rules.unit_rules.
    side_rules`): those applied, and its switches the query switches on (``all``, or by
    name). ``keywords``: the bearer's, when given its rules are read for it first
    (:func:`~mathhammer.data.rules.unit_rules.resolve`: an aura for friendly X units is its own when
    it is X); attacked, with ``group_names``, a rule of one model named by name ("An Autarch
    has ...") reaches the target's group of that name only."""
    from mathhammer.data.rules.unit_rules import side_rules

    q = entry["query"]
    own = tuple(q["own"]) if q.get("own") else None
    parts = parts_of(entry)
    from types import SimpleNamespace

    from mathhammer.data.rules.unit_rules import resolve
    from mathhammer.data.rules.whom import is_keyword_model

    # attacked, the bearer is the query's target: its models are known
    bearer = query_target(q) if q.get("role") == "defender" else None
    groups = getattr(bearer, "groups", (bearer,)) if bearer is not None else ()
    if q.get("keywords"):  # the bearer's keywords: its rules read for it, as a unit's are
        parts = resolve(parts, SimpleNamespace(keywords=tuple(q["keywords"]), groups=groups))
    elif bearer is not None and q.get("group_names"):
        # a rule of one model named by name ("An Autarch has ..."): on the group named so only
        # (a lone group named otherwise is not that model, as the reader says)
        unit = SimpleNamespace(keywords=(), groups=groups)
        placed = []
        for p in parts:
            if p.scope.own and p.model and not is_keyword_model(p.model):
                one = resolve([p], unit)[0]
                if one.rule.usable and not one.rule.requires.groups:
                    one = attrs.evolve(one, rule=attrs.evolve(one.rule, requires=attrs.evolve(
                        one.rule.requires, groups=(p.model,))))
                p = one
            placed.append(p)
        parts = tuple(placed)
    ur = side_rules(parts, q.get("role", "attacker"), own=own,
                    leading=bool(q.get("leading", False)))
    rules = list(ur.applied)
    wanted = q.get("switches", ["all"])
    offered = ur.switches + ur.stratagems
    names = {r.name for r in offered}
    # a switch named by its number when it was one of several identical ones, now offered
    # once under the rule's name (rules16: Adaptive Defence (1), (2), (3) are Adaptive Defence)
    wanted = [w if w in names else re.sub(r" \(\d+\)$", "", w) for w in wanted]
    for r in offered:
        if "all" in wanted or r.name in wanted:
            rules.append(r)
    return rules


def run_query(entry: dict[str, Any]) -> Fraction:
    """The engine's exact value of an entry's query: its inline weapons against its target
    (a standard target's name or an inline profile, groups joined by `` + ``), with the rule
    applied as :func:`query_rules` says and the query's options (the entry's edition's core
    rules unless they name others)."""
    import mathhammer as mh
    from mathhammer.data.typed.inline import parse_weapon

    q = entry["query"]
    weapons = [parse_weapon(w) for w in q["weapons"]]  # a melee weapon: range "melee"
    target = query_target(q)
    options = {"rules": entry["edition"]} | dict(q.get("options", {}))
    result = mh.attack(weapons, target, apply=query_rules(entry), **options)
    measure = q.get("measure", "unsaved")
    return result.destroyed if measure == "destroyed" else getattr(result, measure).mean()


def query_target(q: dict[str, Any]) -> Any:
    """A query's target: a standard target's name or an inline profile (groups joined by
    `` + ``, named by ``group_names`` when given: one name for a target of one group)."""
    import mathhammer as mh
    from mathhammer.data.typed.inline import parse_squad

    target = parse_squad(q["target"]) if re.search(r"\bT\d", q["target"]) else \
        mh.load_unit(q["target"]).as_target()
    if q.get("group_names") and not hasattr(target, "groups"):  # one group: the target's name
        (name,) = q["group_names"]
        target = attrs.evolve(target, name=name)
    elif q.get("group_names"):
        target = attrs.evolve(target, groups=tuple(
            attrs.evolve(g, name=n) for g, n in zip(target.groups, q["group_names"],
                                                     strict=True)))
    return target


# -- the report -----------------------------------------------------------------------------


def precision_lines(entries: list[dict[str, Any]]) -> list[str]:
    """Correct / read, per edition, category, class, automatic vs switch, and overall; the
    verdicts counted; an entry not read yet (no verdict) is left out and counted."""
    read = [e for e in entries if e.get("verdict")]
    out = [f"{len(read)} rules read ({len(entries) - len(read)} not read yet)"]

    def table(title: str, key: Any) -> None:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for e in read:
            groups[key(e)].append(e)
        out.append(f"{title}:")
        for k in sorted(groups):
            g = groups[k]
            ok = sum(e["verdict"] == "correct" for e in g)
            out.append(f"  {k:<28} {ok:>3} / {len(g):<3} {100 * ok / len(g):5.1f}%")

    table("overall", lambda e: "all")
    table("per edition", lambda e: e["edition"])
    table("per category", lambda e: f"{e['edition']} {e['category']}")
    table("per category (both editions)", lambda e: e["category"])
    table("automatic vs switch", lambda e: e.get("mode", "?"))
    table("per error class (of the rules in it)", lambda e: e.get("class") or "-")
    verdicts = Counter(e["verdict"] for e in read)
    out.append("verdicts: " + ", ".join(f"{v} {verdicts[v]}" for v in VERDICTS if verdicts[v]))
    classes = Counter(e["class"] for e in read if e["verdict"] != "correct")
    out.append("wrong, by class: " + ", ".join(f"{c} {n}" for c, n in classes.most_common()))
    # an entry judged wrong when drawn and correct since (``fixed_by``; ``was`` its old verdict
    # and class): counted apart, so the first reading's precision stays known
    fixed = [e for e in read if e.get("fixed_by")]
    first = sum(e["verdict"] == "correct" and not e.get("fixed_by") for e in read)
    out.append(f"fixed since first read: {len(fixed)} (correct when drawn {first} / {len(read)})")
    by = Counter(e["fixed_by"] for e in fixed)
    out.extend(f"  {n:>3}  {b}" for b, n in by.most_common())
    return out


def refresh(path: Path) -> int:
    """Write the translator's current reading (``effect``, ``mode``) into a fixture's entries,
    keeping everything a reader wrote; print the entries whose reading changed (to read
    again)."""
    import tomli_w

    with path.open("rb") as f:
        data = tomllib.load(f)
    for entry in data.get("rule", []):
        parts = parts_of(entry)
        effect, mode = [describe_part(p) for p in parts], mode_of(parts)
        if (effect, mode) != (entry.get("effect"), entry.get("mode")):
            print(f"{entry['id']} {entry['name']}: the translator's reading changed "
                  f"(verdict was {entry.get('verdict') or 'not read'})")
        entry["effect"], entry["mode"] = effect, mode
    path.write_text(tomli_w.dumps(data, multiline_strings=True), encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("shared", nargs="?", help="the folder with bsdata/{10e,11e}")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--n", type=int, default=100, help="rules to draw (default 100)")
    p.add_argument("--min", type=int, default=3, dest="minimum",
                   help="at least this many of each (edition, category) (default 3)")
    p.add_argument("--out", help="the fixture file to write (TOML)")
    p.add_argument("--report", action="store_true",
                   help="print the precision of the fixtures in tests/fixtures/rules_audit")
    p.add_argument("--refresh", metavar="FILE",
                   help="write the translator's current effect and mode into a fixture (the "
                        "reader's fields kept) and name the entries whose effect changed")
    p.add_argument("--fixtures", default=str(FIXTURES), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.refresh:
        return refresh(Path(args.refresh))
    if args.report:
        entries = [e for _f, e in load_fixtures(Path(args.fixtures))]
        print("\n".join(precision_lines(entries)))
        return 0
    if not args.shared or not args.out:
        p.error("give the shared folder and --out FILE (or --report)")
    shared = Path(args.shared)
    if not (shared / "bsdata").is_dir():
        print(f"{shared}: no bsdata/ folder", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists():
        print(f"{out}: already exists (a reader's verdicts are in it); give another --out",
              file=sys.stderr)
        return 2
    items = population(shared)
    sizes = Counter((i.edition, i.category) for i in items)
    for (ed, cat), k in sorted(sizes.items()):
        print(f"{ed} {cat:<18} {k:>5} applied rules", file=sys.stderr)
    sample = draw(items, args.n, args.seed, args.minimum)
    numbers: Counter[str] = Counter()
    entries = []
    for item in sample:
        numbers[item.edition] += 1
        entries.append(fixture_entry(item, numbers[item.edition]))
    write_fixture(out, args.seed, entries, {f"{ed} {cat}": k for (ed, cat), k in
                                            sorted(sizes.items())}, args.n, args.minimum)
    print(f"wrote {len(entries)} rules to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    from mathhammer.errors import InputError

    try:
        sys.exit(main())
    except InputError as e:  # the data is missing or unreadable: said in one line
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
