"""Generalized Russian Cards (a, b, c): verified announcements, the report's solver, grids.

Source: the student report ``000_0345cfe31a1e6c99.txt``. Layout:

- ``model``         hands, validation, Rule 1 (`is_informative`) and Rule 2 (`is_safe`), views
- ``kripke``        the independent check by epistemic model (uses ``puzzlelab.epistemic``)
- ``search``        the report's depth-first solver, exhaustive enumeration, CP-SAT model
- ``constructions`` announcements from the literature (sum modulo m, finite planes, ...)
- ``symmetry``, ``orbits``  the symmetry-broken CP-SAT cases and the cyclic-orbit witnesses
- ``report``        the report's appendix parsed from its text, the report's rule variants
- ``solver``        `decide` (witness or proof per size), `solve`, `safe_announcements`
- ``grid``          solvability grids, the report's tables, plots and `explore_…` functions
"""

from .constructions import first_construction, plane, power_sums, sum_mod
from .kripke import ModelCheck, deal_model, deals, model_check
from .model import (
    Announcement,
    Hand,
    check_announcement,
    check_hand,
    check_sizes,
    is_informative,
    is_safe,
    is_solution,
    views,
)
from ..solvers import WallClockStop
from .search import DfsResult, report_dfs
from .solver import Verdict, decide, lemma, lemma_proof, safe_announcements, solve

__all__ = [
    "Announcement", "DfsResult", "Hand", "ModelCheck", "Verdict", "check_announcement",
    "check_hand", "check_sizes", "deal_model", "deals", "decide", "first_construction",
    "is_informative", "is_safe", "is_solution", "lemma", "lemma_proof", "model_check", "plane", "power_sums",
    "report_dfs", "safe_announcements", "solve", "sum_mod", "views", "WallClockStop",
]
