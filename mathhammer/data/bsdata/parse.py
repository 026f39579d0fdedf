"""Parse one BattleScribe file's text into :mod:`.entries` values, from either format.

The 10th-edition data is XML (``.cat`` catalogues, ``.gst`` game system); the 11th-edition
data is the same data model as JSON. Each format is read through a tiny adapter with the same
four questions (attribute, child list, child text, own text; :mod:`.formats`), so one builder
turns both into the same :class:`~.model.Catalogue`.

>>> cat = read_catalogue_text('{"catalogue": {"id": "c1", "name": "Test", "gameSystemId": "g1",'
...     ' "sharedSelectionEntries": [{"id": "e1", "name": "Grunt", "type": "model",'
...     ' "costs": [{"name": "pts", "typeId": "p", "value": 10}]}]}}', "test.json")
>>> cat.name, cat.kind, cat.shared_entries[0].name, cat.shared_entries[0].costs[0].value
('Test', 'catalogue', 'Grunt', Fraction(10, 1))
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import attrs

from ...errors import InputError
from .entries import (
    Catalogue,
    CatalogueLink,
    Category,
    Characteristic,
    Condition,
    ConditionGroup,
    Constraint,
    Cost,
    Entry,
    InfoGroup,
    Link,
    Modifier,
    Profile,
    Repeat,
    Rule,
)
from .formats import JSON_SUFFIXES, JsonNode, Node, XmlNode, local_name, parse_xml

# --------------------------------------------------------------------------- builder


def _bool(n: Node, key: str) -> bool:
    return (n.get(key) or "").lower() == "true"


def _num(n: Node, key: str, where: str) -> Fraction:
    text = n.get(key)
    if text is None or text == "":
        return Fraction(0)
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{where}: {key}: expected a number, got {text!r}") from None


class _Builder:
    def __init__(self, path: str):
        self.path = path
        self.index: dict[str, Any] = {}
        #: everything with an id at any depth (entries nested in entries, their profiles and
        #: rules): links may point at them too
        self.nested: dict[str, Any] = {}

    def _seen(self, x):
        if x.id:
            self.nested.setdefault(x.id, x)
        return x

    def conditions(self, n: Node, kind: str = "and") -> ConditionGroup | None:
        conds = tuple(
            Condition(
                type=c.get("type") or "",
                field=c.get("field") or "",
                scope=c.get("scope") or "",
                value=_num(c, "value", self.path),
                child_id=c.get("childId") or "",
                include_children=_bool(c, "includeChildSelections"),
            )
            for c in n.children("conditions")
        )
        groups = tuple(
            g
            for g in (
                self.conditions(x, x.get("type") or "and") for x in n.children("conditionGroups")
            )
            if g is not None
        )
        if not conds and not groups:
            return None
        return ConditionGroup(kind, conds, groups)

    def repeats(self, n: Node) -> tuple[Repeat, ...]:
        return tuple(
            Repeat(
                field=r.get("field") or "",
                scope=r.get("scope") or "",
                child_id=r.get("childId") or "",
                value=_num(r, "value", self.path),
                repeats=int(_num(r, "repeats", self.path) or 1),
                round_up=_bool(r, "roundUp"),
            )
            for r in n.children("repeats")
        )

    def modifiers(self, n: Node, outer: ConditionGroup | None = None) -> tuple[Modifier, ...]:
        out: list[Modifier] = []
        for m in n.children("modifiers"):
            join = m.get("join")
            out.append(
                Modifier(
                    type=m.get("type") or "",
                    field=m.get("field") or "",
                    value=m.get("value") or "",
                    when=_and(outer, self.conditions(m)),
                    repeats=self.repeats(m),
                    join=join if join is not None else " ",
                    affects=m.get("affects") or "",
                )
            )
        for g in n.children("modifierGroups"):
            cond = _and(outer, self.conditions(g))
            for mod in self.modifiers(g, cond):
                out.append(attrs.evolve(mod, repeats=mod.repeats or self.repeats(g)))
        return tuple(out)

    def profile(self, n: Node) -> Profile:
        p = Profile(
            id=n.get("id") or "",
            name=n.get("name") or "",
            type_id=n.get("typeId") or "",
            type_name=n.get("typeName") or "",
            characteristics=tuple(
                Characteristic(c.get("name") or "", c.get("typeId") or "", c.own_text().strip())
                for c in n.children("characteristics")
            ),
            hidden=_bool(n, "hidden"),
            modifiers=self.modifiers(n),
        )
        return self._seen(p)

    def rule(self, n: Node) -> Rule:
        return self._seen(Rule(
            id=n.get("id") or "",
            name=n.get("name") or "",
            description=n.child_text("description").strip(),
            hidden=_bool(n, "hidden"),
            modifiers=self.modifiers(n),
        ))

    def link(self, n: Node, kind: str | None = None) -> Link:
        return Link(
            id=n.get("id") or "",
            name=n.get("name") or "",
            target_id=n.get("targetId") or "",
            type=kind or n.get("type") or "",
            hidden=_bool(n, "hidden"),
            primary=_bool(n, "primary"),
            modifiers=self.modifiers(n),
        )

    def info_group(self, n: Node) -> InfoGroup:
        return self._seen(InfoGroup(
            id=n.get("id") or "",
            name=n.get("name") or "",
            hidden=_bool(n, "hidden"),
            profiles=tuple(self.profile(x) for x in n.children("profiles")),
            rules=tuple(self.rule(x) for x in n.children("rules")),
            info_links=tuple(self.link(x) for x in n.children("infoLinks")),
            info_groups=tuple(self.info_group(x) for x in n.children("infoGroups")),
            modifiers=self.modifiers(n),
        ))

    def entry(self, n: Node, kind: str) -> Entry:
        e = self._entry(n, kind)
        return self._seen(e) if kind != "link" else e

    def _entry(self, n: Node, kind: str) -> Entry:
        return Entry(
            kind=kind,
            id=n.get("id") or "",
            name=n.get("name") or "",
            type=n.get("type") or "",
            target_id=n.get("targetId") or "",
            hidden=_bool(n, "hidden"),
            collective=_bool(n, "collective"),
            default_id=n.get("defaultSelectionEntryId") or "",
            profiles=tuple(self.profile(x) for x in n.children("profiles")),
            rules=tuple(self.rule(x) for x in n.children("rules")),
            info_links=tuple(self.link(x) for x in n.children("infoLinks")),
            info_groups=tuple(self.info_group(x) for x in n.children("infoGroups")),
            category_links=tuple(self.link(x, "category") for x in n.children("categoryLinks")),
            costs=tuple(
                Cost(c.get("name") or "", c.get("typeId") or "", _num(c, "value", self.path))
                for c in n.children("costs")
            ),
            constraints=tuple(
                Constraint(
                    type=c.get("type") or "",
                    field=c.get("field") or "",
                    scope=c.get("scope") or "",
                    value=_num(c, "value", self.path),
                    id=c.get("id") or "",
                )
                for c in n.children("constraints")
            ),
            modifiers=self.modifiers(n),
            entries=tuple(self.entry(x, "entry") for x in n.children("selectionEntries")),
            groups=tuple(self.entry(x, "group") for x in n.children("selectionEntryGroups")),
            links=tuple(self.entry(x, "link") for x in n.children("entryLinks")),
            comment=n.child_text("comment").strip(),
            order=_order(n.lists()),
        )

    def shared(self, items):
        items = tuple(items)
        for x in items:
            self.index.setdefault(x.id, x)
        return items

    def catalogue(self, root: Node, tag: str) -> Catalogue:
        kind = "gameSystem" if tag == "gameSystem" else "catalogue"
        b = self
        cat = Catalogue(
            id=root.get("id") or "",
            name=root.get("name") or "",
            kind=kind,
            path=self.path,
            game_system_id=(
                root.get("id") if kind == "gameSystem" else root.get("gameSystemId")
            ) or "",
            revision=root.get("revision") or "",
            library=_bool(root, "library"),
            catalogue_links=tuple(
                CatalogueLink(
                    id=c.get("id") or "",
                    name=c.get("name") or "",
                    target_id=c.get("targetId") or "",
                    import_root_entries=_bool(c, "importRootEntries"),
                )
                for c in root.children("catalogueLinks")
            ),
            root_entries=b.shared(b.entry(x, "entry") for x in root.children("selectionEntries")),
            root_links=tuple(b.entry(x, "link") for x in root.children("entryLinks")),
            shared_entries=b.shared(
                b.entry(x, "entry") for x in root.children("sharedSelectionEntries")
            ),
            shared_groups=b.shared(
                b.entry(x, "group") for x in root.children("sharedSelectionEntryGroups")
            ),
            shared_profiles=b.shared(b.profile(x) for x in root.children("sharedProfiles")),
            shared_rules=b.shared(b.rule(x) for x in (*root.children("sharedRules"),
                                                      *root.children("rules"))),
            shared_info_groups=b.shared(
                b.info_group(x) for x in root.children("sharedInfoGroups")
            ),
            categories=b.shared(
                Category(c.get("id") or "", c.get("name") or "")
                for c in root.children("categoryEntries")
            ),
            index=self.index,
        )
        for k, v in self.nested.items():
            self.index.setdefault(k, v)
        if not cat.id:
            raise InputError(f"{self.path}: the {tag} has no id")
        return cat


_LISTS = {"selectionEntries": "entries", "selectionEntryGroups": "groups", "entryLinks": "links"}


def _order(names: list[str]) -> tuple[str, ...]:
    out = [_LISTS[n] for n in names if n in _LISTS]
    return tuple(dict.fromkeys(out + ["entries", "groups", "links"]))


def _and(a: ConditionGroup | None, b: ConditionGroup | None) -> ConditionGroup | None:
    if a is None:
        return b
    if b is None:
        return a
    return ConditionGroup("and", (), (a, b))


# --------------------------------------------------------------------------- reading text


_ROOTS = ("catalogue", "gameSystem")


def read_catalogue_text(text: str | bytes, path: str) -> Catalogue:
    """Parse one file's text; ``path`` decides the format (``.json`` or XML) and names errors.

    >>> read_catalogue_text("<catalogue id='x'", "bad.cat")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: bad.cat: not a well-formed XML file (unclosed token: line 1, c...
    """
    try:
        return _read_catalogue_text(text, path)
    except RecursionError:
        raise InputError(f"{path}: nested too deeply to be BattleScribe data") from None


def _read_catalogue_text(text: str | bytes, path: str) -> Catalogue:
    if path.lower().endswith(JSON_SUFFIXES):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError(f"{path}: not a well-formed JSON file ({e})") from None
        except UnicodeDecodeError as e:
            raise InputError(f"{path}: not a UTF-8 text file ({e.reason})") from None
        tag = next((k for k in _ROOTS if isinstance(data, dict) and k in data), None)
        if tag is None or not isinstance(data[tag], dict):
            raise InputError(
                f"{path}: not a BattleScribe data file (expected a 'catalogue' or "
                f"'gameSystem' object at the top)"
            )
        return _Builder(path).catalogue(JsonNode(data[tag]), tag)
    root = parse_xml(text, path)
    tag = local_name(root.tag)
    if tag not in _ROOTS:
        raise InputError(
            f"{path}: not a BattleScribe data file (root element <{tag}>, expected "
            f"<catalogue> or <gameSystem>)"
        )
    return _Builder(path).catalogue(XmlNode(root), tag)
