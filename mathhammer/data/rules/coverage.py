"""How much of the data's ability text the translator models (:func:`coverage`), the
reasons for what it does not (:func:`not_modelled_reasons`), and both for the installed data of
an edition (:func:`data_coverage`, what ``data check`` reports)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .sentences import is_attack_relevant, is_weapon_ability
from .translate import translate
from .unit_rules import edition_abilities

if TYPE_CHECKING:
    from ..store.data_folder import Edition


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
        if not is_attack_relevant(text) or is_weapon_ability(name):
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


def data_coverage(edition: Edition, data: str | os.PathLike | None = None) -> dict[str, Any]:
    """:func:`coverage` of every ability in the installed data of ``edition`` (what
    ``data check`` reports)."""
    return coverage(edition_abilities(edition, data))


__all__ = ["coverage", "data_coverage", "not_modelled_reasons"]
