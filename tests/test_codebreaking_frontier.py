"""Optimal code breaking over game sizes: cross-checked by a plain recursion over all strategies,
the same table on a process pool, and the published values."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import permutations, product

import pandas as pd
import pytest
from hypothesis import given, settings
from robustness import any_value, public_callables, well_behaved

from puzzlelab import sources
from puzzlelab.codebreaking import frontier, tables
from puzzlelab.codebreaking.frontier import (bounds_row, check_sizes, compare, frontier_bounds,
                                             optimal_size_row, optimal_sizes, published_values)


# --- an independent brute force: every guess at every state, no symmetry, no bounds ----------

def _codes(kind: str, pegs: int, colours: int) -> list[tuple[int, ...]]:
    if kind == "Bulls and Cows":
        return list(permutations(range(colours), pegs))
    return list(product(range(colours), repeat=pegs))


def _marks(kind: str, guess: tuple, code: tuple) -> tuple[int, int]:
    """(right place, right colour in a wrong place), counted the way the rules say it."""
    black = sum(g == c for g, c in zip(guess, code))
    if kind == "black-peg Mastermind":
        return black, 0
    common = sum((Counter(guess) & Counter(code)).values())
    return black, common - black


def brute_force(kind: str, pegs: int, colours: int) -> tuple[int, int, int]:
    """(least worst case, least total, least total among strategies with that worst case)."""
    codes = _codes(kind, pegs, colours)

    def split(live: frozenset, guess: tuple) -> list[frozenset]:
        parts: dict[tuple[int, int], set] = {}
        for code in live:
            if code != guess:
                parts.setdefault(_marks(kind, guess, code), set()).add(code)
        return [frozenset(p) for p in parts.values()]

    def moves(live: frozenset) -> list[list[frozenset]]:
        out = []
        for guess in codes:
            parts = split(live, guess)
            if guess in live or all(len(p) < len(live) for p in parts):
                out.append(parts)
        return out

    @lru_cache(maxsize=None)
    def best(live: frozenset, budget: int) -> float:
        """Least total over `live` within `budget` more guesses (inf if impossible)."""
        if not live:
            return 0
        if budget == 0:
            return float("inf")
        return min((len(live) + sum(best(p, budget - 1) for p in parts)
                    for parts in moves(live)), default=float("inf"))

    everything = frozenset(codes)
    worst = next(d for d in range(1, len(codes) + 1) if best(everything, d) < float("inf"))
    return worst, best(everything, len(codes)), best(everything, worst)


SMALL = [("Mastermind", 2, 2), ("Mastermind", 2, 3), ("Mastermind", 3, 2),
         ("black-peg Mastermind", 2, 3), ("black-peg Mastermind", 3, 2), ("Bulls and Cows", 2, 3),
         ("Bulls and Cows", 2, 4)]


@pytest.mark.parametrize("run", SMALL)
def test_optimal_row_matches_brute_force(run):
    row = optimal_size_row(run)
    worst, total, within = brute_force(*run)
    assert (row["optimal worst"], row["optimal total"]) == (worst, total)
    assert row["total within optimal worst"] == within
    assert row["worst of average-optimal"] >= worst
    assert row["optimal average"] == pytest.approx(total / row["codes"])


def test_bounds_hold_the_optimum_between_them():
    runs = [("Mastermind", 3, 4), ("black-peg Mastermind", 2, 4), ("Bulls and Cows", 3, 5)]
    table = frontier_bounds(runs)
    for run, b in zip(runs, table.itertuples(index=False)):
        total = optimal_size_row(run)["optimal total"]
        assert b[2] <= total <= b[3]  # total at least, total at most
    assert (table["average at least"] <= table["average at most"]).all()
    with pytest.raises(TypeError, match="run"):
        bounds_row(["Mastermind", 2, 2])


def test_the_table_is_the_same_on_a_process_pool():
    runs = [("Mastermind", 2, 4), ("Bulls and Cows", 3, 4)]
    serial = optimal_sizes(runs)
    assert serial.equals(optimal_sizes(runs, workers=2))
    assert list(serial.game) == ["Mastermind 2×4", "Bulls and Cows 3×4"]


def test_published_values_agree_where_the_table_reaches():
    pub = published_values()
    assert set(pub.source) <= set(sources.REFERENCES)
    runs = sorted({(k, p, c) for k, p, c in zip(pub.kind, pub.pegs, pub.colours)
                   if (k, p, c) in frontier.DEFAULT_RUNS and p * c <= 12})
    table = compare(optimal_sizes(runs), pub)
    reached = table[table.ours.notna()]
    assert len(reached) >= len(runs) >= 8
    differ = reached[~reached.agree.astype(bool)]
    # the one difference: Chen and Lin's formula at n = 2, against the brute force above
    assert list(zip(differ.game, differ.quantity)) == [("Mastermind 2×2", "optimal average")]
    assert differ.note.str.contains("brute force").all()
    assert brute_force("Mastermind", 2, 2)[1] == 8
    check_sizes(optimal_sizes(runs))  # the explained difference passes
    wrong = optimal_sizes(runs[:1]).assign(**{"optimal total": 1})
    with pytest.raises(ValueError, match="has"):
        check_sizes(wrong)


def test_compare_reads_exact_and_rounded_values():
    ours = pd.DataFrame([{"kind": "Mastermind", "pegs": 2, "colours": 3, "codes": 9,
                          "optimal total": 21, "optimal worst": 3}])
    pub = pd.DataFrame([{"kind": "Mastermind", "pegs": 2, "colours": 3, "quantity": q,
                         "published": v, "source": "goddard2004", "note": ""}
                        for q, v in [("optimal average", "2.333"), ("optimal average", "2.334"),
                                     ("optimal total", "21"), ("optimal worst", "4")]])
    assert list(compare(ours, pub).agree) == [True, False, True, False]
    other = pub.assign(colours=4)
    assert compare(ours, other).ours.isna().all()


def test_bad_runs_are_refused():
    with pytest.raises(ValueError, match="kind of game"):
        optimal_size_row(("Chess", 2, 2))
    with pytest.raises(TypeError, match="run"):
        optimal_size_row("Mastermind")
    with pytest.raises(ValueError, match="distinct"):
        optimal_size_row(("Bulls and Cows", 3, 2))
    with pytest.raises(ValueError, match="runs"):
        tables.sizes_run(runs="some")


@settings(max_examples=25, deadline=None)
@given(value=any_value())
def test_public_functions_take_any_value_calmly(value):
    for name, f in public_callables(frontier):
        if name != "main":  # main(None) would read pytest's own command line
            well_behaved(f, value, seconds=10)


def test_long_runs_go_to_their_own_table_which_the_notebook_reads_checked(tmp_path, monkeypatch):
    from puzzlelab import cache

    long = tables.optimal_sizes_long()  # the committed long rows pass the published checks
    asked = []

    def small(runs, **kw):  # the long runs take an hour: the rows of one small size stand in
        asked.append(runs)
        return optimal_sizes([("Mastermind", 2, 3)], **kw)

    monkeypatch.setattr(cache, "DATA", tmp_path)
    monkeypatch.setattr(frontier, "optimal_sizes", small)
    tables.sizes_run(runs="long")
    assert asked == [frontier.LONG_RUNS]
    assert [p.stem for p in tmp_path.glob("*.csv")] == [frontier.TABLE_LONG]
    pd.testing.assert_frame_equal(cache.read_csv_checked(tmp_path / f"{frontier.TABLE_LONG}.csv"),
                                  optimal_sizes([("Mastermind", 2, 3)]))
    assert list(long.columns) == frontier.COLUMNS
    assert set(zip(long.kind, long.pegs, long.colours)) <= set(frontier.ALL_RUNS)
    assert not set(zip(long.kind, long.pegs, long.colours)) & set(frontier.DEFAULT_RUNS)
