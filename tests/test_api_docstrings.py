"""Every name a puzzle package exports reads as an API entry: numpydoc sections, a runnable
example and a reference (issue: "an API a newcomer can read").

The sections are read with numpydoc's own rules in spirit: a section is a title line followed
by a line of dashes of the same length. The examples themselves run as doctests in `make test`
(`--doctest-modules puzzlelab`); here we check that each entry has one.
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

PACKAGES = ("puzzlelab.russian_cards", "puzzlelab.codebreaking", "puzzlelab.kemps",
            "puzzlelab.hanabi", "puzzlelab.hats")
SECTION = re.compile(r"^(?P<title>[A-Z][a-z]+)\n(?P<rule>-+)$", re.M)


def exported() -> list[tuple[str, object]]:
    """(qualified name, object) of every function and class defined in puzzlelab that a package
    exports by `__all__` (an alias of a built-in type, such as hanabi's `Card`, has no docstring
    of its own)."""
    found = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            ours = getattr(obj, "__module__", "").startswith("puzzlelab")  # not frozenset aliases
            if ours and (inspect.isfunction(obj) or inspect.isclass(obj)):
                found.append((f"{package}.{name}", obj))
    return found


def sections(doc: str) -> set[str]:
    """The numpydoc section titles of a docstring (a title underlined by as many dashes)."""
    return {m["title"] for m in SECTION.finditer(doc) if len(m["rule"]) == len(m["title"])}


def takes_arguments(obj: object) -> bool:
    """Whether a function, or a class's constructor, takes any argument a caller passes."""
    try:
        signature = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return bool(signature.parameters)


def missing(obj: object) -> list[str]:
    """The sections an exported function or class lacks."""
    doc = inspect.getdoc(obj) or ""
    have = sections(doc)
    lacks = [s for s in ("Examples", "References") if s not in have]
    if takes_arguments(obj) and not have & ({"Parameters", "Attributes"} if inspect.isclass(obj)
                                            else {"Parameters"}):
        lacks.append("Parameters")
    if not inspect.isclass(obj) and not have & {"Returns", "Yields"}:
        lacks.append("Returns")
    if "Examples" in have and ">>>" not in doc:
        lacks.append("a >>> line in Examples")
    return lacks


def test_sections_are_found_by_their_rule():
    doc = "Summary.\n\nParameters\n----------\nx : int\n\nReturns\n---\nint\n"
    assert sections(doc) == {"Parameters"}  # "Returns" is underlined by 3 dashes, not 7


def test_missing_names_what_a_bare_docstring_lacks():
    def bare(x: int) -> int:
        """Only a summary."""
        return x

    assert missing(bare) == ["Examples", "References", "Parameters", "Returns"]


@pytest.mark.parametrize("name,obj", exported(), ids=[n for n, _ in exported()])
def test_every_exported_name_has_the_numpydoc_sections(name, obj):
    assert not missing(obj), f"{name}: its docstring lacks {', '.join(missing(obj))}"
