"""The notebook layer: cached tables, display helpers, figures and the `explore_…` functions.

Source: group11_rc §4-5 and the appendix. The only module of the puzzle that reads or writes
the cached tables in data/ (through `puzzlelab.cache`); a cached witness is re-checked by the
verifier whenever its table is read.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from .. import checks
from ..cache import cached_source_table, cached_table
from ..figures import finish
from . import grid as rg
from . import source
from .kripke import agreement, random_announcements
from .model import all_hands, check_hand, hand_lists, hand_sizes, is_solution, views
from .search import packings, report_dfs
from .solver import decide, for_hand

__all__ = [
    "EXPLORE_N_MAX", "STATUS_COLOURS", "agreement_table", "appendix_table", "asymmetry",
    "candidate_families",
    "c1_table", "explore_views", "grid_table", "plot_grids", "proof_family", "report_dfs_table",
    "report_solver_table", "short", "smallest_table", "sum_mod_table", "yn_table",
]

EXPLORE_N_MAX = 12  # the explorer decides a size on the spot: decks of at most 12 cards


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
def grid_table() -> pd.DataFrame:
    """The solvability grid (c = 1, 2, 3, n <= 16): data/russian_cards_grid.csv, verified."""
    return cached_table("russian_cards_grid", rg.decide_grid, verify=rg.check_grid)


def smallest_table(grid: pd.DataFrame) -> pd.DataFrame:
    """Smallest announcements of the grid's solvable cells: data/russian_cards_min_size.csv."""
    return cached_table("russian_cards_min_size", lambda: rg.min_sizes(grid),
                        verify=rg.check_min_sizes)


def appendix_table() -> pd.DataFrame:
    """The appendix's view lines (`source.parse_appendix`): data/russian_cards_appendix.csv."""
    return cached_source_table("russian_cards_appendix", source.SOURCE, source.parse_appendix)


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


def agreement_table() -> pd.DataFrame:
    """Model check against Rules 1 and 2: data/russian_cards_model_agreement.csv."""
    def rows() -> pd.DataFrame:
        out = [dict(family=name, **agreement(anns, 3, 3, 1))
               for name, anns in candidate_families().items()]
        for abc in [(4, 4, 1), (3, 4, 1), (4, 2, 1), (4, 3, 2), (5, 2, 2)]:
            anns = random_announcements(*abc, count=300, seed=sum(abc))
            out.append(dict(family=f"{abc} 300 random", **agreement(anns, *abc)))
        return pd.DataFrame(out)
    return cached_table("russian_cards_model_agreement", rows)


def sum_mod_table() -> pd.DataFrame:
    """Sum modulo n and modulo the least prime >= n on every c = 1 cell with a, b >= 3."""
    from .constructions import _is_prime, sum_mod

    def rows() -> pd.DataFrame:
        out = []
        for a, b, c in rg.cells(1):
            if a >= 3 and b >= 3:
                n = a + b + c
                p = next(q for q in range(n, 2 * n + 2) if _is_prime(q))
                out.append(dict(a=a, b=b, n=n, mod_n=is_solution(sum_mod(a, b, c, m=n), a, b, c),
                                p=p, mod_p=is_solution(sum_mod(a, b, c, m=p), a, b, c)))
        return pd.DataFrame(out)
    return cached_table("russian_cards_sum_mod", rows)


def report_dfs_table() -> pd.DataFrame:
    """The report's solver on the sizes of its two tables: data/russian_cards_report_dfs.csv."""
    def rows() -> pd.DataFrame:
        sizes = [(a, a, c) for a in range(2, 6) for c in range(1, 5) if a > c]
        sizes += [(a, b, 1) for a in range(2, 7) for b in range(2, 7) if a != b]
        return report_solver_table(sizes, max_nodes=50000)
    return cached_table("russian_cards_report_dfs", rows)


# -- tables built from the grid ------------------------------------------------------------------
def yn_table(
    grid: pd.DataFrame, c: int, rows: Iterable[int], cols: Iterable[int], by: str = "b",
) -> pd.DataFrame:
    """Y/N/? table of a grid slice: rows a, columns `by` (b, or c with b = a)."""
    by = checks.choice(by, "by", ("b", "c"))
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
    if not isinstance(grid, pd.DataFrame):
        raise checks.ArgumentTypeError(f"expected the grid table (a DataFrame), got {grid!r}")
    missing = [c for c in ("a", "b", "c", "n", "status", "method", "proof") if c not in grid]
    if missing:
        raise ValueError(f"the grid table lacks the columns {missing}")
    return grid


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
PROOF_CODES = {"lemma": "L", "solver": "S", "exhaustive": "E", "open": "?"}


def plot_grids(grid: pd.DataFrame, name: str | None = "russian_cards_grids") -> Figure:
    """One heatmap per c: solvable (green, witness size), unsolvable (grey, proof code), open."""
    grid = _grid(grid)
    cs = sorted(grid.c.unique())
    fig, axes = plt.subplots(1, len(cs), figsize=(5.2 * len(cs), 5.0))
    for ax, c in zip(np.atleast_1d(axes), cs):
        _grid_panel(ax, grid[grid.c == c], c)
    fig.suptitle("Two-step solvability. Green: witness (number = hands announced); grey: "
                 "proof (L lemma, S CP-SAT, E exhaustive); orange: open", fontsize=9)
    fig.tight_layout()
    return finish(fig, name)


def _grid_panel(ax: plt.Axes, g: pd.DataFrame, c: int) -> None:
    """One panel of `plot_grids`: the cells of one c."""
    cmap = ListedColormap([STATUS_COLOURS[s] for s in ("unsolvable", "solvable", "open")])
    size = int(g.a.max())
    img = np.full((size, size), np.nan)
    for r in g.itertuples():
        img[r.a - 1, r.b - 1] = {"unsolvable": 0, "solvable": 1, "open": 2}[r.status]
        label = str(int(r.size)) if r.status == "solvable" else PROOF_CODES.get(r.proof, "")
        ax.text(r.b - 1, r.a - 1, label, ha="center", va="center", fontsize=6)
    ax.imshow(img, cmap=cmap, vmin=0, vmax=2, origin="lower")
    ax.set_xticks(range(size), range(1, size + 1), fontsize=7)
    ax.set_yticks(range(size), range(1, size + 1), fontsize=7)
    ax.set_xlabel("b (Bill's cards)")
    ax.set_ylabel("a (Anne's cards, she speaks first)")
    ax.set_title(f"c = {c}, n = a + b + c ≤ {int(g.n.max())}")


# -- the report's tables with the report's own solver -----------------------------------------
def report_solver_table(
    sizes: Iterable[tuple[int, int, int]], max_nodes: int = 20000,
) -> pd.DataFrame:
    """Run the report's depth-first solver on each size (node budget): Y, N, or '?' (budget out)."""
    rows = []
    for a, b, c in sizes:
        r = report_dfs(a, b, c, max_nodes=max_nodes)
        verdict = "Y" if r.announcement else ("N" if r.complete else "?")
        rows.append(dict(a=a, b=b, c=c, report_dfs=verdict, nodes=r.nodes,
                         found=short(r.announcement) if r.announcement else ""))
    return pd.DataFrame(rows)


# -- explorations ------------------------------------------------------------------------------
def explore_views(
    a: int = 3, b: int = 3, c: int = 1, hand: str = "012", who: str = "C",
) -> pd.DataFrame:
    """Solve (a, b, c) for Anne's hand, then list what Bill ('B') or Cath ('C') still considers.

    When no announcement exists, the rows are the proof: the lemma with its numbers, or the
    CP-SAT cases (each INFEASIBLE, with its work), or the exhaustive search.
    """
    a, b, c = hand_sizes(a, b, c)
    n = a + b + c
    if n > EXPLORE_N_MAX:
        raise ValueError(f"the exploration is limited to n <= {EXPLORE_N_MAX} cards (got n = {n})")
    h = check_hand(hand, a, b, c)
    who = checks.choice(who, "who ('B' for Bill, 'C' for Cath)", ("B", "C"))
    v = decide(a, b, c, time_limit=120)
    if v.status != "solvable":
        head = dict(holds=f"({a},{b},{c}): {v.status}", anne_could_hold=v.method, count=0)
        steps = [dict(holds=f"proof, step {i}", anne_could_hold=step, count=0)
                 for i, step in enumerate(v.detail.split("; "), 1)]
        return pd.DataFrame([head, *steps])
    ann = for_hand(v, h)
    rows = [dict(holds="Anne announces", anne_could_hold=short(ann), count=len(ann))]
    rows += [dict(holds=short([x]), anne_could_hold=short(left) if left else "no options left",
                  count=len(left))
             for x, left in views(ann, a, b, c, who).items()]
    return pd.DataFrame(rows).head(60)
