"""A second, conservative check of each translated part against its own text (issue 30).

The translator (:mod:`mathhammer.data.rules.translate`) reads a rule's sentences into parts;
the guard reads the *whole* text again for signs that a part's reading cannot account for —
one weapon named where the part changes every weapon, an exception ("unless it is made with a
Pistol") the part's conditions do not hold, a table of dice results or cumulative tiers, a
beneficiary ("the bearer and BATTLELINE models in the bearer's unit", "a model affected by this
ability") other than the part's, a game state read as a target keyword ("SPOTTED"). Such a
part is made *not modelled*, the sign quoted, as the translator says its own unread clauses:
a silent wrong effect becomes a said gap (docs/rules.md, section 12).

Each check is a pure function of the text and one part; it returns the reason, or ``""``.

>>> from mathhammer.data.rules.translate import translate
>>> [p.rule.not_modelled for p in translate("Blade", "Select one melee weapon equipped by the "
...     "bearer; add 1 to the Attacks characteristic of that weapon.")]
['one weapon of several ("select one melee weapon")']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from .parts import DataRule

#: the beneficiaries (translate.Scope's values: this module sits below the translator)
_UNIT, _MODEL, _LED, _ENEMY = "unit", "model", "led unit", "enemy attacks"
_OTHERS = "other friendly units"
#: what a part's conditions say about its weapons (any one: it is scoped)
_NAMED_KEYS = ("weapon_names", "weapons", "weapon_abilities", "weapon_ability")


def _requirements(part: DataRule) -> list[Any]:
    """The part's conditions: the rule's own and each effect's."""
    return [part.rule.requires] + [e.requires for e in part.rule.effects]


def _has(part: DataRule, keys: Iterable[str]) -> bool:
    return any(getattr(c, k, None) for c in _requirements(part) for k in keys)


def _said(part: DataRule) -> str:
    """Everything the part says of itself, lower case (its conditions, effect, assumption)."""
    return f"{part.rule.describe()} {part.rule.assumes}".lower()


def _quote(m: re.Match[str]) -> str:
    return " ".join(m.group(0).split())[:120].strip(" ,.;")


# -- one weapon of several --------------------------------------------------------------

#: "select one melee weapon", "this weapon", "that weapon" (not "that weapon's profile" of a
#: weapon ability: those are not translated)
_ONE_WEAPON = re.compile(r"\bselect one (?:[a-z][\w\-']* ){0,3}?weapon\b|\b(?:this|that) "
                         r"weapon\b", re.I)


#: a weapon that "that weapon" may point back to without naming one ("an attack with a ranged
#: weapon", "such a weapon")
_ANY_WEAPON = re.compile(r"\b(?:with|by) an? (?:ranged |melee )?weapon\b|\bsuch a weapon\b", re.I)


def one_weapon(text: str, part: DataRule, parts: tuple[DataRule, ...] = ()) -> str:
    """A text that changes one weapon ("select one melee weapon ... that weapon") read for
    weapons the part does not name.
    """
    m = _ONE_WEAPON.search(text)
    if m is None or part.scope.value == _ENEMY or _has(part, _NAMED_KEYS):
        return ""
    if not m.group(0).lower().startswith("select") and _ANY_WEAPON.search(text, 0, m.start()):
        return ""  # "an attack with a ranged weapon ... of that weapon": any weapon's own
    return f'one weapon of several ("{_quote(m).lower()}")'


# -- a weapon named ---------------------------------------------------------------------

#: "this model's butcha boyz weapon", "those Telemon caestus weapons", "with its D-Cannon"
_NAMED_WEAPON = re.compile(
    r"\b(?:this model's|the bearer's|those) ((?:[\w\-]+ ){0,3}?[\w\-]+) weapons?\b|"
    r"\battacks? (?:made )?with (?:its|this model's|the bearer's) ((?:[\w\-]+ ){0,2}?[\w\-]+)"
    r"(?=[,.;]| that\b| and\b)", re.I)
#: words that name a kind of weapon, not one weapon (the translator reads those)
_GENERIC = frozenset({
    "ranged", "melee", "other", "all", "equipped", "two", "three", "2", "3", "psychic",
    "torrent", "pistol", "heavy", "assault", "blast", "melta", "hazardous", "precision",
    "lethal", "hits", "sustained", "devastating", "wounds", "twin-linked", "rapid", "fire",
    "ignores", "cover", "lance", "anti", "extra", "attacks", "indirect", "one-shot"})


def named_weapon(text: str, part: DataRule, parts: tuple[DataRule, ...] = ()) -> str:
    """A weapon named by its name ("this model's butcha boyz weapon") the part does not name.
    """
    for m in _NAMED_WEAPON.finditer(text):
        name = (m.group(1) or m.group(2)).lower()
        if set(name.replace("[", " ").replace("]", " ").split()) <= _GENERIC or \
                "hit by" in text[max(0, m.start() - 40):m.start()].lower():
            continue  # a kind of weapon, or the attacks that picked a target
        if _has(part, _NAMED_KEYS):
            return ""
        return f'a named weapon ("{_quote(m)}")'
    return ""


# -- an exception -----------------------------------------------------------------------

#: "unless it is made with a Pistol", "(excluding blast pistols, blasters and dark lances)"
_EXCEPT = re.compile(r"\bunless (?:it|that attack|the attack) is made (?:with|by) (?:an? )?"
                     r"([\w\-]+)|\bweapons? (?:equipped by [\w ']{1,40})?\(excluding ([a-z][a-z,\- "
                     r"]{0,80})\)", re.I)


def exception(text: str, part: DataRule, parts: tuple[DataRule, ...] = ()) -> str:
    """An exception on the attacks or weapons ("unless it is made with a Pistol") that the
    part's conditions do not hold.
    """
    m = _EXCEPT.search(text)
    if m is None or _has(part, ("without_abilities", "without_names")):
        return ""
    word = (m.group(1) or m.group(2) or "").split(",")[0].split()[-1].lower().rstrip("s")
    if word and word in _said(part).replace(part.rule.assumes.lower(), ""):
        return ""
    if m.group(2) and part.excluding and all(
            w.strip().upper() in part.excluding for w in re.split(r",| and | or ", m.group(2))
            if w.strip() and w.strip().upper() != "MODELS"):
        return ""  # "(excluding MONSTER models)": the keywords its beneficiary keeps out
    return f'an exception not read ("{_quote(m)}")'


def _of_sentence(text: str, m: re.Match[str], part: DataRule) -> bool:
    """Whether the part may be the sentence's where ``m`` is: the weapon abilities it gives
    are named there (a part of other changes may be any sentence's)."""
    start = text.rfind(". ", 0, m.start()) + 1
    end = text.find(". ", m.end())
    sentence = text[start:end if end >= 0 else len(text)].lower()
    names = [a for e in part.rule.effects for k, v in e.changes if k == "abilities"
             for a in v]
    other = [k for e in part.rule.effects for k, _v in e.changes if k != "abilities"]
    return bool(other) or not names or any(a.lower() in sentence for a in names)


# -- such a weapon ------------------------------------------------------------------------

_SUCH = re.compile(r"\b(?:made (?:with |by )?)?such (?:a )?weapons?\b", re.I)


def such_weapon(text: str, part: DataRule, parts: tuple[DataRule, ...] = ()) -> str:
    """"An attack made with such a weapon" (the weapons a clause before named) read for every
    weapon: the part has neither an attack kind nor a weapon scope.
    """
    m = _SUCH.search(text)
    if m is None or _has(part, _NAMED_KEYS + ("attack", "without_abilities", "without_names")):
        return ""
    if part.rule.assumes and not _SUCH.search(part.rule.assumes) or not _of_sentence(
            text, m, part):
        return ""  # a part of another sentence ("weapons ... have [SUSTAINED HITS 1]. If such")
    return f'the weapons of a clause before ("{_quote(m)}")'


# -- a table of results or tiers ------------------------------------------------------------

#: "on a 1, ...; on a 2-5, ...; on a 6, ..."
_RESULT = re.compile(r"\bon an? (\d)(?:-\d|\+)?[,:;]", re.I)
#: "1+: ...", "3+: ..." at the start of a line (a cumulative table)
_TIER = re.compile(r"(?:^|[\n.;] ?)(\d{1,2}\+) ?:")
_RELEVANT = re.compile(r"hit roll|wound roll|ballistic skill|weapon skill|strength|attacks "
                       r"characteristic|damage|armour penetration|\[[a-z][a-z \-0-9]*\]|"
                       r"invulnerable|feel no pain", re.I)


def table(text: str, part: DataRule, parts: tuple[DataRule, ...] = ()) -> str:
    """A D6 table with several results that change attacks, or a table of cumulative tiers:
    one reading of it merges them.
    """
    tiers = list(_TIER.finditer(text))
    if len(tiers) >= 2:
        return f'a table of tiers ("{tiers[0].group(1)}: ...")'
    found = list(_RESULT.finditer(text))
    if len({m.group(1) for m in found}) < 2:
        return ""
    ends = [m.start() for m in found[1:]] + [len(text)]
    relevant = [m for m, end in zip(found, ends, strict=True)
                if _RELEVANT.search(text, m.end(), end)]
    if len(relevant) < 2:
        return ""
    usable = [p for p in parts if p.rule.usable] or [part]
    changes = [k for e in part.rule.effects for k, _v in e.changes]
    if len(usable) == len(relevant) and len(changes) == len(set(changes)):
        return ""  # a part a result, none merged (or the results' changes said twice)
    return f'a table of results ("{_quote(found[0])}")'


# -- whom it is for -------------------------------------------------------------------------

_BEARER_AND = re.compile(r"\b(?:the bearer|this model) and (?:[\w\-]+ ){0,3}?models in (?:the "
                         r"bearer's|this model's|its) unit\b", re.I)
_MADE_BY_MODEL = re.compile(r"\battacks? made by (?:the|this) (?:model|bearer)\b", re.I)
_AFFECTED = re.compile(r"\b(?:a model|models?) (?:affected by|under the effects? of) this "
                       r"ability\b", re.I)
#: "If that CHARACTER model is a MAGUS, ..., that model has the Feel No Pain 3+ ability"
_THAT_MODEL_HAS = re.compile(r"\bthat (?:[A-Z][\w\-]* )?model has the feel no pain\b", re.I)
#: the model named by "that X model has" is one of several in the unit: a leader, or a model
#: "in the same unit as" this one (Bound Creation: the CRYPTEK, not the Cryptothralls)
_WITH_OTHERS = re.compile(r"\bleading\b|\bin the same unit as\b", re.I)
#: "all CHARACTER models in that unit" (the unit this model is attached to): this model too
_ALL_X_MODELS = re.compile(r"\ball (?:[A-Z][A-Z'\-]+ )+models in (?:that|this|the bearer's|this "
                           r"model's) unit\b")
#: some models of the unit by their keywords: "weapons equipped by non-PSYKER models in that
#: unit" (the engine gives a unit's rule to all its models' weapons)
_SOME_MODELS = re.compile(r"\b(?:equipped by|made by|attacks? of) non-[a-z][\w'\-]*"
                          r"(?: [a-z][\w'\-]*){0,3}? models?\b", re.I)
_THAT_MODELS_WEAPON = re.compile(r"\bselect one (?:[\w\-]+ ){0,2}?weapon equipped by that "
                                 r"model\b", re.I)


def beneficiary(text: str, part: DataRule, parts: tuple[DataRule, ...] = ()) -> str:
    """Words for whom the effect is that differ from the part's beneficiary: "the bearer and X
    models in the bearer's unit" kept to the bearer, "attacks made by the model" given to its
    unit, "weapons equipped by non-PSYKER models" given to every model, "a model affected by
    this ability" or "select one weapon equipped by that model" (a selected friendly model)
    given to the bearer's own unit, "all X models in that unit" (this model among them) given
    to other units only.
    """
    scope = part.scope.value
    m = _BEARER_AND.search(text)
    if m and scope == _MODEL:
        return f'another beneficiary ("{_quote(m)}")'
    m = _MADE_BY_MODEL.search(text)
    if m and scope in (_UNIT, _LED) and not part.model:
        return f'another beneficiary ("{_quote(m)}")'
    m = _THAT_MODEL_HAS.search(text)
    if m and _WITH_OTHERS.search(text) and scope in (_UNIT, _LED) and not part.model:
        return f'another beneficiary ("{_quote(m)}")'
    m = _ALL_X_MODELS.search(text)
    if m and scope == _OTHERS:  # "... another CHARACTER model, all CHARACTER models in that unit"
        return f'another beneficiary ("{_quote(m)}")'
    m = _SOME_MODELS.search(text)
    if m and scope != _ENEMY and not part.model:
        return f'another beneficiary ("{_quote(m)}")'
    m = _AFFECTED.search(text) or _THAT_MODELS_WEAPON.search(text)
    if m and scope in (_UNIT, _MODEL, _LED):
        return f'another beneficiary ("{_quote(m)}")'
    return ""


# -- a game state read as a keyword -------------------------------------------------------

#: states a rule gives a unit for a while: no datasheet has them as keywords (checked against
#: both editions' data by tests/test_guard.py when the data is there)
STATES = frozenset({"SPOTTED", "GUIDED", "OBSERVER", "AFFLICTED", "BLINDED", "SUPPRESSED",
                    "BATTLE-SHOCKED", "QUARRY", "MARKED", "EMPOWERED", "PREY", "DISORIENTED"})


def state_keyword(text: str, part: DataRule, parts: tuple[DataRule, ...] = ()) -> str:
    """A condition on a target keyword that is a game state (a Spotted unit), no datasheet's.
    """
    for c in _requirements(part):
        for k in (c.target_keywords or ()) + (c.target_not_keywords or ()):
            if any(w in STATES for w in k.upper().split()):
                return f'a game state read as a keyword ("{k}")'
    return ""


#: every check, by name (the order the reasons are said in)
CHECKS: dict[str, Callable[[str, DataRule, tuple[DataRule, ...]], str]] = {
    "one weapon": one_weapon, "named weapon": named_weapon, "exception": exception,
    "such weapon": such_weapon, "table": table, "beneficiary": beneficiary,
    "state keyword": state_keyword}


def reasons(text: str, part: DataRule, parts: tuple[DataRule, ...] = (),
            checks: Iterable[str] = tuple(CHECKS)) -> list[str]:
    """What each check finds in ``text`` (normalized) that the applied ``part`` (one of the
    rule's ``parts``) does not account for."""
    if not part.rule.usable:
        return []
    return [r for name in checks if (r := CHECKS[name](text, part, parts or (part,)))]


def guarded(parts: tuple[DataRule, ...], text: str,
            checks: Iterable[str] = tuple(CHECKS)) -> tuple[DataRule, ...]:
    """The parts, each that a check flags made not modelled with the reason said (``text``
    normalized: :func:`mathhammer.data.rules.sentences.normalize`)."""
    clean = text
    out = []
    for part in parts:
        found = reasons(clean, part, parts, checks)
        if found:
            rule = attrs.evolve(part.rule, effects=(), assumes="", aliases=(),
                                not_modelled="; ".join(found))
            part = attrs.evolve(part, rule=rule)
        out.append(part)
    return tuple(out)


__all__ = ["CHECKS", "STATES", "guarded", "reasons"]
