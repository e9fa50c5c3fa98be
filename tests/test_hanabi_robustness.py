"""Hostile but fair calls of every public Hanabi function: a result, ValueError or TypeError."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from robustness import any_value, public_callables, well_behaved

from puzzlelab import hanabi as H
from puzzlelab.hanabi import (knowledge, model, notebook, partition_views, reference, solvers,
                              source, tables)

MODULES = (model, solvers, source, knowledge, tables, partition_views, notebook, reference)
CALLABLES = [(f"{m.__name__}.{name}", f) for m in MODULES for name, f in public_callables(m)]
# Keywords that keep legitimate but long work short (a study of 1 table per point, few tries).
SHORT = {"hint_capacity_study": {"samples": 1}, "mixing_gain_example": {"max_tries": 20}}

EXAMPLE = H.example_table()
FULL = H.hanabi_table([[("Red", 1), ("White", 3)], [("Blue", 5)]])
PLAUSIBLE = st.sampled_from([
    EXAMPLE, FULL, EXAMPLE.to_frame(), [list(r) for r in H.EXAMPLE_ROWS], H.COLOURS, ["Red"],
    {"Red", "Blue"}, 0, 1, 3, 5, 40, 2**20, "dp", "brute", np.random.default_rng(0),
    EXAMPLE.cards[0], FULL.cards[0], EXAMPLE.masks[0],
])
ARGUMENT = st.one_of(any_value(), PLAUSIBLE)


def test_every_module_is_covered():
    assert {name.rsplit(".", 1)[1] for name, _ in CALLABLES} >= {
        n for n, _ in public_callables(H)}
    assert len(CALLABLES) >= 40


@pytest.mark.parametrize("name, function", CALLABLES, ids=[n for n, _ in CALLABLES])
@settings(max_examples=25, deadline=None)
@given(args=st.lists(ARGUMENT, max_size=3))
def test_public_functions_return_or_refuse_clearly(name, function, args):
    result = well_behaved(function, *args, seconds=5, **SHORT.get(name.rsplit(".", 1)[1], {}))
    if hasattr(result, "__next__"):  # a lazy enumeration: its first item must come too
        well_behaved(next, result, None, seconds=5)


# --- one regression test per reported example ----------------------------------------------------

def test_hint_validity_of_seven_unknown_cards_counts_without_listing_hands():
    everything = [(c, v) for c in H.COLOURS for v in H.VALUES]
    table = H.hanabi_table([everything] * 7)
    validity = well_behaved(H.hint_validity, table, seconds=2).set_index("hint")
    # each hint touches 5 of a card's 25 identities, so it misses all 7 cards in 20^7 hands
    assert (validity.hands == 25**7).all() and (validity.legal_in_hands == 25**7 - 20**7).all()


def test_listing_every_hand_of_seven_unknown_cards_is_refused_at_once():
    everything = [(c, v) for c in H.COLOURS for v in H.VALUES]
    table = H.hanabi_table([everything] * 7)
    err = well_behaved(reference.part_is_sure_by_hands, table, {"Red"}, seconds=2)
    assert isinstance(err, ValueError) and "hands" in str(err)


def test_random_knowledge_refuses_more_hints_than_a_game_gives():
    err = well_behaved(H.random_knowledge, 5, 10**9, 0, seconds=1)
    assert isinstance(err, ValueError) and "hints_received" in str(err)


def test_describe_cards_of_a_colour_only_table():
    frame = well_behaved(H.describe_cards, H.possibility_table([[1, 1, 0, 0, 0]]), seconds=2)
    assert frame.loc["card 1", "may be"] == "Red White"
    assert frame.loc["card 1", "holes in its rectangle"] == "–"


def test_hint_capacity_study_without_samples_is_refused():
    with pytest.raises(ValueError, match="samples"):
        H.hint_capacity_study(samples=0)


def test_max_hint_partition_takes_a_dataframe_or_rows_and_says_what_else_to_pass():
    expected = H.max_hint_partition(EXAMPLE)
    frame = pd.DataFrame([list(r) for r in H.EXAMPLE_ROWS], columns=H.COLOURS)
    assert H.max_hint_partition(frame) == expected
    assert H.max_hint_partition([list(r) for r in H.EXAMPLE_ROWS]) == expected
    with pytest.raises(TypeError, match="DataFrame .* or nested lists"):
        H.max_hint_partition("Red White")


def test_brute_force_refuses_tables_too_tall_to_search():
    table = H.possibility_table([[1, 0, 0, 0, 0]] * 40)
    with pytest.raises(ValueError, match="largest that fits is 24 rows"):
        H.packing_brute(table)
