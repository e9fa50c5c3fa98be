"""A spy on a sweep's task: records the first deal of every block it plays and can interrupt the
run at a given call, for the tests that blocks are sized as promised and that runs resume."""

from __future__ import annotations

from typing import Any

import pytest

from puzzlelab import sweeps

__all__ = ["TaskSpy"]


class TaskSpy:
    """Stands in for the task (taking (…, first, …) tuples) of every `sweeps.sweep_table` run
    in this process during one test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, stop_at: int | None = None) -> None:
        self.stop_at, self.firsts, self.monkeypatch = stop_at, [], monkeypatch
        self.real = sweeps.sweep_table

        def spying(name: str, task: Any, params: Any, **options: Any) -> Any:
            return self.real(name, self._spy(task), params, **options)

        monkeypatch.setattr(sweeps, "sweep_table", spying)

    def _spy(self, real: Any) -> Any:
        def task(params: tuple) -> Any:
            self.firsts.append(params[1])
            if self.stop_at is not None and len(self.firsts) == self.stop_at:
                raise KeyboardInterrupt
            return real(params)

        # the sweep keys its saved blocks by the task's module and name: the spy stands under them
        task.__module__, task.__qualname__ = real.__module__, real.__qualname__
        return task

    def resume(self) -> None:
        """Stop interrupting and forget the blocks seen so far."""
        self.stop_at = None
        self.firsts.clear()

    def restore(self) -> None:
        """Let the sweeps run their own tasks again."""
        self.monkeypatch.setattr(sweeps, "sweep_table", self.real)
