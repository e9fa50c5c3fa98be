"""The source layer: read and check the tables and claims of janssen2017 from its text extraction.

Nothing here is a number we rely on: these functions only *read* what the thesis states (its
deals, chains and predictions), so that the notebook can evaluate and compare them; the parsed
tables are cached in data/ by `tables.thesis_table`. The text extraction garbles some cells
(braces read as '1', ']' or 'J', a letter lost, lowercase); every cell records how it was read:
'clean', 'repaired' (a stray brace character stripped, or an all-pass string one 'P' short) or
'garbled' (not evaluated).
"""

from __future__ import annotations

import ast
import itertools
import operator
import re

import pandas as pd

from .. import checks
from .model import deal_to_strings, evaluate
from .sets import canonical_deal, maximal_won_masks, to_mask
from .world import round_index, round_to_string, rounds

__all__ = [
    "CLAIM_PATTERNS", "NUMBER_WORDS", "SOURCE", "VIEW_ORDERS", "evaluate_expression",
    "evaluate_thesis_deals", "four_agent_deals", "from_our_order", "parse_claims",
    "parse_figure_5_1", "parse_four_agent_tables", "parse_table_4_1", "parse_table_5_2",
    "parse_table_5_3", "read_cell", "theorem_6", "to_our_order", "view_order",
]

SOURCE = "janssen2017"  # citation key of the thesis (puzzlelab.sources)
MAX_POWER_BITS = 1 << 16  # evaluate_expression refuses powers with more binary digits


def _text(text: object) -> str:
    return checks.text(text, "text")


def _block(text: str, header: str, caption: str) -> list[str]:
    """Lines strictly between the line starting with `header` and the next one with `caption`."""
    lines = _text(text).splitlines()
    start = next((k for k, line in enumerate(lines) if line.startswith(header)), None)
    stop = None if start is None else next(
        (k for k in range(start + 1, len(lines)) if lines[k].startswith(caption)), None)
    if stop is None:
        raise ValueError(f"no table between {header!r} and {caption!r} in the text")
    return [line for line in lines[start + 1 : stop] if line.strip()]


def read_cell(raw: str, length: int, letters: str = "RBP") -> tuple[str, str]:
    """One strategy cell -> (letters, status) with status 'clean', 'repaired' or 'garbled'."""
    raw = checks.text(raw, "raw")
    length = checks.integer(length, "length", low=1, high=4096)
    letters = checks.text(letters, "letters")
    if not re.fullmatch(r"[A-Z]+", letters):
        raise ValueError(f"letters must be capital letters, got {letters!r}")
    body = re.sub(r"[${}\\]", "", raw).strip()
    if re.fullmatch(f"[{letters}]{{{length}}}", body):
        return body, "clean"
    fixed = body.upper().replace(" ", "")
    fixed = re.sub(r"[1\]J}]$", "", fixed)  # a closing brace read as '1', ']' or 'J'
    if re.fullmatch(f"[{letters}]{{{length}}}", fixed):
        return fixed, "repaired"
    if re.fullmatch(f"P{{{length - 1}}}", fixed):  # all-pass string one letter short
        return "P" * length, "repaired"
    return body, "garbled"


def parse_table_4_1(text: str) -> pd.DataFrame:
    """Table 4.1: chain number, its three correct rounds and its incorrect round (N = 3)."""
    rows = []
    for line in _block(text, "Correct\tIncorrect", "Table 4.1"):
        m = re.fullmatch(r"\s*([RB]{3}) ([RB]{3}) ([RB]{3})\t([RB]{3})\s*", line)
        if m:
            rows.append({"chain": len(rows) + 1, "correct": " ".join(m.groups()[:3]),
                         "incorrect": m[4]})
    return pd.DataFrame(rows)


def parse_figure_5_1(text: str) -> pd.DataFrame:
    """Figure 5.1 (N = 3 deals written view by view, 'RR = B'): one row per deal, agent and view."""
    rows: list[dict] = []
    current: list[int | None] = [None, None]
    for line in _block(text, "Strategy\tAgent 1", "Figure 5.1"):
        fields = line.split("\t")
        for half in range(2):
            part = fields[4 * half : 4 * half + 4]
            if len(part) < 4:
                continue
            if part[0].strip():
                current[half] = int(part[0])
            for agent, cell in enumerate(part[1:], start=1):
                m = re.fullmatch(r"\s*([RB]{2}) = ([RBP])\s*", cell)
                if m:
                    rows.append({"deal": current[half], "agent": agent, "view": m[1],
                                 "guess": m[2]})
    return pd.DataFrame(rows).sort_values(["deal", "agent"], kind="stable").reset_index(drop=True)


def _deal_rows(lines: list[str], n_agents: int, claim: str, first_number: int) -> list[dict]:
    length = 2 ** (n_agents - 1)
    rows = []
    for k, line in enumerate(lines):
        fields = line.split("\t")
        if len(fields) < n_agents + 1:
            continue
        label, cells = " ".join(fields[:-n_agents]).strip(), fields[-n_agents:]
        if not any(c.strip() for c in cells):
            continue  # a stray line of the extraction (a row label with no cells)
        row = {"deal": first_number + len(rows), "label": label, "claim": claim}
        statuses = []
        for a, cell in enumerate(cells, start=1):
            letters, status = read_cell(cell, length)
            row[f"agent{a}"] = letters
            statuses.append(status)
        row["status"] = next((s for s in ("garbled", "repaired") if s in statuses), "clean")
        rows.append(row)
    return rows


def parse_table_5_2(text: str) -> pd.DataFrame:
    """Table 5.2: the N = 3 maximal deals in string notation."""
    lines = _block(text, "Deal\tAgent 1\tAgent 2\tAgent 3", "Table 5.2")
    return pd.DataFrame(_deal_rows(lines, 3, "maximal", 1))


def parse_four_agent_tables(text: str) -> pd.DataFrame:
    """Tables 5.5-5.8: the N = 4 maximal deals, with each table's claimed percentage correct."""
    out: list[dict] = []
    lines = _text(text).splitlines()
    for k, line in enumerate(lines):
        if not line.startswith("Deal Number\tAgent 1"):
            continue
        stop = next((j for j in range(k + 1, len(lines)) if lines[j].startswith("Table 5.")), None)
        found = None if stop is None else re.search(r"(\d+(?:,\d+)?)\s*%", lines[stop])
        if found is None:
            raise ValueError("a four-agent table without its captioned percentage")
        caption, claim = lines[stop], found[1].replace(",", ".")
        body = [x for x in lines[k + 1 : stop] if x.strip() and "\t" in x]
        before = len(out)
        out += _deal_rows(body, 4, f"{claim}%", before + 1)
        for row in out[before:]:
            row["table"] = caption.split(":")[0]
    return pd.DataFrame(out)


def parse_table_5_3(text: str) -> pd.DataFrame:
    """Table 5.3: the thesis's predicted maximal number of correct rounds per N."""
    rows = []
    for line in _block(text, "Agent Number\tMaximal Number", "Table 5.3"):
        fields = line.split("\t")
        if len(fields) != 3 or not fields[0].strip().isdigit() or not fields[1].strip().isdigit():
            raise ValueError(f"unexpected Table 5.3 row {line!r}")
        n, best, pct = fields
        rows.append({"n_players": int(n), "thesis_max_correct": int(best),
                     "thesis_percentage": pct.strip()})
    return pd.DataFrame(rows)


NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9}

# (claim, section, pattern): group "stated" is the thesis's wording, optional "expr" a formula
CLAIM_PATTERNS = [
    ("theorem_2_deals", "Theorem 2",
     r"\$\$Deals = (?P<expr>\(2\+1\)\^\{\(2\^\{\(3-1\)\}\)\}) = (?P<stated>[\d,]+)\$\$"),
    ("thoughts", "Theorem 2", r"Thoughts = (?P<expr>531,441 \* 8 \* 3) = (?P<stated>[\d,]+)"),
    ("corollary_1_maximal_deals", "Corollary 1",
     r"only (?P<stated>\d+) of these Deals are found to be maximal"),
    ("ebert_win_rate", "Chapter 3", r"a win rate of (?P<stated>k/k \+ 1) could be achieved"),
    ("theorem_6_c_for_n4", "Theorem 6",
     r"Then \*C\* is at least (?P<stated>\w+), because of N = 4"),
    ("views_seen_by_an_agent", "5.2.1",
     r"an agent can see \$(?P<stated>N - 1\^M)\$ possible combinations"),
    ("n5_minimum_chains", "5.3.2", r"must at least be developed is equal to (?P<stated>\w+)\."),
    ("n5_possibilities", "5.3.2", r"(?P<stated>\d\.\d+E \+ \d+) number of possibilities"),
]


def _number(stated: str) -> float | None:
    """The number a stated value spells ('531,441', 'eight', '6.0108039E + 8'); None: a formula."""
    text = stated.strip().lower().replace(",", "").replace(" ", "")
    if text in NUMBER_WORDS:
        return float(NUMBER_WORDS[text])
    try:
        return float(text)
    except ValueError:
        return None


def parse_claims(text: str) -> pd.DataFrame:
    """Numbers and formulas the thesis states in its prose, each with the words it comes from."""
    text = _text(text)
    rows = []
    for claim, section, pattern in CLAIM_PATTERNS:
        found = re.search(pattern, text)
        if found is None:
            raise ValueError(f"thesis claim {claim!r} not found in the text")
        groups = found.groupdict()
        rows.append({"claim": claim, "section": section, "quote": found[0],
                     "stated": groups["stated"], "stated_number": _number(groups["stated"]),
                     "expression": groups.get("expr") or ""})
    return pd.DataFrame(rows)


def evaluate_expression(expression: str) -> int:
    """Evaluate one of the thesis's formulas exactly as written: '(2+1)^{(2^{(3-1)})}' -> 81."""
    source = checks.text(expression, "expression")[:1000]
    source = source.replace(",", "").replace("{", "(").replace("}", ")").replace("^", "**")
    try:
        tree = ast.parse(source, mode="eval")
        return _arithmetic(tree.body)
    except (SyntaxError, RecursionError, MemoryError) as err:
        raise ValueError(f"not a plain arithmetic formula: {expression!r}") from err


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Pow: operator.pow}


def _arithmetic(node: ast.AST) -> int:
    """The value of +, -, * and ** over integer literals; powers too large are refused."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if not (isinstance(node, ast.BinOp) and type(node.op) in _OPS):
        raise ValueError(f"not a plain arithmetic formula: {ast.unparse(node)!r}")
    left, right = _arithmetic(node.left), _arithmetic(node.right)
    too_big = isinstance(node.op, ast.Pow) and abs(left).bit_length() * right > MAX_POWER_BITS
    if isinstance(node.op, ast.Pow) and (right < 0 or too_big):
        raise ValueError(f"the power {left}**{right} is negative or has more than {MAX_POWER_BITS} "
                         "binary digits")
    if abs(left).bit_length() + abs(right).bit_length() > 2 * MAX_POWER_BITS:
        raise ValueError("the formula's numbers are too large")
    return _OPS[type(node.op)](left, right)


# --- which order of views do the thesis's strings use? ------------------------------------------

VIEW_ORDERS = {
    "R<B, lower agent first": (False, False),
    "R<B, higher agent first": (False, True),
    "B<R, lower agent first": (True, False),
    "B<R, higher agent first": (True, True),
}


def view_order(n_players: int, order: str) -> list[tuple[int, ...]]:
    """The views (tuples of colour indices, R = 0, B = 1) in the order a candidate reading lists."""
    n = checks.integer(n_players, "n_players", low=2, high=16)
    order = checks.choice(order, "order", list(VIEW_ORDERS))
    blue_first, reverse = VIEW_ORDERS[order]
    out = []
    for digits in itertools.product(range(2), repeat=n - 1):
        v = tuple(1 - d for d in digits) if blue_first else digits
        out.append(tuple(reversed(v)) if reverse else v)
    return out


def to_our_order(strategy: str, n_players: int, order: str) -> str:
    """Re-index a thesis strategy string from a candidate view order into ours (Table 5.4's)."""
    strategy = checks.text(strategy, "strategy")
    views = view_order(n_players, order)
    if len(strategy) != len(views):
        raise ValueError(f"strategy {strategy!r} needs {len(views)} letters, one per view")
    out = ["P"] * len(strategy)
    for letter, view in zip(strategy, views, strict=True):
        out[round_index(view, 2)] = letter
    return "".join(out)


def evaluate_thesis_deals(table: pd.DataFrame, n_players: int, order: str) -> pd.DataFrame:
    """Won rounds and maximality of each readable deal of a parsed thesis table, in a view order."""
    _deal_table(table, n_players)
    maximal = set(maximal_won_masks(n_players))
    rows = []
    for rec in table.to_dict("records"):
        row = {"deal": rec["deal"], "claim": rec["claim"], "status": rec["status"]}
        if rec["status"] == "garbled":
            rows.append(row | {"won": None, "percent": None, "maximal": None, "lost_rounds": ""})
            continue
        deal = [to_our_order(rec[f"agent{a}"], n_players, order) for a in range(1, n_players + 1)]
        won = evaluate(deal)
        mask = to_mask(won, n_players)
        lost = sorted(set(rounds(n_players, 2)) - won)
        rows.append(row | {
            "won": len(won),
            "percent": 100 * len(won) / 2**n_players,
            "maximal": mask in maximal,
            "lost_rounds": " ".join(round_to_string(r) for r in lost),
        })
    return pd.DataFrame(rows)


def four_agent_deals(table: pd.DataFrame, order: str) -> pd.DataFrame:
    """Every deal of Tables 5.5-5.8 in the thesis's notation: what it wins, whether it is ours.

    `deal strings` are the four agents' strategies as the thesis prints them (view order `order`);
    `our deal` says whether they are exactly our canonical deal of the won set (also in `order`).
    """
    _deal_table(table, 4, ("table",))
    maximal = set(maximal_won_masks(4))
    rows = []
    for rec in table.to_dict("records"):
        strings = [rec[f"agent{a}"] for a in range(1, 5)]
        row = {"table": rec["table"], "deal": rec["deal"], "deal strings": " ".join(strings),
               "read": rec["status"], "claim": rec["claim"], "won": None, "percent": "",
               "maximal": None, "our deal": None}
        if rec["status"] != "garbled":
            won = to_mask(evaluate([to_our_order(x, 4, order) for x in strings]), 4)
            ours = [from_our_order(x, 4, order) for x in deal_to_strings(canonical_deal(won, 4))]
            row |= {"won": won.bit_count(), "percent": f"{100 * won.bit_count() / 16:g}%",
                    "maximal": won in maximal, "our deal": ours == strings}
        rows.append(row)
    out = pd.DataFrame(rows)
    out["won"] = out["won"].astype("Int64")
    return out


def _deal_table(table: object, n_players: int, extra: tuple[str, ...] = ()) -> None:
    """A parsed deal table of the thesis (deal, claim, status, agent1..agentN columns)."""
    n = checks.integer(n_players, "n_players", low=2, high=5)
    if not isinstance(table, pd.DataFrame):
        raise checks.ArgumentTypeError(f"table must be a DataFrame of thesis deals, got {table!r}")
    need = ["deal", "claim", "status", *extra] + [f"agent{a}" for a in range(1, n + 1)]
    missing = [c for c in need if c not in table.columns]
    if missing:
        raise ValueError(f"table lacks the columns {missing}")


def from_our_order(strategy: str, n_players: int, order: str) -> str:
    """Inverse of `to_our_order`: write one of our strategy strings in a candidate view order."""
    strategy = checks.text(strategy, "strategy")
    views = view_order(n_players, order)
    if len(strategy) != len(views):
        raise ValueError(f"strategy {strategy!r} needs {len(views)} letters, one per view")
    return "".join(strategy[round_index(view, 2)] for view in view_order(n_players, order))


def theorem_6(n_players: int, n_colors: int = 2) -> int:
    """The thesis's Theorem 6 formula for the most correct rounds: floor(M**N / (N + 1)) * N."""
    n_players = checks.integer(n_players, "n_players", low=1, high=1024)
    n_colors = checks.integer(n_colors, "n_colors", low=2, high=len("RBGYOCKW"))
    return (n_colors**n_players // (n_players + 1)) * n_players
