"""Chaining the rule steps: one attack, and sequences of steps and turns."""
