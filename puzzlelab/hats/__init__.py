"""The Leprechaun hat problem (janssen2017): which deals of guesses win the most rounds.

Modules and roles: see the README's layout table (model `world`, `model`; solvers `brute`,
`census`, `chains`, `covering`, `fullline`, `open_cases`, `optima`, `orbits`, `rigid`, `sets`,
`slack`, `slices`; reference `reference`; source `source`; tables `tables`; views `notebook`).
"""

from ..lazy import exports

_EXPORTS = {
    "LETTERS": "world", "PASS": "world", "check_world": "world", "round_index": "world",
    "round_to_string": "world", "rounds": "world", "string_to_round": "world",
    "view_of": "world", "views": "world",
    "answers": "model", "deal_to_strings": "model", "evaluate": "model", "parse_deal": "model",
    "parse_strategy": "model", "rounds_correct": "model", "set_correct_order": "model",
    "strategy_to_string": "model", "strong_answering": "model", "won_mask": "model",
    "Bounds": "optima", "NotProvenError": "optima", "optimum": "optima",
    "optimum_bounds": "optima",
    "achievable": "sets", "canonical_deal": "sets", "maximal_won_masks": "sets",
    "maximal_won_sets": "sets", "minimal_dominating_sets": "sets", "minimal_lost_sets": "sets",
    "to_mask": "sets", "to_rounds": "sets",
    "explore_deal": "notebook", "explore_hypercube": "notebook",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = exports(__name__, _EXPORTS)
