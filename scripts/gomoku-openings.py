#!/usr/bin/env python3
"""Many openings in the Piskvork format (x,y offsets from the centre, Black
first), drawn like the 40 of openings/piskvork-openings-15.txt: three or
five stones in a small cluster around the centre. For self-play data
(`bg-tune datagen --openings FILE`), where each game needs an opening of
its own: a few dozen openings played at fixed nodes give a few dozen games.

    scripts/gomoku-openings.py --count 30000 --seed 1 > gomoku-openings.txt
"""
import argparse
import random


def opening(rng, reach):
    stones = rng.choice([3, 5])
    cells = [(0, 0)]
    while len(cells) < stones:
        # Each stone beside one already placed (within two cells), as in a game.
        x, y = rng.choice(cells)
        cell = (x + rng.randint(-2, 2), y + rng.randint(-2, 2))
        if cell not in cells and max(abs(cell[0]), abs(cell[1])) <= reach:
            cells.append(cell)
    return ", ".join(f"{x},{y}" for x, y in cells)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reach", type=int, default=3, help="largest offset from the centre")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    seen = set()
    while len(seen) < args.count:
        line = opening(rng, args.reach)
        if line not in seen:
            seen.add(line)
            print(line)


if __name__ == "__main__":
    main()
