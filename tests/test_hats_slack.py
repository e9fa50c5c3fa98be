"""The full-line lemma with slack (`puzzlelab.hats.slack`), checked three ways: never below an
optimum found without it, each step of its count measured on real won sets (plain code here,
none of the library's counting), and its verdicts against CP-SAT deciding the reduced structure
exactly in small worlds."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from puzzlelab.cache import read_table
from puzzlelab.hats import sets, slack

WORLDS = [(3, 2), (4, 2), (5, 2), (2, 3), (3, 3), (4, 3), (5, 3), (2, 4), (3, 4), (4, 4)]


def test_the_bound_is_never_below_a_proven_optimum_and_never_above_the_full_line_bound():
    from puzzlelab.hats.fullline import full_line_upper_bound

    optima = read_table("hats_optima")
    for r in optima.itertuples():
        if r.n_colors ** r.n_players <= 256:
            bound = slack.slack_upper_bound(r.n_players, r.n_colors)
            assert r.lower <= bound <= full_line_upper_bound(r.n_players, r.n_colors)


def _measured(won: set, n: int, m: int) -> dict:
    """The quantities of the count, measured on one won set in its busiest direction."""
    lost = set(itertools.product(range(m), repeat=n)) - won
    others = list(itertools.product(range(m), repeat=n - 1))

    def layer(p, d, a):
        return p[:d] + (a,) + p[d:]

    serving = [sum(sum(layer(p, d, a) in won for a in range(m)) == 1 for p in others)
               for d in range(n)]
    assert sum(serving) >= len(won)  # every won round has its own serving line
    d = max(range(n), key=serving.__getitem__)
    count = {p: sum(layer(p, d, a) in won for a in range(m)) for p in others}
    full = [p for p, v in count.items() if v == m]
    free_lines, one_direction = [0] * (n - 1), 0
    for p in full:
        served = {}
        for j in range(n - 1):
            line = [p[:j] + (b,) + p[j + 1:] for b in range(m) if b != p[j]]
            served[j] = {a for a in range(m) if all(layer(q, d, a) in lost for q in line)}
            free_lines[j] += bool(served[j])
        assert set().union(*served.values()) == set(range(m))  # every layer of p is served
        if any(len(s) == m for s in served.values()):
            one_direction += 1
    return dict(k=len(won), u=serving[d], full=len(full), free_lines=free_lines,
                empty=sum(v == 0 for v in count.values()), one_direction=one_direction,
                nonfull=len(others) - len(full))


def _won_sets(n: int, m: int, rng: random.Random) -> list[set]:
    """The best deal known for the world and 20 of its subsets (removing won rounds keeps a set
    achievable), down to about 70% of it."""
    best = int(read_table("hats_optima").set_index(["n_players", "n_colors"])
               .witness_hex[(n, m)], 16)
    rounds = sets.to_rounds(best, n, m)
    out = [set(rounds)]
    for _ in range(20):
        out.append(set(rng.sample(sorted(rounds), len(rounds) - rng.randrange(len(rounds) // 3))))
    return out


@pytest.mark.parametrize("n, m", WORLDS)
def test_every_step_of_the_count_holds_on_real_won_sets(n, m):
    rng = random.Random(n * 10 + m)
    for won in _won_sets(n, m, rng):
        got = _measured(won, n, m)
        counts = slack.case_counts(n, m, got["k"], got["u"])
        assert got["u"] in slack.cases(n, m, got["k"])
        assert got["full"] >= counts["full"] and got["empty"] <= counts["empty"]
        assert got["one_direction"] <= min(
            got["full"], math.comb(got["empty"], m - 1) if m > 2 else got["empty"] * (n - 1))
        assert all(f <= got["nonfull"] // (m - 1) for f in got["free_lines"])
        assert sum(got["free_lines"]) >= 2 * got["full"] - got["one_direction"]
        assert not counts["excluded"]  # a real set's case is never ruled out


@pytest.mark.parametrize("n, m", [(4, 3), (3, 4)])  # the small worlds with cases to exclude
def test_the_count_agrees_with_cp_sat_on_the_reduced_structure(n, m):
    """Every case the count excludes, CP-SAT proves impossible on positions and layers; the case
    of the best deal known, a real won set, it does not rule out (the model is no stricter than
    the game)."""
    excluded = 0
    for k in range(m ** (n - 1) + 1, m**n + 1):
        for u in slack.cases(n, m, k):
            if slack.case_excluded(n, m, k, u):
                assert slack.reduced_feasible(n, m, k, u, work=30) is False, (n, m, k, u)
                excluded += 1
    assert excluded > 0
    best = _measured(_won_sets(n, m, random.Random(0))[0], n, m)
    assert slack.reduced_feasible(n, m, best["k"], best["u"], work=30) is not False


@pytest.mark.parametrize("n, m", [(5, 3), (4, 4)])
def test_the_certificate_of_an_open_world_rules_out_every_case_by_its_own_arithmetic(n, m):
    stored = read_table("hats_slack_certificate")
    cert = stored[(stored.n_players == n) & (stored.n_colors == m)]
    k = int(cert.k.iloc[0])
    assert k == slack.slack_upper_bound(n, m) + 1
    assert list(cert.u) == list(range(-(-k // n), (m**n - k) // (m - 1) + 1))
    for r in cert.itertuples():  # written out again from the module docstring's statements
        s = m**n - k - (m - 1) * r.u
        f = m ** (n - 1) - r.u - s
        e = s // m
        x = min(f, math.comb(e, m - 1))
        assert 2 * f - x > (n - 1) * ((m ** (n - 1) - f) // (m - 1))
    assert cert.excluded.all()


def test_impossible_cases_and_worlds_are_refused_by_name():
    with pytest.raises(ValueError, match="more than the"):
        slack.case_counts(4, 4, 200, 40)
    with pytest.raises(ValueError, match="k must be"):
        slack.cases(3, 2, 0)
    with pytest.raises(ValueError, match="u must be"):
        slack.reduced_feasible(3, 2, 5, -1)
    with pytest.raises(ValueError, match="n_colors"):
        slack.certificate(3, 1)
    # every world excludes its M**N rounds (no lost round, so no serving line): the bound exists
    assert all(slack.excluded(n, m, m**n) for n, m in WORLDS)
