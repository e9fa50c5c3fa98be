"""The Leprechaun hat problem (Janssen's bachelor thesis, LIACS 2017): model, brute force,
the Chain-Method, maximal won sets, exact optima. See notebooks/hats.ipynb."""

from .model import (  # noqa: F401
    LETTERS, PASS, answers, check_world, deal_to_strings, evaluate, naive_evaluate, parse_deal,
    parse_strategy, round_index, round_to_string, rounds, rounds_correct, set_correct_order,
    strategy_to_string, string_to_round, strong_answering, view_of, views, won_mask,
)
from .sets import (  # noqa: F401
    achievable, canonical_deal, maximal_won_masks, maximal_won_sets, minimal_dominating_sets,
    minimal_lost_sets, to_mask, to_rounds,
)
from .optima import Bounds, NotProvenError, optimum, optimum_bounds  # noqa: F401
from .plots import explore_deal, explore_hypercube  # noqa: F401
from . import brute, chains, optima, plots, sets, thesis  # noqa: F401,E402
