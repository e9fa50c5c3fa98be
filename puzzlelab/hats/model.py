"""The Leprechaun hat game: strategies, deals, the thesis's notation for them, evaluation.

Source: janssen2017 (Janssen, *The Leprechaun Hatting Problem*, 2017), Section 2.1.
The world (N players, M colours, rounds and views, their letters) is in `world`. A *strategy*
gives, for each view, a colour or a pass; a *deal* is one strategy per player. A round is won
when somebody guesses right and nobody guesses wrong (Section 2.1.5).

Internally a deal is an int8 array of shape (N, M**(N-1)): entry [i, v] is player i's guess at
view number v (views in lexicographic order, see `world.views`), -1 meaning pass.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np

from .. import checks
from .world import (LETTERS, PASS, Round, check_world, round_index, rounds, string_to_round,
                    view_table)

__all__ = [
    "answers", "deal_to_strings", "evaluate", "parse_deal", "parse_strategy", "rounds_correct",
    "set_correct_order", "strategy_to_string", "strong_answering", "won_mask",
]


# --- strategies and deals -------------------------------------------------------------------


def parse_strategy(text: str, n_players: int, n_colors: int = 2) -> np.ndarray:
    """Thesis notation 'BPPR' (one letter per view, Table 5.2) -> guesses (-1 = pass).

    Parameters
    ----------
    text : str
        One letter per view, in the order of `views`: a colour letter or `PASS`; braces around
        it ('{BPPR}', as the thesis prints a strategy) are allowed.
    n_players, n_colors : int
        The world: N players (M**(N-1) views) and M colours.

    Returns
    -------
    numpy.ndarray
        int8 guesses, one per view: a colour index, or -1 for a pass.

    Raises
    ------
    ValueError
        If the world is refused, the text has not M**(N-1) letters, or a letter is unknown.

    Examples
    --------
    Guess Blue on seeing two Reds, Red on seeing two Blues, else pass:

    >>> parse_strategy("{BPPR}", 3).tolist()
    [1, -1, -1, 0]

    References
    ----------
    janssen2017 (source document 004), Table 5.2.
    """
    text = checks.text(text, "strategy")
    n, m = check_world(n_players, n_colors)
    body = text.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1]
    body = body.strip().upper()
    want = m ** (n - 1)
    if len(body) != want:
        raise ValueError(f"strategy {text!r} has {len(body)} letters, expected {want} "
                         "(one per view, M**(N-1))")
    allowed = LETTERS[:m] + PASS
    out = np.empty(want, dtype=np.int8)
    for k, ch in enumerate(body):
        if ch not in allowed:
            raise ValueError(f"unknown letter {ch!r} in strategy {text!r} (allowed: {allowed})")
        out[k] = -1 if ch == PASS else LETTERS.index(ch)
    return out


def strategy_to_string(guesses: Sequence[int], n_colors: int = len(LETTERS)) -> str:
    """Guesses (-1 = pass) -> thesis notation, e.g. [1, -1, -1, 0] -> 'BPPR'.

    Parameters
    ----------
    guesses : sequence of int
        One guess per view: a colour index or -1.
    n_colors : int
        M, the number of colours (default 8: every letter allowed).

    Returns
    -------
    str
        One letter per view.

    Raises
    ------
    ValueError
        If a guess is not an integer from -1 to M - 1.

    Examples
    --------
    >>> strategy_to_string([1, -1, -1, 0])
    'BPPR'

    References
    ----------
    janssen2017 (source document 004), Table 5.2.
    """
    m = checks.integer(n_colors, "n_colors", low=2, high=len(LETTERS))
    if isinstance(guesses, np.ndarray):
        guesses = guesses.tolist()
    gs = checks.integers(guesses, "guesses", low=-1, high=m - 1)
    return "".join(PASS if g < 0 else LETTERS[g] for g in gs)


def _strategy_from_mapping(strategy: Mapping, n: int, m: int) -> np.ndarray:
    out = np.full(m ** (n - 1), -1, dtype=np.int8)
    for view, guess in strategy.items():
        v = (string_to_round(view, m) if isinstance(view, str)
             else checks.integers(view, "view", low=0, high=m - 1))
        if len(v) != n - 1:
            raise ValueError(f"view {view!r} is not a view of {n - 1} hats in {m} colours")
        out[round_index(v, m)] = _guess(guess, m)
    return out


def _guess(guess: object, m: int) -> int:
    """One guess: a colour index, -1 or None (pass), or a letter."""
    if guess is None:
        return -1
    if isinstance(guess, str):
        g = guess.strip().upper()
        if g == PASS:
            return -1
        if len(g) == 1 and g in LETTERS[:m]:
            return LETTERS.index(g)
        raise ValueError(f"unknown guess {guess!r} (allowed: {LETTERS[:m]}{PASS})")
    if isinstance(guess, (bool, np.bool_)):
        raise checks.ArgumentTypeError(f"guess {guess!r} is a boolean, not a colour index")
    if isinstance(guess, (float, np.floating)):
        raise checks.ArgumentTypeError(
            f"guess {guess!r} is not an integer colour index (floats are not truncated)")
    g = checks.integer(guess, "guess")
    if not -1 <= g < m:
        raise ValueError(f"guess {guess!r} must be a colour index 0..{m - 1}, -1/None (pass) "
                         "or a letter")
    return g


def _strategy_from_array(strategy: object, player: int, n: int, m: int) -> np.ndarray:
    """One player's guesses as a sequence or array: colour indices, -1/None or letters."""
    if isinstance(strategy, np.ndarray):
        arr = strategy
    elif isinstance(strategy, Sequence) and not isinstance(strategy, (str, bytes)):
        arr = np.empty(len(strategy), dtype=object)
        arr[:] = list(strategy)
    else:
        raise checks.ArgumentTypeError(
            f"strategy of player {player} must be a string, a mapping or a sequence of guesses, "
            f"got {type(strategy).__name__}")
    if arr.shape != (m ** (n - 1),):
        raise ValueError(f"strategy of player {player} must have {m ** (n - 1)} guesses, "
                         f"got shape {arr.shape}")
    if np.issubdtype(arr.dtype, np.integer):
        bad = (arr < -1) | (arr >= m)
        if bad.any():
            raise ValueError(f"guess {arr[bad][0]!r} of player {player} must be a colour index "
                             f"0..{m - 1} or -1 (pass)")
        return arr.astype(np.int8)
    if arr.dtype.kind in "fcb":  # floats, complex numbers, booleans: never silently truncated
        raise checks.ArgumentTypeError(
            f"guesses of player {player} must be integers, -1/None (pass) or letters, "
            f"got dtype {arr.dtype}")
    return np.array([_guess(g, m) for g in arr], dtype=np.int8)


def _strategies(deal: object) -> list:
    """The per-player strategies of a deal given as an array, a mapping {1: ..} or a sequence."""
    if isinstance(deal, np.ndarray) and deal.ndim == 2:
        return list(deal)
    if isinstance(deal, Mapping):
        keys = list(deal)
        if not all(isinstance(k, int) and not isinstance(k, bool) for k in keys) or \
                sorted(keys) != list(range(1, len(keys) + 1)):
            raise ValueError(f"a deal mapping must have the players 1..N as keys, got {keys}")
        return [deal[k] for k in sorted(keys)]
    if isinstance(deal, (str, bytes)):
        raise ValueError("a deal is one strategy per player, not a single string")
    if isinstance(deal, Sequence):
        return list(deal)
    raise checks.ArgumentTypeError(f"cannot read a deal from {type(deal).__name__}: pass one "
                                   "strategy per player (strings, mappings or arrays)")


def parse_deal(deal: object, n_colors: int = 2) -> np.ndarray:
    """A deal as strings, per-view mappings or arrays, per player (list or {1: ..}) -> array.

    Parameters
    ----------
    deal : sequence or mapping
        One strategy per player, as a list or as a mapping from players 1..N. A strategy is a
        string in the thesis's notation (`parse_strategy`), a mapping from views ('RB' or
        (0, 1)) to guesses (unlisted views pass), or a sequence of guesses (colour indices,
        -1/None for a pass, or letters).
    n_colors : int
        M, the number of colours.

    Returns
    -------
    numpy.ndarray
        int8 array of shape (N, M**(N-1)): [player, view] -> guess, -1 a pass.

    Raises
    ------
    ValueError
        If the world is refused, a strategy has the wrong length or an unknown guess, a mapping's
        keys are not 1..N, or the deal is a single string (a wrong kind of value raises
        `checks.ArgumentTypeError`, also a TypeError).

    Examples
    --------
    The same strategy in the three forms:

    >>> parse_deal({1: "BPPR", 2: {"RR": "B", "BB": "R"}, 3: [1, -1, -1, 0]})
    array([[ 1, -1, -1,  0],
           [ 1, -1, -1,  0],
           [ 1, -1, -1,  0]], dtype=int8)

    References
    ----------
    Deals of janssen2017 (source document 004), Section 2.1.
    """
    strategies = _strategies(deal)
    n, m = check_world(len(strategies), n_colors)
    rows = []
    for k, s in enumerate(strategies, start=1):
        if isinstance(s, str):
            rows.append(parse_strategy(s, n, m))
        elif isinstance(s, Mapping):
            rows.append(_strategy_from_mapping(s, n, m))
        else:
            rows.append(_strategy_from_array(s, k, n, m))
    return np.vstack(rows).astype(np.int8)


def deal_to_strings(deal: object, n_colors: int = 2) -> tuple[str, ...]:
    """A deal in the thesis's notation, one string per agent (Tables 5.2, 5.5-5.8).

    Parameters
    ----------
    deal : sequence or mapping
        One strategy per player, in any form `parse_deal` reads.
    n_colors : int
        M, the number of colours.

    Returns
    -------
    tuple of str
        One strategy string per player.

    Raises
    ------
    ValueError
        When `parse_deal` cannot read the deal.

    Examples
    --------
    >>> deal_to_strings([{"RR": "B", "BB": "R"}, [1, None, None, "R"], "bppr"])
    ('BPPR', 'BPPR', 'BPPR')

    References
    ----------
    janssen2017 (source document 004), Tables 5.2 and 5.5-5.8.
    """
    return tuple(strategy_to_string(row) for row in parse_deal(deal, n_colors))


# --- evaluation -------------------------------------------------------------------------------


def answers(deal: object, n_colors: int = 2) -> np.ndarray:
    """Array [player, round] of answers: +1 right, -1 wrong, 0 pass (Section 2.1.5).

    Parameters
    ----------
    deal, n_colors
        The deal (any form `parse_deal` reads) and M, the number of colours.

    Returns
    -------
    numpy.ndarray
        int8 array of shape (N, M**N), rounds in the order of `rounds`.

    Raises
    ------
    ValueError
        If `parse_deal` refuses the deal or M.

    Examples
    --------
    With 'BPPR' for all three, player 1 answers in four rounds (RRR, RBB, BRR, BBB: the others'
    hats alike), right in two of them:

    >>> answers(["BPPR"] * 3)[0].tolist()
    [-1, 0, 0, 1, 1, 0, 0, -1]

    References
    ----------
    janssen2017 (source document 004), Section 2.1.5.
    """
    d = parse_deal(deal, n_colors)
    n, m = d.shape[0], n_colors
    r = np.array(rounds(n, m), dtype=np.int8).reshape(-1, n)
    guess = np.take_along_axis(d.astype(np.int64), view_table(n, m), axis=1)  # [player, round]
    own = r.T.astype(np.int64)
    return np.where(guess < 0, 0, np.where(guess == own, 1, -1)).astype(np.int8)


def won_mask(deal: object, n_colors: int = 2) -> np.ndarray:
    """Boolean per round (in `rounds` order): somebody right and nobody wrong.

    Parameters
    ----------
    deal, n_colors
        A deal as `parse_deal` reads it, in a world of M = `n_colors` colours.

    Returns
    -------
    numpy.ndarray
        bool array of M**N entries.

    Raises
    ------
    ValueError
        On a deal that is not one strategy per player of a valid world.

    Examples
    --------
    >>> won_mask(["BPPR"] * 3).astype(int).tolist()  # lost: RRR and BBB
    [0, 1, 1, 1, 1, 1, 1, 0]

    References
    ----------
    The winning rule of janssen2017 (source document 004), Section 2.1.5.
    """
    a = answers(deal, n_colors)
    return (a == 1).any(axis=0) & ~(a == -1).any(axis=0)


def evaluate(deal: object, n_colors: int = 2) -> frozenset[Round]:
    """The set of won rounds of a deal: the thesis's *Set Correct* fitness (Section 2.1.7).

    Parameters
    ----------
    deal : sequence or mapping
        One strategy per player, as strings, mappings or arrays (`parse_deal`).
    n_colors : int
        The number of colours M.

    Returns
    -------
    frozenset of Round
        The rounds the deal wins.

    Raises
    ------
    ValueError
        If the deal cannot be read (`parse_deal`).

    Examples
    --------
    >>> from puzzlelab.hats.world import round_to_string
    >>> sorted(round_to_string(r) for r in evaluate(["BPPR"] * 3))
    ['BBR', 'BRB', 'BRR', 'RBB', 'RBR', 'RRB']

    References
    ----------
    janssen2017 (source document 004), Section 2.1.7.
    """
    d = parse_deal(deal, n_colors)
    allr = rounds(d.shape[0], n_colors)
    return frozenset(allr[k] for k in np.flatnonzero(won_mask(d, n_colors)))


def rounds_correct(deal: object, n_colors: int = 2) -> Fraction:
    """*Rounds Correct* fitness: won rounds / M**N (Section 2.1.7).

    Parameters
    ----------
    deal, n_colors
        The deal to score and the number of colours (as `evaluate` takes them).

    Returns
    -------
    fractions.Fraction
        The share of rounds won.

    Raises
    ------
    ValueError
        As `parse_deal` raises it.

    Examples
    --------
    The best three-player deal wins 6 of the 8 rounds (Ebert's hat problem):

    >>> rounds_correct(["BPPR"] * 3)
    Fraction(3, 4)

    References
    ----------
    janssen2017 (source document 004), Section 2.1.7; the hat problem of Ebert (1998), PhD
    thesis, UC Santa Barbara.
    """
    d = parse_deal(deal, n_colors)
    return Fraction(int(won_mask(d, n_colors).sum()), n_colors ** d.shape[0])


def strong_answering(deal: object, n_colors: int = 2, pass_value: Fraction | int = 0) -> Fraction:
    """*Strong Answering* fitness (Section 2.1.7): mean answer score over all players and rounds.

    Our documented choice: a right answer scores +1, a wrong one -1 and a pass `pass_value`
    (0 by default, 'neither good nor bad', Section 2.1.1 rule 4).

    Parameters
    ----------
    deal, n_colors
        The deal to score and M, as `answers` takes them.
    pass_value : Fraction or number
        The score of a pass, between -1 and 1.

    Returns
    -------
    fractions.Fraction
        The mean score.

    Raises
    ------
    ValueError
        On an unreadable deal (`parse_deal`), or a `pass_value` outside -1..1.

    Examples
    --------
    Every guess is right in as many rounds as it is wrong (the guesser's hat is either colour),
    so with passes at 0 the best deal scores 0; passes at 1/2 raise it:

    >>> strong_answering(["BPPR"] * 3), strong_answering(["BPPR"] * 3, pass_value=Fraction(1, 2))
    (Fraction(0, 1), Fraction(1, 4))

    References
    ----------
    janssen2017 (source document 004), Sections 2.1.1 and 2.1.7.
    """
    if not isinstance(pass_value, Fraction):  # numpy's numbers too, as Python floats
        pass_value = Fraction(checks.number(pass_value, "pass_value", low=-1, high=1))
    if not -1 <= pass_value <= 1:
        raise ValueError(f"pass_value must lie between -1 and 1, got {pass_value}")
    a = answers(deal, n_colors)
    score = Fraction(int((a == 1).sum()) - int((a == -1).sum())) + pass_value * int((a == 0).sum())
    return score / a.size


def set_correct_order(a: frozenset, b: frozenset) -> str:
    """Compare two won sets under *Set Correct* (Theorem 1): better, worse, equal, incomparable.

    Parameters
    ----------
    a, b : frozenset
        Sets of won rounds (`evaluate`).

    Returns
    -------
    str
        "better" when b is a proper subset of a, "worse" when a is one of b, "equal" or
        "incomparable".

    Raises
    ------
    ValueError
        If a or b is not a set (`checks.ArgumentTypeError`, also a TypeError).

    Examples
    --------
    Only player 3 guessing wins a subset of what all three win:

    >>> everyone = evaluate(["BPPR"] * 3)
    >>> set_correct_order(everyone, evaluate(["PPPP", "PPPP", "BPPR"]))
    'better'

    References
    ----------
    janssen2017 (source document 004), Section 2.1.7, Theorem 1.
    """
    for name, value in (("a", a), ("b", b)):
        if not isinstance(value, (set, frozenset)):
            raise checks.ArgumentTypeError(f"{name} must be a set of rounds, got {value!r}")
    if a == b:
        return "equal"
    if b < a:
        return "better"
    if a < b:
        return "worse"
    return "incomparable"
