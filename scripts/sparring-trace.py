#!/usr/bin/env python3
"""What each side thought, move by move, in a match against a Gomocup brain.

Reads the referee's transcript (`--log`) and records (`--records`) of a
match between our UGI engine and a pbrain brain (e.g. Rapfi), at any
`--concurrency` and under any engine names, and prints for every game
either a summary line or (with --game N) every move with our last `info`
(depth, score, nodes) and the brain's last `MESSAGE ... Depth | Eval |
Node` line. Each worker's games are read apart (the transcript's labels
are `name.wN#K`) and each is matched to its record by our moves.

The summary says when each side first announced a forced win (our `mate N`,
the brain's `+M` / `-M`), so the move where a lost game was lost can be
found: the brain's first `+M` is the position after our decisive mistake.

    target/release/bg-referee --game gomoku --concurrency 2 \
        --engine cmd=target/release/bg-gomoku st=0.5 timemargin=100 \
        --engine cmd=$HOME/.cache/sparring/pbrain-rapfi proto=pbrain st=0.5 timemargin=100 \
        --games 40 --openings openings/piskvork-openings-15.txt \
        --records r.jsonl --log r.log
    python3 scripts/sparring-trace.py r.log r.jsonl            # one line a game
    python3 scripts/sparring-trace.py r.log r.jsonl --game 2   # game 2, move by move
    python3 scripts/sparring-trace.py r.log r.jsonl --missed-wins  # positions to replay
"""

import argparse
import json
import re

OUR_INFO = re.compile(r"depth (\d+).*score (cp|mate) (-?\d+).*nodes (\d+)")
BRAIN_INFO = re.compile(r"Depth (\S+) \| Eval (\S+) \| Node (\S+)")
BRAIN_MOVE = re.compile(r"^\d+,\d+$")


def thoughts_per_game(log_path):
    """Every game of the transcript: our moves, and each side's list of
    last infos, one per move, in the order the games started per worker."""
    games = []
    open_games = {}  # (worker, side) -> the game that side plays now
    last = {}
    # A brain that lost the word START answers ERROR and is sent the
    # whole line again: the same game, not a new one.
    start_unanswered, start_lost = set(), set()
    with open(log_path, errors="replace") as log:
        for line in log:
            parts = line.rstrip("\n").split(" ", 3)
            if len(parts) < 4:
                continue
            _, label, direction, text = parts
            worker = label.split(".", 1)[-1].split("#", 1)[0]
            if direction == "<" and worker in start_unanswered and label.lower().startswith(BRAIN_NAME):
                start_unanswered.discard(worker)
                if text.startswith("ERROR"):
                    start_lost.add(worker)
            if direction == ">" and text.startswith("uginewgame"):
                start_game(games, open_games, worker, "ours")
            elif direction == ">" and text.split()[:1] in (["START"], ["RESTART"]):
                if worker in start_lost:
                    start_lost.discard(worker)
                else:
                    start_game(games, open_games, worker, "brain")
                start_unanswered.add(worker)
            elif direction == "<" and text.startswith("info depth"):
                found = OUR_INFO.search(text)
                if found:
                    last[(worker, "ours")] = (found[1], f"{found[2]} {found[3]}", found[4])
            elif direction == "<" and text.startswith("bestmove"):
                game = open_games.get((worker, "ours"))
                if game is not None:
                    game["ours"].append(last.pop((worker, "ours"), None))
                    game["our_moves"].append(text.split()[1] if len(text.split()) > 1 else "")
            elif direction == "<" and text.startswith("MESSAGE"):
                found = BRAIN_INFO.search(text)
                if found:
                    last[(worker, "brain")] = (found[1], found[2], found[3])
            elif direction == "<" and BRAIN_MOVE.match(text):
                game = open_games.get((worker, "brain"))
                if game is not None:
                    game["brain"].append(last.pop((worker, "brain"), None))
    return games


def start_game(games, open_games, worker, side):
    """The worker's next game for `side`: the one the other side has
    started already without this side, or a new one."""
    other = "brain" if side == "ours" else "ours"
    waiting = [g for g in games if g["worker"] == worker and not g[side + "_started"]]
    if waiting and waiting[0][other + "_started"]:
        game = waiting[0]
    else:
        game = {"worker": worker, "ours": [], "brain": [], "our_moves": [],
                "ours_started": False, "brain_started": False}
        games.append(game)
    game[side + "_started"] = True
    open_games[(worker, side)] = game


def is_ours_first(record):
    return not record["players"][0].lower().startswith(BRAIN_NAME)


def ours_won(record):
    return record["result"]["winner"] == ("p1" if is_ours_first(record) else "p2")


def our_moves(record):
    ours_first = is_ours_first(record)
    return [m["move"] for index, m in enumerate(record["moves"])
            if not m["book"] and (index % 2 == 0) == ours_first]


def game_of(record, games):
    """The transcript's game whose moves of ours are the record's."""
    wanted = our_moves(record)
    for game in games:
        if game["our_moves"] == wanted and not game.get("taken"):
            game["taken"] = True
            return game
    return {"ours": [], "brain": []}


def plies(record, ours, brain):
    """(ply, who, move, info) for every move not from the opening."""
    ours_first = is_ours_first(record)
    our_infos, brain_infos = iter(ours), iter(brain)
    for index, move in enumerate(record["moves"]):
        if move["book"]:
            continue
        ours_to_move = (index % 2 == 0) == ours_first
        infos = our_infos if ours_to_move else brain_infos
        yield index + 1, "us" if ours_to_move else "brain", move["move"], next(infos, None)


def first(rows, who, test):
    return next((ply for ply, w, _, info in rows if w == who and info and test(info[1])), None)


def summary(number, record, rows):
    ours_first = is_ours_first(record)
    winner = record["result"]["winner"]
    outcome = "drew" if winner is None else "won " if ours_won(record) else "lost"
    brain_wins = first(rows, "brain", lambda e: e.startswith("+M"))
    ours_before = [info for ply, w, _, info in rows if w == "us" and brain_wins and ply < brain_wins]
    early = [info[1] for _, w, _, info in rows if w == "brain" and info][:3]
    our_loss = first(rows, "us", lambda e: e.startswith("mate -"))
    our_win = first(rows, "us", lambda e: re.match(r"mate \d", e))
    brain_loss = first(rows, "brain", lambda e: e.startswith("-M"))
    print(
        f"game {number:3} opening {record['opening'].rsplit(':', 1)[-1]:>3}"
        f" we are {'p1' if ours_first else 'p2'} {outcome}"
        f" in {len(record['moves'])} plies |"
        f" brain +M at {brain_wins}, our mate- at {our_loss} |"
        f" brain -M at {brain_loss}, our mate+ at {our_win} |"
        f" our last eval before the brain's +M: {ours_before[-1] if ours_before else None} |"
        f" brain's first evals {early}"
    )


def detail(number, record, rows):
    print(f"game {number}: {record['players'][0]} - {record['players'][1]}, {record['result']}")
    print("opening", " ".join(m["move"] for m in record["moves"] if m["book"]))
    for ply, who, move, info in rows:
        depth, score, nodes = info if info else ("-", "-", "-")
        print(f"{ply:3} {who:5} {move:4} depth {depth:6} score {score:9} nodes {nodes}")


def missed_wins(number, record, rows):
    """The positions, ours to move, right after the brain said it was lost
    (`-M`) in a game ours did not win, as lines for the engine."""
    if ours_won(record):
        return
    moves = [m["move"] for m in record["moves"]]
    for ply, who, _, info in rows:
        if who == "brain" and info and info[1].startswith("-M"):
            print(f"# game {number} ply {ply} brain {info[1]}")
            print("position startpos moves", " ".join(moves[:ply]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log")
    parser.add_argument("records")
    parser.add_argument("--game", type=int, help="one game (1-based), move by move")
    parser.add_argument("--missed-wins", action="store_true",
                        help="the positions where the brain saw a win for us that we did not take")
    parser.add_argument("--brain", default="rapfi", help="the brain's name in the records")
    args = parser.parse_args()
    global BRAIN_NAME
    BRAIN_NAME = args.brain.lower()
    with open(args.records) as file:
        records = [json.loads(line) for line in file]
    games = thoughts_per_game(args.log)
    for number, record in enumerate(records, 1):
        game = game_of(record, games)
        if args.game not in (None, number):
            continue
        rows = list(plies(record, game["ours"], game["brain"]))
        show = missed_wins if args.missed_wins else detail if args.game else summary
        show(number, record, rows)


BRAIN_NAME = "rapfi"

if __name__ == "__main__":
    main()
