"""The compiled compiled against the table compiled (its reference): the same analysis, bit for bit."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab import checks
from puzzlelab.codebreaking import (analysis, engine_arrays, notebook, score_kernels, strings,
                                    tables)
from puzzlelab.codebreaking import (STRATEGIES, analyze, bags_of_gold, black_peg_mastermind,
                                    bulls_and_cows, counterfeit_coin, compiled, mastermind)
from puzzlelab.codebreaking.analysis import (TABLE_CODES, analyze_by_bincount, choose,
                                             choose_by_table, simulate)
from puzzlelab.codebreaking.games import colour_strings
from puzzlelab.codebreaking.strings import black_white
from puzzlelab.codebreaking.language import GAMES_DIR, load
from puzzlelab.codebreaking.reference import analyze_table
from puzzlelab.codebreaking.strategies import entropy, scoring

STRING_GAMES = {"Mastermind": (mastermind, False),
                "black-peg Mastermind": (black_peg_mastermind, False),
                "Bulls and Cows": (bulls_and_cows, True)}


@lru_cache(maxsize=None)
def string_twins(kind: str, a: int, b: int):
    """The same game with an explicit outcome table (the reference) and computed from its
    strings."""
    make, _ = STRING_GAMES[kind]
    string_game = make(a, b)
    assert string_game.rule is not None
    return string_game.with_final_outcomes(string_game.final_outcomes), string_game


def assert_same(reference, result) -> None:
    """Same lengths, same lengths until determined, same decision tree (node for node)."""
    assert result.strategy == reference.strategy
    np.testing.assert_array_equal(result.lengths, reference.lengths)
    np.testing.assert_array_equal(result.determined, reference.determined)
    pd.testing.assert_frame_equal(result.tree, reference.tree)
    assert result.histogram() == reference.histogram()


SMALL_STRING_GAMES = [("Mastermind", 2, 3), ("Mastermind", 2, 4), ("Mastermind", 3, 3),
                      ("Mastermind", 3, 4), ("Mastermind", 3, 5), ("Mastermind", 4, 4),
                      ("Mastermind", 4, 5), ("Mastermind", 4, 6),
                      ("black-peg Mastermind", 3, 3), ("black-peg Mastermind", 4, 4),
                      ("black-peg Mastermind", 4, 6), ("Bulls and Cows", 3, 5),
                      ("Bulls and Cows", 4, 6),
                      ("Bulls and Cows", 4, 7)]


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("kind,a,b", SMALL_STRING_GAMES)
def test_string_engine_matches_the_reference(kind, a, b, strategy):
    table_game, string_game = string_twins(kind, a, b)
    reference = analyze_table(table_game, strategy)
    for symmetry in (True, False):
        assert_same(reference, compiled.analyze(string_game, strategy, symmetry=symmetry))
    # the same game read from its table
    assert_same(reference, compiled.analyze(table_game, strategy))
    assert_same(reference, analyze(string_game, strategy))  # what the package's analyze runs


TABLE_GAMES = ([counterfeit_coin(n, genuine) for genuine in (False, True)
                for n in range(3 - 2 * genuine, 14)]
               + [counterfeit_coin(n, genuine, 9) for n in (4, 12) for genuine in (False, True)]
               + [bags_of_gold(4, 1), bags_of_gold(5, 2), bags_of_gold(5, 4), bags_of_gold(6, 3)])


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("game", TABLE_GAMES, ids=lambda g: g.name)
def test_table_engine_matches_the_reference(game, strategy):
    assert_same(analyze_table(game, strategy), compiled.analyze(game, strategy))


@pytest.mark.parametrize("path", sorted(GAMES_DIR.glob("*.cobra")), ids=lambda p: p.stem)
def test_parsed_games_match_the_reference(path):
    game = load(path)
    for strategy in STRATEGIES:
        assert_same(analyze_table(game, strategy), compiled.analyze(game, strategy))


SMALL_GAMES = ([mastermind(a, b) for a, b in ((2, 3), (3, 3), (3, 4), (4, 4), (4, 5), (4, 6))]
               + [black_peg_mastermind(4, 4), black_peg_mastermind(4, 6), bulls_and_cows(3, 5),
                  bulls_and_cows(4, 6), counterfeit_coin(12, True), counterfeit_coin(13),
                  bags_of_gold(5, 2), bags_of_gold(6, 3)])


@pytest.mark.parametrize("game", SMALL_GAMES, ids=lambda g: g.name)
def test_small_games_played_over_the_table_as_by_the_compiled_engine(game):
    """What a fresh process's `analyze` runs on a small game (`analyze_by_bincount`, numpy alone) gives
    the compiled engine's analysis: lengths, tree node for node, total, worst, histogram."""
    assert game.n_codes <= TABLE_CODES
    assert game.n_codes * game.n_experiments <= TABLE_CODES**2
    for strategy in STRATEGIES:
        table = analyze_by_bincount(game, strategy)
        engine = compiled.analyze(game, strategy)
        assert_same(engine, table)
        assert (table.total, table.worst) == (engine.total, engine.worst)


@pytest.mark.parametrize("path", sorted(GAMES_DIR.glob("*.cobra")), ids=lambda p: p.stem)
def test_parsed_games_played_over_the_table_as_by_the_compiled_engine(path):
    game = load(path)
    for strategy in STRATEGIES:
        table = analyze_by_bincount(game, strategy)
        assert_same(compiled.analyze(game, strategy), table)


FRESH = """
import json, sys
import numpy as np
from puzzlelab.codebreaking.analysis import analyze, choose
from puzzlelab.codebreaking.games import mastermind
game = mastermind(4, 6)
out = {s: analyze(game, s).lengths.tolist() for s in ("max-models", "exp-models", "ent-models",
                                                         "parts")}
out["choice"] = choose(game, np.arange(0, 1296, 7), "max-models")
out["modules"] = sorted(m for m in ("pandas", "matplotlib", "scipy", "numba") if m in sys.modules)
print(json.dumps(out))
"""


def test_a_fresh_process_analyses_a_small_game_without_numba_pandas_matplotlib_or_scipy():
    done = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True,
                          check=True, timeout=600)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out.pop("modules") == []
    game = mastermind(4, 6)
    assert out.pop("choice") == compiled.choose(game, np.arange(0, 1296, 7), "max-models")
    assert set(out) == set(STRATEGIES)
    for strategy, lengths in out.items():  # the same lengths as the compiled engine's
        np.testing.assert_array_equal(lengths, compiled.analyze(game, strategy).lengths)


def test_analyze_runs_the_loaded_engine_else_the_table_up_to_its_limit(monkeypatch):
    game, engine = mastermind(3, 4), compiled.analyze
    monkeypatch.setattr(compiled, "analyze", lambda *args: "compiled")
    assert analyze(game, "parts") == "compiled"  # this process has loaded the engine
    assert analysis.engine_loaded()
    monkeypatch.setattr(analysis, "engine_loaded", lambda: False)  # as in a fresh process
    table = analyze(game, "parts")
    assert table != "compiled" and table.total == engine(game, "parts").total
    monkeypatch.setattr(analysis, "TABLE_CODES", game.n_codes - 1)
    assert analyze(game, "parts") == "compiled"  # past the table's limit


def test_a_fresh_process_chooses_and_plays_a_small_game_over_the_table(monkeypatch):
    game = mastermind(3, 4)
    live = np.arange(5, 40, 3)
    expected = {s: compiled.choose(game, live, s) for s in STRATEGIES}
    plays = {s: simulate(game, s, "243") for s in STRATEGIES}
    for name in ("choose", "outcome_row"):
        monkeypatch.setattr(compiled, name, lambda *args: pytest.fail("the compiled engine ran"))
    assert analysis.engine_loaded()
    monkeypatch.setattr(analysis, "engine_loaded", lambda: False)  # as in a fresh process
    for strategy in STRATEGIES:
        assert choose(game, live, strategy) == expected[strategy]
        pd.testing.assert_frame_equal(simulate(game, strategy, "243"), plays[strategy])


def test_a_game_that_cannot_tell_codes_apart_is_refused_alike():
    game = counterfeit_coin(2)  # two coins, no genuine coin: 1L and 2H look the same
    with pytest.raises(ValueError) as reference:
        analyze_table(game, "max-models")
    with pytest.raises(ValueError) as result:
        compiled.analyze(game, "max-models")
    assert str(result.value) == str(reference.value)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=40))
def test_entropy_scores_agree_bit_for_bit(counts):
    counts = np.array(counts, dtype=np.int64)
    clogc = engine_arrays.clogc_table(int(counts.max()) + 1)
    expected = entropy(counts[None, :])[0]
    assert score_kernels.entropy_score(counts, len(counts), clogc, np.empty(len(counts))) == expected


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 600), st.integers(0, 2**32 - 1))
def test_pairwise_sum_follows_numpy(n, seed):
    values = np.random.default_rng(seed).random(n) * 1000
    assert score_kernels.pairwise_sum(values, n) == values[None, :].sum(axis=1)[0]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SMALL_STRING_GAMES), st.integers(0, 2**32 - 1))
def test_outcomes_and_part_sizes_agree_with_the_table(game_key, seed):
    table_game, string_game = string_twins(*game_key)
    rng = np.random.default_rng(seed)
    live = np.sort(rng.choice(table_game.n_codes, size=rng.integers(1, table_game.n_codes + 1),
                              replace=False))
    j = int(rng.integers(table_game.n_experiments))
    np.testing.assert_array_equal(compiled.outcome_row(string_game, j, live),
                                  table_game.outcome_table[j, live])
    np.testing.assert_array_equal(compiled.partition_sizes(string_game, live),
                                  table_game.partition_sizes(live))


def test_string_rule_reads_the_outcome_labels():
    game = mastermind(3, 3)
    rule = strings.string_rule(colour_strings(3, 3), 3, game.outcome_labels)
    assert rule.lut[3, 0] == game.outcome_labels.index("3B0W")
    assert rule.lut[3, 1] == -1  # three blacks leave no peg for a white
    with pytest.raises(ValueError, match="not of the form"):
        strings.string_rule(colour_strings(3, 3), 3, ["three black"])


def test_memory_estimate_grows_with_the_codes_not_their_square():
    small, large = strings.estimated_bytes(10**4, 5, 8), strings.estimated_bytes(10**6, 5, 8)
    assert large - small == strings.BYTES_PER_CODE * (10**6 - 10**4)
    # the table of colours in common between multisets is counted
    assert strings.estimated_bytes(8**5, 5, 8) >= math.comb(12, 5) ** 2


def test_a_game_past_the_memory_limit_is_refused_before_allocating():
    with pytest.raises(ValueError, match="limit"):
        strings.check_fits("Mastermind 8×12", 12**8, 8, 12)
    strings.check_fits("Mastermind 5×8", 8**5, 5, 8)  # fits
    with pytest.raises(ValueError, match=r"limit of 8 GiB; the largest that fits is [\d,]+ codes"):
        mastermind(7, 20)  # 1.28 billion codes: refused at once, nothing allocated
    assert mastermind(5, 6).n_codes == 6**5  # past the old table's 6,000 codes


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SMALL_STRING_GAMES), st.sampled_from(list(STRATEGIES)),
       st.integers(0, 2**32 - 1))
def test_choices_and_plays_agree_with_the_table(game_key, strategy, seed):
    table_game, string_game = string_twins(*game_key)
    rng = np.random.default_rng(seed)
    live = np.sort(rng.choice(table_game.n_codes, size=rng.integers(1, table_game.n_codes + 1),
                              replace=False))
    assert choose(string_game, live, strategy) == choose_by_table(table_game, live, strategy)
    code = int(rng.integers(table_game.n_codes))
    pd.testing.assert_frame_equal(simulate(string_game, strategy, code),
                                  simulate(table_game, strategy, code))


def test_the_table_of_a_string_game_is_built_on_demand():
    game = mastermind(3, 4)
    assert not game.table_built
    table = game.outcome_table  # the reference twin reads it
    assert game.table_built
    black, white = black_white(colour_strings(3, 4), colour_strings(3, 4), 4)
    labels = [game.outcome_labels[o] for o in table.ravel()]
    assert labels == [f"{b}B{w}W" for b, w in zip(black.ravel(), white.ravel())]


def canonical(row: np.ndarray, is_final: np.ndarray) -> tuple:
    """A row of outcomes as its partition: labels by first appearance, final outcomes apart."""
    labels: dict[int, int] = {}
    return tuple(-1 if is_final[o] else labels.setdefault(int(o), len(labels)) for o in row)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SMALL_STRING_GAMES[:10]), st.integers(0, 2**32 - 1))
def test_search_pieces_agree_with_plain_computations(game_key, seed):
    table_game, string_game = string_twins(*game_key)
    rng = np.random.default_rng(seed)
    size = rng.integers(1, min(60, table_game.n_codes) + 1)
    live = np.sort(rng.choice(table_game.n_codes, size=size, replace=False))
    table = table_game.outcome_table[:, live]
    # one experiment per class of equal partitions, the lowest of each
    first: dict[tuple, int] = {}
    for j in range(table_game.n_experiments):
        first.setdefault(canonical(table[j], table_game.is_final), j)
    experiments = np.arange(table_game.n_experiments)
    chosen = compiled.distinct_partitions(string_game, live, experiments)
    assert chosen.tolist() == sorted(first.values())
    # the parts of one experiment, by outcome
    j = int(rng.integers(table_game.n_experiments))
    present, sizes, codes = compiled.parts(string_game, live, j)
    expected = table_game.parts(live, j)
    assert present.tolist() == sorted(expected)
    chunks = np.split(codes, np.cumsum(sizes)[:-1])
    assert all((chunk == expected[o]).all() for o, chunk in zip(present, chunks))
    # the lowest guess that may hit and splits the live codes into singletons
    perfect = [j for j in range(table_game.n_experiments)
               if table_game.is_final[table[j]].any() and len(set(table[j].tolist())) == len(live)]
    assert compiled.first_perfect_hit(string_game, live) == (perfect[0] if perfect else -1)


def test_fixing_permutations_keep_the_set():
    game = mastermind(3, 3)
    perms = game.symmetry.code_perms
    live = np.flatnonzero(game.outcome_table[game.experiment_index(("g", (1, 1, 2)))] == 0)
    fixes = compiled.fixing_permutations(perms, live, game.n_codes)
    images = [set(perms[q, live].tolist()) for q in range(len(perms))]
    assert fixes.tolist() == [image == set(live.tolist()) for image in images]
    assert fixes.any() and not fixes.all()


@pytest.mark.parametrize("kind,a,b", [("Mastermind", 3, 4), ("Mastermind", 4, 5),
                                      ("Bulls and Cows", 4, 6)])
def test_colours_in_common_counted_without_the_multiset_table(kind, a, b, monkeypatch):
    monkeypatch.setattr(engine_arrays, "MAX_MULTISETS", 0)  # as for many colours: count colour by colour
    table_game, _ = string_twins(kind, a, b)
    game = STRING_GAMES[kind][0](a, b)
    assert compiled.kernel(game).mode == engine_arrays.STRINGS_BY_COLOUR
    for strategy in STRATEGIES:
        assert_same(analyze_table(table_game, strategy), compiled.analyze(game, strategy))


def test_five_peg_rows_count_the_six_guess_codes():
    rows = tables.five_peg_rows(("Mastermind", 3, 4))
    table_game, _ = string_twins("Mastermind", 3, 4)
    for row in rows:
        reference = analyze_table(table_game, row["strategy"])
        assert (row["total"], row["worst"]) == (reference.total, reference.worst)
        assert row["6 guesses"] == int((reference.lengths == 6).sum())
        assert sum(int(n) for _, n in (x.split(":") for x in row["histogram"].split())) == 64


def test_plot_scaling_draws_both_engines_and_refuses_other_tables():
    bench = pd.DataFrame({"engine": ["compiled", "compiled", "table"], "strategy": ["parts"] * 3,
                          "codes": [1296, 7776, 1296], "warm min s": [0.02, 1.0, 0.5],
                          "peak MB": [200.0, 210.0, 300.0]})
    outside = pd.DataFrame({"strategy": ["parts"], "codes": [1296], "seconds": [100.0],
                            "source": ["elsewhere"]})
    fig = notebook.plot_scaling(bench, outside=outside)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert labels == ["parts (compiled)", "parts (table)", "parts (elsewhere)"]
    with pytest.raises(TypeError):
        notebook.plot_scaling(pd.DataFrame({"codes": [1]}))
    for wrong in (10**6, outside.drop(columns="source")):  # fuzz finding: an AttributeError
        with pytest.raises(checks.ArgumentTypeError, match="outside must be None or a table"):
            notebook.plot_scaling(bench, outside=wrong)


def test_warming_first_empties_numba_s_cache_of_the_engine_modules_only(tmp_path, monkeypatch):
    """numba reuses a kernel's cached code after an edit of one it calls in another file, so the
    install step removes the cache files of every engine module (`native.SOURCES`) first."""
    from puzzlelab.codebreaking import native, warm

    cache = tmp_path / "__pycache__"
    cache.mkdir()
    engine = [f"{name[:-3]}.{kernel}-12.py311.{kind}" for name in native.SOURCES
              for kernel, kind in (("_scan", "nbi"), ("_scan.some_key", "nbc"))]
    others = ["game.py311.pyc", "kernels.single_card-40.py311.nbi", "compiled_x.f-1.py311.nbi"]
    for name in engine + others:
        (cache / name).write_bytes(b"")
    monkeypatch.setattr(native, "HERE", tmp_path)
    assert warm.clear_cache() == len(engine) == 2 * len(native.SOURCES)
    assert sorted(p.name for p in cache.iterdir()) == sorted(others)


@pytest.mark.parametrize("pegs, colors", [(3, 4), (4, 5), (2, 9)])
def test_the_walk_built_at_install_plays_numba_s_tree(monkeypatch, pegs, colors):
    """The ahead-of-time walk (`native`) and numba's give the same lengths and tree, every rank."""
    from puzzlelab.codebreaking import compiled, native

    game, used = mastermind(pegs, colors), []
    solver = native.solver
    monkeypatch.setattr(native, "solver", lambda args: used.append(solver(args)) or used[-1])
    built = [compiled.analyze(game, s, rules=r) for s in STRATEGIES for r in compiled.RULES]
    if not all(used):
        pytest.skip("the walk is not built (puzzlelab warm)")
    monkeypatch.setattr(native, "solver", lambda args: None)
    for a, (s, r) in zip(built, [(s, r) for s in STRATEGIES for r in compiled.RULES]):
        b = compiled.analyze(game, s, rules=r)
        assert np.array_equal(a.lengths, b.lengths) and np.array_equal(a.determined, b.determined)
        pd.testing.assert_frame_equal(a.tree, b.tree)


def test_a_one_game_process_imports_neither_numba_nor_pandas():
    """With the walk built, analysing Mastermind in a fresh process loads only numpy's kind."""
    from puzzlelab.codebreaking import native

    script = ("import sys; from puzzlelab.codebreaking import compiled, mastermind; "
              "compiled.analyze(mastermind(3, 4), 'parts'); "
              "print(sorted(m for m in ('numba', 'pandas', 'scipy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split("\n")[0]
    if not native.available():
        pytest.skip("the walk is not built (puzzlelab warm)")
    assert out == "[]"
