"""The views of Russian Cards: display helpers, summaries, figures and `explore_views`.

Source: group11_rc §4-5 and the appendix. The tables these views show are read through
`tables` (cached in data/, every witness verified when read).
"""

from __future__ import annotations

import re

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from .. import checks
from ..cache import read_table
from ..figures import finish
from ..proofs import Proof
from . import grid as rg
from .counting import counting_proof
from .grid import short
from .model import (
    check_hand, counting_lower_bound, covering_counts, hand_sizes, holding_bound,
    packing_upper_bound, views,
)
from .open_cases import ATTEMPT_COLUMNS, stuck_at
from .sat_cases import SAT_COLUMNS
from .solver import Verdict, decide, for_hand, lemma_proof
from .tables import ORBITS, grid_table, improved_by_descent, matrix_table

__all__ = [
    "EXPLORE_N_MAX", "STATUS_COLOURS", "asymmetry", "bounds_cross", "cell_view", "cell_views",
    "counting_bounds", "counting_lemma_sizes", "descent_changes", "explore_views",
    "matrix_changes", "open_size_rounds", "open_size_runs", "open_sizes", "orbit_changes",
    "plot_grids", "proof_family", "report_and_ours", "settled_by", "smallest_label",
    "smallest_summary", "yn_table",
]

EXPLORE_N_MAX = 12  # outside the grid the explorer decides decks of at most 12 cards


# -- display helpers ---------------------------------------------------------------------------
def proof_family(kind: str, status: str) -> str:
    """How a grid cell was settled, for legends: lemma, construction, CP-SAT witness/proof, ..."""
    kind = checks.choice(kind, "kind", ("lemma", "construction", "exhaustive", "solver", "open"))
    status = checks.choice(status, "status", ("solvable", "unsolvable", "open"))
    if kind == "solver":
        return "CP-SAT witness" if status == "solvable" else "CP-SAT proof"
    return {"exhaustive": "exhaustive search"}.get(kind, kind)


# -- how the grid was settled, and what the long runs changed ----------------------------------
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


def counting_lemma_sizes(grid: pd.DataFrame) -> pd.DataFrame:
    """The sizes of a grid that Lemma E (`counting`) rules out, beside how the grid settled
    each: one row per size, its grid status and method, and Lemma E's reason."""
    grid = _grid(grid)
    rows = []
    for r in grid[(grid.a >= grid.c + 2) & (grid.b >= grid.c + 1)].itertuples():
        proof = counting_proof(r.a, r.b, r.c)
        if proof:
            rows.append({"size": f"({r.a},{r.b},{r.c})", "n": r.n, "grid": r.status,
                         "grid_method": r.method.split(" needs ")[0].replace("<=", "≤"),
                         "lemma_e": proof[0].removeprefix("lemma: counting at (c-1)-sets")
                         .lstrip(", ") or "no spread of degrees survives"})
    return pd.DataFrame(rows, columns=["size", "n", "grid", "grid_method", "lemma_e"])


def open_size_runs(hunt: pd.DataFrame | None, attempts: pd.DataFrame | None) -> pd.DataFrame:
    """Where each open size of the wide grid stands after the longer runs (`open_cases`): the
    long attempt's row (`ATTEMPT_WORK` units) where it has one, else the witness hunt's; one
    row per size, with the CPU minutes each took on the machine that ran it."""
    rows = {}
    for run, table in (("witness hunt", hunt), ("long attempt", attempts)):
        if table is not None:
            table = checks.table(table, f"the {run} table", ATTEMPT_COLUMNS)
        for r in ([] if table is None else table.itertuples()):
            hands = len(r.witness.split("|")) if isinstance(r.witness, str) and r.witness else None
            rows[(r.a, r.b, r.c)] = {"size": f"({r.a},{r.b},{r.c})", "n": r.n, "status": r.status,
                                     "run": run, "work units": r.work_units,
                                     "CPU minutes": round(r.cpu_seconds / 60),
                                     "hands": hands, "groups ruled out": _groups(r.detail),
                                     "how": _how(r.status, r.method, r.detail)}
    table = pd.DataFrame(list(rows.values()), columns=["size", "n", "status", "run", "work units",
                                                       "CPU minutes", "hands", "groups ruled out",
                                                       "how"])
    return table.astype({"hands": "Int64"})


def open_size_rounds(attempts: pd.DataFrame, focus: pd.DataFrame | None,
                     sat: pd.DataFrame | None = None) -> pd.DataFrame:
    """The sizes the long attempt left open, with where it stopped and how the second round
    (`open_cases.focus_row`, CP-SAT) and the third (`sat_cases.sat_row`, Kissat) ended there;
    the CP-SAT work units of the first two rounds and the CPU minutes of all (a round not yet
    run on a size adds nothing)."""
    attempts = checks.table(attempts, "the long attempts table", ATTEMPT_COLUMNS)
    second = _by_size(focus, "the second round's table", ATTEMPT_COLUMNS)
    third = _by_size(sat, "the third round's table", SAT_COLUMNS)
    rows = []
    for r in attempts[attempts.status == "open"].itertuples():
        s, t = second.get((r.a, r.b, r.c)), third.get((r.a, r.b, r.c))
        seconds = r.cpu_seconds + sum(x.cpu_seconds for x in (s, t) if x)
        rows.append({"size": f"({r.a},{r.b},{r.c})", "status": (t or s or r).status,
                     "first round stopped at": _stuck_words(r),
                     "second round": _later_round(s, r) if s else "not yet run",
                     "third round": _later_round(t, s or r) if t else "not yet run",
                     "work units": round(r.work_units + (s.work_units if s else 0)),
                     "CPU minutes": round(seconds / 60)})
    return pd.DataFrame(rows, columns=["size", "status", "first round stopped at", "second round",
                                       "third round", "work units", "CPU minutes"])


def _by_size(table: pd.DataFrame | None, what: str, columns: list[str]) -> dict[tuple, Any]:
    """A round's rows by size (a, b, c); none when the round has not run."""
    if table is None:
        return {}
    return {(r.a, r.b, r.c): r for r in checks.table(table, what, columns).itertuples()}


def _stuck_words(r: Any) -> str:
    """Where a first attempt stopped (`open_cases.stuck_at`), in words."""
    if r.method.startswith("open (size)"):
        return "no case built: the whole model is too large"
    return f"case k={stuck_at(r._asdict())} undecided (every smaller k infeasible)"


def _later_round(r: Any, before: Any) -> str:
    """How a second- or third-round row ended, in words ("again": undecided where the round
    `before` was left undecided too)."""
    if r.status != "open":
        return r.method
    count = len(re.findall(r": (?:INFEASIBLE|UNSATISFIABLE)", r.detail))
    closed = f"{count} case{'s' * (count != 1)} infeasible, then " if count else ""
    if case := re.search(r"case k=(\d+)'s model too large", r.method):
        return f"{closed}case k={case[1]}'s model too large to build"
    case = re.search(r"in case k=(\d+)", r.method)
    again = not count and str(before.method).startswith("open (limit)")
    return f"{closed}case k={case[1]} undecided at the limit" + (" again" if again else "")


def _groups(detail: str) -> str:
    """How many card groups the orbit hunt proved to have no witness, of how many."""
    found = re.search(r"orbits of (\d+) groups \((\d+) proved to have none", detail)
    return f"{found[2]} of {found[1]}" if found else ""


def _how(status: str, method: str, detail: str) -> str:
    """How a run ended, in words: the proof, the witness's group, or where CP-SAT stopped."""
    if status == "unsolvable":
        return method
    if method.startswith("open (size)"):
        return "the whole model is too large to build; the orbit hunt alone"
    if case := re.search(r"open \(limit\): .* in case k=(\d+)", method):
        return f"case k={case[1]} undecided at the limit (every smaller k infeasible)"
    return _first_clause(detail)


def _first_clause(detail: str) -> str:
    """A proof's detail up to its first ';' outside parentheses."""
    depth = 0
    for i, ch in enumerate(detail):
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth == 0:
            return detail[:i]
    return detail


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


def orbit_changes(smallest: pd.DataFrame) -> pd.DataFrame:
    """The sizes unions of orbits improved: the range before, the label after, the group."""
    t = rg.check_table(smallest, ["a", "b", "c", "smallest", "lower_bound", "proven",
                                  "by_orbits"])
    gains = read_table(ORBITS).set_index(["a", "b", "c"])  # as `smallest_table` left it
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
    """`short(ann)` for at most `most` hands, then '… and k more' (k >= 2: one more is shown)."""
    hands = list(ann)
    if len(hands) <= most + 1:
        return short(hands)
    return short(hands[:most]) + f" … and {len(hands) - most} more"


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
    columns = ["size", "covering r₀", "holding ⌈n·q₀/a⌉", "smallest found", "exact"]
    return pd.DataFrame(rows, columns=columns).set_index("size")


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
    both = improved_by_descent()
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
    if smallest is not None:  # checked whatever the cell's status
        smallest = rg.check_table(smallest, ["a", "b", "c", "smallest", "lower_bound", "proven"])
    rows = [("status", r.status), ("method", r.method), ("proof kind", r.proof)]
    rows += [(f"step {i}", step) for i, step in enumerate(r.detail.split("; "), 1)]
    if r.status == "solvable":
        ann = rg.parse_announcement(r.witness)
        rows.append((f"witness ({len(ann)} hands)", _few(ann, 6)))
    if smallest is not None and r.status == "solvable":
        s = smallest.set_index(["a", "b", "c"]).loc[(a, b, c)]
        rows.append(("smallest", smallest_label(s.lower_bound, s.smallest, s.proven)))
    return pd.DataFrame(rows, columns=["", f"({a},{b},{c})"]).set_index("")


def cell_views(grid: pd.DataFrame, smallest: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """`cell_view` of every cell not settled by a lemma, labelled '(a,b,c) status'."""
    todo = _grid(grid)[grid.proof != "lemma"].sort_values(["c", "a", "b"])
    return {f"({r.a},{r.b},{r.c}) {r.status}": cell_view(r.a, r.b, r.c, smallest)
            for r in todo.itertuples()}
