"""Solvability grids, the report's tables, figures and the `explore_…` functions.

Source: report §4 (two Y/N tables: a = b against c, and a against b with c = 1) and §5.
"""

from __future__ import annotations

from collections.abc import Iterable

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from ..progress import tqdm

from ..figures import finish
from ..solvers import solve_limited, work_used
from .model import (
    Announcement, cards, check_hand, counting_lower_bound, is_informative, is_safe, mask,
    sizes, views,
)
from .search import cpsat_model, report_dfs
from .solver import Verdict, decide, for_hand

N_MAX = 16
MIN_WORK = 3.0  # CP-SAT work units per cell for the smallest announcement (about 2-5 s each here)


# -- witnesses as text (for CSV caches) -------------------------------------------------------
def format_announcement(ann: Announcement | None) -> str:
    """'0 1 2|0 3 4|...' (hands separated by '|')."""
    return "" if not ann else "|".join(" ".join(map(str, h)) for h in ann)


def parse_announcement(text: str) -> Announcement:
    """Inverse of format_announcement."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("empty announcement text")
    return tuple(tuple(int(q) for q in h.split()) for h in text.split("|"))


def short(ann: Iterable[Iterable[int]]) -> str:
    """Compact display '012 034 ...' (cards as digits when the deck has at most 10 cards)."""
    hs = [tuple(h) for h in ann]
    wide = any(q > 9 for h in hs for q in h)
    return " ".join(("." if wide else "").join(map(str, h)) for h in hs)


# -- grids ------------------------------------------------------------------------------------
def cells(c: int, n_max: int = N_MAX) -> list[tuple[int, int, int]]:
    """Every (a, b, c) with a, b >= 1 and a + b + c <= n_max."""
    return [(a, b, c) for a in range(1, n_max) for b in range(1, n_max) if a + b + c <= n_max]


def decide_grid(c_values: Iterable[int] = (1, 2, 3), n_max: int = N_MAX) -> pd.DataFrame:
    """Decide every cell (witness or proof, the method named); the table cached in data/.

    `work_units` is CP-SAT's deterministic time for the cell (the same on every machine);
    wall times are machine-dependent and live in the benchmark's table instead.
    """
    todo = [abc for c in c_values for abc in cells(c, n_max)]
    return pd.DataFrame([verdict_row(decide(*abc)) for abc in tqdm(todo, desc="Russian cards grid")]).astype(
        {"size": "Int64"})


def verdict_row(v: Verdict) -> dict:
    """One grid row: the verdict, its proof or witness, and the CP-SAT work (rounded, deterministic)."""
    return dict(a=v.a, b=v.b, c=v.c, n=v.a + v.b + v.c, status=v.status, method=v.method, size=v.size,
                work_units=round(v.work, 2), detail=v.detail, witness=format_announcement(v.witness))


def verify_grid(grid: pd.DataFrame) -> pd.Series:
    """Re-check every cached witness with the verifier (True where accepted, or no witness)."""
    def ok(row) -> bool:
        if row.status != "solvable":
            return row.witness != row.witness or row.witness in ("", None)  # NaN or empty
        ann = parse_announcement(row.witness)
        return (tuple(range(row.a)) in ann and is_informative(ann, row.a, row.b, row.c)
                and is_safe(ann, row.a, row.b, row.c))
    return grid.apply(ok, axis=1)


def method_family(method: str) -> str:
    """Group method names for legends: lemma / construction / search / CP-SAT / open."""
    for key in ("lemma", "construction", "open", "CP-SAT INFEASIBLE", "CP-SAT", "exhaustive"):
        if method.startswith(key):
            return {"CP-SAT INFEASIBLE": "CP-SAT proof", "CP-SAT": "CP-SAT witness"}.get(key, key)
    return "search witness"


def min_sizes(grid: pd.DataFrame, n_max: int = N_MAX, work_limit: float = MIN_WORK) -> pd.DataFrame:
    """Smallest announcement per solvable cell with n <= n_max (CP-SAT minimisation, work-limited).

    The grid's witness is CP-SAT's starting hint, and is kept when CP-SAT finds nothing smaller
    within the work limit. The lower bound is the larger of CP-SAT's bound and the
    double-counting bound; `proven` when they meet (or CP-SAT proves optimality).
    """
    todo = grid[(grid.status == "solvable") & (grid.n <= n_max)].sort_values(["n", "c", "a", "b"])
    rows = []
    for row in tqdm(list(todo.itertuples()), desc="smallest announcements"):
        a, b, c = int(row.a), int(row.b), int(row.c)
        model, x = cpsat_model(a, b, c, minimize=True)
        hint = {mask(h) for h in parse_announcement(row.witness)}
        for h, v in x.items():
            model.add_hint(v, int(h in hint))
        res = solve_limited(model, work_limit, what=f"smallest announcement {(a, b, c)}")
        ann = parse_announcement(row.witness)
        if res.feasible and res.objective < len(ann):
            ann = tuple(sorted(cards(h) for h, v in x.items() if res.value(v)))
        if not (is_informative(ann, a, b, c) and is_safe(ann, a, b, c)):
            raise AssertionError(f"the smallest announcement found for {(a, b, c)} fails the verifier")
        bound = int(np.ceil(res.bound - 1e-9)) if res.feasible else 0
        low = max(bound, counting_lower_bound(a, b, c))
        rows.append(dict(a=a, b=b, c=c, n=a + b + c, grid_size=len(hint), smallest=len(ann), lower_bound=low,
                         proven=res.optimal or low == len(ann), work_units=round(work_used(res), 2),
                         witness=format_announcement(ann)))
    return pd.DataFrame(rows)


def yn_table(grid: pd.DataFrame, c: int, rows: Iterable[int], cols: Iterable[int], by: str = "b") -> pd.DataFrame:
    """Y/N/? table of a grid slice: rows a, columns `by` (b, or c with b = a)."""
    look = {(r.a, r.b, r.c): r.status for r in grid.itertuples()}
    sym = {"solvable": "Y", "unsolvable": "N", "open": "?"}
    out = {}
    for col in cols:
        key = (lambda a: (a, col, c)) if by == "b" else (lambda a: (a, a, col))
        out[col] = [sym.get(look.get(key(a), ""), "") for a in rows]
    df = pd.DataFrame(out, index=list(rows))
    df.index.name, df.columns.name = "a", by
    return df


def asymmetry(grid: pd.DataFrame) -> pd.DataFrame:
    """Cells whose status changes when Bill speaks first, i.e. (a, b) and (b, a) differ."""
    look = {(r.a, r.b, r.c): r for r in grid.itertuples()}
    rows = []
    for (a, b, c), r in sorted(look.items(), key=lambda kv: (kv[0][2], kv[0][0], kv[0][1])):
        other = look.get((b, a, c))
        if other is not None and r.status == "solvable" and other.status != "solvable":
            rows.append(dict(c=c, a=a, b=b, anne_first=f"{r.status} ({r.method})",
                             bill_first=f"{other.status} ({other.method})"))
    return pd.DataFrame(rows)


# -- figures ---------------------------------------------------------------------------------
STATUS_COLOURS = {"unsolvable": "#d9d9d9", "solvable": "#4daf4a", "open": "#ff7f00"}


def plot_grids(grid: pd.DataFrame, name: str | None = "russian_cards_grids") -> Figure:
    """One heatmap per c: solvable (green, witness size), unsolvable (grey, proof code), open."""
    cs = sorted(grid.c.unique())
    fig, axes = plt.subplots(1, len(cs), figsize=(5.2 * len(cs), 5.0))
    codes = {"lemma": "L", "CP-SAT proof": "S", "exhaustive": "E", "open": "?"}
    cmap = ListedColormap([STATUS_COLOURS[s] for s in ("unsolvable", "solvable", "open")])
    for ax, c in zip(np.atleast_1d(axes), cs):
        g = grid[grid.c == c]
        size = int(g.a.max())
        img = np.full((size, size), np.nan)
        for r in g.itertuples():
            img[r.a - 1, r.b - 1] = {"unsolvable": 0, "solvable": 1, "open": 2}[r.status]
            label = str(int(r.size)) if r.status == "solvable" else codes.get(method_family(r.method), "")
            ax.text(r.b - 1, r.a - 1, label, ha="center", va="center", fontsize=6)
        ax.imshow(img, cmap=cmap, vmin=0, vmax=2, origin="lower")
        ax.set_xticks(range(size), range(1, size + 1), fontsize=7)
        ax.set_yticks(range(size), range(1, size + 1), fontsize=7)
        ax.set_xlabel("b (Bill's cards)")
        ax.set_ylabel("a (Anne's cards, she speaks first)")
        ax.set_title(f"c = {c}, n = a + b + c ≤ {int(g.n.max())}")
    fig.suptitle("Two-step solvability. Green: witness (number = hands announced); grey: "
                 "proof (L lemma, S CP-SAT, E exhaustive); orange: open", fontsize=9)
    fig.tight_layout()
    return finish(fig, name)


# -- the report's tables with the report's own solver -----------------------------------------
def report_solver_table(sizes: Iterable[tuple[int, int, int]], max_nodes: int = 20000) -> pd.DataFrame:
    """Run the report's depth-first solver on each size (node budget): Y, N, or '?' (budget out)."""
    rows = []
    for a, b, c in sizes:
        r = report_dfs(a, b, c, max_nodes=max_nodes)
        verdict = "Y" if r.announcement else ("N" if r.complete else "?")
        rows.append(dict(a=a, b=b, c=c, report_dfs=verdict, nodes=r.nodes,
                         found=short(r.announcement) if r.announcement else ""))
    return pd.DataFrame(rows)


# -- explorations ---------------------------------------------------------------------------
def explore_views(a: int = 3, b: int = 3, c: int = 1, hand: str = "012", who: str = "C") -> pd.DataFrame:
    """Solve (a, b, c) for Anne's hand, then list what Bill ('B') or Cath ('C') still considers.

    When no announcement exists, the rows are the proof: the lemma with its numbers, or the
    CP-SAT cases (each INFEASIBLE, with its work), or the exhaustive search.
    """
    a, b, c = sizes(a, b, c)
    n = a + b + c
    if n > 12:
        raise ValueError(f"the exploration is limited to n <= 12 cards (got n = {n})")
    h = check_hand(hand, a, b, c)
    if who not in ("B", "C"):
        raise ValueError(f"who must be 'B' (Bill) or 'C' (Cath), got {who!r}")
    v = decide(a, b, c, time_limit=120)
    if v.status != "solvable":
        head = dict(holds=f"({a},{b},{c}): {v.status}", anne_could_hold=v.method, count=0)
        steps = [dict(holds=f"proof, step {i}", anne_could_hold=step, count=0)
                 for i, step in enumerate(v.detail.split("; "), 1)]
        return pd.DataFrame([head, *steps])
    ann = for_hand(v, h)
    rows = [dict(holds="Anne announces", anne_could_hold=short(ann), count=len(ann))]
    rows += [
        dict(holds=short([x]), anne_could_hold=short(left) if left else "no options left", count=len(left))
        for x, left in views(ann, a, b, c, who).items()
    ]
    return pd.DataFrame(rows).head(60)
