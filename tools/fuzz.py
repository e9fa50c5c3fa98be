"""Fuzz every public name of puzzlelab (issue 27): seeded calls with fair and hostile arguments.

    python tools/fuzz.py --calls 10000            # the long form (about 10,000 calls)
    python tools/fuzz.py --calls 600 --limit 20   # what tests/test_fuzz.py runs in `make test`
    python tools/fuzz.py --name hats.model --calls 200 --verbose

Every callable in every module's `__all__` (functions and classes; type aliases and constants
are not calls) is called in turn, round after round, with arguments drawn from its signature
and type hints: fair values of the hinted kind (small sizes, the defaults, example objects of
the puzzle's own types) mixed with hostile ones (None, NaN, inf, huge and negative integers,
floats for integers, text, numpy scalars, wrong containers, paths as text). A call passes when
it returns or raises `ValueError` (the project's `checks.ArgumentTypeError` and every other
subclass included) in time; `solvers.WallClockStop` (a wall-clock budget ran out, so no
machine-dependent answer is given) counts as "stopped", not as a failure. It fails when it
raises anything else (a plain TypeError, AttributeError, OverflowError, MemoryError, ...), runs
past the per-call limit, starts more processes than the worker limit, holds more memory of its
own than `--memory-mib`, leaves processes behind, or returns although an argument was of a kind
its type hint does not allow ("accepted": wrong values must be refused, not answered). Each
call runs in a forked child of its own (a session of its own, killed as a group), so no call
can hang the run or change the next call's state.

The run never touches the committed data/ and figures/: it copies them to a scratch folder,
points PUZZLELAB_ROOT at it before puzzlelab is imported (see puzzlelab/paths.py) and works
there (a relative path given as an argument lands in the scratch too).
Exit status 0 when every call passed, 1 otherwise (the failures are listed).
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import enum
import faulthandler
import importlib
import inspect
import itertools
import math
import os
import pickle
import pkgutil
import random
import shutil
import signal
import sys
import tempfile
import time
import traceback
import types
import typing
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]

# Names not called, with the reason. Everything else in an `__all__` is called.
SKIPPED = {
    "main": "the command lines (tested with real arguments in their own tests)",
    "puzzlelab.widgets.interact_safely": "opens widgets in a kernel (tests/test_widgets.py)",
    "puzzlelab.widgets.show_safely": "displays into a kernel (tests/test_widgets.py)",
    "puzzlelab.progress.tqdm": "tqdm's own class (third-party arguments)",
    "puzzlelab.runner.run_notebook": "runs a notebook in a kernel (tests/test_cli.py)",
    "puzzlelab.runner.record_seconds": "records measured times outside data/ (tests/test_cli.py)",
    "puzzlelab.sweeps.local_cluster": "starts a Dask cluster (tests/test_shared.py)",
    **dict.fromkeys(
        ("puzzlelab.hanabi.hat_knowledge.discarded_cards",
         "puzzlelab.hanabi.hat_knowledge.playable_unchecked",
         "puzzlelab.hanabi.hat_knowledge.dead_unchecked",
         "puzzlelab.hanabi.hat_knowledge.critical_unchecked"),
        "unchecked by design, for the strategies' inner loops: is_playable, is_dead and "
        "is_critical check their arguments (checked_cards, checked_fireworks) and call them"),
    **dict.fromkeys(
        ("puzzlelab.codebreaking.warm.warm", "puzzlelab.codebreaking.warm.clear_cache",
         "puzzlelab.codebreaking.compiled.build_native",
         "puzzlelab.codebreaking.native.build"),
        "the install step: compiles the code-breaking engine into the package (a minute; "
        "tests/test_codebreaking_compiled.py checks what it builds)"),
}


# Modules of numba kernels over arrays that their own package builds; the public functions
# that build the arrays check every argument before a kernel runs, and are called.
SKIPPED_MODULES = {
    "puzzlelab.hanabi.kernels": "the compiled Hanabi strategies' shared pieces "
                                "(hat_compiled and info_compiled check, tests/test_hanabi_strong.py)",
    "puzzlelab.hanabi.questions": "the strong strategy's questions (info_compiled checks)",
    "puzzlelab.codebreaking.game_spec": "the declarations of a game text, built by language.parse, "
                                        "load and game_tables, which refuse bad text at its line "
                                        "(tests/test_codebreaking_language.py)",
    "puzzlelab.sweep_chunks": "the saved chunks of sweeps.sweep_table, which checks every "
                              "argument first (tests/test_data_safety.py)",
    **dict.fromkeys(
        ("puzzlelab.codebreaking.engine_arrays", "puzzlelab.codebreaking.outcome_kernels",
         "puzzlelab.codebreaking.float32_ranks", "puzzlelab.codebreaking.score_kernels",
         "puzzlelab.codebreaking.symmetry_kernels", "puzzlelab.codebreaking.tree_walk"),
        "the code-breaking engine's arrays and kernels (compiled.analyze, choose and the "
        "other public functions of compiled check, tests/test_codebreaking_compiled.py)"),
}


# Full computations of the tables the notebooks read from data/ (minutes each, by design): they
# are called with one argument of the wrong kind only, which they must refuse before working.
LONG_BY_DESIGN = {
    "puzzlelab.codebreaking.frontier.optimal_sizes",
    "puzzlelab.codebreaking.tables.coin_greedy_table",
    "puzzlelab.codebreaking.tables.coin_table",
    "puzzlelab.codebreaking.tables.language_table",
    "puzzlelab.codebreaking.tables.optimal_table",
    "puzzlelab.codebreaking.tables.strategies_5peg_table",
    "puzzlelab.codebreaking.tables.strategies_table",
    "puzzlelab.codebreaking.tables.symmetry_table",
    "puzzlelab.hanabi.knowledge.hint_capacity_study",
    "puzzlelab.hats.census.pattern_counts",
    "puzzlelab.hats.tables.optimum_rows",
    "puzzlelab.hats.reference.naive_brute_force",
    "puzzlelab.kemps.tournament.tournament",
    "puzzlelab.russian_cards.grid.decide_grid",
    "puzzlelab.russian_cards.grid.longer_min_sizes",
    "puzzlelab.russian_cards.grid.matrix_min_sizes",
    "puzzlelab.russian_cards.grid.min_sizes",
    "puzzlelab.russian_cards.grid.orbit_min_sizes",
    "puzzlelab.russian_cards.tables.wide_grid_table",
}


# The checks' own settings (the argument's name, its bounds, what is budgeted, ...) are literals
# of the calling code: a check refuses a bound of the wrong kind when it compares with it, but
# is not asked to refuse every odd label (a check is called in every public function).
LABELS = {"name", "what", "unit", "largest", "low", "high", "options", "allow_none"}


# --- the scratch copy of the repository's data ----------------------------------------------------


FOLDERS = ("data", "figures")


def scratch_root() -> Path:
    """A temporary copy of data/ and figures/ (with shared/sources reachable) for PUZZLELAB_ROOT."""
    top = Path(tempfile.mkdtemp(prefix="puzzlelab-fuzz-"))
    root = top / "root"
    root.mkdir()
    restore(root)
    for sources in (REPO.parent / "shared", REPO / "shared"):
        if sources.is_dir():  # puzzlelab.paths looks beside the root for shared/sources
            (top / "shared").symlink_to(sources.resolve())
            break
    return root


def fingerprint(root: Path) -> tuple:
    """Every file under the scratch folders with its size and modification time."""
    return tuple(sorted((str(p), p.stat().st_size, p.stat().st_mtime_ns)
                        for folder in FOLDERS for p in (root / folder).rglob("*")))


def restore(root: Path) -> None:
    """Copy the repository's data/ and figures/ into the scratch root afresh (after a call that
    wrote there, so that every call starts from the committed tables)."""
    for folder in FOLDERS:
        shutil.rmtree(root / folder, ignore_errors=True)
        if (REPO / folder).exists():
            shutil.copytree(REPO / folder, root / folder)


def warm_compiled() -> None:
    """Compile the numba code once in the fuzz's own process, before any call is forked.

    A forked call inherits the compiled functions; without this, each call into compiled code
    compiles afresh (a minute on a busy machine, far past the per-call limit) until one finishes
    and fills numba's disk cache. Small fair calls, one per compiled path."""
    from puzzlelab.codebreaking import compiled, games
    from puzzlelab.hanabi import hat_compiled
    from puzzlelab.hats import census

    for game in (games.mastermind(2, 2), games.counterfeit_coin(3)):
        for strategy in compiled.STRATEGY_CODE:
            compiled.analyze(game, strategy)
    for packing in hat_compiled.PACKINGS:
        hat_compiled.play_deals(2, [0], packing)
        hat_compiled.compiled_moves(2, 0, packing)
    census.count_minimal_lost_sets(3)


def worker_limit() -> int:
    """The most processes one call may start: puzzlelab's worker limit, `checks.worker_limit()`
    (this is the one place the fuzz looks it up)."""
    from puzzlelab import checks

    return checks.worker_limit()


# --- the public names -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Target:
    """One public callable: its label (module.name where it is defined or exported) and itself."""

    label: str
    call: Callable[..., Any]


def is_call(value: object) -> bool:
    """A function or class worth calling (not a module, type alias, Literal or typing construct,
    nor an abstract class such as an alias of collections.abc.Hashable)."""
    if inspect.ismodule(value) or not callable(value) or inspect.isabstract(value):
        return False
    if isinstance(value, (types.GenericAlias, typing.TypeVar)) or typing.get_origin(value):
        return False
    return getattr(value, "__module__", "") not in ("typing", "builtins")


def public_targets(only: str | None = None) -> list[Target]:
    """Every callable of every puzzlelab module's `__all__`, once each, in a fixed order."""
    import puzzlelab

    seen: dict[int, Target] = {}
    names = [m.name for m in pkgutil.walk_packages(puzzlelab.__path__, "puzzlelab.")]
    # deepest modules first, so that each name is labelled where it is defined
    for module_name in sorted(names, key=lambda m: (-m.count("."), m)):
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            label = f"{module_name}.{name}"
            if (not is_call(value) or name in SKIPPED or label in SKIPPED or id(value) in seen
                    or module_name in SKIPPED_MODULES):
                continue
            seen[id(value)] = Target(label, value)
    targets = sorted(seen.values(), key=lambda t: t.label)
    return [t for t in targets if only is None or only in t.label]


# --- values ---------------------------------------------------------------------------------------


def _unpicklable() -> None:
    """A local function: it cannot be sent to another process."""


def hostile_values() -> list[Any]:
    """Values of every wrong kind and absurd size (a fresh list: callees may mutate them)."""
    import numpy as np
    import pandas as pd

    nan, inf = float("nan"), float("inf")
    return [
        None, nan, inf, -inf, -1, -7, -(10**20), 10**20, 2**63, 10**6, 10**9, 1.5, 2.0, -0.0,
        "3", "", "nonsense", "ä\x00", b"\x00", True, False, np.int64(-3), np.int64(10**12),
        np.float64(nan), np.float64(2.0), np.uint8(255), np.bool_(True), np.float32(0.5),
        [], [None], [1.5, "a"], [[1, 2], [3]], [-1, 2], (1, "x"), {"a": 1}, {1, 2},
        frozenset({-1}), object(), "data/hats_optima.csv", Path("data/hats_optima.csv"),
        np.array([[1, 2]]), np.array([]), np.array([nan]), pd.DataFrame(),
        pd.DataFrame({"x": [1, None]}), complex(1, 1), Fraction(7, 2), range(-3, 3),
        lambda *a, **k: None, _unpicklable, Ellipsis, "../escape", "a/b", ".hidden",
    ]


# Parameters that start processes or set wall-clock budgets get values that keep the run
# bounded: worker counts stay small (part A of issue 27 refuses large ones; until it is merged
# a large count would really start that many processes), time limits short.
WORKER_NAMES = {"workers", "n_workers", "processes", "jobs"}
FAIR_WORKERS = [1, 1, 2]
HOSTILE_WORKERS = [0, -1, 1.5, 2.0, "2", None, True, float("nan"), [2]]
# Counts of repetitions (games, samples, search nodes, ...): each is work by design, so fair
# values are small, and hostile ones are of the wrong kind or absurd (10**20 must be refused).
# These and the time budgets below are always given: their defaults are sized for the
# notebooks' full computations (a thousand games, 20,000 tries), not for one call of a fuzz.
COUNT_NAMES = {"games", "deals", "samples", "max_tries", "tries", "greedy_tries", "dfs_nodes",
               "max_nodes", "count", "repeat", "cold_repeat", "search_steps", "steps", "prunes",
               "max_combinations", "deals_per_task", "max_turns", "min_turns"}
FAIR_COUNTS = [1, 2, 3, 5, 10]
HOSTILE_COUNTS = [0, -1, 1.5, "3", None, True, 10**20, 2**63, float("nan"), [3]]
TIME_NAMES = {"time_limit", "seconds", "timeout", "budget", "deterministic_limit", "work_limit",
              "deadline_seconds", "work"}
FAIR_TIMES = [0.2, 0.5, 1.0]
HOSTILE_TIMES = [float("nan"), -1, -0.5, "1", [1], True, complex(1, 0)]


class Values:
    """Draws arguments for one parameter from its hint: fair, or hostile."""

    def __init__(self, rng: random.Random, scratch: Path):
        self.rng = rng
        self.scratch = scratch
        self.examples = Examples(scratch)
        self.words = harvested_words()

    # -- hostile ----------------------------------------------------------------------------------
    def hostile(self, name: str) -> Any:
        if name in WORKER_NAMES:
            return self.rng.choice(HOSTILE_WORKERS)
        if name in TIME_NAMES:
            return self.rng.choice(HOSTILE_TIMES)
        if name in COUNT_NAMES:
            return self.rng.choice(HOSTILE_COUNTS)
        if name == "executor":
            return self.rng.choice([1, "local", object(), [None], self.rng])
        return self.rng.choice(hostile_values())

    # -- fair -------------------------------------------------------------------------------------
    def fair(self, name: str, hint: Any, default: Any, depth: int = 0) -> Any:
        if name in WORKER_NAMES:
            return self.rng.choice(FAIR_WORKERS)
        if name in TIME_NAMES:
            return self.rng.choice(FAIR_TIMES)
        if name in COUNT_NAMES and hint is not inspect.Parameter.empty and fits(1, hint):
            return self.rng.choice(FAIR_COUNTS)
        if name == "executor":
            return None
        if name in ("seed", "rng_seed"):
            return self.rng.choice([0, 1, 2, 7])
        if default is not inspect.Parameter.empty and self.rng.random() < 0.3:
            return default
        return self.of_hint(hint, depth)

    def of_hint(self, hint: Any, depth: int = 0) -> Any:
        """A fair value of the type `hint` (Any when the hint says nothing)."""
        import numpy as np

        rng = self.rng
        if depth > 4:
            return rng.choice([0, 1, "a", None])
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if hint in (inspect.Parameter.empty, Any, object) or isinstance(hint, typing.TypeVar):
            return self.anything(depth)
        if origin in (typing.Union, types.UnionType):
            return self.of_hint(rng.choice(args), depth + 1)
        if origin is typing.Literal:
            return rng.choice(args)
        if hint is type(None) or hint is None:
            return None
        if hint is bool:
            return rng.choice([True, False])
        if hint is int:
            return rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 8])
        if hint is float:
            return rng.choice([0.0, 0.1, 0.5, 1.0, 2.0, 3.0])
        if hint is str:
            return rng.choice(self.words)
        if hint is bytes:
            return b"ab"
        if hint is Fraction:
            return Fraction(rng.randint(0, 4), rng.randint(1, 3))
        if origin is not None:
            return self.container(origin, args, depth)
        if hint in (list, tuple, set, frozenset, dict, typing.Sequence, typing.Iterable):
            return self.container(hint, (), depth)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return rng.choice(list(hint))
        if hint is np.ndarray:
            return self.examples.array(rng)
        if isinstance(hint, type):
            return self.examples.of_class(hint, self, depth)
        return self.anything(depth)

    def container(self, origin: Any, args: tuple, depth: int) -> Any:
        import collections.abc as abc

        rng = self.rng
        size = rng.choice([0, 1, 2, 2, 3, 3, 4, 5])
        if origin in (abc.Callable,):
            return self.examples.callable_of(args, self, depth)
        if origin in (dict, abc.Mapping, abc.MutableMapping):
            key, value = (args + (Any, Any))[:2]
            keys = _hashable([self.of_hint(key, depth + 1) for _ in range(min(size, 3))])
            return {k: self.of_hint(value, depth + 1) for k in keys}
        if origin is tuple and args and args[-1] is not Ellipsis:
            return tuple(self.of_hint(a, depth + 1) for a in args)
        item = args[0] if args else Any
        items = [self.of_hint(item, depth + 1) for _ in range(size)]
        if origin in (set, abc.Set, abc.MutableSet):
            return set(_hashable(items))
        if origin is frozenset:
            return frozenset(_hashable(items))
        if origin is tuple:
            return tuple(items)
        if origin in (abc.Iterator,):
            return iter(items)
        if origin is range:
            return range(size)
        return items if rng.random() < 0.7 else tuple(items)

    def anything(self, depth: int) -> Any:
        rng = self.rng
        kind = rng.randrange(6)
        if kind == 0:
            return rng.choice([0, 1, 2, 3, 5])
        if kind == 1:
            return rng.choice(self.words)
        if kind == 2:
            return [rng.randint(0, 4) for _ in range(rng.randint(0, 4))]
        if kind == 3:
            return self.examples.any_example(rng)
        if kind == 4:
            return rng.choice([0.5, 1.0, True, None])
        return tuple(rng.randint(0, 3) for _ in range(rng.randint(1, 3)))


def _hashable(items: list) -> list:
    out = []
    for x in items:
        try:
            hash(x)
            out.append(x)
        except TypeError:
            pass
    return out


def harvested_words() -> list[str]:
    """Text a caller might pass: every string default, Literal option and exported name of the
    project (strategy names, game names, table names, ...), in a fixed order."""
    import puzzlelab

    words = {"", "a", "x", "A", "B", "C", "max-models", "hats_optima", "greedy"}
    for info in pkgutil.walk_packages(puzzlelab.__path__, "puzzlelab."):
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if isinstance(value, str) and len(value) < 40:
                words.add(value)
            if isinstance(value, dict):
                words.update(k for k in value if isinstance(k, str))
            if isinstance(value, (tuple, list, frozenset)):
                words.update(k for k in value if isinstance(k, str) and len(k) < 40)
            if callable(value):
                try:
                    params = inspect.signature(value).parameters.values()
                except (TypeError, ValueError):
                    continue
                words.update(p.default for p in params
                             if isinstance(p.default, str) and len(p.default) < 40)
    return sorted(words)


class Examples:
    """Example objects of the project's own types, as recipes: the fuzz process only picks one;
    the call's own process makes it (no puzzle code, CP-SAT least of all, runs before a fork)."""

    def __init__(self, scratch: Path):
        self.scratch = scratch
        self.recipes = self._recipes()

    def array(self, rng: random.Random) -> Any:
        import numpy as np

        shape = rng.choice([(0,), (3,), (2, 3), (4, 4), (3, 2, 2)])
        return np.array([rng.randint(0, 3) for _ in range(math.prod(shape))],
                        dtype=rng.choice(["int64", "int8", "bool", "float64"])).reshape(shape)

    def _recipes(self) -> dict[str, list[Callable[[], Any]]]:
        """Class name -> zero-argument functions, each making one cheap instance."""
        import pandas as pd

        def table(stem: str) -> Callable[[], Any]:
            return lambda: _module("puzzlelab.cache").read_table(stem)

        def call(module: str, name: str, *args: Any, **kwargs: Any) -> Callable[[], Any]:
            return lambda: getattr(_module(module), name)(*args, **kwargs)

        stems = [p.stem for p in sorted((self.scratch / "data").glob("*.csv"))][::4]
        mastermind = call("puzzlelab.codebreaking.games", "mastermind", 2, 3)
        deck5 = call("puzzlelab.kemps.cards", "make_deck", range(1, 6))
        frames = [pd.DataFrame, lambda: pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}),
                  *(table(stem) for stem in stems)]
        return {
            "DataFrame": frames,
            "Series": [lambda: frames[1]().a, lambda: frames[2]().iloc[:, 0]],
            "Path": [lambda: self.scratch / "data" / "hats_optima.csv",
                     lambda: self.scratch / "nowhere.csv"],
            "Figure": [lambda: _module("matplotlib.pyplot").figure()],
            "Axes": [lambda: _module("matplotlib.pyplot").figure().add_subplot()],
            "Generator": [call("numpy.random", "default_rng", 0)],
            "CpModel": [_small_model, call("ortools.sat.python.cp_model", "CpModel")],
            "CpSolver": [call("ortools.sat.python.cp_model", "CpSolver")],
            "CpResult": [lambda: _module("puzzlelab.solvers").solve(_small_model())],
            "Deadline": [call("puzzlelab.solvers", "Deadline", None),
                         call("puzzlelab.solvers", "Deadline", 5.0)],
            "Task": [call("puzzlelab.timing", "Task", "math", "sqrt", (4.0,))],
            "Method": [lambda: _module("puzzlelab.timing").Method(
                "sqrt", _module("puzzlelab.timing").Task("math", "sqrt", (4.0,)))],
            "Cold": [call("puzzlelab.timing", "Cold", 0.1, 0.5, 30.0, "2.0"),
                     call("puzzlelab.timing", "Cold", None, 1.0, None, "")],
            "Proof": [lambda: _module("puzzlelab.proofs").Proof.lemma("a lemma"),
                      lambda: _module("puzzlelab.proofs").Proof.open("cut short")],
            "KripkeModel": [call("puzzlelab.russian_cards.kripke", "deal_model", 2, 2, 1)],
            "Game": [mastermind, call("puzzlelab.codebreaking.games", "counterfeit_coin", 3),
                     call("puzzlelab.codebreaking.games", "bulls_and_cows", 2, 4),
                     lambda: _module("puzzlelab.kemps.matches").new_game(
                         sorted(_module("puzzlelab.kemps.strategies").STRATEGIES)[:3], 0,
                         deck5())],
            "Analysis": [lambda: _module("puzzlelab.codebreaking.analysis").analyze(mastermind())],
            "HintTable": [call("puzzlelab.hanabi.source", "example_table"),
                          call("puzzlelab.hanabi.model", "hanabi_table",
                               [[("Red", 1), ("Green", 2)], [("Red", 1)]])],
            "Deck": [call("puzzlelab.kemps.cards", "make_deck"), deck5],
            "KempsEnv": [call("puzzlelab.kemps.env", "KempsEnv")],
            "Agent": [lambda: _module("puzzlelab.kemps.strategies").Greedy(),
                      lambda: _module("puzzlelab.kemps.strategies").KBGreedy()],
            "GameRecord": [call("puzzlelab.kemps.matches", "play", ["greedy", "kb-greedy", "tom"],
                                3, range(1, 6), knowledge=True)],
            "Verdict": [call("puzzlelab.russian_cards.solver", "decide", 3, 3, 1)],
            "DfsResult": [call("puzzlelab.russian_cards.search", "report_dfs", 3, 3, 1)],
            "Bounds": [call("puzzlelab.hats.optima", "optimum_bounds", 3)],
        }

    def of_class(self, cls: type, values: Values, depth: int) -> Any:
        made = self.recipes.get(cls.__name__, [])
        if made:
            i = values.rng.randrange(len(made))
            return Recipe(cls.__name__, i, made[i])
        if dataclasses.is_dataclass(cls) or cls.__module__.startswith("puzzlelab"):
            return Construct(cls, values, depth)  # built in the child from fair fields
        return values.anything(depth)

    def any_example(self, rng: random.Random) -> Any:
        key = rng.choice(sorted(self.recipes))
        i = rng.randrange(len(self.recipes[key]))
        return Recipe(key, i, self.recipes[key][i])

    def callable_of(self, args: tuple, values: Values, depth: int) -> Callable[..., Any]:
        """A harmless function with the hinted number of arguments, returning the hinted kind."""
        params, returns = (args + (Ellipsis, Any))[:2] if args else (Ellipsis, Any)
        result = values.of_hint(returns, depth + 1)
        if params is Ellipsis:
            return Returns(result, None)
        return Returns(result, len(params))


def _module(name: str) -> Any:
    return importlib.import_module(name)


def _small_model() -> Any:
    """A CP-SAT model with one variable, one constraint and an objective."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = model.new_int_var(0, 3, "x")
    model.add(x >= 1)
    model.minimize(x)
    return model


@dataclasses.dataclass
class Recipe:
    """An example object, made in the call's own process (`Examples`)."""

    kind: str
    index: int
    make: Callable[[], Any]

    def __repr__(self) -> str:
        return f"<{self.kind} example {self.index}>"


@dataclasses.dataclass
class Returns:
    """A callable that takes `arity` arguments (any number when None) and returns `value`."""

    value: Any
    arity: int | None

    def __call__(self, *args: Any) -> Any:
        if self.arity is not None and len(args) != self.arity:
            raise ValueError(f"expected {self.arity} arguments")
        return self.value


@dataclasses.dataclass
class Construct:
    """An instance of a project class made (in the child) from fair values of its parameters."""

    cls: type
    values: Values
    depth: int

    def __repr__(self) -> str:
        return f"<a {self.cls.__name__} from fair fields>"


def _build(value: Any) -> Any:
    """The value with every `Recipe` and `Construct` in it made (in the call's own process); an
    example that cannot be made is None."""
    if isinstance(value, Recipe):
        try:
            return value.make()
        except Exception:
            return None
    if isinstance(value, Construct):
        try:
            args = draw_arguments(value.cls, value.values, hostile=0.0, depth=value.depth + 1)
            return value.cls(**{k: _build(v) for k, v in args.items()})
        except Exception:
            return None
    if isinstance(value, Returns):
        return Returns(_build(value.value), value.arity)
    if type(value) in (list, tuple):
        return type(value)(_build(v) for v in value)
    if type(value) is dict:
        return {k: _build(v) for k, v in value.items()}
    return value


# A lazy result (a generator of every minimal dominating set, ...) is read for its first items:
# a call that hangs before them is caught, an enumeration that could go on for days is not run
# (the minimal dominating sets of Q_8 come at seconds per hundred).
LAZY_ITEMS = 10


# --- one call -------------------------------------------------------------------------------------


def hints_of(f: Callable[..., Any]) -> dict[str, Any]:
    """The type hints of f's parameters (evaluated with the module's names; unknown ones: Any)."""
    target = f.__init__ if inspect.isclass(f) else f
    try:
        return typing.get_type_hints(target)
    except Exception:
        pass
    import numpy as np
    import pandas as pd

    space = dict(vars(sys.modules.get(getattr(f, "__module__", ""), sys)))
    space.update(np=np, pd=pd, Path=Path, **{k: getattr(typing, k) for k in typing.__all__})
    out = {}
    for name, hint in getattr(target, "__annotations__", {}).items():
        try:
            out[name] = eval(hint, space) if isinstance(hint, str) else hint
        except Exception:
            out[name] = Any
    return out


def draw_arguments(f: Callable[..., Any], values: Values, *, hostile: float,
                   depth: int = 0) -> dict[str, Any]:
    """Keyword (and positional-only) arguments for f: every required parameter, some optional
    ones; each hostile with probability `hostile`."""
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return {}
    hints = hints_of(f)
    rng = values.rng
    out: dict[str, Any] = {}
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or _is_factory(p.default):
            continue  # a dataclass field's default_factory: left to the class to make
        budget = p.name in COUNT_NAMES or p.name in TIME_NAMES  # defaults sized for notebooks
        if p.default is not p.empty and not budget and rng.random() < 0.5:
            continue
        if rng.random() < hostile:
            out[p.name] = values.hostile(p.name)
        else:
            out[p.name] = values.fair(p.name, hints.get(p.name, p.annotation), p.default, depth)
    return out


def fits(value: Any, hint: Any) -> bool:
    """Is `value` of the kind `hint` asks for? (Loosely: True whenever the hint says too little.)"""
    import collections.abc as abc
    import numbers

    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (inspect.Parameter.empty, Any, object) or isinstance(hint, (typing.TypeVar, str)):
        return True
    if origin in (typing.Union, types.UnionType):
        return any(fits(value, a) for a in args)
    if origin is typing.Literal:
        return any(type(value) is type(a) and value == a for a in args)
    if hint is None or hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool) or type(value).__name__ == "bool"
    if hint is int:
        return isinstance(value, numbers.Integral) and not fits(value, bool)
    if hint is float:
        return isinstance(value, numbers.Real) and not fits(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is abc.Callable or hint is abc.Callable:
        return callable(value)
    if origin in (dict, abc.Mapping) or hint in (dict, abc.Mapping):
        return isinstance(value, abc.Mapping)
    if origin is not None or hint in (list, tuple, set, frozenset, abc.Sequence, abc.Iterable):
        if isinstance(value, (str, bytes, abc.Mapping)) or not isinstance(value, abc.Iterable):
            return False
        if args and args[-1] is not Ellipsis and origin is tuple:
            return isinstance(value, abc.Sized) and len(value) == len(args) and all(
                fits(v, a) for v, a in zip(value, args))
        return not args or not isinstance(value, abc.Sized) or len(value) > 50 or all(
            fits(v, args[0]) for v in value)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def draw_refusable(f: Callable[..., Any], values: Values) -> dict[str, Any] | None:
    """Fair arguments but one, which is of the wrong kind for its hint (None if no parameter has
    a hint that tells a wrong kind): a call that must be refused before any work starts."""
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return None
    hints = hints_of(f)
    rng = values.rng
    checkable = [p for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                 and not fits(object(), hints.get(p.name, p.annotation))]
    if not checkable:
        return None
    wrong = rng.choice(checkable)
    hint = hints.get(wrong.name, wrong.annotation)
    out = draw_arguments(f, values, hostile=0.0)
    for _ in range(20):
        out[wrong.name] = values.hostile(wrong.name)
        if not fits(out[wrong.name], hint):
            return out
    return None


def _is_factory(default: Any) -> bool:
    """Is this default the marker of a dataclass field made by a default_factory?"""
    return repr(default) == "<factory>" and type(default).__module__ == "dataclasses"


def call_parts(f: Callable[..., Any], kwargs: dict[str, Any]) -> tuple[list, dict]:
    """Positional-only parameters passed by position, the rest by keyword."""
    try:
        params = inspect.signature(f).parameters
    except (TypeError, ValueError):
        return [], kwargs
    positional = [kwargs[n] for n, p in params.items()
                  if p.kind is p.POSITIONAL_ONLY and n in kwargs]
    keywords = {n: v for n, v in kwargs.items() if params[n].kind is not params[n].POSITIONAL_ONLY}
    return positional, keywords


def describe(label: str, kwargs: dict[str, Any], width: int = 400) -> str:
    """label(name=value, ...) with each value's repr cut short."""
    def short(v: Any) -> str:
        try:
            text = repr(v)
        except Exception as err:
            text = f"<unprintable {type(v).__name__}: {err}>"
        text = " ".join(text.split())
        return text if len(text) <= 80 else text[:77] + "..."
    return f"{label}({', '.join(f'{k}={short(v)}' for k, v in kwargs.items())})"[:width]


def run_call(f: Callable[..., Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """Call f in this process and say how it ended (used in the forked child)."""
    import warnings

    kwargs = {k: _build(v) for k, v in kwargs.items()}
    args, keywords = call_parts(f, kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = f(*args, **keywords)
            if isinstance(result, Iterator):  # a lazy result is checked as it is read (its
                collections.deque(itertools.islice(result, LAZY_ITEMS), maxlen=0)  # start)
            repr(result)
            if "matplotlib.pyplot" in sys.modules:
                sys.modules["matplotlib.pyplot"].close("all")
            return {"outcome": "returned"}
        except ValueError as err:  # ArgumentTypeError is a ValueError too
            return {"outcome": "refused", "type": type(err).__name__, "message": str(err)[:300]}
        except _wall_clock_stop() as err:
            return {"outcome": "stopped", "type": type(err).__name__, "message": str(err)[:300]}
        except BaseException as err:  # noqa: BLE001 - every other exception is a finding
            where = traceback.extract_tb(err.__traceback__)[-1]
            return {"outcome": "raised", "type": f"{type(err).__module__}.{type(err).__qualname__}",
                    "message": str(err)[:300],
                    "where": f"{Path(where.filename).name}:{where.lineno} in {where.name}"}


def _private_bytes(pid: str) -> int:
    """Memory a process holds of its own (private pages, not those it still shares with the
    fuzz process it was forked from), from /proc/<pid>/smaps_rollup."""
    total = 0
    with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
        for line in f:
            if line.startswith((b"Private_Clean:", b"Private_Dirty:")):
                total += int(line.split()[1]) * 1024
    return total


def _wall_clock_stop() -> type[BaseException]:
    """`solvers.WallClockStop`: the project's answer when a wall-clock budget the caller set
    (time_limit, deadline) or CP-SAT's safety cap ran out before the work limit; the answer
    would depend on the machine, so none is given. It ends a call as a refusal does."""
    from puzzlelab.solvers import WallClockStop

    return WallClockStop


def _session_processes(sid: int) -> list[tuple[int, int]]:
    """(pid, private bytes) of every live process in session `sid` (read from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().rsplit(b")", 1)[1].split()
            if int(stat[3]) != sid or stat[0] == b"Z":
                continue
            out.append((int(entry), _private_bytes(entry)))
        except (OSError, IndexError, ValueError):
            continue
    return out


@dataclasses.dataclass
class Limits:
    """What one call may use: wall seconds, processes started, resident memory (bytes)."""

    seconds: float
    processes: int
    memory: int


def forked_call(f: Callable[..., Any], kwargs: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """Run one call in a forked child (its own session) under the limits; how it ended."""
    read, write = os.pipe()
    stacks = tempfile.TemporaryFile()  # where a call still running near its limit shows its stack
    pid = os.fork()
    if pid == 0:  # the child
        try:
            os.close(read)
            os.setsid()
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1):
                os.dup2(devnull, fd)
            os.dup2(stacks.fileno(), 2)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            faulthandler.dump_traceback_later(limits.seconds * 0.9, exit=False)
            report = run_call(f, kwargs)
            faulthandler.cancel_dump_traceback_later()
            try:
                data = pickle.dumps(report)
            except Exception:
                data = pickle.dumps({"outcome": report["outcome"], "type": report.get("type"),
                                     "message": "(unpicklable report)"})
            os.write(write, data[:60000])
        finally:
            os._exit(0)
    os.close(write)
    start = time.monotonic()
    try:
        try:
            finding, status = _watch(pid, limits, stacks, start)
        except BaseException:  # Ctrl-C or a kill of the run: the call's processes go with it
            _kill_group(pid)
            os.waitpid(pid, 0)
            raise
        if finding:
            return finding
        left = _session_processes(pid)
        if left:  # killed first: they may hold the pipe open
            _kill_group(pid)
        with os.fdopen(read, "rb") as pipe:
            read = -1
            data = pipe.read()
        if left:
            return {"outcome": "left", "message": f"left {len(left)} processes running"}
        if not data:
            how = (f"killed by signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status)
                   else f"exited with status {os.WEXITSTATUS(status)}")
            return {"outcome": "died", "message": f"the call's process {how}"}
        report = pickle.loads(data)
        report["seconds"] = time.monotonic() - start
        return report
    finally:
        if read != -1:
            os.close(read)
        stacks.close()


def _watch(pid: int, limits: Limits, stacks: Any, start: float
           ) -> tuple[dict[str, Any] | None, int]:
    """Wait for the call's process, watching its session: (a finding, after killing the
    session, or None) and the process's exit status."""
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return None, status
        family = _session_processes(pid)
        started, held = len(family) - 1, sum(private for _, private in family)
        finding = None
        if started > limits.processes:
            finding = {"outcome": "processes", "message": f"started {started} processes "
                       f"(the limit is {limits.processes})"}
        elif held > limits.memory:
            finding = {"outcome": "memory", "message": f"held {held / 2**20:.0f} MiB "
                       f"(the limit is {limits.memory / 2**20:.0f} MiB)"}
        elif time.monotonic() - start > limits.seconds:
            finding = {"outcome": "timeout", "where": _stack_at_timeout(stacks),
                       "message": f"still running after {limits.seconds:g} s"}
        if finding:
            _kill_group(pid)
            _, status = os.waitpid(pid, 0)
            return finding, status
        time.sleep(0.02 if time.monotonic() - start < 1 else 0.05)


def _stack_at_timeout(stacks: Any, frames: int = 4) -> str:
    """The innermost frames of the main thread's stack as faulthandler dumped it near the limit."""
    stacks.seek(0)
    text = stacks.read().decode("utf-8", "replace")
    dump = text[text.rfind("Timeout ("):]
    threads = dump.split("hread 0x")  # "Thread 0x..." and "Current thread 0x..." blocks
    main = next((t for t in threads if "in run_call" in t), dump)  # the call's own thread
    lines = [ln.strip() for ln in main.splitlines() if ln.strip().startswith("File ")]
    return " <- ".join(ln.replace("File ", "").replace('"', "") for ln in lines[:frames]) or "?"


def _kill_group(pid: int) -> None:
    """Kill the process group this fuzz run started for one call (the child leads it)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


# --- the harness checks itself: each kind of ending, provoked -----------------------------------


def _returns() -> int:
    return 1


def _refuses() -> None:
    from puzzlelab import checks

    checks.integer(1.5, "x")


def _plain_type_error() -> None:
    len(5)  # type: ignore[arg-type]


def _sleeps() -> None:
    time.sleep(60)


def _never_ends() -> Iterator[int]:
    def first_item_never_comes() -> Iterator[int]:
        while True:
            time.sleep(0.01)
        yield 0

    return first_item_never_comes()  # a lazy result is read, so its hang is caught


def _spawns(count: int = 4) -> None:
    import multiprocessing

    procs = [multiprocessing.Process(target=time.sleep, args=(60,)) for _ in range(count)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()


def _leaves_a_process() -> None:
    import multiprocessing

    multiprocessing.Process(target=time.sleep, args=(60,)).start()
    os._exit(0)


def _allocates(mib: int = 800) -> bytearray:
    block = bytearray(mib * 2**20)
    block[::4096] = b"x" * len(block[::4096])  # every page touched
    time.sleep(5)
    return block


def _stops() -> None:
    from puzzlelab.solvers import WallClockStop

    raise WallClockStop("the caller's wall-clock budget ran out")


SELF_TEST = [(_returns, "returned"), (_refuses, "refused"), (_plain_type_error, "raised"),
             (_sleeps, "timeout"), (_never_ends, "timeout"), (_spawns, "processes"),
             (_leaves_a_process, "left"), (_allocates, "memory"), (_stops, "stopped")]
SELF_TEST_LIMITS = Limits(seconds=3.0, processes=2, memory=400 * 2**20)


def self_test() -> list[str]:
    """Provoke each kind of ending in a forked call; the cases the harness misreads."""
    wrong = []
    for call, expected in SELF_TEST:
        report = forked_call(call, {}, SELF_TEST_LIMITS)
        print(f"{call.__name__}: {report['outcome']} (expected {expected})", flush=True)
        if report["outcome"] != expected:
            wrong.append(f"{call.__name__}: {report}")
    return wrong


# --- the run --------------------------------------------------------------------------------------


def plan(targets: list[Target], calls: int, rng: random.Random) -> Iterator[Target]:
    """`calls` targets: every name once per round, each round in a shuffled order."""
    made = 0
    while made < calls:
        order = list(targets)
        rng.shuffle(order)
        for t in order[: calls - made]:
            made += 1
            yield t


def draw_call(target: Target, values: Values) -> dict[str, Any] | None:
    """The arguments of one call (None: the call is not made)."""
    if target.label in LONG_BY_DESIGN:
        return draw_refusable(target.call, values)
    try:
        n_params = len(inspect.signature(target.call).parameters)
    except (TypeError, ValueError):
        n_params = 0
    return draw_arguments(target.call, values, hostile=hostility(values.rng, n_params))


def wrong_kinds(target: Target, kwargs: dict[str, Any]) -> list[str]:
    """The arguments whose values are not of the kind their hints ask for."""
    hints = hints_of(target.call)
    labels = LABELS if target.label.startswith("puzzlelab.checks.") else set()
    return [name for name, v in kwargs.items() if name in hints and name not in labels
            and not _unmade(v) and not fits(v, hints[name])]


def _unmade(value: Any) -> bool:
    """Does the value hold an example still to be made (its kind is known only once made)?"""
    if isinstance(value, (Recipe, Construct, Returns)):
        return True
    if type(value) in (list, tuple):
        return any(_unmade(v) for v in value)
    if type(value) is dict:
        return any(_unmade(v) for v in value.values())
    return False


def hostility(rng: random.Random, n_params: int) -> float:
    """How likely each argument of one call is to be hostile: a third of the calls are all fair."""
    if n_params == 0 or rng.random() < 1 / 3:
        return 0.0
    return rng.choice([1 / n_params, 1 / n_params, 0.5, 1.0])


def fuzz(targets: list[Target], calls: int, seed: int, limits: Limits, scratch: Path, *,
         verbose: bool = False, only: set[int] | None = None) -> list[str]:
    """Run the calls; the failures, one line each."""
    rng = random.Random(seed)
    values = Values(rng, scratch)
    failures: list[str] = []
    counts: collections.Counter[str] = collections.Counter()
    slowest: list[tuple[float, str]] = []
    before = fingerprint(scratch)
    for i, target in enumerate(plan(targets, calls, rng)):
        kwargs = draw_call(target, values)
        if only is not None and i not in only:
            continue
        if kwargs is None:
            counts["not called (long by design, nothing to refuse)"] += 1
            continue
        call = describe(target.label, kwargs)
        report = forked_call(target.call, kwargs, limits)
        if report["outcome"] == "returned" and (wrong := wrong_kinds(target, kwargs)):
            report = {"outcome": "accepted", "seconds": report["seconds"],
                      "message": f"returned although {', '.join(wrong)} is of the wrong kind"}
        if fingerprint(scratch) != before:
            restore(scratch)
            before = fingerprint(scratch)
        counts[report["outcome"]] += 1
        slowest = sorted(slowest + [(report.get("seconds", limits.seconds), call)])[-5:]
        if report["outcome"] not in ("returned", "refused", "stopped"):
            detail = f"{report.get('type', report['outcome'])}: {report['message']}"
            if report.get("where"):
                detail += f" [{report['where']}]"
            failures.append(f"#{i} {call}\n    -> {detail}")
            print(f"FAIL #{i} {call}\n    -> {detail}", flush=True)
        elif verbose:
            print(f"#{i} {report['outcome']} {call} {report.get('message', '')[:100]}", flush=True)
    print(f"{calls} calls over {len(targets)} public names (seed {seed}): "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print("slowest: " + "; ".join(f"{s:.1f} s {c[:80]}" for s, c in reversed(slowest)))
    return failures


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=10_000, help="number of calls (default 10000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the draw (default 0)")
    parser.add_argument("--limit", type=float, default=30.0, help="seconds per call (default 30)")
    parser.add_argument("--memory-mib", type=int, default=3072,
                        help="memory of its own one call may hold, MiB (default 3072)")
    parser.add_argument("--name", help="only names containing this text (e.g. hats.model)")
    parser.add_argument("--list", action="store_true", help="list the public names and stop")
    parser.add_argument("--self-test", action="store_true",
                        help="provoke each kind of ending the harness must report, and stop")
    parser.add_argument("--verbose", action="store_true", help="print every call")
    parser.add_argument("--only", type=int, nargs="+", metavar="I",
                        help="make only the calls with these numbers (as a run lists them)")
    args = parser.parse_args(argv)
    if args.calls < 1 or args.limit <= 0 or args.memory_mib < 1:
        parser.error("--calls, --limit and --memory-mib must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a kill cleans up as Ctrl-C does
    scratch = scratch_root()
    os.environ.update(PUZZLELAB_ROOT=str(scratch), MPLBACKEND="Agg", TQDM_DISABLE="1")
    os.chdir(scratch)  # a relative path given as an argument ("data/x.csv") lands in the scratch
    try:
        from puzzlelab import paths

        assert paths.DATA == scratch / "data", "puzzlelab was imported before its scratch root"
        targets = public_targets(args.name)
        if not targets:
            print(f"no public name contains {args.name!r}: nothing to call", file=sys.stderr)
            return 2
        if args.list:
            print("\n".join(t.label for t in targets))
            return 0
        if args.self_test:
            wrong = self_test()
            print("\n".join(wrong) or "the harness reports every kind of ending")
            return 1 if wrong else 0
        warm_compiled()
        limits = Limits(args.limit, worker_limit(), args.memory_mib * 2**20)
        failures = fuzz(targets, args.calls, args.seed, limits, scratch, verbose=args.verbose,
                        only=None if args.only is None else set(args.only))
    finally:
        shutil.rmtree(scratch.parent, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failing calls")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
