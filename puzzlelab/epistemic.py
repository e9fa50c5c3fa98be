"""Explicit Kripke models for S5 epistemic logic with public announcements (puzzle-agnostic).

A model is a finite set of *worlds* and, for each *agent*, an *observation* function:
two worlds are indistinguishable for an agent exactly when the agent observes the same
value in both (so every accessibility relation is an equivalence, as in S5). A
*proposition* is the frozenset of worlds where it is true. The operators follow
van Ditmarsch, van der Hoek & Kooi, *Dynamic Epistemic Logic* (2007), ch. 2-4:

- ``knows(agent, p)``            K_agent p
- ``knows_value(agent, f)``      the agent knows the value of the function f
- ``common_knowledge(group, p)`` C_group p  (p holds in the whole connected component)
- ``announce(p)``                the public announcement [p]: the model restricted to p

Example (two coins, Ann sees the first, Bob the second)::

    m = KripkeModel.from_observations(
        [(x, y) for x in "HT" for y in "HT"], {"ann": lambda w: w[0], "bob": lambda w: w[1]})
    heads1 = m.prop(lambda w: w[0] == "H")
    m.knows("ann", heads1) == heads1     # True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from . import checks

__all__ = ["Agent", "KripkeModel", "Prop", "World"]

World = Hashable
Agent = Hashable
Prop = frozenset


@dataclass(frozen=True, repr=False)
class KripkeModel:
    """Worlds plus, per agent, a partition of the worlds into information cells."""

    worlds: frozenset
    cells: Mapping[Agent, Mapping[World, frozenset]]  # agent -> world -> its cell

    def __post_init__(self) -> None:
        checks.record(self)  # the kinds; `from_observations` makes the partitions

    def __repr__(self) -> str:
        """Its size, not its cells: every world's cell in full grows as worlds squared (45,045
        deals of (6, 1, 8) printed for minutes)."""
        return f"KripkeModel({len(self.worlds)} worlds, agents {list(self.cells)})"

    @classmethod
    def from_observations(
        cls, worlds: Iterable[World], observe: Mapping[Agent, Callable[[World], Any]]
    ) -> "KripkeModel":
        """Build a model where `agent` cannot tell apart worlds with equal `observe[agent](w)`."""
        ws = list(dict.fromkeys(worlds))
        if not ws:
            raise ValueError("a Kripke model needs at least one world")
        if not observe:
            raise ValueError("a Kripke model needs at least one agent")
        cells: dict[Agent, dict[World, frozenset]] = {}
        for agent, f in observe.items():
            groups: dict[Any, list] = {}
            for w in ws:
                groups.setdefault(f(w), []).append(w)
            cells[agent] = {w: cell for g in groups.values() for cell in [frozenset(g)] for w in g}
        return cls(frozenset(ws), cells)

    # -- propositions -------------------------------------------------------------------
    @property
    def agents(self) -> tuple:
        """The agents of the model, in insertion order."""
        return tuple(self.cells)

    def prop(self, predicate: Callable[[World], bool]) -> Prop:
        """The proposition (set of worlds) where `predicate` holds."""
        return frozenset(w for w in self.worlds if predicate(w))

    def everywhere(self, p: Prop) -> bool:
        """True when `p` holds in every world of the model (validity in the model)."""
        return self.worlds <= p

    def _agent(self, agent: Agent) -> Mapping[World, frozenset]:
        if agent not in self.cells:
            raise ValueError(f"unknown agent {agent!r}; the model has {list(self.cells)}")
        return self.cells[agent]

    def cell(self, agent: Agent, w: World) -> frozenset:
        """The worlds `agent` considers possible at `w`."""
        cells = self._agent(agent)
        if w not in cells:
            raise ValueError(f"{w!r} is not a world of the model")
        return cells[w]

    # -- epistemic operators -----------------------------------------------------------
    def knows(self, agent: Agent, p: Prop) -> Prop:
        """K_agent p: the worlds whose whole information cell lies inside `p`."""
        cells = self._agent(agent)
        return frozenset(w for w, c in cells.items() if c <= p)

    def considers_possible(self, agent: Agent, p: Prop) -> Prop:
        """M_agent p = not K_agent not p: worlds whose cell meets `p`."""
        cells = self._agent(agent)
        return frozenset(w for w, c in cells.items() if c & p)

    def knows_value(self, agent: Agent, f: Callable[[World], Any]) -> Prop:
        """Worlds where `agent` knows the value of `f` (f is constant on the agent's cell)."""
        cells = self._agent(agent)
        memo: dict[frozenset, bool] = {}
        out = []
        for w, c in cells.items():
            if c not in memo:
                memo[c] = len({f(v) for v in c}) == 1
            if memo[c]:
                out.append(w)
        return frozenset(out)

    def components(self, group: Iterable[Agent]) -> dict[World, frozenset]:
        """Each world's connected component under the union of the group's relations."""
        group = list(group) or list(self.cells)
        parent = {w: w for w in self.worlds}

        def find(x: World) -> World:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for agent in group:
            for c in set(self._agent(agent).values()):
                first, *rest = c
                for v in rest:
                    parent[find(v)] = find(first)
        comps: dict[World, set] = {}
        for w in self.worlds:
            comps.setdefault(find(w), set()).add(w)
        frozen = {root: frozenset(ws) for root, ws in comps.items()}
        return {w: frozen[find(w)] for w in self.worlds}

    def common_knowledge(self, group: Iterable[Agent], p: Prop) -> Prop:
        """C_group p: worlds whose whole component (reachable by any chain of the group) is in `p`."""
        return frozenset(w for w, comp in self.components(group).items() if comp <= p)

    # -- dynamics ----------------------------------------------------------------------
    def announce(self, p: Prop) -> "KripkeModel":
        """Public announcement of `p`: keep the worlds where `p` holds, restrict every cell."""
        kept = self.worlds & p
        if not kept:
            raise ValueError("announcing a proposition that is false everywhere leaves no world")
        cells = {}
        for agent, cs in self.cells.items():
            restricted: dict[int, frozenset] = {}  # each distinct cell is cut only once
            out: dict[World, frozenset] = {}
            for w, c in cs.items():
                if w in kept:
                    if id(c) not in restricted:
                        restricted[id(c)] = c & kept
                    out[w] = restricted[id(c)]
            cells[agent] = out
        return KripkeModel(kept, cells)
