"""A code-breaking game as explicit tables (Klimoš 2014, §3.2).

The thesis describes a game by variables X, a restriction φ0, experiment types with
parametrizations and parametrized outcome formulas (Definition 4). We keep that view but
run it fast: the secret codes are the valuations of X that satisfy φ0, enumerated once as
rows of a boolean matrix, and every experiment's outcome on every code is computed once
into an integer table. Knowledge is then just the set of codes still possible.

    Game(name, variables, codes, experiments, outcome_table, outcome_labels,
         *, final_outcomes=(), code_names=None, symmetry=None, type_outcomes=None, rule=None)

- `codes`: bool array (n_codes × n_vars); row k is the valuation of code k.
- `experiments[j] = (type name, parametrization)`; the parametrization is a tuple of ints
  (the symbols of the alphabet). Their order is the strategies' tie-break order.
- `outcome_table[j, k]`: index into `outcome_labels` of the outcome of experiment j on code k.
  It may be None when a `rule` (`strings.StringRule`: codes and guesses are strings of
  colours, as in Mastermind) computes the outcomes: the analyses then run from the strings
  in memory linear in the codes, and the table is built only if something asks for it.
- `final_outcomes`: labels (or indices) of the outcomes that mean "the code was hit", e.g.
  "4B0W" in Mastermind. Empty (the default) means the thesis's rule (Definition 12): a
  game ends as soon as the code is *determined* (one code left), as in the coin game.
  Non-empty means a game ends only when a final outcome is *observed*: the last guess counts.
  A final outcome must single out one code (checked).
- `type_outcomes`: for each experiment type t, the labels of its outcome formulas Φ(t)
  (Definition 4); by default every type has every label. Lemma 14's b is the largest |Φ(t)|.
- `symmetry`: optional `Symmetry` (permutations of codes and experiments that map the
  game to itself, §3.4), or a function building it on first use; it only shrinks the
  optimal search.

Well-formedness (Definition 7: exactly one outcome formula holds per code and experiment)
is built into the table form. The checks of the game's parts, `well_formed_table` (truth values
of outcome formulas made such a table, any violation reported) and `Symmetry` are in
`game_checks`; an `Analysis` is a strategy played against every code of a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import checks
from ..checks import MEMORY_BUDGET, within_budget
from .game_checks import (Experiment, Symmetry, check_codes, check_experiments, check_names,
                          check_outcome_table, check_symmetry_shapes)
from .strings import StringRule, outcome_rows

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Analysis", "Game", "check_game"]


class Game:
    """A well-formed code-breaking game with codes, experiments and outcome table (thesis Definition
    4, 7).

    Parameters
    ----------
    name : str
        The game's name (non-empty).
    variables : list of str
        The propositional variables X, distinct.
    codes : numpy.ndarray
        Bool array (codes × variables): row k is the valuation of code k (those satisfying the
        restriction φ0), no two alike, at least one.
    experiments : list of (str, tuple of int)
        (type name, parametrization) pairs, distinct; their order breaks the strategies' ties.
    outcome_table : numpy.ndarray or None
        Integers (experiments × codes): outcome_table[j, k] indexes `outcome_labels`; None when
        `rule` computes the outcomes.
    outcome_labels : list of str
        The outcome names, distinct, at least one.
    final_outcomes : iterable of str or int
        Outcomes meaning "the code was hit" (Mastermind's all-black); empty: the game ends when
        the code is determined (Definition 12).
    code_names : sequence of str, optional
        A name per code; by default the variables true in it, as "{x1,y}".
    symmetry : Symmetry, callable or None
        Permutations mapping the game to itself, or a function making them on first use.
    type_outcomes : dict of str to sequence of str, optional
        Per experiment type t, the labels of its outcome formulas Φ(t); by default all labels.
    rule : strings.StringRule, optional
        Outcomes computed from strings of colours (codes = experiments = the rule's strings).

    Raises
    ------
    ValueError
        If the name is empty; names repeat; the codes are not a 2-d boolean array with a column
        per variable, or repeat a valuation, or there is none; an experiment is not a (type,
        integers) pair or is listed twice; there is neither a table nor a rule, or the table's
        shape or values do not fit; a type's outcomes are missing, unknown or not obeyed; a final
        outcome is unknown, holds for two codes of one experiment, or some code can never get
        one; the code names do not match the codes; the symmetry's shapes do not fit.

    Examples
    --------
    Mastermind with 2 pegs and 3 colours: 9 codes, each also a guess, 6 answers (black and
    white markers).

    >>> from puzzlelab.codebreaking.games import mastermind
    >>> game = mastermind(2, 3)
    >>> game
    Game('Mastermind 2×3': 9 codes, 9 experiments, 6 outcomes)
    >>> game.outcome_labels, game.experiment_name(5), game.code_names[5]
    (['0B0W', '0B1W', '0B2W', '1B0W', '1B1W', '2B0W'], 'g(2,3)', '23')
    >>> int(game.outcome_table[game.code_index("12"), game.code_index("21")])  # 0 black, 2 white
    2

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.2: Definition 4 (code breaking
    game) and Definition 7 (well-formed game).
    """

    def __init__(
        self,
        name: str,
        variables: list[str],
        codes: np.ndarray,
        experiments: list[Experiment],
        outcome_table: np.ndarray | None,
        outcome_labels: list[str],
        *,
        final_outcomes: Iterable[str | int] = (),
        code_names: Sequence[str] | None = None,
        symmetry: Symmetry | Callable[[], Symmetry | None] | None = None,
        type_outcomes: dict[str, Sequence[str]] | None = None,
        rule: StringRule | None = None,
    ) -> None:
        self.name = checks.text(name, "game name")
        if not name:
            raise ValueError("game name must be a non-empty string")
        self.variables = check_names(variables, "variables", name)
        self.codes = check_codes(codes, len(self.variables), name)
        self.experiments = check_experiments(experiments, name)
        self.outcome_labels = check_names(outcome_labels, "outcome labels", name)
        if not self.outcome_labels:
            raise ValueError(f"{name}: outcome labels must be non-empty")
        self.rule = _rule(rule, outcome_table, len(self.codes), len(self.experiments), name)
        self._table = None if outcome_table is None else check_outcome_table(
            outcome_table, len(self.experiments), len(self.codes), len(self.outcome_labels), name
        )
        self.type_outcomes = self._type_outcomes(type_outcomes)
        self.final_outcomes = frozenset(self._outcome_index(o) for o in final_outcomes)
        self.is_final = np.zeros(len(self.outcome_labels), dtype=bool)
        self.is_final[list(self.final_outcomes)] = True
        self._check_finals()
        if code_names is None:
            code_names = [self._default_code_name(row) for row in self.codes]
        self.code_names = check_names(code_names, "code names", name, distinct=False)
        if len(self.code_names) != len(self.codes):
            raise ValueError(
                f"{name}: {len(self.code_names)} code names for {len(self.codes)} codes"
            )
        if not (symmetry is None or isinstance(symmetry, Symmetry) or callable(symmetry)):
            raise checks.ArgumentTypeError(
                f"{name}: symmetry must be a Symmetry, a function or None"
            )
        self._symmetry = symmetry
        if isinstance(symmetry, Symmetry):
            check_symmetry_shapes(symmetry, len(self.codes), len(self.experiments), name)
        self._index = {e: j for j, e in enumerate(self.experiments)}

    @property
    def outcome_table(self) -> np.ndarray:
        """outcome_table[j, k]: the outcome of experiment j on code k (computed from the rule on
        first use, when the game has one: experiments × codes bytes, refused past the budget)."""
        if self._table is None:
            within_budget(f"the outcome table of {self.name}",
                          2.0 * self.n_experiments * self.n_codes, MEMORY_BUDGET,
                          largest="about 60,000 codes")
            every = np.arange(self.n_codes)
            table = outcome_rows(self.rule, every, every)
            self._table = check_outcome_table(table, self.n_experiments, self.n_codes,
                                              self.n_outcomes, self.name)
        return self._table

    @property
    def table_built(self) -> bool:
        """Has `outcome_table` been built (given, or computed from the rule by its first use)?"""
        return self._table is not None

    @property
    def symmetry(self) -> Symmetry | None:
        """The symmetry group (built on first use when given as a function)."""
        if callable(self._symmetry) and not isinstance(self._symmetry, Symmetry):
            sym = self._symmetry()
            if sym is not None:
                check_symmetry_shapes(sym, self.n_codes, self.n_experiments, self.name)
            self._symmetry = sym
        return self._symmetry

    # --- sizes and names -------------------------------------------------------------
    @property
    def n_codes(self) -> int:
        """The number of codes (rows of `codes`)."""
        return int(self.codes.shape[0])

    @property
    def n_experiments(self) -> int:
        """The number of experiments."""
        return len(self.experiments)

    @property
    def n_outcomes(self) -> int:
        """The number of outcome labels over all experiment types (columns of `partition_sizes`)."""
        return len(self.outcome_labels)

    @property
    def max_type_outcomes(self) -> int:
        """b of Lemma 14 and Lemma 22: max over experiment types t of |Φ(t)|, the outcomes one
        experiment has."""
        return max(len(labels) for labels in self.type_outcomes.values())

    @property
    def ends_on_final(self) -> bool:
        """True when a game ends only once a final outcome is observed (Mastermind), else when
        determined."""
        return bool(self.final_outcomes)

    def experiment_name(self, j: int) -> str:
        """Readable name of experiment j, e.g. `g(1,1,2,2)`."""
        t, p = self.experiments[j]
        return f"{t}({','.join(map(str, p))})"

    def experiment_index(self, experiment: Experiment) -> int:
        """Index of the experiment (type, parametrization); ValueError if there is none."""
        key = (str(experiment[0]), tuple(int(s) for s in experiment[1]))
        if key not in self._index:
            raise ValueError(f"{self.name}: no experiment {key}")
        return self._index[key]

    def code_index(self, code_name: str) -> int:
        """Index of the code with this name; ValueError if there is none."""
        try:
            return self.code_names.index(str(code_name))
        except ValueError:
            raise ValueError(f"{self.name}: no code named {code_name!r}") from None

    def __repr__(self) -> str:
        return (
            f"Game({self.name!r}: {self.n_codes} codes, {self.n_experiments} experiments, "
            f"{self.n_outcomes} outcomes)"
        )

    # --- the computation everything else rests on ---------------------------------------
    def partition_sizes(
        self, live: np.ndarray, experiments: np.ndarray | None = None
    ) -> np.ndarray:
        """Part sizes: counts[j, o] = #live codes on which experiment j has outcome o (one
        bincount)."""
        live = np.asarray(live, dtype=np.intp)
        if self.rule is not None:  # from the strings, no table
            every = np.arange(self.n_experiments) if experiments is None else experiments
            sub = outcome_rows(self.rule, every, live).astype(np.intp)
        else:
            table = self.outcome_table if experiments is None else self.outcome_table[experiments]
            sub = table[:, live].astype(np.intp)
        b = self.n_outcomes
        flat = sub + (np.arange(sub.shape[0], dtype=np.intp) * b)[:, None]
        return np.bincount(flat.ravel(), minlength=sub.shape[0] * b).reshape(sub.shape[0], b)

    def parts(self, live: np.ndarray, j: int) -> dict[int, np.ndarray]:
        """The live codes split by the outcome of experiment j: {outcome index: codes}."""
        live = np.asarray(live, dtype=np.intp)
        out = (self._table[j, live] if self._table is not None  # else from the strings
               else outcome_rows(self.rule, np.array([j]), live)[0])
        order = np.argsort(out, kind="stable")
        ordered, grouped = out[order], live[order]
        starts = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist(), len(live)]
        return {int(ordered[a]): grouped[a:b] for a, b in zip(starts, starts[1:])}

    def with_final_outcomes(self, final_outcomes: Iterable[str | int]) -> Game:
        """A copy of the game that ends when one of these outcomes is observed."""
        return Game(
            self.name, self.variables, self.codes, self.experiments, self.outcome_table,
            self.outcome_labels, final_outcomes=final_outcomes, code_names=self.code_names,
            symmetry=self._symmetry, type_outcomes=self.type_outcomes,
        )

    # --- helpers ---------------------------------------------------------------------------
    def _type_outcomes(self, given: dict[str, Sequence[str]] | None) -> dict[str, tuple[str, ...]]:
        """Φ(t) per type as label tuples; every experiment's outcomes must lie in its type's set."""
        types = list(dict.fromkeys(t for t, _ in self.experiments))
        if given is None:
            return {t: tuple(self.outcome_labels) for t in types}
        if not isinstance(given, dict):
            raise checks.ArgumentTypeError(
                f"{self.name}: type_outcomes must map experiment types to outcome labels"
            )
        out = {str(t): tuple(str(o) for o in labels) for t, labels in given.items()}
        missing = [t for t in types if t not in out]
        if missing:
            raise ValueError(f"{self.name}: type_outcomes lacks experiment type {missing[0]!r}")
        kinds = np.array([t for t, _ in self.experiments])
        position = {o: i for i, o in reversed(list(enumerate(self.outcome_labels)))}
        for t, labels in out.items():
            unknown = [o for o in labels if o not in position]
            if unknown or not labels:
                raise ValueError(
                    f"{self.name}: type {t!r} has unknown or no outcome labels {unknown}"
                )
            allowed = np.isin(np.arange(self.n_outcomes), [position[o] for o in labels])
            rows = self.outcome_table[kinds == t]
            if rows.size and not allowed[rows].all():
                raise ValueError(
                    f"{self.name}: an experiment of type {t!r} has an outcome outside Φ({t})"
                )
        return out

    def _outcome_index(self, o: str | int) -> int:
        if not isinstance(o, str):
            return checks.integer(o, "a final outcome (a label or an index)", low=0,
                                  high=self.n_outcomes - 1)
        if str(o) not in self.outcome_labels:
            raise ValueError(f"{self.name}: unknown final outcome {o!r}")
        return self.outcome_labels.index(str(o))

    def _check_finals(self) -> None:
        if not self.final_outcomes:
            return
        if self._table is None:  # a string rule: only the all-black answer may end the game
            allowed = {int(self.rule.lut[self.rule.strings.shape[1], 0])}
            if not self.final_outcomes <= allowed:
                raise ValueError(f"{self.name}: with a string rule only the all-black outcome "
                                 f"{self.outcome_labels[min(allowed)]!r} can be final")
            return
        hits = self.is_final[self.outcome_table].sum(axis=1)
        bad = np.flatnonzero(hits > 1)
        if len(bad):
            raise ValueError(
                f"{self.name}: final outcome of {self.experiment_name(int(bad[0]))} "
                f"holds for {int(hits[bad[0]])} codes (a final outcome must single out the code)"
            )
        reachable = self.is_final[self.outcome_table].any(axis=0)
        if not reachable.all():
            k = int(np.flatnonzero(~reachable)[0])
            raise ValueError(f"{self.name}: no experiment gives a final outcome on code {k}")

    def _default_code_name(self, row: np.ndarray) -> str:
        true = [v for v, b in zip(self.variables, row) if b]
        return "{" + ",".join(true) + "}"


class BuiltOnRead:
    """A dataclass field given as its value or as a function of no arguments that makes the value
    when the field is first read (an analysis's decision tree: pandas is imported only then)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:  # asked by dataclasses for a default: there is none
            raise AttributeError(self.name)
        value = obj.__dict__[self.name]
        if callable(value):
            value = obj.__dict__[self.name] = value()
        return value

    def __set__(self, obj: object, value: Any) -> None:
        obj.__dict__[self.name] = value


@dataclass
class Analysis:
    """A strategy played against every code: lengths per code, worst, total, average, tree.

    Parameters
    ----------
    game : Game
        The game played.
    strategy : str
        The strategy's name (e.g. "max-models", "optimal worst").
    lengths : numpy.ndarray
        Experiments per code, by the game's counting rule (up to the hit when the game ends on
        a final outcome).
    determined : numpy.ndarray
        Experiments per code until it is determined (the thesis's |σ|_v).
    tree : pandas.DataFrame or callable
        The decision tree (node, parent, outcome, depth, codes, experiment, code), or a function
        of no arguments making it when first read.
    stats : dict
        Counters of the search that made the strategy (states, experiments tried, ...).

    Raises
    ------
    ValueError
        If `tree` is given as a value and is not a DataFrame.

    Examples
    --------
    The classic twelve coins: the greedy strategy finds the fake coin, and whether it is
    heavier or lighter, in three weighings, as Lemma 14's bound ⌈log_3 24⌉ says it must at
    least.

    >>> from puzzlelab.codebreaking import analyze, counterfeit_coin, lemma14_bound
    >>> coins = counterfeit_coin(12)
    >>> result = analyze(coins, "max-models")
    >>> result.worst, lemma14_bound(coins), result.histogram()
    (3, 3, {3: 24})

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.3: Definition 12 (the length of a
    strategy) and Definition 13 (worst and average case).
    """

    game: Game
    strategy: str
    lengths: np.ndarray  # experiments per code, by the game's counting rule
    determined: np.ndarray  # experiments until the code is determined (thesis |σ|_v)
    # the decision tree (node, parent, outcome, depth, codes, experiment, code), or what makes it
    tree: pd.DataFrame | Callable[[], pd.DataFrame] = BuiltOnRead()
    stats: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        checks.record(self)
        if not callable(self.__dict__["tree"]):
            checks.table(self.__dict__["tree"], "Analysis.tree", [])

    @property
    def worst(self) -> int:
        """The most experiments any code needs (the strategy's worst case)."""
        return int(self.lengths.max())

    @property
    def total(self) -> int:
        """The experiments summed over all codes."""
        return int(self.lengths.sum())

    @property
    def average(self) -> float:
        """The experiments per code on average (`total` / codes)."""
        return self.total / len(self.lengths)

    def histogram(self) -> dict[int, int]:
        """Number of codes solved in exactly d experiments, for every d = 0..worst that occurs."""
        depths, counts = np.unique(self.lengths, return_counts=True)
        return {int(d): int(c) for d, c in zip(depths, counts)}


def _rule(rule: object, table: object, n_codes: int, n_exp: int, name: str) -> StringRule | None:
    """The game's string rule (codes = experiments = its strings), or None; one of table or rule."""
    if rule is None:
        if table is None:
            raise ValueError(f"{name}: an outcome table (or a string rule) is needed")
        return None
    if not isinstance(rule, StringRule):
        raise checks.ArgumentTypeError(f"{name}: rule must be a strings.StringRule, got {rule!r}")
    if not len(rule.strings) == n_codes == n_exp:
        raise ValueError(f"{name}: the rule's {len(rule.strings)} strings must be the "
                         f"{n_codes} codes and the {n_exp} experiments")
    return rule


def check_game(game: object, name: str = "game") -> Game:
    """`game` if it is a `Game`, else a TypeError saying what to pass.

    Parameters
    ----------
    game : object
        What was passed as a game.
    name : str
        The argument's name, for the message.

    Returns
    -------
    Game
        `game` itself.

    Raises
    ------
    ValueError
        If `game` is not a `Game` (an `ArgumentTypeError`, a TypeError and a ValueError).

    Examples
    --------
    >>> from puzzlelab.codebreaking.games import mastermind
    >>> check_game(mastermind(2, 2)).n_codes
    4
    >>> check_game("Mastermind")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    puzzlelab.checks.ArgumentTypeError: game must be a code-breaking Game (e.g. mastermind(3, 3) ...

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.2, Definition 4.
    """
    if not isinstance(game, Game):
        raise checks.ArgumentTypeError(
            f"{name} must be a code-breaking Game (e.g. mastermind(3, 3) or parse(text)), "
            f"got {game!r}")
    return game
