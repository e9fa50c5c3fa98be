"""The rigid-split search (`puzzlelab.hats.rigid`), checked against its definition: full sets
found by brute force over every small set of positions, N = 4, M = 4's sets rebuilt from
whole lines with numpy, and the placing of partial positions decided again by CP-SAT."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from ortools.sat.python import cp_model

from puzzlelab.hats import rigid, slack


def _lines(m: int) -> list[set]:
    """Every line of the cube [M]^3: all positions that agree outside one coordinate."""
    out = []
    for j in range(3):
        for rest in itertools.product(range(m), repeat=2):
            out.append({rest[:j] + (a,) + rest[j:] for a in range(m)})
    return out


def _is_rigid_full_set(full: set, lines: list[set]) -> bool:
    """The definition: every full position alone among full positions on exactly two lines."""
    return all(sum(len(ln & full) == 1 for ln in lines if p in ln) == 2 for p in full)


def _shared(full: set, lines: list[set]) -> int:
    return sum(len(ln & full) >= 2 for ln in lines)


@pytest.mark.parametrize("m, most", [(3, 6), (4, 3)])
def test_the_full_sets_are_those_of_the_definition_by_brute_force(m, most):
    lines = _lines(m)
    assert len(lines) == 3 * m * m == len(rigid.cube_lines(m))
    assert {frozenset(ln) for ln in lines} == set(rigid.cube_lines(m))
    fitting = 0
    for f in range(2, most + 1):
        by_hand: dict[int, set] = {}
        for full in itertools.combinations(itertools.product(range(m), repeat=3), f):
            full = set(full)
            if _is_rigid_full_set(full, lines):
                by_hand.setdefault(_shared(full, lines), set()).add(frozenset(full))
        for g in range(0, f // 2 + 1):
            zero = 3 * m * m - 2 * f - g  # lines: one-full, zero-full, shared
            assert set(rigid.full_sets(m, f, g)) == by_hand.get(g, set())
            found = rigid.rigid_structures(m, f, zero, zero, limit=None)
            fits = {s for s in by_hand.get(g, set()) if _partials_fit_cp_sat(m, s)}
            assert set(found) == fits
            fitting += len(fits)
    assert (fitting > 0) == (m == 3)  # three colours: six full positions leave room (27 sets)


def _partials_fit_cp_sat(m: int, full: set) -> bool:
    """Partial positions off the full set: exactly one on each line without a full position,
    every one on such a line and on no second one (CP-SAT, no counting shortcut)."""
    lines = [ln for ln in _lines(m) if not ln & full]
    model = cp_model.CpModel()
    part = {p: model.NewBoolVar("") for p in itertools.product(range(m), repeat=3)
            if p not in full}
    for ln in lines:
        model.Add(sum(part[p] for p in ln) == 1)
    for p, v in part.items():
        model.Add(sum(p in ln for ln in lines) == 1).OnlyEnforceIf(v)
    model.Add(sum(part.values()) == len(lines))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.Solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return status == cp_model.OPTIMAL


def test_the_open_worlds_rigid_split_has_no_structure_rebuilt_from_whole_lines():
    """N = 4, M = 4, k = 137: 15 full positions, 14 partial, 14 lines without a full one, so
    3 * 16 - 30 - 14 = 4 shared lines holding 15 positions: three whole lines and three
    positions of a fourth. Every such set meeting the definition is built here with numpy, the
    library finds the same 1,152, and CP-SAT places partial positions on none of them."""
    m = 4
    row = slack.split_counts(4, 4, 137, 35, 14, 0)
    assert row["rigid_structures"] == 0 and row["excluded"] and row["free_lines"] == row["needed"]
    lines = _lines(m)
    index = {p: i for i, p in enumerate(itertools.product(range(m), repeat=3))}
    masks = np.array([[index[p] in {index[q] for q in ln} for p in index] for ln in lines])
    candidates = []
    for four in itertools.combinations(range(len(lines)), 4):
        if masks[list(four)].sum(axis=0).max() > 1:
            continue  # the shared lines are disjoint
        for short in four:
            for gone in np.flatnonzero(masks[short]):
                full = masks[list(four)].any(axis=0).copy()
                full[gone] = False
                candidates.append(full)
    candidates = np.array(candidates)
    on_line = candidates.astype(int) @ masks.T.astype(int)  # full positions on each line
    alone = (on_line == 1).astype(int) @ masks.astype(int)  # one-full lines through a position
    good = candidates[((alone == 2) | ~candidates).all(axis=1)]
    positions = list(index)
    found = {frozenset(positions[i] for i in np.flatnonzero(f)) for f in good}
    assert len(found) == 1152
    assert found == set(rigid.full_sets(m, 15, 4))
    assert not any(_partials_fit_cp_sat(m, set(s)) for s in found)


def test_bad_counts_are_refused_by_name(monkeypatch):
    with pytest.raises(ValueError, match="n_colors"):
        rigid.cube_lines(1)
    with pytest.raises(ValueError, match="full"):
        rigid.rigid_structures(4, -1, 0, 0)
    with pytest.raises(ValueError, match="limit"):
        rigid.rigid_structures(4, 4, 0, 0, limit=0)
    with pytest.raises(ValueError, match="set of positions of the cube"):
        rigid.partials_fit(4, {(0, 0, 4)})
    monkeypatch.setattr(rigid, "MAX_TRIES", 1000)
    with pytest.raises(ValueError, match="tries more than 1,000 groups"):
        sum(1 for _ in rigid.full_sets(4, 20, 8))
    assert rigid.rigid_structures(4, 15, 13, 14) == []  # one partial position a line
