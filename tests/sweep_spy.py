"""A spy on a sweep's task: records the first deal of every block it plays and can interrupt the
run at a given call, for the tests that blocks are sized as promised and that runs resume."""

from __future__ import annotations

from typing import Any

import pytest

__all__ = ["TaskSpy"]


class TaskSpy:
    """Replaces `module.name` (a sweep task taking (…, first, …) tuples) for one test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: Any, name: str,
                 stop_at: int | None = None) -> None:
        self.module, self.name, self.stop_at = module, name, stop_at
        self.real, self.firsts, self.monkeypatch = getattr(module, name), [], monkeypatch

        def task(params: tuple) -> Any:
            self.firsts.append(params[1])
            if self.stop_at is not None and len(self.firsts) == self.stop_at:
                raise KeyboardInterrupt
            return self.real(params)

        # the sweep runs tasks by their module and name: the spy stands under the task's own
        task.__module__, task.__qualname__ = self.real.__module__, self.real.__qualname__
        monkeypatch.setattr(module, name, task)

    def resume(self) -> None:
        """Stop interrupting and forget the blocks seen so far."""
        self.stop_at = None
        self.firsts.clear()

    def restore(self) -> None:
        """Put the real task back."""
        self.monkeypatch.setattr(self.module, self.name, self.real)
