"""The Leprechaun hat problem (janssen2017): model, solvers, the thesis's tables, notebook layer.

Module roles, as in every puzzle of puzzlelab:
- model: rounds, views, deals, the thesis's notation, evaluation, validation (`model`);
- solvers: fast exact methods (`brute`, `chains`, `sets`, `census`, `optima`, `fullline`,
  `slices`) and deals made of orbits of a symmetry (`orbits`);
- source: reading and checking the thesis's tables and claims (`thesis`);
- notebook layer: cached tables, figures and `explore_*` functions (`notebook`).
Slow reference implementations for cross-checks live in `reference` (not exported here).
"""

import warnings

# `python -m puzzlelab.hats.optima` runs a module this package has already imported: harmless.
warnings.filterwarnings("ignore", r"'puzzlelab\.hats\.optima' found in sys\.modules",
                        RuntimeWarning)

from . import (  # noqa: E402
    brute, census, chains, fullline, model, notebook, optima, orbits, sets, slices, thesis,
)
from .model import (  # noqa: E402
    LETTERS, PASS, answers, check_world, deal_to_strings, evaluate, parse_deal, parse_strategy,
    round_index, round_to_string, rounds, rounds_correct, set_correct_order, strategy_to_string,
    string_to_round, strong_answering, view_of, views, won_mask,
)
from .notebook import explore_deal, explore_hypercube  # noqa: E402
from .optima import Bounds, NotProvenError, optimum, optimum_bounds  # noqa: E402
from .sets import (  # noqa: E402
    achievable, canonical_deal, maximal_won_masks, maximal_won_sets, minimal_dominating_sets,
    minimal_lost_sets, to_mask, to_rounds,
)

__all__ = [
    "LETTERS", "PASS", "Bounds", "NotProvenError", "achievable", "answers", "brute",
    "canonical_deal", "census", "chains", "check_world", "deal_to_strings", "evaluate", "explore_deal",
    "explore_hypercube", "fullline", "maximal_won_masks", "maximal_won_sets",
    "minimal_dominating_sets", "minimal_lost_sets", "model", "notebook", "optima", "optimum",
    "optimum_bounds", "parse_deal", "parse_strategy", "round_index", "round_to_string", "rounds",
    "rounds_correct", "set_correct_order", "sets", "slices", "strategy_to_string", "string_to_round",
    "strong_answering", "thesis", "to_mask", "to_rounds", "view_of", "views", "won_mask",
]
