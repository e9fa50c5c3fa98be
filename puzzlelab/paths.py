"""Where puzzlelab keeps its cached tables (data/) and exported figures (figures/)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(os.environ.get("PUZZLELAB_ROOT", Path(__file__).resolve().parents[1]))
DATA = ROOT / "data"
FIGURES = ROOT / "figures"
