"""Whom a sentence changes (its beneficiary) for the text translator (:mod:`.translate`):
the sentence's subject (who makes the attacks it changes, or who is attacked) read as this
model, this unit, the unit this model leads, friendly units (with their keywords), other
friendly units, an enemy unit (a debuff: the attacks it makes) or the units in cover of this
terrain; "that unit" is the unit the text brought in last.

Why one module: the noun phrases, the intros that bring a unit in ("while a friendly INFANTRY
unit is within 6\"..."), the subject patterns and their classification are one reading of the
sentence's subject; each step reads the phrases the one before found."""

from __future__ import annotations

import re

import attrs

from .parts import Scope
from .sentences import keyword_phrases
from .wordings import EFFECTS, GRANT, SAME_ATTACK

#: the ``model`` of a rule for one model its bearer selects ("select one friendly VEHICLE model
#: within 3\" of this model. ... that model has ..."): a unit of one model, not every model of
#: a larger unit (:func:`mathhammer.data.rules.unit_rules.resolve`)
ONE_MODEL = "#one selected model"


@attrs.frozen
class Whom:
    """A sentence's beneficiary (see :class:`Scope`), with the keywords a friendly unit needs,
    the text that names it, and a model of the unit named by name."""

    scope: Scope
    keywords: tuple[str, ...] = ()
    excluding: tuple[str, ...] = ()
    words: str = ""
    model: str = ""


_NOUN = (r"(?:units?|models?|(?:vehicles?|transports?|characters?|psykers?)"
         r"(?!\s+(?:units?|models?|or|and)\b|,))")
#: a unit or model a text names: "one other friendly ADEPTUS ASTARTES INFANTRY unit", "an enemy
#: unit (excluding MONSTERS)", "a WORLD EATERS model from your army"
_UNIT_NP = re.compile(
    r"\b(?P<det>an?|another|one or more|one|each|every|two|three|up to \w+|any number of|all)\s+"
    r"(?P<adj>(?:(?:other|visible|friendly|friending|enemy|eligible)\s+)*)"
    r"(?P<kw>(?:(?!(?-i:in|of|that|with|within|from|a|an|the|time|each|one|this|those|by|to|"
    r"if|and|is|are|makes?)\b)[A-Za-z0-9'\-/]+,?\s+(?:(?:and|or|and/or)\s+)?){0,10}?)"
    r"(?P<noun>" + _NOUN + r")\b"
    r"(?:\s*\((?:excluding|other than) (?P<excl>[^)]*)\))?"
    r"(?P<tail>\s+(?:from|in) your (?:crusade )?(?:army|force))?"
    r"(?:\s*\((?:excluding|other than) (?P<excl2>[^)]*)\))?", re.I)
#: units named without a determiner: "friendly ADEPTUS ASTARTES units", "KROOT models from your
#: army", "DEATHWATCH units in your army"
_BARE_NP = re.compile(
    r"(?<![A-Za-z'\-])(?:(?P<adj>(?:(?i:other|friendly|enemy)\s+)+)(?P<kw>(?:(?!(?-i:in|of|that|"
    r"with|within|from|a|an|the|by|to|and)\b)[A-Za-z0-9'\-/]+,?\s+(?:(?:and|or|and/or)\s+)?)"
    r"{0,10}?)|(?P<kw2>(?:[A-Z][A-Za-z0-9'\-/]*,?\s+(?:(?:and|or|and/or|OF)\s+)?){1,10}?))"
    r"(?P<noun>units|models)\b"
    r"(?:\s*\((?:excluding|other than) (?P<excl>[^)]*)\))?"
    r"(?P<tail>\s+(?:from|in) your (?i:crusade )?(?:army|force))?"
    r"(?:\s*\((?:excluding|other than) (?P<excl2>[^)]*)\))?")


@attrs.frozen
class _NP:
    """A unit phrase found in a text (see :data:`_UNIT_NP`, :data:`_BARE_NP`)."""

    start: int
    end: int
    adj: str
    kw: str
    noun: str
    tail: bool
    excl: str

    def group(self, name: str | int) -> str:  # what np_whom reads (0: the whole phrase)
        return {"adj": self.adj, "kw": self.kw, "noun": self.noun, "excl": self.excl,
                "tail": "y" if self.tail else "", 0: self.text}.get(name, "")

    text: str = ""

    def end_(self) -> int:
        return self.end


def nps(text: str, at: int | None = None) -> list[_NP]:
    """The unit phrases of a text (or the one starting at ``at``), in order; a phrase with a
    determiner wins over a bare one that overlaps it."""
    found: list[_NP] = []
    for rx in (_UNIT_NP, _BARE_NP):
        ms = [rx.match(text, at)] if at is not None else list(rx.finditer(text))
        for m in ms:
            if m is None:
                continue
            kw = m.groupdict().get("kw") or m.groupdict().get("kw2") or ""
            adj = (m.group("adj") or "") + (" other" if (m.groupdict().get("det") or "")
                                            .lower() == "another" else "")
            np = _NP(m.start(), m.end(), adj, kw, m.group("noun"), bool(m.group("tail")),
                     m.group("excl") or m.group("excl2") or "", m.group(0))
            if rx is _BARE_NP and not (np.adj or np.tail):
                continue
            if any(f.start <= np.start < f.end or np.start <= f.start < np.end for f in found):
                continue
            found.append(np)
    return sorted(found, key=lambda n: n.start)


_GENERIC = {"", "ranged", "melee", "such", "selected", "single", "target", "attacking",
            "targeted", "attacked"}
#: what brings a unit in for a later "that unit" (the NP is searched right after it)
_INTRO_HEAD = re.compile(
    r"\bselect(?:s|ed)?\s+(?=(?:an?|one|two|three|up to \w+|any number of)\b)|"
    r"\b(?:while|when|whilst|if|each time|until)\s+(?=(?:an?|one|each)\s)", re.I)
LEAD_INTRO = re.compile(
    r"\b(?:while|when|if)\s+(?:this|the bearer|your [a-z' \-]+?|this [a-z' \-]+?|the bearer's "
    r"unit)\s+(?:model\s+)?(?:is\s+leading|leads)\s+an?\s+(?:[a-z' \-]+?\s+)?unit\b[^,.]*,?",
    re.I)
#: other units given an ability of their own: "ADEPTUS MECHANICUS units from your army have the
#: following ability" (its "this unit" is each of them)
FRAME = re.compile(r"(?:^|[,.:;]\s*|\b(?:all|each)\s+)(?=(?:[A-Za-z'\-]+\s+){1,8}?"
                   r"(?:units?|models?)"
                   r"(?:\s+\([^)]*\))?\s+(?:from|in) your (?:crusade )?army(?:\s+\([^)]*\))?\s+"
                   r"(?:have|has|gains?) the following (?:the )?abilit)", re.I)
LEADER_INTRO = re.compile(r"\b(?i:while|if) (?i:an?) (?:[A-Z][A-Z'\-]+ ){0,4}(?:CHARACTER|[A-Z]"
                          r"[A-Z'\-]+)(?: model)? is leading (?:this|this model's) unit\b"
                          # the bearer's unit said by what it holds (Court of the Archon)
                          r"|\b(?i:while) (?i:an?) CHARACTER(?: model)? (?i:is leading a unit "
                          r"that contains one or more) [^.;]*? (?i:models)\b")
#: other models of the bearer's unit brought in by keyword: "While one or more OFFICER models are
#: in the same unit as this model, those OFFICER models have ..."
_SAME_UNIT_INTRO = re.compile(r"\b(?i:while) (?i:one or more|an?) ((?:[A-Z][A-Z'\-]+ ){0,3}"
                              r"[A-Z][A-Z'\-]+) (?i:models? (?:is|are) in (?:the same unit as "
                              r"this model|this model's unit))\b")
_SELF_INTRO = re.compile(r"\beach time (this|the bearer's) (unit|model) is selected to "
                         r"(?:shoot|fight)", re.I)


def is_keyword_model(model: str) -> bool:
    """Whether a rule's ``model`` names the unit's models by a keyword ("CHARACTER": its
    Leader; "OFFICER") rather than a model by name ("Warlock") or the data's own model entry
    ("@Wulfen with Death Totem").

    >>> is_keyword_model("OFFICER"), is_keyword_model("Warlock"), is_keyword_model("")
    (True, False, False)
    """
    return bool(model) and not model.startswith("@") and model == model.upper() and \
        any(c.isalpha() for c in model)


#: the keywords kept out right after a unit phrase: " (excluding KROOT, VESPID models)"
_EXCL_AFTER = r"\s*\((?:excluding|other than) ([^)]*)\)"


def np_whom(m: _NP, select: bool, sentence: str) -> Whom | None:
    """The beneficiary a unit phrase names (None: a plain "a model", not a unit brought in)."""
    adj = m.group("adj").lower()
    kw = m.group("kw").strip()
    tail = bool(m.group("tail"))
    noun = m.group("noun").lower()
    if noun.startswith(("vehicle", "transport", "character", "psyker")):
        kw = f"{kw} {noun.rstrip('s')}".strip()
    low_kw = kw.lower()
    if low_kw in _GENERIC or low_kw.split()[-1:] in (["ranged"], ["melee"]):
        kw = ""
    after = sentence[m.end:m.end + 80].lower()
    if not kw and re.match(r"\s*that can fly\b", after):  # "friendly units that can Fly"
        kw = "FLY"
    words = m.group(0).strip()
    excl = m.group("excl")
    if not excl:  # read in a clause cut at a comma of its brackets: the whole sentence's
        whole = re.search(re.escape(words.split(" (")[0]) + _EXCL_AFTER, sentence)
        excl = whole.group(1) if whole else ""
    # "(excluding KROOT and TITANIC models)": the keywords, not the noun
    last = excl.split()[-1:] if excl else []
    if last and last[0].lower() in ("unit", "units", "model", "models"):
        excl = excl.rstrip()[:-len(last[0])]
    excluding = keyword_phrases(excl) if excl.strip() else ()
    if not adj and not tail and re.match(r"\s*(?:\([^)]*\)\s*)?(?:is|was|were) hit by", after):
        return Whom(Scope.ENEMY, words=words)  # "each time a unit is hit by this weapon"
    if "enemy" in adj or (select and not adj and not tail and re.match(
            r"\s*(?:\([^)]*\)\s*)?(?:that (?:was|were) |which (?:was|were) )?(?:hit|it "
            r"scored|you can see)", after)):
        return Whom(Scope.ENEMY, words=words)
    if re.match(r"\s*that disembarked from this\b", after):
        return Whom(Scope.OTHERS, words=f"{words} {after.split(',')[0].split('.')[0].strip()}")
    if "other" in adj:
        return Whom(Scope.OTHERS, keyword_phrases(kw) if kw else (), excluding, words)
    near = re.match(r"\s*(?:\([^)]*\)\s*)?is (?:wholly )?within \d+\"? of (?:this|the bearer)",
                    after)
    if "friendly" in adj or "friending" in adj or tail or (select and (kw or adj)) or (
            near and kw):
        return Whom(Scope.FRIENDLY, keyword_phrases(kw) if kw else (), excluding, words)
    if kw and select:
        return Whom(Scope.FRIENDLY, keyword_phrases(kw), excluding, words)
    return None


def unit_intros(sentence: str) -> list[tuple[int, int, Whom]]:
    """The units a sentence brings in (start, end of the clause, beneficiary), in order."""
    out: list[tuple[int, int, Whom]] = []
    for m in LEAD_INTRO.finditer(sentence):
        # "while this model is leading a BLOOD CLAWS unit": only a unit with those keywords
        led = re.search(r"\b(?i:leading|leads) (?i:an?) ((?:[A-Z][A-Z'\-]+ )+)(?i:unit)\b",
                        m.group(0))
        out.append((m.start(), m.end(), Whom(
            Scope.LED, keyword_phrases(led.group(1)) if led else (),
            words=f"a {led.group(1).strip()} unit this model leads" if led
            else "the unit this model leads")))
    for m in LEADER_INTRO.finditer(sentence):  # "that CHARACTER model" is the Leader
        out.append((m.start(), m.end(), Whom(Scope.UNIT, ("CHARACTER",), model="CHARACTER",
                                             words="the CHARACTER leading this unit")))
    for m in _SAME_UNIT_INTRO.finditer(sentence):  # "those OFFICER models": theirs only
        kw = " ".join(m.group(1).split())
        out.append((m.start(), m.end(), Whom(Scope.UNIT, (kw,), model=kw,
                                             words=f"the {kw} models of this model's unit")))
    for m in _SELF_INTRO.finditer(sentence):
        own = Scope.MODEL if m.group(1).lower() == "the bearer's" and m.group(2) == "model" \
            else Scope.UNIT
        out.append((m.start(), m.end(), Whom(own)))
    heads = [(h.end(), h.start(), h.group(0).lower().startswith("select"))
             for h in _INTRO_HEAD.finditer(sentence)]
    heads += [(n.start, n.start, False) for n in nps(sentence)
              if n.tail or re.search(r"friendl|enemy|other", n.adj, re.I) or re.match(
                  r"\s*(?:\([^)]*\)\s*)?is (?:wholly )?within \d+\"? of (?:this|the bearer)",
                  sentence[n.end:], re.I)]
    seen: set[int] = set()
    for at, head_start, select in sorted(heads):
        found = nps(sentence, at)
        if not found or found[0].start in seen:
            continue
        np = found[0]
        seen.add(np.start)
        whom = np_whom(np, select, sentence)
        if whom is None:
            continue
        if select and whom.scope is not Scope.ENEMY and np.noun.lower() == "model" and re.match(
                r"(?i)select one\b", sentence[head_start:]):
            whom = attrs.evolve(whom, model=ONE_MODEL)  # "select one friendly X model"
        end = np.end
        clause = re.match(r"[^,.;:]*?\bis (?:wholly )?within \d+\"(?: of (?:this|the bearer)"
                          r"[a-z' ]*?)?(?=[,.;:]|$|\s+and\b)", sentence[end:], re.I)
        if clause and not select:
            end += clause.end()
        if whom.scope is Scope.OTHERS and any(
                w.scope is Scope.FRIENDLY and w.keywords == whom.keywords and a < head_start
                for a, _b, w in out):
            # "select a CROSSFIRE unit to shoot, ... select up to two other CROSSFIRE units":
            # other than the unit selected first, not than the bearer (which may be any of them)
            whom = attrs.evolve(whom, scope=Scope.FRIENDLY)
        out.append((head_start, end, attrs.evolve(whom, words=sentence[np.start:end].strip())))
    return sorted(out, key=lambda x: x[0])


#: the keywords of the models making the attacks, named without "friendly" ("an attack made by
#: a PLAGUE LEGIONS model", "each time a KROOT model makes an attack")
_ATTACKER_KEYWORDS = re.compile(
    r"\b(?:attacks? made by|each time) an? (?P<kw>(?:[A-Z][A-Z'\-]+ ){1,4}?)models? "
    r"(?:makes? an? (?:[a-z]+ )?attack|is allocated|targets)\b")
#: when the attacks are made ("each time this model's unit is selected to fight"): a subject
#: only when the effect names none ("..., add 1 to the Attacks characteristic of this model's
#: Master-Crafted Power Weapon": the model's, not its unit's)
_TRIGGER = re.compile(r"\beach time (?P<s>[^,.;:]{1,80}?) (?:shoots|fights|is selected to "
                      r"(?:shoot|fight)|targets)\b", re.I)
#: a sentence's subject: who makes the attacks it changes
_SUBJECT_ATTACK = [
    re.compile(r"\b(?:each time|when|whenever) (?P<s>(?:(?!each time)[^.;:]){1,120}?) "
               r"(?:makes?|made) an? (?:[a-z]+ )?attacks?", re.I),
    # (not "CHARACTER models were destroyed as a result of attacks made by this model": a
    # condition on what the model did, the effect's weapons are named after it)
    re.compile(r"(?<!a result of )\battacks? made by (?P<s>[^,.;:]{1,80}?)(?= that| with| "
               r"against| have| has| targeting|,|\.|$)", re.I),
    re.compile(r"\b(?:weapons?|attacks)(?: equipped by| of) (?P<s>(?:the |a |an |this |that |"
               r"those |models? |units? |friendly |[a-z' ,\-]+ (?:models?|units?) )[^.;:]{0,80}?)"
               r"(?= ha(?:ve|s)\b| gains?\b| to have\b|"
               r" by \d| while\b| is\b| are\b| against\b| in (?:the|your)\b|,|\.|$|"
               # "... equipped by the model and those weapons have ...": a clause of its own
               r" and (?:those|these|that|its|it)\b)",
               re.I),
    re.compile(r"\bweapons (?:equipped )?(?:in|of) (?P<s>(?:this|that|the bearer's|this model's) "
               r"(?:[a-z' \-]{1,30} )?units?)\b", re.I),
    re.compile(r"\b(?P<s>(?:this|that|the bearer|its|their|those)(?: [a-z\-]+){0,3}?)'s? "
               r"(?:[a-z\-]+ ){0,3}?(?:weapons?|attacks|profiles?)\b", re.I),
    _TRIGGER,
    # "you can target the bearer's unit with the Fire Overwatch Stratagem": who shoots
    re.compile(r"\btarget (?P<s>(?:this|the bearer's|this model's) (?:unit|model)) with the "
               r"(?:fire )?overwatch stratagem\b", re.I),
    # "(While a unit is suppressed, it has -1 to hit rolls.)": "it" is the unit brought in
    re.compile(r"(?:^|[,(]\s*)(?P<s>[^,.;:()]{1,120}?) (?:has|have|gets?) [+-]\d to "
               r"(?:the |their )?(?:hit|wound) rolls?\b", re.I),
]
#: who is attacked
SUBJECT_DEFEND = [
    re.compile(r"\b(?P<s>[^,.;:]{1,80}?) (?:cannot|can't|does not|do not) (?:have|gain|receive) "
               r"the benefit of cover", re.I),
    re.compile(r"\battacks? (?:that )?(?:targets?|is allocated to|is made against|are allocated "
               r"to|against) (?P<s>[^,.;:]{1,80}?)(?=,|\.|$| if\b| while\b| and\b| that\b| with\b|"
               r" in\b|"
               r" is\b| subtract| worsen| models? in)", re.I),
    re.compile(r"\b(?P<s>[^,.;:]{1,80}?) (?:has|have|gains?|gets?) (?:an? \d\+ invulnerable|"
               r"the feel no pain|feel no pain|an invulnerable|the stealth|stealth|the benefit of "
               r"cover|an? \d\+ feel|a feel no pain|a \d\+\+? invulnerable)", re.I),
    re.compile(r"\beach time (?P<s>[^,.;:]{1,80}?) would lose a wound", re.I),
    re.compile(r"\ballocated to (?P<s>[^,.;:]{1,80}?)(?=,|\.|$| if\b| while\b)", re.I),
    re.compile(r"\beach time an? enemy [^,.;:]*?\btargets (?P<s>(?:this|the bearer|that)[^,.;:]"
               r"{0,40}?)(?=,|\.|$| with\b| subtract| worsen)", re.I),
]
_SELF_UNIT = re.compile(
    r"\b(?:this|the bearer's|this model's|this psyker's|your|this character's) units?\b|"
    r"\b(?:in|within) (?:this|the bearer's) unit\b|^this units?\b|^models in (?:this|it)\b")
_SELF_MODEL = re.compile(
    r"\b(?:this|the bearer|the bearer's|this model's) (?:model|fortification|vehicle|transport|"
    r"titan|walker|monster|character|psyker)\b|\bthe bearer\b|^(?:it|its)$|^(?:this|the) model$")
_REF = re.compile(
    r"^(?:(?:and |then )?(?:each )?(?:a |the |all )?(?:models? |\w+ models? )?(?:in |within |of )?"
    r")?(?:that|those|the selected|such a|such|one of those|the targeted|it\b|its\b|them\b)",
    re.I)
_TERRAIN = re.compile(r"\b(?:this|that) (?:terrain feature|fortification|ruins?|crater|"
                      r"barricade|obstacle|woods)\b|\bbecause of this\b", re.I)


#: a model on a Fortification (or in its cover): "while such a model is on the platform section
#: of this Fortification", "while an INFANTRY model has the Benefit of Cover as a result of this
#: FORTIFICATION": the units it holds, never the Fortification itself
_ON_FORTIFICATION = re.compile(
    r"\b(?:is|are) (?:on|on top of|within|in|behind) (?:[\w'\- ]{0,40}? (?:of|on) )?this "
    r"(?:fortification|terrain feature)\b|\b(?:is|are) on this platform\b|"
    r"\bas a result of this (?:fortification|terrain feature)\b", re.I)


def on_fortification(sentence: str, history: tuple[Whom, ...]) -> Whom | None:
    """The friendly units a Fortification's rule is for, when it is for the models on it (or in
    its cover): other friendly units of the keywords the text names ("an INFANTRY model";
    "such a model": the friendly units named before), None when the sentence says no such
    thing."""
    m = _ON_FORTIFICATION.search(sentence)
    before = [n for n in nps(sentence) if n.end <= m.start()] if m else []
    if m is None or not before:
        return None
    np = before[-1]
    start = np.start
    such = re.search(r"\bsuch\s+$", sentence[:start], re.I)
    keywords: tuple[str, ...] = keyword_phrases(np.kw) if np.kw.strip() else ()
    if such and not keywords:  # "such a model": each friendly unit named before
        named = [w for w in history if w.scope in (Scope.FRIENDLY, Scope.OTHERS)]
        keywords = () if any(not w.keywords for w in named) else tuple(
            dict.fromkeys(k for w in named for k in w.keywords))
        start = such.start()
    return Whom(Scope.OTHERS, keywords, words=sentence[start:m.end()].strip())


def _named_model(cased: str) -> str:
    """A model of the unit named by name ("A Warlock", "Celestine", "the Avatar of Khaine"),
    "" when the phrase names none."""
    m = re.match(r"^(?:(?i:an?|the) )?((?:[A-Z][\w'’\-]*(?: (?:of|the) | ))*[A-Z][\w'’\-]*)"
                 r"(?: models?)?$", cased.strip())
    if not m or re.sub(r"\b(?:and|or|of|the)\b", "", m.group(1)).isupper():
        return ""  # keywords of some models, not a model's name
    name = m.group(1)
    # "Units have ...", "Units' attacks ...": a sentence's first word, no model's name
    return "" if name.lower().split()[0].rstrip("'’") in (
        "each", "this", "that", "while", "models", "model", "units", "unit", "when", "if",
        "until") else name


def _classify(cased: str, ref: Whom | None, leading: bool, sentence: str) -> Whom | None:
    """The beneficiary a subject phrase names; None when it names none the translator reads
    ("a model", "an attack")."""
    low = cased.lower().strip()
    low = re.sub(r"^(?:and|then|until the end of the \w+|that attack|if it does)\s+", "", low)
    if re.search(r"\benem(?:y|ies)\b", low):
        return Whom(Scope.ENEMY, words=cased.strip())
    if "disembarked from this" in low:
        return Whom(Scope.OTHERS, words=cased.strip())
    for m in nps(cased):
        if re.search(r"\b(?:friendly|friending|other)\b", m.adj, re.I) or m.tail:
            found = np_whom(m, False, sentence)
            if found is not None:
                return attrs.evolve(found, words=cased.strip())
    if re.match(r"^(?:such an? (?:attack|unit)|that attack|those attacks|such (?:attacks|units))"
                r"\b", low):
        return None  # the attack the sentence before made: its whom
    if ref is not None and re.match(r"^(?:[a-z' \-]+ )?models? in that unit$", low):
        return ref  # "KASTELAN ROBOT models in that unit": the unit brought in before
    if _REF.match(low):
        if ref is not None:
            return ref
        if leading:
            return Whom(Scope.LED)
        chosen = re.match(r"^(?:the|that) selected ((?:[A-Z][A-Z'\-]+ ?)+)", cased.strip())
        if chosen:  # "the selected VEHICLE": one its other ability selects
            return Whom(Scope.FRIENDLY, keyword_phrases(chosen.group(1)),
                        words=cased.strip())
        return None
    if _SELF_UNIT.search(low):
        kind = re.match(r"^(?:an? )?([a-z][a-z' \-]+?) models? (?:in|within) (?:this|the "
                        r"bearer's)", low)
        if kind and re.search(r"\bModels? (?:in|within)\b", cased):
            kind = None  # "Muted Servomotors Models in this unit ...": a label, then the unit
        model = ""
        if kind and kind.group(1) not in ("the", "all", "each", "every", "other", "a"):
            start = cased.lower().index(kind.group(1))
            model = cased[start:start + len(kind.group(1))]
            keyword = re.sub(r"\b(?:and|or|of|the)\b", "", model).isupper()
            if keyword and model != "CHARACTER":  # other models' keywords: a switch
                model = ""
        return Whom(Scope.UNIT, model=model)
    if _SELF_MODEL.search(low):
        return Whom(Scope.MODEL)
    if re.match(r"^(?:an?|each|every) (?:model|unit|attack)s?$", low):
        return Whom(Scope.TERRAIN, words="models with cover from this terrain feature") \
            if _TERRAIN.search(sentence) else None
    model = _named_model(cased)
    return Whom(Scope.MODEL, model=model) if model else None


def first_subject(patterns: list[re.Pattern], cased: str, intros: list[tuple[int, int, Whom]],
                  ref: Whom | None, leading: bool, history: tuple[Whom, ...] = (),
                  effect_at: int | None = None
                  ) -> tuple[Whom | None, tuple[int, int] | None]:
    """The subject phrase of these kinds that names a beneficiary, and where it is: of the
    first kind that has one, the last before the effect (``effect_at``), else the first."""
    later: tuple[Whom, tuple[int, int]] | None = None
    for pattern in patterns:
        before: tuple[Whom, tuple[int, int]] | None = None
        for m in pattern.finditer(cased):
            phrase, (a, _b) = m.group("s"), m.span("s")
            # the subject ends where its verb or a condition begins
            head = re.split(r" (?:targets?|is allocated|is selected|makes?|made|ha(?:s|ve)|ends?|"
                            r"declares?|is|are|for every|for each|while|if|until|and (?:those|"
                            r"these|that|its?) (?:weapons?|attacks?)|and (?:add|subtract|"
                            r"improve|worsen))\b", phrase,
                            maxsplit=1)[0]
            here = ref
            for start, _end, whom in intros:
                if start <= a:
                    here = whom
            here = _matching_intro(head, intros, a, history) or here
            if re.match(r"^\s*(?:it|its)\b", head, re.I):  # "..., it has": this model / unit
                own = re.findall(r"\b(this model|the bearer|this unit)\b", cased[:a], re.I)
                if own:
                    here = Whom(Scope.UNIT if own[-1].lower() == "this unit" else Scope.MODEL)
            found = _classify(head, here, leading, cased)
            if found is None:
                continue
            if effect_at is None or a < effect_at:
                before = (found, (a, a + len(head)))
                if effect_at is None:
                    break
            elif later is None:
                later = (found, (a, a + len(head)))
        if before is not None:
            return later if pattern is _TRIGGER and later is not None else before
    return later if later is not None else (None, None)


def _effect_at(low: str) -> int:
    """Where the first effect wording of a sentence begins."""
    found = [m.start() for pattern, _make in EFFECTS for m in [pattern.search(low)] if m]
    found += [m.start() for m in [GRANT.search(low)] if m]
    return min(found, default=len(low))


def _matching_intro(head: str, intros: list[tuple[int, int, Whom]], before: int,
                    history: tuple[Whom, ...] = ()) -> Whom | None:
    """The unit brought in that a reference with keywords means ("that WAR DOG model", "one of
    the selected CROSSFIRE units"): the last one before it with one of those keywords."""
    if not _REF.match(head.lower().strip()):
        return None
    words = {w.upper() for w in re.findall(r"[A-Za-z'\-]+", head)} - {
        "THAT", "THOSE", "THE", "SELECTED", "ONE", "OF", "UNIT", "UNITS", "MODEL", "MODELS",
        "IN", "A", "ENEMY", "FRIENDLY", "SUCH", "IT", "ITS", "EACH", "ALL"}
    if not words:
        return None
    earlier = [w for start, _end, w in intros if start < before]
    for whom in reversed((*history, *earlier)):
        if words & {w for k in whom.keywords for w in k.split()}:
            return whom
    return None


def subject(low: str, cased: str, defending: bool, intros: list[tuple[int, int, Whom]],
            ref: Whom | None, leading: bool, history: tuple[Whom, ...] = (),
            prior: Whom | None = None, prior_side: str = ""
            ) -> tuple[Whom | None, str, tuple[int, int] | None]:
    """Whom one sentence changes, on which side, and where its subject is (left out when
    looking for conditions). An attack that targets an enemy unit is the friendly side's
    (Death Hex: "each time an attack targets that enemy unit"); an enemy's attack is a debuff,
    the defender's (the bearer's side's), unless it names the friendly unit it targets."""
    side = "defender" if defending else "attacker"
    effect_at = _effect_at(low)
    attacking, a_span = first_subject(_SUBJECT_ATTACK, cased, intros, ref, leading, history,
                                      effect_at)
    defended, d_span = first_subject(SUBJECT_DEFEND, cased, intros, ref, leading, history,
                                    effect_at)
    if attacking is not None and defended is not None and defended == attacking and \
            not attacking.scope.own and d_span and a_span and d_span[0] > a_span[0]:
        # "each time an X unit from your army makes an attack against that unit": that unit is
        # the one brought in before, not the attacker
        others = [(a, b, w) for a, b, w in intros if w != attacking]
        earlier = tuple(w for w in history if w != attacking)
        defended, d_span = first_subject(SUBJECT_DEFEND, cased, others,
                                        earlier[-1] if earlier else None, leading, earlier,
                                        effect_at)
    if attacking is not None and attacking.scope is Scope.ENEMY and defended is not None and \
            defended.scope is Scope.ENEMY:  # "one of those units" is not the enemy attacking
        friendly = [(a, b, w) for a, b, w in intros if w.scope is not Scope.ENEMY]
        before = tuple(w for w in history if w.scope is not Scope.ENEMY)
        defended, d_span = first_subject(SUBJECT_DEFEND, cased, friendly,
                                        before[-1] if before else None, leading, before,
                                        effect_at)
        if defended is not None and defended.scope is Scope.ENEMY:
            defended = None
    if defended is not None and defended.scope is Scope.ENEMY:
        # the enemy is the target: the attacks are the friendly side's
        if attacking is not None and attacking.scope is not Scope.ENEMY:
            return attacking, "attacker", a_span
        if SAME_ATTACK.search(low) and prior is not None and prior.scope is not Scope.ENEMY:
            return prior, "attacker", None  # "if such an attack targets an enemy unit..."
        # "each time an attack made by a PLAGUE LEGIONS model is allocated to a model in that
        # unit": friendly units of those keywords
        kws = _ATTACKER_KEYWORDS.search(cased)
        return Whom(Scope.FRIENDLY, keyword_phrases(kws.group("kw")) if kws else (),
                    words="friendly units attacking " + defended.words), "attacker", None
    if attacking is not None and attacking.scope is Scope.ENEMY:
        if defended is not None:  # "each time an enemy unit ... targets this model"
            return defended, "defender", d_span
        return attacking, "defender", a_span
    if defending and defended is None and attacking is not None:
        return attacking, "attacker", a_span  # "... makes an attack against that unit"
    if attacking is None and defended is None and prior is not None and (
            SAME_ATTACK.search(low) or re.match(r"(?:this|that|its) (?:invulnerable save|"
                                                 r"ability)\b", low)):
        # "If that attack targets a unit within 9\", ... as well"; after "each time an attack
        # targets this model, ...", "If that attack was made by ..., subtract 1 from the Wound
        # roll as well" is that attack's, against the bearer
        return prior, "defender" if prior_side == "defender" else side, None
    if attacking is None and defended is None and prior is None and intros and \
            intros[-1][2].scope is not Scope.ENEMY and re.search(r"\b(?:those|that) attacks?\b",
                                                                  low):
        # "When a friendly PALADIN SQUAD unit is selected to fight, if the S of those attacks
        # is lower ..., those attacks have +1 to wound rolls": the attacks of the unit brought in
        return intros[-1][2], side, None
    if defending:
        return defended or attacking, side, d_span if defended else a_span
    return attacking or defended, side, a_span if attacking else d_span


__all__ = ["ONE_MODEL", "Whom", "is_keyword_model"]
