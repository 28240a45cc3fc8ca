#!/usr/bin/env python3
"""Measures a game's ladder of weaker levels (UCI_LimitStrength, UCI_Elo).

Each rung of src/games/GAME/levels.txt plays the rung below it with the
referee (both colours of every opening, no clock: a level's node limit ends
its moves), and the differences are chained from the random mover at 0.
Prints the table and the ladder file with the measured Elo; the rungs
themselves (random share, nodes, temperature) are not changed.

    scripts/strength-ladder.py breakthrough --games 200
    scripts/strength-ladder.py breakthrough --check 450 --games 200

`--check ELO` plays UCI_Elo=ELO against the rung just below it and prints
the measured difference beside the one the ladder promises.
"""

import argparse
import math
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPENINGS = {
    "gomoku": ["--openings", str(ROOT / "openings/piskvork-openings-15.txt")],
    "cavalo": ["--openings", "boards"],
    "hex": ["--openings", "random:2"],
    "breakthrough": ["--openings", "random:4"],
}
RESULT = re.compile(r"^Score of \S+ vs \S+: (\d+) - (\d+) - (\d+)")
ELO = re.compile(r"^Elo difference: ([+-]?[\d.]+|[+-]?inf) \+/- ([\d.]+|inf)")


def read_ladder(game):
    rungs = []
    for line in (ROOT / "src/games" / game / "levels.txt").read_text().splitlines():
        body = line.split("#")[0].split()
        if body:
            rungs.append([float(body[0])] + body[1:])
    return rungs


def play(game, stronger, weaker, games, seed):
    """Plays UCI_Elo=stronger against UCI_Elo=weaker; returns (score, elo, margin)."""
    binary = str(ROOT / "target/release" / game)
    engine = lambda elo: [
        "--engine",
        f"cmd={binary}",
        f"name=elo{elo:g}",
        "option.UCI_LimitStrength=true",
        f"option.UCI_Elo={elo:g}",
        "st=10",
    ]
    command = (
        [str(ROOT / "target/release/bg-referee"), "--game", game]
        + engine(stronger)
        + engine(weaker)
        + ["--games", str(games), "--concurrency", "2", "--no-records", "--quiet"]
        + ["--seed", str(seed)]
        + OPENINGS[game]
    )
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    score = elo = None
    for line in output.splitlines():
        if m := RESULT.match(line):
            score = tuple(int(x) for x in m.groups())
        if m := ELO.match(line):
            elo = (float(m.group(1)), float(m.group(2)))
        if line.startswith("Game ends") and not re.search(
            r"illegal move 0, time forfeit 0, crash 0, stall 0, resignation 0, protocol error 0",
            line,
        ):
            sys.exit(f"a faulty game: {line}")
    if score is None or elo is None:
        sys.exit(f"no result from the referee:\n{output}")
    return score, elo[0], elo[1]


def measure(game, games, seed):
    rungs = read_ladder(game)
    chained, variance = 0.0, 0.0
    table = [(rungs[0], 0.0, 0.0, None)]
    for index in range(1, len(rungs)):
        score, diff, margin = play(game, rungs[index][0], rungs[index - 1][0], games, seed + index)
        if math.isinf(diff) or math.isinf(margin):
            print(f"rung {index}: {score} is too one-sided to measure; insert a rung", file=sys.stderr)
            diff, margin = (800.0 if diff > 0 else -800.0), 800.0
        chained += diff
        variance += (margin / 1.96) ** 2
        table.append((rungs[index], chained, 1.96 * math.sqrt(variance), (score, diff, margin)))
        print(f"rung {index} against {index - 1}: {score[0]}-{score[1]}-{score[2]}, "
              f"{diff:+.1f} +/- {margin:.1f}", file=sys.stderr, flush=True)
    print(f"| rung | random share | nodes | temperature | against the rung below ({games} games) | Elo | 95% |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for index, (rung, elo, margin, pair) in enumerate(table):
        against = "anchor" if pair is None else (
            f"{pair[0][0]}-{pair[0][1]}-{pair[0][2]}, {pair[1]:+.0f} +/- {pair[2]:.0f}")
        print(f"| {index} | {rung[1]} | {rung[2]} | {rung[3]} | {against} | {elo:.0f} | +/- {margin:.0f} |")
    print()
    for rung, elo, _, _ in table:
        print(f"{elo:.0f} {rung[1]} {rung[2]} {rung[3]}")


def check(game, elo, games, seed):
    rungs = read_ladder(game)
    below = max((r[0] for r in rungs if r[0] < elo), default=None)
    if below is None:
        sys.exit("the Elo asked for is not above the ladder's first rung")
    score, diff, margin = play(game, elo, below, games, seed)
    print(f"UCI_Elo {elo:g} against the rung at {below:g}: {score[0]}-{score[1]}-{score[2]}, "
          f"measured {diff:+.1f} +/- {margin:.1f}, promised {elo - below:+.1f}: "
          + ("within" if abs(diff - (elo - below)) <= margin else "OUTSIDE") + " the interval")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(OPENINGS))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--check", type=float, metavar="ELO")
    args = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "--bin", "referee", "--bin", args.game],
                   cwd=ROOT, check=True)
    if args.check is not None:
        check(args.game, args.check, args.games, args.seed)
    else:
        measure(args.game, args.games, args.seed)


if __name__ == "__main__":
    main()
