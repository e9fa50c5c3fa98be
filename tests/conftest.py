"""Shared test settings: Hypothesis draws the same examples on every run (seeded determinism)."""

from hypothesis import settings

settings.register_profile("puzzlelab", derandomize=True, print_blob=True)
settings.load_profile("puzzlelab")
