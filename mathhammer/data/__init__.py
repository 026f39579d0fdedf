"""Files players edit or share, read into model values: :mod:`.units` (bundled and own unit
files; :mod:`.unit` the values, :mod:`.unit_file` the format), :mod:`.named_rules` (with
:mod:`.named_schema`), :mod:`.inline` (profiles typed on the command line), :mod:`.lookup` (a
unit from any of these), :mod:`.importer` (datasheet pages), :mod:`.bsdata` (BattleScribe
catalogues), :mod:`.datastore` (the installed BattleScribe data), :mod:`.unit_index` (its
units by name), :mod:`.army` (army lists) and :mod:`.names` (how every lookup matches a
name)."""

from .paths import data_dir

__all__ = ["data_dir"]
