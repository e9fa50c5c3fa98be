"""Small pieces: no module of puzzlelab over 600 lines, no function over 60 lines of code
(its docstring not counted: the numpydoc sections of an entry point are documentation, not
code). Compiled kernels count like any other function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "puzzlelab"
MODULES = sorted(PACKAGE.rglob("*.py"))
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60


def code_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from a function's `def` (decorators not counted) to its end, less its docstring's."""
    lines = node.end_lineno - node.lineno + 1
    first = node.body[0]
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        lines -= first.end_lineno - first.lineno + 1
    return lines


def long_functions(source: str) -> list[tuple[str, int]]:
    """(name, code lines) of every function (methods and nested ones too) over the limit."""
    return [(node.name, code_lines(node)) for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and code_lines(node) > MAX_FUNCTION_LINES]


def test_the_measure_leaves_out_the_docstring_only():
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES - 1))
    doc = '    """Doc.\n\n    More.\n    """\n'
    assert long_functions(f"def f():\n{doc}{body}\n") == []  # 60 lines of code with its def
    assert long_functions(f"def f():\n{body}\n    y = 0\n") == [("f", 61)]


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_no_module_and_no_function_is_too_long(path):
    source = path.read_text(encoding="utf-8")
    lines = source.count("\n")
    assert lines <= MAX_MODULE_LINES, f"{path.name}: {lines} lines (at most {MAX_MODULE_LINES})"
    assert not long_functions(source), f"{path.name}: functions over {MAX_FUNCTION_LINES} lines"
