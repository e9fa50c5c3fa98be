"""The census of maximal won sets (hats.census): counts by symmetry against the listing for
N <= 5, the symmetries themselves checked with other rounds and players, and the cached N = 6
census against its pieces and the independent count of optimal won sets."""

import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pytest

from puzzlelab.cache import read_table
from puzzlelab.hats import census, sets, tables
from puzzlelab.sweeps import sweep


def _pieces(n: int) -> pd.DataFrame:
    parts = [census.pattern_counts(case) for case in census.census_cases(n) if case[0] == n]
    return pd.DataFrame([row for part in parts for row in part])


def _listed(n: int) -> dict[int, int]:
    return dict(Counter(2**n - lost.bit_count() for lost in sets.minimal_dominating_sets(n)))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_census_counts_equal_the_listing(n):
    counted = census.maximal_counts(_pieces(n))
    assert dict(zip(counted.won_rounds, counted.maximal_sets)) == _listed(n)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_unrestricted_search_equals_the_listing(n):
    assert census.count_minimal_lost_sets(n) == Counter(
        lost.bit_count() for lost in sets.minimal_dominating_sets(n))


def _move(mask: int, n: int, shift: int, perm: list[int]) -> int:
    """The rounds of `mask` with the players renamed by perm, then hats flipped by `shift`."""
    out = 0
    for x in range(2**n):
        if mask >> x & 1:
            y = sum(1 << perm[i] for i in range(n) if x >> i & 1) ^ shift
            out |= 1 << y
    return out


@pytest.mark.parametrize("n,j", [(4, 1), (5, 2), (5, 4), (6, 5)])
def test_counts_do_not_depend_on_which_round_or_which_players(n, j):
    rng = random.Random(n * 10 + j)
    lost = 1 | sum(1 << (1 << i) for i in range(j))
    kept = sum(1 << (1 << i) for i in range(j, n))
    reference = census.count_minimal_lost_sets(n, lost, kept, max_nodes=None)
    for _ in range(2):
        perm, shift = rng.sample(range(n), n), rng.randrange(1, 2**n)
        moved = census.count_minimal_lost_sets(n, _move(lost, n, shift, perm),
                                               _move(kept, n, shift, perm), max_nodes=None)
        assert moved == reference


def test_bad_input_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="both lost and kept"):
        census.count_minimal_lost_sets(4, 1, 1)
    with pytest.raises(ValueError, match="n_players"):
        census.count_minimal_lost_sets(7)
    with pytest.raises(ValueError, match="pair"):
        census.pattern_counts("6")
    with pytest.raises(ValueError, match="j"):
        census.pattern_counts((4, 5))
    with pytest.raises(TypeError, match="DataFrame"):
        census.maximal_counts([1, 2])
    with pytest.raises(ValueError, match="lost"):
        census.count_minimal_lost_sets(3, lost=1 << 8)
    with pytest.raises(ValueError, match="not a census"):
        census.maximal_counts(pd.DataFrame({"n_players": [3], "lost_neighbours": [0],
                                            "lost_rounds": [3], "sets": [1]}))


def test_census_pieces_on_two_workers_equal_the_serial_pieces():
    cases = census.census_cases(4)
    with ProcessPoolExecutor(2) as pool:
        assert sweep(census.pattern_counts, cases, executor=pool) == sweep(census.pattern_counts,
                                                                           cases)


def test_cached_census_pieces_recompute_and_agree_with_the_optimal_count():
    cached = read_table("hats_maximal_census")
    assert sorted(set(cached.n_players)) == list(range(2, tables.CENSUS_PLAYERS + 1))
    small = cached[cached.n_players <= 5].reset_index(drop=True)
    recomputed = pd.concat([_pieces(n) for n in range(2, 6)], ignore_index=True)
    pd.testing.assert_frame_equal(small, recomputed, check_dtype=False)
    six = cached[cached.n_players == 6]
    for j in (6, 5, 4, 3):  # the quick N = 6 searches (the rest take minutes)
        rows = census.pattern_counts((6, j))
        part = six[six.lost_neighbours == j]
        assert rows == part.to_dict("records")
    counts = tables.maximal_census()
    best = counts[counts.n_players == 6].sort_values("won_rounds").iloc[-1]
    optimal = read_table("hats_optimal_sets").set_index("n_players").loc[6]
    assert best.won_rounds == 2**6 - optimal.lost_rounds  # the best maximal set is optimal
    assert best.maximal_sets == optimal.optimal_won_sets  # counted two independent ways


def test_a_count_beyond_its_node_budget_is_refused_in_seconds():
    """Found by the fuzz: N = 6 with only a few rounds fixed searched for minutes."""
    with pytest.raises(ValueError, match="100,000 search nodes"):
        census.count_minimal_lost_sets(6, lost=0, kept=1_000_000, max_nodes=10**5)
    with pytest.raises(ValueError, match="max_nodes"):
        census.count_minimal_lost_sets(3, max_nodes=0)
    assert census.count_minimal_lost_sets(4, max_nodes=None) == census.count_minimal_lost_sets(4)


def test_a_budget_past_the_search_counter_is_no_limit():
    """Fuzz finding (seed 1, call 1230): max_nodes=10**20 overflowed the compiled search's
    64-bit counter (OverflowError). Any budget that large counts the same as no limit."""
    for n in (2, 3):
        assert (census.count_minimal_lost_sets(n, max_nodes=10**20)
                == census.count_minimal_lost_sets(n, max_nodes=None))
