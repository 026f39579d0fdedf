"""Who may lead whom (docs/rules.md, section 11): a Leader leads the units its Leader ability
lists (by name, or by keywords: "IMPERIUM BATTLELINE INFANTRY"), one Leader to a unit unless a
Leader's ability says it may join one already led ("even if one Captain model has already been
attached to it": :attr:`~mathhammer.data.units.unit.Unit.joins`), at most two; and ``--attach
"LEADER=UNIT"`` for an army list that does not say its attachments, checked against those
rules, with the lone CHARACTERs that could be leading said out loud.

>>> from mathhammer.data.units.bundled import load_unit
>>> marshal = load_unit("Skitarii Marshal")
>>> can_lead(marshal, load_unit("Necron Warriors")), marshal.leads
(False, ('Skitarii Rangers', 'Skitarii Vanguard'))
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from ...errors import InputError, field
from ..typed.names import name_key

#: the most Leaders one unit may have (two when a Leader's ability lets it join another)
MOST_LEADERS = 2
#: ``Joins`` entry that means any other Leader ("one other CHARACTER model")
OTHER = "OTHER"


def _plural_key(text: str) -> str:
    """A name's key with each word's plural ``s`` dropped (``Neophyte Hybrids`` and the
    ability's ``NEOPHYTE HYBRID`` are one)."""
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") else w
                    for w in name_key(text).split())


def _keywords(unit: Any) -> set[str]:
    return {k.upper() for k in (*getattr(unit, "keywords", ()),
                                *getattr(unit, "faction_keywords", ()))}


def names_unit(entry: str, unit: Any) -> bool:
    """Whether an entry of a Leader list (or of its "even if" clause) names ``unit``: its
    name (plural or not, any case), or keywords it has (an entry in capitals, such as
    ``IMPERIUM BATTLELINE INFANTRY``, names the units with every one of them).

    >>> from mathhammer.data.units.bundled import load_unit
    >>> warriors = load_unit("Necron Warriors")
    >>> names_unit("NECRON WARRIOR", warriors), names_unit("NECRONS INFANTRY", warriors)
    (True, True)
    """
    clean = re.sub(r"[\^*_]", "", entry).strip()
    if _plural_key(clean) == _plural_key(getattr(unit, "name", "")):
        return True
    kw = _keywords(unit)
    if clean.upper() in kw:
        return True
    return clean.isupper() and bool(clean.split()) and all(w in kw for w in clean.split())


def can_lead(lead: Any, body: Any) -> bool | None:
    """Whether ``lead``'s Leader ability lets it lead ``body`` (None: it has the ability but
    the data lists no units mathhammer could read; False: it has no Leader ability)."""
    if not getattr(lead, "leader", False):
        return False
    leads = tuple(getattr(lead, "leads", ()) or ())
    if not leads:
        return None
    return any(names_unit(e, body) for e in leads)


def may_join(lead: Any, other: Any) -> bool:
    """Whether ``lead`` may lead a unit ``other`` (a Leader) leads already, or ``other`` one
    ``lead`` leads: either's Leader ability says so (its "even if one X model has already
    been attached" clause names the other, by name or keyword, or any other Leader).

    >>> import attrs
    >>> from mathhammer.data.units.bundled import load_unit
    >>> m = load_unit("Skitarii Marshal")
    >>> may_join(m, m), may_join(attrs.evolve(m, joins=("Skitarii Marshal",)), m)
    (False, True)
    """
    return any(e == OTHER or names_unit(e, b)
               for a, b in ((lead, other), (other, lead))
               for e in getattr(a, "joins", ()) or ())


@attrs.frozen
class AttachSpec:
    """``--attach "LEADER=UNIT"`` as given (``army:`` or ``vs:`` before it says which list);
    ``"LEADER=alone"`` undoes the attachment a list states for that Leader."""

    leader: str
    unit: str
    side: str = ""  # "army", "vs" or "" (the list that has both)
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> AttachSpec:
        """``"Captain=Intercessor Squad"`` (or ``"vs:Captain=Intercessor Squad"``).

        >>> s = AttachSpec.parse("vs:Captain = Intercessor Squad #2")
        >>> s.leader, s.unit, s.side
        ('Captain', 'Intercessor Squad #2', 'vs')
        >>> AttachSpec.parse("Captain")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        mathhammer.errors.InputError: attach 'Captain': expected "LEADER=UNIT", e.g. ...
        """
        body = text.strip()
        side = ""
        for prefix in ("army:", "vs:"):
            if body.lower().startswith(prefix):
                side, body = prefix[:-1], body[len(prefix):]
        lead, eq, unit = body.partition("=")
        if not eq or not lead.strip() or not unit.strip():
            raise InputError(f'{field("attach")} {text!r}: expected "LEADER=UNIT", e.g. '
                             '"Captain=Intercessor Squad"')
        return cls(lead.strip(), unit.strip(), side, text)

    @property
    def alone(self) -> bool:
        """``"Captain=alone"``: the Leader leads no unit (a list's stated attachment undone).

        >>> AttachSpec.parse("vs:Captain=alone").alone
        True
        """
        return self.unit.casefold() == ALONE


#: The UNIT of ``--attach "LEADER=alone"``: the Leader leads no unit.
ALONE = "alone"

_NUMBER = re.compile(r"^(.{1,300}?)\s{0,3}#(\d{1,4})$")


def unit_labels(units: Sequence[Any]) -> list[str]:
    """Each unit of a list as ``--attach`` names it: its name, ``#2`` and on for the second
    and later of one name (in the list's order).

    >>> class U:
    ...     def __init__(self, name): self.name = name
    >>> unit_labels([U("A"), U("B"), U("A")])
    ['A', 'B', 'A #2']
    """
    seen: dict[str, int] = {}
    out = []
    for u in units:
        k = name_key(u.name)
        seen[k] = seen.get(k, 0) + 1
        out.append(u.name if seen[k] == 1 else f"{u.name} #{seen[k]}")
    return out


def _find(units: Sequence[Any], name: str, taken: Iterable[int], spec: str, what: str) -> int:
    """The index of the unit ``name`` (``NAME #N``: the Nth of that name; a bare name: the
    first of that name not ``taken``)."""
    m = _NUMBER.match(name.strip())
    key, nth = (name_key(m.group(1)), int(m.group(2))) if m else (name_key(name), None)
    same = [i for i, u in enumerate(units) if name_key(u.name) == key]
    if nth is not None and 1 <= nth <= len(same):
        return same[nth - 1]
    free = [i for i in same if i not in set(taken)]
    if nth is None and free:
        return free[0]
    if nth is None and same:
        return same[0]
    labels = unit_labels(units)
    close = difflib.get_close_matches(name, labels, 3, 0.5)
    raise InputError(f"{field('attach')} {spec!r}: no {what} {name!r} in the list"
                     + (f" (closest: {', '.join(close)})" if close else ""))


def attach(army: Any, specs: Sequence[AttachSpec]) -> Any:
    """``army`` with ``specs`` attached after the attachments its list states, each checked:
    a CHARACTER with the Leader ability, one that lists the unit (a Leader list mathhammer
    cannot read: attached, with a warning), each Leader once, a unit that leads none itself,
    one Leader to a unit unless a Leader's ability lets it join another (two at most)."""
    if not specs:
        return army
    units = army.units
    pairs = list(army.attached)
    warnings = list(army.warnings)
    for spec in specs:
        shown = spec.text or f"{spec.leader}={spec.unit}"
        leading = {i: j for i, j in pairs}
        if spec.alone:  # a stated attachment undone
            li = _find(units, spec.leader, [i for i in range(len(units)) if i not in leading],
                       shown, "Leader")
            if li not in leading:
                raise InputError(f"{field('attach')} {shown!r}: {units[li].name} leads no unit "
                                 "(the list states no attachment for it to undo)")
            pairs = [(i, j) for i, j in pairs if i != li]
            continue
        li = _find(units, spec.leader, leading, shown, "Leader")
        bi = _find(units, spec.unit, {*leading, *leading.values()}, shown, "unit")
        lead, body = units[li], units[bi]
        if li == bi:
            raise InputError(f"{field('attach')} {shown!r}: a unit cannot lead itself")
        if li in leading:
            raise InputError(f"{field('attach')} {shown!r}: {lead.name} leads "
                             f"{units[leading[li]].name} already (each Leader leads one unit)")
        if bi in leading:
            raise InputError(f"{field('attach')} {shown!r}: {body.name} leads "
                             f"{units[leading[bi]].name}; a Leader cannot be a Bodyguard unit")
        led = [i for i, j in pairs if j == bi]
        if li in led:
            raise InputError(f"{field('attach')} {shown!r}: {lead.name} leads {body.name} already")
        if li in {j for _i, j in pairs}:
            raise InputError(f"{field('attach')} {shown!r}: {lead.name} is led by "
                             f"{', '.join(units[i].name for i, j in pairs if j == li)}; a "
                             "Bodyguard unit cannot lead another")
        if "CHARACTER" not in {k.upper() for k in getattr(lead, "keywords", ())}:
            raise InputError(f"{field('attach')} {shown!r}: {lead.name} is not a CHARACTER, so it "
                             "cannot lead a unit")
        ok = can_lead(lead, body)
        if ok is False:
            listed = ", ".join(getattr(lead, "leads", ()) or ())
            raise InputError(f"{field('attach')} {shown!r}: {lead.name} cannot lead {body.name} ("
                             + (f"its Leader ability lists {listed})" if listed else
                                "it has no Leader ability)"))
        if ok is None:
            warnings.append(f"{field('attach')} {shown!r}: {lead.name}'s Leader ability names "
                            f"no unit mathhammer reads; attached to {body.name} as you say")
        if led:
            others = [units[i] for i in led]
            if len(led) >= MOST_LEADERS:
                raise InputError(f"{field('attach')} {shown!r}: {body.name} is led by "
                                 f"{' and '.join(u.name for u in others)} already (at most "
                                 f"{MOST_LEADERS} Leaders)")
            if not all(may_join(lead, o) for o in others):
                raise InputError(
                    f"{field('attach')} {shown!r}: {body.name} is led by {others[0].name} "
                    "already; a unit has one Leader unless a Leader's ability lets it join "
                    "another (no "
                    f"\"even if ... has already been attached\" of {lead.name} or "
                    f"{others[0].name} names the other)")
        pairs.append((li, bi))
    return attrs.evolve(army, attached=tuple(pairs), warnings=tuple(warnings))


@attrs.frozen
class Lone:
    """A CHARACTER of a list that leads no unit but could: its label, the names of the units
    it could lead, and the ``--attach`` value that attaches it to the first."""

    leader: str
    bodies: tuple[str, ...]
    spec: str

    def text(self, prefix: str = "") -> str:
        """``Captain stands alone; it can lead Intercessor Squad: --attach "Captain=..."``."""
        names = self.bodies
        return (f"{self.leader} stands alone; it can lead {' or '.join(names[:3])}"
                + (f" (and {len(names) - 3} more)" if len(names) > 3 else "")
                + f': {field("attach")} "{prefix}{self.spec}"')


def lone_leaders(army: Any) -> list[Lone]:
    """Each CHARACTER of ``army`` that leads no unit but could: it has the Leader ability and
    a unit of the list it may lead (none led, or led by a Leader it may join)."""
    units = army.units
    labels = unit_labels(units)
    leading = {i for i, _j in army.attached}
    led: dict[int, list[int]] = {}
    for i, j in army.attached:
        led.setdefault(j, []).append(i)
    out = []
    for i, u in enumerate(units):
        if i in leading or i in led or not getattr(u, "leader", False):
            continue
        if "CHARACTER" not in {k.upper() for k in getattr(u, "keywords", ())}:
            continue
        bodies = [j for j, b in enumerate(units) if j != i and j not in leading
                  and can_lead(u, b) and (j not in led or (
                      len(led[j]) < MOST_LEADERS and all(may_join(u, units[k])
                                                         for k in led[j])))]
        if bodies:
            out.append(Lone(labels[i], tuple(dict.fromkeys(units[j].name for j in bodies)),
                            f"{labels[i]}={labels[bodies[0]]}"))
    return out


__all__ = ["AttachSpec", "Lone", "attach", "can_lead", "lone_leaders", "may_join", "names_unit",
           "unit_labels"]
