"""The declarations of a game text in COBRA's language, checked in order (Klimoš 2014, §4.1 and
Chapter 3): variables, restrictions, the alphabet, mappings and experiment types with their
parameters and outcomes, gathered into a `GameSpec` that `language` then evaluates.

Each refusal is a `ValueError` at the line and column of the statement (`semantic_error`),
sizes included: at most `MAX_VARIABLES` variables, `MAX_SYMBOLS` symbols, `MAX_EXPERIMENT_TYPES`
experiment types, `MAX_PARAMETERS` parameters and `MAX_OUTCOMES` outcomes a type.
"""

from __future__ import annotations

import collections
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .. import checks
from .syntax import Formula, Not, Param, Statement, Token, Var, syntax_error

__all__ = ["DECLARE", "MAX_EXPERIMENT_TYPES", "MAX_OUTCOMES", "MAX_PARAMETERS", "MAX_SYMBOLS",
           "MAX_VARIABLES", "START", "ExperimentType", "GameSpec", "build_spec", "check_formula",
           "leaves", "located", "semantic_error"]

MAX_VARIABLES = 24  # 2**24 valuations is the most we enumerate
MAX_PARAMETERS = 256  # parameters of one experiment type

MAX_SYMBOLS = 2**15  # alphabet symbols (a parametrization stores them as int16)
MAX_EXPERIMENT_TYPES = 2_000  # EXPERIMENT lines (each tabulated on its own)
MAX_OUTCOMES = 20_000  # OUTCOME lines of one experiment type


@dataclass
class ExperimentType:
    """An experiment type: name, parameter count, PARAMS_* constraints, outcomes."""

    name: str
    k: int
    at: Token
    distinct: list[tuple[int, ...]] = field(default_factory=list)
    sorted_: list[tuple[int, ...]] = field(default_factory=list)
    outcomes: list[tuple[str, Formula]] = field(default_factory=list)
    final: set[str] = field(default_factory=set)  # labels of FINAL_OUTCOME lines
    outcomes_at: list[Token] = field(default_factory=list)  # each OUTCOME line
    labels: set[str] = field(default_factory=set)  # the outcome labels given so far

    def __post_init__(self) -> None:
        checks.record(self)


@dataclass
class GameSpec:
    """Everything a game file declares, checked: the thesis's (X, phi_0, T, Sigma, F, Phi)."""

    variables: list[str] = field(default_factory=list)
    restrictions: list[Formula] = field(default_factory=list)
    alphabet: list[str] = field(default_factory=list)
    mappings: dict[str, list[int]] = field(default_factory=dict)  # name -> variable per symbol
    experiments: list[ExperimentType] = field(default_factory=list)
    variables_at: Token | None = None  # the first VARIABLES line
    final_at: Token | None = None  # the first FINAL_OUTCOME line
    restrictions_at: list[Token] = field(default_factory=list)  # each RESTRICTION line
    index: dict[str, int] = field(default_factory=dict)  # each variable's position
    experiment_names: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        checks.record(self)


START = Token("EOF", "", "", 1, 1)  # where a problem of the whole file is reported


def located(token: Token | None, err: ValueError) -> ValueError:
    """`err` with a line and column: its own if it names one, else `token`'s (the file's start)."""
    if str(err).startswith("line "):
        return err
    at = token or START
    return syntax_error(at.line, at.column, str(err))


def semantic_error(token: Token, message: str) -> ValueError:
    """A ValueError placed at `token` (a declaration problem rather than a syntax one)."""
    return syntax_error(token.line, token.column, message)


def build_spec(statements: list[Statement]) -> GameSpec:
    """Check the statements in order (names declared before use) and collect a GameSpec."""
    spec = GameSpec()
    for s in statements:
        DECLARE[s.keyword](spec, s)
    if not spec.variables:
        raise semantic_error(START, "the game declares no variables (VARIABLES x, y, ...)")
    if not spec.experiments:
        raise semantic_error(START, "the game declares no experiments (EXPERIMENT 'name' k)")
    for e in spec.experiments:
        if not e.outcomes:
            raise semantic_error(e.at, f"experiment {e.name!r} has no outcomes")
        if e.k > 0 and not spec.alphabet:
            raise semantic_error(
                e.at, f"experiment {e.name!r} has parameters but there is no ALPHABET"
            )
    return spec


def declare_variables(spec: GameSpec, s: Statement) -> None:
    """VARIABLES: new, distinct identifiers."""
    spec.variables_at = spec.variables_at or s.at
    for token in s.names:
        if token.value in spec.index:
            raise semantic_error(token, f"variable {token.value!r} declared twice")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(token.value)):
            raise semantic_error(token, f"variable name {token.value!r} is not an identifier")
        if len(spec.variables) == MAX_VARIABLES:
            n = MAX_VARIABLES + len(s.names) - s.names.index(token)  # at least
            raise semantic_error(token, f"{n} variables: enumerating 2**{n} valuations is "
                                 f"infeasible (at most {MAX_VARIABLES} variables)")
        spec.index[str(token.value)] = len(spec.variables)
        spec.variables.append(str(token.value))


def declare_restriction(spec: GameSpec, s: Statement) -> None:
    """RESTRICTION / CONSTRAINT: one more conjunct of phi_0."""
    check_formula(spec, s.formula, None)
    spec.restrictions.append(s.formula)
    spec.restrictions_at.append(s.at)


def declare_alphabet(spec: GameSpec, s: Statement) -> None:
    """ALPHABET: the symbols parameters range over, once."""
    if spec.alphabet:
        raise semantic_error(s.at, "ALPHABET given twice")
    symbols = [str(t.value) for t in s.names]
    if len(symbols) > MAX_SYMBOLS:
        raise semantic_error(s.names[MAX_SYMBOLS], f"the alphabet lists {len(symbols)} symbols "
                             f"(at most {MAX_SYMBOLS})")
    times = collections.Counter(symbols)
    for token, symbol in zip(s.names, symbols):
        if times[symbol] > 1:
            raise semantic_error(token, f"alphabet symbol {symbol!r} listed twice")
    spec.alphabet = symbols


def declare_mapping(spec: GameSpec, s: Statement) -> None:
    """MAPPING name v1, ..., va: symbol i of the alphabet goes to variable vi."""
    name, *targets = s.names
    if not spec.alphabet:
        raise semantic_error(
            s.at, "MAPPING before ALPHABET: a mapping sends each alphabet symbol to a variable"
        )
    if name.value in spec.mappings:
        raise semantic_error(name, f"mapping {name.value!r} declared twice")
    if len(targets) != len(spec.alphabet):
        raise semantic_error(name, f"mapping {name.value!r} lists {len(targets)} variables "
                             f"but the alphabet has {len(spec.alphabet)} symbols")
    for token in targets:
        if token.value not in spec.index:
            raise semantic_error(
                token, f"unknown variable {token.value!r} in mapping {name.value!r}"
            )
    spec.mappings[str(name.value)] = [spec.index[str(t.value)] for t in targets]


def declare_experiment(spec: GameSpec, s: Statement) -> None:
    """EXPERIMENT name k: a new experiment type; PARAMS_* and OUTCOME lines refer to it."""
    name, k = str(s.names[0].value), int(s.numbers[0].value)
    if len(spec.experiments) == MAX_EXPERIMENT_TYPES:
        raise semantic_error(s.at, f"more than {MAX_EXPERIMENT_TYPES} experiment types")
    if name in spec.experiment_names:
        raise semantic_error(s.names[0], f"experiment {name!r} declared twice")
    if k > MAX_PARAMETERS:
        raise semantic_error(s.numbers[0], f"experiment {name!r} has {k} parameters "
                             f"(at most {MAX_PARAMETERS})")
    spec.experiments.append(ExperimentType(name, k, s.at))
    spec.experiment_names.add(name)


def current_experiment(spec: GameSpec, s: Statement) -> ExperimentType:
    """The experiment type the PARAMS_* or OUTCOME line `s` belongs to."""
    if not spec.experiments:
        raise semantic_error(s.at, f"{s.at.text} before any EXPERIMENT")
    return spec.experiments[-1]


def declare_params(spec: GameSpec, s: Statement) -> None:
    """PARAMS_DISTINCT / PARAMS_SORTED: parameter numbers within 1..k (sorted ones increasing)."""
    e = current_experiment(spec, s)
    positions = tuple(int(t.value) for t in s.numbers)
    for token, n in zip(s.numbers, positions):
        if not 1 <= n <= e.k:
            raise semantic_error(
                token, f"parameter {n} out of range 1..{e.k} of experiment {e.name!r}"
            )
    if s.keyword == "PARAMS_SORTED":
        if any(a >= b for a, b in zip(positions, positions[1:])):
            raise semantic_error(s.numbers[0], "PARAMS_SORTED lists parameters in increasing order")
        e.sorted_.append(positions)
    else:
        e.distinct.append(positions)


def declare_outcome(spec: GameSpec, s: Statement) -> None:
    """OUTCOME / FINAL_OUTCOME label formula: one more outcome of the current type."""
    e = current_experiment(spec, s)
    label = str(s.names[0].value)
    if len(e.outcomes) == MAX_OUTCOMES:
        raise semantic_error(s.at, f"experiment {e.name!r} has more than {MAX_OUTCOMES} outcomes")
    if label in e.labels:
        raise semantic_error(s.names[0], f"outcome {label!r} given twice in experiment {e.name!r}")
    check_formula(spec, s.formula, e)
    e.outcomes.append((label, s.formula))
    e.outcomes_at.append(s.at)
    e.labels.add(label)
    if s.keyword == "FINAL_OUTCOME":
        e.final.add(label)
        spec.final_at = spec.final_at or s.at


DECLARE = {
    "VARIABLES": declare_variables,
    "RESTRICTION": declare_restriction,
    "ALPHABET": declare_alphabet,
    "MAPPING": declare_mapping,
    "EXPERIMENT": declare_experiment,
    "PARAMS_DISTINCT": declare_params,
    "PARAMS_SORTED": declare_params,
    "OUTCOME": declare_outcome,
    "FINAL_OUTCOME": declare_outcome,
}


def check_formula(spec: GameSpec, f: Formula, experiment: ExperimentType | None) -> None:
    """Every variable declared, every mapping known, every $n in 1..k (none in a restriction)."""
    for leaf in leaves(f):
        if isinstance(leaf, Var) and leaf.name not in spec.index:
            raise semantic_error(leaf.at, f"unknown variable {leaf.name!r}")
        if isinstance(leaf, Param):
            if experiment is None:
                raise semantic_error(leaf.at, "a restriction cannot use parameters ($n)")
            if leaf.mapping not in spec.mappings:
                raise semantic_error(leaf.at, f"unknown mapping {leaf.mapping!r}")
            if not 1 <= leaf.n <= experiment.k:
                raise semantic_error(leaf.at, f"${leaf.n} out of range: experiment "
                                     f"{experiment.name!r} has {experiment.k} parameters")


def leaves(f: Formula) -> Iterator[Var | Param]:
    """The variables and mapping applications of a formula, left to right."""
    if isinstance(f, (Var, Param)):
        yield f
    elif isinstance(f, Not):
        yield from leaves(f.child)
    else:
        for child in f.children:
            yield from leaves(child)
