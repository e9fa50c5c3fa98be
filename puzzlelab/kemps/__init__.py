"""Kemps with public announcements and knowledge bases (group6_kemps2023, a student report): three
players collect four of a kind from a shared table, and what each knows of every card is a
Kripke sub-model changed by the announcements of each turn.

Glossary of the short names used throughout the subpackage:

- `c`, card: an int 0 <= c < n; its value index is `c >> 2` and its suit `c & 3` (cards.py);
- `v`, value: a value index 0 <= v < m into `Deck.values` (a deck of m values has n = 4m cards);
- `p`, `me`, seat: a player 0, 1, 2 (the report's players 1, 2, 3);
- `kb`, knowledge base: one 4-bit mask per card, bit 0 "with nobody", bit p + 1 "player p
  holds it" (knowledge.py); `hc`, `tc`: counts of each value in a hand and on the table.

Modules and roles: see the README's layout table.
"""

from ..lazy import exports

_EXPORTS = {
    "FULL": "cards", "Deck": "cards", "make_deck": "cards",
    "Game": "game", "GameRecord": "game", "Turn": "game",
    "KempsEnv": "env",
    "play": "matches", "play_scores": "matches",
    "STRATEGIES": "strategies", "Agent": "strategies", "Blocking": "strategies",
    "Bold": "strategies", "Greedy": "strategies", "KBGreedy": "strategies",
    "TheoryOfMind": "strategies",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = exports(__name__, _EXPORTS)
