"""Widgets never show a traceback: bad parameters become a one-line message."""

from __future__ import annotations

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
    assert isinstance(shown[0], widgets.Message) and "n must be positive, got -1" in shown[0].text


def test_unexpected_errors_are_shown_without_traceback(monkeypatch):
    shown = capture(monkeypatch)
    widgets.show_safely(lambda: 1 / 0)
    assert "ZeroDivisionError" in shown[0].text


def test_results_are_displayed(monkeypatch):
    shown = capture(monkeypatch)
    widgets.show_safely(lambda k: k * 2, k=21)
    assert shown == [42]


def test_interact_safely_builds_live_or_manual_controls(monkeypatch):
    import ipywidgets

    def explore_double(k: int = 1):
        return 2 * k

    shown = capture(monkeypatch)
    assert widgets.interact_safely(explore_double, k=(0, 4)) is None  # nothing stray in the cell
    widgets.interact_safely(explore_double, manual=True, k=(0, 4))
    live, manual = [s for s in shown if isinstance(s, ipywidgets.interactive)]
    assert isinstance(live, ipywidgets.interactive) and isinstance(manual, ipywidgets.interactive)
    assert not any(isinstance(c, ipywidgets.Button) for c in live.children)
    assert any(isinstance(c, ipywidgets.Button) for c in manual.children)


def test_controls_start_at_the_functions_defaults(monkeypatch):
    def explore_sizes(a: int = 3, b: int = 3, who: str = "B"):
        return (a, b, who)

    shown = capture(monkeypatch)
    widgets.interact_safely(explore_sizes, a=(2, 8), b=(1, 8), who=["C", "B"])
    box = shown[-1]
    values = {c.description: c.value for c in box.children if hasattr(c, "value")}
    assert values == {"a": 3, "b": 3, "who": "B"}


def test_messages_are_plain_text_not_markdown():
    html = widgets.Message("need M**(N-1) <= 10").__repr__()
    assert html == "need M**(N-1) <= 10"
    assert "M**(N-1) &lt;= 10" in widgets.Message("need M**(N-1) <= 10")._repr_html_()


def test_static_explorer_links_its_control_to_the_stack():
    import ipywidgets

    box = widgets.static_explorer({"one": 1, "two": 2}, description="n")
    control, stack = box.children
    assert isinstance(stack, ipywidgets.Stack) and len(stack.children) == 2
    control.index = 1  # in a browser jslink does this on the client; here the Python side is checked
    assert control.options == ("one", "two")


def test_static_views_are_html_of_tables_figures_and_text():
    import matplotlib.pyplot as plt
    import pandas as pd

    fig, ax = plt.subplots()
    ax.plot([0, 1])
    table = pd.DataFrame({"n": [1, 2]})
    assert "<table" in widgets.view_html(table)
    assert widgets.view_html(fig).startswith('<img alt="figure"')
    assert widgets.view_html(widgets.Message("a < b")).endswith("a &lt; b</pre>")
    box = widgets.static_explorer({"table": table, "figure": fig})
    assert [p.value for p in box.children[1].children] == [widgets.view_html(table),
                                                            widgets.view_html(fig)]
    plt.close(fig)


def test_a_png_image_view_is_embedded():
    from IPython.display import Image

    png = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00"
           b"\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N"
           b"\x00\x00\x00\x00IEND\xaeB`\x82")
    assert widgets.view_html(Image(data=png)).startswith('<img alt="figure"')
