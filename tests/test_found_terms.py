"""Every term of a page's opening is introduced before or where it is first used (issue 38, item 5).

A page's opening is what a newcomer reads first: the introduction and "What we found" (for a
puzzle notebook, the Markdown up to the `##` section after "What we found"; for the overview
notebook `index`, the whole page). Each term it uses is introduced by a short gloss in the same
sentence, or a link to the section defining it, and that introducing occurrence is marked with
the HTML element `<dfn>`. The check reads the committed notebooks' Markdown (no site build):
for every term of GLOSSARY, the first occurrence on the page (the page title left out) lies
inside or after the first `<dfn>` that holds it, and that `<dfn>` lies in the opening.

A term matches case-insensitively as a whole word, with an optional plural "s"/"es", a space in
it matching spaces or hyphens ("theory of mind" = "theory-of-mind"). A one-letter term is a
symbol: it matches, case-sensitively, only inside mathematics ($…$), where symbols live.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

GLOSSARY: dict[str, tuple[str, ...]] = {  # notebook -> the terms its opening uses
    "russian_cards": ("a", "b", "c", "n", "size", "informative", "safe", "solvable", "report",
                      "verifier", "lemma", "CP-SAT", "open", "(x, x, x - 1)"),
    "codebreaking": ("codemaker", "codebreaker", "worst case", "total", "average", "thesis", "p",
                     "c", "Knuth", "greedy rule", "Irving", "Neuwirth", "Kooi",
                     "Black-peg Mastermind", "Bulls and Cows", "counterfeit coin", "w", "n",
                     "clause"),
    "kemps": ("report", "n", "knowledge base", "Greedy", "KB Greedy", "Blocking", "Bold+ToM",
              "bold", "theory of mind", "line-up", "seat", "self-play", "deal",
              "proven stalemate"),
    "hanabi": ("hint", "group", "partition", "sure", "k", "post", "table", "certifies",
               "set packing", "card counting", "information strategy", "hat strategy", "M",
               "InfoBot"),
    "hats": ("N", "M", "round", "won", "deal", "won set", "maximal", "thesis", "neighbour",
             "covering code", "Chain-Method", "parity deal", "view"),
    "index": ("world", "informative", "safe", "round", "knowledge base", "hat guess", "InfoBot",
              "n", "a", "b", "c", "size", "witness", "lemma", "construction", "CP-SAT", "N", "M",
              "line-up", "Greedy", "report", "KB Greedy", "Blocking", "Bold+ToM", "sure", "k"),
}

DFN = re.compile(r"<dfn>(.*?)</dfn>", re.S)
MATH = re.compile(r"\$\$.+?\$\$|\$.+?\$", re.S)
TITLE = re.compile(r"^# .*$", re.M)
LINK_TARGET = re.compile(r"\]\([^)\s]*\)")
H2 = re.compile(r"^## +(.*?)\s*$", re.M)


def page_text(cells: list[dict]) -> str:
    """A page's Markdown, cells in order, without its title line and link targets."""
    text = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return LINK_TARGET.sub("]", TITLE.sub("", text))


def opening_end(text: str) -> int:
    """Where the opening ends: the `##` heading after "What we found", or the page's end."""
    found = [m for m in H2.finditer(text)]
    after = [i for i, m in enumerate(found) if m.group(1) == "What we found"]
    if not after or after[0] + 1 == len(found):
        return len(text)
    return found[after[0] + 1].start()


def occurrences(term: str, text: str) -> list[int]:
    """Where a term occurs in a text (symbols: inside mathematics only)."""
    if len(term) == 1 and term.isalpha():
        symbol = re.compile(rf"(?<![A-Za-z\\]){term}(?![A-Za-z])")
        return sorted(m.start() + s.start() for m in MATH.finditer(text)
                      for s in symbol.finditer(m.group(0)))
    body = r"[\s-]+".join(re.escape(part) for part in term.split())
    return [m.start() for m in re.finditer(rf"(?i)(?<!\w){body}(?:s|es)?(?!\w)", text)]


def problems(text: str, terms: tuple[str, ...]) -> list[str]:
    """What is wrong with the introduction of each term on a page (empty: nothing)."""
    end, found = opening_end(text), []
    dfns = list(DFN.finditer(text))
    for term in terms:
        used = occurrences(term, text)
        holding = [d for d in dfns if occurrences(term, d.group(1))]
        if not used or used[0] >= end:
            found.append(f"{term!r} is not used in the opening (drop it from the glossary)")
        elif not holding or holding[0].start() >= end:
            found.append(f"{term!r} has no <dfn> in the opening")
        elif used[0] < holding[0].start():
            context = " ".join(text[max(0, used[0] - 40):used[0] + 40].split())
            found.append(f"{term!r} is used before its <dfn>: …{context}…")
    for d in dfns:
        if not any(occurrences(term, d.group(1)) for term in terms):
            found.append(f"<dfn>{d.group(1)}</dfn> introduces no term of the glossary")
    return found


@pytest.mark.parametrize("name", sorted(GLOSSARY))
def test_every_term_of_the_opening_is_introduced_where_first_used(name):
    cells = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]
    assert not problems(page_text(cells), GLOSSARY[name]), \
        f"{name}.ipynb:\n" + "\n".join(problems(page_text(cells), GLOSSARY[name]))


def test_glossary_covers_every_puzzle_notebook():
    names = {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert names == set(GLOSSARY), f"notebooks without a glossary: {names - set(GLOSSARY)}"


def md(*sources: str) -> list[dict]:
    return [{"cell_type": "markdown", "source": s} for s in sources]


def test_a_term_used_before_its_dfn_is_reported():
    early = page_text(md("# Title\n\nThe verifier accepts it.",
                         "## What we found\n\nA <dfn>verifier</dfn> (a check) passes.",
                         "## Next\n\nMore."))
    reported = problems(early, ("verifier",))
    assert len(reported) == 1 and reported[0].startswith("'verifier' is used before its <dfn>")
    fine = page_text(md("# The verifier\n\nA <dfn>Verifiers</dfn> (checks) pass.",
                        "## What we found\n\nThe verifier passes.", "## Next\n\nverifier"))
    assert problems(fine, ("verifier",)) == []  # the title does not count; case and plural match


def test_a_symbol_counts_only_inside_mathematics():
    text = page_text(md("## What we found\n\nWith N players ($\\binom{N}{2}$ pairs), "
                        "<dfn>$N$</dfn> players.", "## Next"))
    assert problems(text, ("N",))[0].startswith("'N' is used before its <dfn>")
    text = page_text(md("## What we found\n\nN players, <dfn>$N$</dfn> players, $\\Nu + N^2$.",
                        "## Next"))
    assert problems(text, ("N",)) == []


def test_missing_stale_and_late_dfns_are_reported():
    text = page_text(md("## What we found\n\nThe witness and <dfn>open</dfn> sizes.",
                        "## Next\n\nA <dfn>witness</dfn> is an announcement."))
    assert problems(text, ("witness", "open", "lemma")) == [
        "'witness' has no <dfn> in the opening",
        "'lemma' is not used in the opening (drop it from the glossary)",
    ]
    assert problems(text, ("open",)) == [
        "<dfn>witness</dfn> introduces no term of the glossary"]
