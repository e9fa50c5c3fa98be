"""Hanabi hint set-packing: maximum partitions of the hints (source 003, "Hanabi set-packing puzzle").

The model. A *card* is the set of identities it may still have (public knowledge); an
*identity* is the set of hints that would touch it — ``{"Red"}`` when only colours are
hinted (the source), ``{"Red", "3"}`` in full Hanabi, where a card can be hinted by its
colour or by its value. Cards are independent, as in the source's possibility table.

The key fact. A part ``S`` of the hints is *sure* (every possible hand has a card that some
hint in ``S`` touches) exactly when one card *certifies* it: every identity of that card
meets ``S``. (If every card had an identity missing ``S``, the hand made of those
identities would have no valid hint in ``S``.) A partition with ``k`` sure parts therefore
contains ``k`` disjoint certified sets, and conversely any ``k`` disjoint certified sets
extend to a partition by putting the untouched hints anywhere. So the puzzle is set
packing over the minimal certified sets — the source's reduction, generalised.

Three exact methods, cross-checked in the tests:

- ``"brute"``: the source's brute force over all subsets of rows (colour-only tables);
- ``"dp"``: dynamic programming over the 2^H subsets of hints (any number of cards);
- ``"cp-sat"``: set packing over the minimal certified sets with OR-Tools CP-SAT.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from ortools.sat.python import cp_model

from . import solvers
from .progress import tqdm

COLOURS: tuple[str, ...] = ("Red", "White", "Yellow", "Green", "Blue")
VALUES: tuple[str, ...] = ("1", "2", "3", "4", "5")
COPIES: dict[int, int] = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}  # copies of each value per colour
METHODS = ("dp", "cp-sat", "brute")
MAX_HINTS = 20  # the dynamic programme walks 2^H subsets of hints

Identity = frozenset  # of hint names
Card = frozenset  # of identities


@dataclass(frozen=True)
class HintTable:
    """Public knowledge about a hand: the hint names and, per card, its possible identities."""

    hints: tuple[str, ...]
    cards: tuple[Card, ...]
    card_names: tuple[str, ...]

    def __post_init__(self) -> None:
        _check_hints(self.hints)
        if len(self.card_names) != len(self.cards):
            raise ValueError("need exactly one name per card")
        known = set(self.hints)
        for name, card in zip(self.card_names, self.cards):
            if not card:
                raise ValueError(f"card {name!r} has no possible identity")
            for identity in card:
                if not identity or not identity <= known:
                    raise ValueError(f"card {name!r}: identity {set(identity)} is not a set of hints")

    @cached_property
    def masks(self) -> tuple[tuple[int, ...], ...]:
        """Each card's identities as bitmasks over `hints`."""
        bit = {h: 1 << i for i, h in enumerate(self.hints)}
        return tuple(
            tuple(sorted(sum(bit[h] for h in identity) for identity in card)) for card in self.cards
        )

    def to_frame(self) -> pd.DataFrame:
        """A 0/1 view: which hints could touch each card (the source's possibility table)."""
        rows = [[int(any(h in ident for ident in card)) for h in self.hints] for card in self.cards]
        return pd.DataFrame(rows, index=list(self.card_names), columns=list(self.hints))


def _check_hints(hints: Sequence[str]) -> None:
    if not hints:
        raise ValueError("a table needs at least one hint column")
    if len(set(hints)) != len(hints):
        raise ValueError(f"hint names must be distinct, got {list(hints)}")
    if len(hints) > MAX_HINTS:
        raise ValueError(f"at most {MAX_HINTS} hints are supported, got {len(hints)}")


def possibility_table(
    rows: Sequence[Sequence[int]] | pd.DataFrame,
    hints: Sequence[str] | None = None,
    card_names: Sequence[str] | None = None,
) -> HintTable:
    """A colour-only possibility table (source, first table) from 0/1 rows or a DataFrame.

    Nested lists take `hints` (default: the five colours) and `card_names`; a DataFrame
    brings its own (columns = hints, index = cards), so passing them as well is an error.
    """
    if isinstance(rows, pd.DataFrame):
        if hints is not None or card_names is not None:
            raise ValueError("a DataFrame names its hints (columns) and cards (index); do not pass hints or card_names")
        hints, card_names = [str(c) for c in rows.columns], [str(i) for i in rows.index]
        rows = rows.to_numpy().tolist()
    hints = tuple(COLOURS if hints is None else hints)
    _check_hints(hints)
    rows = [list(r) for r in rows]
    if not rows:
        raise ValueError("a possibility table needs at least one row (card)")
    names = tuple(card_names) if card_names is not None else tuple(f"card {i + 1}" for i in range(len(rows)))
    if len(names) != len(rows):
        raise ValueError(f"{len(names)} card names for {len(rows)} rows")
    cards = []
    for name, row in zip(names, rows):
        if len(row) != len(hints):
            raise ValueError(f"row {name!r} has {len(row)} entries, expected {len(hints)} (one per hint)")
        if any(v not in (0, 1) for v in row):
            raise ValueError(f"row {name!r} has values other than 0/1: {row}")
        if not any(row):
            raise ValueError(f"row {name!r} has no possibility: every card has some colour")
        cards.append(Card(Identity([h]) for h, v in zip(hints, row) if v))
    return HintTable(hints, tuple(cards), names)


def hanabi_table(
    cards: Sequence[Iterable[tuple[str, str | int]]], card_names: Sequence[str] | None = None
) -> HintTable:
    """A full-Hanabi table: each card a collection of possible (colour, value) identities."""
    if not cards:
        raise ValueError("a table needs at least one card")
    names = tuple(card_names) if card_names is not None else tuple(f"card {i + 1}" for i in range(len(cards)))
    if len(names) != len(cards):
        raise ValueError(f"{len(names)} card names for {len(cards)} cards")
    built = []
    for name, card in zip(names, cards):
        identities = set()
        for colour, value in card:
            if colour not in COLOURS or str(value) not in VALUES:
                raise ValueError(f"card {name!r}: unknown identity ({colour!r}, {value!r})")
            identities.add(Identity([colour, str(value)]))
        built.append(Card(identities))
    return HintTable(COLOURS + VALUES, tuple(built), names)


def project(table: HintTable, keep: Sequence[str]) -> HintTable:
    """The table seen through the hints in `keep` only (e.g. colours only): each identity restricted."""
    keep_set = set(keep)
    if unknown := keep_set - set(table.hints):
        raise ValueError(f"cannot keep unknown hints {sorted(unknown)}; hints are {list(table.hints)}")
    for name, card in zip(table.card_names, table.cards):
        for identity in card:
            if not identity & keep_set:
                raise ValueError(f"card {name!r}: identity {sorted(identity)} has no hint among {sorted(keep_set)}")
    cards = tuple(Card(Identity(i & keep_set) for i in card) for card in table.cards)
    return HintTable(tuple(h for h in table.hints if h in keep_set), cards, table.card_names)


# --- sure parts --------------------------------------------------------------------------


def certifies(card_masks: Sequence[int], part: int) -> bool:
    """Source, 'each set ... definitely contains at least one valid hint': every identity meets the part."""
    return all(identity & part for identity in card_masks)


def sure_masks(table: HintTable) -> np.ndarray:
    """Boolean array over all 2^H hint subsets: is the subset sure to contain a valid hint?"""
    subsets = np.arange(1 << len(table.hints), dtype=np.int64)
    sure = np.zeros(subsets.size, dtype=bool)
    for card in table.masks:
        certified = np.ones(subsets.size, dtype=bool)
        for identity in card:
            certified &= (subsets & identity) != 0
        sure |= certified
    return sure


def is_sure(table: HintTable, part: Iterable[str]) -> bool:
    """Is `part` (hint names) sure to contain a valid hint, whatever the hand?"""
    mask = _mask(table, part)
    return any(certifies(card, mask) for card in table.masks)


def minimal_sure_sets(table: HintTable) -> list[int]:
    """The inclusion-minimal sure subsets of hints, as bitmasks (the sets worth packing)."""
    sure = sure_masks(table)
    minimal = []
    for mask in np.flatnonzero(sure):
        mask = int(mask)
        if not any(sure[mask & ~(1 << b)] for b in _bits(mask)):
            minimal.append(mask)
    return minimal


def _bits(mask: int) -> list[int]:
    return [b for b in range(mask.bit_length()) if mask >> b & 1]


def _mask(table: HintTable, part: Iterable[str]) -> int:
    index = {h: i for i, h in enumerate(table.hints)}
    try:
        return sum(1 << index[h] for h in set(part))
    except KeyError as err:
        raise ValueError(f"unknown hint {err.args[0]!r}; hints are {list(table.hints)}") from None


# --- exact maximum packings --------------------------------------------------------------


def packing_dp(table: HintTable) -> list[int]:
    """A maximum family of disjoint sure sets by DP over subsets of hints (3^H)."""
    sure_min = minimal_sure_sets(table)
    by_low: dict[int, list[int]] = {}
    for s in sure_min:
        by_low.setdefault(s & -s, []).append(s)
    full = (1 << len(table.hints)) - 1
    best = [0] * (full + 1)
    choice = [0] * (full + 1)  # 0: lowest hint left unused
    for mask in range(1, full + 1):
        low = mask & -mask
        best[mask], choice[mask] = best[mask ^ low], 0
        for s in by_low.get(low, ()):
            if s & mask == s and 1 + best[mask ^ s] > best[mask]:
                best[mask], choice[mask] = 1 + best[mask ^ s], s
    parts, mask = [], full
    while mask:
        s = choice[mask]
        if s:
            parts.append(s)
            mask ^= s
        else:
            mask ^= mask & -mask
    return parts


def packing_cp_sat(table: HintTable, time_limit: float = 60.0) -> list[int]:
    """A maximum family of disjoint sure sets: set packing over minimal sure sets with CP-SAT."""
    sets = minimal_sure_sets(table)
    model = cp_model.CpModel()
    pick = [model.NewBoolVar(f"s{i}") for i in range(len(sets))]
    for b in range(len(table.hints)):
        model.AddAtMostOne(p for p, s in zip(pick, sets) if s >> b & 1)
    model.Maximize(sum(pick))
    result = solvers.solve(model, time_limit=time_limit)
    if not result.optimal:
        raise ValueError(f"CP-SAT did not prove optimality within {time_limit} s ({result.status})")
    return [s for p, s in zip(pick, sets) if result.value(p)]


def packing_brute(table: HintTable) -> list[int]:
    """The source's brute force: the largest set of rows whose possibilities are pairwise disjoint."""
    rows = []
    for name, card in zip(table.card_names, table.masks):
        if any(identity & (identity - 1) for identity in card):
            raise ValueError(f"brute force needs a colour-only table; card {name!r} has two-hint identities")
        rows.append(sum(card))
    for size in range(len(rows), 0, -1):
        for chosen in itertools.combinations(rows, size):
            if sum(chosen) == _or(chosen):  # disjoint rows: no bit counted twice
                return list(chosen)
    return []


def _or(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


_PACKERS = {"dp": packing_dp, "cp-sat": packing_cp_sat, "brute": packing_brute}


def max_hint_partition(table: HintTable, method: str = "dp") -> list[set[str]]:
    """Source, 'Solution': a maximum-cardinality partition of the hints into sure parts.

    Untouched hints are dealt to the parts, each to the currently smallest part (first on
    ties), so parts stay balanced; any placement keeps every part sure.
    """
    if method not in _PACKERS:
        raise ValueError(f"unknown method {method!r}; choose one of {list(METHODS)}")
    packed = sorted(_PACKERS[method](table), key=lambda m: m & -m)
    if not packed:  # cannot happen for a valid table: the full hint set is always sure
        raise ValueError("no sure part exists")
    parts = [set(hint_names(table, m)) for m in packed]
    for hint in hint_names(table, ((1 << len(table.hints)) - 1) & ~_or(packed)):
        min(parts, key=len).add(hint)
    order = {h: i for i, h in enumerate(table.hints)}
    return sorted(parts, key=lambda p: min(order[h] for h in p))


def hint_names(table: HintTable, mask: int) -> list[str]:
    return [table.hints[b] for b in _bits(mask)]


def partition_size(table: HintTable, method: str = "dp") -> int:
    """The number of parts of a maximum partition (the number of distinct messages a hint can carry)."""
    return len(max_hint_partition(table, method))


# --- independent semantic checks ---------------------------------------------------------


def possible_hands(table: HintTable) -> Iterable[tuple[Identity, ...]]:
    """Every hand consistent with the table: one identity per card (cards independent)."""
    return itertools.product(*(sorted(card, key=sorted) for card in table.cards))


def part_is_sure_by_hands(table: HintTable, part: Iterable[str]) -> bool:
    """Semantic definition: in every possible hand some card is touched by a hint of `part`."""
    part = set(part)
    return all(any(identity & part for identity in hand) for hand in possible_hands(table))


def set_partitions(items: Sequence[str]) -> Iterable[list[list[str]]]:
    """Every partition of `items` into non-empty blocks (Bell-number many)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in set_partitions(rest):
        for i in range(len(smaller)):
            yield smaller[:i] + [[first, *smaller[i]]] + smaller[i + 1 :]
        yield [[first], *smaller]


def max_partition_by_enumeration(table: HintTable) -> int:
    """The largest partition all of whose parts are sure by the semantic definition (tiny tables)."""
    return max(
        len(p) for p in set_partitions(list(table.hints)) if all(part_is_sure_by_hands(table, b) for b in p)
    )


def hint_validity(table: HintTable) -> pd.DataFrame:
    """Source, 'red is definitely a valid hint ... blue definitely not': in how many possible hands is each hint legal?"""
    hands = list(possible_hands(table))
    rows = []
    for hint in table.hints:
        legal = sum(any(hint in identity for identity in hand) for hand in hands)
        status = "always" if legal == len(hands) else "never" if legal == 0 else "sometimes"
        rows.append({"hint": hint, "legal_in_hands": legal, "hands": len(hands), "status": status})
    return pd.DataFrame(rows)


def fewest_legal_hints(table: HintTable) -> tuple[int, tuple[Identity, ...]]:
    """Source, 'the hand could be only red and yellow cards': the fewest legal hints over possible hands.

    Parts are disjoint and each holds a legal hint, so this bounds every partition from above.
    """
    best = min(possible_hands(table), key=lambda hand: len(set().union(*hand)))
    return len(set().union(*best)), best


def first_fit_rows(table: HintTable) -> list[int]:
    """Source, 'once we find our maximal disjoint set': rows taken top to bottom while disjoint.

    The result is maximal (no row can be added) but need not be maximum.
    """
    chosen: list[int] = []
    taken = 0
    for name, card in zip(table.card_names, table.masks):
        if any(identity & (identity - 1) for identity in card):
            raise ValueError(f"first fit over rows needs a colour-only table; card {name!r} has two-hint identities")
        row = _or(card)
        if not row & taken:
            chosen.append(row)
            taken |= row
    return chosen


def escaping_identities(card: Card, part: Iterable[str]) -> set[tuple[str, str]]:
    """Identities of `card`'s colour-by-value rectangle that no hint of `part` touches.

    A card certifies `part` iff none of these is still possible: with hints alone the card is
    the whole rectangle, so it certifies only supersets of its colours or of its values; card
    counting can punch the escaping identities out and certify a mixed part.
    """
    part = set(part)
    colours, values = rectangle(card)
    return {(c, v) for c in colours - part for v in values - part}


def rectangle(card: Card) -> tuple[set[str], set[str]]:
    """The colours and the values a full-Hanabi card may have (its knowledge is within their product)."""
    return {h for i in card for h in i if h in COLOURS}, {h for i in card for h in i if h in VALUES}


def holes(card: Card) -> set[tuple[str, str]]:
    """The identities of the card's colour-by-value rectangle that it can no longer be."""
    colours, values = rectangle(card)
    return {(c, v) for c in colours for v in values} - {_pair(i) for i in card}


def _pair(identity: Identity) -> tuple[str, str]:
    colour = next(h for h in identity if h in COLOURS)
    value = next(h for h in identity if h in VALUES)
    return colour, value


def describe_cards(table: HintTable) -> pd.DataFrame:
    """Each card's possible identities in short form (R3 = red 3), and the identities counted out."""
    def short(pairs: Iterable[tuple[str, str]]) -> str:
        return " ".join(sorted(f"{c[0]}{v}" for c, v in pairs)) or "–"

    return pd.DataFrame(
        {"may be": [short(_pair(i) for i in card) for card in table.cards],
         "holes in its rectangle": [short(holes(card)) for card in table.cards]},
        index=list(table.card_names),
    )


def mixing_gain_example(
    public_cards: int = 35, seed: int = 2018, max_tries: int = 20000
) -> tuple[HintTable, list[tuple[str, str]], int]:
    """The first seeded realistic game state (hand 4 or 5, 0-8 hints) where mixing beats colours + values.

    Returns the table, the true hand and the number of hints it received.
    """
    rng = np.random.default_rng(seed)
    for _ in range(max_tries):
        hand_size, received = int(rng.integers(4, 6)), int(rng.integers(0, 9))
        table, hand = random_knowledge(hand_size, received, rng, public_cards)
        result = compare_hinting(table)
        if result["mixed"] > result["separate"]:
            return table, hand, received
    raise ValueError(f"no state where mixing helps in {max_tries} tries with {public_cards} cards face up")


# --- realistic random Hanabi knowledge ---------------------------------------------------


def hanabi_deck() -> list[tuple[str, str]]:
    """The 50-card Hanabi deck: per colour three 1s, two each of 2-4, one 5."""
    return [(c, str(v)) for c in COLOURS for v, n in COPIES.items() for _ in range(n)]


def random_knowledge(
    hand_size: int, hints_received: int, rng: np.random.Generator, public_cards: int = 0
) -> tuple[HintTable, list[tuple[str, str]]]:
    """A random hand and the public knowledge about it after `hints_received` true hints.

    The hand is drawn from the 50-card deck and `public_cards` other cards are face up
    (discarded or played). Each hint names a colour or value present in the hand; touched
    cards learn they have it, untouched cards that they do not (Hanabi's negative
    information). Card counting removes every identity whose copies are all face up.
    """
    deck = hanabi_deck()
    if not 1 <= hand_size <= 10:
        raise ValueError(f"hand size must be between 1 and 10, got {hand_size}")
    if hints_received < 0:
        raise ValueError(f"hints received must be non-negative, got {hints_received}")
    if not 0 <= public_cards <= len(deck) - hand_size:
        raise ValueError(f"public cards must be between 0 and {len(deck) - hand_size}, got {public_cards}")
    order = rng.permutation(len(deck))
    hand = [deck[i] for i in order[:hand_size]]
    face_up = Counter(deck[i] for i in order[hand_size : hand_size + public_cards])
    counted_out = {ident for ident, n in face_up.items() if n == COPIES[int(ident[1])]}
    everything = {(c, v) for c in COLOURS for v in VALUES} - counted_out
    possible = [set(everything) for _ in hand]
    for _ in range(hints_received):
        present = sorted({c for c, _ in hand} | {v for _, v in hand})
        hint = present[rng.integers(len(present))]
        for card, options in zip(hand, possible):
            options &= {ident for ident in options if (hint in ident) == (hint in card)}
    return hanabi_table(possible), hand


def is_rectangular(table: HintTable) -> bool:
    """Is every card's knowledge a product (colours it may have) x (values it may have)?"""
    for card in table.cards:
        colours, values = rectangle(card)
        if len(card) != len(colours) * len(values):
            return False
    return True


def compare_hinting(table: HintTable) -> dict[str, int]:
    """Parts of a maximum partition: mixed hint space against colours and values packed separately."""
    colours = partition_size(project(table, COLOURS))
    values = partition_size(project(table, VALUES))
    return {"mixed": partition_size(table), "colours": colours, "values": values, "separate": colours + values}


# --- studies, figures and explorations ----------------------------------------------------


def hint_capacity_study(
    hand_sizes: Sequence[int] = (4, 5),
    hints: Sequence[int] = tuple(range(9)),
    public: Sequence[int] = (0, 25, 40),
    samples: int = 300,
    seed: int = 2018,
) -> pd.DataFrame:
    """Mean parts and bits (log2 parts) of maximum partitions over random realistic tables."""
    rng = np.random.default_rng(seed)
    rows = []
    grid = list(itertools.product(hand_sizes, public, hints))
    for hand_size, public_cards, received in tqdm(grid, desc="hint capacity"):
        counts = []
        for _ in range(samples):
            table, _ = random_knowledge(hand_size, received, rng, public_cards)
            counts.append({**compare_hinting(table), "rectangular": is_rectangular(table)})
        df = pd.DataFrame(counts)
        rows.append(
            {
                "hand_size": hand_size,
                "public_cards": public_cards,
                "hints_received": received,
                "samples": samples,
                "mean_parts_mixed": df["mixed"].mean(),
                "mean_parts_separate": df["separate"].mean(),
                "mean_bits_mixed": np.log2(df["mixed"]).mean(),
                "mean_bits_separate": np.log2(df["separate"]).mean(),
                "share_mixed_better": (df["mixed"] > df["separate"]).mean(),
                "share_rectangular": df["rectangular"].mean(),
            }
        )
    return pd.DataFrame(rows)


def plot_hint_capacity(study: pd.DataFrame, name: str | None = "hanabi_hint_capacity"):
    """Bits a hint can carry against hints already received, mixed space vs colours + values apart."""
    import matplotlib.pyplot as plt

    from .figures import finish

    panels = sorted(study["public_cards"].unique())
    fig, axes = plt.subplots(1, len(panels), figsize=(4.4 * len(panels), 3.6), sharey=True, squeeze=False)
    palette = plt.get_cmap("tab10").colors
    for ax, public_cards in zip(axes[0], panels):
        for k, hand_size in enumerate(sorted(study["hand_size"].unique())):
            colour = palette[k % len(palette)]
            part = study[(study.public_cards == public_cards) & (study.hand_size == hand_size)]
            ax.plot(part.hints_received, part.mean_bits_mixed, "o-", color=colour, label=f"{hand_size} cards: mixed")
            ax.plot(part.hints_received, part.mean_bits_separate, "x--", color=colour, alpha=0.7,
                    label=f"{hand_size} cards: colours + values")
        ceiling = np.log2(len(COLOURS) + len(VALUES))
        ax.axhline(ceiling, color="grey", lw=0.8, ls=":")
        ax.text(0, ceiling - 0.04, "ceiling: log2 10 (every hint its own group)", fontsize=7, color="grey", va="top")
        ax.set_title(f"{public_cards} cards face up (card counting)")
        ax.set_xlabel("hints already received by the hand")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("mean bits per hint  (log2 parts)")
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return finish(fig, name)


def explore_partition(rows: Sequence[Sequence[int]], hints: Sequence[str] = COLOURS) -> pd.DataFrame:
    """The table with each hint's part number and the part each card certifies (widget view)."""
    table = possibility_table(rows, hints)
    parts = max_hint_partition(table)
    frame = table.to_frame().replace({0: "·", 1: "1"})
    part_of = {h: i + 1 for i, p in enumerate(parts) for h in p}
    certified = []
    for card in table.masks:
        hit = [i + 1 for i, p in enumerate(parts) if certifies(card, _mask(table, p))]
        certified.append(", ".join(map(str, hit)) or "–")
    frame["certifies part"] = certified
    frame.loc["part →"] = [str(part_of[h]) for h in table.hints] + [f"{len(parts)} parts"]
    return frame


def toggle_table(rows: Sequence[Sequence[int]], hints: Sequence[str] = COLOURS):
    """A grid of toggle buttons (one per table cell) that redraws `explore_partition` on each click."""
    import ipywidgets as w
    from IPython.display import display

    from .widgets import show_safely

    buttons = [[w.ToggleButton(value=bool(v), description=h[:1], layout=w.Layout(width="42px"))
                for v, h in zip(row, hints)] for row in rows]
    out = w.Output()

    def redraw(_=None) -> None:
        out.clear_output(wait=True)
        with out:
            show_safely(explore_partition, rows=[[int(b.value) for b in r] for r in buttons], hints=hints)

    for b in itertools.chain.from_iterable(buttons):
        b.observe(redraw, names="value")
    redraw()
    display(w.HBox([w.VBox([w.HBox(r) for r in buttons]), out]))
