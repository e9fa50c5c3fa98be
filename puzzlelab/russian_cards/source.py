"""What the report states, read from its text, and the rule variants it describes.

Source: group11_rc (the student report; its text extraction is found through `puzzlelab.sources`).
Nothing here is a number we rely on: the readers below only *read* what the report prints (its
appendix views, its c = 1 table) so that the notebook can compare them with our computation,
and the rule variants implement the report's wording (§3) so that its claims can be checked.

* :func:`parse_appendix` — the appendix (output of ``dfs_approach.py 3 3 1``). The extraction
  set it in two columns (Bill's hands 0-12 on the left, 13-27 on the right, interleaved line by
  line); we split the block by indentation, then read each "Possible hand of X i: [...]" line
  with the hands that follow it (LaTeX matrices included: only the numbers matter).
* :func:`c1_table_cells` — the table "a against b, c = 1" of §4: clean rows, and the pieces of
  a garbled row ("3 N Y Y Y Y", ...) with the row label each carries.
* :func:`weak_rule1_options` — Cath's reasoning when Anne only promises that each decoy shares
  at most a - c - 1 cards with her *true* hand (the rule the report rejects in §3).
* :func:`rule2_as_stated`, :func:`rule2_deduplicated` — Rule 2 in the report's words, and with
  the duplicated "card absent" requirements merged into one per (c+1)-set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import combinations
from math import comb

import pandas as pd

from .. import checks
from ..bitsets import from_bits
from .model import (
    Hand, all_hands, check_announcement, check_hand, check_sizes, hands_within_budget,
    subset_masks,
)

__all__ = [
    "SOURCE", "c1_table_cells", "harmful_decoy", "owners_learned", "parse_appendix",
    "rule2_as_stated", "rule2_deduplicated", "weak_rule1_options",
]

SOURCE = "group11_rc"  # the citation key of the report (puzzlelab.sources)
COLUMN = 20  # lines of the appendix block indented this much or more belong to the right column
HEADER = re.compile(r"Possible hand of ([BC]) (\d+):\s*\[([\d,\s]*)\]")


# -- the appendix ------------------------------------------------------------------------------
def appendix_in_reading_order(text: str) -> str:
    """The appendix with its two-column code block put back in order (left column, then right)."""
    if "## **Appendix**" not in checks.text(text, "text"):
        raise ValueError("the text has no '## **Appendix**' section")
    app = text[text.index("## **Appendix**"):]
    i = app.find("```")
    j = app.find("```", i + 3)
    if i < 0 or j < 0:
        raise ValueError("the appendix has no ``` code block")
    block = [line for line in app[i + 3:j].splitlines() if line.strip()]
    indent = [len(line) - len(line.lstrip()) for line in block]
    left = [line.strip() for line, d in zip(block, indent) if d < COLUMN]
    right = [line.strip() for line, d in zip(block, indent) if d >= COLUMN]
    return "\n".join([*left, *right, app[j + 3:]])


def _hands(chunk: str, a: int) -> tuple[list[Hand], bool]:
    """The a-card hands written in a piece of text (numbers in groups of a); False if not whole."""
    nums = [int(q) for q in re.findall(r"\d+", chunk)]
    if len(nums) % a:
        return [], False
    return [tuple(nums[i:i + a]) for i in range(0, len(nums), a)], True


def _digits(hands: Iterable[Hand]) -> str:
    """Hands written as the report prints them: '012 034 ...'."""
    return " ".join("".join(map(str, h)) for h in hands)


def parse_appendix(text: str, a: int = 3) -> pd.DataFrame:
    """Every appendix line: the announcement, then each Bill or Cath hand with Anne's options.

    Columns: who ('announcement', 'B' or 'C'), index (the report's number), holds (as printed,
    '[0, 1, 2]'), report (hands as '012 034 ...', or 'no options left'), readable (numbers
    grouped into whole hands).
    """
    a = checks.integer(a, "a", low=1)
    body = appendix_in_reading_order(text)
    heads = list(HEADER.finditer(body))
    if not heads:
        raise ValueError("no 'Possible hand of ...' line in the appendix")
    start = body.find("solution found!")
    announced = body[start + len("solution found!"):heads[0].start()]
    ann, ok = _hands(announced.replace("(dfs approach)", ""), a)
    rows = [dict(who="announcement", index=0, holds="", report=_digits(ann),
                 readable=ok and start >= 0)]
    for m, nxt in zip(heads, [*heads[1:], None]):
        chunk = body[m.end(): nxt.start() if nxt else len(body)]
        hands, ok = _hands(chunk, a)
        held = "[" + ", ".join(re.findall(r"\d+", m.group(3))) + "]"
        text_opts = _digits(hands)
        if not hands and "no options left" in chunk:
            text_opts = "no options left"
        rows.append(dict(who=m.group(1), index=int(m.group(2)), holds=held, report=text_opts,
                         readable=ok and bool(text_opts)))
    return pd.DataFrame(rows)


# -- the c = 1 table of §4 ---------------------------------------------------------------------
def parse_c1_table(text: str) -> tuple[list[int], dict[int, list[str]], dict[int, str]]:
    """The table 'a against b' (c = 1): columns, clean rows (Y/N per column), garbled rows."""
    lines = checks.text(text, "text").splitlines()
    k = next((i for i, line in enumerate(lines) if "setminus n_b" in line), None)
    if k is None:
        raise ValueError("the c = 1 table (header 'n_a \\setminus n_b') is not in the text")
    cols = [int(v) for v in lines[k].split("\t")[1:]]
    clean, garbled = {}, {}
    for line in lines[k + 1:]:
        if not line.strip():
            break
        label, *cells = line.replace("\u039d", "N").split("\t")  # a Greek capital Nu read for N
        if len(cells) == len(cols) and all(c.strip() in ("Y", "N") for c in cells):
            clean[int(label)] = [c.strip() for c in cells]
        else:
            garbled[int(label)] = line.replace("\u039d", "N")
    return cols, clean, garbled


def fragments(raw: str, width: int) -> list[tuple[int, list[str]]]:
    """Pieces 'r Y N ...' (a row label and `width` Y/N values) inside a garbled table row."""
    pat = re.compile(r"(\d+)((?:\s+[YN]){%d})(?![\w])" % width)
    return [(int(m.group(1)), m.group(2).split()) for m in pat.finditer(raw)]


# -- Rule 1 as the report first states it (each decoy against Anne's true hand) ---------------
def weak_rule1_options(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int, cath: Iterable[int],
) -> list[Hand]:
    """Hands Cath (holding `cath`) keeps when Anne only promises that every decoy shares at
    most a - c - 1 cards with her true hand: a hand clashing with another announced hand cannot
    be the true one, so Cath crosses off both (group11_rc §3, Rule 1's rationale)."""
    n = check_sizes(a, b, c)
    L = check_announcement(announcement, a, b, c)
    x = set(_cath(cath, c, n))
    k = a - c - 1
    return [h for h in L
            if not set(h) & x and all(len(set(h) & set(g)) <= k for g in L if g != h)]


def _cath(cath: Iterable[int], c: int, n: int) -> Hand:
    """Validate Cath's hand (c distinct cards of 0..n-1)."""
    if isinstance(cath, (str, bytes)) or not isinstance(cath, Iterable):
        raise checks.ArgumentTypeError(f"Cath's hand must be a collection of cards, got {cath!r}")
    given = checks.integers(list(cath), "a card of Cath's")
    x = tuple(sorted(set(given)))
    if len(x) != c or len(given) != c or not all(0 <= q < n for q in x):
        raise ValueError(f"Cath's hand must be {c} distinct cards of 0..{n - 1}, got {given}")
    return x


def owners_learned(options: Sequence[Hand], cath: Iterable[int], n: int) -> dict[int, str]:
    """Cards (outside Cath's hand) whose owner Cath knows from her remaining options."""
    n = checks.integer(n, "n", low=1, high=10_000)
    held = set(checks.integers(cath, "cath", low=0, high=n - 1))
    if isinstance(options, (str, bytes)) or not isinstance(options, Iterable):
        raise checks.ArgumentTypeError(f"options must be a collection of hands, got {options!r}")
    kept = [set(checks.integers(h, "a hand of options")) for h in options]
    if not kept:
        return {}
    out = {}
    for q in sorted(set(range(n)) - held):
        inside = [q in h for h in kept]
        if all(inside):
            out[q] = "Anne"
        elif not any(inside):
            out[q] = "Bill"
    return out


def harmful_decoy(
    announcement: Iterable[Iterable[int]], a: int, b: int, c: int, anne: Iterable[int],
) -> dict | None:
    """The first extra decoy (lexicographic) allowed by the weak Rule 1 that lets some Cath, in a
    deal consistent with Anne's hand, learn a card she did not know before (None if none)."""
    n = check_sizes(a, b, c)
    base = list(check_announcement(announcement, a, b, c, anne))
    anne = check_hand(anne, a, b, c)
    checks.within_budget(f"trying every decoy against every Cath hand for {(a, b, c)}",
                         comb(n, a) * comb(n - a, c) * len(base), 10**6, unit="checks")
    for extra in all_hands(n, a):
        if extra in base or len(set(extra) & set(anne)) > a - c - 1:
            continue
        bigger = sorted([*base, extra])
        for cath in combinations(sorted(set(range(n)) - set(anne)), c):
            before = weak_rule1_options(base, a, b, c, cath)
            after = weak_rule1_options(bigger, a, b, c, cath)
            learned = owners_learned(after, cath, n)
            if learned and not owners_learned(before, cath, n):
                return dict(decoy=extra, cath=cath, before=before, after=after, learned=learned)
    return None


# -- Rule 2 in the report's words, and deduplicated --------------------------------------------
def _masks(announcement: Iterable[Iterable[int]], a: int, b: int, c: int) -> list[int]:
    """The announcement's hands as bit masks, after validation and a size check."""
    n = hands_within_budget(a, b, c, "Rule 2")
    L = check_announcement(announcement, a, b, c)
    checks.within_budget(f"Rule 2 over C({n},{c}) c-sets", comb(n, c) * n * len(L), 10**7,
                         unit="checks")
    return [from_bits(h) for h in L]


def rule2_as_stated(announcement: Iterable[Iterable[int]], a: int, b: int, c: int) -> bool:
    """Rule 2 in the words of group11_rc §3: for every c-set and card y outside it, some hand
    avoiding the set contains y, and some hand avoiding the set misses y."""
    L, n = _masks(announcement, a, b, c), a + b + c
    for x in subset_masks(n, c):
        avoid = [h for h in L if not h & x]
        for y in range(n):
            if x >> y & 1:
                continue
            if not any(h >> y & 1 for h in avoid) or all(h >> y & 1 for h in avoid):
                return False
    return True


def rule2_deduplicated(announcement: Iterable[Iterable[int]], a: int, b: int, c: int) -> bool:
    """Rule 2 with the report's duplicates merged (§3: 'Cath holds 67, card 0' and 'Cath holds
    06, card 7' ask for the same hand): every (c+1)-set is avoided by some hand, and for every
    c-set X and card y outside X some hand avoiding X contains y."""
    L, n = _masks(announcement, a, b, c), a + b + c
    if not all(any(not h & z for h in L) for z in subset_masks(n, c + 1)):
        return False
    return all(any(not h & x and h >> y & 1 for h in L)
               for x in subset_masks(n, c) for y in range(n) if not x >> y & 1)


def c1_table_cells(text: str) -> pd.DataFrame:
    """The c = 1 table, one row per (reading, cell): clean rows, the single readable cells of a
    garbled row, and every labelled piece ('3 N Y Y Y Y') found inside a garbled row.

    Columns: kind, row (the table row it was printed in), label (the row it claims), b, value.
    """
    cols, clean, garbled = parse_c1_table(text)
    out = [dict(kind="clean row", row=a, label=a, b=b, value=v)
           for a, vals in clean.items() for b, v in zip(cols, vals)]
    for a, raw in garbled.items():
        cells = raw.split("\t")[1:]
        out += [dict(kind="garbled row, single cell", row=a, label=a, b=b, value=v.strip())
                for b, v in zip(cols, cells) if v.strip() in ("Y", "N")]
        out += [dict(kind="piece of a garbled row", row=a, label=lab, b=b, value=v)
                for lab, vals in fragments(raw, len(cols)) for b, v in zip(cols, vals)]
    return pd.DataFrame(out)
