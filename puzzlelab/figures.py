"""Export figures to figures/ as PNG and SVG with deterministic bytes, and measure how large
their text is on a page of the site."""

from __future__ import annotations

import contextlib
import io
import math
import os
import re
import struct
import zlib
from collections.abc import Iterator
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.text import Text

from . import checks
from .paths import FIGURES

__all__ = ["finish", "save_figure", "INLINE_DPI", "PAGE_WIDTH_PX", "MIN_TEXT_PX", "FigureText",
           "figure_texts", "png_bytes", "png_record", "saved_record", "inline_png", "SMALLEST_KEY",
           "DPI_KEY", "with_text"]

# Stable ids inside SVG files, so that re-running a notebook changes no committed figure.
matplotlib.rcParams["svg.hashsalt"] = "puzzlelab"

_PNG_METADATA = {"Software": None}
_SVG_METADATA = {"Date": None, "Creator": None}
PNG_BUDGET = 2**30  # bytes of one PNG's pixels (4 per pixel) while it is drawn


def save_figure(fig: Figure, name: str, *, dpi: int = 110) -> list[Path]:
    """Write `fig` to figures/<name>.png and figures/<name>.svg without dates or versions."""
    _check_figure(fig)
    if not checks.text(name, "figure name") or "/" in name or name.startswith("."):
        raise ValueError(f"figure name must be a plain file stem, got {name!r}")
    dpi = checks.integer(dpi, "dpi", low=1)
    _within_budget(fig, dpi)
    FIGURES.mkdir(parents=True, exist_ok=True)
    png, svg = FIGURES / f"{name}.png", FIGURES / f"{name}.svg"
    part = png.with_name(f".{png.name}.part")
    part.write_bytes(png_bytes(fig, dpi))
    os.replace(part, png)
    fig.savefig(svg, metadata=_SVG_METADATA, bbox_inches="tight")
    return [png, svg]


# What a PNG records of its text (a tEXt chunk each), so that a page can tell how large the text
# is as displayed: the smallest font size drawn, in points, and the dots per inch it was drawn at
# (text of s points is s × dpi / 72 pixels of the image; "none": the figure has no text).
SMALLEST_KEY = "puzzlelab:smallest-text-pt"
DPI_KEY = "puzzlelab:dpi"


@contextlib.contextmanager
def _drawn_texts() -> Iterator[list[tuple[float, str]]]:
    """The (font size, text) of every text matplotlib draws inside the block."""
    drawn: list[tuple[float, str]] = []
    draw = Text.draw

    def recording(self: Text, renderer) -> None:
        if self.get_visible() and self.get_text().strip():
            drawn.append((float(self.get_fontsize()), self.get_text()))
        return draw(self, renderer)

    Text.draw = recording
    try:
        yield drawn
    finally:
        Text.draw = draw


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC (PNG specification, section 5.3)."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def with_text(png: bytes, items: dict[str, str]) -> bytes:
    """`png` with a tEXt chunk per item, right after its IHDR chunk (8 + 25 bytes).

    Parameters
    ----------
    png : bytes
        A PNG image (its signature, then its IHDR chunk).
    items : dict of str to str
        Keyword and text of each chunk: Latin-1, no NUL; a keyword of 1 to 79 characters.

    Returns
    -------
    bytes
        The image with the chunks added; `png_record` reads `SMALLEST_KEY` and `DPI_KEY` back.

    Raises
    ------
    ValueError
        If `png` is not a PNG image, or a keyword or text cannot be written in a tEXt chunk
        (`checks.ArgumentTypeError` if they are not bytes and a dict of strings).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig = plt.figure(figsize=(1, 1))
    >>> plain = io.BytesIO()
    >>> fig.savefig(plain, format="png", dpi=20)
    >>> plt.close(fig)
    >>> png_record(with_text(plain.getvalue(), {SMALLEST_KEY: "7.50", DPI_KEY: "20.00"}))
    (7.5, 20.0)

    References
    ----------
    PNG specification (W3C, 2003), sections 5.3 (chunk layout) and 11.3.4.3 (tEXt).
    """
    if not isinstance(png, (bytes, bytearray)):
        raise checks.ArgumentTypeError(f"png must be the bytes of a PNG, got {type(png).__name__}")
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        raise ValueError("not a PNG image (no signature and IHDR chunk)")
    items = checks.instance(items, "items", dict, "a dict of keyword to text")
    chunks = []
    for key, value in items.items():
        key, value = checks.text(key, "each keyword"), checks.text(value, "each text")
        if not 1 <= len(key) <= 79 or "\0" in key + value:
            raise ValueError(f"a tEXt keyword has 1 to 79 characters and no NUL, got {key!r}")
        try:
            chunks.append(_chunk(b"tEXt", f"{key}\0{value}".encode("latin-1")))
        except UnicodeEncodeError:
            raise ValueError(f"tEXt {key!r} must be Latin-1 text, got {value!r}") from None
    return bytes(png[:33]) + b"".join(chunks) + bytes(png[33:])


def png_bytes(fig: Figure, dpi: float, **options) -> bytes:
    """`fig` as PNG bytes (tight box, no date or version) recording its smallest text size."""
    _check_figure(fig)
    dpi = checks.number(dpi, "dpi", low=1)
    _within_budget(fig, dpi)
    buffer = io.BytesIO()
    with _drawn_texts() as drawn:
        fig.savefig(buffer, format="png", dpi=dpi, metadata=_PNG_METADATA, bbox_inches="tight",
                    **options)
    smallest = f"{min(size for size, _ in drawn):.2f}" if drawn else "none"
    return with_text(buffer.getvalue(), {SMALLEST_KEY: smallest, DPI_KEY: f"{dpi:.2f}"})


def png_record(png: bytes) -> tuple[float | None, float] | None:
    """What a PNG records of its text: (smallest font size in points or None, dpi); None if
    it records nothing."""
    from PIL import Image, UnidentifiedImageError

    if not isinstance(png, (bytes, bytearray)):
        raise checks.ArgumentTypeError(f"png must be the bytes of a PNG, got {type(png).__name__}")
    try:
        with Image.open(io.BytesIO(png)) as image:
            if image.format != "PNG":
                raise ValueError(f"not a PNG image but {image.format}")
            text = dict(getattr(image, "text", {}))
    except (UnidentifiedImageError, OSError) as err:
        raise ValueError(f"not a readable PNG image ({err})") from None
    if SMALLEST_KEY not in text or DPI_KEY not in text:
        return None
    smallest = text[SMALLEST_KEY]
    return (None if smallest == "none" else float(smallest)), float(text[DPI_KEY])


def saved_record(png: Path | str) -> tuple[float | None, float] | None:
    """What a saved figure's PNG records of its text, or for a PNG saved without a record, the
    same read from the SVG saved beside it (its smallest glyphs; dpi = PNG pixels per SVG inch)."""
    from PIL import Image

    if not isinstance(png, (str, Path)):
        raise checks.ArgumentTypeError(f"png must be the path of a saved PNG, got {png!r}")
    png = Path(png)
    if png.suffix != ".png" or not png.is_file():
        raise ValueError(f"saved_record reads a saved .png figure; no such file: {png}")
    record = png_record(png.read_bytes())
    svg = png.with_suffix(".svg")
    if record is not None or not svg.is_file():
        return record
    texts = figure_texts(svg)
    inches = float(ET.parse(svg).getroot().get("width", "0").removesuffix("pt")) / 72
    with Image.open(png) as image:
        dpi = image.width / inches if inches > 0 else float("nan")
    return (min(t.points for t in texts) if texts else None), dpi


def inline_png(fig: Figure) -> bytes | None:
    """The PNG a notebook shows for `fig` (as IPython's inline backend draws it, at the figure's
    dpi on its own face colour), recording its smallest text size; None for an empty figure."""
    if not _check_figure(fig).axes and not fig.lines and not fig.texts:
        return None
    return png_bytes(fig, fig.dpi, facecolor=fig.get_facecolor(), edgecolor=fig.get_edgecolor())


def _show_inline() -> None:
    """In an IPython kernel, draw figures with `inline_png` (after the inline backend set up
    its own formatter, which a figure's first creation does)."""
    import sys

    if "IPython" not in sys.modules:
        return
    from IPython import get_ipython

    shell = get_ipython()
    if shell is not None and hasattr(shell, "display_formatter"):
        shell.display_formatter.formatters["image/png"].for_type(Figure, inline_png)


def _within_budget(fig: Figure, dpi: float) -> None:
    """Refuse a PNG of more than PNG_BUDGET bytes of pixels, naming the largest dpi allowed."""
    width, height = fig.get_size_inches()
    area = max(width * height, 1e-6)
    checks.within_budget(f"a {width:g} x {height:g} inch PNG at {dpi:g} dpi", 4 * area * dpi**2,
                         PNG_BUDGET, largest=f"{math.isqrt(int(PNG_BUDGET / (4 * area)))} dpi")


def _check_figure(fig: object) -> Figure:
    if not isinstance(fig, Figure):
        raise checks.ArgumentTypeError(f"fig must be a matplotlib Figure, got {fig!r}")
    return fig


def finish(fig: Figure, name: str | None = None) -> Figure:
    """Save `fig` under `name` (if given), close it and return it: the end of every plot helper."""
    _check_figure(fig)
    if name is not None:
        save_figure(fig, name)
    plt.close(fig)
    _show_inline()
    return fig


# How large a figure's text is as displayed: a notebook shows a figure at INLINE_DPI (the inline
# backend's resolution, with a tight bounding box, as the SVG), and a site page 1280 px wide
# gives an output at most PAGE_WIDTH_PX (tests/browser measures both); a wider figure is
# shrunk to fit. Text below MIN_TEXT_PX is too small to read.
INLINE_DPI = 100
PAGE_WIDTH_PX = 688
MIN_TEXT_PX = 9.0
_SVG = "{http://www.w3.org/2000/svg}"
_SCALE = re.compile(r"scale\(([-\d.e]+)(?:[ ,]+([-\d.e]+))?\)")
_FONT_SCALE = 100  # matplotlib draws text as paths of glyphs at 100 pt, scaled to the font size


class FigureText:
    """One piece of text of a saved figure: what it says and its size in points and on a page."""

    def __init__(self, text: str, points: float, figure_points: float):
        self.text = checks.text(text, "text")
        self.points = checks.number(points, "points", low=0)
        figure_points = checks.number(figure_points, "figure_points", low=1e-9)
        shown = min(figure_points * INLINE_DPI / 72, PAGE_WIDTH_PX)  # the figure's width, px
        self.pixels = points * shown / figure_points

    def __repr__(self) -> str:
        return f"FigureText({self.text!r}, {self.points:.1f} pt, {self.pixels:.1f} px)"


def _scale(transform: str) -> float | None:
    match = _SCALE.search(transform or "")
    return abs(float(match.group(1))) if match else None


def figure_texts(figure: Path | str | Figure) -> list[FigureText]:
    """Every text of a figure, saved by `save_figure` (its SVG) or drawn (saved as one here).

    matplotlib's SVG keeps each text as glyphs in a group scaled by font size / 100 pt, with
    the text in a comment before it; the width of the SVG is the figure's, in points.
    """
    if isinstance(figure, Figure):
        source = io.BytesIO()
        figure.savefig(source, format="svg", bbox_inches="tight", metadata=_SVG_METADATA)
        source.seek(0)
    elif isinstance(figure, (str, Path)):
        source = Path(figure)
        if source.suffix != ".svg" or not source.is_file():
            raise ValueError(f"figure_texts reads a saved .svg figure; no such file: {source}")
    else:
        raise checks.ArgumentTypeError(
            f"figure must be a matplotlib Figure or the path of an .svg, got {type(figure).__name__}")
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
    try:
        root = ET.parse(source, parser).getroot()
    except ET.ParseError as err:
        raise ValueError(f"{figure}: not a readable SVG ({err})") from None
    width = float(root.get("width", "0").removesuffix("pt"))
    found: list[FigureText] = []

    def walk(node: ET.Element, label: str) -> None:
        comment = ""
        for child in node:
            if child.tag is ET.Comment:
                comment = (child.text or "").strip()
                continue
            if child.tag == f"{_SVG}defs":
                continue
            scale = _scale(child.get("transform", "")) if child.tag == f"{_SVG}g" else None
            negative = "scale(" in (child.get("transform") or "") and " -" in \
                child.get("transform", "").split("scale(")[-1]
            if scale is not None and negative:  # a text: translate(x y) scale(s -s)
                sizes = [_scale(use.get("transform", "")) or 1.0
                         for use in child.iter(f"{_SVG}use")] or [1.0]
                found.append(FigureText(comment or label, scale * _FONT_SCALE * min(sizes),
                                        width))
                continue
            walk(child, comment or label)

    walk(root, "")
    return found


_show_inline()
