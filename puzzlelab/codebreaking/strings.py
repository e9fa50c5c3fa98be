"""Codes and guesses as strings of colours, answered by markers (Klimoš 2014, §2.2–2.3).

Mastermind, black-peg Mastermind and Bulls and Cows describe a code and a guess as the same
kind of string: `StringRule` holds the strings (the game's codes, which are also its
guesses), the number of colours and the table `lut[black, white]` of outcome indices. A game
with a rule needs no codes × experiments table: `outcome_rows` computes any block of it from
the strings (`black_white`, numpy, a block at a time), and the compiled analysis
(`compiled`) works from the strings in memory linear in the codes, a few hundred bytes a
code (`estimated_bytes`; `check_fits` refuses a game past `checks.MEMORY_BUDGET` before
anything is allocated).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .. import checks
from ..checks import MEMORY_BUDGET, within_budget

# The public face; `black_white` and `marker_lut` are the pieces games.py, source.py and
# string_rule call with arguments they have already checked.
__all__ = ["BYTES_PER_CODE", "MAX_MULTISETS", "StringRule", "check_fits", "estimated_bytes",
           "outcome_rows", "string_rule"]

MAX_MULTISETS = 2048  # colour multisets up to which colours in common are read from a table
BYTES_PER_CODE = 400  # engine arrays (~100 bytes) and the decision-tree table (~300 bytes) per code
BLOCK_ENTRIES = 2**22  # guesses × codes compared at a time by `outcome_rows`


@dataclass(frozen=True)
class StringRule:
    """Codes and guesses are the same strings of colours 1..colors (§2.2); outcome = lut[black,
    white]."""

    strings: np.ndarray  # (codes, pegs) int8, in the game's (lexicographic) order
    colors: int
    lut: np.ndarray  # (pegs + 1, pegs + 1) int16: outcome index of (black, white); -1 impossible

    def __post_init__(self) -> None:
        """Checked once, as the rule is made (the compiled loops trust it): integer arrays of
        the shapes above, at most 8 pegs and 127 colours, every peg a colour 1..colors; stored
        as the contiguous int8 and int16 arrays the loops read."""
        colors = checks.integer(self.colors, "StringRule.colors", low=1, high=127)
        strings, lut = self.strings, self.lut
        for name, array in (("strings", strings), ("lut", lut)):
            if not isinstance(array, np.ndarray) or array.dtype.kind not in "iu":
                raise checks.ArgumentTypeError(
                    f"StringRule.{name} must be an integer numpy array, got {type(array).__name__}"
                    + (f" of {array.dtype}" if isinstance(array, np.ndarray) else ""))
        if strings.ndim != 2 or strings.shape[1] > 8:
            raise ValueError(f"StringRule.strings must be a (codes, pegs) array of at most 8 pegs, "
                             f"got shape {strings.shape}")
        if strings.size and (strings.min() < 1 or strings.max() > colors):
            raise ValueError(f"StringRule.strings must hold colours 1..{colors}, got "
                             f"{strings.min()}..{strings.max()}")
        pegs = strings.shape[1]
        if lut.shape != (pegs + 1, pegs + 1):
            raise ValueError(f"StringRule.lut must be of shape {(pegs + 1, pegs + 1)} for {pegs} "
                             f"pegs, got {lut.shape}")
        if lut.size and (lut.min() < -1 or lut.max() > np.iinfo(np.int16).max):
            raise ValueError(f"StringRule.lut must hold outcome indices (or -1), got "
                             f"{lut.min()}..{lut.max()}")
        object.__setattr__(self, "colors", colors)
        object.__setattr__(self, "strings", np.ascontiguousarray(strings, dtype=np.int8))
        object.__setattr__(self, "lut", np.ascontiguousarray(lut, dtype=np.int16))


_LABEL = re.compile(r"^(\d+)B(?:(\d+)[WC])?$")


def string_rule(strings: np.ndarray, colors: int, labels: list[str]) -> StringRule:
    """The rule of a game whose outcome labels read 'bBwW' (Mastermind), 'bBcC' (Bulls and Cows)
    or 'bB' (§2.2–2.3)."""
    colors = checks.integer(colors, "colors", low=1)
    if not isinstance(labels, (list, tuple)) or not all(isinstance(x, str) for x in labels):
        raise checks.ArgumentTypeError(f"labels must be a list of outcome labels, got {labels!r}")
    if not isinstance(strings, np.ndarray) or strings.dtype.kind not in "iu":
        raise checks.ArgumentTypeError(f"strings must be an integer array, got {strings!r}")
    if strings.ndim != 2 or strings.shape[1] > 8 or not 1 <= colors <= 127:
        raise ValueError(f"a string rule needs at most 8 pegs and 127 colours, got strings of "
                         f"shape {strings.shape} and {colors} colours")
    return StringRule(strings, colors, marker_lut(labels, strings.shape[1]))


def marker_lut(labels: list[str], pegs: int) -> np.ndarray:
    """lut[black, white] = the index of the label 'bBwW', 'bBcC' or 'bB' (any white); −1 if none."""
    lut = np.full((pegs + 1, pegs + 1), -1, dtype=np.int16)
    for index, label in enumerate(labels):
        match = _LABEL.match(label)
        if match is None:
            raise ValueError(f"outcome label {label!r} is not of the form 'bBwW', 'bBcC' or 'bB'")
        black, white = int(match.group(1)), match.group(2)
        if white is None:
            lut[black, :] = index  # black markers only: the whites do not matter
        else:
            lut[black, int(white)] = index
    return lut


def estimated_bytes(n_codes: int, pegs: int = 0, colors: int = 0) -> float:
    """Memory the engine needs for a game of `n_codes` string codes (arrays, tree, colour
    counts)."""
    n_codes = checks.integer(n_codes, "n_codes", low=0)
    pegs = checks.integer(pegs, "pegs", low=0, high=8)
    colors = checks.integer(colors, "colors", low=0, high=127)
    multisets = math.comb(pegs + colors - 1, pegs) if pegs and colors else 0
    counts = multisets**2 if multisets <= MAX_MULTISETS else n_codes * colors
    return BYTES_PER_CODE * n_codes + counts + 4 * math.factorial(min(pegs, 8)) * pegs


def check_fits(name: str, n_codes: int, pegs: int, colors: int) -> None:
    """Refuse a string game whose engine arrays would not fit in `checks.MEMORY_BUDGET` (before
    any allocation)."""
    checks.text(name, "name")
    n_codes = checks.integer(n_codes, "n_codes", low=0)
    pegs = checks.integer(pegs, "pegs", low=0, high=8)
    colors = checks.integer(colors, "colors", low=0, high=127)
    per_code = BYTES_PER_CODE + pegs * (colors + 2) + colors + 100  # + codes, strings and names
    largest = (MEMORY_BUDGET - estimated_bytes(0, pegs, colors)) // per_code
    needed = estimated_bytes(n_codes, pegs, colors) + n_codes * (per_code - BYTES_PER_CODE)
    within_budget(f"the analysis of {name}", needed, MEMORY_BUDGET,
                  largest=f"{max(largest, 0):,} codes")


def black_white(
    guesses: np.ndarray, codes: np.ndarray, colors: int
) -> tuple[np.ndarray, np.ndarray]:
    """Black and white marker counts of every guess against every code (Mastermind rules, §2.2):
    black = pegs equal in place, black + white = Σ over colours of the smaller count."""
    small = np.int8 if guesses.shape[1] <= np.iinfo(np.int8).max else np.int16  # counts ≤ pegs
    black = np.zeros((len(guesses), len(codes)), dtype=small)
    total = np.zeros_like(black)
    gc = np.stack([(guesses == c).sum(1) for c in range(1, colors + 1)], axis=1).astype(small)
    cc = np.stack([(codes == c).sum(1) for c in range(1, colors + 1)], axis=1).astype(small)
    step = max(1, 2**22 // max(1, len(codes)))
    for start in range(0, len(guesses), step):  # one peg or colour at a time: 2-d operations only
        rows = slice(start, start + step)
        for i in range(guesses.shape[1]):
            black[rows] += guesses[rows, i, None] == codes[None, :, i]
        for c in range(colors):
            total[rows] += np.minimum(gc[rows, c, None], cc[None, :, c])
    return black.astype(np.int16), (total - black).astype(np.int16)


def outcome_rows(rule: StringRule, guesses: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """out[g, c] = the outcome index of guess guesses[g] on code codes[c] (indices into the
    rule's strings), from the markers, a block of guesses at a time (§2.2)."""
    if not isinstance(rule, StringRule):
        raise checks.ArgumentTypeError(f"rule must be a StringRule, got {rule!r}")
    guesses, codes = (_indices(rule, given, name) for given, name in ((guesses, "guesses"),
                                                                       (codes, "codes")))
    out = np.empty((len(guesses), len(codes)), np.int16)
    step = max(1, BLOCK_ENTRIES // max(1, len(codes)))
    targets = rule.strings[codes]
    for start in range(0, len(guesses), step):
        block = slice(start, start + step)
        black, white = black_white(rule.strings[guesses[block]], targets, rule.colors)
        black *= rule.lut.shape[1]
        black += white
        out[block] = np.take(rule.lut.ravel(), black)  # lut[black, white]
    return out


def _indices(rule: StringRule, given: object, name: str) -> np.ndarray:
    """`given` as a 1-d array of indices of the rule's strings."""
    arr = np.asarray(given)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise checks.ArgumentTypeError(f"{name} must be a 1-d array of string indices, got "
                                       f"{given!r}")
    if arr.size and (arr.min() < 0 or arr.max() >= len(rule.strings)):
        raise ValueError(f"{name} must be indices 0..{len(rule.strings) - 1} of the rule's strings")
    return arr.astype(np.intp)
