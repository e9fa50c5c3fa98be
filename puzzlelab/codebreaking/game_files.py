"""The thesis's games written in COBRA's language (Klimoš 2014, Examples 8 and 10): generators and
shipped files."""

from __future__ import annotations

from itertools import combinations, permutations

from .. import checks

__all__ = ["SHIPPED_GAMES", "counterfeit_coin_alt_source", "counterfeit_coin_source",
           "mastermind_source"]

MAX_COINS = 64
MAX_PEGS = 6  # Outcome(b, w) lists one clause per black set and white matching
MAX_COLORS = 64


# ---------------------------------------------------------------------------
# Writing the thesis's games in the language (Examples 8 and 10)
# ---------------------------------------------------------------------------


def counterfeit_coin_source(coins: int, extra_genuine: bool = False) -> str:
    """The counterfeit-coin game of Example 8 (x_i: coin i is fake, y: it is heavier) as text.

    With `extra_genuine`, coin 0 is one more coin known to be genuine (x0 restricted false),
    which a weighing may put on either pan. Outcomes in the thesis's order: right pan heavier,
    left pan heavier, balance.
    """
    coins = checks.integer(coins, "coins", low=1, high=MAX_COINS)
    checks.boolean(extra_genuine, "extra_genuine")
    coin_numbers = list(range(0 if extra_genuine else 1, coins + 1))
    xs = [f"x{i}" for i in coin_numbers]
    fake = ", ".join(f"x{i}" for i in range(1, coins + 1))
    lines = [
        f"# Counterfeit coin: {coins} coins"
        f"{', plus coin 0 known to be genuine' if extra_genuine else ''} (Klimoš 2014, Example 8).",
        "# x<i>: coin i is the counterfeit; y: the counterfeit is heavier.",
        f"VARIABLES {', '.join(xs + ['y'])}",
        f"RESTRICTION Exactly-1({fake})",
    ]
    if extra_genuine:
        lines.append("RESTRICTION !x0  # coin 0 is genuine")
    lines += [f"ALPHABET {', '.join(map(str, coin_numbers))}",
              f"MAPPING 'X' {', '.join(xs)}", ""]
    for m in range(1, len(coin_numbers) // 2 + 1):
        left = " | ".join(f"X${i}" for i in range(1, m + 1))
        right = " | ".join(f"X${i}" for i in range(m + 1, 2 * m + 1))
        lines += [
            f"# {m} against {m}: parameters 1..{m} on the left pan, {m + 1}..{2 * m} on the right;",
            "# pans sorted, the lower coin of the two pans' first coins on the left",
            f"EXPERIMENT 'w{2 * m}' {2 * m}",
            f"  PARAMS_DISTINCT {', '.join(str(i) for i in range(1, 2 * m + 1))}",
            *(
                [
                    f"  PARAMS_SORTED {', '.join(str(i) for i in range(1, m + 1))}",
                    f"  PARAMS_SORTED {', '.join(str(i) for i in range(m + 1, 2 * m + 1))}",
                ]
                if m > 1
                else []
            ),
            f"  PARAMS_SORTED 1, {m + 1}",
            f"  OUTCOME 'right heavier' (({left}) & !y) | (({right}) & y)",
            f"  OUTCOME 'left heavier' (({left}) & y) | (({right}) & !y)",
            f"  OUTCOME 'balance' !({left} | {right})",
            "",
        ]
    return "\n".join(lines)


def counterfeit_coin_alt_source(coins: int) -> str:
    """Example 9's formalization (x_i: coin i is lighter, y_i: heavier), in the thesis's
    spelling."""
    coins = checks.integer(coins, "coins", low=1, high=MAX_COINS)
    xs, ys = [f"x{i}" for i in range(1, coins + 1)], [f"y{i}" for i in range(1, coins + 1)]
    lines = [
        f"# Counterfeit coin: {coins} coins, the alternative formalization of Klimoš 2014, "
        "Example 9,",
        "# written with the thesis's spellings (Section 4.1 grammar).",
        "# x<i>: coin i is the counterfeit and lighter; y<i>: it is the counterfeit and heavier.",
        f"Variables {', '.join(xs + ys)}",
        f"CONSTRAINT EXACTLY-1({', '.join(xs + ys)})",
        f"ALPHABET {', '.join(str(i) for i in range(1, coins + 1))}",
        f"Mapping Light {', '.join(xs)}",
        f"Mapping Heavy {', '.join(ys)}",
        "",
    ]
    for m in range(1, coins // 2 + 1):
        left, right = range(1, m + 1), range(m + 1, 2 * m + 1)

        def light(pan: range) -> list[str]:
            return [f"Light(${i})" for i in pan]

        def heavy(pan: range) -> list[str]:
            return [f"Heavy(${i})" for i in pan]

        on_scales = light(left) + light(right) + heavy(left) + heavy(right)
        lines += [
            f"Experiment w{2 * m} {2 * m}",
            f"  Params-distinct {', '.join(str(i) for i in range(1, 2 * m + 1))}",
            *(
                [
                    f"  Params-sorted {', '.join(str(i) for i in left)}",
                    f"  Params-sorted {', '.join(str(i) for i in right)}",
                ]
                if m > 1
                else []
            ),
            f"  Params-sorted 1, {m + 1}",
            f"  OUTCOME \"right heavier\" OR({', '.join(light(left) + heavy(right))})",
            f"  OUTCOME \"left heavier\" OR({', '.join(heavy(left) + light(right))})",
            f"  OUTCOME \"balance\" !OR({', '.join(on_scales)})",
            "",
        ]
    return "\n".join(lines)


def mastermind_source(pegs: int, colors: int, black_only: bool = False) -> str:
    """Mastermind of Example 10 as text: x<i>_<c> says peg i has colour c; F<i> maps colours.

    An outcome bBwW is a disjunction over partial matchings (the thesis's construction):
    b black positions, w white pairs (guess peg i has the colour of code peg j, i != j,
    neither black) and no further colour match among the unmatched pegs -- a maximal
    matching, hence maximum, as colour classes form complete bipartite graphs. Outcome
    (pegs-1)B1W has no matching; like the thesis's Phi(g) we keep it, as a contradiction.
    The all-black outcome is final: the game ends when the code is guessed.
    """
    pegs = checks.integer(pegs, "pegs", low=1, high=MAX_PEGS)
    colors = checks.integer(colors, "colors", low=1, high=MAX_COLORS)
    checks.boolean(black_only, "black_only")
    lines = [f"# Mastermind: {pegs} pegs x {colors} colours"
             f"{', black markers only' if black_only else ''} (Klimoš 2014, Example 10).",
             "# x<i>_<c>: peg i of the code has colour c; mapping F<i> sends colour c to x<i>_<c>."]
    for i in range(1, pegs + 1):
        lines.append(f"VARIABLES {', '.join(f'x{i}_{c}' for c in range(1, colors + 1))}")
    for i in range(1, pegs + 1):
        lines.append(
            f"RESTRICTION Exactly-1({', '.join(f'x{i}_{c}' for c in range(1, colors + 1))})"
        )
    lines.append(f"ALPHABET {', '.join(str(c) for c in range(1, colors + 1))}")
    for i in range(1, pegs + 1):
        lines.append(f"MAPPING 'F{i}' {', '.join(f'x{i}_{c}' for c in range(1, colors + 1))}")
    lines += ["", f"EXPERIMENT 'g' {pegs}"]
    blacks = ", ".join(f"F{i}${i}" for i in range(1, pegs + 1))
    if black_only:
        lines += [f"  {'FINAL_OUTCOME' if b == pegs else 'OUTCOME'} '{b}B' Exactly-{b}({blacks})"
                  for b in range(pegs + 1)]
        return "\n".join(lines) + "\n"
    for b in range(pegs + 1):
        for w in range(pegs - b + 1):
            clauses = matching_clauses(pegs, b, w) or ["F1$1 & !F1$1  # no matching: never happens"]
            keyword = "FINAL_OUTCOME" if b == pegs else "OUTCOME"
            lines.append(f"  {keyword} '{b}B{w}W' " + "\n    | ".join(clauses))
    return "\n".join(lines) + "\n"


def matching_clauses(pegs: int, b: int, w: int) -> list[str]:
    """Conjunctions, one per (black set, white matching), for outcome (b black, w white)."""
    clauses = []
    for black in combinations(range(1, pegs + 1), b):
        rest = [p for p in range(1, pegs + 1) if p not in black]
        for guess_side in combinations(rest, w):
            for code_side in permutations(rest, w):
                if any(i == j for i, j in zip(guess_side, code_side)):
                    continue
                literals = [f"F{i}${i}" for i in black]
                for i, j in zip(guess_side, code_side):
                    literals += [f"F{j}${i}", f"!F{i}${i}", f"!F{j}${j}"]
                free_guess = [i for i in rest if i not in guess_side]
                free_code = [j for j in rest if j not in code_side]
                literals += [f"!F{j}${i}" for i in free_guess for j in free_code]
                clauses.append("(" + " & ".join(dict.fromkeys(literals)) + ")")
    return clauses


SHIPPED_GAMES = {
    "coin12": lambda: counterfeit_coin_source(12),
    "coin13": lambda: counterfeit_coin_source(13),
    "coin13_genuine": lambda: counterfeit_coin_source(13, extra_genuine=True),
    "coin12_alt": lambda: counterfeit_coin_alt_source(12),
    "coin4": lambda: counterfeit_coin_source(4),
    "coin4_genuine": lambda: counterfeit_coin_source(4, extra_genuine=True),
    "mastermind": lambda: mastermind_source(4, 6),
    "mastermind_black": lambda: mastermind_source(4, 6, black_only=True),
    "mastermind_3x3": lambda: mastermind_source(3, 3),
}
