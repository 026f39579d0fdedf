"""BattleScribe data as small frozen values: what :mod:`.parse` reads from either format.

A catalogue or game system file is a :class:`Catalogue`; its selection entries, groups and
entry links are :class:`Entry` values holding profiles, rules, costs, constraints and the
modifiers (with their conditions) that change them.

>>> p = Profile("p1", "Gauss flayer", "t1", "Ranged Weapons", (Characteristic("BS", "bs", "4+"),))
>>> p.get("bs"), p.get("AP", "0")
('4+', '0')
>>> unit = Entry("entry", "e1", "Immortals", links=(Entry("link", "l1", "Gauss blaster"),),
...              entries=(Entry("entry", "e2", "Immortal", type="model"),))
>>> [e.name for e in unit.children]
['Immortal', 'Gauss blaster']
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs


@attrs.frozen
class Condition:
    """``field`` (``selections``, ``forces`` or a cost type id) counted in ``scope`` for
    ``child_id``, compared with ``value`` by ``type`` (``atLeast``, ``instanceOf``, ...)."""

    type: str
    field: str
    scope: str
    value: Fraction
    child_id: str = ""
    include_children: bool = False


@attrs.frozen
class ConditionGroup:
    """An ``and``/``or`` group of conditions and nested groups (BattleScribe's ``conditionGroup``;
    a named rule's conditions are :class:`mathhammer.model.named.Conditions`)."""

    type: str = "and"
    conditions: tuple[Condition, ...] = ()
    groups: tuple[ConditionGroup, ...] = ()


@attrs.frozen
class Repeat:
    """Repeat a modifier ``repeats`` times per ``value`` of ``field`` counted in ``scope``."""

    field: str
    scope: str
    child_id: str
    value: Fraction
    repeats: int = 1
    round_up: bool = False


@attrs.frozen
class Modifier:
    """Change ``field`` (``hidden``, ``name``, a cost type id, ...) by ``type`` with ``value``."""

    type: str
    field: str
    value: str
    when: ConditionGroup | None = None
    repeats: tuple[Repeat, ...] = ()
    join: str = " "
    affects: str = ""


@attrs.frozen
class Constraint:
    """``min``/``max`` of ``field`` in ``scope``."""

    type: str
    field: str
    scope: str
    value: Fraction
    id: str = ""


@attrs.frozen
class Cost:
    name: str
    type_id: str
    value: Fraction


@attrs.frozen
class Characteristic:
    name: str
    type_id: str
    value: str


@attrs.frozen
class Profile:
    """A profile (unit statline, weapon, ability text, ...) of the type ``type_name``."""

    id: str
    name: str
    type_id: str
    type_name: str
    characteristics: tuple[Characteristic, ...] = ()
    hidden: bool = False
    modifiers: tuple[Modifier, ...] = ()

    def get(self, name: str, default: str = "") -> str:
        """The characteristic ``name`` (case-insensitive)."""
        key = name.lower()
        for c in self.characteristics:
            if c.name.lower() == key:
                return c.value
        return default


@attrs.frozen
class Rule:
    id: str
    name: str
    description: str = ""
    hidden: bool = False
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen
class Link:
    """An infoLink (to a profile, rule or info group) or a categoryLink (``type="category"``)."""

    id: str
    name: str
    target_id: str
    type: str
    hidden: bool = False
    primary: bool = False
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen
class InfoGroup:
    id: str
    name: str
    hidden: bool = False
    profiles: tuple[Profile, ...] = ()
    rules: tuple[Rule, ...] = ()
    info_links: tuple[Link, ...] = ()
    info_groups: tuple[InfoGroup, ...] = ()
    modifiers: tuple[Modifier, ...] = ()


@attrs.frozen
class Entry:
    """A selection entry (``kind="entry"``, ``type`` unit/model/upgrade), a selection entry group
    (``kind="group"``) or an entry link (``kind="link"``, ``type`` selectionEntry or
    selectionEntryGroup, pointing at ``target_id``; its own children add to the target's)."""

    kind: str
    id: str
    name: str
    type: str = ""
    target_id: str = ""
    link_id: str = ""  # for a resolved link: the link's own id
    hidden: bool = False
    collective: bool = False
    default_id: str = ""
    profiles: tuple[Profile, ...] = ()
    rules: tuple[Rule, ...] = ()
    info_links: tuple[Link, ...] = ()
    info_groups: tuple[InfoGroup, ...] = ()
    category_links: tuple[Link, ...] = ()
    costs: tuple[Cost, ...] = ()
    constraints: tuple[Constraint, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    entries: tuple[Entry, ...] = ()
    groups: tuple[Entry, ...] = ()
    links: tuple[Entry, ...] = ()
    comment: str = ""
    order: tuple[str, ...] = ("entries", "groups", "links")  # as the lists come in the file

    @property
    def children(self) -> tuple[Entry, ...]:
        """Child entries, groups and links, the lists in the order the file has them."""
        return tuple(x for kind in self.order for x in getattr(self, kind))


@attrs.frozen
class Category:
    id: str
    name: str


@attrs.frozen
class CatalogueLink:
    id: str
    name: str
    target_id: str
    import_root_entries: bool = False


@attrs.frozen
class Catalogue:
    """One catalogue or game system file.

    ``root_entries``/``root_links`` are what a roster can select directly; ``shared_*`` are the
    targets of links."""

    id: str
    name: str
    kind: str  # "catalogue" or "gameSystem"
    path: str
    game_system_id: str = ""
    revision: str = ""
    library: bool = False
    catalogue_links: tuple[CatalogueLink, ...] = ()
    root_entries: tuple[Entry, ...] = ()
    root_links: tuple[Entry, ...] = ()
    shared_entries: tuple[Entry, ...] = ()
    shared_groups: tuple[Entry, ...] = ()
    shared_profiles: tuple[Profile, ...] = ()
    shared_rules: tuple[Rule, ...] = ()
    shared_info_groups: tuple[InfoGroup, ...] = ()
    categories: tuple[Category, ...] = ()
    index: dict[str, Any] = attrs.field(factory=dict, eq=False, repr=False)

    def find(self, target_id: str) -> Any:
        """The shared entry, group, profile, rule, info group or category with this id."""
        return self.index.get(target_id)
