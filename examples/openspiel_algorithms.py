"""OpenSpiel's own algorithms on both games, through ``cambio.envs.openspiel``.

1. **MCTS on the board game** (4x4, 2 players): OpenSpiel's ``MCTSBot`` with random rollouts
   against a uniformly random player, for several simulation budgets, seats alternating.
2. **Outcome-sampling MCCFR on a reduced card game** (2 players, rulebook, the turn cap
   ``max_turns=2``: each player has one turn, with its powers and snap polls): the average
   policy is checkpointed as it trains and played against a uniformly random player.

3. **CFR and exploitability on a tiny board variant** (3x3, 2 players, a 4-ply cap, one
   start): OpenSpiel's tabular ``CFRSolver`` and its ``nash_conv`` (the sum of what each
   player could gain by a best response) after each iteration.

Prints the tables (win shares with 95% intervals, a draw counting half: ``cambio.shares``;
NashConv) and saves the figures. ``--parts`` picks any of the three (``--parts mcts``);
``--plot`` draws parts 1 and 2 together, so it needs both.

    .venv/bin/python examples/openspiel_algorithms.py --plot docs/img/openspiel-algorithms.png \
        --cfr-plot docs/img/openspiel-cfr-board.png
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import cfr, exploitability, mcts, outcome_sampling_mccfr

import cambio.envs.openspiel  # noqa: F401  (registers the games)
from cambio.envs.evaluate import points_from_returns
from cambio.shares import share_interval, share_text

PARTS = ("mcts", "mccfr", "cfr")


def play(game: pyspiel.Game, choose: list, rng: np.random.RandomState) -> list[float]:
    """One game; ``choose[p](state)`` picks player p's action. Returns the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(choose[state.current_player()](state))
    return list(state.returns())


def random_player(rng: np.random.RandomState):
    return lambda state: int(rng.choice(state.legal_actions()))


def mcts_vs_random(budgets: list[int], games: int, seed: int) -> list[tuple[int, float, float,
                                                                             float]]:
    game = pyspiel.load_game("python_cambio_board", {"players": 2, "size": 4, "starts": 1000})
    rng = np.random.RandomState(seed)
    rows = []
    for budget in budgets:
        bot = mcts.MCTSBot(game, 2.0, budget, mcts.RandomRolloutEvaluator(1, rng),
                           random_state=rng)
        points = []
        start = time.perf_counter()
        for g in range(games):
            me = g % 2
            players = [random_player(rng), random_player(rng)]
            players[me] = bot.step
            points.append(points_from_returns(play(game, players, rng), me))
        mean, low, high = share_interval(points)
        rows.append((budget, mean, low, high))
        print(f"MCTS {budget:4d} simulations vs random: win share {share_text(mean, low, high)}"
              f" over {games} games ({time.perf_counter() - start:.0f} s)", flush=True)
    return rows


def mccfr_vs_random(iterations: int, checkpoints: int, games: int, seed: int
                    ) -> list[tuple[int, float, float, float, int]]:
    game = pyspiel.load_game("python_cambio_cards", {"players": 2, "rules": "rulebook",
                                                     "max_turns": 2})
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    rng = np.random.RandomState(seed)
    rows = []
    done = 0
    marks = sorted({int(iterations * (i / checkpoints) ** 2) for i in range(checkpoints + 1)})
    for mark in marks:
        while done < mark:
            solver.iteration()
            done += 1
        policy = solver.average_policy()

        def trained(state: pyspiel.State, policy: Any = policy) -> int:
            probs = policy.action_probabilities(state)
            actions = list(probs)
            p = np.array([probs[a] for a in actions], dtype=np.float64)
            return int(rng.choice(actions, p=p / p.sum()))

        points = []
        for g in range(games):
            me = g % 2
            players = [random_player(rng), random_player(rng)]
            players[me] = trained
            points.append(points_from_returns(play(game, players, rng), me))
        mean, low, high = share_interval(points)
        states = len(solver._infostates)
        rows.append((done, mean, low, high, states))
        print(f"MCCFR {done:6d} iterations: win share vs random {share_text(mean, low, high)}"
              f" over {games} games; {states:,} information states", flush=True)
    return rows


def cfr_board(iterations: int) -> list[tuple[int, float]]:
    game = pyspiel.load_game("python_cambio_board", {"players": 2, "size": 3, "max_plies": 4,
                                                     "starts": 1})
    solver = cfr.CFRSolver(game)
    rows = [(0, exploitability.nash_conv(game, solver.average_policy()))]
    print(f"CFR      0 iterations: NashConv {rows[0][1]:.4f}", flush=True)
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in (1, 2, 4) or i % 8 == 0 or i == iterations:
            rows.append((i, exploitability.nash_conv(game, solver.average_policy())))
            print(f"CFR {i:6d} iterations: NashConv {rows[-1][1]:.4f}", flush=True)
    return rows


def plot_cfr(rows: list[tuple[int, float]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([max(1, r[0]) for r in rows], [r[1] for r in rows], "o-")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("CFR iterations")
    ax.set_ylabel("NashConv of the average policy")
    ax.set_title("python_cambio_board, 3x3, 2 players, 4-ply cap: CFR")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot(mcts_rows: list, cfr_rows: list, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    x = [r[0] for r in mcts_rows]
    left.errorbar(x, [r[1] for r in mcts_rows],
                  yerr=[[r[1] - r[2] for r in mcts_rows], [r[3] - r[1] for r in mcts_rows]],
                  fmt="o-", capsize=4)
    left.set_xscale("log", base=2)
    left.axhline(0.5, color="grey", lw=0.8, ls="--")
    left.set_xlabel("MCTS simulations per move")
    left.set_ylabel("win share vs uniform random (95% interval)")
    left.set_title("python_cambio_board, 4x4, 2 players: MCTS")
    x = [max(1, r[0]) for r in cfr_rows]
    right.errorbar(x, [r[1] for r in cfr_rows],
                   yerr=[[r[1] - r[2] for r in cfr_rows], [r[3] - r[1] for r in cfr_rows]],
                   fmt="o-", capsize=4)
    right.set_xscale("log")
    right.axhline(0.5, color="grey", lw=0.8, ls="--")
    right.set_xlabel("outcome-sampling MCCFR iterations")
    right.set_ylabel("average policy's win share vs uniform random")
    right.set_title("python_cambio_cards, rulebook, max_turns 2")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="2,8,32,128")
    parser.add_argument("--mcts-games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--checkpoints", type=int, default=6)
    parser.add_argument("--cfr-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cfr-iterations", type=int, default=32)
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"which parts to run, comma-separated: {', '.join(PARTS)}")
    parser.add_argument("--plot", default=None, help="figure of parts mcts and mccfr")
    parser.add_argument("--cfr-plot", default=None, help="figure of part cfr")
    args = parser.parse_args()
    parts = check_parts(parser, args)
    if "cfr" in parts:
        rows = cfr_board(args.cfr_iterations)
        if args.cfr_plot:
            plot_cfr(rows, args.cfr_plot)
            print(f"plot: {args.cfr_plot}")
    if "mcts" in parts:
        mcts_rows = mcts_vs_random([int(b) for b in args.budgets.split(",")], args.mcts_games,
                                   args.seed)
    if "mccfr" in parts:
        cfr_rows = mccfr_vs_random(args.iterations, args.checkpoints, args.cfr_games, args.seed)
    if args.plot:
        plot(mcts_rows, cfr_rows, args.plot)
        print(f"plot: {args.plot}")


def check_parts(parser: argparse.ArgumentParser, args: argparse.Namespace) -> set[str]:
    """The parts named, or a usage error when the flags select nothing or ask for a figure
    of a part that does not run."""
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    if not parts or parts - set(PARTS):
        parser.error(f"--parts {args.parts!r}: name one or more of {', '.join(PARTS)}")
    if args.plot and not {"mcts", "mccfr"} <= parts:
        parser.error("--plot draws the mcts and mccfr parts: name both in --parts")
    if args.cfr_plot and "cfr" not in parts:
        parser.error("--cfr-plot draws the cfr part: name it in --parts")
    return parts


if __name__ == "__main__":
    main()
