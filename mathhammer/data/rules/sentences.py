"""Ability text made ready for the translator (:mod:`.translate`): its markup and the data's
typos and commentary removed (:func:`normalize`, :func:`rules_text`), whether it changes an
attack at all (:func:`is_attack_relevant`), and cut into sentences, an "or if" sentence's
branches and clauses.

>>> is_attack_relevant("Each time this model makes an attack, add 1 to the Hit roll.")
True
>>> is_attack_relevant("At the start of your Command phase, gain 1CP.")
False"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...errors import InputError
from ...model.abilities import canonical
from .titles import title_keywords

RELEVANT = re.compile(
    r"hit roll|wound roll|saving throw|invulnerable save|feel no pain|armour penetration|"
    r"(?:attacks|strength|damage|ballistic skill|weapon skill)(?: and \w+)* characteristic|"
    r"critical (?:hit|wound)|\[[a-z][a-z \-0-9+]*\]|benefit of cover|stealth abilit|"
    r"re-roll (?:the |a )?damage|\bdamage roll|(?:^|\s)[+-]\d ap\b|"
    # the 11e short forms: "melee attacks have +1 S", "+1 WS and AP", "+4 A"
    r"\bha(?:ve|s):? \.? ?\+\d (?:ws|bs|s|a|d)\b(?! (?:roll|move|characteristic))"
)


#: where a bullet and a paragraph began, kept (``marks=True``) in the text the translator reads:
#: characters of no word and no space, glued to the first word; :func:`split_sentences` reads
#: them (a bullet's head and setup are that bullet's), and drops them
BULLET, PARAGRAPH = "\ue000", "\ue001"
_MARK = re.compile("[\ue000\ue001]")


def unmarked(text: str) -> str:
    """A text normalized with its marks, without them (as :func:`normalize` makes it)."""
    return _MARK.sub("", text)


def normalize(text: str, marks: bool = False) -> str:
    """Ability text without its markup, keywords (``^^Monster^^``) in capitals; with
    ``marks``, where each bullet and paragraph began (:data:`BULLET`, :data:`PARAGRAPH`).

    >>> normalize("**^^Monster^^** units ’have’ ■ re‑roll")
    "MONSTER units 'have' . re-roll"
    >>> normalize("an **^Anathema Psykana^^** unit")
    'an ANATHEMA PSYKANA unit'
    >>> normalize("Gain 1CP.\\n\\nSelect one:\\n- Fury.", marks=True).replace(BULLET, "|")
    'Gain 1CP. \ue001Select one:. |Fury.'
    """
    # a keyword opened with one caret is the data's typo ("^Anathema Psykana^^")
    t = re.sub(r"\^\^?\**([^^\n]+?)\**\^\^", lambda m: m.group(1).upper(),
               text if marks else unmarked(text))
    t = t.replace("**", "").replace("^^", "").replace("’", "'").replace("‘", "'")
    t = re.sub(r"[‐‑‒–—]", "-", t)
    t = re.sub(r"[■•●▪]|(?:^|\n)\s*[-–]\s+", ". " + BULLET * marks, t)
    if marks:  # a blank line, or a line after a sentence's end ("- ... Power Matrix.\nEach ...")
        t = re.sub(r"\n[ \t]*\n|(?<=[.!?])[ \t]*\n(?=[ \t]*[A-Z\[])", "\n" + PARAGRAPH, t)
    t = re.sub(r"\]\]+", "]", re.sub(r"\[\[+", "[", t))
    t = re.sub(r"\bre[- ]?roll", "re-roll", t, flags=re.I)
    for typo, right in _TYPOS:
        t = typo.sub(right, t)
    t = " ".join(t.split())
    return title_keywords(re.sub(r"([\ue000\ue001]) ", r"\1", t) if marks else t)


#: the data's typos, put right before reading ("subtract 1 form the Hit roll")
#: (a typo's pattern, its replacement: a template or a function of the match)
_Fix = tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]
_TYPOS: list[_Fix] = [(re.compile(p, re.I), r) for p, r in (
    (r"\b(subtract \d) form\b", r"\1 from"), (r"\bfeel not pain\b", "Feel No Pain"),
    (r"\b(add \d) the (strength|attacks|damage)\b", r"\1 to the \2"),
    (r"\bfriending\b", "friendly"), (r"\bmodel's in\b", "models in"),
    (r"\bhit ro ll\b", "Hit roll"), (r"\bwound ro ll\b", "Wound roll"), (r"\badpetus\b", "Adeptus"),
    (r"\bis allocated (the bearer|this model)\b", r"is allocated to \1"),
    (r"\b(hit|wound) roll or 1\b", r"\1 roll of 1"),
    (r"\b(re-roll a (?:hit|wound)) of 1\b", r"\1 roll of 1"),
    (r"\b(improve|worsen) that (armour penetration|strength|damage|attacks)\b", r"\1 the \2"),
    (r"\[([A-Z][A-Z \-]+?) abilit(?:y|ies)\]", r"[\1] abilities"), (r"\babilty\b", "ability"),
    # a weapon ability named without its brackets: "have the Devastating Wounds ability"
    (r"\bthe (lethal hits|devastating wounds|sustained hits \d|precision|lance|ignores cover|"
     r"twin-linked|hazardous) abilit", r"the [\1] abilit"))] + [
    # "MONSTERor VEHICLEunit": a keyword run into the next word (case matters here)
    (re.compile(r"\b([A-Z]{3,})(or|and)\s"), r"\1 \2 "),
    (re.compile(r"\b([A-Z]{3,})(units?|models?)\b"), r"\1 \2"),
    # the core keywords written in title case ("targets a Monster or Vehicle model", "a
    # Monster, Vehicle, or Fortification unit", a list broken over lines)
    (re.compile(r"\b(Monster|Vehicle|Infantry|Character|Titanic|Mounted|Beast|Swarm|Psyker|"
                r"Towering|Walker|Battleline|Aircraft|Fly|Fortification)(s?)\b(?=\s+(?:or|and|"
                r"units?|models?)\b|,\s+(?:(?:or|and)\s+)?[A-Z])"),
     lambda m: m.group(1).upper() + m.group(2))]

#: commentary, not rules: a Designer's Note or a Data Author Note (in the data always the
#: text's last paragraph: "**Designer's Note:** *If an ARCHON has this Crusade Relic, ...*")
_COMMENTARY = re.compile(r"\b(?:data\s+)?(?:designer[’']?s[’']?|author)\s+notes?\b[^\n]*", re.I)
#: a prohibition on re-rolls ("you cannot re-roll the Hit roll", "Hit rolls cannot be
#: re-rolled": its clause begins after the last comma or stop before it): it gives no re-roll
_NO_REROLL = re.compile(r"\b(?:you )?(?:cannot|can't|can ?not|may not|must not) (?:re-roll\b|"
                        r"(be re-rolled\b))[^,.;]*", re.I)
#: an effect on the attacks of a Stratagem being resolved ("while resolving that Stratagem"):
#: of Fire Overwatch, when the text names it
DURING_OVERWATCH = re.compile(r"\b(?:while|when) resolving that strat[ae]gem\b", re.I)
#: a clause's joining word ("..., and that Hit roll cannot be re-rolled"), not quoted
CONJUNCTION = re.compile(r"^(?:and|but|or)\s+", re.I)
#: the rolls of an attack the engine re-rolls: forbidding a re-roll of another (a saving throw,
#: an Advance roll) changes no attack the engine resolves
_REROLLED = re.compile(r"\b(?:hit|wound|damage) rolls?\b", re.I)


def prohibitions(text: str) -> list[tuple[int, int]]:
    """The spans of the clauses of ``text`` that forbid a re-roll (the passive one from the
    start of its clause)."""
    spans = []
    for m in _NO_REROLL.finditer(text):
        start = m.start()
        if m.group(1):  # "that Hit roll cannot be re-rolled": its subject too
            start = max(text.rfind(c, 0, start) for c in ",.;") + 1
        spans.append((start, m.end()))
    return spans


def rules_text(text: str, marks: bool = False) -> str:
    """An ability's text normalized (:func:`normalize`, with its ``marks``), without its
    commentary (a Designer's Note) and the prohibitions on re-rolls of rolls the engine never
    re-rolls.

    >>> rules_text("This model has a 2+ invulnerable save. You cannot re-roll invulnerable "
    ...            "saving throws made for this model.\\n\\n**Designer's Note:** *Place a token.*")
    'This model has a 2+ invulnerable save. .'
    """
    clean = normalize(_COMMENTARY.sub("", text), marks).rstrip(" *_" + BULLET + PARAGRAPH)
    kept, at = [], 0
    for a, b in prohibitions(clean):
        if not _REROLLED.search(clean, a, b):
            kept.append(clean[at:max(at, a)])
            at = max(at, b)
    return "".join(kept) + clean[at:]


def is_attack_relevant(text: str) -> bool:
    """Whether an ability's text changes a roll or characteristic of an attack (the ones the
    coverage counts).

    >>> is_attack_relevant("Add 1 to the Hit roll."), is_attack_relevant("Gain 1CP.")
    (True, False)
    >>> is_attack_relevant("You cannot re-roll invulnerable saving throws made for this model.")
    False
    """
    return bool(RELEVANT.search(rules_text(text).lower()))


#: a head that grants abilities and more in its bullets: "Ranged weapons ... have the
#: [ANTI-MONSTER 5+] and [ANTI-VEHICLE 5+] abilities, and:" (the "have" and what follows it)
_MORE_ABILITIES = re.compile(r"(.*\b(?:have|has) )(the \[[^.]*\babilit(?:y|ies)),? and$")


def split_sentences(text: str, branches: set[str] | None = None,
                    bullets: list[int] | None = None) -> list[str]:
    """Sentences, each cut into its clauses (:func:`_clauses`); a sentence ending in ':' is the
    head of the bullets that follow (each bullet is read with it), and a short one (a name:
    "Panegyric Procession:") their label under the head. A condition of two alternatives makes
    a sentence each (:func:`_or_branches`; ``branches`` collects them). In a text with its
    marks (:func:`normalize`), a head said in a bullet is that bullet's, and one before bullets
    ends with the paragraph after them; ``bullets`` gets each sentence's bullet (1, 2, ...;
    0 outside the bullets).

    >>> for s in split_sentences("Select one of the following: Fury: Add 1 to the Hit roll. Rage: "
    ...                     "Add 1 to the Wound roll."):
    ...     print(s)
    Select one of the following, Fury, Add 1 to the Hit roll
    Select one of the following, Rage, Add 1 to the Wound roll
    """
    out: list[str] = []
    where: list[int] = []  # each sentence's bullet
    head, label = "", ""
    bullet = count = 0  # the bullet a piece is in (0: none), and how many began
    head_in = 0  # the bullet the head was said in
    listed = False  # bullets came under the head
    for p, kinds in _pieces(text):
        if BULLET in kinds:
            count, bullet, label = count + 1, count + 1, ""
            if head and head_in:
                head = ""  # "- Creeping Barrage: Roll one D6 ...: ..." ends at the next bullet
            listed = bool(head)
        elif PARAGRAPH in kinds:
            if head and (head_in or listed):
                head, label = "", ""  # the paragraph after a head's bullets is not one of them
            bullet = 0
        if p.endswith(":"):  # "...attacks have:" takes its bullets as objects
            body = p[:-1]
            more = _MORE_ABILITIES.match(body)
            if head and len(body.split()) <= 6 and not _CLAUSE_VERB.search(body):
                label = body + ", "  # a bullet's name under the head
                continue
            if more:  # "X have the [A] ability, and: - The [B] ability if ...": a sentence,
                # and its bullets more objects of its "have"
                made = _clauses(more.group(1) + more.group(2))
                out, where = out + made, where + [bullet] * len(made)
                head, label = more.group(1), ""
            else:
                head, label = body + (" " if re.search(r"\b(?:have|has)$", body) else ", "), ""
            head_in, listed = bullet, False
            continue
        alternatives = _or_branches(p)
        made = [head + label + c for branch in alternatives for c in _clauses(branch)]
        if len(alternatives) > 1 and branches is not None:
            branches.update(made)
        out, where = out + made, where + [bullet] * len(made)
    if bullets is not None:
        bullets += where
    return out


_SPLIT = re.compile(r"(?<=[.:;])\s+(?=[A-Z.(\[])|(?<!\s)\s*\.\s*\.\s*|"
                    r"(?<!\s)\s+(?=\d\s+-\s+[A-Z][a-z]+\s+(?:\([A-Z][a-z]+\)\s+)?[A-Z])")


def _pieces(text: str) -> list[tuple[str, set[str]]]:
    """The text cut where sentences end and where bullets begin ("■ 1-2: [SUSTAINED HITS 1]"
    too), each piece (not empty) with the marks that came before its first word
    (:data:`BULLET`, :data:`PARAGRAPH`)."""
    plain: list[str] = []
    marks: dict[int, set[str]] = {}
    for piece in re.split("([\ue000\ue001])", text):
        if _MARK.fullmatch(piece):
            marks.setdefault(sum(map(len, plain)), set()).add(piece)
        else:
            plain.append(piece)
    flat = "".join(plain)
    cuts = sorted({0, len(flat)} | {at for at, ks in marks.items() if BULLET in ks})
    out: list[tuple[str, set[str]]] = []
    seen = -1
    pending: set[str] = set()
    for lo, hi in zip(cuts, cuts[1:], strict=False):
        start = lo
        for a, b in [m.span() for m in _SPLIT.finditer(flat, lo, hi)] + [(hi, hi)]:
            raw = flat[start:a]
            first = start + len(raw) - len(raw.lstrip(" ."))
            pending |= {k for at, ks in marks.items() if seen < at <= first for k in ks}
            seen, start = first, b
            p = raw.strip().strip(" .")
            if p:
                out.append((p, pending))
                pending = set()
    return out


#: a condition of two alternatives: "if that attack targets a CHARACTER unit or if your Saga
#: is completed, that attack has ...": each alternative a clause of its own (one may be checked
#: by the engine, the other a switch)
_OR_IF = re.compile(r"\b(?P<kw>if|while) (?P<a>(?:(?!\b(?:if|while|each time)\b)[^.;])+?),? or if "
                    r"(?P<b>[^.;]+?),\s*(?:then\s+)?(?=(?:each time|that attack|those attacks|it|"
                    r"you can|add|subtract|improve|worsen|re-roll|until|models?|ranged|melee|"
                    r"weapons?)\b)", re.I)


def _or_branches(sentence: str) -> list[str]:
    """A sentence whose condition has two alternatives ("if A or if B, ..."), one sentence per
    alternative; else the sentence.

    >>> _or_branches("Each time a model makes an attack, if it targets a VEHICLE unit or if you "
    ...              "spend 1CP, add 1 to the Hit roll")  # doctest: +NORMALIZE_WHITESPACE
    ['Each time a model makes an attack, if it targets a VEHICLE unit, add 1 to the Hit roll',
     'Each time a model makes an attack, if you spend 1CP, add 1 to the Hit roll']
    """
    m = _OR_IF.search(sentence)
    if m is None:
        return [sentence]
    head, rest = sentence[:m.start()], sentence[m.end():]
    return [f"{head}{m.group('kw')} {m.group(k).strip()}, {rest}" for k in ("a", "b")]


def second_clauses(text: str) -> set[str]:
    """The clauses of a text that a sentence's split made (a second effect with a condition
    of its own): each is an option, not a part of the rule before it."""
    out: set[str] = set()
    for s in split_sentences(text):
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
        first, rest, skipped, at = rest[:m.start()], rest[m.end():], at, 0
        out.append(first)
        if not re.match(r"(?:each time|on an? \d)\b", rest, re.I):
            # the subject of the clause's verb, from after a cut skipped above ("That weapon
            # is now a Crusade Relic; it has ..., and you can improve ...": not "it you can")
            verb = _EFFECT_VERB.search(first, skipped)
            prefix = first[skipped:verb.start()] if verb else ""
            if re.match(r"you\b", rest, re.I) and not re.match(r"\s*each time\b", prefix, re.I):
                prefix = ""
            if re.match(r"if\b", rest, re.I) or not re.match(r"(?:while|if|when)\b", prefix,
                                                            re.I):
                rest = prefix + rest


def is_weapon_ability(name: str) -> bool:
    """Whether an ability is a weapon ability's definition ("Twin-linked: weapons with
    [TWIN-LINKED] are..."): the engine's own rule, not one to translate."""
    base = re.sub(r"(?<!\s)\s+X\+?$", "", name.strip())
    for candidate in (base, f"{base} 1", f"{base} 4+"):
        try:
            canonical(candidate)
        except (InputError, ValueError):
            continue
        return True
    return False


def keyword_phrases(words: str) -> tuple[str, ...]:
    """The keyword phrases of a unit's description ("Adeptus Astartes Mounted or Adeptus
    Astartes Fly Vehicle"), upper case, one per alternative.

    >>> keyword_phrases("HARLEQUINS MOUNTED and HARLEQUINS VEHICLE")
    ('HARLEQUINS MOUNTED', 'HARLEQUINS VEHICLE')
    """
    words = re.sub(r"\s+", " ", words.replace(",", ", ")).strip(" ,")
    parts = re.split(r",? and/or |,? or |,? and |, |/", words, flags=re.I)
    return tuple(dict.fromkeys(" ".join(p.upper().split()) for p in parts if p.strip()))


__all__ = ["is_attack_relevant", "normalize", "rules_text"]
