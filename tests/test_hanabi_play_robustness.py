"""Hostile but fair calls of every public function of Hanabi played (rules, hat_strategies,
hat_compiled, hat_sweep): a result, or a ValueError / TypeError with a message, in time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from robustness import any_value, public_callables, well_behaved

from puzzlelab.hanabi import hat_compiled, hat_strategies, hat_sweep, rules

MODULES = (rules, hat_strategies, hat_compiled, hat_sweep)
# Sweeps over thousands of deals are legitimate but long: tests/test_hanabi_hat_sweep.py
# checks their arguments.
SKIP = {"game_sums"}
CALLABLES = [(f"{m.__name__}.{name}", f) for m in MODULES for name, f in public_callables(m)
             if name not in SKIP]
PLAUSIBLE = st.sampled_from([
    2, 3, 5, 0, 24, 25, "plain", "mixed", "information", "recommendation", "R1", "Red",
    rules.Rules(3), rules.Game(2, 0), rules.Move.play(0), [0, 1, 2], range(3), [0] * 5,
    hat_strategies.ALL_CARDS, [hat_strategies.ALL_CARDS] * 4, "plain, Cox rules",
])
ARGUMENT = st.one_of(any_value(), PLAUSIBLE)


def test_every_module_is_covered():
    assert all(m.__all__ for m in MODULES) and len(CALLABLES) >= 30


@pytest.mark.parametrize("name, function", CALLABLES, ids=[n for n, _ in CALLABLES])
@settings(max_examples=25, deadline=None)
@given(args=st.lists(ARGUMENT, max_size=3))
def test_public_functions_return_or_refuse_clearly(name, function, args):
    well_behaved(function, *args, seconds=5)
