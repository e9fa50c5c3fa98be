"""The hat-guessing strategies of Cox et al. (2015) for Hanabi, with the hat step in plain sight.

The hat problem played with cards. A hinter cannot say much: a hint names a player and one of
his groups of hints, so it sends one of M messages. But everybody else sees every hand except
his own, like a leprechaun who sees every hat but his own. So the hinter gives each other
player's hand a *value* (`hand_value`), sends the **sum of the values mod M** (`encode`), and
each player subtracts the values he can see from the message and is left with his own
(`decode`). One hint tells every player something at once.

Two strategies (Cox, De Silva, Deorsey, Kenter, Retter, Tobin, Mathematics Magazine 88(5),
2015), written for any player count and any way of counting the messages:

- **recommendation** (`RecommendationTeam`): a hand's value is an order, "play card i" or
  "discard card i"; 2 messages per player (a colour or a value hint to him), so it needs
  2(n - 1) >= 2 x hand size: five players.
- **information** (`InformationTeam`): everybody keeps the public knowledge of every card (its
  possible identities, `PublicKnowledge`). A hand's value is the class of one card, the one
  most likely playable, in a partition of that card's possibilities into at most M classes
  (`card_classes`); decoding narrows the card to its class. A player plays a card known to
  be playable, hints while tokens last, and otherwise discards what is least needed.

**The modulus is a packing.** The messages are the (player, group) pairs, where the groups
split the ten hint names so that every group surely touches a card of that player's hand
(`hint_groups`). `"plain"` is the published count: two groups per player, all colours and all
values. `"mixed"` is the maximum partition into sure groups of colours and values (the post's
puzzle, solved by `solvers.max_hint_partition`, odwyer2018); `"separate"` packs colours and
values apart. With nothing known the three agree (2 groups per player); knowledge makes more
groups sure, and M grows.

Where the published strategy (read from the paper and its simulator, HanSim) leaves a choice,
ours: the partition generalises the paper's 8 classes to M (dead identities one class, then
singletons in order of value, then near-equal blocks); a card is *dead* when it can never be
played (too low, or a lower card of its colour is all discarded); when no card can be
playable the first card not yet identified is told about; the hint given inside a group is
the one that rules out most possibilities; a player judges his own cards with the cards he
sees counted out. Every card and slot is an integer as in `rules`. The public knowledge and the
tests of a card are in `hat_knowledge`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import checks
from .hat_knowledge import (ALL_CARDS, COPIES_OF, HINT_CARDS, RANK_ORDER, PublicKnowledge,
                            checked_cards, checked_fireworks, checked_masks, critical_unchecked,
                            dead_unchecked, discarded_cards, identities, is_critical, is_dead,
                            is_playable, mask_text, playable_unchecked)
from .model import COLOURS, VALUES, hanabi_table, project
from .game import Game, Turn, View
from .rules import CARDS, HINTS, Move, Rules, card_name, touches
from .solvers import max_hint_partition

__all__ = [
    "ALL_CARDS", "COPIES_OF", "PACKINGS", "STRATEGIES", "HatPlan", "HatStep", "InformationTeam",
    "PublicKnowledge", "RecommendationTeam", "card_classes", "decode", "encode", "hand_value",
    "hat_plan", "hint_groups", "identities", "information_move", "is_critical", "is_dead",
    "is_playable", "mask_text", "message_of", "play", "recommendation", "target_slot",
]

PACKINGS = ("plain", "mixed", "separate")
STRATEGIES = ("information", "recommendation")


# ----- public knowledge -------------------------------------------------------------------------


# ----- the hat step -----------------------------------------------------------------------------

def target_slot(masks: Sequence[int], remaining: Sequence[int], fireworks: Sequence[int]) -> int:
    """The card a hint tells about: of the cards not yet identified, the most likely playable
    (copies not accounted for as weights; first on ties); failing that the first not
    identified; failing that the first."""
    remaining = checks.integers(remaining, "remaining", low=-CARDS, high=3)
    if len(remaining) != CARDS:
        raise ValueError(f"remaining must count the copies left of each of the {CARDS} cards")
    return _target_slot(checked_masks(masks), remaining, checked_fireworks(fireworks))


def _target_slot(masks: Sequence[int], remaining: Sequence[int], fireworks: Sequence[int]) -> int:
    best, best_p, best_t = -1, 0, 1
    for s, m in enumerate(masks):
        if m & (m - 1) == 0:
            continue
        total = sum(max(remaining[c], 0) for c in range(CARDS) if m >> c & 1)
        good = sum(max(remaining[c], 0) for c in range(CARDS)
                   if m >> c & 1 and playable_unchecked(c, fireworks))
        if total and good * best_t > best_p * total:  # good / total > best_p / best_t
            best, best_p, best_t = s, good, total
    if best >= 0:
        return best
    return next((s for s, m in enumerate(masks) if m & (m - 1)), 0)


def card_classes(mask: int, fireworks: Sequence[int], discards: Sequence[int],
                 modulus: int) -> dict[int, int]:
    """Split a card's possible identities into at most `modulus` classes (class of each card).

    Dead identities form class 0; the live ones follow in order of value (the 1s first): as
    many singletons as leave the rest in blocks of at most `modulus`, then near-equal blocks.
    """
    mask = checks.integer(mask, "mask", low=1, high=ALL_CARDS)
    modulus = checks.integer(modulus, "modulus", low=2)
    thrown = discarded_cards(checked_cards(discards, "discards"))
    return _card_classes(mask, checked_fireworks(fireworks), thrown, modulus)


def _card_classes(mask: int, fireworks: Sequence[int], thrown: Sequence[int],
                  modulus: int) -> dict[int, int]:
    cards = [c for c in RANK_ORDER if mask >> c & 1]
    dead = [c for c in cards if dead_unchecked(c, fireworks, thrown)]
    live = [c for c in cards if c not in dead]
    classes = {c: 0 for c in dead}
    first, room = (1, modulus - 1) if dead else (0, modulus)
    if len(live) <= room:
        return classes | {c: first + i for i, c in enumerate(live)}
    singles = max([i for i in range(room) if i + modulus * (room - i) >= len(live)], default=0)
    blocks, rest = room - singles, live[singles:]
    size, extra = divmod(len(rest), blocks)
    classes |= {c: first + i for i, c in enumerate(live[:singles])}
    start = 0
    for b in range(blocks):
        end = start + size + (b < extra)
        classes |= {c: first + singles + b for c in rest[start:end]}
        start = end
    return classes


def hint_groups(masks: Sequence[int], packing: str = "plain") -> list[frozenset[str]]:
    """Groups of hint names each sure to touch a card of a hand with these possibility masks.

    `plain`: all colours, all values (the published count). `mixed`: a maximum partition into
    sure groups (`solvers.max_hint_partition`). `separate`: colours and values packed apart.
    """
    masks = checked_masks(masks)
    packing = checks.choice(packing, "packing", PACKINGS)
    if packing == "plain":
        return [frozenset(COLOURS), frozenset(VALUES)]
    table = hanabi_table([[(COLOURS[c // 5], c % 5 + 1) for c in identities(m)] for m in masks])
    if packing == "mixed":
        return [frozenset(p) for p in max_hint_partition(table)]
    return [frozenset(p) for keep in (COLOURS, VALUES)
            for p in max_hint_partition(project(table, keep))]


@dataclass(frozen=True)
class HatPlan:
    """The public part of one hint: everybody computes it alike from the public knowledge."""

    hinter: int
    order: tuple[int, ...]  # the other players, from the hinter's left
    groups: dict[int, list[frozenset[str]]]  # each player's sure groups of hint names
    slots: dict[int, int]  # the card each player is told about
    classes: dict[int, dict[int, int]]  # that card's identities, split into classes

    def __post_init__(self) -> None:
        checks.record(self)  # each field of its kind
        checks.integer(self.hinter, "HatPlan.hinter", low=0)
        if self.hinter in self.order:
            raise ValueError(f"HatPlan.order lists the hinter {self.hinter} among those told")
        missing = [p for p in self.order if p not in self.groups]
        if missing:
            raise ValueError(f"HatPlan.groups lacks the players {missing} of its order")
        if set(self.slots) != set(self.classes) or not set(self.slots) <= set(self.order):
            raise ValueError("HatPlan.slots and HatPlan.classes must name the same players, "
                             "each of its order")

    @property
    def modulus(self) -> int:
        """M, the number of messages: every (player, group) pair."""
        return sum(len(self.groups[p]) for p in self.order)

    def messages(self) -> list[tuple[int, int]]:
        """Message m is the m-th (player, group index) pair, players from the hinter's left."""
        return [(p, g) for p in self.order for g in range(len(self.groups[p]))]

    def value(self, player: int, hand: Sequence[int]) -> int:
        """The value of a player's hand: the class of its told-about card."""
        if player not in self.slots:
            raise ValueError(f"this plan tells player {player} about no card")
        card = hand[self.slots[player]]
        if card not in self.classes[player]:
            raise ValueError(f"player {player}'s told-about card {card_name(card)} is not one "
                             f"the public knowledge allows: the hand is not this game's")
        return self.classes[player][card]


def hat_plan(knowledge: PublicKnowledge, hinter: int, fireworks: Sequence[int],
             discards: Sequence[int], packing: str) -> HatPlan:
    """The plan of a hint by `hinter` given the public knowledge before it."""
    if not isinstance(knowledge, PublicKnowledge):
        raise checks.ArgumentTypeError(f"knowledge must be a PublicKnowledge, got {knowledge!r}")
    n = len(knowledge.masks)
    hinter = checks.integer(hinter, "hinter", low=0, high=n - 1)
    fireworks, discards = checked_fireworks(fireworks), checked_cards(discards, "discards")
    packing = checks.choice(packing, "packing", PACKINGS)
    order = tuple((hinter + k) % n for k in range(1, n))
    groups = {p: hint_groups(knowledge.masks[p], packing) for p in order}
    modulus = sum(len(g) for g in groups.values())
    left, thrown = knowledge.remaining(fireworks, discards), discarded_cards(discards)
    slots = {p: _target_slot(knowledge.masks[p], left, fireworks) for p in order}
    classes = {p: _card_classes(knowledge.masks[p][slots[p]], fireworks, thrown, modulus)
               for p in order}
    return HatPlan(hinter, order, groups, slots, classes)


def _plan(plan: object) -> HatPlan:
    return checks.instance(plan, "plan", HatPlan, "a HatPlan (see hat_plan)")


def _view(view: object) -> View:
    return checks.instance(view, "view", View, "a View (hanabi.game.Game.view)")


def hand_value(plan: HatPlan, player: int, hand: Sequence[int]) -> int:
    """The value a hand gets (seen by all but its owner): the class of its told-about card
    (information strategy) or the order it deserves (recommendation strategy)."""
    plan = _plan(plan)
    player = checks.choice(player, "player", plan.order)
    hand = checked_cards(hand, "hand")
    if player in plan.slots and plan.slots[player] >= len(hand):
        raise ValueError(f"the told-about card is in slot {plan.slots[player]}, beyond the hand")
    return plan.value(player, hand)


def _seen_by(plan: HatPlan, view: View) -> list[int]:
    """The players of the plan whose hands the viewer sees (all but himself)."""
    missing = [p for p in plan.order if p != view.player and p not in view.others]
    if missing:
        raise ValueError(f"the view of player {view.player} lacks the hands of {missing}")
    return [p for p in plan.order if p != view.player]


def encode(plan: HatPlan, view: View) -> int:
    """The hinter's message: the sum of the values of every hand he sees, mod M."""
    plan, view = _plan(plan), _view(view)
    if view.player != plan.hinter:
        raise ValueError(f"the hinter is player {plan.hinter}, not {view.player}")
    return sum(plan.value(p, view.others[p]) for p in _seen_by(plan, view)) % plan.modulus


def decode(plan: HatPlan, message: int, view: View) -> int:
    """A player's own value: the message minus the values of the hands he sees, mod M."""
    plan, view = _plan(plan), _view(view)
    message = checks.integer(message, "message", low=0, high=plan.modulus - 1)
    if view.player not in plan.order:
        raise ValueError(f"player {view.player} is not told anything by this hint")
    seen = sum(plan.value(p, view.others[p]) for p in _seen_by(plan, view))
    return (message - seen) % plan.modulus


def message_of(plan: HatPlan, move: Move) -> int:
    """The message a hint sends: the position of (its target, the group of its hint name)."""
    plan = _plan(plan)
    if not isinstance(move, Move) or move.kind != "hint" or move.target not in plan.order:
        raise ValueError(f"move must be a hint to one of players {list(plan.order)}, "
                         f"got {move!r}")
    group = next(g for g, names in enumerate(plan.groups[move.target]) if move.hint in names)
    return plan.messages().index((move.target, group))


def _hint_in_group(plan: HatPlan, message: int, view: View, masks: list[list[int]]) -> Move:
    """A legal hint sending `message`: in its group, the one ruling out most possibilities."""
    target, group = plan.messages()[message]
    hand, best, best_out = view.others[target], None, -1
    for h, name in enumerate(HINTS):
        if name not in plan.groups[target][group]:
            continue
        touched = [touches(name, c) for c in hand]
        if not any(touched):
            continue
        out = sum(bin(m).count("1") - bin(m & (HINT_CARDS[h] if t else ~HINT_CARDS[h])).count("1")
                  for m, t in zip(masks[target], touched))
        if out > best_out:
            best, best_out = name, out
    if best is None:  # cannot happen while the public knowledge is true: the group is sure
        raise ValueError(f"no hint of group {sorted(plan.groups[target][group])} touches a card "
                         f"of player {target}: the public knowledge is wrong")
    return Move.give(target, best)


def information_move(view: View, knowledge: PublicKnowledge, packing: str = "plain",
                     max_tokens: int = 8, discard_at_max_tokens: bool = False) -> Move:
    """The information strategy's move for the player whose view this is."""
    view = _view(view)
    if not isinstance(knowledge, PublicKnowledge):
        raise checks.ArgumentTypeError(f"knowledge must be a PublicKnowledge, got {knowledge!r}")
    packing = checks.choice(packing, "packing", PACKINGS)
    max_tokens = checks.integer(max_tokens, "max_tokens", low=1)
    discard_at_max_tokens = checks.boolean(discard_at_max_tokens, "discard_at_max_tokens")
    own = knowledge.own(view)
    fw, thrown = view.fireworks, discarded_cards(view.discards)
    known = [m.bit_length() - 1 if m & (m - 1) == 0 else -1 for m in own]
    cards_of = [[c for c in range(CARDS) if m >> c & 1] for m in own]
    for s, cards in enumerate(cards_of):  # 1. play a card known to be playable
        if all(playable_unchecked(c, fw) for c in cards):
            return Move.play(s)
    may_discard = view.tokens < max_tokens or discard_at_max_tokens
    dead = [s for s, cards in enumerate(cards_of)
            if all(dead_unchecked(c, fw, thrown) for c in cards)]
    if dead and len(view.discards) < 5 and may_discard:  # 2. early on, discard a dead card
        return Move.discard(dead[0])
    if view.tokens > 0:  # 3. hint
        plan = hat_plan(knowledge, view.player, fw, view.discards, packing)
        return _hint_in_group(plan, encode(plan, view), view, knowledge.masks)
    if dead:  # 4. discard what is least needed: a dead card, a copy a teammate holds,
        return Move.discard(dead[0])  # a known card that is not the last, an unknown card
    held = Counter(c for hand in view.others.values() for c in hand)
    for s, c in enumerate(known):
        if c >= 0 and (held[c] or known.count(c) > 1):
            return Move.discard(s)
    for s, c in enumerate(known):
        if c >= 0 and not critical_unchecked(c, fw, thrown):
            return Move.discard(s)
    return Move.discard(known.index(-1) if -1 in known else 0)


# ----- the teams --------------------------------------------------------------------------------

@dataclass
class HatStep:
    """One hint seen as a hat game: the plan, each hand's value, the message, each decoding."""

    turn: int
    plan: HatPlan
    message: int
    move: Move
    values: dict[int, int]  # each player's value, as the hinter computed it
    decoded: dict[int, int]  # each player's value, as he decoded it himself
    learned: dict[int, int] = field(default_factory=dict)  # the told-about card's mask after

    def __post_init__(self) -> None:
        checks.record(self)  # each field of its kind
        checks.integer(self.turn, "HatStep.turn", low=0)
        checks.integer(self.message, "HatStep.message", low=0)


class InformationTeam:
    """Every seat playing the information strategy, with one public knowledge (common to all)."""

    def __init__(self, game: Game, packing: str = "plain") -> None:
        if not isinstance(game, Game):
            raise checks.ArgumentTypeError(f"game must be a hanabi Game (puzzlelab.hanabi.game), got {game!r}")
        self.game, self.packing = game, checks.choice(packing, "packing", PACKINGS)
        self.knowledge = PublicKnowledge(game.rules)
        self.steps: list[HatStep] = []

    def move(self) -> Move:
        """The current player's move."""
        g = self.game
        return information_move(g.view(g.current), self.knowledge, self.packing,
                                g.rules.hint_tokens, g.rules.discard_at_max_tokens)

    def turn(self) -> Turn:
        """Play one turn: move, then everybody updates the public knowledge."""
        g = self.game
        plan = None
        move = self.move()
        if move.kind == "hint":  # the plan comes from the knowledge before the hint
            plan = hat_plan(self.knowledge, g.current, g.fireworks, g.discards, self.packing)
        turn = g.apply(move)
        if plan is not None:
            self._hat_step(turn, plan)
        self.knowledge.observe(turn, g.fireworks, g.discards)
        return turn

    def _hat_step(self, turn: Turn, plan: HatPlan) -> None:
        """Each player decodes his own value from what he sees; every told-about card narrows."""
        g, message = self.game, message_of(plan, turn.move)
        values = {p: hand_value(plan, p, g.hands[p]) for p in plan.order}
        decoded = {p: decode(plan, message, g.view(p)) for p in plan.order}
        for p in plan.order:
            allowed = sum(1 << c for c, k in plan.classes[p].items() if k == decoded[p])
            self.knowledge.narrow(p, plan.slots[p], allowed)
        learned = {p: self.knowledge.masks[p][plan.slots[p]] for p in plan.order}
        self.steps.append(HatStep(turn.turn, plan, message, turn.move, values, decoded, learned))

    def play(self) -> Game:
        """Play to the end; the finished game."""
        while not self.game.over:
            self.turn()
        return self.game


def recommendation(hand: Sequence[int], fireworks: Sequence[int],
                   discards: Sequence[int]) -> int:
    """A hand's value under the recommendation strategy: slot i to play (i), or to discard
    (hand size + i). Play a playable card (a 5 first, else the lowest); else discard a dead
    card, else the highest card that is not a last copy, else the newest card."""
    hand = checked_cards(hand, "hand")
    if not hand:
        raise ValueError("hand must hold at least one card")
    thrown = discarded_cards(checked_cards(discards, "discards"))
    return _recommendation(hand, checked_fireworks(fireworks), thrown)


def _recommendation(hand: Sequence[int], fireworks: Sequence[int], thrown: Sequence[int]) -> int:
    h = len(hand)
    order = sorted(range(h), key=lambda s: (hand[s] % 5 != 4, hand[s] % 5, hand[s] // 5))
    playable = [s for s in order if playable_unchecked(hand[s], fireworks)]
    if playable:
        return playable[0]
    for test in (lambda c: dead_unchecked(c, fireworks, thrown),
                 lambda c: not critical_unchecked(c, fireworks, thrown) and c % 5 != 4):
        chosen = [s for s in range(h) if test(hand[s])]
        if chosen:
            return h + max(chosen, key=lambda s: (hand[s] % 5, hand[s] // 5))
    return 2 * h - 1


class RecommendationTeam:
    """Every seat playing the recommendation strategy: each hint orders every other player."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, Game):
            raise checks.ArgumentTypeError(f"game must be a hanabi Game (puzzlelab.hanabi.game), got {game!r}")
        n, h = game.rules.players, game.rules.hand_size
        if 2 * (n - 1) < 2 * h:
            raise ValueError(f"the recommendation strategy needs a message per order: 2(n - 1) = "
                             f"{2 * (n - 1)} messages for {2 * h} orders with {n} players; it "
                             f"is defined for five players")
        self.game = game
        self.orders: list[int | None] = [None] * n  # each player's last order (None: none)
        self.plays_since_hint = 0
        self.steps: list[HatStep] = []

    def move(self) -> Move:
        """The current player's move: follow a fresh order to play, hint, or discard."""
        g = self.game
        p, h = g.current, len(g.hands[g.current])
        order = self.orders[p]
        if order is not None and order < h and (
                self.plays_since_hint == 0 or (self.plays_since_hint == 1 and g.fuses_left > 1)):
            return Move.play(order)
        if g.tokens > 0:
            plan, view = self._plan(p), g.view(p)
            target, kind = plan.messages()[encode(plan, view)]
            card = view.others[target][0]
            return Move.give(target, COLOURS[card // 5] if kind == 0 else VALUES[card % 5])
        if order is not None and order >= h:
            return Move.discard(order - h)
        return Move.discard(h - 1)

    def _plan(self, hinter: int) -> HatPlan:
        """Two messages per player; a hand's value is its order (computed when seen)."""
        g = self.game
        n = g.rules.players
        order = tuple((hinter + k) % n for k in range(1, n))
        groups = {q: [frozenset(COLOURS), frozenset(VALUES)] for q in order}
        return _OrderPlan(hinter, order, groups, {}, {}, tuple(g.fireworks), tuple(g.discards))

    def turn(self) -> Turn:
        """Play one turn and update everybody's orders."""
        g = self.game
        p = g.current
        move = self.move()
        plan = self._plan(p) if move.kind == "hint" else None
        turn = g.apply(move)
        if plan is not None:
            message = message_of(plan, move)
            values = {q: hand_value(plan, q, g.hands[q]) for q in plan.order}
            decoded = {q: decode(plan, message, g.view(q)) for q in plan.order}
            self.steps.append(HatStep(turn.turn, plan, message, move, values, decoded))
            self.orders = [decoded.get(q) for q in range(g.rules.players)]
            self.plays_since_hint = 0
        else:
            self.orders[p] = None
            self.plays_since_hint += turn.success
        return turn

    def play(self) -> Game:
        """Play to the end; the finished game."""
        while not self.game.over:
            self.turn()
        return self.game


@dataclass(frozen=True)
class _OrderPlan(HatPlan):
    """The recommendation strategy's plan: a hand's value is the order it deserves."""

    fireworks: tuple[int, ...] = ()
    discards: tuple[int, ...] = ()
    seen: dict = field(default_factory=dict, compare=False, repr=False)  # hand -> its order

    def value(self, player: int, hand: Sequence[int]) -> int:
        """The order a hand deserves (`recommendation`), worked out once per hand."""
        key = tuple(hand)
        if key not in self.seen:
            self.seen[key] = _recommendation(key, self.fireworks, discarded_cards(self.discards))
        return self.seen[key]


def play(rules: Rules | int, seed: int, strategy: str = "information",
         packing: str = "plain") -> InformationTeam | RecommendationTeam:
    """Play deal `seed` to the end with one strategy in every seat; the team (game and steps)."""
    strategy = checks.choice(strategy, "strategy", STRATEGIES)
    game = Game(rules, seed)
    if strategy == "recommendation":
        if packing != "plain":
            raise ValueError("the recommendation strategy sends plain messages only")
        team: InformationTeam | RecommendationTeam = RecommendationTeam(game)
    else:
        team = InformationTeam(game, packing)
    team.play()
    return team
