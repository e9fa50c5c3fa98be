"""Widgets for the notebooks: live explorations that never show a traceback, and static explorers.

- `interact_safely(explore, **controls)`: `ipywidgets.interact` for a pure `explore_…`
  function. Controls start at the function's own defaults; bad parameters show a one-line
  plain-text message; nothing stray is shown after the widget.
- `static_explorer(views, description=...)`: a control over *precomputed* views (tables,
  figures, text) rendered as HTML and linked on the client side (`jslink`), so it keeps
  working on a static page with no kernel, e.g. in the published site.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from IPython.display import display

from . import checks

__all__ = ["Message", "Picture", "interact_safely", "show_safely", "static_explorer", "view_html"]


class Message:
    """A one-line message shown as plain text (never re-read as Markdown or HTML)."""

    def __init__(self, text: str):
        self.text = checks.text(text, "text")

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        import html

        return f'<pre class="puzzlelab-message" style="white-space: pre-wrap">{html.escape(self.text)}</pre>'


class Picture:
    """A saved figure (figures/<name>.png) made light for a gallery: at most `width` pixels wide,
    in a palette of `colours`, with what it shows as its text alternative."""

    def __init__(self, path, caption: str, width: int = 640, colours: int = 64):
        from pathlib import Path

        from . import checks

        if not isinstance(path, (str, Path)):
            raise checks.ArgumentTypeError(f"path must be a path (text or a Path), got {path!r}")
        self.path, self.caption = Path(path), checks.text(caption, "caption")
        self.width = checks.integer(width, "width", low=16)
        self.colours = checks.integer(colours, "colours", low=2, high=256)
        if not self.path.is_file():
            raise ValueError(f"no picture at {self.path}")

    def _repr_png_(self) -> bytes:
        import io

        from PIL import Image

        with Image.open(self.path) as image:
            image = image.convert("RGB")
            width = min(image.width, self.width)
            image = image.resize((width, round(image.height * width / image.width)),
                                 Image.Resampling.LANCZOS)
            image = image.quantize(colors=self.colours, method=Image.Quantize.MEDIANCUT)
            buffer = io.BytesIO()
            image.save(buffer, "PNG", optimize=True, pnginfo=self._record(width))
        return buffer.getvalue()

    def _record(self, width: int):
        """The saved figure's record of its text size, its dpi scaled as the picture is."""
        from PIL import Image, PngImagePlugin

        from .figures import DPI_KEY, SMALLEST_KEY, saved_record

        info = PngImagePlugin.PngInfo()
        record = saved_record(self.path)
        if record is not None:
            with Image.open(self.path) as image:
                scale = width / image.width
            smallest, dpi = record
            info.add_text(SMALLEST_KEY, "none" if smallest is None else f"{smallest:.2f}")
            info.add_text(DPI_KEY, f"{dpi * scale:.2f}")
        return info

    def _repr_html_(self) -> str:
        import base64
        import html

        data = base64.b64encode(self._repr_png_()).decode("ascii")
        return (f'<img alt="{html.escape(self.caption)}" style="max-width: 100%" '
                f'src="data:image/png;base64,{data}"/>')

    def __repr__(self) -> str:
        return f"Picture of {self.path.name}: {self.caption}"


def show_safely(explore: Callable[..., Any], **params: Any) -> None:
    """Display `explore(**params)`; a ValueError (bad parameters) is shown as a one-line message."""
    try:
        result = explore(**params)
    except ValueError as err:  # bad parameters (ArgumentTypeError included): the message names it
        display(Message(f"⚠ {err}"))
        return
    except Exception as err:  # a bug, but still no traceback on screen
        display(Message(f"⚠ {type(err).__name__}: {err}"))
        return
    display(result)


def interact_safely(explore: Callable[..., Any], *, manual: bool = False, **controls: Any) -> None:
    """`ipywidgets.interact` for an `explore_…` function: bad parameters give a message, not a traceback.

    Controls given as abbreviations (a `(min, max)` tuple, a list of choices, a default value)
    start at `explore`'s own default for that parameter. `manual=True` adds a "Run" button
    for explorations that take seconds. Displays the widget and returns None, so that the
    cell shows nothing after it.
    """
    import ipywidgets

    @functools.wraps(explore)
    def _run(**params: Any) -> None:
        show_safely(explore, **params)

    # interactive reads each control's starting value from the signature's defaults.
    _run.__signature__ = inspect.signature(explore)  # type: ignore[attr-defined]
    box = ipywidgets.interactive(_run, {"manual": manual, "manual_name": "Run"}, **controls)
    box.update()  # show the opening view at once, as interact does
    display(box)


def view_html(view: Any) -> str:
    """HTML for one precomputed view: a table, a figure (as an embedded PNG), or text."""
    import base64
    import html

    from matplotlib.figure import Figure

    if isinstance(view, Figure):
        from .figures import png_bytes

        data = base64.b64encode(png_bytes(view, 90)).decode("ascii")
        return f'<img alt="figure" style="max-width: 100%" src="data:image/png;base64,{data}"/>'
    if hasattr(view, "_repr_html_") and view._repr_html_() is not None:
        return view._repr_html_()
    png = view._repr_png_() if hasattr(view, "_repr_png_") else None  # e.g. IPython's Image
    if isinstance(png, tuple):  # (data, metadata)
        png = png[0]
    if png is not None:
        data = base64.b64encode(png).decode("ascii") if isinstance(png, bytes) else png
        return f'<img alt="figure" style="max-width: 100%" src="data:image/png;base64,{data}"/>'

    return f'<pre style="white-space: pre-wrap">{html.escape(str(view))}</pre>'


def static_explorer(views: Mapping[str, Any], *, description: str = "show",
                    slider: bool = False):
    """A dropdown (or selection slider) that switches between precomputed views, kernel-free.

    `views` maps a label to what to show (a DataFrame or Styler, a matplotlib figure, a
    `Message`, text). Each view becomes an `HTML` widget inside a `Stack`, and the control's
    index is `jslink`ed to the stack's, so switching works in a browser with no kernel (on the
    published static site) as in JupyterLab.
    """
    import ipywidgets as w

    if not isinstance(views, Mapping):
        raise checks.ArgumentTypeError(f"views must map labels to views, got {views!r}")
    checks.text(description, "description")
    slider = checks.boolean(slider, "slider")
    for label in views:
        checks.text(label, "a label of views")
    if not views:
        raise ValueError("static_explorer needs at least one view")
    labels = list(views)
    pages = [w.HTML(value=view_html(views[label])) for label in labels]
    stack = w.Stack(pages, selected_index=0)
    control_type = w.SelectionSlider if slider else w.Dropdown
    control = control_type(options=labels, index=0, description=description,
                           style={"description_width": "initial"},
                           layout=w.Layout(width="max-content"))
    w.jslink((control, "index"), (stack, "selected_index"))
    return w.VBox([control, stack])
