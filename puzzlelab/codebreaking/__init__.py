"""Code-breaking games (Klimoš 2014, *Algorithmic Analysis of Code Breaking Games*).

The model:
- `game`: the `Game` tables (codes × experiments → outcome) and well-formedness (§3.2);
- `games`: the coin game (Examples 8, 9), Mastermind (Examples 10, 11) and more of Chapter 2;
- `syntax`, `language`, `game_files`: the game-description language of §4.1 (`parse`), and
  the thesis's games written in it.

The solvers:
- `strategies`: the greedy strategies as scoring functions (`STRATEGIES`, name → function);
- `analysis`: a strategy played against every code (§3.3);
- `optimal`: optimal worst / average strategies by search with symmetry reduction (§3.4–3.5);
- `coins`: the coin game by classes of interchangeable coins (Dyson 1946);
- `reference`: slow, obvious versions of the analysis and the optimum, for cross-checks.

The source: `source` checks the thesis's printed clauses of Example 10.
The notebook layer: `notebook` (tables, figures, `explore_*` functions, cached tables) and
`sweep` (the command line that recomputes the cached tables on any executor).
"""

from .analysis import Analysis, analyze, lemma14_bound, simulate
from .game import Game, Symmetry, well_formed_table
from .games import bags_of_gold, black_peg_mastermind, bulls_and_cows, counterfeit_coin, mastermind
from .language import parse
from .optimal import optimal
from .strategies import STRATEGIES

__all__ = [
    "STRATEGIES", "Analysis", "Game", "Symmetry", "analyze", "bags_of_gold",
    "black_peg_mastermind", "bulls_and_cows", "counterfeit_coin", "lemma14_bound", "mastermind",
    "optimal", "parse", "simulate", "well_formed_table",
]
