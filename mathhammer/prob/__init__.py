"""Exact distributions: PMFs, dice expressions, big integers, Markov chains."""
