"""A list's detachments (docs/rules.md, section 12): those of the data (the entries of a
catalogue's ``Detachment`` group, and of the catalogues it links to, with their rules), a list's
detachment line read against them, and a detachment rule read for one unit of the list ("X
units from your army": the units that are X).

>>> detachment_names("Storm Host and Iron Host (3 Detachment Points)", ["storm host"])
['Storm Host', 'Iron Host']
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from ...cache import cached
from ..typed.names import name_key
from .parts import DataRule


@attrs.frozen
class Detachment:
    """A detachment of the data: its name, the file it is in and its rules' (name, text)."""

    name: str
    file: str
    rules: tuple[tuple[str, str], ...] = ()


def detachments(path: str | os.PathLike) -> tuple[dict[str, Detachment], tuple[str, ...]]:
    """The detachments a catalogue's army can take (its own and its linked catalogues'), by
    :func:`~mathhammer.data.typed.names.name_key` of their names, and the linked files that are
    missing (where more may be)."""
    p = Path(path)
    return _detachments(str(p), p.stat().st_mtime_ns)


@cached(maxsize=64)
def _detachments(path: str, _mtime: int) -> tuple[dict[str, Detachment], tuple[str, ...]]:
    from ..store.compiled import listing_of

    found, missing = listing_of(path, "detachments")
    return ({key: Detachment(name, file, tuple((r, t) for r, t in rules))
             for key, name, file, rules in found}, tuple(missing))


def detachment_names(text: str, known: Iterable[str]) -> list[str]:
    """The detachments a list's detachment line names, read against the names the data
    knows (``known``: name keys): ``"A, B and C"`` or ``"A and B (Rule)"`` split where a known
    name ends; a part the data does not know is kept whole.

    >>> detachment_names("Legends of Saga and Song and Veterans of the Fang (3 Detachment "
    ...                  "Points)", ["legends of saga and song", "veterans of the fang"])
    ['Legends of Saga and Song', 'Veterans of the Fang']
    >>> detachment_names("Dread Mob, Green Tide (Try Dat Button!)", [])
    ['Dread Mob', 'Green Tide']
    >>> detachment_names("Champions of Fenris, Legends of Saga and Song and Veterans of the "
    ...                  "Fang", [])
    ['Champions of Fenris', 'Legends of Saga and Song', 'Veterans of the Fang']
    """
    text = re.sub(r"(?<!\s)\s*\((?:[^()]*detachment points?|[^()]*)\)\s*$", "", text.strip(),
                  flags=re.I).strip(" ,:")
    keys = set(known)
    out: list[str] = []
    while text:
        cut = None
        for m in re.finditer(r",\s*(?:and\s+)?|(?<!\s)\s+and\s+|$", text):
            if name_key(text[:m.start()]) in keys:
                cut = m
        if cut is None:  # no known name: "A, B and C" (the app), "A, B" (New Recruit)
            cut = re.search(r",\s*(?:and\s+)?", text) or ([None] + list(
                re.finditer(r"(?<!\s)\s+and\s+|$", text)))[-2] or re.search("$", text)
            assert cut is not None  # "$" always matches
        out.append(text[:cut.start()].strip())
        text = text[cut.end():].strip()
    return [n for n in out if n]


def list_detachments(path: str | os.PathLike, lines: Iterable[str], quiet: str = ""
                     ) -> tuple[tuple[Detachment, ...], tuple[str, ...]]:
    """The data's detachments an army list's detachment lines name (found among those of the
    catalogue at ``path`` and the catalogues it links to), and a warning for each name not
    found. A line that says which detachment rule the list uses (New Recruit's
    ``A, B (Rule)``) keeps only that rule of those detachments. ``quiet``: a name not to
    warn about (the faction, which a 10e app list's detachment line may be).
    """
    found, missing = detachments(path)
    out: list[Detachment] = []
    notes: list[str] = []
    for line in lines:
        chosen = re.search(r"\(([^()]*)\)\s*$", line)
        chosen_key = name_key(chosen.group(1)) if chosen and not re.search(
            r"\d", chosen.group(1)) else ""
        names = [line] if name_key(line) in found else detachment_names(line, found)
        got: list[Detachment] = []
        for name in names:
            det = found.get(name_key(name))
            if det is not None:
                got.append(det)
                continue
            if quiet and name_key(name) in name_key(quiet):
                continue
            close = difflib.get_close_matches(name_key(name), list(found), n=3, cutoff=0.75)
            hint = f" (closest: {', '.join(found[c].name for c in close)})" if close else ""
            where = f"{Path(path).name}" + (f" or the missing {', '.join(missing)}"
                                             if missing else "")
            notes.append(f"detachment {name!r} is not in {where}{hint}: its rules are not "
                         "applied")
        if chosen_key and any(name_key(r) == chosen_key for d in got for r, _t in d.rules):
            got = [attrs.evolve(d, rules=tuple(r for r in d.rules
                                               if name_key(r[0]) == chosen_key)) for d in got]
        out += [d for d in got if d not in out]
    return tuple(out), tuple(notes)


#: a keyword condition on the attacker that an army list's unit settles: "a WORLD EATERS unit
#: from your army", "friendly PATHFINDER TEAM/STEALTH BATTLESUITS units"
_KW = r"[A-Z][A-Z0-9'\-]*(?: [A-Z][A-Z0-9'\-]*)*"
#: between the alternatives ("ORKS INFANTRY and ORKS WALKER models from your army": either)
_KW_OR = r"(?: ?/ ?|,? and/or |,? or |,? and |, )"
_ARMY_KW = re.compile(
    rf"\b(?:(?:an?|each) )?({_KW}(?:{_KW_OR}{_KW})*) (units?|models?)"
    r"(?: from| in) your army|\b[Ff]riendly "
    rf"({_KW}(?:{_KW_OR}{_KW})*) (units?|models?)")


#: the end of the text before a sentence's first word (or a bullet's)
_OPENS = re.compile(r"(?:^|[.:;!?]\s+|[\ue000\ue001])$")


#: what follows the friendly units an aura of the bearer reaches: " (from your army) is within
#: 6\" of (and visible to) this unit" (not "within 6\" of one or more X units": the unit named)
_AURA_OF = re.compile(r"(?: ?\([^)]*\))?(?: from your army)? (?:is|are) (?:wholly )?within "
                      r"\d+(?:\"|”| inches)? of (?:and visible to )?(?:this|the bearer)\b")


#: the keywords a beneficiary phrase keeps out, right after it: " (excluding KROOT and VESPID
#: STINGWINGS models)", " (other than MONSTERS)"
_EXCLUDED = re.compile(r" ?\((?:excluding|other than) ([^)]*?)(?: units?| models?)?\)")


def unit_keywords(unit: Any) -> frozenset[str]:
    """A unit's keywords and faction keywords, upper case."""
    words = (*getattr(unit, "keywords", ()), *getattr(unit, "faction_keywords", ()))
    return frozenset(" ".join(str(w).upper().replace("’", "'").split()) for w in words)


def has_keywords(phrase: str, keywords: frozenset[str]) -> bool:
    """Whether one alternative of an army keyword phrase ("T'AU EMPIRE BATTLESUIT") is made of
    the unit's keywords, the longest first; a keyword named in the singular or the plural is
    the same ("WAR WALKER" is WAR WALKERS, "RIPPER SWARMS" is RIPPER SWARM).

    >>> has_keywords("T'AU EMPIRE BATTLESUIT", frozenset({"T'AU EMPIRE", "BATTLESUIT"}))
    True
    >>> has_keywords("WAR WALKER", frozenset({"WAR WALKERS"})), has_keywords(
    ...     "WAR WALKER", frozenset({"WALKER"}))
    (True, False)
    """
    words = phrase.split()
    if not words:
        return False
    for k in range(len(words), 0, -1):
        head = " ".join(words[:k])
        if head in keywords or head.rstrip("S") in keywords or f"{head}S" in keywords:
            return k == len(words) or has_keywords(" ".join(words[k:]), keywords)
    return False


#: a keyword a rule gives units from your army, with no condition after it ("ADEPTUS ASTARTES
#: VEHICLE units from your army (excluding FORTIFICATIONS, ...) have the Tank Ace keyword.")
_GRANT = re.compile(rf"\b({_KW}(?:{_KW_OR}{_KW})*) (?:units?|models?) (?:from|in) your army"
                    r"(?: \((?:excluding|other than) ([^)]*)\))? (?:have|has|gains?) the "
                    r"([A-Za-z][\w' \-]*?) keyword(?=\.|$)")


def granted(text: str, keywords: frozenset[str]) -> frozenset[str]:
    """A unit's keywords and those a rule's ``text`` (normalized) gives it: Target Sighted's
    "Tank Ace units from your army" are its ADEPTUS ASTARTES VEHICLE units but those it keeps
    out; a keyword given "while ..." is not given.

    >>> sorted(granted("ADEPTUS ASTARTES VEHICLE units from your army (excluding WALKERS and "
    ...                "units that can Fly) have the Tank Ace keyword.",
    ...                frozenset({"ADEPTUS ASTARTES", "VEHICLE"})))
    ['ADEPTUS ASTARTES', 'TANK ACE', 'VEHICLE']
    >>> sorted(granted("ADEPTUS ASTARTES VEHICLE units from your army (excluding WALKERS) have "
    ...                "the Tank Ace keyword.", frozenset({"ADEPTUS ASTARTES", "VEHICLE",
    ...                                                   "WALKER"})))
    ['ADEPTUS ASTARTES', 'VEHICLE', 'WALKER']
    """
    more = set()
    for m in _GRANT.finditer(text):
        if not any(has_keywords(p.strip(), keywords) for p in re.split(_KW_OR, m.group(1))):
            continue
        out = [re.sub(r"^units that can fly$", "FLY", p.strip(), flags=re.I).upper()
               for p in re.split(r",? and |,? or |, ", m.group(2) or "") if p.strip()]
        if not any(has_keywords(k, keywords) for k in out):
            more.add(" ".join(m.group(3).upper().split()))
    return keywords | more


def for_unit(read: Any, name: str, text: str, keywords: frozenset[str], where: str,
             **kw: Any) -> tuple[DataRule, ...]:
    """A detachment rule's translation for one army unit (``read``: the translator): a rule
    for "X units from your army" or "friendly X units" is read as the unit's own when the unit
    has X, and left out when no such phrase names the unit; the rule keeps its source text.

    >>> from .translate import translate
    >>> text = ("Each time a WORLD EATERS model from your army makes an attack, add 1 to "
    ...         "the Hit roll.")
    >>> [r.rule.describe() for r in for_unit(translate, "Rage", text,
    ...                                       frozenset({"WORLD EATERS"}), "")]
    ['hit_mod=+1']
    >>> for_unit(translate, "Rage", text, frozenset({"NECRONS"}), "")
    ()
    """
    from .parts import Scope
    from .sentences import normalize

    clean = normalize(text, marks=True)  # its bullets kept for the translator
    keywords = granted(clean, keywords)
    hits = list(_ARMY_KW.finditer(clean))
    if not hits:
        return read(name, text, where, **kw)
    mine = False
    nouns: set[str] = set()

    def settle(m: re.Match) -> str:
        nonlocal mine
        phrase, noun = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if not any(has_keywords(p.strip(), keywords) for p in re.split(_KW_OR, phrase)):
            return m.group(0)
        # "a friendly T'AU EMPIRE model (excluding KROOT ... models)": not the unit if it is one
        # of those kept out (read as for other units, with the exclusion)
        out = _EXCLUDED.match(m.string, m.end())
        if out and any(has_keywords(p.strip(), keywords) for p in
                       re.split(r",? and |,? or |, ", out.group(1))):
            return m.group(0)
        mine = True
        if _AURA_OF.match(m.string, m.end()):
            # "While a friendly THOUSAND SONS PSYKER unit is within 6\" of this unit": an aura's,
            # read as friendly units of those keywords (the bearer's own only when it has them,
            # :func:`~mathhammer.data.rules.unit_rules.resolve`), not as the reading unit
            return m.group(0)
        nouns.add(noun.rstrip("s"))
        said = f"a {noun.rstrip('s')}" if m.group(0).split()[0].lower() in ("a", "an", "each") \
            else noun
        # a sentence it opens still opens with a capital ("ASURYANI PSYKER models from your
        # army have the following ability:" is "Models have ...", not "models", which ran it
        # into the sentence before: a head, its effect repeated under each bullet)
        return said[0].upper() + said[1:] if _OPENS.search(m.string, 0, m.start()) else said
    settled = _ARMY_KW.sub(settle, clean)
    if not mine:
        return ()
    # "friendly X models": the unit's models that are X, so in an attached unit the
    # component that is X (its own weapons or group), not its Leader's or Bodyguard's too
    models = nouns == {"model"}
    return tuple(attrs.evolve(r, rule=attrs.evolve(r.rule, text=text.strip()),
                              scope=Scope.MODEL if models and r.scope is Scope.UNIT
                              and not r.model else r.scope)
                 for r in read(name, settled, where, **kw))


def linked_files(path: str | os.PathLike) -> tuple[Path, ...]:
    """The catalogue files a catalogue links to that are installed (an Imperial Knights
    library holding the enhancements), nearest first."""
    p = Path(path)
    return _linked_files(str(p), p.stat().st_mtime_ns)


@cached(maxsize=64)
def _linked_files(path: str, _mtime: int) -> tuple[Path, ...]:
    from ..store.compiled import listing_of

    return tuple(Path(p) for p in listing_of(path, "linked"))


def with_detachments(units: list, home: Any, parsed: Any, faction: str
                     ) -> tuple[list, tuple[str, ...], list[str]]:
    """An army's units carrying the detachments its list names (``home``: the army's
    catalogue), their names, and a warning for each not found."""
    if home is None or not parsed.detachments:
        return units, (), []
    dets, notes = list_detachments(home.path, parsed.detachments, quiet=faction)
    return ([attrs.evolve(u, detachments=dets) for u in units], tuple(d.name for d in dets),
            [f"{parsed.source}: {n}" for n in notes])


__all__ = ["Detachment", "detachment_names", "detachments", "for_unit", "granted", "has_keywords",
           "linked_files",
           "list_detachments", "unit_keywords", "with_detachments"]
