"""COBRA's game-description language (source 001, Section 4.1), parsed into a `Game`.

The thesis (Chapter 3) models a code-breaking game as propositional *variables*, a
*restriction* every secret code satisfies, an *alphabet*, *mappings* (functions from
alphabet symbols to variables), and experiment *types*, each with a number k of
parameters and a list of *outcomes*: formulas over the variables and over mapping
applications f($n), "f applied to the n-th symbol of the parametrization". Section 4.1
gives only the grammar of the language; this module reads it.

Concrete syntax -- learned from COBRA itself (github.com/mirek26/cobra, read, not
copied): the flex lexer `cobra/src/cobra.l` and bison grammar `cobra/src/cobra.ypp`,
the Python front end `cobra/cobra.py` that writes input files, and the model scripts
`cobra/examples/counterfeit-coin.py`, `cobra/examples/mastermind.py` and
`cobra/test/ftest/mm3x3.py`:

* keywords are written in capitals (`VARIABLES`, `RESTRICTION`, `ALPHABET`, `MAPPING`,
  `EXPERIMENT`, `PARAMS_DISTINCT`, `PARAMS_SORTED`, `OUTCOME`); the front end also has
  `CONSTRAINT` for a restriction; several restrictions are conjoined;
* names of mappings, experiments and outcomes, and alphabet symbols, are quoted with
  ' or " (`ALPHABET 'A', 'B'`, `MAPPING 'F1' x1A,x1B`, `OUTCOME '2 + 1' ...`);
* a mapping application is written `F1$2` (the thesis writes f($2));
* connectives: `!`, `¬` (we also read `not`); `&`, `&&`, `and`, `∧`; `|`, `||`, `or`, `∨`; `->`, `→`,
  `⇒`; `<-`, `←`; `<->`, `↔`, `⇔`; n-ary `and(...)`, `or(...)`, and the threshold
  operators `AtLeast-k(...)`, `AtMost-k(...)`, `Exactly-k(...)`;
* precedence from loosest to tightest: `<->` (right), `->` (right), `<-` (left),
  or (left), and (left), `!` (prefix);
* `PARAMS_DISTINCT i,j,...`: those parameters are pairwise different symbols;
  `PARAMS_SORTED i,j,...` (positions increasing): their symbols are non-decreasing in
  alphabet order (strictly increasing when also distinct) -- this is how COBRA's coin
  model counts each weighing once (sorted pans, first coin of the left pan below the
  first coin of the right pan);
* `#` starts a comment that runs to the end of the line;
* COBRA's later front end marks the outcome that ends the game ("this outcome can be the
  last one", Mastermind's all-black answer) with a third argument of OUTCOME; the stored
  backend sources do not show how it was written, so we spell it `FINAL_OUTCOME`.

We accept both spellings: COBRA's and the thesis's (`Variables`, `Mapping`,
`Experiment`, `Params-distinct`, `Params-sorted`, `ATLEAST-2(...)`, `AND(...)`, `f($1)`).
Keywords and the words and/or/AtLeast/AtMost/Exactly are case-insensitive and reserved.

Grammar (EBNF; `{ x }` is zero or more, `[ x ]` optional)::

    file       = { statement } EOF
    statement  = ("VARIABLE" | "VARIABLES") name { "," name }
               | ("RESTRICTION" | "CONSTRAINT") formula
               | "ALPHABET" symbol { "," symbol }
               | "MAPPING" name name { "," name }
               | "EXPERIMENT" name INT
               | ("PARAMS_DISTINCT" | "PARAMS_SORTED") INT { "," INT }
               | ("OUTCOME" | "FINAL_OUTCOME") name formula
    name       = IDENT | STRING
    symbol     = IDENT | STRING | INT
    formula    = implies [ EQUIV formula ]
    implies    = implied [ IMPLIES implies ]
    implied    = disj { IMPLIED disj }
    disj       = conj { OR conj }
    conj       = unary { AND unary }
    unary      = NOT unary | atom
    atom       = "(" formula ")"
               | (AND | OR) "(" formula { "," formula } ")"
               | ("ATLEAST" | "ATMOST" | "EXACTLY") "-" INT "(" formula { "," formula } ")"
               | IDENT "$" INT | IDENT "(" "$" INT ")"
               | IDENT

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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import reduce
from itertools import combinations, permutations
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from ..paths import DATA

GAMES_DIR = DATA / "games"
MAX_VARIABLES = 24  # 2**24 valuations is the most we enumerate
MAX_CODES = 1_000_000  # valuations satisfying the restriction that we keep
MAX_PARAMETRIZATIONS = 2_000_000  # per experiment type, including partial ones
WORD = np.dtype("<u8")  # codes are packed 64 to a little-endian word
ALL_ONES = np.uint64(0xFFFF_FFFF_FFFF_FFFF)

# ---------------------------------------------------------------------------
# Tokens
# ---------------------------------------------------------------------------

KEYWORDS = {
    "VARIABLE": "VARIABLES",
    "VARIABLES": "VARIABLES",
    "RESTRICTION": "RESTRICTION",
    "CONSTRAINT": "RESTRICTION",
    "ALPHABET": "ALPHABET",
    "MAPPING": "MAPPING",
    "EXPERIMENT": "EXPERIMENT",
    "PARAMS_DISTINCT": "PARAMS_DISTINCT",
    "PARAMS-DISTINCT": "PARAMS_DISTINCT",
    "PARAMS_SORTED": "PARAMS_SORTED",
    "PARAMS-SORTED": "PARAMS_SORTED",
    "OUTCOME": "OUTCOME",
    "FINAL_OUTCOME": "FINAL_OUTCOME",
    "FINAL-OUTCOME": "FINAL_OUTCOME",
}
WORD_OPERATORS = {"AND": "AND", "OR": "OR", "NOT": "NOT"}
THRESHOLDS = {"ATLEAST": "atleast", "ATMOST": "atmost", "EXACTLY": "exactly"}
SYMBOL_OPERATORS = {
    "<->": "EQUIV", "↔": "EQUIV", "⇔": "EQUIV",
    "->": "IMPLIES", "→": "IMPLIES", "⇒": "IMPLIES",
    "<-": "IMPLIED", "←": "IMPLIED",
    "&&": "AND", "&": "AND", "∧": "AND",
    "||": "OR", "|": "OR", "∨": "OR",
    "!": "NOT", "¬": "NOT",
}

TOKEN_RE = re.compile(
    r"""
    (?P<space>[ \t\r\f\v]+)
  | (?P<newline>\n)
  | (?P<comment>\#[^\n]*)
  | (?P<keyword>(?i:params[-_](?:distinct|sorted)|final[-_]outcome)\b)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<int>[0-9]+)
  | (?P<string>"[^"\n]*"|'[^'\n]*')
  | (?P<unterminated>["'])
  | (?P<op><->|->|<-|&&|\|\||[&|!↔⇔→⇒←∧∨¬])
  | (?P<punct>[(),$-])
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class Token:
    """One token: its kind, its value, and where it starts (1-based line and column)."""

    kind: str  # KEYWORD, OP, THRESHOLD, IDENT, INT, STRING, PUNCT, EOF
    value: str | int
    text: str
    line: int
    column: int

    def describe(self) -> str:
        """How an error message shows this token."""
        return "end of input" if self.kind == "EOF" else repr(self.text)


def syntax_error(line: int, column: int, message: str) -> ValueError:
    """A ValueError that names the place: 'line L, column C: message'."""
    return ValueError(f"line {line}, column {column}: {message}")


def tokenize(text: str) -> list[Token]:
    """Split `text` into tokens (Section 4.1 lexicon, COBRA's spellings), ending with EOF."""
    tokens, line, line_start, pos = [], 1, 0, 0
    while pos < len(text):
        match = TOKEN_RE.match(text, pos)
        column = pos - line_start + 1
        if match is None:
            raise syntax_error(line, column, f"unexpected character {text[pos]!r}")
        kind, lexeme = match.lastgroup, match.group()
        if kind == "unterminated":
            raise syntax_error(line, column, "unterminated string (quotes must close on the same line)")
        if kind == "newline":
            line, line_start = line + 1, match.end()
        elif kind not in ("space", "comment"):
            tokens.append(classify(kind, lexeme, line, column))
        pos = match.end()
    tokens.append(Token("EOF", "", "", line, pos - line_start + 1))
    return tokens


def classify(kind: str, lexeme: str, line: int, column: int) -> Token:
    """Turn one regular-expression match into a Token (keywords and word operators included)."""
    upper = lexeme.upper()
    if kind in ("keyword", "word") and upper in KEYWORDS:
        return Token("KEYWORD", KEYWORDS[upper], lexeme, line, column)
    if kind == "word" and upper in WORD_OPERATORS:
        return Token("OP", WORD_OPERATORS[upper], lexeme, line, column)
    if kind == "word" and upper in THRESHOLDS:
        return Token("THRESHOLD", THRESHOLDS[upper], lexeme, line, column)
    if kind == "word":
        return Token("IDENT", lexeme, lexeme, line, column)
    if kind == "int":
        return Token("INT", int(lexeme), lexeme, line, column)
    if kind == "string":
        return Token("STRING", lexeme[1:-1], lexeme, line, column)
    if kind == "op":
        return Token("OP", SYMBOL_OPERATORS[lexeme], lexeme, line, column)
    return Token("PUNCT", lexeme, lexeme, line, column)


# ---------------------------------------------------------------------------
# Abstract syntax
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Var:
    """A variable, by name."""

    name: str
    at: Token


@dataclass(frozen=True)
class Param:
    """A mapping applied to the n-th parameter: f($n) (1-based n)."""

    mapping: str
    n: int
    at: Token


@dataclass(frozen=True)
class Not:
    """Negation."""

    child: Formula


@dataclass(frozen=True)
class Connective:
    """and / or over any number of operands; implies, implied, equiv over two."""

    op: str  # "and", "or", "implies", "equiv"
    children: tuple[Formula, ...]


@dataclass(frozen=True)
class Threshold:
    """AtLeast-k, AtMost-k or Exactly-k of the operands are true."""

    kind: str  # "atleast", "atmost", "exactly"
    k: int
    children: tuple[Formula, ...]


Formula = Var | Param | Not | Connective | Threshold


@dataclass
class Statement:
    """One line of a game file: its keyword, arguments, and the token it starts at."""

    keyword: str
    at: Token
    names: list[Token] = field(default_factory=list)
    numbers: list[Token] = field(default_factory=list)
    formula: Formula | None = None


# ---------------------------------------------------------------------------
# Recursive-descent parser
# ---------------------------------------------------------------------------


class Parser:
    """Recursive descent over the token list; one method per grammar rule."""

    def __init__(self, tokens: list[Token]):
        self.tokens, self.i = tokens, 0

    @property
    def peek(self) -> Token:
        return self.tokens[self.i]

    def advance(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def at(self, kind: str, value: object = None) -> bool:
        token = self.peek
        return token.kind == kind and (value is None or token.value == value)

    def expect(self, kind: str, value: object = None, what: str | None = None) -> Token:
        if not self.at(kind, value):
            wanted = what or (repr(value) if value is not None else kind.lower())
            token = self.peek
            raise syntax_error(token.line, token.column, f"expected {wanted}, found {token.describe()}")
        return self.advance()

    # file = { statement } EOF
    def file(self) -> list[Statement]:
        statements = []
        while not self.at("EOF"):
            statements.append(self.statement())
        return statements

    def statement(self) -> Statement:
        keyword = self.expect("KEYWORD", what="a statement keyword (VARIABLES, RESTRICTION, "
                              "ALPHABET, MAPPING, EXPERIMENT, PARAMS_DISTINCT, PARAMS_SORTED, OUTCOME, "
                              "FINAL_OUTCOME)")
        s = Statement(str(keyword.value), keyword)
        if s.keyword == "VARIABLES":
            s.names = self.comma_list(self.name)
        elif s.keyword == "RESTRICTION":
            s.formula = self.formula()
        elif s.keyword == "ALPHABET":
            s.names = self.comma_list(self.symbol)
        elif s.keyword == "MAPPING":
            s.names = [self.name(), *self.comma_list(self.name)]
        elif s.keyword == "EXPERIMENT":
            s.names, s.numbers = [self.name()], [self.expect("INT", what="the number of parameters")]
        elif s.keyword in ("PARAMS_DISTINCT", "PARAMS_SORTED"):
            s.numbers = self.comma_list(lambda: self.expect("INT", what="a parameter number"))
        else:  # OUTCOME, FINAL_OUTCOME
            s.names, s.formula = [self.name()], self.formula()
        return s

    def comma_list(self, item: Callable[[], object]) -> list:
        items = [item()]
        while self.at("PUNCT", ","):
            self.advance()
            items.append(item())
        return items

    def name(self) -> Token:
        if self.at("IDENT") or self.at("STRING"):
            return self.advance()
        token = self.peek
        raise syntax_error(token.line, token.column, f"expected a name, found {token.describe()}")

    def symbol(self) -> Token:
        if self.at("INT"):
            return self.advance()
        return self.name()

    # formula = implies [ EQUIV formula ]   (right associative)
    def formula(self) -> Formula:
        left = self.implies()
        if self.at("OP", "EQUIV"):
            self.advance()
            return Connective("equiv", (left, self.formula()))
        return left

    # implies = implied [ IMPLIES implies ]   (right associative)
    def implies(self) -> Formula:
        left = self.implied()
        if self.at("OP", "IMPLIES"):
            self.advance()
            return Connective("implies", (left, self.implies()))
        return left

    # implied = disj { IMPLIED disj }   (left associative; a <- b means b -> a)
    def implied(self) -> Formula:
        left = self.disjunction()
        while self.at("OP", "IMPLIED"):
            self.advance()
            left = Connective("implies", (self.disjunction(), left))
        return left

    def disjunction(self) -> Formula:
        return self.chain("OR", "or", self.conjunction)

    def conjunction(self) -> Formula:
        return self.chain("AND", "and", self.unary)

    def chain(self, token_op: str, op: str, operand: Callable[[], Formula]) -> Formula:
        children = [operand()]
        while self.at("OP", token_op):
            self.advance()
            children.append(operand())
        return children[0] if len(children) == 1 else Connective(op, tuple(children))

    def unary(self) -> Formula:
        if self.at("OP", "NOT"):
            self.advance()
            return Not(self.unary())
        return self.atom()

    def atom(self) -> Formula:
        token = self.peek
        if self.at("PUNCT", "("):
            self.advance()
            inner = self.formula()
            self.expect("PUNCT", ")", "')'")
            return inner
        if token.kind == "OP" and token.value in ("AND", "OR"):
            self.advance()
            return Connective(str(token.value).lower(), self.operands())
        if token.kind == "THRESHOLD":
            self.advance()
            self.expect("PUNCT", "-", f"'-' and a number after {token.text}")
            k = self.expect("INT", what=f"a number after {token.text}-")
            return Threshold(str(token.value), int(k.value), self.operands())
        if token.kind == "IDENT":
            self.advance()
            return self.after_ident(token)
        raise syntax_error(token.line, token.column, f"expected a formula, found {token.describe()}")

    def operands(self) -> tuple[Formula, ...]:
        self.expect("PUNCT", "(", "'('")
        children = self.comma_list(self.formula)
        self.expect("PUNCT", ")", "')' or ','")
        return tuple(children)

    def after_ident(self, ident: Token) -> Formula:
        """IDENT alone is a variable; IDENT$n or IDENT($n) applies a mapping."""
        if self.at("PUNCT", "$"):
            self.advance()
            return Param(ident.text, int(self.expect("INT", what="a parameter number after '$'").value), ident)
        if self.at("PUNCT", "("):
            self.advance()
            self.expect("PUNCT", "$", "'$' (a mapping is applied as f($n))")
            n = int(self.expect("INT", what="a parameter number after '$'").value)
            self.expect("PUNCT", ")", "')'")
            return Param(ident.text, n, ident)
        return Var(ident.text, ident)


def parse_statements(text: str) -> list[Statement]:
    """Tokenize and parse a game file into its statements (syntax only)."""
    return Parser(tokenize(text)).file()


# ---------------------------------------------------------------------------
# Semantic model: declarations checked in order
# ---------------------------------------------------------------------------


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


@dataclass
class GameSpec:
    """Everything a game file declares, checked: the thesis's (X, phi_0, T, Sigma, F, Phi)."""

    variables: list[str] = field(default_factory=list)
    restrictions: list[Formula] = field(default_factory=list)
    alphabet: list[str] = field(default_factory=list)
    mappings: dict[str, list[int]] = field(default_factory=dict)  # name -> variable per symbol
    experiments: list[ExperimentType] = field(default_factory=list)


def semantic_error(token: Token, message: str) -> ValueError:
    """A ValueError placed at `token` (a declaration problem rather than a syntax one)."""
    return syntax_error(token.line, token.column, message)


def build_spec(statements: list[Statement]) -> GameSpec:
    """Check the statements in order (names declared before use) and collect a GameSpec."""
    spec = GameSpec()
    for s in statements:
        DECLARE[s.keyword](spec, s)
    if not spec.variables:
        raise ValueError("the game declares no variables (VARIABLES x, y, ...)")
    if not spec.experiments:
        raise ValueError("the game declares no experiments (EXPERIMENT 'name' k)")
    for e in spec.experiments:
        if not e.outcomes:
            raise semantic_error(e.at, f"experiment {e.name!r} has no outcomes")
        if e.k > 0 and not spec.alphabet:
            raise semantic_error(e.at, f"experiment {e.name!r} has parameters but there is no ALPHABET")
    return spec


def declare_variables(spec: GameSpec, s: Statement) -> None:
    """VARIABLES: new, distinct identifiers."""
    for token in s.names:
        if token.value in spec.variables:
            raise semantic_error(token, f"variable {token.value!r} declared twice")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(token.value)):
            raise semantic_error(token, f"variable name {token.value!r} is not an identifier")
        spec.variables.append(str(token.value))


def declare_restriction(spec: GameSpec, s: Statement) -> None:
    """RESTRICTION / CONSTRAINT: one more conjunct of phi_0."""
    check_formula(spec, s.formula, None)
    spec.restrictions.append(s.formula)


def declare_alphabet(spec: GameSpec, s: Statement) -> None:
    """ALPHABET: the symbols parameters range over, once."""
    if spec.alphabet:
        raise semantic_error(s.at, "ALPHABET given twice")
    symbols = [str(t.value) for t in s.names]
    for token, symbol in zip(s.names, symbols):
        if symbols.count(symbol) > 1:
            raise semantic_error(token, f"alphabet symbol {symbol!r} listed twice")
    spec.alphabet = symbols


def declare_mapping(spec: GameSpec, s: Statement) -> None:
    """MAPPING name v1, ..., va: symbol i of the alphabet goes to variable vi."""
    name, *targets = s.names
    if not spec.alphabet:
        raise semantic_error(s.at, "MAPPING before ALPHABET: a mapping sends each alphabet symbol to a variable")
    if name.value in spec.mappings:
        raise semantic_error(name, f"mapping {name.value!r} declared twice")
    if len(targets) != len(spec.alphabet):
        raise semantic_error(name, f"mapping {name.value!r} lists {len(targets)} variables "
                             f"but the alphabet has {len(spec.alphabet)} symbols")
    for token in targets:
        if token.value not in spec.variables:
            raise semantic_error(token, f"unknown variable {token.value!r} in mapping {name.value!r}")
    spec.mappings[str(name.value)] = [spec.variables.index(str(t.value)) for t in targets]


def declare_experiment(spec: GameSpec, s: Statement) -> None:
    """EXPERIMENT name k: a new experiment type; PARAMS_* and OUTCOME lines refer to it."""
    name, k = str(s.names[0].value), int(s.numbers[0].value)
    if any(e.name == name for e in spec.experiments):
        raise semantic_error(s.names[0], f"experiment {name!r} declared twice")
    spec.experiments.append(ExperimentType(name, k, s.at))


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
            raise semantic_error(token, f"parameter {n} out of range 1..{e.k} of experiment {e.name!r}")
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
    if any(label == seen for seen, _ in e.outcomes):
        raise semantic_error(s.names[0], f"outcome {label!r} given twice in experiment {e.name!r}")
    check_formula(spec, s.formula, e)
    e.outcomes.append((label, s.formula))
    if s.keyword == "FINAL_OUTCOME":
        e.final.add(label)


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
    """Every variable declared, every mapping known, every $n within 1..k (none in a restriction)."""
    for leaf in leaves(f):
        if isinstance(leaf, Var) and leaf.name not in spec.variables:
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


# ---------------------------------------------------------------------------
# Evaluation on packed bit rows: shape (rows, words), one bit per code
# ---------------------------------------------------------------------------


def evaluate(f: Formula, leaf: Callable[[Var | Param], np.ndarray]) -> np.ndarray:
    """Evaluate `f` bitwise; `leaf` gives the packed truth values of a variable or f($n)."""
    if isinstance(f, (Var, Param)):
        return leaf(f)
    if isinstance(f, Not):
        return ~evaluate(f.child, leaf)
    values = [evaluate(child, leaf) for child in f.children]
    if isinstance(f, Threshold):
        return threshold(f.kind, f.k, values)
    if f.op == "and":
        return reduce(np.bitwise_and, values)
    if f.op == "or":
        return reduce(np.bitwise_or, values)
    a, b = values
    return (~a | b) if f.op == "implies" else ~(a ^ b)


def threshold(kind: str, k: int, values: list[np.ndarray]) -> np.ndarray:
    """AtLeast/AtMost/Exactly-k bitwise, by the running 'at least j so far' recurrence."""
    top = k + 1  # we need 'at least k' and 'at least k+1'
    shape = np.broadcast_shapes(*(v.shape for v in values))
    at_least = [np.full(shape, ALL_ONES)] + [np.zeros(shape, WORD) for _ in range(top)]
    for count, x in enumerate(values, start=1):
        for j in range(min(top, count), 0, -1):
            at_least[j] = at_least[j] | (at_least[j - 1] & x)
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
    for start in range(0, total, step):
        count = min(step, total - start)
        if restriction is None:
            found.append(np.arange(start, start + count))
        else:
            words = valuation_words(n, start, count)
            ok = unpack(evaluate(restriction, lambda v: words[spec.variables.index(v.name)]), count)
            found.append(start + np.flatnonzero(ok[0]))
        kept += len(found[-1])
        if kept > MAX_CODES:
            raise ValueError(f"more than {MAX_CODES} valuations satisfy the restriction: too many codes")
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
            raise ValueError(f"experiment {e.name!r}: more than {MAX_PARAMETRIZATIONS} "
                             "parametrizations; add PARAMS_DISTINCT / PARAMS_SORTED or shrink the game")
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
                cache[key] = columns[spec.variables.index(x.name)][None, :]
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
        raise ValueError(
            f"game is not well formed: experiment {e.name!r} with parametrization ({shown}) "
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


def game_tables(text: str, name: str = "game") -> GameTables:
    """Parse `text`, enumerate codes and experiments, and tabulate every outcome."""
    spec = build_spec(parse_statements(text))
    codes = enumerate_codes(spec)
    if len(codes) == 0:
        raise ValueError("the restriction is unsatisfiable: the game has no codes")
    labels: list[str] = []
    experiments, rows = [], []
    symbols = symbol_numbers(spec.alphabet)
    for e in spec.experiments:
        params = parametrizations(e, len(spec.alphabet))
        if len(params) == 0:
            raise semantic_error(e.at, f"experiment {e.name!r} has no admissible parametrization")
        local = outcome_indices(spec, e, params, codes)
        to_global = np.array([label_index(labels, label) for label, _ in e.outcomes])
        rows.append(to_global[local])
        experiments += [(e.name, row) for row in map(tuple, symbols[params].tolist())]
    table = np.concatenate(rows).astype(np.int16)
    return GameTables(name, list(spec.variables), codes, experiments, table, labels,
                      final_labels(spec), list(spec.alphabet))


def symbol_numbers(alphabet: list[str]) -> np.ndarray:
    """The int that stands for each symbol in a parametrization: the symbol itself when every
    symbol is a decimal number (ALPHABET 1, 2, 3 gives (1, 3)), else its position 0, 1, ..."""
    if alphabet and all(re.fullmatch(r"[0-9]+", a) for a in alphabet) \
            and len({int(a) for a in alphabet}) == len(alphabet):
        return np.array([int(a) for a in alphabet], dtype=np.int64)
    return np.arange(len(alphabet), dtype=np.int64)


def final_labels(spec: GameSpec) -> list[str]:
    """Labels given as FINAL_OUTCOME; a label may not be final in one experiment and not in another."""
    final = sorted(set().union(*(e.final for e in spec.experiments)))
    for e in spec.experiments:
        for label, _ in e.outcomes:
            if label in final and label not in e.final:
                raise semantic_error(e.at, f"outcome {label!r} is final elsewhere but not in "
                                     f"experiment {e.name!r}")
    return final


def label_index(labels: list[str], label: str) -> int:
    """Index of `label` in the shared label list, appending it the first time."""
    if label not in labels:
        labels.append(label)
    return labels.index(label)


def parse(text: str, name: str = "game"):
    """Parse a game description (source 001, Section 4.1) into a `puzzlelab.codebreaking` Game."""
    from .game import Game

    t = game_tables(text, name)
    return Game(t.name, t.variables, t.codes, t.experiments, t.outcome_table, t.outcome_labels,
                final_outcomes=t.final_outcomes)


def load(path: str | Path):
    """Parse a game file; the game is named after the file (data/games/coin12.cobra -> 'coin12')."""
    path = Path(path)
    if not path.is_absolute() and not path.exists():
        path = GAMES_DIR / path
    return parse(path.read_text(encoding="utf-8"), name=path.stem)


def explore_game_text(text: str) -> pd.DataFrame:
    """One row per experiment type of a game written in the language: its parameters,
    parametrizations, outcomes that occur, and the smallest worst-case part over its
    parametrizations (the best first experiment for Knuth's max-models rule)."""
    t = game_tables(text)
    types = np.array([e for e, _ in t.experiments])
    b = len(t.outcome_labels)
    rows = []
    for name in dict.fromkeys(types.tolist()):
        table = t.outcome_table[types == name].astype(np.int64)
        flat = table + b * np.arange(len(table))[:, None]
        parts = np.bincount(flat.ravel(), minlength=b * len(table)).reshape(len(table), b)
        rows.append({"experiment": name, "parameters": len(t.experiments[int(np.argmax(types == name))][1]),
                     "parametrizations": len(table), "outcomes that occur": int((parts.sum(0) > 0).sum()),
                     "best worst part": int(parts.max(axis=1).min())})
    return pd.DataFrame(rows).assign(codes=len(t.codes))


# ---------------------------------------------------------------------------
# Writing the thesis's games in the language (Examples 8 and 10)
# ---------------------------------------------------------------------------


def counterfeit_coin_source(coins: int, extra_genuine: bool = False) -> str:
    """The counterfeit-coin game of Example 8 (x_i: coin i is fake, y: it is heavier) as text.

    With `extra_genuine`, coin 0 is one more coin known to be genuine (x0 restricted false),
    which a weighing may put on either pan. Outcomes in the thesis's order: right pan heavier,
    left pan heavier, balance.
    """
    if coins < 1:
        raise ValueError(f"need at least one coin, got {coins}")
    coin_numbers = list(range(0 if extra_genuine else 1, coins + 1))
    xs = [f"x{i}" for i in coin_numbers]
    fake = ", ".join(f"x{i}" for i in range(1, coins + 1))
    lines = [f"# Counterfeit coin: {coins} coins{', plus coin 0 known to be genuine' if extra_genuine else ''}"
             " (source 001, Example 8).",
             "# x<i>: coin i is the counterfeit; y: the counterfeit is heavier.",
             f"VARIABLES {', '.join(xs + ['y'])}",
             f"RESTRICTION Exactly-1({fake})"]
    if extra_genuine:
        lines.append("RESTRICTION !x0  # coin 0 is genuine")
    lines += [f"ALPHABET {', '.join(map(str, coin_numbers))}",
              f"MAPPING 'X' {', '.join(xs)}", ""]
    for m in range(1, len(coin_numbers) // 2 + 1):
        left = " | ".join(f"X${i}" for i in range(1, m + 1))
        right = " | ".join(f"X${i}" for i in range(m + 1, 2 * m + 1))
        lines += [f"# {m} against {m}: parameters 1..{m} on the left pan, {m + 1}..{2 * m} on the right;",
                  "# pans sorted, the lower coin of the two pans' first coins on the left",
                  f"EXPERIMENT 'w{2 * m}' {2 * m}",
                  f"  PARAMS_DISTINCT {', '.join(str(i) for i in range(1, 2 * m + 1))}",
                  *([f"  PARAMS_SORTED {', '.join(str(i) for i in range(1, m + 1))}",
                     f"  PARAMS_SORTED {', '.join(str(i) for i in range(m + 1, 2 * m + 1))}"]
                    if m > 1 else []),
                  f"  PARAMS_SORTED 1, {m + 1}",
                  f"  OUTCOME 'right heavier' (({left}) & !y) | (({right}) & y)",
                  f"  OUTCOME 'left heavier' (({left}) & y) | (({right}) & !y)",
                  f"  OUTCOME 'balance' !({left} | {right})", ""]
    return "\n".join(lines)


def counterfeit_coin_alt_source(coins: int) -> str:
    """Example 9's formalization (x_i: coin i is lighter, y_i: heavier), in the thesis's spelling."""
    if coins < 1:
        raise ValueError(f"need at least one coin, got {coins}")
    xs, ys = [f"x{i}" for i in range(1, coins + 1)], [f"y{i}" for i in range(1, coins + 1)]
    lines = [f"# Counterfeit coin: {coins} coins, the alternative formalization of source 001, Example 9,",
             "# written with the thesis's spellings (Section 4.1 grammar).",
             "# x<i>: coin i is the counterfeit and lighter; y<i>: it is the counterfeit and heavier.",
             f"Variables {', '.join(xs + ys)}",
             f"CONSTRAINT EXACTLY-1({', '.join(xs + ys)})",
             f"ALPHABET {', '.join(str(i) for i in range(1, coins + 1))}",
             f"Mapping Light {', '.join(xs)}",
             f"Mapping Heavy {', '.join(ys)}", ""]
    for m in range(1, coins // 2 + 1):
        left, right = range(1, m + 1), range(m + 1, 2 * m + 1)

        def light(pan: range) -> list[str]:
            return [f"Light(${i})" for i in pan]

        def heavy(pan: range) -> list[str]:
            return [f"Heavy(${i})" for i in pan]

        lines += [f"Experiment w{2 * m} {2 * m}",
                  f"  Params-distinct {', '.join(str(i) for i in range(1, 2 * m + 1))}",
                  *([f"  Params-sorted {', '.join(str(i) for i in left)}",
                     f"  Params-sorted {', '.join(str(i) for i in right)}"] if m > 1 else []),
                  f"  Params-sorted 1, {m + 1}",
                  f"  OUTCOME \"right heavier\" OR({', '.join(light(left) + heavy(right))})",
                  f"  OUTCOME \"left heavier\" OR({', '.join(heavy(left) + light(right))})",
                  f"  OUTCOME \"balance\" !OR({', '.join(light(left) + light(right) + heavy(left) + heavy(right))})",
                  ""]
    return "\n".join(lines)


def mastermind_source(pegs: int, colors: int, black_only: bool = False) -> str:
    """Mastermind of Example 10 as text: x<i>_<c> says peg i has colour c; F<i> maps colours.

    An outcome bBwW is a disjunction over partial matchings (the thesis's construction):
    b black positions, w white pairs (guess peg i has the colour of code peg j, i != j,
    neither black) and no further colour match among the unmatched pegs -- a maximal
    matching, hence maximum, as colour classes form complete bipartite graphs. Outcome
    (pegs-1)B1W has no matching; like the thesis's Phi(g) we keep it, as a contradiction.
    The all-black outcome is final: the game ends when the code is guessed.
    """
    if pegs < 1 or colors < 1:
        raise ValueError(f"need at least one peg and one colour, got {pegs} x {colors}")
    lines = [f"# Mastermind: {pegs} pegs x {colors} colours"
             f"{', black markers only' if black_only else ''} (source 001, Example 10).",
             "# x<i>_<c>: peg i of the code has colour c; mapping F<i> sends colour c to x<i>_<c>."]
    for i in range(1, pegs + 1):
        lines.append(f"VARIABLES {', '.join(f'x{i}_{c}' for c in range(1, colors + 1))}")
    for i in range(1, pegs + 1):
        lines.append(f"RESTRICTION Exactly-1({', '.join(f'x{i}_{c}' for c in range(1, colors + 1))})")
    lines.append(f"ALPHABET {', '.join(str(c) for c in range(1, colors + 1))}")
    for i in range(1, pegs + 1):
        lines.append(f"MAPPING 'F{i}' {', '.join(f'x{i}_{c}' for c in range(1, colors + 1))}")
    lines += ["", f"EXPERIMENT 'g' {pegs}"]
    blacks = ", ".join(f"F{i}${i}" for i in range(1, pegs + 1))
    if black_only:
        lines += [f"  {'FINAL_OUTCOME' if b == pegs else 'OUTCOME'} '{b}B' Exactly-{b}({blacks})"
                  for b in range(pegs + 1)]
        return "\n".join(lines) + "\n"
    for b in range(pegs + 1):
        for w in range(pegs - b + 1):
            clauses = matching_clauses(pegs, b, w) or ["F1$1 & !F1$1  # no matching: never happens"]
            keyword = "FINAL_OUTCOME" if b == pegs else "OUTCOME"
            lines.append(f"  {keyword} '{b}B{w}W' " + "\n    | ".join(clauses))
    return "\n".join(lines) + "\n"


def matching_clauses(pegs: int, b: int, w: int) -> list[str]:
    """Conjunctions, one per (black set, white matching), for outcome (b black, w white)."""
    clauses = []
    for black in combinations(range(1, pegs + 1), b):
        rest = [p for p in range(1, pegs + 1) if p not in black]
        for guess_side in combinations(rest, w):
            for code_side in permutations(rest, w):
                if any(i == j for i, j in zip(guess_side, code_side)):
                    continue
                literals = [f"F{i}${i}" for i in black]
                for i, j in zip(guess_side, code_side):
                    literals += [f"F{j}${i}", f"!F{i}${i}", f"!F{j}${j}"]
                free_guess = [i for i in rest if i not in guess_side]
                free_code = [j for j in rest if j not in code_side]
                literals += [f"!F{j}${i}" for i in free_guess for j in free_code]
                clauses.append("(" + " & ".join(dict.fromkeys(literals)) + ")")
    return clauses


SHIPPED_GAMES = {
    "coin12": lambda: counterfeit_coin_source(12),
    "coin13": lambda: counterfeit_coin_source(13),
    "coin13_genuine": lambda: counterfeit_coin_source(13, extra_genuine=True),
    "coin12_alt": lambda: counterfeit_coin_alt_source(12),
    "coin4": lambda: counterfeit_coin_source(4),
    "coin4_genuine": lambda: counterfeit_coin_source(4, extra_genuine=True),
    "mastermind": lambda: mastermind_source(4, 6),
    "mastermind_black": lambda: mastermind_source(4, 6, black_only=True),
    "mastermind_3x3": lambda: mastermind_source(3, 3),
}


def write_shipped_games() -> list[Path]:
    """(Re)write the game files of data/games/ from the generators above."""
    GAMES_DIR.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, source in SHIPPED_GAMES.items():
        text = source()
        path = GAMES_DIR / f"{name}.cobra"
        path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        paths.append(path)
    return paths
