#!/usr/bin/env python3
"""Match: the hex engine (UGI) against OpenSpiel's MCTSBot on Hex.

Each opening (two random plies) is played twice, the engine taking Black in
one game and White in the other. Prints one line per game and the total.

    nice python3 scripts/hex-match.py --engine target/release/bg-hex \
        --pairs 5 --movetime 200 --simulations 10000
"""

import argparse
import random
import subprocess
import sys
import time

import pyspiel


class Engine:
    def __init__(self, path, size, movetime):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.movetime = movetime
        self.send("ugi")
        self.wait_for("ugiok")
        self.send(f"setoption name BoardSize value {size}")
        self.send("setoption name Swap value false")

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

    def best_move(self, moves):
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send(f"go movetime {self.movetime}")
        return self.wait_for("bestmove").split()[1]

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=5)


def play_game(args, game, opening, engine_player, seed):
    state = game.new_initial_state()
    names = {state.action_to_string(a): a for a in state.legal_actions()}
    bot = pyspiel.MCTSBot(
        game,
        pyspiel.RandomRolloutEvaluator(1, seed),
        2.0,
        args.simulations,
        1000,
        False,
        seed,
        False,
    )
    engine = Engine(args.engine, args.size, args.movetime)
    engine.send("uginewgame")
    moves = []
    for mv in opening:
        state.apply_action(names[mv])
        moves.append(mv)
    try:
        while not state.is_terminal():
            if state.current_player() == engine_player:
                mv = engine.best_move(moves)
                action = names.get(mv)
                if action not in state.legal_actions():
                    print(f"illegal engine move {mv} after {moves}", file=sys.stderr)
                    return -1, moves
            else:
                action = bot.step(state)
                mv = state.action_to_string(action)
            state.apply_action(action)
            moves.append(mv)
    finally:
        engine.close()
    return state.returns()[engine_player], moves


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", default="target/release/bg-hex")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--movetime", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=10000)
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    game = pyspiel.load_game("hex", {"board_size": args.size, "swap": False})
    cells = [game.new_initial_state().action_to_string(a) for a in range(args.size**2)]
    wins = games = 0
    start = time.time()
    for pair in range(args.pairs):
        opening = rng.sample(cells, 2)
        for engine_player in (0, 1):
            result, moves = play_game(args, game, opening, engine_player, args.seed * 1000 + pair)
            games += 1
            wins += result > 0
            colour = "Black" if engine_player == 0 else "White"
            verdict = "win" if result > 0 else "LOSS"
            print(
                f"game {games}: opening {' '.join(opening)} engine {colour}: {verdict} "
                f"in {len(moves)} plies | {' '.join(moves)}",
                flush=True,
            )
    print(
        f"engine won {wins}/{games} ({100.0 * wins / max(games, 1):.0f}%) "
        f"at {args.movetime} ms/move vs MCTS {args.simulations} simulations, "
        f"{args.size}x{args.size}, {time.time() - start:.0f} s",
        flush=True,
    )


if __name__ == "__main__":
    main()
