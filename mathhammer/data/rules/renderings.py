"""What the 40kdc data's English rendering of an effect tree leaves out (:func:`tree_note`).

A stratagem of the 40kdc data has no rule text: its text is the ``wh40kdc`` package's rendering
of its effect tree (``describe_ability``), and the effects are read from the tree
(:mod:`.effect_tree`). The rendering drops three fields of a modifier that the translator
reads: ``incoming`` (or ``applies_to``: the change is to the attacks that target the unit; "the
unit gets -1 to Wound rolls" reads as the unit's own rolls), ``applies_when`` (Delight in
Agony's -1 holds only when the attack's Strength is greater than the unit's Toughness) and a
re-roll's ``vs_keywords`` (the target's keywords). So that the text says what the rule's parts
say, each is said in a line added to the text.

>>> tree = {"type": "roll-modifier", "target": "unit", "modifier": {
...     "roll": "wound", "operation": "subtract", "value": 1, "incoming": True,
...     "applies_when": "attacker-strength-greater-than-target-toughness"}}
>>> print(tree_note(tree))
<BLANKLINE>
The effect tree also says (the text above leaves it out): the -1 to Wound rolls is to the \
attacks that target the unit, only when the attack's Strength is greater than the unit's \
Toughness.
"""

from __future__ import annotations

from typing import Any

#: the conditions ``applies_when`` names, in words
_WHEN = {"attacker-strength-greater-than-target-toughness":
         "only when the attack's Strength is greater than the unit's Toughness"}
_ROLL = {"hit": "Hit", "wound": "Wound", "save": "saving throw", "damage": "Damage"}
_STAT = {"A": "Attacks", "S": "Strength", "D": "Damage", "AP": "Armour Penetration",
         "BS": "Ballistic Skill", "WS": "Weapon Skill"}


def _what(kind: str, mod: dict[str, Any]) -> str:
    """The change a leaf makes, in a few words ("the -1 to Wound rolls")."""
    if kind == "roll-modifier":
        value = mod.get("value")
        sign = "-" if (mod.get("operation") == "subtract") != (
            isinstance(value, int) and value < 0) else "+"
        roll = _ROLL.get(str(mod.get("roll")), str(mod.get("roll")))
        return f"the {sign}{abs(value) if isinstance(value, int) else value} to {roll} rolls"
    if kind == "stat-modifier":
        return f"the change to the {_STAT.get(str(mod.get('stat')), mod.get('stat'))} " \
            "characteristic"
    return f"the {_ROLL.get(str(mod.get('roll')), mod.get('roll'))} re-roll"


def _leaf_note(node: dict[str, Any]) -> str:
    """What one leaf's modifier holds that the rendering leaves out ("" when nothing)."""
    kind, mod = node.get("type"), node.get("modifier")
    if not isinstance(mod, dict) or kind not in ("roll-modifier", "stat-modifier", "re-roll"):
        return ""
    said = []
    if (mod.get("incoming") or mod.get("applies_to") == "incoming-attacks") and \
            kind != "re-roll":
        said.append("is to the attacks that target the unit")
    if mod.get("applies_when"):
        when = str(mod["applies_when"])
        said.append(_WHEN.get(when, f"only when: {when.replace('-', ' ')}"))
    if kind == "re-roll" and mod.get("vs_keywords"):
        said.append("is only for attacks that target a " + " or ".join(
            str(k).upper() for k in mod["vs_keywords"]) + " unit")
    return f"{_what(str(kind), mod)} {', '.join(said)}" if said else ""


def tree_note(effect: Any) -> str:
    """A line to add to a rendered text: what the tree's modifiers say and the rendering
    leaves out; "" when it leaves nothing out."""
    notes: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            note = _leaf_note(node)
            if note and note not in notes:
                notes.append(note)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(effect)
    if not notes:
        return ""
    return "\nThe effect tree also says (the text above leaves it out): " + "; ".join(
        notes) + "."


__all__ = ["tree_note"]
