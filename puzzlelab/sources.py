"""The works puzzlelab reproduces or compares with, each under a short citation key.

The five source documents (text extractions kept in `shared/sources/`, see `paths`) and the
outside results the notebooks check against. Docstrings and notebooks cite by key
(`cite("janssen2017")` -> "Janssen (2017)") or by author and year, never by a file name.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from . import checks

__all__ = ["REFERENCES", "SOURCE_DOCUMENTS", "NOTEBOOK_SOURCES", "Reference", "cite", "cite_link",
           "reference", "references_table", "source_of_notebook", "bibliography_markdown"]


@dataclass(frozen=True)
class Reference:
    """One cited work: who, what, when, where; `file` is set for the five source documents."""

    key: str
    authors: str
    title: str
    year: str
    venue: str
    file: str | None = None
    url: str | None = None

    def __post_init__(self) -> None:
        checks.record(self)

    @property
    def short(self) -> str:
        """Author-year form: 'Janssen (2017)'."""
        return f"{self.authors} ({self.year})"


_SOURCES = (
    Reference("group11_rc", "Group 11", "The Russian Cards problem (project report)", "n.d.",
              "student project report, undated", file="000_0345cfe31a1e6c99.txt"),
    Reference("klimos2014", "Klimoš", "Algorithmic Analysis of Code Breaking Games", "2014",
              "master's thesis, Masaryk University, Brno", file="001_55441e2ad7b760b9.txt"),
    Reference("group6_kemps2023", "Group 6",
              "Modelling Kemps using public announcements and higher order knowledge", "2023",
              "student project report (Logical Aspects of Multiagent Systems), June 2023",
              file="002_dd5094b6dd5152ba.txt"),
    Reference("odwyer2018", "O'Dwyer", "Hanabi set-packing puzzle", "2018",
              "blog post, 9 April 2018", file="003_df98dedd51aa94b7.txt",
              url="https://quuxplusone.github.io/blog/2018/04/09/hanabi-set-packing/"),
    Reference("janssen2017", "Janssen", "The Leprechaun Hatting Problem", "2017",
              "bachelor thesis, LIACS, Leiden University", file="004_de608af7352f040c.txt"),
)

_OUTSIDE = (
    # code breaking
    Reference("knuth1977", "Knuth", "The computer as Master Mind", "1977",
              "J. Recreational Mathematics 9 (1976-77) 1-6"),
    Reference("irving1979", "Irving", "Towards an optimum Mastermind strategy", "1979",
              "J. Recreational Mathematics 11 (1978-79) 81-87"),
    Reference("neuwirth1982", "Neuwirth", "Some strategies for Mastermind", "1982",
              "Zeitschrift für Operations Research 26 (1982) B257-B278"),
    Reference("koyama_lai1993", "Koyama and Lai", "An optimal Mastermind strategy", "1993",
              "J. Recreational Mathematics 25 (1993) 251-256"),
    Reference("kooi2005", "Kooi", "Yet another Mastermind strategy", "2005",
              "ICGA Journal 28 (2005) 13-20"),
    Reference("chen_lin2004", "Chen and Lin",
              "Optimal algorithms for 2 × n Mastermind games — a graph-partition approach",
              "2004", "The Computer Journal 47(5) (2004) 602-611"),
    Reference("goddard2004", "Goddard", "Mastermind revisited", "2004",
              "J. Combinatorial Mathematics and Combinatorial Computing (2004)"),
    Reference("pokutta2011", "Pokutta", "Mastermind – five questions do suffice", "2011",
              "blog post, 29 December 2011 (quotes Goddard's table of r(n, k))"),
    Reference("ville2013", "Ville", "An optimal Mastermind (4,7) strategy and more results in "
              "the expected case", "2013", "arXiv:1305.1010 [cs.GT], March 2013",
              url="https://arxiv.org/abs/1305.1010"),
    Reference("dyson1946", "Dyson", "The problem of the pennies", "1946",
              "The Mathematical Gazette 30 (1946) 231-234"),
    # Hanabi
    Reference("karp1972", "Karp", "Reducibility among combinatorial problems", "1972",
              "Complexity of Computer Computations, Plenum Press (1972) 85-103"),
    Reference("cox2015", "Cox, De Silva, Deorsey, Kenter, Retter and Tobin",
              "How to make the perfect fireworks display: two strategies for Hanabi", "2015",
              "Mathematics Magazine 88(5) (2015) 323ff.; simulator HanSim (GitHub rjtobin/HanSim)"),
    Reference("wu2016", "Wu", "hanabi.rs: simulations of Hanabi strategies (information strategy)",
              "2016", "software, GitHub WuTheFWasThat/hanabi.rs; README results on the first "
              "20,000 seeds"),
    Reference("odwyer2019", "O'Dwyer", "A framework for writing bots that play Hanabi (InfoBot, "
              "SmartBot)", "2019", "software, GitHub Quuxplusone/Hanabi; README results"),
    # hats
    Reference("ebert1998", "Ebert", "Applications of recursive operators to randomness and "
              "complexity", "1998", "PhD thesis, University of California at Santa Barbara"),
    Reference("lenstra_seroussi2002", "Lenstra and Seroussi", "On hats and other covers", "2002",
              "IEEE International Symposium on Information Theory (ISIT 2002); arXiv:cs/0509045",
              url="https://arxiv.org/abs/cs/0509045"),
    Reference("van_wee1988", "van Wee", "Improved sphere bounds on the covering radius of codes",
              "1988", "IEEE Transactions on Information Theory 34 (1988) 237-245"),
    Reference("cohen1997", "Cohen, Honkala, Litsyn and Lobstein", "Covering Codes", "1997",
              "North-Holland Mathematical Library 54, Elsevier, Amsterdam (1997)"),
    Reference("kramer_mesner1976", "Kramer and Mesner", "t-designs on hypergraphs", "1976",
              "Discrete Mathematics 15 (1976) 263-296"),
    # Russian Cards
    Reference("van_ditmarsch2003", "van Ditmarsch", "The Russian cards problem", "2003",
              "Studia Logica 75 (2003) 31-62"),
    Reference("albert2005", "Albert, Aldred, Atkinson, van Ditmarsch and Handley",
              "Safe communication for card players by combinatorial designs for two-step "
              "protocols", "2005", "Australasian J. Combinatorics 33 (2005) 33-46"),
    Reference("cordon_franco2012", "Cordón-Franco, van Ditmarsch, Fernández-Duque, Joosten and "
              "Soler-Toscano", "A secure additive protocol for card players", "2012",
              "Australasian J. Combinatorics 54 (2012) 163-175"),
    Reference("swanson_stinson2014", "Swanson and Stinson", "Additional constructions to solve "
              "the generalized Russian cards problem using combinatorial designs", "2014",
              "Electronic J. Combinatorics 21(3) (2014) P3.29",
              url="https://www.combinatorics.org/ojs/index.php/eljc/article/view/v21i3p29"),
    Reference("gattinger2018", "Gattinger", "New Directions in Model Checking Dynamic Epistemic "
              "Logic (SMCDEL)", "2018", "PhD thesis, ILLC, University of Amsterdam"),
    Reference("johnson1962", "Johnson", "A new upper bound for error-correcting codes", "1962",
              "IRE Transactions on Information Theory 8 (1962) 203-207"),
    Reference("schoenheim1964", "Schönheim", "On coverings", "1964",
              "Pacific J. Mathematics 14 (1964) 1405-1411"),
    Reference("flener2002", "Flener, Frisch, Hnich, Kiziltan, Miguel, Pearson and Walsh",
              "Breaking row and column symmetries in matrix models", "2002",
              "Principles and Practice of Constraint Programming (CP 2002), LNCS 2470, 462-477"),
)

REFERENCES: dict[str, Reference] = {r.key: r for r in _SOURCES + _OUTSIDE}
SOURCE_DOCUMENTS: dict[str, Reference] = {r.key: r for r in _SOURCES}
# Each notebook (file stem) and the source document it reproduces.
NOTEBOOK_SOURCES: dict[str, str] = {"russian_cards": "group11_rc", "codebreaking": "klimos2014",
                                    "kemps": "group6_kemps2023", "hanabi": "odwyer2018",
                                    "hats": "janssen2017"}
BIBLIOGRAPHY = "references.md"  # notebooks/references.md, and the site's bibliography page


def reference(key: str) -> Reference:
    """The reference under `key` (a ValueError lists the known keys)."""
    if checks.text(key, "citation key") not in REFERENCES:
        raise ValueError(f"unknown citation key {key!r}; known: {', '.join(sorted(REFERENCES))}")
    return REFERENCES[key]


def cite(key: str) -> str:
    """Author-year citation for `key`: cite('klimos2014') -> 'Klimoš (2014)'."""
    return reference(key).short


def cite_link(key: str) -> str:
    """Markdown for a citation: cite_link('janssen2017') -> '[Janssen (2017)](references.md#janssen2017)'.

    The link opens notebooks/references.md in JupyterLab and the bibliography page on the site.
    """
    return f"[{cite(key)}]({BIBLIOGRAPHY}#{reference(key).key})"


def source_of_notebook(name: str) -> Reference:
    """The source document a notebook (by file stem, e.g. 'hats') reproduces."""
    if checks.text(name, "name") not in NOTEBOOK_SOURCES:
        raise ValueError(f"no source document for notebook {name!r}; "
                         f"known: {', '.join(sorted(NOTEBOOK_SOURCES))}")
    return reference(NOTEBOOK_SOURCES[name])


def _entry(ref: Reference) -> str:
    """One bibliography entry: authors (year). Title. Venue. Link."""
    title = f"[*{ref.title}*]({ref.url})" if ref.url else f"*{ref.title}*"
    venue = ref.venue[:1].upper() + ref.venue[1:]
    return f"{ref.authors} ({ref.year}). {title}. {venue}."


def bibliography_markdown(site: bool = False) -> str:
    """The bibliography as Markdown: the five source documents, then every other work.

    Each entry carries its key as an anchor (never as visible text): a MyST target for the
    site (`site=True`), an HTML anchor for notebooks/references.md in JupyterLab.
    """
    site = checks.boolean(site, "site")

    def anchored(ref: Reference) -> str:
        anchor = f"({ref.key})=\n" if site else f'<a id="{ref.key}"></a>\n'
        return anchor + _entry(ref)

    others = sorted((r for r in REFERENCES.values() if r.key not in SOURCE_DOCUMENTS),
                    key=lambda r: (r.authors, r.year))
    parts = ["# References", "",
             "Every work the notebooks cite. A citation such as Janssen (2017) links here.", "",
             "## The source documents", ""]
    parts += [anchored(r) + "\n" for r in SOURCE_DOCUMENTS.values()]
    parts += ["## Other works", ""]
    parts += [anchored(r) + "\n" for r in others]
    return "\n".join(parts).rstrip() + "\n"


def references_table(source_documents_only: bool = False) -> pd.DataFrame:
    """All references as a table (key, authors, year, title, venue, file)."""
    only = checks.boolean(source_documents_only, "source_documents_only")
    refs = SOURCE_DOCUMENTS if only else REFERENCES
    return pd.DataFrame([{"key": r.key, "authors": r.authors, "year": r.year, "title": r.title,
                          "venue": r.venue, "file": r.file or ""} for r in refs.values()])


if __name__ == "__main__":  # python -m puzzlelab.sources > notebooks/references.md
    print(bibliography_markdown(), end="")
