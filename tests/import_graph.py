"""The import graph of the puzzlelab package, read from the source: every import, counted.

An edge A -> B means module A imports module B somewhere in its text: at the top, inside a
function, in its `if __name__ == "__main__":` block, through `importlib.import_module` (or
`__import__`) with a name known from the text, or through `lazy.exports` (a package's lazy
public names: an edge to each submodule its table names). `from .x import name` is an edge to
`.x` (or to `.x.name` when that is a module). A package's `__init__` is a module like any other.

A name given to `import_module` is worked out from the text: a constant, an f-string or a `+`
of constants, `__name__`, `__package__`, module-level constants (strings, tuples and lists of
them, and comprehensions over those) and loop variables over such lists; a name built from a
list counts as importing every module of the list. A name that cannot be worked out (it comes
from the caller) is a `dynamic` import, listed so that a test can hold each one to account.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "puzzlelab"
IMPORTERS = ("import_module", "__import__")


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


def _values(node: ast.AST | None, env: dict[str, list]) -> list | None:
    """Every value an expression can take, worked out from constants (None when unknown)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return env.get(node.id)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        parts = [_values(e, env) for e in node.elts]
        return None if None in parts else [tuple(v for p in parts for v in p)]
    if isinstance(node, ast.JoinedStr):
        pieces = [_values(v.value if isinstance(v, ast.FormattedValue) else v, env)
                  for v in node.values]
        if None in pieces:
            return None
        return ["".join(map(str, combo)) for combo in itertools.product(*pieces)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _values(node.left, env), _values(node.right, env)
        if left is None or right is None:
            return None
        return [a + b for a in left for b in right if isinstance(a, str) and isinstance(b, str)]
    if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
        return _comprehension(node, env)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("tuple", "list", "sorted", "set") and len(node.args) == 1):
        return _values(node.args[0], env)
    return None


def _comprehension(node: ast.ListComp | ast.GeneratorExp | ast.SetComp,
                   env: dict[str, list]) -> list | None:
    """A comprehension over constant lists: one tuple of every element it makes."""
    scope = dict(env)
    for gen in node.generators:
        items = _items(gen.iter, scope)
        if items is None or not isinstance(gen.target, ast.Name):
            return None
        scope[gen.target.id] = items
    element = _values(node.elt, scope)
    return None if element is None else [tuple(element)]


def _items(node: ast.AST, env: dict[str, list]) -> list | None:
    """The elements a loop over `node` runs through (each of the lists it can be, together)."""
    values = _values(node, env)
    if values is None or not all(isinstance(v, tuple) for v in values):
        return None
    return [item for value in values for item in value]


def _environment(tree: ast.Module, module: str, is_package: bool) -> dict[str, list]:
    """Names whose values the text fixes: module constants, loop variables over them."""
    env: dict[str, list] = {"__name__": [module],
                            "__package__": [module if is_package else module.rpartition(".")[0]]}
    for _ in range(3):  # constants defined from constants defined earlier or later
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                    node.targets[0], ast.Name) and node in tree.body:
                value = _values(node.value, env)
                if value is not None:
                    env[node.targets[0].id] = value
            elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target,
                                                                                ast.Name):
                items = _items(node.iter, env)
                if items is not None:
                    env[node.target.id] = sorted(set(env.get(node.target.id, [])) | set(items),
                                                 key=str)
    return env


def _dynamic_targets(node: ast.Call, module: str, is_package: bool,
                     env: dict[str, list]) -> list[str] | None:
    """The modules an `import_module(name[, package])` call can import (None: unknown)."""
    names = _values(node.args[0], env) if node.args else None
    package = _values(node.args[1], env) if len(node.args) > 1 else [None]
    if names is None or package is None or not all(isinstance(n, str) for n in names):
        return None
    out = []
    for name, base in itertools.product(names, package):
        level = len(name) - len(name.lstrip("."))
        if level and base:
            out.append(_absolute(base, True, level, name.lstrip(".") or None))
        elif level:
            out.append(_absolute(module, is_package, level, name.lstrip(".") or None))
        else:
            out.append(name)
    return out


def _lazy_targets(node: ast.Call, module: str, env: dict[str, list],
                  tree: ast.Module) -> list[str]:
    """`exports(__name__, TABLE)`: the submodules the package's lazy names come from."""
    table = node.args[1] if len(node.args) > 1 else None
    if isinstance(table, ast.Name):
        table = next((n.value for n in tree.body if isinstance(n, ast.Assign)
                      and any(getattr(t, "id", "") == table.id for t in n.targets)), None)
    if not isinstance(table, ast.Dict):
        return []
    return [f"{module}.{v.value}" for v in table.values
            if isinstance(v, ast.Constant) and isinstance(v.value, str)]


def _called(node: ast.Call) -> str:
    return getattr(node.func, "attr", getattr(node.func, "id", ""))


def scan(module: str, path: Path, known: set[str]) -> tuple[set[str], list[str]]:
    """(the puzzlelab modules that `module` imports anywhere in its text, the dynamic imports
    whose names cannot be worked out from it, as 'line: call')."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    dynamic: list[str] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    env = _environment(tree, module, is_package)
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (_absolute(module, is_package, node.level, node.module) if node.level
                    else node.module or "")
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        elif isinstance(node, ast.Call) and _called(node) in IMPORTERS:
            resolved = _dynamic_targets(node, module, is_package, env)
            if resolved is None:
                dynamic.append(f"{node.lineno}: {ast.unparse(node)}")
            # a whole module name: one with no source here is built (an extension), not ours
            targets = [t for t in resolved or [] if t in known]
        elif isinstance(node, ast.Call) and _called(node) == "exports" and is_package:
            targets = _lazy_targets(node, module, env, tree)
        for target in targets:
            while target and target not in known:  # puzzlelab.x.y.name -> puzzlelab.x.y
                target = target.rpartition(".")[0]
            if target and target != module:
                found.add(target)
    return found, dynamic


def imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The puzzlelab modules that `module` imports anywhere in its text."""
    return scan(module, path, known)[0]


def graph() -> dict[str, set[str]]:
    """Module -> the puzzlelab modules it imports."""
    mods = modules()
    known = set(mods)
    return {m: imports(m, p, known) for m, p in mods.items()}


def dynamic_imports() -> dict[str, list[str]]:
    """Module -> its imports by a name the text does not fix (only modules that have some)."""
    mods = modules()
    known = set(mods)
    found = {m: scan(m, p, known)[1] for m, p in mods.items()}
    return {m: calls for m, calls in found.items() if calls}


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
