#!/usr/bin/env python3
"""Measures an engine's protocol latencies (issue 2's protocol figures).

  scripts/protocol-timings.py [--runs N] -- <engine command...>

Prints, over N runs each (median and worst, in ms):
  - readyok latency while a search runs (`go infinite`, then `isready`);
  - bestmove latency after `stop`;
  - how long `go movetime 100` takes to answer (must be <= 100 ms).
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
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def wait_for(self, prefix, timeout=30):
        deadline = time.perf_counter() + timeout
        while True:
            at, line = self.lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            if line.startswith(prefix):
                return at

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
    engine.close()

    summary("readyok while searching", ready, 10)
    summary("bestmove after stop", stop, 20)
    summary("go movetime 100 answered after", movetime, 100)


if __name__ == "__main__":
    sys.exit(main())
