"""Files players edit or share: unit files, named rules, inline profiles, datasheet pages,
BattleScribe data and army lists."""

from .paths import data_dir

__all__ = ["data_dir"]
