"""What a person would notice on a page: failed requests, console errors, broken images, requests
that leave the machine, widgets that fail to display; and the widget state a page carries."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from site_pages import model_refs as _refs  # noqa: E402  (the model ids a state value names)

__all__ = ["PageWatch", "Explorer", "explorers", "view_signature", "widget_state",
           "text_key", "wait_for_widgets", "broken_images"]

LOCAL_HOSTS = {"127.0.0.1", "localhost"}
STATE_MIME = "application/vnd.jupyter.widget-state+json"
VIEW_MIME = "application/vnd.jupyter.widget-view+json"
CONTROLS = {"DropdownModel": "select", "SelectModel": "select",
            "SelectionSliderModel": ".noUi-handle"}


@dataclass
class PageWatch:
    """Listens to one page: every problem is recorded, every request off 127.0.0.1 aborted."""

    page: object
    problems: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    ignore_console: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.page.route("**/*", self._route)
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda err: self.problems.append(f"page error: {err}"))
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._response)

    def _route(self, route) -> None:
        host = urlsplit(route.request.url).hostname
        if host in LOCAL_HOSTS:
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()

    def _console(self, message) -> None:
        if message.type == "error" and not any(s in message.text for s in self.ignore_console):
            self.problems.append(f"console error: {message.text}")

    def _failed(self, request) -> None:
        if urlsplit(request.url).hostname in LOCAL_HOSTS:
            self.problems.append(f"request failed: {request.url} ({request.failure})")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")

    def report(self) -> str:
        """Every problem and every aborted request, one a line."""
        lines = self.problems + [f"request leaving the site (aborted): {u}" for u in self.outside]
        return "\n".join(lines)


def broken_images(page) -> list[str]:
    """The images on the page that did not load."""
    return page.evaluate("""() => Array.from(document.images)
        .filter(img => !img.complete || img.naturalWidth === 0)
        .map(img => img.currentSrc.slice(0, 120) || img.outerHTML.slice(0, 120))""")


def wait_for_widgets(page, timeout: float = 30_000) -> None:
    """Wait until every saved widget view on a static page has been rendered."""
    page.wait_for_function(
        f"""() => {{
            const views = document.querySelectorAll('script[type="{VIEW_MIME}"]');
            return Array.from(views).every(s => s.previousElementSibling &&
                s.previousElementSibling.classList.contains('widget-subarea') &&
                s.previousElementSibling.childElementCount > 0);
        }}""", timeout=timeout)


def widget_state(page) -> dict:
    """The widget models saved in the page: model id -> {model_name, state, ...}."""
    scripts = page.locator(f'script[type="{STATE_MIME}"]')
    state: dict = {}
    for i in range(scripts.count()):
        state.update(json.loads(scripts.nth(i).text_content())["state"])
    return state


def _descendants(state: dict, root: str) -> list[str]:
    """The models under `root` in the order a page lays them out (stacks' children left out)."""
    order, todo = [], [root]
    while todo:
        model = todo.pop(0)
        order.append(model)
        entry = state.get(model, {})
        if entry.get("model_name") == "StackModel":
            continue
        todo[:0] = [r for r in _refs(entry.get("state", {}).get("children", []))]
    return order


@dataclass
class Explorer:
    """A static explorer: a control whose index is linked on the client side to a Stack."""

    view: str  # the displayed (top-level) model that holds it
    control: str
    kind: str  # the control's model name
    nth: int  # which control of its kind inside the view, in page order
    labels: list[str]
    views: list[tuple]  # the signature of each precomputed view


def _links(state: dict) -> list[tuple[str, str]]:
    """(control, stack) pairs whose `index` and `selected_index` are linked in the browser."""
    pairs = []
    for entry in state.values():
        if entry.get("model_name") not in {"LinkModel", "DirectionalLinkModel"}:
            continue
        ends = [entry["state"].get("source"), entry["state"].get("target")]
        ends = [(_refs(end[0])[0], end[1]) for end in ends if end]
        kinds = {attr: model for model, attr in ends}
        stack = kinds.get("selected_index")
        if stack and "index" in kinds and state[stack]["model_name"] == "StackModel":
            pairs.append((kinds["index"], stack))
    return pairs


def explorers(state: dict, views: list[str]) -> list[Explorer]:
    """Every static explorer shown in the page's top-level widget views."""
    found = []
    for control, stack in _links(state):
        kind = state[control]["model_name"]
        for view in views:
            under = _descendants(state, view)
            if control in under and kind in CONTROLS:
                same = [m for m in under if state.get(m, {}).get("model_name") in
                        {k for k, v in CONTROLS.items() if v == CONTROLS[kind]}]
                children = _refs(state[stack]["state"]["children"])
                found.append(Explorer(view, control, kind, same.index(control),
                                      list(state[control]["state"]["_options_labels"]),
                                      [view_signature(state, c) for c in children]))
    return found


class _Text(HTMLParser):
    """The visible text of an HTML fragment (style and script contents left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs) -> None:
        self._skip += tag in {"style", "script"}

    def handle_endtag(self, tag) -> None:
        self._skip -= tag in {"style", "script"} and self._skip > 0

    def handle_data(self, data) -> None:
        if not self._skip:
            self.parts.append(data)


def text_key(text: str) -> str:
    """Text with all white space removed, to compare what a page shows with what was saved."""
    return re.sub(r"\s+", "", text)


def _output_text(output: dict) -> tuple[str, list[str]]:
    """(visible text, PNG base64 prefixes) of one saved output."""
    if output.get("output_type") == "stream":
        return output.get("text", ""), []
    data = output.get("data", {})
    images = [re.sub(r"\s", "", data["image/png"])[:64]] if "image/png" in data else []
    if "text/html" in data:
        parser = _Text()
        parser.feed(data["text/html"] if isinstance(data["text/html"], str)
                    else "".join(data["text/html"]))
        return "".join(parser.parts), images
    if images:
        return "", images
    return data.get("text/plain", ""), images


def view_signature(state: dict, model: str) -> tuple[str, tuple[str, ...]]:
    """What one precomputed view shows: (its text without white space, its PNG prefixes)."""
    entry = state.get(model, {}).get("state", {})
    texts, images = [], []
    for output in entry.get("outputs", []):
        text, pngs = _output_text(output)
        texts.append(text)
        images += pngs
    if "value" in entry and isinstance(entry["value"], str):  # an HTML or Label widget
        parser = _Text()
        parser.feed(entry["value"])
        texts.append("".join(parser.parts))
        images += [m[:64] for m in re.findall(r'src="data:image/png;base64,([^"]+)"', entry["value"])]
    return text_key("".join(texts)), tuple(images)
