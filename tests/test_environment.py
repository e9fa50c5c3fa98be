"""pyproject.toml is the one dependency list; environment.yml must name the same packages."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pyproject_pins() -> dict[str, str]:
    """Every pinned requirement of pyproject.toml (runtime and all extras), name -> version."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += extra
    pins = {}
    for req in reqs:
        if req.startswith("puzzlelab"):
            continue
        name, version = req.split("==")
        pins[name.lower()] = version
    return pins


def environment_pins() -> tuple[dict[str, str], list[str]]:
    """The packages environment.yml pins (conda `name=v` or pip `name==v`) and its other pip lines."""
    conda, pip, in_pip = {}, [], False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        item = re.match(r"^\s*-\s+(.*?)\s*$", line)
        if not item:
            in_pip = line.strip() == "- pip:" or (in_pip and line.startswith("      "))
            continue
        spec = item.group(1)
        if spec == "pip:":
            in_pip = True
        elif in_pip and line.startswith("      ") and "==" in spec:
            name, version = spec.split("==", 1)
            conda[name.lower()] = version
        elif in_pip and line.startswith("      "):
            pip.append(spec)
        elif "=" in spec:
            name, version = spec.split("=", 1)
            conda[name.lower()] = version
    return conda, pip


def test_every_pyproject_package_is_in_environment_yml_with_the_same_version():
    conda, _ = environment_pins()
    pins = pyproject_pins()
    assert pins, "pyproject.toml lists no pinned packages"
    missing = {n: v for n, v in pins.items() if conda.get(n) != v}
    assert not missing, f"environment.yml disagrees with pyproject.toml on {missing}"


def test_environment_yml_has_no_package_that_pyproject_lacks():
    conda, _ = environment_pins()
    extra = set(conda) - set(pyproject_pins()) - {"python"}
    assert not extra, f"environment.yml names packages pyproject.toml does not: {sorted(extra)}"


def test_environment_installs_puzzlelab_editable_with_dev_extras():
    _, pip = environment_pins()
    assert pip == ["-e .[dev]"]


def test_the_design_card_packages_are_all_there():
    for name in ["jupyterlab", "pandas", "matplotlib", "ipywidgets", "nbval", "numpy"]:
        assert name in pyproject_pins()
