"""Greedy strategies played against every code (Klimoš 2014, §3.3, Definitions 12–13, 21; Lemma 14).

A strategy looks at the codes still possible (knowledge = a set of codes, which makes it
memory-less, Definition 18) and scores every experiment by the sizes of the parts it would
split them into. The built-in strategies run in the compiled engine (`compiled`: outcomes
counted in place, memory linear in the codes), except on a small game (`TABLE_CODES`) while
that engine is not loaded: a fresh process plays it over its outcome table, one bincount per
node counting every experiment's parts (`_table_play`, numpy alone; `choose` and `simulate`
score it by `_choose`), and so analyses Mastermind 4×6 without loading numba. A scoring
function of one's own plays a small game the same way and a larger one from
`Game.partition_sizes`; every way gives the same tree. The scoring functions live in
`strategies.STRATEGIES` (Knuth 1977, Irving 1979, Neuwirth 1982, Kooi 2005), and a scoring
function of one's own may be passed instead of a name.

Ties: first an experiment whose final outcome is still possible (a guess that could be the
code), then the lowest experiment index (the game's fixed order, e.g. lowest code first).

Counting: if the game has final outcomes (Mastermind) a code's length is the number of
experiments up to and including the one that hits it; otherwise (the coin game) it is the
number of experiments until the code is determined (Definition 12). Both lengths are
recorded: `lengths` (the game's rule) and `determined` (the thesis's |σ|_v).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from .. import checks
from .game import Analysis, Game, check_game
from .strings import outcome_rows
from .strategies import (STRATEGIES, Scoring, expected_size, largest_part, most_parts, scoring,
                         strategy_name)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["STRATEGIES", "TABLE_CODES", "analyze", "analyze_by_bincount", "choose",
           "choose_by_table", "engine_loaded",
           "first_hit", "play_tree", "scores", "simulate"]

# A game of at most TABLE_CODES codes (and TABLE_CODES² outcomes in its table) is analysed over
# its outcome table, numpy alone, unless the compiled engine is loaded: in a fresh process that
# is faster than loading numba and the engine (benchmarks/bench_codebreaking_cold.py).
TABLE_CODES = 2_000
_COMPILED = f"{__package__}.compiled"  # the engine's module, once some analysis has loaded it
# scores in integers (whatever order their sums are taken in, the same numbers)
_INTEGER_SCORES = (largest_part, expected_size, most_parts)


def choose(game: Game, live: np.ndarray, strategy: str | Scoring) -> int:
    """The experiment the strategy performs when `live` are the codes still possible.

    Parameters
    ----------
    game : Game
        The game.
    live : numpy.ndarray
        The codes still possible: distinct code indices, at least one.
    strategy : str or callable
        A name of `STRATEGIES` or a scoring function (see `analyze`).

    Returns
    -------
    int
        The experiment's index: the lowest score; of those tied, the first that may hit the
        code, else the first.

    Raises
    ------
    ValueError
        If `game` is not a `Game`, `live` is not such an array, the strategy is unknown, its
        scores are not one number per experiment, or the chosen experiment splits nothing.

    Examples
    --------
    Knuth's first guess in Mastermind 4×6:

    >>> import numpy as np
    >>> from puzzlelab.codebreaking.games import mastermind
    >>> game = mastermind(4, 6)
    >>> game.experiment_name(choose(game, np.arange(game.n_codes), "max-models"))
    'g(1,1,2,2)'

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.3, Definition 21 (greedy strategies);
    Knuth (1977).
    """
    game = check_game(game)
    return _pick(game, _live_codes(game, live), scoring(strategy))


def choose_by_table(game: Game, live: np.ndarray, strategy: str | Scoring) -> int:
    """`choose` scored over the codes × experiments outcome table, never by the compiled engine
    (its reference: the same choice).

    Parameters
    ----------
    game : Game
        The game, whose outcome table is used (built if it has a string rule).
    live : numpy.ndarray
        Distinct indices of the codes still possible.
    strategy : str or callable
        A name of `STRATEGIES` or a scoring function.

    Returns
    -------
    int
        The experiment's index, as `choose` gives it.

    Raises
    ------
    ValueError
        As `choose`.

    Examples
    --------
    >>> import numpy as np
    >>> from puzzlelab.codebreaking.games import mastermind
    >>> game = mastermind(3, 3)
    >>> live = np.arange(game.n_codes)
    >>> game.experiment_name(choose_by_table(game, live, "max-models"))
    'g(1,1,2)'

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.3, Definition 21.
    """
    game = check_game(game)
    return _choose(game, _live_codes(game, live), scoring(strategy))


def _named(score_of: Scoring) -> str | None:
    """The registry name of a built-in strategy (played by the compiled engine), else None."""
    name = strategy_name(score_of)
    return name if STRATEGIES.get(name) is score_of else None


def _pick(game: Game, live: np.ndarray, score_of: Scoring) -> int:
    """`_choose`, by the compiled engine for the built-in strategies (the same choice) unless the
    game is small and the engine not loaded (`analyze`'s rule)."""
    name = _named(score_of)
    if name is None or _by_table(game):
        return _choose(game, live, score_of)
    from .compiled import choose as compiled

    return compiled(game, live, name)


def _choose(game: Game, live: np.ndarray, score_of: Scoring) -> int:
    return _choose_by_sizes(game, live, game.partition_sizes(live), score_of)


def scores(score_of: str | Scoring, counts: np.ndarray) -> np.ndarray:
    """The strategy's score of each experiment (a row of part sizes each), checked: one number
    per row, none NaN (a ValueError names the strategy otherwise).

    Parameters
    ----------
    score_of : str or callable
        A name of `STRATEGIES` or a scoring function.
    counts : numpy.ndarray
        Integers, experiments × outcomes: counts[j, o] = live codes on which experiment j gives
        outcome o (`Game.partition_sizes`).

    Returns
    -------
    numpy.ndarray
        One float per experiment; the lowest is chosen.

    Raises
    ------
    ValueError
        If `counts` is not a 2-d integer array, the strategy is unknown, or its scores are not
        one number per experiment or hold NaN.

    Examples
    --------
    Two experiments splitting four codes 3 + 1 and 2 + 2: max-models scores the largest part,
    parts the number of parts (negated, lowest first).

    >>> import numpy as np
    >>> counts = np.array([[3, 1], [2, 2]])
    >>> scores("max-models", counts).tolist(), scores("parts", counts).tolist()
    ([3.0, 2.0], [-2.0, -2.0])

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.3, Definition 21; Knuth (1977) and Kooi
    (2005) for the two scores.
    """
    score_of, counts = scoring(score_of), np.asarray(counts)
    if counts.ndim != 2 or counts.dtype.kind not in "iu":
        raise checks.ArgumentTypeError(f"counts must be a 2-d integer array (experiments × "
                                       f"outcomes), got {counts!r}")
    return _scores(score_of, counts)


def _scores(score_of: Scoring, counts: np.ndarray) -> np.ndarray:
    score = np.asarray(score_of(counts), dtype=np.float64)
    if score.shape != (len(counts),) or np.isnan(score).any():
        raise ValueError(f"strategy {strategy_name(score_of)!r} must give one number per "
                         f"experiment ({len(counts)}), got shape {score.shape}")
    return score


def _choose_by_sizes(game: Game, live: np.ndarray, counts: np.ndarray, score_of: Scoring) -> int:
    """The experiment with the lowest score, given every experiment's part sizes on `live`: of
    those tied, the first that may hit the code (a final outcome has a live code), else the
    first."""
    score = _scores(score_of, counts)
    candidates = np.flatnonzero(score == score.min())
    j = int(candidates[0])
    if game.ends_on_final:
        hits = counts[candidates][:, game.is_final].any(axis=1)
        if hits.any():
            j = int(candidates[np.argmax(hits)])
    if len(live) > 1 and not _useful(game, counts[j]):
        names = ", ".join(game.code_names[k] for k in live[:4])
        raise ValueError(f"{game.name}: no experiment tells apart the codes {names}")
    return j


def _useful(game: Game, parts: np.ndarray) -> bool:
    """Does an experiment with these part sizes make progress on more than one code?"""
    nonfinal = parts[~game.is_final]
    return nonfinal.max() < parts.sum() or bool(parts[game.is_final].sum())


def analyze(game: Game, strategy: str | Scoring = "max-models") -> Analysis:
    """Play `strategy` (a name or a scoring function) against every code, node by node.

    The built-in strategies run in the compiled engine (`compiled.analyze`: memory linear in
    the codes), but a small game (`TABLE_CODES`) is played over its outcome table
    (`_table_play`, numpy alone) while the engine is not loaded, as in a fresh process, and
    whatever the strategy if it is a scoring function of one's own; such a function plays a
    larger game by `_play` from the game's partition sizes. Each way makes the same choices.

    Parameters
    ----------
    game : Game
        The game.
    strategy : str or callable
        A name of `STRATEGIES` ("max-models", "exp-models", "ent-models", "parts") or a
        function of one argument (every experiment's part sizes) returning a score per
        experiment, the lowest chosen.

    Returns
    -------
    Analysis
        Lengths per code, worst, total, average, histogram and the decision tree.

    Raises
    ------
    ValueError
        If `game` is not a `Game`, `strategy` is an unknown name, or a function that does not
        take one argument.

    Examples
    --------
    Mastermind 3×3: Knuth's max-models needs 74 guesses over the 27 codes, Kooi's parts 73.

    >>> from puzzlelab.codebreaking.games import mastermind
    >>> game = mastermind(3, 3)
    >>> knuth = analyze(game, "max-models")
    >>> knuth.worst, knuth.total, knuth.histogram()
    (4, 74, {1: 1, 2: 7, 3: 17, 4: 2})
    >>> analyze(game, "parts").total
    73

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.3, Definitions 12-13 and 21 (greedy
    strategies); Knuth (1977), Irving (1979),
    Neuwirth (1982), Kooi (2005) for the scores.
    """
    game, score_of = check_game(game), scoring(strategy)
    label, name = strategy_name(strategy), _named(score_of)
    if name is not None and not _by_table(game):
        from .compiled import analyze as compiled

        return compiled(game, name)
    if _small(game):
        return _table_play(game, score_of, label)
    return _play(game, lambda live, depth: _choose(game, live, score_of), label)


def _small(game: Game) -> bool:
    """At most `TABLE_CODES` codes and `TABLE_CODES`² outcomes in the game's table?"""
    return game.n_codes <= TABLE_CODES and game.n_codes * game.n_experiments <= TABLE_CODES**2


def engine_loaded() -> bool:
    """Has this process loaded the compiled engine (so a small game need not avoid it)?

    Returns
    -------
    bool
        True once some analysis has imported `compiled`; in a fresh process False, and the
        built-in strategies play a game of at most `TABLE_CODES` codes over its table.

    Examples
    --------
    >>> import sys
    >>> engine_loaded() == ("puzzlelab.codebreaking.compiled" in sys.modules)
    True

    References
    ----------
    benchmarks/bench_codebreaking_cold.py (the table is faster than loading numba and the engine).
    """
    return _COMPILED in sys.modules


def _by_table(game: Game) -> bool:
    """Is a built-in strategy played over the table: a small game, the engine not loaded?"""
    return _small(game) and not engine_loaded()


def analyze_by_bincount(game: Game, strategy: str | Scoring = "max-models") -> Analysis:
    """`analyze` played over the game's outcome table, numpy alone, never by the compiled engine.

    Each node counts every experiment's parts with one bincount over the live codes' rows of the
    table (what a fresh process runs on a small game); the same tree as the compiled engine.

    Parameters
    ----------
    game : Game
        The game; its codes × experiments outcome table is held in memory.
    strategy : str or callable
        A name from `STRATEGIES` or a scoring function of one's own.

    Returns
    -------
    Analysis
        Each code's number of experiments and the decision tree.

    Raises
    ------
    ValueError
        If `strategy` names no strategy, or no experiment tells apart the codes still possible.

    Examples
    --------
    >>> from puzzlelab.codebreaking import mastermind
    >>> game = mastermind(2, 3)
    >>> table = analyze_by_bincount(game, "max-models")
    >>> table.total, table.worst
    (24, 4)
    >>> from puzzlelab.codebreaking.reference import analyze_plain
    >>> table.lengths.tolist() == analyze_plain(game, "max-models").lengths.tolist()
    True

    References
    ----------
    Klimoš 2014, §3.3, Definitions 12–13 (a strategy played against every code).
    """
    game, score_of = check_game(game), scoring(strategy)
    return _table_play(game, score_of, strategy_name(strategy))


def _table_play(game: Game, score_of: Scoring, label: str) -> Analysis:
    """`_play` with `_choose`, each node's part sizes counted by one bincount: the outcome table
    laid out codes × experiments holds outcome o of experiment j as o × (experiments) + j, so
    that the rows of the live codes count every experiment's parts at once, outcome by outcome
    (a score then reduces over a few long rows)."""
    n_exp, n_out = game.n_experiments, game.n_outcomes
    by_code = game.outcome_table.T.astype(np.intp, order="C")
    by_code *= n_exp
    by_code += np.arange(n_exp, dtype=np.intp)
    exact = score_of in _INTEGER_SCORES

    def sizes(live: np.ndarray) -> np.ndarray:
        """counts[j, o] (a view of the outcome-major counts), in C order unless the score is
        exact: a float sum's order follows the memory order, so it gets `partition_sizes`'s."""
        counts = np.bincount(by_code[live].ravel(), minlength=n_out * n_exp)
        counts = counts.reshape(n_out, n_exp).T
        return counts if exact else np.ascontiguousarray(counts)

    return _play(game, lambda live, depth: _choose_by_sizes(game, live, sizes(live), score_of),
                 label)


def first_hit(game: Game) -> np.ndarray:
    """For every code, the lowest experiment whose final outcome holds on it (its guess).

    Parameters
    ----------
    game : Game
        A game that ends on final outcomes (`Game.ends_on_final`).

    Returns
    -------
    numpy.ndarray
        An experiment index per code.

    Raises
    ------
    ValueError
        If `game` is not a `Game`, or its outcome table exceeds the memory budget.

    Examples
    --------
    In Mastermind each code is hit by guessing it:

    >>> from puzzlelab.codebreaking.games import mastermind
    >>> first_hit(mastermind(2, 2)).tolist()
    [0, 1, 2, 3]

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.3, Definition 12 (a game ends on a
    final outcome).
    """
    game = check_game(game)
    return np.argmax(game.is_final[game.outcome_table], axis=0)


_TREE_COLUMNS = ["node", "parent", "outcome", "depth", "codes", "experiment", "code"]


def play_tree(game: Game, pick: Callable[[np.ndarray, int], int], label: str) -> Analysis:
    """Play `pick(live codes, depth) -> experiment` against every code: the decision tree and
    each code's number of experiments, under the name `label`.

    Parameters
    ----------
    game : Game
        The game.
    pick : callable
        pick(live, depth): the experiment to perform when the codes `live` are still possible
        after `depth` experiments.
    label : str
        The strategy's name in the result.

    Returns
    -------
    Analysis
        Lengths per code and the decision tree.

    Raises
    ------
    ValueError
        If `game` is not a `Game`, `pick` is not callable or picks no experiment index, an
        experiment picked splits nothing, or `label` is not text.

    Examples
    --------
    Always guessing the first code still possible solves Mastermind 3×3 in 5 guesses at
    worst, 89 in all (the greedy max-models: 4 and 74).

    >>> from puzzlelab.codebreaking.games import mastermind
    >>> result = play_tree(mastermind(3, 3), lambda live, depth: int(live[0]), "first possible")
    >>> result.worst, result.total
    (5, 89)

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.3, Definitions 12-13 (a strategy and
    its length).
    """
    game = check_game(game)
    if not callable(pick):
        raise checks.ArgumentTypeError(f"pick must be a function of (live, depth), got {pick!r}")
    last = game.n_experiments - 1

    def checked_pick(live: np.ndarray, depth: int) -> int:
        return checks.integer(pick(live, depth), "the experiment pick chose", low=0, high=last)

    return _play(game, checked_pick, checks.text(label, "label"))


def _play(game: Game, pick: Callable[[np.ndarray, int], int], label: str) -> Analysis:
    """Play `pick` against every code, node by node of its decision tree (a stack, no recursion)."""
    n, names = game.n_codes, game.code_names
    lengths, determined = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    hit = first_hit(game) if game.ends_on_final else None
    rows: list[tuple] = []
    stack = [(np.arange(n), 0, -1, "")]
    while stack:
        live, depth, parent, outcome = stack.pop()
        node, k = len(rows), int(live[0])
        if len(live) == 1 and not game.ends_on_final:
            lengths[k] = determined[k] = depth
            rows.append((node, parent, outcome, depth, 1, "", names[k]))
        elif len(live) == 1:  # every score ties on one code; the tie-break guesses it
            lengths[k], determined[k] = depth + 1, depth
            guess = game.experiment_name(int(hit[k]))
            rows.append((node, parent, outcome, depth, 1, guess, names[k]))
        else:
            j = pick(live, depth)
            rows.append((node, parent, outcome, depth, len(live), game.experiment_name(j), ""))
            parts = game.parts(live, j)
            if len(parts) == 1 and not game.is_final[next(iter(parts))]:
                raise ValueError(f"{label}: experiment {game.experiment_name(j)} does not split the "
                                 f"{len(live)} codes still possible at depth {depth}, so the game "
                                 "would never end")
            for o, part in sorted(parts.items(), reverse=True):
                label_o = game.outcome_labels[o]
                if game.is_final[o]:
                    lengths[part] = determined[part] = depth + 1
                    rows.append((len(rows), node, label_o, depth + 1, 1, "", names[part[0]]))
                else:
                    stack.append((part, depth + 1, node, label_o))
    return Analysis(game, label, lengths, determined, partial(_tree_frame, rows))


def _tree_frame(rows: list[tuple]) -> pd.DataFrame:
    """The decision tree's rows as a table, made when the analysis's tree is first read (pandas
    is imported then)."""
    import pandas as pd

    return pd.DataFrame(rows, columns=_TREE_COLUMNS).sort_values("node").reset_index(drop=True)


def simulate(game: Game, strategy: str | Scoring, code: str | int) -> pd.DataFrame:
    """One play of `strategy` against one secret code: experiment, outcome, codes left after it.

    Parameters
    ----------
    game : Game
        The game.
    strategy : str or callable
        A name of `STRATEGIES` or a scoring function (see `analyze`).
    code : str or int
        The secret code, by name (`Game.code_names`) or index.

    Returns
    -------
    pandas.DataFrame
        A row per step: step, experiment, outcome, codes left.

    Raises
    ------
    ValueError
        If `game` is not a `Game`, the strategy is unknown, or no code has that name or index.

    Examples
    --------
    Mastermind 3×3 against the code 321: three guesses, the last one hitting it.

    >>> from puzzlelab.codebreaking.games import mastermind
    >>> play = simulate(mastermind(3, 3), "max-models", "321")
    >>> play.experiment.tolist(), play.outcome.tolist(), play["codes left"].tolist()
    (['g(1,1,2)', 'g(2,3,1)', 'g(3,2,1)'], ['0B2W', '1B2W', '3B0W'], [3, 1, 1])

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.3 (a strategy's play, Definition 12).
    """
    import pandas as pd

    game, score_of = check_game(game), scoring(strategy)
    if isinstance(code, str):
        k = game.code_index(code)
    else:
        k = checks.integer(code, "code (a code name or an index)", low=0, high=game.n_codes - 1)
    live, steps = np.arange(game.n_codes), []
    while len(live) > 1 or game.ends_on_final:
        j = _pick(game, live, score_of)
        row = _outcomes(game, j, live)
        o = int(row[np.flatnonzero(live == k)[0]])
        live = live[row == o]
        steps.append({"step": len(steps) + 1, "experiment": game.experiment_name(j),
                      "outcome": game.outcome_labels[o], "codes left": len(live)})
        if game.is_final[o]:
            break
    return pd.DataFrame(steps)


def _outcomes(game: Game, j: int, live: np.ndarray) -> np.ndarray:
    """Experiment j's outcomes on the codes `live` (from the strings when the game has a rule)."""
    if game.rule is None:
        return game.outcome_table[j, live]
    if _by_table(game):
        return outcome_rows(game.rule, np.array([j]), live)[0]
    from .compiled import outcome_row

    return outcome_row(game, j, live)


def _live_codes(game: Game, live: object) -> np.ndarray:
    """`live` as a non-empty array of distinct code indices of `game`."""
    arr = np.asarray(live)
    if arr.ndim != 1 or len(arr) == 0 or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"live codes must be a non-empty 1-d array of code indices, got {live!r}")
    if arr.min() < 0 or arr.max() >= game.n_codes or len(np.unique(arr)) != len(arr):
        raise ValueError(f"live codes must be distinct indices 0..{game.n_codes - 1}")
    return arr.astype(np.intp)
