"""Tests for COBRA's game-description language (source 001, Section 4.1): puzzlelab.codebreaking.language.

The shipped game files are checked against brute force written here, independently of the
language: weighing coins on a balance and scoring Mastermind guesses by colour counts.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.codebreaking import black_peg_mastermind, counterfeit_coin, mastermind
from puzzlelab.codebreaking import game_files as G
from puzzlelab.codebreaking import language as L
from puzzlelab.codebreaking.notebook import explore_game_text

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def canonical(table: np.ndarray) -> np.ndarray:
    """Renumber each row's outcomes by first appearance: equal rows <=> equal partitions of the codes."""
    table = np.asarray(table, dtype=np.int64)
    n = table.shape[1]
    present = table[:, :, None] == np.arange(table.max() + 1)
    first = np.where(present.any(axis=1), present.argmax(axis=1), n)
    rank = np.argsort(np.argsort(first, axis=1, kind="stable"), axis=1)
    return np.take_along_axis(rank, table, axis=1)


def true_sets(variables: list[str], codes: np.ndarray) -> list[frozenset[str]]:
    """Each code as the set of its true variables."""
    return [frozenset(v for v, bit in zip(variables, row) if bit) for row in codes]


def assert_labels(t: L.GameTables, names: list[str], expected: np.ndarray) -> None:
    """The parsed outcome of every (experiment, code) is the label names[expected[j, k]]."""
    index = np.array([t.outcome_labels.index(n) if n in t.outcome_labels else -1 for n in names])
    assert (t.outcome_table == index[expected]).all()


def tables(name: str) -> L.GameTables:
    path = L.GAMES_DIR / f"{name}.cobra"
    return L.game_tables(path.read_text(encoding="utf-8"), name)


def codes_of(text: str) -> set[frozenset[str]]:
    """The codes of a game given as text, as sets of true variables."""
    t = L.game_tables(text)
    return set(true_sets(t.variables, t.codes))


# ---------------------------------------------------------------------------
# brute force: the counterfeit coin on a balance
# ---------------------------------------------------------------------------


def coin_of(true: frozenset[str]) -> tuple[int, bool]:
    """(fake coin, heavier?) from a code of Example 8 ({x_i, maybe y}) or Example 9 ({x_i} or {y_i})."""
    (name,) = [v for v in true if v != "y"]
    if name.startswith("x") and ("y" in true or len(true) == 1):
        return int(name[1:]), "y" in true
    return int(name[1:]), name.startswith("y")


PANS = ["balance", "left heavier", "right heavier"]


def balance(sides: np.ndarray, fake: np.ndarray, heavier: np.ndarray) -> np.ndarray:
    """Which pan goes down (index into PANS): sides[j, coin] is 0 (off), 1 (left), 2 (right)."""
    side = sides[:, fake]  # (weighings, codes): where the fake coin sits
    down_left = ((side == 1) & heavier) | ((side == 2) & ~heavier)
    return np.where(side == 0, 0, np.where(down_left, 1, 2))


def all_weighings(symbols: list[int]) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every weighing once: an unordered pair of disjoint pans with equally many coins (lower pan first)."""
    out = set()
    for m in range(1, len(symbols) // 2 + 1):
        for left in combinations(symbols, m):
            rest = [s for s in symbols if s not in left]
            out.update((left, right) for right in combinations(rest, m) if left < right)
    return out


def check_coin_game(t: L.GameTables, coins: int, genuine: bool) -> None:
    """Codes, experiments and every outcome of a parsed coin game, against the balance."""
    decoded = [coin_of(s) for s in true_sets(t.variables, t.codes)]
    assert sorted(decoded) == [(c, h) for c in range(1, coins + 1) for h in (False, True)]
    symbols = list(range(0 if genuine else 1, coins + 1))
    pans = [(p[: len(p) // 2], p[len(p) // 2 :]) for _, p in t.experiments]
    unordered = [min(lr, lr[::-1]) for lr in pans]
    assert len(set(unordered)) == len(unordered) and set(unordered) == all_weighings(symbols)
    sides = np.zeros((len(pans), coins + 1), dtype=np.int8)
    sizes = np.array([len(p) for _, p in t.experiments])
    for size in set(sizes.tolist()):
        rows = np.flatnonzero(sizes == size)
        params = np.array([t.experiments[j][1] for j in rows])
        sides[rows[:, None], params[:, : size // 2]] = 1
        sides[rows[:, None], params[:, size // 2 :]] = 2
    fake, heavier = (np.array(x) for x in zip(*decoded))
    assert_labels(t, PANS, balance(sides, fake, heavier))


def test_coin12_file_matches_the_balance():
    check_coin_game(tables("coin12"), 12, genuine=False)


def test_coin13_file_matches_the_balance():
    check_coin_game(tables("coin13"), 13, genuine=False)


def test_coin13_with_genuine_coin_file_matches_the_balance():
    t = tables("coin13_genuine")
    assert not t.codes[:, t.variables.index("x0")].any()  # coin 0 is never the fake
    check_coin_game(t, 13, genuine=True)


def test_small_coin_files_match_the_balance():
    check_coin_game(tables("coin4"), 4, genuine=False)
    check_coin_game(tables("coin4_genuine"), 4, genuine=True)


def test_example_9_formalization_gives_the_same_game_as_example_8():
    """Source 001: Examples 8 and 9 formalize the same problem (coin12_alt is written in the thesis's spelling)."""
    alt, ex8 = tables("coin12_alt"), tables("coin12")
    check_coin_game(alt, 12, genuine=False)
    assert alt.experiments == ex8.experiments
    order8 = {coin_of(s): k for k, s in enumerate(true_sets(ex8.variables, ex8.codes))}
    perm = [order8[coin_of(s)] for s in true_sets(alt.variables, alt.codes)]
    assert (canonical(alt.outcome_table) == canonical(ex8.outcome_table[:, perm])).all()


@pytest.mark.parametrize("coins", [1, 2, 3, 5, 6])
@pytest.mark.parametrize("genuine", [False, True])
def test_generated_coin_games_match_the_balance(coins, genuine):
    if coins == 1 and not genuine:
        with pytest.raises(ValueError, match="no experiments"):  # one coin alone cannot be weighed
            L.game_tables(G.counterfeit_coin_source(coins, genuine))
        return
    check_coin_game(L.game_tables(G.counterfeit_coin_source(coins, genuine)), coins, genuine)


# ---------------------------------------------------------------------------
# brute force: Mastermind scored by colour counts
# ---------------------------------------------------------------------------


def colours_of(true: frozenset[str], pegs: int) -> tuple[int, ...]:
    """The colour string of a Mastermind code {x<i>_<c>}."""
    by_peg = dict(tuple(map(int, v[1:].split("_"))) for v in true)
    assert sorted(by_peg) == list(range(1, pegs + 1))
    return tuple(by_peg[i] for i in range(1, pegs + 1))


def scores(strings: np.ndarray, colors: int) -> tuple[np.ndarray, np.ndarray]:
    """Black and white counts of every guess (row) against every code (column), by colour counts."""
    black = (strings[:, None, :] == strings[None, :, :]).sum(-1)
    counts = np.stack([(strings == c).sum(1) for c in range(1, colors + 1)], axis=1)
    total = np.minimum(counts[:, None, :], counts[None, :, :]).sum(-1)
    return black, total - black


def check_mastermind(t: L.GameTables, pegs: int, colors: int, black_only: bool = False) -> None:
    strings = [colours_of(s, pegs) for s in true_sets(t.variables, t.codes)]
    everything = list(product(range(1, colors + 1), repeat=pegs))
    assert strings == everything  # all codes, lexicographic (the first colour first)
    assert [p for _, p in t.experiments] == everything
    black, white = scores(np.array(everything), colors)
    if black_only:
        assert_labels(t, [f"{b}B" for b in range(pegs + 1)], black)
    else:
        assert_labels(t, [f"{b}B{w}W" for b in range(pegs + 1) for w in range(pegs + 1)],
                      black * (pegs + 1) + white)
    assert t.final_outcomes == [f"{pegs}B" if black_only else f"{pegs}B0W"]


def test_scores_by_hand():
    # guess 1122 against code 1213: peg 1 black; colour 1 twice in both -> 2 matches, colour 2 once
    # in the code -> 1 match: total 3, so 1 black and 2 white.
    black, white = scores(np.array([[1, 1, 2, 2], [1, 2, 1, 3]]), 3)
    assert (black[0, 1], white[0, 1]) == (1, 2) and (black[0, 0], white[0, 0]) == (4, 0)


def test_mastermind_4x6_file_matches_scoring():
    check_mastermind(tables("mastermind"), 4, 6)


def test_black_peg_mastermind_file_matches_scoring():
    check_mastermind(tables("mastermind_black"), 4, 6, black_only=True)


def test_mastermind_3x3_file_matches_scoring():
    check_mastermind(tables("mastermind_3x3"), 3, 3)


@pytest.mark.parametrize("pegs,colors", [(1, 1), (1, 4), (2, 2), (2, 5), (3, 2), (5, 2)])
def test_generated_mastermind_matches_scoring(pegs, colors):
    check_mastermind(L.game_tables(G.mastermind_source(pegs, colors)), pegs, colors)
    check_mastermind(L.game_tables(G.mastermind_source(pegs, colors, True)), pegs, colors, True)


def test_shipped_files_are_what_the_generators_write():
    for name, source in G.SHIPPED_GAMES.items():
        text = (L.GAMES_DIR / f"{name}.cobra").read_text(encoding="utf-8")
        assert text.rstrip("\n") == source().rstrip("\n"), name


@pytest.mark.parametrize("bad", [lambda: G.counterfeit_coin_source(0),
                                 lambda: G.counterfeit_coin_alt_source(0),
                                 lambda: G.mastermind_source(0, 3),
                                 lambda: G.mastermind_source(3, 0)])
def test_generators_reject_empty_games(bad):
    with pytest.raises(ValueError):
        bad()


# ---------------------------------------------------------------------------
# against the built-in games of puzzlelab.codebreaking
# ---------------------------------------------------------------------------


def assert_same_game(parsed, built) -> None:
    """Same codes (as sets of true variables), and every experiment splits them the same way."""
    assert parsed.n_codes == built.n_codes
    key_parsed = true_sets(parsed.variables, parsed.codes)
    key_built = true_sets(built.variables, built.codes)
    assert set(key_parsed) == set(key_built)
    perm = [key_parsed.index(k) for k in key_built]  # parsed column for each built-in code
    rows = {e: j for j, e in enumerate(parsed.experiments)}
    assert set(rows) == set(built.experiments)
    order = [rows[e] for e in built.experiments]
    mine = canonical(parsed.outcome_table[order][:, perm])
    theirs = canonical(built.outcome_table)
    assert (mine == theirs).all()
    for t in {e for e, _ in built.experiments}:  # the multiset of partitions per type, as asked
        sel = [j for j, (e, _) in enumerate(built.experiments) if e == t]
        assert Counter(map(bytes, mine[sel].astype(np.int8))) == Counter(map(bytes, theirs[sel].astype(np.int8)))
    # the game ends on the same answers: the final outcomes split off the same codes
    final_mine = np.isin(parsed.outcome_table[order][:, perm], list(parsed.final_outcomes))
    final_theirs = np.isin(built.outcome_table, list(built.final_outcomes))
    assert (final_mine == final_theirs).all()


def test_parse_returns_a_game():
    game = L.load("coin4.cobra")
    assert game.name == "coin4" and game.n_codes == 8 and game.n_outcomes == 3


@pytest.mark.parametrize("file,pegs,colors", [("mastermind", 4, 6), ("mastermind_3x3", 3, 3)])
def test_mastermind_files_equal_the_builtin(file, pegs, colors):
    assert_same_game(L.load(f"{file}.cobra"), mastermind(pegs, colors))


def test_black_peg_mastermind_file_equals_the_builtin():
    assert_same_game(L.load("mastermind_black.cobra"), black_peg_mastermind(4, 6))


@pytest.mark.parametrize("file,coins,genuine", [("coin12", 12, False), ("coin4", 4, False),
                                                ("coin4_genuine", 4, True), ("coin13", 13, False),
                                                ("coin13_genuine", 13, True)])
def test_coin_files_equal_the_builtin(file, coins, genuine):
    assert_same_game(L.load(f"{file}.cobra"), counterfeit_coin(coins, extra_genuine=genuine))


def test_example_9_file_equals_the_builtin():
    assert_same_game(L.load("coin12_alt.cobra"), counterfeit_coin(12, formalization=9))


def test_each_experiment_type_keeps_its_own_outcomes():
    # Two types with two outcome formulas each: b of Lemma 14 is 2, not the 4 labels together.
    game = L.parse("VARIABLES a, b\nEXPERIMENT 'A' 0\nOUTCOME 'a' a\nOUTCOME 'not a' !a\n"
                   "EXPERIMENT 'B' 0\nOUTCOME 'b' b\nOUTCOME 'not b' !b\n")
    assert game.n_outcomes == 4 and game.max_type_outcomes == 2
    assert game.type_outcomes == {"A": ("a", "not a"), "B": ("b", "not b")}


# ---------------------------------------------------------------------------
# formulas: spellings, precedence, thresholds
# ---------------------------------------------------------------------------

HEAD = "VARIABLES a, b, c\n"
SPELLINGS = {
    "and": ["&", "&&", "and", "AND", "∧"],
    "or": ["|", "||", "or", "OR", "∨"],
    "implies": ["->", "→", "⇒"],
    "equiv": ["<->", "↔", "⇔"],
    "not": ["!", "¬", "NOT "],
}


def formulas() -> st.SearchStrategy:
    """Random formula trees over a, b, c with a random spelling for each connective."""
    def extend(children):
        binary = st.tuples(st.sampled_from(["and", "or", "implies", "implied", "equiv"]),
                           st.integers(0, 4), children, children)
        nary = st.tuples(st.sampled_from(["AND(", "OR("]), st.lists(children, min_size=1, max_size=3))
        thresh = st.tuples(st.sampled_from(["ATLEAST", "AtMost", "Exactly"]), st.integers(0, 3),
                           st.lists(children, min_size=1, max_size=3))
        neg = st.tuples(st.just("not"), st.integers(0, 2), children)
        return st.one_of(binary, nary, thresh, neg)
    return st.recursive(st.sampled_from(["a", "b", "c"]), extend, max_leaves=8)


def render(f) -> str:
    """Fully parenthesised text of a formula tree."""
    if isinstance(f, str):
        return f
    if f[0] == "not":
        return f"({SPELLINGS['not'][f[1] % 3]}{render(f[2])})"
    if f[0] in ("AND(", "OR("):
        return f"{f[0]}{', '.join(render(c) for c in f[1])})"
    if f[0] in ("ATLEAST", "AtMost", "Exactly"):
        return f"{f[0]}-{f[1]}({', '.join(render(c) for c in f[2])})"
    op = "<-" if f[0] == "implied" else SPELLINGS[f[0]][f[1] % len(SPELLINGS[f[0]])]
    return f"({render(f[2])} {op} {render(f[3])})"


def truth(f, env: dict[str, bool]) -> bool:
    """Plain Python meaning of a formula tree."""
    if isinstance(f, str):
        return env[f]
    if f[0] == "not":
        return not truth(f[2], env)
    if f[0] == "AND(":
        return all(truth(c, env) for c in f[1])
    if f[0] == "OR(":
        return any(truth(c, env) for c in f[1])
    if f[0] in ("ATLEAST", "AtMost", "Exactly"):
        count = sum(truth(c, env) for c in f[2])
        return {"ATLEAST": count >= f[1], "AtMost": count <= f[1], "Exactly": count == f[1]}[f[0]]
    x, y = truth(f[2], env), truth(f[3], env)
    return {"and": x and y, "or": x or y, "implies": (not x) or y, "implied": x or not y, "equiv": x == y}[f[0]]


def models(f) -> set[frozenset[str]]:
    names = ["a", "b", "c"]
    return {frozenset(n for n, bit in zip(names, bits) if bit)
            for bits in product([False, True], repeat=3) if truth(f, dict(zip(names, bits)))}


@settings(max_examples=60, deadline=None)
@given(formulas())
def test_restriction_codes_are_the_models_of_the_formula(f):
    text = HEAD + "RESTRICTION " + render(f) + "\nEXPERIMENT 'e' 0\nOUTCOME 'o' a | !a\n"
    expected = models(f)
    if not expected:
        with pytest.raises(ValueError, match="unsatisfiable"):
            L.game_tables(text)
    else:
        assert codes_of(text) == expected


def restricted(formula: str) -> set[frozenset[str]]:
    return codes_of(HEAD + f"RESTRICTION {formula}\nEXPERIMENT 'e' 0\nOUTCOME 'o' a | !a\n")


@pytest.mark.parametrize("plain,grouped,wrong", [
    ("a | b & c", "a | (b & c)", "(a | b) & c"),            # and binds tighter than or
    ("!a & b", "(!a) & b", "!(a & b)"),                      # not binds tightest
    ("a -> b -> c", "a -> (b -> c)", "(a -> b) -> c"),      # -> is right associative
    ("a <- b <- c", "(a <- b) <- c", "a <- (b <- c)"),      # <- is left associative
    ("a <-> b -> c", "a <-> (b -> c)", "(a <-> b) -> c"),   # <-> is loosest
    ("a | b -> c", "(a | b) -> c", "a | (b -> c)"),         # or binds tighter than ->
    ("a <- b -> c", "(a <- b) -> c", "a <- (b -> c)"),      # <- binds tighter than ->
])
def test_precedence(plain, grouped, wrong):
    assert restricted(plain) == restricted(grouped)
    assert restricted(plain) != restricted(wrong)  # the two readings really differ


def test_restrictions_are_conjoined_and_codes_come_true_first():
    t = L.game_tables(HEAD + "CONSTRAINT a | b\nRESTRICTION !c\nEXPERIMENT 'e' 0\nOUTCOME 'o' c\nOUTCOME 'p' !c\n")
    assert [sorted(s) for s in true_sets(t.variables, t.codes)] == [["a", "b"], ["a"], ["b"]]


def test_codes_are_in_decreasing_lexicographic_order():
    t = tables("coin12")
    keys = [tuple(row) for row in t.codes.astype(int)]
    assert keys == sorted(keys, reverse=True)


def test_more_than_24_variables_is_refused():
    text = "VARIABLES " + ", ".join(f"v{i}" for i in range(25)) + "\nEXPERIMENT 'e' 0\nOUTCOME 'o' v0 | !v0\n"
    with pytest.raises(ValueError, match="25 variables"):
        L.game_tables(text)


# ---------------------------------------------------------------------------
# parametrizations
# ---------------------------------------------------------------------------


def params_of(constraints: str, alphabet: str = "'p', 'q', 'r'", k: int = 2) -> list[tuple[int, ...]]:
    text = (f"VARIABLES u, v, w\nALPHABET {alphabet}\nMAPPING 'M' u, v, w\n"
            f"EXPERIMENT 'e' {k}\n{constraints}\nOUTCOME 'o' M$1 | !M$1\n")
    return [p for _, p in L.game_tables(text).experiments]


def test_params_distinct_and_sorted():
    # 3 symbols, 2 parameters: 3^2 = 9 strings; 3*2 = 6 with distinct symbols;
    # C(3+1, 2) = 6 non-decreasing (COBRA's PARAMS_SORTED); C(3, 2) = 3 increasing (both).
    assert len(params_of("")) == 9
    assert params_of("PARAMS_DISTINCT 1, 2") == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
    assert params_of("PARAMS_SORTED 1, 2") == [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
    assert params_of("Params-distinct 1, 2\nParams-sorted 1, 2") == [(0, 1), (0, 2), (1, 2)]


def test_numeric_alphabet_symbols_are_the_parameters():
    assert params_of("PARAMS_SORTED 1, 2\nPARAMS_DISTINCT 1,2", "5, 7, 9") == [(5, 7), (5, 9), (7, 9)]


def test_strict_chains_are_pruned_correctly():
    # 4 parameters strictly increasing over 6 symbols: C(6, 4) = 15 choices.
    text = ("VARIABLES " + ", ".join(f"v{i}" for i in range(6)) + "\nALPHABET 1,2,3,4,5,6\n"
            "MAPPING 'M' " + ", ".join(f"v{i}" for i in range(6)) + "\nEXPERIMENT 'e' 4\n"
            "PARAMS_DISTINCT 1,2,3,4\nPARAMS_SORTED 1,2,3,4\nOUTCOME 'o' M$1 | !M$1\n")
    assert [p for _, p in L.game_tables(text).experiments] == list(combinations(range(1, 7), 4))


# ---------------------------------------------------------------------------
# errors: malformed files name line and column; ill-formed games name the case
# ---------------------------------------------------------------------------

GAME = "VARIABLES x, y\nALPHABET 'a', 'b'\nMAPPING 'F' x, y\nEXPERIMENT 'e' 1\n"

MALFORMED = [
    # (text, line, column, part of the message)
    ("VARIABLES x, y\nRESTRICTION (x & y", 2, 19, "expected ')'"),
    ("VARIABLES x\nRESTRICTION x % x", 2, 15, "unexpected character '%'"),
    ("VARIABLES x\nALPHABET 'a, 'b'", 2, 16, "unterminated string"),
    ("x, y", 1, 1, "expected a statement keyword"),
    ("VARIABLES x\nRESTRICTION x &", 2, 16, "expected a formula, found end of input"),
    ("VARIABLES x\nRESTRICTION ATLEAST 2(x)", 2, 21, "expected '-'"),
    ("VARIABLES x\nRESTRICTION ATLEAST-(x)", 2, 21, "expected a number"),
    ("VARIABLES x\nRESTRICTION AND x", 2, 17, "expected '('"),
    ("VARIABLES x\nRESTRICTION OR(x y)", 2, 18, "expected ')' or ','"),
    ("VARIABLES x\nRESTRICTION y", 2, 13, "unknown variable 'y'"),
    ("VARIABLES x, x", 1, 14, "declared twice"),
    ("VARIABLES x\nOUTCOME 'o' x", 2, 1, "before any EXPERIMENT"),
    ("VARIABLES x\nRESTRICTION x y", 2, 15, "expected a statement keyword"),
    ("VARIABLES x,\n", 2, 1, "expected a name, found end of input"),
    ("VARIABLES and", 1, 11, "expected a name, found 'and'"),
    ("VARIABLES x\nEXPERIMENT 'e'\nOUTCOME 'o' x", 3, 1, "expected the number of parameters"),
    ("VARIABLES x, y\nMAPPING 'F' x, y", 2, 1, "MAPPING before ALPHABET"),
    ("VARIABLES x, y\nALPHABET 'a'\nMAPPING 'F' x, y", 3, 9, "lists 2 variables but the alphabet has 1"),
    ("VARIABLES x, y\nALPHABET 'a', 'b'\nMAPPING 'F' x, z", 3, 16, "unknown variable 'z'"),
    ("VARIABLES x, y\nALPHABET 'a', 'a'", 2, 10, "listed twice"),
    ("VARIABLES x\nRESTRICTION x\nALPHABET 'a'\nALPHABET 'b'", 4, 1, "ALPHABET given twice"),
    (GAME + "OUTCOME 'o' F$2", 5, 13, "$2 out of range"),
    (GAME + "OUTCOME 'o' G$1", 5, 13, "unknown mapping 'G'"),
    (GAME + "OUTCOME 'o' F(x)", 5, 15, "expected '$'"),
    (GAME + "OUTCOME 'o' F($1", 5, 17, "expected ')'"),
    (GAME + "OUTCOME 'o' F$", 5, 15, "expected a parameter number"),
    (GAME + "PARAMS_SORTED 1, 1", 5, 15, "increasing order"),
    (GAME + "PARAMS_DISTINCT 1, 3", 5, 20, "parameter 3 out of range 1..1"),
    (GAME + "OUTCOME 'o' F$1\nOUTCOME 'o' !F$1", 6, 9, "given twice"),
    (GAME + "OUTCOME 'o' F$1\nEXPERIMENT 'e' 2", 6, 12, "experiment 'e' declared twice"),
    (GAME + "OUTCOME 'o' F$1\nEXPERIMENT 'f' 1", 6, 1, "has no outcomes"),
    ("VARIABLES x, y\nALPHABET 'a', 'b'\nMAPPING 'F' x, y\nRESTRICTION F$1", 4, 13, "cannot use parameters"),
    ("VARIABLES x\nEXPERIMENT 'e' 1\nOUTCOME 'o' x", 2, 1, "there is no ALPHABET"),
    ("VARIABLES x\nRESTRICTION x\n  # fine so far\nRESTRICTION (x))", 4, 16, "expected a statement keyword"),
    ("VARIABLES x\nRESTRICTION Exactly-1(x,)", 2, 25, "expected a formula, found ')'"),
    (GAME + "FINAL_OUTCOME 'o' F$1\nOUTCOME 'p' !F$1\nEXPERIMENT 'f' 0\nOUTCOME 'o' x\nOUTCOME 'q' !x",
     7, 1, "'o' is final elsewhere"),
]


@pytest.mark.parametrize("text,line,column,message", MALFORMED)
def test_malformed_files_name_line_and_column(text, line, column, message):
    with pytest.raises(ValueError) as error:
        L.game_tables(text)
    assert str(error.value).startswith(f"line {line}, column {column}: "), str(error.value)
    assert message in str(error.value)


@pytest.mark.parametrize("text,message", [
    ("", "no variables"),
    ("# only a comment\n", "no variables"),
    ("VARIABLES x\nRESTRICTION x", "no experiments"),
    ("VARIABLES x\nRESTRICTION x & !x\nEXPERIMENT 'e' 0\nOUTCOME 'o' x", "unsatisfiable"),
])
def test_whole_file_problems(text, message):
    with pytest.raises(ValueError, match=message):
        L.game_tables(text)


def test_overlapping_outcomes_are_not_well_formed():
    text = GAME + "OUTCOME 'first' F$1 | y\nOUTCOME 'second' !F$1\n"
    with pytest.raises(ValueError) as error:
        L.game_tables(text)
    message = str(error.value)
    # F('a') = x: the code {y} (x false, y true) satisfies 'first' (y) and 'second' (!x).
    assert "not well formed" in message and "experiment 'e'" in message
    assert "parametrization (a)" in message and "code {y}" in message and "2 true outcomes" in message


def test_missing_outcome_is_not_well_formed():
    text = "VARIABLES x\nEXPERIMENT 'probe' 0\nOUTCOME 'yes' x\n"
    with pytest.raises(ValueError) as error:
        L.game_tables(text)
    assert "experiment 'probe'" in str(error.value) and "code {}" in str(error.value)
    assert "0 true outcomes" in str(error.value)


# ---------------------------------------------------------------------------
# the exploration table
# ---------------------------------------------------------------------------


def test_explore_coin_game():
    table = explore_game_text(G.SHIPPED_GAMES["coin12"]())
    # m against m of 12 coins: each pan goes down in 2m of the 24 codes (m coins heavy on it,
    # m light on the other); the scales balance in the other 24 - 4m. Every weighing of a type
    # splits alike, so the best worst part is max(2m, 24 - 4m).
    assert table["experiment"].tolist() == [f"w{2 * m}" for m in range(1, 7)]
    assert table["best worst part"].tolist() == [max(2 * m, 24 - 4 * m) for m in range(1, 7)]
    assert (table["codes"] == 24).all()


def test_explore_mastermind_matches_scoring():
    table = explore_game_text(G.SHIPPED_GAMES["mastermind_3x3"]())
    black, white = scores(np.array(list(product(range(1, 4), repeat=3))), 3)
    worst = min(Counter(zip(b, w)).most_common(1)[0][1] for b, w in zip(black, white))
    assert table["best worst part"].tolist() == [worst]
    assert table["parametrizations"].tolist() == [27]


def test_explore_reports_bad_text_as_value_error():
    with pytest.raises(ValueError, match="line 1, column 1"):
        explore_game_text("nonsense")


def test_too_many_codes_is_refused():
    text = "VARIABLES " + ", ".join(f"v{i}" for i in range(21)) + "\nEXPERIMENT 'e' 0\nOUTCOME 'o' v0 | !v0\n"
    with pytest.raises(ValueError, match="too many codes"):  # 2**21 > 10**6 valuations, no restriction
        L.game_tables(text)
