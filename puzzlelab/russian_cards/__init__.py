"""Generalized Russian Cards (a, b, c): verified announcements, the report's solver, grids.

Source: group11_rc (the student report). The same module roles as every puzzle:

- model:   ``model`` (hands, validation, Rule 1 `is_informative`, Rule 2 `is_safe`, views)
- solvers: ``search`` (the report's depth-first solver, exhaustive enumeration, CP-SAT model),
  ``symmetry`` and ``orbits`` (symmetry-broken CP-SAT cases, cyclic-orbit witnesses),
  ``constructions`` (sum modulo m, finite planes, power sums), ``solver`` (`decide`: a
  witness or a proof per size, `solve`, `safe_announcements`), ``smallest`` and ``matrix``
  (the smallest announcements: pruned packings, the hand-model descent, the rows-by-cards
  model), ``kripke`` (the independent check by epistemic model), ``grid`` (sweeps over sizes
  on any executor, command line)
- source:  ``source`` (the report's appendix and c = 1 table read from its text, its rule
  variants)
- notebook layer: ``notebook`` (cached tables, figures, `explore_views`)
- ``reference``: slow oracles the tests cross-check the solvers against.
"""

from .constructions import first_construction, plane, power_sums, sum_mod
from .kripke import ModelCheck, deal_model, deals, model_check
from .model import (
    Announcement, Hand, check_announcement, check_hand, check_sizes, is_informative, is_safe,
    is_solution, views,
)
from .search import DfsResult, packings, report_dfs
from .solver import Verdict, decide, lemma, lemma_proof, safe_announcements, solve

__all__ = [
    "Announcement", "DfsResult", "Hand", "ModelCheck", "Verdict", "check_announcement",
    "check_hand", "check_sizes", "deal_model", "deals", "decide", "first_construction",
    "is_informative", "is_safe", "is_solution", "lemma", "lemma_proof", "model_check",
    "packings", "plane", "power_sums", "report_dfs", "safe_announcements", "solve", "sum_mod",
    "views",
]
