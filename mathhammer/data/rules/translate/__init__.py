"""Rules from data: ability text (BattleScribe data, both editions) turned into named-rule
effects (:class:`~mathhammer.model.named.NamedRule`), the one translator (docs/rules.md,
section 12).

Each ability's text is read sentence by sentence against the common wordings (re-roll Hit or
Wound rolls, +1/-1 to Hit or Wound, granted weapon abilities, critical thresholds, AP, Strength
and Damage changes, Feel No Pain, invulnerable saves, Stealth, cover) and their conditions
(ranged or melee, half range, charged, Remained Stationary, the target's keywords or strength,
"while this model is leading a unit"). A sentence with a condition the engine cannot check
(objective markers, a chosen enemy unit, once per battle...) becomes a switch, off by default
(``assumes`` says what switching it on asserts). What changes an attack but matches no known
wording is kept with a "not modelled" reason; nothing is guessed. Every rule keeps its source
text and where it came from. Rules that come as effect trees instead of text (the 40kdc
data's stratagems, :func:`translate_effect`) map onto the same effect fields and conditions.

The translator's modules, each importing only those above it: ``values`` (what the translator
gives), ``sentences`` (an ability's text as the translator reads it), ``wordings`` (the wordings
of an effect and of its conditions), ``subjects`` (whom a sentence is about), ``text`` (the text
translator), ``effect_trees`` (the effect-tree translator), ``coverage`` (what the translator
reads of a set of texts).

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

from .coverage import coverage, not_modelled_reasons
from .effect_trees import translate_effect
from .sentences import is_attack_relevant, normalize
from .subjects import ONE_MODEL, is_keyword_model
from .text import translate
from .values import DataRule, Scope

__all__ = [
    "DataRule", "ONE_MODEL", "Scope", "coverage", "is_attack_relevant", "is_keyword_model",
    "normalize", "not_modelled_reasons", "translate", "translate_effect",
]
