"""Chaining the rule steps of :mod:`mathhammer.mechanics` into exact distributions:
:mod:`.attack` (one attack of any weapons at any unit, named rules applied, Devastating Wounds
last; :mod:`.tallies`: several Devastating weapons' tallies packed), :mod:`.sequence` (steps
and turns: attacks, mortal-wound rolls, reanimation, Deadly Demise over a sequence),
:mod:`.work` (the work a query implies, checked before it starts), :mod:`.plan` (several units
and several targets: who shoots what) and :mod:`.search` (the best fixed plan, proved)."""
