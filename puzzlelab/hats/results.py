"""The notebook's result tables, cached in data/ (recomputed with PUZZLELAB_RECOMPUTE=1)."""

from __future__ import annotations

from collections import Counter

import pandas as pd
from ..progress import tqdm

from ..cache import cached_table
from .model import deal_to_strings
from .optima import (
    CPSAT_WORK_UNITS, count_optimal_won_sets, cpsat_bounds, hamming_coset_check, hamming_lost_set,
    minimum_covers, optimum_bounds, upper_bound,
)
from .sets import canonical_deal, minimal_dominating_sets, valid_lost_mask

OPTIMUM_CASES = [(n, 2) for n in range(2, 9)] + [(n, 3) for n in range(2, 6)] + [(n, 4) for n in range(2, 5)]
HAMMING_BUILT = 15  # the largest Hamming code we build round by round (2**15 rounds); longer ones by syndromes


def hamming_row(n_players: int) -> dict:
    """For N = 2**k - 1 (two colours): the Hamming code's won rounds, checked, against the sphere bound.

    N <= 15: the lost set is built and checked with `sets.valid_lost_mask`; larger N (2**N rounds)
    by `optima.hamming_coset_check`, the syndrome argument for linear codes. The sphere bound
    N 2**N / (N + 1) is met, so that number of won rounds is the optimum.
    """
    n = n_players
    if n <= HAMMING_BUILT:
        lost_set = hamming_lost_set(n)
        lost, covers = lost_set.bit_count(), valid_lost_mask(lost_set, n, 2)
        how = f"Hamming code built, checked round by round (2^{lost.bit_length() - 1} lost)"
    else:
        lost, covers = hamming_coset_check(n)
        how = f"Hamming code checked by its syndromes (2^{lost.bit_length() - 1} lost)"
    if not covers:
        raise AssertionError(f"the Hamming code of length {n} must cover every round")
    won, sphere = 2**n - lost, n * 2**n // (n + 1)
    if won != sphere:
        raise AssertionError("a perfect code meets the sphere bound")
    return {"true optimum": won, "how we know": f"{how}: meets the sphere bound"}


def _optimum_row(n: int, m: int, time_limit: float, known: dict[int, int]) -> dict:
    # the default deterministic limit stops CP-SAT first: the wall-clock limit is only a safety net
    b = optimum_bounds(n, m, time_limit=max(time_limit, 600.0), known=known)
    row = {
        "n_players": n, "n_colors": m, "rounds": m**n, "lower": b.lower, "upper": b.upper,
        "proven": b.proven, "method": b.method, "combinatorial_upper": upper_bound(n, m)[0],
        "witness_hex": format(b.witness, "x"),
    }
    if m == 2 and n <= 6:  # an independent CP-SAT cross-check of the two-colour optima, deterministic limit
        status, mask, bound = cpsat_bounds(n, m, time_limit=max(time_limit, 600.0), deterministic_limit=CPSAT_WORK_UNITS)
        row |= {"cpsat_status": status, "cpsat_won": mask.bit_count() if mask is not None else None,
                "cpsat_bound": bound}
    return row


def optimum_table(time_limit: float = 60.0) -> pd.DataFrame:
    """Exact optimum or bounds for every (N, M) in OPTIMUM_CASES (data/hats_optima.csv)."""

    def compute() -> pd.DataFrame:
        rows, known = [], {}
        for n, m in tqdm(OPTIMUM_CASES, desc="optima"):  # N ascending per M: products reuse smaller witnesses
            known.setdefault(m, {})
            rows.append(_optimum_row(n, m, time_limit, known[m]))
            known[m][n] = int(rows[-1]["witness_hex"], 16)
        return pd.DataFrame(rows)

    return cached_table("hats_optima", compute)


def maximal_distribution(ns: tuple[int, ...] = (2, 3, 4, 5)) -> pd.DataFrame:
    """How many maximal won sets (M = 2) win each number of rounds (data/hats_maximal_sets.csv)."""

    def compute() -> pd.DataFrame:
        rows = []
        for n in tqdm(ns, desc="maximal won sets"):
            count = Counter(2**n - lost.bit_count() for lost in minimal_dominating_sets(n))
            rows += [{"n_players": n, "won_rounds": k, "maximal_sets": c} for k, c in sorted(count.items())]
        return pd.DataFrame(rows)

    return cached_table("hats_maximal_sets", compute)


def optimal_set_counts(table: pd.DataFrame, ns: tuple[int, ...] = (2, 3, 4, 5, 6)) -> pd.DataFrame:
    """How many won sets are optimal, per N (M = 2), by double counting; full listing where cheap."""

    def compute() -> pd.DataFrame:
        two = table[table.n_colors == 2].set_index("n_players")
        rows = []
        for n in tqdm(ns, desc="optimal won sets"):
            k = 2**n - int(two.lower[n])
            row = {"n_players": n, "lost_rounds": k, "optimal_won_sets": count_optimal_won_sets(n, k)}
            row["by_full_listing"] = len(minimum_covers(n, k)) if n <= 5 else None
            rows.append(row)
        return pd.DataFrame(rows)

    return cached_table("hats_optimal_sets", compute)


def open_case_deals(table: pd.DataFrame) -> pd.DataFrame:
    """The best deal found for every unproven case, one row per player, in letter notation.

    Letters follow `model.views` order (the last other player's hat changes fastest) and are
    grouped in blocks of M: one block per colour combination of the other players but the last.
    """
    rows = []
    for r in table[~table.proven.astype(bool)].itertuples():
        n, m = int(r.n_players), int(r.n_colors)
        deal = canonical_deal(int(r.witness_hex, 16), n, m)
        for player, strategy in enumerate(deal_to_strings(deal, m), start=1):
            blocks = " ".join(strategy[k : k + m] for k in range(0, len(strategy), m))
            rows.append({"M": m, "N": n, "best deal (won rounds)": int(r.lower), "upper bound": int(r.upper),
                         "player": player, "strategy": blocks})
    return pd.DataFrame(rows)
