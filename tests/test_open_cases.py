"""Long attempts on the open cases (puzzlelab.hats.open_cases, puzzlelab.russian_cards.open_cases),
run here on small worlds and sizes whose answers are known another way."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest
from ortools.sat.python import cp_model

from puzzlelab import cache
from puzzlelab.cache import read_table
from puzzlelab.hats import open_cases as hats_open
from puzzlelab.hats.sets import achievable_mask
from puzzlelab.russian_cards import open_cases as rc_open
from puzzlelab.russian_cards.grid import parse_announcement
from puzzlelab.russian_cards.model import is_solution
from puzzlelab.russian_cards.orbits import verified_witness
from puzzlelab.russian_cards.model import subset_masks
from puzzlelab.russian_cards.search import add_rule2, rule2_size
from puzzlelab.russian_cards.solver import lemma, rule2_literals
from puzzlelab.russian_cards.symmetry import case_hand_masks, case_literals, case_model, case_range


def most_won_by_enumeration(n: int, m: int) -> int:
    """The optimum by trying every set of rounds (2**(M**N) sets: tiny worlds only)."""
    return max(bin(w).count("1") for w in range(2 ** m**n) if achievable_mask(w, n, m))


def open_row(n: int, m: int, won: int, upper: int) -> pd.DataFrame:
    return pd.DataFrame([dict(n_players=n, n_colors=m, lower=won.bit_count(), upper=upper,
                              proven=False, witness_hex=f"{won:x}")])


@pytest.mark.parametrize("n,m", [(2, 3), (2, 4)])
def test_a_long_attempt_from_a_weaker_deal_reaches_the_enumerated_optimum(n, m, tmp_path,
                                                                          monkeypatch):
    monkeypatch.setattr(cache, "DATA", tmp_path)  # its resumable chunks go to a scratch folder
    single = sum(1 << (c * m + c) for c in range(m))  # player 2 guesses player 1's colour
    assert achievable_mask(single, n, m)
    table = open_row(n, m, single, m**n)
    rows = hats_open.long_attempts(table, 5.0, name="test_open_hats")
    best = most_won_by_enumeration(n, m)
    assert rows.loc[0, ["lower", "upper", "status"]].tolist() == [best, best, "OPTIMAL"]
    hats_open.check_attempts(rows)


def test_open_worlds_are_the_unproven_rows_of_the_committed_optima():
    optima = read_table("hats_optima")
    worlds = hats_open.open_worlds(optima)
    assert [(n, m) for n, m, *_ in worlds] == [
        (int(r.n_players), int(r.n_colors)) for r in optima.itertuples() if not r.proven]
    for n, m, lower, upper, witness in worlds:
        assert lower < upper and achievable_mask(int(witness, 16), n, m)


def test_a_stored_attempt_with_a_wrong_deal_or_bounds_is_refused():
    row = dict(n_players=2, n_colors=3, lower_before=2, upper_before=9, lower=4, upper=4,
               status="OPTIMAL", work_limit=5.0, work_units=0.1, cpu_seconds=0,
               witness_hex=f"{0b11:x}")  # rounds 0 and 1 share a line: not a won set of 4
    with pytest.raises(ValueError, match="not a won set of 4"):
        hats_open.check_attempts(pd.DataFrame([row]))
    row.update(witness_hex=f"{0x4e:x}", upper=10)  # 4 won rounds, but upper above upper_before
    with pytest.raises(ValueError, match="do not lie within"):
        hats_open.check_attempts(pd.DataFrame([row]))


def test_the_page_view_of_a_world_attempt_shows_the_bounds_it_leaves():
    from puzzlelab.hats.notebook import open_world_runs

    optima = read_table("hats_optima").set_index(["n_players", "n_colors"])
    best = int(optima.witness_hex[(4, 3)], 16)
    less = best & (best - 1)  # one won round fewer: still a won set, 47 of 48
    row = hats_open.attempt_row((4, 3, less.bit_count(), 48, f"{less:x}", 2.0))
    view = open_world_runs(pd.DataFrame([row]).reindex(columns=hats_open.ATTEMPT_COLUMNS))
    assert view.loc[0, "before"] == "47–48"
    assert view.loc[0, "after"] == ("48" if row["lower"] == 48 else f"47–{row['upper']}")
    assert view.loc[0, "work units"] <= 2 and view.loc[0, "CPU hours"] >= 0
    with pytest.raises(ValueError, match="the attempts table"):
        open_world_runs(pd.DataFrame({"n_players": [4]}))


def test_open_cells_are_the_open_rows_of_the_wide_grid():
    grid = read_table("russian_cards_grid_n17_20")
    cells = rc_open.open_cells(grid)
    assert len(cells) == int((grid.status == "open").sum()) > 0
    assert all(a + b + c >= 17 for a, b, c in cells)


@pytest.mark.parametrize("abc", [(6, 2, 1), (5, 5, 2)])
def test_an_attempt_on_a_solvable_size_returns_an_announcement_the_verifier_accepts(abc):
    row = rc_open.attempt_row((*abc, 5.0))
    assert row["status"] == "solvable"
    assert is_solution(parse_announcement(row["witness"]), *abc)
    rc_open.check_attempts(pd.DataFrame([row]))


def test_a_stored_attempt_with_a_broken_announcement_is_refused():
    row = rc_open.attempt_row((6, 2, 1, 5.0))
    hands = row["witness"].split("|")
    row["witness"] = "|".join(hands[:1] + hands[2:])  # one hand fewer: no longer informative
    assert not is_solution(parse_announcement(row["witness"]), 6, 2, 1)
    with pytest.raises(ValueError, match="not safe and informative"):
        rc_open.check_attempts(pd.DataFrame([row]))


def test_attempts_refuse_impossible_sizes_and_limits():
    with pytest.raises(ValueError, match="hand size a"):
        rc_open.attempt_row((0, 2, 1, 5.0))
    with pytest.raises(ValueError, match="work"):
        rc_open.attempt_row((3, 3, 1, -1.0))
    with pytest.raises(ValueError, match="not a won set"):
        hats_open.attempt_row((2, 3, 3, 9, "3", 5.0))
    with pytest.raises(ValueError, match=r"a tuple \(N, M, lower, upper, deal, work\), got 2 items"):
        hats_open.attempt_row((2, 3))
    with pytest.raises(ValueError, match=r"a tuple \(a, b, c, work\), got 3 items"):
        rc_open.attempt_row((3, 3, 1))


@pytest.mark.parametrize("abc", [(3, 3, 2), (4, 4, 1), (8, 6, 3), (12, 5, 3)])
def test_the_hunt_groups_are_distinct_permutations_of_the_cards(abc):
    n = sum(abc)
    groups = rc_open.attempt_groups(*abc)
    assert len({name for name, _ in groups}) == len(groups)
    for _, gens in groups:
        assert all(sorted(g) == list(range(n)) for g in gens)


@pytest.mark.parametrize("n,d", [(7, 3), (8, 4), (20, 6), (5, 5)])
def test_disjoint_cycles_have_the_order_and_fixed_cards_they_say(n, d):
    g = rc_open.cycles_of(n, d)
    power = list(range(n))
    for _ in range(d):
        power = [g[q] for q in power]
    assert power == list(range(n))  # order divides d ...
    assert sum(g[q] == q for q in range(n)) == n % d  # ... and the n mod d last cards are fixed
    assert all(g[q] != q for q in range(n - n % d))


def test_the_orbit_hunt_proves_every_group_empty_where_a_lemma_rules_the_size_out():
    assert lemma(3, 3, 2) is not None  # a <= c + 1: no announcement at all
    ann, spent, summary = rc_open.orbit_hunt(3, 3, 2, 50.0)
    groups = len(rc_open.attempt_groups(3, 3, 2))
    assert ann is None and spent < 50.0
    assert f"{groups} groups ({groups} proved to have none; no group undecided" in summary


def test_a_tiny_budget_builds_one_orbit_model_however_cheaply_groups_are_ruled_out():
    assert [rc_open.model_allowance(w) for w in (0.01, 0.5, 1.0, 2.9, 120.0)] == [1, 1, 1, 2, 120]
    ann, spent, summary = rc_open.orbit_hunt(3, 3, 2, 0.5)
    groups = len(rc_open.attempt_groups(3, 3, 2))
    assert groups > 1 and ann is None
    assert summary.startswith(f"no witness on orbits of {groups} groups (")
    assert summary.endswith("; all 1 models allowed built)")


def test_a_witness_is_renamed_to_hold_annes_hand_and_refused_when_unsafe():
    ann = rc_open.hunt_row((5, 5, 2, 5.0))["witness"]
    hands = [[(q + 3) % 12 for q in h] for h in parse_announcement(ann)]  # the cards renamed
    renamed = verified_witness(5, 5, 2, hands, "a test")
    assert (0, 1, 2, 3, 4) in renamed and is_solution(renamed, 5, 5, 2)
    with pytest.raises(ValueError, match="a test for \\(5, 5, 2\\): .* fails the verifier"):
        verified_witness(5, 5, 2, hands[:1], "a test")  # Cath sees it all
    with pytest.raises(ValueError, match="listed twice"):
        verified_witness(5, 5, 2, hands + hands[:1], "a test")


def test_the_hunt_alone_finds_a_witness_the_verifier_accepts_or_reports_the_size_open():
    found = rc_open.hunt_row((5, 5, 2, 5.0))
    assert found["status"] == "solvable"
    assert is_solution(parse_announcement(found["witness"]), 5, 5, 2)
    none = rc_open.hunt_row((3, 3, 2, 5.0))  # Lemma A: no announcement, so no witness either
    assert none["status"] == "open" and none["witness"] == ""
    rc_open.check_attempts(pd.DataFrame([found, none]).reindex(columns=rc_open.ATTEMPT_COLUMNS))


def test_the_page_view_keeps_one_row_per_size_the_long_attempt_over_the_hunt():
    from puzzlelab.russian_cards.notebook import open_size_runs

    hunt = pd.DataFrame([rc_open.hunt_row((5, 5, 2, 5.0)), rc_open.hunt_row((3, 3, 2, 5.0))])
    attempts = pd.DataFrame([rc_open.attempt_row((3, 3, 2, 5.0))])
    view = open_size_runs(hunt, attempts).set_index("size")
    assert list(view.index) == ["(5,5,2)", "(3,3,2)"]
    assert view.loc["(5,5,2)", "hands"] == len(hunt.witness[0].split("|"))
    assert view.loc["(3,3,2)", ["status", "run"]].tolist() == ["unsolvable", "long attempt"]
    assert open_size_runs(None, None).empty


def safe_and_informative_by_hand(hands: list[frozenset], a: int, b: int, c: int) -> bool:
    """Rules 1 and 2 straight from their statements (no library code): every two hands share at
    most a - c - 1 cards; for every hand Cath may hold beside an announced hand and every other
    card, the announced hands avoiding her cards both hold and miss that card."""
    n = a + b + c
    if any(len(h) != a or not h <= set(range(n)) for h in hands):
        return False
    if any(len(h & k) > a - c - 1 for i, h in enumerate(hands) for k in hands[i + 1:]):
        return False
    for cath in itertools.combinations(range(n), c):
        kept = [h for h in hands if not h & set(cath)]
        for y in set(range(n)) - set(cath):
            if kept and (all(y in h for h in kept) or all(y not in h for h in kept)):
                return False
    return True


@pytest.mark.parametrize("name", ["russian_cards_open_hunt"])
def test_stored_witnesses_of_open_sizes_pass_a_check_written_from_the_rules(name):
    table = read_table(name)
    grid_open = set(rc_open.open_cells(read_table("russian_cards_grid_n17_20")))
    assert set(zip(table.a, table.b, table.c)) == grid_open
    solved = table[table.status == "solvable"]
    assert len(solved) > 0
    for r in solved.itertuples():
        hands = [frozenset(int(x) for x in h.split()) for h in r.witness.split("|")]
        assert frozenset(range(r.a)) in hands  # Anne's hand 0..a-1 is announced
        assert safe_and_informative_by_hand(hands, r.a, r.b, r.c), (r.a, r.b, r.c)


def test_the_check_from_the_rules_agrees_with_the_verifier_on_a_witness_and_its_subsets():
    row = rc_open.hunt_row((5, 5, 2, 5.0))
    hands = [frozenset(h) for h in parse_announcement(row["witness"])]
    for drop in range(len(hands) + 1):
        subset = hands[:drop] + hands[drop + 1:]
        assert safe_and_informative_by_hand(subset, 5, 5, 2) == is_solution(
            tuple(sorted(tuple(sorted(h)) for h in subset)), 5, 5, 2)
    assert not safe_and_informative_by_hand(hands[1:], 5, 5, 2)


# -- the second round: the symmetry cases from where the first attempt stopped ------------------
GRID = read_table("russian_cards_grid")


def grid_status(a: int, b: int, c: int) -> str:
    """The committed grid's verdict (`solver.decide`: lemmas, constructions, CP-SAT)."""
    return GRID.set_index(["a", "b", "c"]).status[(a, b, c)]


@pytest.mark.parametrize("abc", [(4, 4, 2), (4, 6, 2), (6, 5, 3), (5, 4, 2), (5, 5, 2),
                                 (6, 4, 2), (3, 3, 1), (7, 5, 3)])
def test_the_cases_from_the_first_agree_with_the_grid(abc):
    end = rc_open.focus_cases(*abc, case_range(*abc).start, 50.0)
    assert end.status == grid_status(*abc)
    assert (end.witness is not None) == (end.status == "solvable")
    assert end.stopped is end.why is None  # it ended, so it stopped at no case
    if end.witness is not None:
        assert is_solution(end.witness, *abc) and end.witness[0] == tuple(range(abc[0]))
    else:
        assert end.detail.endswith("hence no announcement exists (case lemma, symmetry.py)")


def test_a_second_round_from_a_later_case_says_the_earlier_cases_were_proved_before():
    row = rc_open.focus_row((6, 7, 3, 50.0, 2))
    assert grid_status(6, 7, 3) == row["status"] == "unsolvable"
    assert row["detail"].startswith("from case k=2; the cases below k=2 proved INFEASIBLE before")
    assert "k=1:" not in row["detail"] and "k=2: INFEASIBLE" in row["detail"]
    rc_open.check_attempts(pd.DataFrame([row]).reindex(columns=rc_open.ATTEMPT_COLUMNS))


def test_a_second_round_stops_at_a_case_whose_model_is_too_large(monkeypatch):
    sizes = [case_literals(7, 6, 3, k) for k in case_range(7, 6, 3)]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]  # larger overlaps admit more hands
    monkeypatch.setattr(rc_open, "FOCUS_LITERALS", sizes[-1] - 1)
    row = rc_open.focus_row((7, 6, 3, 50.0, case_range(7, 6, 3).start))
    last = case_range(7, 6, 3)[-1]
    assert row["status"] == "open"
    assert row["method"] == f"open (size): case k={last}'s model too large"
    assert f"case k={last}'s model would hold {sizes[-1]:,} literals" in row["detail"]
    end = rc_open.focus_cases(7, 6, 3, case_range(7, 6, 3).start, 50.0, literals=sizes[-1] - 1)
    assert (end.status, end.stopped, end.why) == ("open", last, "too large")
    assert rc_open.stuck_at(row) == last  # a third round would go on from that case


def test_a_tiny_budget_leaves_the_second_round_open_where_it_stopped():
    row = rc_open.focus_row((7, 6, 3, 0.01, 3))  # the grid needed 16 units on case k=3
    assert row["status"] == "open" and row["method"].endswith("in case k=3")
    assert rc_open.stuck_at(row) == 3  # a third round would go on from the same case
    end = rc_open.focus_cases(7, 6, 3, 3, 0.01)
    assert (end.status, end.stopped, end.why) == ("open", 3, "limit")


def test_a_case_proved_past_the_budget_leaves_the_next_one_not_reached(monkeypatch):
    first = case_range(7, 6, 3).start
    monkeypatch.setattr(rc_open, "work_used", lambda res: 6.0)  # each proof overran 5 units
    end = rc_open.focus_cases(7, 6, 3, first, 5.0)
    assert (end.status, end.stopped, end.why) == ("open", first + 1, "not reached")
    assert end.work == 6.0 and end.detail.endswith(f"case k={first + 1} not reached")
    row = rc_open.focus_row((7, 6, 3, 5.0, first))
    assert row["method"] == f"open (limit): CP-SAT 5 work units in case k={first + 1}"
    assert rc_open.stuck_at(row) == first + 1


def test_case_literals_count_the_clauses_rule_2_writes_and_the_whole_model_formula():
    model = cp_model.CpModel()
    hands = np.array(case_hand_masks(6, 7, 3, 2), dtype=np.int64)
    add_rule2(model, hands, 16, 3)
    written = sum(len(ct.bool_or.literals) for ct in model.proto.constraints)
    assert case_literals(6, 7, 3, 2) == rule2_size(hands, 16, 6, 3) == written
    every = np.array(subset_masks(13, 5), dtype=np.int64)  # every hand of (5,5,3)
    assert rule2_size(every, 13, 5, 3) == rule2_literals(5, 5, 3)


def test_where_each_committed_attempt_stopped_is_a_case_of_its_size():
    attempts = read_table("russian_cards_open_attempts")
    for r in attempts[attempts.status == "open"].to_dict("records"):
        k = rc_open.stuck_at(r)
        assert k in case_range(r["a"], r["b"], r["c"])
        if r["method"].startswith("open (limit)"):
            assert f"case k={k} undecided at the work limit" in r["detail"]
            assert f"largest overlap k={k - 1}: INFEASIBLE" in r["detail"] or k == case_range(
                r["a"], r["b"], r["c"]).start


def test_the_second_round_refuses_what_it_cannot_go_on_from():
    solved = dict(a=6, b=11, c=3, status="solvable", method="CP-SAT on orbits", detail="")
    with pytest.raises(ValueError, match="is solvable, not open"):
        rc_open.stuck_at(solved)
    with pytest.raises(ValueError, match="does not say where it stopped"):
        rc_open.stuck_at(solved | dict(status="open", method="open: something else"))
    with pytest.raises(ValueError, match="k must be an integer between 0 and 2"):
        rc_open.focus_row((6, 7, 3, 5.0, 3))
    with pytest.raises(ValueError, match="work"):
        rc_open.focus_row((6, 7, 3, 0.0, 1))


def test_the_page_view_adds_the_second_round_to_the_first():
    from puzzlelab.russian_cards.notebook import open_size_rounds

    first = rc_open.attempt_row((7, 6, 3, 0.01))  # the smallest budget: stopped in a case
    assert first["status"] == "open" and first["method"].startswith("open (limit)")
    table = pd.DataFrame([first]).reindex(columns=rc_open.ATTEMPT_COLUMNS)
    alone = open_size_rounds(table, None)
    assert alone.loc[0, "second round"] == "not yet run"
    second = rc_open.focus_row((7, 6, 3, 50.0, rc_open.stuck_at(first)))
    both = open_size_rounds(table, pd.DataFrame([second]).reindex(
        columns=rc_open.ATTEMPT_COLUMNS))
    assert both.loc[0, "status"] == "unsolvable" == grid_status(7, 6, 3)
    assert both.loc[0, "work units"] == round(first["work_units"] + second["work_units"])
    again = rc_open.focus_row((7, 6, 3, 0.01, rc_open.stuck_at(first)))  # stuck where it was
    view = open_size_rounds(table, pd.DataFrame([again]).reindex(columns=rc_open.ATTEMPT_COLUMNS))
    assert view.loc[0, "second round"] == "case k=3 undecided at the limit again"


def test_the_second_round_runs_on_the_open_rows_of_the_attempts_table_sizes_without_a_case_first(
        tmp_path, monkeypatch):
    from puzzlelab.russian_cards import tables as rt

    monkeypatch.setattr(cache, "DATA", tmp_path)  # its tables and chunks go to a scratch folder
    monkeypatch.setattr(rt, "FOCUS_WORK", 50.0)
    limit = rc_open.attempt_row((7, 6, 3, 0.01))  # open (limit), in a case
    whole = rc_open.attempt_row((6, 5, 3, 0.01)) | dict(  # as if its model were too large
        status="open", method="open (size): orbit hunt only", witness="")
    solved = rc_open.attempt_row((5, 5, 2, 5.0))
    assert (limit["status"], solved["status"]) == ("open", "solvable")
    first = pd.DataFrame([limit, whole, solved]).reindex(columns=rc_open.ATTEMPT_COLUMNS)
    cache.compute_table(rt.OPEN_ATTEMPTS, lambda: first)
    rt.open_focus_run()
    second = rt.open_focus_table()
    assert [(r.a, r.b, r.c) for r in second.itertuples()] == [(6, 5, 3), (7, 6, 3)]
    assert list(second.status) == [grid_status(6, 5, 3), grid_status(7, 6, 3)] == [
        "unsolvable", "unsolvable"]
    assert second.detail[0].startswith(f"from case k={case_range(6, 5, 3).start}; largest")


def test_a_large_case_holds_the_machine_lock_and_a_small_one_does_not(monkeypatch, tmp_path):
    import fcntl

    lock = tmp_path / "large-case.lock"  # not the machine's: a real run may hold that one
    monkeypatch.setattr(rc_open, "LARGE_CASE_LOCK", lock)

    def lock_is_free() -> bool:
        with open(lock, "a") as other:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False
            return True

    assert lock_is_free()
    with rc_open.one_large_case(rc_open.MAX_LITERALS):
        assert lock_is_free()
    with rc_open.one_large_case(rc_open.MAX_LITERALS + 1):
        assert not lock_is_free()  # another worker's large case waits
    assert lock_is_free()
    held = []
    monkeypatch.setattr(rc_open, "MAX_LITERALS", 0)  # every case counts as large
    monkeypatch.setattr(rc_open, "case_model", lambda *args: held.append(lock_is_free()) or
                        case_model(*args))
    assert rc_open.focus_cases(6, 5, 3, 0, 10.0).status == "unsolvable"
    assert held and not any(held)
