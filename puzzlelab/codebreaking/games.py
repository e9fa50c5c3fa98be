"""The games of Chapter 2 of Klimoš (2014), built as `Game` tables (Examples 8–11 and §2.3).

- `counterfeit_coin(n, extra_genuine, formalization)`: Example 8 (x_i = coin i is fake, y = it
  is heavier) or Example 9 (x_i = coin i is lighter, y_i = coin i is heavier); both evaluate
  the thesis's outcome formulas on every valuation.
- `mastermind(pegs, colors)`: Example 10 (x_{i,j} = peg i has colour j); the outcome is the
  (black, white) count (`formulas` evaluates Example 11's formulas instead).
- `black_peg_mastermind`, `bulls_and_cows`, `bags_of_gold`: three more games of §2.3.

Mastermind, black-peg Mastermind and Bulls and Cows (up to 8 pegs and 127 colours) carry a
string rule instead of a table (`strings.StringRule`): their outcomes are computed from the
strings, and analysed by the compiled engine (`compiled`), so a game is limited by memory (a few hundred bytes per code, checked
before anything is allocated), not by a codes × codes table.

Experiment order (the strategies' tie-break "lowest first"): types in the order listed,
parametrizations in lexicographic order. A weighing's mirror image (pans swapped) splits
the codes the same way, so we keep only the one whose left pan holds the lowest coin (with
an extra genuine coin, the genuine coin 0 is always on the left) — the first of each pair in
lexicographic order, so the tie-break picks the same weighing either way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import chain, combinations, permutations, product

import numpy as np

from .. import checks
from .game import Game
from .game_checks import Symmetry, well_formed_table
from .strings import black_white, check_fits, marker_lut, string_rule

__all__ = ["COIN_OUTCOMES", "MAX_CODES", "MAX_PEGS", "MAX_SYMMETRY_ENTRIES", "MAX_WEIGHINGS",
           "bags_of_gold", "black_peg_mastermind", "bulls_and_cows", "check_size",
           "colour_strings", "counterfeit_coin", "mastermind"]

MAX_CODES = 6000  # codes of a game that needs an explicit codes × experiments table
STRING_PEGS, STRING_COLORS = 8, 127  # the engine packs a code into a 64-bit word, a byte per peg
MAX_PEGS = 100  # (pegs + 1)(pegs + 2)/2 outcome labels
MAX_MARKER_WORK = 10**9  # guesses × codes × colours compared when counting markers
MAX_WEIGHINGS = 1_000_000  # explicit weighings of the coin game (15 coins: 893,803)
# group size × codes of a peg × colour symmetry table (int16: 600 MB at most; Mastermind 4×7 fits)
MAX_SYMMETRY_ENTRIES = 300_000_000


def _positive(name: str, value: int, high: int | None = None) -> int:
    return checks.integer(value, name, low=1, high=high)


def count_weighings(n: int, extra_genuine: bool = False) -> int:
    """How many weighings `weighings(n, extra_genuine)` lists: pan sets, mirror images once."""
    s = n + int(extra_genuine)
    return sum(math.comb(s, m) * math.comb(s - m, m) for m in range(1, s // 2 + 1)) // 2


# --- counterfeit coin ---------------------------------------------------------------------
def weighings(
    n: int, extra_genuine: bool = False
) -> tuple[list[tuple[str, tuple[int, ...]]], np.ndarray]:
    """All weighings of coins 1..n (and genuine coin 0): experiments (w_{2m}, left+right), roles.

    roles[j, s] = 0 if coin s is off the scales, 1 on the left pan, 2 on the right pan.
    """
    symbols = list(range(0 if extra_genuine else 1, n + 1))
    exps, blocks = [], []
    for m in range(1, len(symbols) // 2 + 1):
        params = [
            left + right
            for left in combinations(symbols, m)
            for right in combinations([s for s in symbols if s not in left and s > left[0]], m)
        ]  # right[0] > left[0]: the mirror image is kept with pans swapped
        exps += [(f"w{2 * m}", p) for p in params]
        block = np.zeros((len(params), n + 1), dtype=np.int8)
        p = np.array(params, dtype=np.intp).reshape(len(params), 2 * m)
        rows = np.arange(len(params))[:, None]
        block[rows, p[:, :m]], block[rows, p[:, m:]] = 1, 2
        blocks.append(block)
    roles = np.concatenate(blocks) if blocks else np.zeros((0, n + 1), dtype=np.int8)
    return exps, roles


COIN_OUTCOMES = ["right heavier", "left heavier", "balance"]  # the order of Φ(w_m) in Example 8


def counterfeit_coin(coins: int, extra_genuine: bool = False, formalization: int = 8) -> Game:
    """The fake-coin game F_n (Example 8) or F'_n (Example 9), maybe with a genuine coin 0.

    Among `coins` coins one is fake, lighter or heavier; a weighing puts as many coins on each
    pan and answers which pan is heavier, or balance. The game ends when the fake coin and its
    kind are determined.

    Parameters
    ----------
    coins : int
        Coins 1..n, 1 to 64 (at least 2 without a genuine coin).
    extra_genuine : bool
        Whether a coin 0, known to be genuine, may be weighed too.
    formalization : int
        8 (x_i: coin i is fake, y: it is heavier) or 9 (x_i: light, y_i: heavy), the thesis's
        two formulas of the same game.

    Returns
    -------
    Game
        Codes "1L", "1H", ... (coin, light or heavy); experiments w_2m(left + right), a mirror
        image once; outcomes `COIN_OUTCOMES`.

    Raises
    ------
    ValueError
        If `coins` is out of range, `formalization` is neither 8 nor 9, or the weighings exceed
        `MAX_WEIGHINGS`.

    Examples
    --------
    Four coins need three weighings; with a genuine coin besides, two suffice.

    >>> from puzzlelab.codebreaking import optimal
    >>> game = counterfeit_coin(4)
    >>> game
    Game('coin 4 (Ex. 8)': 8 codes, 9 experiments, 3 outcomes)
    >>> optimal(game).worst, optimal(counterfeit_coin(4, extra_genuine=True)).worst
    (3, 2)

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §2.1 and Examples 8-9.
    """
    n = _positive("coins", coins, high=64)
    extra_genuine = checks.boolean(extra_genuine, "extra_genuine")
    if n < 2 and not extra_genuine:
        raise ValueError("the coin game needs at least 2 coins (or 1 coin and a genuine one)")
    checks.choice(formalization, "formalization (the thesis's Example 8 or 9)", (8, 9))
    largest = max(m for m in range(2, 20) if count_weighings(m, extra_genuine) <= MAX_WEIGHINGS)
    checks.within_budget(f"counterfeit_coin({n})", count_weighings(n, extra_genuine),
                         MAX_WEIGHINGS, unit="weighings", largest=f"{largest} coins")
    exps, roles = weighings(n, extra_genuine)
    left, right = (roles == 1).astype(np.int32), (roles == 2).astype(np.int32)
    example = _example_8 if formalization == 8 else _example_9
    variables, codes, satisfied = example(n, left, right)
    suffix = " + genuine" if extra_genuine else ""
    return Game(
        f"coin {n}{suffix} (Ex. {formalization})", variables, codes, exps,
        well_formed_table(satisfied), COIN_OUTCOMES,
        code_names=[f"{c}{w}" for c in range(1, n + 1) for w in "LH"],
        symmetry=(lambda: _coin_symmetry(n, extra_genuine, roles)) if n <= 13 else None,
    )


def _example_8(n: int, left: np.ndarray, right: np.ndarray) -> tuple[list[str], np.ndarray,
                                                                       np.ndarray]:
    """Example 8: x_i = coin i is fake, y = it is heavier; the outcome formulas' truth values."""
    variables = [f"x{i}" for i in range(n + 1)] + ["y"]
    codes = np.zeros((2 * n, n + 2), dtype=bool)  # x0 (genuine coin) is never fake
    for k in range(2 * n):
        codes[k, 1 + k // 2] = True
        codes[k, -1] = k % 2 == 1  # y: the fake coin is heavier
    x, y = codes[:, : n + 1].T.astype(np.int32), codes[:, -1]
    on_left, on_right = (left @ x) > 0, (right @ x) > 0  # f_x($1) ∨ … ∨ f_x($m), and the right
    satisfied = np.stack([(on_left & ~y) | (on_right & y), (on_left & y) | (on_right & ~y),
                          ~(on_left | on_right)], axis=1)
    return variables, codes, satisfied


def _example_9(n: int, left: np.ndarray, right: np.ndarray) -> tuple[list[str], np.ndarray,
                                                                       np.ndarray]:
    """Example 9: x_i = coin i is light, y_i = coin i is heavy; the outcome formulas' truth."""
    variables = [f"x{i}" for i in range(n + 1)] + [f"y{i}" for i in range(n + 1)]
    codes = np.zeros((2 * n, 2 * n + 2), dtype=bool)
    for k in range(2 * n):
        coin = 1 + k // 2
        codes[k, coin if k % 2 == 0 else n + 1 + coin] = True
    x, y = codes[:, : n + 1].T.astype(np.int32), codes[:, n + 1 :].T.astype(np.int32)
    xl, xr, yl, yr = (left @ x) > 0, (right @ x) > 0, (left @ y) > 0, (right @ y) > 0
    return variables, codes, np.stack([xl | yr, yl | xr, ~(xl | xr | yl | yr)], axis=1)


def _coin_symmetry(n: int, extra_genuine: bool, roles: np.ndarray) -> Symmetry | None:
    """Generators: the transpositions of two real coins (interchangeable symbols, §3.5 Phase 1)."""
    lookup = np.full(3 ** (n + 1), -1, dtype=np.int32)
    lookup[_role_keys(roles)] = np.arange(len(roles), dtype=np.int32)
    code_perms, exp_perms = [], []
    for a, b in combinations(range(1, n + 1), 2):
        swapped = roles.copy()
        swapped[:, [a, b]] = swapped[:, [b, a]]
        exp_perms.append(lookup[_role_keys(_mirror_normal(swapped))])
        cp = np.arange(2 * n)
        cp[[2 * (a - 1), 2 * (a - 1) + 1, 2 * (b - 1), 2 * (b - 1) + 1]] = [
            2 * (b - 1), 2 * (b - 1) + 1, 2 * (a - 1), 2 * (a - 1) + 1]
        code_perms.append(cp)
    if not code_perms:
        return None
    return Symmetry(np.array(code_perms), np.array(exp_perms), complete=False,
                    description="transpositions of two coins",
                    swaps=np.array(list(combinations(range(1, n + 1), 2))))


def _role_keys(roles: np.ndarray) -> np.ndarray:
    return roles.astype(np.int64) @ (3 ** np.arange(roles.shape[1], dtype=np.int64))


def _mirror_normal(roles: np.ndarray) -> np.ndarray:
    """Swap the pans where the lowest coin on the scales is on the right pan."""
    on = roles > 0
    first = np.argmax(on, axis=1)
    flip = roles[np.arange(len(roles)), first] == 2
    out = roles.copy()
    out[flip] = np.where(roles[flip] == 0, 0, 3 - roles[flip])
    return out


# --- Mastermind ----------------------------------------------------------------------------
def colour_strings(pegs: int, colors: int, distinct: bool = False) -> np.ndarray:
    """All colour strings of length pegs, lexicographic (optionally without repeats)."""
    pegs, colors = check_size(pegs, colors, distinct)
    symbols = range(1, colors + 1)
    rows = permutations(symbols, pegs) if distinct else product(symbols, repeat=pegs)
    return np.fromiter(chain.from_iterable(rows), dtype=np.int16).reshape(-1, pegs)


def _one_hot(strings: np.ndarray, colors: int) -> tuple[list[str], np.ndarray]:
    pegs = strings.shape[1]
    variables = [f"x{i}_{j}" for i in range(1, pegs + 1) for j in range(1, colors + 1)]
    codes = np.zeros((len(strings), pegs * colors), dtype=bool)
    for i in range(pegs):
        codes[np.arange(len(strings)), i * colors + strings[:, i] - 1] = True
    return variables, codes


def check_size(pegs: int, colors: int, distinct: bool = False,
               names: tuple[str, str] = ("pegs", "colors")) -> tuple[int, int]:
    """(pegs, colors) of a game of codes (of distinct symbols if `distinct`) that fits here;
    `names` are the caller's words for them in a message (Bulls and Cows: positions, symbols).

    Parameters
    ----------
    pegs : int
        Pegs (positions) of a code, 1 to `MAX_PEGS`.
    colors : int
        Colours (symbols) a peg may have.
    distinct : bool
        Whether a code's symbols are distinct (Bulls and Cows).
    names : tuple of (str, str)
        The words for pegs and colours in the messages.

    Returns
    -------
    tuple of (int, int)
        `pegs` and `colors`, checked.

    Raises
    ------
    ValueError
        If a size is not a positive integer or out of range, distinct symbols are fewer than the
        pegs, or the game does not fit: past 8 pegs or 127 colours more than `MAX_CODES` codes or
        `MAX_MARKER_WORK` comparisons, else more codes than the memory budget holds.

    Examples
    --------
    >>> check_size(4, 6)
    (4, 6)
    >>> check_size(3, 2, distinct=True)
    Traceback (most recent call last):
    ...
    ValueError: 3 distinct symbols need at least 3 symbols, got 2

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §2.2 (Mastermind, Bulls and Cows).
    """
    if not isinstance(names, tuple) or len(names) != 2:
        raise checks.ArgumentTypeError(f"names must be a pair of words, got {names!r}")
    where, what = (checks.text(word, "names") for word in names)
    pegs, colors = _positive(where, pegs, high=MAX_PEGS), _positive(what, colors)
    if checks.boolean(distinct, "distinct") and colors < pegs:
        raise ValueError(f"{pegs} distinct symbols need at least {pegs} symbols, got {colors}")
    n = math.perm(colors, pegs) if distinct else colors**pegs
    if _by_strings(pegs, colors):
        check_fits(f"{n} codes of {pegs} {where} and {colors} {what}", n, pegs, colors)
        return pegs, colors
    if colors > MAX_CODES:
        raise ValueError(f"{colors} {what} give more than {MAX_CODES} codes (at most {MAX_CODES})")
    if n > MAX_CODES:
        raise ValueError(f"{n} codes is too many for an explicit table (at most {MAX_CODES})")
    checks.within_budget(f"the marker table of {n} codes over {colors} {what}", n * n * colors,
                         MAX_MARKER_WORK, unit="comparisons")
    return pegs, colors


def _by_strings(pegs: int, colors: int) -> bool:
    """Can the compiled engine compute this game's outcomes from its strings?"""
    return pegs <= STRING_PEGS and colors <= STRING_COLORS


def _marker_game(name: str, strings: np.ndarray, colors: int, labels: list[str],
                 symmetry: Callable[[], Symmetry | None] | None) -> Game:
    """A game whose codes and guesses are the strings and whose answer is read off the markers
    (§2.2): by the string rule, or (past 8 pegs or 127 colours) by an explicit table."""
    pegs = strings.shape[1]
    variables, codes = _one_hot(strings, colors)
    rule, table = None, None
    if _by_strings(pegs, colors):
        rule = string_rule(strings, colors, labels)
    else:
        black, white = black_white(strings, strings, colors)
        table = marker_lut(labels, pegs)[black, white]
    rows = strings.tolist()
    digits = [str(c) for c in range(colors + 1)]
    return Game(name, variables, codes, [("g", tuple(s)) for s in rows], table, labels,
                final_outcomes=[labels[marker_lut(labels, pegs)[pegs, 0]]],
                code_names=["".join([digits[c] for c in s]) for s in rows], symmetry=symmetry,
                rule=rule)


def mastermind(pegs: int, colors: int) -> Game:
    """Mastermind M_{n,m} (Example 10): outcome Outcome(b, w); the game ends on all-black.

    Parameters
    ----------
    pegs : int
        Pegs n of a code.
    colors : int
        Colours m a peg may have.

    Returns
    -------
    Game
        Codes = guesses = the m^n colour strings (named "1122", ...); outcomes "bBwW" (b black
        markers: right colour in the right place, w white: right colour elsewhere); final
        outcome all black; the symmetry group of peg and colour permutations.

    Raises
    ------
    ValueError
        If a size is not a positive integer, there are more than `MAX_PEGS` pegs, or the
        game is too large: past 8 pegs or 127 colours more than `MAX_CODES` codes (an explicit
        table), else more codes than the memory budget holds.

    Examples
    --------
    Knuth's classic game, 4 pegs and 6 colours: 1,296 codes, 14 answers besides the impossible
    "3B1W". One play of the greedy strategy on 3 pegs and 3 colours:

    >>> game = mastermind(4, 6)
    >>> game.n_codes, len(game.outcome_labels)
    (1296, 15)
    >>> from puzzlelab.codebreaking import simulate
    >>> simulate(mastermind(3, 3), "max-models", "321").experiment.tolist()
    ['g(1,1,2)', 'g(2,3,1)', 'g(3,2,1)']

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §2.2 and Example 10; Knuth (1977), J.
    Recreational Mathematics 9.
    """
    pegs, colors = check_size(pegs, colors)
    strings = colour_strings(pegs, colors)
    labels = [f"{b}B{w}W" for b in range(pegs + 1) for w in range(pegs + 1 - b)]
    return _marker_game(f"Mastermind {pegs}×{colors}", strings, colors, labels,
                        lambda: mastermind_symmetry(strings, colors))


def black_peg_mastermind(pegs: int, colors: int) -> Game:
    """Mastermind with black markers only (§2.3, 'Generalized Mastermind'): ends on all-black.

    Parameters
    ----------
    pegs : int
        Pegs of a code.
    colors : int
        Colours a peg may have.

    Returns
    -------
    Game
        As `mastermind`, with outcomes "0B" ... "nB" (right colour in the right place only).

    Raises
    ------
    ValueError
        As `mastermind`: a size that is not a positive integer, or a game too large.

    Examples
    --------
    >>> game = black_peg_mastermind(4, 6)
    >>> game
    Game('black-peg Mastermind 4×6': 1296 codes, 1296 experiments, 5 outcomes)
    >>> game.outcome_labels
    ['0B', '1B', '2B', '3B', '4B']

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §2.3.
    """
    pegs, colors = check_size(pegs, colors)
    strings = colour_strings(pegs, colors)
    return _marker_game(f"black-peg Mastermind {pegs}×{colors}", strings, colors,
                        [f"{b}B" for b in range(pegs + 1)],
                        lambda: mastermind_symmetry(strings, colors))


def bulls_and_cows(positions: int = 4, symbols: int = 10) -> Game:
    """Bulls and Cows (§2.2): distinct symbols; bulls = right place, cows = wrong place.

    Parameters
    ----------
    positions : int
        Symbols in a code.
    symbols : int
        Symbols to choose from, at least `positions`.

    Returns
    -------
    Game
        Codes = guesses = the strings of distinct symbols; outcomes "bBcC"; ends on all bulls.

    Raises
    ------
    ValueError
        If a size is not a positive integer, there are more than `MAX_PEGS` positions, or the
        game is too large: past 8 positions or 127 symbols more than `MAX_CODES` codes (an explicit
        table), else more codes than the memory budget holds. Also if `symbols` < `positions`.

    Examples
    --------
    The usual game: four distinct digits of ten, 10 x 9 x 8 x 7 codes.

    >>> game = bulls_and_cows()
    >>> game.n_codes, game.code_names[0]
    (5040, '1234')

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §2.2.
    """
    positions, symbols = check_size(positions, symbols, distinct=True,
                                    names=("positions", "symbols"))
    strings = colour_strings(positions, symbols, distinct=True)
    labels = [f"{b}B{c}C" for b in range(positions + 1) for c in range(positions + 1 - b)]
    return _marker_game(f"Bulls and Cows {positions}×{symbols}", strings, symbols, labels,
                        lambda: mastermind_symmetry(strings, symbols))


def mastermind_symmetry(strings: np.ndarray, colors: int) -> Symmetry | None:
    """The group of peg × colour permutations acting on codes (= guesses), §3.4."""
    pegs = strings.shape[1]
    group = math.factorial(pegs) * math.factorial(colors)
    if group * len(strings) > MAX_SYMMETRY_ENTRIES:
        return None
    lookup = np.full((colors + 1) ** pegs, -1, dtype=np.int32)
    lookup[_string_keys(strings, colors)] = np.arange(len(strings), dtype=np.int32)
    taus = np.array([(0,) + tau for tau in permutations(range(1, colors + 1))], dtype=np.int8)
    perms = []
    for sigma in permutations(range(pegs)):
        moved = strings[:, list(sigma)]
        images = taus[:, moved]  # (colour perms, codes, pegs)
        perms.append(lookup[_string_keys(images.reshape(-1, pegs), colors)].reshape(len(taus), -1))
    perms = np.concatenate(perms)
    perms = perms.astype(np.int16 if len(strings) < 32000 else np.int32)
    return Symmetry(
        perms, perms, complete=True, description="peg permutations × colour permutations"
    )


def _string_keys(strings: np.ndarray, colors: int) -> np.ndarray:
    return strings.astype(np.int64) @ ((colors + 1) ** np.arange(strings.shape[1], dtype=np.int64))


# --- Bags of Gold ---------------------------------------------------------------------------
def bags_of_gold(bags: int, max_take: int) -> Game:
    """Bags of Gold (§2.3): one bag holds light coins; weigh 0..max_take coins of each.

    Parameters
    ----------
    bags : int
        Bags, 1 to 18; the code is the light bag.
    max_take : int
        The most coins taken from one bag for a weighing; the outcome is how many grams light
        the weighing is (one per light coin taken).

    Returns
    -------
    Game
        Codes "bag 1", ...; an experiment per choice of coins from each bag.

    Raises
    ------
    ValueError
        If a size is out of range or there are more than 200,000 weighings.

    Examples
    --------
    Three bags: take 0, 1 and 2 coins; the missing grams name the light bag, in one weighing.

    >>> from puzzlelab.codebreaking import analyze
    >>> game = bags_of_gold(3, 2)
    >>> analyze(game).worst, game.outcome_labels
    (1, ['0 g light', '1 g light', '2 g light'])

    References
    ----------
    Klimoš (2014), master's thesis (source document 001), §2.3.
    """
    bags, max_take = _positive("bags", bags, high=18), _positive("max_take", max_take, high=200_000)
    if (max_take + 1) ** bags > 200_000:
        raise ValueError(f"{(max_take + 1) ** bags} weighings is too many for an explicit table")
    takes = np.array(list(product(range(max_take + 1), repeat=bags)), dtype=np.int32)
    codes = np.eye(bags, dtype=bool)  # x_i: bag i is the light one (Exactly_1)
    table = takes  # the deficit of weighing j when bag k is light is takes[j, k]
    return Game(
        f"bags of gold {bags}×{max_take}",
        [f"x{i}" for i in range(1, bags + 1)],
        codes,
        [("weigh", tuple(map(int, t))) for t in takes],
        table,
        [f"{d} g light" for d in range(max_take + 1)],
        code_names=[f"bag {i}" for i in range(1, bags + 1)],
    )
