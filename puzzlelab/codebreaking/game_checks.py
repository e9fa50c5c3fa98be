"""What a code-breaking game is checked against (Klimoš 2014, §3.2 and §3.4): its parts one by
one, the well-formed outcome table, and its symmetries.

`Game` (in `game`) takes its variables, codes, experiments and outcome table through these
checks: `check_names`, `check_codes` (a boolean valuation per code, no two alike),
`check_experiments` ((type, parametrization) pairs, none twice), `check_outcome_table` (an
outcome index per experiment and code) and `check_symmetry_shapes`. `well_formed_table` turns
truth values of outcome formulas into an outcome table and reports any violation of Definition
7 (exactly one outcome formula holds per code and experiment). `Symmetry` holds permutations of
the codes and experiments that map a game to itself (§3.4); they only shrink the optimal search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from .. import checks

__all__ = ["Experiment", "Symmetry", "check_codes", "check_experiments", "check_names",
           "check_outcome_table", "check_symmetry_shapes", "well_formed_table"]

Experiment = tuple[str, tuple[int, ...]]


@dataclass(frozen=True)
class Symmetry:
    """Permutations π of the game (§3.4): code k ↦ code_perms[g, k], experiment j ↦
    experiment_perms[g, j].

    Each row g must map every experiment's partition of the codes onto the partition of the
    image experiment (outcome labels may be renamed, final outcomes must stay final).
    `complete=True` says the rows form a whole group (so the stabilizer of a set of codes
    can be read off directly); `complete=False` says they are only generators. Generators
    that are transpositions of two symbols (§3.5 Phase 1) may say which (`swaps`): then a
    spanning tree of them generates the same group, and the search uses only that.

    Parameters
    ----------
    code_perms : numpy.ndarray
        Integer array (group elements or generators × codes): row g is a permutation of the
        code indices.
    experiment_perms : numpy.ndarray
        Integer array (the same rows × experiments): the matching permutations of experiments.
    complete : bool
        True if the rows are the whole group, False if they only generate it.
    description : str
        What the permutations are, for people.
    swaps : numpy.ndarray, optional
        Generators only: swaps[g] = the two symbols generator g exchanges.

    Raises
    ------
    ValueError
        When given to a `Game`: if the arrays do not have a column per code (per experiment) or a
        row is not a permutation.

    Examples
    --------
    Mastermind with 2 pegs and 3 colours: the 2! x 3! permutations of pegs and colours.

    >>> from puzzlelab.codebreaking.games import mastermind
    >>> group = mastermind(2, 3).symmetry
    >>> group.size, group.complete, group.description
    (12, True, 'peg permutations × colour permutations')

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.4 Symmetries in code breaking games
    and §3.5 Symmetry breaking.
    """

    code_perms: np.ndarray
    experiment_perms: np.ndarray
    complete: bool
    description: str = ""
    # generators only: swaps[g] = the two symbols generator g exchanges
    swaps: np.ndarray | None = None

    def __post_init__(self) -> None:
        checks.record(self)

    @property
    def size(self) -> int:
        """The number of permutations listed (rows of `code_perms`)."""
        return int(self.code_perms.shape[0])


def well_formed_table(satisfied: np.ndarray, experiment_names: Sequence[str] | None = None,
                      code_names: Sequence[str] | None = None) -> np.ndarray:
    """Outcome table from truth values satisfied[j, o, k] of outcome o of experiment j on code k
    (§3.2).

    Checks Definition 7 (well-formed: exactly one outcome holds per code and experiment)
    and raises ValueError naming the first experiment and code that violate it.

    Parameters
    ----------
    satisfied : numpy.ndarray
        Truth values (True/False or 0/1), experiments × outcomes × codes.
    experiment_names : sequence of str, optional
        A name per experiment, for the error message.
    code_names : sequence of str, optional
        A name per code, for the error message.

    Returns
    -------
    numpy.ndarray
        table[j, k] = the outcome that holds (int16, or int32 past 2^15 outcomes).

    Raises
    ------
    ValueError
        If `satisfied` is not a 3-d array of truth values, the names do not match its axes, or
        some code and experiment have no outcome or several (not well-formed).

    Examples
    --------
    One coin among two is fake and heavier; weighing coin 1 against coin 2 (outcomes: right
    heavier, left heavier, balance):

    >>> import numpy as np
    >>> satisfied = np.array([[[0, 1], [1, 0], [0, 0]]])  # codes: coin 1 heavy, coin 2 heavy
    >>> well_formed_table(satisfied)
    array([[1, 0]], dtype=int16)
    >>> well_formed_table(np.array([[[1, 1], [1, 0], [0, 0]]]), code_names=["1H", "2H"])
    Traceback (most recent call last):
    ...
    ValueError: game is not well-formed: 2 outcomes of experiment 0 hold for 1H (exactly one must)

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §3.2, Definition 7 (well-formed game).
    """
    sat = np.asarray(satisfied)
    if sat.ndim != 3 or sat.dtype == object:
        raise ValueError("satisfied must be a 3-d array (experiments × outcomes × codes)")
    if sat.dtype != bool and not ((sat == 0) | (sat == 1)).all():
        raise ValueError("satisfied must hold truth values (True/False or 0/1)")
    for names, axis, what in ((experiment_names, 0, "experiment_names"),
                              (code_names, 2, "code_names")):
        if names is not None and len(checks.sequence(names, what)) != sat.shape[axis]:
            raise ValueError(f"{what} must name all {sat.shape[axis]} of them, got {len(names)}")
    count = sat.sum(axis=1)
    bad = np.argwhere(count != 1)
    if len(bad):
        j, k = map(int, bad[0])
        e = experiment_names[j] if experiment_names is not None else f"experiment {j}"
        c = code_names[k] if code_names is not None else f"code {k}"
        raise ValueError(
            f"game is not well-formed: {int(count[j, k])} outcomes of {e} hold for {c} "
            f"(exactly one must)"
        )
    sat = sat.astype(bool)
    return sat.argmax(axis=1).astype(np.int16 if sat.shape[1] <= 2**15 else np.int32)


def check_names(values: object, what: str, name: str, distinct: bool = True) -> list[str]:
    """A list of names (strings or numbers shown as strings), distinct unless told otherwise."""
    what, name = checks.text(what, "what"), checks.text(name, "name")
    if isinstance(values, (str, bytes, dict)) or not isinstance(values, (list, tuple, np.ndarray)):
        raise checks.ArgumentTypeError(f"{name}: {what} must be a list of names, got {values!r}")
    out = [str(v) for v in values]
    if distinct and len(set(out)) != len(out):
        raise ValueError(f"{name}: {what} are not distinct")
    return out


def check_experiments(experiments: object, name: str) -> list[Experiment]:
    """(type name, parametrization of ints) pairs, at least one, no experiment twice."""
    if not isinstance(experiments, (list, tuple)) or not experiments:
        raise ValueError(f"{name}: experiments must be a non-empty list of (type, parameters)")
    if _plain_experiments(experiments):
        out = list(experiments)
    else:
        out = [_experiment(e, name) for e in experiments]
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: an experiment is listed twice")
    return out


def _experiment(e: object, name: str) -> Experiment:
    """One (type name, parameters) pair, its parameters as a tuple of Python ints."""
    if not isinstance(e, (list, tuple)) or len(e) != 2 or not isinstance(e[0], str):
        raise ValueError(f"{name}: an experiment is a (type name, parameters) pair, got {e!r}")
    return e[0], checks.integers(e[1], f"{name}: parameters of {e[0]!r}")


def _plain_experiments(experiments: list | tuple) -> bool:
    """Is each item already an experiment, a tuple (str, tuple of plain ints)? (Checked type by
    type in C: a million experiments in a fraction of a second.)"""
    if set(map(type, experiments)) != {tuple} or set(map(len, experiments)) != {2}:
        return False
    kinds, params = zip(*experiments)
    return (set(map(type, kinds)) == {str} and set(map(type, params)) == {tuple}
            and set(map(type, chain.from_iterable(params))) <= {int})


def check_codes(codes: np.ndarray, n_vars: int, name: str) -> np.ndarray:
    """The codes as a bool matrix (codes × variables), at least one, no two the same."""
    arr = np.asarray(codes)
    if arr.ndim != 2:
        raise ValueError(f"{name}: codes must be a 2-d array (codes × variables)")
    if arr.dtype != bool:
        if arr.dtype == object or not np.isin(arr, (0, 1)).all():
            raise ValueError(f"{name}: codes must be boolean valuations")
        arr = arr.astype(bool)
    if arr.shape[0] == 0:
        raise ValueError(f"{name}: no codes (the restriction is unsatisfiable)")
    if arr.shape[1] != n_vars:
        raise ValueError(
            f"{name}: codes have {arr.shape[1]} columns but there are {n_vars} variables"
        )
    if _repeats_a_row(arr):
        raise ValueError(f"{name}: two codes are the same valuation")
    return arr


def _repeats_a_row(arr: np.ndarray) -> bool:
    """Are two rows of the bool matrix equal? (Rows packed into bytes and sorted: no np.unique,
    which would import numpy.ma, a tenth of a fresh process's analysis of Mastermind 4×6.)"""
    if arr.shape[1] == 0:  # no variables: every code is the empty valuation
        return len(arr) > 1
    packed = np.packbits(arr, axis=1)
    ordered = packed[np.lexsort(packed.T[::-1])]
    return bool((ordered[1:] == ordered[:-1]).all(axis=1).any())


def check_outcome_table(
    table: np.ndarray, n_exp: int, n_codes: int, n_out: int, name: str
) -> np.ndarray:
    """The outcome table (experiments × codes) as the smallest integer type, its shape and its
    values (0..n_out - 1) checked."""
    arr = np.asarray(table)
    if arr.shape != (n_exp, n_codes):
        raise ValueError(
            f"{name}: outcome table has shape {arr.shape}, expected ({n_exp}, {n_codes})"
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name}: outcome table must hold integers")
    if arr.size and (arr.min() < 0 or arr.max() >= n_out):
        raise ValueError(f"{name}: outcome table refers to an outcome outside 0..{n_out - 1}")
    dtype = next(t for t in (np.int8, np.int16, np.int32) if n_out <= np.iinfo(t).max)
    return np.ascontiguousarray(arr, dtype=dtype)


def check_symmetry_shapes(sym: Symmetry, n_codes: int, n_exp: int, name: str) -> None:
    """Each row of the symmetry a permutation of the codes (of the experiments), one per code
    (per experiment)."""
    if not isinstance(sym, Symmetry):
        raise checks.ArgumentTypeError(f"sym must be a Symmetry, got {type(sym).__name__}")
    name = checks.text(name, "name")
    n_codes = checks.integer(n_codes, "n_codes", low=0)
    n_exp = checks.integer(n_exp, "n_exp", low=0)
    if sym.code_perms.ndim != 2 or sym.code_perms.shape[1] != n_codes:
        raise ValueError(f"{name}: symmetry code permutations must have {n_codes} columns")
    if sym.experiment_perms.shape != (sym.code_perms.shape[0], n_exp):
        raise ValueError(f"{name}: symmetry experiment permutations have the wrong shape")
    for perms, what in ((sym.code_perms, "code"), (sym.experiment_perms, "experiment")):
        g, n = perms.shape
        if (
            perms.min() < 0
            or perms.max() >= n
            or not (
                np.bincount(
                    (perms.astype(np.int64) + n * np.arange(g)[:, None]).ravel(), minlength=g * n
                )
                == 1
            ).all()
        ):
            raise ValueError(f"{name}: a symmetry {what} map is not a permutation")
