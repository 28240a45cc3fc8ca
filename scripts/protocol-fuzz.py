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
pbrain). UGI sessions also use the analysis commands: MultiPV, Ponder,
UCI_ShowWDL, UCI_AnalyseMode, UCI_LimitStrength, UCI_Elo (in and out of the
engine's declared range), StrengthSeed and Clear Hash; `go searchmoves` with
moves the engine's `go perft 1` lists, with words no game reads as a move,
with no moves, before and after other limits; `go ponder` followed by a few
commands that must not end it and then `ponderhit`, `stop` or neither (the
ponder search running on into the next command); `ponderhit` with no ponder
search running.

A session fails when the engine exits early or with a non-zero status,
panics (stderr), leaves a command unanswered for too long, or (UGI) changes
its position (`d`: FEN and key) on a `position` or `setoption` it refused
with an error line, takes a bad analysis option value (or refuses a good
one), answers a `go` with other than exactly one `bestmove` (none for a
refused one; a `searchmoves` list with a word that is no move must be
refused, and with legal moves answered with one of them), answers a
`go ponder` with `bestmove` before `ponderhit`, `stop` or a command that
ends any search (`go`, `setoption`, `ucinewgame`, `bench`, `quit`), answers
a `ponderhit` with no ponder search running without `info string error:
ponderhit ...`, or writes `bestmove X ponder Y` with the Ponder option off.
The first failures are printed with the end of their transcript.

Every UGI session starts with a tour of the analysis commands in random
order (a bad MultiPV, an out-of-range UCI_Elo, `Ponder maybe`, a good value,
searchmoves with legal moves, with a word that is no move and with none,
`go ponder` ended by ponderhit, by stop and by neither, `ponderhit` with no
ponder search), so that every run covers them; the summary counts what was
sent. `go ponder mate N` must be refused: a proof answers as soon as it
knows and cannot wait for `ponderhit`.
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
# The analysis options: (name, good values, bad values); a bad value must be
# refused with an error line and a good one taken. UCI_Elo's values come from
# the range the engine declares.
ANALYSIS_OPTIONS = [("MultiPV", ["1", "2", "3", "256"], ["0", "257", "-1", "x"]),
                    ("Ponder", ["true", "false", "TRUE"], ["maybe", "1", ""]),
                    ("UCI_ShowWDL", ["true", "false"], ["maybe"]),
                    ("UCI_AnalyseMode", ["true", "false"], ["yes"]),
                    ("UCI_LimitStrength", ["true", "false"], ["2"]),
                    ("StrengthSeed", ["0", "1", "2147483647"], ["2147483648", "-1", "s"])]
# A MultiPV above this has every search stopped at once rather than left to its limits.
WIDE = 8
# Words no game of the project reads as a move (for a searchmoves list that must be refused).
NOT_MOVES = ["zz99", "@", "-", "a2a2a2", "99"]
# Limits beside searchmoves: all valid and short.
SHORT_LIMITS = ["", "depth 1", "depth 2", "nodes 500", "movetime 20", "wtime 200 btime 200"]
# Limits of a go ponder (they count from ponderhit), and the proof search's, which a
# go ponder must refuse.
PONDER_LIMITS = ["movetime 40", "depth 1", "depth 3", "nodes 2000", "nodes 0", "movetime 0",
                 "wtime 300 btime 300 winc 10 binc 10", "p1time 200 p2time 200 movestogo 5",
                 "infinite", ""]
PONDER_MATE_LIMITS = ["mate 1", "mate 2 movetime 50"]
# First words the engine takes as a command: random garbage must not start with one.
COMMAND_WORDS = {"uci", "ugi", "isready", "ucinewgame", "uginewgame", "setoption", "position",
                 "go", "stop", "ponderhit", "quit", "query", "d", "eval", "bench"}


class Failure(Exception):
    pass


class Engine:
    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, errors="replace")
        self.lines = queue.Queue()
        self.stderr = []
        self.transcript = []
        # Sees every line before `until` does; returns True for a line it took (UGI).
        self.watch = None
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

    def until(self, accept, timeout, watched_ok=None):
        """Reads lines up to the first one `accept` takes, or after a line the watch took
        once `watched_ok()` holds; returns it."""
        deadline = time.time() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, deadline - time.time()))
            except queue.Empty:
                raise Failure(f"no answer within {timeout} s")
            if line is None:
                raise Failure("the engine exited")
            self.transcript.append("< " + line[:200])
            if self.watch is not None and self.watch(line):
                if watched_ok is not None and watched_ok():
                    return line
                continue
            if accept(line):
                return line

    def finish(self):
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure("still running 10 s after quit")
        time.sleep(0.05)  # let the stderr reader catch up
        # The last lines too must be answers the session was owed.
        while True:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                break
            if line is None:
                break
            self.transcript.append("< " + line[:200])
            if self.watch is not None:
                self.watch(line)
        if any("panicked" in line for line in self.stderr):
            raise Failure("panic")
        if self.proc.returncode != 0:
            raise Failure(f"exit status {self.proc.returncode}")


class Fuzzer:
    def __init__(self, rng):
        self.rng = rng
        self.counts = {}

    def count(self, what):
        self.counts[what] = self.counts.get(what, 0) + 1

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
        UgiSession(self, engine, game).run()

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


class UgiSession:
    """One UGI session. Besides answers and positions it keeps track of the
    searches the engine owes a `bestmove`: every accepted `go` exactly one
    (a refused one none), and a `go ponder` search none before `ponderhit`,
    `stop` or a command that ends any search (`go`, `setoption`,
    `ucinewgame`, `bench`, `quit`)."""

    def __init__(self, fuzzer, engine, game):
        self.fuzzer = fuzzer
        self.rng = fuzzer.rng
        self.engine = engine
        self.game = game
        self.moves = []
        self.fens = []
        # Bestmoves the session is waiting for (searches it started and reads the answer of).
        self.owed = 0
        # The ponder search: None; "silent" (no bestmove allowed); "may" (a command that may
        # end it was sent: its bestmove may come until the next readyok); "owed" (ponderhit
        # or stop was sent: its bestmove must come).
        self.ponder = None
        self.ponder_limits = ""
        self.ponder_answer = ""
        self.ponder_limits_choice = PONDER_LIMITS + PONDER_MATE_LIMITS
        self.ponder_option = False
        # MultiPV as set: above WIDE every search is stopped rather than left to its limits
        # (256 lines of Hex 25x25 take minutes to depth 4).
        self.multipv = 1
        engine.watch = self.watch

    def watch(self, line):
        """Sees every line first; True when it is the answer of the ponder search."""
        if not line.startswith("bestmove"):
            return False
        words = line.split()
        if len(words) == 4 and words[2] == "ponder":
            if not self.ponder_option:
                raise Failure(f"'{line}' with the Ponder option off")
        elif len(words) != 2:
            raise Failure(f"malformed '{line}'")
        if self.ponder in ("may", "owed"):
            self.ponder = None
            self.ponder_answer = line
            return True
        if self.ponder == "silent":
            raise Failure(f"'{line}' from a go ponder search before ponderhit or stop")
        if self.owed == 0:
            raise Failure(f"'{line}' with no search running (a second bestmove for one go?)")
        self.owed -= 1
        return False

    def may_end_ponder(self):
        if self.ponder == "silent":
            self.ponder = "may"

    def send(self, command):
        """Sends a command, noting what it does to a ponder search."""
        word = command.split()[0].lower() if command.split() else ""
        if word in ("go", "setoption", "ucinewgame", "uginewgame", "bench", "quit"):
            self.may_end_ponder()
        elif word == "stop" and self.ponder in ("silent", "may"):
            self.ponder = "owed"
        self.engine.send(command)

    def sync(self, timeout=60):
        """isready; the lines before readyok."""
        self.engine.send("isready")
        lines = []
        while True:
            line = self.engine.until(lambda l: True, timeout)
            if line == "readyok":
                break
            lines.append(line)
        if self.ponder == "may":
            self.ponder = "silent"  # whatever was sent did not end it
        return lines

    def answer(self, timeout=30):
        """The answer of a `go` that was just sent: its bestmove or its error line."""
        self.owed += 1
        line = self.engine.until(lambda l: l.startswith(("bestmove", "info string error")), timeout)
        if line.startswith("info string error"):
            self.owed -= 1
        if self.ponder == "may":
            self.ponder = "silent"  # a go that ends a search ends it before its answer
        return line

    def wait_ponder(self, timeout):
        """Waits for the ponder search's bestmove."""
        if self.ponder is not None:
            self.engine.until(lambda l: False, timeout, watched_ok=lambda: self.ponder is None)

    def restart(self):
        self.send("position startpos")
        self.fens.append(self.state()[0][5:])

    def state(self):
        self.send("d")
        fen = self.engine.until(lambda l: l.startswith("Fen:"), 10)
        return fen, self.engine.until(lambda l: l.startswith("Key:"), 10)

    def checked(self, command):
        """Sends a command that may be refused; a refusal must leave the position as it was.
        Returns whether it was refused."""
        before = self.state()
        self.send(command)
        refused = any(l.startswith("info string error") for l in self.sync())
        if refused and self.state() != before:
            raise Failure(f"the position changed although '{command[:80]}' was refused")
        return refused

    def legal_moves(self):
        """The moves the engine lists with `go perft 1` (none when the game is over)."""
        self.send("go perft 1")
        moves = []
        while True:
            line = self.engine.until(lambda l: True, 30)
            if line.startswith("Nodes searched"):
                return moves
            if line.endswith(": 1"):
                moves.append(line.split(":")[0])

    def setoption(self, name, good, bad, value=None):
        """An option with a good or a bad value: a bad one is refused, a good one taken."""
        value = self.rng.choice(good + bad) if value is None else value
        refused = self.checked(f"setoption name {name} value {value}")
        if value in bad and not refused:
            raise Failure(f"'setoption name {name} value {value}' was not refused")
        if value in good and refused:
            raise Failure(f"'setoption name {name} value {value}' was refused")
        self.fuzzer.count("bad analysis option value refused" if refused else "analysis option set")
        if name == "Ponder" and not refused:
            self.ponder_option = value.lower() == "true"
        if name == "MultiPV" and not refused:
            self.multipv = int(value)

    def searchmoves(self, kind=None):
        """A `searchmoves` part of `kind` (legal, not-moves, empty, tokens; at random when
        None) and what it should bring: the moves a bestmove must be among, "refused", or
        None (either)."""
        rng = self.rng
        legal = self.legal_moves()
        if kind is None:
            kind = rng.choice(["legal", "legal", "not-moves", "empty", "tokens"])
        if kind == "legal" and not legal:
            kind = "not-moves"  # the game is over: nothing legal to name
        if kind == "legal":
            chosen = rng.sample(legal, rng.randint(1, min(3, len(legal))))
            return ["searchmoves"] + chosen, chosen
        if kind == "not-moves":
            # A word no game reads as a move, alone or among legal moves.
            mixed = rng.sample(legal, min(len(legal), rng.randint(0, 2))) + [rng.choice(NOT_MOVES)]
            rng.shuffle(mixed)
            return ["searchmoves"] + mixed, "refused"
        if kind == "empty":
            return ["searchmoves"], "refused"
        return ["searchmoves"] + [self.fuzzer.token() for _ in range(rng.randint(1, 3))], None

    def go_searchmoves(self, kind=None):
        """go with a searchmoves list, with limits before and after it."""
        rng = self.rng
        part, expected = self.searchmoves(kind)
        before, after = rng.choice(SHORT_LIMITS), rng.choice(SHORT_LIMITS)
        command = " ".join(w for w in ["go", before] + part + [after] if w)
        self.send(command)
        line = self.answer()
        if expected == "refused":
            if line.startswith("bestmove"):
                raise Failure(f"'{line}' to '{command}', which names no move the engine can play")
            self.fuzzer.count("go searchmoves refused")
        elif expected is not None:
            if not line.startswith("bestmove"):
                raise Failure(f"'{command}' (legal moves, as the engine's perft lists them) refused: {line}")
            if line.split()[1] not in expected:
                raise Failure(f"'{line}' is not among the searchmoves of '{command}'")
            self.fuzzer.count("go searchmoves with legal moves")

    def go_ponder(self, ending=None, searchmoves=None):
        """go ponder (with a searchmoves list when `searchmoves` is true, or at random when
        None), a few commands that must not end it, then `ending`: ponderhit, stop or neither
        (the search ponders on into whatever comes next); at random when None."""
        rng = self.rng
        if rng.random() < 0.3:
            self.setoption("Ponder", ["true", "false"], [])
        # The tour asks for a given ending, so it ponders on limits that are taken.
        limits = rng.choice(self.ponder_limits_choice if ending is None else PONDER_LIMITS)
        words, expected = ["go", "ponder", limits], None
        if searchmoves or (searchmoves is None and rng.random() < 0.2):
            part, expected = self.searchmoves("legal" if searchmoves else None)
            words = ["go"] + part + ["ponder", limits]
        if "mate" in limits:
            expected = "refused"
        command = " ".join(w for w in words if w)
        self.send(command)
        refused = any(l.startswith("info string error") for l in self.sync())
        if refused != (expected == "refused") and expected is not None:
            raise Failure(f"'{command}' " + ("refused" if refused else "not refused"))
        if refused:
            if "mate" in limits:
                self.fuzzer.count("go ponder mate refused")
            return  # nothing is pondering
        self.ponder = "silent"
        self.ponder_limits = limits
        for _ in range(rng.randint(0, 3)):
            time.sleep(rng.random() * 0.03)
            meanwhile = rng.choice(["d", "query p1turn", "eval", "position startpos", None])
            if meanwhile:
                self.send(meanwhile)
            self.sync()  # isready: answered at once, and still no bestmove
        if ending is None:
            ending = rng.choice(["ponderhit", "ponderhit", "stop", "stop", "neither"])
        self.fuzzer.count(f"go ponder then {ending}")
        if ending == "ponderhit":
            self.ponderhit()
            self.wait_ponder(30)
        elif ending == "stop":
            self.send("stop")
            self.wait_ponder(10)
        else:
            return
        if isinstance(expected, list) and self.ponder_answer.split()[1] not in expected:
            raise Failure(f"'{self.ponder_answer}' is not among the searchmoves of '{command}'")

    def idle_ponderhit(self):
        """ponderhit with no ponder search running (one still pondering is stopped first)."""
        if self.ponder is not None:
            self.send("stop")
            self.wait_ponder(10)
        self.ponderhit()

    def ponderhit(self):
        """ponderhit: ends the pondering of a silent ponder search; otherwise an error line."""
        pondering = self.ponder == "silent"
        self.engine.send("ponderhit")
        if pondering:
            self.ponder = "owed"
            if self.ponder_limits == "infinite" or self.multipv > WIDE:
                time.sleep(self.rng.random() * 0.02)
                self.engine.send("stop")  # after ponderhit an infinite search waits for stop
        lines = self.sync()
        errors = [l for l in lines if l.startswith("info string error")]
        if pondering and errors:
            raise Failure(f"ponderhit during go ponder answered {errors[0]}")
        if not pondering and not any(l.startswith("info string error: ponderhit") for l in lines):
            raise Failure(f"ponderhit with no ponder search running answered {lines} before readyok")
        if not pondering:
            self.fuzzer.count("ponderhit with no ponder search")
        if pondering and self.rng.random() < 0.3:
            self.ponderhit()  # the search no longer ponders

    def run(self):
        rng = self.rng
        engine = self.engine
        options = RULE_OPTIONS[self.game] + ENGINE_OPTIONS
        rule_names = {name.lower() for name, _ in RULE_OPTIONS[self.game]}

        engine.send(rng.choice(["uci", "ugi"]))
        elo = None
        while True:
            line = engine.until(lambda l: True, 10)
            if line.startswith("option name UCI_Elo type spin"):
                words = line.split()
                elo = (int(words[words.index("min") + 1]), int(words[words.index("max") + 1]))
            if line in ("uciok", "ugiok"):
                break
        if elo is None:
            raise Failure("no UCI_Elo option declared")
        low, high = elo
        analysis = ANALYSIS_OPTIONS + [
            ("UCI_Elo", [str(low), str(high), str((low + high) // 2)], [str(low - 1), str(high + 1), "x"])]
        self.restart()

        def good_value():
            name, good, bad = rng.choice(analysis)
            self.setoption(name, good, bad, rng.choice(good))

        # A tour of the analysis commands, in random order, then random steps.
        tour = [lambda: self.setoption("MultiPV", [], [rng.choice(["0", "257", "-1"])]),
                lambda: self.setoption("UCI_Elo", [], [str(rng.choice([low - 1, high + 1]))]),
                lambda: self.setoption("Ponder", [], ["maybe"]),
                good_value,
                lambda: self.go_searchmoves("legal"),
                lambda: self.go_searchmoves("not-moves"),
                lambda: self.go_searchmoves("empty"),
                lambda: self.go_ponder("ponderhit", searchmoves=rng.random() < 0.3),
                lambda: self.go_ponder("stop", searchmoves=False),
                lambda: self.go_ponder("neither", searchmoves=False),
                self.idle_ponderhit]
        rng.shuffle(tour)
        for step in tour + [None] * rng.randint(5, 60):
            if step is not None:
                step()
                self.sync()
                continue
            r = rng.random()
            if r < 0.13:
                extra = [self.fuzzer.token()] if rng.random() < 0.3 else []
                self.checked("position startpos moves " + " ".join(self.moves + extra))
            elif r < 0.21:
                tail = " moves " + self.fuzzer.token() if rng.random() < 0.3 else ""
                self.checked("position fen " + self.fuzzer.mutate(rng.choice(self.fens)) + tail)
            elif r < 0.36:
                limit = rng.choice([f"depth {rng.randint(0, 4)}", f"nodes {rng.randint(0, 3000)}",
                                    f"movetime {rng.randint(0, 60)}",
                                    f"wtime {rng.randint(0, 300)} btime {rng.randint(0, 300)}",
                                    "p1time 100 p2time 100 movestogo 0",
                                    "depth x", "movetime -5", "nodes", ""])
                self.send("go " + limit)
                if rng.random() < 0.5 or self.multipv > WIDE:
                    self.send("stop")
                line = self.answer()
                if line.startswith("bestmove") and line.split()[1] != "0000" and rng.random() < 0.8:
                    # Play on from the engine's own move, so that sessions reach deep positions.
                    self.moves.append(line.split()[1])
                    self.send("position startpos moves " + " ".join(self.moves))
            elif r < 0.43:
                self.go_searchmoves()
            elif r < 0.51:
                self.go_ponder()
            elif r < 0.55:
                self.ponderhit()
            elif r < 0.59:
                self.send("go infinite")
                self.owed += 1
                time.sleep(rng.random() * 0.05)
                if rng.random() < 0.3:
                    command = rng.choice(["position startpos", "setoption name Hash value 2",
                                          "go depth 2", "d", "ucinewgame"])
                    self.send(command)
                    if command == "go depth 2":
                        self.owed += 1  # the infinite search ends, then this one answers
                self.send("stop")
                while self.owed:
                    engine.until(lambda l: l.startswith("bestmove"), 10)
            elif r < 0.68:
                if rng.random() < 0.4:
                    name, good, bad = rng.choice(analysis)
                    self.setoption(name, good, bad)
                    rules_changed = False
                else:
                    name, values = rng.choice(options)
                    if rng.random() < 0.1:
                        name = name.lower()
                    if rng.random() < 0.9:
                        self.checked(f"setoption name {name} value {rng.choice(values)}")
                    else:
                        self.checked(f"setoption name {name}")
                    rules_changed = name.lower() in rule_names
                if rng.random() < 0.05:
                    self.checked("setoption name Clear Hash")
                if rules_changed:
                    self.moves = []
                    self.restart()
            elif r < 0.74:
                self.send(rng.choice(["query gameover", "query p1turn", "query result",
                                      "query score", "query", "query nothing"]))
            elif r < 0.78:
                command = rng.choice(["d", "eval", "ucinewgame", "uginewgame", "stop", "bench 1"])
                self.send(command)
                if command == "bench 1":
                    engine.until(lambda l: l.startswith("Nodes/second"), 60)
            elif r < 0.82:
                self.send("go perft " + rng.choice(["1", "2", "0", "-1", "x", ""]))
            elif r < 0.9:
                words = [self.fuzzer.token() for _ in range(rng.randint(0, 6))]
                if words and words[0].lower() in COMMAND_WORDS:
                    words[0] = "x" + words[0]  # garbage, not by chance a command
                self.send(" ".join(words))
            elif r < 0.93:
                command = rng.choice(["position", "position fen", "position startpos moves",
                                      "position moves a1", "setoption", "setoption name",
                                      "setoption value 3", "go depth 99999999999999999999",
                                      "go searchmoves", "go ponder searchmoves", "go searchmoves depth 2",
                                      "ponderhit now", "setoption name MultiPV value"])
                self.send(command)
                if command.startswith("go"):
                    self.send("stop")
                    self.answer(10)
            elif r < 0.95:
                self.send("x" * rng.randint(1000, 200000))
            else:
                words = ["position", "startpos", "moves"] + self.moves[:rng.randint(0, len(self.moves))]
                self.send("\t ".join(words))
            # Whatever came before, the engine must still answer.
            self.sync()
        self.send("quit")


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
    command = [args.binary or f"target/release/bg-{engine_name}"]
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
    if fuzzer.counts:
        print("sent: " + ", ".join(f"{what} {n}" for what, n in sorted(fuzzer.counts.items())))
    print(f"{label}: {args.sessions} sessions (seed {args.seed}), {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
