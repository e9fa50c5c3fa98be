"""Hostile but fair input for puzzlelab.codebreaking: every public function, the sizes that cannot
finish, the parser's depth, and mutated game files (Klimoš 2014, §4.1 for the language)."""

from __future__ import annotations

import importlib
import random
import re
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from robustness import any_value, public_callables, well_behaved

from puzzlelab.codebreaking import (Game, analyze, bags_of_gold, bulls_and_cows, counterfeit_coin,
                                    mastermind, optimal, parse)
from puzzlelab.codebreaking.language import GAMES_DIR

MODULES = ["analysis", "bounds", "coins", "compiled", "exhaustive", "formulas", "frontier", "game",
           "game_checks", "game_files", "games", "language", "notebook", "reference", "source",
           "strategies", "strings", "syntax", "tables"]
# Functions that write data/ when their arguments are valid (none is exported).
WRITES_FILES: set[tuple[str, str]] = set()
PUBLIC = [(m, name, f) for m in MODULES
          for name, f in public_callables(importlib.import_module(f"puzzlelab.codebreaking.{m}"))
          if (m, name) not in WRITES_FILES]
PLACE = re.compile(r"line \d+, column \d+")


@pytest.mark.parametrize("module,name,f", PUBLIC, ids=[f"{m}.{n}" for m, n, _ in PUBLIC])
@settings(max_examples=12, deadline=None)
@given(args=st.lists(any_value(), min_size=1, max_size=3))
def test_every_public_function_returns_or_refuses_clearly(module, name, f, args):
    well_behaved(f, *args, seconds=20)


def test_the_runs_refuse_bad_arguments_before_any_work():
    from puzzlelab.codebreaking.tables import sizes_run, table_run

    for run in (lambda: table_run(name="no_such_table"), lambda: sizes_run(runs="some"),
                lambda: table_run(name="codebreaking_dyson", workers="two")):
        with pytest.raises((ValueError, TypeError)):
            run()


# --- sizes and kinds the issue lists, each refused at once or handled -----------------------------
def quickly(f, *args, seconds: float = 5.0, **kwargs):
    """f(*args, **kwargs), asserting it took less than `seconds`."""
    start = time.perf_counter()
    try:
        return f(*args, **kwargs)
    finally:
        assert time.perf_counter() - start < seconds, f"{f.__name__}{args} took too long"


def test_one_peg_and_two_hundred_colours_is_a_game():
    game = quickly(mastermind, 1, 200)
    black = np.array([[int(g == c) for c in range(200)] for g in range(200)])
    labels = np.array(game.outcome_labels)[game.outcome_table]
    assert (labels == np.where(black == 1, "1B0W", "0B0W")).all()


def test_many_pegs_are_refused_at_once():
    with pytest.raises(ValueError, match="pegs"):
        quickly(mastermind, 130, 1)


def test_bulls_and_cows_with_two_hundred_symbols():
    game = quickly(bulls_and_cows, 1, 200)
    assert game.n_codes == 200 and (np.diag(game.outcome_table) == game.outcome_labels.index("1B0C")).all()


def test_bags_of_gold_with_forty_thousand_coins_keeps_every_label():
    game = quickly(bags_of_gold, 1, 40000, seconds=20)
    takes = np.array([p[0] for _, p in game.experiments])
    assert (np.array(game.outcome_labels)[game.outcome_table[:, 0]] == [f"{t} g light" for t in takes]).all()


def test_more_than_32767_outcome_labels_do_not_wrap():
    labels = [f"o{i}" for i in range(40000)]
    game = Game("wide", ["x"], [[True]], [("e", (0,))], np.array([[39999]]), labels)
    assert int(game.outcome_table[0, 0]) == 39999


@pytest.mark.parametrize("value", ["no", 0, None, 1.0])
def test_extra_genuine_must_be_a_bool(value):
    with pytest.raises(TypeError, match="extra_genuine"):
        counterfeit_coin(4, extra_genuine=value)


@pytest.mark.parametrize("game", [None, "mastermind", 3])
def test_analyze_needs_a_game(game):
    with pytest.raises(TypeError, match="Game"):
        analyze(game)


@pytest.mark.parametrize("coins", [16, 20, 40])
def test_coin_games_too_large_are_refused_with_the_largest_that_fits(coins):
    with pytest.raises(ValueError, match="largest that fits is 15 coins"):
        quickly(counterfeit_coin, coins, seconds=1)


def test_the_search_refuses_codes_it_cannot_tell_apart():
    game = parse("VARIABLES x\nEXPERIMENT 'e' 0\nOUTCOME 'a' x | !x\n")
    for measure in ("worst", "average"):
        with pytest.raises(ValueError, match="cannot be told apart"):
            quickly(optimal, game, measure, seconds=2)
    with pytest.raises(ValueError, match="tells apart"):
        analyze(game)


# --- the parser: bounded depth and sizes, always a line and a column --------------------------------
def game_with(formula: str) -> str:
    return f"VARIABLES x\nEXPERIMENT 'e' 0\nOUTCOME 'a' {formula}\nOUTCOME 'b' !({formula})\n"


@pytest.mark.parametrize("formula", [
    "(" * 500 + "x" + ")" * 500,
    "x" + " -> x" * 496,
    "!" * 971 + "x",
    "x" + " <-> x" * 600,
    "and(" * 300 + "x" + ")" * 300,
])
def test_deep_formulas_are_refused_with_a_place(formula):
    with pytest.raises(ValueError, match=PLACE):
        quickly(parse, game_with(formula))


def test_moderately_deep_formulas_still_parse():
    game = parse(game_with("(" * 40 + "x" + ")" * 40 + " -> x" * 100))
    assert game.n_codes == 2


@pytest.mark.parametrize("text", [
    "VARIABLES x\nALPHABET 1\nMAPPING 'f' x\nEXPERIMENT 'e' 10000000\nOUTCOME 'a' f$1\nOUTCOME 'b' !f$1\n",
    "VARIABLES x\nALPHABET 1, 2\nMAPPING 'f' x, x\nEXPERIMENT 'e' 40\nOUTCOME 'a' f$1\nOUTCOME 'b' !f$1\n",
    ("VARIABLES " + ", ".join(f"x{i}" for i in range(19)) + "\nALPHABET "
     + ", ".join(map(str, range(1, 1001))) + "\nMAPPING 'f' " + ", ".join(["x0"] * 1000)
     + "\nEXPERIMENT 'e' 2\nOUTCOME 'a' f$1\nOUTCOME 'b' !f$1\n"),
    ("VARIABLES " + ", ".join(f"x{i}" for i in range(16)) + "\nALPHABET "
     + ", ".join(map(str, range(1, 17))) + "\nMAPPING 'f' " + ", ".join(f"x{i}" for i in range(16))
     + "\nEXPERIMENT 'e' 4\nOUTCOME 'a' f$1\nOUTCOME 'b' !f$1\n"),
    "VARIABLES x\nALPHABET 9223372036854775808\nEXPERIMENT 'e' 0\nOUTCOME 'a' x\nOUTCOME 'b' !x\n",
    "VARIABLES x\nALPHABET " + "9" * 5000 + "\nEXPERIMENT 'e' 0\nOUTCOME 'a' x\nOUTCOME 'b' !x\n",
])
def test_games_too_large_are_refused_at_once_with_a_place(text):
    with pytest.raises(ValueError, match=PLACE):
        quickly(parse, text)


def test_a_huge_threshold_is_a_constant():
    game = quickly(parse, game_with("Exactly-1000000000(x)"))
    assert set(np.array(game.outcome_labels)[game.outcome_table[0]]) == {"b"}
    game = quickly(parse, game_with("AtMost-1000000000(x, x)"))
    assert set(np.array(game.outcome_labels)[game.outcome_table[0]]) == {"a"}


@pytest.mark.parametrize("path", sorted(GAMES_DIR.glob("*.cobra")), ids=lambda p: p.stem)
def test_game_files_without_their_restrictions_are_refused_or_read_fast(path):
    text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                     if not line.lstrip().upper().startswith(("RESTRICTION", "CONSTRAINT")))
    try:
        quickly(parse, text, seconds=10)
    except ValueError as err:
        assert PLACE.search(str(err)), err


# --- a seeded mutation fuzzer over the shipped game files -------------------------------------------
PIECES = ["(", ")", "!", "&", "|", "->", "<->", "$", ",", "'", '"', "#", "-", "0", "1", "9", "x1",
          "y", "F1", "AtLeast-2(", "Exactly-", "OUTCOME 'z' ", "EXPERIMENT 'q' 2\n", "\n",
          "PARAMS_SORTED 1, 2\n", "FINAL_OUTCOME 'w' x1\n", "ALPHABET 1\n", "999999"]


def mutate(text: str, rng: random.Random) -> str:
    """One to three edits: delete, insert a piece, duplicate or drop a line, or swap two lines."""
    for _ in range(rng.randint(1, 3)):
        kind, lines = rng.randrange(5), text.split("\n")
        i = rng.randrange(len(text) + 1)
        if kind == 0 and text:
            text = text[:i] + text[i + rng.randint(1, 8):]
        elif kind == 1:
            text = text[:i] + rng.choice(PIECES) + text[i:]
        elif kind == 2:
            j = rng.randrange(len(lines))
            text = "\n".join(lines[:j] + [lines[j]] + lines[j:])
        elif kind == 3:
            j = rng.randrange(len(lines))
            text = "\n".join(lines[:j] + lines[j + 1:])
        else:
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
    return text


SMALL_FILES = ["coin4", "coin4_genuine", "mastermind_3x3"]


def test_mutated_game_files_give_a_game_or_a_placed_error():
    rng = random.Random(2014)
    texts = {p.stem: p.read_text(encoding="utf-8") for p in GAMES_DIR.glob("*.cobra")}
    plan = [s for s in SMALL_FILES for _ in range(670)] + [s for s in texts if s not in SMALL_FILES]
    outcomes = {"game": 0, "error": 0}
    for stem in plan:
        text = mutate(texts[stem], rng)
        try:
            game = well_behaved(parse, text, seconds=20)
        except Exception as err:  # noqa: BLE001 - anything else is a failure, shown with the text
            raise AssertionError(f"{stem}: {type(err).__name__}: {err}\n{text}") from err
        if isinstance(game, Game):
            outcomes["game"] += 1
        else:
            assert isinstance(game, ValueError) and PLACE.search(str(game)), (stem, game, text)
            outcomes["error"] += 1
    assert sum(outcomes.values()) >= 2000 and min(outcomes.values()) > 0, outcomes


# --- issue 27: sizes, wrong kinds, memoised games, and the parser's BOM and line endings ---------
from puzzlelab.codebreaking import coins  # noqa: E402
from puzzlelab.codebreaking import frontier  # noqa: E402
from puzzlelab.codebreaking import tables as cb_tables  # noqa: E402
from puzzlelab.codebreaking.language import load  # noqa: E402
from robustness import alarm, refused_quickly  # noqa: E402


def test_issue27_solvable_answers_any_number_of_weighings_at_once():
    """8 codes never need more than 7 weighings, so 10**20 weighings answer as 7 do (and as 3)."""
    state = coins.initial(4)
    with alarm(2.0):
        assert coins.solvable(state, 10**20) == coins.solvable(state, 3) is True
        assert coins.solvable(coins.initial(2), 10**20) is False  # 2 coins alone: never


def test_issue27_compare_refuses_what_is_not_a_table():
    table = frontier.optimal_sizes([("Mastermind", 2, 2)])
    refused_quickly(lambda: frontier.compare(table, published=3), TypeError,
                    "published must be a table")


def test_issue27_tables_of_games_name_the_wrong_argument():
    refused_quickly(lambda: cb_tables.strategies_table(games=None), TypeError,
                    "games must be a list")
    refused_quickly(lambda: cb_tables.strategy_rows(5), TypeError, r"\(kind, a, b\)")


def test_issue27_make_game_checks_before_its_cache():
    cb_tables.make_game("Mastermind", 2, 3)
    refused_quickly(lambda: cb_tables.make_game("Mastermind", 2.0, 3), TypeError,
                    r"a \(size\) must be an integer")
    refused_quickly(lambda: cb_tables.make_game("Mastermind", 2, [3]), TypeError,
                    r"b \(size\) must be an integer")


@pytest.mark.parametrize("stem", ["coin4", "mastermind_3x3"])
@pytest.mark.parametrize("dress", [
    lambda t: "\ufeff" + t,                        # a UTF-8 byte-order mark
    lambda t: t.replace("\n", "\r"),               # CR-only line endings (old Mac)
    lambda t: "\ufeff" + t.replace("\n", "\r\n"),  # Windows: BOM and CRLF
], ids=["bom", "cr", "bom-crlf"])
def test_issue27_texts_with_a_bom_or_cr_line_endings_give_the_same_game(stem, dress):
    text = (GAMES_DIR / f"{stem}.cobra").read_text(encoding="utf-8")
    plain, dressed = parse(text, stem), parse(dress(text), stem)
    assert (dressed.codes == plain.codes).all() and dressed.experiments == plain.experiments
    assert (dressed.outcome_table == plain.outcome_table).all()
    assert dressed.outcome_labels == plain.outcome_labels


def test_issue27_a_file_saved_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "coin4.cobra"
    path.write_text("\ufeff" + (GAMES_DIR / "coin4.cobra").read_text(encoding="utf-8"),
                    encoding="utf-8")
    assert (load(path).outcome_table == load("coin4.cobra").outcome_table).all()


def test_issue27_a_syntax_error_keeps_its_place_after_cr_line_endings():
    text = (GAMES_DIR / "coin4.cobra").read_text(encoding="utf-8")
    lines = text.split("\n")
    lines[2] = lines[2] + " @"
    with pytest.raises(ValueError, match="line 3, column"):
        parse("\r".join(lines))


def test_issue27_a_string_rule_checks_its_fields_as_it_is_made():
    """strings.StringRule took any strings, colours and lut (the compiled loops trust them)."""
    from puzzlelab import checks
    from puzzlelab.codebreaking import strings

    rule = mastermind(3, 3).rule
    assert rule is not None
    fields = {"strings": rule.strings, "colors": rule.colors, "lut": rule.lut}
    for wrong, words in [({"strings": "data/hats_optima.csv"}, "StringRule.strings must be"),
                         ({"strings": rule.strings.astype(float)}, "StringRule.strings must be"),
                         ({"colors": 2.0}, "StringRule.colors must be an integer"),
                         ({"lut": 1.5}, "StringRule.lut must be"),
                         ({"lut": [[1]]}, "StringRule.lut must be")]:
        with pytest.raises(checks.ArgumentTypeError, match=words):
            strings.StringRule(**{**fields, **wrong})
    for wrong, words in [({"colors": 2}, r"colours 1\.\.2"),
                         ({"colors": 200}, "between 1 and 127"),
                         ({"strings": rule.strings[:, 0]}, r"\(codes, pegs\)"),
                         ({"lut": rule.lut[:2]}, "of shape"),
                         ({"lut": rule.lut - 2}, "outcome indices")]:
        with pytest.raises(ValueError, match=words):
            strings.StringRule(**{**fields, **wrong})
    same = strings.StringRule(rule.strings.astype(np.int64), np.int64(3), rule.lut.astype(np.int32))
    assert same.strings.dtype == np.int8 and same.lut.dtype == np.int16 and same.colors == 3
    assert type(same.colors) is int and np.array_equal(same.strings, rule.strings)


def test_a_pick_that_names_no_experiment_is_refused_by_name():
    """Fuzz finding: a pick returning an experiment the game lacks was an IndexError."""
    from puzzlelab.codebreaking.analysis import play_tree

    game = counterfeit_coin(3)
    with pytest.raises(ValueError, match="the experiment pick chose"):
        play_tree(game, lambda live, depth: game.n_experiments, "beyond the last")
    with pytest.raises(ValueError, match="does not split"):  # it looped for ever
        play_tree(game, lambda live, depth: 0, "the first weighing always")


def test_the_peer_rules_reference_checks_its_game_strategy_and_first_guess():
    """Fuzz finding: an unknown strategy or a game without the peer's shape was an IndexError."""
    from puzzlelab.codebreaking import mastermind
    from puzzlelab.codebreaking.reference import play_mikemag

    with pytest.raises(ValueError, match="strategy"):
        play_mikemag(mastermind(2, 3), "distributed.admin.tick.interval", 0)
    with pytest.raises(ValueError, match="string games"):
        play_mikemag(counterfeit_coin(3), "parts", 0)
    with pytest.raises(ValueError, match="first"):
        play_mikemag(mastermind(2, 3), "parts", 9)
    assert len(play_mikemag(mastermind(2, 3), "parts", 0)) == 9  # every code played


def test_mastermind_by_formulas_refuses_a_size_beyond_its_budget_up_front():
    """Found by the fuzz: 5×6 evaluated 6e7 (guess, code) pairs for minutes."""
    from puzzlelab.codebreaking.formulas import mastermind_by_formulas
    with pytest.raises(ValueError, match="pairs"):
        mastermind_by_formulas(5, 6)


@pytest.mark.parametrize("pegs, colors", [(1, 1), (1, 4), (2, 2), (3, 3), (3, 4), (4, 6), (2, 12)])
@pytest.mark.parametrize("distinct", [False, True])
def test_colour_strings_are_the_filtered_product_in_its_order(pegs, colors, distinct):
    """Fuzz finding: without repeats the strings were picked out of all colors**pegs products
    (bulls_and_cows(8): 10**8 of them, past 30 s). Now permutations, checked against that filter."""
    from itertools import product

    from puzzlelab.codebreaking.games import colour_strings
    if distinct and colors < pegs:
        refused_quickly(lambda: colour_strings(pegs, colors, distinct), ValueError, "distinct")
        return
    rows = [p for p in product(range(1, colors + 1), repeat=pegs) if not distinct or len(set(p)) == pegs]
    got = colour_strings(pegs, colors, distinct)
    assert got.dtype == np.int16 and got.shape == (len(rows), pegs)
    assert got.tolist() == [list(r) for r in rows]


def test_eight_distinct_of_ten_are_every_permutation_once_in_order():
    """The size the fuzz hit, checked by count, order and distinctness (not by the 10**8 filter)."""
    import math

    from puzzlelab.codebreaking.games import colour_strings
    got = colour_strings(8, 10, distinct=True)
    keys = got.astype(np.int64) @ (11 ** np.arange(7, -1, -1))
    assert len(got) == math.perm(10, 8) and (np.diff(keys) > 0).all()
    assert (np.sort(got, axis=1)[:, 1:] != np.sort(got, axis=1)[:, :-1]).all()
    for wrong, words in [((0, 3), "pegs"), ((3, 0), "colors"), ((2.5, 3), "pegs")]:
        refused_quickly(lambda: colour_strings(*wrong), (ValueError, TypeError), words)


def test_experiments_given_loosely_are_read_as_the_plain_ones():
    """The one-pass check of plain (str, tuple of ints) experiments gives the same game as the
    item-by-item reading of lists and numpy integers, and refuses what that reading refuses."""
    plain = counterfeit_coin(3)
    loose = [[kind, [np.int64(v) for v in params]] for kind, params in plain.experiments]
    again = Game(plain.name, plain.variables, plain.codes, loose, plain.outcome_table,
                 plain.outcome_labels)
    assert again.experiments == plain.experiments
    assert all(type(v) is int for _, params in again.experiments for v in params)
    for bad, words in [([("w", (True,))], "parameters"), ([("w", (1,)), ("w", (1,))], "twice"),
                       ([("w", (1,), 2)], "pair"), ([(3, (1,))], "pair")]:
        with pytest.raises((ValueError, TypeError), match=words):
            Game("g", ["x"], np.array([[0], [1]]), bad, np.zeros((len(bad), 2), int), ["a", "b"])
