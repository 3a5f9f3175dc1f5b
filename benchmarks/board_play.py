"""Random-playout moves per CPU second, and alphabeta / mcts search speed on 5x5.

    .venv/bin/python benchmarks/board_play.py [--json]

* playouts: uniformly random games from seeded quick setups, 2 and 3 players, two ways:
  the checked game object (``Board.push`` with repetition bookkeeping, as ``cambio sim``
  plays) and the allocation-light functional core (``bitboard.push``, as mcts playouts do).
* alphabeta: nodes per second of one 20,000-node search from each of 10 seeded 5x5 starts.
* mcts: iterations per second of a 300-iteration search from the same starts.
"""

from __future__ import annotations

import argparse
import json
import time
from random import Random

from cambio.board import Board, Rules
from cambio.board.bitboard import completed, legal_pushes, push
from cambio.board.setup import quick_setup
from cambio.bots.board import AlphaBetaBot, MCTSBot


def playouts(rules: Rules, seconds: float, core: bool) -> tuple[float, float]:
    """Random games for ``seconds`` of CPU: moves/s and games/s."""
    rng = Random(1)
    moves = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        board = quick_setup(rules, games)
        moves += _core_game(board, rng) if core else _board_game(board, rng)
        games += 1
    spent = time.process_time() - start
    return moves / spent, games / spent


def _board_game(board: Board, rng: Random) -> int:
    while board.outcome is None:
        board.push(rng.choice(board.legal_moves()))
    return board.ply


def _core_game(board: Board, rng: Random) -> int:
    g, owners, turn = board.g, board.owners, board.turn
    for ply in range(board.rules.max_plies):
        legal = legal_pushes(owners, turn, g)
        if legal:
            m = legal[rng.randrange(len(legal))]
            owners = push(owners, m, turn, g)
            if completed(owners, g, m):
                return ply + 1
        turn = (turn + 1) % board.rules.players
    return board.rules.max_plies


def search_speed(players: int) -> dict[str, float]:
    rules = Rules(players=players)
    nodes = 0
    spent = 0.0
    depth = 0
    for seed in range(10):
        board = quick_setup(rules, seed)
        bot = AlphaBetaBot(nodes=20_000)
        t = time.process_time()
        bot.choose(board)
        spent += time.process_time() - t
        nodes += bot.nodes
        depth += bot.depth_reached
    iters = 0
    mspent = 0.0
    for seed in range(10):
        board = quick_setup(rules, seed)
        mcts = MCTSBot(300, seed=seed)
        t = time.process_time()
        mcts.choose(board)
        mspent += time.process_time() - t
        iters += 300
    return {"alphabeta_nodes_per_second": nodes / spent, "alphabeta_mean_depth": depth / 10,
            "mcts_iterations_per_second": iters / mspent}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    out = {}
    for players in (2, 3):
        rules = Rules(players=players)
        bm, bg = playouts(rules, args.seconds, core=False)
        cm, cg = playouts(rules, args.seconds, core=True)
        out[f"{players}p"] = {"board_moves_per_second": bm, "board_games_per_second": bg,
                              "core_moves_per_second": cm, "core_games_per_second": cg,
                              **search_speed(players)}
    if args.json:
        print(json.dumps(out))
        return
    for k, v in out.items():
        print(k, ", ".join(f"{key} {val:,.1f}" for key, val in v.items()))


if __name__ == "__main__":
    main()
