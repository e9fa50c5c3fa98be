"""Code-breaking games (Klimoš 2014, *Algorithmic Analysis of Code Breaking Games*): a secret code,
experiments that answer with outcomes, and strategies that find the code in few experiments
(coin weighing, Mastermind, Bulls and Cows, Bags of Gold, games written in the thesis's language).

Modules and roles: see the README's layout table.
"""

from ..lazy import exports

_EXPORTS = {
    "Analysis": "game", "Game": "game", "Symmetry": "game_checks",
    "well_formed_table": "game_checks",
    "bags_of_gold": "games", "black_peg_mastermind": "games", "bulls_and_cows": "games",
    "counterfeit_coin": "games", "mastermind": "games",
    "parse": "language",
    "STRATEGIES": "strategies",
    "analyze": "analysis", "lemma14_bound": "bounds", "simulate": "analysis",
    "optimal": "exhaustive",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = exports(__name__, _EXPORTS)
