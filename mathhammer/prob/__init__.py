"""Exact distributions, with no Warhammer in them: :mod:`.pmf` (the PMF, integer weights over
one denominator), :mod:`.dice` (dice expressions), :mod:`.bigint` (numbers packed into big
integers, GMP when installed), :mod:`.markov` (the one chain runner), :mod:`.numbers`
(exact values as text) and :mod:`.display` (a PMF in a notebook)."""
