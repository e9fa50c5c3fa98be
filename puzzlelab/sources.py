"""The works puzzlelab reproduces or compares with, each under a short citation key.

The five source documents (text extractions kept in `shared/sources/`, see `paths`) and the
outside results the notebooks check against, listed in `references.toml` beside this module. Docstrings and notebooks cite by key
(`cite("janssen2017")` -> "Janssen (2017)") or by author and year, never by a file name.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

import pandas as pd

from . import checks

__all__ = ["REFERENCES", "SOURCE_DOCUMENTS", "NOTEBOOK_SOURCES", "Reference", "cite", "cite_link",
           "reference", "references_table", "source_of_notebook", "bibliography_markdown"]


@dataclass(frozen=True)
class Reference:
    """One cited work: who, what, when, where; `file` is set for the five source documents,
    `url` is where to read it (a DOI where one exists), `code` a software repository's page;
    a work with no `url` says why in `offline` (shown in its entry)."""

    key: str
    authors: str
    title: str
    year: str
    venue: str
    file: str | None = None
    url: str | None = None
    code: str | None = None
    offline: str | None = None

    def __post_init__(self) -> None:
        checks.record(self)
        if (self.url is None) == (self.offline is None):
            raise ValueError(f"reference {self.key!r}: give either where to read it (url) or why "
                             "there is no such address (offline), not both or neither")

    @property
    def short(self) -> str:
        """Author-year form: 'Janssen (2017)'."""
        return f"{self.authors} ({self.year})"


def _read_references() -> dict[str, tuple[Reference, ...]]:
    """The works listed in references.toml (package data), by group: 'source' and 'outside'."""
    text = resources.files(__package__).joinpath("references.toml").read_text(encoding="utf-8")
    groups = tomllib.loads(text)
    return {group: tuple(Reference(key, **fields) for key, fields in groups[group].items())
            for group in ("source", "outside")}


_READ = _read_references()
_SOURCES, _OUTSIDE = _READ["source"], _READ["outside"]

REFERENCES: dict[str, Reference] = {r.key: r for r in _SOURCES + _OUTSIDE}
SOURCE_DOCUMENTS: dict[str, Reference] = {r.key: r for r in _SOURCES}
# Each notebook (file stem) and the source document it reproduces.
NOTEBOOK_SOURCES: dict[str, str] = {"russian_cards": "group11_rc", "codebreaking": "klimos2014",
                                    "kemps": "group6_kemps2023", "hanabi": "odwyer2018",
                                    "hats": "janssen2017"}
DOI = "https://doi.org/"  # a reference's url under this is a DOI, written doi:10.…
GITHUB = "https://github.com/"  # a software project's page, written GitHub owner/name
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
    """One bibliography entry: authors (year). Title (linked). Venue. DOI or GitHub project. Code."""
    title = f"[*{ref.title}*]({ref.url})" if ref.url else f"*{ref.title}*"
    venue = ref.venue[:1].upper() + ref.venue[1:]
    entry = f"{ref.authors} ({ref.year}). {title}. {venue}."
    if ref.url and ref.url.startswith((DOI, GITHUB)):
        label = "doi:" if ref.url.startswith(DOI) else "GitHub "
        entry += f" [{label}{ref.url.removeprefix(DOI).removeprefix(GITHUB)}]({ref.url})."
    if ref.code:
        entry += f" Code: [GitHub {ref.code.removeprefix(GITHUB)}]({ref.code})."
    if ref.offline:
        entry += f" No link: {ref.offline}."
    return entry


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
