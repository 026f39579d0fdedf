"""Rules from data and rule files, a module each:

- :mod:`.translate`: the text translator, ability text into named-rule effects (the sentence walk)
- :mod:`.sentences`: ability text cleaned, tested for changing an attack, cut into sentences
- :mod:`.titles`: keyword phrases in title case read whole as keywords
- :mod:`.wordings`: the tables of wordings the text translator knows (effects, conditions, weapons)
- :mod:`.whom`: whom a sentence changes (its beneficiary)
- :mod:`.parts`: what both translators make (:class:`~.parts.DataRule`, :class:`~.parts.Scope`)
- :mod:`.effect_tree`: the effect-tree translator (the 40kdc data's stratagems)
- :mod:`.renderings`: what the 40kdc data's rendering of a tree leaves out, said in its text
- :mod:`.guard`: a second reading of each translated part against its text
- :mod:`.coverage`: how much of the data's ability text is modelled, and why not the rest
- :mod:`.named`, :mod:`.named_schema`: named-rule files (find_rule, mortal_roll)
- :mod:`.unit_rules`: a unit's rules from data, per side; :mod:`.attached`: an attached unit's
- :mod:`.detachments`, :mod:`.stratagems`, :mod:`.leaders`: detachment rules, stratagems, Leaders

The text translator's modules (translate, sentences, titles, wordings, whom) share their tables and
readers by name (no private names across modules); what callers use is each module's
``__all__``.
"""
