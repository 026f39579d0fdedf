"""How names are matched: every lookup by name (unit files, named rules, factions, BattleScribe
catalogues and army lists) compares :func:`name_key` of the name asked for with that of the
names it knows, so a player may type names in any case, with hyphens or underscores for spaces,
and without the exact apostrophes of the printed name.

>>> name_key("Hexmark_Destroyer") == name_key("hexmark destroyer")
True
>>> name_key("Poisoner’s Art") == name_key("poisoner's art")
True
"""

from __future__ import annotations

from ...cache import cached

# lower-cased text: hyphens, underscores, en dashes, apostrophes (straight or curly) and
# backticks are word breaks
_BREAKS = str.maketrans(dict.fromkeys("-_\u2013'\u2018\u2019`", " "))


@cached(maxsize=1 << 16)  # asked tens of thousands of times for a list, of a few thousand names
def name_key(text: str) -> str:
    """A name as it is matched: lower case; ``-``, ``_``, en dashes, apostrophes (straight or
    curly) and backticks as spaces; single spaces, none at either end.

    >>> name_key("  adeptus-mechanicus "), name_key("Kor’sarro Khan"), name_key("Ork Boyz – Nob")
    ('adeptus mechanicus', 'kor sarro khan', 'ork boyz nob')
    """
    return " ".join(str(text).lower().translate(_BREAKS).split())


__all__ = ["name_key"]
