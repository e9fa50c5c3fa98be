"""Hanabi: how many messages the choice of a hint can carry, and the hat strategies played.

Hint packing (O'Dwyer 2018): split the hints into parts so that every part surely holds a valid
hint; the number of parts is the number of messages a hint can send. Hanabi played (Cox et al.
2015): the hat-guessing strategies, whose messages are counted by such parts.

Modules and roles (see the README's layout table): model: `model` (possibility tables, the deck's
counts), `rules` (cards, hints, rules and moves), `game` (the game engine); solvers: `solvers` (the
packing), `knowledge` (realistic game states, the capacity study), `hat_strategies`,
`hat_compiled`, `hat_sweep` (the strategies, compiled, over many deals), `info_compiled`,
`questions` (the strong information strategy), `kernels` (the compiled pieces both share);
reference: `reference` (slow definitions for the tests); source: `source` (the post's example and
claims); tables: `tables` (the cached tables); views: `notebook` (the hat-game part),
`partition_views` (the hint-partition part).
"""

from ..lazy import exports

_EXPORTS = {
    **dict.fromkeys(("COLOURS", "COPIES", "MAX_HINTS", "VALUES", "Card", "HintTable",
                     "Identity", "as_table", "hanabi_table", "hint_mask", "hint_names",
                     "possibility_table", "project", "row_masks"), "model"),
    **dict.fromkeys(("BRUTE_FORCE_LIMIT", "METHODS", "certifies", "compare_hinting", "is_sure",
                     "max_hint_partition", "minimal_sure_sets", "packing_brute",
                     "packing_cp_sat", "packing_dp", "partition_size", "sure_masks"),
                     "solvers"),
    **dict.fromkeys(("EXAMPLE_CARD_NAMES", "EXAMPLE_ROWS", "POST_PARTITION", "example_table",
                     "fewest_legal_hints", "first_fit_rows", "hint_validity"), "source"),
    **dict.fromkeys(("MAX_HINTS_RECEIVED", "MAX_STUDY_TABLES", "escaping_identities",
                     "hanabi_deck", "hint_capacity_study", "holes", "is_rectangular",
                     "mixing_gain_example", "random_knowledge", "rectangle"), "knowledge"),
    **dict.fromkeys(("CAPACITY", "CAPACITY_SAMPLES", "CAPACITY_TABLE", "HAT_GAINS",
                     "HAT_SUMMARY", "STRONG_DEALS", "hat_gains", "hat_game_sums", "hat_summary",
                     "hint_capacity_table", "peer_scores", "strong_game_sums", "strong_gains",
                     "strong_summary"), "tables"),
    **dict.fromkeys(("capacity_summary", "describe_cards", "explore_partition",
                     "partition_view", "plot_hint_capacity", "plot_mixing_gain", "toggle_table"),
                    "partition_views"),
    **dict.fromkeys(("HAT_VARIANTS", "beside_peers", "beside_published", "explore_hat_game",
                     "hat_gains_table", "hat_game_views", "hat_score_table", "plot_hat_scores",
                     "published_hat_scores"), "notebook"),
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = exports(__name__, _EXPORTS)
