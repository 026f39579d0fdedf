"""The common wordings the text translator (:mod:`.translate`) knows, as tables of patterns:
the effects (re-rolls, +1/-1 to Hit or Wound, granted weapon abilities, critical thresholds,
characteristics, Feel No Pain, invulnerable saves, Stealth, cover, the later mechanics), the
conditions the engine checks (ranged or melee, half range, charged, the target's keywords...)
and those it cannot (a switch), which weapons a sentence changes, and the wordings that change
an attack but are not modelled (each with its reason). Each reading function takes one
sentence (lower case) and gives the changes or conditions it says and what is left.

Why one module: the tables are read in order against the same sentence, each wording's effect
beside the conditions and weapon scopes it may carry and the near-miss wordings said not
modelled, so a wording and what it must not swallow are read together."""

from __future__ import annotations

import re
from typing import Any

from ...errors import InputError
from ...model.abilities import canonical
from ...model.named import Conditions, Effect
from .sentences import keyword_phrases

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
EFFECTS: list[tuple[re.Pattern, Any]] = _MECHANICS + [
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


_CHAR: dict[str, str] = {
    "attacks": "attacks_mod", "strength": "strength_mod", "damage": "damage_mod",
    "armour penetration": "ap_mod", "weapon skill": "skill_mod", "ballistic skill": "skill_mod"}
#: the 11e short names of the characteristics an attack has more of ("+1 WS")
_SHORT: dict[str, str] = {"a": "attacks_mod", "s": "strength_mod", "d": "damage_mod",
                          "ap": "ap_mod", "ws": "skill_mod", "bs": "skill_mod"}
DEFENSIVE = ("fnp", "invuln", "target_abilities", "cover", "wound_mod_if_stronger",
             "no_cover", "fnp_mortal", "fnp_psychic")
#: granted weapon abilities: "have the [LETHAL HITS] and [PRECISION] abilities"
GRANT = re.compile(r"(?<!not )(?:ha(?:ve|s)|gains?|select(?: either)?)(?: the| that)?"
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
ATTACK_KIND = [
    (re.compile(r"\branged (?:attack|weapon)|shooting phase|selected to shoot|\bshoots?\b"),
     "ranged"),
    (re.compile(r"\bmelee (?:attack|weapon)|fight phase|selected to fight|\bfights?\b"), "melee"),
]
#: both kinds named together ("ranged and melee weapons"): no ranged or melee condition
_BOTH_KINDS = re.compile(r"\b(?:ranged|melee) (?:and|or|and/or) (?:ranged|melee) (?=weapons?\b|"
                         r"attacks?\b)")
#: the bearer's attacks are made before the effect ("after this unit has shot", "each time the
#: bearer's unit has shot")
AFTER_SHOT = re.compile(r"\b(?:after|each time) (?:this|the bearer's|this model's) (?:unit|model) "
                        r"has (?:shot|been selected to shoot and resolved)", re.I)
#: an effect that lasts past the phase its setup names ("In your Shooting phase, ... Until the
#: start of your next turn, ..."): the attacks it changes are not that phase's kind only
PAST_THE_PHASE = re.compile(
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
#: the attack's Damage characteristic: "if that attack has a Damage characteristic of 1", "an
#: attack with an unmodified Damage characteristic of 1"
_DAMAGE_IS = re.compile(r"\b(?:with|has) an? (unmodified )?damage characteristic of (\d)\b"
                        r"(?! (?:to|instead|or)\b)")
#: the attack's own weapon is Psychic ("makes a Psychic Attack"), not an earlier one's ("a unit
#: that was hit by one or more Psychic attacks made by a THOUSAND SONS PSYKER unit")
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
TARGET_EXCLUDED = re.compile(
    r"(?:targets?|against) (?:an? )?(?:visible )?(?:enemy )?units? \(excluding ((?:[A-Z][A-Z\-']+"
    r"(?: [A-Z][A-Z\-']+)*(?:,? (?:and|or) |, )?)+)(?: units)?\)|\(excluding attacks that target "
    r"((?:[A-Z][A-Z\-']+(?:,? (?:and|or) |, )?)+)\)|targets? (?:an? )?(?:enemy )?units? (?:\("
    r"excluding units? that can ((?i:fly))\)|that cannot ((?i:fly)))")
#: the core keywords a text writes in the plural ("excluding MONSTERS and VEHICLES"); any other
#: keyword is as written (GROTS, POXWALKERS and GENESTEALERS are keywords of their own)
_CORE_PLURALS = frozenset({"MONSTERS", "VEHICLES", "CHARACTERS", "BEASTS", "SWARMS", "PSYKERS",
                           "WALKERS"})
TARGET_KW = re.compile(r"(?i:(?:targets?|against) an?(?: visible)?(?: enemy)?|(?:while|when) "
                       r"targeting|"
                       r"if (?:that|the) target(?: of (?:that|the) attack)? is(?: an?)?) "
                       r"((?:[A-Z][A-Z\-']+)(?: [A-Z][A-Z\-']+)*(?:(?:, | or |, or )"
                       r"[A-Z][A-Z\-']+(?: [A-Z][A-Z\-']+)*)*)"
                       r"(?: ?(?:unit|model)s?)?\b")
#: a target's list that goes on past the keywords :data:`TARGET_KW` read, in other words
#: ("targets a VEHICLE or Battle-shocked unit", "a MONSTER unit or a unit within 6\"")
TARGET_GOES_ON = re.compile(r"(?:,? or|, (?=[A-Z][\w'\-]*(?:,| or)))\s(?!if\b)(?:an? )?"
                            r"(?:[\w'\-]+\s){0,3}?(?:units?|models?)\b")
LEADING = re.compile(r"(?:while|when) (?:this model|the bearer) (?:is leading|leads) "
                     r"a unit,?")
DEFENDER = re.compile(r"(?:each time|when|if) (?:an?|a ranged|a melee) "
                      r"(?:ranged |melee |psychic )?"
                      r"attacks? (?:is made against|targets|is allocated to) (?:this|that|the"
                      r" bearer's|a model in (?:this|that)|the bearer|a)|"
                      r"attacks? (?:that|which) targets? (?:this|the bearer's) unit|"
                      r"makes? an attack against (?:this|that) unit|"
                      r"allocated to (?:this|that|the bearer|a model)")
THIS_MODEL = re.compile(r"\b(?:this model (?:makes|has|is)|targets? this model|"
                        r"the bearer(?!'s unit)|this model's "
                        r"(?!unit)|weapons equipped by this model|allocated to (?:this|the) "
                        r"(?:model|bearer))")
#: the scaffolding of a sentence: who attacks, which weapons (left out when looking for
#: conditions the engine cannot check)
SCAFFOLD = re.compile(
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
UNCHECKED = re.compile(
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
SOME_WEAPONS = re.compile(
    r"characteristics? of (?!(?:that attack|those attacks|attacks|(?:ranged |melee |psychic )?"
    r"weapons|"
    r"(?:the bearer's|this model's|its|their) (?:ranged |melee )?weapons|models|(?:this|that|the "
    r"bearer's|your|the) (?:unit|model|bearer|target)\b|those weapons|that weapon\b|\d))")


#: a second change with its verb left out ("add 1 to the Hit roll if ..., and 1 to the Wound
#: roll as well if ..."): the verb put back, so that it is read (and split) as a clause
ELIDED = re.compile(r",? and (\d) (to|from) the(?= (?:hit|wound) roll)", re.I)


#: one weapon of the bearer chosen ("Select one melee weapon equipped by the bearer"), and a
#: later sentence about it ("That weapon gains the [DEVASTATING WOUNDS] ability"): the bearer's
#: weapons of that kind, never its unit's (docs/rules.md, section 12)
CHOSEN_WEAPON = re.compile(r"\bselect one ([a-z\-]+ )?weapon equipped by (?:the bearer|this "
                           r"model)\b(?!'s)")
#: the chosen weapon's name holds a word ("that has the word 'bolt' in its name")
WORD_IN_NAME = re.compile(r"\bthat has the word '([a-z\- ]+)' in its name\b")
#: a Bondsman ability's effect, on the friendly ARMIGER model it affects, never the Knight's
#: own ("While a model is affected by this ability, ...", "ARMIGER models under the effects of
#: the bearer's Bondsman ability")
BONDSMAN = re.compile(r"\bwhile a model is affected by this ability\b|\beach time a model "
                      r"affected by this ability\b|\bunder the effects? of "
                      r"(?:the bearer's|this model's|its) bondsman abilit")


#: an enemy unit's state whose effects follow, on "this unit" ("while an enemy unit is
#: Afflicted, ... and that unit has the effect of your chosen Plague")
ENEMY_STATE = re.compile(r"\bwhile an enemy unit is ([A-Z][a-z]+),[^.]*\bthat unit has the "
                         r"effects? of your chosen\b", re.I)


#: the invulnerable save a sentence before gave, improved ("this invulnerable save is improved to
#: 4+"): against the attacks that one was (unless it says its own), for the same unit
THIS_SAVE = re.compile(r"\b(?:this|that|its) invulnerable save is improved to \d\+")


#: a sentence about the weapons the one before changed
THOSE_WEAPONS = re.compile(r"^(?!.*\bequipped with\b).*\b(?:(?:those|these) weapons|that "
                           r"weapon|such (?:an? )?weapons?)\b")
#: "If that CHARACTER model is a MAGUS, ..., that model has the Feel No Pain 3+ ability": the
#: model named before (the Leader), not the unit
THAT_KEYWORD_MODEL = re.compile(r"^[Ii]f that ([A-Z][A-Z'\-]*(?: [A-Z][A-Z'\-]*)*) model is\b"
                                r"[^.;]*?, that model ha(?:s|ve)\b")
#: weapons left out by their names ("weapons equipped by models in this unit (excluding blast
#: pistols, blasters and dark lances)"); not models or units of a keyword
EXCLUDED_NAMES = re.compile(r"\bweapons\b[^.()]*(\(excluding (?!a |an |the )([a-z][a-z ,\-]*?)"
                            r"(?<!models)(?<!units)(?<! weapons)\))")
#: a sentence about the attack the sentence before made, so with the same weapons ("Each time
#: this model makes an attack with its D-Cannon, ... If that attack targets ..., ... instead")
SAME_WEAPONS = re.compile(r"^(?!each time)[^.]*\b(?:that attack|those attacks|instead|as "
                          r"well)\b")
WEAPON_KEYS = ("attack", "weapon_ability", "weapon_names", "weapon_abilities",
               "without_abilities", "without_names")


#: some weapons counted besides one named: "equipped with 2 melee weapons in addition to its
#: close combat weapon" (then "those 2 weapons")
BESIDES = re.compile(r"\bequipped with (?:\d|two|three) (melee|ranged) weapons in addition to "
                     r"(?:its|their|the bearer's|this model's) ([a-z' \-]+?)(?=[,.;]|$)")
#: a weapon that had an ability before a rule gave it ("If such a weapon already has this
#: ability", "if that attack already has [RAPID FIRE]"): the ability named, or the one given
ALREADY_HAS = re.compile(r"\b(?:if (?:such an?|that|those|such|one or more of those|it|they) "
                         r"(?:(?:weapons?|attacks?) )?)?already ha(?:s|ve) (?:(?:this|that) "
                         r"abilit(?:y|ies)\b|(?:the )?\[([a-z][a-z \-0-9+]*)\](?: abilit(?:y|ies)"
                         r"\b)?)")
THAT_WEAPON = re.compile(r"\b(?:that|the selected|this) weapon\b")


#: the conditions an "instead" alternative keeps of the effect it replaces
KEPT_INSTEAD = ("half_range", "charged", "stationary", "below_half", "below_starting", "led",
                "target_keywords", "target_not_keywords", "weapon_ability", "damage",
                "unmodified_damage")


#: a sentence about the attack the sentence before made ("If that attack targets a unit
#: within 9\", ... as well"): it keeps that sentence's ranged or melee condition
SAME_ATTACK = re.compile(r"^(?!each time)[^.]*\b(?:that attack|those attacks|instead|such an? "
                         r"(?:attack|weapon|unit)|as well)\b")


#: a change to some weapons only, named ("crushing teeth and claws equipped by", "its
#: hellforged weapons have"): the engine cannot tell them from the unit's others
NAMED_WEAPONS = re.compile(
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


def weapon_scope(low: str, cased: str | None = None) -> tuple[dict[str, Any], bool]:
    """The weapons a sentence changes, as conditions (named weapons or profiles, weapons with
    an ability, or without it: "all other ranged weapons"), and whether it names any."""
    cond: dict[str, Any] = {}
    # "all [HEAVY] weapons equipped by models in this unit", "a [MELTA] or [TORRENT] weapon":
    # the weapons with those abilities
    for m in _BRACKETED_WEAPONS.finditer(low):
        abilities = ability_names(", ".join(re.findall(r"\[([^\[\]]+)\]", m.group(1))))
        if abilities:
            cond.setdefault("weapon_abilities", abilities)
            if m.group(2):
                cond.setdefault("attack", m.group(2))
    for m in _ABILITY_WEAPONS.finditer(low):
        abilities = ability_names(m.group(2))
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
            if not ability_names(phrase):
                phrase = _untitled(phrase, m, cased)
                if phrase in _ANY_WEAPON:  # "... Immaterium Psychic weapons": Psychic weapons
                    continue
            abilities = ability_names(phrase)
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
            not ability_names(words[-1]):
        return phrase
    span = cased[m.start("w") + at:m.start("w") + at + len(phrase)].split()
    return words[-1] if all(w[:1].isupper() for w in span) else phrase


def ability_names(phrase: str) -> tuple[str, ...]:
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
ONLY = re.compile(r"^[a-z' ,\-/]+ (?:(?:models?|units?)(?: equipped with [a-z' ,\-]+)? )?only$")


#: a choice among weapon abilities listed after it ("select one of the following abilities:
#: [IGNORES COVER]; [LETHAL HITS]; [SUSTAINED HITS D3]")
_ABILITY_CHOICE = re.compile(r"\b(?:select|choose) one of the following (?:weapon )?abilities\b"
                             r"[^\[]*((?:\[[^\]]+\][;,.]?\s*(?:or\s+)?)+)")


#: "Mortal wounds inflicted by this Enhancement are allocated as if they have the [PRECISION]
#: ability": an ability of the mortal wounds a rule inflicts, not of the unit's attacks
_MORTALS_AS_IF = re.compile(r"\bmortal wounds\b[^.;]*\bas if they\s*$")


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
    for m in GRANT.finditer(sentence):
        if _MORTALS_AS_IF.search(sentence[:m.start()]):
            continue  # the mortal wounds' own ability (said beside), not the attacks'
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


def sentence_effects(low: str) -> tuple[list[list[tuple[str, Any]]], str]:
    """The changes one sentence makes (alternatives for an either/or grant), and the reason it
    is not modelled ("" when it is, or changes nothing)."""
    changes: list[tuple[str, Any]] = []
    rest = low
    for pattern, make in EFFECTS:
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


def sentence_conditions(low: str, cased: str, whole: str) -> tuple[dict[str, Any], str]:
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
    x = TARGET_EXCLUDED.search(cased)
    if x:
        cond["target_not_keywords"] = tuple(
            k[:-1] if k.split()[-1] in _CORE_PLURALS else k
            for k in keyword_phrases(re.sub(r"\b(?:units?|models?|attacks that target)\b", "",
                                           x.group(1) or x.group(2) or x.group(3)
                                           or x.group(4), flags=re.I)))
        rest = rest.replace(x.group(0).lower(), " ")
    m = TARGET_KW.search(cased)
    if m and TARGET_GOES_ON.match(cased, m.end()):
        # "targets a VEHICLE or Battle-shocked unit": an alternative past the keywords read;
        # half of it would be kept, so none is (the keywords left make the sentence a switch)
        m = None
    if m:
        words = re.split(r", or |, | or ", m.group(1).strip())
        cond["target_keywords"] = tuple(w.strip() for w in words if w.strip())
        rest = rest.replace(m.group(0).lower(), " ")
    # "a 4+ invulnerable save against ranged attacks, and the Feel No Pain 6+ ability": the
    # invulnerable save's own "against ranged attacks" is its clause's, not the sentence's;
    # "ranged and melee weapons" names both kinds
    whole = _UNTIL_NEXT.sub(" ", _BOTH_KINDS.sub(" ", _INVULN_AGAINST.sub(" ", whole)))
    kinds = [kind for pattern, kind in ATTACK_KIND if pattern.search(whole)]
    if len(kinds) == 1:
        cond["attack"] = kinds[0]
    rest = SCAFFOLD.sub(" ", rest)
    for pattern, _kind in ATTACK_KIND:
        rest = pattern.sub(" ", rest)
    return cond, rest


def effect_text(low: str) -> str:
    """The sentence without its effect wording (what is left is the condition)."""
    for pattern, _make in EFFECTS:
        low = pattern.sub(" ", low)
    return GRANT.sub(" ", low)


def effect_clauses(changes: list[tuple[str, Any]], cond: dict[str, Any]) -> list[Effect]:
    """The clauses of one sentence's changes: an invulnerable save against ranged or melee
    attacks only is a clause of its own, with that condition."""
    out = [Effect(tuple((k, v) for k, v in changes if k != "invuln"), Conditions(**cond))]
    out = [e for e in out if e.changes]
    for key, (value, kind) in ((k, v) for k, v in changes if k == "invuln"):
        own = cond | ({"weapon_ability": "psychic"} if kind == "psychic" else
                      {"attack": kind} if kind else {})
        out.append(Effect(((key, value),), Conditions(**own)))
    return out


__all__ = []
