"""Public knowledge in Cox et al.'s hat strategies for Hanabi (2015): each card as the set of its
identities still possible (a 25-bit mask), narrowed by hints and counted out against the cards
everybody has seen, and the tests a strategy asks of a card (playable, dead, critical).

`hat_strategies` plays the strategies on this knowledge; the compiled strategies
(`hat_compiled`, `info_compiled`, with `kernels`) keep the same knowledge over bit masks.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import checks
from .model import COLOURS, COPIES, VALUES
from .game import Turn, View
from .rules import CARDS, HINTS, Rules, card_name, touches

__all__ = ["ALL_CARDS", "COPIES_OF", "HINT_CARDS", "PublicKnowledge", "RANK_ORDER",
           "checked_cards", "checked_fireworks", "checked_masks", "critical_unchecked",
           "dead_unchecked", "discarded_cards", "identities", "is_critical", "is_dead",
           "is_playable", "mask_text", "playable_unchecked"]

ALL_CARDS = (1 << CARDS) - 1  # a card nobody knows anything about: every identity possible
COPIES_OF: tuple[int, ...] = tuple(COPIES[c % 5 + 1] for c in range(CARDS))  # by card

RANK_ORDER = tuple(sorted(range(CARDS), key=lambda c: (c % 5, c // 5)))  # the 1s first
# Each hint as the set of identities it touches, by hint index (colours 0-4, values 5-9).
HINT_CARDS = tuple(sum(1 << c for c in range(CARDS) if touches(h, c)) for h in HINTS)


def identities(mask: int) -> list[int]:
    """The cards (identities) a 25-bit possibility mask allows, in card order."""
    mask = checks.integer(mask, "mask", low=0, high=ALL_CARDS)
    return [c for c in range(CARDS) if mask >> c & 1]


def mask_text(mask: int) -> str:
    """A possibility mask in short form: 'R1' when known, else 'one of R1 W1 ...' (or 'any')."""
    cards = identities(mask)
    if mask == ALL_CARDS:
        return "any card"
    names = " ".join(card_name(c) for c in sorted(cards, key=RANK_ORDER.index))
    return names if len(cards) == 1 else f"one of {names}"


def discarded_cards(discards: Sequence[int]) -> list[int]:
    counts = [0] * CARDS
    for c in discards:
        counts[c] += 1
    return counts


def checked_cards(values: object, name: str) -> tuple[int, ...]:
    """A sequence of cards (integers 0-24), checked; `name` names it in the error."""
    if not isinstance(name, str):
        raise checks.ArgumentTypeError(f"name must be a string naming the cards, got {name!r}")
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise checks.ArgumentTypeError(f"{name} must be a sequence of cards, got {values!r}")
    return checks.integers(values, name, low=0, high=CARDS - 1)


def checked_fireworks(fireworks: object) -> tuple[int, ...]:
    """The five fireworks' heights (0-5), checked."""
    if isinstance(fireworks, (str, bytes)) or not isinstance(fireworks, Sequence) \
            or len(fireworks) != len(COLOURS):
        raise checks.ArgumentTypeError(f"fireworks must be the heights of the {len(COLOURS)} "
                                       f"colours' fireworks, got {fireworks!r}")
    return checks.integers(fireworks, "fireworks", low=0, high=len(VALUES))


def checked_masks(masks: object, name: str = "masks") -> list[int]:
    """A hand's possibility masks (each a non-empty set of identities), checked."""
    if isinstance(masks, (str, bytes)) or not isinstance(masks, Sequence) or not masks:
        raise checks.ArgumentTypeError(f"{name} must be a non-empty sequence of possibility "
                                       f"masks, got {masks!r}")
    return list(checks.integers(masks, name, low=1, high=ALL_CARDS))


def playable_unchecked(card: int, fireworks: Sequence[int]) -> bool:
    return fireworks[card // 5] == card % 5


def dead_unchecked(card: int, fireworks: Sequence[int], thrown: Sequence[int]) -> bool:
    """`is_dead` with the discards already counted per card (`thrown`)."""
    colour, value = card // 5, card % 5
    if value < fireworks[colour]:
        return True
    return any(thrown[5 * colour + v] == COPIES_OF[5 * colour + v]
               for v in range(fireworks[colour], value))


def critical_unchecked(card: int, fireworks: Sequence[int], thrown: Sequence[int]) -> bool:
    return not dead_unchecked(card, fireworks, thrown) and thrown[card] == COPIES_OF[card] - 1


def is_playable(card: int, fireworks: Sequence[int]) -> bool:
    """Is the card the next one on its colour's firework?"""
    return playable_unchecked(checks.integer(card, "card", low=0, high=CARDS - 1),
                              checked_fireworks(fireworks))


def is_dead(card: int, fireworks: Sequence[int], discards: Sequence[int]) -> bool:
    """Can the card never be played: its value is on the firework already, or a lower card of
    its colour still needed is all discarded?"""
    card = checks.integer(card, "card", low=0, high=CARDS - 1)
    thrown = discarded_cards(checked_cards(discards, "discards"))
    return dead_unchecked(card, checked_fireworks(fireworks), thrown)


def is_critical(card: int, fireworks: Sequence[int], discards: Sequence[int]) -> bool:
    """Is the card still needed and its last copy (every other copy discarded)?"""
    card = checks.integer(card, "card", low=0, high=CARDS - 1)
    thrown = discarded_cards(checked_cards(discards, "discards"))
    return critical_unchecked(card, checked_fireworks(fireworks), thrown)


def _used(fireworks: Sequence[int], discards: Sequence[int]) -> list[int]:
    """Copies of each card that left the game: played (the fireworks) or discarded."""
    used = discarded_cards(discards)
    for colour, height in enumerate(fireworks):
        for v in range(height):
            used[5 * colour + v] += 1
    return used


def _count_out(masks: list[list[int]], seen: Sequence[int]) -> None:
    """Card counting, in place: a card whose every copy is seen (`seen`, plus the cards the
    masks pin down) is struck from every mask not yet down to one card; repeat until stable."""
    while True:
        observed = list(seen)
        for hand in masks:
            for m in hand:
                if m & (m - 1) == 0:
                    observed[m.bit_length() - 1] += 1
        gone = sum(1 << c for c in range(CARDS) if observed[c] >= COPIES_OF[c])
        changed = False
        for hand in masks:
            for s, m in enumerate(hand):
                if m & (m - 1) and m & gone:
                    hand[s] = m & ~gone
                    changed = True
        if not changed:
            return


class PublicKnowledge:
    """What everybody knows about every card in every hand: its possible identities (a mask).

    Updated by what all players see (the identities a hint touches or misses, cards leaving,
    cards drawn), by card counting, and by the hat step (`narrow`).
    """

    def __init__(self, rules: Rules) -> None:
        if not isinstance(rules, Rules):
            raise checks.ArgumentTypeError(f"rules must be a Rules, got {rules!r}")
        self.masks = [[ALL_CARDS] * rules.hand_size for _ in range(rules.players)]

    def observe(self, turn: Turn, fireworks: Sequence[int], discards: Sequence[int]) -> None:
        """Apply what a turn showed everybody; `fireworks` and `discards` are after it."""
        move = turn.move
        if move.kind == "hint":
            hint = HINT_CARDS[HINTS.index(move.hint)]
            hand = self.masks[move.target]
            for s in range(len(hand)):
                hand[s] &= hint if s in turn.touched else ~hint & ALL_CARDS
        else:
            del self.masks[turn.player][move.slot]
            if turn.drew:
                self.masks[turn.player].append(ALL_CARDS)
        self.count(fireworks, discards)

    def narrow(self, player: int, slot: int, allowed: int) -> None:
        """Keep only the identities in `allowed` for one card (what a hat value told)."""
        self.masks[player][slot] &= allowed

    def count(self, fireworks: Sequence[int], discards: Sequence[int]) -> None:
        """Card counting over all hands, with the cards that left the game."""
        _count_out(self.masks, _used(fireworks, discards))

    def remaining(self, fireworks: Sequence[int], discards: Sequence[int]) -> list[int]:
        """Copies of each card not yet accounted for publicly (not gone, not pinned in a hand)."""
        left = [COPIES_OF[c] - u for c, u in enumerate(_used(fireworks, discards))]
        for hand in self.masks:
            for m in hand:
                if m & (m - 1) == 0:
                    left[m.bit_length() - 1] -= 1
        return left

    def own(self, view: View) -> list[int]:
        """The viewing player's own cards as he knows them: the public masks with every card he
        sees (the other hands too) counted out."""
        if not isinstance(view, View):
            raise checks.ArgumentTypeError(f"view must be a View (hanabi.game.Game.view), got {view!r}")
        if view.player >= len(self.masks) or len(self.masks[view.player]) != view.hand_size:
            raise ValueError(f"the view of player {view.player} is not of this knowledge's game")
        seen = _used(view.fireworks, view.discards)
        for hand in view.others.values():
            for c in hand:
                seen[c] += 1
        mine = [list(self.masks[view.player])]
        _count_out(mine, seen)
        return mine[0]
