"""The notebook layer: cached tables, display helpers, figures and the `explore_…` functions.

Source: group11_rc §4-5 and the appendix. The only module of the puzzle that reads or writes
the cached tables in data/ (through `puzzlelab.cache`); a cached witness is re-checked by the
verifier whenever its table is read.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any
from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from .. import checks
from .. import cache
from ..cache import Table, cached_source_table, cached_table, read_long_run, read_table
from ..figures import finish
from . import grid as rg
from . import source
from .kripke import agreement, random_announcements
from .model import (
    all_hands, check_hand, counting_lower_bound, covering_counts, hand_lists, hand_sizes,
    holding_bound, is_solution, packing_upper_bound, views,
)
from .search import packings, report_dfs
from ..proofs import Proof
from .solver import Verdict, decide, for_hand, lemma_proof

__all__ = [
    "EXPLORE_N_MAX", "STATUS_COLOURS", "agreement_table", "appendix_table", "asymmetry",
    "bounds_cross", "c1_table", "candidate_families", "cell_view", "cell_views",
    "counting_bounds", "explore_views", "grid_table", "matrix_changes", "matrix_table",
    "open_sizes", "orbit_changes", "orbit_table", "settled_by", "wide_grid_table",
    "plot_grids", "proof_family", "report_and_ours", "report_dfs_table", "report_solver_table",
    "descent_changes", "short", "smallest_label", "smallest_summary", "smallest_table",
    "sum_mod_table", "yn_table",
]

EXPLORE_N_MAX = 12  # outside the grid the explorer decides decks of at most 12 cards
# The notebook's small tables (the grids and smallest announcements are declared in `grid`).
AGREEMENT, SUM_MOD, REPORT_DFS = (
    cache.register(Table(f"russian_cards_{name}")) for name in ("model_agreement", "sum_mod",
                                                                "report_dfs"))


# -- display helpers ---------------------------------------------------------------------------
def short(ann: Iterable[Iterable[int]]) -> str:
    """Compact display '012 034 ...' (cards as digits when the deck has at most 10 cards)."""
    hs = hand_lists(ann)
    wide = any(q > 9 for h in hs for q in h)
    return " ".join(("." if wide else "").join(map(str, h)) for h in hs)


def proof_family(kind: str, status: str) -> str:
    """How a grid cell was settled, for legends: lemma, construction, CP-SAT witness/proof, ..."""
    kind = checks.choice(kind, "kind", ("lemma", "construction", "exhaustive", "solver", "open"))
    status = checks.choice(status, "status", ("solvable", "unsolvable", "open"))
    if kind == "solver":
        return "CP-SAT witness" if status == "solvable" else "CP-SAT proof"
    return {"exhaustive": "exhaustive search"}.get(kind, kind)


# -- cached tables -----------------------------------------------------------------------------
@cache.rebuilds("russian_cards_grid")
def grid_table() -> pd.DataFrame:
    """The solvability grid (c = 1, 2, 3, n <= 16): data/russian_cards_grid.csv, verified."""
    return cached_table(rg.GRID, rg.decide_grid, verify=rg.check_grid)


def wide_grid_table() -> pd.DataFrame:
    """The grid for 17 <= n <= 20 (the long run's data/russian_cards_grid_n17_20.csv), its
    witnesses verified; an empty grid when that run is not in data/."""
    wide = read_long_run(rg.WIDE, verify=rg.check_grid)
    return pd.DataFrame(columns=rg.GRID_COLUMNS) if wide is None else wide


def settled_by(grid: pd.DataFrame) -> pd.DataFrame:
    """How the sizes of a grid were settled (lemma, construction, CP-SAT proof, ...) per c."""
    grid = _grid(grid)
    family = [proof_family(k, s) for k, s in zip(grid.proof, grid.status)]
    return pd.crosstab(pd.Series(family, name="settled by"), grid.c.rename("c"))


def open_sizes(grid: pd.DataFrame) -> pd.DataFrame:
    """The open sizes of a grid by deck size n (rows) and why they are open (columns: "limit",
    CP-SAT's work limit; "size", a case model too large to build)."""
    grid = _grid(grid)
    still = grid[grid.status == "open"]
    return pd.DataFrame({"size": [f"({r.a},{r.b},{r.c})" for r in still.itertuples()],
                         "n": still.n.to_numpy(),
                         "why": still.method.str.extract(r"open \((\w+)\)")[0].to_numpy()},
                        ).groupby(["n", "why"])["size"].agg(", ".join).unstack(fill_value="—")


def _improved_by_descent() -> pd.DataFrame:
    """Rows of the long descent (data/russian_cards_min_size_long.csv, verified) that improve the
    default table, beside the default's values (suffix `_short`); empty when the run is absent."""
    long = read_long_run(rg.LONG, verify=rg.check_min_sizes)
    if long is None:
        return pd.DataFrame(columns=["a", "b", "c"])
    both = long.merge(read_table(rg.SMALLEST), on=["a", "b", "c"],
                      suffixes=("", "_short"))
    return both[(both.smallest < both.smallest_short)
                | (both.lower_bound > both.lower_bound_short)].reset_index(drop=True)


def smallest_table(grid: pd.DataFrame, matrix: bool = True) -> pd.DataFrame:
    """Smallest announcements of the grid's solvable cells: data/russian_cards_min_size.csv,
    with each cell the long descent improved (data/russian_cards_min_size_long.csv, when that
    run is in data/) replaced by its row, then each cell a union of orbits improves
    (data/russian_cards_min_size_orbits.csv), then (with `matrix`) each size the matrix model
    settled (data/russian_cards_min_size_matrix.csv, when that run is in data/); `by_descent`,
    `by_orbits` and `by_matrix` mark them."""
    grid = rg.check_table(grid, ["a", "b", "c", "n", "status", "witness"])  # what min_sizes reads
    matrix = checks.boolean(matrix, "matrix")
    out = cached_table(rg.SMALLEST, lambda: rg.min_sizes(grid),
                       verify=rg.check_min_sizes).assign(by_descent=False, by_orbits=False,
                                                         by_matrix=False)
    index = out.set_index(["a", "b", "c"]).index
    for r in _improved_by_descent().itertuples():
        i = index.get_loc((r.a, r.b, r.c))
        for column in ("smallest", "lower_bound", "proven", "witness"):
            out.loc[i, column] = getattr(r, column)
        out.loc[i, "by_descent"] = True
    done = out.drop(columns=["by_descent", "by_orbits", "by_matrix"])
    for r in orbit_table(done).itertuples():
        i = index.get_loc((r.a, r.b, r.c))
        if r.smallest < out.loc[i, "smallest"] and r.lower_bound == out.loc[i, "lower_bound"]:
            for column in ("smallest", "proven", "witness"):
                out.loc[i, column] = getattr(r, column)
            out.loc[i, "by_orbits"] = True
    settled = read_long_run(rg.MATRIX, verify=rg.check_min_sizes) if matrix else None
    if settled is not None:
        for r in settled.itertuples():  # its bounds are facts: keep the better of each
            i = index.get_loc((r.a, r.b, r.c))
            out.loc[i, "lower_bound"] = max(out.loc[i, "lower_bound"], r.lower_bound)
            if r.smallest < out.loc[i, "smallest"]:
                out.loc[i, "smallest"], out.loc[i, "witness"] = r.smallest, r.witness
            out.loc[i, "proven"] = out.loc[i, "lower_bound"] == out.loc[i, "smallest"]
            out.loc[i, "by_matrix"] = True
    return out


def matrix_table() -> pd.DataFrame:
    """The sizes the matrix model settled (data/russian_cards_min_size_matrix.csv, the long run
    `python -m puzzlelab.russian_cards.grid --matrix`), every witness verified."""
    table = read_long_run(rg.MATRIX, verify=rg.check_min_sizes)
    if table is None:
        raise ValueError(f"data/{rg.MATRIX.name}.csv is missing; build it with: "
                         f"{rg.MATRIX.command}")
    return table


def matrix_changes(smallest: pd.DataFrame) -> pd.DataFrame:
    """The sizes the matrix model changed: the range before, the sizes it ruled out, the new
    label and the CP-SAT work it took."""
    t = rg.check_table(smallest, ["a", "b", "c", "smallest", "lower_bound", "proven",
                                  "by_matrix"])
    runs = matrix_table().set_index(["a", "b", "c"])
    rows = t[t.by_matrix.astype(bool)]
    before = [runs.loc[(r.a, r.b, r.c)] for r in rows.itertuples()]
    return pd.DataFrame({
        "size": [f"({r.a},{r.b},{r.c})" for r in rows.itertuples()],
        "before": [smallest_label(m.lower_before, m.smallest_before, False) for m in before],
        "ruled out": ["" if pd.isna(m.ruled_out) else str(m.ruled_out) for m in before],
        "now": [smallest_label(r.lower_bound, r.smallest, r.proven) for r in rows.itertuples()],
        "work units": [m.work_units for m in before],
    }).set_index("size")


def orbit_table(smallest: pd.DataFrame) -> pd.DataFrame:
    """The unproven sizes of `smallest` that unions of orbits of a card group improve:
    data/russian_cards_min_size_orbits.csv (`grid.orbit_min_sizes`), verified."""
    smallest = rg.check_table(smallest, ["proven", *rg.ROW_KEYS])  # what orbit_min_sizes reads
    return cached_table(rg.ORBITS, lambda: rg.orbit_min_sizes(smallest),
                        verify=rg.check_min_sizes)


def orbit_changes(smallest: pd.DataFrame) -> pd.DataFrame:
    """The sizes unions of orbits improved: the range before, the label after, the group."""
    t = rg.check_table(smallest, ["a", "b", "c", "smallest", "lower_bound", "proven",
                                  "by_orbits"])
    gains = read_table(rg.ORBITS).set_index(["a", "b", "c"])  # as `smallest_table` left it
    rows = t[t.by_orbits.astype(bool)]
    return pd.DataFrame({
        "size": [f"({r.a},{r.b},{r.c})" for r in rows.itertuples()],
        "before": [smallest_label(gains.loc[(r.a, r.b, r.c), "lower_bound"],
                                  gains.loc[(r.a, r.b, r.c), "before"], False)
                   for r in rows.itertuples()],
        "now": [smallest_label(*gains.loc[(r.a, r.b, r.c), ["lower_bound", "smallest", "proven"]])
                for r in rows.itertuples()],  # as the orbits left it, before the matrix run
        "group": [gains.loc[(r.a, r.b, r.c), "group"] for r in rows.itertuples()],
    }).set_index("size")


@cache.rebuilds("russian_cards_appendix")
def appendix_table() -> pd.DataFrame:
    """The appendix's view lines (`source.parse_appendix`): data/russian_cards_appendix.csv."""
    return cached_source_table("russian_cards_appendix", source.SOURCE, source.parse_appendix)


@cache.rebuilds("russian_cards_report_table")
def c1_table() -> pd.DataFrame:
    """The report's c = 1 table, cell by cell: data/russian_cards_report_table.csv."""
    return cached_source_table("russian_cards_report_table", source.SOURCE,
                               source.c1_table_cells)


def candidate_families() -> dict[str, list]:
    """The (3,3,1) families the model check is compared on (see the notebook)."""
    others = [h for h in all_hands(7, 3) if h != (0, 1, 2)]
    return {
        "(3,3,1) Rule-1 packings through 012": packings(3, 3, 1, hand=(0, 1, 2)),
        "(3,3,1) <= 3 hands through 012": [((0, 1, 2), *e) for k in range(3)
                                           for e in combinations(others, k)],
        "(3,3,1) SMCDEL's non-crossing 5-7 hand lists": packings(3, 3, 1, sizes=(5, 6, 7)),
    }


@cache.rebuilds("russian_cards_model_agreement")
def agreement_table() -> pd.DataFrame:
    """Model check against Rules 1 and 2: data/russian_cards_model_agreement.csv."""
    def rows() -> pd.DataFrame:
        out = [dict(family=name, **agreement(anns, 3, 3, 1))
               for name, anns in candidate_families().items()]
        for abc in [(4, 4, 1), (3, 4, 1), (4, 2, 1), (4, 3, 2), (5, 2, 2)]:
            anns = random_announcements(*abc, count=300, seed=sum(abc))
            out.append(dict(family=f"{abc} 300 random", **agreement(anns, *abc)))
        return pd.DataFrame(out)
    return cached_table(AGREEMENT, rows)


@cache.rebuilds("russian_cards_sum_mod")
def sum_mod_table() -> pd.DataFrame:
    """Sum modulo n and modulo the least prime >= n on every c = 1 cell with a, b >= 3."""
    from .constructions import is_prime, sum_mod

    def rows() -> pd.DataFrame:
        out = []
        for a, b, c in rg.cells(1):
            if a >= 3 and b >= 3:
                n = a + b + c
                p = next(q for q in range(n, 2 * n + 2) if is_prime(q))
                out.append(dict(a=a, b=b, n=n, mod_n=is_solution(sum_mod(a, b, c, m=n), a, b, c),
                                p=p, mod_p=is_solution(sum_mod(a, b, c, m=p), a, b, c)))
        return pd.DataFrame(out)
    return cached_table(SUM_MOD, rows)


@cache.rebuilds("russian_cards_report_dfs")
def report_dfs_table() -> pd.DataFrame:
    """The report's solver on the sizes of its two tables: data/russian_cards_report_dfs.csv."""
    def rows() -> pd.DataFrame:
        sizes = [(a, a, c) for a in range(2, 6) for c in range(1, 5) if a > c]
        sizes += [(a, b, 1) for a in range(2, 7) for b in range(2, 7) if a != b]
        return report_solver_table(sizes, max_nodes=50000)
    return cached_table(REPORT_DFS, rows)


# -- tables built from the grid ------------------------------------------------------------------
def yn_table(
    grid: pd.DataFrame, c: int, rows: Iterable[int], cols: Iterable[int], by: str = "b",
) -> pd.DataFrame:
    """Y/N/? table of a grid slice: rows a, columns `by` (b, or c with b = a)."""
    by = checks.choice(by, "by", ("b", "c"))
    c = checks.integer(c, "c", low=1)
    rows, cols = checks.integers(rows, "rows"), checks.integers(cols, "cols")
    look = {(r.a, r.b, r.c): r.status for r in _grid(grid).itertuples()}
    sym = {"solvable": "Y", "unsolvable": "N", "open": "?"}
    out = {}
    for col in cols:
        keys = [(a, col, c) if by == "b" else (a, a, col) for a in rows]
        out[col] = [sym.get(look.get(key, ""), "") for key in keys]
    df = pd.DataFrame(out, index=list(rows))
    df.index.name, df.columns.name = "a", by
    return df


def _grid(grid: object) -> pd.DataFrame:
    """`grid` if it is a grid table (a DataFrame with the grid's columns)."""
    return checks.table(grid, "grid", ("a", "b", "c", "n", "status", "method", "proof"),
                        made_by="grid_table")


def asymmetry(grid: pd.DataFrame) -> pd.DataFrame:
    """Cells whose status changes when Bill speaks first, i.e. (a, b) and (b, a) differ."""
    look = {(r.a, r.b, r.c): r for r in _grid(grid).itertuples()}
    rows = []
    for (a, b, c), r in sorted(look.items(), key=lambda kv: (kv[0][2], kv[0][0], kv[0][1])):
        other = look.get((b, a, c))
        if other is not None and r.status == "solvable" and other.status != "solvable":
            rows.append(dict(c=c, a=a, b=b, anne_first=f"{r.status} ({r.method})",
                             bill_first=f"{other.status} ({other.method})"))
    return pd.DataFrame(rows)


# -- figures -----------------------------------------------------------------------------------
STATUS_COLOURS = {"unsolvable": "#d9d9d9", "solvable": "#4daf4a", "open": "#ff7f00"}
PROOF_CODES = {"lemma": ("L", "lemma"), "solver": ("S", "CP-SAT"),
               "exhaustive": ("E", "exhaustive search"), "open": ("?", "open")}


def plot_grids(
    grid: pd.DataFrame, cs: Iterable[int] = (1, 2, 3), name: str | None = "russian_cards_grids",
) -> Figure:
    """One heatmap per c: solvable (green, witness size), unsolvable (grey, proof code), open."""
    grid = _grid(grid)
    cs = [c for c in checks.integers(cs, "cs", low=1) if (grid.c == c).any()]
    if not cs:
        raise ValueError("the grid has no cell with these values of c")
    # one panel under the other, as wide as a page of the site (figures.PAGE_WIDTH_PX)
    fig, axes = plt.subplots(len(cs), 1, figsize=(6.8, 6.4 * len(cs)), squeeze=False)
    for ax, c in zip(axes[:, 0], cs):
        _grid_panel(ax, grid[grid.c == c], c)
    shown = grid[grid.c.isin(cs) & (grid.status == "unsolvable")].proof.unique()
    codes = ", ".join(f"{PROOF_CODES[k][0]} = {PROOF_CODES[k][1]}" for k in PROOF_CODES
                      if k in shown)
    undecided = ", orange (?): open" if (grid[grid.c.isin(cs)].status == "open").any() else ""
    fig.suptitle(f"Green: solvable (number = hands in the witness)\n"
                 f"Grey: unsolvable, proved by {codes}{undecided}", fontsize=12)
    fig.tight_layout()
    return finish(fig, name)


def _grid_panel(ax: plt.Axes, g: pd.DataFrame, c: int) -> None:
    """One panel of `plot_grids`: the cells of one c, rows a, columns b."""
    cmap = ListedColormap([STATUS_COLOURS[s] for s in ("unsolvable", "solvable", "open")])
    size = int(max(g.a.max(), g.b.max()))
    img = np.full((size, size), np.nan)
    for r in g.itertuples():
        img[r.a - 1, r.b - 1] = {"unsolvable": 0, "solvable": 1, "open": 2}[r.status]
        label = str(int(r.size)) if r.status == "solvable" else PROOF_CODES[r.proof][0]
        ax.text(r.b - 1, r.a - 1, label, ha="center", va="center",
                fontsize=11 if len(label) < 3 else 10)
    ax.imshow(img, cmap=cmap, vmin=0, vmax=2, origin="lower")
    ax.set_xticks(range(size), range(1, size + 1), fontsize=10)
    ax.set_yticks(range(size), range(1, size + 1), fontsize=10)
    ax.set_xlabel("b (Bill's cards)", fontsize=12)
    ax.set_ylabel("a (Anne's cards, she speaks first)", fontsize=12)
    ax.set_title(f"c = {c}, n = a + b + c ≤ {int(g.n.max())}", fontsize=13)


# -- the report's tables with the report's own solver -----------------------------------------
def report_solver_table(
    sizes: Iterable[tuple[int, int, int]], max_nodes: int = 20000,
) -> pd.DataFrame:
    """Run the report's depth-first solver on each size (node budget): Y, N, or '?' (budget out)."""
    sizes = [checks.integers(s, "a size (a, b, c)") for s in checks.sequence(sizes, "sizes")]
    if any(len(s) != 3 for s in sizes):
        raise ValueError(f"each size is (a, b, c), got {sizes}")
    rows = []
    for a, b, c in sizes:
        r = report_dfs(a, b, c, max_nodes=max_nodes)
        verdict = "Y" if r.announcement else ("N" if r.complete else "?")
        rows.append(dict(a=a, b=b, c=c, report_dfs=verdict, nodes=r.nodes,
                         found=short(r.announcement) if r.announcement else ""))
    return pd.DataFrame(rows)


# -- explorations ------------------------------------------------------------------------------
EXPLORE_ROWS = 20  # the explorer shows at most this many hands of Bill or Cath


def explore_views(
    a: int = 3, b: int = 3, c: int = 1, hand: str = "", who: str = "C",
) -> pd.DataFrame:
    """Anne's announcement for (a, b, c) and what Bill ('B') or Cath ('C') still considers.

    Anne holds `hand` (default: cards 0..a-1). Sizes of the grid (c <= 3, n <= 16) use its
    cached, verified verdict; others with n <= EXPLORE_N_MAX are decided when asked. Rows are
    labelled by the hand Bill or Cath holds, with the hands of Anne they still consider and
    how many. When no announcement exists, the rows are the proof: the lemma with its numbers,
    or the CP-SAT cases (each INFEASIBLE, with its work).
    """
    a, b, c = hand_sizes(a, b, c)
    h = check_hand(hand if hand not in ("", None) else None, a, b, c)
    who = checks.choice(who, "who ('B' for Bill, 'C' for Cath)", ("B", "C"))
    v = _verdict(a, b, c)
    if v.status != "solvable":
        rows = [(f"({a},{b},{c})", f"{v.status}: {v.method}")]
        rows += [(f"step {i}", step) for i, step in enumerate(v.detail.split("; "), 1)]
        return pd.DataFrame(rows, columns=["", "proof"]).set_index("")
    ann = for_hand(v, h)
    seen = views(ann, a, b, c, who)
    holder = f"{dict(B='Bill', C='Cath')[who]} holds"
    rows = [("Anne announces", _few(ann), len(ann))]
    rows += [(short([x]), _few(left) if left else "no options left", len(left))
             for x, left in list(seen.items())[:EXPLORE_ROWS]]
    if len(seen) > EXPLORE_ROWS:
        rows.append((f"… {len(seen) - EXPLORE_ROWS} more hands", "", ""))
    return pd.DataFrame(rows, columns=[holder, "Anne could hold", "hands"]).set_index(holder)


@lru_cache(maxsize=1)
def _grid_rows() -> dict[tuple[int, int, int], Any]:
    """The cached grid's rows by cell (read and verified once)."""
    return {(r.a, r.b, r.c): r for r in grid_table().itertuples()}


def _few(ann: Iterable[Iterable[int]], most: int = 8) -> str:
    """`short(ann)` for at most `most` hands, then '… and k more'."""
    hands = list(ann)
    more = f" … and {len(hands) - most} more" if len(hands) > most else ""
    return short(hands[:most]) + more


def _verdict(a: int, b: int, c: int) -> Verdict:
    """The grid's cached verdict for (a, b, c), or `decide` for a small size outside it."""
    if c <= 3 and a + b + c <= rg.N_MAX:
        r = _grid_rows()[(a, b, c)]
        witness = rg.parse_announcement(r.witness) if r.status == "solvable" else None
        return Verdict(a, b, c, r.status, r.method, Proof(r.proof, r.detail), witness)
    if a + b + c > EXPLORE_N_MAX and not lemma_proof(a, b, c):
        raise ValueError(f"outside the grid (c <= 3, n <= {rg.N_MAX}) the explorer decides "
                         f"sizes with n <= {EXPLORE_N_MAX} cards only (got n = {a + b + c})")
    return decide(a, b, c, time_limit=120)


# -- summaries for the notebook ----------------------------------------------------------------
WEAK = 3  # a range lower–found is marked weak when the size found exceeds WEAK x the bound


def smallest_label(lower: int, found: int, proven: bool) -> str:
    """'26' when proven, '6–9' for a range, '≤ 504 (weak)' when the bound says little."""
    lower = checks.integer(lower, "lower", low=0)
    found = checks.integer(found, "found", low=0)
    if checks.boolean(proven, "proven"):
        return str(found)
    if found > WEAK * lower:
        return f"≤ {found} (weak)"
    return f"{lower}–{found}"


def counting_bounds(smallest: pd.DataFrame, sizes: Iterable[tuple[int, int, int]]
                    ) -> pd.DataFrame:
    """For the given sizes: the covering lemma's r_0 and the holding lemma's ceil(n q_0 / a)
    beside the smallest announcement found (and whether it is exact)."""
    t = rg.check_table(smallest, ["a", "b", "c", "smallest", "proven"]).set_index(["a", "b", "c"])
    rows = []
    for a, b, c in sizes:
        if (a, b, c) not in t.index:
            raise ValueError(f"({a},{b},{c}) is not a solvable size of the table")
        r = t.loc[(a, b, c)]
        rows.append({"size": f"({a},{b},{c})", "covering r₀": covering_counts(a, b, c)[0],
                     "holding ⌈n·q₀/a⌉": holding_bound(a, b, c),
                     "smallest found": int(r.smallest), "exact": bool(r.proven)})
    return pd.DataFrame(rows).set_index("size")


def bounds_cross(grid: pd.DataFrame, n_max: int = rg.N_LIMIT) -> pd.DataFrame:
    """Sizes (n <= n_max, no lemma of the grid) whose counting bound exceeds Johnson's packing
    bound, so no announcement exists; beside the grid's verdict where the grid has the size."""
    n_max = checks.integer(n_max, "n_max", low=1, high=rg.N_LIMIT)
    known = rg.check_table(grid, ["a", "b", "c", "status", "method"]).set_index(["a", "b", "c"])
    rows = []
    for c in (1, 2, 3):
        for a, b, _ in rg.cells(c, n_max):
            if lemma_proof(a, b, c) or (low := counting_lower_bound(a, b, c)) <= (
                    high := packing_upper_bound(a, b, c)):
                continue
            r = known.loc[(a, b, c)] if (a, b, c) in known.index else None
            rows.append({"size": f"({a},{b},{c})", "n": a + b + c, "at least": low,
                         "at most": high, "grid": "—" if r is None else r.status,
                         "grid method": "beyond the grid" if r is None else r.method})
    return pd.DataFrame(rows).sort_values("n", kind="stable").set_index("size")


def smallest_summary(smallest: pd.DataFrame) -> pd.DataFrame:
    """Per deck size n: solvable cells, sizes proven exact, narrow ranges, weak ranges."""
    smallest = rg.check_table(smallest, ["n", "proven", "smallest", "lower_bound"])
    t = smallest.assign(weak=~smallest.proven & (smallest.smallest > WEAK * smallest.lower_bound))
    out = t.groupby("n").agg(solvable=("proven", "size"), exact=("proven", "sum"),
                             weak_range=("weak", "sum"))
    out.insert(2, "range", out.solvable - out.exact - out.weak_range)
    return out.T


def descent_changes() -> pd.DataFrame:
    """The cells the long descent improved: the default run's label beside the descent's, the
    steps taken and the work units of the last (a proof's cost when it proves)."""
    both = _improved_by_descent()
    if both.empty:
        return pd.DataFrame()
    label = lambda r, x="": smallest_label(r["lower_bound" + x], r["smallest" + x], r["proven" + x])
    return pd.DataFrame({
        "size": [f"({r.a},{r.b},{r.c})" for r in both.itertuples()],
        "default run": [label(r, "_short") for _, r in both.iterrows()],
        "descent": [label(r) for _, r in both.iterrows()],
        "steps": both.descent_steps.to_numpy(),
        "last step (work units)": both.last_step_work.to_numpy(),
    }).set_index("size")


def report_and_ours(report_cells: pd.DataFrame, grid: pd.DataFrame) -> pd.DataFrame:
    """The report's clean c = 1 rows beside ours: two small Y/N grids (rows a, columns b)."""
    report_cells = rg.check_table(report_cells, ["kind", "label", "b", "value"])
    clean = report_cells[report_cells.kind == "clean row"]
    theirs = clean.pivot(index="label", columns="b", values="value")
    ours = yn_table(grid, 1, list(theirs.index), list(theirs.columns))
    theirs.index.name = ours.index.name = "a"
    return pd.concat({"report": theirs, "ours": ours}, axis=1)


def cell_view(a: int, b: int, c: int, smallest: pd.DataFrame | None = None) -> pd.DataFrame:
    """One grid cell as a short table: status, method, proof (step by step), witness."""
    r = _grid_rows().get(hand_sizes(a, b, c))
    if r is None:
        raise ValueError(f"({a},{b},{c}) is not a cell of the grid (c <= 3, n <= {rg.N_MAX})")
    rows = [("status", r.status), ("method", r.method), ("proof kind", r.proof)]
    rows += [(f"step {i}", step) for i, step in enumerate(r.detail.split("; "), 1)]
    if r.status == "solvable":
        ann = rg.parse_announcement(r.witness)
        rows.append((f"witness ({len(ann)} hands)", _few(ann, 6)))
    if smallest is not None and r.status == "solvable":
        smallest = rg.check_table(smallest, ["a", "b", "c", "smallest", "lower_bound", "proven"])
        s = smallest.set_index(["a", "b", "c"]).loc[(a, b, c)]
        rows.append(("smallest", smallest_label(s.lower_bound, s.smallest, s.proven)))
    return pd.DataFrame(rows, columns=["", f"({a},{b},{c})"]).set_index("")


def cell_views(grid: pd.DataFrame, smallest: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """`cell_view` of every cell not settled by a lemma, labelled '(a,b,c) status'."""
    todo = _grid(grid)[grid.proof != "lemma"].sort_values(["c", "a", "b"])
    return {f"({r.a},{r.b},{r.c}) {r.status}": cell_view(r.a, r.b, r.c, smallest)
            for r in todo.itertuples()}


# What `puzzlelab compute` runs for the tables the notebook reads from other tables.
cache.rebuilds(rg.SMALLEST)(lambda: smallest_table(grid_table()))
cache.rebuilds(rg.ORBITS)(lambda: orbit_table(smallest_table(grid_table())))
