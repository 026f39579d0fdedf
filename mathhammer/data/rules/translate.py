"""Rules from data: ability text (BattleScribe data, both editions) turned into named-rule
effects (:class:`~mathhammer.model.named.NamedRule`), the text translator (docs/rules.md,
section 12).

Each ability's text is read sentence by sentence against the common wordings (re-roll Hit or
Wound rolls, +1/-1 to Hit or Wound, granted weapon abilities, critical thresholds, AP, Strength
and Damage changes, Feel No Pain, invulnerable saves, Stealth, cover) and their conditions
(ranged or melee, half range, charged, Remained Stationary, the target's keywords or strength,
"while this model is leading a unit"). A sentence with a condition the engine cannot check
(objective markers, a chosen enemy unit, once per battle...) becomes a switch, off by default
(``assumes`` says what switching it on asserts). What changes an attack but matches no known
wording is kept with a "not modelled" reason; nothing is guessed. Every rule keeps its source
text and where it came from.

Why one module: this is the sentence walk (:func:`translate`), one loop that carries what a
sentence sets for the next (the unit brought in, the setup's phase, whom the last effect
changed) and joins the parts; cut, its state would be passed around in pieces. What it reads
each sentence with has a module of its own: :mod:`.sentences` (the text
cleaned and cut), :mod:`.wordings` (the tables of effects and conditions), :mod:`.whom` (the
beneficiary), and :mod:`.parts` (what it makes); rules that come as effect trees instead of text
(the 40kdc data's stratagems) have their own translator, :mod:`.effect_tree`, onto the same
effect fields, and :mod:`.coverage` counts what both leave out.

>>> rules = translate("Tactical Precision", "While this model is leading a unit, weapons "
...                   "equipped by models in that unit have the [LETHAL HITS] ability.", "10e")
>>> [(r.rule.describe(), r.scope.value, r.automatic) for r in rules]
[('abilities=[lethal hits]', 'led unit', True)]
>>> [r.rule.describe() for r in translate("Hunters", "Each time a model in this unit makes an "
...      "attack that targets an objective-holding unit, re-roll a Hit roll of 1.")]
['reroll_hits=ones']
>>> translate("Hunters", "Each time a model in this unit makes an attack that targets an "
...           "objective-holding unit, re-roll a Hit roll of 1.")[0].automatic
False
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any, TypedDict

import attrs

from ...cache import cached
from ...model.named import ADDITIVE, Effect, NamedRule
from .parts import DataRule, Scope
from .sentences import (
    CONJUNCTION,
    DURING_OVERWATCH,
    RELEVANT,
    is_weapon_ability,
    prohibitions,
    rules_text,
    second_clauses,
    split_sentences,
    unmarked,
)
from .whom import (
    FRAME,
    LEAD_INTRO,
    LEADER_INTRO,
    SUBJECT_DEFEND,
    Whom,
    first_subject,
    is_keyword_model,
    np_whom,
    nps,
    on_fortification,
    subject,
    unit_intros,
)
from .wordings import (
    AFTER_SHOT,
    ALREADY_HAS,
    ATTACK_KIND,
    BESIDES,
    BONDSMAN,
    CHOSEN_WEAPON,
    DEFENDER,
    DEFENSIVE,
    ELIDED,
    ENEMY_STATE,
    EXCLUDED_NAMES,
    KEPT_INSTEAD,
    LEADING,
    NAMED_WEAPONS,
    ONLY,
    PAST_THE_PHASE,
    SAME_ATTACK,
    SAME_WEAPONS,
    SCAFFOLD,
    SOME_WEAPONS,
    TARGET_EXCLUDED,
    TARGET_KW,
    THAT_KEYWORD_MODEL,
    THAT_WEAPON,
    THIS_MODEL,
    THIS_SAVE,
    THOSE_WEAPONS,
    UNCHECKED,
    WEAPON_KEYS,
    WORD_IN_NAME,
    ability_names,
    effect_clauses,
    effect_text,
    sentence_conditions,
    sentence_effects,
    weapon_scope,
)

#: an increase to the X of a weapon's ability ("+1 to the value of that [RAPID FIRE] (e.g.
#: [RAPID FIRE 1] becomes [RAPID FIRE 2])"): not an effect the engine has
_ABILITY_VALUE_UP = re.compile(r"(?:\+\d|add \d|increase)[^.;]{0,20}? (?:to )?the value of "
                               r"(?:that|the|its|this) \[")


@cached(maxsize=8192)  # a list repeats datasheets, and each unit is asked for both sides
def translate(name: str, text: str, where: str = "", *, faction: str = "",
              kind: str = "datasheet ability") -> tuple[DataRule, ...]:
    """The named rules one ability's text makes: its automatic part, its parts that are
    switches, and a not-modelled part; ``()`` when it changes no attack. ``where`` says where
    the text came from (kept as the rule's ``source``).

    >>> [r.rule.describe() for r in translate("Feel No Pain", "Models in this unit have the "
    ...                                       "Feel No Pain 5+ ability.")]
    ['fnp=5']
    >>> [r.rule.describe() for r in translate("Rage", "Add 1 to the Attacks characteristic "
    ...                                       "of melee weapons equipped by this model.")]
    ['if melee attacks: attacks_mod=+1']
    >>> [r.rule.describe() for r in translate("Fury", "Each time this model makes an attack, "
    ...                                       "you can re-roll the Damage roll.")]
    ['reroll_damage=any']
    >>> [r.rule.not_modelled for r in translate("Fury", "Once per turn, you can re-roll one "
    ...                                         "Damage roll.")]
    ['re-rolls a Damage roll ("Once per turn, you can re-roll one Damage roll")']
    """
    marked = rules_text(text, marks=True)  # where each bullet began: split_sentences reads it
    if not RELEVANT.search(rules_text(text).lower()) or is_weapon_ability(name):
        return ()
    marked = ELIDED.sub(lambda m: f", and {'add' if m.group(2) == 'to' else 'subtract'} "
                        f"{m.group(1)} {m.group(2)} the", marked)
    # "..., by 1 (if that attack targets a FORTIFICATION unit, ... by 2 instead).": the case
    # is read as the sentence after ("If ... instead."), which replaces the effect before it
    marked = _INSTEAD_CASE_LAST.sub(lambda m: f". {m.group(1)[0].upper()}{m.group(1)[1:]}",
                                    marked)
    clean = unmarked(marked)  # the text read whole: the marks split no wording
    leading = bool(LEADING.search(clean.lower()))
    auto: dict[tuple[str, Whom], list[Effect]] = {}
    # side, whom, assumes, effects, its label's suffix ("" numbers it)
    switches: list[tuple[str, Whom, str, list[Effect], str]] = []
    reasons: list[str] = []
    setup = ""  # a sentence without an effect that sets a condition (select one unit...)
    phase: str | None = None  # the attacks (ranged, melee) of the setup's phase
    lasts = False  # a sentence since the setup makes it last past its phase
    last = None  # the attack kind (ranged, melee) of the last sentence with an effect
    ref: Whom | None = None  # the unit "that unit" means
    self_said = ""  # the bearer as the sentences before last named it ("this model", "this unit")
    history: list[Whom] = []  # every unit brought in so far
    first: Whom | None = None  # whom the first sentence with an effect changes
    before: Whom | None = None  # whom the last one changes
    before_side = ""  # and on which side
    frame: Whom | None = None  # "X units from your army have the following ability:"
    others: tuple[str, ...] = ()  # the weapon abilities the last sentence names
    granted: tuple[str, ...] = ()  # the weapon abilities the last sentence with an effect gives
    prior: dict[str, Any] = {}  # the conditions of the last sentence with an effect
    weapons_before: dict[str, Any] = {}  # the weapons it changes
    chosen: re.Match | None = None  # "select one melee weapon equipped by the bearer"
    bondsman = False  # "While a model is affected by this ability" said
    afflicted = ""  # "while an enemy unit is Afflicted, ... that unit has the effect of ..."
    save: tuple[str | None, Whom] | None = None  # the last invulnerable save's attacks, whose
    branches: set[str] = set()  # the alternatives of an "if A or if B" condition
    setups: dict[int, list[str]] = {}  # the setups outside the bullets (0), and in each bullet
    bullets: list[int] = []  # the bullet each sentence is in (0: none)
    for sentence, bullet in zip(split_sentences(marked, branches, bullets), bullets, strict=True):
        if _OWN_FRAME.match(sentence):  # "X units from your army have the following ability:"
            frame = None  # read for an X unit (detachments.for_unit): its own, not a frame before
        pronoun = _PRONOUN.search(sentence)
        selves = _SELF_SAID.findall(sentence, 0, pronoun.start() if pronoun else len(sentence))
        antecedent = selves[-1] if selves else self_said  # what "it" means here
        self_said = (_SELF_SAID.findall(sentence) or [self_said])[-1]
        # "(if ..., ... instead), and ...": a narrower case in the middle of a sentence that
        # replaces its effect; read with it, it would widen the effect
        for case in _INSTEAD_CASE.findall(sentence):
            if RELEVANT.search(case.lower()):
                reasons.append(f"a case in brackets that applies instead ({_quote(case)})")
        sentence = _INSTEAD_CASE.sub("", sentence)
        banned = prohibitions(sentence)
        if banned:  # "you cannot re-roll the Hit roll": no re-roll; nor one given elsewhere
            # taken away (the engine's re-rolls are the broadest given): said, never a grant
            for a, b in banned:
                forbidden = CONJUNCTION.sub("", sentence[a:b].strip())
                reasons.append("forbids a re-roll, which a re-roll given by another rule or "
                               f"option still makes ({_quote(forbidden)})")
            sentence = _blank(sentence, banned)
        low = sentence.lower()
        intros = unit_intros(sentence)
        chosen = CHOSEN_WEAPON.search(low) or chosen
        bondsman = bondsman or bool(BONDSMAN.search(low))
        state = ENEMY_STATE.search(sentence)
        afflicted = f"an enemy unit that is {state.group(1)}" if state else afflicted
        # "if such a weapon already has the [LANCE] ability": a condition, not a grant
        already = ALREADY_HAS.search(low)
        alternatives, reason = sentence_effects(_blank(low, [already.span()]) if already else low)
        if banned and not alternatives and not reason:
            continue  # nothing else in it ("Each time ... with a Lethal Hits weapon, ")
        if not alternatives and not reason and _ABILITY_VALUE_UP.search(low):
            # "+1 to the value of that [RAPID FIRE]": no effect raises a printed ability's X
            reason = "raises the value of a weapon's ability"
        if not alternatives and not reason and RELEVANT.search(low) and not ONLY.match(low) \
                and not _DEFINES.search(low):
            reason = "wording not recognised"  # every sentence is read or said
        gains = _GAINS_ABILITY.search(sentence) if not alternatives and not reason else None
        if gains and not gains.group(1).lower().startswith(_CORE_ABILITIES) and not \
                ability_names(gains.group(1).lower()):
            # "BLOOD LEGIONS units from your army gain the Blessings of Khorne ability": a rule
            # of its own, which may change attacks: said, not dropped
            reason = f"gains another ability by name ({gains.group(1)}), not read here"
        if not alternatives and not reason and _MADE_GUIDED.search(sentence):
            # "that T'AU EMPIRE unit is considered to be a Guided unit and that target unit ...
            # its Spotted unit": For the Greater Good's benefit, another rule's: said
            reason = "makes a unit Guided or Spotted (For the Greater Good), not read here"
        if reason:
            reasons.append(f"{reason} ({_quote(sentence)})")
        if not alternatives:
            grant = FRAME.search(sentence)
            if grant:
                found = nps(sentence, grant.start())
                frame = np_whom(found[0], False, sentence) if found else frame
            elif _UNIT_FRAME.search(sentence):  # "models in the bearer's unit have that
                frame = Whom(Scope.UNIT)  # bioniks ability. ... this model": each of them
            if intros:
                ref = intros[-1][2]
                history += [w for _a, _b, w in intros]
            if not reason and not ONLY.match(low) and UNCHECKED.search(SCAFFOLD.sub(" ", low)):
                setup = setup or sentence
                # a bullet that is a condition only ("Trigger: When an eligible VEHICLE unit
                # ... is selected to make an Advance move.") is the condition of the bullets after
                setups.setdefault(0 if _BARE_CONDITION.search(low) else bullet, []).append(
                    sentence)
                # the phase of the last such sentence that names one ("At the end of your
                # Command phase, you gain 1YP ... In your Shooting phase, each time a unit is
                # selected to shoot, you can spend 1YP. If you do, ...": the Shooting phase)
                kinds = {k for pattern, k in ATTACK_KIND if pattern.search(low)}
                phase = kinds.pop() if len(kinds) == 1 else None if kinds else phase
            lasts = lasts or bool(setup and PAST_THE_PHASE.search(low))
            continue
        if DURING_OVERWATCH.search(low) and "overwatch" in clean.lower() and any(
                k != "overwatch_hits_on" for alt in alternatives for k, _ in alt):
            # "... the Fire Overwatch Stratagem ... While resolving that Stratagem, ... you can
            # re-roll the Hit roll": an effect on Overwatch attacks only (an exception to its
            # "no re-rolls"), which the engine's effects cannot be limited to: said
            reasons.append(f"an effect while resolving Fire Overwatch only ({_quote(sentence)})")
            continue
        defending = bool(DEFENDER.search(low)) or all(
            k in DEFENSIVE for alt in alternatives for k, _ in alt)
        here = ref
        if ref is not None and ref.scope is Scope.ENEMY and re.search(
                r"\bthat enemy (?:unit|model)\b", low) and re.search(r"(?<!enemy )\bthat unit\b",
                                                                    low):
            # "select one enemy unit ... models in that unit have [LETHAL HITS] while targeting
            # that enemy unit": "that unit" is the one before the enemy, not the enemy
            here = next((w for w in reversed(history) if w.scope is not Scope.ENEMY),
                        Whom(Scope.UNIT))  # "each time a unit is selected to shoot": its own
        whom, side, span = subject(low, sentence, defending, intros, here, leading,
                                   tuple(history), before, before_side)
        denied = any(k == "no_cover" for alt in alternatives for k, _ in alt)
        if denied:  # "cannot have the Benefit of Cover": the attacks on it ignore cover
            alternatives = [[("abilities", ("ignores cover",)) if k == "no_cover" else (k, v)
                             for k, v in alt] for alt in alternatives]
        if side == "attacker" and not denied and all(
                k in DEFENSIVE for alt in alternatives for k, _ in alt):
            # a save, Feel No Pain or cover is the defender's, whatever the sentence attacks
            held, span = first_subject([SUBJECT_DEFEND[2]], sentence, intros, ref, leading,
                                      tuple(history))
            whom, side = held if held is not None and held.scope is not Scope.ENEMY else \
                Whom(_scope(low, leading)), "defender"
        one_enemy = ref is not None and ref.scope is Scope.ENEMY and bool(
            re.match(r"(?:one|an?)\b", ref.words, re.I))
        if whom is None and pronoun and one_enemy and ref is not None:
            # "select one enemy unit ... That enemy unit is suppressed ... (While a unit is
            # suppressed, it has -1 to hit rolls.)": that enemy's, a debuff
            whom, side = ref, "defender" if side == "attacker" else "attacker"
        if whom is None and pronoun and antecedent and not leading and (
                ref is None or ref.scope.own or ref.scope is Scope.ENEMY):
            # "Each time this model is selected to shoot, it can use this ability. If it does,
            # ... its ranged weapons have ...": the model (or unit) named before
            whom = Whom(Scope.UNIT if antecedent.lower().endswith("unit") else Scope.MODEL)
        if whom is None:
            whom = Whom(_scope(low, leading))
        guided = _GUIDED.search(sentence) if side == "attacker" else None
        if guided and whom.scope.own and _OBSERVER.search(clean):
            # "Each time this unit is an Observer unit, ... each time a model in its Guided unit
            # makes an attack": the unit it observes for, never the Observer (For the Greater
            # Good: Observer units are not Guided); another unit's switch
            observer = "the unit this model leads" if whom.scope is Scope.LED else "this unit"
            whom = Whom(Scope.OTHERS, words=f"{guided.group(0)} (for which {observer} is the "
                        "Observer unit)")
        held = on_fortification(sentence, tuple(history)) if whom.scope is not Scope.ENEMY \
            else None
        if held is not None:  # "while such a model is on the platform of this Fortification"
            whom = held
        said_before = THAT_KEYWORD_MODEL.search(sentence)
        if said_before and "leading" in low:  # "If that CHARACTER model is a MAGUS, ..., that
            # model has ... while leading that unit": the Leader's own, as "that CHARACTER model"
            kw = said_before.group(1)
            whom = Whom(Scope.UNIT, (kw,), model=kw)
        if afflicted and whom.scope in (Scope.UNIT, Scope.MODEL):
            # a Plague of an Afflicted enemy unit: "this unit" is that enemy, its attacks a
            # debuff (the attacks it makes at the bearer's army)
            whom = Whom(Scope.ENEMY, words=afflicted)
            side = "defender" if side == "attacker" else "attacker"
        bondsman = bondsman or bool(BONDSMAN.search(low))
        if bondsman:  # the ARMIGER a Knight's Bondsman ability affects, from then on
            whom = Whom(Scope.OTHERS, ("ARMIGER",),
                        words="the ARMIGER model under this model's Bondsman ability")
        picked = chosen is not None and side == "attacker" and whom.scope in (
            Scope.UNIT, Scope.MODEL) and bool(THAT_WEAPON.search(low))
        if picked:  # "... That weapon gains [DEVASTATING WOUNDS]": the bearer's weapon only
            whom = Whom(Scope.MODEL)
        if whom.scope is Scope.FRIENDLY and side == "attacker" and not lasts and \
                AFTER_SHOT.search(clean) and not PAST_THE_PHASE.search(low):
            # "after this unit has shot, select one enemy unit hit ... Until the end of the
            # phase, ...": its own attacks this phase are made; the later shooters' (others')
            whom = attrs.evolve(whom, scope=Scope.OTHERS)
        if frame is not None and whom.scope in (Scope.UNIT, Scope.MODEL):
            whom = frame  # "X units from your army have the following ability: ... this unit"
        if whom.scope is Scope.OTHERS and _OTHER_MODELS.search(whom.words):
            # "... melee weapons equipped by all other models in the bearer's unit": the unit
            # but the bearer, a beneficiary the engine has no rule for
            reasons.append(f"for the other models of the bearer's unit ({_quote(sentence)})")
            continue
        grant = FRAME.search(sentence)
        if grant:
            found = nps(sentence, grant.start())
            frame = np_whom(found[0], False, sentence) if found else frame
        if intros:
            ref = intros[-1][2]
        history += [w for _a, _b, w in intros]
        if save is not None and THIS_SAVE.search(low):
            # "... a 5+ invulnerable save against ranged attacks. ... If it does, this
            # invulnerable save is improved to 4+": that save, of that unit, against those attacks
            save_kind, whom = save
            alternatives = [[(k, (v[0], v[1] or save_kind)) if k == "invuln" else (k, v)
                             for k, v in alt] for alt in alternatives]
        save = next(((v[1], whom) for alt in alternatives for k, v in alt if k == "invuln"), save)
        first, before, before_side = first or whom, whom, side
        # what names the beneficiary is not a condition: the subject, and "while a friendly
        # X unit is within 6\" of this model" (always true of the bearer's own unit)
        cut = [span] if span and not whom.scope.own else []
        cut += [(a, b) for a, b, w in intros if w == whom and w.scope is not Scope.ENEMY
                and not sentence[a:b].lower().startswith("select")]
        if whom.scope is Scope.LED:
            cut += [m.span() for m in LEAD_INTRO.finditer(sentence)]
        if is_keyword_model(whom.model):  # "that CHARACTER model": the Leader, said by the model
            cut += ([span] if span else []) + [m.span() for m in LEADER_INTRO.finditer(sentence)]
        if already:  # "if such a weapon already has this ability": a weapon filter, below
            cut.append(already.span())
        if others and "all other" in low:  # "all other ranged weapons": said by the scope
            at = low.index("all other")
            cut.append((at, at + len("all other")))
        excluded = re.search(r"\(excluding ([a-z\- ]+?) weapons\)", low)
        without = ability_names(excluded.group(1)) if excluded else ()
        if excluded and without:  # "melee weapons (excluding Extra Attacks weapons)"
            cut.append(excluded.span())
        # "weapons equipped by models in this unit (excluding blast pistols, blasters and dark
        # lances)": weapons left out by name (a keyword in capitals is a model, not a weapon)
        left_out = None if excluded else EXCLUDED_NAMES.search(sentence)
        if left_out:
            cut.append(left_out.span(1))
        plain_low, plain = _blank(low, cut), _blank(sentence, cut)
        cond, rest = sentence_conditions(effect_text(plain_low), plain, low)
        # "... when this unit is selected to fight. If it does, until the end of the phase, ...":
        # the setup's phase, unless the effect lasts past it
        if "attack" not in cond and phase and not lasts and not PAST_THE_PHASE.search(low):
            cond["attack"] = phase
        if "attack" not in cond and last and SAME_ATTACK.search(low):
            cond["attack"] = last  # "If that attack ...": the one the last sentence made
        if re.search(r"\binstead\b", low):
            # "if that unit made a Charge move, add 1 ... If your unit is Battle-shocked, add 2
            # ... instead": the alternative replaces that effect, under that effect's conditions
            for key in KEPT_INSTEAD:
                if key in prior and key not in cond:
                    cond[key] = prior[key]
        last = cond.get("attack")
        prior = {k: v for k, v in cond.items() if k in KEPT_INSTEAD}
        # the defender's own Leader, charge or stationary state is not an attack option; nor
        # is a debuffed enemy's strength the target's
        popped = ("led", "charged", "stationary") + (
            ("below_half", "below_starting") if whom.scope is Scope.ENEMY else ())
        if is_keyword_model(whom.model):  # the Leader's own: there when it is attached
            cond.pop("led", None)
        unknown = side == "defender" and any(cond.pop(k, None) is not None for k in popped)
        scoped, named = weapon_scope(plain_low, plain)
        if "all other" in low and others:  # "..., and all other ranged weapons ... have"
            scoped = {"without_abilities": others}
            named = True
        if without:
            scoped["without_abilities"] = without
            named = True
        if left_out:
            scoped["without_names"] = (left_out.group(2).strip(),)
        if scoped.get("attack") and "attack" not in cond:
            cond["attack"] = scoped["attack"]
        scoped.pop("attack", None)
        others = scoped.get("weapon_abilities", ())
        cond.update(scoped)
        had = (ability_names(already.group(1)) if already.group(1) else granted) if already \
            else ()
        # "... have the [HEAVY] ability. If such a weapon already has this ability, ...": the
        # weapons with it printed (the engine judges conditions on the weapon as printed)
        granted = tuple(dict.fromkeys(a for k, v in alternatives[0] if k == "abilities"
                                      for a in v)) if len(alternatives) == 1 else ()
        if already and len(had) != 1:
            reasons.append(f"for the weapons that already have an ability not read "
                           f"({_quote(sentence)})")
            continue
        if already:
            cond["weapon_abilities"] = had
        if not named and (THOSE_WEAPONS.search(low) or SAME_WEAPONS.search(low)) and \
                not picked:
            # "... of that weapon by 1 for every 5 models. While this unit contains 10 or more
            # models, those weapons have [HAZARDOUS]": the weapons the sentence before changed
            for key, value in weapons_before.items():
                cond.setdefault(key, value)
        weapons_before = {k: v for k, v in cond.items() if k in WEAPON_KEYS}
        besides = BESIDES.search(low)
        if besides and re.search(r"\bthose (?:\d|two|three) weapons\b", low):
            # "equipped with 2 melee weapons in addition to its close combat weapon, add 2 to
            # the Attacks characteristics of those 2 weapons": its melee weapons but that one
            cond.setdefault("attack", besides.group(1))
            cond["without_names"] = (besides.group(2).strip(),)
        those_named = re.search(r"\bthose ((?!(?:\d|two|three|ranged|melee)\b)[a-z][a-z' \-]"
                                r"{0,40}?) weapons\b", low) if "equipped with" in low else None
        if those_named:  # "equipped with 2 Telemon caestus weapons in addition to its armoured
            # feet weapon, add 2 to the Attacks characteristic of those Telemon caestus weapons"
            cond["weapon_names"] = (those_named.group(1).strip(),)
        if picked and chosen is not None and chosen.group(1):  # "one Torrent weapon"
            chosen_kind = chosen.group(1).strip()
            abilities = () if chosen_kind in ("ranged", "melee") else ability_names(chosen_kind)
            if chosen_kind in ("ranged", "melee"):
                cond.setdefault("attack", chosen_kind)
            elif abilities:
                cond.setdefault("weapon_abilities", abilities)
        word = WORD_IN_NAME.search(chosen.string) if picked and chosen is not None else None
        if word:  # "select one Pistol weapon ... that has the word 'bolt' in its name"
            cond.setdefault("weapon_names", (word.group(1).strip(),))
        unchecked = (unknown or bondsman or UNCHECKED.search(rest) or _keyword_left(
            plain, cond) or (not named and (SOME_WEAPONS.search(plain_low)
                                            or NAMED_WEAPONS.search(plain_low))))
        steps = _scaling(low)
        if steps is not None and not any(f in _SCALES and isinstance(v, int)
                                         for alt in alternatives for f, v in alt):
            # "Roll one D6 for each enemy unit ...: ... it cannot have the Benefit of Cover":
            # a count of nothing the effect scales is one switch, not the same one per count
            steps, unchecked = None, True
        if steps is not None:  # "+1 Attack for every 5 enemy models within 6\"": one switch a count
            per, most, what = steps
            said = _said(setups, bullet, sentence)
            for alt in alternatives:
                each = max((abs(v) for f, v in alt if f in _SCALES and isinstance(v, int)),
                           default=1)
                top = max(1, most // each) if "maximum of" in low else most
                if "maximum of" not in low and _OWN_COUNT.search(what):
                    top = 6  # the unit's own models: up to 30 (a Leader and 20 Boyz: x4)
                for k in range(1, top + 1):
                    counted = f"{k * per}" if per == 1 else f"{k * per}-{(k + 1) * per - 1}"
                    scaled = [(f, v * k if f in _SCALES and isinstance(v, int) else v)
                              for f, v in alt]
                    switches.append((side, whom, f"{said} [{k} time{'s' * (k > 1)}: "
                                     f"{counted} {what}]", effect_clauses(scaled, cond), f"x{k}"))
            continue
        clauses = [effect_clauses(alt, cond) for alt in alternatives]
        if re.search(r"\binstead\b", low) or sentence in branches:
            # "+3 Strength instead": not on top of the +1; nor one alternative on the other
            clauses = [[attrs.evolve(e, not_cumulative=tuple(
                k for k, _v in e.changes if k in ADDITIVE)) for e in c] for c in clauses]
        if unchecked or setup or len(clauses) > 1:
            said = _said(setups, bullet, sentence)
            switches += [(side, whom, said, c, "") for c in clauses]
        else:
            auto.setdefault((side, whom), []).extend(clauses[0])
    out: list[DataRule] = []
    base = _Base(faction=faction, kind=kind, text=text.strip(), source=where)

    def part(rule: NamedRule, whom: Whom) -> DataRule:
        return DataRule(rule, whom.scope, whom.keywords, whom.excluding, whom.words, whom.model)

    for i, ((side, whom), effects) in enumerate(auto.items()):
        label = name if i == 0 else f"{name} ({'when attacked' if side == 'defender' else side}"\
            f"{', ' + whom.scope.value if whom.scope is not Scope.UNIT else ''})"
        out.append(part(NamedRule(label, side=side, effects=tuple(effects), **base), whom))
    # the switches of several sentences are parts of one rule, switched on together by its
    # name (Oath of Moment's re-roll and +1 to wound); those of one sentence's either/or, of
    # one count, or of a choice among bullets are options: one is named
    sentences = Counter(said for _s, _w, said, _e, step in switches if not step)
    second = second_clauses(marked) | branches  # options, not parts switched on together
    for i, (side, whom, said, effects, step) in enumerate(switches):
        label = name if not out and len(switches) == 1 else f"{name} ({step or i + 1})"
        joint = label != name and not step and sentences[said] == 1 and not _OPTIONS.search(
            said) and not any(said.endswith(c) for c in second)
        out.append(part(NamedRule(label, side=side, effects=tuple(effects), assumes=said,
                                  aliases=(name,) if joint else (), **base), whom))
    side, whom = (out[0].rule.side, first) if out and first else (
        "attacker", Whom(_scope(clean.lower(), leading)))
    if reasons:
        label = name if not out else f"{name} (rest)"
        if any(r.startswith(_OTHER_RULE) for r in reasons):
            side = "attacker"  # another rule's benefit (Guided, a named ability): said attacking
        out.append(part(NamedRule(label, side=side,
                                  not_modelled="; ".join(dict.fromkeys(reasons)), **base), whom))
    if not out:
        out.append(part(NamedRule(name, side=side, not_modelled="wording not recognised",
                                  **base), whom))
    holder = _SELECTED_HOLDER.search(clean)
    if holder:  # "... select one of the following abilities ... this model's melee weapons
        # have the selected ability": the choice is that model's, not its unit's; "this
        # model's Bolt of Change has that ability": that weapon's
        weapon = re.sub(r"^(?:(?:ranged|melee) )?weapons?$", "", holder.group("w").lower())
        out = [_held_by_model(p, weapon) if p.scope in (Scope.UNIT, Scope.MODEL) and not p.model
               and p.rule.usable and all(k == "abilities" for e in p.rule.effects
                                         for k, _v in e.changes) else p for p in out]
    from .guard import guarded  # a second reading of each part against the text (guard.py)

    return guarded(tuple(out), rules_text(text))


#: the models of the bearer's unit given an ability the text then defines ("Until the end of the
#: battle, models in the bearer's unit have that bioniks ability. ... 2. Bionik Arms: Add 1 to the
#: Strength characteristic of melee weapons equipped by this model"): "this model" is each one
_UNIT_FRAME = re.compile(r"\bmodels in (?:this|the bearer's|this model's) unit have (?:that|the "
                         r"following) [a-z' \-]*abilit", re.I)
#: the same, read for one of those units (:func:`~mathhammer.data.rules.detachments.for_unit`)
_OWN_FRAME = re.compile(r"(?:Units|Models) (?:have|has|gains?) the following (?:the )?abilit")
#: the bearer's unit without the bearer: "all other models in the bearer's unit"
_OTHER_MODELS = re.compile(r"\bother models in (?:this|the bearer's|this model's|its) unit\b",
                           re.I)


#: a rule given by name ("gain the Blessings of Khorne ability"; not "units that have the X
#: ability", a condition)
_GAINS_ABILITY = re.compile(r"(?<!that )\b(?:gains?|has|have) the ((?:[A-Z][\w'\-]*)(?: (?:of|the|"
                            r"[A-Z][\w'\-]*))*) abilit(?:y|ies)\b")
#: a unit made Guided, Observer or Spotted (For the Greater Good's states) by another rule
_MADE_GUIDED = re.compile(r"\b(?:is considered to be|becomes?|counts as) (?:an?|that "
                          r"[\w' ]{1,40}?'s) (?:Guided|Spotted|Observer) unit\b", re.I)
#: the bearer (or the unit it leads) is an Observer unit, and the unit it observes for (a Guided
#: unit, For the Greater Good's) the one whose attacks the sentence changes
_OBSERVER = re.compile(r"\b(?:this|that|the bearer's) unit is an Observer unit\b", re.I)
_GUIDED = re.compile(r"\bmodels? in (?:an?|its|their|that|the) Guided unit\b", re.I)
#: the reasons that name another rule the text gives (said where attacks are made)
_OTHER_RULE = ("gains another ability by name", "makes a unit Guided or Spotted")
#: the abilities a rule can give by name that are read (or change no attack)
_CORE_ABILITIES = ("stealth", "deep strike", "scouts", "infiltrators", "lone operative",
                   "fights first", "leader", "deadly demise", "firing deck", "battle focus",
                   "feel no pain", "benefit of cover")


#: "it" or "its" as a subject, and the bearer it may mean ("this model", "the bearer", "this
#: unit"; "this model's unit" is the unit)
_PRONOUN = re.compile(r"\b(?:it|its)\b(?! (?:is|was) (?:destroyed|selected)\b)", re.I)
_SELF_SAID = re.compile(r"\b(?:this model's unit|the bearer's unit|this unit|this model|the "
                        r"bearer|this (?:character|vehicle|monster|psyker|titan|walker))\b(?!'s "
                        r"unit)", re.I)


#: who has the ability a choice selected, when it is one model ("Until the end of the phase,
#: this model's melee weapons have the selected ability")
_SELECTED_HOLDER = re.compile(r"\b(?:this model's|the bearer's) (?P<w>(?:[\w\-]+ ){0,3}?[\w\-]+) "
                              r"ha(?:ve|s) (?:the (?:selected|chosen)|that) (?:weapon )?abilit",
                              re.I)


class _Base(TypedDict):
    """What every part of one rule's text has the same: its faction, kind, text and source."""

    faction: str
    kind: str
    text: str
    source: str


def _held_by_model(part: DataRule, weapon: str) -> DataRule:
    """A choice's part for the model that has the chosen ability (and the weapon named, when
    the text names one: "this model's Black Sword has that ability")."""
    if weapon and not part.rule.requires.weapon_names:
        part = attrs.evolve(part, rule=attrs.evolve(part.rule, requires=attrs.evolve(
            part.rule.requires, weapon_names=(weapon,))))
    return attrs.evolve(part, scope=Scope.MODEL)


#: a sentence that only says what a word means or when a rule is used (no effect of its own)
_DEFINES = re.compile(r"\bare known as\b|\bis known as\b|\bcannot be used\b|\bselect one of "
                      r"the following (?:abilities|weapon abilities)\b[^.]*$|\bbefore making a "
                      r"saving throw\b")
#: a choice among bullets or abilities: each is an option, not a part
_OPTIONS = re.compile(r"\bone of the following\b|\bselect one of\b|\bchoose one\b|\bone of "
                      r"(?:these|the) (?:abilities|stances|vows|doctrines|options|bullet points)\b|"
                      r"\b(?:selected|chosen) (?:ability|stance|vow|doctrine|option)\b|"
                      r"\bon an? \d(?:-\d)?\+?,", re.I)


#: changes that a count scales ("+1 Attack for every 5 models")
_SCALES = ("attacks_mod", "strength_mod", "damage_mod", "ap_mod", "hit_mod", "wound_mod",
           "skill_mod")
_PER = re.compile(r"\bfor (?:every|each) (?:(\d+) )?([^,.;()]+?)(?:\s*\((?:rounding down|to a "
                  r"maximum of \+?(\d+)[^)]*)\))?(?=[,.;]|$| but\b| and\b| \()")


#: a count of the unit's own models ("for every 5 models in this unit")
_OWN_COUNT = re.compile(r"^(?:other )?models? in (?:this|the bearer's|that) unit$")


def _scaling(low: str) -> tuple[int, int, str] | None:
    """A change scaled by a count ("for every 5 enemy models within 6\"", "for each enemy unit
    within 6\" (to a maximum of +3)"): (models per step, the most steps offered, what is
    counted); None when the sentence scales nothing. The count is the player's: each step is a
    switch of its own (``NAME (x2)``: two steps); a maximum gives the steps, else three."""
    m = _PER.search(low)
    if m is None or re.match(r"(?:wound|attack|hit|time)s?\b", m.group(2)):
        return None
    per = int(m.group(1) or 1)
    most = int(m.group(3)) if m.group(3) else 3
    return per, max(1, min(most, 6)), m.group(2).strip()  # a maximum is of the change's value


#: a sentence that ends in a condition with no clause after it ("Trigger, When ... is selected")
_BARE_CONDITION = re.compile(r"(?:^|, )(?:when|whenever|each time|if|while)\b[^,;]*$")


def _said(setups: dict[int, list[str]], bullet: int, sentence: str) -> str:
    """What a switch asserts: the setups it is read under, then its sentence: the first outside
    the bullets and its own bullet's first, never another bullet's (The Tidecrystal's second
    option is the objective marker you control, not the first's you do not), but for those
    that say what a state the sentence names is ("While an EMPEROR'S CHILDREN unit ... is
    within 6\" of ... LEGIONS OF EXCESS units, it is Empowered")."""
    said = [s[0] for s in (setups.get(0), setups.get(bullet) if bullet else None) if s]
    words = set(re.findall(r"[a-z][a-z\-]*", sentence.lower()))
    said += [s for b, found in setups.items() if b not in (0, bullet) for s in found
             if (m := _STATE_SAID.search(s.lower())) and m.group(1) in words]
    return ". ".join(said + [sentence])


#: a setup that says what a state is ("..., it is Empowered")
_STATE_SAID = re.compile(r"\b(?:it|they|that unit|this unit) (?:is|are) ([a-z][a-z\-]{3,})$")


def _blank(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with the spans replaced by spaces (the same length: positions still match)."""
    chars = list(text)
    for a, b in spans:
        chars[a:b] = " " * (b - a)
    return "".join(chars)


#: a case in brackets that replaces the sentence's effect: "(if ..., ... instead)"
_INSTEAD_CASE = re.compile(r"(?<!\s)\s*\((if [^()]*\binstead)\)", re.I)
#: one that ends its sentence, read as the sentence after
_INSTEAD_CASE_LAST = re.compile(r"(?<!\s)\s*\((if [^()]*\binstead)\)(?=\.|$)", re.I)


def _quote(sentence: str, most: int = 300) -> str:
    """A sentence quoted in a not-modelled reason (cut short when long)."""
    short = sentence if len(sentence) <= most else sentence[:most - 3].rstrip() + "..."
    return f'"{short}"'


def _scope(low: str, leading: bool) -> Scope:
    """Whose attacks a sentence changes: "while this model is leading a unit" (or "that unit"
    after it), "this model"/"the bearer", else the unit."""
    if LEADING.search(low) or (leading and re.search(r"\bthat unit\b", low)):
        return Scope.LED
    if THIS_MODEL.search(low) and not re.search(
            r"models? in (?:this|the bearer's|this model's) unit|this model's unit", low):
        return Scope.MODEL
    return Scope.UNIT


def _keyword_left(sentence: str, cond: dict[str, Any]) -> bool:
    """Whether the sentence names a keyword the engine does not check (the attacker's, a
    CHARACTER model of the unit...): a word in capitals outside the weapon abilities and the
    target's keywords."""
    text = TARGET_KW.sub(" ", re.sub(r"\[[^\[\]]*\]", " ", sentence), count=1) \
        if cond.get("target_keywords") else re.sub(r"\[[^\[\]]*\]", " ", sentence)
    if cond.get("target_not_keywords"):
        text = TARGET_EXCLUDED.sub(" ", text)
    if cond.get("led"):  # "a NECRONS CHARACTER model is leading": a Leader of the unit's own
        text = re.sub(r"\b(?:[A-Z][A-Z'\-]{1,40} ){0,8}CHARACTER(?: model)? is leading", " ", text)
    return bool(set(re.findall(r"\b[A-Z][A-Z'\-]{2,}\b", text)) - {"CP", "OC"})


__all__ = ["translate"]
