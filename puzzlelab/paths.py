"""Where puzzlelab keeps its cached tables (data/), exported figures (figures/), and finds the source texts."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA", "FIGURES", "ROOT", "SOURCES", "source_available", "source_text"]

ROOT = Path(os.environ.get("PUZZLELAB_ROOT", Path(__file__).resolve().parents[1]))
DATA = ROOT / "data"
FIGURES = ROOT / "figures"
SOURCES = (ROOT.parent / "shared" / "sources", ROOT / "shared" / "sources")


def _file_name(name: object) -> str:
    """A source document's file name, given its citation key (`puzzlelab.sources`) or the name
    itself: a string naming a file in a sources folder (no folders, hidden files or NUL)."""
    from . import checks
    from .sources import SOURCE_DOCUMENTS

    name = checks.text(name, "name")
    if not name or "/" in name or "\\" in name or "\0" in name or name.startswith("."):
        raise ValueError(f"name must be a source's citation key or file name, got {name!r}")
    ref = SOURCE_DOCUMENTS.get(name)
    return ref.file if ref is not None and ref.file else name


def source_available(name: str) -> bool:
    """Is the text of source document `name` (a citation key such as 'janssen2017') at hand?"""
    name = _file_name(name)
    return any((base / name).exists() for base in SOURCES)


def source_text(name: str) -> str:
    """The text extraction of a source document (shared/sources/ beside or inside the repository).

    `name` is its citation key (`puzzlelab.sources`). Only recomputing the tables parsed from a
    source needs it; the notebooks read those from data/.
    """
    name = _file_name(name)
    for base in SOURCES:
        if (base / name).exists():
            return (base / name).read_text(encoding="utf-8")
    raise ValueError(f"source text {name} not found in {' or '.join(map(str, SOURCES))} (needed only to recompute)")
