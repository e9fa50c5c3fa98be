"""The hat puzzle's named tables (janssen2017, extended): what data/hats_*.csv hold and how each
is computed, checked and rebuilt.

Each table is declared once (`cache.Table`: name, parameters, the command that rebuilds it,
its check) beside the function the notebook reads it through (`cache.rebuilds`: what
`puzzlelab compute NAME` calls). The sweeps (optima over (N, M), maximal-set counts, orbit
deals) run on any executor (`executor=`, `workers=`, see puzzlelab.sweeps) with the same
result. The thesis's own tables are read out of its text (`source`) and cached as
data/hats_thesis_<name>.csv. `puzzlelab compute NAME` rebuilds each table; `optima_run`
computes the optima for other numbers of players into a table of their own.
"""

from __future__ import annotations

import functools
from collections import Counter
from concurrent.futures import Executor
from typing import Any

import pandas as pd

from .. import cache, checks
from ..cache import (
    Table, cached_source_table, cached_table, check_writable, compute_table, read_long_run,
)
from ..sweeps import sweep
from .census import census_cases, maximal_counts, pattern_counts
from .model import evaluate
from .open_cases import ATTEMPT_WORK, check_attempts, long_attempts
from .optima import (
    CPSAT_WORK_UNITS, count_optimal_won_sets, cpsat_bounds, minimum_covers, optimum_bounds,
    upper_bound,
)
from .orbits import orbit_search, orbits, symmetry_classes, twisted_shift
from .sets import achievable_mask, canonical_deal, minimal_dominating_sets
from .slack import CASE_COLUMNS, split_counts
from .slack import certificate as slack_certificate
from .slices import refute
from .source import (
    SOURCE, parse_claims, parse_figure_5_1, parse_four_agent_tables, parse_table_4_1,
    parse_table_5_2, parse_table_5_3,
)
from .world import check_world

__all__ = [
    "CENSUS", "MAXIMAL_SETS", "OPEN_ATTEMPTS", "OPTIMA", "OPTIMAL_SETS", "ORBIT_DEALS",
    "SLACK_CERTIFICATE", "SLACK_WORLDS", "SLICE_CERTIFICATE", "CENSUS_PLAYERS",
    "MAXIMAL_SET_PLAYERS", "OPTIMAL_SET_PLAYERS",
    "OPTIMA_MAX_N", "ORBIT_WORLDS", "SLICE_CASE", "maximal_census", "maximal_distribution",
    "open_attempts_table", "optimal_set_counts", "optimum_cases", "optimum_rows",
    "optimum_table", "orbit_deals", "slack_certificate_table", "slice_certificate_table",
    "thesis_table",
    "verify_witnesses",
]  # `optima_run` writes a table: tested with real arguments (tests/test_hats_sweeps.py)


# --- the thesis's tables, read from its text (needed only when recomputed) ---------------------


_PARSERS = {
    "table_4_1": parse_table_4_1,
    "figure_5_1": parse_figure_5_1,
    "table_5_2": parse_table_5_2,
    "tables_5_5_to_5_8": parse_four_agent_tables,
    "table_5_3": parse_table_5_3,
    "claims": parse_claims,
}


def thesis_table(name: str) -> pd.DataFrame:
    """One parsed table, cached as data/hats_thesis_<name>.csv."""
    name = checks.choice(name, "name", sorted(_PARSERS))
    return cached_source_table(f"hats_thesis_{name}", SOURCE, _PARSERS[name])


for _name in _PARSERS:  # what `puzzlelab compute hats_thesis_<name>` runs
    cache.rebuilds(f"hats_thesis_{_name}")(functools.partial(thesis_table, _name))


# --- computed tables ----------------------------------------------------------------------------

MAXIMAL_SET_PLAYERS = (2, 3, 4, 5)  # the maximal-set counts of data/hats_maximal_sets.csv
CENSUS_PLAYERS = 6  # the census (data/hats_maximal_census.csv) counts up to this many players
OPTIMAL_SET_PLAYERS = (2, 3, 4, 5, 6)  # the optimal-set counts of data/hats_optimal_sets.csv
SLICE_CASE = (4, 3, 32)  # N, M and the lost rounds the slice certificate rules out
OPTIMA_MAX_N = 8  # the optima table: two colours up to N = 8 (`optimum_cases`)
ORBIT_WORLDS = ((3, 3), (4, 3), (5, 3), (3, 4), (4, 4))  # M >= 3, N >= 3: the orbit table
SLACK_WORLDS = ((5, 3), (4, 4))  # the optima table's worlds where the slack bound is sharpest


def optimum_cases(max_n: int = OPTIMA_MAX_N) -> list[tuple[int, int]]:
    """The worlds (N, M) of the optima table: M = 2 up to max_n, M = 3 up to 5, M = 4 up to 4."""
    most = checks.integer(max_n, "max_n", low=2, high=12)
    tops = {2: most, 3: min(most, 5), 4: min(most, 4)}
    return [(n, m) for m, top in tops.items() for n in range(2, top + 1)]


def _optimum_row(n: int, m: int, known: dict[int, int]) -> dict:
    """One row of the optima table: the pipeline's bounds, and CP-SAT alone for M = 2, N <= 6."""
    # the default deterministic limit stops CP-SAT first: the wall-clock limit is a safety net
    b = optimum_bounds(n, m, time_limit=600.0, known=known)
    row = {
        "n_players": n, "n_colors": m, "rounds": m**n, "lower": b.lower, "upper": b.upper,
        "proven": b.proven, "method": b.method, "combinatorial_upper": upper_bound(n, m)[0],
        "witness_hex": format(b.witness, "x"),
    }
    if m == 2 and n <= 6:  # an independent CP-SAT cross-check, under the deterministic limit
        status, mask, bound = cpsat_bounds(n, m, time_limit=600.0,
                                           deterministic_limit=CPSAT_WORK_UNITS)
        row |= {"cpsat_status": status, "cpsat_won": mask.bit_count() if mask is not None else None,
                "cpsat_bound": bound}
    return row


def _optimum_rows_for_colours(task: tuple[int, tuple[int, ...]]) -> list[dict]:
    """The rows of one colour count, N ascending: each product construction reuses smaller ones."""
    m, ns = task
    rows: list[dict] = []
    known: dict[int, int] = {}
    for n in ns:
        rows.append(_optimum_row(n, m, dict(known)))
        known[n] = int(rows[-1]["witness_hex"], 16)
    return rows


def optimum_rows(cases: list[tuple[int, int]], *, executor: Executor | None = None,
                 workers: int = 1) -> pd.DataFrame:
    """The optima table for the given worlds, one task per colour count, on any executor."""
    if isinstance(cases, (str, bytes)) or not hasattr(cases, "__iter__"):
        raise checks.ArgumentTypeError(f"cases must be a list of (N, M) pairs, got {cases!r}")
    pairs = []
    for case in cases:
        pairs.append(check_world(*checks.sequence(case, "each case", what="a pair (N, M)",
                                                  length=2)))
    colours = sorted({m for _, m in pairs})
    tasks = [(m, tuple(sorted(n for n, k in pairs if k == m))) for m in colours]
    parts = sweep(_optimum_rows_for_colours, tasks, executor=executor, workers=workers,
                  desc="optima per colour count")
    by_world = {(r["n_players"], r["n_colors"]): r for part in parts for r in part}
    return pd.DataFrame([by_world[p] for p in pairs])


def _bounds_problem(r: Any) -> str | None:
    """Why the bounds and proof of one row of the optima table disagree (None when they agree):
    the combinatorial bound is recomputed; proven means lower = upper; an upper bound below
    the combinatorial one needs an exhaustive or solver proof."""
    n, m, lower, upper = int(r.n_players), int(r.n_colors), int(r.lower), int(r.upper)
    proven, method = bool(r.proven), str(r.method)
    combinatorial = upper_bound(n, m)[0]
    if int(r.rounds) != m**n or int(r.combinatorial_upper) != combinatorial:
        return f"records {r.rounds} rounds and combinatorial bound {r.combinatorial_upper}"
    if not lower <= upper <= combinatorial:
        return f"has bounds {lower}..{upper} outside 0..{combinatorial}"
    if proven != (lower == upper) or proven == method.startswith("open"):
        return f"is marked {'proven' if proven else 'open'} ({method}) with bounds {lower}..{upper}"
    if method.startswith(("open", "combinatorial")) and upper != combinatorial:
        return f"claims the upper bound {upper} by the combinatorial bound {combinatorial}"
    return None


def verify_witnesses(table: pd.DataFrame) -> None:
    """Every witness deal of the optima table wins exactly its `lower` rounds, and every row's
    bounds agree with its proof (`_bounds_problem`); else ValueError naming the world."""
    table = checks.table(table, "table", ("n_players", "n_colors", "lower", "upper", "proven",
                                          "method", "rounds", "combinatorial_upper",
                                          "witness_hex"))
    for r in table.itertuples():
        n, m = int(r.n_players), int(r.n_colors)
        problem = _bounds_problem(r)
        if problem is not None:
            raise ValueError(f"the row of N = {n}, M = {m} {problem}")
        try:
            deal = canonical_deal(int(str(r.witness_hex), 16), n, m)
        except ValueError as err:
            raise ValueError(f"the witness of N = {n}, M = {m} is not a won set: {err}") from None
        if len(evaluate(deal, m)) != int(r.lower):
            raise ValueError(f"the witness deal of N = {n}, M = {m} does not win {r.lower} rounds")


@cache.rebuilds("hats_optima")
def optimum_table(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """Exact optimum or bounds for every (N, M) of `optimum_cases()` (data/hats_optima.csv)."""
    executor, workers = checks.sweep_options(executor, workers)
    return cached_table(OPTIMA,
                        lambda: optimum_rows(optimum_cases(), executor=executor, workers=workers))



def _orbit_row(world: tuple[int, int]) -> dict:
    """The best union of orbits of one symmetry for one world (`orbits.orbit_search`)."""
    n, m = world
    won, g = orbit_search(n, m)
    return {"n_players": n, "n_colors": m, "symmetry": str(g),
            "orbits": len(orbits(twisted_shift(g, n, m))), "won_rounds": won.bit_count(),
            "witness_hex": format(won, "x")}


def _verify_orbit_deals(table: pd.DataFrame) -> None:
    """Every row's won set is achievable, has its size and is a union of its symmetry's orbits."""
    for r in table.itertuples():
        n, m, won = int(r.n_players), int(r.n_colors), int(str(r.witness_hex), 16)
        named = [g for g in symmetry_classes(n, m) if str(g) == r.symmetry]
        perm = twisted_shift(named[0], n, m) if named else None
        if (perm is None or won.bit_count() != int(r.won_rounds) or not achievable_mask(won, n, m)
                or any((won >> x & 1) != (won >> perm[x] & 1) for x in range(m**n))):
            raise ValueError(f"the orbit deal of N = {n}, M = {m} does not check")


def _verify_slack_certificate(table: pd.DataFrame) -> None:
    """Every stored split is the count's own and rules its case out (`slack.split_counts`)."""
    table = checks.table(table, "the slack certificate", CASE_COLUMNS)
    for r in table.itertuples():
        row = split_counts(int(r.n_players), int(r.n_colors), int(r.k), int(r.u),
                           int(r.partial), int(r.empty))
        if not row["excluded"] or any(row[c] != getattr(r, c) for c in CASE_COLUMNS[4:]):
            raise ValueError(f"the slack certificate's split N = {r.n_players}, M = "
                             f"{r.n_colors}, k = {r.k}, u = {r.u}, P = {r.partial}, "
                             f"E = {r.empty} does not check")


# The tables of the notebook in data/: the parameters that make each, and how it is rebuilt.
OPTIMA = cache.register(Table(
    "hats_optima", params=dict(max_n=OPTIMA_MAX_N, cpsat_work_units=CPSAT_WORK_UNITS),
    check=verify_witnesses))
ORBIT_DEALS = cache.register(Table("hats_orbit_deals", params=dict(worlds=ORBIT_WORLDS),
                                   check=_verify_orbit_deals))
MAXIMAL_SETS = cache.register(Table("hats_maximal_sets",
                                    params=dict(players=MAXIMAL_SET_PLAYERS)))
CENSUS = cache.register(Table("hats_maximal_census", params=dict(players=CENSUS_PLAYERS)))
OPTIMAL_SETS = cache.register(Table("hats_optimal_sets",
                                    params=dict(players=OPTIMAL_SET_PLAYERS)))
SLICE_CERTIFICATE = cache.register(Table("hats_slice_certificate",
                                         params=dict(case=SLICE_CASE)))
SLACK_CERTIFICATE = cache.register(Table("hats_slack_certificate",
                                         params=dict(worlds=SLACK_WORLDS),
                                         check=_verify_slack_certificate))


@cache.rebuilds("hats_orbit_deals")
def orbit_deals(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """For each world of ORBIT_WORLDS, the best won set made of orbits of one symmetry of the
    game and that symmetry (data/hats_orbit_deals.csv; `orbits` module)."""
    executor, workers = checks.sweep_options(executor, workers)
    def compute() -> pd.DataFrame:
        return pd.DataFrame(sweep(_orbit_row, ORBIT_WORLDS, executor=executor, workers=workers,
                                  desc="orbit searches"))

    return cached_table(ORBIT_DEALS, compute)


def _maximal_rows(n: int) -> list[dict]:
    count = Counter(2**n - lost.bit_count() for lost in minimal_dominating_sets(n))
    return [{"n_players": n, "won_rounds": k, "maximal_sets": c} for k, c in sorted(count.items())]


@cache.rebuilds("hats_maximal_sets")
def maximal_distribution(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """How many maximal won sets (M = 2) win each number of rounds (data/hats_maximal_sets.csv)."""
    executor, workers = checks.sweep_options(executor, workers)

    def compute() -> pd.DataFrame:
        parts = sweep(_maximal_rows, MAXIMAL_SET_PLAYERS, executor=executor, workers=workers,
                      desc="maximal won sets")
        return pd.DataFrame([row for part in parts for row in part])

    return cached_table(MAXIMAL_SETS, compute)


@cache.rebuilds("hats_maximal_census")
def maximal_census(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """Maximal won sets (M = 2) per N <= 6 and won rounds, counted by symmetry (census.py).

    The pieces B_{k,j} are cached in data/hats_maximal_census.csv (a sweep of N + 1 searches per
    N, about two minutes on one core for N = 6); the counts follow from them exactly.
    """
    executor, workers = checks.sweep_options(executor, workers)

    def compute() -> pd.DataFrame:
        parts = sweep(pattern_counts, census_cases(CENSUS_PLAYERS), executor=executor,
                      workers=workers, desc="maximal-set census")
        return pd.DataFrame([row for part in parts for row in part])

    return maximal_counts(cached_table(CENSUS, compute))


def _optimal_set_row(n: int, lost: int) -> dict:
    row = {"n_players": n, "lost_rounds": lost, "optimal_won_sets": count_optimal_won_sets(n, lost)}
    row["by_full_listing"] = len(minimum_covers(n, lost)) if n <= 5 else None
    return row


def optimal_set_counts(table: pd.DataFrame) -> pd.DataFrame:
    """How many won sets are optimal per N (M = 2), by double counting; listed where cheap."""
    checks.table(table, "table", ("n_players", "n_colors", "lower"))

    def compute() -> pd.DataFrame:
        two = table[table.n_colors == 2].set_index("n_players")
        if not set(OPTIMAL_SET_PLAYERS) <= set(two.index):
            raise ValueError(f"table must hold the two-colour optima for N = {OPTIMAL_SET_PLAYERS}")
        from ..progress import tqdm

        return pd.DataFrame([_optimal_set_row(n, 2**n - int(two.lower[n]))
                             for n in tqdm(OPTIMAL_SET_PLAYERS, desc="optimal won sets")])

    return cached_table(OPTIMAL_SETS, compute)


@cache.rebuilds("hats_slice_certificate")
def slice_certificate_table() -> pd.DataFrame:
    """The certificate that no deal of N = 4, M = 3 loses fewer than 33 rounds
    (data/hats_slice_certificate.csv): every canonical smallest slice and how it is ruled out."""
    return cached_table(SLICE_CERTIFICATE,
                        lambda: refute(SLICE_CASE[0], SLICE_CASE[1], SLICE_CASE[2]))


@cache.rebuilds("hats_slack_certificate")
def slack_certificate_table() -> pd.DataFrame:
    """The proof of each upper bound the full-line lemma with slack sets below the full-line
    lemma's (data/hats_slack_certificate.csv): every case of the smallest excluded size."""
    return cached_table(SLACK_CERTIFICATE, lambda: pd.concat(
        [slack_certificate(n, m) for n, m in SLACK_WORLDS], ignore_index=True))


# What `puzzlelab compute hats_optimal_sets` runs: the counts of the optima the notebook reads.
cache.rebuilds(OPTIMAL_SETS)(lambda: optimal_set_counts(optimum_table()))


# --- other settings -----------------------------------------------------------------------------


def optima_run(*, max_n: int = OPTIMA_MAX_N, executor: Executor | None = None,
               workers: int = 1) -> pd.DataFrame:
    """Recompute the optima up to `max_n` players for two colours (three colours stop at 5, four
    at 4): data/hats_optima.csv for the notebook's 8, data/hats_optima_max_n<N>.csv for another
    value, never the notebook's table."""
    executor, workers = checks.sweep_options(executor, workers)
    cases = optimum_cases(max_n)
    table = check_writable(OPTIMA.variant(
        max_n=max_n, command=f"puzzlelab.hats.tables.optima_run(max_n={max_n!r})"))
    return compute_table(table, lambda: optimum_rows(cases, executor=executor, workers=workers),
                         verify=verify_witnesses)


# The worlds the optima table leaves open: long attempts (`open_cases`).
OPEN_ATTEMPTS = cache.register(Table("hats_open_attempts", params=dict(work=ATTEMPT_WORK),
                                     long_run=True, check=check_attempts))


@cache.rebuilds(OPEN_ATTEMPTS)
def open_attempts_run(*, executor: Executor | None = None, workers: int = 1) -> pd.DataFrame:
    """A long attempt (`ATTEMPT_WORK` CP-SAT units) on every world the optima table leaves
    open, one resumable chunk each: data/hats_open_attempts.csv."""
    executor, workers = checks.sweep_options(executor, workers)
    table = check_writable(OPEN_ATTEMPTS)
    return compute_table(table, lambda: long_attempts(
        optimum_table(), ATTEMPT_WORK, name=table.name, executor=executor, workers=workers),
        verify=check_attempts)


def open_attempts_table() -> pd.DataFrame | None:
    """The long attempts on the open worlds (data/hats_open_attempts.csv, checked), or None when
    that run is not in data/."""
    return read_long_run(OPEN_ATTEMPTS, verify=check_attempts)
