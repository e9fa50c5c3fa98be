"""Tests for puzzlelab.epistemic: S5 knowledge, common knowledge, public announcements."""

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlelab.epistemic import KripkeModel


def coins() -> KripkeModel:
    """Two coins; ann sees the first, bob the second."""
    return KripkeModel.from_observations(
        list(product("HT", repeat=2)), {"ann": lambda w: w[0], "bob": lambda w: w[1]}
    )


def test_knowledge_of_what_one_sees():
    m = coins()
    first_heads = m.prop(lambda w: w[0] == "H")
    assert m.knows("ann", first_heads) == first_heads
    assert m.knows("bob", first_heads) == frozenset()
    assert m.knows_value("ann", lambda w: w[0]) == m.worlds
    assert m.knows_value("bob", lambda w: w[0]) == frozenset()
    assert m.considers_possible("bob", first_heads) == m.worlds


def test_announcement_restricts_and_teaches():
    m = coins()
    same = m.prop(lambda w: w[0] == w[1])
    m2 = m.announce(same)
    assert m2.worlds == same
    # after "the coins agree", each one knows the other's coin
    assert m2.everywhere(m2.knows_value("ann", lambda w: w[1]))
    assert m2.everywhere(m2.knows_value("bob", lambda w: w[0]))
    # and that is common knowledge
    both = m2.knows_value("ann", lambda w: w[1]) & m2.knows_value("bob", lambda w: w[0])
    assert m2.common_knowledge(["ann", "bob"], both) == m2.worlds


@pytest.mark.parametrize("muddy", [1, 2, 3])
def test_muddy_children_know_after_muddy_minus_one_rounds(muddy):
    """Three children; with k muddy ones, the muddy learn it after k - 1 'nobody knows'."""
    worlds = list(product((0, 1), repeat=3))
    m = KripkeModel.from_observations(
        worlds, {i: (lambda w, i=i: w[:i] + w[i + 1:]) for i in range(3)}
    )
    m = m.announce(m.prop(any))
    actual = tuple(int(i < muddy) for i in range(3))
    for _round in range(muddy - 1):
        nobody = m.worlds
        for i in range(3):
            nobody -= m.knows_value(i, lambda w, i=i: w[i])
        assert actual in nobody
        m = m.announce(nobody)
    for i in range(muddy):
        assert actual in m.knows_value(i, lambda w, i=i: w[i])


def test_bad_input():
    with pytest.raises(ValueError, match="at least one world"):
        KripkeModel.from_observations([], {"ann": lambda w: w})
    with pytest.raises(ValueError, match="at least one agent"):
        KripkeModel.from_observations([1], {})
    m = coins()
    with pytest.raises(ValueError, match="unknown agent"):
        m.knows("cath", m.worlds)
    with pytest.raises(ValueError, match="no world"):
        m.announce(frozenset())
    with pytest.raises(ValueError, match="not a world"):
        m.cell("ann", ("X", "X"))


@settings(max_examples=60, deadline=None)
@given(
    obs=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=12, max_size=12),
    truth=st.lists(st.booleans(), min_size=12, max_size=12),
)
def test_common_knowledge_is_the_greatest_fixed_point(obs, truth):
    """C p is the largest set S inside p with K_a S = S for each agent (checked by iteration)."""
    worlds = list(range(12))
    m = KripkeModel.from_observations(worlds, {"x": lambda w: obs[w][0], "y": lambda w: obs[w][1]})
    p = frozenset(w for w in worlds if truth[w])
    s = p
    while True:  # S_{k+1} = p ∩ K_x S_k ∩ K_y S_k, from above
        nxt = p & m.knows("x", s) & m.knows("y", s)
        if nxt == s:
            break
        s = nxt
    assert m.common_knowledge(["x", "y"], p) == s
    for agent in ("x", "y"):
        assert m.knows(agent, p) <= p  # veridicality (S5)
        assert m.knows(agent, m.knows(agent, p)) == m.knows(agent, p)  # positive introspection
