"""Export figures to figures/ as PNG and SVG with deterministic bytes."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from .paths import FIGURES

__all__ = ["finish", "save_figure"]

# Stable ids inside SVG files, so that re-running a notebook changes no committed figure.
matplotlib.rcParams["svg.hashsalt"] = "puzzlelab"

_PNG_METADATA = {"Software": None}
_SVG_METADATA = {"Date": None, "Creator": None}


def save_figure(fig: Figure, name: str, *, dpi: int = 110) -> list[Path]:
    """Write `fig` to figures/<name>.png and figures/<name>.svg without dates or versions."""
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"figure name must be a plain file stem, got {name!r}")
    FIGURES.mkdir(parents=True, exist_ok=True)
    png, svg = FIGURES / f"{name}.png", FIGURES / f"{name}.svg"
    fig.savefig(png, dpi=dpi, metadata=_PNG_METADATA, bbox_inches="tight")
    fig.savefig(svg, metadata=_SVG_METADATA, bbox_inches="tight")
    return [png, svg]


def finish(fig: Figure, name: str | None = None) -> Figure:
    """Save `fig` under `name` (if given), close it and return it: the end of every plot helper."""
    if name is not None:
        save_figure(fig, name)
    plt.close(fig)
    return fig
