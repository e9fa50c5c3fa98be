"""Generalized Russian Cards (a, b, c): verified announcements, the report's solver, grids.

Source: group11_rc (the student report). Modules and roles: see the README's layout table
(model ``model``; solvers ``search``, ``symmetry``, ``orbits``, ``constructions``, ``counting``,
``solver``, ``smallest``, ``matrix``, ``kripke``, ``grid``, ``open_cases``, ``sat_cases``;
reference ``reference``; source ``source``; tables ``tables``; views ``notebook``).
"""

from ..lazy import exports

_EXPORTS = {
    "Announcement": "model", "DfsResult": "search", "Hand": "model", "ModelCheck": "kripke",
    "Verdict": "solver", "check_announcement": "model", "check_hand": "model",
    "check_sizes": "model", "deal_model": "kripke", "deals": "kripke", "decide": "solver",
    "first_construction": "constructions", "is_informative": "model", "is_safe": "model",
    "is_solution": "model", "lemma": "solver", "lemma_proof": "solver", "model_check": "kripke",
    "packings": "search", "plane": "constructions", "power_sums": "constructions",
    "report_dfs": "search", "safe_announcements": "solver", "solve": "solver",
    "sum_mod": "constructions", "views": "model",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = exports(__name__, _EXPORTS)
