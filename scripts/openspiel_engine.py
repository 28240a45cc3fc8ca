#!/usr/bin/env python3
"""OpenSpiel's MCTS bot behind the project's UGI/UCI protocol.

Lets the referee (and any UGI/UCI match runner) pit our engines against
`pyspiel.MCTSBot` with random rollouts, the yardstick named in the engine
issues. The bot thinks in OpenSpiel's action ids and board orientation; every
move crossing this adapter is translated to and from the project's notation
(see protocol/PROTOCOL.md):

* breakthrough: our White holds ranks 1-2 and moves first; OpenSpiel's player 0
  ('b') holds ranks 7-8 and moves first.  The two boards are the same game seen
  upside down, so our rank r is OpenSpiel's rank 9 - r (columns unchanged).
* hex: OpenSpiel's cell strings already read letter = column, number = row,
  with Black (player 0) joining row 1 to row N; swap is always off.
* gomoku (15x15, five or more wins): OpenSpiel's action is row * 15 + column,
  both from 0; ours is <column letter><row from 1>.

`--selftest N` plays N random games per game through the translation and
compares, at every ply, the legal moves and the result with an independent
rules implementation written here in our notation.

Usage:  openspiel_engine.py --game breakthrough|hex|gomoku [--simulations N]
        [--uct-c C] [--seed S] [--rollouts R] [--size N] [--no-solve]
Unsupported: `stop` during a search (the search runs to its limit) and
positions given as a FEN other than the empty/start position.
"""

import argparse
import random
import sys
import time

try:
    import pyspiel
except ImportError:  # the self-test of the translation needs pyspiel too
    pyspiel = None

LETTERS = "abcdefghijklmnopqrstuvwxyz"
BREAKTHROUGH_START_FEN = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP w 0 1"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def parse_cell(text):
    """'c12' -> (column 0-based, row 0-based) or None."""
    if len(text) < 2 or text[0] not in LETTERS or not text[1:].isdigit():
        return None
    row = int(text[1:]) - 1
    if row < 0:
        return None
    return LETTERS.index(text[0]), row


def cell_name(col, row):
    return f"{LETTERS[col]}{row + 1}"


# --------------------------------------------------------------------------
# Per-game translation between OpenSpiel actions and our notation.
# --------------------------------------------------------------------------


class Breakthrough:
    name = "breakthrough"

    def __init__(self, size):
        self.rows = 8
        self.cols = 8
        self.game = pyspiel.load_game("breakthrough") if pyspiel else None

    def our_move(self, state, action):
        text = state.action_to_string(state.current_player(), action).rstrip("*")
        from_col, from_os_rank = LETTERS.index(text[0]), int(text[1])
        to_col, to_os_rank = LETTERS.index(text[2]), int(text[3])
        # Flip the board: OpenSpiel rank k is our rank rows + 1 - k.
        return (
            f"{LETTERS[from_col]}{self.rows + 1 - from_os_rank}"
            f"{LETTERS[to_col]}{self.rows + 1 - to_os_rank}"
        )

    def normalise_input(self, text):
        return text.lower().replace("x", "", 1) if len(text) == 5 else text.lower()

    def is_start_fen(self, fen):
        return fen.split()[:2] == BREAKTHROUGH_START_FEN.split()[:2]


class Hex:
    name = "hex"

    def __init__(self, size):
        self.size = size
        self.game = (
            pyspiel.load_game("hex", {"board_size": size, "swap": False})
            if pyspiel
            else None
        )

    def our_move(self, state, action):
        return cell_name(action % self.size, action // self.size)

    def normalise_input(self, text):
        return text.lower()

    def is_start_fen(self, fen):
        rows = fen.split()[0].split("/")
        return len(rows) == self.size and all(r == str(self.size) for r in rows)


class Gomoku:
    name = "gomoku"

    def __init__(self, size):
        self.size = 15
        self.game = pyspiel.load_game("gomoku") if pyspiel else None

    def our_move(self, state, action):
        return cell_name(action % self.size, action // self.size)

    def normalise_input(self, text):
        return text.lower()

    def is_start_fen(self, fen):
        rows = fen.split()[0].split("/")
        return len(rows) == self.size and all(r == str(self.size) for r in rows)


GAMES = {"breakthrough": Breakthrough, "hex": Hex, "gomoku": Gomoku}


def legal_map(adapter, state):
    """Our notation -> OpenSpiel action, for every legal move."""
    if state.is_terminal():
        return {}
    return {adapter.our_move(state, a): a for a in state.legal_actions()}


# --------------------------------------------------------------------------
# The protocol loop.
# --------------------------------------------------------------------------


class Engine:
    def __init__(self, adapter_class, args):
        self.adapter_class = adapter_class
        self.options = {
            "simulations": args.simulations,
            "uct_c": args.uct_c,
            "seed": args.seed,
            "rollouts": args.rollouts,
            "solve": args.solve,
            "boardsize": args.size,
        }
        self.rng = random.Random(args.seed)
        self.adapter = adapter_class(args.size)
        self.state = self.adapter.game.new_initial_state()

    def option_lines(self):
        o = self.options
        lines = [
            f"option name Simulations type spin default {o['simulations']} min 0 max 100000000",
            f"option name UCT_C type string default {o['uct_c']}",
            f"option name Seed type spin default {o['seed']} min 0 max 2147483647",
            f"option name Rollouts type spin default {o['rollouts']} min 1 max 1000",
            f"option name Solve type check default {'true' if o['solve'] else 'false'}",
        ]
        if self.adapter.name == "hex":
            lines.append(
                f"option name BoardSize type spin default {o['boardsize']} min 2 max 25"
            )
        return lines

    def send(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def error(self, what):
        self.send(f"info string error: {what}")

    def set_option(self, words):
        # setoption name <Name> value <V>
        if len(words) < 3 or words[1] != "name":
            return self.error("setoption needs: setoption name <Name> value <V>")
        if "value" in words:
            at = words.index("value")
            name, value = "".join(words[2:at]).lower(), " ".join(words[at + 1 :])
        else:
            name, value = "".join(words[2:]).lower(), ""
        try:
            if name in ("simulations", "seed", "rollouts"):
                number = int(value)
                if number < (1 if name == "rollouts" else 0):
                    raise ValueError
                self.options[name] = number
                if name == "seed":
                    self.rng = random.Random(number)
            elif name in ("uct_c", "uctc"):
                self.options["uct_c"] = float(value)
            elif name == "solve":
                if value.lower() not in ("true", "false"):
                    raise ValueError
                self.options["solve"] = value.lower() == "true"
            elif name == "boardsize" and self.adapter.name == "hex":
                size = int(value)
                if not 2 <= size <= 25:
                    raise ValueError
                self.options["boardsize"] = size
                self.adapter = self.adapter_class(size)
                self.state = self.adapter.game.new_initial_state()
            else:
                return self.error(f"unknown option '{name}'")
        except ValueError:
            return self.error(f"bad value '{value}' for option '{name}'")

    def set_position(self, words):
        # Build the new state aside so a bad move keeps the previous position.
        if len(words) < 2:
            return self.error("position needs startpos or fen")
        rest = words[2:]
        if words[1] == "fen":
            fen_words = []
            while rest and rest[0] != "moves":
                fen_words.append(rest.pop(0))
            if not fen_words or not self.adapter.is_start_fen(" ".join(fen_words)):
                return self.error("only the start position is supported as a FEN")
        elif words[1] != "startpos":
            return self.error(f"position: expected startpos or fen, got '{words[1]}'")
        if rest and rest[0] != "moves":
            return self.error(f"position: unexpected '{rest[0]}'")
        state = self.adapter.game.new_initial_state()
        for ply, text in enumerate(rest[1:], start=1):
            action = legal_map(self.adapter, state).get(self.adapter.normalise_input(text))
            if action is None:
                return self.error(f"illegal move '{text}' at ply {ply}")
            state.apply_action(action)
        self.state = state

    def go(self, words):
        if self.state.is_terminal():
            self.send("info string game over")
            return self.send("bestmove 0000")
        simulations = self.options["simulations"]
        wall_seconds = -1.0
        params = {}
        for key, value in zip(words[1:], words[2:]):
            params.setdefault(key, value)  # keywords are followed by their value
        try:
            if "nodes" in params:
                simulations = max(1, int(params["nodes"]))
            # OpenSpiel's C++ MCTSBot ignores its simulation count whenever it
            # is given a time limit, so the clock is only used in time mode
            # (Simulations 0); otherwise the bot plays its fixed budget, which
            # is what the strength figures of the engine issues name.
            if simulations > 0:
                pass
            elif "movetime" in params:
                # Leave room for Python and the pipe: bestmove must beat the limit.
                wall_seconds = max(0.001, int(params["movetime"]) * 0.9 / 1000.0 - 0.005)
            else:
                mine = "p1" if self.state.current_player() == 0 else "p2"
                chess = "w" if mine == "p1" else "b"
                left = params.get(f"{mine}time", params.get(f"{chess}time"))
                inc = params.get(f"{mine}inc", params.get(f"{chess}inc", "0"))
                if left is not None:
                    togo = int(params.get("movestogo", "30"))
                    budget = int(left) / max(1, togo) + 0.8 * int(inc)
                    budget = min(budget, 0.5 * int(left))
                    wall_seconds = max(0.001, budget / 1000.0)
        except ValueError:
            # Still one bestmove per go, as the protocol promises.
            self.error("go: bad number")
            self.send("bestmove 0000")
            return
        if simulations == 0:
            simulations = 10**9  # time mode: the clock alone ends the search
            if wall_seconds <= 0:
                wall_seconds = 1.0
        evaluator = pyspiel.RandomRolloutEvaluator(
            self.options["rollouts"], self.rng.randrange(2**31)
        )
        bot = pyspiel.MCTSBot(
            self.adapter.game,
            evaluator,
            self.options["uct_c"],
            simulations,
            1000,
            self.options["solve"],
            self.rng.randrange(2**31),
            False,
            pyspiel.ChildSelectionPolicy.UCT,
            wall_seconds,
        )
        started = time.monotonic()
        root = bot.mcts_search(self.state)
        best = root.best_child()
        elapsed_ms = int((time.monotonic() - started) * 1000)
        mean = best.total_reward / best.explore_count if best.explore_count else 0.0
        self.send(
            f"info depth 1 score cp {int(round(mean * 1000))} nodes {root.explore_count} "
            f"time {elapsed_ms} pv {self.adapter.our_move(self.state, best.action)}"
        )
        self.send(f"bestmove {self.adapter.our_move(self.state, best.action)}")

    def query(self, words):
        what = words[1] if len(words) > 1 else ""
        if what == "gameover":
            self.send(f"response {'true' if self.state.is_terminal() else 'false'}")
        elif what == "p1turn":
            p1 = not self.state.is_terminal() and self.state.current_player() == 0
            if self.state.is_terminal():
                # No one is to move; report whose turn it would have been.
                p1 = len(self.state.history()) % 2 == 0
            self.send(f"response {'true' if p1 else 'false'}")
        elif what == "result":
            if not self.state.is_terminal():
                self.send("response none")
            else:
                returns = self.state.returns()
                if returns[0] > returns[1]:
                    self.send("response p1win")
                elif returns[1] > returns[0]:
                    self.send("response p2win")
                else:
                    self.send("response draw")
        else:
            self.error(f"unknown query '{what}'")

    def run(self):
        for raw in sys.stdin:
            words = raw.split()
            if not words:
                continue
            command = words[0]
            if command in ("uci", "ugi"):
                self.send(f"id name OpenSpiel-MCTS-{self.adapter.name}")
                self.send("id author OpenSpiel authors (adapter by the boardgames project)")
                for line in self.option_lines():
                    self.send(line)
                self.send(f"{command}ok")
            elif command == "isready":
                self.send("readyok")
            elif command in ("ucinewgame", "uginewgame"):
                self.state = self.adapter.game.new_initial_state()
            elif command == "setoption":
                self.set_option(words)
            elif command == "position":
                self.set_position(words)
            elif command == "go":
                self.go(words)
            elif command == "query":
                self.query(words)
            elif command == "stop":
                pass  # searches are synchronous: nothing is running
            elif command == "d":
                for line in str(self.state).splitlines():
                    self.send(line)
                moves = " ".join(sorted(legal_map(self.adapter, self.state)))
                self.send(f"legal {moves}")
            elif command == "quit":
                return
            else:
                self.error(f"unknown command '{command}'")


# --------------------------------------------------------------------------
# Independent rules in our notation, for --selftest.
# --------------------------------------------------------------------------


def breakthrough_reference(board, white_to_move):
    """board: dict (col,row)->'W'/'B', rows 0..7, White moves up."""
    me, step = ("W", 1) if white_to_move else ("B", -1)
    moves = set()
    for (c, r), piece in board.items():
        if piece != me:
            continue
        nr = r + step
        if not 0 <= nr < 8:
            continue
        for dc in (-1, 0, 1):
            nc = c + dc
            if not 0 <= nc < 8:
                continue
            target = board.get((nc, nr))
            if target is None or (dc != 0 and target != me):
                moves.add(cell_name(c, r) + cell_name(nc, nr))
    return moves


def breakthrough_winner(board):
    if any(p == "W" and r == 7 for (c, r), p in board.items()):
        return 0
    if any(p == "B" and r == 0 for (c, r), p in board.items()):
        return 1
    if "B" not in board.values():
        return 0
    if "W" not in board.values():
        return 1
    return None


def selftest_breakthrough(games, rng):
    adapter = Breakthrough(8)
    for _ in range(games):
        state = adapter.game.new_initial_state()
        board = {(c, r): "W" for c in range(8) for r in (0, 1)}
        board.update({(c, r): "B" for c in range(8) for r in (6, 7)})
        white = True
        while True:
            winner = breakthrough_winner(board)
            if winner is not None or state.is_terminal():
                assert state.is_terminal() and winner is not None, "terminal mismatch"
                assert state.returns()[winner] > 0, "winner mismatch"
                break
            ours = legal_map(adapter, state)
            expected = breakthrough_reference(board, white)
            assert set(ours) == expected, f"legal moves differ: {sorted(ours)} vs {sorted(expected)}"
            move = rng.choice(sorted(expected))
            state.apply_action(ours[move])
            src, dst = parse_cell(move[:2]), parse_cell(move[2:])
            board[dst] = board.pop(src)
            white = not white


HEX_NEIGHBOURS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def hex_winner(stones, size):
    """stones: dict (col,row)->0 (Black) or 1 (White)."""
    for player in (0, 1):
        if player == 0:
            frontier = [(c, 0) for c in range(size) if stones.get((c, 0)) == 0]
            reached = lambda cell: cell[1] == size - 1  # noqa: E731
        else:
            frontier = [(0, r) for r in range(size) if stones.get((0, r)) == 1]
            reached = lambda cell: cell[0] == size - 1  # noqa: E731
        seen = set(frontier)
        while frontier:
            cell = frontier.pop()
            if reached(cell):
                return player
            for dc, dr in HEX_NEIGHBOURS:
                nxt = (cell[0] + dc, cell[1] + dr)
                if nxt not in seen and stones.get(nxt) == player:
                    seen.add(nxt)
                    frontier.append(nxt)
    return None


def gomoku_winner(stones, size):
    for (c, r), player in stones.items():
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if all(stones.get((c + k * dc, r + k * dr)) == player for k in range(5)):
                return player
    return None


def selftest_placement(adapter, size, winner_of, games, rng):
    for _ in range(games):
        state = adapter.game.new_initial_state()
        stones = {}
        player = 0
        while True:
            winner = winner_of(stones, size)
            full = len(stones) == size * size
            if winner is not None or full or state.is_terminal():
                assert state.is_terminal(), "engine missed the end of the game"
                assert winner is not None or full, "engine ended the game early"
                returns = state.returns()
                if winner is None:
                    assert returns[0] == returns[1], "draw mismatch"
                else:
                    assert returns[winner] > 0, "winner mismatch"
                break
            ours = legal_map(adapter, state)
            expected = {
                cell_name(c, r)
                for c in range(size)
                for r in range(size)
                if (c, r) not in stones
            }
            assert set(ours) == expected, "legal moves differ"
            move = rng.choice(sorted(expected))
            state.apply_action(ours[move])
            stones[parse_cell(move)] = player
            player = 1 - player


def selftest(games, seed):
    rng = random.Random(seed)
    selftest_breakthrough(games, rng)
    for size in (3, 5, 11):
        selftest_placement(Hex(size), size, hex_winner, games, rng)
    selftest_placement(Gomoku(15), 15, gomoku_winner, games, rng)
    print(f"selftest: {games} random games per game agree", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="breakthrough")
    parser.add_argument("--simulations", type=int, default=10000)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--size", type=int, default=11, help="Hex board size")
    parser.add_argument("--no-solve", dest="solve", action="store_false")
    parser.add_argument("--selftest", type=int, metavar="GAMES")
    args = parser.parse_args()
    if pyspiel is None:
        log("error: pyspiel is not importable (pip install open_spiel)")
        return 2
    if args.selftest:
        selftest(args.selftest, args.seed)
        return 0
    if args.game == "hex" and not 2 <= args.size <= 25:
        log("error: --size must be from 2 to 25")
        return 2
    try:
        Engine(GAMES[args.game], args).run()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
