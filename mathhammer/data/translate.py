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
text and where it came from.

Why one module: every wording and every condition is read by the same sentence walk, so the
whole translator (and what it leaves out) is in one place to read and extend.

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
    parts = [p.strip() for p in re.split(r"(?<=[.:;])\s+(?=[A-Z.(\[])|\s*\.\s*\.\s*", text)]
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
    (re.compile(_ADD + r"the ((?:attacks|strength|damage)(?:(?:, | and |, and )(?:attacks|"
                r"strength|damage))*) characteristics?"),
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
                r"remained stationary"), "stationary", True),
    (re.compile(r",? ?if (?:that|the) (?:target|enemy unit|target unit) is below (?:its )?"
                r"starting strength|"
                r"(?:targets|against) (?:an? )?(?:enemy )?unit that is below (?:its )?starting "
                r"strength"), "below_starting", True),
    (re.compile(r",? ?if (?:that|the) (?:target|enemy unit|target unit) is below half-strength|"
                r"(?:targets|"
                r"against) (?:an? )?(?:enemy )?unit that is below half-strength"), "below_half",
     True),
    (re.compile(r",? ?(?:while|if) (?:a|this unit is led by a) character(?: model)? is leading "
                r"(?:this|that) unit|while this unit is (?:being )?led"), "led", True),
]
_PSYCHIC = re.compile(r"\bpsychic (?:attacks?|weapons?)\b")
_TARGET_KW = re.compile(r"(?:(?:targets?|against) an?|if (?:that|the) target is(?: an?)?) "
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
_SAME_ATTACK = re.compile(r"^(?!each time)[^.]*\b(?:that attack|those attacks)\b")


#: a change to some weapons only, named ("crushing teeth and claws equipped by", "its
#: hellforged weapons have"): the engine cannot tell them from the unit's others
_NAMED_WEAPONS = re.compile(
    r"\b(?!(?:weapons?|models?|wargear)\b)[a-z'\-]+ equipped by|\b(?:its|their|the bearer's|"
    r"this model's) (?!(?:ranged|melee|psychic)\b)[a-z\-]+ weapons? ha(?:ve|s)")


#: who may take an enhancement ("ADEPTUS CUSTODES model only"): not a condition of the attack
_ONLY = re.compile(r"^[a-z' ,\-/]+ (?:models?|units?) only$")


def _grants(sentence: str) -> list[list[tuple[str, Any]]]:
    """The weapon abilities a sentence grants: one list of changes per alternative."""
    out: list[list[tuple[str, Any]]] = []
    for m in _GRANT.finditer(sentence):
        items = re.findall(r"\[([^\]]+)\]", m.group(1))
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
    base = re.sub(r"\s+X\+?$", "", name.strip())
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
    text = _TARGET_KW.sub(" ", re.sub(r"\[[^\]]*\]", " ", sentence), count=1) \
        if cond.get("target_keywords") else re.sub(r"\[[^\]]*\]", " ", sentence)
    return bool(set(re.findall(r"\b[A-Z][A-Z'\-]{2,}\b", text)) - {"CP", "OC"})


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
    "translate",
]
