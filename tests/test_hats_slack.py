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

    def line(p, j):
        return [p[:j] + (b,) + p[j + 1:] for b in range(m) if b != p[j]]

    serving = [sum(sum(layer(p, d, a) in won for a in range(m)) == 1 for p in others)
               for d in range(n)]
    assert sum(serving) >= len(won)  # every won round has its own serving line
    d = max(range(n), key=serving.__getitem__)
    count = {p: sum(layer(p, d, a) in won for a in range(m)) for p in others}
    full = {p for p, v in count.items() if v == m}
    partial = [p for p, v in count.items() if 2 <= v < m]
    free_lines, one_direction = [0] * (n - 1), 0
    for p in full:
        served = {j: {a for a in range(m) if all(layer(q, d, a) in lost for q in line(p, j))}
                  for j in range(n - 1)}
        free_lines = [f + bool(served[j]) for j, f in enumerate(free_lines)]
        assert set().union(*served.values()) == set(range(m))  # every layer of p is served
        one_direction += any(len(x) == m for x in served.values())
    for q in partial:  # each won round of a partial position: a line without a full position
        for a in range(m):
            if layer(q, d, a) in won:
                assert any(not full & set(line(q, j)) and
                           all(layer(r, d, a) in lost for r in line(q, j)) for j in range(n - 1))
    zero_full_lines = [{tuple(sorted([p] + line(p, j))) for p in others
                        if not full & set([p] + line(p, j))} for j in range(n - 1)]
    zero_full = [len(lines) for lines in zero_full_lines]
    services = []  # per line without a full position: the won rounds of partial positions it serves
    for j, lines in enumerate(zero_full_lines):
        for ln in lines:
            services.append(sum(
                layer(q, d, a) in won and all(layer(r, d, a) in lost for r in ln if r != q)
                for q in ln if q in partial for a in range(m)))
            if services[-1] == m:  # all M layers: its partial positions' won rounds part them
                on = [q for q in ln if q in partial]
                assert len(on) >= 2 and sum(count[q] for q in on) == m
    return dict(k=len(won), u=serving[d], full=len(full), partial=len(partial),
                empty=sum(v == 0 for v in count.values()), free_lines=free_lines,
                one_direction=one_direction, zero_full=zero_full, services=services,
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
        row = slack.split_counts(n, m, got["k"], got["u"], got["partial"], got["empty"])
        assert got["u"] in slack.cases(n, m, got["k"]) and row["full"] == got["full"]
        assert got["one_direction"] <= min(
            got["full"], math.comb(got["empty"], m - 1) if m > 2 else got["empty"] * (n - 1))
        if got["partial"]:
            lost_there = row["slack"] - m * got["empty"]
            most = slack.most_services(m, got["partial"], lost_there)
            assert max(got["services"]) <= most
            assert sum(got["services"]) >= m * got["partial"] - lost_there  # every won round
        assert sum(got["zero_full"]) >= row["zero_full_lines"]
        assert all((m - 1) * f + m * z <= got["nonfull"]
                   for f, z in zip(got["free_lines"], got["zero_full"]))
        assert 2 * got["full"] - got["one_direction"] <= sum(got["free_lines"]) <= row["free_lines"]
        assert not row["excluded"]  # a real set's split is never ruled out


@pytest.mark.parametrize("n, m", [(4, 3), (3, 4)])  # the small worlds with cases to exclude
def test_the_count_agrees_with_cp_sat_on_the_reduced_structure(n, m):
    """Every case the count excludes, CP-SAT proves impossible on positions and layers; the case
    of the best deal known, a real won set, it does not rule out (the model is no stricter than
    the game)."""
    verdicts = {(k, u): slack.reduced_feasible(n, m, k, u, work=30)
                for k in range(m ** (n - 1) + 1, m**n + 1) for u in slack.cases(n, m, k)
                if slack.case_excluded(n, m, k, u)}
    assert True not in verdicts.values()  # never a structure the count excludes
    assert list(verdicts.values()).count(False) >= len(verdicts) - 1 > 0  # one is harder:
    best = _measured(_won_sets(n, m, random.Random(0))[0], n, m)
    assert slack.reduced_feasible(n, m, best["k"], best["u"], work=30) is not False


def _services_by_hand(m: int, partial: int, lost: int) -> int:
    """The most won rounds of partial positions one line without a full position serves, by
    trying every way to give the partial positions lost layers (1..M-2 each, `lost` in all)
    and every choice of those on the line: position i is served in layer a when it has won a
    and every other partial position on the line has lost it (the rest of the line may be
    singles and empty positions lost there)."""
    best = 0
    sizes = [c for c in itertools.product(range(1, m - 1), repeat=partial) if sum(c) == lost]
    for t in range(1, min(m, partial) + 1):
        for counts in {tuple(sorted(c[:t])) for c in sizes}:
            for sets_ in itertools.product(*(itertools.combinations(range(m), r) for r in counts)):
                served = sum(a not in mine and all(a in other for other in sets_[:i] + sets_[i + 1:])
                             for i, mine in enumerate(sets_) for a in range(m))
                best = max(best, served)
    return best


def test_cp_sat_given_longer_proves_the_hard_excluded_case_of_four_players_three_colours():
    """(4,3) with 51 won rounds and u = 13 leaves 4 lost rounds of slack: partial positions,
    whose lines the count bounds by the most they can serve; CP-SAT agrees, in about 400 units."""
    assert slack.case_excluded(4, 3, 51, 13)
    assert slack.reduced_feasible(4, 3, 51, 13, work=600) is False


@pytest.mark.parametrize("n, m", [(5, 3), (4, 4)])
def test_the_certificate_of_an_open_world_rules_out_every_split_by_its_own_arithmetic(n, m):
    stored = read_table("hats_slack_certificate")
    cert = stored[(stored.n_players == n) & (stored.n_colors == m)]
    k = int(cert.k.iloc[0])
    assert k == slack.slack_upper_bound(n, m) + 1 and (cert.k == k).all()
    splits = set()  # every (u, P, E) the statements allow, enumerated here
    for u in range(-(-k // n), (m**n - k) // (m - 1) + 1):
        s = m**n - k - (m - 1) * u
        splits |= {(u, p, e) for e in range(s // m + 1) for p in range(s + 1)
                   if p <= s - m * e <= (m - 2) * p and u + p + e <= m ** (n - 1)}
    assert set(zip(cert.u, cert.partial, cert["empty"])) == splits
    for r in cert.itertuples():  # written out again from the module docstring's statements
        f = m ** (n - 1) - r.u - r.partial - r.empty
        x = min(f, math.comb(r.empty, m - 1))
        z = _zero_full_by_hand(m, r.partial, r.slack - m * r.empty)
        most = _most_free_by_hand(n, m, f, z)
        if 2 * f - x > most:
            assert r.rigid_structures == -1
            continue
        # the one split the count leaves: rigid (every count an equality), searched in full
        assert (n, m, x, most) == (4, 4, 0, 2 * f) and r.slack - m * r.empty == r.partial == z
        assert _most_free_by_hand(n, m, f, z + 1) < 2 * f and r.rigid_structures == 0
    assert cert.excluded.all()


def _zero_full_by_hand(m: int, partial: int, lost: int) -> int:
    """The fewest lines without a full position: each gives at most the most one line serves,
    and only lines given all M layers give more than M - 1, at most (lost - partial) // 2."""
    if not partial:
        return 0
    won, most = m * partial - lost, _services_by_hand(m, partial, lost)
    if most < m:
        return -(-won // most)
    return min(q + -(-(won - m * q) // (m - 1))
               for q in range(min((lost - partial) // 2, won // m) + 1))


def _most_free_by_hand(n: int, m: int, full: int, zero_full: int) -> int:
    """The most lines holding one full position, over every spread of the zero-full lines: a
    direction's M**(N-2) lines are one-full, zero-full, or hold 2..M full positions each."""
    def direction(z: int) -> int:
        return max((f for f in range(full + 1)
                    for shared in range(m ** (n - 2) + 1)
                    if f + z + shared <= m ** (n - 2)
                    and 2 * shared <= full - f <= m * shared), default=-10**6)

    return max((sum(direction(spread.count(j)) for j in range(n - 1))
                for spread in itertools.combinations_with_replacement(range(n - 1), zero_full)),
               default=-1)


def test_impossible_cases_and_worlds_are_refused_by_name():
    with pytest.raises(ValueError, match="more than the"):
        slack.case_rows(4, 4, 200, 40)
    with pytest.raises(ValueError, match="cannot hold exactly"):
        slack.split_counts(4, 4, 141, 36, 0, 0)  # 7 lost rounds of slack must lie somewhere
    with pytest.raises(ValueError, match="k must be"):
        slack.cases(3, 2, 0)
    with pytest.raises(ValueError, match="u must be"):
        slack.reduced_feasible(3, 2, 5, -1)
    with pytest.raises(ValueError, match="n_colors"):
        slack.certificate(3, 1)
    with pytest.raises(ValueError, match="the slack count is searched in worlds of at most 256"):
        slack.slack_upper_bound(6, 3)  # 729 rounds
    # every world excludes its M**N rounds (no lost round, so no serving line): the bound exists
    assert all(slack.excluded(n, m, m**n) for n, m in WORLDS)
