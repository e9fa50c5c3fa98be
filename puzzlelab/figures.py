"""Export figures to figures/ as PNG and SVG with deterministic bytes."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from . import checks
from .paths import FIGURES

__all__ = ["finish", "save_figure"]

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
    width, height = fig.get_size_inches()
    area = max(width * height, 1e-6)
    checks.within_budget(f"a {width:g} x {height:g} inch PNG at {dpi} dpi", 4 * area * dpi**2,
                         PNG_BUDGET, largest=f"{math.isqrt(int(PNG_BUDGET / (4 * area)))} dpi")
    FIGURES.mkdir(parents=True, exist_ok=True)
    png, svg = FIGURES / f"{name}.png", FIGURES / f"{name}.svg"
    fig.savefig(png, dpi=dpi, metadata=_PNG_METADATA, bbox_inches="tight")
    fig.savefig(svg, metadata=_SVG_METADATA, bbox_inches="tight")
    return [png, svg]


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
    return fig
