"""A PettingZoo-AEC-style environment for the report's Kemps (no pettingzoo dependency).

    env = KempsEnv(deck=range(2, 9))
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else my_policy(obs))

Agents are "player_1".."player_3"; actions are ints 0..209, one per exchange (a set of table
positions to pick and an equal-size set of positions in the sorted hand to discard);
observations are what that player may see: hand, table, scores, pile sizes and its own
knowledge base (see `observation_space`). Rewards: +1 to a player in the step where it
calls Kemps. As in PettingZoo, `last()` returns the reward the agent to move has collected
since its own previous step, and when the game ends every agent takes one last step with
action None (the "dead step"), so each sees its final reward before it leaves `agents`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from .. import checks
from .cards import FULL, HAND_SIZE, PLAYERS, TABLE_SIZE, Deck, make_deck
from .game import MAX_TURNS, Game
from .strategies import Agent, make_agent

__all__ = ["ACTIONS", "ACTION_INDEX", "PASS", "KempsEnv", "encode", "random_policy", "run_episode"]

ACTIONS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = tuple(
    (picks, discards)
    for k in range(HAND_SIZE + 1)
    for picks in itertools.combinations(range(TABLE_SIZE), k)
    for discards in itertools.combinations(range(HAND_SIZE), k)
)
ACTION_INDEX = {a: i for i, a in enumerate(ACTIONS)}
PASS = 0


def encode(picks: Sequence[int], discard_slots: Sequence[int]) -> int:
    """The action number of picking table positions `picks` and discarding sorted-hand slots."""
    key = (tuple(sorted(checks.integers(picks, "picks"))),
           tuple(sorted(checks.integers(discard_slots, "discard_slots"))))
    if key not in ACTION_INDEX:
        raise ValueError(f"not an exchange: picks {picks}, discard slots {discard_slots}")
    return ACTION_INDEX[key]


class KempsEnv:
    """Turn-based Kemps for three agents in the agent-environment-cycle (AEC) convention.

    Agents "player_1".."player_3"; actions 0..209, one per exchange (`ACTIONS`); observations
    and rewards as the module docstring says.

    Parameters
    ----------
    deck : Deck or sequence of int
        The face values in play (default `FULL`).
    max_turns : int
        The turn valve: the game is truncated after this many turns.

    Attributes
    ----------
    game : Game or None
        The game being played (None before `reset`).
    agents : list of str
        The agents still in the game (each leaves after its dead step).
    possible_agents : list of str
        "player_1", "player_2", "player_3".

    Raises
    ------
    ValueError
        On an invalid deck or `max_turns` below 1.

    Examples
    --------
    The report's strategies played through the environment win what they win in `play_scores`:

    >>> from puzzlelab.kemps.env import run_episode
    >>> seats = {"player_1": "greedy", "player_2": "kb-greedy", "player_3": "blocking"}
    >>> run_episode(KempsEnv(range(2, 9)), seats, seed=0)
    (1, 2, 0)
    >>> env = KempsEnv(range(2, 9))
    >>> env.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> env.agent_selection, obs["hand"], int(obs["action_mask"].sum())
    ('player_1', (4, 10, 11, 19), 210)

    References
    ----------
    The game of group6_kemps2023 (source document 002), Sections 1 and 2.2; the AEC interface of
    PettingZoo (Terry et al. 2021, PettingZoo: Gym for multi-agent reinforcement learning,
    NeurIPS 34).
    """

    metadata = {"name": "kemps_v0", "is_parallelizable": False}
    possible_agents = [f"player_{p + 1}" for p in range(PLAYERS)]

    def __init__(self, deck: Deck | Sequence[int] = FULL, max_turns: int = MAX_TURNS) -> None:
        self.deck = make_deck(deck)
        self.max_turns = checks.integer(max_turns, "max_turns", low=1)
        self.game: Game | None = None
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game from `seed` (0 if None)."""
        self.game = Game(self.deck, checks.seed(0 if seed is None else seed), (True,) * 3, True)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}

    @property
    def agent_selection(self) -> str:
        """The agent to move; once the game is over, the next agent still to take its dead step."""
        g = self._game
        if not g.over:
            return self.possible_agents[g.current]
        if not self.agents:
            raise ValueError("every agent has left the finished game; call reset(seed)")
        order = [self.possible_agents[(g.current + k) % PLAYERS] for k in range(PLAYERS)]
        return next(a for a in order if a in self.agents)

    @property
    def _game(self) -> Game:
        if self.game is None:
            raise ValueError("call reset(seed) first")
        return self.game

    def action_space(self, agent: str | None = None) -> dict:
        """The action space, described without gymnasium: Discrete(210), one int per exchange."""
        return {"type": "Discrete", "n": len(ACTIONS),
                "meaning": "ACTIONS[i] = (table positions, sorted-hand slots)"}

    def observation_space(self, agent: str | None = None) -> dict:
        """The observation dict, field by field (a description in place of a gymnasium Dict
        space)."""
        n = self.deck.n
        return {
            "hand": f"tuple of <= {HAND_SIZE} card ids in 0..{n - 1}, sorted",
            "table": f"tuple of {TABLE_SIZE} card ids in 0..{n - 1}",
            "scores": f"tuple of {PLAYERS} ints >= 0",
            "deck_size": "int >= 0", "discard_size": "int >= 0", "turn": "int >= 0",
            "knowledge": f"tuple of {n} ints in 0..15: bit 0 'with nobody', "
                         "bit p+1 'player p+1 holds it'",
            "action_mask": f"int8 array of shape ({len(ACTIONS)},), 1 for a legal action",
        }

    def legal_actions(self, agent: str | None = None) -> list[int]:
        """Every exchange is legal while the hand holds four cards (the report's rule)."""
        g = self._game
        if g.over:
            return []
        return list(range(len(ACTIONS)))

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """1 for each legal action (all of them while the game runs), as an int8 array."""
        mask = np.zeros(len(ACTIONS), dtype=np.int8)
        mask[self.legal_actions(agent)] = 1
        return mask

    def observe(self, agent: str) -> dict:
        """What `agent` sees: its sorted hand, the table, scores, pile sizes, its knowledge, the
        mask."""
        g, p = self._game, self._seat(agent)
        return {
            "hand": tuple(sorted(g.hands[p])), "table": tuple(g.table), "scores": tuple(g.scores),
            "deck_size": len(g.pile), "discard_size": len(g.discard), "turn": g.turn,
            "knowledge": tuple(g.kb[p]), "action_mask": self.action_mask(agent),
        }

    def last(self) -> tuple[dict, int, bool, bool, dict]:
        """(observation, reward since its last step, termination, truncation, info) of the agent
        to move."""
        a = self.agent_selection
        return (self.observe(a), self._cumulative_rewards[a], self.terminations[a],
                self.truncations[a], self.infos[a])

    def agent_iter(self, max_iter: int = 10**6) -> Iterator[str]:
        """Yield the agent to move until every agent has left the finished game."""
        for _ in range(checks.integer(max_iter, "max_iter", low=0)):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action: int | None) -> None:
        """Play `action` (an int in 0..209) for the agent to move; None is the dead step after
        the end."""
        g = self._game
        agent = self.agent_selection
        if g.over:
            if action is not None:
                raise ValueError(
                    f"the game is over: {agent} must step with None (or call reset(seed))")
            self.agents.remove(agent)  # the dead step: the agent has seen its final reward
            return
        action = checks.integer(action, "action", low=0, high=len(ACTIONS) - 1)
        p = g.current
        picks, slots = ACTIONS[action]
        hand = sorted(g.hands[p])
        before = list(g.scores)
        g.step(p, picks, [hand[i] for i in slots])
        self._cumulative_rewards[agent] = 0  # PettingZoo: an agent's tally restarts when it acts
        for q, a in enumerate(self.possible_agents):
            self.rewards[a] = g.scores[q] - before[q]
            self._cumulative_rewards[a] += self.rewards[a]
        if not g.over and g.turn >= self.max_turns:
            g.over, g.end = True, "turn limit"
            self.truncations = {a: True for a in self.agents}
        elif g.over:
            self.terminations = {a: True for a in self.agents}

    def action_of(self, strategy_agent: Agent, agent: str | None = None) -> int:
        """The action a built-in strategy (e.g. Greedy()) would take now: plug the report's
        agents in."""
        g = self._game
        p = g.current if agent is None else self._seat(agent)
        picks, discards, _ = strategy_agent.choose(g, p)
        hand = sorted(g.hands[p])
        return encode(picks, [hand.index(c) for c in discards])

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        return self.possible_agents.index(agent)


def random_policy(seed: int, pass_rate: float = 0.0) -> Callable[[dict], int]:
    """A seeded policy that passes with probability `pass_rate` and else plays a uniformly random
    legal action (the simplest plug-in agent)."""
    rng = np.random.default_rng(checks.seed(seed))
    pass_rate = checks.number(pass_rate, "pass_rate", low=0.0, high=1.0)

    def policy(obs: dict) -> int:
        if pass_rate and rng.random() < pass_rate:
            return PASS
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))

    return policy


def run_episode(env: KempsEnv, policies: Mapping[str, Any], seed: int) -> tuple[int, ...]:
    """Play one game in `env`; policies maps agent name -> a policy(obs) or a strategy name.

    Returns each agent's total reward, summed from what `last()` hands it (the final scores).
    """
    if not isinstance(env, KempsEnv):
        raise checks.ArgumentTypeError(f"env must be a KempsEnv, got {env!r}")
    if not isinstance(policies, Mapping) or set(policies) != set(env.possible_agents):
        raise ValueError(
            f"policies must map each of {env.possible_agents} to a policy, got {policies!r}")
    env.reset(seed=seed)
    seats = {}
    for p, name in enumerate(env.possible_agents):
        pol = policies[name]
        if not isinstance(pol, str) and not callable(pol):
            raise checks.ArgumentTypeError(
                f"policy of {name} must be a strategy name or a function")
        if isinstance(pol, str):
            agent = make_agent(pol)
            agent.reset(env.game, p)
            seats[name] = lambda obs, a=agent, n=name: env.action_of(a, n)
        else:
            seats[name] = pol
    total = {a: 0 for a in env.possible_agents}
    for name in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[name] += reward
        env.step(None if terminated or truncated else seats[name](obs))
    return tuple(total[a] for a in env.possible_agents)
