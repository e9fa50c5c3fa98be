"""Read the thesis's tables out of its text extraction (shared/sources/004_de608af7352f040c.txt).

Nothing here is a number we rely on: these functions only *read* what the thesis states (its
deals, chains and predictions), so that the notebook can evaluate and compare them. The text
extraction garbles some cells (braces read as '1', ']' or 'J', a letter lost, lowercase); every
cell records how it was read: 'clean', 'repaired' (a stray brace character stripped, or an
all-pass string one 'P' short) or 'garbled' (not evaluated).
"""

from __future__ import annotations

import re

import pandas as pd

from ..cache import cached_source_table

SOURCE_NAME = "004_de608af7352f040c.txt"


def _block(text: str, header: str, caption: str) -> list[str]:
    """Lines strictly between the line starting with `header` and the next line starting with `caption`."""
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(header))
    stop = next(k for k in range(start + 1, len(lines)) if lines[k].startswith(caption))
    return [line for line in lines[start + 1 : stop] if line.strip()]


def read_cell(raw: str, length: int, letters: str = "RBP") -> tuple[str, str]:
    """One strategy cell -> (letters, status) with status 'clean', 'repaired' or 'garbled'."""
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
            rows.append({"chain": len(rows) + 1, "correct": " ".join(m.groups()[:3]), "incorrect": m[4]})
    return pd.DataFrame(rows)


def parse_figure_5_1(text: str) -> pd.DataFrame:
    """Figure 5.1 (N = 3 deals written view by view, 'RR = B'): one row per deal, agent and view."""
    rows, current = [], [None, None]
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
                    rows.append({"deal": current[half], "agent": agent, "view": m[1], "guess": m[2]})
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
        row["status"] = "garbled" if "garbled" in statuses else ("repaired" if "repaired" in statuses else "clean")
        rows.append(row)
    return rows


def parse_table_5_2(text: str) -> pd.DataFrame:
    """Table 5.2: the N = 3 maximal deals in string notation."""
    lines = _block(text, "Deal\tAgent 1\tAgent 2\tAgent 3", "Table 5.2")
    return pd.DataFrame(_deal_rows(lines, 3, "maximal", 1))


def parse_four_agent_tables(text: str) -> pd.DataFrame:
    """Tables 5.5-5.8: the N = 4 maximal deals, with each table's claimed percentage correct."""
    out: list[dict] = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if not line.startswith("Deal Number\tAgent 1"):
            continue
        stop = next(j for j in range(k + 1, len(lines)) if lines[j].startswith("Table 5."))
        caption = lines[stop]
        claim = re.search(r"(\d+(?:,\d+)?)\s*%", caption)[1].replace(",", ".")
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
        n, best, pct = line.split("\t")
        rows.append({"n_players": int(n), "thesis_max_correct": int(best), "thesis_percentage": pct.strip()})
    return pd.DataFrame(rows)


NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}

# (claim, section, pattern): group "stated" is the thesis's wording, optional group "expr" an expression
CLAIM_PATTERNS = [
    ("theorem_2_deals", "Theorem 2", r"\$\$Deals = (?P<expr>\(2\+1\)\^\{\(2\^\{\(3-1\)\}\)\}) = (?P<stated>[\d,]+)\$\$"),
    ("thoughts", "Theorem 2", r"Thoughts = (?P<expr>531,441 \* 8 \* 3) = (?P<stated>[\d,]+)"),
    ("corollary_1_maximal_deals", "Corollary 1", r"only (?P<stated>\d+) of these Deals are found to be maximal"),
    ("ebert_win_rate", "Chapter 3", r"a win rate of (?P<stated>k/k \+ 1) could be achieved"),
    ("theorem_6_c_for_n4", "Theorem 6", r"Then \*C\* is at least (?P<stated>\w+), because of N = 4"),
    ("views_seen_by_an_agent", "5.2.1", r"an agent can see \$(?P<stated>N - 1\^M)\$ possible combinations"),
    ("n5_minimum_chains", "5.3.2", r"must at least be developed is equal to (?P<stated>\w+)\."),
    ("n5_possibilities", "5.3.2", r"(?P<stated>\d\.\d+E \+ \d+) number of possibilities"),
]


def _number(stated: str) -> float | None:
    """The number a stated value spells: '531,441', 'eight', '6.0108039E + 8'; None for a formula."""
    text = stated.strip().lower().replace(",", "").replace(" ", "")
    if text in NUMBER_WORDS:
        return float(NUMBER_WORDS[text])
    try:
        return float(text)
    except ValueError:
        return None


def parse_claims(text: str) -> pd.DataFrame:
    """Numbers and formulas the thesis states in its prose, each with the sentence part it comes from."""
    rows = []
    for claim, section, pattern in CLAIM_PATTERNS:
        found = re.search(pattern, text)
        if found is None:
            raise ValueError(f"thesis claim {claim!r} not found in the text")
        groups = found.groupdict()
        rows.append({"claim": claim, "section": section, "quote": found[0], "stated": groups["stated"],
                     "stated_number": _number(groups["stated"]), "expression": groups.get("expr") or ""})
    return pd.DataFrame(rows)


def evaluate_expression(expression: str) -> int:
    """Evaluate one of the thesis's arithmetic formulas exactly as written: '(2+1)^{(2^{(3-1)})}' -> 81."""
    import ast
    import operator

    source = expression.replace(",", "").replace("{", "(").replace("}", ")").replace("^", "**")
    ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Pow: operator.pow}

    def value(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            return ops[type(node.op)](value(node.left), value(node.right))
        raise ValueError(f"not a plain arithmetic formula: {expression!r}")

    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as err:
        raise ValueError(f"not a plain arithmetic formula: {expression!r}") from err
    return value(tree.body)


# --- cached copies (the notebook reads these; they need the source only when recomputed) -------


def thesis_table(name: str) -> pd.DataFrame:
    """One parsed table, cached as data/hats_thesis_<name>.csv."""
    parsers = {
        "table_4_1": parse_table_4_1,
        "figure_5_1": parse_figure_5_1,
        "table_5_2": parse_table_5_2,
        "tables_5_5_to_5_8": parse_four_agent_tables,
        "table_5_3": parse_table_5_3,
        "claims": parse_claims,
    }
    if name not in parsers:
        raise ValueError(f"unknown thesis table {name!r}; choose from {sorted(parsers)}")
    return cached_source_table(f"hats_thesis_{name}", SOURCE_NAME, parsers[name])


# --- which order of views do the thesis's strings use? ------------------------------------------

VIEW_ORDERS = {
    "R<B, lower agent first": (False, False),
    "R<B, higher agent first": (False, True),
    "B<R, lower agent first": (True, False),
    "B<R, higher agent first": (True, True),
}


def view_order(n_players: int, order: str) -> list[tuple[int, ...]]:
    """The views (tuples of colour indices, R = 0, B = 1) in the order a candidate reading lists them."""
    import itertools

    if order not in VIEW_ORDERS:
        raise ValueError(f"unknown view order {order!r}; choose from {list(VIEW_ORDERS)}")
    blue_first, reverse = VIEW_ORDERS[order]
    out = []
    for digits in itertools.product(range(2), repeat=n_players - 1):
        v = tuple(1 - d for d in digits) if blue_first else digits
        out.append(tuple(reversed(v)) if reverse else v)
    return out


def to_our_order(strategy: str, n_players: int, order: str) -> str:
    """Re-index a thesis strategy string from a candidate view order into ours (Table 5.4's)."""
    from .model import round_index

    out = ["P"] * len(strategy)
    for letter, view in zip(strategy, view_order(n_players, order), strict=True):
        out[round_index(view, 2)] = letter
    return "".join(out)


def evaluate_thesis_deals(table: pd.DataFrame, n_players: int, order: str) -> pd.DataFrame:
    """Won rounds and maximality of every readable deal in a parsed thesis table, under a view order."""
    from .model import evaluate, round_to_string
    from .sets import maximal_won_masks, to_mask

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
        lost = sorted(set(_all_rounds(n_players)) - won)
        rows.append(row | {
            "won": len(won),
            "percent": 100 * len(won) / 2**n_players,
            "maximal": mask in maximal,
            "lost_rounds": " ".join(round_to_string(r) for r in lost),
        })
    return pd.DataFrame(rows)


def four_agent_deals(table: pd.DataFrame, order: str) -> pd.DataFrame:
    """Every deal of Tables 5.5-5.8 in the thesis's notation, with what it wins and whether it is ours.

    `deal strings` are the four agents' strategies as the thesis prints them (view order `order`);
    `our deal` says whether they are exactly our canonical deal of the won set (also in `order`).
    """
    from .model import deal_to_strings, evaluate
    from .sets import canonical_deal, maximal_won_masks, to_mask

    maximal = set(maximal_won_masks(4))
    rows = []
    for rec in table.to_dict("records"):
        strings = [rec[f"agent{a}"] for a in range(1, 5)]
        row = {"table": rec["table"], "deal": rec["deal"], "deal strings": " ".join(strings),
               "read": rec["status"], "claim": rec["claim"], "won": None, "percent": "", "maximal": None,
               "our deal": None}
        if rec["status"] != "garbled":
            won = to_mask(evaluate([to_our_order(x, 4, order) for x in strings]), 4)
            ours = [from_our_order(x, 4, order) for x in deal_to_strings(canonical_deal(won, 4))]
            row |= {"won": won.bit_count(), "percent": f"{100 * won.bit_count() / 16:g}%",
                    "maximal": won in maximal, "our deal": ours == strings}
        rows.append(row)
    out = pd.DataFrame(rows)
    out["won"] = out["won"].astype("Int64")
    return out


def _all_rounds(n_players: int):
    from .model import rounds

    return rounds(n_players, 2)


def from_our_order(strategy: str, n_players: int, order: str) -> str:
    """Inverse of `to_our_order`: write one of our strategy strings in a candidate view order."""
    from .model import round_index

    return "".join(strategy[round_index(view, 2)] for view in view_order(n_players, order))


def theorem_6(n_players: int, n_colors: int = 2) -> int:
    """The thesis's Theorem 6 formula for the most correct rounds: floor(M**N / (N + 1)) * N."""
    return (n_colors**n_players // (n_players + 1)) * n_players
