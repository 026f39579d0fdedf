"""mathhammer: exact probabilities for Warhammer 40,000 attack sequences.

The curated API: every name below is imported from its module on first use, so a command
that needs only a few of them starts quickly.

>>> import mathhammer as mh
>>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> meq = mh.Target(models=5, toughness=4, save=3, wounds=2)
>>> mh.attack((bolt, 5), meq).unsaved.mean()  # 10 attacks * 2/3 hit * 1/2 wound * 1/2 unsaved
Fraction(5, 3)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name -> the module that defines it
_WHERE = {
    "PMF": "prob.pmf", "dice": "prob.dice",
    "clear_caches": "cache",
    "Abilities": "model.abilities", "parse_abilities": "model.abilities",
    "Options": "model.options", "Target": "model.profiles", "Weapon": "model.profiles",
    "RuleSet": "model.ruleset", "load_ruleset": "model.ruleset", "Squad": "model.squad",
    "TargetState": "model.state",
    "crushing_impact": "mechanics.effects", "deadly_demise": "mechanics.effects",
    "hazardous": "mechanics.effects", "mortal_wounds": "mechanics.effects",
    "reanimate": "mechanics.effects",
    "Result": "engine.attack", "attack": "library", "loadout": "library",
    "Timeline": "engine.sequence", "sequence": "engine.sequence", "turns": "library",
    "NamedRule": "model.named", "apply_rules": "data.rules.named",
    "find_rule": "data.rules.named", "list_rules": "data.rules.named",
    "Unit": "data.units.unit", "list_units": "data.units.bundled",
    "load_unit": "data.units.bundled",
    "import_datasheet": "data.units.importer",
    "import_catalogue": "data.bsdata", "list_catalogue_units": "data.bsdata",
    "load_catalogue_unit": "data.bsdata", "write_catalogue_unit": "data.bsdata",
    "Army": "data.army", "ArmyUnit": "data.army", "load_army": "data.army",
    "parse_army": "data.army",
    "find_unit": "data.typed.lookup",
    "Query": "app.scenario", "attacker_of": "app.specs", "target_of": "app.specs",
}

__all__ = [
    "Abilities", "Army", "ArmyUnit", "NamedRule", "Options", "PMF", "Result", "RuleSet", "Squad",
    "Target", "TargetState", "Timeline", "Unit", "Weapon", "apply_rules", "attack", "clear_caches",
    "crushing_impact", "deadly_demise", "dice", "find_rule", "hazardous", "import_catalogue",
    "import_datasheet", "list_catalogue_units", "list_rules", "list_units", "load_army",
    "loadout",
    "load_catalogue_unit", "load_ruleset", "load_unit", "mortal_wounds", "parse_abilities",
    "parse_army", "reanimate", "sequence", "turns", "write_catalogue_unit",
    "find_unit", "Query", "attacker_of", "target_of",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'mathhammer' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])


if TYPE_CHECKING:  # for type checkers and editors: the same names, imported eagerly
    from .app.scenario import Query
    from .app.specs import attacker_of, target_of
    from .cache import clear_caches
    from .data.army import Army, ArmyUnit, load_army, parse_army
    from .data.bsdata import (
        import_catalogue,
        list_catalogue_units,
        load_catalogue_unit,
        write_catalogue_unit,
    )
    from .data.rules.named import apply_rules, find_rule, list_rules
    from .data.typed.lookup import find_unit
    from .data.units.bundled import list_units, load_unit
    from .data.units.importer import import_datasheet
    from .data.units.unit import Unit
    from .engine.attack import Result
    from .engine.sequence import Timeline, sequence
    from .library import attack, loadout, turns
    from .mechanics.effects import (
        crushing_impact,
        deadly_demise,
        hazardous,
        mortal_wounds,
        reanimate,
    )
    from .model.abilities import Abilities, parse_abilities
    from .model.named import NamedRule
    from .model.options import Options
    from .model.profiles import Target, Weapon
    from .model.ruleset import RuleSet, load_ruleset
    from .model.squad import Squad
    from .model.state import TargetState
    from .prob.dice import dice
    from .prob.pmf import PMF
