"""mathhammer: exact probabilities for Warhammer 40,000 attack sequences.

>>> import mathhammer as mh
>>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> meq = mh.Target(models=5, toughness=4, save=3, wounds=2)
>>> mh.attack((bolt, 5), meq).unsaved.mean()  # 10 attacks * 2/3 hit * 1/2 wound * 1/2 unsaved
Fraction(5, 3)
"""

from .cache import clear_caches
from .data.army import Army, ArmyUnit, load_army, parse_army
from .data.bsdata import (
    import_catalogue,
    list_catalogue_units,
    load_catalogue_unit,
    write_catalogue_unit,
)
from .data.importer import import_datasheet
from .data.named_rules import NamedRule, apply_rules, find_rule, list_rules
from .data.units import Unit, list_units, load_unit
from .engine.attack import Result, attack
from .engine.sequence import Timeline, sequence, turns
from .mechanics.effects import crushing_impact, deadly_demise, hazardous, mortal_wounds, reanimate
from .model.abilities import Abilities, parse_abilities
from .model.options import Options
from .model.profiles import Target, Weapon
from .model.ruleset import RuleSet, load_ruleset
from .model.squad import Squad
from .model.state import TargetState
from .prob.dice import dice
from .prob.pmf import PMF

__version__ = "0.1.0"

__all__ = [
    "PMF", "Abilities", "Army", "ArmyUnit", "NamedRule", "Options", "Result", "RuleSet",
    "Squad", "Target", "TargetState", "Timeline", "Unit", "Weapon",
    "apply_rules", "attack", "clear_caches", "crushing_impact", "deadly_demise", "dice",
    "find_rule",
    "hazardous", "import_catalogue", "import_datasheet", "list_catalogue_units", "list_rules",
    "list_units", "load_army", "load_catalogue_unit", "load_ruleset", "load_unit", "mortal_wounds",
    "parse_abilities", "parse_army", "reanimate", "sequence", "turns", "write_catalogue_unit",
]
