"""Hanabi hint packing: three exact methods against each other and against the semantic definition."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab import hanabi as H

SOURCE_ROWS = [[1, 1, 1, 1, 0], [0, 1, 1, 0, 0], [0, 0, 1, 1, 0], [1, 0, 0, 0, 0]]


def colour_rows(n_hints: int, max_rows: int = 6):
    row = st.lists(st.integers(0, 1), min_size=n_hints, max_size=n_hints).filter(any)
    return st.lists(row, min_size=1, max_size=max_rows)


IDENTITIES = [(c, v) for c in H.COLOURS[:3] for v in H.VALUES[:3]]
mixed_cards = st.lists(
    st.lists(st.sampled_from(IDENTITIES), min_size=1, max_size=4, unique=True), min_size=1, max_size=3
)


def small_mixed_table(cards) -> H.HintTable:
    """A mixed table over 3 colours and 3 values (Bell(6) = 203 partitions to enumerate)."""
    table = H.hanabi_table(cards)
    return H.project(table, H.COLOURS[:3] + H.VALUES[:3])


@settings(max_examples=300, deadline=None)
@given(colour_rows(5))
def test_colour_tables_three_methods_agree_with_enumeration_of_all_partitions(rows):
    table = H.possibility_table(rows)
    truth = H.max_partition_by_enumeration(table)
    for method in H.METHODS:
        assert H.partition_size(table, method) == truth


@settings(max_examples=200, deadline=None)
@given(mixed_cards)
def test_mixed_tables_dp_and_cp_sat_agree_with_enumeration(cards):
    table = small_mixed_table(cards)
    truth = H.max_partition_by_enumeration(table)
    assert H.partition_size(table, "dp") == truth
    assert H.partition_size(table, "cp-sat") == truth


@settings(max_examples=200, deadline=None)
@given(mixed_cards, st.sets(st.sampled_from(H.COLOURS[:3] + H.VALUES[:3]), min_size=1))
def test_certification_rule_matches_every_possible_hand(cards, part):
    table = small_mixed_table(cards)
    assert H.is_sure(table, part) == H.part_is_sure_by_hands(table, part)


@settings(max_examples=100, deadline=None)
@given(colour_rows(6, max_rows=6))
def test_partition_is_a_partition_of_sure_parts(rows):
    table = H.possibility_table(rows, hints=[f"h{i}" for i in range(6)])
    parts = H.max_hint_partition(table)
    assert sorted(h for p in parts for h in p) == sorted(table.hints)
    assert all(H.part_is_sure_by_hands(table, p) for p in parts)


def test_source_example_has_a_two_part_maximum_and_the_sources_partition_is_sure():
    table = H.possibility_table(SOURCE_ROWS)
    assert H.max_partition_by_enumeration(table) == H.partition_size(table) == 2
    assert H.part_is_sure_by_hands(table, {"Red", "Blue"})
    assert H.part_is_sure_by_hands(table, {"White", "Yellow", "Green"})


def test_set_partitions_counts_are_bell_numbers():
    # Bell numbers B(n) satisfy B(n+1) = sum_k C(n, k) B(k); compare the enumeration to that recurrence.
    from math import comb

    bell = [1]
    for n in range(7):
        bell.append(sum(comb(n, k) * bell[k] for k in range(n + 1)))
    for n in range(7):
        assert sum(1 for _ in H.set_partitions(list(range(n)))) == bell[n]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6), st.integers(0, 8), st.integers(0, 40), st.integers(0, 2**32 - 1))
def test_hint_only_knowledge_is_rectangular_and_mixed_equals_separate(hand, hints, public, seed):
    """Without card counting, knowledge is colours x values, and then mixed = colours + values."""
    rng = np.random.default_rng(seed)
    table, true_hand = H.random_knowledge(hand, hints, rng, public_cards=0)
    assert all(frozenset(ident) in card for ident, card in zip(true_hand, table.cards))
    assert H.is_rectangular(table)
    result = H.compare_hinting(table)
    assert result["mixed"] == result["separate"]
    counted, true_hand = H.random_knowledge(hand, hints, rng, public_cards=public)
    assert all(frozenset(ident) in card for ident, card in zip(true_hand, counted.cards))
    result = H.compare_hinting(counted)
    assert result["mixed"] >= result["separate"]


def test_dataframe_input_keeps_names():
    df = pd.DataFrame(SOURCE_ROWS, columns=H.COLOURS, index=["Newest", "b", "c", "Oldest"])
    table = H.possibility_table(df)
    assert table.card_names == ("Newest", "b", "c", "Oldest")
    assert H.max_hint_partition(table)[0] >= {"Red"}


@pytest.mark.parametrize(
    "rows, message",
    [
        ([[1, 1, 0, 0, 0], [0, 0, 0, 0, 0]], "no possibility"),
        ([[1, 1, 0, 0]], "expected 5"),
        ([[1, 2, 0, 0, 0]], "other than 0/1"),
        ([[1, 0.5, 0, 0, 0]], "other than 0/1"),
        ([], "at least one row"),
    ],
)
def test_bad_tables_name_the_problem(rows, message):
    with pytest.raises(ValueError, match=message):
        H.possibility_table(rows)


def test_other_bad_input():
    with pytest.raises(ValueError, match="distinct"):
        H.possibility_table([[1, 0]], hints=["a", "a"])
    with pytest.raises(ValueError, match="unknown method"):
        H.max_hint_partition(H.possibility_table(SOURCE_ROWS), method="magic")
    with pytest.raises(ValueError, match="unknown identity"):
        H.hanabi_table([[("Purple", 1)]])
    with pytest.raises(ValueError, match="colour-only"):
        H.packing_brute(H.hanabi_table([[("Red", 1)]]))
    with pytest.raises(ValueError, match="public cards"):
        H.random_knowledge(5, 0, np.random.default_rng(0), public_cards=46)
    with pytest.raises(ValueError, match="unknown hint"):
        H.is_sure(H.possibility_table(SOURCE_ROWS), {"Pink"})


def test_explore_partition_reports_bad_rows_as_value_error():
    with pytest.raises(ValueError):
        H.explore_partition([[0, 0, 0, 0, 0]])
    frame = H.explore_partition(SOURCE_ROWS)
    assert frame.loc["part →", "certifies part"] == "2 parts"
