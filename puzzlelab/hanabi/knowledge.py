"""Realistic public knowledge in a game of Hanabi, and how much one hint can then carry.

Beyond the post (odwyer2018), which hints colours only: a hand is dealt from the 50-card
deck, some other cards are face up, and the hand has received true hints, each touching
every card of one colour or one value. Touched cards learn they have it, untouched cards that
they do not (negative information); card counting removes identities whose copies are all
face up. Hints alone leave each card a *rectangle* of colours x values; card counting punches
*holes* in it, and only then can a part mixing colours and values beat the two kinds apart.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor

import numpy as np
import pandas as pd

from .. import checks, sweeps
from ..checks import ArgumentTypeError
from .model import COLOURS, COPIES, VALUES, Card, HintTable, as_table, hanabi_table
from .solvers import compare_hinting

__all__ = [
    "MAX_HINTS_RECEIVED", "MAX_STUDY_TABLES", "escaping_identities", "hanabi_deck",
    "hint_capacity_study", "holes", "is_rectangular", "mixing_gain_example", "random_knowledge",
    "rectangle",
]

DECK_SIZE = len(COLOURS) * sum(COPIES.values())
# A game gives at most 8 + 50 + 5 hints (the starting tokens, one per discard, one per
# finished firework), so no hand receives more.
MAX_HINTS_RECEIVED = 63
MAX_STUDY_TABLES = 10**6  # random tables one capacity study may solve


def hanabi_deck() -> list[tuple[str, str]]:
    """The 50-card Hanabi deck: per colour three 1s, two each of 2-4, one 5.

    Returns
    -------
    list of (str, str)
        A (colour, value) pair per card, by colour then value (`COLOURS`, `COPIES`).

    Examples
    --------
    >>> from collections import Counter
    >>> deck = hanabi_deck()
    >>> len(deck), Counter(value for _, value in deck)["1"], deck[:4]
    (50, 15, [('Red', '1'), ('Red', '1'), ('Red', '1'), ('Red', '2')])

    References
    ----------
    The deck of the rules: Cox et al. (2015), Section 2.
    """
    return [(c, str(v)) for c in COLOURS for v, n in COPIES.items() for _ in range(n)]


def _generator(rng: object) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, bool) or not isinstance(rng, (int, np.integer)):
        raise ArgumentTypeError(f"rng must be a numpy Generator or a seed, got {rng!r}")
    return np.random.default_rng(checks.seed(rng, "rng"))


def _check_deal(hand_size: int, hints_received: int, public_cards: int) -> tuple[int, int, int]:
    hand_size = checks.integer(hand_size, "hand_size", low=1, high=10)
    hints_received = checks.integer(hints_received, "hints_received", low=0,
                                    high=MAX_HINTS_RECEIVED)
    public_cards = checks.integer(public_cards, "public_cards", low=0, high=DECK_SIZE - hand_size)
    return hand_size, hints_received, public_cards


def _deal(hand_size: int, hints_received: int, rng: np.random.Generator, public_cards: int):
    """The random draws of one game state: the hand, the face-up cards, the hints given."""
    deck = hanabi_deck()
    order = rng.permutation(len(deck))
    hand = [deck[i] for i in order[:hand_size]]
    face_up = Counter(deck[i] for i in order[hand_size: hand_size + public_cards])
    present = sorted({c for c, _ in hand} | {v for _, v in hand})
    hints = [present[rng.integers(len(present))] for _ in range(hints_received)]
    return hand, face_up, hints


def random_knowledge(
    hand_size: int, hints_received: int, rng: np.random.Generator | int, public_cards: int = 0
) -> tuple[HintTable, list[tuple[str, str]]]:
    """A random hand and the public knowledge about it after `hints_received` true hints.

    The hand is drawn from the 50-card deck and `public_cards` other cards are face up
    (discarded or played). Each hint names a colour or value present in the hand. `rng` is a
    numpy Generator or a seed.

    Parameters
    ----------
    hand_size : int
        Cards in the hand, 1 to 10.
    hints_received : int
        True hints the hand has received, 0 to `MAX_HINTS_RECEIVED`.
    rng : numpy.random.Generator or int
        The random draws, or a seed for them.
    public_cards : int
        Other cards face up, whose identities are counted out when all their copies are seen.

    Returns
    -------
    tuple of (HintTable, list of (str, str))
        The full-Hanabi table of what the hand's owner knows (`hanabi_table`), and the true
        hand.

    Raises
    ------
    ValueError
        If a count is out of its range (at most 50 - `hand_size` cards face up) or `rng` is
        neither a Generator nor a seed.

    Examples
    --------
    True hints never rule out the truth: each card's true identity stays possible.

    >>> table, hand = random_knowledge(5, hints_received=4, rng=7, public_cards=10)
    >>> all(frozenset(card) in possible for card, possible in zip(hand, table.cards))
    True

    References
    ----------
    Beyond the Hanabi post (source document 003; O'Dwyer 2018), which takes its table as given;
    the game's deck and hints: Cox et al. (2015), Section 2.
    """
    hand_size, hints_received, public_cards = _check_deal(hand_size, hints_received, public_cards)
    hand, face_up, hints = _deal(hand_size, hints_received, _generator(rng), public_cards)
    counted_out = {ident for ident, n in face_up.items() if n == COPIES[int(ident[1])]}
    everything = {(c, v) for c in COLOURS for v in VALUES} - counted_out
    possible = [set(everything) for _ in hand]
    for hint in hints:
        for card, options in zip(hand, possible):
            options &= {ident for ident in options if (hint in ident) == (hint in card)}
    return hanabi_table(possible), hand


def _card_of(card: object) -> Card:
    if not isinstance(card, frozenset) or not all(isinstance(i, frozenset) for i in card):
        raise ArgumentTypeError(f"card must be a card of a HintTable (a frozenset of "
                                f"identities), got {card!r}")
    return card


def rectangle(card: Card) -> tuple[set[str], set[str]]:
    """The colours and the values a full-Hanabi card may have (a product holding its knowledge).

    Parameters
    ----------
    card : Card
        A card of a full-Hanabi table (`hanabi_table`): a frozenset of {colour, value}
        identities.

    Returns
    -------
    tuple of (set of str, set of str)
        The colours and the values of its identities.

    Raises
    ------
    ValueError
        If `card` is not a frozenset of identities (an `ArgumentTypeError`).

    Examples
    --------
    A red 1, red 2 or blue 1 lies in the rectangle {red, blue} x {1, 2}.

    >>> card = hanabi_table([[("Red", 1), ("Red", 2), ("Blue", 1)]]).cards[0]
    >>> [sorted(side) for side in rectangle(card)]
    [['Blue', 'Red'], ['1', '2']]

    References
    ----------
    Beyond the Hanabi post (source document 003; O'Dwyer 2018): hints alone leave each card such
    a rectangle (negative information, Cox et al. 2015, Section 2).
    """
    card = _card_of(card)
    hints = set().union(*card)
    return hints & set(COLOURS), hints & set(VALUES)


def _pairs(card: Card) -> set[tuple[str, str]]:
    """A full-Hanabi card's identities as (colour, value) pairs."""
    pairs = set()
    for identity in card:
        colours, values = identity & set(COLOURS), identity & set(VALUES)
        if len(identity) != 2 or len(colours) != 1 or len(values) != 1:
            raise ValueError(f"identity {sorted(identity)} is not a (colour, value) pair: holes "
                             f"are defined for full-Hanabi cards")
        pairs.add((next(iter(colours)), next(iter(values))))
    return pairs


def holes(card: Card) -> set[tuple[str, str]]:
    """The identities of a full-Hanabi card's colour-by-value rectangle that it can no longer be.

    Parameters
    ----------
    card : Card
        A card of a full-Hanabi table (`hanabi_table`) whose identities are all pairs.

    Returns
    -------
    set of (str, str)
        The (colour, value) pairs of `rectangle(card)` that are not among its identities.

    Raises
    ------
    ValueError
        If `card` is not a card, or an identity is not a (colour, value) pair.

    Examples
    --------
    A red 1, red 2 or blue 1: the blue 2 is a hole (card counting, say, saw both blue 2s).

    >>> card = hanabi_table([[("Red", 1), ("Red", 2), ("Blue", 1)]]).cards[0]
    >>> holes(card)
    {('Blue', '2')}

    References
    ----------
    Beyond the Hanabi post (source document 003; O'Dwyer 2018); card counting: Cox et al.
    (2015).
    """
    colours, values = rectangle(card)
    return set(itertools.product(colours, values)) - _pairs(card)


def escaping_identities(card: Card, part: Iterable[str]) -> set[tuple[str, str]]:
    """Identities of `card`'s colour-by-value rectangle that no hint of `part` touches.

    A card certifies `part` iff none of these is still possible: with hints alone the card is
    the whole rectangle, so it certifies only supersets of its colours or of its values; card
    counting can punch the escaping identities out and certify a mixed part.

    Parameters
    ----------
    card : Card
        A card of a full-Hanabi table (`hanabi_table`).
    part : iterable of str
        Hint names (colours and values).

    Returns
    -------
    set of (str, str)
        The (colour, value) pairs of the rectangle with neither colour nor value in `part`.

    Raises
    ------
    ValueError
        If `card` is not a card or `part` is not a collection of names.

    Examples
    --------
    The mixed part {red, 1} lets only the blue 2 escape; a card whose blue 2 is a hole
    certifies it.

    >>> card = hanabi_table([[("Red", 1), ("Red", 2), ("Blue", 1)]]).cards[0]
    >>> escaping_identities(card, ["Red", "1"])
    {('Blue', '2')}

    References
    ----------
    The sure parts of the Hanabi post (source document 003; O'Dwyer 2018, 'Solution'), for
    hints by colour or value.
    """
    colours, values = rectangle(card)
    if isinstance(part, (str, bytes)) or not isinstance(part, Iterable):
        raise ArgumentTypeError(f"part must be a set of hint names, got {part!r}")
    part = {checks.text(h, "hint") for h in part}
    return set(itertools.product(colours - part, values - part))


def is_rectangular(table: HintTable) -> bool:
    """Is every card's knowledge a product (colours it may have) x (values it may have)?

    Parameters
    ----------
    table : HintTable
        A full-Hanabi table (`hanabi_table`).

    Returns
    -------
    bool
        True when no card has a hole (`holes`): then mixed parts gain nothing.

    Raises
    ------
    ValueError
        If `table` is not a HintTable, a 0/1 DataFrame or 0/1 rows (`as_table`).

    Examples
    --------
    >>> square = [("Red", 1), ("Red", 2), ("Blue", 1), ("Blue", 2)]
    >>> is_rectangular(hanabi_table([square])), is_rectangular(hanabi_table([square[:3]]))
    (True, False)

    References
    ----------
    Beyond the Hanabi post (source document 003; O'Dwyer 2018), which hints colours only.
    """
    table = as_table(table)
    for card in table.cards:
        colours, values = rectangle(card)
        if len(card) != len(colours) * len(values):
            return False
    return True


def mixing_gain_example(
    public_cards: int = 35, seed: int = 2018, max_tries: int = 20000
) -> tuple[HintTable, list[tuple[str, str]], int]:
    """The first seeded game state (hand 4 or 5, 0-8 hints) where mixing beats colours + values.

    Returns the table, the true hand and the number of hints it received.

    Parameters
    ----------
    public_cards : int
        Cards face up, 0 to 45.
    seed : int
        The seed of the draws.
    max_tries : int
        Game states drawn at most, 1 to 10^6.

    Returns
    -------
    tuple of (HintTable, list of (str, str), int)
        The table (`random_knowledge`), the true hand and the hints received.

    Raises
    ------
    ValueError
        If an argument is out of range, or no such state turns up in `max_tries` draws.

    Examples
    --------
    With 35 cards face up, the first such state has four cards and three hints; a card has
    holes, so the table is not rectangular.

    >>> table, hand, hints = mixing_gain_example()
    >>> len(hand), hints, is_rectangular(table)
    (4, 3, False)

    References
    ----------
    Beyond the Hanabi post (source document 003; O'Dwyer 2018): its set packing, for hints by
    colour or value (Cox et al. 2015, Section 2).
    """
    public_cards = checks.integer(public_cards, "public_cards", low=0, high=DECK_SIZE - 5)
    max_tries = checks.integer(max_tries, "max_tries", low=1, high=10**6)
    rng = np.random.default_rng(checks.seed(seed))
    for _ in range(max_tries):
        hand_size, received = int(rng.integers(4, 6)), int(rng.integers(0, 9))
        table, hand = random_knowledge(hand_size, received, rng, public_cards)
        result = compare_hinting(table)
        if result["mixed"] > result["separate"]:
            return table, hand, received
    raise ValueError(f"no state where mixing helps in {max_tries} tries with {public_cards} "
                     f"cards face up")


# --- the hint-capacity study -------------------------------------------------------------------

def _capacity_point(point: tuple[int, int, int, int, dict]) -> dict:
    """One row of the study: `samples` random tables drawn from the generator state given."""
    hand_size, public_cards, received, samples, state = point
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = state
    counts = []
    for _ in range(samples):
        table, _ = random_knowledge(hand_size, received, rng, public_cards)
        counts.append({**compare_hinting(table), "rectangular": is_rectangular(table)})
    df = pd.DataFrame(counts)
    return {
        "hand_size": hand_size, "public_cards": public_cards, "hints_received": received,
        "samples": samples,
        "mean_parts_mixed": df["mixed"].mean(), "mean_parts_separate": df["separate"].mean(),
        "mean_bits_mixed": np.log2(df["mixed"]).mean(),
        "mean_bits_separate": np.log2(df["separate"]).mean(),
        "share_mixed_better": (df["mixed"] > df["separate"]).mean(),
        "share_rectangular": df["rectangular"].mean(),
    }


def _points(grid: list[tuple[int, int, int]], samples: int, seed: int) -> list[tuple]:
    """Each grid point with the generator state it starts from.

    One generator runs through the grid in order (the study's seeding); replaying only its
    draws, without solving any table, gives each point its starting state, so the points can
    then be solved in any order, on any worker, with the same result.
    """
    rng = np.random.default_rng(seed)
    points = []
    for hand_size, public_cards, received in grid:
        points.append((hand_size, public_cards, received, samples, rng.bit_generator.state))
        for _ in range(samples):
            _deal(hand_size, received, rng, public_cards)
    return points


def hint_capacity_study(
    hand_sizes: Sequence[int] = (4, 5),
    hints: Sequence[int] = tuple(range(9)),
    public: Sequence[int] = (0, 25, 40),
    samples: int = 300,
    seed: int = 2018,
    *,
    executor: Executor | None = None,
    workers: int = 1,
) -> pd.DataFrame:
    """Mean parts and bits (log2 parts) of maximum partitions over random realistic tables.

    One row per (hand size, cards face up, hints received), each from `samples` tables. Runs
    serially, on `workers` local processes or on any `executor` (`puzzlelab.sweeps`), with
    the same result.

    Parameters
    ----------
    hand_sizes : sequence of int
        Hand sizes, 1 to 10.
    hints : sequence of int
        Hints received, 0 to `MAX_HINTS_RECEIVED`.
    public : sequence of int
        Cards face up.
    samples : int
        Random tables per grid point (`random_knowledge`).
    seed : int
        The seed of one generator run through the grid in order.
    executor : concurrent.futures.Executor, optional
        Where the grid points run; by default `workers` local processes.
    workers : int
        Local processes when no executor is given.

    Returns
    -------
    pandas.DataFrame
        A row per grid point: hand_size, public_cards, hints_received, samples,
        mean_parts_mixed, mean_parts_separate, mean_bits_mixed, mean_bits_separate,
        share_mixed_better, share_rectangular.

    Raises
    ------
    ValueError
        If a list is empty or holds a value out of range, more cards are face up than the deck
        leaves beside the largest hand, or the study would solve more than `MAX_STUDY_TABLES`
        tables.

    Examples
    --------
    Before any hint, every card may be anything: the colours and the values are the two sure
    parts, so a hint carries exactly one bit.

    >>> study = hint_capacity_study(hand_sizes=[4], hints=[0], public=[0], samples=5)
    >>> study[["mean_parts_mixed", "mean_bits_mixed", "share_rectangular"]].iloc[0].tolist()
    [2.0, 1.0, 1.0]

    References
    ----------
    Beyond the Hanabi post (source document 003; O'Dwyer 2018): its set packing over realistic
    game states; the rules: Cox et al. (2015), Section 2.
    """
    grid = _study_grid(hand_sizes, hints, public)
    samples = checks.integer(samples, "samples", low=1)
    checks.within_budget("the hint-capacity study", len(grid) * samples, MAX_STUDY_TABLES,
                         unit="tables")
    points = _points(grid, samples, checks.seed(seed))
    rows = sweeps.sweep(_capacity_point, points, executor=executor, workers=workers,
                        desc="hint capacity")
    return pd.DataFrame(rows)


def _study_grid(hand_sizes: object, hints: object, public: object) -> list[tuple[int, int, int]]:
    hand_sizes = checks.integers(hand_sizes, "hand_sizes", low=1, high=10)
    hints = checks.integers(hints, "hints", low=0, high=MAX_HINTS_RECEIVED)
    public = checks.integers(public, "public", low=0)
    for name, values in (("hand_sizes", hand_sizes), ("hints", hints), ("public", public)):
        if not values:
            raise ValueError(f"{name} must list at least one value")
    if max(public) > DECK_SIZE - max(hand_sizes):
        raise ValueError(f"public must be at most {DECK_SIZE - max(hand_sizes)} (the deck has "
                         f"{DECK_SIZE} cards and hands up to {max(hand_sizes)})")
    return list(itertools.product(hand_sizes, public, hints))
