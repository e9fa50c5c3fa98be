"""COBRA's game-description language (Klimoš 2014, §4.1), parsed into a `Game`.

The thesis (Chapter 3) models a code-breaking game as propositional *variables*, a
*restriction* every secret code satisfies, an *alphabet*, *mappings* (functions from
alphabet symbols to variables), and experiment *types*, each with a number k of
parameters and a list of *outcomes*: formulas over the variables and over mapping
applications f($n), "f applied to the n-th symbol of the parametrization". Section 4.1
gives only the grammar of the language; this module reads it.

The concrete syntax and the grammar are in `syntax.py`, the declarations are checked in
`game_spec.py`; this module gives them meaning and compiles a game text into the engine's
tables.

Meaning. The codes are the valuations of the variables that satisfy every restriction,
listed in decreasing lexicographic order (variables in declaration order, true before
false: with one-hot encodings the code with the first value comes first). Each
experiment type with k parameters yields every parametrization in {symbols}^k that
honours its PARAMS_* lines, in lexicographic order; a parametrization is a tuple of
ints: the symbols themselves when every symbol is a number (`ALPHABET 1, 2, 3`), else
their positions 0, 1, 2, ... in the alphabet. Every outcome formula is evaluated on
every code for every parametrization at once (codes packed 64 to a machine word) and the
game must be well formed (Definition 7): exactly one outcome true per code and
experiment, else `ValueError`. Malformed text raises `ValueError("line L, column C: ...")`.

Sizes are checked before anything is built, each refusal at its line and column: at most
`MAX_VARIABLES` variables, `MAX_SYMBOLS` symbols, `MAX_EXPERIMENT_TYPES` experiment types and
`MAX_OUTCOMES` outcomes a type; the restrictions and outcomes are refused when evaluating them
would take more than `MAX_EVALUATION_SECONDS` or hold more than `MAX_EVALUATION_BYTES` by
estimate (`cost`: bitwise operations and arrays alive at once; operands are evaluated one at a
time). `load` reads at most `MAX_FILE_BYTES` and reports a byte that is not UTF-8 at its line
and column (`decode`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from functools import reduce
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .. import checks
from ..paths import DATA
from .game_spec import (MAX_EXPERIMENT_TYPES, MAX_OUTCOMES, MAX_PARAMETERS, MAX_SYMBOLS,
                        MAX_VARIABLES, START, ExperimentType, GameSpec, build_spec, leaves, located,
                        semantic_error)
from .syntax import (
    Connective,
    Formula,
    Not,
    Param,
    Threshold,
    Token,
    Var,
    parse_statements,
    syntax_error,
)

__all__ = ["GAMES_DIR", "MAX_EVALUATION_BYTES", "MAX_EVALUATION_SECONDS", "MAX_FILE_BYTES",
           "MAX_PARAMETERS", "MAX_TABLE_BYTES", "GameTables", "decode", "game_tables", "load",
           "parse"]

GAMES_DIR = DATA / "games"
MAX_TABLE_BYTES = 2**30  # outcome truth values of one experiment type, and the whole table
MAX_CODES = 1_000_000  # valuations satisfying the restriction that we keep
MAX_PARAMETRIZATIONS = 2_000_000  # per experiment type, including partial ones
MAX_FILE_BYTES = 2**22  # a game file (4 MiB); a file of 1 MB loads or is refused in seconds
# Evaluating formulas on packed codes: what an estimate may reach before the game is refused.
# A bitwise operation on w words costs about OPERATION_SECONDS + w * WORD_SECONDS (2 cores).
MAX_EVALUATION_SECONDS = 5.0
MAX_EVALUATION_BYTES = 2**30
OPERATION_SECONDS = 2e-6
WORD_SECONDS = 1e-9
WORD = np.dtype("<u8")  # codes are packed 64 to a little-endian word
ALL_ONES = np.uint64(0xFFFF_FFFF_FFFF_FFFF)


# ---------------------------------------------------------------------------
# Semantic model: declarations checked in order
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Evaluation on packed bit rows: shape (rows, words), one bit per code
# ---------------------------------------------------------------------------


def evaluate(f: Formula, leaf: Callable[[Var | Param], np.ndarray]) -> np.ndarray:
    """Evaluate `f` bitwise; `leaf` gives the packed truth values of a variable or f($n)."""
    if isinstance(f, (Var, Param)):
        return leaf(f)
    if isinstance(f, Not):
        return ~evaluate(f.child, leaf)
    values = (evaluate(child, leaf) for child in f.children)  # one operand at a time
    if isinstance(f, Threshold):
        return threshold(f.kind, f.k, values, len(f.children))
    if f.op == "and":
        return reduce(np.bitwise_and, values)
    if f.op == "or":
        return reduce(np.bitwise_or, values)
    a, b = values
    return (~a | b) if f.op == "implies" else ~(a ^ b)


def cost(f: Formula) -> tuple[int, int]:
    """(bitwise operations, arrays alive at once at the most) that `evaluate` spends on `f`."""
    if isinstance(f, (Var, Param)):
        return 0, 1
    if isinstance(f, Not):
        ops, arrays = cost(f.child)
        return ops + 1, arrays + 1
    parts = [cost(child) for child in f.children]
    ops = sum(p[0] for p in parts)
    deepest = max(p[1] for p in parts)
    if isinstance(f, Threshold) and f.k < len(parts):
        top = f.k + 1
        steps = sum(2 * min(top, count) for count in range(1, len(parts) + 1))
        return ops + steps + 2, deepest + top + 3
    return ops + len(parts) + 1, deepest + 2


def evaluation_cost(at: Token, what: str, f: Formula, size: int, times: int, *, held: int = 0,
                    spent: float = 0.0) -> float:
    """The estimated seconds of evaluating `f` on arrays of `size` words, `times` over, added to
    the `spent` seconds before it; refused (a ValueError at `at`) past MAX_EVALUATION_SECONDS in
    all, or past MAX_EVALUATION_BYTES alive at once (with `held` arrays kept besides)."""
    ops, arrays = cost(f)
    seconds = spent + times * ops * (OPERATION_SECONDS + size * WORD_SECONDS)
    try:
        checks.within_budget(what, (arrays + held) * size * 8, MAX_EVALUATION_BYTES)
        checks.within_budget(what, seconds, MAX_EVALUATION_SECONDS, unit="seconds")
    except ValueError as err:
        raise semantic_error(at, f"{err}: shrink the game") from None
    return seconds


def threshold(kind: str, k: int, values: Iterable[np.ndarray], n: int) -> np.ndarray:
    """AtLeast/AtMost/Exactly-k of the `n` operands `values` bitwise (taken one at a time), by
    the running 'at least j so far' recurrence."""
    values = iter(values)
    first = next(values)
    if k > n:  # more than there are operands: never at least k
        none = np.zeros(first.shape, WORD)
        return ~none if kind == "atmost" else none
    top = k + 1  # we need 'at least k' and 'at least k+1'

    at_least: list[np.ndarray] = [np.full(first.shape, ALL_ONES)]
    for count, x in enumerate(itertools.chain([first], values), start=1):
        if x.shape != at_least[0].shape:  # an operand of a wider shape (f($n) after a variable)
            shape = np.broadcast_shapes(x.shape, at_least[0].shape)
            at_least = [np.broadcast_to(a, shape).copy() for a in at_least]
        at_least += [np.zeros(at_least[0].shape, WORD)] * (min(top, count) + 1 - len(at_least))
        for j in range(min(top, count), 0, -1):
            at_least[j] = at_least[j] | (at_least[j - 1] & x)
    at_least += [np.zeros(at_least[0].shape, WORD)] * (top + 1 - len(at_least))
    if kind == "atleast":
        return at_least[k]
    if kind == "atmost":
        return ~at_least[k + 1]
    return at_least[k] & ~at_least[k + 1]


def pack(bits: np.ndarray) -> np.ndarray:
    """Pack booleans along the last axis into little-endian 64-bit words."""
    n = bits.shape[-1]
    padded = np.zeros(bits.shape[:-1] + (-(-n // 64) * 64,), dtype=bool)
    padded[..., :n] = bits
    return np.packbits(padded, axis=-1, bitorder="little").view(WORD)


def unpack(words: np.ndarray, n: int) -> np.ndarray:
    """The first n bits of packed words, as booleans."""
    return np.unpackbits(words.view(np.uint8), axis=-1, count=n, bitorder="little").astype(bool)


# ---------------------------------------------------------------------------
# Codes: the valuations satisfying the restriction
# ---------------------------------------------------------------------------


def enumerate_codes(spec: GameSpec, chunk_bits: int = 22) -> np.ndarray:
    """All valuations satisfying every restriction, true-before-false lexicographic order."""
    n = len(spec.variables)
    if n > MAX_VARIABLES:
        raise ValueError(f"{n} variables: enumerating 2**{n} valuations is infeasible "
                         f"(at most {MAX_VARIABLES} variables)")
    restriction = Connective("and", tuple(spec.restrictions)) if spec.restrictions else None
    found, kept = [], 0
    total, step = 2**n, 2**chunk_bits
    seconds = 0.0
    for f, at in zip(spec.restrictions, spec.restrictions_at):
        seconds = evaluation_cost(at, f"evaluating the restrictions on 2**{n} valuations", f,
                                  -(-min(total, step) // 64), -(-total // step), held=n + 1,
                                  spent=seconds)
    for start in range(0, total, step):
        count = min(step, total - start)
        if restriction is None:
            found.append(np.arange(start, start + count))
        else:
            words = valuation_words(n, start, count)
            ok = unpack(evaluate(restriction, lambda v: words[spec.index[v.name]]), count)
            found.append(start + np.flatnonzero(ok[0]))
        kept += len(found[-1])
        if kept > MAX_CODES:
            raise ValueError(
                f"more than {MAX_CODES} valuations satisfy the restriction: too many codes"
            )
    index = np.concatenate(found)
    shifts = np.arange(n - 1, -1, -1)
    return ((index[:, None] >> shifts) & 1) == 0  # variable j is true when bit n-1-j is 0


def valuation_words(n: int, start: int, count: int) -> np.ndarray:
    """Packed columns (n, 1, words) of every variable over valuations start..start+count-1.

    Valuation i gives variable j the value NOT bit (n-1-j) of i; `start` is a multiple of 64.
    """
    word_index = np.uint64(start // 64) + np.arange(-(-count // 64), dtype=np.uint64)
    out = np.empty((n, 1, len(word_index)), WORD)
    for j in range(n):
        s = n - 1 - j
        if s >= 6:  # the bit is constant within a word
            bit = (word_index >> np.uint64(s - 6)) & np.uint64(1)
            out[j, 0] = np.where(bit == 0, ALL_ONES, np.uint64(0))
        else:  # the same pattern in every word
            out[j, 0] = np.uint64(sum(1 << t for t in range(64) if not (t >> s) & 1))
    return out


# ---------------------------------------------------------------------------
# Parametrizations
# ---------------------------------------------------------------------------


def parametrizations(e: ExperimentType, symbols: int) -> np.ndarray:
    """All parametrizations (rows of symbol indices) honouring PARAMS_DISTINCT / PARAMS_SORTED."""
    dtype = np.int16 if symbols < 2**15 else np.int64
    rows = np.zeros((1, 0), dtype=dtype)
    for position in range(e.k):
        if len(rows) * symbols > MAX_PARAMETRIZATIONS:
            raise ValueError(
                f"experiment {e.name!r}: more than {MAX_PARAMETRIZATIONS} "
                "parametrizations; add PARAMS_DISTINCT / PARAMS_SORTED or shrink the game"
            )
        low, high = symbol_range(e, position, symbols)
        choices = np.arange(low, high, dtype=dtype)
        rows = np.hstack([np.repeat(rows, len(choices), axis=0),
                          np.tile(choices, len(rows))[:, None]])
        rows = rows[admissible(e, rows, position)]
    return rows


def symbol_range(e: ExperimentType, position: int, symbols: int) -> tuple[int, int]:
    """Symbols possible at `position` (0-based): a strictly increasing chain of L parameters
    leaves room for r smaller symbols before its r-th member and L-1-r larger ones after."""
    low, high = 0, symbols
    p = position + 1
    for group in e.sorted_:
        strict = any(set(group) <= set(d) for d in e.distinct)
        if strict and p in group:
            r = group.index(p)
            low, high = max(low, r), min(high, symbols - (len(group) - 1 - r))
    return low, max(low, high)


def admissible(e: ExperimentType, rows: np.ndarray, position: int) -> np.ndarray:
    """Which rows satisfy the constraints linking `position` (0-based) to earlier positions."""
    keep = np.ones(len(rows), dtype=bool)
    p = position + 1
    for group in e.distinct:
        if p in group:
            for q in group:
                if q < p:
                    keep &= rows[:, q - 1] != rows[:, position]
    for group in e.sorted_:
        if p in group and group.index(p) > 0:
            q = group[group.index(p) - 1]
            keep &= rows[:, q - 1] <= rows[:, position]
    return keep


# ---------------------------------------------------------------------------
# Outcomes: one column per code, one row per parametrization
# ---------------------------------------------------------------------------


def outcome_indices(spec: GameSpec, e: ExperimentType, params: np.ndarray,
                    codes: np.ndarray) -> np.ndarray:
    """For each parametrization and code, the index of its one true outcome (Definition 7)."""
    n_codes = len(codes)
    columns = pack(codes.T)  # (variables, words)
    cache: dict[tuple, np.ndarray] = {}

    def leaf(x: Var | Param) -> np.ndarray:
        key = (x.name,) if isinstance(x, Var) else (x.mapping, x.n)
        if key not in cache:
            if isinstance(x, Var):
                cache[key] = columns[spec.index[x.name]][None, :]
            else:
                targets = np.asarray(spec.mappings[x.mapping])
                cache[key] = columns[targets[params[:, x.n - 1]]]
        return cache[key]

    truth = np.stack([np.broadcast_to(unpack(evaluate(f, leaf), n_codes), (len(params), n_codes))
                      for _, f in e.outcomes])
    check_well_formed(spec, e, params, codes, truth)
    return truth.argmax(axis=0)


def check_well_formed(spec: GameSpec, e: ExperimentType, params: np.ndarray,
                      codes: np.ndarray, truth: np.ndarray) -> None:
    """Exactly one outcome true for every (parametrization, code), else a ValueError naming one."""
    count = truth.sum(axis=0)
    bad = np.argwhere(count != 1)
    if len(bad):
        p, c = bad[0]
        shown = ", ".join(spec.alphabet[s] for s in params[p])
        true_vars = [v for v, bit in zip(spec.variables, codes[c]) if bit]
        which = [label for (label, _), t in zip(e.outcomes, truth[:, p, c]) if t]
        raise semantic_error(
            e.at, f"game is not well formed: experiment {e.name!r} with parametrization ({shown}) "
            f"on code {{{', '.join(true_vars)}}} (true variables) has {count[p, c]} true outcomes "
            f"{which}; exactly one is required ({len(bad)} such cases)")


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


class GameTables(NamedTuple):
    """What `Game` is built from, plus the alphabet and the final outcomes."""

    name: str
    variables: list[str]
    codes: np.ndarray
    experiments: list[tuple[str, tuple[int, ...]]]
    outcome_table: np.ndarray
    outcome_labels: list[str]
    final_outcomes: list[str]
    alphabet: list[str]
    type_outcomes: dict[str, list[str]]  # Φ(t): the outcome labels of each experiment type
    final_at: Token | None = None  # the first FINAL_OUTCOME line


def game_tables(text: str, name: str = "game") -> GameTables:
    """Parse `text`, enumerate codes and experiments, and tabulate every outcome."""
    checks.text(text, "a game description")
    checks.text(name, "name")
    spec = build_spec(parse_statements(text))
    try:
        codes = enumerate_codes(spec)
    except ValueError as err:
        raise located(spec.variables_at, err) from None
    if len(codes) == 0:
        raise semantic_error(spec.variables_at or START,
                             "the restriction is unsatisfiable: the game has no codes")
    labels: list[str] = []
    index: dict[str, int] = {}
    experiments, rows = [], []
    symbols = symbol_numbers(spec.alphabet)
    cells, seconds = 0, 0.0
    for e in spec.experiments:
        try:
            params = parametrizations(e, len(spec.alphabet))
        except ValueError as err:
            raise located(e.at, err) from None
        if len(params) == 0:
            raise semantic_error(e.at, f"experiment {e.name!r} has no admissible parametrization")
        cells += len(params) * len(codes)
        table_size(e, len(params) * len(codes) * (len(e.outcomes) + 4), cells * 4)
        seconds = outcome_costs(spec, e, len(params) * -(-len(codes) // 64), seconds)
        local = outcome_indices(spec, e, params, codes)
        to_global = np.array([label_index(labels, index, label) for label, _ in e.outcomes])
        rows.append(to_global[local])
        experiments += [(e.name, row) for row in map(tuple, symbols[params].tolist())]
    table = np.concatenate(rows).astype(np.int16 if len(labels) < 2**15 else np.int32)
    return GameTables(name, list(spec.variables), codes, experiments, table, labels,
                      final_labels(spec), list(spec.alphabet),
                      {e.name: [label for label, _ in e.outcomes] for e in spec.experiments},
                      spec.final_at)


def outcome_costs(spec: GameSpec, e: ExperimentType, size: int, spent: float) -> float:
    """Refuse (at its OUTCOME line) the outcome whose evaluation would take the game's past
    MAX_EVALUATION_SECONDS or MAX_EVALUATION_BYTES (`spent`: seconds before this type);
    return the seconds spent with this type's."""
    held = len({(x.mapping, x.n) for _, f in e.outcomes for x in leaves(f)
                if isinstance(x, Param)}) + len(spec.variables)  # the leaves kept for reuse
    for (label, f), at in zip(e.outcomes, e.outcomes_at):
        what = f"evaluating the outcomes up to {label!r} of experiment {e.name!r}"
        spent = evaluation_cost(at, what, f, size, 1, held=held, spent=spent)
    return spent


def table_size(e: ExperimentType, type_bytes: int, total_bytes: int) -> None:
    """Refuse (at its EXPERIMENT line) a type or game whose tables exceed MAX_TABLE_BYTES."""
    for what, needed in (
        (f"experiment {e.name!r}", type_bytes),
        ("the outcome table", total_bytes),
    ):
        if needed > MAX_TABLE_BYTES:
            raise semantic_error(e.at, f"{what} would need about {needed / 2**30:.3g} GiB "
                                 f"(more than {MAX_TABLE_BYTES / 2**30:g} GiB): shrink the game")


def symbol_numbers(alphabet: list[str]) -> np.ndarray:
    """The int that stands for each symbol in a parametrization: the symbol itself when every
    symbol is a decimal number (ALPHABET 1, 2, 3 gives (1, 3)), else its position 0, 1, ..."""
    if alphabet and all(re.fullmatch(r"[0-9]+", a) for a in alphabet) \
            and len({int(a) for a in alphabet}) == len(alphabet):
        return np.array([int(a) for a in alphabet], dtype=np.int64)
    return np.arange(len(alphabet), dtype=np.int64)


def final_labels(spec: GameSpec) -> list[str]:
    """Labels given as FINAL_OUTCOME; a label final in one experiment is final in all."""
    final = sorted(set().union(*(e.final for e in spec.experiments)))
    for e in spec.experiments:
        for label, _ in e.outcomes:
            if label in final and label not in e.final:
                raise semantic_error(e.at, f"outcome {label!r} is final elsewhere but not in "
                                     f"experiment {e.name!r}")
    return final


def label_index(labels: list[str], index: dict[str, int], label: str) -> int:
    """Index of `label` in the shared label list, appending it the first time."""
    if label not in index:
        index[label] = len(labels)
        labels.append(label)
    return index[label]


def parse(text: str, name: str = "game"):
    """Parse a game description (Klimoš 2014, §4.1) into a `puzzlelab.codebreaking` Game.

    Parameters
    ----------
    text : str
        The description: VARIABLES, RESTRICTION, ALPHABET, MAPPING and EXPERIMENT lines
        (grammar in `syntax`, meaning in this module's docstring).
    name : str
        The game's name.

    Returns
    -------
    Game
        Its codes (the valuations that satisfy every restriction), experiments (every allowed
        parametrization of every type) and outcome table.

    Raises
    ------
    ValueError
        At "line L, column C" for malformed text, an unknown name, a size over the limits
        (`MAX_VARIABLES` and the others), or a game that is not well formed (Definition 7:
        not exactly one outcome true per code and experiment).

    Examples
    --------
    Three coins, one counterfeit, lighter or heavier (Example 8's formulas), weighed one
    against one: six codes, three weighings, and two of them always suffice.

    >>> from puzzlelab.codebreaking import analyze
    >>> coins = parse('''VARIABLES x1, x2, x3, y
    ... RESTRICTION Exactly-1(x1, x2, x3)
    ... ALPHABET 1, 2, 3
    ... MAPPING 'X' x1, x2, x3
    ... EXPERIMENT 'w2' 2
    ...   PARAMS_DISTINCT 1, 2
    ...   PARAMS_SORTED 1, 2
    ...   OUTCOME 'right heavier' ((X$1) & !y) | ((X$2) & y)
    ...   OUTCOME 'left heavier' ((X$1) & y) | ((X$2) & !y)
    ...   OUTCOME 'balance' !(X$1 | X$2)
    ... ''', "coin3")
    >>> coins.n_codes, coins.n_experiments, analyze(coins).worst
    (6, 3, 2)
    >>> parse("VARIABLES x\\nRESTRICTION y\\n")
    Traceback (most recent call last):
    ValueError: line 2, column 13: unknown variable 'y'

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §4.1 (the input language of COBRA)
    and Example 8 (the counterfeit coin as formulas).
    """
    from .game import Game

    t = game_tables(text, name)
    try:
        return Game(
            t.name,
            t.variables,
            t.codes,
            t.experiments,
            t.outcome_table,
            t.outcome_labels,
            final_outcomes=t.final_outcomes,
            type_outcomes=t.type_outcomes,
        )
    except ValueError as err:  # a final outcome that does not single out a code
        raise located(t.final_at, err) from None


def load(path: str | Path):
    """Parse a game file; the game is named after the file (data/games/coin12.cobra -> 'coin12')."""
    if not isinstance(path, (str, Path)):
        raise checks.ArgumentTypeError(f"path must be a file name or a Path, got {path!r}")
    try:
        path = Path(path)
        if not path.is_absolute() and not path.exists():
            path = GAMES_DIR / path
        found = path.is_file()
    except OSError as err:
        raise ValueError(f"cannot read game file {str(path)!r}: {err}") from None
    if not found:
        raise ValueError(f"no game file {str(path)!r}")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise ValueError(f"cannot read game file {str(path)!r}: {err.strerror or err}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"game file {str(path)!r} is larger than {MAX_FILE_BYTES // 2**20} MiB")
    try:
        text = decode(data)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
    return parse(text, name=path.stem)


def decode(data: bytes) -> str:
    """A game file's bytes as text (UTF-8); a byte that is not UTF-8 is a ValueError at its line
    and column, counted as `parse` counts them (LF, CRLF or CR end a line; a leading BOM is
    not a column)."""
    if not isinstance(data, bytes):
        raise checks.ArgumentTypeError(f"data must be bytes, got {type(data).__name__}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        before = data[: err.start].decode("utf-8", "replace").removeprefix("\ufeff")
        before = before.replace("\r\n", "\n").replace("\r", "\n")
        line, column = before.count("\n") + 1, len(before) - before.rfind("\n")
        raise syntax_error(line, column, f"byte 0x{data[err.start]:02x} is not UTF-8 text "
                           f"({err.reason}): save the file as UTF-8") from None
