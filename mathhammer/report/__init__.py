"""Outputs: reports, comparison tables, JSON and plots."""
