#!/usr/bin/env python3
"""Measures an engine's protocol latencies (issue 2's protocol figures).

  scripts/protocol-timings.py [--runs N] -- <engine command...>

Prints, over N runs each (median and worst, in ms):
  - readyok latency while a search runs (`go infinite`, then `isready`);
  - bestmove latency after `stop`;
  - how long `go movetime 100` takes to answer (must be <= 100 ms) from the
    start position, and `go movetime M` (`--game-movetime`) along a game the
    engine plays against itself in the same process (`--game-moves`), where a
    search may start from what the last one kept (Monte Carlo search's tree).
The position is the engine's start position; for engines with rule options,
pass them with --set Name=Value.
"""
import argparse
import statistics
import subprocess
import sys
import threading
import queue
import time


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line.strip()))

    def send(self, line):
        # Timed before the write: the answer may be read before flush returns.
        sent = time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return sent

    def wait_for(self, prefix, timeout=30):
        return self.wait_for_line(prefix, timeout)[0]

    def wait_for_line(self, prefix, timeout=30):
        deadline = time.perf_counter() + timeout
        while True:
            at, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            if line.startswith(prefix):
                return at, line

    def close(self):
        try:
            self.send("quit")
        except BrokenPipeError:
            pass
        self.proc.wait(timeout=10)


def summary(name, samples, limit=None):
    ms = sorted(1000 * s for s in samples)
    verdict = ""
    if limit is not None:
        verdict = "  OK" if ms[-1] <= limit else f"  OVER {limit} ms"
    print(f"{name:<34} median {statistics.median(ms):7.2f} ms   worst {ms[-1]:7.2f} ms   ({len(ms)} runs){verdict}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--game-moves", type=int, default=20, help="moves of the self-played game")
    parser.add_argument("--game-movetime", type=int, default=300, help="ms a move in that game")
    parser.add_argument("--set", action="append", default=[], help="Name=Value engine option")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()

    engine = Engine(args.command)
    engine.send("uci")
    engine.wait_for("uciok")
    for option in args.set:
        name, _, value = option.partition("=")
        engine.send(f"setoption name {name} value {value}")
    engine.send("isready")
    engine.wait_for("readyok")

    ready, stop, movetime = [], [], []
    for _ in range(args.runs):
        engine.send("position startpos")
        engine.send("go infinite")
        time.sleep(0.05)
        sent = engine.send("isready")
        ready.append(engine.wait_for("readyok") - sent)
        time.sleep(0.05)
        sent = engine.send("stop")
        stop.append(engine.wait_for("bestmove") - sent)
        sent = engine.send("go movetime 100")
        movetime.append(engine.wait_for("bestmove") - sent)
    along_game = game_movetimes(engine, args.game_moves, args.game_movetime)
    engine.close()

    summary("readyok while searching", ready, 10)
    summary("bestmove after stop", stop, 20)
    summary("go movetime 100 answered after", movetime, 100)
    if along_game:
        summary(f"go movetime {args.game_movetime} along a game", along_game, args.game_movetime)


def game_movetimes(engine, moves_wanted, movetime):
    """Answer times of `go movetime` for each move of a game the engine
    plays against itself, until the game ends or `moves_wanted` moves."""
    moves, times = [], []
    engine.send("ucinewgame")
    for _ in range(moves_wanted):
        engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        sent = engine.send(f"go movetime {movetime}")
        at, line = engine.wait_for_line("bestmove")
        words = line.split()
        if len(words) < 2 or words[1] in ("(none)", "0000", "none"):
            break
        times.append(at - sent)
        moves.append(words[1])
    return times


if __name__ == "__main__":
    sys.exit(main())
