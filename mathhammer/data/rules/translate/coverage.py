"""What the translator reads of a set of texts: applied, switches, not modelled
(:func:`coverage`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .sentences import is_attack_relevant
from .text import _is_weapon_ability, translate

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


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
