#!/usr/bin/env python3
"""Feeds an engine random sessions of valid, malformed and hostile input and
checks that it never crashes, never hangs and always answers.

  scripts/protocol-fuzz.py ugi GAME [--sessions N] [--seed S] [--binary PATH]
  scripts/protocol-fuzz.py gtp      [...]      # hex --gtp
  scripts/protocol-fuzz.py pbrain   [...]      # gomoku --pbrain

GAME is breakthrough, hex, gomoku or cavalo; the binary defaults to
target/release/<engine>. Each session mixes searches (short limits, `stop`
while searching, `isready` at any time), positions built from the engine's
own moves, mutated position strings, options with good and bad values,
queries, perft, garbage and very long lines, and ends with `quit` (`END` for
pbrain). A session fails when the engine exits early or with a non-zero
status, panics (stderr), leaves a command unanswered for too long, or (UGI)
changes its position (`d`: FEN and key) on a `position` or `setoption` it
refused with an error line. The
first failures are printed with the end of their transcript.
"""
import argparse
import queue
import random
import string
import subprocess
import sys
import threading
import time

# Rule options of each game, with good and bad values.
RULE_OPTIONS = {
    "breakthrough": [],
    "hex": [("BoardSize", ["1", "2", "5", "7", "11", "25", "26", "0", "-1", "x", ""]),
            ("Swap", ["true", "false", "maybe"])],
    "gomoku": [("BoardSize", ["5", "6", "15", "22", "23", "4", "abc"]),
               ("Rule", ["freestyle", "standard", "renju"])],
    "cavalo": [("AttackRule", ["true", "false", "1"]), ("SingleDigitSymmetric", ["true", "false"]),
               ("Placement", ["highest", "choose", "x"]), ("FirstMover", ["white", "black", "red"]),
               ("BoardSeed", ["0", "1", "7", "4294967295", "4294967296", "-4", "99999999999999999999"])],
}
ENGINE_OPTIONS = [("Hash", ["1", "2", "64", "0", "100000000", "q"]),
                  ("Depth", ["0", "1", "3", "101", "-1"]),
                  ("MoveOverhead", ["0", "10", "5000", "5001", "x"]),
                  ("Threads", ["1", "2", "3", "0", "257"]),
                  ("Nonsense", ["1"])]


class Failure(Exception):
    pass


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, errors="replace")
        self.lines = queue.Queue()
        self.stderr = []
        self.transcript = []
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line)

    def send(self, line):
        self.transcript.append("> " + line[:200])
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise Failure("the engine closed its input")

    def until(self, accept, timeout):
        """Reads lines up to the first one `accept` takes; returns it."""
        deadline = time.time() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                raise Failure(f"no answer within {timeout} s")
            if line is None:
                raise Failure("the engine exited")
            self.transcript.append("< " + line[:200])
            if accept(line):
                return line

    def finish(self):
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure("still running 10 s after quit")
        time.sleep(0.05)  # let the stderr reader catch up
        if any("panicked" in line for line in self.stderr):
            raise Failure("panic")
        if self.proc.returncode != 0:
            raise Failure(f"exit status {self.proc.returncode}")


class Fuzzer:
    def __init__(self, rng):
        self.rng = rng

    def junk(self, longest=10):
        return "".join(self.rng.choice(string.printable[:94])
                       for _ in range(self.rng.randint(1, longest)))

    def cell(self, size=25):
        return self.rng.choice(string.ascii_lowercase[:size + 1]) + str(self.rng.randint(0, size + 1))

    def token(self):
        """A move-like word: a cell, a pair of cells, a double choice, a keyword or junk."""
        r = self.rng.random()
        if r < 0.3:
            return self.cell()
        if r < 0.5:
            return self.cell() + self.cell()
        if r < 0.6:
            return self.cell() + "/" + self.cell()
        if r < 0.7:
            return self.rng.choice(["pass", "0000", "swap", "resign", "-", "/"])
        return self.junk(8)

    def mutate(self, text):
        chars = list(text)
        for _ in range(self.rng.randint(0, 4)):
            if not chars:
                break
            i = self.rng.randrange(len(chars))
            r = self.rng.random()
            if r < 0.3:
                del chars[i]
            elif r < 0.6:
                chars.insert(i, self.rng.choice("0123456789/,x -wbpPnN"))
            elif r < 0.8:
                chars[i] = self.rng.choice("0123456789/,x -wbpP")
            else:
                j = self.rng.randrange(len(chars))
                chars[i], chars[j] = chars[j], chars[i]
        return "".join(chars)

    def ugi_session(self, engine, game):
        rng = self.rng
        options = RULE_OPTIONS[game] + ENGINE_OPTIONS
        rule_names = {name.lower() for name, _ in RULE_OPTIONS[game]}
        moves, fens = [], []

        def restart():
            engine.send("position startpos")
            engine.send("d")
            fens.append(engine.until(lambda l: l.startswith("Fen:"), 10)[5:])

        def state():
            engine.send("d")
            fen = engine.until(lambda l: l.startswith("Fen:"), 10)
            return fen, engine.until(lambda l: l.startswith("Key:"), 10)

        def checked(command):
            """Sends a command that may be refused; a refusal must leave the position as it was."""
            before = state()
            engine.send(command)
            engine.send("isready")
            refused = False
            while True:
                line = engine.until(lambda l: True, 60)
                refused |= line.startswith("info string error")
                if line == "readyok":
                    break
            if refused and state() != before:
                raise Failure(f"the position changed although '{command[:80]}' was refused")

        def bestmove_or_error(timeout=30):
            return engine.until(lambda l: l.startswith(("bestmove", "info string error")), timeout)

        engine.send(rng.choice(["uci", "ugi"]))
        engine.until(lambda l: l in ("uciok", "ugiok"), 10)
        restart()
        for _ in range(rng.randint(5, 60)):
            r = rng.random()
            if r < 0.15:
                extra = [self.token()] if rng.random() < 0.3 else []
                checked("position startpos moves " + " ".join(moves + extra))
            elif r < 0.25:
                tail = " moves " + self.token() if rng.random() < 0.3 else ""
                checked("position fen " + self.mutate(rng.choice(fens)) + tail)
            elif r < 0.45:
                limit = rng.choice([f"depth {rng.randint(0, 4)}", f"nodes {rng.randint(0, 3000)}",
                                    f"movetime {rng.randint(0, 60)}",
                                    f"wtime {rng.randint(0, 300)} btime {rng.randint(0, 300)}",
                                    "p1time 100 p2time 100 movestogo 0",
                                    "depth x", "movetime -5", "nodes", ""])
                engine.send("go " + limit)
                if rng.random() < 0.5:
                    engine.send("stop")
                line = bestmove_or_error()
                if line.startswith("bestmove") and line.split()[1] != "0000" and rng.random() < 0.8:
                    # Play on from the engine's own move, so that sessions reach deep positions.
                    moves.append(line.split()[1])
                    engine.send("position startpos moves " + " ".join(moves))
            elif r < 0.5:
                engine.send("go infinite")
                time.sleep(rng.random() * 0.05)
                if rng.random() < 0.3:
                    engine.send(rng.choice(["position startpos", "setoption name Hash value 2",
                                            "go depth 2", "d", "ucinewgame"]))
                engine.send("stop")
                engine.until(lambda l: l.startswith("bestmove"), 10)
            elif r < 0.62:
                name, values = rng.choice(options)
                if rng.random() < 0.1:
                    name = name.lower()
                if rng.random() < 0.9:
                    checked(f"setoption name {name} value {rng.choice(values)}")
                else:
                    checked(f"setoption name {name}")
                if name.lower() in rule_names:
                    moves = []
                    restart()
            elif r < 0.7:
                engine.send(rng.choice(["query gameover", "query p1turn", "query result",
                                        "query score", "query", "query nothing"]))
            elif r < 0.75:
                command = rng.choice(["d", "eval", "ucinewgame", "uginewgame", "stop", "ponderhit", "bench 1"])
                engine.send(command)
                if command == "bench 1":
                    engine.until(lambda l: l.startswith("Nodes/second"), 60)
            elif r < 0.8:
                engine.send("go perft " + rng.choice(["1", "2", "0", "-1", "x", ""]))
            elif r < 0.9:
                engine.send(" ".join(self.token() for _ in range(rng.randint(0, 6))))
            elif r < 0.93:
                command = rng.choice(["position", "position fen", "position startpos moves",
                                      "position moves a1", "setoption", "setoption name",
                                      "setoption value 3", "go depth 99999999999999999999"])
                engine.send(command)
                if command.startswith("go"):
                    engine.send("stop")
                    bestmove_or_error(10)
            elif r < 0.95:
                engine.send("x" * rng.randint(1000, 200000))
            else:
                words = ["position", "startpos", "moves"] + moves[:rng.randint(0, len(moves))]
                engine.send("\t ".join(words))
            # Whatever came before, the engine must still answer.
            engine.send("isready")
            engine.until(lambda l: l == "readyok", 60)
        engine.send("quit")

    def gtp_session(self, engine):
        rng = self.rng
        size = 11
        serial = 0

        def ask(command, timeout=60):
            nonlocal serial
            serial += 1
            engine.send((f"{serial} " if rng.random() < 0.5 else "") + command)
            engine.until(lambda l: l.startswith(("=", "?")), timeout)
            engine.until(lambda l: l == "", timeout)

        ask("hex-setoption Depth 2")
        for _ in range(rng.randint(5, 60)):
            r = rng.random()
            colour = rng.choice(["b", "w", "black", "white", "B", "x", ""])
            if r < 0.1:
                size = rng.choice([0, 1, 2, 3, 5, 7, 11, 25, 26])
                ask(f"boardsize {size}" if rng.random() < 0.9 else f"boardsize {size} {size + 1}")
            elif r < 0.35:
                move = rng.choice([self.cell(max(size, 1)), "swap-pieces", "pass", "resign", self.junk()])
                ask(f"play {colour} {move}")
            elif r < 0.5:
                ask(rng.choice(["genmove", "reg_genmove"]) + " " + colour)
            elif r < 0.6:
                ask(rng.choice(["undo", "showboard", "final_score", "clear_board", "hex-eval", "hex-fen",
                                "hex-legal", "list_commands", "name", "version", "protocol_version",
                                "known_command play", "hexgui-analyze_commands", "hex-solve 1",
                                "hex-solve x"]))
            elif r < 0.7:
                ask(f"time_left {colour} " + rng.choice(["0", "1", "-3", "x", "10 3", "0.5"]))
            elif r < 0.78:
                ask("hex-setoption " + rng.choice(["Swap", "BoardSize", "Depth", "Threads", "Hash", "x"])
                    + " " + rng.choice(["true", "false", "3", "0", "2", "x", ""]))
            elif r < 0.85:
                ask("hex-setfen " + rng.choice(["", self.junk(), "11/11/11/11/11/11/11/11/11/11/11 b",
                                                "1/1 b", "3/3/3 w", "2b/3/3 w"]))
            else:
                # A line starting with '#' is a GTP comment and gets no answer.
                ask(" ".join(self.junk() for _ in range(rng.randint(1, 4))).lstrip("#") or "name")
        engine.send("quit")

    def pbrain_session(self, engine):
        rng = self.rng
        size = 15

        def point():
            return f"{rng.randint(-1, size)},{rng.randint(-1, size)}"

        def move_or_error():
            engine.until(lambda l: (l[:1].isdigit() and "," in l) or l.startswith("ERROR"), 30)

        def ok_or_error():
            engine.until(lambda l: l.startswith(("OK", "ERROR")), 10)

        engine.send(f"INFO timeout_turn {rng.choice([10, 50, 100])}")
        engine.send("INFO timeout_match 0")
        engine.send(f"START {size}")
        ok_or_error()
        for _ in range(rng.randint(5, 50)):
            r = rng.random()
            if r < 0.1:
                size = rng.choice([4, 5, 15, 20, 22, 23])
                engine.send(f"START {size}")
                ok_or_error()
            elif r < 0.4:
                engine.send("TURN " + (point() if rng.random() < 0.9 else self.junk()))
                move_or_error()
            elif r < 0.45:
                engine.send("BEGIN")
                move_or_error()
            elif r < 0.55:
                engine.send("BOARD")
                for _ in range(rng.randint(0, 12)):
                    stone = point() + "," + rng.choice(["1", "2", "3", "x"])
                    engine.send(stone if rng.random() < 0.9 else self.junk())
                engine.send("DONE")
                move_or_error()
            elif r < 0.62:
                engine.send("TAKEBACK " + point())
                ok_or_error()
            elif r < 0.7:
                key = rng.choice(["timeout_turn", "timeout_match", "time_left", "max_memory", "rule",
                                  "game_type", "folder", "x"])
                engine.send(f"INFO {key} " + rng.choice(["0", "1", "4", "100", "-5", "x", "99999999999999999999"]))
            elif r < 0.75:
                engine.send("RESTART")
                ok_or_error()
            elif r < 0.8:
                engine.send("ABOUT")
                engine.until(lambda l: l.startswith("name="), 10)
            elif r < 0.85:
                engine.send("RECTSTART " + rng.choice(["15,15", "10,12", "x", ""]))
                ok_or_error()
            else:
                engine.send(" ".join(self.junk() for _ in range(rng.randint(1, 4))))
                engine.until(lambda l: l.startswith(("UNKNOWN", "ERROR", "MESSAGE", "OK")) or l[:1].isdigit(), 10)
        engine.send("END")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("protocol", choices=["ugi", "gtp", "pbrain"])
    parser.add_argument("game", nargs="?", choices=sorted(RULE_OPTIONS))
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--binary")
    parser.add_argument("--show", type=int, default=3, help="failures printed with their transcript")
    args = parser.parse_args()
    if args.protocol == "ugi" and not args.game:
        parser.error("ugi needs a game")
    engine_name = {"ugi": args.game, "gtp": "hex", "pbrain": "gomoku"}[args.protocol]
    command = [args.binary or f"target/release/{engine_name}"]
    if args.protocol != "ugi":
        command.append("--" + args.protocol)
    fuzzer = Fuzzer(random.Random(args.seed))
    failures = 0
    for index in range(args.sessions):
        engine = Engine(command)
        try:
            if args.protocol == "ugi":
                fuzzer.ugi_session(engine, args.game)
            elif args.protocol == "gtp":
                fuzzer.gtp_session(engine)
            else:
                fuzzer.pbrain_session(engine)
            engine.finish()
        except Failure as failure:
            failures += 1
            print(f"session {index} failed: {failure}")
            if failures <= args.show:
                print("\n".join(engine.transcript[-40:]))
                print("".join(engine.stderr)[-3000:])
            engine.proc.kill()
    label = args.protocol + (f" {args.game}" if args.game else "")
    print(f"{label}: {args.sessions} sessions (seed {args.seed}), {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
