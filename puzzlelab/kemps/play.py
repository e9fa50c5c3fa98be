"""play(): one seeded game between three strategies, with its turn-by-turn trace (report Tables 1-3)."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import FULL, PLAYERS, make_deck
from .engine import MAX_TURNS, Game, GameRecord
from .strategies import ABLATIONS, STRATEGIES, make_agent

BUILTIN = frozenset(STRATEGIES.values()) | frozenset(ABLATIONS.values())


def make_agents(strategies: Sequence) -> list:
    """Three fresh agents; ValueError for a wrong number of players or an unknown strategy."""
    if isinstance(strategies, str) or not isinstance(strategies, Sequence):
        raise ValueError(f"strategies must be a sequence of {PLAYERS} strategy names, got {strategies!r}")
    if len(strategies) != PLAYERS:
        raise ValueError(f"the report's Kemps has exactly {PLAYERS} players, got {len(strategies)} strategies")
    agents = [make_agent(s) for s in strategies]
    if len({id(a) for a in agents}) != PLAYERS:
        raise ValueError("pass a separate agent object for each seat")
    return agents


def check_seed(seed) -> int:
    """Seeds are non-negative ints."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    return seed


def check_max_turns(max_turns) -> int:
    """The turn valve is a positive int."""
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
        raise ValueError(f"max_turns must be a positive int, got {max_turns!r}")
    return max_turns


def new_game(agents, seed: int, deck, knowledge: bool = False) -> Game:
    """Deal a game; track knowledge for the seats whose agents need it (or all, if asked)."""
    track = tuple(knowledge or a.needs_knowledge for a in agents)
    public = knowledge or any(getattr(a, "needs_public", False) for a in agents)
    game = Game(make_deck(deck), check_seed(seed), track, public)
    for p, a in enumerate(agents):
        a.reset(game, p)
    if all(type(a) in BUILTIN for a in agents):
        game.agents = list(agents)  # stalemates are provable only for strategies we know (engine.Game.stuck)
    return game


def play_out(game: Game, agents, max_turns: int = MAX_TURNS) -> Game:
    """Let built-in `agents` play `game` to its end (or the turn valve), without trace; returns the game."""
    while not game.over:
        p = game.current
        picks, discards, _ = agents[p].choose(game, p)
        game.step(p, picks, discards)
        if game.turn >= max_turns and not game.over:
            game.over, game.end = True, "turn limit"
    return game


def play(strategies: Sequence, seed: int = 0, deck=FULL, *, max_turns: int = MAX_TURNS,
         trace: bool = True, knowledge: bool = False) -> GameRecord:
    """Play one game; `knowledge=True` also snapshots every knowledge base after each turn."""
    agents = make_agents(strategies)
    check_max_turns(max_turns)
    game = new_game(agents, seed, deck, knowledge)
    rows = [] if trace else None
    snaps = []
    builtin = all(type(a) in BUILTIN for a in agents)  # other agents' moves are checked
    if knowledge:
        snaps.append(_snapshot(game))
    while not game.over:
        p = game.current
        picks, discards, why = agents[p].choose(game, p)
        if not builtin:
            game.check_move(p, picks, discards)
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
