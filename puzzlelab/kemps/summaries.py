"""Summaries of Kemps games as exact sums over blocks of deals.

Every summary of a tournament (`tournament.by_strategy`, `head_to_head`, `seat_differences`,
`lineup_table`) is a mean per deal with a 95% CI over deals, so it needs, for each per-deal
quantity x, only the number of deals, the sum of x and the sum of x squared. Every such quantity
is an integer S over a fixed denominator (Kemps, or six times a win share, which is 1, 1/2 or 1/3
of a win), so a block of deals (every line-up on the same deals) is summarised by exact integers
(`block_sums`), blocks add up exactly (`merge_sums`), and the summaries are read from the sums.
A table of games is one block; a long run (`streaming.deal_sums`) is many.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .. import checks, exact_sums
from ..exact_sums import mean_ci_from_sums, sum_row

__all__ = [
    "KEYS", "SIX", "SUMS", "block_sums", "head_to_head_from_sums", "lineup_from_sums",
    "merge_sums", "seats_from_sums", "strategy_from_sums",
]

SIX = 6  # a win share is 0, 1/3, 1/2 or 1: six times it is an integer
KEYS = ["table", "scope", "item", "measure"]
SUMS = [*KEYS, *exact_sums.COUNTS]


# ----- one block of deals --------------------------------------------------------------------
def _six_wins(k: np.ndarray) -> np.ndarray:
    """Six times each seat's win share, from Kemps k[..., seat] (top scorers split the win)."""
    top = k.max(axis=-1, keepdims=True)
    won = (k == top) & (top > 0)
    winners = np.maximum(won.sum(axis=-1, keepdims=True), 1)
    return np.where(won, SIX // winners, 0)


def _row(table: str, scope: str, item: str, measure: str, s: np.ndarray, den: int) -> dict:
    """One row of sums for the per-deal quantity s / den."""
    return sum_row({"table": table, "scope": scope, "item": item, "measure": measure}, s, den)


def _strategy_rows(ups: list[tuple[str, ...]], k: np.ndarray, w: np.ndarray) -> list[dict]:
    """Each strategy's mean Kemps and win share per deal over every seat it holds."""
    rows = []
    for s in sorted({name for up in ups for name in up}):
        mask = np.array([[name == s for name in up] for up in ups])[:, None, :]
        m = int(mask.sum())
        rows.append(_row("strategy", s, "", "kemps", (k * mask).sum(axis=(0, 2)), m))
        rows.append(_row("strategy", s, "", "win", (w * mask).sum(axis=(0, 2)), SIX * m))
    return rows


def _head_to_head_rows(ups: list[tuple[str, ...]], k: np.ndarray, w: np.ndarray) -> list[dict]:
    """One focal agent against two copies of another, its three seat orders pooled."""
    rows, names = [], sorted({name for up in ups for name in up})
    for focal, other in itertools.permutations(names, 2):
        idx = [i for i, up in enumerate(ups) if sorted(up) == sorted((focal, other, other))]
        if not idx:
            continue
        sub = [ups[i] for i in idx]
        f = np.array([[n == focal for n in up] for up in sub])[:, None, :]
        o = np.array([[n == other for n in up] for up in sub])[:, None, :]
        mf, mo = int(f.sum()), int(o.sum())
        scope = f"{focal} vs {other}"
        for measure, x, six in (("win", w[idx], SIX), ("kemps", k[idx], 1)):
            sf, so = (x * f).sum(axis=(0, 2)), (x * o).sum(axis=(0, 2))
            rows += [_row("head_to_head", scope, "focal", measure, sf, six * mf),
                     _row("head_to_head", scope, "other", measure, so, six * mo),
                     _row("head_to_head", scope, "diff", measure, sf * mo - so * mf,
                          six * mf * mo)]
    return rows


def _seat_rows(ups: list[tuple[str, ...]], w: np.ndarray) -> list[dict]:
    """Paired seat differences in win share: per self-play line-up, and over all line-ups."""
    scopes = [(f"{s} self-play", [ups.index((s,) * 3)])
              for s in sorted({n for up in ups for n in up}) if (s,) * 3 in ups]
    scopes.append(("all line-ups", list(range(len(ups)))))
    rows = []
    for scope, idx in scopes:
        a = w[idx].sum(axis=0)  # per deal and seat, six times the summed win share
        rows += [_row("seats", scope, f"{i} - {j}", "win", a[:, i - 1] - a[:, j - 1],
                      SIX * len(idx)) for i, j in ((1, 2), (1, 3), (2, 3))]
    return rows


def _lineup_rows(ups: list[tuple[str, ...]], k: np.ndarray, w: np.ndarray,
                 stalled: np.ndarray) -> list[dict]:
    """Per line-up and seat mean Kemps and win share; games without a winner and stalled."""
    rows = []
    for i, up in enumerate(ups):
        name = "/".join(up)
        for j in range(3):
            rows += [_row("lineup", name, str(j + 1), "kemps", k[i, :, j], 1),
                     _row("lineup", name, str(j + 1), "win", w[i, :, j], SIX)]
        rows += [_row("lineup", name, "", "no winner", k[i].max(axis=1) == 0, 1),
                 _row("lineup", name, "", "stalled", stalled[i], 1)]
    return rows


def block_sums(lineups: Sequence[Sequence[str]], kemps: np.ndarray,
               stalled: np.ndarray) -> list[dict]:
    """The sums rows of one block: kemps[i, d, seat] is line-up i's Kemps per seat on deal d,
    stalled[i, d] whether that game stalled (stalemate or turn limit); every line-up on the
    same deals."""
    if isinstance(lineups, (str, bytes)) or not isinstance(lineups, Sequence) or not lineups:
        raise checks.ArgumentTypeError(
            f"lineups must be a non-empty sequence of line-ups, got {lineups!r}")
    if any(isinstance(up, (str, bytes)) or not isinstance(up, Sequence) for up in lineups):
        raise checks.ArgumentTypeError(
            f"each line-up must be a sequence of three strategy names, got {list(lineups)!r}")
    ups = [tuple(checks.text(name, "strategy") for name in up) for up in lineups]
    if any(len(up) != 3 for up in ups) or len(set(ups)) != len(ups):
        raise ValueError("lineups must be distinct line-ups of three strategies")
    k, stalled = np.asarray(kemps), np.asarray(stalled)
    if k.ndim != 3 or k.shape[0] != len(ups) or k.shape[2] != 3 or k.shape[1] < 1 \
            or k.dtype.kind not in "iu" or (k < 0).any():
        raise ValueError(f"kemps must be non-negative integers of shape ({len(ups)}, deals, 3), "
                         f"got {k.dtype} {k.shape}")
    if stalled.shape != k.shape[:2] or stalled.dtype.kind != "b":
        raise ValueError(f"stalled must be booleans of shape {k.shape[:2]}, got {stalled.shape}")
    k = k.astype(np.int64)
    w = _six_wins(k)
    return (_strategy_rows(ups, k, w) + _head_to_head_rows(ups, k, w) + _seat_rows(ups, w)
            + _lineup_rows(ups, k, w, stalled))


def merge_sums(parts: pd.DataFrame) -> pd.DataFrame:
    """Add up blocks' sums row by row (same table, scope, item, measure); checks the parts."""
    return exact_sums.merge_sums(parts, KEYS, text_keys=("item",))



# ----- summaries from sums -------------------------------------------------------------------
def _pick(sums: pd.DataFrame, table: str) -> pd.DataFrame:
    """The merged sums rows of one summary table."""
    t = merge_sums(sums)
    return t[t["table"] == table]


def _ci(row: pd.Series) -> tuple[float, float]:
    """Mean and 95% half-width of one sums row."""
    return mean_ci_from_sums(row["deals"], row["total"], row["squares"], row["denominator"])


def strategy_from_sums(sums: pd.DataFrame) -> pd.DataFrame:
    """`tournament.by_strategy` from sums: each strategy's mean per deal with its 95% CI."""
    t = _pick(sums, "strategy").set_index(["scope", "measure"])
    out = []
    for s in sorted(set(t.index.get_level_values("scope"))):
        (mk, ck), (mw, cw) = _ci(t.loc[(s, "kemps")]), _ci(t.loc[(s, "win")])
        kemps = t.loc[(s, "kemps")]
        out.append({"strategy": s, "deals": int(kemps["deals"]),
                    "seat_games": int(kemps["deals"] * kemps["denominator"]),
                    "kemps_mean": mk, "kemps_ci": ck, "win_share": mw, "win_ci": cw})
    return pd.DataFrame(out)


def head_to_head_from_sums(sums: pd.DataFrame, focal: str) -> pd.DataFrame:
    """`tournament.head_to_head` from sums: one focal agent against two copies of each other."""
    t = _pick(sums, "head_to_head").set_index(["scope", "item", "measure"])
    focals = sorted({scope.split(" vs ")[0] for scope in t.index.get_level_values("scope")})
    checks.choice(focal, "focal (an agent of the head-to-head sums)", focals)
    out = []
    for scope in dict.fromkeys(t.index.get_level_values("scope")):
        f, other = scope.split(" vs ")
        if f != focal:
            continue
        row: dict[str, Any] = {"focal": focal, "against": other,
                               "deals": int(t.loc[(scope, "focal", "win"), "deals"])}
        for col in ("win", "kemps"):
            row[f"focal_{col}"], row[f"focal_{col}_ci"] = _ci(t.loc[(scope, "focal", col)])
            row[f"other_{col}"], row[f"other_{col}_ci"] = _ci(t.loc[(scope, "other", col)])
            row[f"{col}_diff"], row[f"{col}_diff_ci"] = _ci(t.loc[(scope, "diff", col)])
        out.append(row)
    return pd.DataFrame(out).sort_values("against", ignore_index=True) if out else pd.DataFrame()


def seats_from_sums(sums: pd.DataFrame) -> pd.DataFrame:
    """`tournament.seat_differences` from sums: paired seat differences in win share."""
    out = []
    for _, r in _pick(sums, "seats").iterrows():
        m, c = _ci(r)
        out.append({"scope": r["scope"], "seats": r["item"], "deals": int(r["deals"]),
                    "win_diff": m, "ci": c, "significant": abs(m) > c})
    return pd.DataFrame(out)


def lineup_from_sums(sums: pd.DataFrame) -> pd.DataFrame:
    """`tournament.lineup_table` from sums: per line-up and seat, mean Kemps and win share."""
    t = _pick(sums, "lineup")
    mean = t["total"] / (t["deals"] * t["denominator"])
    t = t.assign(mean=mean)
    seats = t[t["item"] != ""].pivot_table(index=["scope", "item"], columns="measure",
                                           values="mean", sort=False).reset_index()
    games = t[t["item"] == ""].pivot_table(index="scope", columns="measure", values="mean",
                                           sort=False).reset_index()
    seats = seats.rename(columns={"scope": "lineup", "item": "seat", "kemps": "kemps_mean",
                                  "win": "win_share"})
    seats["seat"] = seats["seat"].astype(int)
    seats["strategy"] = [u.split("/")[s - 1] for u, s in zip(seats["lineup"], seats["seat"])]
    seats = seats.sort_values("seat", kind="stable")  # seat 1 of every line-up first, as there
    games = games.rename(columns={"scope": "lineup", "no winner": "no_winner"})
    out = seats[["lineup", "seat", "strategy", "kemps_mean", "win_share"]].merge(
        games[["lineup", "no_winner", "stalled"]], on="lineup")
    out.columns.name = None
    return out
