"""The values a player describes: :mod:`.profiles` (Weapon, Target), :mod:`.abilities`,
:mod:`.squad` (a unit of model groups, a Leader attached), :mod:`.state` (what a unit has
lost), :mod:`.options`, :mod:`.ruleset` (10e, 11e, house rules), :mod:`.named` (what a
named rule is) and :mod:`.loadout` (which weapons a unit's models use in a phase)."""
