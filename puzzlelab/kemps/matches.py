"""play(): one seeded game between three strategies, with its turn-by-turn trace (group6_kemps2023,
Tables 1-3), and play_scores(), the same game without a trace."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import checks
from .cards import FULL, PLAYERS, Deck, make_deck
from .game import MAX_TURNS, Game, GameRecord, Turn
from .strategies import ABLATIONS, STRATEGIES, Agent, Move, make_agent

__all__ = ["BUILTIN", "make_agents", "new_game", "play", "play_out", "play_scores"]

BUILTIN = frozenset(STRATEGIES.values()) | frozenset(ABLATIONS.values())


def make_agents(strategies: Sequence[Any]) -> list[Agent]:
    """Three fresh agents; ValueError for a wrong number of players or an unknown strategy."""
    if isinstance(strategies, list) and len(strategies) == PLAYERS and \
            all(type(a) in BUILTIN for a in strategies) and len(set(map(id, strategies))) == PLAYERS:
        return strategies  # three built-in agents already
    if isinstance(strategies, (str, bytes)) or not isinstance(strategies, Sequence):
        raise checks.ArgumentTypeError(
            f"strategies must be a sequence of {PLAYERS} strategy names, got {strategies!r}")
    if len(strategies) != PLAYERS:
        raise ValueError(f"the report's Kemps has exactly {PLAYERS} players, "
                         f"got {len(strategies)} strategies")
    agents = [make_agent(s) for s in strategies]
    if len({id(a) for a in agents}) != PLAYERS:
        raise ValueError("pass a separate agent object for each seat")
    return agents


def new_game(agents: Sequence[Agent], seed: int, deck: Deck | Sequence[int] = FULL,
             knowledge: bool = False) -> Game:
    """Deal a game; track knowledge for the seats whose agents need it (or all, if asked)."""
    agents = make_agents(agents)
    knowledge = checks.boolean(knowledge, "knowledge")
    track = tuple(knowledge or bool(getattr(a, "needs_knowledge", False)) for a in agents)
    public = knowledge or any(getattr(a, "needs_public", False) for a in agents)
    game = Game(make_deck(deck), checks.seed(seed), track, public)
    for p, a in enumerate(agents):
        a.reset(game, p)
    if all(type(a) in BUILTIN for a in agents):
        game.agents = list(agents)  # stalemates are provable for our strategies (Game.stuck)
    return game


def play_out(game: Game, agents: Sequence[Agent], max_turns: int = MAX_TURNS) -> Game:
    """Let `agents` play `game` to its end (or the turn valve), without trace; returns the game."""
    if not isinstance(game, Game):
        raise checks.ArgumentTypeError(f"game must be a Game (from new_game), got {game!r}")
    agents = make_agents(agents)
    max_turns = checks.integer(max_turns, "max_turns", low=1)
    if not all(type(a) in BUILTIN for a in agents):
        agents = [_Checked(a) for a in agents]
    choose, step = [a.choose for a in agents], game.step
    while not game.over:
        p = game.current
        picks, discards, _ = choose[p](game, p)
        step(p, picks, discards)
        if game.turn >= max_turns and not game.over:
            game.over, game.end = True, "turn limit"
    return game


def play_scores(lineup: Sequence[Any], seed: int, deck: Deck | Sequence[int] = FULL,
                max_turns: int = MAX_TURNS) -> tuple[tuple[int, ...], int, str]:
    """(scores, turns, how it ended) of one game, without a trace (the fast form of `play`).

    Parameters
    ----------
    lineup : sequence
        Three strategies: names of `STRATEGIES` ('greedy', 'kb-greedy', 'blocking', 'tom', or
        the ablation 'bold') or agent objects, one per seat.
    seed : int
        The seed of the deal and of every reshuffle.
    deck : Deck or sequence of int
        The face values in play (default `FULL`).
    max_turns : int
        The turn valve (default `MAX_TURNS`): a game still running then ends as "turn limit".

    Returns
    -------
    tuple
        The three scores (Kemps called), the number of turns and the end: "deck exhausted",
        "stalemate" or "turn limit".

    Raises
    ------
    ValueError
        If there are not three strategies, a name is unknown, one agent object sits in two seats,
        the seed or `max_turns` is invalid, or a custom agent makes an illegal move.

    Examples
    --------
    Three Greedy players on the full deck; the same seed gives the same game as `play`:

    >>> play_scores(["greedy", "greedy", "greedy"], 0)
    ((3, 3, 3), 66, 'deck exhausted')
    >>> play(["greedy", "greedy", "greedy"], 0).scores
    (3, 3, 3)

    References
    ----------
    The game of group6_kemps2023 (source document 002), Sections 1 and 2.2.
    """
    agents = make_agents(lineup)
    game = play_out(new_game(agents, seed, deck), agents, max_turns)
    return tuple(game.scores), game.turn, game.end


class _Checked:
    """A custom agent whose moves are checked: ValueError naming the agent and the move."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", type(agent).__name__)

    def choose(self, game: Game, p: int) -> Move:
        move = self.agent.choose(game, p)
        try:
            if not isinstance(move, tuple) or len(move) != 3:
                raise ValueError("a move is a tuple (table positions, hand cards, why)")
            game.check_move(p, move[0], move[1])
        except ValueError as err:
            raise ValueError(f"agent {self.name!r} in seat {p + 1} returned the move {move!r}: "
                             f"{err}") from None
        return tuple(move[0]), tuple(move[1]), move[2]


def play(strategies: Sequence[Any], seed: int = 0, deck: Deck | Sequence[int] = FULL, *,
         max_turns: int = MAX_TURNS, trace: bool = True, knowledge: bool = False) -> GameRecord:
    """Play one game; `knowledge=True` also snapshots every knowledge base after each turn.

    Parameters
    ----------
    strategies : sequence
        Three strategy names or agent objects, one per seat (as in `play_scores`).
    seed : int
        The seed of the deal and of every reshuffle.
    deck : Deck or sequence of int
        The face values in play (default `FULL`).
    max_turns : int
        The turn valve (default `MAX_TURNS`).
    trace : bool
        Whether to keep a `Turn` per turn (the report's Tables 1-3).
    knowledge : bool
        Whether to keep every player's knowledge base and snapshot them all after each turn.

    Returns
    -------
    GameRecord
        Strategies, seed, deck, scores, turns, rounds, how it ended, the trace and the snapshots.

    Raises
    ------
    ValueError
        On a wrong number of strategies, an unknown strategy, an invalid seed, option or deck,
        or an illegal move of a custom agent (naming the agent and the move).

    Examples
    --------
    The report's three strategies on the 28 cards 2..8; in turn 12 Blocking (player 1, holding
    three 4s) takes the 2♦ that player 2 collects:

    >>> record = play(["blocking", "greedy", "greedy"], seed=0, deck=range(2, 9))
    >>> record.scores, record.end
    ((1, 0, 2), 'deck exhausted')
    >>> row = record.trace[12]
    >>> record.deck.names(row.hand), record.deck.names(row.picked), row.why
    ('6♠,4♣,4♠,4♦', '2♦', ('block', 0, 1))

    References
    ----------
    The example runs of group6_kemps2023 (source document 002), Tables 1-3; Blocking, Section
    2.4.3.
    """
    agents = make_agents(strategies)
    max_turns = checks.integer(max_turns, "max_turns", low=1)
    trace = checks.boolean(trace, "trace")
    game = new_game(agents, seed, deck, knowledge)
    rows: list[Turn] | None = [] if trace else None
    snaps = [_snapshot(game)] if knowledge else []
    movers = agents if all(type(a) in BUILTIN for a in agents) else [_Checked(a) for a in agents]
    while not game.over:
        p = game.current
        picks, discards, why = movers[p].choose(game, p)
        game.step(p, picks, discards, rows, why)
        if knowledge:
            snaps.append(_snapshot(game))
        if game.turn >= max_turns and not game.over:
            game.over, game.end = True, "turn limit"
    names = tuple(getattr(a, "name", type(a).__name__) for a in agents)
    return GameRecord(names, seed, game.deck, tuple(game.scores), game.turn, game.round, game.end,
                      rows or [], snaps)


def _snapshot(game: Game) -> dict:
    """Knowledge bases, true locations and table after a turn (for pictures and widgets)."""
    return {
        "turn": game.turn,
        "kb": [tuple(kb) for kb in game.kb],
        "public": tuple(game.public),
        "truth": tuple(game.locations()),
        "table": tuple(game.table),
        "hands": [tuple(h) for h in game.hands],
        "scores": tuple(game.scores),
    }
