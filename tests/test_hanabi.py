"""Hanabi hint packing: three exact methods against each other and against the definition."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab import hanabi as H
from puzzlelab.hanabi import reference as R

SOURCE_ROWS = [[1, 1, 1, 1, 0], [0, 1, 1, 0, 0], [0, 0, 1, 1, 0], [1, 0, 0, 0, 0]]


def colour_rows(n_hints: int, max_rows: int = 6):
    row = st.lists(st.integers(0, 1), min_size=n_hints, max_size=n_hints).filter(any)
    return st.lists(row, min_size=1, max_size=max_rows)


IDENTITIES = [(c, v) for c in H.COLOURS[:3] for v in H.VALUES[:3]]
mixed_cards = st.lists(
    st.lists(st.sampled_from(IDENTITIES), min_size=1, max_size=4, unique=True),
    min_size=1, max_size=3,
)


def small_mixed_table(cards) -> H.HintTable:
    """A mixed table over 3 colours and 3 values (Bell(6) = 203 partitions to enumerate)."""
    table = H.hanabi_table(cards)
    return H.project(table, H.COLOURS[:3] + H.VALUES[:3])


@settings(max_examples=300, deadline=None)
@given(colour_rows(5))
def test_colour_tables_three_methods_agree_with_enumeration_of_all_partitions(rows):
    table = H.possibility_table(rows)
    truth = R.max_partition_by_enumeration(table)
    for method in H.METHODS:
        assert H.partition_size(table, method) == truth


@settings(max_examples=200, deadline=None)
@given(mixed_cards)
def test_mixed_tables_dp_and_cp_sat_agree_with_enumeration(cards):
    table = small_mixed_table(cards)
    truth = R.max_partition_by_enumeration(table)
    assert H.partition_size(table, "dp") == truth
    assert H.partition_size(table, "cp-sat") == truth


@settings(max_examples=200, deadline=None)
@given(mixed_cards, st.sets(st.sampled_from(H.COLOURS[:3] + H.VALUES[:3]), min_size=1))
def test_certification_rule_matches_every_possible_hand(cards, part):
    table = small_mixed_table(cards)
    assert H.is_sure(table, part) == R.part_is_sure_by_hands(table, part)


@settings(max_examples=100, deadline=None)
@given(colour_rows(6, max_rows=6))
def test_every_method_returns_a_partition_of_sure_parts(rows):
    table = H.possibility_table(rows, hints=[f"h{i}" for i in range(6)])
    for method in H.METHODS:
        parts = H.max_hint_partition(table, method)
        assert sorted(h for p in parts for h in p) == sorted(table.hints)
        assert all(R.part_is_sure_by_hands(table, p) for p in parts)


@settings(max_examples=1000, deadline=None)
@given(st.integers(6, 12).flatmap(lambda h: colour_rows(h, max_rows=12)))
def test_brute_force_and_dp_agree_on_taller_and_wider_tables(rows):
    table = H.possibility_table(rows, hints=[f"h{i}" for i in range(len(rows[0]))])
    assert H.partition_size(table, "brute") == H.partition_size(table, "dp")


@settings(max_examples=150, deadline=None)
@given(colour_rows(5))
def test_partition_never_exceeds_the_fewest_legal_hints_of_a_hand(rows):
    """The post's maximality argument as an inequality: disjoint parts each need a legal hint."""
    table = H.possibility_table(rows)
    bound, hand = H.fewest_legal_hints(table)
    assert H.partition_size(table) <= bound == len(set().union(*hand))
    assert all(identity in card for identity, card in zip(hand, table.cards))


def test_source_example_maximum_meets_the_posts_upper_bound_and_its_partition_is_sure():
    table = H.possibility_table(SOURCE_ROWS)
    bound, _ = H.fewest_legal_hints(table)
    assert R.max_partition_by_enumeration(table) == H.partition_size(table) == bound
    assert R.part_is_sure_by_hands(table, {"Red", "Blue"})
    assert R.part_is_sure_by_hands(table, {"White", "Yellow", "Green"})


@settings(max_examples=150, deadline=None)
@given(colour_rows(5, max_rows=6))
def test_first_fit_is_maximal_but_never_beats_the_maximum(rows):
    table = H.possibility_table(rows)
    chosen = H.first_fit_rows(table)
    union = 0
    for row in chosen:
        assert not row & union
        union |= row
    assert all(sum(card) & union for card in table.masks)  # maximal: every row meets them
    assert len(chosen) <= H.partition_size(table)


@settings(max_examples=150, deadline=None)
@given(mixed_cards)
def test_hint_validity_and_fewest_legal_hints_agree_with_listing_every_hand(cards):
    table = small_mixed_table(cards)
    hands = list(R.possible_hands(table))
    validity = H.hint_validity(table).set_index("hint")
    for hint in table.hints:
        legal = sum(any(hint in identity for identity in hand) for hand in hands)
        assert validity.legal_in_hands[hint] == legal and validity.hands[hint] == len(hands)
    fewest, hand = H.fewest_legal_hints(table)
    assert fewest == min(len(set().union(*h)) for h in hands) == len(set().union(*hand))
    assert all(identity in card for identity, card in zip(hand, table.cards))


@settings(max_examples=150, deadline=None)
@given(colour_rows(5, max_rows=5))
def test_hint_validity_agrees_with_certification_of_single_hints(rows):
    table = H.possibility_table(rows)
    validity, frame = H.hint_validity(table).set_index("hint"), table.to_frame()
    for hint in table.hints:
        assert (validity.status[hint] == "always") == H.is_sure(table, {hint})
        assert (validity.status[hint] == "never") == (frame[hint].sum() == 0)


def test_set_partitions_counts_are_bell_numbers():
    # Bell numbers: B(n+1) = sum_k C(n, k) B(k); compare the enumeration to that recurrence.
    from math import comb

    bell = [1]
    for n in range(7):
        bell.append(sum(comb(n, k) * bell[k] for k in range(n + 1)))
    for n in range(7):
        assert sum(1 for _ in R.set_partitions(list(range(n)))) == bell[n]


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


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5), st.integers(0, 8), st.integers(30, 45), st.integers(0, 2**32 - 1),
       st.data())
def test_a_card_certifies_a_part_iff_its_escaping_identities_are_all_holes(
        hand, hints, public, seed, data):
    """The rectangle-with-holes rule against the direct certification test, under card counting."""
    rng = np.random.default_rng(seed)
    table, _ = H.random_knowledge(hand, hints, rng, public_cards=min(public, 50 - hand))
    part = data.draw(st.sets(st.sampled_from(table.hints), min_size=1))
    mask = sum(1 << table.hints.index(h) for h in part)
    for card, masks in zip(table.cards, table.masks):
        assert H.certifies(masks, mask) == (H.escaping_identities(card, part) <= H.holes(card))


def test_mixing_gain_example_is_a_consistent_state_where_mixing_wins():
    table, hand, received = H.mixing_gain_example()
    assert 0 <= received <= 8 and len(hand) in (4, 5)
    assert all(frozenset(ident) in card for ident, card in zip(hand, table.cards))
    gain = H.compare_hinting(table)
    assert gain["mixed"] > gain["separate"] and not H.is_rectangular(table)
    with pytest.raises(ValueError, match="no state where mixing helps"):
        H.mixing_gain_example(public_cards=0, max_tries=50)


def test_dataframe_input_keeps_names():
    df = pd.DataFrame(SOURCE_ROWS, columns=H.COLOURS, index=["Newest", "b", "c", "Oldest"])
    table = H.possibility_table(df)
    assert table.card_names == ("Newest", "b", "c", "Oldest") and table.hints == H.COLOURS
    assert H.partition_size(table) == R.max_partition_by_enumeration(table)


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
    with pytest.raises(ValueError, match="method must be one of"):
        H.max_hint_partition(H.possibility_table(SOURCE_ROWS), method="magic")
    with pytest.raises(ValueError, match="unknown identity"):
        H.hanabi_table([[("Purple", 1)]])
    with pytest.raises(ValueError, match="colour-only"):
        H.packing_brute(H.hanabi_table([[("Red", 1)]]))
    with pytest.raises(ValueError, match="public_cards"):
        H.random_knowledge(5, 0, np.random.default_rng(0), public_cards=46)
    with pytest.raises(ValueError, match="unknown hint"):
        H.is_sure(H.possibility_table(SOURCE_ROWS), {"Pink"})
    with pytest.raises(ValueError, match="1 card names for 3 cards"):
        H.hanabi_table([[("Red", 1)], [("Blue", 2)], [("White", 3)]], card_names=["a"])
    with pytest.raises(ValueError, match="do not pass hints or card_names"):
        H.possibility_table(pd.DataFrame(SOURCE_ROWS, columns=H.COLOURS), hints=list("abcde"))
    with pytest.raises(ValueError, match="card 'card 1': identity .* has no hint among"):
        H.project(H.hanabi_table([[("Red", 1)], [("Blue", 2)]]), H.VALUES[1:])
    with pytest.raises(ValueError, match="unknown hints"):
        H.project(H.hanabi_table([[("Red", 1)]]), ["Purple"])
    with pytest.raises(ValueError, match="colour-only"):
        H.first_fit_rows(H.hanabi_table([[("Red", 1)]]))


def test_explore_partition_reports_bad_rows_as_value_error():
    with pytest.raises(ValueError):
        H.explore_partition([[0, 0, 0, 0, 0]])
    frame = H.explore_partition(SOURCE_ROWS)
    assert frame.loc["group →", "certifies group"] == "2 groups"


# --- the capacity study on any executor ----------------------------------------------------------

SMALL_STUDY = dict(hand_sizes=(4,), hints=(0, 3), public=(0, 40), samples=4, seed=7)


def test_capacity_study_is_the_same_on_a_process_pool():
    from concurrent.futures import ProcessPoolExecutor

    serial = H.hint_capacity_study(**SMALL_STUDY)
    with ProcessPoolExecutor(2) as pool:
        pooled = H.hint_capacity_study(**SMALL_STUDY, executor=pool)
    pd.testing.assert_frame_equal(serial, pooled)
    pd.testing.assert_frame_equal(serial, H.hint_capacity_study(**SMALL_STUDY, workers=2))


def test_capacity_study_is_the_same_on_a_dask_local_cluster():
    distributed = pytest.importorskip("distributed",
                                      reason="Dask extra (puzzlelab[cluster]) absent")
    serial = H.hint_capacity_study(**SMALL_STUDY)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = H.hint_capacity_study(**SMALL_STUDY, executor=client.get_executor())
    pd.testing.assert_frame_equal(serial, remote)


def test_capacity_points_replay_the_one_generator_of_the_serial_study():
    """Each point's starting state is where one generator, run through the grid, stands."""
    rng = np.random.default_rng(SMALL_STUDY["seed"])
    rows = []
    for hand_size in SMALL_STUDY["hand_sizes"]:
        for public in SMALL_STUDY["public"]:
            for received in SMALL_STUDY["hints"]:
                tables = [H.random_knowledge(hand_size, received, rng, public)[0]
                          for _ in range(SMALL_STUDY["samples"])]
                rows.append(np.mean([H.compare_hinting(t)["mixed"] for t in tables]))
    assert H.hint_capacity_study(**SMALL_STUDY).mean_parts_mixed.tolist() == rows


def test_another_study_is_written_under_its_own_name(tmp_path, monkeypatch):
    from puzzlelab import cache
    from puzzlelab.hanabi import tables

    monkeypatch.setattr(cache, "DATA", tmp_path)
    tables.capacity_run(samples=2, workers=1)
    study = cache.read_table(f"{tables.CAPACITY_TABLE}_samples2")
    assert (study.samples == 2).all() and len(study) == 2 * 9 * 3
    assert cache.table_metadata(f"{tables.CAPACITY_TABLE}_samples2")["params"] == {"samples": 2}
    assert not cache.data_path(tables.CAPACITY_TABLE).exists()  # the notebook's is not touched


def test_the_package_exports_each_name_from_the_module_that_defines_it():
    from puzzlelab.hanabi import (knowledge, model, notebook, partition_views, solvers, source,
                                  tables)

    modules = (model, solvers, source, knowledge, tables, partition_views, notebook)
    names = [n for m in modules for n in m.__all__ if n in H.__all__]
    assert len(names) == len(set(names)) == len(H.__all__)
    for module in modules:
        for name in set(module.__all__) & set(H.__all__):
            assert getattr(H, name) is getattr(module, name), name
    assert {"explore_partition", "hint_capacity_table", "COPIES"} <= set(H.__all__)
