"""Hanabi hint packing (O'Dwyer 2018, odwyer2018): how many messages can the choice of a hint carry?

Split the hints into parts so that every part surely holds a valid hint; the number of parts
is the number of messages a hint can send. Modules, as in every puzzle of puzzlelab:

- `model`: possibility tables (`HintTable`), hints, cards, identities, input checks;
- `solvers`: the sure-part test and the set-packing reduction, solved by the post's brute
  force, dynamic programming over subsets of hints, or CP-SAT;
- `source`: the post's example table and its claims, computed for any table;
- `knowledge`: realistic game states (deck, true hints, card counting) and the capacity study;
- `notebook`: what notebooks/hanabi.ipynb shows (tables, figures, explorations, cached study);
- `reference`: slow definitions by listing hands and partitions, for cross-checks only.

Hanabi played (Cox et al. 2015, the hat-guessing strategies), each module used by name
(`hanabi.rules.Game`, ...):

- `rules`: the seeded game engine (deal, legal moves, turns, the end, both score conventions);
- `hat_strategies`: the recommendation and information strategies, the hat step in plain
  sight (hand values, the sum mod M, decoding), M counted by sure groups of hints;
- `hat_compiled`: the information strategy compiled (numba), move for move the same;
- `hat_sweep`: many seeded deals as exact sums, per player count and variant (a long run).
"""

from importlib import import_module
from typing import Any

from . import hat_strategies, knowledge, model, reference, rules, solvers, source
from .knowledge import (
    MAX_HINTS_RECEIVED, MAX_STUDY_TABLES, escaping_identities, hanabi_deck,
    hint_capacity_study, holes, is_rectangular, mixing_gain_example, random_knowledge, rectangle,
)
from .model import (
    COLOURS, COPIES, MAX_HINTS, VALUES, Card, HintTable, Identity, as_table, hanabi_table,
    hint_mask, hint_names, possibility_table, project, row_masks,
)
from .solvers import (
    BRUTE_FORCE_LIMIT, METHODS, certifies, compare_hinting, is_sure, max_hint_partition,
    minimal_sure_sets, packing_brute, packing_cp_sat, packing_dp, partition_size, sure_masks,
)
from .source import (
    EXAMPLE_CARD_NAMES, EXAMPLE_ROWS, POST_PARTITION, example_table, fewest_legal_hints,
    first_fit_rows, hint_validity,
)

# The notebook layer is loaded on first use, so that `python -m puzzlelab.hanabi.notebook`
# runs it once, as the main module.
_NOTEBOOK_NAMES = (
    "CAPACITY", "CAPACITY_SAMPLES", "CAPACITY_TABLE", "HAT_GAINS", "HAT_SUMMARY", "HAT_VARIANTS",
    "beside_published", "capacity_summary", "describe_cards", "explore_hat_game",
    "explore_partition", "hat_gains", "hat_gains_table", "hat_game_sums", "hat_game_views",
    "hat_score_table", "hat_summary", "hint_capacity_table", "partition_view", "plot_hat_scores",
    "plot_hint_capacity", "plot_mixing_gain", "published_hat_scores", "toggle_table",
)

__all__ = sorted(
    knowledge.__all__ + model.__all__ + list(_NOTEBOOK_NAMES) + solvers.__all__ + source.__all__
)


_LAZY_MODULES = ("hat_compiled", "hat_sweep")  # compiled code is loaded on first use


def __getattr__(name: str) -> Any:
    """The notebook layer's names (and the module itself), and the compiled modules, imported
    when first asked for."""
    if name in _LAZY_MODULES:
        return import_module(f".{name}", __name__)
    if name == "notebook" or name in _NOTEBOOK_NAMES:
        module = import_module(".notebook", __name__)
        return module if name == "notebook" else getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
