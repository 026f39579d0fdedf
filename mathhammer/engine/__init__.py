"""Chaining the rule steps of :mod:`mathhammer.mechanics` into exact distributions:
:mod:`.attack` (one attack of any weapons at any unit), :mod:`.sequence` (steps and turns:
attacks, mortal wounds, reanimation) and :mod:`.work` (the work a query implies, checked before
it starts)."""
