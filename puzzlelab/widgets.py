"""Wrap pure `explore_…` functions in ipywidgets without ever showing a traceback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from IPython.display import display


def show_safely(explore: Callable[..., Any], **params: Any) -> None:
    """Display `explore(**params)`; a ValueError (bad parameters) is shown as a one-line message."""
    try:
        result = explore(**params)
    except ValueError as err:  # bad parameters: the message names the problem
        display(_message(f"⚠ {err}"))
        return
    except Exception as err:  # a bug, but still no traceback on screen
        display(_message(f"⚠ {type(err).__name__}: {err}"))
        return
    display(result)


def interact_safely(explore: Callable[..., Any], *, manual: bool = False, **widgets: Any):
    """`ipywidgets.interact` for an `explore_…` function: bad parameters give a message, not a traceback.

    `manual=True` adds a "Run" button (`interact_manual`) for explorations that take seconds,
    so that moving a slider does not start a computation at every step.
    """
    import ipywidgets

    def _run(**params: Any) -> None:
        show_safely(explore, **params)

    _run.__name__ = explore.__name__
    return (ipywidgets.interact_manual if manual else ipywidgets.interact)(_run, **widgets)


def _message(text: str):
    from IPython.display import Markdown

    return Markdown(f"**{text}**")
