"""Hanabi beside the peer: InfoBot and SmartBot of Quuxplusone/Hanabi (C++) and our strategies.

Quuxplusone's framework (MIT; its README gives InfoBot 20.00 / 24.26 / 24.86 / 24.89 for 2-5
players) plays the standard rules, as `game.Game` does. Its source folder is named by
PUZZLELAB_HANABI_PEER (a checkout, or the files of one; nothing is downloaded here); without it
this benchmark says so in one line and stops. Its commit is read from PUZZLELAB_HANABI_PEER_COMMIT,
else from git in that folder, else from a file PEER_COMMIT there.

For 2-5 players, N games each (20,000 by default, `--games`; PUZZLELAB_BENCH_QUICK=1 plays 200):

- the peer: `make FAST=1 run_InfoBot run_SmartBot` in its folder (the recorded build command),
  then `run_<Bot> --quiet --histogram --seed 1 --games N --every N --players P`: its own deals
  (one std::mt19937 seeded 1, shuffled by its server), the score histogram it prints;
- ours: every strategy of `OURS` on the seeded deals 0..N-1 (`game.dealt_deck`).

Each run is a fresh process; its CPU seconds (user + system, by wait4) cover the whole process
(for ours: the interpreter, imports and the compiled code's cache too). Rows: program, bot or
strategy, players, games, seed, mean score, its standard error, a 95 % interval (mean ± 1.96 SE),
% perfect games, games per CPU second, CPU and wall seconds, commit, build command, machine,
cores and 1-minute load. Writes data/bench_hanabi_peer.csv (its own schema, `COLUMNS`).

Then a sample of the peer's games as data, data/hanabi_peer_games.csv (`--sample` games per bot
and player count, 50 by default): our harness (benchmarks/hanabi_peer_harness.cc, compiled in a
scratch build folder, PUZZLELAB_HANABI_PEER_BUILD or one under the temporary folder, against the
peer's Hanabi.h and HanabiServer.cc) deals as `run_<Bot> --seed 1` does, hands each deck to the
peer's server stacked, and writes down every move and what it showed. Decks are our card codes
(5 * colour + value - 1; the peer's colours red, orange, yellow, green, blue are our Red,
White, Yellow, Green, Blue), moves our `Move.code`s. tests/test_hanabi_peer_replay.py replays
them in `game.Game`, and our games in the peer's server with the harness's replay mode.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from puzzlelab.hanabi import hat_compiled, info_compiled
from puzzlelab.hanabi.hat_strategies import PACKINGS
from puzzlelab.hanabi.model import COLOURS
from puzzlelab.hanabi.rules import DECK, Move, Rules
from puzzlelab.timing import machine, quick

HERE = "bench_hanabi_peer"
SAMPLE = "hanabi_peer_games"  # the committed sample of the peer's games
PEER_ENV = "PUZZLELAB_HANABI_PEER"
COMMIT_ENV = "PUZZLELAB_HANABI_PEER_COMMIT"
BUILD_ENV = "PUZZLELAB_HANABI_PEER_BUILD"
COMMIT_FILE = "PEER_COMMIT"
BOTS = ("InfoBot", "SmartBot")
PLAYERS = (2, 3, 4, 5)
PEER_SEED = 1  # the peer replaces a seed of 0 by the clock
PEER_BUILD = "make FAST=1 run_InfoBot run_SmartBot"
HARNESS = Path(__file__).resolve().parent / "hanabi_peer_harness.cc"
ROOT = Path(__file__).resolve().parent.parent
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval
PERFECT = 25
COLUMNS = ["program", "bot", "players", "games", "seed", "mean", "se", "ci_low", "ci_high",
           "perfect_pct", "games_per_cpu_s", "cpu_s", "wall_s", "commit", "build", "machine",
           "cores", "load_1min", "note"]
SAMPLE_COLUMNS = ["bot", "players", "game", "peer_seed", "score", "deck", "moves", "shown"]
# The peer's colour letters (its Color enum, 0-4) and the colours of ours they are.
PEER_COLOURS = {"r": "Red", "o": "White", "y": "Yellow", "g": "Green", "b": "Blue"}

Strategy = Callable[[Rules, Sequence[int]], np.ndarray]

# Our side: one strategy a line, each playing seeded deals to a stats array (score in column 0),
# named as the notebook names them (hanabi.notebook.HAT_VARIANTS): Cox et al.'s information
# strategy by way of counting messages, and the strong strategy by count of M.
OURS: dict[str, Strategy] = {
    **{packing: (lambda rules, seeds, packing=packing: hat_compiled.play_deals(rules, seeds,
                                                                             packing))
       for packing in PACKINGS},
    **{f"strong {hints}": (lambda rules, seeds, hints=hints: info_compiled.play_deals(
        rules, seeds, hints)) for hints in info_compiled.HINT_COUNTS},
}


# ----- the peer's folder, commit and builds ----------------------------------------------------

def peer_folder() -> Path | None:
    """The peer's source folder named by PUZZLELAB_HANABI_PEER, if it holds its server."""
    folder = os.environ.get(PEER_ENV)
    if not folder or not all((Path(folder) / f).is_file() for f in ("Hanabi.h",
                                                                     "HanabiServer.cc")):
        return None
    return Path(folder).resolve()


def peer_commit(folder: Path) -> str:
    """The peer's commit: PUZZLELAB_HANABI_PEER_COMMIT, git, a PEER_COMMIT file, or 'unknown'."""
    if os.environ.get(COMMIT_ENV, "").strip():
        return os.environ[COMMIT_ENV].strip()
    if (folder / ".git").exists():
        out = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"],
                             capture_output=True, text=True, check=False)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    if (folder / COMMIT_FILE).is_file():
        return (folder / COMMIT_FILE).read_text().strip() or "unknown commit"
    return "unknown commit"


def build_folder(folder: Path) -> Path:
    """Where the harness is compiled: PUZZLELAB_HANABI_PEER_BUILD, else a scratch folder."""
    named = os.environ.get(BUILD_ENV)
    if named:
        return Path(named).resolve()
    key = hashlib.sha256(str(folder).encode()).hexdigest()[:10]
    return Path(tempfile.gettempdir()) / f"puzzlelab-hanabi-peer-{key}"


def _run(command: list[str], cwd: Path | None = None, stdin: str | None = None
         ) -> tuple[str, float, float]:
    """Run a process to its end: its output, wall seconds and CPU seconds (user + system)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err, \
            tempfile.TemporaryFile("w+") as given:
        given.write(stdin or "")
        given.seek(0)
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=cwd, stdin=given, stdout=out, stderr=err,
                                 env=dict(os.environ, TQDM_DISABLE="1"))
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0), err.seek(0)
        if os.waitstatus_to_exitcode(status):
            raise RuntimeError(f"{shlex.join(command)} failed: {err.read().strip()[-800:]}")
        return out.read(), wall, usage.ru_utime + usage.ru_stime


def build_peer(folder: Path) -> str:
    """Build the peer's own InfoBot and SmartBot in its folder; the command that did."""
    _run(shlex.split(PEER_BUILD), cwd=folder)
    return PEER_BUILD


def harness_commands(folder: Path, build: Path) -> dict[str, list[str]]:
    """The g++ command of each harness binary: the replayer (the server checks every move) and
    one logger per bot (optimised as the peer's FAST build)."""
    base = ["g++", "-std=c++14", f"-I{folder}", "-w"]
    fast = ["-O3", "-DNDEBUG", "-DHANABI_SERVER_NDEBUG"]
    commands = {"replay": [*base, "-O2", "-o", str(build / "replay"), str(HARNESS),
                           str(folder / "HanabiServer.cc")]}
    for bot in BOTS:
        commands[bot] = [*base, *fast, f"-DBOTNAME={bot}", "-o", str(build / f"log_{bot}"),
                         str(HARNESS), str(folder / "HanabiServer.cc"), str(folder / f"{bot}.cc")]
    return commands


def build_harness(folder: Path, which: Sequence[str] = ("replay", *BOTS)) -> dict[str, Path]:
    """Compile the harness binaries `which` (replay, InfoBot, SmartBot) in the build folder,
    again only when a source is newer; their paths."""
    build = build_folder(folder)
    build.mkdir(parents=True, exist_ok=True)
    commands = harness_commands(folder, build)
    unknown = sorted(set(which) - set(commands))
    if unknown:
        raise ValueError(f"no harness binary {unknown}; choose among {sorted(commands)}")
    built = {}
    for name in which:
        command = commands[name]
        binary = Path(command[command.index("-o") + 1])
        sources = [Path(a) for a in command if a.endswith((".cc", ".h"))]
        sources += [folder / "Hanabi.h"] + ([folder / f"{name}.h"] if name in BOTS else [])
        if not binary.exists() or binary.stat().st_mtime < max(s.stat().st_mtime
                                                               for s in sources):
            _run(command)
        built[name] = binary
    return built


# ----- scores ----------------------------------------------------------------------------------

def score_summary(counts: Sequence[int]) -> dict[str, float]:
    """Mean, standard error, 95 % interval and % perfect of a histogram of scores 0..25."""
    counts = np.asarray(counts, dtype=np.int64)
    if counts.shape != (PERFECT + 1,) or (counts < 0).any() or counts.sum() < 2:
        raise ValueError(f"a score histogram has {PERFECT + 1} non-negative counts over at least "
                         f"2 games, got {counts.tolist()}")
    scores = np.arange(PERFECT + 1)
    n = int(counts.sum())
    mean = float(counts @ scores) / n
    variance = float(counts @ (scores - mean) ** 2) / (n - 1)
    se = math.sqrt(variance / n)
    return {"games": n, "mean": mean, "se": se, "ci_low": mean - Z95 * se,
            "ci_high": mean + Z95 * se, "perfect_pct": 100 * int(counts[PERFECT]) / n}


def peer_histogram(output: str) -> list[int]:
    """The score histogram printed by run_<Bot> --histogram, checked against its printed mean."""
    counts = [0] * (PERFECT + 1)
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Histogram:"))
    for line in lines[start + 1:]:
        score, rest = line.split(":", 1)
        counts[int(score)] = int(rest.split()[0])
    printed = float(next(line for line in lines if "scored an average of" in line)
                    .split("average of")[1].split()[0])
    mean = sum(s * c for s, c in enumerate(counts)) / sum(counts)
    if abs(printed - mean) > 1e-3 * max(1.0, printed):
        raise RuntimeError(f"the peer printed a mean of {printed}, its histogram gives {mean}")
    return counts


# ----- one case a process ----------------------------------------------------------------------

def run_peer(folder: Path, bot: str, players: int, games: int) -> dict:
    """The peer's own binary on its own `games` deals: score summary, CPU and wall seconds."""
    out, wall, cpu = _run([str(folder / f"run_{bot}"), "--quiet", "--histogram", "--seed",
                           str(PEER_SEED), "--games", str(games), "--every", str(games),
                           "--players", str(players)])
    return {**score_summary(peer_histogram(out)), "cpu_s": cpu, "wall_s": wall}


def run_ours(name: str, players: int, games: int) -> dict:
    """One of our strategies on deals 0..games-1 in a fresh process (see `ours_case`)."""
    out, wall, cpu = _run([sys.executable, __file__, "--ours", name, str(players), str(games)])
    result = json.loads(out.strip().splitlines()[-1])
    return {**score_summary(result["counts"]), "cpu_s": cpu, "wall_s": wall,
            "call_cpu_s": result["call_cpu_s"]}


def ours_case(name: str, players: int, games: int) -> dict:
    """Inside a fresh process: play deals 0..games-1; the score histogram and the call's CPU."""
    start = time.process_time()
    stats = OURS[name](Rules(players), range(games))
    cpu = time.process_time() - start
    return {"counts": np.bincount(stats[:, 0], minlength=PERFECT + 1).tolist(),
            "call_cpu_s": cpu}


def our_commit() -> str:
    """This repository's commit (short), marked when the work tree has changes."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                              check=False).stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown commit"
    return commit + (" (with local changes)" if git("status", "--porcelain", "--", "puzzlelab")
                     else "")


def row(program: str, bot: str, players: int, seed: int, run: dict, commit: str, build: str,
        note: str) -> dict:
    """A row of this benchmark's table (`COLUMNS`)."""
    return {"program": program, "bot": bot, "players": players, "games": run["games"],
            "seed": seed, "mean": round(run["mean"], 4), "se": round(run["se"], 4),
            "ci_low": round(run["ci_low"], 4), "ci_high": round(run["ci_high"], 4),
            "perfect_pct": round(run["perfect_pct"], 2),
            "games_per_cpu_s": round(run["games"] / run["cpu_s"]) if run["cpu_s"] > 0 else None,
            "cpu_s": round(run["cpu_s"], 2), "wall_s": round(run["wall_s"], 2),
            "commit": commit, "build": build, "machine": machine(), "cores": os.cpu_count(),
            "load_1min": round(os.getloadavg()[0], 2), "note": note}


# ----- the peer's games as data, and ours in the peer's server ---------------------------------

def card_from_peer(text: str) -> int:
    """Our card code of the peer's card '1r' (value, colour letter)."""
    if len(text) != 2 or text[0] not in "12345" or text[1] not in PEER_COLOURS:
        raise ValueError(f"a peer card is a value 1-5 and a colour letter of "
                         f"{''.join(PEER_COLOURS)}, like '1r'; got {text!r}")
    return 5 * COLOURS.index(PEER_COLOURS[text[1]]) + int(text[0]) - 1


def card_to_peer(card: int) -> str:
    """The peer's name of our card code."""
    letter = {c: k for k, c in PEER_COLOURS.items()}[COLOURS[card // 5]]
    return f"{card % 5 + 1}{letter}"


def move_from_peer(text: str) -> Move:
    """Our move of the peer harness's move code (p0, d3, c2r, v25)."""
    kind, rest = text[:1], text[1:]
    if kind in ("p", "d") and rest.isdecimal():
        return Move("play" if kind == "p" else "discard", slot=int(rest))
    if kind == "c" and len(rest) == 2 and rest[1] in PEER_COLOURS:
        return Move.give(int(rest[0]), PEER_COLOURS[rest[1]])
    if kind == "v" and len(rest) == 2 and rest[1] in "12345":
        return Move.give(int(rest[0]), rest[1])
    raise ValueError(f"not a peer move code: {text!r}")


def move_to_peer(move: Move) -> str:
    """The peer harness's code of our move."""
    if move.kind != "hint":
        return f"{move.kind[0]}{move.slot}"
    if move.hint in COLOURS:
        letter = {c: k for k, c in PEER_COLOURS.items()}[move.hint]
        return f"c{move.target}{letter}"
    return f"v{move.target}{move.hint}"


def log_peer_games(binary: Path, bot: str, players: int, games: int) -> list[dict]:
    """The first `games` deals of run_<bot> --seed 1 played by the logger: rows of the sample."""
    out, _, _ = _run([str(binary), "log", str(PEER_SEED), str(games), str(players)])
    rows = []
    for game, line in enumerate(out.splitlines()):
        score, deck, moves = line.split("|")
        codes, shown = [], []
        for token in moves.split():
            move, seen = token.split(":")
            codes.append(move_from_peer(move).code)
            shown.append(str(card_from_peer(seen)) if move[0] in "pd"
                         else ".".join(seen.split(",")))
        rows.append({"bot": bot, "players": players, "game": game, "peer_seed": PEER_SEED,
                     "score": int(score),
                     "deck": " ".join(str(card_from_peer(c)) for c in deck.split()),
                     "moves": " ".join(codes), "shown": " ".join(shown)})
    return rows


def replay_in_peer(binary: Path, games: Sequence[tuple[int, Sequence[int], Sequence[Move]]]
                   ) -> list[str]:
    """Each game (players, deck in drawing order, moves) played in the peer's server by the
    harness's replayer: 'ok SCORE', or 'rejected TURN WHY'."""
    lines = []
    for players, deck, moves in games:
        if sorted(deck) != sorted(DECK):
            raise ValueError("a deck to replay holds exactly the 50 Hanabi cards")
        lines.append(f"{players} | {' '.join(card_to_peer(c) for c in deck)} | "
                     f"{' '.join(move_to_peer(m) for m in moves)}")
    out, _, _ = _run([str(binary), "replay"], stdin="\n".join(lines) + "\n")
    return out.splitlines()


def write_sample(folder: Path, per_count: int) -> None:
    """Log `per_count` games per bot and player count, check them against the peer's own run of
    the same deals, and write data/hanabi_peer_games.csv (kept when it already begins with
    these games: a smaller run never replaces a larger sample)."""
    import pandas as pd

    from puzzlelab import cache

    binaries = build_harness(folder, BOTS)
    rows = []
    for bot in BOTS:
        for players in PLAYERS:
            logged = log_peer_games(binaries[bot], bot, players, per_count)
            own = run_peer(folder, bot, players, per_count)
            if abs(own["mean"] - np.mean([r["score"] for r in logged])) > 1e-9:
                raise RuntimeError(f"{bot}, {players} players: the logged games are not the "
                                   f"peer's own deals (mean {own['mean']})")
            rows += logged
    table = pd.DataFrame(rows, columns=SAMPLE_COLUMNS)
    spec = cache.Table(SAMPLE, command=f"{PEER_ENV}=<the peer's folder> puzzlelab bench "
                                       f"hanabi_peer")
    if cache.data_path(SAMPLE).exists():  # a smaller run does not replace a larger sample
        old = cache.read_table(SAMPLE)
        head = old.groupby(["bot", "players"]).head(per_count).reset_index(drop=True)
        if head.equals(table):
            print(f"data/{SAMPLE}.csv kept: its first {per_count} games of each bot and player "
                  f"count are these ({len(old)} games in all)")
            return
    cache.write_table(table, spec)
    print(f"data/{SAMPLE}.csv: {len(table)} games")


def main(games: int, sample: int, skip_peer: bool = False) -> None:
    folder = peer_folder()
    if folder is None:
        print(f"bench_hanabi_peer: skipped ({PEER_ENV} does not name the source folder of "
              "Quuxplusone/Hanabi; see this file's docstring)")
        return
    import pandas as pd

    from puzzlelab import cache

    commit = peer_commit(folder)
    rows: list[dict] = []
    if skip_peer:  # keep the peer's rows of the last run, rerun ours only
        last = cache.read_table(HERE)
        rows = [r for r in last.to_dict("records") if r["program"] != "puzzlelab"]
    else:
        build = build_peer(folder)
        for bot in BOTS:
            for players in PLAYERS:
                run = run_peer(folder, bot, players, games)
                rows.append(row("Quuxplusone/Hanabi", bot, players, PEER_SEED, run, commit,
                                f"{build} (g++ {_gxx_version()})",
                                f"its own deals: std::mt19937 seeded {PEER_SEED}, shuffled by "
                                f"its server (run_{bot} --seed {PEER_SEED} --every {games}); "
                                f"CPU of the whole process"))
                print(rows[-1]["program"], bot, players, rows[-1]["mean"], rows[-1]["se"],
                      rows[-1]["games_per_cpu_s"], flush=True)
    ours = our_commit()
    for name in OURS:
        for players in PLAYERS:
            run = run_ours(name, players, games)
            rows.append(row("puzzlelab", name, players, 0, run, ours,
                            f"numba, Python {platform.python_version()}",
                            f"seeded deals 0..{games - 1} (rules.dealt_deck); CPU of the whole "
                            f"process ({run['call_cpu_s']:.2f} s in the call)"))
            print(rows[-1]["program"], name, players, rows[-1]["mean"], rows[-1]["se"],
                  rows[-1]["games_per_cpu_s"], flush=True)
    table = pd.DataFrame(rows, columns=COLUMNS)
    cache.write_table(table, HERE)
    print(table.drop(columns=["machine", "build", "commit", "note"]).to_string(index=False))
    if sample:
        write_sample(folder, sample)


def _gxx_version() -> str:
    out = subprocess.run(["g++", "-dumpfullversion"], capture_output=True, text=True,
                         check=False)
    return out.stdout.strip() or "unknown version"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200 if quick() else 20_000,
                        help="games per bot or strategy and player count")
    parser.add_argument("--sample", type=int, default=5 if quick() else 50,
                        help="peer games per bot and player count written as data (0: none)")
    parser.add_argument("--skip-peer", action="store_true",
                        help="rerun our strategies only, keeping the peer's rows of the last run")
    parser.add_argument("--ours", nargs=3, metavar=("NAME", "PLAYERS", "GAMES"),
                        help="play one of our strategies in this process (internal)")
    options = parser.parse_args()
    if options.ours:
        name, players, games = options.ours
        print(json.dumps(ours_case(name, int(players), int(games))))
    else:
        if options.games < 2 or options.sample == 1 or options.sample < 0:
            parser.error("--games must be at least 2, and --sample 0 (no sample) or at least 2")
        main(options.games, options.sample, options.skip_peer)
