"""The package's shape is what the README says: roles per puzzle, imports only going down,
one lazy `__init__` policy, one meaning per module name.

The README's layout table names every module of every puzzle with its role; the roles are
ranked (model 1, solvers and reference 2, source 3, tables 4, views 5) and a module may import
only modules of its own puzzle of the same or a lower rank, or the shared pieces (rank 0).
The import graph (tests/import_graph.py) counts every import: the lazy ones inside functions,
`__main__` blocks, `importlib` by a name worked out from the text (each module of a list a
name is built from) and a package's lazy exports; it must have no cycle, and no shared module
may import a puzzle (the declarations are found by `puzzlelab.registry`, above the puzzles).
"""

from __future__ import annotations

import ast
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from import_graph import PACKAGE, ROOT, cycles, dynamic_imports, graph, imports

PUZZLES = ("russian_cards", "hats", "codebreaking", "kemps", "hanabi")
RANK = {"model": 1, "solvers": 2, "reference": 2, "source": 3, "tables": 4, "views": 5}
# the command, its executor and the registry that finds every puzzle's table declarations
APPLICATION = {"puzzlelab.cli": 7, "puzzlelab.runner": 7, "puzzlelab.registry": 7}
# imports by a name only the caller knows, each accounted for: `lazy.exports` imports the
# submodules a package's own table names (counted at the package: `import_graph._lazy_targets`);
# `timing.Task` imports the module a benchmark names (benchmarks/, outside the package)
DYNAMIC = {"puzzlelab.lazy", "puzzlelab.timing"}
README = ROOT / "README.md"


def layout_table() -> dict[str, dict[str, list[str]]]:
    """The README's table: puzzle -> role -> module names."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| puzzle | model |"))
    roles = [c.strip() for c in lines[start].strip("|").split("|")][1:]
    table = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        puzzle = cells[0].strip("`")
        table[puzzle] = {role: re.findall(r"`(\w+)`", cell) for role, cell in zip(roles, cells[1:])}
    return table


def glossary() -> set[str]:
    """The module names the README's glossary gives one meaning across puzzles."""
    text = README.read_text(encoding="utf-8")
    part = text.split("Module names shared by puzzles", 1)[1].split("\n\n", 2)[1]
    heads = [line.split(":", 1)[0] for line in part.splitlines() if line.startswith("- `")]
    return {name for head in heads for name in re.findall(r"`(\w+)`", head)}


def rank(module: str, roles: dict[str, dict[str, list[str]]]) -> int:
    """A module's layer: 0 shared, 1..5 by role within a puzzle, 6 a puzzle's __init__, 7 app."""
    parts = module.split(".")
    if module in APPLICATION:
        return APPLICATION[module]
    if len(parts) == 2 and parts[1] not in PUZZLES or module == "puzzlelab":
        return 0
    if len(parts) == 2:
        return 6
    for role, names in roles[parts[1]].items():
        if parts[2] in names:
            return RANK[role]
    raise AssertionError(f"{module} has no role in the README's layout table")


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_the_readme_names_every_module_of_the_puzzle_with_its_role(puzzle):
    roles = layout_table()[puzzle]
    listed = [m for names in roles.values() for m in names]
    on_disk = sorted(p.stem for p in (PACKAGE / puzzle).glob("*.py") if p.stem != "__init__")
    assert sorted(listed) == on_disk, "README layout table and puzzlelab/{puzzle}/ differ"
    assert len(set(listed)) == len(listed), f"a module of {puzzle} has two roles"
    assert set(roles) == set(RANK), f"the table's roles are {sorted(RANK)}"
    for role in ("model", "solvers", "source", "tables", "views", "reference"):
        assert roles[role], f"{puzzle} has no {role} module"
    assert roles["views"][0] == "notebook" and roles["tables"][0] == "tables"


def test_a_module_name_used_by_two_puzzles_has_one_meaning_in_the_glossary():
    seen: dict[str, list[str]] = {}
    for puzzle in PUZZLES:
        for path in (PACKAGE / puzzle).glob("*.py"):
            seen.setdefault(path.stem, []).append(puzzle)
    shared = {name for name, where in seen.items() if len(where) > 1} - {"__init__"}
    assert shared <= glossary(), f"give these one meaning in the README: {shared - glossary()}"


def test_the_import_graph_has_no_cycle():
    assert cycles(graph()) == []


def test_the_graph_counts_main_blocks_lazy_imports_and_importlib_by_computed_name(tmp_path):
    source = tmp_path / "mod.py"
    source.write_text(
        "import importlib\n"
        "NAMES = ('a', 'b')\n"
        "TARGETS = tuple(f'pkg.{n}.tables' for n in NAMES)\n"
        "def f(which):\n"
        "    from .inner import x\n"
        "    for m in TARGETS:\n"
        "        importlib.import_module(m)\n"
        "    importlib.import_module('.' + 'helper', 'pkg')\n"
        "    importlib.import_module(which)\n"
        "if __name__ == '__main__':\n"
        "    from . import main_only\n", encoding="utf-8")
    known = {"pkg.a.tables", "pkg.b.tables", "pkg.c.tables", "pkg.inner", "pkg.main_only",
             "pkg.helper", "pkg.mod"}
    assert imports("pkg.mod", source, known) == known - {"pkg.mod", "pkg.c.tables"}
    assert cycles({"pkg.mod": {"pkg.main_only"}, "pkg.main_only": {"pkg.mod"}}) == [
        ["pkg.main_only", "pkg.mod"]]


def test_every_import_by_computed_name_is_worked_out_or_accounted_for():
    assert set(dynamic_imports()) == DYNAMIC


def test_no_shared_module_imports_a_puzzle():
    def puzzle(module: str) -> str | None:
        parts = module.split(".")
        return parts[1] if len(parts) > 1 and parts[1] in PUZZLES else None

    upward = [f"{module} -> {target}" for module, targets in graph().items()
              for target in sorted(targets)
              if puzzle(module) is None and module not in APPLICATION and puzzle(target)]
    assert upward == [], "shared modules importing a puzzle:\n" + "\n".join(upward)


def test_no_main_block_but_the_command_line():
    blocks = [str(path.relative_to(ROOT)) for path in sorted(PACKAGE.rglob("*.py"))
              if any(isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)
                     for node in ast.parse(path.read_text(encoding="utf-8")).body)]
    assert blocks == ["puzzlelab/cli.py"]


@pytest.mark.parametrize("puzzle", (*PUZZLES, "shared"))
def test_imports_only_go_down(puzzle):
    roles, upward = layout_table(), []
    for module, targets in graph().items():
        parts = module.split(".")
        mine = parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in PUZZLES) else "shared"
        if mine != puzzle or module in APPLICATION:
            continue
        for target in sorted(targets):
            other = target.split(".")
            if len(other) > 2 and other[1] != mine and mine != "shared":
                upward.append(f"{module} -> {target} (another puzzle)")
            elif rank(target, roles) > rank(module, roles):
                upward.append(f"{module} -> {target}")
    assert upward == [], "imports going up a layer:\n" + "\n".join(upward)


def _init_imports(puzzle: str) -> list[str]:
    tree = ast.parse((PACKAGE / puzzle / "__init__.py").read_text(encoding="utf-8"))
    return [ast.unparse(node) for node in ast.walk(tree)
            if isinstance(node, (ast.Import, ast.ImportFrom))]


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_every_puzzle_package_exports_its_names_lazily(puzzle):
    assert _init_imports(puzzle) in (["from ..lazy import exports"],
                                     ["from __future__ import annotations",
                                      "from ..lazy import exports"])
    modules = {path.stem for path in (PACKAGE / puzzle).glob("*.py")}
    exported = set(getattr(importlib.import_module(f"puzzlelab.{puzzle}"), "__all__", ()))
    # once a submodule is imported, Python binds its name on the package over the lazy name
    assert not exported & modules, f"exported names that are also modules: {exported & modules}"
    probe = (f"import sys, puzzlelab.{puzzle} as p\n"
             f"loaded = sorted(m for m in sys.modules if m.startswith('puzzlelab.{puzzle}.'))\n"
             "assert loaded == [], loaded\n"
             "assert p.__all__ and dir(p) == sorted(p.__all__)\n"
             "missing = [n for n in p.__all__ if getattr(p, n, None) is None]\n"
             "assert not missing, missing\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "MPLBACKEND": "Agg"})
    assert done.returncode == 0, done.stderr[-2000:]
