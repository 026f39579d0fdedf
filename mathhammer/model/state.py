"""The state of a target unit: models left and wounds lost, one model group at a time.

>>> TargetState(models=4, wounds_lost=1)
TargetState(models=4, wounds_lost=1)
"""

from __future__ import annotations

from typing import NamedTuple


class TargetState(NamedTuple):
    """Models left in one model group and wounds lost by its damaged model."""

    models: int
    wounds_lost: int


#: The state of a target unit: one TargetState per model group, in allocation order.
UnitState = tuple[TargetState, ...]


class Group(NamedTuple):
    """What allocation needs to know of a model group."""

    wounds: int
    character: bool = False
