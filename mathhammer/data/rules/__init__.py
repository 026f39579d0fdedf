"""Rules from data and rule files: :mod:`.translate` (ability text and effect trees into named-rule
effects; coverage), :mod:`.named` and :mod:`.named_schema` (named-rule files), :mod:`.unit_rules`,
:mod:`.detachments`, :mod:`.stratagems`, :mod:`.leaders`, :mod:`.attached`; :mod:`.guard` (a second,
conservative check of each translated part against its text)."""
