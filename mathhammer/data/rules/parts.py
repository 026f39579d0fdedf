"""What the translators make: each translated part of a rule (:class:`DataRule`), a named
rule and whose attacks (or defence) it changes (:class:`Scope`)."""

from __future__ import annotations

from enum import StrEnum

import attrs

from ...model.named import NamedRule


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


__all__ = ["DataRule", "Scope"]
