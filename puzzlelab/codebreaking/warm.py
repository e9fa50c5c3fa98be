"""Compile the code-breaking engine once, at install: `puzzlelab warm` (the CLI runs `warm`).

Run by the Makefile's venv target (so `make test`, `make lab` and `make reproduce` have it):
fills numba's on-disk cache for the engine's kernels with the argument types of the string
games and of table games (numba keys its cache on the source file's path and time, so a fresh
clone starts empty and must be warmed after the clone), then builds the ahead-of-time walk
(`native`). One progress line at the start and one at the end; about a minute of CPU.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["clear_cache", "warm"]

STRATEGIES = ("max-models", "exp-models", "ent-models", "parts")


def clear_cache() -> int:
    """Remove numba's cached code of the engine's modules (`native.SOURCES`); how many files."""
    from .native import HERE, SOURCES

    stale = [f for name in SOURCES for pattern in ("*.nbi", "*.nbc")
             for f in (HERE / "__pycache__").glob(f"{Path(name).stem}.{pattern}")]
    for f in stale:
        f.unlink(missing_ok=True)
    return len(stale)


def warm() -> str:
    """Every kernel the notebook and the API call, compiled once (from an empty cache); what was
    done."""
    clear_cache()
    from . import compiled, exhaustive
    from .games import counterfeit_coin, mastermind

    for game in (mastermind(4, 7), counterfeit_coin(4)):
        for strategy in STRATEGIES:
            for rules in compiled.RULES:
                compiled.analyze(game, strategy, rules=rules)
        compiled.analyze(game, "max-models", threads=2)  # numba's own walk (threads)
        live = np.arange(game.n_codes, dtype=np.int32)
        compiled.choose(game, live, "max-models")
        compiled.outcome_row(game, 0, live)
        compiled.parts(game, live, 0)
        compiled.first_perfect_hit(game, live)
        compiled.distinct_partitions(game, live, np.arange(game.n_experiments, dtype=np.int32))
    exhaustive.optimal(mastermind(2, 3))
    for small in (mastermind(3, 3), counterfeit_coin(4)):  # permutations int16, int64
        for live in (np.arange(small.n_codes), np.arange(small.n_codes, dtype=np.int32)):
            compiled.fixing_permutations(small.symmetry.code_perms, live, small.n_codes)
    return compiled.build_native()
