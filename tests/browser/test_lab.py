"""The notebooks in JupyterLab, as a reader runs them: Run All ends on an idle kernel with no
error, every interactive cell reacts to each of its controls, and a bad value typed into a text
box gives a readable message, never a traceback.

JupyterLab runs on 127.0.0.1 with a token, a fresh settings and workspace folder, and a scratch
copy of notebooks/, data/ and figures/ (PUZZLELAB_ROOT points the kernels there), so nothing in
the repository changes. The server and its kernels are stopped by process id.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from pagewatch import PageWatch

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
RUN_ALL_SECONDS = 600
REACT_SECONDS = 30
BAD_TEXT = "not a value ¿?"
CUSTOM = re.compile(r"(?i)custom|your own|typed")
SETTINGS = {  # every cell stays in the page, no news, no update checks
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false", "checkForUpdates": False},
}
# Lab itself logs these when it runs without a network or an extension manager.
LAB_NOISE = ("Failed to fetch", "ERR_FAILED", "ERR_ABORTED", "net::")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scratch_root(base: Path) -> Path:
    """Copy notebooks/, data/, figures/ and write fresh JupyterLab settings."""
    for folder in ["notebooks", "data", "figures"]:
        shutil.copytree(ROOT / folder, base / folder,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "partial"))
    for name, values in SETTINGS.items():
        path = base / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return base


def wait_until_up(url: str, process: subprocess.Popen, log: Path, seconds: float = 120) -> None:
    """Wait for the server to answer; if it exits, fail with the end of its log."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = "\n".join(log.read_text().splitlines()[-5:])
            raise RuntimeError(f"JupyterLab exited with code {process.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(1)
    raise TimeoutError(f"JupyterLab did not answer at {url} within {seconds} s")


def stop(process: subprocess.Popen) -> None:
    """Stop the server, then any kernel it left, each by its process id."""
    try:
        children = psutil.Process(process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        children = []
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    for child in children:
        try:
            child.kill()
        except psutil.NoSuchProcess:
            pass


@pytest.fixture(scope="module")
def lab(browser_context, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A JupyterLab server on the scratch notebooks; its base address with the token."""
    base = scratch_root(tmp_path_factory.mktemp("lab"))
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, PUZZLELAB_ROOT=str(base), TQDM_DISABLE="1",
               JUPYTER_CONFIG_DIR=str(base / "config"), JUPYTER_RUNTIME_DIR=str(base / "run"))
    env.pop("MPLBACKEND", None)  # kernels draw inline, as for a reader
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={base / 'notebooks'}",
        f"--LabApp.user_settings_dir={base / 'settings'}",
        f"--LabApp.workspaces_dir={base / 'workspaces'}", "--LabApp.expose_app_in_browser=True",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
    ]
    if os.geteuid() == 0:  # CI runs as root
        command.append("--allow-root")
    log = open(base / "lab.log", "w")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}/api/status?token={token}", process,
                      base / "lab.log")
        yield f"http://127.0.0.1:{port}/lab/tree/{{}}.ipynb?token={token}&reset"
    finally:
        stop(process)
        log.close()


FIND = """const find = path => Array.from(window.jupyterapp.shell.widgets('main'))
    .find(w => w.context && w.context.path === path);"""
OPENED = FIND + """ return path => {
    const panel = find(path);
    return !!(panel && panel.content);
}"""
OPEN = FIND + """ return async path => {
    const panel = find(path);
    await panel.context.ready; await panel.sessionContext.ready;
    window.jupyterapp.shell.activateById(panel.id);
    await window.jupyterapp.commands.execute('notebook:run-all-cells');
}"""
IDLE = FIND + """ return path => {
    const panel = find(path);
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    if (!kernel || kernel.status !== 'idle') return false;
    const cells = Array.from(panel.content.widgets);
    return cells.every(c => c.model.type !== 'code' || c.model.executionCount !== null);
}"""
ERRORS = FIND + """ return path => {
    const found = [];
    find(path).content.widgets.forEach((cell, i) => {
        if (cell.model.type !== 'code') return;
        for (const out of cell.model.outputs.toJSON()) {
            const text = JSON.stringify(out);
            if (out.output_type === 'error') found.push(`cell ${i}: ${out.ename}: ${out.evalue}`);
            else if (text.includes('Traceback')) found.push(`cell ${i}: a traceback is shown`);
        }
    });
    return found;
}"""
SHUTDOWN = FIND + """ return async path => {
    const panel = find(path);
    if (!panel) return;
    panel.context.model.dirty = false;
    await panel.sessionContext.shutdown();
}"""


def js(body: str) -> str:
    """A page function of one argument (the notebook's path) from a script that returns one."""
    return f"arg => (() => {{ {body} }})()(arg)"


def output_of(area) -> str:
    """What an interactive cell's output area shows: its text and its pictures' sources."""
    return area.evaluate("""a => a.innerText + Array.from(a.querySelectorAll('img'))
        .map(i => i.src.slice(-200)).join('|')""")


def wait_for_change(page, area, before: str, path: str) -> bool:
    """Wait until the output area differs from `before` and the kernel is idle again."""
    try:
        page.wait_for_function(
            """([a, before]) => {
                const now = a.innerText + Array.from(a.querySelectorAll('img'))
                    .map(i => i.src.slice(-200)).join('|');
                return now !== before;
            }""", arg=[area.element_handle(), before], timeout=REACT_SECONDS * 1000)
        page.wait_for_function(js(IDLE), arg=path, timeout=REACT_SECONDS * 1000)
        return True
    except Exception:  # noqa: BLE001 (a Playwright timeout)
        return False


def move(page, control):
    """Change one control once, as a reader would: (kind of control, how to put it back)."""
    classes = control.get_attribute("class") or ""
    if control.locator("select").count():
        select = control.locator("select")
        n, now = select.locator("option").count(), select.evaluate("s => s.selectedIndex")
        select.select_option(index=(now + 1) % n)
        return "dropdown", lambda: select.select_option(index=now)
    if control.locator(".noUi-handle").count():
        handle = control.locator(".noUi-handle").first
        at_max = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
        keys = ["ArrowLeft", "ArrowRight"][:: -1 if at_max else 1]
        handle.focus()
        page.keyboard.press(keys[1])
        return "slider", lambda: (handle.focus(), page.keyboard.press(keys[0]))
    if control.locator("input[type=number]").count():
        box = control.locator("input[type=number]")
        old = box.input_value()
        box.fill(str(int(float(old or 0)) + 1))
        box.press("Enter")
        return "number", lambda: (box.fill(old), box.press("Enter"))
    if control.locator("input[type=checkbox]").count():
        box = control.locator("input[type=checkbox]")
        box.click()
        return "checkbox", box.click
    if "widget-toggle-buttons" in classes:
        active = control.locator("button.mod-active")
        old = active.first.inner_text() if active.count() else None
        control.locator("button:not(.mod-active)").first.click()
        return "toggle buttons", lambda: old and control.get_by_role(
            "button", name=old, exact=True).first.click()
    if control.locator("input[type=text], textarea").count():
        box = control.locator("input[type=text], textarea").first
        old = box.input_value()
        box.fill(BAD_TEXT)
        box.press("Enter")
        return "text", lambda: (box.fill(old), box.press("Enter"))
    return "", None


def settle(page, area, output: str) -> None:
    """Wait (briefly) for the output area to show `output` again after a control is put back."""
    try:
        page.wait_for_function(
            """([a, want]) => a.innerText + Array.from(a.querySelectorAll('img'))
                .map(i => i.src.slice(-200)).join('|') === want""",
            arg=[area.element_handle(), output], timeout=REACT_SECONDS * 1000)
    except Exception:  # noqa: BLE001 (a Playwright timeout: go on from where it is)
        pass


def run_button(interact):
    button = interact.locator("button.widget-button", has_text="Run")
    return button if button.count() else None


def choose_custom(page, interact, area, before: str, path: str):
    """Pick a dropdown option such as "custom" (a text box may be read only then): the output,
    and how to put the dropdown back."""
    for select in interact.locator("select").all():
        labels = select.locator("option").all_inner_texts()
        wanted = [i for i, label in enumerate(labels) if CUSTOM.search(label)]
        now = select.evaluate("s => s.selectedIndex")
        if wanted and now != wanted[0]:
            select.select_option(index=wanted[0])
            if run_button(interact) is not None:
                run_button(interact).click()
            wait_for_change(page, area, before, path)
            return output_of(area), lambda: select.select_option(index=now)
    return before, lambda: None


def check_interact(page, interact, path: str) -> list[str]:
    """Change each control of one interactive cell once from its opening view (and put it
    back); the problems found."""
    area = interact.locator(".widget-output").last
    opening = output_of(area)
    problems = [f"opens on a message instead of a result: {opening[:200]}"] if "⚠" in opening else []
    controls = interact.locator(":scope > :not(.widget-output)")
    for i in range(controls.count()):
        control = controls.nth(i)
        if control.is_visible():
            problems += check_control(page, interact, area, control, i, path)
    return problems


def check_control(page, interact, area, control, i: int, path: str) -> list[str]:
    """Change one control once and put it back (with a dropdown moved to make a text box
    count, such as "custom"), so that the next control starts from the opening view."""
    label = (control.locator("label").first.inner_text()
             if control.locator("label").count() else f"control {i}")
    run = run_button(interact)
    opening = before = output_of(area)
    restore = lambda: None  # noqa: E731
    if control.locator("input[type=text], textarea").count():
        before, restore = choose_custom(page, interact, area, before, path)
    kind, undo = move(page, control)
    problems = []
    if kind and run is not None:
        run.click()
    if kind and not wait_for_change(page, area, before, path):
        problems.append(f"{label} ({kind}): the output did not change")
    elif kind:
        shown = output_of(area)
        if "Traceback" in shown:
            problems.append(f"{label} ({kind}): a traceback is shown")
        if kind == "text" and "⚠" not in shown:
            problems.append(f"{label}: {BAD_TEXT!r} gives no readable message: {shown[:200]}")
    if kind:
        undo()
    restore()
    if run is not None:
        run.click()
    settle(page, area, opening)
    return problems


LIVE = NOTEBOOKS


@pytest.mark.parametrize("name", LIVE)
def test_notebook_runs_in_jupyterlab_and_its_widgets_react(browser_context, lab: str, name):
    page = browser_context.new_page()
    watch = PageWatch(page, ignore_console=LAB_NOISE)
    try:
        path = f"{name}.ipynb"
        page.goto(lab.format(name), wait_until="load")
        page.wait_for_function("() => window.jupyterapp !== undefined", timeout=60_000)
        page.wait_for_function(js(OPENED), arg=path, timeout=60_000)
        page.evaluate(js(OPEN), path)
        page.wait_for_function(js(IDLE), arg=path, timeout=RUN_ALL_SECONDS * 1000, polling=1000)
        problems = page.evaluate(js(ERRORS), path)
        body = page.inner_text("#main")
        if "Error displaying widget" in body:
            problems.append("a widget shows 'Error displaying widget'")
        interacts = page.locator(".jp-Cell .widget-interact")
        for i in range(interacts.count()):
            interact = interacts.nth(i)
            interact.scroll_into_view_if_needed()
            problems += [f"interactive cell {i + 1}: {p}"
                         for p in check_interact(page, interact, path)]
        problems += page.evaluate(js(ERRORS), path)
        problems += watch.problems + [f"request off the machine: {u}" for u in watch.outside]
        assert not problems, f"{name}.ipynb in JupyterLab:\n" + "\n".join(problems)
    finally:
        try:
            page.evaluate(js(SHUTDOWN), f"{name}.ipynb")
        finally:
            page.close()
