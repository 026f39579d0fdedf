"""Rules from data: ability text (BattleScribe data, both editions) turned into named-rule
effects (:class:`~mathhammer.model.named.NamedRule`), the one translator (docs/rules.md,
section 12).

Each ability's text is read sentence by sentence against the common wordings (re-roll Hit or
Wound rolls, +1/-1 to Hit or Wound, granted weapon abilities, critical thresholds, AP, Strength
and Damage changes, Feel No Pain, invulnerable saves, Stealth, cover) and their conditions
(ranged or melee, half range, charged, Remained Stationary, the target's keywords or strength,
"while this model is leading a unit"). A sentence with a condition the engine cannot check
(objective markers, a chosen enemy unit, once per battle...) becomes a switch, off by default
(``assumes`` says what switching it on asserts). What changes an attack but matches no known
wording is kept with a "not modelled" reason; nothing is guessed. Every rule keeps its source
text and where it came from. Rules that come as effect trees instead of text (the 40kdc
data's stratagems, :func:`translate_effect`) map onto the same effect fields and conditions.

Why one module: every wording and every condition is read by the same sentence walk, and the
effect trees onto the same fields, so the whole translator (and what it leaves out) is in one
place to read and extend.

>>> rules = translate("Tactical Precision", "While this model is leading a unit, weapons "
...                   "equipped by models in that unit have the [LETHAL HITS] ability.", "10e")
>>> [(r.rule.describe(), r.scope.value, r.automatic) for r in rules]
[('abilities=[lethal hits]', 'led unit', True)]
>>> [r.rule.describe() for r in translate("Hunters", "Each time a model in this unit makes an "
...      "attack that targets an objective-holding unit, re-roll a Hit roll of 1.")]
['reroll_hits=ones']
>>> translate("Hunters", "Each time a model in this unit makes an attack that targets an "
...           "objective-holding unit, re-roll a Hit roll of 1.")[0].automatic
False
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from enum import StrEnum
from typing import Any

import attrs

from ...cache import cached
from ...errors import InputError
from ...model.abilities import canonical
from ...model.named import ADDITIVE, Conditions, Effect, NamedRule


class Scope(StrEnum):
    """Whose attacks (or defence) an ability changes: its beneficiary (docs/rules.md,
    section 12)."""

    #: the unit's own attacks, or attacks against the unit
    UNIT = "unit"
    #: one model's (the bearer's) own attacks, or attacks allocated to it
    MODEL = "model"
    #: while this model is leading a unit: that unit
    LED = "led unit"
    #: friendly units (with its keywords): the bearer's own unit too, when it has them
    FRIENDLY = "friendly units"
    #: other friendly units, never the bearer's own (one that disembarked from this Transport)
    OTHERS = "other friendly units"
    #: a debuff: the attacks an enemy unit makes, against the bearer's army
    ENEMY = "enemy attacks"
    #: the units that have cover from this terrain feature
    TERRAIN = "units in its cover"

    @property
    def own(self) -> bool:
        """Whether it changes the bearer's own unit (or the unit it leads) as written."""
        return self in (Scope.UNIT, Scope.MODEL, Scope.LED)


@attrs.frozen
class DataRule:
    """One translated part of an ability: the named rule and whose attacks it changes (its
    beneficiary: ``scope``, and for friendly units the ``keywords`` they need, in the text's
    words ``whom``)."""

    rule: NamedRule
    scope: Scope = Scope.UNIT
    #: the keywords a friendly unit needs: alternatives, each a phrase of keywords it has all of
    #: ("ADEPTUS ASTARTES INFANTRY"); () any friendly unit
    keywords: tuple[str, ...] = ()
    #: keywords that keep a unit out ("(excluding MONSTERS)")
    excluding: tuple[str, ...] = ()
    #: whom it is for, in the text's words (said when offered to another unit, or refused)
    whom: str = ""
    #: the model of the unit it is for, by name ("A Warlock has ...": the Warlock's group)
    model: str = ""
    #: read for its bearer (:func:`mathhammer.data.rules.unit_rules.resolve`): the bearer's own part
    #: is a rule of its own, this one is for the others only
    resolved: bool = False

    @property
    def automatic(self) -> bool:
        """Applied whenever it holds (the engine checks every condition)."""
        return self.rule.usable and not self.rule.assumes

    @property
    def switch(self) -> bool:
        """Usable, but off by default: it depends on what the engine cannot know."""
        return self.rule.usable and bool(self.rule.assumes)


# -- reading the text ------------------------------------------------------------------------

_RELEVANT = re.compile(
    r"hit roll|wound roll|saving throw|invulnerable save|feel no pain|armour penetration|"
    r"(?:attacks|strength|damage|ballistic skill|weapon skill)(?: and \w+)* characteristic|"
    r"critical (?:hit|wound)|\[[a-z][a-z \-0-9+]*\]|benefit of cover|stealth abilit|"
    r"re-roll (?:the |a )?damage|\bdamage roll|(?:^|\s)[+-]\d ap\b|"
    # the 11e short forms: "melee attacks have +1 S", "+1 WS and AP", "+4 A"
    r"\bha(?:ve|s):? \.? ?\+\d (?:ws|bs|s|a|d)\b(?! (?:roll|move|characteristic))"
)


def normalize(text: str) -> str:
    """Ability text without its markup, keywords (``^^Monster^^``) in capitals.

    >>> normalize("**^^Monster^^** units ’have’ ■ re‑roll")
    "MONSTER units 'have' . re-roll"
    >>> normalize("an **^Anathema Psykana^^** unit")
    'an ANATHEMA PSYKANA unit'
    """
    # a keyword opened with one caret is the data's typo ("^Anathema Psykana^^")
    t = re.sub(r"\^\^?\**([^^\n]+?)\**\^\^", lambda m: m.group(1).upper(), text)
    t = t.replace("**", "").replace("^^", "").replace("’", "'").replace("‘", "'")
    t = re.sub(r"[‐‑‒–—]", "-", t)
    t = re.sub(r"[■•●▪]|(?:^|\n)\s*[-–]\s+", ". ", t)
    t = re.sub(r"\]\]+", "]", re.sub(r"\[\[+", "[", t))
    t = re.sub(r"\bre[- ]?roll", "re-roll", t, flags=re.I)
    for typo, right in _TYPOS:
        t = typo.sub(right, t)
    return " ".join(t.split())


#: the data's typos, put right before reading ("subtract 1 form the Hit roll")
_TYPOS = [(re.compile(p, re.I), r) for p, r in (
    (r"\b(subtract \d) form\b", r"\1 from"), (r"\bfeel not pain\b", "Feel No Pain"),
    (r"\b(add \d) the (strength|attacks|damage)\b", r"\1 to the \2"),
    (r"\bfriending\b", "friendly"), (r"\bmodel's in\b", "models in"),
    (r"\bhit ro ll\b", "Hit roll"), (r"\bwound ro ll\b", "Wound roll"),
    (r"\bis allocated (the bearer|this model)\b", r"is allocated to \1"),
    (r"\b(hit|wound) roll or 1\b", r"\1 roll of 1"),
    (r"\b(re-roll a (?:hit|wound)) of 1\b", r"\1 roll of 1"),
    (r"\b(improve|worsen) that (armour penetration|strength|damage|attacks)\b", r"\1 the \2"),
    (r"\[([A-Z][A-Z \-]+?) abilit(?:y|ies)\]", r"[\1] abilities"), (r"\babilty\b", "ability"),
    # a weapon ability named without its brackets: "have the Devastating Wounds ability"
    (r"\bthe (lethal hits|devastating wounds|sustained hits \d|precision|lance|ignores cover|"
     r"twin-linked|hazardous) abilit", r"the [\1] abilit"))] + [
    # "MONSTERor VEHICLEunit": a keyword run into the next word (case matters here)
    (re.compile(r"\b([A-Z]{3,})(or|and)\s"), r"\1 \2 "),
    (re.compile(r"\b([A-Z]{3,})(units?|models?)\b"), r"\1 \2"),
    # the core keywords written in title case ("targets a Monster or Vehicle model")
    (re.compile(r"\b(Monster|Vehicle|Infantry|Character|Titanic|Mounted|Beast|Swarm|Psyker|"
                r"Towering|Walker|Battleline|Aircraft|Fly)(s?)\b(?= (?:or|and|units?|models?)\b|"
                r"(?:,| or| and) [A-Z])"), lambda m: m.group(1).upper() + m.group(2))]


#: commentary, not rules: a Designer's Note or a Data Author Note (in the data always the
#: text's last paragraph: "**Designer's Note:** *If an ARCHON has this Crusade Relic, ...*")
_COMMENTARY = re.compile(r"\b(?:data\s+)?(?:designer[’']?s[’']?|author)\s+notes?\b[^\n]*", re.I)
#: a prohibition on re-rolls ("you cannot re-roll the Hit roll", "Hit rolls cannot be
#: re-rolled": its clause begins after the last comma or stop before it): it gives no re-roll
_NO_REROLL = re.compile(r"\b(?:you )?(?:cannot|can't|can ?not|may not|must not) (?:re-roll\b|"
                        r"(be re-rolled\b))[^,.;]*", re.I)
#: an effect on the attacks of a Stratagem being resolved ("while resolving that Stratagem"):
#: of Fire Overwatch, when the text names it
_DURING_OVERWATCH = re.compile(r"\b(?:while|when) resolving that strat[ae]gem\b", re.I)
#: a clause's joining word ("..., and that Hit roll cannot be re-rolled"), not quoted
_CONJUNCTION = re.compile(r"^(?:and|but|or)\s+", re.I)
#: the rolls of an attack the engine re-rolls: forbidding a re-roll of another (a saving throw,
#: an Advance roll) changes no attack the engine resolves
_REROLLED = re.compile(r"\b(?:hit|wound|damage) rolls?\b", re.I)


def _prohibitions(text: str) -> list[tuple[int, int]]:
    """The spans of the clauses of ``text`` that forbid a re-roll (the passive one from the
    start of its clause)."""
    spans = []
    for m in _NO_REROLL.finditer(text):
        start = m.start()
        if m.group(1):  # "that Hit roll cannot be re-rolled": its subject too
            start = max(text.rfind(c, 0, start) for c in ",.;") + 1
        spans.append((start, m.end()))
    return spans


def rules_text(text: str) -> str:
    """An ability's text normalized (:func:`normalize`), without its commentary (a Designer's
    Note) and the prohibitions on re-rolls of rolls the engine never re-rolls.

    >>> rules_text("This model has a 2+ invulnerable save. You cannot re-roll invulnerable "
    ...            "saving throws made for this model.\\n\\n**Designer's Note:** *Place a token.*")
    'This model has a 2+ invulnerable save. .'
    """
    clean = normalize(_COMMENTARY.sub("", text)).rstrip(" *_")
    kept, at = [], 0
    for a, b in _prohibitions(clean):
        if not _REROLLED.search(clean, a, b):
            kept.append(clean[at:max(at, a)])
            at = max(at, b)
    return "".join(kept) + clean[at:]


def is_attack_relevant(text: str) -> bool:
    """Whether an ability's text changes a roll or characteristic of an attack (the ones the
    coverage counts).

    >>> is_attack_relevant("Add 1 to the Hit roll."), is_attack_relevant("Gain 1CP.")
    (True, False)
    >>> is_attack_relevant("You cannot re-roll invulnerable saving throws made for this model.")
    False
    """
    return bool(_RELEVANT.search(rules_text(text).lower()))


#: a head that grants abilities and more in its bullets: "Ranged weapons ... have the
#: [ANTI-MONSTER 5+] and [ANTI-VEHICLE 5+] abilities, and:" (the "have" and what follows it)
_MORE_ABILITIES = re.compile(r"(.*\b(?:have|has) )(the \[[^.]*\babilit(?:y|ies)),? and$")


def _sentences(text: str, branches: set[str] | None = None) -> list[str]:
    """Sentences, each cut into its clauses (:func:`_clauses`); a sentence ending in ':' is the
    head of the bullets that follow (each bullet is read with it), and a short one (a name:
    "Panegyric Procession:") their label under the head. A condition of two alternatives makes
    a sentence each (:func:`_or_branches`; ``branches`` collects them).

    >>> for s in _sentences("Select one of the following: Fury: Add 1 to the Hit roll. Rage: "
    ...                     "Add 1 to the Wound roll."):
    ...     print(s)
    Select one of the following, Fury, Add 1 to the Hit roll
    Select one of the following, Rage, Add 1 to the Wound roll
    """
    parts = [p.strip() for p in re.split(r"(?<=[.:;])\s+(?=[A-Z.(\[])|(?<!\s)\s*\.\s*\.\s*|"
                                         r"(?<!\s)\s+(?=\d\s+-\s+[A-Z][a-z]+\s+"
                                         r"(?:\([A-Z][a-z]+\)\s+)?[A-Z])", text)]
    out, head, label = [], "", ""
    for p in parts:
        p = p.strip(" .")
        if not p:
            continue
        if p.endswith(":"):  # "...attacks have:" takes its bullets as objects
            body = p[:-1]
            more = _MORE_ABILITIES.match(body)
            if head and len(body.split()) <= 6 and not _CLAUSE_VERB.search(body):
                label = body + ", "  # a bullet's name under the head
            elif more:  # "X have the [A] ability, and: - The [B] ability if ...": a sentence,
                # and its bullets more objects of its "have"
                out += _clauses(more.group(1) + more.group(2))
                head, label = more.group(1), ""
            else:
                head, label = body + (" " if re.search(r"\b(?:have|has)$", body) else ", "), ""
            continue
        alternatives = _or_branches(p)
        made = [head + label + c for branch in alternatives for c in _clauses(branch)]
        if len(alternatives) > 1 and branches is not None:
            branches.update(made)
        out += made
    return out


#: a condition of two alternatives: "if that attack targets a CHARACTER unit or if your Saga
#: is completed, that attack has ...": each alternative a clause of its own (one may be checked
#: by the engine, the other a switch)
_OR_IF = re.compile(r"\b(?P<kw>if|while) (?P<a>(?:(?!\b(?:if|while|each time)\b)[^.;])+?),? or if "
                    r"(?P<b>[^.;]+?),\s*(?:then\s+)?(?=(?:each time|that attack|those attacks|it|"
                    r"you can|add|subtract|improve|worsen|re-roll|until|models?|ranged|melee|"
                    r"weapons?)\b)", re.I)


def _or_branches(sentence: str) -> list[str]:
    """A sentence whose condition has two alternatives ("if A or if B, ..."), one sentence per
    alternative; else the sentence.

    >>> _or_branches("Each time a model makes an attack, if it targets a VEHICLE unit or if you "
    ...              "spend 1CP, add 1 to the Hit roll")  # doctest: +NORMALIZE_WHITESPACE
    ['Each time a model makes an attack, if it targets a VEHICLE unit, add 1 to the Hit roll',
     'Each time a model makes an attack, if you spend 1CP, add 1 to the Hit roll']
    """
    m = _OR_IF.search(sentence)
    if m is None:
        return [sentence]
    head, rest = sentence[:m.start()], sentence[m.end():]
    return [f"{head}{m.group('kw')} {m.group(k).strip()}, {rest}" for k in ("a", "b")]


def _second_clauses(text: str) -> set[str]:
    """The clauses of a text that a sentence's split made (a second effect with a condition
    of its own): each is an option, not a part of the rule before it."""
    out: set[str] = set()
    for s in _sentences(text):
        cut = _clauses(s)
        out.update(cut[1:] if len(cut) > 1 else ())
    return out


#: what makes a head a sentence rather than a bullet's name
_CLAUSE_VERB = re.compile(r"\b(?:each time|while|when|if|select|have|has|add|subtract|improve|"
                          r"worsen|re-roll|until|one of the following|is|are|can)\b", re.I)
#: an effect's verb: where a clause's effect begins
_EFFECT_VERB = re.compile(r"\b(?:you can re-roll|re-roll|add|subtract|improve|worsen|halve|"
                          r"hits are scored)\b|\bha(?:s|ve) (?:the |an? )?(?:\[|\d\+|stealth|"
                          r"benefit of cover|feel no pain|invulnerable)", re.I)
#: where a sentence holds a second effect with a condition of its own ("..., and add 1 to the
#: Wound roll as well if ...", "... and, if ..., subtract 1 from the Wound roll as well"), or a
#: second subject ("..., and each time a ranged attack targets ...", "...; on a 6, ...")
_SECOND = re.compile(
    r",?(?<!\s)\s+and,?\s+(?=if [^,.;]+,\s*(?:you can re-roll|re-roll|add|subtract|improve|worsen|"
    r"(?:that attack|it|those attacks|those weapons) ha(?:s|ve))\b)|"
    r",\s+or\s+(?=(?:on\s+)?unmodified hit rolls of \d\+ instead\b)|"
    r",\s+and\s+(?=while\b|all other\b)|"
    # "weapons equipped by that model have [LETHAL HITS], and melee weapons equipped by that
    # model have [LANCE]": two grants, each with its own weapons; "..., but while that unit
    # contains 10 or more models, that weapon has [HAZARDOUS]": a condition of its own
    r",\s+and\s+(?=(?:ranged |melee )weapons equipped by\b)|,\s+but\s+(?=while\b)|"
    r",\s+and\s+(?=(?:you can re-roll|re-roll|add|subtract|improve|worsen)\b[^.;]*\b(?:as "
    r"well|if|while)\b)|"
    r",?(?<!\s)\s+and\s+(?=each time\b)|;\s+(?=\S)|"
    r"(?<!\s)\s+and\s+(?=you can (?!re-roll|ignore)\w)|"
    # "..., and add 2 to the Attacks characteristic of its sweep profile": its own weapons
    r",\s+and\s+(?=(?:add|subtract|improve|worsen)\s+(?:\d|the)\b[^.;]*\bcharacteristics? of "
    r"(?!that attack|those attacks|it\b|those weapons|these weapons|that weapon|its weapons))",
    re.I)


def _clauses(sentence: str) -> list[str]:
    """A sentence cut where a second effect with its own condition, or a second subject,
    begins; a second effect keeps the first clause's scaffolding (its "each time ... makes an
    attack," before the first effect), so each clause names whose attacks it changes.

    >>> for c in _clauses("Each time a model in this unit makes an attack, add 1 to the Hit "
    ...                   "roll, and add 1 to the Wound roll as well if the target is Below "
    ...                   "Half-strength"):
    ...     print(c)
    Each time a model in this unit makes an attack, add 1 to the Hit roll
    Each time a model in this unit makes an attack, add 1 to the Wound roll as well if the \
target is Below Half-strength
    """
    out: list[str] = []
    rest, at = sentence, 0
    while True:
        m = _SECOND.search(rest, at)
        if m is None:
            out.append(rest)
            return out
        if not _EFFECT_VERB.search(rest[:m.start()]):
            # "you can roll one D6; on a 1, ...; on a 2-5, ...": no effect yet, the first cut
            # after one (the D6's first result keeps the roll before it)
            at = m.end()
            continue
        first, rest, skipped, at = rest[:m.start()], rest[m.end():], at, 0
        out.append(first)
        if not re.match(r"(?:each time|on an? \d)\b", rest, re.I):
            # the subject of the clause's verb, from after a cut skipped above ("That weapon
            # is now a Crusade Relic; it has ..., and you can improve ...": not "it you can")
            verb = _EFFECT_VERB.search(first, skipped)
            prefix = first[skipped:verb.start()] if verb else ""
            if re.match(r"you\b", rest, re.I) and not re.match(r"\s*each time\b", prefix, re.I):
                prefix = ""
            if re.match(r"if\b", rest, re.I) or not re.match(r"(?:while|if|when)\b", prefix,
                                                            re.I):
                rest = prefix + rest


_ADD = r"(add|subtract) (\d) (?:to|from) "
_ROLL = r"(?:the |that attack's |an? |its )?"

# -- wordings of the engine's later mechanics (issue 30 item 5), read before the others: re-rolled
# Damage rolls, doubled or halved Attacks, Feel No Pain against mortal wounds or Psychic Attacks
# only, "scores a hit on an unmodified Hit roll of X+" ---------------------------------------
_FNP_KIND = {"mortal wounds": "fnp_mortal", "psychic attacks": "fnp_psychic"}
#: "the Feel No Pain 4+ ability against Psychic Attacks and mortal wounds", and nothing more
_FNP_ONLY = re.compile(r"feel no pain (\d)\+(?: ability)? against (mortal wounds|psychic attacks)"
                       r"(?:,? and (mortal wounds|psychic attacks))?"
                       r"(?=\s*$|\s*[.;:)]|,? and an? \d\+)")
#: the weapons whose Attacks are doubled or halved: all of them (not some models' only)
_ALL_WEAPONS = (r"(?:(?:its|their|this model's|the bearer's|all of its) )?"
                r"(?:ranged |melee )?weapons(?: equipped by (?:this model|the bearer|models in "
                r"(?:this|that) unit))?(?! equipped by)")
#: "ignore any or all modifiers to that attack's Ballistic Skill characteristic and/or to the
#: Hit roll": the Hit roll, the Wound roll, BS/WS, and nothing else (not Move, AP, tests)
_IGNORED = (r"(?:(?:any or all |all )?(?:modifiers to )?(?:to )?(?:that attack's |the |its |this "
            r"model's )?(?:hit roll|wound roll|(?:ballistic|weapon) skill(?: (?:or|and) "
            r"(?:ballistic|weapon) skill)?(?: characteristics?)?(?: of (?:that|the) "
            r"(?:attack|weapon))?))")
_IGNORE = re.compile(r"\bignore any or all (?:modifiers to (?:the following: )?)?" + _IGNORED
                     + r"(?:(?:,? and/or |,? and |, |; )" + _IGNORED + r")*"
                     + r"(?: modifiers(?: for that attack)?)?(?=\s*$|\s*[.;]|, and )")


def _ignored(m: re.Match) -> list[tuple[str, Any]]:
    text = m.group(0)
    return [(key, True) for word, key in (("hit roll", "ignore_hit_modifiers"),
                                          ("skill", "ignore_skill_modifiers"),
                                          ("wound roll", "ignore_wound_modifiers"))
            if word in text]


_MECHANICS: list[tuple[re.Pattern, Any]] = [
    (_IGNORE, _ignored),
    # "on a Critical Wound, improve the Armour Penetration characteristic of that attack by 1":
    # that attack's AP when its Wound roll is a Critical Wound only
    (re.compile(r"(?:on a critical wound|if a critical wound is scored),? (?:the )?improve the "
                r"armour penetration characteristic of (?:that|the) attack by (\d)"),
     lambda m: [("crit_wound_ap", int(m.group(1)))]),
    (re.compile(r"(?:you can |can )?re-roll (?:a |the )?damage rolls? of 1\b"),
     lambda m: [("reroll_damage", "ones")]),
    (re.compile(r"(?:you can |can )?re-roll (?:the |that attack's |its )?damage rolls?\b"),
     lambda m: [("reroll_damage", "any")]),
    (re.compile(r"\bdouble the attacks characteristics? of " + _ALL_WEAPONS),
     lambda m: [("double_attacks", True)]),
    (re.compile(r"\bhalve the attacks characteristics? of " + _ALL_WEAPONS + r"|\bthe attacks "
                r"characteristics? of " + _ALL_WEAPONS + r" (?:are|is) halved"),
     lambda m: [("halve_attacks", True)]),
    (_FNP_ONLY,
     lambda m: [(_FNP_KIND[k], int(m.group(1))) for k in dict.fromkeys(m.groups()[1:]) if k]),
    (re.compile(r"scores? a hit on an? unmodified hit roll of (\d)\+"),
     lambda m: [("unmodified_hits_on", int(m.group(1)))]),
    (re.compile(r"snap shooting attacks hit on unmodified hit rolls of (\d)\+"),
     lambda m: [("overwatch_hits_on", int(m.group(1)))]),
    # "a Critical Hit is scored on an unmodified Hit roll of 5+, instead of only on a 6"
    (re.compile(r"(?:critical hits? (?:is|are) scored|scores? a critical hit) on (?:a successful "
                r"|an? )?unmodified hit rolls? of (\d)\+(?:, instead of only (?:on )?(?:a )?6)?"),
     lambda m: [("crit_hit", int(m.group(1)))]),
]
_EFFECTS: list[tuple[re.Pattern, Any]] = _MECHANICS + [
    # before the plain Wound roll modifier, which would read its end
    (re.compile(r"(?:if|and) the strength(?: characteristic)? of (?:that|the|an) attack is greater "
                r"than (?!or equal)[^.,;]*?toughness(?: characteristic)?(?: of (?:this|that|the|"
                r"your|the bearer's|that [a-z' ]+) (?:unit|model|bearer's unit|bearer))?"
                r"(?: and (?:this|that) (?:unit|model) is not an? [a-z]+)?,? "
                r"subtract 1 from (?:that attack's |the )?wound roll"),
     lambda m: [("wound_mod_if_stronger", -1)]),
    (re.compile(_ADD + _ROLL + r"hit roll and (?:the |that attack's )?wound roll"),
     lambda m: [("hit_mod", _sign(m)), ("wound_mod", _sign(m))]),
    (re.compile(_ADD + _ROLL + r"hit rolls?"), lambda m: [("hit_mod", _sign(m))]),
    (re.compile(_ADD + _ROLL + r"wound rolls?"), lambda m: [("wound_mod", _sign(m))]),
    (re.compile(r"re-roll (?:a |the |that )?hit rolls? (?:of )?1\b"),
     lambda m: [("reroll_hits", "ones")]),
    (re.compile(r"re-roll (?:a |the |that )?hit rolls?(?! (?:of )?1\b)(?:,? (?:and|or) (?:you "
                r"can )?(?:re-roll )?(?:the |a |that )?wound rolls?(?! (?:of )?1\b))?"),
     lambda m: [("reroll_hits", "failed")] + (
         [("reroll_wounds", "failed")] if "wound" in m.group(0) else [])),
    (re.compile(r"re-roll (?:a |the |that )?wound rolls? (?:of )?1\b"),
     lambda m: [("reroll_wounds", "ones")]),
    (re.compile(r"(?<!and )re-roll (?:a |the |that )?wound rolls?(?! (?:of )?1\b)"),
     lambda m: [("reroll_wounds", "failed")]),
    (re.compile(r"(?:hit|attack) roll of (\d)\+ scores a critical hit"),
     lambda m: [("crit_hit", int(m.group(1)))]),
    (re.compile(r"wound roll of (\d)\+ scores a critical wound"),
     lambda m: [("crit_wound", int(m.group(1)))]),
    (re.compile(r"(improve|worsen) (?:the|its|their) ((?:attacks|strength|armour penetration|"
                r"damage|weapon skill|ballistic skill)(?:(?:, | and |, and )(?:attacks|strength|"
                r"armour penetration|damage|weapon skill|ballistic skill))*) "
                r"(?:characteristics? )?of [^.]*?by (\d)"),
     lambda m: _char_changes(m.group(2), m.group(3), m.group(1))),
    # "That weapon ...; ... improve its Damage and Armour Penetration characteristics by 1"
    (re.compile(r"\b(improve|worsen) its ((?:attacks|strength|armour penetration|damage)"
                r"(?:(?:, | and |, and )(?:attacks|strength|armour penetration|damage))*) "
                r"characteristics? by (\d)"),
     lambda m: _char_changes(m.group(2), m.group(3), m.group(1))),
    # "the Armour Penetration characteristic of its ranged weapons is improved by 1"
    (re.compile(r"\bthe ((?:attacks|strength|armour penetration|damage)(?:(?:, | and |, and )"
                r"(?:attacks|strength|armour penetration|damage))*) characteristics? of [^.]*? "
                r"(?:is|are) (improved|worsened) by (\d)"),
     lambda m: _char_changes(m.group(1), m.group(3), m.group(2))),
    # "ranged weapons ... have their Ballistic Skill characteristic improved by 1"
    (re.compile(r"\bha(?:ve|s) (?:their|its|the) ((?:attacks|strength|armour penetration|damage|"
                r"ballistic skill|weapon skill)(?:(?:, | and |, and )(?:attacks|strength|armour "
                r"penetration|damage|ballistic skill|weapon skill))*) characteristics? "
                r"(improved|worsened) by (\d)"),
     lambda m: _char_changes(m.group(1), m.group(3), m.group(2))),
    # "this unit's ranged attacks have +1 AP", and that as an item of a list ("have: . +1 AP");
    # the 11e short forms of the others: "+1 S", "+4 A", "+1 D", "+1 WS and AP", "+1 BS and WS"
    (re.compile(r"(?:^|\bha(?:ve|s):? )\+(\d) ((?:ap|ws|bs|s|a|d)(?:(?:, | and |, and )(?:ap|ws|"
                r"bs|s|a|d))*)\b(?! (?:roll|move|characteristic))"),
     lambda m: list(dict.fromkeys((_SHORT[c], int(m.group(1)))
                                  for c in re.split(r",? and |, ", m.group(2))))),
    # "This invulnerable save is improved to 4+ against Psychic Attacks"
    (re.compile(r"(?:this|the|its|that) invulnerable save is improved to (\d)\+(?: against "
                r"(ranged|melee|psychic) attacks)?"),
     lambda m: [("invuln", (int(m.group(1)), m.group(2)))]),
    (re.compile(r"ha(?:ve|s) ([+-]\d) to (?:the |their )?hit rolls?"),
     lambda m: [("hit_mod", int(m.group(1)))]),
    (re.compile(r"ha(?:ve|s) ([+-]\d) to (?:the |their )?wound rolls?"),
     lambda m: [("wound_mod", int(m.group(1)))]),
    (re.compile(r"(?:hits are scored on |(?:^|, )(?:or )?(?:on )?)unmodified hit rolls of (\d)\+"),
     lambda m: [("overwatch_hits_on", int(m.group(1)))]),
    (re.compile(r"(improve|worsen) the (?:ballistic skill|weapon skill)(?: and (?:ballistic|"
                r"weapon) skill)? characteristics? of [^.]*?by (\d)"),
     lambda m: [("skill_mod", int(m.group(2)) * (1 if m.group(1) == "improve" else -1))]),
    (re.compile(_ADD + r"(?:the |that attack's |its )((?:attacks|strength|damage)(?:(?:, | "
                r"and |, and )(?:attacks|strength|damage))*) characteristics?"),
     lambda m: [(_CHAR[c], _sign(m)) for c in re.split(r",? and |, ", m.group(3))]),
    (re.compile(r"halve the damage characteristic"), lambda m: [("halve_damage", True)]),
    (re.compile(r"feel no pain (\d)\+|(\d)\+ feel no pain"),
     lambda m: [("fnp", int(m.group(1) or m.group(2)))]),
    (re.compile(r"(\d)\+ invulnerable save(?: against (ranged|melee|psychic) attacks)?"),
     lambda m: [("invuln", (int(m.group(1)), m.group(2)))]),
    (re.compile(r"\b(\d)\+ insv\b(?: against (ranged|melee|psychic) attacks)?"),
     lambda m: [("invuln", (int(m.group(1)), m.group(2)))]),
    (re.compile(r"invulnerable save of (\d)\+(?: against (ranged|melee|psychic) attacks)?"),
     lambda m: [("invuln", (int(m.group(1)), m.group(2)))]),
    (re.compile(r"(?<!not )ha(?:ve|s) (?:the )?stealth\b(?! and)(?: abilit\w*)?(?=[,.;]|$| and\b)"),
     lambda m: [("target_abilities", ("stealth",))]),
    (re.compile(r"(?<!not )ha(?:ve|s) the (?:[a-z\" ]+(?:,|and) )*stealth(?: and [a-z\" ]+)? "
                r"abilit"),
     lambda m: [("target_abilities", ("stealth",))]),
    (re.compile(r"(?<!not )ha(?:ve|s) the benefit of cover"), lambda m: [("cover", True)]),
    # "that enemy unit cannot have the Benefit of Cover": attacks against it ignore cover
    (re.compile(r"(?:cannot|can't|does not|do not) (?:have|gain|receive) the benefit of cover"),
     lambda m: [("no_cover", True)]),
]
def _char_changes(names: str, by: str, verb: str) -> list[tuple[str, int]]:
    """The changes of "improve the Strength and Damage characteristics ... by 1" (``names``,
    ``by``, ``verb``: improve(d) or worsen(ed)), each characteristic once.

    >>> _char_changes("strength, armour penetration and damage", "1", "improved")
    [('strength_mod', 1), ('ap_mod', 1), ('damage_mod', 1)]
    """
    sign = 1 if verb.startswith("improve") else -1
    return list(dict.fromkeys((_CHAR[c], int(by) * sign) for c in re.split(r",? and |, ", names)))


_CHAR = {"attacks": "attacks_mod", "strength": "strength_mod", "damage": "damage_mod",
         "armour penetration": "ap_mod", "weapon skill": "skill_mod",
         "ballistic skill": "skill_mod"}
#: the 11e short names of the characteristics an attack has more of ("+1 WS")
_SHORT = {"a": "attacks_mod", "s": "strength_mod", "d": "damage_mod", "ap": "ap_mod",
          "ws": "skill_mod", "bs": "skill_mod"}
_DEFENSIVE = ("fnp", "invuln", "target_abilities", "cover", "wound_mod_if_stronger",
              "no_cover", "fnp_mortal", "fnp_psychic")
#: granted weapon abilities: "have the [LETHAL HITS] and [PRECISION] abilities"
_GRANT = re.compile(r"(?<!not )(?:ha(?:ve|s)|gains?|select(?: either)?)(?: the| that)?"
                    r"(?: following)?(?: abilit(?:y|ies),?)? "
                    r"((?:\[[^\]]+\](?:,? (?:and|or) |, )?)+)(?:\s*abilit\w*)?")
#: wordings that change an attack and are not modelled, with the reason said
_NOT_MODELLED = [
    (re.compile(r"\b(?:double|halve|triple)s? the (?:strength|attacks|damage|toughness|armour "
                r"penetration)(?: and \w+)? characteristic"), "doubles or halves a characteristic"),
    (re.compile(r"attacks characteristic"), "changes the Attacks characteristic"),
    (re.compile(r"ha(?:ve|s) a save characteristic of \d|(?:add|subtract) \d (?:to|from) the "
                r"(?:toughness|save|wounds) characteristic|improve the save characteristic|"
                r"(?:^|\s)\+\d (?:t|w)\b(?! roll)|(?:^|\s)\d\+ sv\b"),  # 11e "+1 T", "4+ Sv"
     "changes the unit's own characteristics"),
    (re.compile(r"feel no pain \d\+ [^.]*against (?:mortal|psychic|[^.]*?damage)"),
     "Feel No Pain against some attacks only"),
    (re.compile(r"mortal wound"), "mortal wounds outside the attack's rolls"),
    (re.compile(r"damage characteristic of [^.]*? to \d|change the damage"),
     "sets the Damage characteristic"),
    (re.compile(r"re-roll[^.]*damage"), "re-rolls a Damage roll"),
    (re.compile(r"re-roll[^.]*saving throw"), "re-rolls a saving throw"),
    (re.compile(r"ignore[^.]*modifiers"), "ignores modifiers"),
    (re.compile(r"(?:add|subtract)[^.]*(?:saving throw|armour save)"),
     "changes a saving throw"),
    (re.compile(r"characteristic of [^.]* to \d|(?:weapons?|profiles?|they) ha(?:ve|s) an? "
                r"(?:ballistic skill|weapon skill|armour penetration|strength|damage|attacks) "
                r"characteristic of [-\d]"),
     "sets a characteristic"),
    # "a 4+ invulnerable save against Psychic Attacks and attacks made by DAEMON models": the
    # attacker's keywords are not read
    (re.compile(r"\b(?:against|and) attacks made by (?:an? )?[a-z' \-]+ models?\b"),
     "a save against some attackers only"),
    (re.compile(r"critical (?:hit|wound)"), "a Critical Hit or Wound rule"),
    (re.compile(r"hit roll|wound roll"), "a Hit or Wound roll rule"),
    (re.compile(r"toughness|save characteristic|wounds characteristic"),
     "changes the unit's own characteristics"),
]


#: an ability an attack has only when its roll is a Critical Hit or Wound
_ON_CRITICAL = re.compile(r"(?:scores? a|on a|if a|each time a) critical (?:wound|hit)(?: is "
                          r"scored(?: for [^.;,]{1,60}?)?)?,? (?:that attack|that attach|it|the "
                          r"attack) ha(?:s|ve) the \[")


#: what is said as not modelled beside a sentence's other effects (a part it drops)
_BESIDE = {"doubles or halves a characteristic", "changes the Attacks characteristic",
           "Feel No Pain against some attacks only", "mortal wounds outside the attack's rolls",
           "sets the Damage characteristic", "re-rolls a Damage roll", "re-rolls a saving throw",
           "sets a characteristic", "changes the unit's own characteristics",
           "a save against some attackers only"}


def _sign(m: re.Match) -> int:
    return int(m.group(2)) * (1 if m.group(1) == "add" else -1)


# conditions the engine checks: (pattern, condition key, value)
_ATTACK_KIND = [
    (re.compile(r"\branged (?:attack|weapon)|shooting phase|selected to shoot|\bshoots?\b"),
     "ranged"),
    (re.compile(r"\bmelee (?:attack|weapon)|fight phase|selected to fight|\bfights?\b"), "melee"),
]
#: both kinds named together ("ranged and melee weapons"): no ranged or melee condition
_BOTH_KINDS = re.compile(r"\b(?:ranged|melee) (?:and|or|and/or) (?:ranged|melee) (?=weapons?\b|"
                         r"attacks?\b)")
#: the bearer's attacks are made before the effect ("after this unit has shot", "each time the
#: bearer's unit has shot")
_AFTER_SHOT = re.compile(r"\b(?:after|each time) (?:this|the bearer's|this model's) (?:unit|model) "
                         r"has (?:shot|been selected to shoot and resolved)", re.I)
#: an effect that lasts past the phase its setup names ("In your Shooting phase, ... Until the
#: start of your next turn, ..."): the attacks it changes are not that phase's kind only
_PAST_THE_PHASE = re.compile(
    r"\buntil the (?:start|end) of (?:your|the|your opponent's|the opponent's) next\b|"
    r"\buntil the end of the (?:turn|battle round|battle)\b|\buntil the start of your next turn\b")
_CHECKED = [
    (re.compile(r",? ?(?:that|which) targets? (?:a|an|the|that) (?:enemy )?unit within half "
                r"range|within half range(?: of (?:that|the) (?:attack|weapon)|)"), "half_range",
     True),
    (re.compile(r",? ?if (?:this|that|the bearer's|this model's) units? made a charge move this "
                r"turn|,? ?if (?:it|this model|the bearer) made a charge move this turn|"
                r"in a turn in which (?:it|this unit|the bearer) (?:made a charge move|charged)|"
                r"if (?:it|this unit) charged this turn|"
                # "each time this unit makes a Charge move, until the end of the turn, ...": the
                # rest of that turn is the turn it charged in
                r"(?:each time [^,.;]{1,80}? )?\b(?:makes|ends) a charge move,? until the end of "
                r"(?:the|that) turn,?"), "charged", True),
    (re.compile(r",? ?if (?:this|that|the bearer's) unit remained stationary this turn|"
                r"remained stationary|"
                # "In your Movement phase, if this model Remains Stationary, until the end of
                # the turn, ...", "Each time this unit Remains Stationary, until the start of
                # your next Movement phase, ...": the turn it stayed still (--stationary)
                r"(?:in your movement phase, )?if (?:this|that|the bearer's) (?:unit|model) "
                r"remains stationary(?:, until the end of (?:the|that) turn)?,?|"
                r"each time (?:this|that) (?:unit|model) remains stationary, until the (?:start "
                r"of your next movement phase|end of (?:the|that) turn),?"), "stationary", True),
    (re.compile(r",? ?if (?:that|the) (?:target|enemy unit|target unit)(?: of (?:that|the|this) "
                r"attack)? is below (?:its )?starting strength|"
                r"(?:targets|against) (?:an? )?(?:enemy )?unit that is below (?:its )?starting "
                r"strength"), "below_starting", True),
    (re.compile(r"(?:targets|against) (?:an? )?(?:visible )?(?:enemy )?unit that is at (?:its )?"
                r"starting strength"), "below_starting", False),
    (re.compile(r"(?:targets|against) (?:an? )?(?:visible )?(?:enemy )?unit that is not below "
                r"half-strength"), "below_half", False),
    (re.compile(r",? ?if (?:that|the) (?:target|enemy unit|target unit)(?: of (?:that|the|this) "
                r"attack)? is below half-strength|"
                r"(?:targets|"
                r"against) (?:an? )?(?:enemy )?unit that is below half-strength"), "below_half",
     True),
    # one branch of an "or" ("if this unit has a Starting Strength of 5 or more, or if a
    # CHARACTER is leading this unit") is no condition of its own: the switch asserts either
    (re.compile(r",? ?(?<!\bor )(?:while|if) (?:an?|this unit is led by an?) (?:[a-z'-]+ )?"
                r"character(?: model)? is leading (?:this|that) unit(?!,? or\b)|"
                r"(?<!\bor )while this unit is (?:being )?led(?!,? or\b)"), "led", True),
]
#: the attack's own weapon is Psychic ("makes a Psychic Attack"), not an earlier one's ("a unit
#: that was hit by one or more Psychic attacks made by a THOUSAND SONS PSYKER unit")
#: the attack's Damage characteristic: "if that attack has a Damage characteristic of 1", "an
#: attack with an unmodified Damage characteristic of 1"
_DAMAGE_IS = re.compile(r"\b(?:with|has) an? (unmodified )?damage characteristic of (\d)\b"
                        r"(?! (?:to|instead|or)\b)")
_PSYCHIC = re.compile(r"(?<!hit by )(?<!hit by one or more )(?<!hit by a )"
                      r"\bpsychic (?:(?:melee|ranged) )?(?:attacks?|weapons?)\b(?! made by)")
#: how long an effect lasts, past a later phase ("until the start of your next Shooting phase"):
#: no condition on the attacks' kind
_UNTIL_NEXT = re.compile(r"\buntil the (?:start|end) of (?:your|the|your opponent's|the "
                         r"opponent's) next (?:shooting|fight) phase\b")
#: an invulnerable save against some attacks only: that condition is the save's alone
_INVULN_AGAINST = re.compile(r"(?:\d\+ invulnerable save|invulnerable save of \d\+|\d\+ insv|"
                             r"improved to \d\+) against (?:ranged|melee|psychic) attacks")
#: "targets a unit (excluding MONSTERS and VEHICLES)": keywords the target must not have
_TARGET_EXCLUDED = re.compile(
    r"(?:targets?|against) (?:an? )?(?:visible )?(?:enemy )?units? \(excluding ((?:[A-Z][A-Z\-']+"
    r"(?: [A-Z][A-Z\-']+)*(?:,? (?:and|or) |, )?)+)(?: units)?\)|\(excluding attacks that target "
    r"((?:[A-Z][A-Z\-']+(?:,? (?:and|or) |, )?)+)\)|targets? (?:an? )?(?:enemy )?units? (?:\("
    r"excluding units? that can ((?i:fly))\)|that cannot ((?i:fly)))")
#: the core keywords a text writes in the plural ("excluding MONSTERS and VEHICLES"); any other
#: keyword is as written (GROTS, POXWALKERS and GENESTEALERS are keywords of their own)
_CORE_PLURALS = frozenset({"MONSTERS", "VEHICLES", "CHARACTERS", "BEASTS", "SWARMS", "PSYKERS",
                           "WALKERS"})
_TARGET_KW = re.compile(r"(?i:(?:targets?|against) an?(?: visible)?(?: enemy)?|(?:while|when) "
                        r"targeting|"
                        r"if (?:that|the) target(?: of (?:that|the) attack)? is(?: an?)?) "
                        r"((?:[A-Z][A-Z\-']+)(?: [A-Z][A-Z\-']+)*(?:(?:, | or |, or )"
                        r"[A-Z][A-Z\-']+(?: [A-Z][A-Z\-']+)*)*)"
                        r"(?: ?(?:unit|model)s?)?\b")
_LEADING = re.compile(r"(?:while|when) (?:this model|the bearer) (?:is leading|leads) "
                      r"a unit,?")
_DEFENDER = re.compile(r"(?:each time|when|if) (?:an?|a ranged|a melee) "
                       r"(?:ranged |melee |psychic )?"
                       r"attacks? (?:is made against|targets|is allocated to) (?:this|that|the"
                       r" bearer's|a model in (?:this|that)|the bearer|a)|"
                       r"attacks? (?:that|which) targets? (?:this|the bearer's) unit|"
                       r"makes? an attack against (?:this|that) unit|"
                       r"allocated to (?:this|that|the bearer|a model)")
_MODEL = re.compile(r"\b(?:this model (?:makes|has|is)|targets? this model|the bearer(?!'s unit)|"
                    r"this model's "
                    r"(?!unit)|weapons equipped by this model|allocated to (?:this|the) "
                    r"(?:model|bearer))")
#: the scaffolding of a sentence: who attacks, which weapons (left out when looking for
#: conditions the engine cannot check)
_SCAFFOLD = re.compile(
    r"each time you (?:target|select) this unit (?:with|for) the fire overwatch stratagem,?|"
    r"(?:while|when) resolving that stratagem,?|each time (?:a|an) (?:model|unit) makes an? "
    r"(?:ranged |melee )?attack (?:that targets|against) (?:this|that) (?:unit|model),?|"
    r"each time (?:a|an|this) (?:model|unit)(?: in (?:this|that|the bearer's) unit)? makes an? "
    r"(?:ranged |melee )?attack,?|each time the bearer makes an? (?:ranged |melee )?attack,?|"
    r"each time (?:a|an|this) (?:model|unit)(?: in (?:this|that|the bearer's) unit)? targets an? "
    r"(?:enemy )?unit with an? (?:ranged |melee )?attack,?|"
    r"each time an? (?:ranged |melee )?attack (?:is made against|targets|is allocated to) "
    r"(?:this|that|the bearer's|a model in (?:this|that)|the bearer)(?: unit| model)?,?|"
    r"(?:ranged |melee )?weapons equipped by (?:models in )?(?:this|that|the bearer's) "
    r"(?:unit|model)|the bearer's (?:ranged |melee )?weapons|(?:models|model) in (?:this|that|"
    r"the bearer's) unit|this model|the bearer|this unit|that unit|that attack|"
    r"(?:an?|that) (?:ranged |melee )?attack|you can|instead|in addition|as well|additionally|"
    r"^in your (?:shooting|fight) phase,?|each time|makes an? attack|"
    r"if your army faction is [a-z' -]+,?|"
    # "each time this model fights, while resolving those attacks, ...": its melee attacks
    r"each time (?:this model|this unit|the bearer|the bearer's unit) fights,?|while resolving "
    r"(?:those|its|these|that unit's) attacks,?|until that fight is resolved,?"
)
_UNCHECKED = re.compile(
    r"\bif\b|\bwhile\b|\bwithin\b|select|once per|\buntil\b|objective|battle-shock|"
    r"engagement range|closest|visible|aura|this turn|this phase|stratagem|choose|"
    r"one of the following|\bcan use\b|use this|counter|token|wholly|destroyed|start of|"
    r"end of|\bwhen\b|\bafter\b|\bbefore\b|\btargets? (?:an? |that |the )|friendly|\bother\b|"
    r"each time [^,]* is selected|\bonly\b|psychic|\bcharge|fell back|advanced|\bbelow\b|"
    r"\babove\b|battle rounds?|\bhas? (?:lost|been)|\bremaining\b|\btargets?\b|your army|"
    r"\bor more\b|\bwith this ability\b|provided|did not|previous|excluding|\bnot\b|"
    r"\bcan have\b|^or\b|"
    # "an attack made by this model is allocated to a Monster or Vehicle model": the model's
    # keywords, not read (mechanics' wordings: re-rolled Damage)
    r"\ballocated to an? (?!model\b)|"
    # "while a REGIMENT unit is under the effects of the Fix Bayonets! Order": an Order issued
    # (the player's), "under the effects of one or more Combat Elixirs"
    r"\bunder the effects? of\b|\b(?:being )?affected by (?:an?|the|that|those|one or more)\b|"
    r"!\s*orders?\b|\ban order\b|"
    # "roll one D6: on a 4+, you can re-roll the Damage roll": a roll the engine does not make
    r"\broll (?:one|a|\d) d6\b"
)


#: a characteristic change of some weapons only ("of its Nemesis force weapon")
_SOME_WEAPONS = re.compile(
    r"characteristics? of (?!(?:that attack|those attacks|attacks|(?:ranged |melee |psychic )?"
    r"weapons|"
    r"(?:the bearer's|this model's|its|their) (?:ranged |melee )?weapons|models|(?:this|that|the "
    r"bearer's|your|the) (?:unit|model|bearer|target)\b|those weapons|that weapon\b|\d))")


#: a second change with its verb left out ("add 1 to the Hit roll if ..., and 1 to the Wound
#: roll as well if ..."): the verb put back, so that it is read (and split) as a clause
_ELIDED = re.compile(r",? and (\d) (to|from) the(?= (?:hit|wound) roll)", re.I)


#: one weapon of the bearer chosen ("Select one melee weapon equipped by the bearer"), and a
#: later sentence about it ("That weapon gains the [DEVASTATING WOUNDS] ability"): the bearer's
#: weapons of that kind, never its unit's (docs/rules.md, section 12)
_CHOSEN_WEAPON = re.compile(r"\bselect one ([a-z\-]+ )?weapon equipped by (?:the bearer|this "
                            r"model)\b(?!'s)")
#: the chosen weapon's name holds a word ("that has the word 'bolt' in its name")
_WORD_IN_NAME = re.compile(r"\bthat has the word '([a-z\- ]+)' in its name\b")
#: a Bondsman ability's effect, on the friendly ARMIGER model it affects, never the Knight's
#: own ("While a model is affected by this ability, ...", "ARMIGER models under the effects of
#: the bearer's Bondsman ability")
_BONDSMAN = re.compile(r"\bwhile a model is affected by this ability\b|\beach time a model "
                       r"affected by this ability\b|\bunder the effects? of "
                       r"(?:the bearer's|this model's|its) bondsman abilit")


#: an enemy unit's state whose effects follow, on "this unit" ("while an enemy unit is
#: Afflicted, ... and that unit has the effect of your chosen Plague")
_ENEMY_STATE = re.compile(r"\bwhile an enemy unit is ([A-Z][a-z]+),[^.]*\bthat unit has the "
                          r"effects? of your chosen\b", re.I)


#: the invulnerable save a sentence before gave, improved ("this invulnerable save is improved to
#: 4+"): against the attacks that one was (unless it says its own), for the same unit
_THIS_SAVE = re.compile(r"\b(?:this|that|its) invulnerable save is improved to \d\+")


#: a sentence about the weapons the one before changed
_THOSE_WEAPONS = re.compile(r"^(?!.*\bequipped with\b).*\b(?:(?:those|these) weapons|that "
                            r"weapon|such (?:an? )?weapons?)\b")
#: "If that CHARACTER model is a MAGUS, ..., that model has the Feel No Pain 3+ ability": the
#: model named before (the Leader), not the unit
_THAT_KEYWORD_MODEL = re.compile(r"^[Ii]f that ([A-Z][A-Z'\-]*(?: [A-Z][A-Z'\-]*)*) model is\b"
                                 r"[^.;]*?, that model ha(?:s|ve)\b")
#: weapons left out by their names ("weapons equipped by models in this unit (excluding blast
#: pistols, blasters and dark lances)"); not models or units of a keyword
_EXCLUDED_NAMES = re.compile(r"\bweapons\b[^.()]*(\(excluding (?!a |an |the )([a-z][a-z ,\-]*?)"
                             r"(?<!models)(?<!units)(?<! weapons)\))")
#: a sentence about the attack the sentence before made, so with the same weapons ("Each time
#: this model makes an attack with its D-Cannon, ... If that attack targets ..., ... instead")
_SAME_WEAPONS = re.compile(r"^(?!each time)[^.]*\b(?:that attack|those attacks|instead|as "
                           r"well)\b")
_WEAPON_KEYS = ("attack", "weapon_ability", "weapon_names", "weapon_abilities",
                "without_abilities", "without_names")


#: some weapons counted besides one named: "equipped with 2 melee weapons in addition to its
#: close combat weapon" (then "those 2 weapons")
_BESIDES = re.compile(r"\bequipped with (?:\d|two|three) (melee|ranged) weapons in addition to "
                      r"(?:its|their|the bearer's|this model's) ([a-z' \-]+?)(?=[,.;]|$)")
_THAT_WEAPON = re.compile(r"\b(?:that|the selected|this) weapon\b")


#: the conditions an "instead" alternative keeps of the effect it replaces
_KEPT_INSTEAD = ("half_range", "charged", "stationary", "below_half", "below_starting", "led",
                 "target_keywords", "target_not_keywords", "weapon_ability", "damage",
                 "unmodified_damage")


#: a sentence about the attack the sentence before made ("If that attack targets a unit
#: within 9\", ... as well"): it keeps that sentence's ranged or melee condition
_SAME_ATTACK = re.compile(r"^(?!each time)[^.]*\b(?:that attack|those attacks|instead|such an? "
                          r"(?:attack|weapon|unit)|as well)\b")


#: a change to some weapons only, named ("crushing teeth and claws equipped by", "its
#: hellforged weapons have"): the engine cannot tell them from the unit's others
_NAMED_WEAPONS = re.compile(
    r"\b(?!(?:weapons?|models?|wargear)\b)[a-z'\-]{1,40} equipped by|\b(?:its|their|the bearer's|"
    r"this model's) (?!(?:ranged|melee|psychic)\b)[a-z\-]+ weapons? ha(?:ve|s)|"
    # "its doomsday cannon has the [DEVASTATING WOUNDS] ability": one weapon, by name
    r"\b(?:its|their|the bearer's|this model's) (?!(?:ranged|melee|psychic|weapons?|attacks?|"
    r"units?|models?)\b)[a-z\-]+(?: [a-z\-]+){0,2} ha(?:ve|s) the\b|"
    # "this unit's Maulerfiend Fists have [CLEAVE 2]"
    r"\bthis unit's (?!(?:ranged|melee|psychic|weapons?|attacks?)\b)[a-z\-]+(?: [a-z\-]+){0,2} "
    r"ha(?:ve|s) \[")


#: weapons a sentence names: "its doomsday cannon", "this model's reaper chain-cleaver's strike
#: profile", "bolt rifles equipped by", "an attack with its vibro cannon", "Torrent weapons"
_WEAPON_PHRASES = [
    re.compile(r"\b(?:its|their|the bearer's|this model's|that model's|the model's) "
               r"(?P<w>(?:[a-z'\-]+ ){0,5}?[a-z'\-]+?)(?:'s (?P<p>[a-z\-]+) profile| profiles?| "
               r"weapons?)? ha(?:s|ve) (?:the )?\["),
    re.compile(r"\bcharacteristics? of (?:its|their|the bearer's|this model's|that model's|the "
               r"model's) (?P<w>(?:[a-z'\-]+ ){0,5}?[a-z'\-]+?)(?:'s (?P<p>[a-z\-]+) profile|"
               r" profiles?| weapons?)?(?=[,.;]|$| by\b| to\b| until\b| for\b| while\b|"
               r" is\b| equipped\b| and (?:add|subtract|improve|worsen|those|that|it)\b)"),
    re.compile(r"\b(?<![a-z'\-])(?P<w>(?:[a-z'\-]+ ){0,7}?[a-z'\-]+) equipped by\b"),
    re.compile(r"\bequipped with (?:\d+|two|three|an?) (?P<w>(?:[a-z'\-]+ ){0,4}?[a-z'\-]+?),? "
               r"(?:those|these|that|this) weapons?\b"),
    re.compile(r"\battacks? (?:made )?with (?:its |this model's |the bearer's |their |an? )"
               r"(?P<w>(?:[a-z'\-]+ ){0,4}?[a-z'\-]+?)(?: weapons?)?(?= that\b|,|\.|$| against\b|"
               r" targets?\b| is\b)"),
    # "If that attack is made with a Punisher gatling cannon and the target is ...": that weapon
    re.compile(r"\battacks? (?:is|are) made with (?:its |this model's |the bearer's |their |an? )"
               r"(?P<w>(?:[a-z'\-]+ ){0,4}?[a-z'\-]+?)(?: weapons?)?(?= that\b|,|\.|$| against\b|"
               r" and\b| by\b)"),
]
#: weapons named by an ability in words: "a ranged weapon that has the Anti ability"
_ABILITY_WEAPONS = re.compile(r"\b(?:(ranged|melee) )?weapons? (?:that|which) ha(?:s|ve) the "
                              r"([a-z][a-z \-0-9+]*?) abilit(?:y|ies)\b")
#: weapons named by their abilities in brackets ("all [HEAVY] weapons", "a [MELTA] or [TORRENT]
#: weapon")
_BRACKETED_WEAPONS = re.compile(r"((?:\[[a-z][a-z \-0-9+]*\](?:,? (?:or|and) |, )?)+) "
                                r"(?:(ranged|melee) )?weapons?\b")
#: words that are never (part of) a weapon's name
_NOT_A_WEAPON = re.compile(r"\b(?:abilit\w*|select\w*|characteristics?|improved|stratagems?|"
                           r"instead|wounds?|strength|toughness|save|damage|remaining|phase|"
                           r"doctrines?|quarry|prey|victim|army|unit's|transport|weapons|"
                           r"those)\b")
#: words that name no weapon in particular
_ANY_WEAPON = {"", "ranged", "melee", "weapon", "weapons", "ranged and melee", "melee and ranged",
               "unit", "attacks", "attack", "models", "model", "unit's", "bearer", "such a",
               "that", "this", "the selected", "ranged psychic", "psychic", "psychic melee",
               "that weapon", "those", "such", "a", "the"}


def _weapon_scope(low: str, cased: str | None = None) -> tuple[dict[str, Any], bool]:
    """The weapons a sentence changes, as conditions (named weapons or profiles, weapons with
    an ability, or without it: "all other ranged weapons"), and whether it names any."""
    cond: dict[str, Any] = {}
    # "all [HEAVY] weapons equipped by models in this unit", "a [MELTA] or [TORRENT] weapon":
    # the weapons with those abilities
    for m in _BRACKETED_WEAPONS.finditer(low):
        abilities = _ability_names(", ".join(re.findall(r"\[([^\[\]]+)\]", m.group(1))))
        if abilities:
            cond.setdefault("weapon_abilities", abilities)
            if m.group(2):
                cond.setdefault("attack", m.group(2))
    for m in _ABILITY_WEAPONS.finditer(low):
        abilities = _ability_names(m.group(2))
        if abilities:
            cond.setdefault("weapon_abilities", abilities)
            if m.group(1):
                cond.setdefault("attack", m.group(1))
    for pattern in _WEAPON_PHRASES:
        for m in pattern.finditer(low):
            if cased is not None and re.search(r"\b[A-Z]{3,}\b", cased[m.start("w"):m.end("w")]):
                continue  # a label or keywords in capitals ("DACATARAI STANCE melee weapons")
            phrase = re.split(r"\b(?:characteristics? of|to|the|by|for|from|that|and all other|"
                              r"select one|instead)\s+", m.group("w"))[-1].strip()
            phrase = re.sub(r"^(?:(?:and|all|a|an|one|select)\s+)+", "", phrase)
            if _NOT_A_WEAPON.search(re.sub(r"(?<!\s)\s+weapons?$", "", phrase)):
                continue
            phrase = {"pistols": "pistol", "pistol": "pistol"}.get(phrase, phrase)
            phrase = _BOTH_KINDS.sub("", phrase)  # "ranged and melee weapons": any weapon
            kind = re.match(r"(ranged|melee)\s+(?!weapons?$)", phrase)
            if kind:
                cond.setdefault("attack", kind.group(1))
            phrase = re.sub(r"^(?:ranged|melee)\s+|(?<!\s)\s+weapons?$", "", phrase).strip()
            tail = re.search(r"(?<!\s)\s+(ranged|melee)$", phrase)  # "Extra Attacks melee weapons"
            if tail:
                cond.setdefault("attack", tail.group(1))
                phrase = phrase[:tail.start()]
            if phrase in _ANY_WEAPON or phrase.endswith(("characteristic", "characteristics")):
                continue
            if not _ability_names(phrase):
                phrase = _untitled(phrase, m, cased)
                if phrase in _ANY_WEAPON:  # "... Immaterium Psychic weapons": Psychic weapons
                    continue
            abilities = _ability_names(phrase)
            if abilities:
                cond.setdefault("weapon_abilities", abilities)
                continue
            if re.search(r"\b(?:unit|units|model|models|army|enemy|friendly|target)\b", phrase):
                continue
            name = phrase + (f" / {m.group('p')}" if m.groupdict().get("p") else "")
            cond["weapon_names"] = tuple(dict.fromkeys((*cond.get("weapon_names", ()), name)))
    return cond, bool(cond)


def _untitled(phrase: str, m: re.Match[str], cased: str | None) -> str:
    """A weapon phrase without the option's title it runs on from, every word in title case
    ("Wrath of the Immaterium Psychic weapons equipped by": Psychic weapons, not a weapon
    named "immaterium psychic"): its last word when that is a weapon ability, else itself."""
    words = phrase.split()
    at = m.group("w").rfind(phrase)
    if cased is None or len(words) < 2 or m.re is not _WEAPON_PHRASES[2] or at < 0 or \
            not _ability_names(words[-1]):
        return phrase
    span = cased[m.start("w") + at:m.start("w") + at + len(phrase)].split()
    return words[-1] if all(w[:1].isupper() for w in span) else phrase


def _ability_names(phrase: str) -> tuple[str, ...]:
    """The weapon abilities a phrase is made of ("torrent or melta", "lethal hits", "rapid
    fire"); () when it is not only abilities."""
    out = []
    for part in re.split(r"(?<!\s)\s*(?:,|\bor\b|\band\b)\s*", phrase):
        if not part:
            continue
        if part in ("anti", "anti-x", "anti-keyword"):  # any Anti-KEYWORD X+ ability
            out.append("anti")
            continue
        for candidate in (part, f"{part} 1", f"{part} 4+", f"{part} 1\""):
            try:
                out.append(re.sub(r" (?:1|4\+|1\")$", "", canonical(candidate)))
                break
            except (InputError, ValueError):
                continue
        else:
            return ()
    return tuple(dict.fromkeys(out))


#: who may take an enhancement ("ADEPTUS CUSTODES model only"): not a condition of the attack
_ONLY = re.compile(r"^[a-z' ,\-/]+ (?:(?:models?|units?)(?: equipped with [a-z' ,\-]+)? )?only$")


#: a choice among weapon abilities listed after it ("select one of the following abilities:
#: [IGNORES COVER]; [LETHAL HITS]; [SUSTAINED HITS D3]")
_ABILITY_CHOICE = re.compile(r"\b(?:select|choose) one of the following (?:weapon )?abilities\b"
                             r"[^\[]*((?:\[[^\]]+\][;,.]?\s*(?:or\s+)?)+)")


def _grants(sentence: str) -> list[list[tuple[str, Any]]]:
    """The weapon abilities a sentence grants: one list of changes per alternative."""
    choice = _ABILITY_CHOICE.search(sentence)
    if choice:  # one switch per ability of the list
        try:
            return [[("abilities", (canonical(item),))]
                    for item in re.findall(r"\[([^\][]+)\]", choice.group(1))]
        except (InputError, ValueError):
            return [[("unknown_ability", choice.group(1))]]
    out: list[list[tuple[str, Any]]] = []
    for m in _GRANT.finditer(sentence):
        items = re.findall(r"\[([^\[\]]+)\]", m.group(1))
        names = []
        for item in items:
            try:
                names.append(canonical(item))
            except (InputError, ValueError):
                return [[("unknown_ability", item)]]
        if " or " in m.group(1):
            out += [[("abilities", (n,))] for n in names]
        else:
            out.append([("abilities", tuple(names))])
    return out


#: a change of an attack's roll or characteristic still in a sentence once its effects are read
#: ("that attack has [IGNORES COVER] and can ignore the penalty to their Hit rolls ...")
_LEFT_OVER = re.compile(r"\b(?:add|subtract|improve|worsen|re-roll|ignore)\b[^.;]*?\b(?:hit "
                        r"rolls?|wound rolls?|damage rolls?|(?:attacks|strength|damage|armour "
                        r"penetration|ballistic skill|weapon skill)(?:(?:,|,? and) [a-z ]+)? "
                        r"characteristics?)")


def _effects(low: str) -> tuple[list[list[tuple[str, Any]]], str]:
    """The changes one sentence makes (alternatives for an either/or grant), and the reason it
    is not modelled ("" when it is, or changes nothing)."""
    changes: list[tuple[str, Any]] = []
    rest = low
    for pattern, make in _EFFECTS:
        for m in pattern.finditer(rest):
            changes += make(m)
        rest = pattern.sub(" ", rest)
    alternatives = _grants(low)
    if any(k == "unknown_ability" for alt in alternatives for k, _ in alt):
        return [], "grants a weapon ability mathhammer does not know"
    pattern, reason = next(x for x in _NOT_MODELLED
                           if x[1] == "Feel No Pain against some attacks only")
    if pattern.search(_FNP_ONLY.sub(" ", low)):
        return [], reason
    if _ON_CRITICAL.search(low):
        return [], "an ability on a Critical Hit or Wound only"
    if re.search(r"strength(?: characteristic)? of (?:that|the|an) attack is greater than or "
                 r"equal to", low):
        return [], "a Wound roll rule for a Strength at least the Toughness"
    # "if the Strength characteristic of that attack is less than or equal to the Toughness
    # characteristic of the target, add 1 to the wound roll": the engine checks S > T only
    if re.search(r"strength(?: characteristic)? of (?:that|the|an) attack is less than\b", low):
        return [], "a Wound roll rule for a Strength at most (or below) the Toughness"
    if not changes and not alternatives:
        for pattern, reason in _NOT_MODELLED:
            if pattern.search(rest):
                return [], reason
        return [], ""
    extra = next((reason for pattern, reason in _NOT_MODELLED
                  if reason in _BESIDE and pattern.search(rest)), "")
    if not extra and _LEFT_OVER.search(rest):  # a second change of an attack, not read
        extra = "a clause not read"
    if not alternatives:
        return [changes], extra
    return [changes + alt for alt in alternatives], extra


def _conditions(low: str, cased: str, whole: str) -> tuple[dict[str, Any], str]:
    """The conditions the engine checks in a sentence (``low``: without its effect wording;
    ``whole``: with it, where ranged or melee weapons are named), and the text left over
    (what the engine cannot check)."""
    cond: dict[str, Any] = {}
    rest = low
    for pattern, key, value in _CHECKED:
        if pattern.search(rest):
            cond[key] = value
            rest = pattern.sub(" ", rest)
    damage = _DAMAGE_IS.search(rest)
    if damage:  # "an attack with a Damage characteristic of 1 is allocated to ..."
        cond["damage"] = int(damage.group(2))
        if damage.group(1):
            cond["unmodified_damage"] = True
        rest = _DAMAGE_IS.sub(" ", rest)
    if _PSYCHIC.search(rest):
        cond["weapon_ability"] = "psychic"
        rest = _PSYCHIC.sub(lambda m: m.group(0).split(" ", 1)[1], rest)
    x = _TARGET_EXCLUDED.search(cased)
    if x:
        cond["target_not_keywords"] = tuple(
            k[:-1] if k.split()[-1] in _CORE_PLURALS else k
            for k in _keyword_phrases(re.sub(r"\b(?:units?|models?|attacks that target)\b", "",
                                            x.group(1) or x.group(2) or x.group(3)
                                            or x.group(4), flags=re.I)))
        rest = rest.replace(x.group(0).lower(), " ")
    m = _TARGET_KW.search(cased)
    if m:
        words = re.split(r", or |, | or ", m.group(1).strip())
        cond["target_keywords"] = tuple(w.strip() for w in words if w.strip())
        rest = rest.replace(m.group(0).lower(), " ")
    # "a 4+ invulnerable save against ranged attacks, and the Feel No Pain 6+ ability": the
    # invulnerable save's own "against ranged attacks" is its clause's, not the sentence's;
    # "ranged and melee weapons" names both kinds
    whole = _UNTIL_NEXT.sub(" ", _BOTH_KINDS.sub(" ", _INVULN_AGAINST.sub(" ", whole)))
    kinds = [kind for pattern, kind in _ATTACK_KIND if pattern.search(whole)]
    if len(kinds) == 1:
        cond["attack"] = kinds[0]
    rest = _SCAFFOLD.sub(" ", rest)
    for pattern, _kind in _ATTACK_KIND:
        rest = pattern.sub(" ", rest)
    return cond, rest


def _effect_text(low: str) -> str:
    """The sentence without its effect wording (what is left is the condition)."""
    for pattern, _make in _EFFECTS:
        low = pattern.sub(" ", low)
    return _GRANT.sub(" ", low)


@cached(maxsize=8192)  # a list repeats datasheets, and each unit is asked for both sides
def translate(name: str, text: str, where: str = "", *, faction: str = "",
              kind: str = "datasheet ability") -> tuple[DataRule, ...]:
    """The named rules one ability's text makes: its automatic part, its parts that are
    switches, and a not-modelled part; ``()`` when it changes no attack. ``where`` says where
    the text came from (kept as the rule's ``source``).

    >>> [r.rule.describe() for r in translate("Feel No Pain", "Models in this unit have the "
    ...                                       "Feel No Pain 5+ ability.")]
    ['fnp=5']
    >>> [r.rule.describe() for r in translate("Rage", "Add 1 to the Attacks characteristic "
    ...                                       "of melee weapons equipped by this model.")]
    ['if melee attacks: attacks_mod=+1']
    >>> [r.rule.describe() for r in translate("Fury", "Each time this model makes an attack, "
    ...                                       "you can re-roll the Damage roll.")]
    ['reroll_damage=any']
    >>> [r.rule.not_modelled for r in translate("Fury", "Once per turn, you can re-roll one "
    ...                                         "Damage roll.")]
    ['re-rolls a Damage roll ("Once per turn, you can re-roll one Damage roll")']
    """
    clean = rules_text(text)
    if not _RELEVANT.search(clean.lower()) or _is_weapon_ability(name):
        return ()
    clean = _ELIDED.sub(lambda m: f", and {'add' if m.group(2) == 'to' else 'subtract'} "
                        f"{m.group(1)} {m.group(2)} the", clean)
    # "..., by 1 (if that attack targets a FORTIFICATION unit, ... by 2 instead).": the case
    # is read as the sentence after ("If ... instead."), which replaces the effect before it
    clean = _INSTEAD_CASE_LAST.sub(lambda m: f". {m.group(1)[0].upper()}{m.group(1)[1:]}", clean)
    leading = bool(_LEADING.search(clean.lower()))
    auto: dict[tuple[str, Whom], list[Effect]] = {}
    # side, whom, assumes, effects, its label's suffix ("" numbers it)
    switches: list[tuple[str, Whom, str, list[Effect], str]] = []
    reasons: list[str] = []
    setup = ""  # a sentence without an effect that sets a condition (select one unit...)
    phase: str | None = None  # the attacks (ranged, melee) of the setup's phase
    lasts = False  # a sentence since the setup makes it last past its phase
    last = None  # the attack kind (ranged, melee) of the last sentence with an effect
    ref: Whom | None = None  # the unit "that unit" means
    self_said = ""  # the bearer as the sentences before last named it ("this model", "this unit")
    history: list[Whom] = []  # every unit brought in so far
    first: Whom | None = None  # whom the first sentence with an effect changes
    before: Whom | None = None  # whom the last one changes
    before_side = ""  # and on which side
    frame: Whom | None = None  # "X units from your army have the following ability:"
    others: tuple[str, ...] = ()  # the weapon abilities the last sentence names
    prior: dict[str, Any] = {}  # the conditions of the last sentence with an effect
    weapons_before: dict[str, Any] = {}  # the weapons it changes
    chosen: re.Match | None = None  # "select one melee weapon equipped by the bearer"
    bondsman = False  # "While a model is affected by this ability" said
    afflicted = ""  # "while an enemy unit is Afflicted, ... that unit has the effect of ..."
    save: tuple[str | None, Whom] | None = None  # the last invulnerable save's attacks, whose
    branches: set[str] = set()  # the alternatives of an "if A or if B" condition
    for sentence in _sentences(clean, branches):
        pronoun = _PRONOUN.search(sentence)
        named = _SELF_SAID.findall(sentence, 0, pronoun.start() if pronoun else len(sentence))
        antecedent = named[-1] if named else self_said  # what "it" means here
        self_said = (_SELF_SAID.findall(sentence) or [self_said])[-1]
        # "(if ..., ... instead), and ...": a narrower case in the middle of a sentence that
        # replaces its effect; read with it, it would widen the effect
        for case in _INSTEAD_CASE.findall(sentence):
            if _RELEVANT.search(case.lower()):
                reasons.append(f"a case in brackets that applies instead ({_quote(case)})")
        sentence = _INSTEAD_CASE.sub("", sentence)
        banned = _prohibitions(sentence)
        if banned:  # "you cannot re-roll the Hit roll": no re-roll; nor one given elsewhere
            # taken away (the engine's re-rolls are the broadest given): said, never a grant
            for a, b in banned:
                forbidden = _CONJUNCTION.sub("", sentence[a:b].strip())
                reasons.append("forbids a re-roll, which a re-roll given by another rule or "
                               f"option still makes ({_quote(forbidden)})")
            sentence = _blank(sentence, banned)
        low = sentence.lower()
        intros = _intros(sentence)
        chosen = _CHOSEN_WEAPON.search(low) or chosen
        bondsman = bondsman or bool(_BONDSMAN.search(low))
        state = _ENEMY_STATE.search(sentence)
        afflicted = f"an enemy unit that is {state.group(1)}" if state else afflicted
        alternatives, reason = _effects(low)
        if banned and not alternatives and not reason:
            continue  # nothing else in it ("Each time ... with a Lethal Hits weapon, ")
        if not alternatives and not reason and _RELEVANT.search(low) and not _ONLY.match(low) \
                and not _DEFINES.search(low):
            reason = "wording not recognised"  # every sentence is read or said
        gains = _GAINS_ABILITY.search(sentence) if not alternatives and not reason else None
        if gains and not gains.group(1).lower().startswith(_CORE_ABILITIES) and not \
                _ability_names(gains.group(1).lower()):
            # "BLOOD LEGIONS units from your army gain the Blessings of Khorne ability": a rule
            # of its own, which may change attacks: said, not dropped
            reason = f"gains another ability by name ({gains.group(1)}), not read here"
        if not alternatives and not reason and _MADE_GUIDED.search(sentence):
            # "that T'AU EMPIRE unit is considered to be a Guided unit and that target unit ...
            # its Spotted unit": For the Greater Good's benefit, another rule's: said
            reason = "makes a unit Guided or Spotted (For the Greater Good), not read here"
        if reason:
            reasons.append(f"{reason} ({_quote(sentence)})")
        if not alternatives:
            grant = _FRAME.search(sentence)
            if grant:
                found = _nps(sentence, grant.start())
                frame = _np_whom(found[0], False, sentence) if found else frame
            elif _UNIT_FRAME.search(sentence):  # "models in the bearer's unit have that
                frame = Whom(Scope.UNIT)  # bioniks ability. ... this model": each of them
            if intros:
                ref = intros[-1][2]
                history += [w for _a, _b, w in intros]
            if not reason and not _ONLY.match(low) and _UNCHECKED.search(_SCAFFOLD.sub(" ", low)):
                setup = setup or sentence
                # the phase of the last such sentence that names one ("At the end of your
                # Command phase, you gain 1YP ... In your Shooting phase, each time a unit is
                # selected to shoot, you can spend 1YP. If you do, ...": the Shooting phase)
                kinds = {k for pattern, k in _ATTACK_KIND if pattern.search(low)}
                phase = kinds.pop() if len(kinds) == 1 else None if kinds else phase
            lasts = lasts or bool(setup and _PAST_THE_PHASE.search(low))
            continue
        if _DURING_OVERWATCH.search(low) and "overwatch" in clean.lower() and any(
                k != "overwatch_hits_on" for alt in alternatives for k, _ in alt):
            # "... the Fire Overwatch Stratagem ... While resolving that Stratagem, ... you can
            # re-roll the Hit roll": an effect on Overwatch attacks only (an exception to its
            # "no re-rolls"), which the engine's effects cannot be limited to: said
            reasons.append(f"an effect while resolving Fire Overwatch only ({_quote(sentence)})")
            continue
        defending = bool(_DEFENDER.search(low)) or all(
            k in _DEFENSIVE for alt in alternatives for k, _ in alt)
        here = ref
        if ref is not None and ref.scope is Scope.ENEMY and re.search(
                r"\bthat enemy (?:unit|model)\b", low) and re.search(r"(?<!enemy )\bthat unit\b",
                                                                    low):
            # "select one enemy unit ... models in that unit have [LETHAL HITS] while targeting
            # that enemy unit": "that unit" is the one before the enemy, not the enemy
            here = next((w for w in reversed(history) if w.scope is not Scope.ENEMY),
                        Whom(Scope.UNIT))  # "each time a unit is selected to shoot": its own
        whom, side, span = _subject(low, sentence, defending, intros, here, leading,
                                    tuple(history), before, before_side)
        denied = any(k == "no_cover" for alt in alternatives for k, _ in alt)
        if denied:  # "cannot have the Benefit of Cover": the attacks on it ignore cover
            alternatives = [[("abilities", ("ignores cover",)) if k == "no_cover" else (k, v)
                             for k, v in alt] for alt in alternatives]
        if side == "attacker" and not denied and all(
                k in _DEFENSIVE for alt in alternatives for k, _ in alt):
            # a save, Feel No Pain or cover is the defender's, whatever the sentence attacks
            held, span = _first_subject([_SUBJECT_DEFEND[2]], sentence, intros, ref, leading,
                                        tuple(history))
            whom, side = held if held is not None and held.scope is not Scope.ENEMY else \
                Whom(_scope(low, leading)), "defender"
        one_enemy = ref is not None and ref.scope is Scope.ENEMY and bool(
            re.match(r"(?:one|an?)\b", ref.words, re.I))
        if whom is None and pronoun and one_enemy and ref is not None:
            # "select one enemy unit ... That enemy unit is suppressed ... (While a unit is
            # suppressed, it has -1 to hit rolls.)": that enemy's, a debuff
            whom, side = ref, "defender" if side == "attacker" else "attacker"
        if whom is None and pronoun and antecedent and not leading and (
                ref is None or ref.scope.own or ref.scope is Scope.ENEMY):
            # "Each time this model is selected to shoot, it can use this ability. If it does,
            # ... its ranged weapons have ...": the model (or unit) named before
            whom = Whom(Scope.UNIT if antecedent.lower().endswith("unit") else Scope.MODEL)
        if whom is None:
            whom = Whom(_scope(low, leading))
        held = _on_fortification(sentence, tuple(history)) if whom.scope is not Scope.ENEMY \
            else None
        if held is not None:  # "while such a model is on the platform of this Fortification"
            whom = held
        said_before = _THAT_KEYWORD_MODEL.search(sentence)
        if said_before and "leading" in low:  # "If that CHARACTER model is a MAGUS, ..., that
            # model has ... while leading that unit": the Leader's own, as "that CHARACTER model"
            kw = said_before.group(1)
            whom = Whom(Scope.UNIT, (kw,), model=kw)
        if afflicted and whom.scope in (Scope.UNIT, Scope.MODEL):
            # a Plague of an Afflicted enemy unit: "this unit" is that enemy, its attacks a
            # debuff (the attacks it makes at the bearer's army)
            whom = Whom(Scope.ENEMY, words=afflicted)
            side = "defender" if side == "attacker" else "attacker"
        bondsman = bondsman or bool(_BONDSMAN.search(low))
        if bondsman:  # the ARMIGER a Knight's Bondsman ability affects, from then on
            whom = Whom(Scope.OTHERS, ("ARMIGER",),
                        words="the ARMIGER model under this model's Bondsman ability")
        picked = chosen is not None and side == "attacker" and whom.scope in (
            Scope.UNIT, Scope.MODEL) and bool(_THAT_WEAPON.search(low))
        if picked:  # "... That weapon gains [DEVASTATING WOUNDS]": the bearer's weapon only
            whom = Whom(Scope.MODEL)
        if whom.scope is Scope.FRIENDLY and side == "attacker" and not lasts and \
                _AFTER_SHOT.search(clean) and not _PAST_THE_PHASE.search(low):
            # "after this unit has shot, select one enemy unit hit ... Until the end of the
            # phase, ...": its own attacks this phase are made; the later shooters' (others')
            whom = attrs.evolve(whom, scope=Scope.OTHERS)
        if frame is not None and whom.scope in (Scope.UNIT, Scope.MODEL):
            whom = frame  # "X units from your army have the following ability: ... this unit"
        if whom.scope is Scope.OTHERS and _OTHER_MODELS.search(whom.words):
            # "... melee weapons equipped by all other models in the bearer's unit": the unit
            # but the bearer, a beneficiary the engine has no rule for
            reasons.append(f"for the other models of the bearer's unit ({_quote(sentence)})")
            continue
        grant = _FRAME.search(sentence)
        if grant:
            found = _nps(sentence, grant.start())
            frame = _np_whom(found[0], False, sentence) if found else frame
        if intros:
            ref = intros[-1][2]
        history += [w for _a, _b, w in intros]
        if save is not None and _THIS_SAVE.search(low):
            # "... a 5+ invulnerable save against ranged attacks. ... If it does, this
            # invulnerable save is improved to 4+": that save, of that unit, against those attacks
            kind, whom = save
            alternatives = [[(k, (v[0], v[1] or kind)) if k == "invuln" else (k, v)
                             for k, v in alt] for alt in alternatives]
        save = next(((v[1], whom) for alt in alternatives for k, v in alt if k == "invuln"), save)
        first, before, before_side = first or whom, whom, side
        # what names the beneficiary is not a condition: the subject, and "while a friendly
        # X unit is within 6\" of this model" (always true of the bearer's own unit)
        cut = [span] if span and not whom.scope.own else []
        cut += [(a, b) for a, b, w in intros if w == whom and w.scope is not Scope.ENEMY
                and not sentence[a:b].lower().startswith("select")]
        if whom.scope is Scope.LED:
            cut += [m.span() for m in _LEAD_INTRO.finditer(sentence)]
        if is_keyword_model(whom.model):  # "that CHARACTER model": the Leader, said by the model
            cut += ([span] if span else []) + [m.span() for m in _LEADER_INTRO.finditer(sentence)]
        if others and "all other" in low:  # "all other ranged weapons": said by the scope
            at = low.index("all other")
            cut.append((at, at + len("all other")))
        excluded = re.search(r"\(excluding ([a-z\- ]+?) weapons\)", low)
        without = _ability_names(excluded.group(1)) if excluded else ()
        if without:  # "melee weapons (excluding Extra Attacks weapons)"
            cut.append(excluded.span())
        # "weapons equipped by models in this unit (excluding blast pistols, blasters and dark
        # lances)": weapons left out by name (a keyword in capitals is a model, not a weapon)
        left_out = None if excluded else _EXCLUDED_NAMES.search(sentence)
        if left_out:
            cut.append(left_out.span(1))
        plain_low, plain = _blank(low, cut), _blank(sentence, cut)
        cond, rest = _conditions(_effect_text(plain_low), plain, low)
        # "... when this unit is selected to fight. If it does, until the end of the phase, ...":
        # the setup's phase, unless the effect lasts past it
        if "attack" not in cond and phase and not lasts and not _PAST_THE_PHASE.search(low):
            cond["attack"] = phase
        if "attack" not in cond and last and _SAME_ATTACK.search(low):
            cond["attack"] = last  # "If that attack ...": the one the last sentence made
        if re.search(r"\binstead\b", low):
            # "if that unit made a Charge move, add 1 ... If your unit is Battle-shocked, add 2
            # ... instead": the alternative replaces that effect, under that effect's conditions
            for key in _KEPT_INSTEAD:
                if key in prior and key not in cond:
                    cond[key] = prior[key]
        last = cond.get("attack")
        prior = {k: v for k, v in cond.items() if k in _KEPT_INSTEAD}
        # the defender's own Leader, charge or stationary state is not an attack option; nor
        # is a debuffed enemy's strength the target's
        popped = ("led", "charged", "stationary") + (
            ("below_half", "below_starting") if whom.scope is Scope.ENEMY else ())
        if is_keyword_model(whom.model):  # the Leader's own: there when it is attached
            cond.pop("led", None)
        unknown = side == "defender" and any(cond.pop(k, None) is not None for k in popped)
        scoped, named = _weapon_scope(plain_low, plain)
        if "all other" in low and others:  # "..., and all other ranged weapons ... have"
            scoped = {"without_abilities": others}
            named = True
        if without:
            scoped["without_abilities"] = without
            named = True
        if left_out:
            scoped["without_names"] = (left_out.group(2).strip(),)
        if scoped.get("attack") and "attack" not in cond:
            cond["attack"] = scoped["attack"]
        scoped.pop("attack", None)
        others = scoped.get("weapon_abilities", ())
        cond.update(scoped)
        if not named and (_THOSE_WEAPONS.search(low) or _SAME_WEAPONS.search(low)) and \
                not picked:
            # "... of that weapon by 1 for every 5 models. While this unit contains 10 or more
            # models, those weapons have [HAZARDOUS]": the weapons the sentence before changed
            for key, value in weapons_before.items():
                cond.setdefault(key, value)
        weapons_before = {k: v for k, v in cond.items() if k in _WEAPON_KEYS}
        besides = _BESIDES.search(low)
        if besides and re.search(r"\bthose (?:\d|two|three) weapons\b", low):
            # "equipped with 2 melee weapons in addition to its close combat weapon, add 2 to
            # the Attacks characteristics of those 2 weapons": its melee weapons but that one
            cond.setdefault("attack", besides.group(1))
            cond["without_names"] = (besides.group(2).strip(),)
        those_named = re.search(r"\bthose ((?!(?:\d|two|three|ranged|melee)\b)[a-z][a-z' \-]"
                                r"{0,40}?) weapons\b", low) if "equipped with" in low else None
        if those_named:  # "equipped with 2 Telemon caestus weapons in addition to its armoured
            # feet weapon, add 2 to the Attacks characteristic of those Telemon caestus weapons"
            cond["weapon_names"] = (those_named.group(1).strip(),)
        if picked and chosen is not None and chosen.group(1):  # "one Torrent weapon"
            kind = chosen.group(1).strip()
            abilities = () if kind in ("ranged", "melee") else _ability_names(kind)
            if kind in ("ranged", "melee"):
                cond.setdefault("attack", kind)
            elif abilities:
                cond.setdefault("weapon_abilities", abilities)
        word = _WORD_IN_NAME.search(chosen.string) if picked and chosen is not None else None
        if word:  # "select one Pistol weapon ... that has the word 'bolt' in its name"
            cond.setdefault("weapon_names", (word.group(1).strip(),))
        unchecked = (unknown or bondsman or _UNCHECKED.search(rest) or _keyword_left(
            plain, cond) or (not named and (_SOME_WEAPONS.search(plain_low)
                                            or _NAMED_WEAPONS.search(plain_low))))
        steps = _scaling(low)
        if steps is not None:  # "+1 Attack for every 5 enemy models within 6\"": one switch a count
            per, most, what = steps
            said = f"{setup}. {sentence}" if setup else sentence
            for alt in alternatives:
                step = max((abs(v) for f, v in alt if f in _SCALES and isinstance(v, int)),
                           default=1)
                top = max(1, most // step) if "maximum of" in low else most
                if "maximum of" not in low and _OWN_COUNT.search(what):
                    top = 6  # the unit's own models: up to 30 (a Leader and 20 Boyz: x4)
                for k in range(1, top + 1):
                    counted = f"{k * per}" if per == 1 else f"{k * per}-{(k + 1) * per - 1}"
                    scaled = [(f, v * k if f in _SCALES and isinstance(v, int) else v)
                              for f, v in alt]
                    switches.append((side, whom, f"{said} [{k} time{'s' * (k > 1)}: "
                                     f"{counted} {what}]", _effect(scaled, cond), f"x{k}"))
            continue
        clauses = [_effect(alt, cond) for alt in alternatives]
        if re.search(r"\binstead\b", low) or sentence in branches:
            # "+3 Strength instead": not on top of the +1; nor one alternative on the other
            clauses = [[attrs.evolve(e, not_cumulative=tuple(
                k for k, _v in e.changes if k in ADDITIVE)) for e in c] for c in clauses]
        if unchecked or setup or len(clauses) > 1:
            said = f"{setup}. {sentence}" if setup else sentence
            switches += [(side, whom, said, c, "") for c in clauses]
        else:
            auto.setdefault((side, whom), []).extend(clauses[0])
    out: list[DataRule] = []
    base = {"faction": faction, "kind": kind, "text": text.strip(), "source": where}

    def part(rule: NamedRule, whom: Whom) -> DataRule:
        return DataRule(rule, whom.scope, whom.keywords, whom.excluding, whom.words, whom.model)

    for i, ((side, whom), effects) in enumerate(auto.items()):
        label = name if i == 0 else f"{name} ({'when attacked' if side == 'defender' else side}"\
            f"{', ' + whom.scope.value if whom.scope is not Scope.UNIT else ''})"
        out.append(part(NamedRule(label, side=side, effects=tuple(effects), **base), whom))
    # the switches of several sentences are parts of one rule, switched on together by its
    # name (Oath of Moment's re-roll and +1 to wound); those of one sentence's either/or, of
    # one count, or of a choice among bullets are options: one is named
    sentences = Counter(said for _s, _w, said, _e, step in switches if not step)
    second = _second_clauses(clean) | branches  # options, not parts switched on together
    for i, (side, whom, said, effects, step) in enumerate(switches):
        label = name if not out and len(switches) == 1 else f"{name} ({step or i + 1})"
        joint = label != name and not step and sentences[said] == 1 and not _OPTIONS.search(
            said) and not any(said.endswith(c) for c in second)
        out.append(part(NamedRule(label, side=side, effects=tuple(effects), assumes=said,
                                  aliases=(name,) if joint else (), **base), whom))
    side, whom = (out[0].rule.side, first) if out and first else (
        "attacker", Whom(_scope(clean.lower(), leading)))
    if reasons:
        label = name if not out else f"{name} (rest)"
        if any(r.startswith(_OTHER_RULE) for r in reasons):
            side = "attacker"  # another rule's benefit (Guided, a named ability): said attacking
        out.append(part(NamedRule(label, side=side,
                                  not_modelled="; ".join(dict.fromkeys(reasons)), **base), whom))
    if not out:
        out.append(part(NamedRule(name, side=side, not_modelled="wording not recognised",
                                  **base), whom))
    holder = _SELECTED_HOLDER.search(clean)
    if holder:  # "... select one of the following abilities ... this model's melee weapons
        # have the selected ability": the choice is that model's, not its unit's; "this
        # model's Bolt of Change has that ability": that weapon's
        held = re.sub(r"^(?:(?:ranged|melee) )?weapons?$", "", holder.group("w").lower())
        out = [_held_by_model(p, held) if p.scope in (Scope.UNIT, Scope.MODEL) and not p.model
               and p.rule.usable and all(k == "abilities" for e in p.rule.effects
                                         for k, _v in e.changes) else p for p in out]
    from .guard import guarded  # a second reading of each part against the text (guard.py)

    return guarded(tuple(out), rules_text(text))


#: the models of the bearer's unit given an ability the text then defines ("Until the end of the
#: battle, models in the bearer's unit have that bioniks ability. ... 2. Bionik Arms: Add 1 to the
#: Strength characteristic of melee weapons equipped by this model"): "this model" is each one
_UNIT_FRAME = re.compile(r"\bmodels in (?:this|the bearer's|this model's) unit have (?:that|the "
                         r"following) [a-z' \-]*abilit", re.I)
#: the bearer's unit without the bearer: "all other models in the bearer's unit"
_OTHER_MODELS = re.compile(r"\bother models in (?:this|the bearer's|this model's|its) unit\b",
                           re.I)


#: a rule given by name ("gain the Blessings of Khorne ability"; not "units that have the X
#: ability", a condition)
_GAINS_ABILITY = re.compile(r"(?<!that )\b(?:gains?|has|have) the ((?:[A-Z][\w'\-]*)(?: (?:of|the|"
                            r"[A-Z][\w'\-]*))*) abilit(?:y|ies)\b")
#: a unit made Guided, Observer or Spotted (For the Greater Good's states) by another rule
_MADE_GUIDED = re.compile(r"\b(?:is considered to be|becomes?|counts as) (?:an?|that "
                          r"[\w' ]{1,40}?'s) (?:Guided|Spotted|Observer) unit\b", re.I)
#: the reasons that name another rule the text gives (said where attacks are made)
_OTHER_RULE = ("gains another ability by name", "makes a unit Guided or Spotted")
#: the abilities a rule can give by name that are read (or change no attack)
_CORE_ABILITIES = ("stealth", "deep strike", "scouts", "infiltrators", "lone operative",
                   "fights first", "leader", "deadly demise", "firing deck", "battle focus",
                   "feel no pain", "benefit of cover")


#: "it" or "its" as a subject, and the bearer it may mean ("this model", "the bearer", "this
#: unit"; "this model's unit" is the unit)
_PRONOUN = re.compile(r"\b(?:it|its)\b(?! (?:is|was) (?:destroyed|selected)\b)", re.I)
_SELF_SAID = re.compile(r"\b(?:this model's unit|the bearer's unit|this unit|this model|the "
                        r"bearer|this (?:character|vehicle|monster|psyker|titan|walker))\b(?!'s "
                        r"unit)", re.I)


#: who has the ability a choice selected, when it is one model ("Until the end of the phase,
#: this model's melee weapons have the selected ability")
_SELECTED_HOLDER = re.compile(r"\b(?:this model's|the bearer's) (?P<w>(?:[\w\-]+ ){0,3}?[\w\-]+) "
                              r"ha(?:ve|s) (?:the (?:selected|chosen)|that) (?:weapon )?abilit",
                              re.I)


def _held_by_model(part: DataRule, weapon: str) -> DataRule:
    """A choice's part for the model that has the chosen ability (and the weapon named, when
    the text names one: "this model's Black Sword has that ability")."""
    if weapon and not part.rule.requires.weapon_names:
        part = attrs.evolve(part, rule=attrs.evolve(part.rule, requires=attrs.evolve(
            part.rule.requires, weapon_names=(weapon,))))
    return attrs.evolve(part, scope=Scope.MODEL)


#: a sentence that only says what a word means or when a rule is used (no effect of its own)
_DEFINES = re.compile(r"\bare known as\b|\bis known as\b|\bcannot be used\b|\bselect one of "
                      r"the following (?:abilities|weapon abilities)\b[^.]*$|\bbefore making a "
                      r"saving throw\b")
#: a choice among bullets or abilities: each is an option, not a part
_OPTIONS = re.compile(r"\bone of the following\b|\bselect one of\b|\bchoose one\b|\bone of "
                      r"(?:these|the) (?:abilities|stances|vows|doctrines|options|bullet points)\b|"
                      r"\b(?:selected|chosen) (?:ability|stance|vow|doctrine|option)\b|"
                      r"\bon an? \d(?:-\d)?\+?,", re.I)


#: changes that a count scales ("+1 Attack for every 5 models")
_SCALES = ("attacks_mod", "strength_mod", "damage_mod", "ap_mod", "hit_mod", "wound_mod",
           "skill_mod")
_PER = re.compile(r"\bfor (?:every|each) (?:(\d+) )?([^,.;()]+?)(?:\s*\((?:rounding down|to a "
                  r"maximum of \+?(\d+)[^)]*)\))?(?=[,.;]|$| but\b| and\b| \()")


#: a count of the unit's own models ("for every 5 models in this unit")
_OWN_COUNT = re.compile(r"^(?:other )?models? in (?:this|the bearer's|that) unit$")


def _scaling(low: str) -> tuple[int, int, str] | None:
    """A change scaled by a count ("for every 5 enemy models within 6\"", "for each enemy unit
    within 6\" (to a maximum of +3)"): (models per step, the most steps offered, what is
    counted); None when the sentence scales nothing. The count is the player's: each step is a
    switch of its own (``NAME (x2)``: two steps); a maximum gives the steps, else three."""
    m = _PER.search(low)
    if m is None or re.match(r"(?:wound|attack|hit|time)s?\b", m.group(2)):
        return None
    per = int(m.group(1) or 1)
    most = int(m.group(3)) if m.group(3) else 3
    return per, max(1, min(most, 6)), m.group(2).strip()  # a maximum is of the change's value


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with the spans replaced by spaces (the same length: positions still match)."""
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


#: a case in brackets that replaces the sentence's effect: "(if ..., ... instead)"
_INSTEAD_CASE = re.compile(r"(?<!\s)\s*\((if [^()]*\binstead)\)", re.I)
#: one that ends its sentence, read as the sentence after
_INSTEAD_CASE_LAST = re.compile(r"(?<!\s)\s*\((if [^()]*\binstead)\)(?=\.|$)", re.I)


def _quote(sentence: str, most: int = 300) -> str:
    """A sentence quoted in a not-modelled reason (cut short when long)."""
    short = sentence if len(sentence) <= most else sentence[:most - 3].rstrip() + "..."
    return f'"{short}"'


def _is_weapon_ability(name: str) -> bool:
    """Whether an ability is a weapon ability's definition ("Twin-linked: weapons with
    [TWIN-LINKED] are..."): the engine's own rule, not one to translate."""
    base = re.sub(r"(?<!\s)\s+X\+?$", "", name.strip())
    for candidate in (base, f"{base} 1", f"{base} 4+"):
        try:
            canonical(candidate)
        except (InputError, ValueError):
            continue
        return True
    return False


def _scope(low: str, leading: bool) -> Scope:
    """Whose attacks a sentence changes: "while this model is leading a unit" (or "that unit"
    after it), "this model"/"the bearer", else the unit."""
    if _LEADING.search(low) or (leading and re.search(r"\bthat unit\b", low)):
        return Scope.LED
    if _MODEL.search(low) and not re.search(
            r"models? in (?:this|the bearer's|this model's) unit|this model's unit", low):
        return Scope.MODEL
    return Scope.UNIT


def _effect(changes: list[tuple[str, Any]], cond: dict[str, Any]) -> list[Effect]:
    """The clauses of one sentence's changes: an invulnerable save against ranged or melee
    attacks only is a clause of its own, with that condition."""
    out = [Effect(tuple((k, v) for k, v in changes if k != "invuln"), Conditions(**cond))]
    out = [e for e in out if e.changes]
    for key, (value, kind) in ((k, v) for k, v in changes if k == "invuln"):
        own = cond | ({"weapon_ability": "psychic"} if kind == "psychic" else
                      {"attack": kind} if kind else {})
        out.append(Effect(((key, value),), Conditions(**own)))
    return out


def _keyword_left(sentence: str, cond: dict[str, Any]) -> bool:
    """Whether the sentence names a keyword the engine does not check (the attacker's, a
    CHARACTER model of the unit...): a word in capitals outside the weapon abilities and the
    target's keywords."""
    text = _TARGET_KW.sub(" ", re.sub(r"\[[^\[\]]*\]", " ", sentence), count=1) \
        if cond.get("target_keywords") else re.sub(r"\[[^\[\]]*\]", " ", sentence)
    if cond.get("target_not_keywords"):
        text = _TARGET_EXCLUDED.sub(" ", text)
    if cond.get("led"):  # "a NECRONS CHARACTER model is leading": a Leader of the unit's own
        text = re.sub(r"\b(?:[A-Z][A-Z'\-]{1,40} ){0,8}CHARACTER(?: model)? is leading", " ", text)
    return bool(set(re.findall(r"\b[A-Z][A-Z'\-]{2,}\b", text)) - {"CP", "OC"})


# -- whom a sentence changes (its beneficiary) -----------------------------------------------
#
# Each sentence's subject is found (who makes the attacks it changes, or who is attacked) and
# read as a beneficiary: this model, this unit, the unit this model leads, friendly units (with
# their keywords), other friendly units, an enemy unit (a debuff: the attacks it makes), or the
# units in cover of this terrain. "That unit" means the unit the text brought in last ("select
# one enemy unit", "while a friendly INFANTRY unit is within 6\" of this model", "while this
# model is leading a unit").


#: the ``model`` of a rule for one model its bearer selects ("select one friendly VEHICLE model
#: within 3\" of this model. ... that model has ..."): a unit of one model, not every model of
#: a larger unit (:func:`mathhammer.data.rules.unit_rules.resolve`)
ONE_MODEL = "#one selected model"


@attrs.frozen
class Whom:
    """A sentence's beneficiary (see :class:`Scope`), with the keywords a friendly unit needs,
    the text that names it, and a model of the unit named by name."""

    scope: Scope
    keywords: tuple[str, ...] = ()
    excluding: tuple[str, ...] = ()
    words: str = ""
    model: str = ""


_NOUN = (r"(?:units?|models?|(?:vehicles?|transports?|characters?|psykers?)"
         r"(?!\s+(?:units?|models?|or|and)\b|,))")
#: a unit or model a text names: "one other friendly ADEPTUS ASTARTES INFANTRY unit", "an enemy
#: unit (excluding MONSTERS)", "a WORLD EATERS model from your army"
_UNIT_NP = re.compile(
    r"\b(?P<det>an?|another|one or more|one|each|every|two|three|up to \w+|any number of|all)\s+"
    r"(?P<adj>(?:(?:other|visible|friendly|friending|enemy|eligible)\s+)*)"
    r"(?P<kw>(?:(?!(?-i:in|of|that|with|within|from|a|an|the|time|each|one|this|those|by|to|"
    r"if|and|is|are|makes?)\b)[A-Za-z0-9'\-/]+,?\s+(?:(?:and|or|and/or)\s+)?){0,10}?)"
    r"(?P<noun>" + _NOUN + r")\b"
    r"(?:\s*\((?:excluding|other than) (?P<excl>[^)]*)\))?"
    r"(?P<tail>\s+(?:from|in) your (?:crusade )?(?:army|force))?"
    r"(?:\s*\((?:excluding|other than) (?P<excl2>[^)]*)\))?", re.I)
#: units named without a determiner: "friendly ADEPTUS ASTARTES units", "KROOT models from your
#: army", "DEATHWATCH units in your army"
_BARE_NP = re.compile(
    r"(?<![A-Za-z'\-])(?:(?P<adj>(?:(?i:other|friendly|enemy)\s+)+)(?P<kw>(?:(?!(?-i:in|of|that|"
    r"with|within|from|a|an|the|by|to|and)\b)[A-Za-z0-9'\-/]+,?\s+(?:(?:and|or|and/or)\s+)?)"
    r"{0,10}?)|(?P<kw2>(?:[A-Z][A-Za-z0-9'\-/]*,?\s+(?:(?:and|or|and/or|OF)\s+)?){1,10}?))"
    r"(?P<noun>units|models)\b"
    r"(?:\s*\((?:excluding|other than) (?P<excl>[^)]*)\))?"
    r"(?P<tail>\s+(?:from|in) your (?i:crusade )?(?:army|force))?"
    r"(?:\s*\((?:excluding|other than) (?P<excl2>[^)]*)\))?")


@attrs.frozen
class _NP:
    """A unit phrase found in a text (see :data:`_UNIT_NP`, :data:`_BARE_NP`)."""

    start: int
    end: int
    adj: str
    kw: str
    noun: str
    tail: bool
    excl: str

    def group(self, name: str) -> str:  # what _np_whom reads
        return {"adj": self.adj, "kw": self.kw, "noun": self.noun, "excl": self.excl,
                "tail": "y" if self.tail else "", 0: self.text}.get(name, "")

    text: str = ""

    def end_(self) -> int:
        return self.end


def _nps(text: str, at: int | None = None) -> list[_NP]:
    """The unit phrases of a text (or the one starting at ``at``), in order; a phrase with a
    determiner wins over a bare one that overlaps it."""
    found: list[_NP] = []
    for rx in (_UNIT_NP, _BARE_NP):
        ms = [rx.match(text, at)] if at is not None else list(rx.finditer(text))
        for m in ms:
            if m is None:
                continue
            kw = m.groupdict().get("kw") or m.groupdict().get("kw2") or ""
            adj = (m.group("adj") or "") + (" other" if (m.groupdict().get("det") or "")
                                            .lower() == "another" else "")
            np = _NP(m.start(), m.end(), adj, kw, m.group("noun"), bool(m.group("tail")),
                     m.group("excl") or m.group("excl2") or "", m.group(0))
            if rx is _BARE_NP and not (np.adj or np.tail):
                continue
            if any(f.start <= np.start < f.end or np.start <= f.start < np.end for f in found):
                continue
            found.append(np)
    return sorted(found, key=lambda n: n.start)


_GENERIC = {"", "ranged", "melee", "such", "selected", "single", "target", "attacking",
            "targeted", "attacked"}
#: what brings a unit in for a later "that unit" (the NP is searched right after it)
_INTRO_HEAD = re.compile(
    r"\bselect(?:s|ed)?\s+(?=(?:an?|one|two|three|up to \w+|any number of)\b)|"
    r"\b(?:while|when|whilst|if|each time|until)\s+(?=(?:an?|one|each)\s)", re.I)
_LEAD_INTRO = re.compile(
    r"\b(?:while|when|if)\s+(?:this|the bearer|your [a-z' \-]+?|this [a-z' \-]+?|the bearer's "
    r"unit)\s+(?:model\s+)?(?:is\s+leading|leads)\s+an?\s+(?:[a-z' \-]+?\s+)?unit\b[^,.]*,?",
    re.I)
#: other units given an ability of their own: "ADEPTUS MECHANICUS units from your army have the
#: following ability" (its "this unit" is each of them)
_FRAME = re.compile(r"(?:^|[,.:;]\s*|\b(?:all|each)\s+)(?=(?:[A-Za-z'\-]+\s+){1,8}?"
                    r"(?:units?|models?)"
                    r"(?:\s+\([^)]*\))?\s+(?:from|in) your (?:crusade )?army(?:\s+\([^)]*\))?\s+"
                    r"(?:have|has|gains?) the following (?:the )?abilit)", re.I)
_LEADER_INTRO = re.compile(r"\b(?i:while|if) (?i:an?) (?:[A-Z][A-Z'\-]+ ){0,4}(?:CHARACTER|[A-Z]"
                           r"[A-Z'\-]+)(?: model)? is leading (?:this|this model's) unit\b"
                           # the bearer's unit said by what it holds (Court of the Archon)
                           r"|\b(?i:while) (?i:an?) CHARACTER(?: model)? (?i:is leading a unit "
                           r"that contains one or more) [^.;]*? (?i:models)\b")
#: other models of the bearer's unit brought in by keyword: "While one or more OFFICER models are
#: in the same unit as this model, those OFFICER models have ..."
_SAME_UNIT_INTRO = re.compile(r"\b(?i:while) (?i:one or more|an?) ((?:[A-Z][A-Z'\-]+ ){0,3}"
                              r"[A-Z][A-Z'\-]+) (?i:models? (?:is|are) in (?:the same unit as "
                              r"this model|this model's unit))\b")
_SELF_INTRO = re.compile(r"\beach time (this|the bearer's) (unit|model) is selected to "
                         r"(?:shoot|fight)", re.I)


def is_keyword_model(model: str) -> bool:
    """Whether a rule's ``model`` names the unit's models by a keyword ("CHARACTER": its
    Leader; "OFFICER") rather than a model by name ("Warlock") or the data's own model entry
    ("@Wulfen with Death Totem").

    >>> is_keyword_model("OFFICER"), is_keyword_model("Warlock"), is_keyword_model("")
    (True, False, False)
    """
    return bool(model) and not model.startswith("@") and model == model.upper() and \
        any(c.isalpha() for c in model)


def _keyword_phrases(words: str) -> tuple[str, ...]:
    """The keyword phrases of a unit's description ("Adeptus Astartes Mounted or Adeptus
    Astartes Fly Vehicle"), upper case, one per alternative.

    >>> _keyword_phrases("HARLEQUINS MOUNTED and HARLEQUINS VEHICLE")
    ('HARLEQUINS MOUNTED', 'HARLEQUINS VEHICLE')
    """
    words = re.sub(r"\s+", " ", words.replace(",", ", ")).strip(" ,")
    parts = re.split(r",? and/or |,? or |,? and |, |/", words, flags=re.I)
    return tuple(dict.fromkeys(" ".join(p.upper().split()) for p in parts if p.strip()))


#: the keywords kept out right after a unit phrase: " (excluding KROOT, VESPID models)"
_EXCL_AFTER = r"\s*\((?:excluding|other than) ([^)]*)\)"


def _np_whom(m: Any, select: bool, sentence: str) -> Whom | None:
    """The beneficiary a unit phrase names (None: a plain "a model", not a unit brought in)."""
    adj = m.group("adj").lower()
    kw = m.group("kw").strip()
    tail = bool(m.group("tail"))
    noun = m.group("noun").lower()
    if noun.startswith(("vehicle", "transport", "character", "psyker")):
        kw = f"{kw} {noun.rstrip('s')}".strip()
    low_kw = kw.lower()
    if low_kw in _GENERIC or low_kw.split()[-1:] in (["ranged"], ["melee"]):
        kw = ""
    end = m.end if isinstance(m, _NP) else m.end()
    after = sentence[end:end + 80].lower()
    if not kw and re.match(r"\s*that can fly\b", after):  # "friendly units that can Fly"
        kw = "FLY"
    words = m.group(0).strip()
    excl = m.group("excl")
    if not excl:  # read in a clause cut at a comma of its brackets: the whole sentence's
        whole = re.search(re.escape(words.split(" (")[0]) + _EXCL_AFTER, sentence)
        excl = whole.group(1) if whole else ""
    # "(excluding KROOT and TITANIC models)": the keywords, not the noun
    noun = excl.split()[-1:] if excl else []
    if noun and noun[0].lower() in ("unit", "units", "model", "models"):
        excl = excl.rstrip()[:-len(noun[0])]
    excluding = _keyword_phrases(excl) if excl.strip() else ()
    if not adj and not tail and re.match(r"\s*(?:\([^)]*\)\s*)?(?:is|was|were) hit by", after):
        return Whom(Scope.ENEMY, words=words)  # "each time a unit is hit by this weapon"
    if "enemy" in adj or (select and not adj and not tail and re.match(
            r"\s*(?:\([^)]*\)\s*)?(?:that (?:was|were) |which (?:was|were) )?(?:hit|it "
            r"scored|you can see)", after)):
        return Whom(Scope.ENEMY, words=words)
    if re.match(r"\s*that disembarked from this\b", after):
        return Whom(Scope.OTHERS, words=f"{words} {after.split(',')[0].split('.')[0].strip()}")
    if "other" in adj:
        return Whom(Scope.OTHERS, _keyword_phrases(kw) if kw else (), excluding, words)
    near = re.match(r"\s*(?:\([^)]*\)\s*)?is (?:wholly )?within \d+\"? of (?:this|the bearer)",
                    after)
    if "friendly" in adj or "friending" in adj or tail or (select and (kw or adj)) or (
            near and kw):
        return Whom(Scope.FRIENDLY, _keyword_phrases(kw) if kw else (), excluding, words)
    if kw and select:
        return Whom(Scope.FRIENDLY, _keyword_phrases(kw), excluding, words)
    return None


def _intros(sentence: str) -> list[tuple[int, int, Whom]]:
    """The units a sentence brings in (start, end of the clause, beneficiary), in order."""
    out: list[tuple[int, int, Whom]] = []
    for m in _LEAD_INTRO.finditer(sentence):
        # "while this model is leading a BLOOD CLAWS unit": only a unit with those keywords
        kw = re.search(r"\b(?i:leading|leads) (?i:an?) ((?:[A-Z][A-Z'\-]+ )+)(?i:unit)\b",
                       m.group(0))
        out.append((m.start(), m.end(), Whom(
            Scope.LED, _keyword_phrases(kw.group(1)) if kw else (),
            words=f"a {kw.group(1).strip()} unit this model leads" if kw
            else "the unit this model leads")))
    for m in _LEADER_INTRO.finditer(sentence):  # "that CHARACTER model" is the Leader
        out.append((m.start(), m.end(), Whom(Scope.UNIT, ("CHARACTER",), model="CHARACTER",
                                             words="the CHARACTER leading this unit")))
    for m in _SAME_UNIT_INTRO.finditer(sentence):  # "those OFFICER models": theirs only
        kw = " ".join(m.group(1).split())
        out.append((m.start(), m.end(), Whom(Scope.UNIT, (kw,), model=kw,
                                             words=f"the {kw} models of this model's unit")))
    for m in _SELF_INTRO.finditer(sentence):
        own = Scope.MODEL if m.group(1).lower() == "the bearer's" and m.group(2) == "model" \
            else Scope.UNIT
        out.append((m.start(), m.end(), Whom(own)))
    heads = [(h.end(), h.start(), h.group(0).lower().startswith("select"))
             for h in _INTRO_HEAD.finditer(sentence)]
    heads += [(n.start, n.start, False) for n in _nps(sentence)
              if n.tail or re.search(r"friendl|enemy|other", n.adj, re.I) or re.match(
                  r"\s*(?:\([^)]*\)\s*)?is (?:wholly )?within \d+\"? of (?:this|the bearer)",
                  sentence[n.end:], re.I)]
    seen: set[int] = set()
    for at, head_start, select in sorted(heads):
        found = _nps(sentence, at)
        if not found or found[0].start in seen:
            continue
        m = found[0]
        seen.add(m.start)
        whom = _np_whom(m, select, sentence)
        if whom is None:
            continue
        if select and whom.scope is not Scope.ENEMY and m.noun.lower() == "model" and re.match(
                r"(?i)select one\b", sentence[head_start:]):
            whom = attrs.evolve(whom, model=ONE_MODEL)  # "select one friendly X model"
        end = m.end
        clause = re.match(r"[^,.;:]*?\bis (?:wholly )?within \d+\"(?: of (?:this|the bearer)"
                          r"[a-z' ]*?)?(?=[,.;:]|$|\s+and\b)", sentence[end:], re.I)
        if clause and not select:
            end += clause.end()
        if whom.scope is Scope.OTHERS and any(
                w.scope is Scope.FRIENDLY and w.keywords == whom.keywords and a < head_start
                for a, _b, w in out):
            # "select a CROSSFIRE unit to shoot, ... select up to two other CROSSFIRE units":
            # other than the unit selected first, not than the bearer (which may be any of them)
            whom = attrs.evolve(whom, scope=Scope.FRIENDLY)
        out.append((head_start, end, attrs.evolve(whom, words=sentence[m.start:end].strip())))
    return sorted(out, key=lambda x: x[0])


#: the keywords of the models making the attacks, named without "friendly" ("an attack made by
#: a PLAGUE LEGIONS model", "each time a KROOT model makes an attack")
_ATTACKER_KEYWORDS = re.compile(
    r"\b(?:attacks? made by|each time) an? (?P<kw>(?:[A-Z][A-Z'\-]+ ){1,4}?)models? "
    r"(?:makes? an? (?:[a-z]+ )?attack|is allocated|targets)\b")
#: when the attacks are made ("each time this model's unit is selected to fight"): a subject
#: only when the effect names none ("..., add 1 to the Attacks characteristic of this model's
#: Master-Crafted Power Weapon": the model's, not its unit's)
_TRIGGER = re.compile(r"\beach time (?P<s>[^,.;:]{1,80}?) (?:shoots|fights|is selected to "
                      r"(?:shoot|fight)|targets)\b", re.I)
#: a sentence's subject: who makes the attacks it changes
_SUBJECT_ATTACK = [
    re.compile(r"\b(?:each time|when|whenever) (?P<s>(?:(?!each time)[^.;:]){1,120}?) "
               r"(?:makes?|made) an? (?:[a-z]+ )?attacks?", re.I),
    # (not "CHARACTER models were destroyed as a result of attacks made by this model": a
    # condition on what the model did, the effect's weapons are named after it)
    re.compile(r"(?<!a result of )\battacks? made by (?P<s>[^,.;:]{1,80}?)(?= that| with| "
               r"against| have| has| targeting|,|\.|$)", re.I),
    re.compile(r"\b(?:weapons?|attacks)(?: equipped by| of) (?P<s>(?:the |a |an |this |that |"
               r"those |models? |units? |friendly |[a-z' ,\-]+ (?:models?|units?) )[^.;:]{0,80}?)"
               r"(?= ha(?:ve|s)\b| gains?\b| to have\b|"
               r" by \d| while\b| is\b| are\b| against\b| in (?:the|your)\b|,|\.|$|"
               # "... equipped by the model and those weapons have ...": a clause of its own
               r" and (?:those|these|that|its|it)\b)",
               re.I),
    re.compile(r"\bweapons (?:equipped )?(?:in|of) (?P<s>(?:this|that|the bearer's|this model's) "
               r"(?:[a-z' \-]{1,30} )?units?)\b", re.I),
    re.compile(r"\b(?P<s>(?:this|that|the bearer|its|their|those)(?: [a-z\-]+){0,3}?)'s? "
               r"(?:[a-z\-]+ ){0,3}?(?:weapons?|attacks|profiles?)\b", re.I),
    _TRIGGER,
    # "you can target the bearer's unit with the Fire Overwatch Stratagem": who shoots
    re.compile(r"\btarget (?P<s>(?:this|the bearer's|this model's) (?:unit|model)) with the "
               r"(?:fire )?overwatch stratagem\b", re.I),
    # "(While a unit is suppressed, it has -1 to hit rolls.)": "it" is the unit brought in
    re.compile(r"(?:^|[,(]\s*)(?P<s>[^,.;:()]{1,120}?) (?:has|have|gets?) [+-]\d to "
               r"(?:the |their )?(?:hit|wound) rolls?\b", re.I),
]
#: who is attacked
_SUBJECT_DEFEND = [
    re.compile(r"\b(?P<s>[^,.;:]{1,80}?) (?:cannot|can't|does not|do not) (?:have|gain|receive) "
               r"the benefit of cover", re.I),
    re.compile(r"\battacks? (?:that )?(?:targets?|is allocated to|is made against|are allocated "
               r"to|against) (?P<s>[^,.;:]{1,80}?)(?=,|\.|$| if\b| while\b| and\b| that\b| with\b|"
               r" in\b|"
               r" is\b| subtract| worsen| models? in)", re.I),
    re.compile(r"\b(?P<s>[^,.;:]{1,80}?) (?:has|have|gains?|gets?) (?:an? \d\+ invulnerable|"
               r"the feel no pain|feel no pain|an invulnerable|the stealth|stealth|the benefit of "
               r"cover|an? \d\+ feel|a feel no pain|a \d\+\+? invulnerable)", re.I),
    re.compile(r"\beach time (?P<s>[^,.;:]{1,80}?) would lose a wound", re.I),
    re.compile(r"\ballocated to (?P<s>[^,.;:]{1,80}?)(?=,|\.|$| if\b| while\b)", re.I),
    re.compile(r"\beach time an? enemy [^,.;:]*?\btargets (?P<s>(?:this|the bearer|that)[^,.;:]"
               r"{0,40}?)(?=,|\.|$| with\b| subtract| worsen)", re.I),
]
_SELF_UNIT = re.compile(
    r"\b(?:this|the bearer's|this model's|this psyker's|your|this character's) units?\b|"
    r"\b(?:in|within) (?:this|the bearer's) unit\b|^this units?\b|^models in (?:this|it)\b")
_SELF_MODEL = re.compile(
    r"\b(?:this|the bearer|the bearer's|this model's) (?:model|fortification|vehicle|transport|"
    r"titan|walker|monster|character|psyker)\b|\bthe bearer\b|^(?:it|its)$|^(?:this|the) model$")
_REF = re.compile(
    r"^(?:(?:and |then )?(?:each )?(?:a |the |all )?(?:models? |\w+ models? )?(?:in |within |of )?"
    r")?(?:that|those|the selected|such a|such|one of those|the targeted|it\b|its\b|them\b)",
    re.I)
_TERRAIN = re.compile(r"\b(?:this|that) (?:terrain feature|fortification|ruins?|crater|"
                      r"barricade|obstacle|woods)\b|\bbecause of this\b", re.I)


#: a model on a Fortification (or in its cover): "while such a model is on the platform section
#: of this Fortification", "while an INFANTRY model has the Benefit of Cover as a result of this
#: FORTIFICATION": the units it holds, never the Fortification itself
_ON_FORTIFICATION = re.compile(
    r"\b(?:is|are) (?:on|on top of|within|in|behind) (?:[\w'\- ]{0,40}? (?:of|on) )?this "
    r"(?:fortification|terrain feature)\b|\b(?:is|are) on this platform\b|"
    r"\bas a result of this (?:fortification|terrain feature)\b", re.I)


def _on_fortification(sentence: str, history: tuple[Whom, ...]) -> Whom | None:
    """The friendly units a Fortification's rule is for, when it is for the models on it (or in
    its cover): other friendly units of the keywords the text names ("an INFANTRY model";
    "such a model": the friendly units named before), None when the sentence says no such
    thing."""
    m = _ON_FORTIFICATION.search(sentence)
    before = [n for n in _nps(sentence) if n.end <= m.start()] if m else []
    if m is None or not before:
        return None
    np = before[-1]
    start = np.start
    such = re.search(r"\bsuch\s+$", sentence[:start], re.I)
    keywords: tuple[str, ...] = _keyword_phrases(np.kw) if np.kw.strip() else ()
    if such and not keywords:  # "such a model": each friendly unit named before
        named = [w for w in history if w.scope in (Scope.FRIENDLY, Scope.OTHERS)]
        keywords = () if any(not w.keywords for w in named) else tuple(
            dict.fromkeys(k for w in named for k in w.keywords))
        start = such.start()
    return Whom(Scope.OTHERS, keywords, words=sentence[start:m.end()].strip())


def _named_model(cased: str) -> str:
    """A model of the unit named by name ("A Warlock", "Celestine", "the Avatar of Khaine"),
    "" when the phrase names none."""
    m = re.match(r"^(?:(?i:an?|the) )?((?:[A-Z][\w'’\-]*(?: (?:of|the) | ))*[A-Z][\w'’\-]*)"
                 r"(?: models?)?$", cased.strip())
    if not m or re.sub(r"\b(?:and|or|of|the)\b", "", m.group(1)).isupper():
        return ""  # keywords of some models, not a model's name
    name = m.group(1)
    return "" if name.lower().split()[0] in ("each", "this", "that", "while", "models",
                                               "when", "if", "until") else name


def _classify(cased: str, ref: Whom | None, leading: bool, sentence: str) -> Whom | None:
    """The beneficiary a subject phrase names; None when it names none the translator reads
    ("a model", "an attack")."""
    low = cased.lower().strip()
    low = re.sub(r"^(?:and|then|until the end of the \w+|that attack|if it does)\s+", "", low)
    if re.search(r"\benem(?:y|ies)\b", low):
        return Whom(Scope.ENEMY, words=cased.strip())
    if "disembarked from this" in low:
        return Whom(Scope.OTHERS, words=cased.strip())
    for m in _nps(cased):
        if re.search(r"\b(?:friendly|friending|other)\b", m.adj, re.I) or m.tail:
            found = _np_whom(m, False, sentence)
            if found is not None:
                return attrs.evolve(found, words=cased.strip())
    if re.match(r"^(?:such an? (?:attack|unit)|that attack|those attacks|such (?:attacks|units))"
                r"\b", low):
        return None  # the attack the sentence before made: its whom
    if ref is not None and re.match(r"^(?:[a-z' \-]+ )?models? in that unit$", low):
        return ref  # "KASTELAN ROBOT models in that unit": the unit brought in before
    if _REF.match(low):
        if ref is not None:
            return ref
        if leading:
            return Whom(Scope.LED)
        chosen = re.match(r"^(?:the|that) selected ((?:[A-Z][A-Z'\-]+ ?)+)", cased.strip())
        if chosen:  # "the selected VEHICLE": one its other ability selects
            return Whom(Scope.FRIENDLY, _keyword_phrases(chosen.group(1)),
                        words=cased.strip())
        return None
    if _SELF_UNIT.search(low):
        kind = re.match(r"^(?:an? )?([a-z][a-z' \-]+?) models? (?:in|within) (?:this|the "
                        r"bearer's)", low)
        if kind and re.search(r"\bModels? (?:in|within)\b", cased):
            kind = None  # "Muted Servomotors Models in this unit ...": a label, then the unit
        model = ""
        if kind and kind.group(1) not in ("the", "all", "each", "every", "other", "a"):
            start = cased.lower().index(kind.group(1))
            model = cased[start:start + len(kind.group(1))]
            keyword = re.sub(r"\b(?:and|or|of|the)\b", "", model).isupper()
            if keyword and model != "CHARACTER":  # other models' keywords: a switch
                model = ""
        return Whom(Scope.UNIT, model=model)
    if _SELF_MODEL.search(low):
        return Whom(Scope.MODEL)
    if re.match(r"^(?:an?|each|every) (?:model|unit|attack)s?$", low):
        return Whom(Scope.TERRAIN, words="models with cover from this terrain feature") \
            if _TERRAIN.search(sentence) else None
    model = _named_model(cased)
    return Whom(Scope.MODEL, model=model) if model else None


def _first_subject(patterns: list[re.Pattern], cased: str, intros: list[tuple[int, int, Whom]],
                   ref: Whom | None, leading: bool, history: tuple[Whom, ...] = (),
                   effect_at: int | None = None
                   ) -> tuple[Whom | None, tuple[int, int] | None]:
    """The subject phrase of these kinds that names a beneficiary, and where it is: of the
    first kind that has one, the last before the effect (``effect_at``), else the first."""
    later: tuple[Whom, tuple[int, int]] | None = None
    for pattern in patterns:
        before: tuple[Whom, tuple[int, int]] | None = None
        for m in pattern.finditer(cased):
            phrase, (a, _b) = m.group("s"), m.span("s")
            # the subject ends where its verb or a condition begins
            head = re.split(r" (?:targets?|is allocated|is selected|makes?|made|ha(?:s|ve)|ends?|"
                            r"declares?|is|are|for every|for each|while|if|until|and (?:those|"
                            r"these|that|its?) (?:weapons?|attacks?)|and (?:add|subtract|"
                            r"improve|worsen))\b", phrase,
                            maxsplit=1)[0]
            here = ref
            for start, _end, whom in intros:
                if start <= a:
                    here = whom
            here = _matching_intro(head, intros, a, history) or here
            if re.match(r"^\s*(?:it|its)\b", head, re.I):  # "..., it has": this model / unit
                own = re.findall(r"\b(this model|the bearer|this unit)\b", cased[:a], re.I)
                if own:
                    here = Whom(Scope.UNIT if own[-1].lower() == "this unit" else Scope.MODEL)
            found = _classify(head, here, leading, cased)
            if found is None:
                continue
            if effect_at is None or a < effect_at:
                before = (found, (a, a + len(head)))
                if effect_at is None:
                    break
            elif later is None:
                later = (found, (a, a + len(head)))
        if before is not None:
            return later if pattern is _TRIGGER and later is not None else before
    return later if later is not None else (None, None)


def _effect_at(low: str) -> int:
    """Where the first effect wording of a sentence begins."""
    found = [m.start() for pattern, _make in _EFFECTS for m in [pattern.search(low)] if m]
    found += [m.start() for m in [_GRANT.search(low)] if m]
    return min(found, default=len(low))


def _matching_intro(head: str, intros: list[tuple[int, int, Whom]], before: int,
                    history: tuple[Whom, ...] = ()) -> Whom | None:
    """The unit brought in that a reference with keywords means ("that WAR DOG model", "one of
    the selected CROSSFIRE units"): the last one before it with one of those keywords."""
    if not _REF.match(head.lower().strip()):
        return None
    words = {w.upper() for w in re.findall(r"[A-Za-z'\-]+", head)} - {
        "THAT", "THOSE", "THE", "SELECTED", "ONE", "OF", "UNIT", "UNITS", "MODEL", "MODELS",
        "IN", "A", "ENEMY", "FRIENDLY", "SUCH", "IT", "ITS", "EACH", "ALL"}
    if not words:
        return None
    earlier = [w for start, _end, w in intros if start < before]
    for whom in reversed((*history, *earlier)):
        if words & {w for k in whom.keywords for w in k.split()}:
            return whom
    return None


def _subject(low: str, cased: str, defending: bool, intros: list[tuple[int, int, Whom]],
             ref: Whom | None, leading: bool, history: tuple[Whom, ...] = (),
             prior: Whom | None = None, prior_side: str = ""
             ) -> tuple[Whom | None, str, tuple[int, int] | None]:
    """Whom one sentence changes, on which side, and where its subject is (left out when
    looking for conditions). An attack that targets an enemy unit is the friendly side's
    (Death Hex: "each time an attack targets that enemy unit"); an enemy's attack is a debuff,
    the defender's (the bearer's side's), unless it names the friendly unit it targets."""
    side = "defender" if defending else "attacker"
    effect_at = _effect_at(low)
    attacking, a_span = _first_subject(_SUBJECT_ATTACK, cased, intros, ref, leading, history,
                                       effect_at)
    defended, d_span = _first_subject(_SUBJECT_DEFEND, cased, intros, ref, leading, history,
                                      effect_at)
    if attacking is not None and defended is not None and defended == attacking and \
            not attacking.scope.own and d_span and a_span and d_span[0] > a_span[0]:
        # "each time an X unit from your army makes an attack against that unit": that unit is
        # the one brought in before, not the attacker
        others = [(a, b, w) for a, b, w in intros if w != attacking]
        earlier = tuple(w for w in history if w != attacking)
        defended, d_span = _first_subject(_SUBJECT_DEFEND, cased, others,
                                          earlier[-1] if earlier else None, leading, earlier,
                                          effect_at)
    if attacking is not None and attacking.scope is Scope.ENEMY and defended is not None and \
            defended.scope is Scope.ENEMY:  # "one of those units" is not the enemy attacking
        friendly = [(a, b, w) for a, b, w in intros if w.scope is not Scope.ENEMY]
        before = tuple(w for w in history if w.scope is not Scope.ENEMY)
        defended, d_span = _first_subject(_SUBJECT_DEFEND, cased, friendly,
                                          before[-1] if before else None, leading, before,
                                          effect_at)
        if defended is not None and defended.scope is Scope.ENEMY:
            defended = None
    if defended is not None and defended.scope is Scope.ENEMY:
        # the enemy is the target: the attacks are the friendly side's
        if attacking is not None and attacking.scope is not Scope.ENEMY:
            return attacking, "attacker", a_span
        if _SAME_ATTACK.search(low) and prior is not None and prior.scope is not Scope.ENEMY:
            return prior, "attacker", None  # "if such an attack targets an enemy unit..."
        # "each time an attack made by a PLAGUE LEGIONS model is allocated to a model in that
        # unit": friendly units of those keywords
        kws = _ATTACKER_KEYWORDS.search(cased)
        return Whom(Scope.FRIENDLY, _keyword_phrases(kws.group("kw")) if kws else (),
                    words="friendly units attacking " + defended.words), "attacker", None
    if attacking is not None and attacking.scope is Scope.ENEMY:
        if defended is not None:  # "each time an enemy unit ... targets this model"
            return defended, "defender", d_span
        return attacking, "defender", a_span
    if defending and defended is None and attacking is not None:
        return attacking, "attacker", a_span  # "... makes an attack against that unit"
    if attacking is None and defended is None and prior is not None and (
            _SAME_ATTACK.search(low) or re.match(r"(?:this|that|its) (?:invulnerable save|"
                                                  r"ability)\b", low)):
        # "If that attack targets a unit within 9\", ... as well"; after "each time an attack
        # targets this model, ...", "If that attack was made by ..., subtract 1 from the Wound
        # roll as well" is that attack's, against the bearer
        return prior, "defender" if prior_side == "defender" else side, None
    if attacking is None and defended is None and prior is None and intros and \
            intros[-1][2].scope is not Scope.ENEMY and re.search(r"\b(?:those|that) attacks?\b",
                                                                  low):
        # "When a friendly PALADIN SQUAD unit is selected to fight, if the S of those attacks
        # is lower ..., those attacks have +1 to wound rolls": the attacks of the unit brought in
        return intros[-1][2], side, None
    if defending:
        return defended or attacking, side, d_span if defended else a_span
    return attacking or defended, side, a_span if attacking else d_span


# -- structured effects (wh40kdc's ability DSL) ------------------------------------------------
#
# The 40kdc data (the ``wh40kdc`` package, an optional extra) holds no rule text: each rule is a
# tree of effects and conditions. Its English rendering is kept as the rule's text (what a
# player reads), but the effects are read from the tree: the rendering drops whose
# characteristic a change is ("subtract 1 from the unit's Armour Penetration characteristic"
# for the attacks against the unit). The tree's wordings map onto the same effect fields and
# conditions as the text's; what changes an attack and maps onto none is named.

#: the unit the rule is used on, and the enemy unit it is used against (whose attacks on the
#: unit it then changes)
_DSL_OWN = ("unit", "self", "bearer")
_DSL_ENEMY = ("attacker", "target")
_DSL_ROLL = {"hit": "hit_mod", "wound": "wound_mod"}
_DSL_STAT = {"A": "attacks_mod", "S": "strength_mod", "D": "damage_mod", "AP": "ap_mod",
             "BS": "skill_mod", "WS": "skill_mod"}
#: a characteristic where a lower number is better (AP -2 beats AP -1, BS 2+ beats 3+)
_DSL_LOWER_BETTER = ("AP", "BS", "WS")
_DSL_REROLL = {"ones": "ones", "all-failures": "failed"}
#: effects that change an attack and are not modelled, with the reason said
_DSL_NOT_MODELLED = {
    "mortal-wounds": "mortal wounds outside the attack's rolls",
    "modifier-immunity": "ignores modifiers",
    "bs-modifier": "changes the Ballistic Skill of units in an aura",
}
#: Feel No Pain against some attacks only, as the tree scopes it
_DSL_FNP_SCOPE = {"mortal": ("fnp_mortal",), "psychic": ("fnp_psychic",),
                  "psychic-and-mortal": ("fnp_psychic", "fnp_mortal")}
#: a part of a rule: (side, changes, conditions the engine checks, what it cannot check)
_Part = tuple[str, tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...], str]


def _dsl_value(raw: Any) -> int | None:
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else None


def _dsl_attack(mod: dict[str, Any]) -> dict[str, Any]:
    """The conditions a modifier's own fields set: ranged or melee weapons, weapons with an
    ability."""
    cond: dict[str, Any] = {}
    kind = mod.get("weapon_type") or mod.get("attack_type")
    if kind in ("ranged", "melee"):
        cond["attack"] = kind
    if mod.get("weapon_keyword"):
        try:
            cond["weapon_ability"] = canonical(str(mod["weapon_keyword"]))
        except (InputError, ValueError):
            cond["weapon_ability"] = str(mod["weapon_keyword"]).lower()
    return cond


def _dsl_leaf(node: dict[str, Any], reasons: list[str], penalties_defend: bool = False
              ) -> tuple[str, list[tuple[str, Any]], dict[str, Any]] | None:
    """One effect of the tree: (side, changes, conditions), None when it changes no attack
    (or is not modelled: then ``reasons`` says why). ``penalties_defend``: a -1 to the unit's
    own Hit or Wound rolls is read as one to the attacks against it (a stratagem's: the data
    does not always mark it as incoming, and no player pays CP to hit worse), and a change of
    its own attacks' AP, "add 1" or "add -1", improves it (no player pays CP for a worse AP)."""
    kind, target = node.get("type"), node.get("target")
    mod = node.get("modifier") if isinstance(node.get("modifier"), dict) else {}
    incoming = bool(mod.get("incoming"))
    enemy = target in _DSL_ENEMY
    side = "defender" if incoming or enemy else "attacker"
    if kind == "dice-gated":  # a roll, then an effect: mortal wounds, in the data
        found: list[str] = []
        _dsl_leaf(node.get("on_success") or {}, found)
        reasons.extend(found)
        return None
    if kind == "rule-state" and mod.get("rule") == "benefit-of-cover" and \
            mod.get("direction") == "suppressed" and target == "all-enemy":
        return "attacker", [("abilities", ("ignores cover",))], {}  # no enemy has cover
    if target not in _DSL_OWN + _DSL_ENEMY:
        if kind in ("roll-modifier", "re-roll", "stat-modifier", "keyword-grant",
                    "feel-no-pain", "invulnerable-save", "damage-reduction") and \
                (mod.get("roll") in _DSL_ROLL or mod.get("stat") in _DSL_STAT or
                 kind not in ("roll-modifier", "re-roll", "stat-modifier")):
            reasons.append("changes the attacks of other units (an aura or every enemy)")
        elif kind in _DSL_NOT_MODELLED:
            reasons.append(_DSL_NOT_MODELLED[kind])
        return None
    cond = _dsl_attack(mod)
    value = _dsl_value(mod.get("value"))
    if kind == "roll-modifier":
        roll, op = mod.get("roll"), mod.get("operation")
        if roll == "save" and op in ("add", "subtract") and value and not enemy:
            return "defender", [("save_mod", value if op == "add" else -value)], cond
        if roll == "hit" and op == "crit-on" and value and not enemy:
            return side, [("crit_hit", value)], cond
        if roll in _DSL_ROLL and op in ("add", "subtract") and value:
            if op == "subtract" and penalties_defend:
                side = "defender"  # a stratagem's -1 to its own unit's rolls: the attacks on it
            if mod.get("applies_when") == "attacker-strength-greater-than-target-toughness":
                if roll == "wound" and op == "subtract" and side == "defender":
                    return side, [("wound_mod_if_stronger", -value)], cond
                reasons.append("a Hit or Wound roll rule")
                return None
            return side, [(_DSL_ROLL[roll], value if op == "add" else -value)], cond
        if op == "ignore-modifiers" and (roll in ("any", "hit", "wound") or "Hit" in str(roll)):
            reasons.append("ignores modifiers")
        elif roll in ("any", "save", "damage") or roll in _DSL_ROLL:
            reasons.append("changes a roll in a way mathhammer does not model")
        return None
    if kind == "re-roll":
        roll = mod.get("roll")
        if roll in _DSL_ROLL and not enemy:
            how = _DSL_REROLL.get(mod.get("subset") or "all-failures", "failed")
            return "attacker", [(f"reroll_{roll}s", how)], cond
        if roll == "damage" and not enemy:  # mechanics: "re-roll the Damage roll"
            if mod.get("vs_keywords"):
                cond["target_keywords"] = tuple(str(k).upper() for k in mod["vs_keywords"])
            return "attacker", [("reroll_damage", "ones" if mod.get("subset") == "ones"
                                 else "any")], cond
        if roll == "damage":
            reasons.append("re-rolls a Damage roll")
        elif roll in ("any", "save") or roll in _DSL_ROLL:
            reasons.append("re-rolls one roll of any kind" if roll == "any" else
                           "re-rolls a saving throw" if roll == "save" else
                           "re-rolls the enemy's rolls")
        return None
    if kind == "stat-modifier":
        stat, op = mod.get("stat"), mod.get("operation")
        if stat in ("T", "Sv", "W"):
            reasons.append("changes the unit's own characteristics")
            return None
        if stat not in _DSL_STAT:
            return None
        if op == "set" or value is None or op not in ("add", "subtract", "improve", "worsen"):
            reasons.append("sets a characteristic" if op == "set" else
                           "changes a characteristic by a dice roll")
            return None
        if mod.get("weapon") or mod.get("weapon_name"):  # (Cosmic Storm's Tesla Sphere)
            reasons.append("changes one named weapon only")
            return None
        better = value if op in ("add", "improve") else -value
        if stat in _DSL_LOWER_BETTER and op in ("add", "subtract"):
            better = -better  # add 1 to AP -2 (or to BS 3+) makes it worse
            if stat == "AP" and penalties_defend and side == "attacker":
                better = abs(better)  # a stratagem for its own attacks: the data's sign slips
        return side, [(_DSL_STAT[stat], better)], cond
    if kind == "keyword-grant":
        if enemy or mod.get("weapon"):
            reasons.append("grants an ability to one named weapon only" if mod.get("weapon")
                           else "grants the enemy an ability")
            return None
        names = mod.get("keywords") or ([mod["keyword"]] if mod.get("keyword") else [])
        own: list[tuple[str, Any]] = []  # the attacks' changes
        weapon: list[str] = []
        extra: list[tuple[str, Any]] = []  # the unit's defence
        for raw in names:
            low = str(raw).lower()
            low = low.replace("-", " ") if " " not in low else low  # "devastating-wounds"
            fnp = re.match(r"feel no pain (\d)\+?$", low)
            crit = re.match(r"critical hits (\d)\+$", low)
            if fnp:
                extra.append(("fnp", int(fnp.group(1))))
            elif crit:
                own.append(("crit_hit", int(crit.group(1))))
            elif low == "stealth":
                extra.append(("target_abilities", ("stealth",)))
            else:
                try:
                    weapon.append(canonical(low))
                except (InputError, ValueError):
                    if low not in _NO_ATTACK_ABILITIES:
                        reasons.append(f"grants {raw}, an ability mathhammer does not know")
        own += [("abilities", tuple(weapon))] if weapon else []
        if extra and not own:
            return "defender", extra, cond
        return ("attacker", own, cond) if own else None
    if kind == "feel-no-pain" and _dsl_value(mod.get("threshold")) and (
            mod.get("scope") in _DSL_FNP_SCOPE or mod.get("against_attack_type") == "psychic"):
        keys = _DSL_FNP_SCOPE.get(mod.get("scope"), ("fnp_psychic",))  # mechanics' Feel No Pain
        return "defender", [(k, mod["threshold"]) for k in keys], cond
    if kind == "feel-no-pain":
        threshold = _dsl_value(mod.get("threshold"))
        if mod.get("scope") or threshold is None:
            reasons.append("Feel No Pain against some attacks only")
            return None
        return "defender", [("fnp", threshold)], cond
    if kind == "invulnerable-save" and _dsl_value(mod.get("invuln_sv")):
        return "defender", [("invuln", (mod["invuln_sv"], cond.pop("attack", None)))], cond
    if kind == "damage-reduction":
        cut = _dsl_value(mod.get("reduction", mod.get("value")))
        if cut is None:
            reasons.append("reduces the Damage to 0")
            return None
        return "defender", [("damage_mod", -cut)], cond
    if kind == "rule-state" and mod.get("rule") == "benefit-of-cover":
        if mod.get("direction") == "granted" and not enemy:
            return "defender", [("cover", True)], cond
        return None
    if kind == "ability-grant" and mod.get("grant_type") == "snap-shooting":
        return "attacker", [("overwatch", True)], {"attack": "ranged"}
    if kind == "ability-grant" and str(mod.get("grant_type")).lower() == "stealth" and \
            not enemy:
        return "defender", [("target_abilities", ("stealth",))], cond
    if kind in _DSL_NOT_MODELLED:
        reasons.append(_DSL_NOT_MODELLED[kind])
    return None


#: abilities a rule can grant that change no number of an attack
_NO_ATTACK_ABILITIES = ("fights first", "lone operative", "deep strike", "infiltrators",
                        "scouts", "deadly demise", "leader", "firing deck")


#: states the data writes as a target's keyword: those the engine checks, and not
_DSL_TARGET_STATES = {"below-starting-strength": "below_starting",
                      "below-half-strength": "below_half"}
_DSL_UNCHECKED_STATES = ("battle-shocked", "designated", "assailed", "hidden", "-or-")


def _dsl_condition(node: dict[str, Any], side: str) -> tuple[dict[str, Any], list[str]]:
    """The conditions the engine checks in a condition tree, and the ones it cannot (said in
    words)."""
    kind, params = node.get("type"), node.get("parameters") or {}
    op = node.get("operator")
    if op == "and":
        cond: dict[str, Any] = {}
        said: list[str] = []
        for operand in node.get("operands") or []:
            c, s = _dsl_condition(operand, side)
            cond.update(c)
            said += s
        return cond, said
    if op == "or" and all(o.get("type") == "target-has-keyword" for o in
                          node.get("operands") or []):
        words = [str(o.get("parameters", {}).get("keyword", "")).upper()
                 for o in node["operands"]]
        return {"target_keywords": tuple(w for w in words if w)}, []
    if op is None and kind == "target-has-keyword" and params.get("keyword") and \
            side == "attacker":
        word = str(params["keyword"])
        if word.lower() in _DSL_TARGET_STATES:
            return {_DSL_TARGET_STATES[word.lower()]: True}, []
        if word.islower() and any(s in word for s in _DSL_UNCHECKED_STATES):
            return {}, [_dsl_said(node)]
        return {"target_keywords": (word.replace("-", " ").upper(),)}, []
    if kind == "attack-is-type" and params.get("attack_type") in ("ranged", "melee"):
        return {"attack": params["attack_type"]}, []
    if kind == "phase-is" and params.get("phase") in ("shooting", "fight"):
        return {"attack": "ranged" if params["phase"] == "shooting" else "melee"}, []
    if kind == "unit-below-starting-strength" and params.get("subject") == "target" and \
            side == "attacker":
        return {"below_starting": True}, []
    if kind == "unit-below-half-strength" and params.get("subject") == "target" and \
            side == "attacker":
        return {"below_half": True}, []
    if kind == "attack-stat-compare" and params.get("attacker_stat") == "S" and \
            params.get("target_stat") == "T" and params.get("comparison") == "greater-than":
        return {"stronger": True}, []
    if kind == "charged-this-turn" and side == "attacker":
        return {"charged": True}, []
    if kind == "remained-stationary" and side == "attacker":
        return {"stationary": True}, []
    return {}, [_dsl_said(node)]


def _dsl_said(node: dict[str, Any]) -> str:
    """A condition the engine cannot check, in words ("not: has fought this phase")."""
    if node.get("operator"):
        inner = ", ".join(_dsl_said(o) for o in node.get("operands") or [])
        return f"{node['operator']}: {inner}" if node["operator"] == "not" else \
            f" {node['operator']} ".join(_dsl_said(o) for o in node.get("operands") or [])
    params = node.get("parameters") or {}
    what = ", ".join(f"{v}" for v in params.values() if isinstance(v, (str, int)))
    return str(node.get("type", "condition")).replace("-", " ") + (f" ({what})" if what else "")


def _dsl_walk(node: Any, reasons: list[str], cond: dict[str, Any], said: str,
              penalties_defend: bool = False) -> list[list[_Part]]:
    """The alternatives (a choice's options) of an effect tree, each a list of parts."""
    if not isinstance(node, dict):
        return [[]]
    kind = node.get("type")
    if kind in ("sequence", "rules-bundle"):
        alternatives: list[list[_Part]] = [[]]
        for step in node.get("steps") or []:
            alternatives = [a + b for a in alternatives
                            for b in _dsl_walk(step, reasons, cond, said, penalties_defend)]
        return alternatives
    if kind == "choice":
        return [a for option in node.get("options") or []
                for a in _dsl_walk(option, reasons, cond, said, penalties_defend)] or [[]]
    if kind == "conditional":
        inner = node.get("effect") or {}
        sides = {p[0] for alt in _dsl_walk(inner, [], {}, "", penalties_defend)
                 for p in alt} or {"attacker"}
        more, words = _dsl_condition(node.get("condition") or {}, sides.pop())
        clash = any(k in cond and cond[k] != v for k, v in more.items())
        both = "; ".join(w for w in (said, *words) if w) + ("; and conditions that clash"
                                                            if clash else "")
        return _dsl_walk(inner, reasons, cond | more, both, penalties_defend)
    leaf = _dsl_leaf(node, reasons, penalties_defend)
    if leaf is None:
        return [[]]
    side, changes, own = leaf
    both = cond | own
    if both.pop("stronger", None):  # "if the attack's Strength is greater than the Toughness"
        if side == "defender" and changes == [("wound_mod", -1)]:
            changes = [("wound_mod_if_stronger", -1)]
        else:
            said = "; ".join(w for w in (said, "the attack's Strength is greater than the "
                                         "target's Toughness") if w)
    return [[(side, tuple(changes), tuple(both.items()), said)]]


def translate_effect(name: str, effect: dict[str, Any], text: str, where: str = "", *,
                     faction: str = "", kind: str = "stratagem", detachment: str | None = None,
                     cp: int | None = None, attack: str | None = None,
                     assumes: str = "") -> tuple[DataRule, ...]:
    """The named rules of one rule given as an effect tree (the 40kdc ability DSL), each a
    switch (``assumes``: what switching it on asserts): one per option of a choice and per
    condition the engine cannot check; ``attack`` gates it to ranged or melee attacks (the
    phase it is used in). ``()`` when it changes no attack.

    >>> tree = {"type": "sequence", "steps": [
    ...     {"type": "keyword-grant", "target": "unit",
    ...      "modifier": {"keywords": ["Ignores Cover"], "weapon_type": "ranged"}},
    ...     {"type": "conditional", "condition": {"type": "faction-rule-active",
    ...      "parameters": {"rule": "devastator-doctrine"}}, "effect": {"type": "stat-modifier",
    ...      "target": "unit", "modifier": {"stat": "AP", "operation": "add", "value": -1}}}]}
    >>> for r in translate_effect("Storm of Fire", tree, "...", attack="ranged"):
    ...     print(r.rule.name, "|", r.rule.describe(), sep="\\n")
    Storm of Fire
    |
    ranged attacks: abilities=[ignores cover]
    Storm of Fire (if faction rule active (devastator-doctrine))
    |
    ranged attacks: abilities=[ignores cover]; ap_mod=+1
    >>> translate_effect("Grenade", {"type": "mortal-wounds", "target": "target",
    ...                  "modifier": {"count": 1}}, "...")[0].rule.not_modelled
    "mortal wounds outside the attack's rolls"
    """
    reasons: list[str] = []
    alternatives = [alt for alt in _dsl_walk(effect, reasons, {}, "",
                                             kind == "stratagem") if alt]
    base = {"faction": faction, "kind": kind, "text": text.strip(), "source": where,
            "detachment": detachment, "cp": cp}
    requires = Conditions(attack=attack)
    rules: list[tuple[str, str, str, tuple[Effect, ...]]] = []  # side, suffix, said, effects
    for alt in alternatives:
        plain = [p for p in alt if not p[3]]
        saids = list(dict.fromkeys(p[3] for p in alt if p[3]))
        # a condition over the whole rule is said in ``assumes``; one over some of its parts
        # makes a variant with those parts (named after it)
        variants = [("", "", plain)] if plain else []
        variants += [("" if not plain and len(saids) == 1 else said, said,
                      plain + [p for p in alt if p[3] == said]) for said in saids]
        for suffix, said, parts in variants:
            for side in dict.fromkeys(p[0] for p in parts):
                # the phase's attack kind is the rule's condition, not each clause's again
                effects = tuple(_effect(list(changes), {k: v for k, v in cond
                                                        if (k, v) != ("attack", attack)})
                                for s, changes, cond, _ in parts if s == side)
                rules.append((side, suffix, said,
                              tuple(e for group in effects for e in group)))
    out: list[DataRule] = []
    several = len(alternatives) > 1
    for i, (side, suffix, said, effects) in enumerate(rules, 1):
        label = name
        if several:
            label = f"{name} ({i})"
        elif suffix:
            label = f"{name} (if {suffix})"
        elif side == "defender" and any(r[0] == "attacker" for r in rules):
            label = f"{name} (when attacked)"
        asserted = "; ".join(w for w in (assumes, said) if w) or "the rule is in effect"
        out.append(DataRule(NamedRule(label, side=side, effects=effects, requires=requires,
                                      assumes=asserted, **base)))
    if reasons:
        out.append(DataRule(NamedRule(f"{name} (rest)" if out else name,
                                      side=out[0].rule.side if out else "attacker",
                                      not_modelled="; ".join(dict.fromkeys(reasons)), **base)))
    from .guard import guarded  # the effect tree's own reading: only its keywords are checked

    return guarded(tuple(out), normalize(text), ("state keyword",))


# -- coverage ----------------------------------------------------------------------------------


def coverage(abilities: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """How many of these (name, text) abilities change an attack, how many of those are
    applied (every part that changes an attack is modelled, automatically or as a switch, for
    the beneficiary the text names: a rule for other units counts when it is offered to them),
    how many wholly automatically, how many in part, the applied ones by beneficiary (each
    ability under each beneficiary its parts name), and the not-modelled ones by name.

    >>> c = coverage([("A", "Each time a model in this unit makes an attack, add 1 to the Hit "
    ...                "roll."), ("B", "You can re-roll one Damage roll."), ("C", "Gain 1CP.")])
    >>> c["attack_relevant"], c["applied"], c["automatic"], c["by_beneficiary"], c["not_modelled"]
    (2, 1, 1, {'unit': 1}, {'B': 1})
    """
    relevant = applied = automatic = partly = 0
    missing: Counter[str] = Counter()
    whom: Counter[str] = Counter()
    for name, text in abilities:
        if not is_attack_relevant(text) or _is_weapon_ability(name):
            continue  # changes no attack, or defines a weapon ability (the engine's own)
        relevant += 1
        parts = translate(name, text)
        if parts and all(p.rule.usable for p in parts):
            applied += 1
            automatic += all(p.automatic for p in parts)
            whom.update({p.scope.value for p in parts})
        else:
            partly += any(p.rule.usable for p in parts)
            missing[name.strip()] += 1
    return {"attack_relevant": relevant, "applied": applied, "automatic": automatic,
            "partly": partly, "by_beneficiary": dict(whom.most_common()),
            "not_modelled": dict(missing.most_common())}


def not_modelled_reasons(abilities: Iterable[tuple[str, str]]) -> dict[str, int]:
    """The reasons the attack-relevant abilities are not modelled, with how many each."""
    reasons: Counter[str] = Counter()
    for name, text in abilities:
        for part in translate(name, text):
            if part.rule.not_modelled:
                for reason in part.rule.not_modelled.split("; "):
                    reasons[reason] += 1
    return dict(reasons.most_common())


__all__ = [
    "DataRule", "Scope", "coverage", "is_attack_relevant", "normalize", "not_modelled_reasons",
    "rules_text", "translate", "translate_effect",
]
