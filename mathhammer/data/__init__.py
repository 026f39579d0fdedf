"""Files players edit or share, read into model values, by what they do: :mod:`.units.bundled` (unit
values and files), :mod:`.bsdata` (the BattleScribe reader), :mod:`.store` (the installed
BattleScribe data and its compiled store), :mod:`.rules` (rules from data and rule files),
:mod:`.army` (army lists) and :mod:`.typed` (what a player types)."""

from ..resources import data_dir

__all__ = ["data_dir"]
