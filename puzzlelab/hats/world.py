"""The Leprechaun hat game's world: players and colours, rounds, views, their letters.

Source: janssen2017 (Janssen, *The Leprechaun Hatting Problem*, 2017), Section 2.1 and Table 4.1.
A world has N players and M colours (2 to 8, at most `MAX_ROUNDS` rounds). A *round* is one
assignment of hats, a tuple of colour indices (0 = the first colour, Red; 1 = Blue; ...), written
in the thesis's letters ('RBB'). A player's *view* is the round with his own hat removed. Rounds
and views are numbered in lexicographic order, the first player most significant (`round_index`);
`view_table` gives each player's view number in each round. Strategies, deals and their
evaluation build on these in `model`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from .. import checks

__all__ = [
    "LETTERS", "MAX_ROUNDS", "PASS", "Round", "check_two_colours", "check_world",
    "check_world_within", "largest_players", "round_index", "round_to_string", "rounds",
    "string_to_round", "view_of", "view_table", "views",
]

LETTERS = "RBGYOCKW"  # colour letters in thesis notation: Red, Blue, then more colours
"""The colour letters, colour index k written `LETTERS[k]`: R, B (the thesis's Red and Blue,
janssen2017 Table 4.1), then G, Y, O, C, K, W for worlds of up to 8 colours."""
PASS = "P"
"""The letter of a pass in a strategy string ('BPPR', janssen2017 Table 5.2)."""
MAX_ROUNDS = 1 << 16  # the largest world (M**N rounds) that is enumerated round by round

Round = tuple[int, ...]


def largest_players(n_colors: int, limit: int = MAX_ROUNDS) -> int:
    """The most players N with M**N <= limit rounds (computed without large powers)."""
    m = checks.integer(n_colors, "n_colors", low=2)
    limit = checks.integer(limit, "limit (rounds)", low=1, high=2**64)
    n = 0
    while m ** (n + 1) <= limit:
        n += 1
    return n


def check_world(n_players: int, n_colors: int = 2) -> tuple[int, int]:
    """Validate N >= 2 players, 2 <= M <= 8 colours, at most MAX_ROUNDS rounds (Section 2.1.1).

    Parameters
    ----------
    n_players : int
        N, the number of players (leprechauns).
    n_colors : int
        M, the number of hat colours (2 to 8, one letter each in `LETTERS`).

    Returns
    -------
    tuple of (int, int)
        (N, M) as Python ints.

    Raises
    ------
    ValueError
        If N < 2, M is not 2..8, or M**N exceeds `MAX_ROUNDS` (the message names the largest N).

    Examples
    --------
    >>> check_world(3), check_world(16)
    ((3, 2), (16, 2))
    >>> check_world(17)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: world too large: 2**17 rounds is more than 65536; ... has N = 16 players

    References
    ----------
    The world of janssen2017 (Janssen 2017, the Leprechaun thesis, source document 004), Section
    2.1.1.
    """
    n = checks.integer(n_players, "n_players", low=2)
    m = checks.integer(n_colors, "n_colors", low=2, high=len(LETTERS))
    most = largest_players(m)
    if n > most:  # compared before M**N is ever computed
        raise ValueError(f"world too large: {m}**{n} rounds is more than {MAX_ROUNDS}; with "
                         f"{m} colours the largest world has N = {most} players")
    return n, m


def check_world_within(n_players: int, n_colors: int, limit: int, what: str) -> tuple[int, int]:
    """`check_world`, and at most `limit` rounds for `what` (ValueError naming the largest N)."""
    n, m = check_world(n_players, n_colors)
    limit, what = checks.integer(limit, "limit", low=1), checks.text(what, "what")
    if m**n > limit:
        raise ValueError(f"{what} in worlds of at most {limit} rounds; with {m} colours the "
                         f"largest has N = {largest_players(m, limit)} players, got N = {n}")
    return n, m


def check_two_colours(n_players: int, most: int, what: str) -> int:
    """N of a two-colour world of at most `most` players, which `what` handles (ValueError
    naming both otherwise)."""
    n, _ = check_world(n_players, 2)
    most = checks.integer(most, "most", low=2)
    what = checks.text(what, "what")  # checked whether or not N is refused
    if n > most:
        raise ValueError(f"{what} handles at most N = {most} players (two colours), got N = {n}")
    return n


# The memoised tables below are behind their checks: a cache keyed by (3, 2.0) would answer
# for (3, 2) without a word, so each public function validates, then asks its private cache.
def rounds(n_players: int, n_colors: int = 2) -> tuple[Round, ...]:
    """All M**N rounds in lexicographic order (player 1 most significant), Section 2.1.5.

    Parameters
    ----------
    n_players, n_colors : int
        N players and M colours (`check_world`).

    Returns
    -------
    tuple of Round
        Each round a tuple of N colour indices (0 = Red, 1 = Blue, ...).

    Raises
    ------
    ValueError
        On a world `check_world` refuses.

    Examples
    --------
    >>> [round_to_string(r) for r in rounds(3)]
    ['RRR', 'RRB', 'RBR', 'RBB', 'BRR', 'BRB', 'BBR', 'BBB']

    References
    ----------
    janssen2017 (source document 004), Section 2.1.5.
    """
    return _rounds(*check_world(n_players, n_colors))


@lru_cache(maxsize=64)
def _rounds(n: int, m: int) -> tuple[Round, ...]:
    return tuple(itertools.product(range(m), repeat=n))


def views(n_players: int, n_colors: int = 2) -> tuple[Round, ...]:
    """The M**(N-1) views of a player, in the thesis's order (Table 5.4: RRR, RRB, RBR, ...).

    A view is a round without the player's own hat; a strategy has one guess per view, in this
    order.

    Parameters
    ----------
    n_players : int
        N: a view shows N - 1 hats.
    n_colors : int
        M, the number of colours.

    Returns
    -------
    tuple of Round
        The views, tuples of N - 1 colour indices, in lexicographic order.

    Raises
    ------
    ValueError
        If `check_world` refuses (N, M).

    Examples
    --------
    >>> [round_to_string(v) for v in views(3)]  # the four letters of a strategy such as 'BPPR'
    ['RR', 'RB', 'BR', 'BB']

    References
    ----------
    janssen2017 (source document 004), Section 2.1 and Table 5.4.
    """
    return _views(*check_world(n_players, n_colors))


@lru_cache(maxsize=64)
def _views(n: int, m: int) -> tuple[Round, ...]:
    return tuple(itertools.product(range(m), repeat=n - 1))


def _colours(rnd: object, n_colors: int, name: str = "round") -> tuple[int, ...]:
    """A sequence of colour indices 0..M-1 (integers only), as a tuple."""
    m = checks.integer(n_colors, "n_colors", low=2, high=len(LETTERS))
    if isinstance(rnd, np.ndarray):
        rnd = rnd.tolist()
    return checks.integers(rnd, name, low=0, high=m - 1)


def round_index(rnd: Sequence[int], n_colors: int = 2) -> int:
    """Position of a round in `rounds` (base-M number, first player most significant).

    Parameters
    ----------
    rnd : sequence of int
        The colour indices of the round (or of a view: its position in `views`).
    n_colors : int
        M, the number of colours.

    Returns
    -------
    int
        The index, from 0 to M**N - 1.

    Raises
    ------
    ValueError
        If a colour is not an integer 0..M-1.

    Examples
    --------
    >>> round_index((1, 0, 1)), rounds(3)[5]
    (5, (1, 0, 1))

    References
    ----------
    The order of rounds of janssen2017 (source document 004), Section 2.1.5.
    """
    idx = 0
    for c in _colours(rnd, n_colors):
        idx = idx * n_colors + c
    return idx


def view_of(rnd: Sequence[int], player: int) -> Round:
    """What player `player` (0-based) sees in round `rnd`: all hats but his own.

    Parameters
    ----------
    rnd : sequence of int
        A round.
    player : int
        The player, 0 to N-1.

    Returns
    -------
    Round
        The round without that player's hat.

    Raises
    ------
    ValueError
        If the round is empty or has a colour outside 0..7, or the player is out of range.

    Examples
    --------
    >>> view_of(string_to_round("RBB"), 0), view_of(string_to_round("RBB"), 2)
    ((1, 1), (0, 1))

    References
    ----------
    janssen2017 (source document 004), Section 2.1.1 (each leprechaun sees every hat but his own).
    """
    colours = _colours(rnd, len(LETTERS))
    i = checks.integer(player, "player", low=0, high=max(len(colours) - 1, 0))
    if not colours:
        raise ValueError("a round has at least one hat")
    return colours[:i] + colours[i + 1 :]


def view_table(n_players: int, n_colors: int = 2) -> np.ndarray:
    """Array [player, round] -> index of the view that player has in that round."""
    return _view_table(*check_world(n_players, n_colors))


@lru_cache(maxsize=64)
def _view_table(n: int, m: int) -> np.ndarray:
    r = np.array(_rounds(n, m), dtype=np.int64).reshape(-1, n)
    table = np.zeros((n, m**n), dtype=np.int64)
    weights = m ** np.arange(n - 2, -1, -1, dtype=np.int64)
    for i in range(n):
        table[i] = np.delete(r, i, axis=1) @ weights
    table.flags.writeable = False
    return table


def round_to_string(rnd: Sequence[int]) -> str:
    """A round in letters, e.g. (0, 1, 1) -> 'RBB' (thesis Table 4.1).

    Parameters
    ----------
    rnd : sequence of int
        Colour indices 0..7.

    Returns
    -------
    str
        One letter of `LETTERS` per hat.

    Raises
    ------
    ValueError
        If a colour is not an integer 0..7.

    Examples
    --------
    >>> round_to_string((0, 1, 1)), round_to_string((2, 3))
    ('RBB', 'GY')

    References
    ----------
    The notation of janssen2017 (source document 004), Table 4.1.
    """
    return "".join(LETTERS[c] for c in _colours(rnd, len(LETTERS)))


def string_to_round(text: str, n_colors: int = 2) -> Round:
    """'RBB' -> (0, 1, 1); unknown letters raise ValueError.

    Parameters
    ----------
    text : str
        One colour letter per hat (case ignored).
    n_colors : int
        M: only the first M letters of `LETTERS` are colours.

    Returns
    -------
    Round
        The colour indices.

    Raises
    ------
    ValueError
        On a letter that is not one of the M colours, or M outside 2..8.

    Examples
    --------
    >>> string_to_round("rbb")
    (0, 1, 1)
    >>> string_to_round("RG")
    Traceback (most recent call last):
    ...
    ValueError: unknown colour letter 'G' in round 'RG' (colours RB)

    References
    ----------
    janssen2017 (source document 004), Table 4.1.
    """
    text = checks.text(text, "text")
    m = checks.integer(n_colors, "n_colors", low=2, high=len(LETTERS))
    out = []
    for ch in text.strip().upper():
        k = LETTERS.find(ch)
        if k < 0 or k >= m:
            raise ValueError(f"unknown colour letter {ch!r} in round {text!r} "
                             f"(colours {LETTERS[:m]})")
        out.append(k)
    return tuple(out)
