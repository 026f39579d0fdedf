"""Rules given as effect trees (the 40kdc data's stratagems: the ``wh40kdc`` package's
ability DSL, an optional extra) into named-rule effects (:func:`translate_effect`): the same
effect fields and conditions as the text translator's (:mod:`.translate`), each rule a switch.

The 40kdc data holds no rule text: each rule is a tree of effects and conditions. Its English
rendering is kept as the rule's text (what a player reads), but the effects are read from the
tree: the rendering drops whose characteristic a change is ("subtract 1 from the unit's Armour
Penetration characteristic" for the attacks against the unit). What changes an attack and maps
onto no effect field is named.

Why one module: a tree is walked once (sequences, choices, conditionals), its leaves and
conditions read on the way; the walk and the readers of its node kinds are one reading."""

from __future__ import annotations

import re
from typing import Any, TypedDict

from ...errors import InputError
from ...model.abilities import canonical
from ...model.named import Conditions, Effect, NamedRule
from .parts import DataRule
from .sentences import normalize
from .wordings import effect_clauses

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
    given = node.get("modifier")
    mod: dict[str, Any] = given if isinstance(given, dict) else {}
    incoming = bool(mod.get("incoming")) or mod.get("applies_to") == "incoming-attacks"
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
            if stat == "AP" and penalties_defend:  # the data's sign slips: its own AP better,
                better = abs(better) if side == "attacker" else -abs(better)  # worse on it
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
        keys = _DSL_FNP_SCOPE.get(mod.get("scope", ""), ("fnp_psychic",))  # mechanics' Feel No Pain
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
    met = cond | own
    if met.pop("stronger", None):  # "if the attack's Strength is greater than the Toughness"
        if side == "defender" and changes == [("wound_mod", -1)]:
            changes = [("wound_mod_if_stronger", -1)]
        else:
            said = "; ".join(w for w in (said, "the attack's Strength is greater than the "
                                         "target's Toughness") if w)
    return [[(side, tuple(changes), tuple(met.items()), said)]]


class _Base(TypedDict):
    """What every part of one rule has the same: its faction, kind, text, source, detachment and
    CP cost."""

    faction: str
    kind: str
    text: str
    source: str
    detachment: str | None
    cp: int | None


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
    base = _Base(faction=faction, kind=kind, text=text.strip(), source=where,
                 detachment=detachment, cp=cp)
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
                groups = [effect_clauses(list(changes), {k: v for k, v in cond
                                                         if (k, v) != ("attack", attack)})
                          for s, changes, cond, _ in parts if s == side]
                rules.append((side, suffix, said,
                              tuple(e for group in groups for e in group)))
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


__all__ = ["translate_effect"]
