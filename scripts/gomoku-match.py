#!/usr/bin/env python3
"""Match: our gomoku engine (UGI) against OpenSpiel's MCTS bot.

Each opening of the Piskvork set (x,y offsets from the centre, Black first)
is played twice, the engine taking Black and then White. OpenSpiel's
gomoku is freestyle 15x15; action a is row a // 15, column a % 15, which we
write as column letter and row number (a bijection that keeps every line).

    python3 scripts/gomoku-match.py --engine target/release/bg-gomoku \
        --openings openings/piskvork-openings-15.txt --count 40
"""

import argparse
import os
import subprocess
import sys
import time

import pyspiel

SIZE = 15


def action_to_move(action):
    row, col = divmod(action, SIZE)
    return f"{chr(ord('a') + col)}{row + 1}"


def move_to_action(move):
    col = ord(move[0]) - ord("a")
    row = int(move[1:]) - 1
    return row * SIZE + col


def read_openings(path):
    openings = []
    with open(path) as f:
        for line in f:
            numbers = [int(t) for t in line.replace(" ", "").split(",") if t.strip()]
            if numbers:
                centre = SIZE // 2
                points = list(zip(numbers[0::2], numbers[1::2]))
                openings.append([(centre + dy) * SIZE + (centre + dx) for dx, dy in points])
    return openings


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("ugi")
        self.wait_for("ugiok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            if line.startswith(prefix):
                return line.strip()

    def best_move(self, moves, movetime_ms):
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send(f"go movetime {movetime_ms}")
        start = time.monotonic()
        line = self.wait_for("bestmove")
        return line.split()[1], (time.monotonic() - start) * 1000

    def new_game(self):
        self.send("uginewgame")

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=5)


def play(engine, opening, engine_player, args, seed):
    game = pyspiel.load_game("gomoku")
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, args.simulations, 1000, True, seed, False)
    state = game.new_initial_state()
    moves = []
    for action in opening:
        state.apply_action(action)
        moves.append(action_to_move(action))
    engine.new_game()
    slowest = 0.0
    while not state.is_terminal():
        if state.current_player() == engine_player:
            move, elapsed = engine.best_move(moves, args.movetime)
            slowest = max(slowest, elapsed)
            action = move_to_action(move)
            if action not in state.legal_actions():
                print(f"illegal engine move {move}", file=sys.stderr)
                return -1, moves, slowest
        else:
            action = bot.step(state)
        state.apply_action(action)
        moves.append(action_to_move(action))
    returns = state.returns()
    return (1 if returns[engine_player] > 0 else -1 if returns[engine_player] < 0 else 0), moves, slowest


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="target/release/bg-gomoku")
    parser.add_argument(
        "--openings",
        # openings/ in the repository.
        default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "openings", "piskvork-openings-15.txt"),
    )
    parser.add_argument("--first", type=int, default=0, help="index of the first opening")
    parser.add_argument("--count", type=int, default=40, help="number of openings (two games each)")
    parser.add_argument("--movetime", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=10000)
    args = parser.parse_args()

    openings = read_openings(args.openings)[args.first:args.first + args.count]
    engine = Engine(args.engine)
    wins = losses = draws = 0
    for index, opening in enumerate(openings):
        for engine_player in (0, 1):
            seed = 1000 * (args.first + index) + engine_player
            result, moves, slowest = play(engine, opening, engine_player, args, seed)
            wins += result == 1
            losses += result == -1
            draws += result == 0
            colour = "black" if engine_player == 0 else "white"
            outcome = {1: "win", -1: "LOSS", 0: "draw"}[result]
            print(f"opening {args.first + index:2} engine {colour}: {outcome} in {len(moves)} plies "
                  f"(slowest reply {slowest:.0f} ms) {' '.join(moves)}", flush=True)
    engine.close()
    games = wins + losses + draws
    print(f"engine {wins} wins, {losses} losses, {draws} draws of {games}: "
          f"{100.0 * (wins + 0.5 * draws) / max(games, 1):.1f}%")


if __name__ == "__main__":
    main()
