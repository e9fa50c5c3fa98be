"""No module of puzzlelab reaches into another's private names (`from x import _name`, `x._name`),
and no script of tests/, benchmarks/ or tools/ imports one (`from x import _name`).

A name with a leading underscore belongs to the module that defines it; what other modules use is
public: in the owner's `__all__`, with a docstring. Parsed with `ast`, so lazy imports inside
functions count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import puzzlelab

PACKAGE = Path(puzzlelab.__file__).parent
MODULES = sorted(PACKAGE.rglob("*.py"))
ROOT = PACKAGE.parent
OUTSIDE = ("tests", "benchmarks", "tools")  # folders of scripts that use the package


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The absolute name of the module `node` imports from, inside `module`."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[:len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(path: Path) -> list[str]:
    """Each private name that the module at `path` takes from another puzzlelab module."""
    module, tree = _module_name(path), ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    aliases: dict[str, str] = {}  # local name -> puzzlelab module it stands for
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _absolute(module, node, is_package)
            if not source.startswith("puzzlelab"):
                continue
            for alias in node.names:
                if source != module and _private(alias.name):
                    found.append(f"{module}: from {source} import {alias.name}")
                aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("puzzlelab"):
                    aliases[alias.asname or alias.name.split(".")[0]] = \
                        alias.name if alias.asname else alias.name.split(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            target = _dotted(node.value)
            if target is None or target.split(".")[0] not in aliases:
                continue
            head, *rest = target.split(".")
            owner = ".".join([aliases[head], *rest])
            if owner != module:
                found.append(f"{module}: {target}.{node.attr} ({owner})")
    return found


def _dotted(node: ast.expr) -> str | None:
    """`a.b.c` for a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def test_the_check_finds_private_imports(tmp_path):
    """The check itself: a module taking `_name` from a sibling, either way, is caught."""
    pkg = tmp_path / "puzzlelab" / "toy"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def _helper():\n    return 1\n\ndef f():\n    return _helper()\n")
    (pkg / "b.py").write_text("from .a import _helper\nfrom . import a\nx = a._helper()\n"
                              "y = a.f()\n")
    global PACKAGE
    saved, PACKAGE = PACKAGE, tmp_path / "puzzlelab"
    try:
        assert private_imports(pkg / "a.py") == []
        assert private_imports(pkg / "b.py") == [
            "puzzlelab.toy.b: from puzzlelab.toy.a import _helper",
            "puzzlelab.toy.b: a._helper (puzzlelab.toy.a)"]
    finally:
        PACKAGE = saved


def test_no_private_name_is_imported_across_modules():
    assert len(MODULES) > 40
    found = [line for path in MODULES for line in private_imports(path)]
    assert found == [], "\n".join(found)


def imported_private_names(path: Path) -> list[str]:
    """Each `from x import _name` in the script at `path` (lazy imports inside functions too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            source = "." * node.level + (node.module or "")
            found += [f"{path.name}: from {source} import {alias.name}"
                      for alias in node.names if _private(alias.name)]
    return found


def test_the_check_finds_private_names_imported_by_scripts(tmp_path):
    """The check itself: `from x import _name` is caught at the top and inside a function;
    public names, dunder names and `x._name` (an attribute, not an import) are not."""
    script = tmp_path / "bench_toy.py"
    script.write_text("from puzzlelab.timing import _add, quick\nfrom x import __version__\n"
                      "def f():\n    from .y import _z as z\n    return z\n")
    assert imported_private_names(script) == ["bench_toy.py: from puzzlelab.timing import _add",
                                              "bench_toy.py: from .y import _z"]


def test_no_script_imports_a_private_name():
    scripts = sorted(p for folder in OUTSIDE for p in (ROOT / folder).rglob("*.py"))
    assert len(scripts) > 40
    found = [f"{p.parent.name}/{line}" for p in scripts for line in imported_private_names(p)]
    assert found == [], "\n".join(found)
