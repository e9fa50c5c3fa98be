"""The notebook's result tables, cached in data/ (recomputed with PUZZLELAB_RECOMPUTE=1)."""

from __future__ import annotations

from collections import Counter

import pandas as pd
from ..progress import tqdm

from ..cache import cached_table
from .optima import count_optimal_won_sets, cpsat_bounds, minimum_covers, optimum_bounds, upper_bound
from .sets import minimal_dominating_sets

OPTIMUM_CASES = [(n, 2) for n in range(2, 9)] + [(n, 3) for n in range(2, 6)] + [(n, 4) for n in range(2, 5)]


def hamming_optimum(n_players: int) -> int:
    """For N = 2**k - 1 (two colours) the optimum is 2**N N / (N + 1): Hamming code meets the sphere bound."""
    if n_players < 1 or (n_players + 1) & n_players:
        raise ValueError(f"N + 1 must be a power of two, got N = {n_players}")
    return 2**n_players - 2**n_players // (n_players + 1)


CPSAT_WORK_UNITS = 20.0  # CP-SAT's deterministic limit for the open cases (about 20-40 s on one core)


def _optimum_row(n: int, m: int, time_limit: float, known: dict[int, int]) -> dict:
    # the wall-clock limit is only a safety net: the open cases stop at CPSAT_WORK_UNITS first
    b = optimum_bounds(n, m, time_limit=max(time_limit, 600.0), known=known, deterministic_limit=CPSAT_WORK_UNITS)
    row = {
        "n_players": n, "n_colors": m, "rounds": m**n, "lower": b.lower, "upper": b.upper,
        "proven": b.proven, "method": b.method, "combinatorial_upper": upper_bound(n, m)[0],
        "witness_hex": format(b.witness, "x"),
    }
    if m == 2 and n <= 6:  # an independent CP-SAT cross-check of the two-colour optima
        status, mask, bound = cpsat_bounds(n, m, time_limit=time_limit)
        proven = status == "OPTIMAL"  # a time-limited incumbent would make the cache machine-dependent
        row |= {"cpsat_status": status if proven else "not proven in the time limit",
                "cpsat_optimum": mask.bit_count() if proven else None}
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
