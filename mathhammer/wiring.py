"""What a lower layer asks of a higher one, installed from above.

The data's loadout (:meth:`mathhammer.data.units.unit.Unit.loadout`) chooses weapons by a score that
only the engine can work out; a query passes it in (:func:`mathhammer.engine.attack.
value_against`). A unit's loadout asked for without one (``unit.as_profiles()`` alone, in the
library) is scored by :data:`weapon_score`, which the package root (:mod:`mathhammer`) sets to
the engine's before any module of the package runs: the data and the model import no engine.

>>> import mathhammer
>>> weapon_score is not None
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: ``(target, options, named_rules) -> score``: the engine's scoring (set by the package root)
weapon_score: Callable[..., Any] | None = None
