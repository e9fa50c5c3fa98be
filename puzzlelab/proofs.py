"""How a result was established: one record shape for every puzzle's exact and bounded results.

A `Proof` has a `kind` from a fixed vocabulary and a free-text `detail` for a reader. Code
decides by `kind`, never by parsing `detail`. Russian Cards verdicts, the hat optima's bounds
and the code-breaking optima all use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from . import checks

__all__ = ["KINDS", "Kind", "Proof"]

Kind = Literal["lemma", "construction", "exhaustive", "solver", "open"]
KINDS: tuple[str, ...] = get_args(Kind)


@dataclass(frozen=True)
class Proof:
    """One established fact: `kind` (lemma, construction, exhaustive, solver, open) and `detail`.

    - lemma: a proven mathematical statement applies (detail: the lemma and its numbers);
    - construction: an explicit object was built and checked (detail: which construction);
    - exhaustive: every candidate was enumerated (detail: what was searched);
    - solver: a SAT/CP/ILP solver proved it (detail: the model, its cases and the work spent);
    - open: not established (detail: what was tried and where it stopped).
    """

    kind: Kind
    detail: str = ""

    def __post_init__(self) -> None:
        checks.choice(self.kind, "proof kind", KINDS)
        checks.record(self)

    @property
    def settled(self) -> bool:
        """True for every kind but 'open'."""
        return self.kind != "open"

    # Constructors by kind: Proof.lemma("Lemma A: ..."), Proof.open("cut short after ..."), ...
    lemma = classmethod(lambda cls, detail: cls("lemma", detail))
    construction = classmethod(lambda cls, detail: cls("construction", detail))
    exhaustive = classmethod(lambda cls, detail: cls("exhaustive", detail))
    solver = classmethod(lambda cls, detail: cls("solver", detail))
    open = classmethod(lambda cls, detail: cls("open", detail))

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}" if self.detail else self.kind
