"""Widgets never show a traceback: bad parameters become a one-line message."""

from __future__ import annotations

from IPython.display import Markdown

from puzzlelab import widgets


def capture(monkeypatch):
    shown = []
    monkeypatch.setattr(widgets, "display", shown.append)
    return shown


def test_value_error_becomes_a_message(monkeypatch):
    shown = capture(monkeypatch)

    def explore_bad(n: int):
        raise ValueError(f"n must be positive, got {n}")

    widgets.show_safely(explore_bad, n=-1)
    assert isinstance(shown[0], Markdown) and "n must be positive, got -1" in shown[0].data


def test_unexpected_errors_are_shown_without_traceback(monkeypatch):
    shown = capture(monkeypatch)
    widgets.show_safely(lambda: 1 / 0)
    assert "ZeroDivisionError" in shown[0].data


def test_results_are_displayed(monkeypatch):
    shown = capture(monkeypatch)
    widgets.show_safely(lambda k: k * 2, k=21)
    assert shown == [42]


def test_interact_safely_builds_live_or_manual_controls():
    import ipywidgets

    def explore_double(k: int = 1):
        return 2 * k

    live = widgets.interact_safely(explore_double, k=(0, 4))
    manual = widgets.interact_safely(explore_double, manual=True, k=(0, 4))
    assert isinstance(live.widget, ipywidgets.interactive) and isinstance(manual.widget, ipywidgets.interactive)
    assert not any(isinstance(c, ipywidgets.Button) for c in live.widget.children)
    assert any(isinstance(c, ipywidgets.Button) for c in manual.widget.children)
