"""puzzlelab."""
