"""Named rules (stratagems, detachment rules, enhancements...) read from files, cached and
found by name (docs/rules.md, section 12).

The rules live in ``rules/factions/<faction>.toml`` (schema: ``rules/README.md``);
:mod:`mathhammer.data.rules.named_schema` validates each file into the values of
:mod:`mathhammer.model.named`. :func:`apply_rules` takes rules by name too and hands them to
:func:`mathhammer.mechanics.named.apply_rules`, which folds the rules whose conditions hold into
the weapon, target and options of one attack.

>>> rule = find_rule("enslaved")
>>> rule.name, rule.kind, rule.describe()
('Enslaved Artifice', 'stratagem', 'crit_hit=5')
>>> from mathhammer.model.profiles import Target, Weapon
>>> claws = Weapon("Claws", attacks=4, skill=3, strength=5, ap=-1, damage=1, range="melee")
>>> meq = Target(models=5, toughness=4, save=3, wounds=2)
>>> _, _, opts = apply_rules([rule, "Disruption Fields"], claws, meq, Options(), below_half=False)
>>> opts.crit_hit, opts.strength_mod
(5, 1)
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ...cache import cached
from ...errors import InputError
from ...limits import MAX_RULES_FILE_BYTES, read_toml
from ...mechanics import named as mechanics
from ...model.named import NamedRule
from ...model.options import Options
from ...model.profiles import Target, Weapon
from ...prob.dice import dice
from ...resources import data_dir
from ..typed.names import name_key
from .named_schema import validate_rule_file

if TYPE_CHECKING:
    from ...engine.sequence import Roll


def _display(path: Path) -> str:
    root = data_dir("rules").parent
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)


def _is_named_rule_file(raw: dict) -> bool:
    return "faction" in raw or "rule" in raw


def read_named_rule_file(path: str | Path) -> tuple[NamedRule, ...]:
    """Read and validate one named-rule file; any problem is a one-line ValueError.

    >>> len(read_named_rule_file(data_dir("rules") / "factions" / "necrons.toml")) > 10
    True
    """
    path = Path(path)
    where = _display(path)
    return validate_rule_file(_read_toml(path, where), where)


def _read_toml(path: Path, where: str) -> dict:
    """A named-rules file's TOML (at most MAX_RULES_FILE_BYTES, not nested too deeply)."""
    return read_toml(path, MAX_RULES_FILE_BYTES, "MAX_RULES_FILE_BYTES", "named rules", where)


@cached(maxsize=8)
def _load(directory: str, _files: tuple[tuple[str, int, int], ...]) -> tuple[NamedRule, ...]:
    """The named rules of a folder; ``_files`` (name, mtime, size of each file) keys the cache
    on the folder's content."""
    rules: list[NamedRule] = []
    seen: dict[str, NamedRule] = {}
    for path in sorted(Path(directory).glob("*.toml")):
        raw = _read_toml(path, _display(path))
        if not _is_named_rule_file(raw):
            continue
        for rule in validate_rule_file(raw, _display(path)):
            for key in (rule.name, *rule.aliases):
                other = seen.get(name_key(key))
                if other is not None:
                    raise InputError(
                        f"{rule.file}: rule {rule.name!r}: name {key!r} is already used by "
                        f"{other.name!r} in {other.file}"
                    )
                seen[name_key(key)] = rule
            rules.append(rule)
    return tuple(rules)


#: folders of the player's own named-rule files (a detachment's stratagems...), read beside
#: the bundled ones (several separated by ``os.pathsep``)
USER_ENV = "MATHHAMMER_RULES"


def load_named_rules(directory: str | Path | None = None) -> tuple[NamedRule, ...]:
    """Every named rule in the ``rules/`` folder (or ``directory``), validated; without
    ``directory``, also those of the folders ``$MATHHAMMER_RULES`` names (a name used twice
    is an error naming both files).

    Rule-set files (``10e.toml``...) are skipped; a file with ``faction`` or ``[[rule]]`` is a
    named-rule file and must be valid.

    >>> sorted({r.faction for r in load_named_rules()})
    ['Adeptus Mechanicus', 'Core stratagems (10e)', 'Drukhari', 'Necrons']
    """
    if directory is not None:
        return _folder(Path(directory))
    folders = [data_dir("rules") / "factions"] + [
        Path(p) for p in os.environ.get(USER_ENV, "").split(os.pathsep) if p.strip()]
    rules: list[NamedRule] = []
    seen: dict[str, NamedRule] = {}
    for folder in folders:
        if folder is not folders[0] and not folder.is_dir():
            raise InputError(f"${USER_ENV}: {str(folder)!r} is not a folder")
        for rule in _folder(folder):
            for key in (rule.name, *rule.aliases):
                other = seen.get(name_key(key))
                if other is not None and other is not rule:
                    raise InputError(f"{rule.file}: rule {rule.name!r}: name {key!r} is "
                                     f"already used by {other.name!r} in {other.file}")
                seen[name_key(key)] = rule
            rules.append(rule)
    return tuple(rules)


def _folder(folder: Path) -> tuple[NamedRule, ...]:
    try:
        files = tuple((p.name, st.st_mtime_ns, st.st_size)
                      for p in sorted(folder.glob("*.toml")) for st in [p.stat()])
    except OSError:
        files = ()
    return _load(str(folder), files)


def list_rules(
    faction: str | None = None,
    search: str | None = None,
    *,
    directory: str | Path | None = None,
) -> list[NamedRule]:
    """The named rules of a faction and/or whose name, detachment or text contains ``search``.

    >>> [r.name for r in list_rules("drukhari", search="lethal hits")][:2]
    ['Dark Harvest', 'Malicious Frenzy (Lethal Hits)']
    """
    rules = load_named_rules(directory)
    if faction is not None:
        factions = sorted({r.faction for r in rules})
        if name_key(faction) not in {name_key(f) for f in factions}:
            raise InputError(f"unknown faction {faction!r}; known: {', '.join(factions)}")
        rules = tuple(r for r in rules if name_key(r.faction) == name_key(faction))
    if search is not None:
        key = name_key(search)
        rules = tuple(
            r for r in rules
            if any(key in name_key(t) for t in (r.name, r.text, r.detachment or "", *r.aliases))
        )
    return list(rules)


def find_rule(name: str, *, directory: str | Path | None = None) -> NamedRule:
    """The rule called ``name`` (or an alias): case-insensitive; a unique prefix or part of a
    name is enough. An unknown name is a ValueError suggesting the closest names.

    >>> find_rule("spoor of frailty").name
    'The Spoor of Frailty'
    >>> find_rule("Enslaved Artiface")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: unknown named rule 'Enslaved Artiface'; did you mean Enslaved ...
    """
    rules = load_named_rules(directory)
    key = name_key(str(name))
    if not key:
        raise InputError("named rule: expected a name, got an empty string")
    names = {name_key(n): r for r in rules for n in (r.name, *r.aliases)}
    if key in names:
        return names[key]
    for match in (str.startswith, str.__contains__):
        found = list(dict.fromkeys(r for n, r in names.items() if match(n, key)))
        if len(found) == 1:
            return found[0]
        if found:
            raise InputError(
                f"ambiguous named rule {name!r}: matches {', '.join(r.name for r in found)}"
            )
    display = {name_key(n): n for r in rules for n in (r.name, *r.aliases)}
    close = [display[c] for c in difflib.get_close_matches(key, list(display), n=3, cutoff=0.6)]
    by_detachment = [r.name for r in rules if r.detachment and name_key(r.detachment) == key]
    if by_detachment:
        return_hint = f"rules of the {name} detachment: {', '.join(by_detachment)}"
    elif close:
        return_hint = f"did you mean {', '.join(close)}?"
    else:
        return_hint = f"no close match among {len(rules)} named rules (see list_rules())"
    raise InputError(f"unknown named rule {name!r}; {return_hint}")


def apply_rules(
    rules: Iterable[NamedRule | str],
    weapon: Weapon,
    target: Target,
    options: Options,
    *,
    below_half: bool,
    below_starting: bool | None = None,
) -> tuple[Weapon, Target, Options]:
    """:func:`mathhammer.mechanics.named.apply_rules` with rules given by name too (looked up
    with :func:`find_rule`): the weapon, target and options of one attack with every rule whose
    conditions hold.

    >>> bolt = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> t = Target(models=5, toughness=4, save=3, wounds=2)
    >>> _, _, o = apply_rules(["Conquering Tyrant"], bolt, t, Options(half_range=True),
    ...                       below_half=False)
    >>> o.reroll_hits.value
    'ones'
    >>> apply_rules(["Poisoner's Art"], bolt, t, Options(), below_half=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: Poisoner's Art is a mortal-wound roll (D6: 4+ -> D3), not yet ...
    """
    resolved = [find_rule(r) if isinstance(r, str) else r for r in rules]
    return mechanics.apply_rules(resolved, weapon, target, options, below_half=below_half,
                                 below_starting=below_starting)


__all__ = [
    "apply_rules", "find_rule", "list_rules", "load_named_rules", "read_named_rule_file",
]


def resolve_rules(apply: Iterable[str | NamedRule]) -> tuple[NamedRule, ...]:
    """Named rules given by name (:func:`find_rule`) or as values, as values: what
    :func:`mathhammer.engine.attack.attack` takes.

    >>> [r.name for r in resolve_rules(["spoor of frailty"])]
    ['The Spoor of Frailty']
    """
    return tuple(r if isinstance(r, NamedRule) else find_rule(r) for r in apply)


def mortal_roll(text: str) -> Roll:
    """A mortal-wound roll given as text: a dice expression, or the name of a named rule that is
    a mortal-wound roll (a roll table; docs/rules.md, section 10).

    >>> mortal_roll("d3").label, mortal_roll("d3").pmf.mean()
    ('D3', Fraction(2, 1))
    >>> beams = mortal_roll("disintegration beams")  # D6: 2-4 -> 1, 5+ -> 2
    >>> beams.label, beams.what, beams.pmf.mean()  # 3/6 * 1 + 2/6 * 2
    ('Disintegration Beams', 'D6: 2-4 -> 1, 5+ -> 2', Fraction(7, 6))
    """
    from ...engine.sequence import Roll  # a value of the engine's: not loaded with the rules
    try:
        pmf = dice(text)
    except ValueError as e:
        if "over the limit" in str(e):
            raise InputError(f"ROLL {text!r}: {e}") from None
    else:
        return Roll(text.strip().upper(), text.strip(), pmf)
    try:
        rule = find_rule(text)
    except ValueError as e:
        raise InputError(f"ROLL {text!r}: neither a dice expression (like D3 or 2) nor a "
                         f"named rule; {e}") from None
    if rule.mortal_wounds is None:
        raise InputError(f"ROLL {text!r}: {rule.name} is not a mortal-wound roll ("
                         f"{rule.describe()}); use it with --rule on kills or odds")
    return Roll(rule.name, rule.mortal_wounds.describe(), rule.mortal_wounds.pmf())
