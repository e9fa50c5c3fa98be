"""The import graph of the puzzlelab package, read from the source (every import, lazy ones too).

An edge A -> B means module A imports module B somewhere in its text: at the top, inside a
function, or through `importlib.import_module` with a constant name. `from .x import name`
is an edge to `.x` (or to `.x.name` when that is a module). A package's `__init__` is a
module like any other. The block under `if __name__ == "__main__":` is not counted: it runs
only when the module is a command (`python -m ...`), never when it is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "puzzlelab"


def module_name(path: Path) -> str:
    """puzzlelab/hats/model.py -> puzzlelab.hats.model; a package's __init__ -> the package."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    base = module.split(".") if is_package else module.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The puzzlelab modules that `module` imports anywhere in its text."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    tree.body = [node for node in tree.body if not _is_main_block(node)]
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (_absolute(module, is_package, node.level, node.module) if node.level
                    else node.module or "")
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", ""))
              == "import_module" and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            name = node.args[0].value
            level = len(name) - len(name.lstrip("."))
            targets = [_absolute(module, is_package, level, name.lstrip(".") or None)
                       if level else name]
        for target in targets:
            while target and target not in known:  # puzzlelab.x.y.name -> puzzlelab.x.y
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found


def _is_main_block(node: ast.stmt) -> bool:
    """`if __name__ == "__main__":` at the top of a module."""
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
            and ast.unparse(node.test).replace("'", '"') == '__name__ == "__main__"')


def graph() -> dict[str, set[str]]:
    """Module -> the puzzlelab modules it imports."""
    mods = modules()
    known = set(mods)
    return {m: imports(m, p, known) for m, p in mods.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(out)
