"""The rule steps: rolls, criticals, damage, allocation, effects, named rules applied."""
