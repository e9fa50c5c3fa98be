"""Kemps with public announcements and knowledge bases (source 002, a student report).

play(strategies, seed, deck=...) plays one seeded game; tournament(...) plays every line-up;
env.KempsEnv is a PettingZoo-AEC-style environment; display draws Tables 1-3 and sub-models.
"""

from .cards import FULL, Deck, make_deck
from .engine import Game, GameRecord, Turn
from .env import KempsEnv
from .play import play
from .strategies import STRATEGIES, Agent, Blocking, Bold, Greedy, KBGreedy, TheoryOfMind
from .tournament import tournament

__all__ = ["FULL", "Deck", "make_deck", "Game", "GameRecord", "Turn", "KempsEnv", "play", "tournament",
           "STRATEGIES", "Agent", "Greedy", "KBGreedy", "Blocking", "Bold", "TheoryOfMind"]
