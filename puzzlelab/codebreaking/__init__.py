"""Code-breaking games (Klimoš, *Algorithmic Analysis of Code Breaking Games*, 2014): engine, games, strategies, optimal play.

- `game`: the `Game` tables (codes × experiments → outcome) and well-formedness (§3.2).
- `games`: the coin game (Examples 8, 9), Mastermind (Examples 10, 11) and more of Chapter 2.
- `language`: the game-description language of §4.1 (`parse`).
- `analysis`: the greedy strategies and their analysis over all codes (§3.3).
- `optimal`: optimal worst / average strategies by search with symmetry reduction (§3.4–3.5).
- `coins`: the coin game by classes of interchangeable coins (Dyson's table).
- `explore`: the notebook's tables, figures and widgets.
"""

from .analysis import STRATEGIES, Analysis, analyze, analyze_plain, lemma14_bound, simulate
from .game import Game, Symmetry, well_formed_table
from .games import bags_of_gold, black_peg_mastermind, bulls_and_cows, counterfeit_coin, mastermind
from .language import parse
from .optimal import optimal, optimal_plain

__all__ = [
    "STRATEGIES", "Analysis", "Game", "Symmetry", "analyze", "analyze_plain", "bags_of_gold",
    "black_peg_mastermind", "bulls_and_cows", "counterfeit_coin", "lemma14_bound", "mastermind",
    "optimal", "optimal_plain", "parse", "simulate", "well_formed_table",
]
