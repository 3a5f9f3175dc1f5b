"""Strategy numbers computed by the project: when calling Cambio pays, what each power is worth.

Both come from counterfactual rollouts in ``memory`` self-play (the round is cloned at the
decision and played out both ways by the same bots, with the same chance, so the difference
is the decision's effect):

* **Calling Cambio.** At every turn start where calling is legal: the caller-to-be's win
  share if it calls now, against drawing instead (then playing on as ``memory`` does, which
  may call later). Grouped by the seat's known total (cards it has seen in its grid), its
  unseen own cards and the round of turns.
* **Powers** (wikipedia preset, where a power may be skipped): at every power the discarder
  would use, its win share and final score using it as ``memory`` does, against skipping it.

    .venv/bin/python benchmarks/cards_strategy.py --players 2 --rules rulebook --games 1500 --seed 1
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

from rich.progress import track

from cambio.bots.cards import ExpectedPointsBot
from cambio.cards import HIDDEN, Phase, Rules, State, observe
from cambio.cards.actions import CAMBIO, DRAW, SKIP
from cambio.seeds import derive_seed
from cambio.shares import tie_share


def finish(state: State, bots: list[ExpectedPointsBot], no_call: int | None = None) -> State:
    """Play to the end; ``no_call`` seat may not call at its next turn start."""
    first = True
    while not state.is_over():
        seat = state.current_player()
        view = observe(state, seat)
        if first and seat == no_call and view.phase == Phase.TURN_START:
            action = DRAW
            first = False
        else:
            action = bots[seat].act(view)
        state.apply(action, seat)
    return state


def share(state: State, seat: int) -> float:
    return tie_share(seat, state.winners(), state.n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="rulebook")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    a = parser.parse_args()
    rules = Rules.preset(a.rules)
    values = [rules.value(c) if c >= 0 else 0 for c in range(56)]
    calls: dict[tuple[int, int, int], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    powers: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    wiki = Rules.preset("wikipedia")
    for g in track(range(a.games), description="strategy"):
        bots = [ExpectedPointsBot(s) for s in range(a.players)]
        state = State(rules, a.players, seed=derive_seed(a.seed, g))
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            if view.phase == Phase.TURN_START and CAMBIO in view.legal:
                own = view.own_grid()
                known = sum(values[c] for c in own if c >= 0)
                hidden = sum(1 for c in own if c == HIDDEN)
                key = (min(known, 12) // 2 * 2, min(hidden, 3), min(view.turn_number
                                                                     // a.players, 6))
                c = state.clone()
                c.apply(CAMBIO, seat)
                yes = share(finish(c, bots), seat)
                no = share(finish(state.clone(), bots, no_call=seat), seat)
                acc = calls[key]
                acc[0] += 1
                acc[1] += yes
                acc[2] += no
            state.apply(bots[seat].act(view), seat)
        # Powers are measured where skipping is legal.
        state = State(wiki, a.players, seed=derive_seed(a.seed, g, 2))
        while not state.is_over():
            seat = state.current_player()
            view = observe(state, seat)
            action = bots[seat].act(view)
            if view.phase == Phase.POWER and action != SKIP and view.power is not None:
                used, skipped = state.clone(), state.clone()
                used.apply(action, seat)
                skipped.apply(SKIP, seat)
                finish(used, bots)
                finish(skipped, bots)
                acc = powers[view.power]
                acc[0] += 1
                acc[1] += share(used, seat) - share(skipped, seat)
                acc[2] += skipped.scores()[seat] - used.scores()[seat]
            state.apply(action, seat)
    out: dict[str, Any] = {
        "players": a.players, "rules": a.rules, "games": a.games, "seed": a.seed,
        "calls": [{"known_total": k[0], "unseen_own": k[1], "round": k[2], "n": int(v[0]),
                   "win_if_call": v[1] / v[0], "win_if_draw": v[2] / v[0]}
                  for k, v in sorted(calls.items()) if v[0] >= 30],
        "powers": {p: {"n": int(v[0]), "win_share_gain": v[1] / v[0],
                       "points_saved": v[2] / v[0]} for p, v in sorted(powers.items())},
    }
    if a.json:
        print(json.dumps(out))
        return
    print(f"Calling Cambio ({a.rules}, {a.players} players, {a.games} rounds of memory "
          f"self-play, seed {a.seed}): win share if calling now vs drawing instead")
    print("| known total | unseen own cards | round | n | call | draw | calling pays |")
    print("|---|---|---|---|---|---|---|")
    for r in out["calls"]:
        pays = "yes" if r["win_if_call"] > r["win_if_draw"] else "no"
        print(f"| {r['known_total']}-{r['known_total'] + 1} | {r['unseen_own']} | "
              f"{r['round']} | {r['n']} | {r['win_if_call']:.0%} | {r['win_if_draw']:.0%} | "
              f"{pays} |")
    print(f"\nPowers (wikipedia, {a.players} players): using the power as memory does vs "
          "skipping it")
    print("| power | n | win share gained | points saved |")
    print("|---|---|---|---|")
    for p, v in out["powers"].items():
        print(f"| {p} | {v['n']} | {v['win_share_gain']:+.1%} | {v['points_saved']:+.2f} |")


if __name__ == "__main__":
    main()
