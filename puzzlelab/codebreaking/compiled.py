"""The compiled analysis engine: greedy strategies over all codes in memory linear in the codes
(Klimoš 2014, §3.3–3.4).

The same analysis as `analysis.analyze` (same choices, tie rules, lengths and decision tree),
computed without a codes × experiments table when the game's outcomes follow from strings:

- Mastermind, black-peg Mastermind and Bulls and Cows describe codes and guesses as strings
  of colours (`strings.StringRule`). A code is packed into one 64-bit word (a byte per peg) and so
  are its colour counts (a byte per colour, up to 8 colours): the pegs in place (black) and
  the colours in common (black + white) of a guess and a code then take a dozen word
  operations and no table (past 8 colours, a table of colour multisets or a loop over the
  colours). The pair gives an outcome *slot*, colours in common + 16 × pegs that differ.
- Other games (the coin game, Bags of Gold, parsed games) keep their explicit table.

At every node of the strategy's decision tree the live codes are one contiguous segment of
three arrays (code, packed code, colour word) split in place outcome by outcome (a stable
counting sort), so the memory is a few words per code and the inner loop reads them in order.
An experiment is scored by counting its slots over the live codes, a block at a time; it stops
as soon as its score must exceed the best so far, or equal it without winning the tie
(`max-models`, `exp-models`, `parts`; `ent-models` on a margin). Up to 63 live codes (and for
`parts` at any size) 64 experiments are scored at once: each code adds its outcome's bit to
bit-sliced counters, one lane per experiment, a loop the compiler vectorises (`parts` only
ORs the bits). The choice is the least (score, not a possible hit, index) over the candidates,
which does not depend on the order they are scored in. A guess that may hit and splits the
live codes into singletons wins at once; with none, the first guess that splits them so.

Fewer candidates, the same choice (§3.4; Ville 2013, §5.4):

- Symmetry: a permutation of pegs and colours that fixes every guess on the path to a node
  fixes the set of live codes, so equivalent guesses score alike and only the lowest of each
  orbit needs scoring. Colours no guess has used are interchangeable; with pegs this gives the
  whole group at the first guess.
- Absent colours: colours that no live code holds answer alike, so a guess keeps its outcome
  on every live code when they are replaced by the least absent colour (in Bulls and Cows, by
  the least absent colours in increasing order); only guesses so written need scoring.
- Free colours (held by live codes, in no guess so far) may be renamed among themselves, as
  above; only guesses using the least of them, in order of first use, need scoring.

`rules="mikemag"` plays by the rules of Magruder's C++ program (github.com/mikemag/Mastermind,
`algos.hpp`, `solver_cpu_opt.inl`): the same ties (first best in index order, a possible
hit first), but expected size and entropy ranked by its single-precision sums rounded to
integers (`float32_ranks`), so totals can be compared like for like with its runs; its preset
first guess is given with `first`.

This module is the engine's public face; its pieces, by role: `engine_arrays` (a game's arrays,
`kernel`), `outcome_kernels` (one guess against one code), `float32_ranks` (Magruder's ranks),
`score_kernels` (scores and the choice at a node), `symmetry_kernels` (fewer candidates) and
`tree_walk` (the decision tree walked in place). Inner loops are compiled with numba
(`@njit(cache=True)`, deferred by `puzzlelab.jit`: importing them does not import numba). The
install step (`puzzlelab warm`) fills numba's cache and builds the tree walk ahead of time for
string games (`native`), which a one-thread analysis calls without importing numba at all;
otherwise a fresh process imports numba and loads the code from its cache. `analysis.analyze`
comes here for a game of at most `analysis.TABLE_CODES` codes only once this module is loaded, as
`benchmarks/bench_codebreaking_cold.py` measures; the decision tree is tabulated (with
pandas) only when an analysis's `tree` is first read. The whole-tree loop releases the GIL, so
`threads > 1` plays the root's subtrees, largest first, on a pool of threads with numba's code
(the same tree, numbered as one walk).
"""

from __future__ import annotations

import weakref
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from .. import checks
from ..jit import materialize, njit
from . import native
from .engine_arrays import BLOCK, BY_MULTISET, BY_WORD, TABLE, Kernel, kernel
from .game import Analysis, check_game
from .outcome_kernels import outcome
from .score_kernels import choose_at_node, perfect_hit_at_node
from .tree_walk import split, subtree, useful

if TYPE_CHECKING:
    import pandas as pd

# The public face; the other functions are the compiled pieces that analysis.py and exhaustive.py
# call with arguments they have already checked.
__all__ = ["RULES", "analyze", "choose"]

STRATEGY_CODE = {"max-models": 0, "exp-models": 1, "ent-models": 2, "parts": 3}
# mikemag's rules rank expected size and entropy in single precision (codes 4, 5); its Knuth and
# most-parts ranks order the guesses exactly as max-models and parts do
MIKEMAG_CODE = {"max-models": 0, "exp-models": 4, "ent-models": 5, "parts": 3}
RULES = {"puzzlelab": STRATEGY_CODE, "mikemag": MIKEMAG_CODE}
PARALLEL_CODES = 2000  # fewer codes than this are analysed on one thread whatever `threads` says


def _args(k: Kernel) -> tuple:
    return (k.mode, k.table, k.packed, k.pegs, k.multiset, k.common, k.lut)


def _fast_args(k: Kernel) -> tuple:
    """What `slots` and the scans read: how, table, packed codes, colour words, colours in
    common, white masks, and the outcome of each bit of `outcome_bit` (empty past 7 pegs)."""
    return (k.how, k.table, k.packed, k.words, k.common, np.uint64(k.whites[0]),
            np.int64(k.whites[1]), _bit_outcomes(k))


def _bit_outcomes(k: Kernel) -> np.ndarray:
    """outcome_at[colours in common + 8 × pegs that differ] = the outcome (string games of at most
    7 pegs and 8 colours, else empty)."""
    if k.how != BY_WORD or k.pegs > 7:
        return np.zeros(0, np.int16)
    outcome_at = np.full(64, -1, np.int16)
    for slot, o in enumerate(k.outcome_of):
        if o >= 0:
            outcome_at[slot % 16 + 8 * (slot // 16)] = o
    return outcome_at


# --- the Python face ---------------------------------------------------------------------------
def analyze(game, strategy: str = "max-models", *, symmetry: bool = True, threads: int = 1,
            first: int | str | None = None, rules: str = "puzzlelab") -> Analysis:
    """Play `strategy` against every code (compiled; the same `Analysis` as `analysis.analyze`).

    `threads` > 1 plays the subtrees below the first guess on that many threads (the same
    analysis); `first` fixes the first guess (an experiment index, name or code name);
    `rules="mikemag"` ranks guesses as Magruder's program does (see the module docstring).
    """
    game = check_game(game)
    checks.choice(strategy, "strategy", STRATEGY_CODE)
    checks.choice(rules, "rules", RULES)
    threads = checks.integer(threads, "threads", low=1, high=256)
    k = kernel(game)
    use = checks.boolean(symmetry, "symmetry") and k.mode != TABLE and k.symmetric
    first = -1 if first is None else _experiment(game, first)
    arrays = _live_arrays(k, np.arange(k.n_codes, dtype=np.int32))
    lengths, determined = np.zeros(k.n_codes, np.int64), np.zeros(k.n_codes, np.int64)
    one = threads == 1 or k.n_codes < PARALLEL_CODES
    play = _player(k, RULES[rules][strategy], use, arrays, lengths, determined, one)
    root = (0, k.n_codes, 0, -1, -1)
    if one:
        nodes, rows, stuck, _ = play(root, np.zeros(0, np.int32), first, False)
        tree = nodes[:, :rows]
    else:
        tree, stuck = _threaded(play, root, first, threads)
    if len(stuck):
        names = ", ".join(game.code_names[int(c)] for c in stuck[:4])
        raise ValueError(f"{game.name}: no experiment tells apart the codes {names}")
    label = strategy if rules == "puzzlelab" else f"{strategy} ({rules})"
    return Analysis(game, label, lengths, determined, partial(_tree_frame, game, tree))


def _experiment(game, first: int | str) -> int:
    """The index of an experiment given by index, name ('g(1,1,2,2)') or code name ('1122')."""
    if isinstance(first, str):
        for j in range(game.n_experiments):
            if game.experiment_name(j) == first:
                return j
        if game.rule is not None and first in game.code_names:
            return game.code_index(first)
        raise ValueError(f"{game.name}: no experiment or code named {first!r}")
    return checks.integer(first, "first (an experiment index or name)", low=0,
                          high=game.n_experiments - 1)


def _live_arrays(k: Kernel, codes: np.ndarray) -> tuple:
    """The live arrays the compiled loops split in place (codes, packed codes, colour words) and
    spare arrays of the same size."""
    n = len(codes)
    live = np.ascontiguousarray(codes, dtype=np.int32).copy()
    segp = k.packed[live] if k.mode != TABLE else np.zeros(n, np.uint64)
    segw = k.words[live] if k.how in (BY_WORD, BY_MULTISET) else np.zeros(n, np.uint64)
    spare = (np.empty(n, np.int32), np.empty(n, np.uint64), np.empty(n, np.uint64))
    return live, np.ascontiguousarray(segp), np.ascontiguousarray(segw), spare


def _player(k: Kernel, code: int, symmetry: bool, arrays: tuple, lengths: np.ndarray,
            determined: np.ndarray, ahead: bool = True):
    """`subtree` with everything but the root, the guesses above it, the first guess and
    whether to stop after the root bound; run by the ahead-of-time build where it fits (`ahead`:
    it holds the GIL, so not on a pool of threads)."""

    def play(root, prefix, first, only_root):
        args = _subtree_args(k, code, symmetry, arrays, lengths, determined) + (
            root, prefix, first, only_root, lengths, determined)
        solve = native.solver(args) if ahead else None
        return (solve or subtree)(*args)

    return play


def _subtree_args(k: Kernel, code: int, symmetry: bool, arrays: tuple, lengths: np.ndarray,
                  determined: np.ndarray) -> tuple:
    """`subtree`'s arguments before the root: the game's arrays, the rank and the live arrays."""
    live, segp, segw, spare = arrays
    return (_fast_args(k), k.strings, k.colors, k.peg_perms, symmetry, k.absent_rule, k.masks,
            k.n_experiments, k.is_final, k.hit_code, k.first_hit, k.hitters[0], k.hitters[1],
            k.ends_on_final, code, k.clogc, k.slot_of, k.outcome_of, live, segp, segw, spare)


def load() -> None:
    """Make this module's numba functions now (numba imported; cached code loaded when called)."""
    materialize(__name__)


def build_native() -> str:
    """Compile `subtree` ahead of time for string games (Mastermind's argument types) beside
    this file (`native`); the module's path. Run by the install step (`codebreaking.warm`)."""
    from .games import mastermind

    k = kernel(mastermind(3, 3))
    arrays = _live_arrays(k, np.arange(k.n_codes, dtype=np.int32))
    lengths, determined = np.zeros(k.n_codes, np.int64), np.zeros(k.n_codes, np.int64)
    args = _subtree_args(k, 0, True, arrays, lengths, determined) + (
        (0, k.n_codes, 0, -1, -1), np.zeros(0, np.int32), -1, False, lengths, determined)
    load()
    subtree(*args)  # numba's own build of these types first: the signature to export
    return native.build(subtree, args)


def _threaded(play, root: tuple, first: int, threads: int) -> tuple[np.ndarray, np.ndarray]:
    """The tree played root first, then the root's subtrees on `threads` threads (largest
    first), numbered as one depth-first walk: the root, its final leaves, then each subtree."""
    nodes, rows, stuck, children = play(root, np.zeros(0, np.int32), first, True)
    if len(stuck):
        return nodes[:, :rows], stuck
    prefix = np.array([nodes[4, 0]], np.int32)
    order = children[::-1]  # popped lowest outcome first
    with ThreadPoolExecutor(threads) as pool:
        jobs = {i: pool.submit(play, (*(int(x) for x in order[i, :3]), -1, int(order[i, 4])),
                               prefix, -1, False)  # numbered from 0: the root's parent is −1
                for i in np.argsort(-order[:, 1], kind="stable")}
        parts = [jobs[i].result() for i in range(len(order))]
    blocks = [nodes[:, :rows]]
    for (sub, count, lost, _), child in zip(parts, order):
        if len(lost):
            return nodes[:, :rows], lost
        sub = sub[:, :count].copy()
        offset = sum(b.shape[1] for b in blocks)
        sub[0] += offset
        sub[0, 0] = child[3]  # the subtree's root hangs below the root
        blocks.append(sub)
    return np.concatenate(blocks, axis=1), stuck


def choose(game, live: np.ndarray, strategy: str) -> int:
    """The experiment a built-in strategy performs when `live` are the codes still possible
    (compiled; the same choice and the same refusal as `analysis._choose`)."""
    game = check_game(game)
    checks.choice(strategy, "strategy", STRATEGY_CODE)
    k = kernel(game)
    live = np.asarray(live)
    if live.ndim != 1 or live.dtype.kind not in "iu":
        raise checks.ArgumentTypeError(f"live must be a 1-d array of code indices, got {live!r}")
    if len(live) == 0 or live.min() < 0 or live.max() >= k.n_codes:
        raise ValueError(f"live must list codes still possible, indices 0..{k.n_codes - 1}")
    codes, segp, segw, _ = _live_arrays(k, live)
    mask = np.zeros(k.n_codes, np.bool_)
    mask[codes] = True
    j = int(choose_at_node(_fast_args(k), codes, segp, segw, 0, len(codes),
                           np.arange(k.n_experiments, dtype=np.int32), k.n_experiments, mask,
                           k.hit_code, k.hitters[0], k.hitters[1], k.ends_on_final,
                           STRATEGY_CODE[strategy], k.clogc, k.slot_of, _work(k, len(codes))))
    sizes = np.bincount(outcome_row(game, j, codes), minlength=k.n_outcomes)
    if len(codes) > 1 and not useful(sizes, k.is_final, len(codes)):
        names = ", ".join(game.code_names[int(c)] for c in codes[:4])
        raise ValueError(f"{game.name}: no experiment tells apart the codes {names}")
    return j


def _work(k: Kernel, size: int) -> tuple:
    """Scratch arrays of the choice at a node of `size` codes (as `subtree` makes them)."""
    return (np.zeros(len(k.outcome_of), np.int64), np.empty(max(BLOCK, size), np.int64),
            np.empty(k.n_outcomes), np.empty((2, 64), np.uint64), np.empty((6, 64), np.uint64),
            np.zeros(k.n_outcomes, np.int64))


def _tree_frame(game, nodes: np.ndarray) -> pd.DataFrame:
    """The decision tree as `analysis._play` tabulates it (node, parent, outcome, depth, codes,
    experiment, code); made when the analysis's tree is first read (pandas is imported then)."""
    import pandas as pd

    parent, outcome, depth, codes, experiment, code = nodes
    experiments, code_names = _names(game)
    labels = np.array(game.outcome_labels + [""], dtype=object)
    return pd.DataFrame({
        "node": np.arange(nodes.shape[1], dtype=np.int64), "parent": parent,
        "outcome": labels[outcome], "depth": depth, "codes": codes,
        "experiment": experiments[experiment], "code": code_names[code],
    })


_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _names(game) -> tuple[np.ndarray, np.ndarray]:
    """Experiment and code names as object arrays ending in "" (index −1), built once per game."""
    if game not in _NAMES:
        exps = [game.experiment_name(j) for j in range(game.n_experiments)]
        codes = list(game.code_names) + [""]
        _NAMES[game] = (np.array(exps + [""], dtype=object), np.array(codes, dtype=object))
    return _NAMES[game]


def outcome_row(game, j: int, live: np.ndarray) -> np.ndarray:
    """Outcomes of experiment j on the codes `live` (compiled, no table needed)."""
    k = kernel(game)
    return _row(_args(k), int(j), np.ascontiguousarray(live, dtype=np.int32))


@njit(cache=True)
def _row(args, j, live):
    mode, table, packed, pegs, multiset, common, lut = args
    out = np.empty(len(live), np.int16)
    for i in range(len(live)):
        out[i] = outcome(mode, table, packed, pegs, multiset, common, lut, j, live[i])
    return out


def partition_sizes(game, live: np.ndarray, experiments: np.ndarray | None = None) -> np.ndarray:
    """counts[j, o] = #live codes on which experiment j has outcome o (as `Game.partition_sizes`,
    compiled)."""
    k = kernel(game)
    exps = np.arange(k.n_experiments, dtype=np.int32) if experiments is None else experiments
    return _sizes(_args(k), np.ascontiguousarray(exps, dtype=np.int32),
                  np.ascontiguousarray(live, dtype=np.int32), k.n_outcomes)


@njit(cache=True)
def _sizes(args, experiments, live, n_out):
    mode, table, packed, pegs, multiset, common, lut = args
    counts = np.zeros((len(experiments), n_out), np.int64)
    for r in range(len(experiments)):
        j = experiments[r]
        for i in range(len(live)):
            counts[r, outcome(mode, table, packed, pegs, multiset, common, lut, j, live[i])] += 1
    return counts


# --- pieces of the optimal search (exhaustive.Search), compiled ------------------------------------
def parts(game, live: np.ndarray, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The codes `live` split by experiment j: (outcomes present, ascending; part sizes; codes by
    part)."""
    k = kernel(game)
    codes, segp, segw, spare = _live_arrays(k, live)
    counts = np.zeros(k.n_outcomes, np.int64)
    split(_fast_args(k), k.outcome_of, int(j), codes, segp, segw, spare, 0, len(codes), counts,
          np.empty(len(codes), np.int64), np.empty(k.n_outcomes, np.int64))
    present = np.flatnonzero(counts)
    return present, counts[present], codes.astype(np.intp)


def first_perfect_hit(game, live: np.ndarray) -> int:
    """The lowest experiment that may hit a code of `live` and splits them into singletons, or
    −1."""
    k = kernel(game)
    if not k.ends_on_final:
        return -1
    codes, segp, segw, _ = _live_arrays(k, live)
    return int(perfect_hit_at_node(_fast_args(k), codes, segp, segw, 0, len(codes), k.hitters[0],
                                   k.hitters[1], True, k.clogc, k.slot_of,
                                   np.zeros(len(k.outcome_of), np.int64),
                                   np.empty(BLOCK, np.int64), np.empty(k.n_outcomes)))


def distinct_partitions(game, live: np.ndarray, experiments: np.ndarray) -> np.ndarray:
    """Of `experiments`, the lowest of each class splitting `live` into the same parts (final parts
    kept apart), ascending: one move per class (Definition 28)."""
    k = kernel(game)
    rows = _canonical_rows(_args(k), k.is_final, np.ascontiguousarray(experiments, dtype=np.int32),
                           np.ascontiguousarray(live, dtype=np.int32), k.n_outcomes)
    return np.asarray(experiments)[_first_of_equal(rows)]


@njit(cache=True)
def _canonical_rows(args, is_final, experiments, live, n_out):
    """Each experiment's outcomes on `live`, relabelled by first appearance; final outcomes −1."""
    mode, table, packed, pegs, multiset, common, lut = args
    rows = np.empty((len(experiments), len(live)), np.int16)
    relabel = np.empty(n_out, np.int16)
    for r in range(len(experiments)):
        relabel[:] = -1
        nxt = 0
        for i in range(len(live)):
            o = outcome(mode, table, packed, pegs, multiset, common, lut, experiments[r], live[i])
            if is_final[o]:
                rows[r, i] = -1
            else:
                if relabel[o] < 0:
                    relabel[o] = nxt
                    nxt += 1
                rows[r, i] = relabel[o]
    return rows


@njit(cache=True)
def _first_of_equal(rows):
    """Indices (ascending) of the first row of each group of equal rows: hashed, then compared
    exactly."""
    m, s = rows.shape
    keys = np.empty(m, np.uint64)
    for r in range(m):
        h = np.uint64(14695981039346656037)
        for i in range(s):
            h = (h ^ np.uint64(rows[r, i] + 1)) * np.uint64(1099511628211)
        keys[r] = h
    order = np.argsort(keys, kind="mergesort")  # stable: equal keys stay in index order
    keep = np.zeros(m, np.bool_)
    reps = np.empty(m, np.int64)
    i = 0
    while i < m:
        e = i + 1
        while e < m and keys[order[e]] == keys[order[i]]:
            e += 1
        nreps = 0
        for t in range(i, e):
            r, new = order[t], True
            for q in range(nreps):
                if (rows[r] == rows[reps[q]]).all():
                    new = False
                    break
            if new:
                reps[nreps] = r
                nreps += 1
                keep[r] = True
        i = e
    return np.flatnonzero(keep)


@njit(cache=True)
def fixing_permutations(code_perms, live, n_codes):
    """Which rows of `code_perms` map the codes `live` into themselves (the set's stabilizer)."""
    mask = np.zeros(n_codes, np.bool_)
    for k in live:
        mask[k] = True
    out = np.ones(code_perms.shape[0], np.bool_)
    for q in range(code_perms.shape[0]):
        for k in live:
            if not mask[code_perms[q, k]]:
                out[q] = False
                break
    return out
