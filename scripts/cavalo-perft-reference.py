#!/usr/bin/env python3
"""Independent, deliberately plain enumerator of Jogo do Cavalo moves (issue 5
rules), for checking the engine's perft counts.

Usage: cavalo-perft-reference.py [board_seed] [max_depth] [options...]
Options: noattack, nosingle, choose, blackfirst.
Prints one line per depth: "perft <depth> <count>".
"""
import sys

MASK = (1 << 64) - 1


def splitmix(seed):
    state = seed

    def step():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    return step


def board(seed):
    values = list(range(100))
    nxt = splitmix(seed)
    for i in range(99, 0, -1):
        j = nxt() % (i + 1)
        values[i], values[j] = values[j], values[i]
    return values


JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def jumps(cell):
    r, c = divmod(cell, 10)
    return [(r + dr) * 10 + c + dc for dr, dc in JUMPS if 0 <= r + dr < 10 and 0 <= c + dc < 10]


class State:
    def __init__(self, cells, rules):
        self.cells = list(cells)  # value or None
        self.knights = [None, None]
        self.scores = [0, 0]
        self.side = 0
        self.placed = 0
        self.rules = rules

    def attacked_by_other(self, side):
        other = self.knights[1 - side]
        if other is None or not self.rules["attack"]:
            return set()
        return set(jumps(other))

    def landings(self, side):
        denied = self.attacked_by_other(side)
        if self.knights[side] is None:
            if self.placed >= 2 or self.placed != side:
                return []
            row = range(0, 10) if side == 0 else range(90, 100)
            valid = [c for c in row if self.cells[c] is not None and c not in denied]
            if self.rules["choose"] or not valid:
                return valid
            return [max(valid, key=lambda c: self.cells[c])]
        return [c for c in jumps(self.knights[side]) if self.cells[c] is not None and c not in denied]

    def moves(self):
        result = []
        for to in self.landings(self.side):
            v = self.cells[to]
            others = []
            if v >= 11 and v % 11 == 0:
                others = [c for c in range(100) if c != to and self.cells[c] is not None
                          and self.cells[c] >= 11 and self.cells[c] % 11 == 0]
            if others:
                result += [(to, o) for o in others]
            else:
                result.append((to, None))
        if not result and (self.placed < 2 or self.landings(1 - self.side)):
            result.append(("pass", None))
        return result

    def over(self):
        return self.placed == 2 and not self.landings(0) and not self.landings(1)

    def play(self, move):
        new = State(self.cells, self.rules)
        new.knights = list(self.knights)
        new.scores = list(self.scores)
        to, removes = move
        side = self.side
        if to != "pass":
            old = self.knights[side]
            if old is not None:
                new.cells[old] = None
            v = new.cells[to]
            new.cells[to] = None
            new.knights[side] = to
            new.scores[side] += v
            tens, units = divmod(v, 10)
            if tens != units and (tens != 0 or self.rules["single"]):
                sym = units * 10 + tens
                for c in range(100):
                    if new.cells[c] == sym:
                        new.cells[c] = None
            if removes is not None:
                new.cells[removes] = None
        new.placed = min(2, self.placed + (1 if self.placed < 2 else 0))
        if self.placed == 1:
            new.side = self.rules["first"]
        else:
            new.side = 1 - side
        return new


def perft(state, depth):
    if depth == 0:
        return 1
    if state.over():
        return 0
    total = 0
    for m in state.moves():
        child = state.play(m)
        total += 1 if child.over() or depth == 1 else perft(child, depth - 1)
    return total


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    flags = set(sys.argv[3:])
    rules = {
        "attack": "noattack" not in flags,
        "single": "nosingle" not in flags,
        "choose": "choose" in flags,
        "first": 1 if "blackfirst" in flags else 0,
    }
    start = State(board(seed), rules)
    for d in range(1, depth + 1):
        print(f"perft {d} {perft(start, d)}", flush=True)


if __name__ == "__main__":
    main()
