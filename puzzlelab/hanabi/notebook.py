"""What notebooks/hanabi.ipynb shows: tables as the page gives them, figures, explorations.

The named tables it shows (the hint-capacity study, the hat strategies' games) are computed
and cached in `tables`; ``puzzlelab compute hanabi_hint_capacity`` recomputes the study.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from .. import checks, sources
from ..checks import ArgumentTypeError
from . import hat_strategies as hats
from .knowledge import holes
from .model import COLOURS, VALUES, HintTable, as_table, hint_mask, possibility_table
from .rules import Game, Turn, card_name
from .solvers import max_hint_partition
from .tables import HAT_DEALS

__all__ = [
    "HAT_VARIANTS", "beside_peers", "beside_published", "capacity_summary", "describe_cards",
    "explore_hat_game", "explore_partition", "hat_gains_table", "hat_game_views", "hat_score_table",
    "partition_view", "plot_hat_scores", "plot_hint_capacity", "plot_mixing_gain",
    "published_hat_scores", "toggle_table",
]

_STUDY_COLUMNS = ("hand_size", "public_cards", "hints_received", "mean_bits_mixed",
                  "mean_bits_separate")


def _short(identity: Iterable[str]) -> str:
    """R3 for the red 3; the hint names joined by '+' for any other identity."""
    hints = set(identity)
    colours, values = hints & set(COLOURS), hints & set(VALUES)
    if len(hints) == 2 and len(colours) == 1 and len(values) == 1:
        return f"{next(iter(colours))[0]}{next(iter(values))}"
    return "+".join(sorted(hints))


def _holes_text(card: frozenset) -> str:
    try:
        found = holes(card)
    except ValueError:  # not a full-Hanabi card: no rectangle to punch holes in
        return "–"
    return " ".join(sorted(f"{c[0]}{v}" for c, v in found)) or "–"


def describe_cards(table: HintTable) -> pd.DataFrame:
    """Each card's possible identities in short form (R3 = red 3) and the holes in its rectangle."""
    table = as_table(table)
    return pd.DataFrame(
        {"may be": [" ".join(sorted(_short(i) for i in card)) for card in table.cards],
         "holes in its rectangle": [_holes_text(card) for card in table.cards]},
        index=list(table.card_names),
    )


def _check_study(study: object) -> pd.DataFrame:
    if checks.table(study, "study", _STUDY_COLUMNS, made_by="hint_capacity_study").empty:
        raise ValueError("study has no rows")
    return study


def _lines(ax, study: pd.DataFrame, column: str, scale: float = 1.0) -> None:
    """One line per (hand size, cards face up): colour by cards face up, marker by hand size."""
    import matplotlib.pyplot as plt

    colours = dict(zip(sorted(study.public_cards.unique()), plt.get_cmap("tab10").colors))
    styles = dict(zip(sorted(study.hand_size.unique()), ["o--", "s-", "^-.", "d:"]))
    for (hand_size, public_cards), line in study.groupby(["hand_size", "public_cards"]):
        ax.plot(line.hints_received, scale * line[column], styles.get(hand_size, "o-"),
                color=colours[public_cards], ms=6,
                label=f"{hand_size} cards in hand, {public_cards} face up")
    ax.set_xlabel("hints the hand has already received", fontsize=13)
    ax.tick_params(labelsize=12)
    ax.grid(alpha=0.3)


def _legend(ax, loc: str) -> None:
    ax.legend(fontsize=11, loc=loc, title="marker: hand size; colour: cards face up",
              title_fontsize=11)


def plot_hint_capacity(study: pd.DataFrame, name: str | None = "hanabi_hint_capacity"):
    """Bits one hint can carry (log2 of the parts of a maximum partition) against hints received."""
    import matplotlib.pyplot as plt

    from ..figures import finish

    study = _check_study(study)
    name = None if name is None else checks.text(name, "name")
    fig, ax = plt.subplots(figsize=(9, 5.2))
    _lines(ax, study, "mean_bits_mixed")
    ceiling = np.log2(len(COLOURS) + len(VALUES))
    ax.axhline(ceiling, color="grey", lw=1, ls=":")
    ax.text(0, ceiling - 0.05, f"ceiling: each of the 10 hints a part ({ceiling:.2f} bits)",
            fontsize=12, color="dimgrey", va="top")
    ax.set_ylabel("mean bits per hint (log2 of the parts)", fontsize=13)
    ax.set_ylim(0.8, ceiling + 0.15)
    _legend(ax, "lower right")
    fig.tight_layout()
    return finish(fig, name)


def plot_mixing_gain(study: pd.DataFrame, name: str | None = "hanabi_mixing_gain"):
    """Share of tables where parts mixing colours and values beat the two kinds packed apart."""
    import matplotlib.pyplot as plt

    from ..figures import finish

    study = _check_study(study)
    if "share_mixed_better" not in study.columns:
        raise ValueError("study lacks the column share_mixed_better of hint_capacity_study")
    name = None if name is None else checks.text(name, "name")
    fig, ax = plt.subplots(figsize=(9, 4.6))
    _lines(ax, study, "share_mixed_better", scale=100)
    ax.set_ylabel("tables where mixing wins (%)", fontsize=13)
    _legend(ax, "upper right")
    fig.tight_layout()
    return finish(fig, name)


def capacity_summary(study: pd.DataFrame, hints: Sequence[int] = (0, 2, 4, 8)) -> pd.DataFrame:
    """Mean bits per hint (mixed parts) by hand size and cards face up, after some hints."""
    study = _check_study(study)
    hints = checks.integers(hints, "hints", low=0)
    if missing := sorted(set(hints) - set(study.hints_received)):
        raise ValueError(f"the study has no rows with hints_received in {missing}")
    chosen = study[study.hints_received.isin(hints)]
    table = chosen.pivot_table(index=["hand_size", "public_cards"], columns="hints_received",
                               values="mean_bits_mixed")
    table.columns = [f"after {h} hints" for h in table.columns]
    table.index.names = ["cards in hand", "cards face up"]
    return table.round(2)


def partition_view(table: HintTable) -> pd.DataFrame:
    """A maximum partition: each group (part), a card that certifies it, what that card may be."""
    table = as_table(table)
    rows = []
    for part in max_hint_partition(table):
        mask = hint_mask(table, part)
        card = next(k for k, masks in enumerate(table.masks) if all(i & mask for i in masks))
        rows.append({"group": ", ".join(h for h in table.hints if h in part),
                     "certified by": table.card_names[card],
                     "that card may be": " ".join(sorted(_short(i) for i in table.cards[card]))})
    return pd.DataFrame(rows, index=[f"group {k + 1}" for k in range(len(rows))])


def explore_partition(
    rows: Sequence[Sequence[int]] | pd.DataFrame, hints: Sequence[str] | None = None
) -> pd.DataFrame:
    """A colour table with each hint's group (part) number and the groups each card certifies.

    `rows` are 0/1 rows (with `hints`, default the five colours) or a 0/1 DataFrame.
    """
    table = possibility_table(rows, hints)
    parts = max_hint_partition(table)
    frame = table.to_frame().replace({0: "·", 1: "1"})
    part_of = {h: i + 1 for i, p in enumerate(parts) for h in p}
    certified = []
    for card in table.masks:
        hit = [i + 1 for i, p in enumerate(parts)
               if all(identity & hint_mask(table, p) for identity in card)]
        certified.append(", ".join(map(str, hit)) or "–")
    frame["certifies group"] = certified
    frame.loc["group →"] = [str(part_of[h]) for h in table.hints] + [f"{len(parts)} groups"]
    return frame


def toggle_table(
    rows: Sequence[Sequence[int]] | pd.DataFrame, hints: Sequence[str] | None = None
) -> None:
    """A grid of toggle buttons (one per table cell) redrawing `explore_partition` on each click."""
    import ipywidgets as w
    from IPython.display import display

    from ..widgets import show_safely

    table = possibility_table(rows, hints)  # refuse a bad start before drawing anything
    frame = table.to_frame()
    card_names = table.card_names
    buttons = [[w.ToggleButton(value=bool(v), description=h[:1], layout=w.Layout(width="42px"))
                for v, h in zip(row, table.hints)] for row in frame.to_numpy().tolist()]
    out = w.Output()

    def redraw(_=None) -> None:
        out.clear_output(wait=True)
        with out:
            current = [[int(b.value) for b in r] for r in buttons]
            show_safely(explore_partition,
                        rows=pd.DataFrame(current, index=card_names, columns=table.hints))

    for b in itertools.chain.from_iterable(buttons):
        b.observe(redraw, names="value")
    redraw()
    display(w.HBox([w.VBox([w.HBox(r) for r in buttons]), out]))


# ----- Hanabi played: the hat strategies -------------------------------------------------------

MAX_SHOWN_TURNS = 40  # the first turns of a deal an exploration shows
# The ways of playing shown, and how the page names them (the first four: the information
# strategy, its messages counted three ways).
HAT_VARIANTS: dict[str, str] = {
    "plain": "plain: 2 groups a player (as published)",
    "mixed": "mixed: the largest partition",
    "separate": "separate: colours and values apart",
    "plain, Cox rules": "plain, under the rules of Cox et al.'s simulator",
    "recommendation": "recommendation (five players)",
    "strong cox": "strong: 2 messages a teammate (Cox et al.'s count)",
    "strong index": "strong: 3 or 4, read from the card touched (Wu, O'Dwyer)",
    "strong packing": "strong: the largest partition (the post's packing)",
    "strong best": "strong: the larger of the last two, per teammate",
}


def _check_summary(summary: object) -> pd.DataFrame:
    needed = ["players", "variant", "score", "score_ci", "perfect_pct", "perfect_pct_ci",
              "bits_per_hint", "bits_per_hint_ci"]
    if not isinstance(summary, pd.DataFrame):
        raise ArgumentTypeError(f"summary must be a hat_summary DataFrame, got {summary!r}")
    if missing := [c for c in needed if c not in summary.columns]:
        raise ValueError(f"summary lacks the columns {missing} of hat_summary")
    return summary


def _pm(mean: float, half: float, digits: int) -> str:
    """'24.713 ± 0.009', kept on one line in a table cell (no-break spaces)."""
    return f"{mean:.{digits}f}\u00a0±\u00a0{half:.{digits}f}"


def hat_score_table(summary: pd.DataFrame, measure: str = "score") -> pd.DataFrame:
    """One measure (score, score_zero, perfect_pct or bits_per_hint) with its 95% interval, as
    text: a row per variant, a column per player count."""
    summary = _check_summary(summary)
    measure = checks.choice(measure, "measure",
                            ("score", "score_zero", "perfect_pct", "bits_per_hint"))
    digits = {"perfect_pct": 1, "bits_per_hint": 3}.get(measure, 3)
    cells = summary.assign(cell=[_pm(m, h, digits) for m, h in
                                 zip(summary[measure], summary[f"{measure}_ci"])])
    table = cells.pivot(index="variant", columns="players", values="cell").fillna("–")
    order = [v for v in HAT_VARIANTS if v in table.index]
    table = table.loc[order].rename(index=HAT_VARIANTS)
    table.columns = [f"{n} players" for n in table.columns]
    table.index.name = {"score": "mean score", "score_zero": "mean score (0 if lost)",
                        "perfect_pct": "perfect games (%)",
                        "bits_per_hint": "bits per hint"}[measure]
    return table


def hat_gains_table(gains: pd.DataFrame) -> pd.DataFrame:
    """What counting messages by sure groups buys (`hat_gains`), as text: a row per pair of
    ways of counting, a column per player count, each gain with its 95% interval."""
    need = ["players", "difference", "score_gain", "ci"]
    if not isinstance(gains, pd.DataFrame) or [c for c in need if c not in gains.columns]:
        raise ValueError(f"gains must be a hat_gains DataFrame with the columns {need}")
    gains = gains.assign(gain=[_pm(m, h, 3) for m, h in zip(gains.score_gain, gains.ci)])
    table = gains.pivot(index="difference", columns="players", values="gain")
    table.columns = [f"{n} players" for n in table.columns]
    return table.loc[list(dict.fromkeys(gains.difference))]


def published_hat_scores() -> pd.DataFrame:
    """The published scores of hat-guessing strategies, as their authors give them (quoted,
    never computed here): a row per source, strategy and player count, with the mean score (of
    25), the share of perfect games in percent and what the source's rules or strategy do
    otherwise than ours. Cox et al. (2015) simulated five players; Wu (2016, hanabi.rs) and
    O'Dwyer (2019, InfoBot and SmartBot) report two to five players under the standard rules."""
    rows = [
        ("cox2015", "information", 5, 24.68, 75, "4th misplay ends a game; discards with 8 tokens"),
        *[("wu2016", "information", n, s, p, "messages also by which cards a hint touches")
          for n, s, p in [(2, 22.5217, 12.55), (3, 24.7946, 84.48), (4, 24.9356, 95.05),
                          (5, 24.9223, 94.04)]],
        *[("odwyer2019", "InfoBot", n, s, p, "colour and value groups packed apart (> 4)")
          for n, s, p in [(2, 20.00, 0.38), (3, 24.26, 51.53), (4, 24.86, 89.55),
                          (5, 24.89, 91.36)]],
        *[("odwyer2019", "SmartBot", n, s, p, "no hat guessing")
          for n, s, p in [(2, 23.09, 29.52), (3, 23.30, 19.54), (4, 22.44, 4.56),
                          (5, 20.69, 0.08)]],
    ]
    return pd.DataFrame(rows, columns=["source", "strategy", "players", "score", "perfect_pct",
                                       "differs"])


def beside_published(summary: pd.DataFrame, quoted: pd.DataFrame | None = None) -> pd.DataFrame:
    """Our measured scores beside published ones (marked quoted), by player count.

    `quoted` (by default `published_hat_scores()`) has columns source (a citation key of
    `puzzlelab.sources`), strategy, players, score, perfect_pct (may be NaN) and differs (what
    the published rules or strategy do otherwise).
    """
    summary = _check_summary(summary)
    if quoted is None:
        quoted = published_hat_scores()
    need = ["source", "strategy", "players", "score", "perfect_pct", "differs"]
    if not isinstance(quoted, pd.DataFrame) or [c for c in need if c not in quoted.columns]:
        raise ValueError(f"quoted must be a DataFrame with the columns {need}")
    rows = []
    for r in quoted.itertuples():
        perfect = "–" if pd.isna(r.perfect_pct) else f"{r.perfect_pct:g}"  # as published
        rows.append({"players": r.players, "who": f"{sources.cite(r.source)}, {r.strategy}",
                     "figures": "quoted", "mean score": f"{r.score:.2f}",
                     "perfect games (%)": perfect, "rules and strategy": r.differs})
    for r in summary[summary.variant.isin(["plain", "mixed"])].itertuples():
        rows.append({"players": r.players, "who": f"ours, information, {HAT_VARIANTS[r.variant]}",
                     "figures": "measured", "mean score": _pm(r.score, r.score_ci, 2),
                     "perfect games (%)": _pm(r.perfect_pct, r.perfect_pct_ci, 1),
                     "rules and strategy": f"the standard rules (rules.py); {HAT_DEALS:,} deals"})
    table = pd.DataFrame(rows)
    table["order"] = table.figures.map({"measured": 0, "quoted": 1})
    table = table.sort_values(["players", "order"], kind="stable").drop(columns="order")
    return table.set_index(["players", "who"])


_PEER_NAMES = {"InfoBot": "O'Dwyer's InfoBot", "SmartBot": "O'Dwyer's SmartBot"}


def beside_peers(peers: pd.DataFrame, ours: Sequence[str] = ("strong best",),
                 quoted: pd.DataFrame | None = None) -> pd.DataFrame:
    """Our strategies `ours` beside the peer bots measured in the same run (`peer_scores`),
    and Wu's published hanabi.rs figures as the next mark: a row per player count, a column
    per player, each cell the mean score with its 95% interval and the perfect games.

    Parameters
    ----------
    peers : pandas.DataFrame
        `tables.peer_scores()`: program, bot, players, games, mean, ci_low, ci_high,
        perfect_pct.
    ours : sequence of str
        Our variants to show (keys of `HAT_VARIANTS`), "strong best" by default.
    quoted : pandas.DataFrame, optional
        Published figures (`published_hat_scores()` by default); Wu's rows are shown.

    Returns
    -------
    pandas.DataFrame
        Text cells, a row per player count.

    Raises
    ------
    ValueError
        If `peers` is not such a table, holds none of the bots, or `ours` names no variant.

    Examples
    --------
    >>> from puzzlelab.hanabi.tables import peer_scores
    >>> table = beside_peers(peer_scores())
    >>> list(table.index), table.columns[0]
    ([2, 3, 4, 5], 'ours')

    References
    ----------
    O'Dwyer (2019), InfoBot and SmartBot; Wu (2016), hanabi.rs.
    """
    need = ["program", "bot", "players", "games", "mean", "ci_low", "ci_high", "perfect_pct"]
    if not isinstance(peers, pd.DataFrame) or [c for c in need if c not in peers.columns]:
        raise ValueError(f"peers must be a peer_scores DataFrame with the columns {need}")
    ours = [checks.choice(o, "ours", list(HAT_VARIANTS)) for o in checks.sequence(ours, "ours")]
    quoted = published_hat_scores() if quoted is None else quoted
    cells = []
    for r in peers.itertuples():
        mine = r.program == "puzzlelab"
        if (mine and r.bot in ours) or (not mine and r.bot in _PEER_NAMES):
            who = (("ours" if len(ours) == 1 else f"ours, {r.bot}") if mine
                   else _PEER_NAMES[r.bot])
            cells.append((r.players, who, f"{_pm(r.mean, (r.ci_high - r.ci_low) / 2, 3)}, "
                                          f"{r.perfect_pct:.1f}\u00a0%"))
    if not cells:
        raise ValueError("peers holds none of the bots to show")
    for r in quoted[quoted.source == "wu2016"].itertuples():
        cells.append((r.players, f"{sources.cite(r.source)}, hanabi.rs (quoted)",
                      f"{r.score:.3f}, {r.perfect_pct:g}\u00a0%"))
    table = pd.DataFrame(cells, columns=["players", "who", "cell"])
    order = sorted(dict.fromkeys(table.who), key=lambda w: not w.startswith("ours"))
    table = table.pivot(index="players", columns="who", values="cell")[order].fillna("–")
    table.columns.name = "mean score ± 95% interval, perfect games"
    return table


def plot_hat_scores(summary: pd.DataFrame, gains: pd.DataFrame | None = None,
                    name: str | None = "hanabi_hat_scores"):
    """Mean score and perfect games against player count, one line per way of playing, and
    (given `hat_gains`) the paired score gain over the published count; panels one above the
    other, so that the figure stays legible at a page's width."""
    import matplotlib.pyplot as plt

    from ..figures import finish

    summary = _check_summary(summary)
    if gains is not None and not {"players", "difference", "score_gain", "ci"} <= set(
            getattr(gains, "columns", ())):
        raise ValueError("gains must be a hat_gains DataFrame")
    name = None if name is None else checks.text(name, "name")
    styles = {"plain": ("o-", "tab:blue"), "mixed": ("s-", "tab:red"),
              "separate": ("^--", "tab:green"), "recommendation": ("D", "tab:purple")}
    rows = 2 if gains is None else 3
    fig, axes = plt.subplots(rows, 1, figsize=(7.6, 3.4 * rows + 1.25), sharex=True)
    for variant, (style, colour) in styles.items():
        line = summary[summary.variant == variant].sort_values("players")
        if line.empty:
            continue
        for ax, col in zip(axes, ("score", "perfect_pct")):
            ax.errorbar(line.players, line[col], yerr=line[f"{col}_ci"], fmt=style,
                        color=colour, ms=7, capsize=4, label=HAT_VARIANTS[variant])
    axes[0].set_ylabel("mean score (of 25)", fontsize=13)
    axes[1].set_ylabel("perfect games (%)", fontsize=13)
    if gains is not None:
        for variant in ("mixed", "separate"):
            line = gains[gains.difference == f"{variant} - plain"].sort_values("players")
            style, colour = styles[variant]
            axes[2].errorbar(line.players, line.score_gain, yerr=line.ci, fmt=style,
                             color=colour, ms=7, capsize=4)
        axes[2].axhline(0, color="grey", lw=1)
        axes[2].set_ylabel("gain over plain\n(same deals)", fontsize=13)
    for ax in axes:
        ax.tick_params(labelsize=12)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel("players", fontsize=13)
    axes[-1].set_xticks(sorted(summary.players.unique()))
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", fontsize=11, frameon=False)
    axes[0].set_title(f"{HAT_DEALS:,} deals per point, 95% intervals", fontsize=13)
    fig.tight_layout(rect=(0, 1.25 / (3.4 * rows + 1.25), 1, 1))
    return finish(fig, name)


def _team(players: int, variant: str, seed: int):
    players = checks.integer(players, "players", low=2, high=5)
    variant = checks.choice(variant, "variant", ("plain", "mixed", "separate", "recommendation"))
    game = Game(players, checks.seed(seed))
    if variant == "recommendation":
        return hats.RecommendationTeam(game)
    return hats.InformationTeam(game, variant)


def _move_text(turn: Turn) -> str:
    move = turn.move
    if move.kind == "hint":
        return f"{move} (slots {', '.join(map(str, turn.touched))})"
    if move.kind == "discard":
        return f"{move}: {card_name(turn.card)}"
    return f"{move}: {card_name(turn.card)} " + ("played" if turn.success else "misplayed")


def _order_text(order: int, hand_size: int) -> str:
    return f"play slot {order}" if order < hand_size else f"discard slot {order - hand_size}"


def explore_hat_game(players: int = 5, variant: str = "mixed", seed: int = 0,
                     turns: int = 8) -> pd.DataFrame:
    """A deal's first turns, each hint decoded: its message of M, and for every other player
    the card told about, the value the hinter gave it and the value he decodes (sent →
    decoded), and what he knows of that card now (or the order he gets, for the
    recommendation)."""
    team = _team(players, variant, seed)
    turns = checks.integer(turns, "turns", low=1, high=MAX_SHOWN_TURNS)
    g, rows = team.game, []
    for _ in range(turns):
        if g.over:
            break
        turn = team.turn()
        base = {"turn": str(turn.turn), "player": str(turn.player), "move": _move_text(turn)}
        if turn.move.kind != "hint":
            rows.append(base)
            continue
        step = team.steps[-1]
        for p in step.plan.order:
            row = dict(base, **{"message of M": f"{step.message} of {step.plan.modulus}",
                                "to player": str(p),
                                "value sent → decoded": f"{step.values[p]} → {step.decoded[p]}"})
            if variant == "recommendation":
                row["he now knows"] = _order_text(step.decoded[p], len(g.hands[p]))
            else:
                slot = step.plan.slots[p]
                row["card told about"] = f"slot {slot}: {card_name(g.hands[p][slot])}"
                row["he now knows"] = hats.mask_text(step.learned[p])
            rows.append(row)
            base = {"turn": "", "player": "", "move": ""}
    columns = ["turn", "player", "move", "message of M", "to player", "card told about",
               "value sent → decoded", "he now knows"]
    table = pd.DataFrame([{c: row.get(c, "") for c in columns} for row in rows], columns=columns)
    if variant == "recommendation":
        table = table.drop(columns="card told about")
    return table.astype(str).set_index("turn")


def hat_game_views(seed: int = 0, turns: int = 8) -> dict[str, pd.DataFrame]:
    """`explore_hat_game` for every player count and way of playing (a static explorer's views)."""
    views = {}
    for players in range(2, 6):
        for variant in ("plain", "mixed", "separate", "recommendation"):
            if variant != "recommendation" or players == 5:
                views[f"{players} players, {variant}"] = explore_hat_game(players, variant, seed,
                                                                          turns)
    return views
