"""Slow, obvious definitions, for cross-checks only (group6_kemps2023, Sections 2.4 and 3.1-3.4).

- The tournament summaries as plain means over deals, computed from the game rows one seat at a
  time (`tournament` reads them from exact integer sums over blocks of deals, `summaries`).
- Knowledge replayed from a game's trace as a set of possible states s0..s3 per card (`knowledge`
  keeps one bit mask per card and updates it in place).
- The deals an agent cannot rule out, by listing every pair of the two other hands and keeping
  those consistent with what it saw (`knowledge.deals_possible` counts them by groups of masks).
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterator
from itertools import combinations

import pandas as pd

from .. import checks
from ..exact_sums import Z95
from .cards import HAND_SIZE, PLAYERS
from .game import GameRecord

__all__ = [
    "MAX_GAMES", "MAX_WORLDS", "by_strategy_plain", "consistent_deals", "head_to_head_plain",
    "lineup_table_plain", "replay_knowledge", "seat_differences_plain",
]

MAX_GAMES = 100_000  # rows of a table of games the plain summaries go through
MAX_WORLDS = 10**5  # pairs of hidden hands consistent_deals may list
GAMES = ["lineup", "seed", "k1", "k2", "k3", "end"]
Record = tuple[str, int, int, str, int, float]  # line-up, seed, seat, strategy, Kemps, win share


# ----- the summaries, as plain means over deals ----------------------------------------------
def _records(games: object) -> list[Record]:
    """(line-up, seed, seat, strategy, Kemps, win share) for every seat of every game."""
    games = checks.table(games, "games", GAMES, made_by="tournament()")
    if not 2 <= games["seed"].nunique() or len(games) > MAX_GAMES:
        raise ValueError(f"games must hold at least two deals and at most {MAX_GAMES:,} games")
    kemps = games[["k1", "k2", "k3"]]
    if any(kind not in "iu" for kind in kemps.dtypes.map(lambda d: d.kind)) \
            or (kemps < 0).any().any():
        raise ValueError("games['k1'], ['k2'], ['k3'] must be non-negative integers (Kemps)")
    out = []
    for up, seed, *k in games[["lineup", "seed", "k1", "k2", "k3"]].itertuples(index=False):
        names = str(up).split("/")
        if len(names) != PLAYERS:
            raise ValueError(f"a line-up names three strategies such as 'greedy/tom/tom', "
                             f"got {up!r}")
        top = max(k)
        winners = sum(x == top for x in k) if top > 0 else 0
        for seat, (name, x) in enumerate(zip(names, k), start=1):
            out.append((up, seed, seat, name, int(x),
                        1 / winners if winners and x == top else 0.0))
    return out


def _mean_ci(per_deal: dict[int, list[float]]) -> tuple[float, float]:
    """Mean over deals of each deal's mean, and the 95% normal half-width over deals."""
    x = [sum(v) / len(v) for v in per_deal.values()]
    mean = sum(x) / len(x)
    sd = math.sqrt(sum((a - mean) ** 2 for a in x) / (len(x) - 1))
    return mean, Z95 * sd / math.sqrt(len(x))


def _per_deal(rows: list[Record], keep: Callable[[Record], bool],
              value: Callable[[Record], float]) -> dict[int, list[float]]:
    """The values of the kept seat-games, deal by deal."""
    out = defaultdict(list)
    for r in rows:
        if keep(r):
            out[r[1]].append(value(r))
    return out


def by_strategy_plain(games: pd.DataFrame) -> pd.DataFrame:
    """`tournament.by_strategy` by plain means: each strategy's mean per deal over its seats."""
    rows, out = _records(games), []
    for s in sorted({r[3] for r in rows}):
        mine = [r for r in rows if r[3] == s]
        (mk, ck), (mw, cw) = (_mean_ci(_per_deal(mine, lambda r: True, lambda r, i=i: r[i]))
                              for i in (4, 5))
        out.append({"strategy": s, "deals": len({r[1] for r in mine}), "seat_games": len(mine),
                    "kemps_mean": mk, "kemps_ci": ck, "win_share": mw, "win_ci": cw})
    return pd.DataFrame(out)


def head_to_head_plain(games: pd.DataFrame, focal: str) -> pd.DataFrame:
    """`tournament.head_to_head` by plain means: one `focal` agent against two copies of each
    other strategy, per deal its mean over its seats, the others' and the difference."""
    rows, out = _records(games), []
    focal = checks.text(focal, "focal")
    for other in sorted({r[3] for r in rows} - {focal}):
        trio = {"/".join(t) for t in itertools.permutations((focal, other, other))}
        g = [r for r in rows if r[0] in trio]
        if not g:
            continue
        row = {"focal": focal, "against": other, "deals": len({r[1] for r in g})}
        for col, i in (("win", 5), ("kemps", 4)):
            f = _per_deal(g, lambda r: r[3] == focal, lambda r, i=i: r[i])
            o = _per_deal(g, lambda r: r[3] == other, lambda r, i=i: r[i])
            diff = {d: [sum(f[d]) / len(f[d]) - sum(o[d]) / len(o[d])] for d in f}
            row[f"focal_{col}"], row[f"focal_{col}_ci"] = _mean_ci(f)
            row[f"other_{col}"], row[f"other_{col}_ci"] = _mean_ci(o)
            row[f"{col}_diff"], row[f"{col}_diff_ci"] = _mean_ci(diff)
        out.append(row)
    return pd.DataFrame(out)


def seat_differences_plain(games: pd.DataFrame) -> pd.DataFrame:
    """`tournament.seat_differences` by plain means: per deal, seat i's win share minus seat
    j's, for each self-play line-up and for all line-ups together."""
    rows, out = _records(games), []
    names = sorted({r[3] for r in rows})
    scopes = [(f"{s} self-play", lambda r, s=s: r[0] == "/".join([s] * 3)) for s in names]
    scopes.append(("all line-ups", lambda r: True))
    for scope, keep in scopes:
        g = [r for r in rows if keep(r)]
        if not g:
            continue
        for i, j in ((1, 2), (1, 3), (2, 3)):
            wi = _per_deal(g, lambda r, i=i: r[2] == i, lambda r: r[5])
            wj = _per_deal(g, lambda r, j=j: r[2] == j, lambda r: r[5])
            m, c = _mean_ci({d: [sum(wi[d]) / len(wi[d]) - sum(wj[d]) / len(wj[d])] for d in wi})
            out.append({"scope": scope, "seats": f"{i} - {j}", "deals": len(wi), "win_diff": m,
                        "ci": c, "significant": abs(m) > c})
    return pd.DataFrame(out)


def lineup_table_plain(games: pd.DataFrame) -> pd.DataFrame:
    """`tournament.lineup_table` by plain means over the games of each line-up and seat."""
    rows, out = _records(games), []
    ups = list(dict.fromkeys(games["lineup"]))
    for seat in (1, 2, 3):  # seat 1 of every line-up first
        for up in ups:
            g = [r for r in rows if r[0] == up and r[2] == seat]
            played = games[games["lineup"] == up]
            out.append({"lineup": up, "seat": seat, "strategy": up.split("/")[seat - 1],
                        "kemps_mean": sum(r[4] for r in g) / len(g),
                        "win_share": sum(r[5] for r in g) / len(g),
                        "no_winner": float((played[["k1", "k2", "k3"]].max(axis=1) == 0).mean()),
                        "stalled": float(played["end"].isin(["stalemate", "turn limit"]).mean())})
    return pd.DataFrame(out)


# ----- knowledge, card by card ---------------------------------------------------------------
def _record(rec: object, keys: tuple[str, ...]) -> GameRecord:
    """A game played with knowledge=True and a trace: one snapshot before each turn and after
    the last, each with `keys`."""
    if not isinstance(rec, GameRecord):
        raise checks.ArgumentTypeError(f"rec must be a GameRecord (from play), got {rec!r}")
    if len(rec.snapshots) != len(rec.trace) + 1 or not rec.trace \
            or any(k not in snap for snap in rec.snapshots for k in keys):
        raise ValueError("rec must be a game played with knowledge=True and a trace")
    return rec


def replay_knowledge(rec: GameRecord, me: int | None) -> Iterator[list[set[int]]]:
    """What agent `me` (None: the public) considers possible for each card, as sets of states
    s0..s3 (0 = nobody, p + 1 = player p), replayed from the trace alone: one list per snapshot.

    The report's per-card model told by what `me` sees and by each turn's announcements (PICKED,
    DISCARDED, KEMPS, NEW TABLE and DEALT); the deck and discard pile are tracked by counting, as
    every player can.
    """
    rec = _record(rec, ("hands", "table"))
    if me is not None:
        me = checks.integer(me, "me", low=0, high=PLAYERS - 1)
    return _replay(rec, me)


def _replay(rec: GameRecord, me: int | None) -> Iterator[list[set[int]]]:
    n = rec.deck.n
    snaps = rec.snapshots
    hand0 = snaps[0]["hands"][me] if me is not None else ()
    everyone = {0, 1, 2, 3} - ({me + 1} if me is not None else set())
    states = [set(everyone) for _ in range(n)]
    for c in hand0:
        states[c] = {me + 1}
    for c in rec.trace[0].table:
        states[c] = {0}
    discard: set[int] = set()
    out: set[int] = set()
    pile = n - HAND_SIZE * PLAYERS - len(rec.trace[0].table)
    yield [set(x) for x in states]
    for t, after in zip(rec.trace, snaps[1:]):
        q = t.player
        for c, d in zip(t.picked, t.discarded):
            states[c], states[d] = {q + 1}, {0}  # PICKED(q, c), DISCARDED(q, d)
        if t.kemps is not None:
            for c in range(n):
                states[c].discard(q + 1)  # q's hand is gone
            for c in range(4 * t.kemps, 4 * t.kemps + 4):
                states[c] = {0}
                out.add(c)
            table_now = (set(after["table"]) if not t.new_table
                         else set(t.table) - set(t.picked) | set(t.discarded))
            if pile + len(discard) >= HAND_SIZE:
                if pile < HAND_SIZE:
                    pile, discard = pile + len(discard), set()
                pile -= HAND_SIZE
                if me == q:
                    for c in after["hands"][me]:
                        states[c] = {me + 1}
                else:  # DEALT(q): a card that may be in the deck may now be q's
                    for c in range(n):
                        if 0 in states[c] and c not in table_now | discard | out:
                            states[c].add(q + 1)
        if t.new_table:
            old = set(t.table) - set(t.picked) | set(t.discarded)
            discard |= old
            if pile < len(t.table):
                pile, discard = pile + len(discard), set()
            pile -= len(t.table)
            for c in after["table"]:
                states[c] = {0}  # NEW TABLE: seen face up
        yield [set(x) for x in states]


def consistent_deals(rec: GameRecord, me: int) -> Iterator[list[tuple[frozenset, frozenset]]]:
    """Every pair of hidden hands (of the two other players, in seat order) consistent with what
    agent `me` saw, listed and filtered turn by turn: one list per snapshot.

    For games that end at their first Kemps (every 20-card game does), so no new hand is dealt.
    """
    rec = _record(rec, ("hands",))
    me = checks.integer(me, "me", low=0, high=PLAYERS - 1)
    if any(t.kemps is not None for t in rec.trace[:-1]):
        raise ValueError("consistent_deals lists the hands of games that end at their first "
                         "Kemps (no new hand dealt), such as every 20-card game")
    unseen = rec.deck.n - HAND_SIZE - len(rec.trace[0].table)
    worlds = math.comb(unseen, HAND_SIZE) * math.comb(unseen - HAND_SIZE, HAND_SIZE)
    checks.within_budget("listing the hidden hands", worlds, MAX_WORLDS, unit="pairs of hands",
                         largest="a 20-card deck")
    return _worlds(rec, me)


def _worlds(rec: GameRecord, me: int) -> Iterator[list[tuple[frozenset, frozenset]]]:
    j, k = [q for q in range(PLAYERS) if q != me]
    snaps = rec.snapshots
    seen = set(snaps[0]["hands"][me]) | set(rec.trace[0].table)
    unseen = [c for c in range(rec.deck.n) if c not in seen]
    worlds = [(frozenset(a), frozenset(b)) for a in combinations(unseen, HAND_SIZE)
              for b in combinations([c for c in unseen if c not in a], HAND_SIZE)]
    yield worlds
    for t, after in zip(rec.trace, snaps[1:]):
        q = t.player
        if q != me and t.picked:
            i = 0 if q == j else 1
            worlds = [w for w in worlds if set(t.discarded) <= w[i]]
            worlds = [tuple((h - set(t.discarded)) | set(t.picked) if x == i else h
                            for x, h in enumerate(w)) for w in worlds]
        if t.kemps is not None and q != me:
            i = 0 if q == j else 1
            four = frozenset(range(4 * t.kemps, 4 * t.kemps + 4))
            worlds = [tuple(frozenset() if x == i else h for x, h in enumerate(w))
                      for w in worlds if w[i] == four]
        if t.new_table:
            new = set(after["table"])
            worlds = [w for w in worlds if not (new & (w[0] | w[1]))]
        yield worlds
