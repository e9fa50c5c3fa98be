"""No module of puzzlelab reaches into another's private names (`from x import _name`, `x._name`),
and no script of tests/, benchmarks/ or tools/ imports one (`from x import _name`), reads one
(`x._name`, x imported from puzzlelab) or patches one (`monkeypatch.setattr(x, "_name", ...)`).

A name with a leading underscore belongs to the module that defines it; what other modules use is
public: in the owner's `__all__`, with a docstring. Parsed with `ast`, so lazy imports inside
functions count too.
"""

from __future__ import annotations

import ast
import re
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


# Python's and IPython's protocols, which every object may define: not the owner's private names
PROTOCOLS = re.compile(r"_repr_\w+_|_render_traceback_|_ipython_\w+")
PATCHES = {"setattr", "setitem", "delattr", "delitem"}  # what monkeypatch sets or deletes


def _root(node: ast.expr) -> str | None:
    """The name an expression starts from, through attributes, calls and subscripts."""
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _from_puzzlelab(tree: ast.AST) -> set[str]:
    """The names a script binds to puzzlelab's modules, to what it imports from them and to what
    it makes of those (`game = mastermind(3, 4)`: one name assigned, at any place)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("puzzlelab"):
            names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names
                      if alias.name.split(".")[0] == "puzzlelab"}
    made = [(node.targets[0].id, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)]
    while new := {name for name, value in made if name not in names and _root(value) in names}:
        names |= new
    return names


def _reached(node: ast.Attribute) -> bool:
    """Is `x._name` a private name, not a protocol (nor `os._exit`)?"""
    return (_private(node.attr) and not PROTOCOLS.fullmatch(node.attr)
            and not (node.attr == "_exit" and _dotted(node.value) == "os"))


def _named(arg: ast.expr) -> bool:
    """Is `arg` a string naming a private name (`"_name"`, `"a.b._name"`)?"""
    return isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
        and _private(arg.value.rpartition(".")[2])


def private_uses(path: Path) -> list[str]:
    """Each private name of puzzlelab the script at `path` reads (`x._name`, x from puzzlelab: a
    name imported, made from one, or a call or item of it) or names to a call beside such an x
    (`getattr(x, "_name")`), or patches (`x._name`, `"_name"` or `"a.b._name"` given to any
    setattr, setitem, delattr or delitem, as monkeypatch's)."""
    tree = ast.parse(path.read_text(), str(path))
    ours, found = _from_puzzlelab(tree), {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _reached(node) and _root(node.value) in ours:
            found[node.lineno, ast.unparse(node)] = None
        if not isinstance(node, ast.Call):
            continue
        patch = isinstance(node.func, ast.Attribute) and node.func.attr in PATCHES
        beside = any(_root(arg) in ours for arg in node.args)
        for arg in node.args:
            if _named(arg) and (patch or beside) or \
                    patch and isinstance(arg, ast.Attribute) and _reached(arg):
                found[node.lineno, ast.unparse(arg)] = None
    return [f"{path.name}:{line}: {text}" for line, text in sorted(found)]


def test_the_check_finds_private_names_reached_or_patched(tmp_path):
    """The check itself: private attributes of what comes from puzzlelab, private names given
    beside it and patches of private names are caught; protocols, `os._exit`, dunder names,
    public patches and the script's own objects are not."""
    refused = tmp_path / "test_refused.py"
    refused.write_text(
        "import puzzlelab.hats.tables as tables\nfrom puzzlelab import figures, paths\n"
        "from puzzlelab.codebreaking.exhaustive import Search\n"
        "def test_it(monkeypatch, engine, game):\n    figures._with_text(b'', {})\n"
        "    tables._rows[0]\n    Search(game)._leaders(1)\n    paths.SOURCES[0]._raw\n"
        "    monkeypatch.setattr(paths, '_file_name', len)\n"
        "    monkeypatch.setattr('puzzlelab.paths._file_name', len)\n"
        "    monkeypatch.setitem(engine._KERNELS, 1, 2)\n"
        "    with monkeypatch.context() as patch:\n        patch.delattr(paths, '_cache')\n"
        "    made = Search(game)\n    again = made\n    again._table\n"
        "    getattr(paths, '_cache')\n    Spy(monkeypatch, tables, '_rows')\n")
    assert private_uses(refused) == [
        "test_refused.py:5: figures._with_text", "test_refused.py:6: tables._rows",
        "test_refused.py:7: Search(game)._leaders", "test_refused.py:8: paths.SOURCES[0]._raw",
        "test_refused.py:9: '_file_name'", "test_refused.py:10: 'puzzlelab.paths._file_name'",
        "test_refused.py:11: engine._KERNELS", "test_refused.py:13: '_cache'",
        "test_refused.py:16: again._table", "test_refused.py:17: '_cache'",
        "test_refused.py:18: '_rows'"]
    accepted = tmp_path / "test_accepted.py"
    accepted.write_text(
        "import os\nfrom puzzlelab import paths, widgets\nclass Toy:\n"
        "    def __init__(self):\n        self._x = 1\n"
        "def test_it(monkeypatch, shown, error, local):\n"
        "    widgets.Picture('p', 't')._repr_png_()\n    widgets.Show()._ipython_display_()\n"
        "    shown._repr_html_()\n    error._render_traceback_()\n    local._private\n"
        "    paths.__file__, paths.__all__, Toy()._x, getattr(local, '_x')\n"
        "    monkeypatch.setattr(paths, 'SOURCES', ())\n    monkeypatch.setenv('_X', '1')\n"
        "    monkeypatch.setitem(paths.__dict__, 'DATA', 1)\n    os._exit(0)\n"
        "    mine = os.path\n    mine._joined, (paths.ROOT / '_build')\n")
    assert private_uses(accepted) == []


def test_no_script_reaches_or_patches_a_private_name():
    scripts = sorted(p for folder in OUTSIDE for p in (ROOT / folder).rglob("*.py"))
    assert len(scripts) > 40
    found = [f"{p.parent.name}/{line}" for p in scripts for line in private_uses(p)]
    assert found == [], "\n".join(found)
