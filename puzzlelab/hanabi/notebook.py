"""What notebooks/hanabi.ipynb shows of Hanabi played with the hat strategies (Cox et al. 2015):
their scores and gains as the page gives them, beside the published figures and the peers',
their figure, and a deal's first turns with each hint decoded.

The named tables it shows (the hat strategies' games) are computed and cached in `tables`
(`puzzlelab compute NAME` recomputes one); the views of the hint-partition part (the Hanabi
post, source document 003) are in `partition_views`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from .. import checks, sources
from ..checks import ArgumentTypeError
from . import hat_strategies as hats
from .game import Game, Turn
from .rules import card_name
from .tables import HAT_DEALS

__all__ = [
    "HAT_VARIANTS", "beside_peers", "beside_published", "explore_hat_game", "hat_gains_table",
    "hat_game_views", "hat_score_table", "plot_hat_scores", "published_hat_scores",
]

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
    text: a row per variant, a column per player count.

    Parameters
    ----------
    summary : pandas.DataFrame
        A `hat_summary` table.
    measure : str
        "score", "score_zero", "perfect_pct" or "bits_per_hint".

    Returns
    -------
    pandas.DataFrame
        Cells "mean ± half-width", rows named by `HAT_VARIANTS`, columns "n players".

    Raises
    ------
    ValueError
        If `summary` is not a `hat_summary` table or `measure` is not one of the four.

    Examples
    --------
    The plain information strategy sends one bit per teammate; the largest partition more.

    >>> from puzzlelab.hanabi.tables import hat_summary
    >>> table = hat_score_table(hat_summary(), "bits_per_hint")
    >>> table.loc[HAT_VARIANTS["plain"], "2 players"].split()
    ['1.000', '±', '0.000']

    References
    ----------
    Cox et al. (2015), the information strategy; the sure groups: the Hanabi post (source
    document 003; O'Dwyer 2018).
    """
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
    ways of counting, a column per player count, each gain with its 95% interval.

    Parameters
    ----------
    gains : pandas.DataFrame
        A `hat_gains` table (players, difference, score_gain, ci).

    Returns
    -------
    pandas.DataFrame
        Cells "gain ± half-width", a row per difference in the table's order.

    Raises
    ------
    ValueError
        If `gains` is not such a table.

    Examples
    --------
    >>> from puzzlelab.hanabi.tables import hat_gains
    >>> table = hat_gains_table(hat_gains())
    >>> list(table.index)
    ['mixed - plain', 'separate - plain', 'mixed - separate']

    References
    ----------
    Cox et al. (2015), the information strategy; the sure groups: the Hanabi post (source
    document 003; O'Dwyer 2018).
    """
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
    O'Dwyer (2019, InfoBot and SmartBot) report two to five players under the standard rules.

    Returns
    -------
    pandas.DataFrame
        Columns source (a citation key), strategy, players, score, perfect_pct, differs.

    Examples
    --------
    >>> quoted = published_hat_scores()
    >>> cox = quoted[quoted.source == "cox2015"].iloc[0]
    >>> int(cox.players), float(cox.score), float(cox.perfect_pct)
    (5, 24.68, 75.0)

    References
    ----------
    Cox et al. (2015), Mathematics Magazine 88(5); Wu (2016), hanabi.rs README; O'Dwyer (2019),
    Quuxplusone/Hanabi.
    """
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

    Parameters
    ----------
    summary : pandas.DataFrame
        A `hat_summary` table; its plain and mixed rows are shown.
    quoted : pandas.DataFrame, optional
        Published figures, `published_hat_scores()` by default.

    Returns
    -------
    pandas.DataFrame
        Indexed by (players, who): figures ("measured" first, then "quoted"), mean score,
        perfect games (%), rules and strategy.

    Raises
    ------
    ValueError
        If `summary` is not a `hat_summary` table or `quoted` lacks its columns.

    Examples
    --------
    >>> from puzzlelab.hanabi.tables import hat_summary
    >>> table = beside_published(hat_summary())
    >>> table.loc[5].figures.tolist()
    ['measured', 'measured', 'quoted', 'quoted', 'quoted', 'quoted']

    References
    ----------
    Cox et al. (2015); Wu (2016), hanabi.rs; O'Dwyer (2019), InfoBot and SmartBot.
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
    other, so that the figure stays legible at a page's width.

    Parameters
    ----------
    summary : pandas.DataFrame
        A `hat_summary` table.
    gains : pandas.DataFrame, optional
        A `hat_gains` table; given, a third panel shows the gains over plain.
    name : str or None
        The figure's file name under figures/ (`figures.save_figure`); None saves nothing.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels, or three with `gains`.

    Raises
    ------
    ValueError
        If `summary` or `gains` is not such a table, or `name` is not text.

    Examples
    --------
    >>> from puzzlelab.hanabi.tables import hat_gains, hat_summary
    >>> len(plot_hat_scores(hat_summary(), hat_gains(), name=None).axes)
    3

    References
    ----------
    Cox et al. (2015), the information strategy; the sure groups: the Hanabi post (source
    document 003; O'Dwyer 2018).
    """
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
    recommendation).

    Parameters
    ----------
    players : int
        Players, 2 to 5.
    variant : str
        "plain", "mixed", "separate" or "recommendation".
    seed : int
        The deal's seed (`game.dealt_deck`).
    turns : int
        Turns shown, 1 to 40.

    Returns
    -------
    pandas.DataFrame
        Text, indexed by turn: a row per receiver of a hint, one per other move.

    Raises
    ------
    ValueError
        If an argument is out of range or `variant` is not one of the four.

    Examples
    --------
    Every teammate decodes the value the hinter meant for him (the hat-guessing sum).

    >>> game = explore_hat_game(players=5, variant="mixed", seed=0, turns=1)
    >>> game["message of M"].iloc[0], game["value sent → decoded"].tolist()
    ('4 of 8', ['0 → 0', '2 → 2', '7 → 7', '3 → 3'])

    References
    ----------
    Cox et al. (2015), the information and recommendation strategies; the sure groups: the
    Hanabi post (source document 003; O'Dwyer 2018).
    """
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
    """`explore_hat_game` for every player count and way of playing (a static explorer's views).

    Parameters
    ----------
    seed : int
        The deals' seed.
    turns : int
        Turns shown per view, 1 to 40.

    Returns
    -------
    dict of str to pandas.DataFrame
        "n players, variant" to its view; the recommendation at five players only.

    Raises
    ------
    ValueError
        If `turns` is out of range.

    Examples
    --------
    >>> views = hat_game_views(turns=1)
    >>> len(views), list(views)[-1]
    (13, '5 players, recommendation')

    References
    ----------
    Cox et al. (2015), the information and recommendation strategies.
    """
    views = {}
    for players in range(2, 6):
        for variant in ("plain", "mixed", "separate", "recommendation"):
            if variant != "recommendation" or players == 5:
                name = f"{players} players, {variant}"  # in the view too: two ways may tie
                views[name] = explore_hat_game(players, variant, seed, turns).rename_axis(
                    f"turn ({name})")
    return views
