"""Figures legible on a page of the site: no text below figures.MIN_TEXT_PX as displayed on a
page 1280 px wide (font size in points × displayed width / figure width; a figure wider than
the page's output column is shrunk to fit it, see puzzlelab.figures)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from puzzlelab import figures
from puzzlelab.codebreaking import notebook as codebreaking
from puzzlelab.hats import notebook as hats
from puzzlelab.hats import tables as hats_tables
from puzzlelab.kemps import notebook as kemps

ROOT = Path(__file__).resolve().parents[1]
SAVED = sorted((ROOT / "figures").glob("*.svg"))


def too_small(texts: list[figures.FigureText]) -> list[str]:
    return [f"{t.text[:40]!r}: {t.points:.1f} pt shown at {t.pixels:.1f} px"
            for t in texts if t.pixels < figures.MIN_TEXT_PX]


def test_text_size_is_read_from_the_figure():
    """A 10 pt text on a narrow figure shows at 10 × 100/72 px; on a figure twice as wide as the
    page's output column, at half the width's share."""
    for width, shrink in ((4.0, 1.0), (2 * figures.PAGE_WIDTH_PX / figures.INLINE_DPI, None)):
        fig = plt.figure(figsize=(width, 2.0))
        fig.text(0.1, 0.5, "ten points", fontsize=10)
        fig.text(0.9, 0.5, "twenty", fontsize=20)
        texts = {t.text: t for t in figures.figure_texts(fig)}
        plt.close(fig)
        assert texts["ten points"].points == pytest.approx(10)
        assert texts["twenty"].points == pytest.approx(20)
        # the tight bounding box trims the figure: compare the ratio, then the scale
        assert texts["twenty"].pixels == pytest.approx(2 * texts["ten points"].pixels)
        if shrink == 1.0:
            assert texts["ten points"].pixels == pytest.approx(10 * figures.INLINE_DPI / 72)
        else:
            assert texts["ten points"].pixels < 10 * figures.INLINE_DPI / 72


def test_every_figure_is_measured():
    assert SAVED, "no figure in figures/"
    for svg in SAVED:
        assert figures.figure_texts(svg), f"{svg.name}: no text found"


@pytest.mark.parametrize("svg", SAVED, ids=lambda p: p.stem)
def test_saved_figure_text_is_legible(svg: Path):
    small = too_small(figures.figure_texts(svg))
    assert not small, f"{svg.name}: {len(small)} texts too small, e.g. {small[:4]}"


EXPLORED = {  # figures the pages show as the opening view of an exploration
    "kemps knowledge map (7 values)": lambda: kemps.explore_knowledge(),
    "kemps knowledge map (52 cards)": lambda: kemps.explore_knowledge(deck_values=13, turn=6),
    "code-breaking strategy histogram": lambda: codebreaking.explore_strategy(),
    "hats hypercube": lambda: hats.explore_hypercube(),
}


@pytest.mark.parametrize("name", EXPLORED)
def test_explored_figure_text_is_legible(name: str):
    fig = EXPLORED[name]()
    try:
        small = too_small(figures.figure_texts(fig))
    finally:
        plt.close(fig)
    assert not small, f"{name}: {len(small)} texts too small, e.g. {small[:4]}"


def test_histogram_bar_labels_stay_inside_the_frame():
    """The counts over the bars of the maximal-set histograms (up to 2,271,304,840 for N = 6)
    end below the top of their panel."""
    census = hats_tables.maximal_census()
    for players in ([3, 4, 5], [6]):
        fig = hats.plot_maximal_distribution(census[census.n_players.isin(players)], name=None)
        try:
            fig.canvas.draw()
            for ax in fig.axes:
                top = ax.get_window_extent().y1
                labels = [t for t in ax.texts if t.get_text()]
                assert labels, f"N = {players}: no bar labels"
                over = [t.get_text() for t in labels if t.get_window_extent().y1 > top]
                assert not over, f"N = {players}: labels over the frame: {over}"
        finally:
            plt.close(fig)


def test_a_png_records_its_smallest_text_as_its_svg_shows_it():
    """The smallest font size a PNG records is the smallest the figure's SVG draws (read from
    its glyphs, a second way); the dpi is the one drawn at; a figure without text says so."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([1, 2], label="a line")
    ax.set_title("title", fontsize=13)
    ax.legend(fontsize=7.5)
    ax.tick_params(labelsize=8)
    try:
        svg_smallest = min(t.points for t in figures.figure_texts(fig))
        assert figures.png_record(figures.png_bytes(fig, 90)) == (pytest.approx(svg_smallest), 90)
        assert figures.png_record(figures.inline_png(fig)) == (pytest.approx(7.5), fig.dpi)
        ax.set_axis_off()
        ax.get_legend().remove()
        ax.set_title("")
        png = figures.png_bytes(fig, 90)
        assert figures.png_record(png) == (None, 90)
    finally:
        plt.close(fig)
    with pytest.raises(ValueError, match="not a PNG"):
        figures.with_text(b"GIF89a" + bytes(40), {"k": "v"})
    for items in ({"": "v"}, {"k" * 80: "v"}, {"k": "a\0b"}, {"k": "\u2212"}):
        with pytest.raises(ValueError, match="tEXt"):
            figures.with_text(png, items)


def test_a_gallery_picture_keeps_the_record_scaled(tmp_path: Path):
    """widgets.Picture shrinks a saved figure: its dpi shrinks by the same factor."""
    from puzzlelab import widgets

    fig, ax = plt.subplots(figsize=(8, 3))
    ax.set_title("wide", fontsize=12)
    ax.set_axis_off()
    png = tmp_path / "wide.png"
    png.write_bytes(figures.png_bytes(fig, 100))
    plt.close(fig)
    picture = widgets.Picture(png, "a wide figure", width=400)
    from PIL import Image
    import io
    with Image.open(png) as full, Image.open(io.BytesIO(picture._repr_png_())) as small:
        scale = small.width / full.width
    points, dpi = figures.png_record(picture._repr_png_())
    assert points == 12 and dpi == pytest.approx(100 * scale, abs=0.01)


def test_a_saved_figure_without_a_record_is_read_from_its_svg(tmp_path: Path):
    """A PNG saved without the record (as before the record existed): the SVG saved beside it
    gives the same smallest size and, from its width, the PNG's dpi."""
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.set_title("a title", fontsize=12)
    ax.tick_params(labelsize=9)
    png = tmp_path / "old.png"
    png.write_bytes(figures.png_bytes(fig, 110))
    recorded = figures.saved_record(png)
    fig.savefig(png, dpi=110, bbox_inches="tight", metadata={"Software": None})
    fig.savefig(tmp_path / "old.svg", bbox_inches="tight")
    plt.close(fig)
    assert figures.png_record(png.read_bytes()) is None
    points, dpi = figures.saved_record(png)
    assert recorded == (9.0, 110.0)
    assert points == pytest.approx(9.0) and dpi == pytest.approx(110, rel=0.01)
