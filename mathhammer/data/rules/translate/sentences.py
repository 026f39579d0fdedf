"""An ability's text as the translator reads it: normalised, cut into sentences and clauses (and
keyword phrases), and whether it can change an attack at all."""

from __future__ import annotations

import re

# -- reading the text ------------------------------------------------------------------------

_RELEVANT = re.compile(
    r"hit roll|wound roll|saving throw|invulnerable save|feel no pain|armour penetration|"
    r"(?:attacks|strength|damage|ballistic skill|weapon skill)(?: and \w+)* characteristic|"
    r"critical (?:hit|wound)|\[[a-z][a-z \-0-9+]*\]|benefit of cover|stealth abilit|"
    r"re-roll (?:the |a )?damage|\bdamage roll|(?:^|\s)[+-]\d ap\b"
)


def normalize(text: str) -> str:
    """Ability text without its markup, keywords (``^^Monster^^``) in capitals.

    >>> normalize("**^^Monster^^** units ’have’ ■ re‑roll")
    "MONSTER units 'have' . re-roll"
    >>> normalize("an **^Anathema Psykana^^** unit")
    'an ANATHEMA PSYKANA unit'
    """
    # a keyword opened with one caret is the data's typo ("^Anathema Psykana^^")
    t = re.sub(r"\^\^?\**([^^\n]+?)\**\^\^", lambda m: m.group(1).upper(), text)
    t = t.replace("**", "").replace("^^", "").replace("’", "'").replace("‘", "'")
    t = re.sub(r"[‐‑‒–—]", "-", t)
    t = re.sub(r"[■•●▪]|(?:^|\n)\s*[-–]\s+", ". ", t)
    t = re.sub(r"\]\]+", "]", re.sub(r"\[\[+", "[", t))
    t = re.sub(r"\bre[- ]?roll", "re-roll", t, flags=re.I)
    for typo, right in _TYPOS:
        t = typo.sub(right, t)
    return " ".join(t.split())


#: the data's typos, put right before reading ("subtract 1 form the Hit roll")
_TYPOS = [(re.compile(p, re.I), r) for p, r in (
    (r"\b(subtract \d) form\b", r"\1 from"), (r"\bfeel not pain\b", "Feel No Pain"),
    (r"\b(add \d) the (strength|attacks|damage)\b", r"\1 to the \2"),
    (r"\bfriending\b", "friendly"), (r"\bmodel's in\b", "models in"),
    (r"\bhit ro ll\b", "Hit roll"), (r"\bwound ro ll\b", "Wound roll"),
    (r"\b(hit|wound) roll or 1\b", r"\1 roll of 1"),
    (r"\b(improve|worsen) that (armour penetration|strength|damage|attacks)\b", r"\1 the \2"),
    (r"\[([A-Z][A-Z \-]+?) abilit(?:y|ies)\]", r"[\1] abilities"), (r"\babilty\b", "ability"),
    # a weapon ability named without its brackets: "have the Devastating Wounds ability"
    (r"\bthe (lethal hits|devastating wounds|sustained hits \d|precision|lance|ignores cover|"
     r"twin-linked|hazardous) abilit", r"the [\1] abilit"))] + [
    # "MONSTERor VEHICLEunit": a keyword run into the next word (case matters here)
    (re.compile(r"\b([A-Z]{3,})(or|and)\s"), r"\1 \2 "),
    (re.compile(r"\b([A-Z]{3,})(units?|models?)\b"), r"\1 \2"),
    # the core keywords written in title case ("targets a Monster or Vehicle model")
    (re.compile(r"\b(Monster|Vehicle|Infantry|Character|Titanic|Mounted|Beast|Swarm|Psyker|"
                r"Towering|Walker|Battleline|Aircraft|Fly)(s?)\b(?= (?:or|and|units?|models?)\b|"
                r"(?:,| or| and) [A-Z])"), lambda m: m.group(1).upper() + m.group(2))]


def is_attack_relevant(text: str) -> bool:
    """Whether an ability's text changes a roll or characteristic of an attack (the ones the
    coverage counts).

    >>> is_attack_relevant("Add 1 to the Hit roll."), is_attack_relevant("Gain 1CP.")
    (True, False)
    """
    return bool(_RELEVANT.search(normalize(text).lower()))


def _sentences(text: str) -> list[str]:
    """Sentences, each cut into its clauses (:func:`_clauses`); a sentence ending in ':' is the
    head of the bullets that follow (each bullet is read with it), and a short one (a name:
    "Panegyric Procession:") their label under the head.

    >>> for s in _sentences("Select one of the following: Fury: Add 1 to the Hit roll. Rage: "
    ...                     "Add 1 to the Wound roll."):
    ...     print(s)
    Select one of the following, Fury, Add 1 to the Hit roll
    Select one of the following, Rage, Add 1 to the Wound roll
    """
    parts = [p.strip() for p in re.split(r"(?<=[.:;])\s+(?=[A-Z.(\[])|(?<!\s)\s*\.\s*\.\s*|"
                                         r"(?<!\s)\s+(?=\d\s+-\s+[A-Z][a-z]+\s+"
                                         r"(?:\([A-Z][a-z]+\)\s+)?[A-Z])", text)]
    out, head, label = [], "", ""
    for p in parts:
        p = p.strip(" .")
        if not p:
            continue
        if p.endswith(":"):  # "...attacks have:" takes its bullets as objects
            body = p[:-1]
            if head and len(body.split()) <= 6 and not _CLAUSE_VERB.search(body):
                label = body + ", "  # a bullet's name under the head
            else:
                head, label = body + (" " if re.search(r"\b(?:have|has)$", body) else ", "), ""
            continue
        out += [head + label + c for c in _clauses(p)]
    return out


def _second_clauses(text: str) -> set[str]:
    """The clauses of a text that a sentence's split made (a second effect with a condition
    of its own): each is an option, not a part of the rule before it."""
    out: set[str] = set()
    for s in _sentences(text):
        cut = _clauses(s)
        out.update(cut[1:] if len(cut) > 1 else ())
    return out


#: what makes a head a sentence rather than a bullet's name
_CLAUSE_VERB = re.compile(r"\b(?:each time|while|when|if|select|have|has|add|subtract|improve|"
                          r"worsen|re-roll|until|one of the following|is|are|can)\b", re.I)
#: an effect's verb: where a clause's effect begins
_EFFECT_VERB = re.compile(r"\b(?:you can re-roll|re-roll|add|subtract|improve|worsen|halve|"
                          r"hits are scored)\b|\bha(?:s|ve) (?:the |an? )?(?:\[|\d\+|stealth|"
                          r"benefit of cover|feel no pain|invulnerable)", re.I)
#: where a sentence holds a second effect with a condition of its own ("..., and add 1 to the
#: Wound roll as well if ...", "... and, if ..., subtract 1 from the Wound roll as well"), or a
#: second subject ("..., and each time a ranged attack targets ...", "...; on a 6, ...")
_SECOND = re.compile(
    r",?(?<!\s)\s+and,?\s+(?=if [^,.;]+,\s*(?:you can re-roll|re-roll|add|subtract|improve|worsen|"
    r"(?:that attack|it|those attacks|those weapons) ha(?:s|ve))\b)|"
    r",\s+or\s+(?=(?:on\s+)?unmodified hit rolls of \d\+ instead\b)|"
    r",\s+and\s+(?=while\b|all other\b)|"
    # "weapons equipped by that model have [LETHAL HITS], and melee weapons equipped by that
    # model have [LANCE]": two grants, each with its own weapons; "..., but while that unit
    # contains 10 or more models, that weapon has [HAZARDOUS]": a condition of its own
    r",\s+and\s+(?=(?:ranged |melee )weapons equipped by\b)|,\s+but\s+(?=while\b)|"
    r",\s+and\s+(?=(?:you can re-roll|re-roll|add|subtract|improve|worsen)\b[^.;]*\b(?:as "
    r"well|if|while)\b)|"
    r",?(?<!\s)\s+and\s+(?=each time\b)|;\s+(?=\S)|"
    r"(?<!\s)\s+and\s+(?=you can (?!re-roll|ignore)\w)|"
    # "..., and add 2 to the Attacks characteristic of its sweep profile": its own weapons
    r",\s+and\s+(?=(?:add|subtract|improve|worsen)\s+(?:\d|the)\b[^.;]*\bcharacteristics? of "
    r"(?!that attack|those attacks|it\b|those weapons|these weapons|that weapon|its weapons))",
    re.I)


def _clauses(sentence: str) -> list[str]:
    """A sentence cut where a second effect with its own condition, or a second subject,
    begins; a second effect keeps the first clause's scaffolding (its "each time ... makes an
    attack," before the first effect), so each clause names whose attacks it changes.

    >>> for c in _clauses("Each time a model in this unit makes an attack, add 1 to the Hit "
    ...                   "roll, and add 1 to the Wound roll as well if the target is Below "
    ...                   "Half-strength"):
    ...     print(c)
    Each time a model in this unit makes an attack, add 1 to the Hit roll
    Each time a model in this unit makes an attack, add 1 to the Wound roll as well if the \
target is Below Half-strength
    """
    out: list[str] = []
    rest, at = sentence, 0
    while True:
        m = _SECOND.search(rest, at)
        if m is None:
            out.append(rest)
            return out
        if not _EFFECT_VERB.search(rest[:m.start()]):
            # "you can roll one D6; on a 1, ...; on a 2-5, ...": no effect yet, the first cut
            # after one (the D6's first result keeps the roll before it)
            at = m.end()
            continue
        first, rest, at = rest[:m.start()], rest[m.end():], 0
        out.append(first)
        if not re.match(r"(?:each time|on an? \d)\b", rest, re.I):
            verb = _EFFECT_VERB.search(first)
            prefix = first[:verb.start()] if verb else ""
            if re.match(r"if\b", rest, re.I) or not re.match(r"(?:while|if|when)\b", prefix,
                                                            re.I):
                rest = prefix + rest


def _keyword_phrases(words: str) -> tuple[str, ...]:
    """The keyword phrases of a unit's description ("Adeptus Astartes Mounted or Adeptus
    Astartes Fly Vehicle"), upper case, one per alternative.

    >>> _keyword_phrases("HARLEQUINS MOUNTED and HARLEQUINS VEHICLE")
    ('HARLEQUINS MOUNTED', 'HARLEQUINS VEHICLE')
    """
    words = re.sub(r"\s+", " ", words.replace(",", ", ")).strip(" ,")
    parts = re.split(r",? and/or |,? or |,? and |, |/", words, flags=re.I)
    return tuple(dict.fromkeys(" ".join(p.upper().split()) for p in parts if p.strip()))
