"""What the code-breaking notebook reads of the benchmark tables: our speed by size of Mastermind
(data/bench_codebreaking.csv), COBRA's published figures and answers beside ours
(data/bench_outside.csv; Klimoš 2014, Chapter 5), and mikemag/Mastermind's whole processes,
solves and memory beside ours (data/bench_codebreaking_peer.csv). Each function takes the table
read by the notebook and refuses one without the columns it needs, naming the table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pandas as pd

from .. import checks
from .strategies import STRATEGIES

__all__ = ["COLUMNS_OF_PEER", "PEER", "PEER_MEMORY", "PEER_SPEED", "cobra_answers", "cobra_times",
           "peer_memory", "peer_speed", "peer_version", "scaling_speed"]

def scaling_speed(bench: pd.DataFrame) -> pd.DataFrame:
    """The scaling cases of data/bench_codebreaking.csv, one row per size of Mastermind: each
    rule's median warm seconds (vectorised analysis) and plain Python's time over ours (the
    median over the four rules; blank where plain Python was not timed)."""
    _table(bench, ["case", "method", "role", "warm_median_s", "times_subject"],
           "bench_codebreaking")
    found = bench.case.str.extract(r"^(?P<rule>[\w-]+), (?P<size>Mastermind .*\(.*codes\))$")
    rows = bench.join(found).dropna(subset=["rule"])
    seconds = rows[rows.role == "subject"].pivot(index="size", columns="rule",
                                                 values="warm_median_s")
    plain = rows[rows.role == "baseline"].groupby("size").times_subject.median()
    order = sorted(seconds.index, key=lambda size: int(re.findall(r"\((\d+) codes", size)[0]))
    out = seconds.loc[order, [s for s in STRATEGIES if s in seconds.columns]]
    out.columns = [f"{rule} (seconds)" for rule in out.columns]
    out["plain Python's time over ours"] = plain.reindex(order)
    return out.rename(index=lambda size: size.removeprefix("Mastermind ")).rename_axis("Mastermind")


def cobra_times(outside: pd.DataFrame, bench: pd.DataFrame) -> pd.DataFrame:
    """COBRA's measured times (data/bench_outside.csv) beside the library's for the same case
    (data/bench_codebreaking.csv, its subject row named in `compare_with`)."""
    _table(outside, ["source", "what", "figure", "compare_with"], "bench_outside")
    _table(bench, ["case", "role", "cold_s", "warm_median_s"], "bench_codebreaking")
    mine = bench[bench.role == "subject"].set_index("case")
    rows = []
    for r in outside[outside.compare_with.str.startswith("bench_codebreaking: ")].itertuples():
        case = r.compare_with.split(": ", 1)[1]
        rows.append({"computation": r.what, "COBRA": r.figure,
                     "ours, seconds (first run)": mine.cold_s.get(case),
                     "ours, seconds (warm, median)": mine.warm_median_s.get(case)})
    return pd.DataFrame(rows)


PEER = "mikemag/Mastermind"  # the C++ program data/bench_codebreaking_peer.csv times


def _peer_rows(bench: pd.DataFrame) -> list[dict]:
    """One row per rule and size of data/bench_codebreaking_peer.csv: medians of the whole
    processes (CPU) and of the in-process solves, totals, peak memory, load and the peer's stored
    answer (see `peer_speed` and `peer_memory`)."""
    _table(bench, ["case", "method", "role", "result", "warm_median_s", "cold_s",
                   "cold_peak_mib", "load_1min", "note"], "bench_codebreaking_peer")
    rows = []
    for case, runs in bench.groupby("case", sort=False):
        rule, size = case.split(", Mastermind ")
        ours = runs[runs.role == "subject"]
        peer = runs[runs.method.str.startswith(PEER)]
        own = runs[runs.method.str.contains("own rules")]
        if ours.empty or peer.empty:
            continue
        ours, peer = ours.iloc[0], peer.iloc[0]
        stored = re.search(r"stored answer \(valid_solutions.json\) (\d+)", str(peer.note))
        rows.append({
            "rule": rule.split(" (")[0], "Mastermind": size.replace("x", " × "),
            "ours, whole process (s)": ours.warm_median_s,
            "peer, whole process (s)": peer.warm_median_s,
            "peer's time over ours": peer.warm_median_s / ours.warm_median_s,
            "ours, solve (s)": ours.cold_s, "peer, solve (s)": peer.cold_s,
            "total, peer's rules: ours": ours.result.split(" (")[0],
            "peer's total": peer.result.split(" (")[0],
            "total, our rules": own.result.iloc[0].split(" (")[0] if len(own) else None,
            "peak memory, ours (MiB)": round(float(ours.cold_peak_mib)),
            "peak memory, peer's (MiB)": round(float(peer.cold_peak_mib)),
            "peer's stored total": stored.group(1) if stored else None,
            "machine load": ours.load_1min,
        })
    return rows


PEER_SPEED = ["rule", "Mastermind", "ours, whole process (s)", "peer, whole process (s)",
              "peer's time over ours", "ours, solve (s)", "peer, solve (s)",
              "total, peer's rules: ours", "peer's total", "total, our rules"]
PEER_MEMORY = ["rule", "Mastermind", "peak memory, ours (MiB)", "peak memory, peer's (MiB)",
               "peer's total", "peer's stored total", "machine load"]
COLUMNS_OF_PEER = PEER_SPEED + [c for c in PEER_MEMORY if c not in PEER_SPEED]


def peer_speed(bench: pd.DataFrame) -> pd.DataFrame:
    """data/bench_codebreaking_peer.csv, one row per rule and size, one thread each: the median
    CPU seconds of the interleaved whole processes of ours and of the peer, the peer's over ours,
    each one's in-process solve, both totals by the peer's rules and ours by our own rules."""
    return pd.DataFrame(_peer_rows(bench), columns=COLUMNS_OF_PEER)[PEER_SPEED]


def peer_memory(bench: pd.DataFrame) -> pd.DataFrame:
    """The same runs' peak memory, ours and the peer's, the peer's total beside the answer it
    stores, and the machine's load during them."""
    return pd.DataFrame(_peer_rows(bench), columns=COLUMNS_OF_PEER)[PEER_MEMORY]


def peer_version(bench: pd.DataFrame) -> str:
    """The peer's name and commit as data/bench_codebreaking_peer.csv records them."""
    _table(bench, ["method"], "bench_codebreaking_peer")
    methods = bench.method[bench.method.str.startswith(PEER)]
    return methods.iloc[0].split(",")[0] if len(methods) else PEER


def cobra_answers(outside: pd.DataFrame, ours: dict[str, str]) -> pd.DataFrame:
    """COBRA's answers that are not ours (data/bench_outside.csv rows comparing with one of the
    notebook's tables) beside ours: `ours` maps each row's `compare_with` to our value."""
    _table(outside, ["source", "what", "figure", "compare_with", "note"], "bench_outside")
    rows = outside[outside.compare_with.str.startswith("codebreaking_")]
    unknown = sorted(set(rows.compare_with) - set(ours))
    if unknown:
        raise ValueError(f"no value of ours for {unknown}")
    return pd.DataFrame({"COBRA computed": rows.what, "COBRA's answer": rows.figure,
                         "ours": rows.compare_with.map(ours), "note": rows.note}
                        ).reset_index(drop=True)


def _table(df: object, columns: Sequence[str], made_by: str) -> pd.DataFrame:
    """`df` if it is a DataFrame with these columns (the message names where it comes from)."""
    return checks.table(df, "the table", columns, made_by=made_by)
