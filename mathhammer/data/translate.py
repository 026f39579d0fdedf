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

from ..cache import cached
from ..errors import InputError
from ..model.abilities import canonical
from ..model.named import Conditions, Effect, NamedRule


class Scope(StrEnum):
    """Whose attacks (or defence) an ability changes."""

    #: the unit's own attacks, or attacks against the unit
    UNIT = "unit"
    #: one model's (the bearer's) own attacks, or attacks allocated to it
    MODEL = "model"
    #: while this model is leading a unit: that unit
    LED = "led unit"


@attrs.frozen
class DataRule:
    """One translated part of an ability: the named rule and whose attacks it changes."""

    rule: NamedRule
    scope: Scope = Scope.UNIT

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
    r"re-roll (?:the |a )?damage|\bdamage roll"
)


def normalize(text: str) -> str:
    """Ability text without its markup, keywords (``^^Monster^^``) in capitals.

    >>> normalize("**^^Monster^^** units ’have’ ■ re‑roll")
    "MONSTER units 'have' . re-roll"
    """
    t = re.sub(r"\^\^\**(.+?)\**\^\^", lambda m: m.group(1).upper(), text)
    t = t.replace("**", "").replace("^^", "").replace("’", "'").replace("‘", "'")
    t = re.sub(r"[‐‑‒–—]", "-", t)
    t = re.sub(r"[■•●▪]|(?:^|\n)\s*[-–]\s+", ". ", t)
    t = re.sub(r"\]\]+", "]", re.sub(r"\[\[+", "[", t))
    t = re.sub(r"re-?roll", "re-roll", t, flags=re.I)
    return " ".join(t.split())


def is_attack_relevant(text: str) -> bool:
    """Whether an ability's text changes a roll or characteristic of an attack (the ones the
    coverage counts).

    >>> is_attack_relevant("Add 1 to the Hit roll."), is_attack_relevant("Gain 1CP.")
    (True, False)
    """
    return bool(_RELEVANT.search(normalize(text).lower()))


def _sentences(text: str) -> list[str]:
    """Sentences; a sentence ending in ':' is the head of the bullets that follow (each
    bullet is read with it)."""
    parts = [p.strip() for p in re.split(r"(?<=[.:;])\s+(?=[A-Z.(\[])|(?<!\s)\s*\.\s*\.\s*", text)]
    out, head = [], ""
    for p in parts:
        p = p.strip(" .")
        if not p:
            continue
        if p.endswith(":"):  # "...attacks have:" takes its bullets as objects
            head = p[:-1] + (" " if re.search(r"\b(?:have|has)$", p[:-1]) else ", ")
            continue
        out.append(head + p)
    return out


_ADD = r"(add|subtract) (\d) (?:to|from) "
_ROLL = r"(?:the |that attack's |an? |its )?"
_EFFECTS: list[tuple[re.Pattern, Any]] = [
    # before the plain Wound roll modifier, which would read its end
    (re.compile(r"if the strength characteristic of that attack is greater than [^.]*?"
                r"toughness characteristic, subtract 1 from (?:that attack's |the )?wound roll"),
     lambda m: [("wound_mod_if_stronger", -1)]),
    (re.compile(_ADD + _ROLL + r"hit roll and (?:the |that attack's )?wound roll"),
     lambda m: [("hit_mod", _sign(m)), ("wound_mod", _sign(m))]),
    (re.compile(_ADD + _ROLL + r"hit rolls?"), lambda m: [("hit_mod", _sign(m))]),
    (re.compile(_ADD + _ROLL + r"wound rolls?"), lambda m: [("wound_mod", _sign(m))]),
    (re.compile(r"re-roll (?:a |the |that )?hit rolls? (?:of )?1\b"),
     lambda m: [("reroll_hits", "ones")]),
    (re.compile(r"re-roll (?:a |the |that )?hit rolls?(?! (?:of )?1\b)(?: and (?:the |a )?"
                r"wound rolls?(?! (?:of )?1\b))?"),
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
    (re.compile(r"(improve|worsen) the ((?:attacks|strength|armour penetration|damage)(?:(?:, |"
                r" and |, and )(?:attacks|strength|armour penetration|damage))*) "
                r"(?:characteristics? )?of [^.]*?by (\d)"),
     lambda m: [(_CHAR[c], int(m.group(3)) * (1 if m.group(1) == "improve" else -1))
                for c in re.split(r",? and |, ", m.group(2))]),
    (re.compile(r"ha(?:ve|s) ([+-]\d) to (?:the |their )?hit rolls?"),
     lambda m: [("hit_mod", int(m.group(1)))]),
    (re.compile(r"ha(?:ve|s) ([+-]\d) to (?:the |their )?wound rolls?"),
     lambda m: [("wound_mod", int(m.group(1)))]),
    (re.compile(r"hits are scored on unmodified hit rolls of (\d)\+"),
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
    (re.compile(r"(\d)\+ invulnerable save(?: against (ranged|melee) attacks)?"),
     lambda m: [("invuln", (int(m.group(1)), m.group(2)))]),
    (re.compile(r"invulnerable save of (\d)\+(?: against (ranged|melee) attacks)?"),
     lambda m: [("invuln", (int(m.group(1)), m.group(2)))]),
    (re.compile(r"(?<!not )ha(?:ve|s) the (?:[a-z\" ]+(?:,|and) )*stealth(?: and [a-z\" ]+)? "
                r"abilit"),
     lambda m: [("target_abilities", ("stealth",))]),
    (re.compile(r"(?<!not )ha(?:ve|s) the benefit of cover"), lambda m: [("cover", True)]),
]
_CHAR = {"attacks": "attacks_mod", "strength": "strength_mod", "damage": "damage_mod",
         "armour penetration": "ap_mod"}
_DEFENSIVE = ("fnp", "invuln", "target_abilities", "cover", "wound_mod_if_stronger")
#: granted weapon abilities: "have the [LETHAL HITS] and [PRECISION] abilities"
_GRANT = re.compile(r"(?<!not )(?:ha(?:ve|s)|gains?)(?: the)? "
                    r"((?:\[[^\]]+\](?:,? (?:and|or) |, )?)+)(?:\s*abilit\w*)?")
#: wordings that change an attack and are not modelled, with the reason said
_NOT_MODELLED = [
    (re.compile(r"attacks characteristic"), "changes the Attacks characteristic"),
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
    (re.compile(r"characteristic of [^.]* to \d"), "sets a characteristic"),
    (re.compile(r"critical (?:hit|wound)"), "a Critical Hit or Wound rule"),
    (re.compile(r"hit roll|wound roll"), "a Hit or Wound roll rule"),
    (re.compile(r"toughness|save characteristic|wounds characteristic"),
     "changes the unit's own characteristics"),
]


def _sign(m: re.Match) -> int:
    return int(m.group(2)) * (1 if m.group(1) == "add" else -1)


# conditions the engine checks: (pattern, condition key, value)
_ATTACK_KIND = [
    (re.compile(r"\branged (?:attack|weapon)|shooting phase|selected to shoot|\bshoots?\b"),
     "ranged"),
    (re.compile(r"\bmelee (?:attack|weapon)|fight phase|selected to fight|\bfights?\b"), "melee"),
]
_CHECKED = [
    (re.compile(r",? ?(?:that|which) targets? (?:a|an|the|that) (?:enemy )?unit within half "
                r"range|within half range(?: of (?:that|the) (?:attack|weapon)|)"), "half_range",
     True),
    (re.compile(r",? ?if (?:this|that|the bearer's) unit made a charge move this turn|"
                r"in a turn in which (?:it|this unit|the bearer) (?:made a charge move|charged)|"
                r"if (?:it|this unit) charged this turn|"
                # "each time this unit makes a Charge move, until the end of the turn, ...": the
                # rest of that turn is the turn it charged in
                r"each time (?:this|that|a) (?:unit|model) makes a charge move,? until the end "
                r"of (?:the|that) turn,?"), "charged", True),
    (re.compile(r",? ?if (?:this|that|the bearer's) unit remained stationary this turn|"
                r"remained stationary|"
                # "In your Movement phase, if this model Remains Stationary, until the end of
                # the turn, ...", "Each time this unit Remains Stationary, until the start of
                # your next Movement phase, ...": the turn it stayed still (--stationary)
                r"(?:in your movement phase, )?if (?:this|that|the bearer's) (?:unit|model) "
                r"remains stationary(?:, until the end of (?:the|that) turn)?,?|"
                r"each time (?:this|that) (?:unit|model) remains stationary, until the (?:start "
                r"of your next movement phase|end of (?:the|that) turn),?"), "stationary", True),
    (re.compile(r",? ?if (?:that|the) (?:target|enemy unit|target unit) is below (?:its )?"
                r"starting strength|"
                r"(?:targets|against) (?:an? )?(?:enemy )?unit that is below (?:its )?starting "
                r"strength"), "below_starting", True),
    (re.compile(r",? ?if (?:that|the) (?:target|enemy unit|target unit) is below half-strength|"
                r"(?:targets|"
                r"against) (?:an? )?(?:enemy )?unit that is below half-strength"), "below_half",
     True),
    (re.compile(r",? ?(?:while|if) (?:an?|this unit is led by an?) (?:[a-z'-]+ )?character"
                r"(?: model)? is leading (?:this|that) unit|while this unit is (?:being )?led"),
     "led", True),
]
_PSYCHIC = re.compile(r"\bpsychic (?:attacks?|weapons?)\b")
_TARGET_KW = re.compile(r"(?:(?:targets?|against) an?|while targeting|if (?:that|the) target "
                        r"is(?: an?)?) "
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
    r"each time you target this unit with the fire overwatch stratagem,?|while resolving that "
    r"stratagem,?|each time (?:a|an) (?:model|unit) makes an? (?:ranged |melee )?attack "
    r"(?:that targets|against) (?:this|that) (?:unit|model),?|"
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
    r"if your army faction is [a-z' -]+,?"
)
_UNCHECKED = re.compile(
    r"\bif\b|\bwhile\b|\bwithin\b|select|once per|\buntil\b|objective|battle-shock|"
    r"engagement range|closest|visible|aura|this turn|this phase|stratagem|choose|"
    r"one of the following|\bcan use\b|use this|counter|token|wholly|destroyed|start of|"
    r"end of|\bwhen\b|\bafter\b|\bbefore\b|\btargets? (?:an? |that |the )|friendly|\bother\b|"
    r"each time [^,]* is selected|\bonly\b|psychic|\bcharge|fell back|advanced|\bbelow\b|"
    r"\babove\b|battle rounds?|\bhas? (?:lost|been)|\bremaining\b|\btargets?\b|your army|"
    r"\bor more\b|\bwith this ability\b|provided|did not|previous|excluding|\bnot\b|"
    r"\bcan have\b|^or\b"
)


#: a characteristic change of some weapons only ("of its Nemesis force weapon")
_SOME_WEAPONS = re.compile(
    r"characteristics? of (?!(?:that attack|those attacks|attacks|(?:ranged |melee |psychic )?"
    r"weapons|"
    r"(?:the bearer's|this model's|its|their) (?:ranged |melee )?weapons|models))")


#: a sentence about the attack the sentence before made ("If that attack targets a unit
#: within 9\", ... as well"): it keeps that sentence's ranged or melee condition
_SAME_ATTACK = re.compile(r"^(?!each time)[^.]*\b(?:that attack|those attacks|instead)\b")


#: a change to some weapons only, named ("crushing teeth and claws equipped by", "its
#: hellforged weapons have"): the engine cannot tell them from the unit's others
_NAMED_WEAPONS = re.compile(
    r"\b(?!(?:weapons?|models?|wargear)\b)[a-z'\-]{1,40} equipped by|\b(?:its|their|the bearer's|"
    r"this model's) (?!(?:ranged|melee|psychic)\b)[a-z\-]+ weapons? ha(?:ve|s)|"
    # "its doomsday cannon has the [DEVASTATING WOUNDS] ability": one weapon, by name
    r"\b(?:its|their|the bearer's|this model's) (?!(?:ranged|melee|psychic|weapons?|attacks?)\b)"
    r"[a-z\-]+(?: [a-z\-]+){0,2} ha(?:ve|s) the\b")


#: who may take an enhancement ("ADEPTUS CUSTODES model only"): not a condition of the attack
_ONLY = re.compile(r"^[a-z' ,\-/]+ (?:models?|units?) only$")


def _grants(sentence: str) -> list[list[tuple[str, Any]]]:
    """The weapon abilities a sentence grants: one list of changes per alternative."""
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
    pattern, reason = _NOT_MODELLED[1]  # Feel No Pain against some attacks only
    if pattern.search(low):
        return [], reason
    if not changes and not alternatives:
        for pattern, reason in _NOT_MODELLED:
            if pattern.search(rest):
                return [], reason
        return [], ""
    extra = next((reason for pattern, reason in _NOT_MODELLED[:6] if pattern.search(rest)), "")
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
    if _PSYCHIC.search(rest):
        cond["weapon_ability"] = "psychic"
        rest = _PSYCHIC.sub(lambda m: m.group(0).split(" ", 1)[1], rest)
    m = _TARGET_KW.search(cased)
    if m:
        words = re.split(r", or |, | or ", m.group(1).strip())
        cond["target_keywords"] = tuple(w.strip() for w in words if w.strip())
        rest = rest.replace(m.group(0).lower(), " ")
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
    >>> [r.rule.not_modelled for r in translate("Fury", "Each time this model makes an attack, "
    ...                                         "you can re-roll the Damage roll.")]
    ['re-rolls a Damage roll']
    """
    clean = normalize(text)
    if not _RELEVANT.search(clean.lower()) or _is_weapon_ability(name):
        return ()
    leading = bool(_LEADING.search(clean.lower()))
    auto: dict[tuple[str, Scope], list[Effect]] = {}
    switches: list[tuple[str, Scope, str, list[Effect]]] = []  # side, scope, assumes, effects
    reasons: list[str] = []
    setup = ""  # a sentence without an effect that sets a condition (select one unit...)
    last = None  # the attack kind (ranged, melee) of the last sentence with an effect
    for sentence in _sentences(clean):
        low = sentence.lower()
        scope = _scope(low, leading)
        if scope is Scope.LED:
            low = _LEADING.sub(" ", low)
        alternatives, reason = _effects(low)
        if reason:
            reasons.append(reason)
        if not alternatives:
            if not reason and not setup and not _ONLY.match(low) and \
                    _UNCHECKED.search(_SCAFFOLD.sub(" ", low)):
                setup = sentence
            continue
        cond, rest = _conditions(_effect_text(low), sentence, low)
        if "attack" not in cond and last and _SAME_ATTACK.search(low):
            cond["attack"] = last  # "If that attack ...": the one the last sentence made
        last = cond.get("attack")
        side = "defender" if _DEFENDER.search(low) or all(
            k in _DEFENSIVE for alt in alternatives for k, _ in alt) else "attacker"
        # the defender's own Leader, charge or stationary state is not an attack option
        unknown = side == "defender" and any(
            cond.pop(k, None) is not None for k in ("led", "charged", "stationary"))
        unchecked = (unknown or _UNCHECKED.search(rest) or _SOME_WEAPONS.search(low)
                     or _NAMED_WEAPONS.search(low) or _keyword_left(sentence, cond))
        clauses = [_effect(alt, cond) for alt in alternatives]
        if unchecked or setup or len(clauses) > 1:
            said = f"{setup}. {sentence}" if setup else sentence
            switches += [(side, scope, said, c) for c in clauses]
        else:
            auto.setdefault((side, scope), []).extend(clauses[0])
    out: list[DataRule] = []
    base = {"faction": faction, "kind": kind, "text": text.strip(), "source": where}
    for i, ((side, scope), effects) in enumerate(auto.items()):
        label = name if i == 0 else f"{name} ({'when attacked' if side == 'defender' else side}"\
            f"{', ' + scope.value if scope is not Scope.UNIT else ''})"
        out.append(DataRule(NamedRule(label, side=side, effects=tuple(effects), **base), scope))
    for i, (side, scope, said, effects) in enumerate(switches):
        label = name if not out and len(switches) == 1 else f"{name} ({i + 1})"
        out.append(DataRule(NamedRule(label, side=side, effects=tuple(effects), assumes=said,
                                      **base), scope))
    side, scope = (out[0].rule.side, out[0].scope) if out else (
        "attacker", _scope(clean.lower(), leading))
    if reasons:
        label = name if not out else f"{name} (rest)"
        out.append(DataRule(NamedRule(label, side=side,
                                      not_modelled="; ".join(dict.fromkeys(reasons)), **base),
                            scope))
    if not out:
        out.append(DataRule(NamedRule(name, side=side, not_modelled="wording not recognised",
                                      **base), scope))
    return tuple(out)


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
        own = cond | ({"attack": kind} if kind else {})
        out.append(Effect(((key, value),), Conditions(**own)))
    return out


def _keyword_left(sentence: str, cond: dict[str, Any]) -> bool:
    """Whether the sentence names a keyword the engine does not check (the attacker's, a
    CHARACTER model of the unit...): a word in capitals outside the weapon abilities and the
    target's keywords."""
    text = _TARGET_KW.sub(" ", re.sub(r"\[[^\[\]]*\]", " ", sentence), count=1) \
        if cond.get("target_keywords") else re.sub(r"\[[^\[\]]*\]", " ", sentence)
    if cond.get("led"):  # "a NECRONS CHARACTER model is leading": a Leader of the unit's own
        text = re.sub(r"\b(?:[A-Z][A-Z'\-]{1,40} ){0,8}CHARACTER(?: model)? is leading", " ", text)
    return bool(set(re.findall(r"\b[A-Z][A-Z'\-]{2,}\b", text)) - {"CP", "OC"})


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
    does not always mark it as incoming, and no player pays CP to hit worse)."""
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
        if mod.get("weapon") or mod.get("scope") == "weapon" and mod.get("weapon"):
            reasons.append("changes one named weapon only")
            return None
        better = value if op in ("add", "improve") else -value
        if stat in _DSL_LOWER_BETTER and op in ("add", "subtract"):
            better = -better  # add 1 to AP -2 (or to BS 3+) makes it worse
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
    return tuple(out)


# -- coverage ----------------------------------------------------------------------------------


def coverage(abilities: Iterable[tuple[str, str]]) -> dict[str, Any]:
    """How many of these (name, text) abilities change an attack, how many of those are
    applied (every part that changes an attack is modelled, automatically or as a switch),
    and the not-modelled ones by name.

    >>> coverage([("A", "Add 1 to the Hit roll."), ("B", "You can re-roll the Damage roll."),
    ...           ("C", "Gain 1CP.")])
    {'attack_relevant': 2, 'applied': 1, 'not_modelled': {'B': 1}}
    """
    relevant = applied = 0
    missing: Counter[str] = Counter()
    for name, text in abilities:
        if not is_attack_relevant(text) or _is_weapon_ability(name):
            continue  # changes no attack, or defines a weapon ability (the engine's own)
        relevant += 1
        parts = translate(name, text)
        if parts and all(p.rule.usable for p in parts):
            applied += 1
        else:
            missing[name.strip()] += 1
    return {"attack_relevant": relevant, "applied": applied,
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
    "translate", "translate_effect",
]
