"""OpenSpiel's ISMCTS on the card game, through ``resample_from_infostate``.

``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (random rollouts, UCT c = 2) searches the
information set of the seat to move: every simulation starts from a world sampled by
``CambioCardsState.resample_from_infostate`` (the search bots' determinization: the cards
the seat has not seen dealt consistently with its view, the deck's composition and every
public event). It plays seat 0 and seat 1 in turn against

* a uniformly random player, and
* OpenSpiel's ``MCTSBot`` with the same budget, which searches the *true* state (it sees
  every card: a cheating opponent).

Prints win shares (1 a win, 1/2 a tie) with 95% intervals.

    .venv/bin/python examples/openspiel_ismcts.py --games 100 --simulations 50 --max-turns 6
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cambio.envs.openspiel  # noqa: F401  (registers the games)
from cambio.envs.evaluate import points_from_returns
from cambio.shares import share_interval


def play(game: Any, bots: list[Any], rng: np.random.RandomState) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return list(state.returns())


def match(game: Any, opponent: str, games: int, simulations: int, seed: int) -> list[float]:
    """ISMCTS's points in ``games`` rounds against ``opponent``, seats alternating."""
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    points = []
    for k in range(games):
        seat = k % 2
        search = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)
        other: Any = (pyspiel.make_uniform_random_bot(1 - seat, seed + k)
                      if opponent == "random"
                      else mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng))
        bots = [search, other] if seat == 0 else [other, search]
        points.append(points_from_returns(play(game, bots, rng), seat))
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--max-turns", type=int, default=6, help="the rounds' turn cap")
    parser.add_argument("--rules", default="rulebook")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("python_cambio_cards", {"players": 2, "rules": args.rules,
                                                     "max_turns": args.max_turns})
    print(f"ISMCTS, {args.simulations} simulations a decision, {args.rules}, "
          f"max_turns {args.max_turns}, {args.games} rounds per opponent (seed {args.seed})")
    print("| opponent | rounds | ISMCTS win share | 95% interval | seconds |")
    print("|---|---:|---:|---|---:|")
    for opponent in ("random", "mcts"):
        start = time.process_time()
        mean, low, high = share_interval(match(game, opponent, args.games, args.simulations,
                                               args.seed))
        print(f"| {opponent} | {args.games} | {mean:.1%} | {low:.1%}–{high:.1%} | "
              f"{time.process_time() - start:.0f} |")


if __name__ == "__main__":
    main()
