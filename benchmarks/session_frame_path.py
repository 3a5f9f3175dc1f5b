"""The session's share of the WebSocket frame path, in process: for seeded house-rules card
rounds (three seats, random moves without snaps), the CPU time of accepting each action
(``TurnSession.play``) and building what every recipient gets of it -- each seat's and a
spectator's event and view, as ``Table._broadcast_update`` builds them -- per action, best
of ``--repeat`` passes (``time.thread_time``: what the code costs, not how busy the machine
is). The rest of the path (JSON, the sockets, the store) is ``server_load.py``'s.

    nice -n 10 .venv/bin/python benchmarks/session_frame_path.py --rounds 150
"""

from __future__ import annotations

import argparse
import random
import time

from cambio.cards import Rules
from cambio.games.cards import GAME
from cambio.server.turn_session import TurnSession

PLAYERS = 3


def session(seed: int) -> TurnSession:
    s = TurnSession(GAME, PLAYERS, {"rules": Rules.preset("house").to_json(), "rounds": 1},
                    seed, "m")
    s.deal(s.next_header([{"name": f"p{i}"} for i in range(PLAYERS)], "t"))
    return s


def one_pass(rounds: int) -> tuple[float, int]:
    """Seconds of CPU spent on the frame path, and the actions it took."""
    spent, actions = 0.0, 0
    for seed in range(rounds):
        s = session(seed)
        rng = random.Random(seed)
        while not s.round_over():
            seat = s.decider()
            assert seat is not None
            legal = [a for a in s.view(seat)["legal"] if not a.startswith("snap")]
            text = rng.choice(legal)
            start = time.thread_time()
            applied = s.play(seat, text, s.version)
            for who in (*range(PLAYERS), None):
                applied.event(who)
                s.view(who)
            spent += time.thread_time() - start
            actions += 1
    return spent, actions


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=150)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    runs = [one_pass(args.rounds) for _ in range(args.repeat)]
    best = min(spent for spent, _ in runs)
    actions = runs[0][1]
    print(f"{best / actions * 1e6:.1f} us of CPU per action ({actions} actions, "
          f"{args.rounds} rounds, best of {args.repeat})")


if __name__ == "__main__":
    main()
