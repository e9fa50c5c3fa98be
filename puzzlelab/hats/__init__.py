"""The Leprechaun hat problem (janssen2017): which deals of guesses win the most rounds.

Modules and roles: see the README's layout table (model `model`; solvers `brute`, `census`,
`chains`, `covering`, `fullline`, `optima`, `orbits`, `sets`, `slices`; reference
`reference`; source `source`; tables `tables`; views `notebook`).
"""

from ..lazy import exports

_EXPORTS = {
    "LETTERS": "model", "PASS": "model", "answers": "model", "check_world": "model",
    "deal_to_strings": "model", "evaluate": "model", "parse_deal": "model",
    "parse_strategy": "model", "round_index": "model", "round_to_string": "model",
    "rounds": "model", "rounds_correct": "model", "set_correct_order": "model",
    "strategy_to_string": "model", "string_to_round": "model", "strong_answering": "model",
    "view_of": "model", "views": "model", "won_mask": "model",
    "Bounds": "optima", "NotProvenError": "optima", "optimum": "optima",
    "optimum_bounds": "optima",
    "achievable": "sets", "canonical_deal": "sets", "maximal_won_masks": "sets",
    "maximal_won_sets": "sets", "minimal_dominating_sets": "sets", "minimal_lost_sets": "sets",
    "to_mask": "sets", "to_rounds": "sets",
    "explore_deal": "notebook", "explore_hypercube": "notebook",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = exports(__name__, _EXPORTS)
