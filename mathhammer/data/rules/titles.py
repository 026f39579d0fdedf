"""Keyword phrases written in title case, read whole as keywords (:func:`title_keywords`):
"Deathwing Infantry" is DEATHWING INFANTRY, not INFANTRY (:func:`.sentences.normalize` uses
it on every text).

>>> title_keywords("Each time a Deathwing Infantry unit from your army makes an attack")
'Each time a DEATHWING INFANTRY unit from your army makes an attack'
"""

from __future__ import annotations

import re

from .guard import STATES


def title_keywords(text: str) -> str:
    """``text`` (its markup gone, one space between words) with each list of keyword phrases
    in title case before "unit(s)"/"model(s)" in capitals, when it is one
    (:func:`_title_keywords`)."""
    return _TITLE_LIST.sub(_title_keywords, text)


#: a keyword phrase written in title case, read whole ("Deathwing Infantry", "War Walker",
#: "Leagues of Votann Vehicle"): capitalised words (each part of a hyphenated one too: not
#: "Battle-shocked"), "of (the)" between two of them
_TITLE_WORD = r"[A-Z][\w']*(?:-[A-Z][\w']*)*(?![\w'\-])"
_TITLE_RUN = rf"{_TITLE_WORD}(?: (?:of (?:the )?)?{_TITLE_WORD})*"
#: a list of such phrases right before "unit(s)"/"model(s)" ("a Dire Avenger, Guardian,
#: Support Weapon or War WALKER model from your army")
_TITLE_LIST = re.compile(rf"(?<![\w'\-])(?P<list>{_TITLE_RUN}(?:(?:,? (?:and/or|or|and) |, | ?/ ?)"
                         rf"{_TITLE_RUN})*)(?= (?:units?|models?)\b)")
#: the words that open a phrase without being keywords ("That VEHICLE model", "For Each
#: ACOLYTE HYBRIDS unit", "Friendly INFANTRY models", "add D3 Ripper SWARM models")
_NOT_KEYWORD = {"a", "an", "the", "that", "this", "those", "these", "each", "every", "one", "two",
                "three", "any", "all", "other", "another", "friendly", "enemy", "for", "if",
                "when", "while", "whilst", "until", "against", "select", "only", "in", "at",
                "your", "its", "their", "up", "such", "both", "either", "no", "some", "and",
                "or", "of", "with", "without", "within", "after", "before", "then", "once",
                "it", "add", "improve", "worsen", "subtract", "you", "from", "to", "by", "on"}
#: game states a unit is in for a while, and roles, written like keywords: none is a datasheet's
_STATES = STATES | {"RESERVES", "WARLORD"}
_CORE_CAPS = re.compile(r"\b(?:MONSTER|VEHICLE|INFANTRY|CHARACTER|TITANIC|MOUNTED|BEAST|SWARM|"
                        r"PSYKER|TOWERING|WALKER|BATTLELINE|AIRCRAFT|FLY|FORTIFICATION)S?\b")


def _title_keywords(m: re.Match[str]) -> str:
    """A list of keyword phrases before "unit(s)"/"model(s)" in capitals, each whole, when it is
    one: friendly units, units from your army, or a list with a core keyword or a phrase in
    capitals in it ("Deathwing INFANTRY" is DEATHWING INFANTRY, not INFANTRY); else as written.

    >>> title_keywords("Each time a Deathwing Infantry unit from your army makes an attack")
    'Each time a DEATHWING INFANTRY unit from your army makes an attack'
    >>> title_keywords("That Vehicle model regains up to D3 wounds; Lone Operative units")
    'That Vehicle model regains up to D3 wounds; Lone Operative units'

    Not keywords: a verb ("you can Empower units from your army"), a game state ("for each
    Observer unit from your army", "one GREY KNIGHTS Reserves unit"), the first word of a
    sentence run into the list ("RED CORSAIRS RAIDERS This unit"); and a list of commas only is
    no list: its last phrase only ("a surplus in Morale, ARTILLERY units").

    >>> title_keywords("you can Empower units from your army; a surplus in Tithe Pool, "
    ...                "Regiment units from your army")
    'you can Empower units from your army; a surplus in Tithe Pool, REGIMENT units from your army'
    """
    runs = re.split(r"(,? (?:and/or|or|and) |, | ?/ ?)", m.group("list"))
    if len(runs) > 1 and all(sep == ", " for sep in runs[1::2]):
        head = "".join(runs[:-1])  # "Morale, ARTILLERY units": the last phrase only
        return head + _read(m.string, m.start() + len(head), m.end(), runs[-1:])
    return _read(m.string, m.start(), m.end(), runs)


def _read(text: str, start: int, at: int, runs: list[str]) -> str:
    """The phrases ``runs`` (with their separators) of ``text[start:at]``, in capitals when
    they are keywords (:func:`_title_keywords`)."""
    written = text[start:at]
    words = written.replace(",", " ").replace("/", " ").split()
    if re.search(r"'s$", runs[-1]) or re.search(r"\b(?:can|cannot|must|may|to|will) $",
                                                text[:start], re.I) or any(
            w.upper() in _STATES for w in words) or words[-1].lower() in _NOT_KEYWORD:
        return written  # "this PSYKER's unit": whose unit; a verb, a state, a sentence's start
    kept = [_keyword_words(r) for r in runs[::2]]
    keyed = bool(re.match(r" (?:units?|models?)(?: \([^)]*\))? (?:from|in) your (?:crusade )?"
                          r"(?:army|force)\b", text[at:])) or bool(
        re.search(r"\bfriendly $", text[:start], re.I)) or any(
        _CORE_CAPS.search(k) or (k.isupper() and any(c.isalpha() for c in k)) for _s, k in kept)
    if not keyed or not any(k for _s, k in kept):
        return written
    runs = list(runs)
    runs[::2] = [f"{s} {k.upper()}" if s and k else s or k.upper() for s, k in kept]
    return "".join(runs)


def _keyword_words(run: str) -> tuple[str, str]:
    """A phrase cut before its first word that may be a keyword ("For Each", "ACOLYTE
    HYBRIDS")."""
    words = run.split(" ")
    n = 0
    while n < len(words) and (words[n].lower() in _NOT_KEYWORD or re.fullmatch(r"D\d+",
                                                                              words[n])):
        n += 1
    return " ".join(words[:n]), " ".join(words[n:])




__all__ = ["title_keywords"]
