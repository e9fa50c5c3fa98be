"""Real-browser tests: Debian's chromium driven by Playwright (which never downloads a browser).

Every test here is marked `browser`; `make browser-test` runs them alone, `make test` runs them
when /usr/bin/chromium exists. The browser gets a fresh profile and no network of its own:
a page may only talk to the 127.0.0.1 server the test started.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 900}  # the page width the reading tests assume


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder `browser`."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """A headless chromium with a fresh profile (the session's only browser)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found: apt-get install chromium to run the browser tests")
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True,
            args=CHROMIUM_ARGS, viewport=VIEWPORT, service_workers="block")
        context.set_default_timeout(30_000)
        yield context
        context.close()


@pytest.fixture(scope="session")
def site_html() -> Path:
    """The built static site (`make site` builds it; built here if it is missing)."""
    html = ROOT / "site" / "_build" / "html"
    if not (html / "index.html").exists():
        if shutil.which("npm") and not (ROOT / "site" / "node_modules").exists():
            subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
                           cwd=ROOT / "site", check=True)
        subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py")], check=True)
    return html
