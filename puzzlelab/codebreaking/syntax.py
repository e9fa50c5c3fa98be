"""The syntax of COBRA's game language (Klimoš 2014, §4.1): tokens, formulas, statements.

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
* connectives: `!`, `¬` (we also read `not`); `&`, `&&`, `and`, `∧`; `|`, `||`, `or`, `∨`;
  `->`, `→`,
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
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import checks

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "MAX_NESTING", "Connective", "Formula", "Not", "Param",
           "Parser", "Statement", "Threshold", "Token", "Var", "formula_depth", "parse_statements",
           "syntax_error", "tokenize"]

MAX_NESTING = 60  # parentheses (and operand lists) inside one another
MAX_DEPTH = 200  # operators inside one another in one formula (a -> b -> c ... counts each ->)
MAX_DIGITS = 18  # a number in a game file (below 2**63)

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


TOKEN_KINDS = ("KEYWORD", "OP", "THRESHOLD", "IDENT", "INT", "STRING", "PUNCT", "EOF")


@dataclass(frozen=True)
class Token:
    """One token: its kind, its value, and where it starts (1-based line and column)."""

    kind: str  # KEYWORD, OP, THRESHOLD, IDENT, INT, STRING, PUNCT, EOF
    value: str | int
    text: str
    line: int
    column: int

    def __post_init__(self) -> None:
        checks.record(self)
        checks.choice(self.kind, "Token.kind", TOKEN_KINDS)
        checks.integer(self.line, "Token.line", low=1)
        checks.integer(self.column, "Token.column", low=1)

    def describe(self) -> str:
        """How an error message shows this token."""
        return "end of input" if self.kind == "EOF" else repr(self.text)


def syntax_error(line: int, column: int, message: str) -> ValueError:
    """A ValueError that names the place: 'line L, column C: message'."""
    checks.integer(line, "line", low=1)
    checks.integer(column, "column", low=1)
    checks.text(message, "message")
    return ValueError(f"line {line}, column {column}: {message}")


def tokenize(text: str) -> list[Token]:
    """Split `text` into tokens (Section 4.1 lexicon, COBRA's spellings), ending with EOF.

    A leading UTF-8 byte-order mark is skipped, and a line may end in LF, CRLF or CR alone.
    """
    text = _plain_lines(checks.text(text, "a game description"))
    tokens, line, line_start, pos = [], 1, 0, 0
    while pos < len(text):
        match = TOKEN_RE.match(text, pos)
        column = pos - line_start + 1
        if match is None:
            raise syntax_error(line, column, f"unexpected character {text[pos]!r}")
        kind, lexeme = match.lastgroup, match.group()
        if kind == "unterminated":
            raise syntax_error(
                line, column, "unterminated string (quotes must close on the same line)"
            )
        if kind == "newline":
            line, line_start = line + 1, match.end()
        elif kind not in ("space", "comment"):
            tokens.append(classify(kind, lexeme, line, column))
        pos = match.end()
    tokens.append(Token("EOF", "", "", line, pos - line_start + 1))
    return tokens


def _plain_lines(text: str) -> str:
    """`text` without a byte-order mark, its lines ending in LF (CRLF and CR alone become LF;
    a CR is at a line's end, so the columns of every token stay as they were)."""
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


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
        if len(lexeme) > MAX_DIGITS:
            raise syntax_error(line, column, f"number {lexeme[:12]}… is too large "
                               f"(at most {MAX_DIGITS} digits)")
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

    def __post_init__(self) -> None:
        checks.record(self)


@dataclass(frozen=True)
class Param:
    """A mapping applied to the n-th parameter: f($n) (1-based n)."""

    mapping: str
    n: int
    at: Token

    def __post_init__(self) -> None:
        checks.record(self)


@dataclass(frozen=True)
class Not:
    """Negation."""

    child: Formula

    def __post_init__(self) -> None:
        checks.record(self)


@dataclass(frozen=True)
class Connective:
    """and / or over any number of operands; implies, implied, equiv over two."""

    op: str  # "and", "or", "implies", "equiv"
    children: tuple[Formula, ...]

    def __post_init__(self) -> None:
        checks.record(self)


@dataclass(frozen=True)
class Threshold:
    """AtLeast-k, AtMost-k or Exactly-k of the operands are true."""

    kind: str  # "atleast", "atmost", "exactly"
    k: int
    children: tuple[Formula, ...]

    def __post_init__(self) -> None:
        checks.record(self)


Formula = Var | Param | Not | Connective | Threshold


@dataclass
class Statement:
    """One line of a game file: its keyword, arguments, and the token it starts at."""

    keyword: str
    at: Token
    names: list[Token] = field(default_factory=list)
    numbers: list[Token] = field(default_factory=list)
    formula: Formula | None = None

    def __post_init__(self) -> None:
        checks.record(self)


# ---------------------------------------------------------------------------
# Recursive-descent parser
# ---------------------------------------------------------------------------


class Parser:
    """Recursive descent over the token list; one method per grammar rule.

    Chains (`a -> b -> c`, `!!a`) are read by loops; only parentheses and operand lists
    recurse, at most MAX_NESTING deep, and a formula nests at most MAX_DEPTH operators.
    """

    def __init__(self, tokens: list[Token]):
        tokens = checks.sequence(tokens, "tokens", what="a list of Token (from tokenize)")
        if not tokens or not all(isinstance(t, Token) for t in tokens) or tokens[-1].kind != "EOF":
            raise checks.ArgumentTypeError(
                f"tokens must be a list of Token ending with EOF (from tokenize), got {tokens!r}")
        self.tokens, self.i, self.nesting = tokens, 0, 0

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
            raise syntax_error(
                token.line, token.column, f"expected {wanted}, found {token.describe()}"
            )
        return self.advance()

    # file = { statement } EOF
    def file(self) -> list[Statement]:
        statements = []
        while not self.at("EOF"):
            statements.append(self.statement())
        return statements

    def statement(self) -> Statement:
        keyword = self.expect(
            "KEYWORD",
            what="a statement keyword (VARIABLES, RESTRICTION, "
            "ALPHABET, MAPPING, EXPERIMENT, PARAMS_DISTINCT, PARAMS_SORTED, OUTCOME, "
            "FINAL_OUTCOME)",
        )
        s = Statement(str(keyword.value), keyword)
        if s.keyword == "VARIABLES":
            s.names = self.comma_list(self.name)
        elif s.keyword == "RESTRICTION":
            s.formula = self.whole_formula()
        elif s.keyword == "ALPHABET":
            s.names = self.comma_list(self.symbol)
        elif s.keyword == "MAPPING":
            s.names = [self.name(), *self.comma_list(self.name)]
        elif s.keyword == "EXPERIMENT":
            s.names, s.numbers = [self.name()], [
                self.expect("INT", what="the number of parameters")
            ]
        elif s.keyword in ("PARAMS_DISTINCT", "PARAMS_SORTED"):
            s.numbers = self.comma_list(lambda: self.expect("INT", what="a parameter number"))
        else:  # OUTCOME, FINAL_OUTCOME
            s.names, s.formula = [self.name()], self.whole_formula()
        return s

    def whole_formula(self) -> Formula:
        """A formula, refused (with its place) if it nests more than MAX_DEPTH operators."""
        start = self.peek
        f = self.formula()
        if formula_depth(f) > MAX_DEPTH:
            raise syntax_error(start.line, start.column, f"formula nests more than {MAX_DEPTH} "
                               "operators inside one another")
        return f

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
        return self.right_chain("EQUIV", "equiv", self.implies)

    # implies = implied [ IMPLIES implies ]   (right associative)
    def implies(self) -> Formula:
        return self.right_chain("IMPLIES", "implies", self.implied)

    def right_chain(self, token_op: str, op: str, operand: Callable[[], Formula]) -> Formula:
        """operand { OP operand }, grouped to the right: a op (b op c)."""
        items = [operand()]
        while self.at("OP", token_op):
            self.advance()
            items.append(operand())
        result = items[-1]
        for left in reversed(items[:-1]):
            result = Connective(op, (left, result))
        return result

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
        nots = 0
        while self.at("OP", "NOT"):
            self.advance()
            nots += 1
        f = self.atom()
        for _ in range(nots):
            f = Not(f)
        return f

    def nested(self, opening: Token, inner: Callable[[], object]) -> object:
        """inner() one level of parentheses deeper; refused beyond MAX_NESTING levels."""
        if self.nesting >= MAX_NESTING:
            raise syntax_error(opening.line, opening.column,
                               f"more than {MAX_NESTING} parentheses inside one another")
        self.nesting += 1
        try:
            return inner()
        finally:
            self.nesting -= 1

    def atom(self) -> Formula:
        token = self.peek
        if self.at("PUNCT", "("):
            inner = self.nested(self.advance(), self.formula)
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
        raise syntax_error(
            token.line, token.column, f"expected a formula, found {token.describe()}"
        )

    def operands(self) -> tuple[Formula, ...]:
        opening = self.expect("PUNCT", "(", "'('")
        children = self.nested(opening, lambda: self.comma_list(self.formula))
        self.expect("PUNCT", ")", "')' or ','")
        return tuple(children)

    def after_ident(self, ident: Token) -> Formula:
        """IDENT alone is a variable; IDENT$n or IDENT($n) applies a mapping."""
        if self.at("PUNCT", "$"):
            self.advance()
            return Param(
                ident.text,
                int(self.expect("INT", what="a parameter number after '$'").value),
                ident,
            )
        if self.at("PUNCT", "("):
            self.advance()
            self.expect("PUNCT", "$", "'$' (a mapping is applied as f($n))")
            n = int(self.expect("INT", what="a parameter number after '$'").value)
            self.expect("PUNCT", ")", "')'")
            return Param(ident.text, n, ident)
        return Var(ident.text, ident)


def formula_depth(f: Formula) -> int:
    """How many operators nest inside one another in `f` (a variable has depth 1); no recursion."""
    if not isinstance(f, (Var, Param, Not, Connective, Threshold)):
        raise checks.ArgumentTypeError(f"f must be a formula (from parse_statements), got {f!r}")
    deepest, stack = 0, [(f, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(node, Not):
            stack.append((node.child, depth + 1))
        elif isinstance(node, (Connective, Threshold)):
            stack.extend((child, depth + 1) for child in node.children)
    return deepest


def parse_statements(text: str) -> list[Statement]:
    """Tokenize and parse a game file into its statements (syntax only)."""
    return Parser(tokenize(text)).file()
