"""The rows-by-cards model of smallest announcements (puzzlelab.russian_cards.matrix)."""

from __future__ import annotations

from itertools import combinations

import pandas as pd
import pytest

from puzzlelab.cache import data_path, read_table
from puzzlelab.russian_cards import grid as rg
from puzzlelab.russian_cards import matrix
from puzzlelab.russian_cards import tables as rt
from puzzlelab.russian_cards.model import all_hands, is_solution


def test_matrix_model_agrees_with_brute_force_over_all_small_announcements():
    """(3,3,1): every set of 4 or 5 of the 35 hands checked directly, against the model."""
    hands = all_hands(7, 3)
    for size in (4, 5):
        exists = any(is_solution(ann, 3, 3, 1) for ann in combinations(hands, size))
        answer, ann, _ = matrix.announcement_of_size(3, 3, 1, size)
        assert answer == ("found" if exists else "none")
        assert not exists or is_solution(ann, 3, 3, 1)


def _exact_rows() -> list:
    """Sizes the default run proved by other means: every one up to 10 cards, and those with
    c = 2 up to 13."""
    table = read_table("russian_cards_min_size")
    return [r for r in table.itertuples() if r.proven and (r.n <= 10 or r.c == 2 and r.n <= 13)]


@pytest.mark.parametrize("row", _exact_rows(), ids=lambda r: f"({r.a},{r.b},{r.c})")
def test_matrix_model_agrees_with_the_proven_smallest_sizes(row):
    """Where the hand model or a lemma proved the smallest size, the matrix model finds an
    announcement of that size and none of one hand fewer."""
    found, ann, _ = matrix.announcement_of_size(row.a, row.b, row.c, row.smallest)
    assert found == "found" and len(ann) == row.smallest
    if row.smallest > 1:
        assert matrix.announcement_of_size(row.a, row.b, row.c, row.smallest - 1)[0] == "none"


def test_settle_walks_up_from_the_lower_bound():
    row = {"a": 3, "b": 3, "c": 1, "smallest": 7, "lower_bound": 3, "witness": ""}
    settled = matrix.settle(row)
    assert settled["ruled_out"] == [3, 4] and settled["smallest"] == 5 and settled["proven"]
    assert is_solution(settled["witness"], 3, 3, 1)
    assert matrix.settle({**row, "smallest": 5, "lower_bound": 5})["ruled_out"] == []


@pytest.mark.parametrize("call, words", [
    (lambda: matrix.matrix_model(3, 3, 1, 0), "hands"),
    (lambda: matrix.matrix_model(3, 3, 1, 400), "cells"),
    (lambda: matrix.settle({"a": 3, "b": 3, "c": 1, "smallest": 4, "lower_bound": 6}),
     "lower_bound"),
    (lambda: matrix.settle([3, 3, 1]), "mapping"),
])
def test_bad_requests_are_refused(call, words):
    with pytest.raises((ValueError, TypeError), match=words):
        call()


MATRIX_RUN = data_path(rt.MATRIX_TABLE).exists()


@pytest.mark.skipif(not MATRIX_RUN, reason="the matrix run is not in data/")
def test_the_matrix_run_verifies_and_its_cheapest_rows_recompute():
    table = read_table(rt.MATRIX_TABLE)
    rg.check_min_sizes(table)
    assert (table.lower_bound >= table.lower_before).all()
    assert (table.smallest <= table.smallest_before).all()
    assert (table.proven == (table.lower_bound == table.smallest)).all()
    cheap = table.sort_values("work_units").head(4)
    for r in cheap.to_dict("records"):
        before = {"a": r["a"], "b": r["b"], "c": r["c"], "smallest": r["smallest_before"],
                  "lower_bound": r["lower_before"],
                  "witness": rg.format_announcement(rg.parse_announcement(r["witness"]))}
        again = rg.matrix_row(before)
        assert again is not None
        for column in ("lower_bound", "smallest", "proven", "work_units"):
            assert again[column] == r[column]
        assert again["ruled_out"] == ("" if pd.isna(r["ruled_out"]) else str(r["ruled_out"]))


@pytest.mark.skipif(not MATRIX_RUN, reason="the matrix run is not in data/")
def test_the_smallest_table_takes_the_matrix_bounds():
    from puzzlelab.russian_cards import notebook as rn

    smallest = rt.smallest_table(rt.grid_table())
    before = rt.smallest_table(rt.grid_table(), matrix=False)
    assert (smallest.lower_bound >= before.lower_bound).all()
    assert (smallest.smallest <= before.smallest).all()
    assert smallest.proven.sum() > before.proven.sum()
    changed = rn.matrix_changes(smallest)
    assert len(changed) == int(smallest.by_matrix.sum()) == len(read_table(rt.MATRIX_TABLE))
