"""Hostile but fair calls of every public function of Hanabi played (rules, game, hat_strategies,
hat_compiled, hat_sweep, info_compiled): a result, or a ValueError / TypeError with a message,
in time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from robustness import any_value, public_callables, refused_quickly, well_behaved

from puzzlelab import checks
from puzzlelab.hanabi import game as engine
from puzzlelab.hanabi import hat_compiled, hat_strategies, hat_sweep, info_compiled, rules, tables

MODULES = (rules, engine, hat_strategies, hat_compiled, hat_sweep, info_compiled)
# Sweeps over thousands of deals are legitimate but long: tests/test_hanabi_hat_sweep.py
# checks their arguments.
SKIP = {"game_sums"}
CALLABLES = [(f"{m.__name__}.{name}", f) for m in MODULES for name, f in public_callables(m)
             if name not in SKIP]
PLAUSIBLE = st.sampled_from([
    2, 3, 5, 0, 24, 25, "plain", "mixed", "information", "recommendation", "R1", "Red",
    rules.Rules(3), engine.Game(2, 0), rules.Move.play(0), [0, 1, 2], range(3), [0] * 5,
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


# --- issue 27 (defects 8, 9): the records of a game refuse fields of the wrong kind -------------


def _view_fields(game: engine.Game) -> dict:
    view = game.view(1)
    return {name: getattr(view, name) for name in view.__dataclass_fields__}


@pytest.mark.parametrize("field, value, words", [
    ("fireworks", float("inf"), r"View.fireworks must be a tuple"),
    ("fuses_left", 1.5, r"View.fuses_left must be an integer"),
    ("history", "data/hats_optima.csv", r"View.history must be a tuple"),
    ("discards", (3, "R1"), r"View.discards\[1\] must be"),
    ("player", 7, r"View.player must be an integer between 0 and 4"),
    ("tokens", -1, r"View.tokens must be"),
    ("others", {1: (3,)}, r"must not show player 1 his own hand"),
])
def test_issue27_a_view_refuses_a_wrong_field(field, value, words):
    game = hat_strategies.play(3, 0).game
    fields = _view_fields(game)
    assert engine.View(**fields) == game.view(1)  # the fields of a real view pass
    refused_quickly(lambda: engine.View(**{**fields, field: value}), ValueError, words)


def test_issue27_a_view_names_a_history_item_that_is_no_turn():
    game = hat_strategies.play(3, 0).game
    fields = _view_fields(game)
    history = list(fields["history"])
    history[2] = "turn 2"
    refused_quickly(lambda: engine.View(**{**fields, "history": tuple(history)}),
                    checks.ArgumentTypeError, r"View.history\[2\] must be a Turn")


def test_issue27_turns_plans_and_hat_steps_refuse_wrong_kinds():
    refused_quickly(lambda: engine.Turn("", 0, rules.Move.play(0)), checks.ArgumentTypeError,
                    "Turn.turn must be an integer")
    refused_quickly(lambda: engine.Turn(0, 0, np.uint8(255)), checks.ArgumentTypeError,
                    "Turn.move must be a Move")
    refused_quickly(lambda: engine.Turn(0, 0, rules.Move.play(0), card=25), ValueError,
                    "Turn.card")
    refused_quickly(lambda: hat_strategies.HatPlan({"a": 1}, -1, -7, "a/b", None),
                    checks.ArgumentTypeError, "HatPlan.hinter must be an integer")
    refused_quickly(lambda: hat_strategies.HatPlan(0, (1, 2), {1: []}, {}, {}), ValueError,
                    r"HatPlan.groups lacks the players \[2\]")
    team = hat_strategies.play(3, 0)
    step = team.steps[0]
    refused_quickly(lambda: hat_strategies.HatStep(np.array([]), step.plan, step.message,
                                                   step.move, step.values, step.decoded),
                    checks.ArgumentTypeError, "HatStep.turn must be an integer")


def test_issue27_decode_refuses_a_plan_without_the_viewers_values():
    """A plan that tells a player of no card was a KeyError deep in `HatPlan.value`."""
    team = hat_strategies.play(3, 0)
    step = team.steps[0]
    plan = step.plan
    bare = hat_strategies.HatPlan(plan.hinter, plan.order, plan.groups, {}, {})
    viewer = next(p for p in plan.order)
    other = next(p for p in plan.order if p != viewer)
    view = engine.Game(3, 0).view(viewer)
    assert other in view.others
    refused_quickly(lambda: hat_strategies.decode(bare, 0, view), ValueError,
                    f"tells player {other} about no card")


def test_issue27_the_sweeps_helpers_check_their_counts():
    assert hat_sweep.variants_for(np.int64(5))[-1] == "recommendation"
    refused_quickly(lambda: hat_sweep.variants_for([None]), checks.ArgumentTypeError, "players")
    refused_quickly(lambda: hat_sweep.variants_for(7), ValueError, "between 2 and 5")
    refused_quickly(lambda: tables.check_hat_games(None), checks.ArgumentTypeError, "deals")
    refused_quickly(lambda: tables.check_hat_games(True), checks.ArgumentTypeError, "deals")

