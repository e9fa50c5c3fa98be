"""Kemps with public announcements and knowledge bases (group6_kemps2023, a student report).

Glossary of the short names used throughout the subpackage:

- `c`, card: an int 0 <= c < n; its value index is `c >> 2` and its suit `c & 3` (cards.py);
- `v`, value: a value index 0 <= v < m into `Deck.values` (a deck of m values has n = 4m cards);
- `p`, `me`, seat: a player 0, 1, 2 (the report's players 1, 2, 3);
- `kb`, knowledge base: one 4-bit mask per card, bit 0 "with nobody", bit p + 1 "player p
  holds it" (knowledge.py); `hc`, `tc`: counts of each value in a hand and on the table.

Modules: the model (`cards`, `engine`, `knowledge`, `strategies`), play and simulation
(`play`, `tournament`, `streaming` for runs too large to keep game by game, `env`), the
report's tables and claims (`source`), and the notebook layer (`notebook`: tables, figures,
`explore_*`; the only module that caches tables).
`tournament` is imported from its module (`from puzzlelab.kemps.tournament import tournament`),
which is also the command line `python -m puzzlelab.kemps.tournament`.
"""

from .cards import FULL, Deck, make_deck
from .game import Game, GameRecord, Turn
from .env import KempsEnv
from .play import play, play_scores
from .strategies import STRATEGIES, Agent, Blocking, Bold, Greedy, KBGreedy, TheoryOfMind

__all__ = ["FULL", "Deck", "make_deck", "Game", "GameRecord", "Turn", "KempsEnv", "play",
           "play_scores", "STRATEGIES", "Agent", "Greedy", "KBGreedy", "Blocking",
           "Bold", "TheoryOfMind"]
